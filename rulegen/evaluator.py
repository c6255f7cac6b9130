"""Five-card poker hands: a full order (strength), the poker category, and the pay class every paytable uses.

Strength is a dense integer 0..7461, higher is better (7461 is a royal flush); equal strength means the
hands tie. It comes from two lookup tables, built once in pure Python:

- a hand whose five cards are not all one suit is looked up by the sum of its cards' rank keys; the keys
  (RANK_KEYS) were chosen so that every multiset of five ranks (at most four of a rank) has its own sum;
- a flush is looked up by the 13-bit mask of its ranks.

The same tables, as arrays, drive the math layer's compiled bulk evaluator. This module knows no
paytable: pay classes are the ladder of hand classes paytables are written in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

from rulegen.cards import RANK_NAMES, RANK_PLURALS, Card, check_distinct, parse_cards

# Category order, weakest first (index = category number).
CATEGORIES = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
              "four_of_a_kind", "straight_flush", "royal_flush")
HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, \
    ROYAL_FLUSH = range(10)

# The pay-class ladder every paytable is written in (index = strength). A pair of 2s-5s and high card are
# `no_qualifying_hand`.
PAY_CLASSES = ("no_qualifying_hand", "pair_sixes_through_tens", "pair_jacks_or_better", "two_pair",
               "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush",
               "royal_flush")
NO_QUALIFYING_HAND, PAIR_SIXES_THROUGH_TENS, PAIR_JACKS_OR_BETTER = 0, 1, 2
PAY_CLASS_INDEX = {name: i for i, name in enumerate(PAY_CLASSES)}

# Rank keys with distinct sums over every five-rank multiset (greedy search; `_tables` asserts uniqueness).
RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
NONFLUSH_TABLE_SIZE = 4 * RANK_KEYS[12] + RANK_KEYS[11] + 1
HAND_COUNT = 7462

_CATEGORY_COUNTS = {(4, 1): FOUR_OF_A_KIND, (3, 2): FULL_HOUSE, (3, 1, 1): THREE_OF_A_KIND, (2, 2, 1): TWO_PAIR,
                    (2, 1, 1, 1): ONE_PAIR}


def _straight_top(ranks: Sequence[int]) -> int | None:
    """The top rank of five distinct ranks that form a straight (the wheel A-2-3-4-5 is five high), else None."""
    ordered = sorted(ranks)
    if ordered == [0, 1, 2, 3, 12]:
        return 3
    if ordered[4] - ordered[0] == 4 and len(set(ordered)) == 5:
        return ordered[4]
    return None


def _describe_key(ranks: Sequence[int], flush: bool) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks) for five ranks; no wrap-around straights (Q-K-A-2-3 is ace high)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
    shape = tuple(c for _, c in groups)
    order = tuple(r for r, _ in groups)
    if shape == (1, 1, 1, 1, 1):
        top = _straight_top(ranks)
        if flush:
            if top is not None:
                return (ROYAL_FLUSH if top == 12 else STRAIGHT_FLUSH), (top,)
            return FLUSH, order
        if top is not None:
            return STRAIGHT, (top,)
        return HIGH_CARD, order
    return _CATEGORY_COUNTS[shape], order


@cache
def _tables():
    """(nonflush, flush, info): nonflush[key sum] and flush[rank mask] give strength; info[strength] is
    (category, tie-break ranks)."""
    entries = []  # (sort key, kind, index)
    for multiset in combinations_with_replacement(range(13), 5):
        if max(multiset.count(r) for r in set(multiset)) > 4:
            continue
        entries.append((_describe_key(multiset, False), "n", sum(RANK_KEYS[r] for r in multiset)))
    for ranks in combinations(range(13), 5):
        entries.append((_describe_key(ranks, True), "f", sum(1 << r for r in ranks)))

    def sort_key(entry):
        (category, ranks), _, _ = entry
        return (min(category, STRAIGHT_FLUSH), ranks)  # a royal flush is the top straight flush

    entries.sort(key=sort_key)
    nonflush: dict[int, int] = {}
    flush: dict[int, int] = {}
    info: list[tuple[int, tuple[int, ...]]] = []
    strength = -1
    previous = None
    for entry in entries:
        key = sort_key(entry)
        if key != previous:
            strength += 1
            info.append(entry[0])
            previous = key
        table = nonflush if entry[1] == "n" else flush
        assert entry[2] not in table, "rank keys collide"
        table[entry[2]] = strength
    assert strength + 1 == HAND_COUNT
    return nonflush, flush, tuple(info)


@cache
def strength_arrays():
    """numpy arrays for compiled evaluation: (card_key[52], card_bit[52], nonflush[NONFLUSH_TABLE_SIZE],
    flush[8192], pay_class_of[7462], category_of[7462]); unused table slots hold 0xFFFF."""
    import numpy as np

    nonflush, flush, info = _tables()
    card_key = np.array([RANK_KEYS[i >> 2] for i in range(52)], dtype=np.int32)
    card_bit = np.array([1 << (i >> 2) for i in range(52)], dtype=np.int32)
    nonflush_array = np.full(NONFLUSH_TABLE_SIZE, 0xFFFF, dtype=np.uint16)
    for key, value in nonflush.items():
        nonflush_array[key] = value
    flush_array = np.full(8192, 0xFFFF, dtype=np.uint16)
    for key, value in flush.items():
        flush_array[key] = value
    pay = np.array([_pay_class_of(category, ranks) for category, ranks in info], dtype=np.uint8)
    category = np.array([category for category, _ in info], dtype=np.uint8)
    for array in (card_key, card_bit, nonflush_array, flush_array, pay, category):
        array.setflags(write=False)
    return card_key, card_bit, nonflush_array, flush_array, pay, category


def _pay_class_of(category: int, ranks: tuple[int, ...]) -> int:
    if category == ONE_PAIR:
        pair = ranks[0]
        if pair >= 9:  # jacks, queens, kings, aces
            return PAIR_JACKS_OR_BETTER
        if pair >= 4:  # sixes through tens
            return PAIR_SIXES_THROUGH_TENS
        return NO_QUALIFYING_HAND
    if category == HIGH_CARD:
        return NO_QUALIFYING_HAND
    return PAY_CLASS_INDEX[CATEGORIES[category]]


def _as_cards(cards) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    result = tuple(c if isinstance(c, Card) else Card(int(c)) for c in cards)
    check_distinct(result)
    return result


def strength(cards: Iterable[Card | int] | str) -> int:
    """The full order of five cards: 0..7461, higher is better, equal means a tie."""
    five = _as_cards(cards)
    if len(five) != 5:
        from rulegen.errors import CardError
        raise CardError(f"a poker hand is five cards, got {len(five)}")
    nonflush, flush, _ = _tables()
    suit = five[0].suit
    if all(c.suit == suit for c in five):
        return flush[sum(1 << c.rank for c in five)]
    return nonflush[sum(RANK_KEYS[c.rank] for c in five)]


def category(hand_strength: int) -> int:
    return _tables()[2][hand_strength][0]


def category_key(hand_strength: int) -> str:
    return CATEGORIES[category(hand_strength)]


def pay_class(hand_strength: int) -> int:
    """The pay class (index into PAY_CLASSES) of a hand of this strength."""
    category_number, ranks = _tables()[2][hand_strength]
    return _pay_class_of(category_number, ranks)


def hand_name(hand_strength: int) -> str:
    """The hand in words, for printing: 'pair of jacks', 'straight, eight high', 'royal flush'."""
    category_number, ranks = _tables()[2][hand_strength]
    name, plural = RANK_NAMES, RANK_PLURALS
    if category_number == ROYAL_FLUSH:
        return "royal flush"
    if category_number == STRAIGHT_FLUSH:
        return f"straight flush, {name[ranks[0]]} high"
    if category_number == FOUR_OF_A_KIND:
        return f"four of a kind, {plural[ranks[0]]}"
    if category_number == FULL_HOUSE:
        return f"full house, {plural[ranks[0]]} full of {plural[ranks[1]]}"
    if category_number == FLUSH:
        return f"flush, {name[ranks[0]]} high"
    if category_number == STRAIGHT:
        return f"straight, {name[ranks[0]]} high"
    if category_number == THREE_OF_A_KIND:
        return f"three of a kind, {plural[ranks[0]]}"
    if category_number == TWO_PAIR:
        return f"two pair, {plural[ranks[0]]} and {plural[ranks[1]]}"
    if category_number == ONE_PAIR:
        return f"pair of {plural[ranks[0]]}"
    return f"{name[ranks[0]]} high"


def best_five(cards: Iterable[Card | int] | str) -> tuple[int, tuple[Card, ...]]:
    """The best five of five or more cards (the Six Card Bonus takes the best five of six): (strength, cards)."""
    pool = _as_cards(cards)
    if len(pool) < 5:
        from rulegen.errors import CardError
        raise CardError(f"a poker hand needs five cards, got {len(pool)}")
    best = max(combinations(pool, 5), key=strength)
    return strength(best), best


def evaluate(cards: Iterable[Card | int] | str) -> tuple[int, int, str]:
    """(strength, pay class, name) of five cards, or of the best five of more."""
    value, _ = best_five(cards)
    return value, pay_class(value), hand_name(value)
