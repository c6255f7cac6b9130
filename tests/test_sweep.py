"""rulegen sweep (rulegen.sweep): the spec, candidate rows against the math layer's own figures, and real small
sweeps on a local Dask cluster of two worker processes on 127.0.0.1 (torn down even when a test fails), resumed,
and on a cluster started apart (--scheduler): the same sweep.csv, byte for byte."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from rulegen.errors import InputError
from rulegen.sweep.results import Point, pareto_front
from rulegen.sweep.run import read_sweep_csv, run_sweep
from rulegen.sweep.spec import load_spec

SAMPLES = Path(__file__).resolve().parent.parent / "jurisdictions" / "samples"


def _spec(tmp_path: Path, text: str, base: str = "house-six-card-bonus.yaml") -> Path:
    shutil.copy(SAMPLES / base, tmp_path / base)
    path = tmp_path / "sweep.yaml"
    path.write_text(f"base: {base}\n{text}", encoding="utf-8")
    return path


SMALL = """vary:
  paytables.criss_cross.full_house: [11, 10]
  paytables.criss_cross.flush: [8, 7]
filter:
  house_edge: {max: 0.125}
"""


def test_candidates_are_numbered_with_the_last_field_fastest(tmp_path):
    spec = load_spec(_spec(tmp_path, SMALL))
    assert spec.count == 4
    assert [spec.values(i) for i in range(4)] == [(Decimal(11), Decimal(8)), (Decimal(11), Decimal(7)),
                                                  (Decimal(10), Decimal(8)), (Decimal(10), Decimal(7))]


@pytest.mark.parametrize("text, message", [
    ("vary:\n  paytables.criss_cross.fullhouse: [1]\n", "is not a paytable row"),
    ("vary:\n  table.positions: [6]\n", "is not a paytable row"),
    ("vary:\n  paytables.criss_cross.flush: [eight]\n", "is not a pay"),
    ("vary:\n  paytables.criss_cross.flush: [-1]\n", "is not a pay between"),
    ("vary:\n  paytables.criss_cross.flush: [8, 8]\n", "given twice"),
    ("vary:\n  paytables.criss_cross.flush: 8\n", "give a list"),
    ("vary: {}\n", "vary maps"),
    ("vary:\n  paytables.ante.flush: [1]\nfilter:\n  edge: {max: 1}\n", "not a figure to filter on"),
    ("vary:\n  paytables.ante.flush: [1]\nbogus: 1\n", "a mapping of base, vary"),
])
def test_a_wrong_spec_says_what_is_wrong(tmp_path, text, message):
    with pytest.raises(InputError, match=message):
        load_spec(_spec(tmp_path, text))


def test_a_named_table_is_written_out_before_its_row_changes(tmp_path):
    from tests.standard_game import STANDARD_CRISS_CROSS
    from rulegen.sweep.evaluate import candidate_offering

    spec = load_spec(_spec(tmp_path, "vary:\n  paytables.criss_cross.flush: [6]\n", "pa-five-card-bonus.yaml"))
    offering = candidate_offering(spec, spec.values(0))
    table = offering.data["paytables"]["criss_cross"]
    assert table["flush"] == 6
    assert table["royal_flush"] == int(STANDARD_CRISS_CROSS.payout(10))
    assert spec_base_unchanged(spec)


def spec_base_unchanged(spec) -> bool:
    from rulegen.sweep.evaluate import _base

    return _base(spec).data["paytables"]["criss_cross"] == "standard"


def test_pareto_front_keeps_what_nothing_beats_on_both():
    points = [Point(0, 0.10, 0.30), Point(1, 0.12, 0.29), Point(2, 0.09, 0.29), Point(3, 0.12, 0.29),
              Point(4, 0.08, 0.31)]
    assert [p.candidate for p in pareto_front(points)] == [1, 3, 0, 4]


@pytest.fixture(scope="module")
def local_cluster():
    """A local Dask cluster of two worker processes on 127.0.0.1, closed whatever the tests do."""
    import logging

    from distributed import LocalCluster

    from rulegen.math.reach import reach_table
    from rulegen.math.shared import shared_counts

    shared_counts()  # in the session's cache, so the workers read them rather than each computing them
    reach_table()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)
    try:
        yield cluster
    finally:
        cluster.close()


def test_a_sweep_on_two_workers_is_the_math_layers_own(tmp_path, local_cluster):
    from rulegen.math.bonus import five_card_bonus, six_card_bonus
    from rulegen.math.main_game import _summarise, run_kernel
    from rulegen.sweep.evaluate import candidate_offering
    from rulegen.resolved import resolve

    spec = load_spec(_spec(tmp_path, SMALL))
    out = tmp_path / "out"
    summary = run_sweep(spec, out, scheduler=local_cluster.scheduler_address, chunk=1, parquet=True)
    assert (summary.candidates, summary.computed, summary.skipped) == (4, 4, 0)
    rows = read_sweep_csv(out / "sweep.csv")
    import pyarrow.parquet as pq

    table = pq.read_table(out / "sweep.parquet")
    assert table.column_names == list(rows[0])
    assert table.column("candidate").to_pylist() == [0, 1, 2, 3]
    assert table.column("house_edge_per_ante").to_pylist() == [float(r["house_edge_per_ante"]) for r in rows]
    assert table.column("ev_per_ante_exact").to_pylist() == [r["ev_per_ante_exact"] for r in rows]
    assert table.column("bonus_spin_return").to_pylist() == [None] * 4
    assert [r["candidate"] for r in rows] == ["0", "1", "2", "3"]
    assert [(r["paytables.criss_cross.full_house"], r["paytables.criss_cross.flush"]) for r in rows] == [
        ("11", "8"), ("11", "7"), ("10", "8"), ("10", "7")]
    # the base's own table validates; the others break the house rules' table, the first rule named
    assert [r["validates"] for r in rows] == ["false", "false", "true", "false"]
    assert rows[0]["first_rule_broken"] == "HOUSE-PayTables-table-row"
    assert "full_house is 11 to 1" in rows[0]["first_finding"]
    # one candidate in full against the exact analysis and the bonus tables
    rules = resolve(candidate_offering(spec, spec.values(1))).game_rules
    analysis = _summarise(rules.criss_cross, rules.ante, run_kernel(rules.criss_cross, rules.ante))
    ev = analysis.ev_per_ante
    assert rows[1]["ev_per_ante_exact"] == f"{ev.numerator}/{ev.denominator}"
    assert rows[1]["house_edge_per_ante"] == repr(analysis.house_edge_per_ante)
    assert rows[1]["element_of_risk"] == repr(analysis.element_of_risk)
    assert rows[1]["hit_frequency"] == repr(analysis.hit_frequency)
    assert rows[1]["standard_deviation"] == repr(analysis.standard_deviation)
    assert rows[1]["five_card_bonus_return"] == repr(five_card_bonus(rules.five_card_bonus).return_per_wager)
    assert rows[1]["six_card_bonus_return"] == repr(six_card_bonus(rules.six_card_bonus).return_per_wager)
    assert rows[1]["max_win_at_minimum"] == "3724"
    # the filter, and the front among those that pass it
    passing = [r["candidate"] for r in rows if r["passes_filter"] == "true"]
    assert passing == [r["candidate"] for r in rows if float(r["house_edge_per_ante"]) <= 0.125]
    assert {r["candidate"] for r in rows if r["pareto"] == "true"} <= set(passing)
    svg = (out / "pareto.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "Pareto front" in svg

    # resumed: a part lost is computed again, the others are skipped, and sweep.csv is the same bytes
    first = (out / "sweep.csv").read_bytes()
    (out / "parts" / "part-0000002.csv").unlink()
    (out / "sweep.csv").unlink()
    again = run_sweep(spec, out, scheduler=local_cluster.scheduler_address)
    assert (again.computed, again.skipped) == (1, 3)
    assert (out / "sweep.csv").read_bytes() == first

    # another filter: applied to the rows already there, nothing computed again
    spec_path = tmp_path / "sweep.yaml"
    spec_path.write_text(spec_path.read_text(encoding="utf-8").replace("{max: 0.125}", "{min: 0.125}"),
                         encoding="utf-8")
    refiltered = run_sweep(load_spec(spec_path), out, scheduler=local_cluster.scheduler_address)
    assert (refiltered.computed, refiltered.skipped) == (0, 4)
    flipped = read_sweep_csv(out / "sweep.csv")
    assert [r["passes_filter"] for r in flipped] == [
        "true" if float(r["house_edge_per_ante"]) >= 0.125 else "false" for r in flipped]
    assert [r["passes_filter"] for r in flipped] != [r["passes_filter"] for r in rows]

    # another sweep's results are not mixed in
    other = load_spec(_spec(tmp_path, "vary:\n  paytables.criss_cross.flush: [9]\n"))
    with pytest.raises(InputError, match="another sweep"):
        run_sweep(other, out, scheduler=local_cluster.scheduler_address)


def test_the_command_on_its_own_local_cluster_gives_the_same_sweep(tmp_path, local_cluster):
    from typer.testing import CliRunner

    from rulegen.cli import app

    spec_path = _spec(tmp_path, SMALL)
    apart = tmp_path / "apart"
    run_sweep(load_spec(spec_path), apart, scheduler=local_cluster.scheduler_address, chunk=3)
    result = CliRunner().invoke(app, ["sweep", str(spec_path), "--out", str(tmp_path / "local"), "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert "4 candidates (4 computed, 0 already in" in result.output
    assert (tmp_path / "local" / "sweep.csv").read_bytes() == (apart / "sweep.csv").read_bytes()


def test_a_row_the_base_cannot_take_is_said_before_any_work(tmp_path):
    spec = load_spec(_spec(tmp_path, "vary:\n  six_card_bonus.paytable.flush: [9]\n", "pa-five-card-bonus.yaml"))
    with pytest.raises(InputError, match="has no six_card_bonus"):
        run_sweep(spec, tmp_path / "out", scheduler="tcp://127.0.0.1:1", timeout=2)


def test_no_scheduler_there_is_a_usage_error(tmp_path):
    spec = load_spec(_spec(tmp_path, "vary:\n  paytables.criss_cross.flush: [8]\n"))
    with pytest.raises(InputError, match="no Dask scheduler answers"):
        run_sweep(spec, tmp_path / "out", scheduler="tcp://127.0.0.1:1", timeout=2)
