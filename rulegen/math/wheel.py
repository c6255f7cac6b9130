"""The Bonus Spin wager: how often the hole cards trigger a spin, and the wheel's return.

The return per unit wagered is P(trigger) x (mean prize per spin) / wager (the wager is collected every round
and a spin pays the amount the wheel lands on; see rulegen.game.BONUS_SPIN_PAYMENT_READING). The mean prize
needs the wheel's segment weights, which only the manufacturer's par sheet gives: without them no weight is
assumed and the return is given as a function of the mean prize, with the mean prize at which it is 100%.
Community pays are linear too: each other player holding the wager spins with the same probability, so by
linearity of expectation the community value is (others) x P(trigger) x (mean community pay per spin) / wager,
whatever the dependence between the players' cards.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

HOLE_PAIRS = 1326
TRIGGER_COMBINATIONS = {"pair_in_hole_cards": 78, "suited_hole_cards": 312, "pair_or_suited_hole_cards": 390}


def trigger_probability(trigger: str) -> Fraction:
    return Fraction(TRIGGER_COMBINATIONS[trigger], HOLE_PAIRS)


def _f(value) -> float:
    return float(value)


def _money(value: Fraction) -> float:
    return float(value)


def bonus_spin_math(spin, other_players=range(0, 6), meter: Decimal | None = None) -> dict:
    """Trigger probability, the wheel's return when the weights are known (else as a function of the mean
    prize), the community pay's value for 0-5 other players, and for a progressive top prize the return as a
    function of the meter with the break-even meter."""
    p = trigger_probability(spin.trigger)
    wager = Fraction(spin.wager)
    result = {
        "trigger": spin.trigger,
        "trigger_combinations": TRIGGER_COMBINATIONS[spin.trigger],
        "hole_card_combinations": HOLE_PAIRS,
        "trigger_probability": _f(p),
        "wager": float(spin.wager),
        "return_per_mean_prize": _f(p / wager),
        "break_even_mean_prize": _money(wager / p),
        "trigger_note": "every triggering deal counts; a player who folds a triggering hand loses the wager "
                        "(see the Bonus Spin fold reading), a choice the player controls",
        "return_formula": f"return = {TRIGGER_COMBINATIONS[spin.trigger]}/{HOLE_PAIRS} x mean prize / {spin.wager}",
        "top_prize_kind": spin.top_prize_kind,
        "top_prize_amount": float(spin.top_prize_amount) if spin.top_prize_amount is not None else None,
        "segments": [{"symbol": s.symbol, "pays": float(s.pays) if s.pays is not None else None,
                      "community": float(s.community) if s.community is not None else None, "weight": s.weight}
                     for s in spin.segments],
    }
    weighted = bool(spin.segments) and all(s.weight is not None for s in spin.segments)
    if not weighted:
        result.update({
            "weights_given": False, "return_per_wager": None, "house_edge": None, "mean_prize": None,
            "needs": "the manufacturer's segment weights (par sheet) for the wheel; no weight is assumed",
            "community_value": None,
        })
        return result
    total_weight = sum(s.weight for s in spin.segments)
    if total_weight <= 0:
        raise ValueError("the wheel's weights sum to zero")
    top = Fraction(meter if meter is not None else (spin.top_prize_amount or 0))
    fixed_part = sum(Fraction(s.weight) * Fraction(s.pays) for s in spin.segments if s.pays is not None)
    top_weight = sum(s.weight for s in spin.segments if s.pays is None)
    mean_prize = (fixed_part + top_weight * top) / total_weight
    rtp = p * mean_prize / wager
    mean_community = sum(Fraction(s.weight) * Fraction(s.community or 0) for s in spin.segments) / total_weight
    result.update({
        "weights_given": True,
        "total_weight": total_weight,
        "mean_prize": _money(mean_prize),
        "return_per_wager": _f(rtp),
        "house_edge": _f(1 - rtp),
        "mean_community_pay_per_spin": _money(mean_community),
        "community_value": [{"other_players": k, "value_per_wager": _f(k * p * mean_community / wager),
                             "return_with_community": _f(rtp + k * p * mean_community / wager)}
                            for k in other_players],
    })
    if top_weight and spin.top_prize_kind == "progressive":
        slope = p * Fraction(top_weight, total_weight) / wager
        intercept = p * fixed_part / total_weight / wager
        result["progressive"] = {
            "return_at_meter": {"intercept": _f(intercept), "per_dollar_of_meter": _f(slope)},
            "break_even_meter": _money((1 - intercept) / slope),
            "meter_used": _money(top),
            "note": "return excludes the rate of progression; the part of each wager added to the meter is paid "
                    "back when the top prize is hit",
        }
    return result
