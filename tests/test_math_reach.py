"""The reach table (rulegen.math.reach): the maximum win of a paytable from it equals the search's
(rulegen.math.maxwin) on every bundled sample, with every wager counted and with none, and on odd tables."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from rulegen.game import Paytable
from rulegen.math import maxwin, reach

SAMPLES = Path(__file__).resolve().parent.parent / "jurisdictions" / "samples"
EVERY_WAGER = frozenset({"ante_across", "ante_down", "across", "down", "middle", "five_card_bonus", "six_card_bonus"})


@pytest.fixture(scope="module")
def table():
    return reach.reach_table()


def _sample(name: str):
    from rulegen.math.report import with_limit_by_rule
    from rulegen.offering import load_offering
    from rulegen.resolved import resolve

    return with_limit_by_rule(resolve(load_offering(SAMPLES / f"{name}.yaml")))


def test_the_table_holds_what_a_deal_can_reach(table):
    assert table.shape == (11, 11, 11)
    assert set(np.unique(table).tolist()) <= {-1, 8, 9, 10}
    assert np.array_equal(table, table.transpose(1, 0, 2))  # Across and Down swap
    assert table[10, 10, 10] == -1  # two royal flushes and a royal board share too many cards
    assert table[0, 0, 0] == 10


@pytest.mark.parametrize("name", ["house-six-card-bonus", "pa-five-card-bonus", "md-progressive", "nj-bonus-spin"])
@pytest.mark.parametrize("counting", ["the jurisdiction's", "every wager"])
def test_the_maximum_win_is_the_searchs_own(table, name, counting):
    offering = _sample(name)
    rules = offering.game_rules
    if counting == "every wager":
        args = (rules, Decimal("2.5"), Decimal(3), EVERY_WAGER)
    else:
        counted = frozenset(offering.payout_limit.counted_in_max_win)
        five = offering.five_card_bonus_minimum if "five_card_bonus" in counted else None
        args = (rules, offering.limits.ante.minimum, five, counted)
    assert reach.max_win_amount(*args, reach=table) == maxwin.max_win_per_round(*args).amount


def test_an_odd_table_too(table):
    rules = _sample("house-six-card-bonus").game_rules
    odd = replace(rules, criss_cross=Paytable.from_mapping({
        "royal_flush": 400, "straight_flush": 75, "four_of_a_kind": 30, "full_house": 9, "flush": Fraction(13, 2),
        "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair_jacks_or_better": 1,
        "pair_sixes_through_tens": "push"}),
        ante=Paytable.from_mapping({"straight": 3, "pair_jacks_or_better": 1}),
        six_card_bonus=Paytable.from_mapping({"royal_flush": 2000, "straight_flush": 900, "four_of_a_kind": 20}))
    args = (odd, Decimal(2), Decimal(2), EVERY_WAGER)
    assert reach.max_win_amount(*args, reach=table) == maxwin.max_win_per_round(*args).amount


def test_a_six_card_table_that_pays_a_better_hand_less_is_refused(table):
    rules = _sample("house-six-card-bonus").game_rules
    worse = replace(rules, six_card_bonus=Paytable.from_mapping({"royal_flush": 10, "four_of_a_kind": 50}))
    with pytest.raises(ValueError, match="pays a better hand less"):
        reach.max_win_amount(worse, Decimal(2), Decimal(2), EVERY_WAGER, reach=table)
