from decimal import Decimal
from fractions import Fraction

import pytest

from rulegen.game import BonusSpin, WheelSegment
from rulegen.math.wheel import bonus_spin_math, trigger_probability


def test_trigger_probabilities():
    assert trigger_probability("pair_in_hole_cards") == Fraction(78, 1326)
    assert trigger_probability("suited_hole_cards") == Fraction(312, 1326)
    assert trigger_probability("pair_or_suited_hole_cards") == Fraction(390, 1326)


def _spin(weights):
    pays = [None, 500, 50, 10]
    community = [None, 100, None, None]
    return BonusSpin(Decimal(5), "pair_in_hole_cards",
                     tuple(WheelSegment(str(p or "jackpot"), Decimal(p) if p else None,
                                        Decimal(c) if c else None, w) for p, c, w in zip(pays, community, weights)),
                     "progressive", Decimal(5000))


def test_without_weights_no_return_is_assumed():
    result = bonus_spin_math(_spin([None] * 4))
    assert result.weighted is None and result.return_per_wager is None and "weights" in result.needs
    assert result.break_even_mean_prize == pytest.approx(5 * 1326 / 78)
    assert result.return_per_mean_prize == pytest.approx(78 / 1326 / 5)


def test_with_weights():
    result = bonus_spin_math(_spin([1, 3, 20, 76]))
    mean = Fraction(5000 + 3 * 500 + 20 * 50 + 76 * 10, 100)
    wheel = result.weighted
    assert wheel is not None
    assert wheel.mean_prize == pytest.approx(float(mean))
    assert wheel.return_per_wager == pytest.approx(float(Fraction(78, 1326) * mean / 5))
    community = wheel.community_value
    assert [row.other_players for row in community] == [0, 1, 2, 3, 4, 5]
    assert community[5].value_per_wager == pytest.approx(5 * 78 / 1326 * 3 / 5)
    progressive = wheel.progressive
    assert progressive is not None and progressive.meter_used == Decimal(5000)
    assert progressive.intercept + progressive.per_dollar_of_meter * progressive.break_even_meter == pytest.approx(1)
