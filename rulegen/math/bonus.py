"""The Five Card Bonus (the five community cards, all 2,598,960 boards) and the Six Card Bonus (the player's
two cards and four extra community cards, best five of six, all 20,358,520 six-card sets), exactly.

Every board (six-card set) is equally likely, so a wager's return is the count-weighted mean of its payouts.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rulegen.evaluator import PAY_CLASSES
from rulegen.math.cache import memoised as disk_memoised
from rulegen.math.results import BonusOutcome, BonusResult
from rulegen.vocabulary import odds_words

FIVE_CARD_BOARDS = 2_598_960
SIX_CARD_SETS = 20_358_520
CODE_VERSION = "bonus-1"


@disk_memoised
def class_counts(cards: int) -> tuple[int, ...]:
    """How many boards of `cards` (5 or 6) cards fall in each pay class (best five), memoised on disk too."""
    from rulegen.math import cache as disk

    key = disk.key("class_counts", CODE_VERSION, cards)
    found = disk.load(key)
    if isinstance(found, list) and len(found) == len(PAY_CLASSES) and sum(found) == _total(cards):
        return tuple(found)
    from rulegen.math import fasteval

    strengths = fasteval.five_card_strength_counts() if cards == 5 else fasteval.six_card_strength_counts()
    counts = tuple(fasteval.pay_class_counts(strengths))
    assert sum(counts) == _total(cards)
    disk.store(key, list(counts))
    return counts


def _total(cards: int) -> int:
    return FIVE_CARD_BOARDS if cards == 5 else SIX_CARD_SETS


def bonus_table(paytable, cards: int) -> BonusResult:
    """Outcome table, EV, house edge, hit frequency and standard deviation (per unit wagered)."""
    counts = class_counts(cards)
    total = _total(cards)
    rows = []
    ev = Fraction(0)
    second = Fraction(0)
    # Rows by what is paid: hand classes with the same payout merge only where the table names them together.
    for index in range(len(PAY_CLASSES) - 1, -1, -1):
        payout = paytable.payout(index)
        probability = Fraction(counts[index], total)
        ev += payout * probability
        second += payout * payout * probability
        rows.append(BonusOutcome(hand_class=PAY_CLASSES[index], combinations=counts[index],
                                 probability=float(probability), pays=_pays(payout),
                                 contribution=float(payout * probability)))
    variance = second - ev * ev
    hits = sum(counts[i] for i in range(len(PAY_CLASSES)) if paytable.payout(i) > 0)
    return BonusResult(cards=cards, boards=total, outcomes=tuple(rows), ev=ev, hit_frequency=hits / total,
                       standard_deviation=math.sqrt(variance))


def _pays(payout: Fraction) -> str:
    """What a pay class pays, in the words every document uses (rulegen.vocabulary.odds_words): "1,000 to 1",
    "3 to 2", never "1000 to 1" or "3/2 to 1"."""
    if payout < 0:
        return "loses"
    if payout == 0:
        return "push"
    return odds_words(payout)


def five_card_bonus(paytable) -> BonusResult:
    return bonus_table(paytable, 5)


def six_card_bonus(paytable) -> BonusResult:
    return bonus_table(paytable, 6)
