"""The Bonus Spin wager: how often the hole cards trigger a spin, and the wheel's return.

The return per unit wagered is P(trigger) x (mean prize per spin) / wager (the wager is collected every round
and a spin pays the amount the wheel lands on; see rulegen.game.BONUS_SPIN_PAYMENT_READING). The mean prize
needs the wheel's segment weights, which no text gives: they are the operator's own wheel, submitted for
approval. Without them no weight is assumed and the return is given exactly as a function of the mean prize.

Community pays are linear too: a player holding the wager is paid a community pay when another player's spin
lands on a segment that carries one (or, on a Community Prize Wheel, whatever that wheel lands on). Each other
player holding the wager spins with the same probability, so by linearity of expectation the community value is
(others) x P(trigger) x (mean community pay per spin of another player) / wager, whatever the dependence between
the players' cards. With k other players:

    return = P(trigger) / wager x (M + k x C)  [+ the rate of progression, for a progressive top prize]

where M counts the top prize at its fixed amount, the stated value of the merchandise, or the meter's reset
amount: over the meter's cycles every amount added to the meter is paid out with the top prize, so the part of
each wager added to it (the rate of progression) comes back as return on top of P(trigger) x M / wager.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from rulegen.math.wheel_results import (
    BonusSpinResult, CommunityValue, ProgressiveReturn, ReturnFormula, ReturnFormulaRow, WheelReturn,
    WheelSegmentPay,
)
from rulegen.money import is_whole

HOLE_PAIRS = 1326
TRIGGER_COMBINATIONS = {"pair_in_hole_cards": 78, "suited_hole_cards": 312, "pair_or_suited_hole_cards": 390}


@dataclass(frozen=True)
class WheelSetting:
    """What the wheel's return rests on beyond the wheel the game settles: how many other players may hold the
    wager (the table's positions less one), the Community Prize Wheel's amounts where the community pays come
    from a wheel of their own, with that wheel's weights where the offering gives them (one per amount, in the
    same order), and the progressive meter's reset amount and rate."""

    other_players: Sequence[int]
    community_wheel: tuple[Decimal, ...] = ()
    community_wheel_weights: tuple[int, ...] | None = None
    top_prize_reset: Decimal | None = None
    rate_of_progression_percent: Decimal | None = None


def trigger_probability(trigger: str) -> Fraction:
    return Fraction(TRIGGER_COMBINATIONS[trigger], HOLE_PAIRS)


def bonus_spin_math(spin, setting: WheelSetting, meter: Decimal | None = None) -> BonusSpinResult:
    """Trigger probability, the wheel's return when the weights are known (else exactly as a function of the
    mean prize and the mean community pay), the community pay's value for each number of other players, and for
    a progressive top prize the return as a function of the meter with the break-even meter."""
    p = trigger_probability(spin.trigger)
    wager = Fraction(spin.wager)
    weighted = bool(spin.segments) and all(s.weight is not None for s in spin.segments)
    wheel = _wheel_return(spin, p, wager, setting, meter) if weighted else None
    formula = None
    if wheel is None or (setting.community_wheel and not _community_weighted(setting)):
        formula = _formula(spin, p, wager, setting, wheel)
    return BonusSpinResult(
        trigger=spin.trigger,
        trigger_combinations=TRIGGER_COMBINATIONS[spin.trigger],
        hole_card_combinations=HOLE_PAIRS,
        trigger_probability=float(p),
        wager=Decimal(spin.wager),
        return_per_mean_prize=float(p / wager),
        break_even_mean_prize=float(wager / p),
        trigger_note=("every triggering deal counts, whether or not the player folds: a folding player's wager is "
                      "settled on the two cards (see the Bonus Spin fold reading)") if spin.settled_after_fold else
                     ("every triggering deal counts; a player who folds a triggering hand loses the wager "
                      "(see the Bonus Spin fold reading), a choice the player controls"),
        return_formula=f"return = {TRIGGER_COMBINATIONS[spin.trigger]}/{HOLE_PAIRS} x mean prize / {spin.wager}",
        top_prize_kind=spin.top_prize_kind,
        top_prize_amount=Decimal(spin.top_prize_amount) if spin.top_prize_amount is not None else None,
        segments=tuple(WheelSegmentPay(symbol=s.symbol, pays=_amount(s.pays), community=_amount(s.community),
                                       weight=s.weight) for s in spin.segments),
        weighted=wheel,
        needs=(None if weighted
               else "the wheel's segment weights (how often it stops on each segment) are those of the operator's own "
                    "wheel; this submission does not give them, and none is assumed"),
        formula=formula,
        top_prize_reset=setting.top_prize_reset,
        rate_of_progression_percent=setting.rate_of_progression_percent,
    )


def _amount(value) -> Decimal | None:
    return Decimal(value) if value is not None else None


def progression(spin, setting: WheelSetting) -> Fraction:
    """The rate of progression as a fraction of each wager: what the meter gives back over its cycles."""
    if spin.top_prize_kind != "progressive" or setting.rate_of_progression_percent is None:
        return Fraction(0)
    return Fraction(setting.rate_of_progression_percent) / 100


def _exact_decimal(value: Fraction, min_places: int) -> str | None:
    """The exact decimal numeral of `value` with thousands separators ("82.875"), or None where it does not end."""
    rest = value.denominator
    for factor in (2, 5):
        while rest % factor == 0:
            rest //= factor
    if rest != 1:
        return None
    amount = Decimal(value.numerator) / Decimal(value.denominator)  # exact: the denominator divides a power of 10
    if is_whole(amount):
        return f"{amount:,.0f}"
    exponent = amount.normalize().as_tuple().exponent
    places = max(min_places, -exponent if isinstance(exponent, int) else min_places)
    return f"{amount:,.{places}f}"


def exact_dollars(value: Fraction) -> str:
    """An exact amount: "$85", "$82.875", "$1,234.50"; an amount whose decimal does not end as "$n/d"."""
    sign = "-" if value < 0 else ""
    text = _exact_decimal(abs(value), 2)
    return f"{sign}${text}" if text is not None else f"{sign}${abs(value).numerator:,}/{value.denominator:,}"


def exact_percent(value: Fraction) -> str:
    """An exact percentage: "2.5%"; a fraction "1/17" where its decimal does not end."""
    text = _exact_decimal(abs(value) * 100, 0)
    sign = "-" if value < 0 else ""
    return f"{sign}{text}%" if text is not None else f"{value.numerator}/{value.denominator}"


def _ratio(value: Fraction) -> str:
    return "0" if value == 0 else f"{value.numerator}/{value.denominator}"


def _community_pays(spin, setting: WheelSetting) -> tuple[str, tuple[Decimal, ...]]:
    if setting.community_wheel:
        return "community_wheel", tuple(sorted(setting.community_wheel, reverse=True))
    pays = sorted({Decimal(s.community) for s in spin.segments if s.community}, reverse=True)
    return ("segments", tuple(pays)) if pays else ("none", ())


def _formula(spin, p: Fraction, wager: Fraction, setting: WheelSetting, wheel: WheelReturn | None) -> ReturnFormula:
    """The return in M and C, one row per number of other players (one row for all where none is paid)."""
    per_unit = p / wager
    unit = wager / p
    rate = progression(spin, setting)
    community, pays = _community_pays(spin, setting)
    known = None
    if wheel is not None:
        # the weights give M: the return is the weighted return as printed (the top prize at its stated amount, or
        # the meter at its initial amount, as the return by meter reads it), the Community Prize Wheel's C apart
        known = _weighted_mean_prize(spin)
        rate = Fraction(0)
    others = list(setting.other_players)
    rows = []
    if community == "none" or not others:
        spans = [(others[0], others[-1])] if others else [(0, 0)]
    else:
        spans = [(k, k) for k in others]
    for low, high in spans:
        k = low if community != "none" else 0
        rows.append(_row(low, high, k, per_unit, unit, rate, known))
    plus_rate = f" + {exact_percent(rate)}" if rate else ""
    if known is None:
        general = (f"M/{exact_dollars(unit)}" if community == "none"
                   else f"(M + kC)/{exact_dollars(unit)}") + plus_rate
    else:
        general = f"{exact_percent(per_unit * known + rate)} + kC/{exact_dollars(unit)}"
    return ReturnFormula(per_unit=per_unit, unit=unit, progression=rate, mean_prize_known=known,
                         community=community, community_pays=pays, general=general, rows=tuple(rows))


def _weighted_mean_prize(spin) -> Fraction:
    """The weighted wheel's mean prize with the top prize at its stated amount, exactly as the return uses it."""
    total = sum(Fraction(s.weight) for s in spin.segments)
    return sum((Fraction(s.weight) * Fraction(s.pays if s.pays is not None else (spin.top_prize_amount or 0))
                for s in spin.segments), Fraction(0)) / total


def _row(low: int, high: int, k: int, per_unit: Fraction, unit: Fraction, rate: Fraction,
         known: Fraction | None) -> ReturnFormulaRow:
    community = "" if k == 0 else ("C" if k == 1 else f"{k}C")
    rate_text = _ratio(k * per_unit)
    plus_rate = f" + {exact_percent(rate)}" if rate else ""
    if known is None:
        total = "M" if not community else f"(M + {community})"
        formula = f"{total}/{exact_dollars(unit)}{plus_rate}"
        target = unit * (1 - rate)
        sum_text = "M" if not community else f"M + {community}"
        return ReturnFormulaRow(low, high, formula=formula, break_even=f"{sum_text} = {exact_dollars(target)}",
                                per_mean_community=k * per_unit, community_rate=rate_text,
                                break_even_sum=target)
    base = per_unit * known + rate
    if not community:
        return ReturnFormulaRow(low, high, formula=exact_percent(base), break_even="C does not enter",
                                per_mean_community=Fraction(0),
                                community_rate=rate_text, break_even_sum=None)
    # the community pays that bring the return to 100%: k x C = unit x (1 - base)
    need = unit * (1 - base) / k
    return ReturnFormulaRow(low, high, formula=f"{exact_percent(base)} + {community}/{exact_dollars(unit)}",
                            break_even=f"C = {exact_dollars(need)}", per_mean_community=k * per_unit,
                            community_rate=rate_text, break_even_sum=None)


def _community_weighted(setting: WheelSetting) -> bool:
    weights = setting.community_wheel_weights
    return bool(weights) and len(weights or ()) == len(setting.community_wheel) and sum(weights or ()) > 0


def _wheel_return(spin, p: Fraction, wager: Fraction, setting: WheelSetting, meter: Decimal | None) -> WheelReturn:
    total_weight = sum(s.weight for s in spin.segments)
    if total_weight <= 0:
        raise ValueError("the wheel's weights sum to zero")
    top = Fraction(meter if meter is not None else (spin.top_prize_amount or 0))
    fixed_part = sum(Fraction(s.weight) * Fraction(s.pays) for s in spin.segments if s.pays is not None)
    top_weight = sum(s.weight for s in spin.segments if s.pays is None)
    mean_prize = (fixed_part + top_weight * top) / total_weight
    rtp = p * mean_prize / wager
    if setting.community_wheel and _community_weighted(setting):
        weights = setting.community_wheel_weights or ()
        mean_community = sum((Fraction(w) * Fraction(a) for a, w in zip(setting.community_wheel, weights)),
                             Fraction(0)) / sum(weights)
    else:
        mean_community = sum(Fraction(s.weight) * Fraction(s.community or 0) for s in spin.segments) / total_weight
    progressive = None
    if top_weight and spin.top_prize_kind == "progressive":
        slope = p * Fraction(top_weight, total_weight) / wager
        intercept = p * fixed_part / total_weight / wager
        rate = progression(spin, setting)
        reset = setting.top_prize_reset if setting.top_prize_reset is not None else spin.top_prize_amount
        long_run = None if setting.rate_of_progression_percent is None or reset is None \
            else intercept + slope * Fraction(reset) + rate
        progressive = ProgressiveReturn(
            intercept=float(intercept), per_dollar_of_meter=float(slope),
            break_even_meter=float((1 - intercept) / slope),
            meter_used=Decimal(meter if meter is not None else (spin.top_prize_amount or 0)),
            note="the return at a meter amount excludes the rate of progression; the part of each wager added to "
                 "the meter is paid back when the top prize is hit, so over the meter's cycles the return is the "
                 "return at the reset amount plus the rate of progression",
            long_run_return=float(long_run) if long_run is not None else None)
    # a Community Prize Wheel without its weights: its value is the formula's, not a figure
    community_rows = () if setting.community_wheel and not _community_weighted(setting) else tuple(
        CommunityValue(other_players=k, value_per_wager=float(k * p * mean_community / wager),
                       return_with_community=float(rtp + k * p * mean_community / wager))
        for k in setting.other_players)
    return WheelReturn(
        total_weight=total_weight,
        mean_prize=float(mean_prize),
        return_per_wager=float(rtp),
        house_edge=float(1 - rtp),
        mean_community_pay_per_spin=float(mean_community),
        community_value=community_rows,
        progressive=progressive,
    )
