"""Compiled Monte Carlo of the main game under the computed strategy (see rulegen.math.montecarlo)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rulegen.math.fasteval import eval5, popcount
from rulegen.math.kernel_types import SimulatedRounds


@njit(cache=True, parallel=True)
def simulate(seed, chunks, per_chunk, hole_class, hole_map, pair_index, choice1, choice2, card_key, card_bit,
             nonflush_class, flush_class, ante, cc, scale, keep):
    """Deal and play `chunks * per_chunk` rounds; each chunk has its own seed, so the result does not depend on
    how threads share the chunks. Returns SimulatedRounds: the deals (hole, across, down, middle), the bets and
    the scaled net. A hand's pay class is one lookup (`nonflush_class`, `flush_class`: the evaluator's tables with
    each strength replaced by its pay class). Without `keep`, the deals and bets are not kept (one scratch row per
    chunk, 160 MB fewer for two million rounds); the nets always are."""
    n = chunks * per_chunk
    rows = n if keep else chunks
    deals = np.zeros((rows, 7), dtype=np.int64)
    bets = np.zeros((rows, 3), dtype=np.int64)
    nets = np.zeros(n, dtype=np.int64)
    for chunk in prange(chunks):
        np.random.seed(seed * 1000003 + chunk)
        deck = np.arange(52)
        for r in range(chunk * per_chunk, (chunk + 1) * per_chunk):
            row = np.int64(r) if keep else np.int64(chunk)
            for i in range(7):  # partial Fisher-Yates: seven distinct cards
                j = i + np.random.randint(0, 52 - i)
                t = deck[i]
                deck[i] = deck[j]
                deck[j] = t
                deals[row, i] = deck[i]
            h0, h1, a0, a1, d0, d1, m = deals[row, 0], deals[row, 1], deals[row, 2], deals[row, 3], deals[row, 4], \
                deals[row, 5], deals[row, 6]
            hp = pair_index[h0, h1]
            c = hole_class[hp]
            b1 = choice1[c]
            if b1 == 0:
                nets[r] = -2 * scale
                continue
            # the across pair in the frame of the class's representative hole cards
            ra = pair_index[hole_map[hp, a0], hole_map[hp, a1]]
            b2 = np.int64(choice2[c, 0 if b1 == 1 else 1, ra])
            if b2 == 0:
                bets[row, 0] = b1
                nets[r] = -(2 + b1) * scale
                continue
            # The Middle decision's sums over the 46 middle cards, taken rank by rank: a middle card's pay class
            # depends on its rank alone unless it completes a flush (the four cards of a hand all of its suit), so
            # a rank's unseen cards count alike but for that one card (26 table lookups a round, not 92).
            key_a = card_key[h0] + card_key[h1] + card_key[a0] + card_key[a1]
            key_d = card_key[h0] + card_key[h1] + card_key[d0] + card_key[d1]
            bits_a = card_bit[h0] | card_bit[h1] | card_bit[a0] | card_bit[a1]
            bits_d = card_bit[h0] | card_bit[h1] | card_bit[d0] | card_bit[d1]
            suit = h0 & 3
            flush_a = (h1 & 3) == suit and (a0 & 3) == suit and (a1 & 3) == suit  # Across draws to a flush
            flush_d = (h1 & 3) == suit and (d0 & 3) == suit and (d1 & 3) == suit  # Down draws to a flush
            seen = (np.int64(1) << h0) | (np.int64(1) << h1) | (np.int64(1) << a0) | (np.int64(1) << a1) | \
                (np.int64(1) << d0) | (np.int64(1) << d1)
            base = np.int64(0)
            middle = np.int64(0)
            for rank in range(13):
                unseen = 4 - popcount((seen >> (4 * rank)) & 15)
                if unseen == 0:
                    continue
                rank_key = card_key[4 * rank]
                ka = nonflush_class[key_a + rank_key]
                kd = nonflush_class[key_d + rank_key]
                if (flush_a or flush_d) and ((seen >> (4 * rank + suit)) & 1) == 0:
                    # the rank's card of the hole cards' suit completes a flush for a hand drawing to one
                    ka_suited = flush_class[bits_a | card_bit[4 * rank]] if flush_a else ka
                    kd_suited = flush_class[bits_d | card_bit[4 * rank]] if flush_d else kd
                    base += ante[ka_suited] + ante[kd_suited] + b1 * cc[ka_suited] + b2 * cc[kd_suited]
                    middle += cc[max(ka_suited, kd_suited)]
                    unseen -= 1
                base += unseen * (ante[ka] + ante[kd] + b1 * cc[ka] + b2 * cc[kd])
                middle += unseen * cc[max(ka, kd)]
            fold = -(2 + b1 + b2) * 46 * scale
            one = base + middle
            three = base + 3 * middle
            b3 = 0
            best = fold
            if one > best:
                b3 = 1
                best = one
            if three > best:
                b3 = 3
            bets[row, 0] = b1
            bets[row, 1] = b2
            bets[row, 2] = b3
            if b3 == 0:
                nets[r] = -(2 + b1 + b2) * scale
                continue
            ka = eval5(h0, h1, a0, a1, m, card_key, card_bit, nonflush_class, flush_class)
            kd = eval5(h0, h1, d0, d1, m, card_key, card_bit, nonflush_class, flush_class)
            nets[r] = ante[ka] + ante[kd] + b1 * cc[ka] + b2 * cc[kd] + b3 * cc[max(ka, kd)]
    return SimulatedRounds(deals, bets, nets)


@njit(cache=True, parallel=True)
def deal_features(seed, first_chunk, chunks, per_chunk, hole_class, hole_map, pair_index, card_key, card_bit,
                  nonflush_class, flush_class):
    """The rounds `simulate` deals in chunks first_chunk .. first_chunk + chunks - 1 (the same seeds, the same
    cards), described by what their play and result depend on, whatever the paytables: the starting hand
    (`hole_class`), the across pair in the frame of its representative, the joint table of the 46 middle cards
    (how many give each Across class a and Down class d, at 11 * a + d) and the cell of the middle card dealt."""
    n = chunks * per_chunk
    hand = np.zeros(n, dtype=np.int64)
    across = np.zeros(n, dtype=np.int64)
    tables = np.zeros((n, 121), dtype=np.uint8)
    cell = np.zeros(n, dtype=np.int64)
    for local in prange(chunks):
        chunk = first_chunk + local
        np.random.seed(seed * 1000003 + chunk)
        deck = np.arange(52)
        deal = np.zeros(7, dtype=np.int64)
        for r in range(local * per_chunk, (local + 1) * per_chunk):
            for i in range(7):  # as `simulate` deals them
                j = i + np.random.randint(0, 52 - i)
                t = deck[i]
                deck[i] = deck[j]
                deck[j] = t
                deal[i] = deck[i]
            h0, h1, a0, a1, d0, d1, m = deal[0], deal[1], deal[2], deal[3], deal[4], deal[5], deal[6]
            hp = pair_index[h0, h1]
            hand[r] = hole_class[hp]
            across[r] = pair_index[hole_map[hp, a0], hole_map[hp, a1]]
            seen = (np.int64(1) << h0) | (np.int64(1) << h1) | (np.int64(1) << a0) | (np.int64(1) << a1) | \
                (np.int64(1) << d0) | (np.int64(1) << d1)
            for z in range(52):
                if (seen >> z) & 1:
                    continue
                ka = eval5(h0, h1, a0, a1, z, card_key, card_bit, nonflush_class, flush_class)
                kd = eval5(h0, h1, d0, d1, z, card_key, card_bit, nonflush_class, flush_class)
                tables[r, ka * 11 + kd] += 1
            ka = eval5(h0, h1, a0, a1, m, card_key, card_bit, nonflush_class, flush_class)
            kd = eval5(h0, h1, d0, d1, m, card_key, card_bit, nonflush_class, flush_class)
            cell[r] = ka * 11 + kd
    return hand, across, tables, cell
