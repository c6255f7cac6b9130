"""The math layer's results as typed values (math layer): frozen dataclasses the renderer reads by attribute.

A renamed field fails loudly (an AttributeError in Python, an undefined error under Jinja's StrictUndefined)
rather than silently dropping a line from a document. `MathReport.to_json()` is the one source of
`rulegen math --json`: the spec's keys (docs: /work/shared/spec/offering-format.md) plus the par-sheet detail.

How each number is written in that JSON: rulegen.math.json_values.

These values are also what the math cache stores (see `rulegen.math.cache`), through `rulegen.math.payload`'s
`to_payload` / `from_payload`: every field round-trips exactly (fractions as "n/d" text, Decimals as text).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from rulegen.math.cap import PayoutCap
from rulegen.math.json_values import fraction_text, money_json
from rulegen.math.wheel_results import BonusSpinResult


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
    pays: str  # "N to 1" (or "3 to 2": rulegen.vocabulary.odds_words), "push" or "loses"
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

@dataclass(frozen=True)
class AnteAsWritten:
    """The main game's figures were the antes paid from another table, as the text read as written would have them:
    for the regulator deciding on an ante table that departs from the text."""
    table: str  # the paytable kind the antes would be paid from: "criss_cross"
    house_edge_per_ante: float
    house_edge_per_initial_wager: float
    element_of_risk: float

    def to_json(self) -> dict:
        return {"table": self.table, "house_edge_per_ante": self.house_edge_per_ante,
                "house_edge_per_initial_wager": self.house_edge_per_initial_wager,
                "element_of_risk": self.element_of_risk}


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
    ante_as_written: AnteAsWritten | None = None
    # where the limit is the greater of a base amount and the maximum win, and that win counts a progressive top
    # prize: the meter amount above which the maximum win passes the base amount (the limit then follows the meter)
    limit_follows_meter_above: Decimal | None = None
    side_wagers: tuple[tuple[str, BonusResult], ...] = ()  # every other side wager offered (rulegen.wagers), by key

    @property
    def offered_side_wagers(self) -> tuple[tuple[str, BonusResult], ...]:
        """Every side wager offered, by key, in the documents' order (the Five and Six Card Bonus first)."""
        own = tuple((key, result) for key, result in (("five_card_bonus", self.five_card_bonus),
                                                      ("six_card_bonus", self.six_card_bonus)) if result is not None)
        return own + self.side_wagers

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
            **{key: result.to_json() for key, result in self.side_wagers},
            "bonus_spin": self.bonus_spin.to_json() if self.bonus_spin is not None else None,
            "max_win_per_round_at_minimum": money_json(self.max_win_per_round_at_minimum),
            "max_win": self.max_win.to_json(),
            "payout_cap": self.payout_cap.to_json() if self.payout_cap is not None else None,
            "paytables": self.paytables.to_json(),
            "notes": list(self.notes),
            "verification": [check.to_json() for check in self.verification],
            "ante_as_written": self.ante_as_written.to_json() if self.ante_as_written is not None else None,
            "limit_follows_meter_above": (money_json(self.limit_follows_meter_above)
                                          if self.limit_follows_meter_above is not None else None),
        }
