"""Seeded Monte Carlo of the main game under the computed strategy: the cross-check of the exact analysis.

Rounds are dealt from a shuffled deck and played with the strategy the exact analysis chose (the Across
decision per starting hand, the Down decision per across pair, the Middle decision recomputed exactly from
the 46 middle cards with the same integer arithmetic and tie rule), then settled by the compiled settlement,
which a test checks against rulegen.game.settle_round on the same deals. The 99% confidence interval of the
mean must cover the exact EV.

The strategy comes in as tables (`Strategy`); `main_game` makes them from its kernel run, so this module
needs nothing of `main_game` (the shared deal structure is in `rulegen.math.deals`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import permutations
from typing import TYPE_CHECKING

from rulegen.math.deals import N_PAIRS, across_orbits, integer_payouts, pair_cards, pair_index, starting_hands
from rulegen.math.kernel_types import KernelRun, SimulatedRounds
from rulegen.math.results import MonteCarloResult

if TYPE_CHECKING:
    import numpy as np

Z_99 = 2.5758293035489  # two-sided 99% normal quantile


@dataclass(frozen=True, eq=False)
class Strategy:
    """The exact analysis's decisions as lookup tables for the simulation."""
    across: np.ndarray  # [169]: the Across choice (0 fold, 1, 3) per starting hand
    down: np.ndarray  # [169, 2, 1326]: the Down choice after Across 1x / 3x, per across pair in the hand's frame


@dataclass(frozen=True, eq=False)
class Simulation:
    rounds: SimulatedRounds
    scale: int  # the nets are in antes times `scale`


@dataclass(frozen=True, eq=False)
class HoleFrames:
    """Each of the 1,326 hole pairs in the frame of its starting hand's representative."""
    hand: np.ndarray  # [1326]: the starting-hand class (index into starting_hands())
    card_map: np.ndarray  # [1326, 52]: a suit relabelling that turns the pair into the class's representative


@cache
def hole_frames() -> HoleFrames:
    import numpy as np
    hands = starting_hands()
    rep = {frozenset(h.cards): i for i, h in enumerate(hands)}
    maps = [np.array([(c >> 2) * 4 + perm[c & 3] for c in range(52)], dtype=np.int64)
            for perm in permutations(range(4))]
    hole_class = np.zeros(N_PAIRS, dtype=np.int64)
    hole_map = np.zeros((N_PAIRS, 52), dtype=np.int64)
    for p, (x, y) in enumerate(pair_cards()):
        for card_map in maps:
            image = frozenset((int(card_map[x]), int(card_map[y])))
            if image in rep:
                hole_class[p] = rep[image]
                hole_map[p] = card_map
                break
        else:
            raise AssertionError("a hole pair without a class")
    return HoleFrames(hole_class, hole_map)


@cache
def class_tables() -> tuple[np.ndarray, np.ndarray]:
    """The evaluator's two lookup tables with each strength replaced by its pay class (uint8; a slot no hand uses
    holds 255): a hand's pay class in one lookup."""
    import numpy as np
    from rulegen.evaluator import strength_arrays

    _, _, nonflush, flush, pay_of, _ = strength_arrays()
    tables = []
    for table in (nonflush, flush):
        used = table != 0xFFFF
        classes = np.full(table.shape, 255, dtype=np.uint8)
        classes[used] = pay_of[table[used]]
        tables.append(classes)
    return tables[0], tables[1]


def strategy_from_run(run: KernelRun) -> Strategy:
    import numpy as np
    across = np.array([int(r.across_choice) for r in run.results], dtype=np.int64)
    down = np.zeros((len(run.hands), 2, N_PAIRS), dtype=np.int8)
    for i, (hand, result) in enumerate(zip(run.hands, run.results)):
        canonical = across_orbits(hand).canonical
        valid = canonical >= 0
        for j in range(2):
            down[i, j, valid] = result.down_choice[j][canonical[valid]]
    return Strategy(across, down)


def simulate(criss_cross, ante, rounds: int, seed: int, strategy: Strategy, *, keep: bool = True) -> Simulation:
    """Play `rounds` rounds under `strategy`; without `keep`, only the nets are returned (the deals and bets
    empty)."""
    from rulegen.evaluator import strength_arrays
    from rulegen.math.mc_kernels import simulate as kernel

    payouts = integer_payouts(criss_cross, ante)
    frames = hole_frames()
    card_key, card_bit, _, _, _, _ = strength_arrays()
    nonflush_class, flush_class = class_tables()
    per_chunk = 50_000 if rounds >= 50_000 else rounds
    chunks = max(1, math.ceil(rounds / per_chunk))
    played = kernel(seed, chunks, per_chunk, frames.hand, frames.card_map, pair_index(), strategy.across, strategy.down,
                    card_key, card_bit, nonflush_class, flush_class, payouts.ante, payouts.criss_cross,
                    payouts.scale, keep)
    if not keep:
        return Simulation(SimulatedRounds(played.deals[:0], played.bets[:0], played.nets[:rounds]), payouts.scale)
    return Simulation(SimulatedRounds(played.deals[:rounds], played.bets[:rounds], played.nets[:rounds]),
                      payouts.scale)


def monte_carlo(criss_cross, ante, exact_ev: Fraction, rounds: int, seed: int, strategy: Strategy) -> MonteCarloResult:
    simulation = simulate(criss_cross, ante, rounds, seed, strategy, keep=False)
    return summarise_nets(simulation.rounds.nets, simulation.scale, exact_ev, rounds, seed)


def summarise_nets(nets: np.ndarray, scale: int, exact_ev: Fraction, rounds: int, seed: int) -> MonteCarloResult:
    """The Monte Carlo's result from the rounds' scaled nets, in the order they were dealt."""
    import numpy as np
    values = nets.astype(np.float64) / scale
    mean = float(values.mean())
    sd = float(values.std(ddof=1))
    half = Z_99 * sd / math.sqrt(rounds)
    return MonteCarloResult(rounds=rounds, seed=seed, mean_per_ante=mean, standard_deviation=sd, confidence=0.99,
                            interval=(mean - half, mean + half), exact_ev_per_ante=float(exact_ev),
                            covers_exact=bool(mean - half <= float(exact_ev) <= mean + half),
                            hit_frequency=float((nets > 0).mean()))
