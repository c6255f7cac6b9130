"""The main game from the shared counts (rulegen.math.counted) against the analysis that walks the deals
(rulegen.math.main_game._analyse): every field equal, exact fractions, the Monte Carlo to the last bit; the cache
files of the counts and of the Monte Carlo's deals read back only whole; `rulegen math` printing the same bytes
whichever way its figures were found."""

from __future__ import annotations

import dataclasses
import shutil

import numpy as np
import pytest
from typer.testing import CliRunner

from rulegen.math import counted, main_game, shared
from rulegen.math.deals import N_PAIRS, starting_hands
from rulegen.math.montecarlo import strategy_from_run
from tests.test_math_shared import TABLES

SEED, ROUNDS = main_game.MONTE_CARLO_SEED, main_game.MONTE_CARLO_ROUNDS


@pytest.fixture(scope="module")
def tables() -> counted.CountTables:
    return counted.held_tables()


@pytest.fixture(scope="module")
def deals(tables) -> counted.DealIndex:
    return counted.held_deals(tables, ROUNDS, SEED)


def _differences(found, expected) -> list[str]:
    return [field.name for field in dataclasses.fields(expected)
            if getattr(found, field.name) != getattr(expected, field.name)]


@pytest.mark.parametrize("name", list(TABLES))
def test_every_field_is_the_exact_analysis_own(tables, name):
    criss_cross, ante = TABLES[name]
    expected = main_game._summarise(criss_cross, ante, main_game.run_kernel(criss_cross, ante))
    found = counted.analysis(tables, criss_cross, ante)
    assert _differences(found, expected) == []
    assert found.ev_per_ante == expected.ev_per_ante and found.variance == expected.variance  # Fractions


@pytest.mark.parametrize("name", ["standard", "house"])
def test_the_monte_carlo_is_the_simulation_own(tables, deals, name):
    """The same 2,000,000 rounds played under the same strategy: mean, deviation, interval, hit frequency equal to
    the last bit (the house table folds some starting hands at Across, the standard one none)."""
    criss_cross, ante = TABLES[name]
    expected = main_game._analyse(criss_cross, ante, None, ROUNDS)
    found = counted.analysis(tables, criss_cross, ante, deals, SEED)
    assert found.monte_carlo == expected.monte_carlo
    assert found == expected


def test_the_down_decision_of_every_across_pair_is_the_exact_analysis_own(tables):
    criss_cross, ante = TABLES["odd half"]
    strategy = strategy_from_run(main_game.run_kernel(criss_cross, ante))
    decisions = counted.decide(tables, criss_cross, ante)
    kinds = tables.counts.pair_type
    assert np.array_equal(decisions.across, strategy.across)
    for c in range(len(starting_hands())):
        valid = kinds[c] >= 0
        assert np.count_nonzero(valid) == N_PAIRS - 101  # 1,225 across pairs; 101 pairs hold a hole card
        for j in range(2):
            assert np.array_equal(decisions.down[kinds[c, valid], j], strategy.down[c, j, valid])


def test_a_table_that_pays_a_better_hand_less_is_refused(tables):
    from rulegen.game import Paytable
    from tests.standard_game import STANDARD_ANTE

    worse = Paytable.from_mapping({"royal_flush": 10, "straight_flush": 50, "pair_jacks_or_better": 1})
    with pytest.raises(ValueError, match="pays less for a better hand"):
        counted.decide(tables, worse, STANDARD_ANTE)


# --- the cache files ------------------------------------------------------------------------------------------

def _flip(path, at=None) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2 if at is None else at] ^= 0x01
    path.write_bytes(bytes(data))


def test_counts_altered_or_foreign_are_not_read(tables, tmp_path, monkeypatch):
    counts = tables.counts
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    shared._store_disk(counts)
    path = shared._disk_path()
    whole = path.read_bytes()
    assert shared._load_disk().digest() == counts.digest()
    _flip(path)  # one bit anywhere: the archive or the digest no longer holds
    assert shared._load_disk() is None
    # another version's file under this one's name: its key says so
    path.write_bytes(whole)
    monkeypatch.setattr(shared, "_disk_key", lambda: "another version")
    assert shared._load_disk() is None
    monkeypatch.undo()
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    # counts altered with their digest written again: the check of their totals refuses them
    altered = dataclasses.replace(counts, pair_type=counts.pair_type.copy())
    altered.pair_type[0, altered.pair_type[0] >= 0] = altered.pair_type[1, altered.pair_type[1] >= 0]
    with pytest.raises(ValueError):
        altered.check()
    shared._store_disk(altered)
    assert shared._load_disk() is None


def test_altered_counts_are_computed_again_not_trusted(tables, tmp_path, monkeypatch):
    counts = tables.counts
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    shared._store_disk(counts)
    _flip(shared._disk_path())
    computed = []

    def compute(progress=None, threads=None):
        computed.append(True)
        return counts

    monkeypatch.setattr(shared, "compute_shared_counts", compute)
    monkeypatch.setattr(shared, "_held", [])
    assert shared.shared_counts() is counts and computed == [True]
    assert shared._load_disk().digest() == counts.digest()  # stored again, whole


def test_altered_deals_are_dealt_again(tables, deals, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(counted, "_held", {})
    first = counted.held_deals(tables, ROUNDS, SEED)  # none on disk: dealt and stored
    path = counted._deals_path(counted._deals_key(tables.counts, ROUNDS, SEED))
    assert counted.load_deals(tables.counts, ROUNDS, SEED) is not None
    _flip(path)
    assert counted.load_deals(tables.counts, ROUNDS, SEED) is None
    counted._held.clear()
    again = counted.held_deals(tables, ROUNDS, SEED)
    for name in ("hand_kind", "table_row", "cell"):
        assert np.array_equal(getattr(again, name), getattr(first, name))
        assert np.array_equal(getattr(again, name), getattr(deals, name))
    assert counted.load_deals(tables.counts, ROUNDS, SEED) is not None  # written again, whole


def test_deals_that_are_no_deal_are_refused(tables):
    rounds = 1000
    whole = counted.compute_deals(tables.counts, rounds, SEED)
    whole.check(tables.counts, rounds)
    counts = tables.counts
    empty_cell = int(np.nonzero(counts.keys[whole.table[0]] == 0)[0][0])
    moved = dataclasses.replace(whole, cell=whole.cell.copy())
    moved.cell[0] = empty_cell  # a middle card its joint table does not have
    with pytest.raises(ValueError, match="not a deal"):
        moved.check(counts, rounds)
    def kinds_of(c: int) -> set[int]:
        return set(counts.hand_type[counts.hand_offsets[c]:counts.hand_offsets[c + 1]].tolist())

    other_hand = dataclasses.replace(whole, hand=whole.hand.copy())
    kind = int(whole.kind[0])
    assert kind in kinds_of(int(whole.hand[0]))
    other_hand.hand[0] = next(c for c in range(169) if kind not in kinds_of(c))  # a hand without that across pair
    with pytest.raises(ValueError, match="not a deal"):
        other_hand.check(counts, rounds)


# --- rulegen math ---------------------------------------------------------------------------------------------

SAMPLES = ["house-six-card-bonus.yaml", "md-progressive.yaml", "nj-bonus-spin.yaml", "pa-five-card-bonus.yaml"]


@pytest.mark.parametrize("name", SAMPLES)
def test_rulegen_math_prints_the_same_bytes_from_the_counts(tables, deals, name, tmp_path, monkeypatch):
    """A cache holding only the counts and the deals (a new paytable on a machine that has them) against
    --no-cache (every figure found by walking the deals): the same JSON, byte for byte."""
    from rulegen.cli import app
    from rulegen.math import cache as disk
    from rulegen.resources import samples_dir

    source = disk.cache_dir()
    for found in [*source.glob("shared-counts-*.npz"), *source.glob("monte-carlo-deals-*.npz")]:
        shutil.copy(found, tmp_path / found.name)
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    called = []
    real = counted.analysis

    def spy(*args, **kwargs):
        called.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(counted, "analysis", spy)
    runner = CliRunner()
    sample = str(samples_dir() / name)
    from_counts = runner.invoke(app, ["math", "--json", sample])
    assert from_counts.exit_code == 0, from_counts.output
    assert called, "the figures did not come from the counts"
    called.clear()
    walked = runner.invoke(app, ["math", "--json", "--no-cache", sample])
    assert walked.exit_code == 0, walked.output
    assert not called
    assert from_counts.stdout == walked.stdout


def test_counts_with_more_tables_than_a_deal_can_name_are_refused_before_any_dealing():
    """A deal names its joint table and its kind of across pair in 16 bits: counts holding more are refused at once,
    not after the seconds of dealing."""
    counts = shared.shared_counts()
    too_many = np.zeros((2 ** 16 + 1, counts.keys.shape[1]), dtype=counts.keys.dtype)
    with pytest.raises(ValueError, match="more kinds of across pair or joint tables than the deals can name"):
        counted.compute_deals(dataclasses.replace(counts, keys=too_many), rounds=10, seed=1)
