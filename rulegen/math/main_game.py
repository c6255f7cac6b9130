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
from fractions import Fraction
from typing import TYPE_CHECKING

from rulegen.evaluator import PAY_CLASSES
from rulegen.math import montecarlo
from rulegen.math.deals import (
    ACROSS_PAIRS, DOWN_PAIRS, LEAVES_PER_HAND, MIDDLE_CARDS, N_PAIRS, TOTAL_DEALS, StartingHand, across_orbits,
    integer_payouts, pair_cards, starting_hands,
)
from rulegen.math.kernel_types import KernelRun, hand_row
from rulegen.math.payload import from_payload, to_payload
from rulegen.math.results import (
    ChoiceFrequencies, DecisionFrequencies, GrossPayout, MainGameAnalysis, NetOutcome, PaytableIdentity,
    StartingHandValue, TieCounts,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "ACROSS_PAIRS", "CODE_VERSION", "DOWN_PAIRS", "KernelRun", "LEAVES_PER_HAND", "MIDDLE_CARDS", "N_PAIRS",
    "StartingHand", "TIE_RULE", "across_orbits", "analyse_main_game", "integer_payouts", "pair_cards", "run_kernel",
    "starting_hands", "strategy_tables",
]

TIE_RULE = "on an exact tie between two choices the strategy takes the smaller wager (fold before 1x before 3x)"
CODE_VERSION = "main-game-5"  # bump when the analysis changes what it computes or how its result is stored
CHOICE_NAMES = {0: "fold", 1: "1x", 3: "3x"}
CHOICE_COLUMN = {0: 0, 1: 1, 3: 2}  # a choice's column in HandAnalysis.ev


def paytables_of(rules_or_paytables):
    if isinstance(rules_or_paytables, tuple):
        return rules_or_paytables
    return rules_or_paytables.criss_cross, rules_or_paytables.ante


def _histogram_bounds(an: np.ndarray, cc: np.ndarray) -> tuple[int, int, int]:
    """(net_low, net_size, gross_size): the scaled net results and gross payouts a round can have."""
    net_low = int(min(0, 2 * an.min() + 9 * cc.min()))
    net_high = int(max(0, 2 * an.max() + 9 * cc.max()))
    gross_high = int(2 * max(an.max(), 0) + 9 * max(cc.max(), 0))
    return net_low, net_high - net_low + 1, gross_high + 1


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
    cross-check, cached on disk (see rulegen.math.cache); an entry of another format is recomputed."""
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
    result = _analyse(criss_cross, ante, progress, monte_carlo_rounds)
    if use_cache:
        disk.store(key, to_payload(result))
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


def _choices(counts: np.ndarray) -> ChoiceFrequencies:
    fold, once, thrice = counts.tolist()
    return ChoiceFrequencies(fold=fold, once=once, thrice=thrice)


def _summarise(criss_cross, ante, run: KernelRun) -> MainGameAnalysis:
    import numpy as np
    scale, net_low = run.scale, run.net_low
    total_weight = TOTAL_DEALS
    ev_sum = 0
    strategy = {}
    per_hand = []
    across_counts = {"fold": 0, "1x": 0, "3x": 0}
    down_counts = np.zeros(3, dtype=np.int64)
    middle_counts = np.zeros(3, dtype=np.int64)
    ties = np.zeros(3, dtype=np.int64)
    net_hist = np.zeros_like(run.results[0].net_histogram)
    gross_hist = np.zeros_like(run.results[0].gross_histogram)
    per_ante = scale * LEAVES_PER_HAND
    for hand, result in zip(run.hands, run.results):
        w = hand.combinations
        choice = int(result.across_choice)
        best = int(result.ev[CHOICE_COLUMN[choice]])
        ev_sum += w * best
        strategy[hand.name] = CHOICE_NAMES[choice]
        across_counts[CHOICE_NAMES[choice]] += w
        # down_counts are weighted by across pairs (each stands for DOWN_PAIRS * 46 deals), middle by deals / 46
        down_counts += w * result.down_counts
        middle_counts += w * result.middle_counts
        ties += w * result.ties
        net_hist += result.net_histogram * w
        gross_hist += result.gross_histogram * w
        per_hand.append(StartingHandValue(
            hand=hand.name, combinations=w, decision=CHOICE_NAMES[choice],
            ev_fold=Fraction(int(result.ev[0]), per_ante), ev_1x=Fraction(int(result.ev[1]), per_ante),
            ev_3x=Fraction(int(result.ev[2]), per_ante)))
    ev = Fraction(ev_sum, scale * total_weight)
    values = np.arange(net_low, net_low + len(net_hist))
    assert int(net_hist.sum()) == total_weight
    mean = Fraction(int((values * net_hist).sum()), scale * total_weight)
    assert mean == ev, "the distribution and the decision values disagree"
    second = Fraction(sum(int(v) * int(v) * int(c) for v, c in zip(values, net_hist) if c),
                      scale * scale * total_weight)
    # Wagered per deal: 2 antes, plus the bets made on the path to it.
    down_deals = down_counts * DOWN_PAIRS * MIDDLE_CARDS
    middle_deals = middle_counts * MIDDLE_CARDS
    return MainGameAnalysis(
        paytables=PaytableIdentity(tuple(criss_cross.canonical()), tuple(ante.canonical()), tuple(PAY_CLASSES)),
        ev_per_ante=ev,
        average_total_wager_exact=_average_wager(run),
        hit_frequency_exact=Fraction(int(net_hist[values > 0].sum()), total_weight),
        variance=second - mean * mean,
        rounds=total_weight,
        decisions=DecisionFrequencies(
            across=ChoiceFrequencies(fold=across_counts["fold"] / N_PAIRS, once=across_counts["1x"] / N_PAIRS,
                                     thrice=across_counts["3x"] / N_PAIRS),
            down=_choices(down_deals / total_weight),
            middle=_choices(middle_deals / total_weight),
            note="probability per round of reaching the decision and choosing each option"),
        ties=TieCounts(
            across_hole_combinations=int(ties[0]),
            down_deals=int(ties[1]) * DOWN_PAIRS * MIDDLE_CARDS,
            middle_deals=int(ties[2]) * MIDDLE_CARDS,
            note="deals (of all 84,284,272,800) on the strategy's path whose decision met an exact tie",
            rule=TIE_RULE,
            middle_rule="at the Middle decision, when the Middle bet's expected payout is exactly zero, 1x "
                        "and 3x tie and the strategy bets 1x"),
        across_decision=strategy,
        starting_hands=tuple(per_hand),
        distribution=tuple(NetOutcome(Fraction(int(v), scale), int(c), int(c) / total_weight)
                           for v, c in zip(values, net_hist) if c),
        gross_payout_distribution=tuple(GrossPayout(Fraction(int(v), scale), int(c))
                                        for v, c in enumerate(gross_hist) if c),
        scale=scale,
        method="exact enumeration of all 84,284,272,800 deals (1,326 x 1,225 x 1,128 x 46), reduced exactly by "
               "suit symmetry, per-hand lookup tables and linearity of the bets",
        tie_rule=TIE_RULE,
    )


def _average_wager(run: KernelRun) -> Fraction:
    """Expected total wagered per round in antes: 2 antes, plus b1 if not folded, plus b2 and b3 on the path."""
    total = 0
    for hand, result in zip(run.hands, run.results):
        b1 = int(result.across_choice)
        per_hand = 2 * LEAVES_PER_HAND
        if b1:
            per_hand += b1 * LEAVES_PER_HAND
            # down_counts: across pairs choosing fold / 1x / 3x at Down; middle_counts: (across, down) pairs
            per_hand += (int(result.down_counts[1]) * 1 + int(result.down_counts[2]) * 3) * DOWN_PAIRS * MIDDLE_CARDS
            per_hand += (int(result.middle_counts[1]) * 1 + int(result.middle_counts[2]) * 3) * MIDDLE_CARDS
        total += hand.combinations * per_hand
    return Fraction(total, TOTAL_DEALS)
