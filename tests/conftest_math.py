"""Shared helpers for the math tests: an independent brute-force of one starting hand (no symmetry, no
linearity, no popcount: every deal's middle card is looped), and small GameRules builders."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from numba import njit

from rulegen.game import Paytable


@njit(cache=True)
def _brute_force_hand(h0, h1, cls_of, ante, cc, scale):
    """cls_of[x, y, m]: pay class of the hand {h0, h1, x, y, m}. Returns (ev_fold, ev_1x, ev_3x) summed over
    all 63,562,800 deals, each later decision the best of fold / 1x / 3x."""
    cards = np.array([c for c in range(52) if c != h0 and c != h1], dtype=np.int64)
    ev = np.zeros(2, dtype=np.int64)
    n_leaves_down = 1128 * 46
    for i in range(50):
        for j in range(i + 1, 50):
            ax, ay = cards[i], cards[j]
            acc = np.zeros(4, dtype=np.int64)
            for k in range(50):
                dx = cards[k]
                if dx == ax or dx == ay:
                    continue
                for l in range(k + 1, 50):
                    dy = cards[l]
                    if dy == ax or dy == ay:
                        continue
                    base = np.zeros(4, dtype=np.int64)  # per (b1, b2): sum of antes+bets at 1x middle
                    mid = np.int64(0)
                    for n in range(50):
                        m = cards[n]
                        if m == ax or m == ay or m == dx or m == dy:
                            continue
                        ka = cls_of[ax, ay, m]
                        kd = cls_of[dx, dy, m]
                        km = max(ka, kd)
                        mid += cc[km]
                        for q in range(4):
                            b1 = 1 + 2 * (q >> 1)
                            b2 = 1 + 2 * (q & 1)
                            base[q] += ante[ka] + ante[kd] + b1 * cc[ka] + b2 * cc[kd]
                    for q in range(4):
                        b1 = 1 + 2 * (q >> 1)
                        b2 = 1 + 2 * (q & 1)
                        fold = -(2 + b1 + b2) * 46 * scale
                        acc[q] += max(fold, base[q] + mid, base[q] + 3 * mid)
            for b in range(2):
                b1 = 1 + 2 * b
                fold = -(2 + b1) * n_leaves_down * scale
                ev[b] += max(fold, acc[2 * b], acc[2 * b + 1])
    return ev


def brute_force_hand(hole: tuple[int, int], criss_cross, ante_table):
    from itertools import combinations

    from rulegen.evaluator import pay_class, strength
    from rulegen.math.deals import integer_payouts

    payouts = integer_payouts(criss_cross, ante_table)
    scale, ante, cc = payouts.scale, payouts.ante, payouts.criss_cross
    h0, h1 = hole
    rest = [c for c in range(52) if c not in hole]
    cls_of = np.zeros((52, 52, 52), dtype=np.int64)
    for x, y, m in combinations(rest, 3):
        k = pay_class(strength((h0, h1, x, y, m)))
        for a, b, c in ((x, y, m), (x, m, y), (y, m, x)):
            cls_of[a, b, c] = cls_of[b, a, c] = k
    ev = _brute_force_hand(h0, h1, cls_of, ante, cc, scale)
    return scale, int(-2 * 1225 * 1128 * 46 * scale), int(ev[0]), int(ev[1])


# The HOUSE tables as jurisdictions/house.yaml states them, and an odd table (a half, scale 2) the comparisons use.
HOUSE = Paytable.from_mapping({"royal_flush": 250, "straight_flush": 100, "four_of_a_kind": 40, "full_house": 10,
                               "flush": 8, "straight": 5, "three_of_a_kind": 3, "two_pair": 2,
                               "pair_jacks_or_better": 1, "pair_sixes_through_tens": "push"})
ODD = Paytable.from_mapping({"royal_flush": 400, "straight_flush": 75, "four_of_a_kind": 30, "full_house": 9,
                             "flush": Fraction(13, 2), "straight": 4, "three_of_a_kind": 3, "two_pair": 2,
                             "pair_jacks_or_better": 1, "pair_sixes_through_tens": "push"})
# A table of thirds (scale 3) whose lowest paying hand is a pair of sixes, for the kernel comparisons.
THIRDS = Paytable.from_mapping({"royal_flush": 1000, "straight_flush": 50, "four_of_a_kind": 25,
                                "full_house": Fraction(22, 3), "flush": Fraction(20, 3), "straight": 4,
                                "three_of_a_kind": 3, "two_pair": Fraction(5, 3), "pair_sixes_or_better": 1})
