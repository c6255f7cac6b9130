"""Compiled Monte Carlo of the main game under the computed strategy (see rulegen.math.montecarlo)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rulegen.math.fasteval import eval5, popcount
from rulegen.math.kernel_types import SimulatedRounds


@njit(cache=True, parallel=True)
def simulate(seed, chunks, per_chunk, hole_class, hole_map, pair_index, choice1, choice2, card_key, card_bit,
             nonflush, flush, pay_of, ante, cc, scale):
    """Deal and play `chunks * per_chunk` rounds; each chunk has its own seed, so the result does not depend on
    how threads share the chunks. Returns SimulatedRounds: the deals (hole, across, down, middle), the bets and
    the scaled net."""
    n = chunks * per_chunk
    deals = np.zeros((n, 7), dtype=np.int64)
    bets = np.zeros((n, 3), dtype=np.int64)
    nets = np.zeros(n, dtype=np.int64)
    for chunk in prange(chunks):
        np.random.seed(seed * 1000003 + chunk)
        deck = np.arange(52)
        for r in range(chunk * per_chunk, (chunk + 1) * per_chunk):
            for i in range(7):  # partial Fisher-Yates: seven distinct cards
                j = i + np.random.randint(0, 52 - i)
                t = deck[i]
                deck[i] = deck[j]
                deck[j] = t
                deals[r, i] = deck[i]
            h0, h1, a0, a1, d0, d1, m = deals[r, 0], deals[r, 1], deals[r, 2], deals[r, 3], deals[r, 4], \
                deals[r, 5], deals[r, 6]
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
                bets[r, 0] = b1
                nets[r] = -(2 + b1) * scale
                continue
            # The Middle decision's sums over the 46 middle cards, taken rank by rank: a middle card's pay class
            # depends on its rank alone unless it completes a flush (all four cards of the hand of its suit), so
            # one rank-key lookup per hand and rank serves the rank's unseen cards (26 lookups, not 92).
            key_a = card_key[h0] + card_key[h1] + card_key[a0] + card_key[a1]
            key_d = card_key[h0] + card_key[h1] + card_key[d0] + card_key[d1]
            bits_a = card_bit[h0] | card_bit[h1] | card_bit[a0] | card_bit[a1]
            bits_d = card_bit[h0] | card_bit[h1] | card_bit[d0] | card_bit[d1]
            suited_a = -1  # the suit of a four-card flush draw, else -1
            if (h0 & 3) == (h1 & 3) and (h0 & 3) == (a0 & 3) and (h0 & 3) == (a1 & 3):
                suited_a = h0 & 3
            suited_d = -1
            if (h0 & 3) == (h1 & 3) and (h0 & 3) == (d0 & 3) and (h0 & 3) == (d1 & 3):
                suited_d = h0 & 3
            seen = (np.int64(1) << h0) | (np.int64(1) << h1) | (np.int64(1) << a0) | (np.int64(1) << a1) | \
                (np.int64(1) << d0) | (np.int64(1) << d1)
            base = np.int64(0)
            middle = np.int64(0)
            for rank in range(13):
                unseen = 4 - popcount((seen >> (4 * rank)) & 15)
                if unseen == 0:
                    continue
                rank_key = card_key[4 * rank]
                ka_rank = pay_of[nonflush[key_a + rank_key]]
                kd_rank = pay_of[nonflush[key_d + rank_key]]
                ka_flush = ka_rank
                if suited_a >= 0 and ((seen >> (4 * rank + suited_a)) & 1) == 0:
                    ka_flush = pay_of[flush[bits_a | card_bit[4 * rank]]]
                kd_flush = kd_rank
                if suited_d >= 0 and ((seen >> (4 * rank + suited_d)) & 1) == 0:
                    kd_flush = pay_of[flush[bits_d | card_bit[4 * rank]]]
                for s in range(4):
                    if (seen >> (4 * rank + s)) & 1:
                        continue
                    ka = ka_flush if s == suited_a else ka_rank
                    kd = kd_flush if s == suited_d else kd_rank
                    base += ante[ka] + ante[kd] + b1 * cc[ka] + b2 * cc[kd]
                    middle += cc[max(ka, kd)]
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
            bets[r, 0] = b1
            bets[r, 1] = b2
            bets[r, 2] = b3
            if b3 == 0:
                nets[r] = -(2 + b1 + b2) * scale
                continue
            ka = pay_of[eval5(h0, h1, a0, a1, m, card_key, card_bit, nonflush, flush)]
            kd = pay_of[eval5(h0, h1, d0, d1, m, card_key, card_bit, nonflush, flush)]
            nets[r] = ante[ka] + ante[kd] + b1 * cc[ka] + b2 * cc[kd] + b3 * cc[max(ka, kd)]
    return SimulatedRounds(deals, bets, nets)
