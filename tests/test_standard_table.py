"""The standard table's exact main-game figures, pinned in the fast suite.

The analysis runs once per test session (the session's math cache, tests/conftest.py), and every other test
that needs the standard table reads it from there. Each figure is checked against the exact fraction, and the
summary figures against arithmetic done here on the exact distribution of net results.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulegen.game import STANDARD_RULES
from rulegen.math.main_game import analyse_main_game

# Expected loss per ante of the standard Criss Cross and Ante tables under optimal strategy (the known figure).
HOUSE_EDGE_PER_ANTE = Fraction(579091, 6689228)
DEALS = 1326 * 1225 * 1128 * 46  # hole pair, Across pair, Down pair, middle card


@pytest.fixture(scope="module")
def standard():
    return analyse_main_game(STANDARD_RULES)


def exact(value) -> Fraction:
    return Fraction(value)


def test_expected_value_and_house_edge_are_the_exact_fractions(standard):
    assert exact(standard["ev_per_ante"]) == -HOUSE_EDGE_PER_ANTE
    assert standard["house_edge_per_ante"] == float(HOUSE_EDGE_PER_ANTE)
    assert standard["house_edge_per_initial_wager"] == float(HOUSE_EDGE_PER_ANTE / 2)  # two antes a round
    assert standard["rounds"] == DEALS == 84_284_272_800


def test_the_distribution_adds_up_to_the_figures(standard):
    rows = [(exact(row["net"]), int(row["count"])) for row in standard["distribution"]]
    assert sum(count for _net, count in rows) == DEALS
    ev = sum(net * count for net, count in rows) / DEALS
    assert ev == -HOUSE_EDGE_PER_ANTE
    variance = sum(net * net * count for net, count in rows) / DEALS - ev * ev
    assert exact(standard["variance"]) == variance
    assert standard["standard_deviation"] == pytest.approx(float(variance) ** 0.5, rel=1e-15)
    wins = sum(count for net, count in rows if net > 0)
    assert standard["hit_frequency"] == pytest.approx(wins / DEALS, rel=1e-15)


def test_element_of_risk_is_the_loss_over_the_average_wager(standard):
    average = exact(standard["average_total_wager_exact"])
    assert 2 < average < 2 + 3 * 3  # two antes, and at most three bets at three times the ante
    assert standard["element_of_risk"] == pytest.approx(float(HOUSE_EDGE_PER_ANTE / average), rel=1e-15)
