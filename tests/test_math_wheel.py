from decimal import Decimal
from fractions import Fraction
from itertools import combinations

import pytest

from rulegen.game import BonusSpin, WheelSegment
from rulegen.math.wheel import WheelSetting, bonus_spin_math, exact_dollars, exact_percent, trigger_probability


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
    result = bonus_spin_math(_spin([None] * 4), WheelSetting(other_players=range(0, 6)))
    assert result.weighted is None and result.return_per_wager is None and "weights" in result.needs
    assert result.break_even_mean_prize == pytest.approx(5 * 1326 / 78)
    assert result.return_per_mean_prize == pytest.approx(78 / 1326 / 5)


def test_with_weights():
    result = bonus_spin_math(_spin([1, 3, 20, 76]), WheelSetting(other_players=range(0, 6)))
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
    assert progressive.long_run_return is None  # no rate of progression given: nothing to add back


def test_the_long_run_return_adds_the_rate_of_progression_at_the_reset_amount():
    """A meter reset to $2,000 and growing by 2.5% of each wager: over its cycles the wheel pays the $2,000 reset in
    the jackpot segment and gives back the 2.5%, so the long-run return is the return with the jackpot at $2,000
    plus 2.5%."""
    setting = WheelSetting(other_players=range(0, 6), top_prize_reset=Decimal(2000),
                           rate_of_progression_percent=Decimal("2.5"))
    progressive = bonus_spin_math(_spin([1, 3, 20, 76]), setting).weighted.progressive
    at_reset = Fraction(78, 1326) * Fraction(2000 + 3 * 500 + 20 * 50 + 76 * 10, 100) / 5
    assert progressive.long_run_return == pytest.approx(float(at_reset + Fraction(25, 1000)), rel=1e-12)


# --- the return without the wheel's weights, checked against arithmetic of its own --------------------------------

DECK = [(rank, suit) for rank in range(13) for suit in range(4)]


def _hole_counts():
    """Two-card hands of 52 cards counted one by one: all, pairs, suited."""
    hands = list(combinations(DECK, 2))
    pairs = sum(1 for a, b in hands if a[0] == b[0])
    suited = sum(1 for a, b in hands if a[1] == b[1])
    return len(hands), pairs, suited


def test_trigger_counts_from_the_deck():
    total, pairs, suited = _hole_counts()
    assert (total, pairs, suited) == (1326, 78, 312)
    assert trigger_probability("pair_in_hole_cards") == Fraction(pairs, total)
    assert trigger_probability("suited_hole_cards") == Fraction(suited, total)
    assert trigger_probability("pair_or_suited_hole_cards") == Fraction(pairs + suited, total)


def test_another_player_spins_as_often_whatever_my_cards():
    """The community value counts P(trigger) for each other player: over every (my hand, another's hand) dealt
    from one deck, the other holds a pair 78 times in 1,326, whatever my two cards took from the deck."""
    total = paired = 0
    for mine in combinations(DECK, 2):
        left = [card for card in DECK if card not in mine]
        ranks = [sum(1 for card in left if card[0] == rank) for rank in range(13)]
        paired += sum(n * (n - 1) // 2 for n in ranks)
        total += 50 * 49 // 2
    assert Fraction(paired, total) == Fraction(78, 1326)


def _nj_table_4(weights=None, top=("fixed", 2500)):
    # Table 4 of the New Jersey text in its rows: (player pay, community pay); None is the top prize
    rows = [(None, None), (500, None), (200, None), (100, 20), (70, None), (50, 10), (35, None), (25, None),
            (15, 3), (12, None), (11, None), (10, None)]
    weights = weights or [None] * len(rows)
    return BonusSpin(Decimal(1), "pair_in_hole_cards",
                     tuple(WheelSegment(str(p or "jackpot"), Decimal(p) if p else None, Decimal(c) if c else None, w)
                           for (p, c), w in zip(rows, weights)),
                     top[0], Decimal(top[1]))


def test_without_weights_the_return_is_exact_in_the_mean_prize_and_the_community_pay():
    result = bonus_spin_math(_nj_table_4(), WheelSetting(other_players=range(0, 6)))
    formula = result.formula
    assert result.weighted is None and formula is not None
    p, wager = Fraction(78, 1326), Fraction(1)
    assert formula.per_unit == p / wager and formula.unit == 17 and formula.progression == 0
    assert formula.community == "segments" and formula.community_pays == (20, 10, 3)
    assert [(row.other_players_from, row.other_players_to) for row in formula.rows] == [(k, k) for k in range(6)]
    for k, row in enumerate(formula.rows):
        assert row.per_mean_community == k * p / wager
        assert row.community_rate == (f"{k}/17" if k else "0")
        assert row.break_even_sum == wager / p  # M + kC = $17
        assert row.break_even == ("M = $17" if k == 0 else f"M + {'' if k == 1 else k}C = $17")
    assert formula.rows[2].formula == "(M + 2C)/$17" and formula.general == "(M + kC)/$17"


def test_the_formula_gives_the_weighted_return_once_weights_are_known():
    """Put any weights on the wheel: the no-weights formula at that wheel's M and C (worked out here from the
    weights) is the return the weighted wheel prints, for each number of other players."""
    weights = [1, 2, 4, 6, 9, 12, 20, 30, 40, 60, 80, 100]
    weighted = bonus_spin_math(_nj_table_4(weights), WheelSetting(other_players=range(0, 6))).weighted
    formula = bonus_spin_math(_nj_table_4(), WheelSetting(other_players=range(0, 6))).formula
    assert weighted is not None and formula is not None
    pays = [2500, 500, 200, 100, 70, 50, 35, 25, 15, 12, 11, 10]
    community = [0, 0, 0, 20, 0, 10, 0, 0, 3, 0, 0, 0]
    total = sum(weights)
    mean = Fraction(sum(w * x for w, x in zip(weights, pays)), total)
    mean_community = Fraction(sum(w * c for w, c in zip(weights, community)), total)
    for k, row in enumerate(weighted.community_value):
        expected = Fraction(78, 1326) * (mean + k * mean_community) / 1
        assert row.return_with_community == float(expected)
        assert formula.per_unit * mean + formula.rows[k].per_mean_community * mean_community == expected


def test_the_md_sample_wheel_progressive_without_community_pays():
    """Paytable D at $5, a meter of $5,000 reset, 2.5% rate: no segment carries a community pay, so one row for
    0 to 5 others; return = 78/1326 x M / 5 + 2.5%, 100% at M = (1 - 1/40) x 5 x 1326/78 = $82.875."""
    pays = [None, 2500, 1000, 600, 350, 250, 75, 40, 70, 60, 50]
    spin = BonusSpin(Decimal(5), "pair_in_hole_cards",
                     tuple(WheelSegment(str(p or "jackpot"), Decimal(p) if p else None) for p in pays),
                     "progressive", Decimal(5000))
    setting = WheelSetting(other_players=range(0, 6), top_prize_reset=Decimal(5000),
                           rate_of_progression_percent=Decimal("2.5"))
    formula = bonus_spin_math(spin, setting).formula
    assert formula is not None and formula.community == "none" and formula.progression == Fraction(1, 40)
    (row,) = formula.rows
    assert (row.other_players_from, row.other_players_to) == (0, 5)
    assert row.break_even_sum == (1 - Fraction(25, 1000)) * 5 * Fraction(1326, 78) == Fraction(663, 8)
    assert row.formula == "M/$85 + 2.5%" and row.break_even == "M = $82.875"


def test_positions_set_the_rows_and_a_community_prize_wheel_sets_c():
    """A four-position table has at most three other players; an Xtreme wager's community pays come from its
    Community Prize Wheel: without that wheel's weights, even a weighted wheel's community value is a formula."""
    pays = [None, 250, 100, 80, 75, 60, 50, 45, 40]
    segments = tuple(WheelSegment(str(p or "jackpot"), Decimal(p) if p else None, None, w)
                     for p, w in zip(pays, [1, 2, 3, 4, 5, 6, 7, 8, 9]))
    spin = BonusSpin(Decimal(5), "pair_in_hole_cards", segments, "progressive", Decimal(2500))
    setting = WheelSetting(other_players=range(0, 4), community_wheel=(Decimal(35), Decimal(5), Decimal(20)),
                           top_prize_reset=Decimal(1000), rate_of_progression_percent=Decimal(2))
    result = bonus_spin_math(spin, setting)
    assert result.weighted is not None and result.weighted.community_value == ()
    formula = result.formula
    assert formula is not None and formula.community == "community_wheel"
    assert formula.community_pays == (35, 20, 5) and [row.other_players_to for row in formula.rows] == [0, 1, 2, 3]
    mean = Fraction(2500 * 1 + sum(p * w for p, w in zip(pays[1:], range(2, 10))), 45)
    base = Fraction(78, 1326) * mean / 5
    assert float(base) == result.weighted.return_per_wager and formula.mean_prize_known == mean
    assert formula.rows[2].per_mean_community == 2 * Fraction(78, 1326) / 5
    # the mean community pay at which the return reaches 100% with two others: base + 2C/85 = 1
    assert formula.rows[2].break_even == f"C = {exact_dollars((1 - base) * 85 / 2)}"


def test_a_weighted_community_prize_wheel_gives_the_community_value_as_a_figure():
    """The Community Prize Wheel stopping on $35 once, $20 twice and $5 five times in 8: each other player's spin pays
    a mean of (35 + 40 + 25) / 8 = $12.50, so k others add k x 78/1326 x 12.5 / 5 to the return."""
    pays = [None, 250, 100, 80, 75, 60, 50, 45, 40]
    segments = tuple(WheelSegment(str(p or "jackpot"), Decimal(p) if p else None, None, w)
                     for p, w in zip(pays, [1, 2, 3, 4, 5, 6, 7, 8, 9]))
    spin = BonusSpin(Decimal(5), "pair_in_hole_cards", segments, "progressive", Decimal(2500))
    setting = WheelSetting(other_players=range(0, 4), community_wheel=(Decimal(35), Decimal(20), Decimal(5)),
                           community_wheel_weights=(1, 2, 5))
    result = bonus_spin_math(spin, setting)
    assert result.formula is None and result.weighted is not None
    wheel = result.weighted
    assert wheel.mean_community_pay_per_spin == 12.5
    base = Fraction(78, 1326) * Fraction(2500 + sum(p * w for p, w in zip(pays[1:], range(2, 10))), 45) / 5
    for k, row in zip(range(4), wheel.community_value):
        assert row.other_players == k
        assert row.value_per_wager == pytest.approx(float(k * Fraction(78, 1326) * Fraction(25, 2) / 5), rel=1e-12)
        assert row.return_with_community == pytest.approx(float(base + k * Fraction(78, 1326) * Fraction(25, 2) / 5))


def test_exact_amounts():
    assert exact_dollars(Fraction(663, 8)) == "$82.875" and exact_dollars(Fraction(17)) == "$17"
    assert exact_dollars(Fraction(4250, 1)) == "$4,250" and exact_dollars(Fraction(21, 2)) == "$10.50"
    assert exact_dollars(Fraction(1, 3)) == "$1/3"
    assert exact_percent(Fraction(1, 40)) == "2.5%" and exact_percent(Fraction(1, 17)) == "1/17"


def test_the_table_positions_set_the_other_players(tmp_path):
    from rulegen.math.report import wheel_setting
    from rulegen.offering import load_offering
    from rulegen.resolved import resolve
    from rulegen.resources import samples_dir

    text = (samples_dir() / "nj-bonus-spin.yaml").read_text(encoding="utf-8")
    assert "  positions: 6\n" in text
    path = tmp_path / "four.yaml"
    path.write_text(text.replace("  positions: 6\n", "  positions: 4\n"), encoding="utf-8")
    setting = wheel_setting(resolve(load_offering(path)))
    assert setting is not None and list(setting.other_players) == [0, 1, 2, 3]
    assert setting.top_prize_reset == Decimal(10000) and setting.rate_of_progression_percent == Decimal(3)
    assert setting.community_wheel == ()  # Table 3's community pays are on its segments
