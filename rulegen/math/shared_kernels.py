"""The compiled (numba) kernels of the shared counts (`rulegen.math.shared`, which explains them). Layer: math
(numpy + numba; the per-hand tables and orbits of `exact_kernels`, `fasteval.popcount`).

Units as in `rulegen.math.exact_kernels`: payouts are integers (odds times `scale`); choices 0 = fold, 1 = 1x,
3 = 3x, the smaller wager on an exact tie. A joint outcome is the cell 11 * Across class + Down class.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rulegen.math.exact_kernels import (
    ACROSS_PAIRS, DOWN_PAIRS, MIDDLE_CARDS, N_CLASSES, N_LOCAL_PAIRS, _across_orbits, _choose, _global_pair,
    _hand_tables, _pay_class,
)
from rulegen.math.fasteval import popcount

N_CELLS = N_CLASSES * N_CLASSES
KEY_CAPACITY = 1 << 14  # distinct joint tables one starting hand may have (about 700 on average, 2,000 at most)
SLOTS = 1 << 15


@njit(cache=True, nogil=True)
def hand_counts(h0, h1, suit_perms):
    """The shared counts of one starting hand: (weights, keys, entry_offsets, entry_key, entry_count, pairs).

    The across pairs are taken one per orbit of the suit permutations fixing the hole cards (`weights`: the
    orbit sizes, summing to 1,225). For each, every down pair's joint table (how many of the 46 middle cards
    give each (Across class, Down class)) is looked up in this hand's table of distinct joint tables (`keys`,
    one row of 121 counts each, compared in full, so the table is exact); the across pair's entries are the
    distinct tables its 1,128 down pairs have and how many down pairs have each; `pairs` the across pairs taken
    (the card pair's index 0..1325, as in `deals.pair_index`)."""
    zeros = np.zeros(N_CLASSES, dtype=np.int64)
    cards, pi, pj, pmask, cc_t, ante_t, total_cc, total_ante, at_least, exactly = _hand_tables(h0, h1, zeros,
                                                                                               zeros)
    canonical = _across_orbits(h0, h1, cards, suit_perms)
    orbit = np.zeros(N_LOCAL_PAIRS, dtype=np.int64)
    for p in range(N_LOCAL_PAIRS):
        orbit[canonical[p]] += 1
    reps = np.nonzero(orbit)[0]
    n = reps.shape[0]
    weights = np.empty(n, dtype=np.int64)
    pairs = np.empty(n, dtype=np.int64)
    keys = np.zeros((KEY_CAPACITY, N_CELLS), dtype=np.uint8)
    slot_hash = np.zeros(SLOTS, dtype=np.uint64)
    slot_key = np.full(SLOTS, -1, dtype=np.int64)
    n_keys = 0
    entry_offsets = np.zeros(n + 1, dtype=np.int64)
    entry_key = np.empty(n * DOWN_PAIRS, dtype=np.int32)
    entry_count = np.empty(n * DOWN_PAIRS, dtype=np.int32)
    table = np.zeros(N_CELLS, dtype=np.uint8)
    touched = np.empty(N_CELLS, dtype=np.int64)
    key_cells = np.zeros(KEY_CAPACITY, dtype=np.int64)  # each joint table's number of nonzero cells
    ids = np.empty(DOWN_PAIRS, dtype=np.int64)
    classes = np.empty(N_CLASSES, dtype=np.int64)
    # the classes each pair reaches with some middle card (most reach three or four)
    down_classes = np.empty((N_LOCAL_PAIRS, N_CLASSES), dtype=np.int64)
    down_reached = np.zeros(N_LOCAL_PAIRS, dtype=np.int64)
    for p in range(N_LOCAL_PAIRS):
        for kd in range(N_CLASSES):
            if exactly[kd, p] != 0:
                down_classes[p, down_reached[p]] = kd
                down_reached[p] += 1
    e = 0
    for r in range(n):
        a = reps[r]
        weights[r] = orbit[a]
        pairs[r] = _global_pair(cards[pi[a]], cards[pj[a]])
        amask = pmask[a]
        reached = 0
        for ka in range(N_CLASSES):
            if exactly[ka, a] != 0:
                classes[reached] = ka
                reached += 1
        q = 0
        for p in range(N_LOCAL_PAIRS):
            if pmask[p] & amask:
                continue
            h = np.uint64(1469598103934665603)
            n_touched = 0
            for c in range(reached):
                ka = classes[c]
                ea = exactly[ka, a]
                for i in range(down_reached[p]):
                    kd = down_classes[p, i]
                    v = popcount(ea & exactly[kd, p])
                    if v:
                        cell = ka * N_CLASSES + kd
                        table[cell] = v
                        touched[n_touched] = cell
                        n_touched += 1
                        h = (h ^ np.uint64(cell * 64 + v)) * np.uint64(1099511628211)
            h ^= h >> np.uint64(29)
            slot = np.int64(h & np.uint64(SLOTS - 1))
            found = -1
            while slot_key[slot] >= 0:
                if slot_hash[slot] == h:
                    # equal tables: the same number of nonzero cells, and this one's cells all equal
                    k = slot_key[slot]
                    same = key_cells[k] == n_touched
                    for i in range(n_touched):
                        if not same:
                            break
                        same = keys[k, touched[i]] == table[touched[i]]
                    if same:
                        found = k
                        break
                slot = (slot + 1) & (SLOTS - 1)
            if found < 0:
                if n_keys == KEY_CAPACITY:
                    raise ValueError("more distinct joint tables in one starting hand than the table holds")
                found = n_keys
                keys[found] = table
                key_cells[found] = n_touched
                slot_hash[slot] = h
                slot_key[slot] = found
                n_keys += 1
            ids[q] = found
            q += 1
            for i in range(n_touched):
                table[touched[i]] = 0
        ids.sort()
        run = 1
        for i in range(1, DOWN_PAIRS + 1):
            if i < DOWN_PAIRS and ids[i] == ids[i - 1]:
                run += 1
                continue
            entry_key[e] = ids[i - 1]
            entry_count[e] = run
            e += 1
            run = 1
        entry_offsets[r + 1] = e
    return weights, keys[:n_keys].copy(), entry_offsets, entry_key[:e].copy(), entry_count[:e].copy(), pairs


@njit(cache=True, nogil=True)
def evaluate(marginals, cells, cell_counts, combinations, hand_offsets, hand_type, hand_weight, type_offsets,
             type_key, type_count, ante, cc, scale, values, decisions, key_weight, type_sums, type_weight):
    """The exact analysis of one paytable from the shared counts (`rulegen.math.shared.SharedCounts`).

    `marginals[k]` are joint table k's Across, Down and better-hand (Middle) class counts (3 x 11);
    `cells[k]`, `cell_counts[k]` its nonzero cells (-1 after the last). The scratch arrays `values`,
    `decisions`, `key_weight` ([tables, 4]), `type_sums` and `type_weight` ([kinds of across pair, 4]) are the
    caller's. q = 2 * (b1 == 3) + (b2 == 3) numbers the (Across, Down) bet pairs in {1, 3}^2.

    Returns (ev1 [hands, 3]: the sum of each starting hand's results for fold / 1x / 3x at Across, over its
    63,562,800 deals; across_choice [hands]; joint [b1 1x/3x, b2, b3, cell]: deals on the path per joint
    outcome and bets; folds [7]: deals folded at Across, at Down after Across 1x / 3x, and at Middle after each
    q; wagered: the raises on the path, in antes, summed over all deals)."""
    n_keys = marginals.shape[0]
    n_types = type_offsets.shape[0] - 1
    n_hands = combinations.shape[0]
    down_leaves = DOWN_PAIRS * MIDDLE_CARDS
    all_leaves = ACROSS_PAIRS * down_leaves
    # --- the Middle decision for every joint table and q
    for k in range(n_keys):
        sa = np.int64(0)
        sx = np.int64(0)
        sd = np.int64(0)
        sm = np.int64(0)
        for c in range(N_CLASSES):
            na = marginals[k, 0, c]
            nd = marginals[k, 1, c]
            sa += (na + nd) * ante[c]
            sx += na * cc[c]
            sd += nd * cc[c]
            sm += marginals[k, 2, c] * cc[c]
        base = sa + sm + 2 * max(sm, 0)
        for q in range(4):
            b1 = 1 + 2 * (q >> 1)
            b2 = 1 + 2 * (q & 1)
            fold = -(2 + b1 + b2) * MIDDLE_CARDS * scale
            t = base + b1 * sx + b2 * sd
            if t > fold:
                values[k, q] = t
                decisions[k, q] = 3 if sm > 0 else 1
            else:
                values[k, q] = fold
                decisions[k, q] = 0
    # --- each kind of across pair: the value of Down 1x / 3x (its down pairs' Middle values summed) per q
    for t in range(n_types):
        s0 = np.int64(0)
        s1 = np.int64(0)
        s2 = np.int64(0)
        s3 = np.int64(0)
        for e in range(type_offsets[t], type_offsets[t + 1]):
            k = type_key[e]
            n = np.int64(type_count[e])
            s0 += n * values[k, 0]
            s1 += n * values[k, 1]
            s2 += n * values[k, 2]
            s3 += n * values[k, 3]
        type_sums[t, 0] = s0
        type_sums[t, 1] = s1
        type_sums[t, 2] = s2
        type_sums[t, 3] = s3
    # --- the Down decision (after Across 1x and 3x) per kind, then the Across decision per starting hand
    fold1 = -3 * down_leaves * scale
    fold3 = -5 * down_leaves * scale
    ev1 = np.zeros((n_hands, 3), dtype=np.int64)
    across = np.zeros(n_hands, dtype=np.int64)
    for c in range(n_hands):
        for u in range(hand_offsets[c], hand_offsets[c + 1]):
            t = hand_type[u]
            w = hand_weight[u]
            ch, best = _choose(fold1, type_sums[t, 0], type_sums[t, 1])
            ev1[c, 1] += w * best
            ch, best = _choose(fold3, type_sums[t, 2], type_sums[t, 3])
            ev1[c, 2] += w * best
        ev1[c, 0] = -2 * all_leaves * scale
        ch1, best = _choose(ev1[c, 0], ev1[c, 1], ev1[c, 2])
        across[c] = ch1
    # --- the deals on the chosen path: per kind of across pair and q, then per joint table and q, then per
    # joint outcome and bets
    folds = np.zeros(7, dtype=np.int64)
    wagered = np.int64(0)
    type_weight[:, :] = 0
    key_weight[:, :] = 0
    for c in range(n_hands):
        comb = combinations[c]
        b1 = across[c]
        if b1 == 0:
            folds[0] += comb * all_leaves
            continue
        j = 0 if b1 == 1 else 1
        wagered += comb * all_leaves * b1
        for u in range(hand_offsets[c], hand_offsets[c + 1]):
            t = hand_type[u]
            w = comb * hand_weight[u]
            b2, best = _choose(fold1 if j == 0 else fold3, type_sums[t, 2 * j], type_sums[t, 2 * j + 1])
            if b2 == 0:
                folds[1 + j] += w * down_leaves
                continue
            wagered += w * down_leaves * b2
            type_weight[t, 2 * j + (0 if b2 == 1 else 1)] += w
    for t in range(n_types):
        w0 = type_weight[t, 0]
        w1 = type_weight[t, 1]
        w2 = type_weight[t, 2]
        w3 = type_weight[t, 3]
        if w0 == 0 and w1 == 0 and w2 == 0 and w3 == 0:
            continue
        for e in range(type_offsets[t], type_offsets[t + 1]):
            k = type_key[e]
            n = np.int64(type_count[e])
            key_weight[k, 0] += n * w0
            key_weight[k, 1] += n * w1
            key_weight[k, 2] += n * w2
            key_weight[k, 3] += n * w3
    joint = np.zeros((2, 2, 2, N_CELLS), dtype=np.int64)
    for k in range(n_keys):
        for q in range(4):
            w = key_weight[k, q]
            if w == 0:
                continue
            b3 = decisions[k, q]
            if b3 == 0:
                folds[3 + q] += w * MIDDLE_CARDS
                continue
            wagered += w * MIDDLE_CARDS * b3
            h = 0 if b3 == 1 else 1
            for i in range(cells.shape[1]):
                cell = cells[k, i]
                if cell < 0:
                    break
                joint[q >> 1, q & 1, h, cell] += w * cell_counts[k, i]
    return ev1, across, joint, folds, wagered


@njit(cache=True, nogil=True)
def hand_reach(h0, h1, suit_perms):
    """For the starting hand h0, h1: reach[a, d, f] = the best Six Card Bonus class (8, 9 or 10) the hole cards can
    make with four of the 45 cards a deal leaves, over the deals whose Across hand is of class a, Down hand of
    class d and five community cards of class f; -1 where no deal gives (a, d, f). The across pairs are taken
    one per suit orbit (a suit permutation fixing the hole cards maps a deal to one with the same classes)."""
    zeros = np.zeros(N_CLASSES, dtype=np.int64)
    cards, pi, pj, pmask, cc_t, ante_t, total_cc, total_ante, at_least, exactly = _hand_tables(h0, h1, zeros,
                                                                                               zeros)
    canonical = _across_orbits(h0, h1, cards, suit_perms)
    cls = np.empty((N_LOCAL_PAIRS, 50), dtype=np.uint8)  # [pair, middle card]: the hole + pair + card class
    for p in range(N_LOCAL_PAIRS):
        for k in range(N_CLASSES):
            m = exactly[k, p]
            for z in range(50):
                if (m >> z) & 1:
                    cls[p, z] = k
    nibble = np.empty(50, dtype=np.int64)
    rank_bit = np.empty(50, dtype=np.int64)
    suit = np.empty(50, dtype=np.int64)
    local = np.full(52, -1, dtype=np.int64)
    rank_cards = np.zeros(13, dtype=np.int64)  # the outside cards of each rank, as a mask
    for z in range(50):
        nibble[z] = np.int64(1) << (4 * (cards[z] >> 2))
        rank_bit[z] = np.int64(1) << (cards[z] >> 2)
        suit[z] = cards[z] & 3
        local[cards[z]] = z
        rank_cards[cards[z] >> 2] |= np.int64(1) << z
    hole_suit = (h0 & 3) if (h0 & 3) == (h1 & 3) else -1
    # straight flushes holding a hole card: the outside cards each needs (a mask), royal or not
    royal = np.zeros(10, dtype=np.int64)
    n_royal = 0
    straight = np.zeros(40, dtype=np.int64)
    n_straight = 0
    for top in range(12, 2, -1):
        for s in range(4):
            holds = False
            need = np.int64(0)
            for step in range(5):
                rank = top - step if top - step >= 0 else 12
                card = rank * 4 + s
                if card == h0 or card == h1:
                    holds = True
                else:
                    need |= np.int64(1) << local[card]
            if holds:
                if top == 12:
                    royal[n_royal] = need
                    n_royal += 1
                else:
                    straight[n_straight] = need
                    n_straight += 1
    flat = np.full(N_CLASSES * N_CLASSES * N_CLASSES, -1, dtype=np.int64)
    for a in range(N_LOCAL_PAIRS):
        if canonical[a] != a:
            continue
        amask = pmask[a]
        ai = pi[a]
        aj = pj[a]
        for p in range(N_LOCAL_PAIRS):
            if pmask[p] & amask:
                continue
            used = amask | pmask[p]
            di = pi[p]
            dj = pj[p]
            counts4 = nibble[ai] + nibble[aj] + nibble[di] + nibble[dj]
            ranks4 = rank_bit[ai] | rank_bit[aj] | rank_bit[di] | rank_bit[dj]
            suit4 = suit[ai] if suit[aj] == suit[ai] and suit[di] == suit[ai] and suit[dj] == suit[ai] else -1
            # the straight flushes the four cards leave open: a middle card closes all of them only if it is
            # in every one's mask
            open_royal = False
            all_royal = np.int64(-1)
            for i in range(n_royal):
                if royal[i] & used == 0:
                    open_royal = True
                    all_royal &= royal[i]
            open_straight = False
            all_straight = np.int64(-1)
            for i in range(n_straight):
                if straight[i] & used == 0:
                    open_straight = True
                    all_straight &= straight[i]
            ok_royal = ~all_royal if open_royal else np.int64(0)  # the middle cards that leave a royal open
            ok_straight = ~all_straight if open_straight else np.int64(0)
            flushes = suit4 >= 0 or (hole_suit >= 0 and suit[ai] == hole_suit and suit[aj] == hole_suit) or \
                (hole_suit >= 0 and suit[di] == hole_suit and suit[dj] == hole_suit)
            if flushes:
                for z in range(50):
                    if (used >> z) & 1:
                        continue
                    kf = _pay_class(counts4 + nibble[z], ranks4 | rank_bit[z], suit[z] == suit4)
                    at = (np.int64(cls[a, z]) * N_CLASSES + np.int64(cls[p, z])) * N_CLASSES + kf
                    six = 8  # four of a kind: some rank has none of the seven cards dealt
                    if (ok_straight >> z) & 1:
                        six = 9
                    if (ok_royal >> z) & 1:
                        six = 10
                    if six > flat[at]:
                        flat[at] = six
            else:
                # no hand can be a flush: the middle cards of one rank give the same classes, so one of them
                # stands for all, and the six-card class is the best any of them leaves
                for r in range(13):
                    free = rank_cards[r] & ~used
                    if free == 0:
                        continue
                    z = popcount((free & -free) - 1)
                    kf = _pay_class(counts4 + nibble[z], ranks4 | rank_bit[z], False)
                    at = (np.int64(cls[a, z]) * N_CLASSES + np.int64(cls[p, z])) * N_CLASSES + kf
                    six = 8
                    if free & ok_straight:
                        six = 9
                    if free & ok_royal:
                        six = 10
                    if six > flat[at]:
                        flat[at] = six
    return flat.reshape((N_CLASSES, N_CLASSES, N_CLASSES))
