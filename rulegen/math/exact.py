"""The fast exact analysis of the main game: every figure of the previous analysis (tests/reference_kernel.py), to
the last digit, in a fraction of its time. Layer: math (below `main_game`, which drives it; imports numpy, its
kernels and the kernels' named results only).

The game tree has 1,326 x 1,225 x 1,128 x 46 = 84,284,272,800 deals. Every reduction below is exact, and every
sum is an integer (payouts are odds times the LCM of their denominators), so EV comparisons are exact and
ties are real ties (the smaller wager is taken: fold before 1x before 3x).

1. Starting hands: a suit permutation maps a deal to a deal with the same pay classes, so the 1,326 hole
   pairs fall into 169 classes; the across pairs of one starting hand fall into orbits under the suit
   permutations fixing its hole cards, one representative analysed per orbit, weighted by the orbit's size
   (93,769 across pairs in all instead of 169 x 1,225; the orbits are found in the kernel).
2. One table per starting hand, built in the kernel: the pay class of hole + pair + middle card for the
   1,225 pairs of the 50 outside cards and their 48 middle cards. A set of three outside cards is classified
   once and serves its three (pair, middle card) splits (19,600 classifications per hand); the kernel's own
   classifier works from rank counts and suits (a test checks it against the evaluator on all 2,598,960
   hands), so no Python-built lookup table is loaded. Per pair the table keeps the Criss Cross and ante
   payouts of each middle card, their totals over the 48, and 50-bit masks of the middle cards that give each
   pay class ("exactly k") and each pay class or better ("at least k", k = 1..10).
3. Linearity: the Across hand's payouts summed over a deal's 46 middle cards are its pair's total over 48
   less its payouts at the two Down cards (and likewise for the Down hand). For one across pair, the
   payouts at each down pair's two cards are summed row by row of the pair index before the loop over down
   pairs, which then reads them in order.
4. The Middle bet pays the better hand: pay(max(a, d)) = pay(a) + pay(d) - pay(min(a, d)), and
   sum over m of pay(min) = 46 pay(0) + sum over k of step(k) * |at_least_k(Across) & at_least_k(Down)|: the
   intersection of two masks already excludes the hole, Across and Down cards, so the Middle sum is a few
   AND + popcount steps per deal of four outside cards, with no mask of allowed cards. The levels are nested,
   and 92% of across pairs reach no straight or better with any middle card: the loop is compiled in three
   versions (3, 4 or 10 levels), so the levels an across pair cannot reach cost nothing.
5. Bet sizes: every payoff is linear in each bet, so 2x never beats both 1x and 3x. With t the best bet's
   value (3x when the Middle bet gains, else 1x), the Middle decision is a bet iff t > fold, 3x iff it also
   gains; a tie is t == fold, or a Middle sum of exactly 0 when betting (1x = 3x). The four (Across, Down)
   bet pairs in {1, 3}^2 are decided in the same pass.
6. Straight loops: for one across pair, the 1,225 down pairs (padded to 1,280; pairs meeting the across pair
   and the padding count 0) are one branch-free loop that numba vectorises (AVX-512 popcount where the CPU
   has it). Its decisions are kept as bits, one 64-bit word per 64 down pairs and per (Across, Down) bet
   pair: 1x, 3x, tie; the loop stores nothing per pair.
7. The outcome distribution from joint pay classes: on the chosen path, the number of middle cards giving
   (Across class a, Down class d) over the down pairs bet 1x (and 3x) is a sum of popcount(exactly_a(Across)
   & exactly_d(Down)) over those pairs, accumulated per starting hand as an 11 x 11 table per (Down bet,
   Middle bet), and turned into the net-result and gross-payout histograms once per starting hand. Down
   classes below a straight are summed by one straight loop over the down pairs per Across class; a straight
   or better is rare for the Down hand, so the few down pairs that can make one are listed once per starting
   hand and visited alone. The decision counts and ties on the path are popcounts of the decision bits.

The Down decision for each across pair (per Across bet 1x / 3x) is decided from the four sums of pass 1;
pass 2 walks the chosen path only. The starting hands run on a thread pool over a kernel that releases the
GIL (no numba parallel loop, whose compilation alone took about 6 s); each writes only its own rows, so the
result does not depend on the thread count or schedule.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import cache
from itertools import permutations

import numpy as np

from rulegen.math.kernel_types import HandAnalysis

LEAVES_PER_HAND = 1225 * 1128 * 46
INT64_MAX = 2 ** 63 - 1


@cache
def suit_permutations() -> np.ndarray:
    """The 24 permutations of the four suits, one row each: row[suit] is the suit's image."""
    return np.array(list(permutations(range(4))), dtype=np.int64)


def deltas_of(cc: np.ndarray) -> np.ndarray:
    """The ten steps of the Criss Cross table, pay(k) - pay(k - 1) for k = 1..10 (zero where it does not step)."""
    return np.array([int(cc[k] - cc[k - 1]) for k in range(1, 11)], dtype=np.int64)


def analyse_hands(holes: np.ndarray, ante: np.ndarray, cc: np.ndarray, scale: int, net_low: int, net_size: int,
                  gross_size: int, threads: int | None = None, progress=None) -> HandAnalysis:
    """The exact analysis of the starting hands whose representative hole cards are the rows of `holes`.

    `ante` and `cc` are the integer payouts per pay class (odds times `scale`), `cc` non-decreasing. Returns
    a HandAnalysis with one row per hand, as the reference kernel (tests/reference_kernel.py) does, equal to it.
    The hands run on `threads` threads (default: numba's thread count), the costliest first; each writes only its own
    rows, so the result does not depend on the threads or their order. `progress(done, total)` is called
    in the calling thread as hands finish.
    """
    import numba

    from rulegen.math.exact_kernels import analyse_hand

    holes = np.ascontiguousarray(holes, dtype=np.int64)
    ante = np.ascontiguousarray(ante, dtype=np.int64)
    cc = np.ascontiguousarray(cc, dtype=np.int64)
    if ante.shape != (11,) or cc.shape != (11,):
        raise ValueError("ante and cc hold one payout per pay class (11)")
    if np.any(np.diff(cc) < 0):
        raise ValueError("the Criss Cross paytable pays less for a better hand; the Middle bet is undefined")
    largest = 2 * int(np.abs(ante).max()) + 9 * int(np.abs(cc).max()) + 9 * scale
    if LEAVES_PER_HAND * largest > INT64_MAX:
        raise OverflowError("payouts this large overflow the exact 64-bit sums")
    n = holes.shape[0]
    ev1 = np.zeros((n, 3), dtype=np.int64)
    choice1 = np.zeros(n, dtype=np.int64)
    choice2 = np.full((n, 2, 1326), -1, dtype=np.int8)
    down_counts = np.zeros((n, 3), dtype=np.int64)
    middle_counts = np.zeros((n, 3), dtype=np.int64)
    ties = np.zeros((n, 3), dtype=np.int64)
    net_hist = np.zeros((n, net_size), dtype=np.int64)
    gross_hist = np.zeros((n, gross_size), dtype=np.int64)
    perms = suit_permutations()
    deltas = deltas_of(cc)

    def one(c: int) -> None:
        choice1[c] = analyse_hand(holes[c, 0], holes[c, 1], perms, ante, cc, deltas, scale, net_low, ev1[c],
                                  choice2[c], down_counts[c], middle_counts[c], ties[c], net_hist[c], gross_hist[c])

    # Offsuit hands have the most across orbits (757), pairs fewer (469), suited hands the fewest (367).
    order = sorted(range(n), key=lambda c: -_orbit_count(int(holes[c, 0]), int(holes[c, 1])))
    workers = min(threads or numba.get_num_threads(), n)
    done = 0
    if n:
        one(order[0])  # in this thread first: loads (or compiles) the kernel once
        done = 1
        if progress is not None:
            progress(done, n)
    with ThreadPoolExecutor(max(workers, 1)) as pool:
        finished = map(one, order[1:]) if workers <= 1 else pool.map(one, order[1:])
        for _ in finished:
            done += 1
            if progress is not None:
                progress(done, n)
    return HandAnalysis(ev1, choice1, choice2, down_counts, middle_counts, ties, net_hist, gross_hist)


def _orbit_count(h0: int, h1: int) -> int:
    if h0 >> 2 == h1 >> 2:
        return 469
    return 367 if h0 & 3 == h1 & 3 else 757
