"""The maximum win's search in numpy (math layer): what `maxwin_kernels` computes, found the same way, so a new
paytable's maximum win needs no compiled kernel (and no numba import).

The search (see rulegen.math.maxwin) visits the 3-card sets T (the hole cards and the middle card) best bound
first and, in each, the Across and Down pairs best value first and the three choices of the middle card; the
round it reports is the first in that order whose win is the largest of all (a later round only replaces it when
it wins strictly more). Any pruning that drops only rounds that cannot beat the best found so far keeps that
round, so here each visited T's rounds are taken a block of Across pairs at a time, as arrays, pruned by the best
found before the block. One pruning is added: a T none of whose choices of hole cards can trigger the Bonus Spin
is bounded without the spin's prize (what makes the search for the meter at which a progressive's maximum win
passes a limit fast: its prize, set beyond any other win, counts only where the hole cards trigger it).

Tests compare every result with the compiled search's, on tables with and without bonuses, spins and Six Card
Bonus.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

from rulegen.math.cache import memoised as disk_memoised
from rulegen.math.kernel_types import MaxWinFound

if TYPE_CHECKING:
    import numpy as np

CLASSES_VERSION = "triple-classes-2"  # bump when what the table of classes holds, or how it is stored, changes
NO_CLASS = 255  # in the table of classes: a pair that holds a card of the set
FIRST_BLOCK = 4  # Across pairs taken at once in a T's first block; each later block doubles, up to LAST_BLOCK
LAST_BLOCK = 256


@cache
def _card_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(card_key, card_bit, nonflush_class, flush_class): a hand's pay class in one lookup."""
    import numpy as np

    from rulegen.evaluator import strength_arrays
    from rulegen.math.montecarlo import class_tables

    card_key, card_bit = strength_arrays()[:2]
    nonflush_class, flush_class = class_tables()
    return card_key.astype(np.int64), card_bit.astype(np.int64), nonflush_class, flush_class


def pay_classes(cards: np.ndarray) -> np.ndarray:
    """The pay class (int64) of each row of five cards (last axis)."""
    import numpy as np

    card_key, card_bit, nonflush_class, flush_class = _card_tables()
    suits = cards & 3
    flush = (suits == suits[..., :1]).all(axis=-1)
    nonflush = nonflush_class[card_key[cards].sum(axis=-1)]
    suited = flush_class[np.bitwise_or.reduce(card_bit[cards], axis=-1)]
    return np.where(flush, suited, nonflush).astype(np.int64)


SOME_HAND = (0, 4, 8, 12, 17)  # five distinct cards, classed in place of a row that repeats a card (then ignored)


def set_classes(rows: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """[sets, pairs] uint8: the pay class of each 3-card set (a row of `rows`) with each pair (NO_CLASS where the
    pair holds a card of the set)."""
    import numpy as np

    bits = np.int64(1) << np.arange(52, dtype=np.int64)
    pair_mask = bits[pairs[:, 0]] | bits[pairs[:, 1]]
    out = np.empty((rows.shape[0], pairs.shape[0]), dtype=np.uint8)
    for start in range(0, rows.shape[0], 128):
        block = rows[start:start + 128]
        hands = np.concatenate([np.broadcast_to(block[:, None, :], (block.shape[0], pairs.shape[0], 3)),
                                np.broadcast_to(pairs[None, :, :], (block.shape[0], pairs.shape[0], 2))], axis=2)
        meets = (pair_mask[None, :] & np.bitwise_or.reduce(bits[block], axis=1)[:, None]) != 0
        hands = np.where(meets[..., None], np.array(SOME_HAND, dtype=np.int64), hands)
        out[start:start + 128] = np.where(meets, NO_CLASS, pay_classes(hands))
    return out


def reachable_classes(rows: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """For each 3-card set (a row of `rows`): the pay classes it makes with a pair of the other cards, as bits
    (`maxwin_kernels.reachable_classes`)."""
    return _masks(set_classes(rows, pairs))


def _masks(classes: np.ndarray) -> np.ndarray:
    import numpy as np

    masks = np.zeros(classes.shape[0], dtype=np.int64)
    for k in range(11):
        masks |= (classes == k).any(axis=1).astype(np.int64) << k
    return masks


@dataclass(frozen=True, eq=False)
class TripleClasses:
    """Every 3-card set T (x < y < z, in order) and the pay class it makes with each pair. A suit permutation maps
    T and its pairs to another set's with the same classes, so the classes are kept for one set per suit pattern
    (1,755 of 22,100) and read for the others through the permutation."""
    triples: np.ndarray  # [22100, 3]
    pattern: np.ndarray  # [22100]: the row of `classes` of T's suit pattern
    permutation: np.ndarray  # [22100]: a suit permutation (row of deals.suit_maps()) taking T to that row's set
    classes: np.ndarray  # [1755, 1326] uint8: the pattern's set with each pair, NO_CLASS where the pair meets it
    masks: np.ndarray  # [22100]: T's pay classes with a pair, as bits

    def of(self, i: int) -> np.ndarray:
        """[1326]: T = triples[i] with each pair (NO_CLASS where the pair holds a card of T)."""
        from rulegen.math.deals import pair_cards, pair_index, suit_maps

        image = suit_maps()[self.permutation[i]]
        pairs = pair_cards()
        return self.classes[self.pattern[i], pair_index()[image[pairs[:, 0]], image[pairs[:, 1]]]]


@disk_memoised
def triple_classes() -> TripleClasses:
    """The classes of every 3-card set with every pair: the table of suit patterns read from the math cache when a
    checked entry is there (a speed-up: paytable-independent, about 0.4 s to compute), else computed and stored."""
    import base64

    import numpy as np

    from rulegen.math import cache as disk
    from rulegen.math.deals import pair_cards, suit_maps

    triples = np.array(list(combinations(range(52), 3)), dtype=np.int64)
    maps = suit_maps()
    key = disk.key("triple_classes", CLASSES_VERSION)
    found = disk.load(key)
    if isinstance(found, dict):
        try:
            stored = {name: np.frombuffer(base64.b64decode(found[name], validate=True), dtype=dtype)
                      for name, dtype in (("rows", np.uint8), ("classes", np.uint8), ("pattern", np.uint16),
                                          ("permutation", np.uint8))}
            rows = stored["rows"].reshape(-1, 3).astype(np.int64)
            classes = stored["classes"].reshape(rows.shape[0], pair_cards().shape[0])
            pattern, permutation = stored["pattern"].astype(np.int64), stored["permutation"].astype(np.int64)
            # each set is its pattern's under its permutation; each pattern's set meets 150 pairs, every other
            # pair makes a class
            if pattern.shape == (triples.shape[0],) and permutation.shape == pattern.shape \
                    and int(pattern.max()) < rows.shape[0] and int(permutation.max()) < maps.shape[0] \
                    and np.array_equal(np.sort(maps[permutation[:, None], triples], axis=1), rows[pattern]) \
                    and np.all((classes == NO_CLASS).sum(axis=1) == 150) \
                    and int(classes[classes != NO_CLASS].max()) <= 10:
                return TripleClasses(triples, pattern, permutation, classes, _masks(classes)[pattern])
        except (KeyError, TypeError, ValueError):
            pass
    images = np.sort(maps[:, triples], axis=2)  # [24, 22100, 3]: each set under each suit permutation
    codes = (images[..., 0] * 52 + images[..., 1]) * 52 + images[..., 2]
    least = codes.min(axis=0)
    representatives, inverse = np.unique(least, return_inverse=True)
    permutation = np.argmax(codes == least[None, :], axis=0)
    rows = np.column_stack([representatives // 2704, representatives // 52 % 52, representatives % 52])
    classes = set_classes(np.ascontiguousarray(rows, dtype=np.int64), pair_cards())
    pattern = inverse.reshape(-1)
    disk.store(key, {name: base64.b64encode(np.ascontiguousarray(array, dtype=dtype).tobytes()).decode("ascii")
                     for name, array, dtype in (("rows", rows, np.uint8), ("classes", classes, np.uint8),
                                                ("pattern", pattern, np.uint16),
                                                ("permutation", permutation, np.uint8))})
    return TripleClasses(triples, pattern, permutation, classes, _masks(classes)[pattern])


@cache
def _straight_flushes() -> tuple[np.ndarray, np.ndarray]:
    """(masks [40], royal [40]): each straight flush's five cards as bits, ace high first; royal marks the ace
    high ones (in the order `maxwin_kernels.best_six_class` tries them)."""
    import numpy as np

    masks, royal = [], []
    for top in range(12, 2, -1):
        for suit in range(4):
            mask = 0
            for step in range(5):
                rank = top - step if top - step >= 0 else 12
                mask |= 1 << (rank * 4 + suit)
            masks.append(mask)
            royal.append(top == 12)
    return np.array(masks, dtype=np.int64), np.array(royal, dtype=bool)


def best_six_classes(h1: int, h2: int, dealt: np.ndarray) -> np.ndarray:
    """`maxwin_kernels.best_six_class` for the hole cards h1, h2 and each mask of the other cards the round dealt:
    four of a kind is always open (seven cards dealt leave at least six ranks untouched), so the class is 10 where a
    royal flush holding a hole card has no other card dealt, else 9 for such a straight flush, else 8."""
    import numpy as np

    masks, royal = _straight_flushes()
    hole = (np.int64(1) << h1) | (np.int64(1) << h2)
    holding = (masks & hole) != 0
    masks, royal = masks[holding], royal[holding]
    fits = (dealt[:, None] & masks[None, :]) == 0
    return np.where((fits & royal).any(axis=1), 10, np.where(fits.any(axis=1), 9, 8)).astype(np.int64)


def _bonus_bounds(triples: np.ndarray, bits: np.ndarray, bonus_value: np.ndarray,
                  six_value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[22100, 3] each: the most the Five Card Bonus and the Six Card Bonus can pay in a round of T = triples[i]
    whose middle card is T's j-th (the hole cards the other two). Either makes four of a kind at least (four
    outside cards of a rank T lacks, seven cards dealt leaving six such ranks); a straight flush, or a royal, where
    one holds the middle card (the Five Card Bonus) or a hole card (the Six) and no other card of T."""
    import numpy as np

    masks, royal = _straight_flushes()
    t_bits = bits[triples]  # [22100, 3]
    every = t_bits[:, 0] | t_bits[:, 1] | t_bits[:, 2]
    five_class = np.empty(t_bits.shape, dtype=np.int64)
    six_class = np.empty(t_bits.shape, dtype=np.int64)
    for j in range(3):
        middle = t_bits[:, j]
        hole = every & ~middle
        # the five community cards: a straight flush through the middle card and no hole card
        fits = ((masks[None, :] & middle[:, None]) != 0) & ((masks[None, :] & hole[:, None]) == 0)
        five_class[:, j] = np.where((fits & royal).any(axis=1), 10, np.where(fits.any(axis=1), 9, 8))
        # the hole cards and four more: a straight flush through a hole card and not the middle card
        fits = ((masks[None, :] & hole[:, None]) != 0) & ((masks[None, :] & middle[:, None]) == 0)
        six_class[:, j] = np.where((fits & royal).any(axis=1), 10, np.where(fits.any(axis=1), 9, 8))
    best_five = np.maximum.accumulate(np.asarray(bonus_value, dtype=np.int64))
    best_six = np.maximum.accumulate(np.asarray(six_value, dtype=np.int64))
    return best_five[five_class], best_six[six_class]


def _triggers(g1: np.ndarray, g2: np.ndarray, trigger: int) -> np.ndarray:
    import numpy as np

    pair = g1 // 4 == g2 // 4
    suited = g1 % 4 == g2 % 4
    if trigger == 1:
        return pair
    if trigger == 2:
        return suited
    if trigger == 3:
        return pair | suited
    return np.zeros(g1.shape, dtype=bool)


def search(order, triples, upper, hand_value, mid_value, bonus_value, bonus_top, pairs, six_value, six_top,
           spin_value, spin_trigger) -> MaxWinFound:
    """`maxwin_kernels.search` (the same arguments but the evaluator's tables): the same MaxWinFound."""
    import numpy as np

    bits = np.int64(1) << np.arange(52, dtype=np.int64)
    pair_mask = bits[pairs[:, 0]] | bits[pairs[:, 1]]
    # spins[i, j]: T's cards other than its j-th (the hole cards when the j-th is the middle card) trigger the spin
    spins = np.stack([_triggers(triples[:, (j + 1) % 3], triples[:, (j + 2) % 3], spin_trigger) for j in range(3)],
                     axis=1)
    extra_all = int(bonus_top) + int(six_top) + int(spin_value)
    # per T and choice of middle card: what the bonuses can add at most (a tighter bound than their top pays)
    bonus_bound, six_bound = _bonus_bounds(triples, bits, bonus_value, six_value)
    if int(six_top) == 0:
        six_bound = np.zeros_like(six_bound)
    per_choice = bonus_bound + six_bound + np.where(spins, int(spin_value), 0)
    extra_own = per_choice.max(axis=1)
    table = triple_classes()
    best, found = -1, (0, -1, -1, -1, -1)
    for i in order.tolist():
        if int(upper[i]) + extra_all <= best:
            break  # order is by upper bound: nothing later can beat the best
        if int(upper[i]) + int(extra_own[i]) <= best:
            continue  # no choice of T's hole cards spins, and without the spin T cannot beat the best
        better = _best_in_triple(i, best, table, hand_value, mid_value, bonus_value, int(extra_own[i]), pairs,
                                 pair_mask, bits, six_value, six_bound[i], int(spin_value), spins[i])
        if better is not None:
            best, found = better
    return MaxWinFound(best, *found)


def _best_in_triple(i, best, table, hand_value, mid_value, bonus_value, extra, pairs, pair_mask, bits, six_value,
                    six_bound, spin_value, spins):
    """(total, (main, i, middle, across pair, down pair)) of the first round of T = triples[i] whose total is T's
    largest, where that beats `best`; else None. Blocks of Across pairs in order, each pruned by the best so far."""
    import numpy as np

    t = table.triples[i]
    classes = table.of(i).astype(np.int64)
    meets = classes == NO_CLASS
    classes[meets] = 0
    values = hand_value[classes]
    index = np.nonzero(~meets)[0]
    ranked = index[np.argsort(-values[index], kind="mergesort")]
    ranked_values = values[ranked]
    top_value = int(ranked_values[0])
    top_mid = max(0, int(mid_value[classes[ranked]].max()))
    start, size, improved = 0, FIRST_BLOCK, None
    while start < ranked.shape[0]:
        if int(ranked_values[start]) + top_value + top_mid + extra <= best:
            break  # the Across pairs are by value: nothing later in T can beat the best
        across = ranked[start:start + size]
        a_values = ranked_values[start:start + size]
        # Down pairs: by value, those that can still beat the best with the block's best Across pair
        down = ranked[ranked_values + int(a_values[0]) + top_mid + extra > best]
        d_values = values[down]
        main = (a_values[:, None] + d_values[None, :]
                + mid_value[np.maximum(classes[across][:, None], classes[down][None, :])])
        keep = ((a_values[:, None] + d_values[None, :] + top_mid + extra > best)
                & ((pair_mask[across][:, None] & pair_mask[down][None, :]) == 0) & (main + extra > best))
        rows, cols = np.nonzero(keep)  # in the search's order: Across pair, then Down pair
        if rows.shape[0]:
            found = _best_of_rounds(t, across[rows], down[cols], main[rows, cols], best, pairs, bits, bonus_value,
                                    extra, six_value, six_bound, spin_value, spins)
            if found is not None:
                best = found[0]
                improved = (found[0], (found[1], i, found[2], found[3], found[4]))
        start += size
        size = min(2 * size, LAST_BLOCK)
    return improved


def _best_of_rounds(t, across, down, main, best, pairs, bits, bonus_value, extra, six_value, six_bound, spin_value,
                    spins):
    """(total, main, middle card, across pair, down pair) of the first of these rounds (each with the three choices
    of middle card, in order) with the largest total, where it beats `best`; else None."""
    import numpy as np

    a0, a1, d0, d1 = pairs[across, 0], pairs[across, 1], pairs[down, 0], pairs[down, 1]
    totals = np.empty((main.shape[0], 3), dtype=np.int64)
    for j in range(3):
        m = int(t[j])
        bonus = np.zeros(main.shape[0], dtype=np.int64)
        if extra > 0:
            five = np.stack([a0, a1, d0, d1, np.full_like(a0, m)], axis=1)
            bonus = bonus_value[pay_classes(five)]
        if spins[j]:
            bonus = bonus + spin_value
        if six_bound[j] > 0:
            open_six = main + bonus + int(six_bound[j]) > best
            if open_six.any():
                dealt = bits[m] | bits[a0[open_six]] | bits[a1[open_six]] | bits[d0[open_six]] | bits[d1[open_six]]
                bonus = bonus.copy()
                bonus[open_six] += six_value[best_six_classes(int(t[(j + 1) % 3]), int(t[(j + 2) % 3]), dealt)]
        totals[:, j] = main + bonus
    flat = int(np.argmax(totals))  # the first largest, in the order Across, Down, middle card
    total = int(totals.reshape(-1)[flat])
    if total <= best:
        return None
    r, j = divmod(flat, 3)
    return total, int(main[r]), int(t[j]), int(across[r]), int(down[r])


def six_card_draw(h1: int, h2: int, used: np.ndarray, six_value: np.ndarray) -> tuple[int, np.ndarray]:
    """`maxwin_kernels.six_card_draw`: the four free cards that pay the Six Card Bonus most (the first such set in
    the order of their cards), and its value."""
    import numpy as np

    free = np.nonzero(~used)[0].astype(np.int64)
    sets = np.array(list(combinations(range(free.shape[0]), 4)), dtype=np.int64)
    four = free[sets]
    six = np.concatenate([np.broadcast_to(np.array([h1, h2], dtype=np.int64), (four.shape[0], 2)), four], axis=1)
    top = np.zeros(four.shape[0], dtype=np.int64)
    for leave in range(6):
        hand = np.delete(six, leave, axis=1)
        top = np.maximum(top, six_value[pay_classes(hand)])
    first = int(np.argmax(top))
    return int(top[first]), four[first]
