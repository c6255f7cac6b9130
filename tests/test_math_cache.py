"""The disk cache: atomic entries with a checksum; a corrupt or half-written entry is ignored."""

import json
from fractions import Fraction

from rulegen.math import cache as disk


def test_round_trip_and_corruption(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    key = disk.key("test", [1, 2, 3])
    assert disk.load(key) is None
    assert disk.store(key, {"a": 1, "b": [1, 2]})
    assert disk.load(key) == {"a": 1, "b": [1, 2]}
    path = tmp_path / f"{key}.json"
    document = json.loads(path.read_text())
    document["payload"]["a"] = 2  # a changed figure: the checksum no longer matches
    path.write_text(json.dumps(document))
    assert disk.load(key) is None
    path.write_text(path.read_text()[:20])  # half-written
    assert disk.load(key) is None
    path.write_bytes(b"\xff\xfe")
    assert disk.load(key) is None
    assert not list(tmp_path.glob(".tmp-*"))


def test_keys_differ_by_content():
    assert disk.key("main_game", ["1", "2"]) != disk.key("main_game", ["1", "3"])


def test_unwritable_cache_is_skipped(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(blocker / "sub"))
    assert disk.store("k", {"a": 1}) is False
    assert disk.load("k") is None


def _analysis(ev: Fraction):
    """A small stand-in analysis (the figures are arbitrary): what the cache stores and gives back."""
    from rulegen.math import results as r

    choices = r.ChoiceFrequencies(fold=0.25, once=0.5, thrice=0.25)
    return r.MainGameAnalysis(
        paytables=r.PaytableIdentity(("-1", "1"), ("-1", "1"), ("nothing", "pair")), ev_per_ante=ev,
        average_total_wager_exact=Fraction(7, 2), hit_frequency_exact=Fraction(1, 3), variance=Fraction(5, 3),
        rounds=12, decisions=r.DecisionFrequencies(choices, choices, choices, "note"),
        ties=r.TieCounts(1, 2, 3, "note", "rule", "middle rule"), across_decision={"AA": "3x", "32o": "fold"},
        starting_hands=(r.StartingHandValue("AA", 6, "3x", Fraction(-2), Fraction(1, 7), Fraction(3, 7)),),
        distribution=(r.NetOutcome(Fraction(-2), 8, 8 / 12), r.NetOutcome(Fraction(13, 2), 4, 4 / 12)),
        gross_payout_distribution=(r.GrossPayout(Fraction(0), 8), r.GrossPayout(Fraction(17, 2), 4)),
        scale=2, method="method", tie_rule="rule",
        monte_carlo=r.MonteCarloResult(10, 1, -0.1, 2.5, 0.99, (-0.3, 0.1), -0.05, True, 0.4))


def test_typed_analysis_round_trips_exactly():
    from rulegen.math.payload import from_payload, to_payload
    from rulegen.math.results import MainGameAnalysis

    analysis = _analysis(Fraction(-579091, 6689228))
    payload = json.loads(json.dumps(to_payload(analysis)))  # as it goes through the file
    assert from_payload(MainGameAnalysis, payload) == analysis
    assert from_payload(MainGameAnalysis, {"ev_per_ante": "-1/2", "rounds": 12}) is None  # an older format


def test_corrupt_or_old_analysis_entry_is_recomputed(tmp_path, monkeypatch):
    """The real analysis through its public entry point: a computed analysis (from the shared counts, or by
    walking the deals) is told from one the cache served by which of the two ran, and a forged entry with a good
    checksum shows the cache is read. A changed entry, or one in an older format, is recomputed, never trusted."""
    import shutil
    from dataclasses import replace

    from tests.standard_game import STANDARD_RULES
    from rulegen.math import main_game as mg
    from rulegen.math import shared
    from rulegen.math.payload import from_payload, to_payload
    from rulegen.math.results import MainGameAnalysis

    shared.shared_counts()  # the session's counts, held or read from its cache, copied: not computed in tmp_path
    for found in disk.cache_dir().glob("shared-counts-*.npz"):
        shutil.copy(found, tmp_path / found.name)
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    ran = []
    for name in ("_from_counts", "_analyse"):
        def spy(*args, _real=getattr(mg, name), **kwargs):
            ran.append(True)
            return _real(*args, **kwargs)
        monkeypatch.setattr(mg, name, spy)

    def analyse(**options):
        ran.clear()
        analysis = mg.analyse_main_game(STANDARD_RULES, monte_carlo_rounds=0, **options)
        return analysis, "computed" if ran else "cache"

    computed, how = analyse()
    assert how == "computed"
    (entry,) = tmp_path.glob("*.json")
    assert analyse() == (computed, "cache")
    forged = replace(computed, ev_per_ante=computed.ev_per_ante + 1)
    assert disk.store(entry.stem, to_payload(forged))  # checksum recomputed: what anyone who can write there can do
    assert analyse() == (forged, "cache")
    document = json.loads(entry.read_text())
    document["payload"]["ev_per_ante"] = "-7/97"  # a changed figure: the checksum no longer matches
    entry.write_text(json.dumps(document))
    assert analyse() == (computed, "computed")
    assert from_payload(MainGameAnalysis, disk.load(entry.stem)) == computed  # and written back whole
    disk.store(entry.stem, {"ev_per_ante": "-1/2", "rounds": 84_284_272_800})  # an older format, checksum good
    assert analyse() == (computed, "computed")
    assert disk.store(entry.stem, to_payload(forged))
    assert analyse(use_cache=False) == (computed, "computed")  # without the cache, the entry is not even read
    assert from_payload(MainGameAnalysis, disk.load(entry.stem)) == forged  # nor written


def _poison(key: str, payload) -> None:
    """An entry edited with its checksum recomputed: what anyone who can write the cache folder can do."""
    assert disk.store(key, payload)


def test_a_poisoned_entry_is_served_outside_fresh_and_never_inside(tmp_path, monkeypatch):
    from rulegen.math import bonus

    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    true_counts = bonus.class_counts(5)
    forged = [true_counts[0] + 1, true_counts[1] - 1, *true_counts[2:]]  # same total: passes the sum check
    _poison(disk.key("class_counts", bonus.CODE_VERSION, 5), forged)
    bonus.class_counts.cache_clear()
    assert list(bonus.class_counts(5)) == forged  # the cache is trusted for drafts: the test can tell
    with disk.fresh():
        assert disk.load(disk.key("class_counts", bonus.CODE_VERSION, 5)) is None
        assert bonus.class_counts(5) == true_counts  # the memo read from the disk was forgotten
    bonus.class_counts.cache_clear()


def test_final_builds_and_rebuilds_read_nothing_from_the_cache(tmp_path, monkeypatch):
    """The build layer computes a final build's figures, and verify --rebuild's, inside fresh()."""
    from pathlib import Path

    import pytest

    import rulegen.assemble as build_module
    from rulegen.resources import samples_dir

    seen = []

    class Stop(Exception):
        pass

    def spy(*_args, **_kwargs):
        seen.append(disk.reading())
        raise Stop

    monkeypatch.setattr(build_module, "math_results", spy)
    sample = next(p for p in sorted(samples_dir().glob("*.yaml")) if p.name.startswith("pa-"))
    for final in (False, True):
        with pytest.raises(Stop):
            build_module.build(sample, build_module.BuildOptions(out_dir=tmp_path / "out", final=final))
    with pytest.raises(Stop):
        build_module.render_rules_pdf_for_verify(source=Path(sample).read_bytes(), name=sample.name, logo=None,
                                                 manifest={"options": {"final": True}}, signer=None)
    assert seen == [True, False, False]
    assert disk.reading()
