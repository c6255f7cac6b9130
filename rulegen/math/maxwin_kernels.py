"""Compiled search kernels of the maximum win per round (see rulegen.math.maxwin for the method). The product
searches in numpy (rulegen.math.maxwin_search, which loads no compiled kernel); these are the reference its tests
compare it with, round for round."""

from __future__ import annotations

import numpy as np
from numba import njit

from rulegen.math.fasteval import eval5
from rulegen.math.kernel_types import MaxWinFound


@njit(cache=True)
def reachable_classes(rows, card_key, card_bit, nonflush, flush, pay_of, pair_cards):
    """For each 3-card set (a row of `rows`): the pay classes it makes with a pair of the other cards, as bits."""
    n_pairs = pair_cards.shape[0]
    masks = np.zeros(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[0]):  # 1,755 sets: a few milliseconds on one core, no thread pool to start
        x, y, z = rows[i, 0], rows[i, 1], rows[i, 2]
        mask = np.int64(0)
        for p in range(n_pairs):
            a, b = pair_cards[p, 0], pair_cards[p, 1]
            if a == x or a == y or a == z or b == x or b == y or b == z:
                continue
            mask |= np.int64(1) << pay_of[eval5(x, y, z, a, b, card_key, card_bit, nonflush, flush)]
        masks[i] = mask
    return masks


@njit(cache=True)
def _open(card, h1, h2, used):
    """The card can be in the player's six: a hole card, or one the round has not dealt elsewhere."""
    return card == h1 or card == h2 or not used[card]


@njit(cache=True)
def _spins(g1, g2, trigger):
    """The hole cards g1, g2 trigger the Bonus Spin: trigger 1 a pair, 2 suited, 3 either (0: no Bonus Spin); the
    numpy search's `_triggers` is the same test over arrays."""
    pair = g1 // 4 == g2 // 4
    suited = g1 % 4 == g2 % 4
    return (trigger == 1 and pair) or (trigger == 2 and suited) or (trigger == 3 and (pair or suited))


@njit(cache=True)
def _hole_rank(rank, h1, h2):
    return h1 // 4 == rank or h2 // 4 == rank


@njit(cache=True)
def best_six_class(h1, h2, used):
    """The best pay class a Six Card Bonus can make from the hole cards h1, h2 and four cards drawn from those
    `used` leaves free (used[c] true for every card dealt to the round, the hole cards included).

    Six cards, best five: any five cards holding at least one hole card can be among them (the four others come
    from the free cards, the sixth is the other hole card or any free card). Classes from the top down: royal
    (10), straight flush (9), four of a kind (8), full house (7), flush (6), straight (5), three of a kind (4);
    two pair (3) always, with 45 free cards. Indices are rank * 4 + suit, rank 0 = deuce .. 12 = ace."""
    for top in range(12, 2, -1):  # straight flushes, ace high (royal) down to five high (the wheel)
        for suit in range(4):
            fits = True
            holds = False
            for step in range(5):
                rank = top - step if top - step >= 0 else 12
                card = rank * 4 + suit
                if not _open(card, h1, h2, used):
                    fits = False
                    break
                if card == h1 or card == h2:
                    holds = True
            if fits and holds:
                return 10 if top == 12 else 9
    for rank in range(13):
        if _open(rank * 4, h1, h2, used) and _open(rank * 4 + 1, h1, h2, used) and \
                _open(rank * 4 + 2, h1, h2, used) and _open(rank * 4 + 3, h1, h2, used):
            return 8  # the kicker, when neither hole card is of the rank, is a hole card
    free = np.zeros(13, dtype=np.int64)
    for rank in range(13):
        for suit in range(4):
            if _open(rank * 4 + suit, h1, h2, used):
                free[rank] += 1
    for trips in range(13):
        if free[trips] < 3:
            continue
        for pair in range(13):
            if pair != trips and free[pair] >= 2 and (_hole_rank(trips, h1, h2) or _hole_rank(pair, h1, h2)):
                return 7
    for suit in range(4):
        count = 0
        for rank in range(13):
            if _open(rank * 4 + suit, h1, h2, used):
                count += 1
        if count >= 5 and (h1 % 4 == suit or h2 % 4 == suit):
            return 6
    for top in range(12, 2, -1):
        fits = True
        holds = False
        for step in range(5):
            rank = top - step if top - step >= 0 else 12
            if free[rank] == 0:
                fits = False
                break
            if _hole_rank(rank, h1, h2):
                holds = True
        if fits and holds:
            return 5
    for rank in range(13):
        if free[rank] >= 3:
            return 4
    return 3


@njit(cache=True)
def six_card_draw(h1, h2, used, card_key, card_bit, nonflush, flush, pay_of, six_value):
    """By enumeration of every four free cards: the four that pay the Six Card Bonus most (its value, the cards)."""
    free = np.empty(52, dtype=np.int64)
    n = 0
    for card in range(52):
        if not used[card]:
            free[n] = card
            n += 1
    best = np.int64(-1)
    cards = np.zeros(4, dtype=np.int64)
    six = np.empty(6, dtype=np.int64)
    six[0], six[1] = h1, h2
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    six[2], six[3], six[4], six[5] = free[a], free[b], free[c], free[d]
                    top = np.int64(0)
                    for leave in range(6):
                        hand = np.empty(5, dtype=np.int64)
                        k = 0
                        for i in range(6):
                            if i != leave:
                                hand[k] = six[i]
                                k += 1
                        value = six_value[pay_of[eval5(hand[0], hand[1], hand[2], hand[3], hand[4], card_key,
                                                       card_bit, nonflush, flush)]]
                        if value > top:
                            top = value
                    if top > best:
                        best = top
                        cards[0], cards[1], cards[2], cards[3] = free[a], free[b], free[c], free[d]
    return best, cards


@njit(cache=True)
def search(order, triples, upper, card_key, card_bit, nonflush, flush, pay_of, hand_value, mid_value,
           bonus_value, bonus_top, pair_cards, six_value, six_top, spin_value, spin_trigger):
    """Best-first exact search: a MaxWinFound (best total, its main-game part, T, middle card, pair A, pair D).
    `bonus_top` bounds the Five Card Bonus; `six_value` is the Six Card Bonus's value per pay class (zeros when
    it is not counted) and `six_top` its largest; `spin_value` is the Bonus Spin's best win, added when the hole
    cards trigger it (`spin_trigger` 1: a pair, 2: suited, 3: either; 0: not counted)."""
    bonus_top = bonus_top + six_top + spin_value
    used = np.zeros(52, dtype=np.bool_)
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
        # the Bonus Spin's prize bounds only a set whose hole cards can trigger it (some two of T, the third the
        # middle card): a set that cannot is bounded without it, so its pairs are not searched in vain
        local_top = bonus_top - spin_value
        for j in range(3):
            if _spins(triples[i, (j + 1) % 3], triples[i, (j + 2) % 3], spin_trigger):
                local_top = bonus_top
        if upper[i] + local_top <= best:
            continue
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
            if values[pa] + top_value + top_mid + local_top <= best:
                break
            for s in range(count):
                pd = ranked[s]
                if values[pa] + values[pd] + top_mid + local_top <= best:
                    break
                a0, a1 = pair_cards[pa, 0], pair_cards[pa, 1]
                d0, d1 = pair_cards[pd, 0], pair_cards[pd, 1]
                if a0 == d0 or a0 == d1 or a1 == d0 or a1 == d1:
                    continue
                ka, kd = classes[pa], classes[pd]
                main = values[pa] + values[pd] + mid_value[max(ka, kd)]
                if main + local_top <= best:
                    continue
                for j in range(3):
                    m = triples[i, j]
                    bonus = np.int64(0)
                    if bonus_top > 0:
                        bonus = bonus_value[pay_of[eval5(a0, a1, d0, d1, m, card_key, card_bit, nonflush,
                                                         flush)]]
                    if _spins(triples[i, (j + 1) % 3], triples[i, (j + 2) % 3], spin_trigger):
                        bonus += spin_value
                    if six_top > 0 and main + bonus + six_top > best:
                        h1 = triples[i, (j + 1) % 3]
                        h2 = triples[i, (j + 2) % 3]
                        used[:] = False
                        used[x] = True
                        used[y] = True
                        used[z] = True
                        used[a0] = True
                        used[a1] = True
                        used[d0] = True
                        used[d1] = True
                        bonus += six_value[best_six_class(h1, h2, used)]
                    if main + bonus > best:
                        best = main + bonus
                        best_main = main
                        found_triple = i
                        found_middle = m
                        found_across = pa
                        found_down = pd
    return MaxWinFound(best, best_main, found_triple, found_middle, found_across, found_down)
