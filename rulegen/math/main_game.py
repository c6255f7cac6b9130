"""Exact analysis of the main game (antes, Across, Down, Middle) under the EV-maximising strategy.

The game tree has 1,326 x 1,225 x 1,128 x 46 (about 84 billion) leaves. Each reduction below is exact:

1. Starting hands: a suit permutation maps a deal to a deal with the same hand classes, so the 1,326 hole
   pairs fall into 169 classes (pairs 6 combinations, suited 4, offsuit 12) with identical values.
2. Across pairs: within one starting hand, a suit permutation that fixes the hole cards maps across pair A to
   sigma(A) and every later deal (D, m) to (sigma(D), sigma(m)) one-to-one with the same classes, so only one
   across pair per orbit is analysed, weighted by the orbit size (about 3x fewer).
3. Per-hand lookup tables: the class of hole + pair + middle card, for every pair of the 50 unseen cards and
   every middle card (58,800 evaluations per starting hand), serve both the Across and the Down hands.
4. Linearity: every wager pays a fixed multiple of its bet, so the sum over the 46 middle cards of the Across
   payouts is the pair's sum over its 48 middle cards less its payouts with the two Down cards as middle card
   (and likewise for Down); no loop over middle cards is needed for them.
5. The Middle bet pays the better hand, pay(max(a, d)); its sum over middle cards is telescoped over the
   payout steps, each step counted by a popcount of the union of two 52-bit masks.
6. Bet sizes: every payoff is linear in each bet, so the value of the rest of the game is a maximum of linear
   functions of an earlier bet, i.e. convex: 2x never beats both 1x and 3x, and only fold / 1x / 3x are
   evaluated; later decisions are computed for every earlier (b1, b2) in {1, 3}^2 because folds depend on them.

All payouts are integers (odds times the LCM of the denominators), so EV comparisons are exact and ties are
detected; on a tie the strategy takes the smaller wager (fold before 1x before 3x).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import permutations

import numpy as np

from rulegen.cards import RANKS
from rulegen.evaluator import PAY_CLASSES

N_PAIRS = 1326
ACROSS_PAIRS, DOWN_PAIRS, MIDDLE_CARDS = 1225, 1128, 46
LEAVES_PER_HAND = ACROSS_PAIRS * DOWN_PAIRS * MIDDLE_CARDS  # 63,562,800
TIE_RULE = "on an exact tie between two choices the strategy takes the smaller wager (fold before 1x before 3x)"
CODE_VERSION = "main-game-4"  # bump when the analysis changes what it computes


@dataclass(frozen=True)
class StartingHand:
    name: str  # "AA", "AKs", "AKo"
    cards: tuple[int, int]  # a representative: card indices
    combinations: int  # 6, 4 or 12


@cache
def starting_hands() -> tuple[StartingHand, ...]:
    """The 169 classes, higher rank first: pairs, then suited, then offsuit, each ordered by rank."""
    hands = []
    for high in range(12, -1, -1):
        for low in range(high, -1, -1):
            if high == low:
                hands.append(StartingHand(RANKS[high] * 2, (high * 4, high * 4 + 1), 6))
            else:
                hands.append(StartingHand(RANKS[high] + RANKS[low] + "s", (high * 4, low * 4), 4))
                hands.append(StartingHand(RANKS[high] + RANKS[low] + "o", (high * 4, low * 4 + 1), 12))
    assert sum(h.combinations for h in hands) == N_PAIRS
    return tuple(hands)


@cache
def pair_cards() -> np.ndarray:
    return np.array([(x, y) for x in range(52) for y in range(x + 1, 52)], dtype=np.int64)


@cache
def pair_index() -> np.ndarray:
    index = np.full((52, 52), -1, dtype=np.int64)
    for p, (x, y) in enumerate(pair_cards()):
        index[x, y] = index[y, x] = p
    return index


@cache
def across_orbits(hand: StartingHand) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(representatives, weights, canonical[p]) of the across pairs under the suit permutations fixing the
    hole cards (reduction 2)."""
    pairs, index = pair_cards(), pair_index()
    h0, h1 = hand.cards
    hole = {h0, h1}
    valid = np.array([x not in hole and y not in hole for x, y in pairs])
    canonical = np.arange(N_PAIRS)
    for perm in permutations(range(4)):
        card_map = np.array([(c >> 2) * 4 + perm[c & 3] for c in range(52)])
        if {int(card_map[h0]), int(card_map[h1])} != hole:
            continue
        images = index[card_map[pairs[:, 0]], card_map[pairs[:, 1]]]
        canonical = np.minimum(canonical, images)
    canonical = np.where(valid, canonical, -1)
    representatives, weights = np.unique(canonical[valid], return_counts=True)
    assert weights.sum() == ACROSS_PAIRS
    return representatives.astype(np.int64), weights.astype(np.int64), canonical


def integer_payouts(criss_cross, ante) -> tuple[int, np.ndarray, np.ndarray]:
    """(scale, ante payouts, Criss Cross payouts) as integers: odds times the LCM of their denominators."""
    values = list(criss_cross.payouts) + list(ante.payouts)
    scale = math.lcm(*(Fraction(v).denominator for v in values))
    cc = np.array([int(p * scale) for p in criss_cross.payouts], dtype=np.int64)
    an = np.array([int(p * scale) for p in ante.payouts], dtype=np.int64)
    return scale, an, cc


def _levels(cc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    levels = [k for k in range(1, 11) if cc[k] != cc[k - 1]]
    deltas = [int(cc[k] - cc[k - 1]) for k in levels]
    if not levels:  # a table that pays the same for every hand: keep one (zero) step for array shapes
        levels, deltas = [10], [0]
    return np.array(levels, dtype=np.int64), np.array(deltas, dtype=np.int64)


def paytables_of(rules_or_paytables):
    if isinstance(rules_or_paytables, tuple):
        return rules_or_paytables
    return rules_or_paytables.criss_cross, rules_or_paytables.ante


def run_kernel(criss_cross, ante, hands: list[StartingHand] | None = None, progress=None, batch: int = 12):
    """Run the compiled analysis over `hands` (default all 169); returns the raw arrays, concatenated."""
    from rulegen.evaluator import strength_arrays
    from rulegen.math.kernels import analyse_hands

    if not criss_cross.is_monotone():
        raise ValueError("the Criss Cross paytable pays less for a better hand; the Middle bet is undefined")
    hands = list(hands or starting_hands())
    scale, an, cc = integer_payouts(criss_cross, ante)
    levels, deltas = _levels(cc)
    card_key, card_bit, nonflush, flush, pay_of, _ = strength_arrays()
    net_low = int(min(0, 2 * an.min() + 9 * cc.min()))
    net_high = int(max(0, 2 * an.max() + 9 * cc.max()))
    gross_high = int(2 * max(an.max(), 0) + 9 * max(cc.max(), 0))
    # Balance the two cores: interleave the expensive classes (offsuit) with the cheap ones.
    order = sorted(range(len(hands)), key=lambda i: -len(across_orbits(hands[i])[0]))
    results = [None] * len(hands)
    done = 0
    for start in range(0, len(order), batch):
        chunk = order[start:start + batch]
        holes = np.array([hands[i].cards for i in chunk], dtype=np.int64)
        reps, weights, offsets = [], [], [0]
        for i in chunk:
            r, w, _ = across_orbits(hands[i])
            reps.append(r)
            weights.append(w)
            offsets.append(offsets[-1] + len(r))
        out = analyse_hands(holes, np.array(offsets, dtype=np.int64), np.concatenate(reps), np.concatenate(weights),
                            pair_cards(), card_key, card_bit, nonflush, flush, pay_of.astype(np.int64), an, cc,
                            levels, deltas, scale, net_low, net_high - net_low + 1, gross_high + 1)
        for j, i in enumerate(chunk):
            results[i] = tuple(array[j] for array in out)
        done += len(chunk)
        if progress is not None:
            progress(done, len(hands))
    return hands, results, scale, net_low


MONTE_CARLO_ROUNDS = 2_000_000
MONTE_CARLO_SEED = 20261122


def analyse_main_game(rules_or_paytables, *, use_cache: bool = True, progress=None,
                      monte_carlo_rounds: int = MONTE_CARLO_ROUNDS) -> dict:
    """The exact analysis of the main game for the Criss Cross and ante paytables, with its Monte Carlo
    cross-check: a JSON-able dict, cached on disk (see rulegen.math.cache)."""
    from rulegen.math import cache as disk

    criss_cross, ante = paytables_of(rules_or_paytables)
    key = disk.key("main_game", CODE_VERSION, criss_cross.canonical(), ante.canonical(), monte_carlo_rounds)
    if use_cache:
        found = disk.load(key)
        if found is not None:
            if progress is not None:
                progress(169, 169)
            return found
    result = _analyse(criss_cross, ante, progress, monte_carlo_rounds)
    if use_cache:
        disk.store(key, result)
    return result


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _analyse(criss_cross, ante, progress, monte_carlo_rounds: int) -> dict:
    from rulegen.math import montecarlo

    hands, results, scale, net_low = run_kernel(criss_cross, ante, progress=progress)
    summary = _summarise(criss_cross, ante, hands, results, scale, net_low)
    if monte_carlo_rounds:
        strategy = montecarlo.strategy_from_results(hands, results)
        summary["monte_carlo"] = montecarlo.monte_carlo(criss_cross, ante, Fraction(summary["ev_per_ante"]),
                                                        monte_carlo_rounds, MONTE_CARLO_SEED, strategy)
    return summary


def _summarise(criss_cross, ante, hands, results, scale, net_low) -> dict:
    total_weight = N_PAIRS * LEAVES_PER_HAND
    ev_sum = 0
    strategy = {}
    per_hand = []
    across_counts = {"fold": 0, "1x": 0, "3x": 0}
    down_counts = np.zeros(3, dtype=np.int64)
    middle_counts = np.zeros(3, dtype=np.int64)
    ties = np.zeros(3, dtype=np.int64)
    net_hist = None
    gross_hist = None
    names = {0: "fold", 1: "1x", 3: "3x"}
    for hand, (ev1, choice1, choice2, dcounts, mcounts, tie, nh, gh) in zip(hands, results):
        w = hand.combinations
        choice = int(choice1)
        best = int(ev1[{0: 0, 1: 1, 3: 2}[choice]])
        ev_sum += w * best
        strategy[hand.name] = names[choice]
        across_counts[names[choice]] += w
        # down_counts are weighted by across pairs (each stands for DOWN_PAIRS * 46 deals), middle by deals / 46
        down_counts += w * dcounts
        middle_counts += w * mcounts
        ties += w * tie
        net_hist = nh * w if net_hist is None else net_hist + nh * w
        gross_hist = gross_hist + gh * w if gross_hist is not None else gh * w
        per_hand.append({"hand": hand.name, "combinations": w, "decision": names[choice],
                         "ev_fold": _fraction(Fraction(int(ev1[0]), scale * LEAVES_PER_HAND)),
                         "ev_1x": _fraction(Fraction(int(ev1[1]), scale * LEAVES_PER_HAND)),
                         "ev_3x": _fraction(Fraction(int(ev1[2]), scale * LEAVES_PER_HAND)),
                         "ev": float(Fraction(best, scale * LEAVES_PER_HAND))})
    ev = Fraction(ev_sum, scale * total_weight)
    values = np.arange(net_low, net_low + len(net_hist))
    assert int(net_hist.sum()) == total_weight
    mean = Fraction(int((values * net_hist).sum()), scale * total_weight)
    assert mean == ev, "the distribution and the decision values disagree"
    second = Fraction(sum(int(v) * int(v) * int(c) for v, c in zip(values, net_hist) if c), scale * scale * total_weight)
    variance = second - mean * mean
    # Wagered per deal: 2 antes, plus the bets made on the path to it.
    down_deals = down_counts * DOWN_PAIRS * MIDDLE_CARDS
    middle_deals = middle_counts * MIDDLE_CARDS
    average_wager = _average_wager(hands, results)
    hit = Fraction(int(net_hist[values > 0].sum()), total_weight)
    distribution = [{"net": _fraction(Fraction(int(v), scale)), "count": int(c), "probability": int(c) / total_weight}
                    for v, c in zip(values, net_hist) if c]
    gross = [{"gross": _fraction(Fraction(int(v), scale)), "count": int(c)} for v, c in enumerate(gross_hist) if c]
    return {
        "paytables": {"criss_cross": criss_cross.canonical(), "ante": ante.canonical(), "pay_classes": list(PAY_CLASSES)},
        "ev_per_ante": _fraction(ev),
        "house_edge_per_ante": float(-ev),
        "house_edge_per_initial_wager": float(-ev / 2),
        "average_total_wager": float(average_wager),
        "average_total_wager_exact": _fraction(average_wager),
        "element_of_risk": float(-ev / average_wager),
        "hit_frequency": float(hit),
        "variance": _fraction(variance),
        "standard_deviation": math.sqrt(variance),
        "rounds": total_weight,
        "decisions": {
            "across": {k: v / N_PAIRS for k, v in across_counts.items()},
            "down": dict(zip(("fold", "1x", "3x"), (down_deals / total_weight).tolist())),
            "middle": dict(zip(("fold", "1x", "3x"), (middle_deals / total_weight).tolist())),
            "note": "probability per round of reaching the decision and choosing each option",
        },
        "ties": {"across_hole_combinations": int(ties[0]),
                 "down_deals": int(ties[1]) * DOWN_PAIRS * MIDDLE_CARDS,
                 "middle_deals": int(ties[2]) * MIDDLE_CARDS,
                 "note": "deals (of all 84,284,272,800) on the strategy's path whose decision met an exact tie",
                 "rule": TIE_RULE,
                 "middle_rule": "at the Middle decision, when the Middle bet's expected payout is exactly zero, 1x "
                                "and 3x tie and the strategy bets 1x"},
        "across_decision": strategy,
        "starting_hands": per_hand,
        "distribution": distribution,
        "gross_payout_distribution": gross,
        "scale": scale,
        "method": "exact enumeration of all 84,284,272,800 deals (1,326 x 1,225 x 1,128 x 46), reduced exactly by "
                  "suit symmetry, per-hand lookup tables and linearity of the bets",
        "tie_rule": TIE_RULE,
    }


def _average_wager(hands, results) -> Fraction:
    """Expected total wagered per round in antes: 2 antes, plus b1 if not folded, plus b2 and b3 on the path."""
    total = 0
    for hand, (ev1, choice1, choice2, dcounts, mcounts, tie, nh, gh) in zip(hands, results):
        w = hand.combinations
        b1 = int(choice1)
        per_hand = 2 * LEAVES_PER_HAND
        if b1:
            per_hand += b1 * LEAVES_PER_HAND
            # dcounts: across pairs choosing fold / 1x / 3x at Down; mcounts: (across, down) pairs at Middle
            per_hand += (int(dcounts[1]) * 1 + int(dcounts[2]) * 3) * DOWN_PAIRS * MIDDLE_CARDS
            per_hand += (int(mcounts[1]) * 1 + int(mcounts[2]) * 3) * MIDDLE_CARDS
        total += w * per_hand
    return Fraction(total, N_PAIRS * LEAVES_PER_HAND)
