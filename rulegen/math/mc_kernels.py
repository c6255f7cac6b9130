"""Compiled Monte Carlo of the main game under the computed strategy (see rulegen.math.montecarlo)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rulegen.math.fasteval import eval5
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
            base = np.int64(0)
            middle = np.int64(0)
            # eval5 written out over the 46 middle cards (numba leaves the called helper slow in this loop)
            key_a = card_key[h0] + card_key[h1] + card_key[a0] + card_key[a1]
            key_d = card_key[h0] + card_key[h1] + card_key[d0] + card_key[d1]
            suit_h = (1 << (h0 & 3)) | (1 << (h1 & 3))
            suits_a = suit_h | (1 << (a0 & 3)) | (1 << (a1 & 3))
            suits_d = suit_h | (1 << (d0 & 3)) | (1 << (d1 & 3))
            bits_a = card_bit[h0] | card_bit[h1] | card_bit[a0] | card_bit[a1]
            bits_d = card_bit[h0] | card_bit[h1] | card_bit[d0] | card_bit[d1]
            for x in range(52):
                if x == h0 or x == h1 or x == a0 or x == a1 or x == d0 or x == d1:
                    continue
                sx = 1 << (x & 3)
                if ((suits_a | sx) & ((suits_a | sx) - 1)) == 0:
                    ka = pay_of[flush[bits_a | card_bit[x]]]
                else:
                    ka = pay_of[nonflush[key_a + card_key[x]]]
                if ((suits_d | sx) & ((suits_d | sx) - 1)) == 0:
                    kd = pay_of[flush[bits_d | card_bit[x]]]
                else:
                    kd = pay_of[nonflush[key_d + card_key[x]]]
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
