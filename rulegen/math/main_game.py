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

The reductions above are those of the previous implementation (tests/reference_kernel.py), which the tests keep
to check against. The analysis runs the fast algorithm of rulegen.math.exact (`run_kernel`), which adds
masks intersected per deal, decisions kept as bits, joint pay classes for the distribution and a thread pool
(its docstring lists them), with the same figures to the last digit.
"""

from __future__ import annotations

from dataclasses import replace

from rulegen.math import montecarlo
from rulegen.math.deals import (
    ACROSS_PAIRS, DOWN_PAIRS, LEAVES_PER_HAND, MIDDLE_CARDS, N_PAIRS, StartingHand, across_orbits,
    integer_payouts, pair_cards, starting_hands,
)
from rulegen.math.kernel_types import KernelRun, hand_row
from rulegen.math.payload import from_payload, to_payload
from rulegen.math.results import MainGameAnalysis
from rulegen.math.summary import TIE_RULE, PathTotals, histogram_bounds as _histogram_bounds, summarise_totals

__all__ = [
    "ACROSS_PAIRS", "CODE_VERSION", "DOWN_PAIRS", "KernelRun", "LEAVES_PER_HAND", "MIDDLE_CARDS", "N_PAIRS",
    "StartingHand", "TIE_RULE", "across_orbits", "analyse_main_game", "integer_payouts", "pair_cards", "run_kernel",
    "starting_hands", "strategy_tables",
]

# bump when the analysis changes what it computes or how its result is stored (the words of its method included)
CODE_VERSION = "main-game-6"


def paytables_of(rules_or_paytables):
    if isinstance(rules_or_paytables, tuple):
        return rules_or_paytables
    return rules_or_paytables.criss_cross, rules_or_paytables.ante


def run_kernel(criss_cross, ante, hands: list[StartingHand] | None = None, progress=None) -> KernelRun:
    """The exact analysis of `hands` (default all 169) by the fast algorithm (rulegen.math.exact): per hand
    the arrays of the previous implementation (tests/reference_kernel.py), equal to them to the last digit."""
    import numpy as np
    from rulegen.math import exact

    if not criss_cross.is_monotone():
        raise ValueError("the Criss Cross paytable pays less for a better hand; the Middle bet is undefined")
    hands = list(hands or starting_hands())
    payouts = integer_payouts(criss_cross, ante)
    net_low, net_size, gross_size = _histogram_bounds(payouts.ante, payouts.criss_cross)
    holes = np.array([hand.cards for hand in hands], dtype=np.int64).reshape(-1, 2)
    out = exact.analyse_hands(holes, payouts.ante, payouts.criss_cross, payouts.scale, net_low, net_size,
                              gross_size, progress=progress)
    return KernelRun(tuple(hands), tuple(hand_row(out, j) for j in range(len(hands))), payouts.scale, net_low)


def strategy_tables(criss_cross, ante) -> montecarlo.Strategy:
    """The strategy the exact analysis chooses, as the Monte Carlo's lookup tables."""
    return montecarlo.strategy_from_run(run_kernel(criss_cross, ante))


MONTE_CARLO_ROUNDS = 2_000_000
MONTE_CARLO_SEED = 20261122


def analyse_main_game(rules_or_paytables, *, use_cache: bool = True, progress=None,
                      monte_carlo_rounds: int = MONTE_CARLO_ROUNDS) -> MainGameAnalysis:
    """The exact analysis of the main game for the Criss Cross and ante paytables, with its Monte Carlo
    cross-check, cached on disk (see rulegen.math.cache); an entry of another format is recomputed.

    Where the cache is read, a paytable not in it is analysed from the shared counts (rulegen.math.counted: the
    same figures, from counts computed once per machine and kept in the cache); else (`use_cache` false, or
    inside `cache.fresh()`, which trusts nothing on disk) by walking the deals (`_analyse`)."""
    from rulegen.math import cache as disk

    criss_cross, ante = paytables_of(rules_or_paytables)
    key = disk.key("main_game", CODE_VERSION, criss_cross.canonical(), ante.canonical(), monte_carlo_rounds)
    if use_cache:
        found = disk.load(key)
        analysis = from_payload(MainGameAnalysis, found) if found is not None else None
        if analysis is not None:
            if progress is not None:
                progress(169, 169)
            return analysis
    if use_cache and disk.reading():
        result = _from_counts(criss_cross, ante, progress, monte_carlo_rounds)
    else:
        result = _analyse(criss_cross, ante, progress, monte_carlo_rounds)
    if use_cache:
        disk.store(key, to_payload(result))
    return result


def _from_counts(criss_cross, ante, progress, monte_carlo_rounds: int) -> MainGameAnalysis:
    from rulegen.math import counted

    tables = counted.held_tables(progress)  # the first run on a machine computes them: its progress is theirs
    deals = counted.held_deals(tables, monte_carlo_rounds, MONTE_CARLO_SEED) if monte_carlo_rounds else None
    result = counted.analysis(tables, criss_cross, ante, deals, MONTE_CARLO_SEED)
    if progress is not None:
        progress(169, 169)
    return result


def _analyse(criss_cross, ante, progress, monte_carlo_rounds: int) -> MainGameAnalysis:
    run = run_kernel(criss_cross, ante, progress=progress)
    summary = _summarise(criss_cross, ante, run)
    if monte_carlo_rounds:
        strategy = montecarlo.strategy_from_run(run)
        simulated = montecarlo.monte_carlo(criss_cross, ante, summary.ev_per_ante, monte_carlo_rounds,
                                           MONTE_CARLO_SEED, strategy)
        summary = replace(summary, monte_carlo=simulated)
    return summary


def path_totals(run: KernelRun) -> PathTotals:
    import numpy as np
    down_counts = np.zeros(3, dtype=np.int64)
    middle_counts = np.zeros(3, dtype=np.int64)
    ties = np.zeros(3, dtype=np.int64)
    net_hist = np.zeros_like(run.results[0].net_histogram)
    gross_hist = np.zeros_like(run.results[0].gross_histogram)
    for hand, result in zip(run.hands, run.results):
        w = hand.combinations
        # down_counts are weighted by across pairs (each stands for DOWN_PAIRS * 46 deals), middle by deals / 46
        down_counts += w * result.down_counts
        middle_counts += w * result.middle_counts
        ties += w * result.ties
        net_hist += result.net_histogram * w
        gross_hist += result.gross_histogram * w
    return PathTotals(np.array([int(r.across_choice) for r in run.results], dtype=np.int64),
                      np.array([r.ev for r in run.results], dtype=np.int64).reshape(-1, 3), down_counts,
                      middle_counts, ties, net_hist, gross_hist, run.scale, run.net_low)


def _summarise(criss_cross, ante, run: KernelRun) -> MainGameAnalysis:
    if tuple(run.hands) != starting_hands():
        raise ValueError("a summary counts every starting hand")
    return summarise_totals(criss_cross, ante, path_totals(run))


