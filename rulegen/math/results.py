"""The math layer's results as typed values (math layer): frozen dataclasses the renderer reads by attribute.

A renamed field fails loudly (an AttributeError in Python, an undefined error under Jinja's StrictUndefined)
rather than silently dropping a line from a document. `MathReport.to_json()` is the one source of
`rulegen math --json`: the spec's keys (docs: /work/shared/spec/offering-format.md) plus the par-sheet detail.

Numbers in that JSON: probabilities, edges, expectations and standard deviations are JSON numbers rounded
from the exact value to the nearest binary double, as before; money amounts (wagers, prizes, limits, the
maximum win) are written exactly from `Decimal` as decimal numerals, never through a binary float: whole
dollars as an integer (`3624`), otherwise with at least two decimals (`5.50`). `json_text()` writes them so.
Exact fractions (an EV, a variance) are also given as text "numerator/denominator" under `*_exact` keys.

These values are also what the math cache stores (see `rulegen.math.cache`), through `rulegen.math.payload`'s
`to_payload` / `from_payload`: every field round-trips exactly (fractions as "n/d" text, Decimals as text).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from rulegen.math.cap import PayoutCap
from rulegen.money import json_number


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def money_json(value: Decimal) -> Decimal:
    """An amount as the exact numeral JSON carries (see rulegen.money.json_number)."""
    return json_number(value)


def money_json_or_none(value: Decimal | None) -> Decimal | None:
    return None if value is None else money_json(value)


def json_text(document: Any, *, indent: int | None = 2) -> str:
    """JSON text with every Decimal written as its exact decimal numeral (simplejson's use_decimal)."""
    import simplejson

    return simplejson.dumps(document, indent=indent, use_decimal=True)


# --- the main game ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PaytableIdentity:
    """What each table pays per pay class (as text), worst class first: the identity of the analysed tables."""
    criss_cross: tuple[str, ...]
    ante: tuple[str, ...]
    pay_classes: tuple[str, ...]

    def to_json(self) -> dict:
        return {"criss_cross": list(self.criss_cross), "ante": list(self.ante), "pay_classes": list(self.pay_classes)}


@dataclass(frozen=True)
class ChoiceFrequencies:
    """Probability per round of reaching one decision and choosing fold, 1x or 3x (2x is never optimal)."""
    fold: float
    once: float
    thrice: float

    def to_json(self) -> dict:
        return {"fold": self.fold, "1x": self.once, "3x": self.thrice}


@dataclass(frozen=True)
class DecisionFrequencies:
    across: ChoiceFrequencies
    down: ChoiceFrequencies
    middle: ChoiceFrequencies
    note: str

    def rows(self) -> tuple[tuple[str, ChoiceFrequencies], ...]:
        return (("across", self.across), ("down", self.down), ("middle", self.middle))

    def to_json(self) -> dict:
        return {"across": self.across.to_json(), "down": self.down.to_json(), "middle": self.middle.to_json(),
                "note": self.note}


@dataclass(frozen=True)
class TieCounts:
    """Deals on the strategy's path whose decision met an exact tie."""
    across_hole_combinations: int
    down_deals: int
    middle_deals: int
    note: str
    rule: str
    middle_rule: str

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class StartingHandValue:
    """One of the 169 starting hands: its Across decision and the exact EV (per ante) of each choice."""
    hand: str
    combinations: int
    decision: str  # fold | 1x | 3x
    ev_fold: Fraction
    ev_1x: Fraction
    ev_3x: Fraction

    @property
    def ev(self) -> Fraction:
        return {"fold": self.ev_fold, "1x": self.ev_1x, "3x": self.ev_3x}[self.decision]

    def to_json(self) -> dict:
        return {"hand": self.hand, "combinations": self.combinations, "decision": self.decision,
                "ev_fold": fraction_text(self.ev_fold), "ev_1x": fraction_text(self.ev_1x),
                "ev_3x": fraction_text(self.ev_3x), "ev": float(self.ev)}


@dataclass(frozen=True)
class NetOutcome:
    """One distinct net result of a round (in antes) under the strategy, and how many deals give it."""
    net: Fraction
    combinations: int
    probability: float

    @property
    def outcome(self) -> int | float:
        """The net result as printed: whole antes as an integer."""
        return self.net.numerator if self.net.denominator == 1 else float(self.net)

    @property
    def contribution(self) -> float:
        return float(self.net) * self.probability

    def to_json(self) -> dict:
        return {"outcome": self.outcome, "net": float(self.net), "combinations": self.combinations,
                "probability": self.probability, "contribution": self.contribution}


@dataclass(frozen=True)
class GrossPayout:
    """One distinct gross payout of a round (what the winning wagers are paid, in antes) and its deal count."""
    gross: Fraction
    combinations: int


@dataclass(frozen=True)
class MonteCarloResult:
    """The seeded simulation of the computed strategy; its 99% interval must cover the exact EV."""
    rounds: int
    seed: int
    mean_per_ante: float
    standard_deviation: float
    confidence: float
    interval: tuple[float, float]
    exact_ev_per_ante: float
    covers_exact: bool
    hit_frequency: float

    def to_json(self) -> dict:
        return {"rounds": self.rounds, "seed": self.seed, "mean_per_ante": self.mean_per_ante,
                "standard_deviation": self.standard_deviation, "confidence": self.confidence,
                "interval": list(self.interval), "exact_ev_per_ante": self.exact_ev_per_ante,
                "covers_exact": self.covers_exact, "hit_frequency": self.hit_frequency}


MAIN_GAME_UNITS = "per unit of one ante; each round wagers two equal antes"


class MainGameRates:
    """The figures derived from a main game's exact expectation, wager, hit frequency and variance (per ante): one
    definition for the exact analysis and for a sweep's figures of one paytable."""
    ev_per_ante: Fraction
    average_total_wager_exact: Fraction
    hit_frequency_exact: Fraction
    variance: Fraction

    @property
    def house_edge_per_ante(self) -> float:
        return float(-self.ev_per_ante)

    @property
    def element_of_risk(self) -> float:
        return float(-self.ev_per_ante / self.average_total_wager_exact)

    @property
    def hit_frequency(self) -> float:
        return float(self.hit_frequency_exact)

    @property
    def standard_deviation(self) -> float:
        import math

        return math.sqrt(self.variance)


@dataclass(frozen=True)
class MainGameAnalysis(MainGameRates):
    """The exact analysis of the main game under the EV-maximising strategy, per unit of one ante."""
    paytables: PaytableIdentity
    ev_per_ante: Fraction
    average_total_wager_exact: Fraction  # in antes, both antes included
    hit_frequency_exact: Fraction
    variance: Fraction
    rounds: int  # deals enumerated
    decisions: DecisionFrequencies
    ties: TieCounts
    across_decision: dict[str, str]  # the 169 starting hands, higher rank first: fold | 1x | 3x
    starting_hands: tuple[StartingHandValue, ...]
    distribution: tuple[NetOutcome, ...]
    gross_payout_distribution: tuple[GrossPayout, ...]
    scale: int
    method: str
    tie_rule: str
    monte_carlo: MonteCarloResult | None = None
    units: str = MAIN_GAME_UNITS

    @property
    def house_edge_per_initial_wager(self) -> float:
        return float(-self.ev_per_ante / 2)

    @property
    def average_total_wager(self) -> float:
        return float(self.average_total_wager_exact)

    def to_json(self) -> dict:
        """The spec's `main_game` keys first, then the par-sheet detail."""
        return {
            "house_edge_per_ante": self.house_edge_per_ante,
            "house_edge_per_initial_wager": self.house_edge_per_initial_wager,
            "element_of_risk": self.element_of_risk,
            "average_total_wager": self.average_total_wager,
            "hit_frequency": self.hit_frequency,
            "standard_deviation": self.standard_deviation,
            "across_decision": dict(self.across_decision),
            "ev_per_ante": float(self.ev_per_ante),
            "ev_per_ante_exact": fraction_text(self.ev_per_ante),
            "variance_exact": fraction_text(self.variance),
            "rounds": self.rounds,
            "distribution": [row.to_json() for row in self.distribution],
            "decisions": self.decisions.to_json(),
            "ties": self.ties.to_json(),
            "tie_rule": self.tie_rule,
            "starting_hands": [row.to_json() for row in self.starting_hands],
            "method": self.method,
            "monte_carlo": self.monte_carlo.to_json() if self.monte_carlo is not None else None,
            "units": self.units,
            "average_total_wager_exact": fraction_text(self.average_total_wager_exact),
        }


# --- the Five Card and Six Card Bonus ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BonusOutcome:
    """One pay class of a bonus wager: how many boards reach it, what it pays, its part of the return."""
    hand_class: str
    combinations: int
    probability: float
    pays: str  # "N to 1", "push" or "loses"
    contribution: float  # payout x probability, per unit wagered

    def to_json(self) -> dict:
        return {"hand_class": self.hand_class, "combinations": self.combinations, "probability": self.probability,
                "pays": self.pays, "return": self.contribution}


@dataclass(frozen=True)
class BonusResult:
    """A fixed side wager settled on `cards` cards (5: the community cards; 6: best five of six), per unit."""
    cards: int
    boards: int
    outcomes: tuple[BonusOutcome, ...]  # best hand class first
    ev: Fraction
    standard_deviation: float
    hit_frequency: float

    @property
    def house_edge(self) -> float:
        return float(-self.ev)

    @property
    def element_of_risk(self) -> float:
        """One fixed wager: the risk is the wager, so the element of risk is the house edge."""
        return self.house_edge

    @property
    def return_per_wager(self) -> float:
        return float(1 + self.ev)

    def to_json(self) -> dict:
        return {"cards": self.cards, "boards": self.boards, "outcomes": [row.to_json() for row in self.outcomes],
                "ev": fraction_text(self.ev), "house_edge": self.house_edge, "return": self.return_per_wager,
                "hit_frequency": self.hit_frequency, "standard_deviation": self.standard_deviation,
                "element_of_risk": self.element_of_risk}


# --- the Bonus Spin wheel -----------------------------------------------------------------------------------------

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


# --- the maximum win per round --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DealtCards:
    """One round's cards, as text ("Ac Kc")."""
    hole: str
    across: str
    down: str
    middle: str
    six: str | None = None  # the four Six Card Bonus cards, when that wager is counted

    def to_json(self) -> dict:
        return {key: value for key, value in dataclasses.asdict(self).items() if value is not None}


@dataclass(frozen=True)
class WinningRound:
    """A round that reaches a maximum: its win, its cards, the hands it makes, each counted wager's win."""
    amount: Decimal
    cards: DealtCards
    hands: dict[str, str]  # across, down[, five_card_bonus]: the hand's name
    per_wager_win: dict[str, Decimal]

    def to_json(self) -> dict:
        return {"amount": money_json(self.amount), "cards": self.cards.to_json(), "hands": dict(self.hands),
                "per_wager_win": {k: money_json(v) for k, v in self.per_wager_win.items()}}


@dataclass(frozen=True)
class MaxWinDetail:
    reading: str
    ante_minimum: Decimal
    wagers: dict[str, Decimal]  # the counted wagers and the amount of each
    chosen: WinningRound
    main_game_only: WinningRound
    with_five_card_bonus: WinningRound | None
    summary: str

    @property
    def five_card_bonus_counted(self) -> bool:
        return self.with_five_card_bonus is not None

    @property
    def cards(self) -> DealtCards:
        return self.chosen.cards

    @property
    def hands(self) -> dict[str, str]:
        return self.chosen.hands

    @property
    def per_wager_win(self) -> dict[str, Decimal]:
        return self.chosen.per_wager_win

    def to_json(self) -> dict:
        return {
            "reading": self.reading, "ante_minimum": money_json(self.ante_minimum),
            "wagers": {k: money_json(v) for k, v in self.wagers.items()},
            "per_wager_win": {k: money_json(v) for k, v in self.per_wager_win.items()},
            "cards": self.cards.to_json(), "hands": dict(self.hands),
            "main_game_only": self.main_game_only.to_json(),
            "with_five_card_bonus": self.with_five_card_bonus.to_json() if self.with_five_card_bonus else None,
            "five_card_bonus_counted": self.five_card_bonus_counted,
            "summary": self.summary,
        }


@dataclass(frozen=True)
class MaxWin:
    """The most one player can win in one round at the minimum wager (see rulegen.math.maxwin's reading)."""
    amount: Decimal
    detail: MaxWinDetail = dataclasses.field(compare=False, hash=False)

    def to_json(self) -> dict:
        return {"amount": money_json(self.amount), "detail": self.detail.to_json()}


# --- the payout limit, the checks, the report -----------------------------------------------------------------------

Figure = int | float | str | tuple[float, float]  # a count, a ratio, an exact fraction "n/d", an interval


@dataclass(frozen=True)
class VerificationCheck:
    """One self-check of the analysis: what it must give, what it gave, and whether they agree."""
    check: str
    expected: Figure
    computed: Figure
    passed: bool

    def to_json(self) -> dict:
        def figure(value: Figure):
            return list(value) if isinstance(value, tuple) else value

        return {"check": self.check, "expected": figure(self.expected), "computed": figure(self.computed),
                "passed": self.passed}


@dataclass(frozen=True)
class MathReport:
    """Everything the math layer says about one offering. A wager that is not offered is None."""
    main_game: MainGameAnalysis
    five_card_bonus: BonusResult | None
    six_card_bonus: BonusResult | None
    bonus_spin: BonusSpinResult | None
    max_win: MaxWin
    payout_cap: PayoutCap | None
    paytables: PaytableIdentity
    notes: tuple[str, ...]
    verification: tuple[VerificationCheck, ...]

    @property
    def max_win_per_round_at_minimum(self) -> Decimal:
        """The figure the payout-limit check uses."""
        return self.max_win.amount

    def to_json(self) -> dict:
        """`rulegen math --json`: the spec's keys first (a wager not offered is null), then the par-sheet detail."""
        return {
            "main_game": self.main_game.to_json(),
            "five_card_bonus": self.five_card_bonus.to_json() if self.five_card_bonus is not None else None,
            "six_card_bonus": self.six_card_bonus.to_json() if self.six_card_bonus is not None else None,
            "bonus_spin": self.bonus_spin.to_json() if self.bonus_spin is not None else None,
            "max_win_per_round_at_minimum": money_json(self.max_win_per_round_at_minimum),
            "max_win": self.max_win.to_json(),
            "payout_cap": self.payout_cap.to_json() if self.payout_cap is not None else None,
            "paytables": self.paytables.to_json(),
            "notes": list(self.notes),
            "verification": [check.to_json() for check in self.verification],
        }
