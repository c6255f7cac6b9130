"""The Bonus Spin wheel's results as typed values (math layer): what rulegen.math.wheel computes, the renderer
reads by attribute and `rulegen math --json` writes (as rulegen.math.results' other values)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from rulegen.math.json_values import fraction_text, money_json, money_json_or_none


@dataclass(frozen=True)
class WheelSegmentPay:
    symbol: str
    pays: Decimal | None  # None: the top prize
    community: Decimal | None
    weight: int | None

    def to_json(self) -> dict:
        return {"symbol": self.symbol, "pays": money_json_or_none(self.pays),
                "community": money_json_or_none(self.community), "weight": self.weight}


@dataclass(frozen=True)
class CommunityValue:
    other_players: int
    value_per_wager: float
    return_with_community: float

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class ProgressiveReturn:
    """The return of a progressive wheel as a line in the meter: intercept + slope x meter."""
    intercept: float
    per_dollar_of_meter: float
    break_even_meter: float
    meter_used: Decimal
    note: str
    long_run_return: float | None = None  # at the reset amount, the rate of progression added back

    def to_json(self) -> dict:
        return {"return_at_meter": {"intercept": self.intercept, "per_dollar_of_meter": self.per_dollar_of_meter},
                "break_even_meter": self.break_even_meter, "meter_used": money_json(self.meter_used),
                "note": self.note, "long_run_return": self.long_run_return}


@dataclass(frozen=True)
class ReturnFormulaRow:
    """The return with `other_players` other Bonus Spin players (a range where no community pay can be paid, so
    the number of others does not matter), exact: return = progression + per_unit x (M + k x C), or, where the
    weights give the mean prize, known + per_unit x k x C."""
    other_players_from: int
    other_players_to: int
    formula: str  # as printed: "(M + 2C)/$85 + 2.5%"
    break_even: str  # as printed: "M + 2C = $82.875"
    per_mean_community: Fraction  # k x P(trigger) / wager: the return per dollar of C
    community_rate: str  # per_mean_community as printed: "2/85"
    break_even_sum: Fraction | None  # the value of M + kC at which the return is 100% (None where M is known)

    def to_json(self) -> dict:
        return {"other_players_from": self.other_players_from, "other_players_to": self.other_players_to,
                "formula": self.formula, "break_even": self.break_even, "community_rate": self.community_rate,
                "per_mean_community_exact": fraction_text(self.per_mean_community),
                "break_even_sum_exact": (fraction_text(self.break_even_sum)
                                         if self.break_even_sum is not None else None)}


@dataclass(frozen=True)
class ReturnFormula:
    """The return where the weights that would fix it are not given, exact in the mean prize per spin M and the
    mean community pay per spin of another player C: return = progression + P(trigger) / wager x (M + k x C)."""
    per_unit: Fraction  # P(trigger) / wager: the return per dollar of M, or of C for each other player
    unit: Fraction  # wager / P(trigger): the dollars of M + kC that return the whole wager (with no progression)
    progression: Fraction  # the rate of progression, returned over the meter's cycles (0 but for a progressive)
    mean_prize_known: Fraction | None  # M where the wheel's weights give it (the community wheel's do not)
    community: str  # where C comes from: "segments", "community_wheel" or "none"
    community_pays: tuple[Decimal, ...]  # the community pays one spin may pay each other player, largest first
    general: str  # the return for k other players as printed: "(M + kC)/$85 + 2.5%"
    rows: tuple[ReturnFormulaRow, ...]

    def to_json(self) -> dict:
        return {"per_unit_exact": fraction_text(self.per_unit), "unit_exact": fraction_text(self.unit),
                "progression_exact": fraction_text(self.progression),
                "mean_prize_known_exact": (fraction_text(self.mean_prize_known)
                                           if self.mean_prize_known is not None else None),
                "community": self.community, "community_pays": [money_json(a) for a in self.community_pays],
                "general": self.general,
                "rows": [row.to_json() for row in self.rows]}


@dataclass(frozen=True)
class WheelReturn:
    """What the wheel returns when its segment weights are given."""
    total_weight: int
    mean_prize: float
    return_per_wager: float
    house_edge: float
    mean_community_pay_per_spin: float
    community_value: tuple[CommunityValue, ...]
    progressive: ProgressiveReturn | None

    def past_the_wager(self) -> tuple[CommunityValue, CommunityValue] | None:
        """Where the community pays of other players' spins take the return past the wager: the first row (fewest
        other players) that does, and the full table's; None where even a full table stays at or under it."""
        over = [row for row in self.community_value if row.return_with_community > 1]
        return (over[0], self.community_value[-1]) if over else None


@dataclass(frozen=True)
class BonusSpinResult:
    """The Bonus Spin wager: its trigger, and its return when the wheel's weights are known (`weighted`)."""
    trigger: str
    trigger_combinations: int
    hole_card_combinations: int
    trigger_probability: float
    wager: Decimal
    return_per_mean_prize: float
    break_even_mean_prize: float
    trigger_note: str
    return_formula: str
    top_prize_kind: str
    top_prize_amount: Decimal | None
    segments: tuple[WheelSegmentPay, ...]
    weighted: WheelReturn | None  # None: no weights, no return figure
    needs: str | None  # what is missing for a return figure, when `weighted` is None
    formula: ReturnFormula | None = None  # the return in M and C where a weight it needs is not given
    top_prize_reset: Decimal | None = None
    rate_of_progression_percent: Decimal | None = None

    @property
    def weights_given(self) -> bool:
        return self.weighted is not None

    @property
    def return_per_wager(self) -> float | None:
        return self.weighted.return_per_wager if self.weighted is not None else None

    def to_json(self) -> dict:
        w = self.weighted
        out = {
            "trigger": self.trigger, "trigger_combinations": self.trigger_combinations,
            "hole_card_combinations": self.hole_card_combinations, "trigger_probability": self.trigger_probability,
            "wager": money_json(self.wager), "return_per_mean_prize": self.return_per_mean_prize,
            "break_even_mean_prize": self.break_even_mean_prize, "trigger_note": self.trigger_note,
            "return_formula": self.return_formula, "top_prize_kind": self.top_prize_kind,
            "top_prize_amount": money_json_or_none(self.top_prize_amount),
            "segments": [segment.to_json() for segment in self.segments],
            "weights_given": self.weights_given,
            "return_per_wager": w.return_per_wager if w else None,
            "house_edge": w.house_edge if w else None,
            "mean_prize": w.mean_prize if w else None,
            "community_value": [row.to_json() for row in w.community_value] if w else None,
        }
        if self.formula is not None:
            out["return_formula_by_other_players"] = self.formula.to_json()
        if w is None:
            out["needs"] = self.needs
        else:
            out["total_weight"] = w.total_weight
            out["mean_community_pay_per_spin"] = w.mean_community_pay_per_spin
            if w.progressive is not None:
                out["progressive"] = w.progressive.to_json()
        return out
