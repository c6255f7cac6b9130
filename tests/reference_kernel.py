"""The previous implementation of the exact main-game analysis (numba), kept as the tests' oracle: the fast analysis
the product runs (rulegen.math.exact, driven by rulegen.math.main_game, which explains the reductions both make)
must give its figures to the last digit. `run_reference_kernel` drives it as `main_game.run_kernel` drives the
fast one; tests/test_math_exact.py compares a spread of hands, tests/benchmarks/bench_math.py all 169.

Units: every payout is an integer, the odds scaled by `scale` (the LCM of the paytables' denominators), so
every EV comparison below is exact and ties are real ties. Choices are coded 0 = fold, 1 = 1x, 3 = 3x; on a
tie the smaller wager is taken (fold before 1x before 3x).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rulegen.evaluator import strength_arrays
from rulegen.math.deals import StartingHand, across_orbits, integer_payouts, pair_cards, starting_hands
from rulegen.math.fasteval import eval5, popcount
from rulegen.math.kernel_types import HandAnalysis, KernelRun, hand_row
from rulegen.math.main_game import _histogram_bounds

FULL_DECK = (1 << 52) - 1
MIDDLE_CARDS = 46  # after the two hole cards and two pairs of outside cards
DOWN_PAIRS = 1128  # C(48, 2)
ACROSS_PAIRS = 1225  # C(50, 2)


@njit(cache=True)
def _pair_tables(h0, h1, pair_cards, card_key, card_bit, nonflush, flush, pay_of, ante, cc, levels):
    """For one starting hand: the pay class of hole + pair + middle card for every pair and middle card,
    the sums of each bet's payout over the 48 middle cards a pair leaves, the masks of middle cards that
    reach each payout level of the Criss Cross table, and the masks of middle cards giving each pay class."""
    n_pairs = pair_cards.shape[0]
    hole = (np.int64(1) << h0) | (np.int64(1) << h1)
    cls = np.zeros((n_pairs, 52), dtype=np.int64)
    total_ante = np.zeros(n_pairs, dtype=np.int64)
    total_cc = np.zeros(n_pairs, dtype=np.int64)
    at_least = np.zeros((n_pairs, levels.shape[0]), dtype=np.int64)
    equal = np.zeros((n_pairs, 11), dtype=np.int64)
    for p in range(n_pairs):
        x = pair_cards[p, 0]
        y = pair_cards[p, 1]
        used = hole | (np.int64(1) << x) | (np.int64(1) << y)
        if (hole >> x) & 1 or (hole >> y) & 1:
            continue
        for m in range(52):
            if (used >> m) & 1:
                continue
            k = pay_of[eval5(h0, h1, x, y, m, card_key, card_bit, nonflush, flush)]
            cls[p, m] = k
            total_ante[p] += ante[k]
            total_cc[p] += cc[k]
            bit = np.int64(1) << m
            equal[p, k] |= bit
            for level in range(levels.shape[0]):
                if k >= levels[level]:
                    at_least[p, level] |= bit
    return cls, total_ante, total_cc, at_least, equal


@njit(inline="always")
def _choose(fold, one, three):
    """(choice, value): the best of fold / 1x / 3x, the smaller wager on a tie."""
    choice = 0
    best = fold
    if one > best:
        choice = 1
        best = one
    if three > best:
        choice = 3
        best = three
    return choice, best


@njit(inline="always")
def _sums(a, d, cls, total_ante, total_cc, at_least, deltas, pair_cards, allowed, ante, cc):
    """Sums over the 46 middle cards of the Across-hand antes+bet, Down-hand antes+bet, and Middle payouts."""
    ax = pair_cards[a, 0]
    ay = pair_cards[a, 1]
    dx = pair_cards[d, 0]
    dy = pair_cards[d, 1]
    # Linearity: a sum over the 46 middle cards is the pair's sum over its 48, less the other pair's two.
    ante_sum = (total_ante[a] - ante[cls[a, dx]] - ante[cls[a, dy]]
                + total_ante[d] - ante[cls[d, ax]] - ante[cls[d, ay]])
    across = total_cc[a] - cc[cls[a, dx]] - cc[cls[a, dy]]
    down = total_cc[d] - cc[cls[d, ax]] - cc[cls[d, ay]]
    # Middle pays the better hand: sum of pay(max(a, d)) = 46 pay(0) + sum over payout steps of the step
    # times how many middle cards lift either hand to it (a union of masks, counted by popcount).
    middle = MIDDLE_CARDS * cc[0]
    for level in range(deltas.shape[0]):
        middle += deltas[level] * popcount((at_least[a, level] | at_least[d, level]) & allowed)
    return ante_sum, across, down, middle


# Not parallel: this is the reference the fast analysis (rulegen.math.exact) is checked against, run on a few hands
# in the tests and on all of them in the benchmark; numba takes three times as long to compile a parallel loop
# (about 7.7 s against 2.5 s), which every fresh test run paid.
@njit(cache=True)
def analyse_hands(holes, rep_offsets, rep_pairs, rep_weights, pair_cards, card_key, card_bit, nonflush, flush,
                  pay_of, ante, cc, levels, deltas, scale, net_low, net_size, gross_size):
    """The exact analysis of a batch of starting hands (one row of `holes` each).

    Returns a HandAnalysis, per starting hand: ev1[., 3] (sum over all its 63,562,800 deals of the round's result for
    fold / 1x / 3x at the Across decision, every later decision optimal), choice1, choice2[., 2, pairs]
    (the Down decision after Across 1x / 3x, for the orbit representatives), counts of the Down and Middle
    decisions along the optimal path, the number of exact ties met, and histograms of the net result and of
    the gross payout (both scaled), each deal counted once.
    """
    n = holes.shape[0]
    n_pairs = pair_cards.shape[0]
    ev1 = np.zeros((n, 3), dtype=np.int64)
    choice1 = np.zeros(n, dtype=np.int64)
    choice2 = np.full((n, 2, n_pairs), -1, dtype=np.int8)
    down_counts = np.zeros((n, 3), dtype=np.int64)  # fold, 1x, 3x, weighted by across pairs
    middle_counts = np.zeros((n, 3), dtype=np.int64)  # weighted by (across, down) pairs
    ties = np.zeros((n, 3), dtype=np.int64)  # Across, Down, Middle decisions met on the path with a tie
    net_hist = np.zeros((n, net_size), dtype=np.int64)
    gross_hist = np.zeros((n, gross_size), dtype=np.int64)
    down_leaves = DOWN_PAIRS * MIDDLE_CARDS
    all_leaves = ACROSS_PAIRS * down_leaves
    for c in range(n):
        h0 = holes[c, 0]
        h1 = holes[c, 1]
        hole = (np.int64(1) << h0) | (np.int64(1) << h1)
        cls, total_ante, total_cc, at_least, equal = _pair_tables(h0, h1, pair_cards, card_key, card_bit, nonflush,
                                                                   flush, pay_of, ante, cc, levels)
        # --- pass 1: the Middle decision for each (b1, b2) and each deal of four outside cards, summed up to
        # the Down decision per across pair, then up to the Across decision.
        for r in range(rep_offsets[c], rep_offsets[c + 1]):
            a = rep_pairs[r]
            weight = rep_weights[r]
            amask = (np.int64(1) << pair_cards[a, 0]) | (np.int64(1) << pair_cards[a, 1])
            acc = np.zeros(4, dtype=np.int64)
            for d in range(n_pairs):
                dmask = (np.int64(1) << pair_cards[d, 0]) | (np.int64(1) << pair_cards[d, 1])
                if dmask & (hole | amask):
                    continue
                allowed = FULL_DECK & ~(hole | amask | dmask)
                ante_sum, across, down, middle = _sums(a, d, cls, total_ante, total_cc, at_least, deltas,
                                                       pair_cards, allowed, ante, cc)
                for i in range(4):
                    b1 = 1 + 2 * (i >> 1)
                    b2 = 1 + 2 * (i & 1)
                    one = ante_sum + b1 * across + b2 * down + middle
                    fold = -(2 + b1 + b2) * MIDDLE_CARDS * scale
                    ch, best = _choose(fold, one, one + 2 * middle)
                    acc[i] += best
            for j in range(2):
                b1 = 1 + 2 * j
                fold = -(2 + b1) * down_leaves * scale
                ch, best = _choose(fold, acc[2 * j], acc[2 * j + 1])
                choice2[c, j, a] = ch
                ev1[c, 1 + j] += weight * best
        ev1[c, 0] = -2 * all_leaves * scale
        ch, best = _choose(ev1[c, 0], ev1[c, 1], ev1[c, 2])
        choice1[c] = ch
        if (ch == 0 and (ev1[c, 1] == best or ev1[c, 2] == best)) or (ch == 1 and ev1[c, 2] == best):
            ties[c, 0] += 1
        # --- pass 2: the distribution of the result along the chosen path.
        if ch == 0:
            net_hist[c, -2 * scale - net_low] += all_leaves
            gross_hist[c, 0] += all_leaves
            continue
        b1 = ch
        j = 0 if b1 == 1 else 1
        for r in range(rep_offsets[c], rep_offsets[c + 1]):
            a = rep_pairs[r]
            weight = rep_weights[r]
            b2 = np.int64(choice2[c, j, a])
            if b2 == 0:
                down_counts[c, 0] += weight
                net_hist[c, -(2 + b1) * scale - net_low] += weight * down_leaves
                gross_hist[c, 0] += weight * down_leaves
                continue
            down_counts[c, 1 if b2 == 1 else 2] += weight
            acc_fold = -(2 + b1) * down_leaves * scale
            amask = (np.int64(1) << pair_cards[a, 0]) | (np.int64(1) << pair_cards[a, 1])
            # a tie at the Down decision: recompute the three values for this across pair
            s1 = np.int64(0)
            s3 = np.int64(0)
            for d in range(n_pairs):
                dmask = (np.int64(1) << pair_cards[d, 0]) | (np.int64(1) << pair_cards[d, 1])
                if dmask & (hole | amask):
                    continue
                allowed = FULL_DECK & ~(hole | amask | dmask)
                ante_sum, across, down, middle = _sums(a, d, cls, total_ante, total_cc, at_least, deltas,
                                                       pair_cards, allowed, ante, cc)
                for b2_try in (1, 3):
                    one_try = ante_sum + b1 * across + b2_try * down + middle
                    fold_try = -(2 + b1 + b2_try) * MIDDLE_CARDS * scale
                    ch_try, best_try = _choose(fold_try, one_try, one_try + 2 * middle)
                    if b2_try == 1:
                        s1 += best_try
                    else:
                        s3 += best_try
                one = ante_sum + b1 * across + b2 * down + middle
                three = one + 2 * middle
                fold = -(2 + b1 + b2) * MIDDLE_CARDS * scale
                b3, best = _choose(fold, one, three)
                if (b3 == 0 and (one == fold or three == fold)) or (b3 == 1 and three == one):
                    ties[c, 2] += weight
                if b3 == 0:
                    middle_counts[c, 0] += weight
                    net_hist[c, -(2 + b1 + b2) * scale - net_low] += weight * MIDDLE_CARDS
                    gross_hist[c, 0] += weight * MIDDLE_CARDS
                    continue
                middle_counts[c, 1 if b3 == 1 else 2] += weight
                # the joint pay classes of the two hands, counted over the middle cards by mask intersection
                for ka in range(11):
                    ma = equal[a, ka] & allowed
                    if ma == 0:
                        continue
                    for kd in range(11):
                        count = popcount(ma & equal[d, kd])
                        if count == 0:
                            continue
                        km = ka if ka > kd else kd
                        net = ante[ka] + ante[kd] + b1 * cc[ka] + b2 * cc[kd] + b3 * cc[km]
                        gross = (max(ante[ka], 0) + max(ante[kd], 0) + b1 * max(cc[ka], 0) + b2 * max(cc[kd], 0)
                                 + b3 * max(cc[km], 0))
                        net_hist[c, net - net_low] += weight * count
                        gross_hist[c, gross] += weight * count
            ch2, best2 = _choose(acc_fold, s1, s3)
            if (ch2 == 0 and (s1 == acc_fold or s3 == acc_fold)) or (ch2 == 1 and s3 == s1):
                ties[c, 1] += weight
    return HandAnalysis(ev1, choice1, choice2, down_counts, middle_counts, ties, net_hist, gross_hist)


def _levels(cc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    levels = [k for k in range(1, 11) if cc[k] != cc[k - 1]]
    deltas = [int(cc[k] - cc[k - 1]) for k in levels]
    if not levels:  # a table that pays the same for every hand: keep one (zero) step for array shapes
        levels, deltas = [10], [0]
    return np.array(levels, dtype=np.int64), np.array(deltas, dtype=np.int64)


def run_reference_kernel(criss_cross, ante, hands: list[StartingHand] | None = None, progress=None,
                         batch: int = 12) -> KernelRun:
    """The previous implementation of the analysis, kept to check the fast one against (tests, benchmark): the
    arrays `rulegen.math.main_game.run_kernel` returns, several times slower."""
    if not criss_cross.is_monotone():
        raise ValueError("the Criss Cross paytable pays less for a better hand; the Middle bet is undefined")
    hands = list(hands or starting_hands())
    payouts = integer_payouts(criss_cross, ante)
    an, cc = payouts.ante, payouts.criss_cross
    levels, deltas = _levels(cc)
    card_key, card_bit, nonflush, flush, pay_of, _ = strength_arrays()
    net_low, net_size, gross_size = _histogram_bounds(an, cc)
    # Balance the two cores: interleave the expensive classes (offsuit) with the cheap ones.
    order = sorted(range(len(hands)), key=lambda i: -len(across_orbits(hands[i]).representatives))
    results: list[HandAnalysis | None] = [None] * len(hands)
    done = 0
    for start in range(0, len(order), batch):
        chunk = order[start:start + batch]
        holes = np.array([hands[i].cards for i in chunk], dtype=np.int64)
        reps, weights, offsets = [], [], [0]
        for i in chunk:
            orbits = across_orbits(hands[i])
            reps.append(orbits.representatives)
            weights.append(orbits.weights)
            offsets.append(offsets[-1] + len(orbits.representatives))
        out = analyse_hands(holes, np.array(offsets, dtype=np.int64), np.concatenate(reps), np.concatenate(weights),
                            pair_cards(), card_key, card_bit, nonflush, flush, pay_of.astype(np.int64), an, cc,
                            levels, deltas, payouts.scale, net_low, net_size, gross_size)
        for j, i in enumerate(chunk):
            results[i] = hand_row(out, j)
        done += len(chunk)
        if progress is not None:
            progress(done, len(hands))
    return KernelRun(tuple(hands), tuple(r for r in results if r is not None), payouts.scale, net_low)
