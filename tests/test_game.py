"""Settlement of one round: each wager's result as the texts say, folds, side wagers, the payout limit."""

import dataclasses

from decimal import Decimal
from fractions import Fraction

import pytest

from rulegen.errors import CardError, UsageError
from rulegen.evaluator import PAY_CLASS_INDEX as K
from rulegen.game import BonusSpin, GameRules, Paytable, PayoutLimit, WheelSegment, settle_round
from tests.standard_game import STANDARD_ANTE, STANDARD_CRISS_CROSS, STANDARD_FIVE_CARD_BONUS, STANDARD_RULES

SIX = Paytable.from_mapping({"royal_flush": 1000, "straight_flush": 200, "four_of_a_kind": 50, "full_house": 20,
                             "flush": 15, "straight": 10, "three_of_a_kind": 5})


def nets(settlement):
    return {line.wager: line.net for line in settlement.lines}


def test_paytable_semantics():
    assert STANDARD_CRISS_CROSS.payout(K["royal_flush"]) == 500
    assert STANDARD_CRISS_CROSS.payout(K["pair_sixes_through_tens"]) == 0
    assert STANDARD_CRISS_CROSS.payout(K["no_qualifying_hand"]) == -1
    # the ante's "pair of jacks or better" reaches every better hand; 6s-10s push
    assert [STANDARD_ANTE.payout(k) for k in range(11)] == [-1, 0] + [1] * 9
    # pair_sixes_or_better covers both pair classes
    assert STANDARD_FIVE_CARD_BONUS.payout(K["pair_sixes_through_tens"]) == 1
    assert STANDARD_FIVE_CARD_BONUS.payout(K["pair_jacks_or_better"]) == 1
    assert STANDARD_FIVE_CARD_BONUS.payout(K["straight"]) == 6
    # a hand not listed loses
    assert SIX.payout(K["two_pair"]) == -1
    table = Paytable.from_mapping({"flush": Decimal("7.5"), "straight": Fraction(5), "two_pair": 2,
                                   "pair_jacks_or_better": "push"})
    assert table.payout(K["flush"]) == Fraction(15, 2)
    assert table.payout(K["full_house"]) == 0  # reached by "jacks or better"
    with pytest.raises(UsageError):
        Paytable.from_mapping({"flush": 2.5})
    with pytest.raises(UsageError):
        Paytable.from_mapping({"five_aces": 2})
    assert STANDARD_CRISS_CROSS.is_monotone()


def test_all_wagers_win():
    s = settle_round(STANDARD_RULES, "Js Ts", "As Ks", "9s 8s", "Qs", Decimal(5), (3, 3, 3), five_card_bonus=5)
    assert nets(s) == {"ante_across": 5, "ante_down": 5, "across": 7500, "down": 1500, "middle": 7500,
                       "five_card_bonus": 50}
    assert s.net == Decimal(16560)
    assert "royal flush" in s.hands["across"] and "straight flush, queen high" in s.hands["down"]


@pytest.mark.parametrize("hole, across, down, middle, expected", [
    # Across pair of 8s (push), Down loses -> Middle push
    ("8s 3d", "8d Kc", "2c 4h", "7s", {"ante_across": 0, "ante_down": -5, "across": 0, "down": -5, "middle": 0}),
    # Across loses, Down pair of 6s (push) -> Middle push
    ("6s 3d", "2c 4h", "6d Kc", "9h", {"ante_across": -5, "ante_down": 0, "across": -5, "down": 0, "middle": 0}),
    # both push -> Middle push
    ("Ts 3d", "Td 2c", "Th 4c", "8h", {"ante_across": 0, "ante_down": 0, "across": 0, "down": 0, "middle": 0}),
    # both lose -> Middle loses
    ("Ks 3d", "2c 4h", "5c 9h", "Jd", {"ante_across": -5, "ante_down": -5, "across": -5, "down": -5,
                                       "middle": -5}),
    # one wins (two pair, 2 to 1), other loses -> Middle at the better hand
    ("Ks 3d", "Kd 3c", "5c 9h", "2d", {"ante_across": 5, "ante_down": -5, "across": 10, "down": -5, "middle": 10}),
    # a pair of 2s-5s loses
    ("5s 3d", "5d 9c", "2c 8h", "Jd", {"ante_across": -5, "ante_down": -5, "across": -5, "down": -5, "middle": -5}),
])
def test_middle_bet_rules(hole, across, down, middle, expected):
    s = settle_round(STANDARD_RULES, hole, across, down, middle, 5, (1, 1, 1))
    assert nets(s) == expected


@pytest.mark.parametrize("bets, forfeited, total", [
    ((0,), {"ante_across": -5, "ante_down": -5}, -10),
    ((3, 0), {"ante_across": -5, "ante_down": -5, "across": -15}, -25),
    ((1, 3, 0), {"ante_across": -5, "ante_down": -5, "across": -5, "down": -15}, -30),
])
def test_folds_forfeit_and_bonuses_still_play(bets, forfeited, total):
    rules = GameRules(STANDARD_CRISS_CROSS, STANDARD_ANTE, STANDARD_FIVE_CARD_BONUS, SIX)
    s = settle_round(rules, "As Ad", "Ks Kd", "Qs Qd", "2c", 5, bets, five_card_bonus=2, six_card="Ac Ah 3d 4d")
    result = nets(s)
    assert {k: v for k, v in result.items() if k not in ("five_card_bonus", "six_card_bonus")} == forfeited
    assert result["five_card_bonus"] == 6  # two pair on the board, 3 to 1
    assert result["six_card_bonus"] == 100  # four aces in six cards, 50 to 1
    assert s.net == total + 106
    assert all("forfeit" in line.result for line in s.lines if line.wager in forfeited)


def test_bad_bets_and_cards():
    with pytest.raises(UsageError):
        settle_round(STANDARD_RULES, "As Ad", "Ks Kd", "Qs Qd", "2c", 5, (0, 1))
    with pytest.raises(UsageError):
        settle_round(STANDARD_RULES, "As Ad", "Ks Kd", "Qs Qd", "2c", 5, (4, 1, 1))
    with pytest.raises(UsageError):
        settle_round(STANDARD_RULES, "As Ad", "Ks Kd", "Qs Qd", "2c", 5, (1, 1))
    with pytest.raises(CardError, match="As"):
        settle_round(STANDARD_RULES, "As Ad", "As Kd", "Qs Qd", "2c", 5, (1, 1, 1))
    with pytest.raises(UsageError):
        settle_round(STANDARD_RULES, "As Ad", "Ks Kd", "Qs Qd", "2c", 5.0, (1, 1, 1))
    with pytest.raises(UsageError):  # Six Card Bonus not offered
        settle_round(STANDARD_RULES, "As Ad", "Ks Kd", "Qs Qd", "2c", 5, (1, 1, 1), five_card_bonus=1,
                     six_card="2d 3d 4d 5d")


def test_payout_limit_as_data():
    # PA's limit covers the main game, not the Five Card Bonus (58 Pa. Code § 674a.12(d))
    pa = GameRules(STANDARD_CRISS_CROSS, STANDARD_ANTE, STANDARD_FIVE_CARD_BONUS,
                   payout_limit=PayoutLimit(Decimal(10000), frozenset({"ante_across", "ante_down", "across", "down",
                                                                       "middle"})))
    s = settle_round(pa, "Js Ts", "As Ks", "9s 8s", "Qs", 5, (3, 3, 3), five_card_bonus=5)
    assert nets(s)["payout_limit"] == Decimal(10000) - Decimal(16510)
    assert s.net == Decimal(10000) + 50
    house = GameRules(STANDARD_CRISS_CROSS, STANDARD_ANTE, STANDARD_FIVE_CARD_BONUS,
                      payout_limit=PayoutLimit(Decimal(3000), frozenset({"ante_across", "ante_down", "across", "down",
                                                                         "middle", "five_card_bonus"})))
    s = settle_round(house, "Js Ts", "As Ks", "9s 8s", "Qs", 5, (3, 3, 3), five_card_bonus=5)
    assert s.net == Decimal(3000)


SPIN = BonusSpin(wager=Decimal(5), trigger="pair_in_hole_cards",
                 segments=(WheelSegment("jackpot", None), WheelSegment("500", Decimal(500), Decimal(100)),
                           WheelSegment("50", Decimal(50))),
                 top_prize_kind="progressive", top_prize_amount=Decimal(5000))


def test_bonus_spin():
    rules = GameRules(STANDARD_CRISS_CROSS, STANDARD_ANTE, bonus_spin=SPIN)
    s = settle_round(rules, "7s 7d", "2c 4h", "5c 9h", "Jd", 5, (1, 1, 1), bonus_spin_wager=5, wheel_symbol="500")
    assert nets(s)["bonus_spin"] == 495
    assert s.community_pay_to_others == 100
    s = settle_round(rules, "7s 7d", "2c 4h", "5c 9h", "Jd", 5, (1, 1, 1), bonus_spin_wager=5, wheel_symbol="jackpot")
    assert nets(s)["bonus_spin"] == 4995
    # no trigger: the wager loses; a wheel symbol given is another player's spin, paying its community pay
    s = settle_round(rules, "7s 8d", "2c 4h", "5c 9h", "Jd", 5, (1, 1, 1), bonus_spin_wager=5, wheel_symbol="$500")
    assert nets(s)["bonus_spin"] == 95
    s = settle_round(rules, "7s 8d", "2c 4h", "5c 9h", "Jd", 5, (1, 1, 1), bonus_spin_wager=5)
    assert nets(s)["bonus_spin"] == -5
    # where the data reads a fold as forfeiting the Bonus Spin wager, it is lost
    s = settle_round(rules, "7s 7d", "2c 4h", "5c 9h", "Jd", 5, (1, 0), bonus_spin_wager=5, wheel_symbol="500")
    assert nets(s)["bonus_spin"] == -5
    assert s.notes == ()  # the game writes no reading of its own: the notes are those the rules carry
    noted = dataclasses.replace(rules, notes=("the table's reading",),
                                bonus_spin=dataclasses.replace(SPIN, notes=("the spin's reading",)))
    s = settle_round(noted, "7s 7d", "2c 4h", "5c 9h", "Jd", 5, (1, 0), bonus_spin_wager=5, wheel_symbol="500")
    assert s.notes == ("the table's reading", "the spin's reading")
    s = settle_round(noted, "7s 7d", "2c 4h", "5c 9h", "Jd", 5, (1, 0))
    assert s.notes == ("the table's reading",)  # a Bonus Spin's reading only where its wager is settled
    # where it reads the wager as staying in play (Maryland, New Jersey), a fold settles it on the hole cards
    kept = dataclasses.replace(rules, bonus_spin=dataclasses.replace(rules.bonus_spin, settled_after_fold=True))
    s = settle_round(kept, "7s 7d", "2c 4h", "5c 9h", "Jd", 5, (1, 0), bonus_spin_wager=5, wheel_symbol="500")
    assert nets(s)["bonus_spin"] == 495 and nets(s)["ante_across"] == -5
    s = settle_round(kept, "7s 8d", "2c 4h", "5c 9h", "Jd", 5, (0,), bonus_spin_wager=5, wheel_symbol="$500")
    assert nets(s)["bonus_spin"] == 95  # another player's spin pays the folded player's community pay
    with pytest.raises(UsageError, match="wheel"):
        settle_round(rules, "7s 7d", "2c 4h", "5c 9h", "Jd", 5, (1, 1, 1), bonus_spin_wager=5)
    with pytest.raises(UsageError, match="no '999' symbol"):
        settle_round(rules, "7s 7d", "2c 4h", "5c 9h", "Jd", 5, (1, 1, 1), bonus_spin_wager=5, wheel_symbol="999")


def test_fractional_odds_are_exact_money():
    rules = GameRules(Paytable.from_mapping({"two_pair": Fraction(3, 2), "pair_jacks_or_better": 1}), STANDARD_ANTE)
    s = settle_round(rules, "Ks 3d", "Kd 3c", "5c 9h", "2d", Decimal("5"), (1, 1, 1))
    assert nets(s)["across"] == Decimal("7.5")
