"""The deal structure the main-game analyses share (math layer): the 169 starting-hand classes, the 1,326 card
pairs and their index, the suit orbits of the across pairs, and the paytables as integer payouts.

`main_game`, `montecarlo` and `maxwin` all read these; keeping them here (and importing nothing else of the
math package) is what keeps those modules free of an import cycle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import permutations
from typing import TYPE_CHECKING

from rulegen.cards import RANKS

if TYPE_CHECKING:
    import numpy as np

N_PAIRS = 1326
ACROSS_PAIRS, DOWN_PAIRS, MIDDLE_CARDS = 1225, 1128, 46
LEAVES_PER_HAND = ACROSS_PAIRS * DOWN_PAIRS * MIDDLE_CARDS  # 63,562,800
TOTAL_DEALS = N_PAIRS * LEAVES_PER_HAND  # 84,284,272,800


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
    import numpy as np
    first, second = np.triu_indices(52, k=1)  # (x, y), x < y, in the order of x then y
    return np.column_stack([first, second]).astype(np.int64)


@cache
def pair_index() -> np.ndarray:
    import numpy as np
    index = np.full((52, 52), -1, dtype=np.int64)
    pairs = pair_cards()
    numbers = np.arange(pairs.shape[0], dtype=np.int64)
    index[pairs[:, 0], pairs[:, 1]] = numbers
    index[pairs[:, 1], pairs[:, 0]] = numbers
    return index


@dataclass(frozen=True)
class AcrossOrbits:
    """The across pairs of one starting hand under the suit permutations that fix its hole cards."""
    representatives: np.ndarray  # one pair index per orbit
    weights: np.ndarray  # the orbit sizes, summing to 1,225
    canonical: np.ndarray  # [1,326]: each pair's representative, -1 for a pair that holds a hole card


@cache
def suit_maps() -> np.ndarray:
    """[24, 52]: each suit permutation as a map of the 52 cards (rank kept, suit permuted)."""
    import numpy as np
    cards = np.arange(52)
    return np.array([(cards >> 2) * 4 + np.array(perm)[cards & 3] for perm in permutations(range(4))],
                    dtype=np.int64)


@cache
def across_orbits(hand: StartingHand) -> AcrossOrbits:
    import numpy as np
    pairs, index = pair_cards(), pair_index()
    h0, h1 = hand.cards
    valid = (pairs[:, 0] != h0) & (pairs[:, 0] != h1) & (pairs[:, 1] != h0) & (pairs[:, 1] != h1)
    maps = suit_maps()
    # the permutations that fix the hole cards (as a set)
    fixing = maps[((maps[:, h0] == h0) & (maps[:, h1] == h1)) | ((maps[:, h0] == h1) & (maps[:, h1] == h0))]
    canonical = index[fixing[:, pairs[:, 0]], fixing[:, pairs[:, 1]]].min(axis=0)
    canonical = np.where(valid, canonical, -1)
    representatives, weights = np.unique(canonical[valid], return_counts=True)
    assert weights.sum() == ACROSS_PAIRS
    return AcrossOrbits(representatives.astype(np.int64), weights.astype(np.int64), canonical)


@dataclass(frozen=True)
class IntegerPayouts:
    """The paytables as integers: odds times `scale`, the LCM of their denominators, so EVs compare exactly."""
    scale: int
    ante: np.ndarray  # [11] by pay class
    criss_cross: np.ndarray  # [11] by pay class


def integer_payouts(criss_cross, ante) -> IntegerPayouts:
    import numpy as np
    values = list(criss_cross.payouts) + list(ante.payouts)
    scale = math.lcm(*(Fraction(v).denominator for v in values))
    cc = np.array([int(p * scale) for p in criss_cross.payouts], dtype=np.int64)
    an = np.array([int(p * scale) for p in ante.payouts], dtype=np.int64)
    return IntegerPayouts(scale, an, cc)
