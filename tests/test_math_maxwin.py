"""Maximum win per round at the minimum wager: the exact search, checked against hand reasoning and the game."""

import dataclasses
import itertools
import random
from decimal import Decimal

import pytest


from rulegen.game import GameRules, Paytable, settle_round
from tests.standard_game import STANDARD_ANTE, STANDARD_FIVE_CARD_BONUS, STANDARD_RULES
from rulegen.cards import Card
from rulegen.math.maxwin import max_win_per_round

MAIN = frozenset({"ante_across", "ante_down", "across", "down", "middle"})
HOUSE = GameRules(Paytable.from_mapping({"royal_flush": 250, "straight_flush": 100, "four_of_a_kind": 40,
                                         "full_house": 10, "flush": 8, "straight": 5, "three_of_a_kind": 3,
                                         "two_pair": 2, "pair_jacks_or_better": 1, "pair_sixes_through_tens": "push"}),
                  STANDARD_ANTE, STANDARD_FIVE_CARD_BONUS)
SIX = Paytable.from_mapping({"royal_flush": 1000, "straight_flush": 200, "four_of_a_kind": 50, "full_house": 20,
                             "flush": 15, "straight": 10, "three_of_a_kind": 5})


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
    first = max_win_per_round(HOUSE, Decimal(2), Decimal(2), MAIN | {"five_card_bonus"})
    # 3 x (250 + 100 + 250) + 2 = 1,802 antes at $2 = $3,604, plus a flush on the board at $2 x 10
    assert first.amount == Decimal(3624)
    assert max_win_per_round(HOUSE, Decimal(2), Decimal(2), MAIN | {"five_card_bonus"}) is first
    # the table has no Six Card Bonus: counting it changes nothing
    assert max_win_per_round(HOUSE, Decimal(2), Decimal(2), MAIN | {"five_card_bonus", "six_card_bonus"}).amount \
        == Decimal(3624)


def test_house_six_card_bonus_counted():
    # The Across royal and Down straight flush need every club from 8 to ace, the hole cards among them: no
    # straight flush is left for the hole cards' six, and four of a kind (four deuces beside Jc Qc) pays 50 to 1
    # on the $2 that equals the Five Card Bonus wager: $100 more than the $3,624 without it.
    rules = dataclasses.replace(HOUSE, six_card_bonus=SIX)
    result = max_win_per_round(rules, Decimal(2), Decimal(2), MAIN | {"five_card_bonus", "six_card_bonus"})
    assert result.amount == Decimal(3724)
    assert result.detail.per_wager_win["six_card_bonus"] == Decimal(100)
    assert result.detail.wagers["six_card_bonus"] == Decimal(2)
    cards = result.detail.cards
    settled = settle_round(rules, cards.hole, cards.across, cards.down, cards.middle, 2, (3, 3, 3),
                           five_card_bonus=2, six_card=cards.six)
    assert settled.net == result.amount
    # a deal that gives up the Down straight flush for a Six Card Bonus straight flush is worse: 3 x 100 x $2 lost
    # against 150 x $2 gained; the search's answer stands against that hand reasoning
    assert "four of a kind" in result.detail.hands["six_card_bonus"]
    assert "Six Card Bonus $2 on four of a kind" in result.detail.summary


def _six_oracle(hole, used):
    """The Six Card Bonus's best pay class by enumeration with phevaluator (an independent evaluator)."""
    import phevaluator

    from rulegen.evaluator import PAY_CLASS_INDEX

    names = {"Royal Flush": "royal_flush", "Straight Flush": "straight_flush", "Four of a Kind": "four_of_a_kind",
             "Full House": "full_house", "Flush": "flush", "Straight": "straight",
             "Three of a Kind": "three_of_a_kind", "Two Pair": "two_pair"}
    free = [c for c in range(52) if not used[c]]
    best = 0
    for four in itertools.combinations(free, 4):
        rank = phevaluator.evaluate_cards(*hole, *four)
        name = "royal_flush" if rank == 1 else names.get(_category_name(rank), "pair")
        best = max(best, PAY_CLASS_INDEX.get(name, 0))
    return best


def _category_name(rank: int) -> str:
    # phevaluator's rank ranges (1 = royal flush .. 7462): its documented category boundaries
    for top, name in ((10, "Straight Flush"), (166, "Four of a Kind"), (322, "Full House"), (1599, "Flush"),
                      (1609, "Straight"), (2467, "Three of a Kind"), (3325, "Two Pair")):
        if rank <= top:
            return name
    return "Pair"


def test_six_card_class_search_agrees_with_enumeration():
    import numpy as np

    from rulegen.math.maxwin_kernels import best_six_class

    rng = random.Random(20261127)
    cases = [((Card.of(9, 0), Card.of(10, 0)), [Card.of(r, 0) for r in (6, 7, 8, 11, 12)])]  # the maximum's deal
    blocked = [Card.of(r, 3) for r in (10, 9, 8)] + [Card.of(12, s) for s in (0, 1)]
    cases += [((Card.of(12, 3), Card.of(11, 3)), blocked)]
    for _ in range(8):
        deck = rng.sample(range(52), 7)
        cases.append(((Card(deck[0]), Card(deck[1])), [Card(c) for c in deck[2:]]))
    for hole, others in cases:
        used = np.zeros(52, dtype=np.bool_)
        used[[int(c) for c in (*hole, *others)]] = True
        found = best_six_class(int(hole[0]), int(hole[1]), used)
        assert found == _six_oracle([int(c) for c in hole], used), (hole, others)


def test_cents_and_a_fraction():
    rules = GameRules(Paytable.from_mapping({"royal_flush": 500, "straight_flush": 100, "four_of_a_kind": 40,
                                             "full_house": 12, "flush": 8, "straight": 5, "three_of_a_kind": 3,
                                             "two_pair": 2, "pair_jacks_or_better": 1,
                                             "pair_sixes_through_tens": "push"}), STANDARD_ANTE)
    assert max_win_per_round(rules, Decimal("5.50"), None, MAIN).amount == Decimal("18161.00")


def test_a_bonus_spin_the_limit_covers_counts_its_prize_in_a_triggering_deal():
    # A pair in the hole cards (the trigger) rules out the royal and straight flushes: with hole X X, the middle X
    # and an X Across make four of a kind Across (40 to 1), X X X + Y Y a full house Down (12 to 1), the Middle at
    # 40 to 1: 3 x $5 x 92 + 2 antes x $5 = $1,390; the board X X Y Y Y is a full house for the Five Card Bonus
    # ($1 x 15). The wheel's top prize, $100,000, is what the winning spin is paid (its $1 wager, collected win or
    # lose, is not deducted, as no losing wager is), and each of the five other positions can spin the $3 community
    # pay: $1,390 + $15 + $100,000 + $15 = $101,420.
    from rulegen.game import BonusSpin, WheelSegment

    spin = BonusSpin(wager=Decimal(1), trigger="pair_in_hole_cards", top_prize_kind="fixed",
                     top_prize_amount=Decimal(100000),
                     segments=(WheelSegment("jackpot", None), WheelSegment("10", Decimal(10), Decimal(3))))
    rules = dataclasses.replace(STANDARD_RULES, bonus_spin=spin)
    counted = MAIN | {"five_card_bonus", "bonus_spin"}
    result = max_win_per_round(rules, Decimal(5), Decimal(1), counted, other_players=5)
    assert result.amount == Decimal(101420)
    cards = result.detail.cards
    hole = cards.hole.split()
    assert hole[0][0] == hole[1][0], "the hole cards are a pair"
    assert result.detail.per_wager_win["bonus_spin"] == Decimal(100000)
    assert result.detail.per_wager_win["bonus_spin_community"] == Decimal(15)
    settled = settle_round(rules, cards.hole, cards.across, cards.down, cards.middle, 5, (3, 3, 3),
                           five_card_bonus=1, bonus_spin_wager=1, wheel_symbol="jackpot")
    assert settled.net + 1 + 15 == result.amount  # the settlement's net takes the collected $1 wager off
    # without the Bonus Spin counted, the royal-and-straight-flush deal stands
    assert max_win_per_round(rules, Decimal(5), Decimal(1), MAIN | {"five_card_bonus"}).amount == Decimal(16520)


def test_a_six_card_bonus_paying_a_better_hand_less_is_refused():
    # the class search takes the best hand as the best pay: a table where a flush pays more than a full house
    # breaks that, and the figure is refused rather than computed wrong
    backwards = Paytable.from_mapping({"royal_flush": 1000, "straight_flush": 200, "four_of_a_kind": 50,
                                       "full_house": 10, "flush": 15, "straight": 10, "three_of_a_kind": 5})
    rules = dataclasses.replace(HOUSE, six_card_bonus=backwards)
    with pytest.raises(ValueError, match="pays a better hand less"):
        max_win_per_round(rules, Decimal(2), Decimal(2), MAIN | {"five_card_bonus", "six_card_bonus"})


def test_reachable_classes_of_every_three_card_set_agree_with_the_evaluator():
    """The pay classes each 3-card set makes with a pair of the other cards (enumerated once per suit pattern, read
    for the rest) are those the evaluator gives over every pair, on sets drawn at random and on each suit pattern's
    corner cases (three of a suit, a pair, trips)."""
    import numpy as np

    from rulegen.evaluator import strength_arrays
    from rulegen.math.deals import pair_cards
    from rulegen.math.fasteval import evaluate_many
    from rulegen.math.maxwin import reachable_classes

    triples, masks = reachable_classes()
    assert triples.shape == (22100, 3) and masks.shape == (22100,)
    assert [tuple(row) for row in triples[:3].tolist()] == [(0, 1, 2), (0, 1, 3), (0, 1, 4)]
    pay_of = strength_arrays()[4]
    pairs = pair_cards()
    rows = random.Random(27).sample(range(22100), 120)
    rows += [int(np.nonzero((triples == cards).all(axis=1))[0][0])
             for cards in ([0, 4, 8], [48, 49, 50], [0, 1, 51], [36, 40, 44], [3, 47, 51])]
    for row in rows:
        cards = triples[row]
        free = pairs[~np.isin(pairs, cards).any(axis=1)]
        hands = np.column_stack([np.repeat(cards[None], len(free), axis=0), free])
        expected = 0
        for pay_class in np.unique(pay_of[evaluate_many(hands)]):
            expected |= 1 << int(pay_class)
        assert int(masks[row]) == expected, cards.tolist()


def test_the_nj_limit_follows_the_meter_from_the_amount_computed():
    """New Jersey's limit is the greater of $50,000 and the maximum win at the minimum wager, which counts the
    progressive top prize: at the meter amount computed, the maximum win with the top prize at that amount is exactly
    $50,000, and a dollar more on the meter makes it $50,001 (the best deal then triggers the spin)."""
    from dataclasses import replace

    from rulegen.math.report import limit_follows_meter_above, settled
    from rulegen.offering import load_offering
    from rulegen.resources import samples_dir

    offering = settled(load_offering(samples_dir() / "nj-bonus-spin.yaml"))
    meter = limit_follows_meter_above(offering)
    assert meter is not None and offering.payout_limit.follows_meter_above == meter
    rules = offering.game_rules
    counted = frozenset(offering.payout_limit.counted_in_max_win)

    def at(amount):
        spin = replace(rules.bonus_spin, top_prize_amount=amount)
        return max_win_per_round(replace(rules, bonus_spin=spin), offering.limits.ante.minimum,
                                 offering.five_card_bonus_minimum, counted,
                                 other_players=offering.table.positions - 1).amount

    assert at(meter) == 50000 and at(meter + 1) == 50001
    # above it, the limit the layout and the sign print is the meter's amount plus a fixed figure: the search agrees
    # at meter amounts well past it (the figure is what the best triggering deal pays apart from the prize)
    plus = offering.payout_limit.meter_plus
    assert plus is not None and plus == 50000 - meter
    assert at(Decimal(250000)) == 250000 + plus
    # a fixed top prize, or a limit the rule does not set, never follows a meter
    for name in ("md-progressive.yaml", "pa-five-card-bonus.yaml", "house-six-card-bonus.yaml"):
        assert limit_follows_meter_above(settled(load_offering(samples_dir() / name))) is None
