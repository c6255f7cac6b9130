"""Maximum win per round at the minimum wager: the exact search, checked against hand reasoning and the game."""

from decimal import Decimal


from rulegen.game import STANDARD_ANTE, STANDARD_FIVE_CARD_BONUS, STANDARD_RULES, GameRules, Paytable, settle_round
from rulegen.math.maxwin import max_win_per_round

MAIN = frozenset({"ante_across", "ante_down", "across", "down", "middle"})
HOUSE = GameRules(Paytable.from_mapping({"royal_flush": 250, "straight_flush": 100, "four_of_a_kind": 40,
                                         "full_house": 10, "flush": 8, "straight": 5, "three_of_a_kind": 3,
                                         "two_pair": 2, "pair_jacks_or_better": 1, "pair_sixes_through_tens": "push"}),
                  STANDARD_ANTE, STANDARD_FIVE_CARD_BONUS)


def test_standard_main_game_only():
    # Hole + middle = Q J T of one suit, A K Across (royal flush), 9 8 Down (queen-high straight flush):
    # 3 x (500 + 100 + 500) + 2 antes at even money = 3,302 antes; at $5, $16,510 (PA: no Five Card Bonus).
    result = max_win_per_round(STANDARD_RULES, Decimal(5), None, MAIN)
    assert result.amount == Decimal(16510)
    assert result.detail.five_card_bonus_counted is False
    cards = result.detail.cards
    settled = settle_round(STANDARD_RULES, cards.hole, cards.across, cards.down, cards.middle, 5, (3, 3, 3))
    assert settled.net == result.amount
    assert result.detail.summary.startswith("antes $5 each and 3x raises of $15: royal flush")


def test_standard_with_five_card_bonus():
    # the same deal leaves a flush on the board: $1 x 10 to 1 more
    result = max_win_per_round(STANDARD_RULES, Decimal(5), Decimal(1), MAIN | {"five_card_bonus"})
    assert result.amount == Decimal(16520)
    assert result.detail.per_wager_win["five_card_bonus"] == 10
    assert result.detail.main_game_only.amount == 16510


def test_house_table_and_memo():
    first = max_win_per_round(HOUSE, Decimal(2), Decimal(2), MAIN | {"five_card_bonus", "six_card_bonus"})
    # 3 x (250 + 100 + 250) + 2 = 1,802 antes at $2 = $3,604, plus a flush on the board at $2 x 10
    assert first.amount == Decimal(3624)
    assert max_win_per_round(HOUSE, Decimal(2), Decimal(2), MAIN | {"five_card_bonus"}) is first


def test_cents_and_a_fraction():
    rules = GameRules(Paytable.from_mapping({"royal_flush": 500, "straight_flush": 100, "four_of_a_kind": 40,
                                             "full_house": 12, "flush": 8, "straight": 5, "three_of_a_kind": 3,
                                             "two_pair": 2, "pair_jacks_or_better": 1,
                                             "pair_sixes_through_tens": "push"}), STANDARD_ANTE)
    assert max_win_per_round(rules, Decimal("5.50"), None, MAIN).amount == Decimal("18161.00")
