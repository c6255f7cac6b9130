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

from rulegen.math.results import (
    BonusSpinResult, CommunityValue, ProgressiveReturn, WheelReturn, WheelSegmentPay,
)

HOLE_PAIRS = 1326
TRIGGER_COMBINATIONS = {"pair_in_hole_cards": 78, "suited_hole_cards": 312, "pair_or_suited_hole_cards": 390}


def trigger_probability(trigger: str) -> Fraction:
    return Fraction(TRIGGER_COMBINATIONS[trigger], HOLE_PAIRS)


def bonus_spin_math(spin, other_players=range(0, 6), meter: Decimal | None = None) -> BonusSpinResult:
    """Trigger probability, the wheel's return when the weights are known (else as a function of the mean
    prize), the community pay's value for 0-5 other players, and for a progressive top prize the return as a
    function of the meter with the break-even meter."""
    p = trigger_probability(spin.trigger)
    wager = Fraction(spin.wager)
    weighted = bool(spin.segments) and all(s.weight is not None for s in spin.segments)
    return BonusSpinResult(
        trigger=spin.trigger,
        trigger_combinations=TRIGGER_COMBINATIONS[spin.trigger],
        hole_card_combinations=HOLE_PAIRS,
        trigger_probability=float(p),
        wager=Decimal(spin.wager),
        return_per_mean_prize=float(p / wager),
        break_even_mean_prize=float(wager / p),
        trigger_note="every triggering deal counts; a player who folds a triggering hand loses the wager "
                     "(see the Bonus Spin fold reading), a choice the player controls",
        return_formula=f"return = {TRIGGER_COMBINATIONS[spin.trigger]}/{HOLE_PAIRS} x mean prize / {spin.wager}",
        top_prize_kind=spin.top_prize_kind,
        top_prize_amount=Decimal(spin.top_prize_amount) if spin.top_prize_amount is not None else None,
        segments=tuple(WheelSegmentPay(symbol=s.symbol, pays=_amount(s.pays), community=_amount(s.community),
                                       weight=s.weight) for s in spin.segments),
        weighted=_wheel_return(spin, p, wager, other_players, meter) if weighted else None,
        needs=(None if weighted
               else "the wheel's segment weights come from the manufacturer's par sheet, which this submission does "
                    "not give, and none is assumed"),
    )


def _amount(value) -> Decimal | None:
    return Decimal(value) if value is not None else None


def _wheel_return(spin, p: Fraction, wager: Fraction, other_players, meter: Decimal | None) -> WheelReturn:
    total_weight = sum(s.weight for s in spin.segments)
    if total_weight <= 0:
        raise ValueError("the wheel's weights sum to zero")
    top = Fraction(meter if meter is not None else (spin.top_prize_amount or 0))
    fixed_part = sum(Fraction(s.weight) * Fraction(s.pays) for s in spin.segments if s.pays is not None)
    top_weight = sum(s.weight for s in spin.segments if s.pays is None)
    mean_prize = (fixed_part + top_weight * top) / total_weight
    rtp = p * mean_prize / wager
    mean_community = sum(Fraction(s.weight) * Fraction(s.community or 0) for s in spin.segments) / total_weight
    progressive = None
    if top_weight and spin.top_prize_kind == "progressive":
        slope = p * Fraction(top_weight, total_weight) / wager
        intercept = p * fixed_part / total_weight / wager
        progressive = ProgressiveReturn(
            intercept=float(intercept), per_dollar_of_meter=float(slope),
            break_even_meter=float((1 - intercept) / slope),
            meter_used=Decimal(meter if meter is not None else (spin.top_prize_amount or 0)),
            note="return excludes the rate of progression; the part of each wager added to the meter is paid "
                 "back when the top prize is hit")
    return WheelReturn(
        total_weight=total_weight,
        mean_prize=float(mean_prize),
        return_per_wager=float(rtp),
        house_edge=float(1 - rtp),
        mean_community_pay_per_spin=float(mean_community),
        community_value=tuple(CommunityValue(other_players=k, value_per_wager=float(k * p * mean_community / wager),
                                             return_with_community=float(rtp + k * p * mean_community / wager))
                              for k in other_players),
        progressive=progressive,
    )
