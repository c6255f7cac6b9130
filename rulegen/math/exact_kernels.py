"""The compiled (numba) kernels of the fast exact main-game analysis; `rulegen.math.exact` drives them and
explains the reductions. Layer: math (numpy + numba only; no rulegen import but `fasteval.popcount`).

Units as in the reference kernel the tests keep (tests/reference_kernel.py): payouts are integers (odds times
`scale`), choices 0 = fold, 1 = 1x, 3 = 3x, the smaller wager on an exact tie. Cards inside a starting hand are
relabelled 0..49 (the cards not in the hole, in increasing order), so a set of them is a 50-bit
mask and a pair of them an index 0..1224.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from rulegen.math.fasteval import popcount

N_LOCAL = 50  # cards outside the hole
N_LOCAL_PAIRS = 1225  # C(50, 2)
N_BLOCKS = 20  # the pairs in blocks of 64, padded to 1,280
N_PADDED = 64 * N_BLOCKS
N_GLOBAL_PAIRS = 1326
MIDDLE_CARDS = 46
DOWN_PAIRS = 1128
ACROSS_PAIRS = 1225
N_CLASSES = 11
N_COMMON = 5  # pay classes below a straight: most down pairs make some of them
NIBBLES = 0x1111111111111  # bit 0 of each of 13 rank nibbles


@njit(cache=True, inline="always")
def _pay_class(counts, ranks, flush):
    """The pay class (index into rulegen.evaluator.PAY_CLASSES) of five cards given by their rank counts (one
    nibble per rank), the set of their ranks (13 bits) and whether all five share a suit."""
    distinct = popcount(ranks)
    if distinct == 5:
        low = ranks & -ranks
        straight = ranks == low * 31 or ranks == 0x100F  # five in a row, or the wheel A-2-3-4-5
        if flush:
            if straight:
                return 10 if ranks == 0x1F00 else 9
            return 6
        return 5 if straight else 0
    if distinct == 4:  # one pair: its rank's nibble holds 2
        pair = (counts >> 1) & NIBBLES
        if pair >> 36:  # jacks or better
            return 2
        if pair >> 16:  # sixes through tens
            return 1
        return 0
    if distinct == 3:  # three of a kind (a nibble holding 3) or two pair
        return 4 if counts & (counts >> 1) & NIBBLES else 3
    return 8 if (counts >> 2) & NIBBLES else 7  # four of a kind (a nibble holding 4) or a full house


@njit(cache=True)
def pay_classes_of(hands):
    """Pay classes of an (n, 5) array of card indices: the fast analysis's own classifier, checked against
    the evaluator's over all 2,598,960 hands in the tests."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        counts = 0
        ranks = 0
        suit = hands[i, 0] & 3
        flush = True
        for k in range(5):
            c = np.int64(hands[i, k])
            counts += np.int64(1) << (4 * (c >> 2))
            ranks |= np.int64(1) << (c >> 2)
            flush = flush and (c & 3) == suit
        out[i] = _pay_class(counts, ranks, flush)
    return out


@njit(cache=True)
def _hand_tables(h0, h1, ante, cc):
    """Everything the analysis of one starting hand reads, for the 1,225 pairs p of outside cards and the
    middle cards z: the pay class's Criss Cross and ante payouts as [z, p] arrays (0 where z is in p), their
    totals over the 48 middle cards of each pair, and for each pair the 50-bit masks of the middle cards
    reaching each pay class or better (levels 1..10) and of those giving each pay class exactly."""
    cards = np.empty(N_LOCAL, dtype=np.int64)
    n = 0
    for c in range(52):
        if c != h0 and c != h1:
            cards[n] = c
            n += 1
    pi = np.zeros(N_PADDED, dtype=np.int64)
    pj = np.zeros(N_PADDED, dtype=np.int64)
    pmask = np.full(N_PADDED, -1, dtype=np.int64)  # padding pairs meet every pair
    cc_t = np.zeros((N_LOCAL, N_PADDED), dtype=np.int64)
    ante_t = np.zeros((N_LOCAL, N_PADDED), dtype=np.int64)
    total_cc = np.zeros(N_PADDED, dtype=np.int64)
    total_ante = np.zeros(N_PADDED, dtype=np.int64)
    at_least = np.zeros((10, N_PADDED), dtype=np.int64)
    exactly = np.zeros((N_CLASSES, N_PADDED), dtype=np.int64)
    nibble = np.empty(N_LOCAL, dtype=np.int64)
    rank_bit = np.empty(N_LOCAL, dtype=np.int64)
    for z in range(N_LOCAL):
        nibble[z] = np.int64(1) << (4 * (cards[z] >> 2))
        rank_bit[z] = np.int64(1) << (cards[z] >> 2)
    hole_counts = (np.int64(1) << (4 * (h0 >> 2))) + (np.int64(1) << (4 * (h1 >> 2)))
    hole_ranks = (np.int64(1) << (h0 >> 2)) | (np.int64(1) << (h1 >> 2))
    hole_suit = (h0 & 3) if (h0 & 3) == (h1 & 3) else -1
    index = np.zeros((N_LOCAL, N_LOCAL), dtype=np.int64)
    p = 0
    for i in range(N_LOCAL):
        for j in range(i + 1, N_LOCAL):
            pi[p] = i
            pj[p] = j
            pmask[p] = (np.int64(1) << i) | (np.int64(1) << j)
            index[i, j] = p
            index[j, i] = p
            p += 1
    # One classification per set of three outside cards {i, j, l}: it is the hand of pair (i, j) with middle
    # card l, of (i, l) with j and of (j, l) with i (19,600 classifications instead of 58,800).
    cls = np.full((N_LOCAL, N_PADDED), N_CLASSES, dtype=np.uint8)  # [z, p]; class 11: z is in p, or padding
    for i in range(N_LOCAL):
        for j in range(i + 1, N_LOCAL):
            counts4 = hole_counts + nibble[i] + nibble[j]
            ranks4 = hole_ranks | rank_bit[i] | rank_bit[j]
            suit4 = hole_suit if (cards[i] & 3) == hole_suit and (cards[j] & 3) == hole_suit else -1
            pij = index[i, j]
            for l in range(j + 1, N_LOCAL):
                k = _pay_class(counts4 + nibble[l], ranks4 | rank_bit[l], (cards[l] & 3) == suit4)
                cls[l, pij] = k
                cls[j, index[i, l]] = k
                cls[i, index[j, l]] = k
    cc12 = np.zeros(N_CLASSES + 1, dtype=np.int64)
    ante12 = np.zeros(N_CLASSES + 1, dtype=np.int64)
    cc12[:N_CLASSES] = cc
    ante12[:N_CLASSES] = ante
    for z in range(N_LOCAL):
        bit = np.int64(1) << z
        for p in range(N_PADDED):
            k = cls[z, p]
            cc_t[z, p] = cc12[k]
            ante_t[z, p] = ante12[k]
            total_cc[p] += cc12[k]
            total_ante[p] += ante12[k]
        for k in range(N_CLASSES):
            for p in range(N_PADDED):
                exactly[k, p] |= bit & -np.int64(cls[z, p] == k)
    for k in range(N_CLASSES - 1, 0, -1):  # at least class k = the union of the classes k and above
        for p in range(N_PADDED):
            at_least[k - 1, p] = exactly[k, p] | (at_least[k, p] if k < 10 else 0)
    return cards, pi, pj, pmask, cc_t, ante_t, total_cc, total_ante, at_least, exactly


@njit(cache=True)
def _across_orbits(h0, h1, cards, suit_perms):
    """canonical[p]: the smallest pair of p's orbit under the suit permutations that fix the hole cards."""
    local = np.full(52, -1, dtype=np.int64)
    for z in range(N_LOCAL):
        local[cards[z]] = z
    index = np.full((N_LOCAL, N_LOCAL), -1, dtype=np.int64)
    p = 0
    for i in range(N_LOCAL):
        for j in range(i + 1, N_LOCAL):
            index[i, j] = p
            index[j, i] = p
            p += 1
    canonical = np.arange(N_LOCAL_PAIRS)
    for g in range(suit_perms.shape[0]):
        m0 = (h0 >> 2) * 4 + suit_perms[g, h0 & 3]
        m1 = (h1 >> 2) * 4 + suit_perms[g, h1 & 3]
        if not ((m0 == h0 and m1 == h1) or (m0 == h1 and m1 == h0)):
            continue
        p = 0
        for i in range(N_LOCAL):
            ci = cards[i]
            mi = local[(ci >> 2) * 4 + suit_perms[g, ci & 3]]
            for j in range(i + 1, N_LOCAL):
                cj = cards[j]
                mj = local[(cj >> 2) * 4 + suit_perms[g, cj & 3]]
                image = index[mi, mj]
                if image < canonical[p]:
                    canonical[p] = image
                p += 1
    return canonical


@njit(cache=True, inline="always")
def _global_pair(x, y):
    if x > y:
        x, y = y, x
    return x * 51 - (x * (x - 1)) // 2 + y - x - 1


def _level(step, reached, row):
    """step * popcount(reached & row): one level's share of the Middle sum; nothing when `reached` is None
    (the across pair reaches no middle card at that level), decided when the loop is compiled."""


@overload(_level, inline="always")
def _level_impl(step, reached, row):
    if isinstance(reached, types.NoneType):
        return lambda step, reached, row: 0
    return lambda step, reached, row: step * popcount(reached & row)


@njit(cache=True, inline="always")
def _store_bits(out, valid, gain, even, bet, tie):
    """One block's Middle decisions for one (b1, b2): out[0] the 1x deals, out[1] the 3x deals, out[2] the
    deals whose decision met an exact tie."""
    out[0] = valid & bet & ~gain
    out[1] = valid & bet & gain
    out[2] = valid & (tie | (bet & even))


@njit(cache=True)
def _down_loop(ai, aj, amask, tcc_a, tan_a, cc_pairs, ante_pairs, pmask, cc_t, ante_t, total_cc, total_ante,
               at_least, c46, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10,
               f0, f1, f2, f3, acc, bits):
    """The loop over the down pairs for one across pair, in blocks of 64: acc[q] the sum of the best Middle
    decision's value for (b1, b2) number q, bits[q] the down pairs whose Middle decision is 1x, 3x, and
    those where it met an exact tie, one bit each."""
    s0 = np.int64(0)
    s1 = np.int64(0)
    s2 = np.int64(0)
    s3 = np.int64(0)
    for block in range(N_BLOCKS):
        valid_bits = np.int64(0)
        gain_bits = np.int64(0)
        even_bits = np.int64(0)
        bet0 = np.int64(0)
        bet1 = np.int64(0)
        bet2 = np.int64(0)
        bet3 = np.int64(0)
        tie0 = np.int64(0)
        tie1 = np.int64(0)
        tie2 = np.int64(0)
        tie3 = np.int64(0)
        for q in range(64):
            # (valid, Across payouts, Down payouts, antes, Middle payouts) of down pair p, each summed over
            # the 46 middle cards (written out here: a call in this loop would keep it from being vectorised)
            p = block * 64 + q
            valid = np.int64((pmask[p] & amask) == 0)
            sx = tcc_a - cc_pairs[p]
            sd = total_cc[p] - cc_t[ai, p] - cc_t[aj, p]
            sa = tan_a - ante_pairs[p] + total_ante[p] - ante_t[ai, p] - ante_t[aj, p]
            both = (_level(d1, m1, at_least[0, p]) + _level(d2, m2, at_least[1, p])
                    + _level(d3, m3, at_least[2, p]) + _level(d4, m4, at_least[3, p])
                    + _level(d5, m5, at_least[4, p]) + _level(d6, m6, at_least[5, p])
                    + _level(d7, m7, at_least[6, p]) + _level(d8, m8, at_least[7, p])
                    + _level(d9, m9, at_least[8, p]) + _level(d10, m10, at_least[9, p]))
            middle = sx + sd - c46 - both
            # The best bet's value t: 3x (one + 2 middle) when the Middle bet gains, else 1x (one). Betting
            # beats folding iff t > fold; an exact tie is t == fold, or middle == 0 when betting (1x = 3x).
            base = sa + middle + 2 * max(middle, 0)
            keep = -valid
            valid_bits |= valid << q
            gain_bits |= np.int64(middle > 0) << q
            even_bits |= np.int64(middle == 0) << q
            t = base + sx + sd
            s0 += keep & max(f0, t)
            bet0 |= np.int64(t > f0) << q
            tie0 |= np.int64(t == f0) << q
            t = base + sx + 3 * sd
            s1 += keep & max(f1, t)
            bet1 |= np.int64(t > f1) << q
            tie1 |= np.int64(t == f1) << q
            t = base + 3 * sx + sd
            s2 += keep & max(f2, t)
            bet2 |= np.int64(t > f2) << q
            tie2 |= np.int64(t == f2) << q
            t = base + 3 * sx + 3 * sd
            s3 += keep & max(f3, t)
            bet3 |= np.int64(t > f3) << q
            tie3 |= np.int64(t == f3) << q
        _store_bits(bits[0, :, block], valid_bits, gain_bits, even_bits, bet0, tie0)
        _store_bits(bits[1, :, block], valid_bits, gain_bits, even_bits, bet1, tie1)
        _store_bits(bits[2, :, block], valid_bits, gain_bits, even_bits, bet2, tie2)
        _store_bits(bits[3, :, block], valid_bits, gain_bits, even_bits, bet3, tie3)
    acc[0] = s0
    acc[1] = s1
    acc[2] = s2
    acc[3] = s3


@njit(cache=True)
def _reach(at_least, a):
    """How many of the ten "at least" levels across pair a reaches with some middle card (they are nested)."""
    levels = 0
    while levels < 10 and at_least[levels, a] != 0:
        levels += 1
    return levels


@njit(cache=True)
def _down_pairs(a, pi, pj, pmask, cc_t, ante_t, total_cc, total_ante, at_least, deltas, c46, folds, acc, bits,
                scratch):
    """Pass 1 for across pair a (see _down_loop), in three versions by how many levels the across pair
    reaches (most reach no straight or better): the levels it cannot reach cost nothing."""
    ai = pi[a]
    aj = pj[a]
    amask = pmask[a]
    tcc_a = total_cc[a]
    tan_a = total_ante[a]
    # The Across hand's payouts with each down pair's two cards as middle card, summed per down pair: row by
    # row of the pair index (i, j > i), so that the loop over down pairs reads them in order, not gathered.
    cc_pairs = scratch[0]
    ante_pairs = scratch[1]
    cc_a = scratch[2, :N_LOCAL]
    ante_a = scratch[3, :N_LOCAL]
    for z in range(N_LOCAL):
        cc_a[z] = cc_t[z, a]
        ante_a[z] = ante_t[z, a]
    p = 0
    for i in range(N_LOCAL):
        cc_i = cc_a[i]
        ante_i = ante_a[i]
        for j in range(i + 1, N_LOCAL):
            cc_pairs[p + j - i - 1] = cc_i + cc_a[j]
            ante_pairs[p + j - i - 1] = ante_i + ante_a[j]
        p += N_LOCAL - 1 - i
    m1, m2, m3, m4, m5 = at_least[0, a], at_least[1, a], at_least[2, a], at_least[3, a], at_least[4, a]
    m6, m7, m8, m9, m10 = at_least[5, a], at_least[6, a], at_least[7, a], at_least[8, a], at_least[9, a]
    d1, d2, d3, d4, d5 = deltas[0], deltas[1], deltas[2], deltas[3], deltas[4]
    d6, d7, d8, d9, d10 = deltas[5], deltas[6], deltas[7], deltas[8], deltas[9]
    f0, f1, f2, f3 = folds[0], folds[1], folds[2], folds[3]
    levels = _reach(at_least, a)
    if levels <= 3:
        _down_loop(ai, aj, amask, tcc_a, tan_a, cc_pairs, ante_pairs, pmask, cc_t, ante_t, total_cc, total_ante,
                   at_least, c46, m1, m2, m3, None, None, None, None, None, None, None, d1, d2, d3, 0, 0, 0, 0, 0,
                   0, 0, f0, f1, f2, f3, acc, bits)
    elif levels == 4:
        _down_loop(ai, aj, amask, tcc_a, tan_a, cc_pairs, ante_pairs, pmask, cc_t, ante_t, total_cc, total_ante,
                   at_least, c46, m1, m2, m3, m4, None, None, None, None, None, None, d1, d2, d3, d4, 0, 0, 0, 0,
                   0, 0, f0, f1, f2, f3, acc, bits)
    else:
        _down_loop(ai, aj, amask, tcc_a, tan_a, cc_pairs, ante_pairs, pmask, cc_t, ante_t, total_cc, total_ante,
                   at_least, c46, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, d1, d2, d3, d4, d5, d6, d7, d8, d9,
                   d10, f0, f1, f2, f3, acc, bits)


@njit(cache=True)
def _joint(a, exactly, rare_pair, rare_class, rare_mask, sel1, sel3, joint1, joint3, weight):
    """Pass 2 for across pair a on the chosen path: the joint pay classes (Across hand, Down hand) over the
    middle cards of the deals whose Middle decision is 1x (bits sel1) and 3x (sel3), added times `weight`
    to joint1 / joint3."""
    # Down hand below a straight (classes 0..4): one straight pass over the down pairs per Across class.
    for ka in range(N_CLASSES):
        ea = exactly[ka, a]
        if ea == 0:
            continue
        x0 = np.int64(0)
        x1 = np.int64(0)
        x2 = np.int64(0)
        x3 = np.int64(0)
        x4 = np.int64(0)
        y0 = np.int64(0)
        y1 = np.int64(0)
        y2 = np.int64(0)
        y3 = np.int64(0)
        y4 = np.int64(0)
        for block in range(N_BLOCKS):
            w1 = sel1[block]
            w3 = sel3[block]
            for q in range(64):
                p = block * 64 + q
                one = (w1 >> q) & 1 != 0
                three = (w3 >> q) & 1 != 0
                v = popcount(ea & exactly[0, p])
                x0 += v if one else 0
                y0 += v if three else 0
                v = popcount(ea & exactly[1, p])
                x1 += v if one else 0
                y1 += v if three else 0
                v = popcount(ea & exactly[2, p])
                x2 += v if one else 0
                y2 += v if three else 0
                v = popcount(ea & exactly[3, p])
                x3 += v if one else 0
                y3 += v if three else 0
                v = popcount(ea & exactly[4, p])
                x4 += v if one else 0
                y4 += v if three else 0
        joint1[ka, 0] += weight * x0
        joint1[ka, 1] += weight * x1
        joint1[ka, 2] += weight * x2
        joint1[ka, 3] += weight * x3
        joint1[ka, 4] += weight * x4
        joint3[ka, 0] += weight * y0
        joint3[ka, 1] += weight * y1
        joint3[ka, 2] += weight * y2
        joint3[ka, 3] += weight * y3
        joint3[ka, 4] += weight * y4
    # Down hand a straight or better: few down pairs can make one; they are listed once per hand.
    for e in range(rare_pair.shape[0]):
        p = rare_pair[e]
        s1 = (sel1[p >> 6] >> (p & 63)) & 1
        s3 = (sel3[p >> 6] >> (p & 63)) & 1
        if (s1 | s3) == 0:
            continue
        kd = rare_class[e]
        mask = rare_mask[e]
        for ka in range(N_CLASSES):
            v = popcount(exactly[ka, a] & mask)
            if v:
                joint1[ka, kd] += weight * v * s1
                joint3[ka, kd] += weight * v * s3


@njit(cache=True)
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


@njit(cache=True, nogil=True)
def analyse_hand(h0, h1, suit_perms, ante, cc, deltas, scale, net_low, ev1, choice2, down_counts, middle_counts,
                 ties, net_hist, gross_hist):
    """The exact analysis of the starting hand with hole cards h0, h1 (see rulegen.math.exact), written into
    its own rows of the result arrays; returns the Across choice. Releases the GIL, so starting hands run on
    several threads at once."""
    cards, pi, pj, pmask, cc_t, ante_t, total_cc, total_ante, at_least, exactly = _hand_tables(h0, h1, ante, cc)
    canonical = _across_orbits(h0, h1, cards, suit_perms)
    weights = np.zeros(N_LOCAL_PAIRS, dtype=np.int64)
    for p in range(N_LOCAL_PAIRS):
        weights[canonical[p]] += 1
    reps = np.nonzero(weights)[0]
    c46 = MIDDLE_CARDS * cc[0]
    down_leaves = DOWN_PAIRS * MIDDLE_CARDS
    all_leaves = ACROSS_PAIRS * down_leaves
    b1s = np.array([1, 3], dtype=np.int64)
    b2s = np.array([1, 3], dtype=np.int64)
    folds = np.empty(4, dtype=np.int64)
    for q in range(4):
        folds[q] = -(2 + b1s[q >> 1] + b2s[q & 1]) * MIDDLE_CARDS * scale
    acc = np.zeros((reps.shape[0], 4), dtype=np.int64)
    bits = np.zeros((reps.shape[0], 4, 3, N_BLOCKS), dtype=np.int64)
    scratch = np.zeros((4, N_PADDED), dtype=np.int64)  # zero over the padding
    # --- pass 1: the Middle decision for every (b1, b2) and deal of four outside cards, summed per across pair
    for r in range(reps.shape[0]):
        _down_pairs(reps[r], pi, pj, pmask, cc_t, ante_t, total_cc, total_ante, at_least, deltas, c46, folds,
                    acc[r], bits[r], scratch)
        for j in range(2):
            ch, best = _choose(-(2 + b1s[j]) * down_leaves * scale, acc[r, 2 * j], acc[r, 2 * j + 1])
            choice2[j, _global_pair(cards[pi[reps[r]]], cards[pj[reps[r]]])] = ch
            ev1[1 + j] += weights[reps[r]] * best
    ev1[0] = -2 * all_leaves * scale
    ch1, best = _choose(ev1[0], ev1[1], ev1[2])
    if (ch1 == 0 and (ev1[1] == best or ev1[2] == best)) or (ch1 == 1 and ev1[2] == best):
        ties[0] += 1
    # --- pass 2: the distribution of the result along the chosen path
    if ch1 == 0:
        net_hist[-2 * scale - net_low] += all_leaves
        gross_hist[0] += all_leaves
        return ch1
    b1 = ch1
    j = 0 if b1 == 1 else 1
    n_rare = 0
    for k in range(N_COMMON, N_CLASSES):
        n_rare += np.count_nonzero(exactly[k])
    rare_pair = np.empty(n_rare, dtype=np.int64)
    rare_class = np.empty(n_rare, dtype=np.int64)
    rare_mask = np.empty(n_rare, dtype=np.int64)
    e = 0
    for k in range(N_COMMON, N_CLASSES):
        for p in range(N_LOCAL_PAIRS):
            if exactly[k, p] != 0:
                rare_pair[e] = p
                rare_class[e] = k
                rare_mask[e] = exactly[k, p]
                e += 1
    joint = np.zeros((2, 2, N_CLASSES, N_CLASSES), dtype=np.int64)  # [b2 1x/3x, b3 1x/3x, Across, Down]
    counts = np.zeros((2, 4), dtype=np.int64)  # [b2 1x/3x, (fold, 1x, 3x, ties) at the Middle decision]
    fold = -(2 + b1) * down_leaves * scale
    for r in range(reps.shape[0]):
        a = reps[r]
        weight = weights[a]
        one = acc[r, 2 * j]
        three = acc[r, 2 * j + 1]
        b2 = np.int64(choice2[j, _global_pair(cards[pi[a]], cards[pj[a]])])
        if (b2 == 0 and (one == fold or three == fold)) or (b2 == 1 and three == one):
            ties[1] += weight
        if b2 == 0:
            down_counts[0] += weight
            net_hist[-(2 + b1) * scale - net_low] += weight * down_leaves
            gross_hist[0] += weight * down_leaves
            continue
        g = 0 if b2 == 1 else 1
        down_counts[1 + g] += weight
        decided = bits[r, 2 * j + g]
        n1 = np.int64(0)
        n3 = np.int64(0)
        nt = np.int64(0)
        for block in range(N_BLOCKS):
            n1 += popcount(decided[0, block])
            n3 += popcount(decided[1, block])
            nt += popcount(decided[2, block])
        counts[g, 0] += weight * (DOWN_PAIRS - n1 - n3)
        counts[g, 1] += weight * n1
        counts[g, 2] += weight * n3
        counts[g, 3] += weight * nt
        if n1 + n3:
            _joint(a, exactly, rare_pair, rare_class, rare_mask, decided[0], decided[1], joint[g, 0],
                   joint[g, 1], weight)
    for g in range(2):
        b2 = 1 + 2 * g
        middle_counts[0] += counts[g, 0]
        middle_counts[1] += counts[g, 1]
        middle_counts[2] += counts[g, 2]
        ties[2] += counts[g, 3]
        net_hist[-(2 + b1 + b2) * scale - net_low] += counts[g, 0] * MIDDLE_CARDS
        gross_hist[0] += counts[g, 0] * MIDDLE_CARDS
        for h in range(2):
            b3 = 1 + 2 * h
            for ka in range(N_CLASSES):
                for kd in range(N_CLASSES):
                    count = joint[g, h, ka, kd]
                    if count == 0:
                        continue
                    km = ka if ka > kd else kd
                    net = ante[ka] + ante[kd] + b1 * cc[ka] + b2 * cc[kd] + b3 * cc[km]
                    gross = (max(ante[ka], 0) + max(ante[kd], 0) + b1 * max(cc[ka], 0) + b2 * max(cc[kd], 0)
                             + b3 * max(cc[km], 0))
                    net_hist[net - net_low] += count
                    gross_hist[gross] += count
    return ch1
