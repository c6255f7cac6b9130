"""Every side wager (rulegen.wagers) exactly: the Five Card Bonus (the five community cards, all 2,598,960
boards), the Six Card Bonus (the player's two cards and four extra community cards, best five of six, all
20,358,520 six-card sets), and any other, over every set of its cards.

Every set of a wager's cards is equally likely, so its return is the count-weighted mean of its payouts.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from rulegen import wagers
from rulegen.cards import full_deck
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


LARGEST_ENUMERATED = 4  # a wager's hand of more cards is the best five, counted by the fast kernels


def side_counts(kind: wagers.SideWagerKind) -> tuple[int, ...]:
    """How many sets of the wager's cards fall in each of its pay classes, weakest first: the fast counts of the
    best five of five or six cards, or every set of its cards classified by the wager's own rule."""
    if kind.best_five:
        return class_counts(kind.cards)
    if kind.cards > LARGEST_ENUMERATED:
        raise ValueError(f"the {kind.name} is settled on {kind.cards} cards: more than {LARGEST_ENUMERATED} are "
                         "counted only as the best five of five or six")
    counts = [0] * len(kind.pay_classes)
    for cards in itertools.combinations(full_deck(), kind.cards):
        counts[kind.pay_class_of(cards)] += 1
    return tuple(counts)


def side_wager_table(paytable, kind: wagers.SideWagerKind) -> BonusResult:
    """The wager's outcome table, EV, house edge, hit frequency and standard deviation (per unit wagered)."""
    return _table(paytable, kind.cards, side_counts(kind), kind.pay_classes)


def bonus_table(paytable, cards: int) -> BonusResult:
    """Outcome table, EV, house edge, hit frequency and standard deviation (per unit wagered)."""
    return _table(paytable, cards, class_counts(cards), PAY_CLASSES)


def _table(paytable, cards: int, counts: tuple[int, ...], classes: tuple[str, ...]) -> BonusResult:
    total = math.comb(52, cards)
    rows = []
    ev = Fraction(0)
    second = Fraction(0)
    # Rows by what is paid: hand classes with the same payout merge only where the table names them together.
    for index in range(len(classes) - 1, -1, -1):
        payout = paytable.payout(index)
        probability = Fraction(counts[index], total)
        ev += payout * probability
        second += payout * payout * probability
        rows.append(BonusOutcome(hand_class=classes[index], combinations=counts[index],
                                 probability=float(probability), pays=_pays(payout),
                                 contribution=float(payout * probability)))
    variance = second - ev * ev
    hits = sum(counts[i] for i in range(len(classes)) if paytable.payout(i) > 0)
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
