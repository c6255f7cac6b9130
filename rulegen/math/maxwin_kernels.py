"""Compiled search kernels of the maximum win per round (see rulegen.math.maxwin for the method)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rulegen.math.fasteval import eval5
from rulegen.math.kernel_types import MaxWinBounds, MaxWinFound


@njit(cache=True, parallel=True)
def bounds(card_key, card_bit, nonflush, flush, pay_of, hand_value, mid_value, pair_cards):
    """For every 3-card set T: the pay class of T + each disjoint pair, and an upper bound of the main game."""
    n_pairs = pair_cards.shape[0]
    triples = np.zeros((22100, 3), dtype=np.int64)
    t = 0
    for x in range(52):
        for y in range(x + 1, 52):
            for z in range(y + 1, 52):
                triples[t, 0] = x
                triples[t, 1] = y
                triples[t, 2] = z
                t += 1
    upper = np.zeros(22100, dtype=np.int64)
    for i in prange(22100):
        x, y, z = triples[i, 0], triples[i, 1], triples[i, 2]
        best_hand = np.int64(0)
        best_mid = np.int64(0)
        for p in range(n_pairs):
            a, b = pair_cards[p, 0], pair_cards[p, 1]
            if a == x or a == y or a == z or b == x or b == y or b == z:
                continue
            k = pay_of[eval5(x, y, z, a, b, card_key, card_bit, nonflush, flush)]
            if hand_value[k] > best_hand:
                best_hand = hand_value[k]
            if mid_value[k] > best_mid:
                best_mid = mid_value[k]
        # each hand is at most the best single hand, the Middle at most its best payout: an upper bound
        upper[i] = 2 * best_hand + best_mid
    return MaxWinBounds(triples, upper)


@njit(cache=True)
def search(order, triples, upper, card_key, card_bit, nonflush, flush, pay_of, hand_value, mid_value,
           bonus_value, bonus_top, pair_cards):
    """Best-first exact search: a MaxWinFound (best total, its main-game part, T, middle card, pair A, pair D)."""
    n_pairs = pair_cards.shape[0]
    best = np.int64(-1)
    best_main = np.int64(0)
    found_triple = np.int64(-1)
    found_middle = np.int64(-1)
    found_across = np.int64(-1)
    found_down = np.int64(-1)
    values = np.empty(n_pairs, dtype=np.int64)
    classes = np.empty(n_pairs, dtype=np.int64)
    for o in range(order.shape[0]):
        i = order[o]
        if upper[i] + bonus_top <= best:
            break  # order is by upper bound: nothing later can beat the best
        x, y, z = triples[i, 0], triples[i, 1], triples[i, 2]
        count = 0
        idx = np.empty(n_pairs, dtype=np.int64)
        for p in range(n_pairs):
            a, b = pair_cards[p, 0], pair_cards[p, 1]
            if a == x or a == y or a == z or b == x or b == y or b == z:
                continue
            k = pay_of[eval5(x, y, z, a, b, card_key, card_bit, nonflush, flush)]
            classes[p] = k
            values[p] = hand_value[k]
            idx[count] = p
            count += 1
        idx = idx[:count]
        ranked = idx[np.argsort(-values[idx], kind="mergesort")]
        top_value = values[ranked[0]]
        top_mid = 0
        for r in range(count):
            if mid_value[classes[ranked[r]]] > top_mid:
                top_mid = mid_value[classes[ranked[r]]]
        for r in range(count):
            pa = ranked[r]
            if values[pa] + top_value + top_mid + bonus_top <= best:
                break
            for s in range(count):
                pd = ranked[s]
                if values[pa] + values[pd] + top_mid + bonus_top <= best:
                    break
                a0, a1 = pair_cards[pa, 0], pair_cards[pa, 1]
                d0, d1 = pair_cards[pd, 0], pair_cards[pd, 1]
                if a0 == d0 or a0 == d1 or a1 == d0 or a1 == d1:
                    continue
                ka, kd = classes[pa], classes[pd]
                main = values[pa] + values[pd] + mid_value[max(ka, kd)]
                if main + bonus_top <= best:
                    continue
                for j in range(3):
                    m = triples[i, j]
                    bonus = np.int64(0)
                    if bonus_top > 0:
                        bonus = bonus_value[pay_of[eval5(a0, a1, d0, d1, m, card_key, card_bit, nonflush,
                                                         flush)]]
                    if main + bonus > best:
                        best = main + bonus
                        best_main = main
                        found_triple = i
                        found_middle = m
                        found_across = pa
                        found_down = pd
    return MaxWinFound(best, best_main, found_triple, found_middle, found_across, found_down)
