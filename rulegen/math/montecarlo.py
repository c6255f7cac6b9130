"""Seeded Monte Carlo of the main game under the computed strategy: the cross-check of the exact analysis.

Rounds are dealt from a shuffled deck and played with the strategy the exact analysis chose (the Across
decision per starting hand, the Down decision per across pair, the Middle decision recomputed exactly from
the 46 middle cards with the same integer arithmetic and tie rule), then settled by the compiled settlement,
which a test checks against rulegen.game.settle_round on the same deals. The 99% confidence interval of the
mean must cover the exact EV.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from itertools import permutations

import numpy as np

Z_99 = 2.5758293035489  # two-sided 99% normal quantile


@cache
def hole_frames():
    """For each of the 1,326 hole pairs: its starting-hand class and a suit relabelling (as a card map) that
    turns it into the class's representative."""
    from rulegen.math.main_game import pair_cards, starting_hands

    hands = starting_hands()
    rep = {frozenset(h.cards): i for i, h in enumerate(hands)}
    maps = [np.array([(c >> 2) * 4 + perm[c & 3] for c in range(52)], dtype=np.int64) for perm in permutations(range(4))]
    hole_class = np.zeros(1326, dtype=np.int64)
    hole_map = np.zeros((1326, 52), dtype=np.int64)
    for p, (x, y) in enumerate(pair_cards()):
        for card_map in maps:
            image = frozenset((int(card_map[x]), int(card_map[y])))
            if image in rep:
                hole_class[p] = rep[image]
                hole_map[p] = card_map
                break
        else:
            raise AssertionError("a hole pair without a class")
    return hole_class, hole_map


def strategy_tables(criss_cross, ante):
    """(choice1[169], choice2[169, 2, 1326]) from the exact analysis's kernel."""
    from rulegen.math.main_game import run_kernel

    hands, results, scale, _ = run_kernel(criss_cross, ante)
    return strategy_from_results(hands, results)


def strategy_from_results(hands, results):
    from rulegen.math.main_game import across_orbits

    choice1 = np.array([int(r[1]) for r in results], dtype=np.int64)
    choice2 = np.zeros((len(hands), 2, 1326), dtype=np.int8)
    for i, (hand, r) in enumerate(zip(hands, results)):
        _, _, canonical = across_orbits(hand)
        valid = canonical >= 0
        for j in range(2):
            choice2[i, j, valid] = r[2][j][canonical[valid]]
    return choice1, choice2


def simulate(criss_cross, ante, rounds: int, seed: int = 20261122, strategy=None):
    """Play `rounds` rounds; returns (deals[n, 7], bets[n, 3], nets[n] scaled, scale)."""
    from rulegen.evaluator import strength_arrays
    from rulegen.math.main_game import integer_payouts, pair_index
    from rulegen.math.mc_kernels import simulate as kernel

    scale, an, cc = integer_payouts(criss_cross, ante)
    choice1, choice2 = strategy if strategy is not None else strategy_tables(criss_cross, ante)
    hole_class, hole_map = hole_frames()
    card_key, card_bit, nonflush, flush, pay_of, _ = strength_arrays()
    per_chunk = 50_000 if rounds >= 50_000 else rounds
    chunks = max(1, math.ceil(rounds / per_chunk))
    deals, bets, nets = kernel(seed, chunks, per_chunk, hole_class, hole_map, pair_index(), choice1, choice2,
                               card_key, card_bit, nonflush, flush, pay_of.astype(np.int64), an, cc, scale)
    return deals[:rounds], bets[:rounds], nets[:rounds], scale


def monte_carlo(criss_cross, ante, exact_ev: Fraction, rounds: int = 2_000_000, seed: int = 20261122,
                strategy=None) -> dict:
    deals, bets, nets, scale = simulate(criss_cross, ante, rounds, seed, strategy)
    values = nets.astype(np.float64) / scale
    mean = float(values.mean())
    sd = float(values.std(ddof=1))
    half = Z_99 * sd / math.sqrt(rounds)
    return {"rounds": rounds, "seed": seed, "mean_per_ante": mean, "standard_deviation": sd,
            "confidence": 0.99, "interval": [mean - half, mean + half], "exact_ev_per_ante": float(exact_ev),
            "covers_exact": bool(mean - half <= float(exact_ev) <= mean + half),
            "hit_frequency": float((nets > 0).mean())}
