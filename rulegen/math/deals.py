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
    return np.array([(x, y) for x in range(52) for y in range(x + 1, 52)], dtype=np.int64)


@cache
def pair_index() -> np.ndarray:
    import numpy as np
    index = np.full((52, 52), -1, dtype=np.int64)
    for p, (x, y) in enumerate(pair_cards()):
        index[x, y] = index[y, x] = p
    return index


@dataclass(frozen=True)
class AcrossOrbits:
    """The across pairs of one starting hand under the suit permutations that fix its hole cards."""
    representatives: np.ndarray  # one pair index per orbit
    weights: np.ndarray  # the orbit sizes, summing to 1,225
    canonical: np.ndarray  # [1,326]: each pair's representative, -1 for a pair that holds a hole card


@cache
def across_orbits(hand: StartingHand) -> AcrossOrbits:
    import numpy as np
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
