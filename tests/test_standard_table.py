"""The standard table's exact main-game figures, pinned in the fast suite.

The analysis runs once per test session (the session's math cache, tests/conftest.py), and every other test
that needs the standard table reads it from there. Each figure is checked against the exact fraction, and the
summary figures against arithmetic done here on the exact distribution of net results.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.standard_game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game

# Expected loss per ante of the standard Criss Cross and Ante tables under optimal strategy (the known figure).
HOUSE_EDGE_PER_ANTE = Fraction(579091, 6689228)
DEALS = 1326 * 1225 * 1128 * 46  # hole pair, Across pair, Down pair, middle card


@pytest.fixture(scope="module")
def standard():
    return analyse_main_game(STANDARD_RULES)


def test_expected_value_and_house_edge_are_the_exact_fractions(standard):
    assert standard.ev_per_ante == -HOUSE_EDGE_PER_ANTE
    assert standard.house_edge_per_ante == float(HOUSE_EDGE_PER_ANTE)
    assert standard.house_edge_per_initial_wager == float(HOUSE_EDGE_PER_ANTE / 2)  # two antes a round
    assert standard.rounds == DEALS == 84_284_272_800


def test_the_distribution_adds_up_to_the_figures(standard):
    rows = [(row.net, row.combinations) for row in standard.distribution]
    assert sum(count for _net, count in rows) == DEALS
    ev = Fraction(sum(net * count for net, count in rows)) / DEALS
    assert ev == -HOUSE_EDGE_PER_ANTE
    variance = Fraction(sum(net * net * count for net, count in rows)) / DEALS - ev * ev
    assert standard.variance == variance
    assert standard.hit_frequency_exact == Fraction(sum(count for net, count in rows if net > 0), DEALS)


def test_element_of_risk_is_the_loss_over_the_average_wager(standard):
    average = standard.average_total_wager_exact
    assert 2 < average < 2 + 3 * 3  # two antes, and at most three bets at three times the ante
    assert standard.element_of_risk == float(HOUSE_EDGE_PER_ANTE / average)


def test_the_math_command_prints_the_same_figures(standard):
    import json

    from typer.testing import CliRunner

    from rulegen.cli import app
    from rulegen.resources import samples_dir

    result = CliRunner().invoke(app, ["math", str(samples_dir() / "pa-five-card-bonus.yaml"), "--json"])
    assert result.exit_code == 0, result.output
    main = json.loads(result.stdout)["main_game"]  # the Pennsylvania sample offers the standard tables
    assert main["house_edge_per_ante"] == float(HOUSE_EDGE_PER_ANTE)
    assert main["house_edge_per_initial_wager"] == float(HOUSE_EDGE_PER_ANTE / 2)


def test_the_appendix_checks_hold_and_a_distribution_that_disagrees_fails_them(standard):
    """The appendix's check rows recompute what they state: the mean of the printed distribution against the
    strategy's EV, the deals the distribution counts against the deals enumerated."""
    import dataclasses

    from rulegen.math.report import verification_checks

    checks = {check.check: check for check in verification_checks(standard)}
    assert checks and all(check.passed for check in checks.values())
    first = standard.distribution[0]
    moved = dataclasses.replace(first, net=first.net + 1)  # one net result misstated by an ante
    altered = dataclasses.replace(standard, distribution=(moved, *standard.distribution[1:]))
    failed = {check.check for check in verification_checks(altered) if not check.passed}
    assert failed == {"main game: the distribution's mean equals the strategy's EV (exact fractions)"}
    dropped = dataclasses.replace(standard, distribution=standard.distribution[1:])
    failed = {check.check for check in verification_checks(dropped) if not check.passed}
    assert "main game: deals enumerated" in failed
