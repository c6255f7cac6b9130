"""The named results the compiled kernels return (math layer). Defined apart from the kernels so that reading
them needs no numba import."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from rulegen.math.deals import StartingHand

if TYPE_CHECKING:
    import numpy as np


class HandAnalysis(NamedTuple):
    """The exact analysis of starting hands (`kernels.analyse_hands`): one row per hand in a batch, or the
    arrays of one hand when taken from a batch with `hand_row`."""
    ev: np.ndarray  # [., 3]: sum over the hand's 63,562,800 deals of the result (scaled) for fold / 1x / 3x at Across
    across_choice: np.ndarray  # [.]: 0 fold, 1 or 3
    down_choice: np.ndarray  # [., 2, 1326]: the Down decision after Across 1x / 3x, at the orbit representatives
    down_counts: np.ndarray  # [., 3]: fold / 1x / 3x at Down on the path, weighted by across pairs
    middle_counts: np.ndarray  # [., 3]: fold / 1x / 3x at Middle on the path, weighted by (across, down) pairs
    ties: np.ndarray  # [., 3]: Across, Down, Middle decisions met on the path with an exact tie
    net_histogram: np.ndarray  # [., net_size]: deals per scaled net result, offset by net_low
    gross_histogram: np.ndarray  # [., gross_size]: deals per scaled gross payout


def hand_row(batch: HandAnalysis, j: int) -> HandAnalysis:
    """The arrays of the j-th hand of a batch."""
    return HandAnalysis(**{name: getattr(batch, name)[j] for name in HandAnalysis._fields})


class SimulatedRounds(NamedTuple):
    """Rounds dealt and played by `mc_kernels.simulate`."""
    deals: np.ndarray  # [n, 7]: hole (2), across (2), down (2), middle
    bets: np.ndarray  # [n, 3]: Across, Down, Middle in antes, 0 a fold (later bets 0 after one)
    nets: np.ndarray  # [n]: the round's net result in antes times the payouts' scale


class MaxWinBounds(NamedTuple):
    """`maxwin_kernels.bounds`: every 3-card set T and an upper bound of the main game's win over it."""
    triples: np.ndarray  # [22100, 3]
    upper: np.ndarray  # [22100]


class MaxWinFound(NamedTuple):
    """`maxwin_kernels.search`: the best total (integer money units), its main-game part, and where it is."""
    best: int
    best_main: int
    triple: int  # row of `triples`: the hole cards and the middle card
    middle: int  # the middle card
    across_pair: int  # pair index of the Across line's two cards
    down_pair: int  # pair index of the Down line's two cards


@dataclass(frozen=True, eq=False)
class KernelRun:
    """The compiled analysis of some starting hands: one HandAnalysis per hand, in the order of `hands`."""
    hands: tuple[StartingHand, ...]
    results: tuple[HandAnalysis, ...]
    scale: int  # the payouts' common denominator: every value in the arrays is in antes times `scale`
    net_low: int  # the scaled net result of each histogram's first column
