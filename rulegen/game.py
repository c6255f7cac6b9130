"""The game layer: settle one round for one player under the paytables and payout limit it is given.

This is the only place the rules of payment live. It knows no jurisdiction: a payout limit is data (an
amount and the wagers it covers), and the readings a settlement carries as notes are data too (the jurisdiction's
words, given in `GameRules.notes` and `BonusSpin.notes`); a comment beside a rule cites the clauses it follows.

The round (MLGCA Criss Cross Poker Standard Rules, Chapter 11; N.J.A.C. 13:69F-40.10; 58 Pa. Code § 674a.11):
two equal antes (Ante Across, Ante Down); after seeing two hole cards the player bets Across (1x-3x an ante)
or folds; two outside cards of the horizontal line are shown, then Down (1x-3x) or fold; the two outside
cards of the vertical line are shown, then Middle (1x-3x) or fold; the middle card is shown. The Across hand
is the hole cards + the horizontal line (two outside cards and the middle card), the Down hand the hole
cards + the vertical line.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from typing import cast

from rulegen import wagers
from rulegen.cards import Card, check_distinct, format_cards, parse_cards
from rulegen.errors import UsageError
from rulegen.money import dollars, json_number, signed_dollars
from rulegen.vocabulary import odds_words
from rulegen.evaluator import PAY_CLASS_INDEX, PAY_CLASSES, best_five, hand_name, pay_class

HAND_CLASS_KEYS = PAY_CLASSES[1:] + ("pair_sixes_or_better",)
# "or better" keys reach up to every stronger class the table does not list itself (an ante table of
# `pair_jacks_or_better: 1` pays a two pair or a flush even money too; N.J.A.C. 13:69F-40.11(a): "any of the
# paying bets (pair of Jacks or Better)").
_OR_BETTER = {"pair_jacks_or_better": PAY_CLASS_INDEX["pair_jacks_or_better"],
              "pair_sixes_or_better": PAY_CLASS_INDEX["pair_sixes_through_tens"]}

# Cards as text ("Js Ts") or as Cards (or their texts); money as exact Decimal, int or text, never float.
Cards = str | Iterable[str | Card]
Money = Decimal | int | str

WAGERS = ("ante_across", "ante_down", "across", "down", "middle", "five_card_bonus", "six_card_bonus",
          "bonus_spin")
MAIN_WAGERS = WAGERS[:5]
DECISIONS = ("Across", "Down", "Middle")


def wager_order() -> tuple[str, ...]:
    """Every wager of a round in the documents' order: the main wagers, each side wager, the Bonus Spin."""
    return (*MAIN_WAGERS, *wagers.keys(), "bonus_spin")

TRIGGERS = ("pair_in_hole_cards", "suited_hole_cards", "pair_or_suited_hole_cards")

def _odds(value: object) -> Fraction | str:
    if isinstance(value, str):
        if value.strip().lower() != "push":
            raise UsageError(f"a paytable entry is a number (N to 1) or the word push, not {value!r}")
        return "push"
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, Fraction)):
        if isinstance(value, float):
            raise UsageError("paytable odds must be exact (int, Decimal or Fraction), never float")
        raise UsageError(f"a paytable entry is a number (N to 1) or the word push, not {value!r}")
    odds = Fraction(value)
    if odds < 0:
        raise UsageError(f"paytable odds cannot be negative ({value})")
    return odds


@dataclass(frozen=True, eq=False)
class Paytable:
    """Odds keyed by hand class; a number N is "N to 1", "push" a push; a hand not listed loses.

    `pair_sixes_or_better` covers both pair classes; the "or better" keys also reach every stronger class
    the table does not list itself.
    """

    odds: Mapping[str, Fraction | str]
    classes: tuple[str, ...] = PAY_CLASSES  # the pay classes, weakest (the losing one) first: a side wager's own

    def __post_init__(self) -> None:
        normal: dict[str, Fraction | str] = {}
        allowed = HAND_CLASS_KEYS if self.classes == PAY_CLASSES else self.classes[1:]
        for key, value in dict(self.odds).items():
            if key not in allowed:
                raise UsageError(f"{key!r} is not a hand class; paytables use {', '.join(allowed)}")
            normal[key] = _odds(value)
        object.__setattr__(self, "odds", normal)

    @functools.cached_property
    def _payouts(self) -> tuple[Fraction, ...]:
        # Not a dataclass field: derived from `odds`, and kept out of the fields a frozen dataclass
        # compares, copies and lists. cached_property writes the instance's __dict__, which frozen allows.
        return tuple(self._compute(k) for k in range(len(self.classes)))

    @classmethod
    def from_mapping(cls, mapping: Mapping[object, object], classes: tuple[str, ...] = PAY_CLASSES) -> Paytable:
        # The entries as written: __post_init__ checks and normalises each (or raises UsageError).
        return cls(cast("Mapping[str, Fraction | str]", {str(k): v for k, v in mapping.items()}), classes)

    def _compute(self, index: int) -> Fraction:
        name = self.classes[index]
        if name in self.odds:
            return self._value(self.odds[name])
        reach = [(base, key) for key, base in _OR_BETTER.items()
                 if key in self.odds and base <= index and self.classes == PAY_CLASSES]
        if reach:
            _, key = max(reach)
            return self._value(self.odds[key])
        return Fraction(-1)

    @staticmethod
    def _value(odds: Fraction | str) -> Fraction:
        return Fraction(0) if odds == "push" else Fraction(odds)

    def payout(self, pay_class_index: int) -> Fraction:
        """-1 a loss, 0 a push, N for N to 1."""
        return self._payouts[pay_class_index]

    @property
    def payouts(self) -> tuple[Fraction, ...]:
        return self._payouts

    def is_monotone(self) -> bool:
        return all(a <= b for a, b in zip(self._payouts, self._payouts[1:]))

    def canonical(self) -> list[str]:
        """What the table pays for each pay class, as text: the identity of the table for hashing."""
        return [str(p) for p in self._payouts]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Paytable) and self._payouts == other._payouts and self.classes == other.classes

    def __hash__(self) -> int:
        return hash(self._payouts)

    def __repr__(self) -> str:
        return f"Paytable({dict(self.odds)!r})"


@dataclass(frozen=True)
class WheelSegment:
    symbol: str
    pays: Decimal | None  # None: the jackpot / top prize
    community: Decimal | None = None
    weight: int | None = None


@dataclass(frozen=True)
class BonusSpin:
    wager: Decimal
    trigger: str
    segments: tuple[WheelSegment, ...]
    top_prize_kind: str = "fixed"
    top_prize_amount: Decimal | None = None
    settled_after_fold: bool = False  # a folding player's wager stays and is settled on the hole cards
    notes: tuple[str, ...] = ()  # what a settled Bonus Spin wager carries: the jurisdiction's reading of its payment

    def segment(self, symbol: str) -> WheelSegment:
        key = _symbol_key(symbol)
        for segment in self.segments:
            if _symbol_key(segment.symbol) == key:
                return segment
        known = ", ".join(s.symbol for s in self.segments)
        raise UsageError(f"the wheel has no {symbol!r} symbol; it has {known}")


def _symbol_key(symbol: object) -> str:
    text = str(symbol).strip().lower().lstrip("$").replace(",", "")
    if text in ("jackpot", "fixed prize", "fixed_prize", "top", "top_prize"):
        return "jackpot"
    try:
        value = Decimal(text)
        return str(int(value)) if value == value.to_integral_value() else str(value.normalize())
    except Exception:
        return text


@dataclass(frozen=True)
class PayoutLimit:
    amount: Decimal
    covers: frozenset[str]


@dataclass(frozen=True)
class GameRules:
    """The tables of one game. The Five and Six Card Bonus have their own fields (the maximum win's search settles
    them by name); every other side wager offered (rulegen.wagers) is in `side_wagers` by its key."""

    criss_cross: Paytable
    ante: Paytable
    five_card_bonus: Paytable | None = None
    six_card_bonus: Paytable | None = None
    bonus_spin: BonusSpin | None = None
    payout_limit: PayoutLimit | None = None
    notes: tuple[str, ...] = ()
    side_wagers: tuple[tuple[str, Paytable], ...] = ()

    def __post_init__(self) -> None:
        named = [key for key, _ in self.side_wagers if key in ("five_card_bonus", "six_card_bonus")]
        if named:
            raise UsageError(f"the {named[0]} table is given as its own field, not among the other side wagers")

    @property
    def offered_side_wagers(self) -> tuple[tuple[str, Paytable], ...]:
        """Every side wager offered, by key, in the documents' order (the Five and Six Card Bonus first)."""
        own = tuple((key, table) for key, table in (("five_card_bonus", self.five_card_bonus),
                                                    ("six_card_bonus", self.six_card_bonus)) if table is not None)
        return own + self.side_wagers

    def side_wager(self, key: str) -> Paytable | None:
        return dict(self.offered_side_wagers).get(key)


# --- settlement ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SettlementLine:
    wager: str
    amount: Decimal
    hand: str
    result: str
    net: Decimal

    def to_json(self) -> dict[str, object]:
        return {"wager": self.wager, "amount": _json_money(self.amount), "hand": self.hand, "result": self.result,
                "net": _json_money(self.net)}


@dataclass(frozen=True)
class Settlement:
    lines: tuple[SettlementLine, ...]
    net: Decimal
    hands: Mapping[str, str] = field(default_factory=dict)
    steps: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    community_pay_to_others: Decimal | None = None

    def to_json(self) -> dict[str, object]:
        return {"wagers": [line.to_json() for line in self.lines], "net": _json_money(self.net),
                "hands": dict(self.hands), "steps": list(self.steps), "notes": list(self.notes),
                "community_pay_to_others": (_json_money(self.community_pay_to_others)
                                            if self.community_pay_to_others is not None else None)}


def _json_money(value: Decimal) -> Decimal:
    return json_number(value)  # the exact decimal numeral, never a binary float (as math --json writes money)


def money(value: Fraction | Decimal | int) -> Decimal:
    """Exact dollars; a fraction of a cent (odds like 6 to 5 on odd amounts) is rounded down to the cent."""
    fraction = Fraction(value)
    exact = Decimal(fraction.numerator) / Decimal(fraction.denominator)
    if Fraction(exact) == fraction:
        return exact if exact != exact.to_integral_value() else exact.quantize(Decimal(1))
    return exact.quantize(Decimal("0.01"), rounding=ROUND_DOWN)


def odds_text(payout: Fraction) -> str:
    if payout < 0:
        return "loses"
    if payout == 0:
        return "push"
    return f"wins {odds_words(payout)}"


def _cards(value: Cards, count: int, what: str) -> tuple[Card, ...]:
    return parse_cards(value, count=count, what=what)


def _bets(bets: Sequence[int]) -> tuple[int, int, int]:
    values = [int(b) for b in bets]
    if not values or len(values) > 3:
        raise UsageError("bets are one to three multiples of an ante (Across, Down, Middle), 0 meaning a fold")
    for b in values:
        if b not in (0, 1, 2, 3):
            raise UsageError(f"a bet is 1, 2 or 3 times the ante, or 0 to fold; got {b}")
    if 0 in values:
        fold = values.index(0)
        if len(values) > fold + 1:
            raise UsageError(f"the player folded at the {DECISIONS[fold]} decision; no later bet can follow")
        values += [0] * (3 - len(values))
    elif len(values) != 3:
        raise UsageError("give all three bets (Across, Down, Middle), or end them with 0 for a fold")
    return values[0], values[1], values[2]


def bonus_spin_triggered(trigger: str, hole: Sequence[Card]) -> bool:
    pair = hole[0].rank == hole[1].rank
    suited = hole[0].suit == hole[1].suit
    if trigger == "pair_in_hole_cards":
        return pair
    if trigger == "suited_hole_cards":
        return suited
    if trigger == "pair_or_suited_hole_cards":
        return pair or suited
    raise UsageError(f"unknown Bonus Spin trigger {trigger!r}; one of {', '.join(TRIGGERS)}")


def settle_round(rules: GameRules, hole: Cards, across: Cards, down: Cards, middle: Cards, ante: Money,
                 bets: Sequence[int] = (1, 1, 1), five_card_bonus: Money | None = None, six_card: Cards | None = None,
                 bonus_spin_wager: Money | None = None, wheel_symbol: str | None = None,
                 side_bets: Mapping[str, Money] | None = None) -> Settlement:
    """Settle one round for one player. Cards as text ("Js Ts") or Cards; money as Decimal (or int/str).

    `bets` are the Across, Down and Middle bets as multiples of one ante, 0 meaning a fold at that decision
    (`(1, 0)` folds at Down). The Five Card Bonus, Six Card Bonus and Bonus Spin are settled whatever the
    player folded; so is every other side wager (rulegen.wagers) given in `side_bets`, by its key.
    """
    hole_cards = _cards(hole, 2, "the hole cards")
    across_cards = _cards(across, 2, "the Across cards")
    down_cards = _cards(down, 2, "the Down cards")
    middle_cards = _cards(middle, 1, "the middle card")
    six_cards = _cards(six_card, 4, "the Six Card Bonus cards") if six_card is not None else ()
    check_distinct(hole_cards, across_cards, down_cards, middle_cards, six_cards)
    ante = _amount(ante, "the ante")
    b1, b2, b3 = _bets(bets)

    across_hand = hole_cards + across_cards + middle_cards
    down_hand = hole_cards + down_cards + middle_cards
    community = across_cards + down_cards + middle_cards
    across_strength, _ = best_five(across_hand)
    down_strength, _ = best_five(down_hand)
    across_class, down_class = pay_class(across_strength), pay_class(down_strength)
    across_name = f"{hand_name(across_strength)} ({format_cards(across_hand)})"
    down_name = f"{hand_name(down_strength)} ({format_cards(down_hand)})"
    hands = {"hole": format_cards(hole_cards), "across": across_name, "down": down_name,
             "community": format_cards(community)}

    lines: list[SettlementLine] = []
    steps: list[str] = [f"Hole cards {format_cards(hole_cards)}; antes {_show(ante)} Across and {_show(ante)} Down."]
    fold_at = next((i for i, b in enumerate((b1, b2, b3)) if b == 0), None)
    shown = [f"the Across cards {format_cards(across_cards)}", f"the Down cards {format_cards(down_cards)}",
             f"the middle card {format_cards(middle_cards)}"]
    for i, bet in enumerate((b1, b2, b3)):
        if fold_at is not None and i >= fold_at:
            steps.append(f"{DECISIONS[i]} decision: fold.")
            break
        steps.append(f"{DECISIONS[i]} decision: bet {bet}x = {_show(ante * bet)}; the dealer shows {shown[i]}.")
    steps.append(f"Across hand: {across_name}. Down hand: {down_name}.")

    if fold_at is not None:
        # A fold forfeits the antes and every bet already made (MLGCA Chapter 11 §B(2), §D(1), §F(1);
        # N.J.A.C. 13:69F-40.10(c), (e), (g); 58 Pa. Code § 674a.11(b), (d), (f)).
        forfeited = [("ante_across", ante, across_name), ("ante_down", ante, down_name)]
        if fold_at >= 1:
            forfeited.append(("across", ante * b1, across_name))
        if fold_at >= 2:
            forfeited.append(("down", ante * b2, down_name))
        for wager, amount, hand in forfeited:
            lines.append(SettlementLine(wager, amount, hand, f"forfeit (fold at {DECISIONS[fold_at]})", -amount))
    else:
        cc, ante_table = rules.criss_cross, rules.ante
        # The Middle bet is paid at the odds of the better of the two hands; it pushes when one hand pushes and
        # the other loses (or both push) and loses only when both lose (N.J.A.C. 13:69F-40.10(i)2; MLGCA
        # Chapter 11 §I(3)(b)-(d); 58 Pa. Code § 674a.11(h)(3)-(4)). With payouts that never fall as the hand
        # improves, that is the payout of the higher pay class.
        better = max(across_class, down_class)
        middle_hand = across_name if across_class >= down_class else down_name
        for wager, amount, payout, hand in (
                ("ante_across", ante, ante_table.payout(across_class), across_name),
                ("ante_down", ante, ante_table.payout(down_class), down_name),
                ("across", ante * b1, cc.payout(across_class), across_name),
                ("down", ante * b2, cc.payout(down_class), down_name),
                ("middle", ante * b3, cc.payout(better), middle_hand)):
            lines.append(SettlementLine(wager, amount, hand, odds_text(payout), money(Fraction(amount) * payout)))

    if six_cards:
        if rules.six_card_bonus is None:
            raise UsageError("this offering has no Six Card Bonus wager")
        if five_card_bonus is None:
            raise UsageError("the Six Card Bonus requires a Five Card Bonus wager, and equals it "
                             "(house rules, Six Card Bonus Wager)")
    # Each side wager is settled on its own cards whatever the player folded (N.J.A.C. 13:69F-40.11(b); MLGCA
    # Chapter 11 §B(3); 58 Pa. Code § 674a.11(b); house rules, 5 Card Bonus and 6 Card Bonus Wager). The Six Card
    # Bonus wager equals the Five Card Bonus wager.
    amounts: dict[str, Money | None] = {"five_card_bonus": five_card_bonus,
                                        "six_card_bonus": five_card_bonus if six_cards else None, **(side_bets or {})}
    round_cards = wagers.RoundCards(hole=hole_cards, community=community, bonus=six_cards)
    for kind in wagers.registered():
        if amounts.get(kind.key) is None:
            continue
        table = rules.side_wager(kind.key)
        if table is None:
            raise UsageError(f"this offering has no {kind.name} wager")
        amount = _amount(amounts[kind.key], f"the {kind.name} wager")
        dealt = kind.hand(round_cards)
        if dealt is None:
            raise UsageError(f"the round dealt no cards for the {kind.name}")
        payout = table.payout(dealt[0])
        hands[kind.key] = dealt[1]
        lines.append(SettlementLine(kind.key, amount, dealt[1], odds_text(payout), money(Fraction(amount) * payout)))
    unknown = sorted(set(amounts) - {kind.key for kind in wagers.registered()})
    if unknown:
        raise UsageError(f"no side wager {unknown[0]!r}; rulegen knows {', '.join(wagers.keys())}")

    community_pay = None
    notes = list(rules.notes)
    if bonus_spin_wager is not None:
        spin = rules.bonus_spin
        if spin is None:
            raise UsageError("this offering has no Bonus Spin wager")
        amount = _amount(bonus_spin_wager, "the Bonus Spin wager")
        triggered = bonus_spin_triggered(spin.trigger, hole_cards)
        trigger_words = spin.trigger.replace("_", " ")
        if fold_at is not None and not spin.settled_after_fold:
            lines.append(SettlementLine("bonus_spin", amount, f"{trigger_words if triggered else 'no trigger'} "
                                        f"({format_cards(hole_cards)})",
                                        f"forfeit (fold at {DECISIONS[fold_at]})", -amount))
        elif triggered:
            if wheel_symbol is None:
                raise UsageError(f"the hole cards trigger the Bonus Spin ({trigger_words}): give the symbol the wheel "
                                 "landed on")
            segment = spin.segment(wheel_symbol)
            prize = segment.pays if segment.pays is not None else spin.top_prize_amount
            if prize is None:
                raise UsageError("the wheel landed on the top prize, whose amount the offering does not give")
            what = "the top prize" if segment.pays is None else f"the {segment.symbol} symbol"
            lines.append(SettlementLine("bonus_spin", amount, f"{trigger_words} ({format_cards(hole_cards)})",
                                        f"spins: {what} pays {_show(prize)}", prize - amount))
            if segment.community:
                community_pay = segment.community
                steps.append(f"The wheel's {segment.symbol} symbol carries a community pay: every other player with a "
                             f"Bonus Spin wager is paid {_show(segment.community)}.")
        else:
            result, net = "loses (no trigger)", -amount
            if wheel_symbol is not None:
                # another player's spin: this player, holding the wager, is paid that symbol's community pay
                segment = spin.segment(wheel_symbol)
                if segment.community:
                    result = f"no trigger; community pay {_show(segment.community)} from another player's spin"
                    net = segment.community - amount
            lines.append(SettlementLine("bonus_spin", amount, f"no {trigger_words} ({format_cards(hole_cards)})",
                                        result, net))
        notes.extend(spin.notes)

    limit = rules.payout_limit
    if limit is not None:
        covered = sum((line.net for line in lines if line.wager in limit.covers and line.net > 0), Decimal(0))
        if covered > limit.amount:
            excess = covered - limit.amount
            covers = ", ".join(w for w in wager_order() if w in limit.covers)
            lines.append(SettlementLine("payout_limit", limit.amount, "", f"aggregate payout {_show(covered)} on "
                                        f"{covers} is capped at {_show(limit.amount)}", -excess))
    net = sum((line.net for line in lines), Decimal(0))
    for line in lines:
        steps.append(f"{line.wager.replace('_', ' ').title()} {_show(line.amount)}: {line.result}"
                     f"{' (' + line.hand + ')' if line.hand and line.wager != 'payout_limit' else ''}: "
                     f"{_signed(line.net)}.")
    steps.append(f"Total: {_signed(net)}.")
    return Settlement(tuple(lines), net, hands, tuple(steps), tuple(dict.fromkeys(notes)), community_pay)


def _amount(value: object, what: str) -> Decimal:
    if isinstance(value, float):
        raise UsageError(f"{what} must be exact money (Decimal or text), never float")
    try:
        amount = Decimal(str(value))
    except Exception:
        raise UsageError(f"{what} is not an amount of money: {value!r}") from None
    if not amount.is_finite() or amount <= 0:
        raise UsageError(f"{what} must be a positive amount, not {value}")
    if amount != amount.quantize(Decimal("0.01")):
        raise UsageError(f"{what} must be whole cents, not {value}")
    return amount


def _show(amount: Decimal) -> str:
    return dollars(amount)


def _signed(amount: Decimal) -> str:
    return signed_dollars(amount, minus="-")
