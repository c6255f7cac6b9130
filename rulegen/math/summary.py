"""The figures of an exact analysis of the main game from its totals over the starting hands (math layer): one
summary for the analysis that walks the deals (`main_game`) and for the one from the shared counts (`counted`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from rulegen.evaluator import PAY_CLASSES
from rulegen.math.deals import DOWN_PAIRS, LEAVES_PER_HAND, MIDDLE_CARDS, N_PAIRS, TOTAL_DEALS, starting_hands
from rulegen.math.results import (
    ChoiceFrequencies, DecisionFrequencies, GrossPayout, MainGameAnalysis, NetOutcome, PaytableIdentity,
    StartingHandValue, TieCounts,
)

if TYPE_CHECKING:
    import numpy as np

TIE_RULE = "on an exact tie between two choices the strategy takes the smaller wager (fold before 1x before 3x)"

CHOICE_NAMES = {0: "fold", 1: "1x", 3: "3x"}
CHOICE_COLUMN = {0: 0, 1: 1, 3: 2}  # a choice's column in HandAnalysis.ev


def histogram_bounds(an: np.ndarray, cc: np.ndarray) -> tuple[int, int, int]:
    """(net_low, net_size, gross_size): the scaled net results and gross payouts a round can have."""
    net_low = int(min(0, 2 * an.min() + 9 * cc.min()))
    net_high = int(max(0, 2 * an.max() + 9 * cc.max()))
    gross_high = int(2 * max(an.max(), 0) + 9 * max(cc.max(), 0))
    return net_low, net_high - net_low + 1, gross_high + 1


def _choices(counts: np.ndarray) -> ChoiceFrequencies:
    fold, once, thrice = counts.tolist()
    return ChoiceFrequencies(fold=fold, once=once, thrice=thrice)


@dataclass(frozen=True, eq=False)
class PathTotals:
    """What the summary of an exact analysis reads, summed over the starting hands (each weighted by its hole
    combinations): however it was computed, the same totals give the same figures."""
    across_choice: np.ndarray  # [169]: 0 fold, 1 or 3, in the order of deals.starting_hands()
    ev: np.ndarray  # [169, 3]: each hand's results summed over its deals for fold / 1x / 3x at Across (scaled)
    down_counts: np.ndarray  # [3]: fold / 1x / 3x at Down on the path, in across pairs
    middle_counts: np.ndarray  # [3]: fold / 1x / 3x at Middle on the path, in (across, down) pairs
    ties: np.ndarray  # [3]: Across (hole combinations), Down (across pairs), Middle ((across, down) pairs)
    net_histogram: np.ndarray  # deals per scaled net result, offset by net_low
    gross_histogram: np.ndarray  # deals per scaled gross payout
    scale: int
    net_low: int


def summarise_totals(criss_cross, ante, totals: PathTotals) -> MainGameAnalysis:
    """The analysis's figures from its totals (see PathTotals)."""
    import numpy as np
    scale, net_low = totals.scale, totals.net_low
    total_weight = TOTAL_DEALS
    ev_sum = 0
    strategy = {}
    per_hand = []
    across_counts = {"fold": 0, "1x": 0, "3x": 0}
    per_ante = scale * LEAVES_PER_HAND
    for hand, choice, ev_row in zip(starting_hands(), totals.across_choice.tolist(), totals.ev.tolist()):
        w = hand.combinations
        best = ev_row[CHOICE_COLUMN[choice]]
        ev_sum += w * best
        strategy[hand.name] = CHOICE_NAMES[choice]
        across_counts[CHOICE_NAMES[choice]] += w
        per_hand.append(StartingHandValue(
            hand=hand.name, combinations=w, decision=CHOICE_NAMES[choice],
            ev_fold=Fraction(ev_row[0], per_ante), ev_1x=Fraction(ev_row[1], per_ante),
            ev_3x=Fraction(ev_row[2], per_ante)))
    down_counts, middle_counts, ties = totals.down_counts, totals.middle_counts, totals.ties
    net_hist, gross_hist = totals.net_histogram, totals.gross_histogram
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
        average_total_wager_exact=_average_wager(totals),
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
               "suit symmetry and by the linearity of the bets",
        tie_rule=TIE_RULE,
    )


def _average_wager(totals: PathTotals) -> Fraction:
    """Expected total wagered per round in antes: 2 antes, plus b1 if not folded, plus b2 and b3 on the path."""
    combinations = [hand.combinations for hand in starting_hands()]
    total = 2 * LEAVES_PER_HAND * sum(combinations)
    total += sum(w * b1 for w, b1 in zip(combinations, totals.across_choice.tolist())) * LEAVES_PER_HAND
    # down_counts: across pairs choosing fold / 1x / 3x at Down; middle_counts: (across, down) pairs
    total += (int(totals.down_counts[1]) + 3 * int(totals.down_counts[2])) * DOWN_PAIRS * MIDDLE_CARDS
    total += (int(totals.middle_counts[1]) + 3 * int(totals.middle_counts[2])) * MIDDLE_CARDS
    return Fraction(total, TOTAL_DEALS)
