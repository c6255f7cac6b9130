"""The offering resolved once: one typed, frozen value that math, render and filing read.

Layer: above load (`rulegen.offering`), `rulegen.jurisdiction` and `rulegen.game`; below math. It imports
those three and nothing above them.

After validation, `resolve(offering)` turns the loaded offering into a `ResolvedOffering`: its jurisdiction,
each paytable resolved to the table it names or writes out (with the authorized table it matches and that
table's citation), the Bonus Spin table with its wheel segments, community pays and wheel positions, the
payout limit with the wagers it covers and those counted in the maximum win, the limits, the table and card
choices, the sign-offs. No later stage reads the offering's raw data or asks the jurisdiction to resolve a
named table again: they read this value. The loaded `Offering` rides along for its bytes, file name and
folder only (the manifest hashes and embeds the file; the renderer reads the logo beside it).

The helpers `resolve_paytable` and `payout_vector` also serve validation, which must match a written-out
table against the authorized ones before an offering is known to be valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from rulegen import clauses, game, wagers
from rulegen.errors import InputError, UsageError
from rulegen.evaluator import PAY_CLASSES
from rulegen.jurisdiction import Jurisdiction, jurisdiction_for
from rulegen.offering import Offering
from rulegen.resolved_spin import (  # noqa: F401  (the Bonus Spin's part of the resolved value, re-exported)
    DEFAULT_TRIGGER, CommunityPay, ResolvedBonusSpin, TopPrize, WheelSegment, bonus_spin_table, community_pay_table,
    money_key, resolved_bonus_spin, symbol_key,
)
from rulegen.resolved_spin import cited_or_error as _cited, money_or_none as _money, text_or_none as _text

SHIPPED_SIDE = ("five_card_bonus", "six_card_bonus")  # the side wagers with fields of their own

# Readings the game carries as notes beside a settlement (jurisdiction data `readings`, by key).
SETTLEMENT_READINGS = ("middle_both_push", "bonus_spin_after_fold", "ante_table")


# --- the value -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ResolvedPaytable:
    """One paytable the offering chose: the table itself and what the jurisdiction says of it.

    `name` is the authorized table it is (a named choice) or matches (a written-out one), None when a
    written-out table matches none (where the jurisdiction lets an operator write its own); `citation`
    is that authorized table's. `entries` are the pays as the offering or the data writes them (a number
    N for N to 1, or "push"), in the order written.
    """

    kind: str
    name: str | None
    citation: str | None
    written_out: bool
    entries: tuple[tuple[str, Decimal | str], ...]
    table: game.Paytable
    label: str | None = None  # how the documents name the authorized table, where the data says


@dataclass(frozen=True)
class SideWager:
    """The Five Card Bonus or the Six Card Bonus: its wager range (where the offering states one) and table."""

    paytable: ResolvedPaytable
    minimum: Decimal | None = None
    maximum: Decimal | None = None


@dataclass(frozen=True)
class PayoutLimit:
    """The payout limit: the amount the offering states (None where it states none) and the jurisdiction's reach."""

    amount: Decimal | None
    covers: tuple[str, ...]  # the wagers the limit applies to, in the data's order
    counted_in_max_win: tuple[str, ...]  # the wagers counted in the maximum win per round at the minimum wager
    by_rule: bool = False  # the amount is the figure the jurisdiction's rule sets, the offering stating none
    per: str = "per player per round"  # the text's own words for what one limit applies to
    follows_meter_above: Decimal | None = None  # a limit by rule that rises with a progressive meter: from where
    meter_plus: Decimal | None = None  # ...and above it the limit is the meter's amount plus this (that win's rest)


@dataclass(frozen=True)
class Range:
    minimum: Decimal
    maximum: Decimal


@dataclass(frozen=True)
class Limits:
    ante: Range
    adjacent_boxes: int | None = None


@dataclass(frozen=True)
class TableChoices:
    positions: int | None
    payout_odds_display: str | None
    payout_limit_display: str | None


@dataclass(frozen=True)
class Cards:
    decks: int
    back_colours: tuple[str, ...]
    shuffling: str
    dealing: str
    deck_change_hours: Decimal | None


@dataclass(frozen=True)
class Operator:
    name: str
    licence: str | None = None
    logo: str | None = None


@dataclass(frozen=True)
class SignOff:
    role: str
    name: str | None
    title: str | None
    date: str | None


@dataclass(frozen=True)
class ResolvedOffering:
    """Everything a later stage needs of one validated offering, resolved against its jurisdiction."""

    offering: Offering  # for its bytes, file name and folder only
    jurisdiction: Jurisdiction
    id: str
    version: int
    effective_date: str | None
    operator: Operator
    table: TableChoices
    cards: Cards
    limits: Limits
    criss_cross: ResolvedPaytable
    ante: ResolvedPaytable
    five_card_bonus: SideWager | None
    six_card_bonus: SideWager | None
    bonus_spin: ResolvedBonusSpin | None
    payout_limit: PayoutLimit
    signoffs: tuple[SignOff, ...]
    notes: tuple[str, ...]  # the jurisdiction's readings a settlement carries
    side_wagers: tuple[tuple[str, SideWager], ...] = ()  # every other side wager offered (rulegen.wagers), by key

    @property
    def offered_side_wagers(self) -> tuple[tuple[str, SideWager], ...]:
        """Every side wager offered, by key, in the documents' order (the Five and Six Card Bonus first)."""
        own = tuple((key, wager) for key, wager in (("five_card_bonus", self.five_card_bonus),
                                                    ("six_card_bonus", self.six_card_bonus)) if wager is not None)
        return own + self.side_wagers

    @property
    def paytables(self) -> dict[str, ResolvedPaytable | None]:
        """Each paytable kind → the offering's table (None for a side wager not offered)."""
        return {"criss_cross": self.criss_cross, "ante": self.ante,
                "five_card_bonus": self.five_card_bonus.paytable if self.five_card_bonus else None,
                "six_card_bonus": self.six_card_bonus.paytable if self.six_card_bonus else None,
                **{key: wager.paytable for key, wager in self.side_wagers}}

    @property
    def five_card_bonus_minimum(self) -> Decimal | None:
        return self.five_card_bonus.minimum if self.five_card_bonus else None

    @property
    def game_rules(self) -> game.GameRules:
        """The paytables, Bonus Spin and payout limit as the game layer settles them."""
        limit = None
        if self.payout_limit.amount is not None:
            limit = game.PayoutLimit(self.payout_limit.amount, frozenset(self.payout_limit.covers))
        return game.GameRules(
            criss_cross=self.criss_cross.table, ante=self.ante.table,
            five_card_bonus=self.five_card_bonus.paytable.table if self.five_card_bonus else None,
            six_card_bonus=self.six_card_bonus.paytable.table if self.six_card_bonus else None,
            bonus_spin=self.bonus_spin.game if self.bonus_spin else None,
            payout_limit=limit, notes=self.notes,
            side_wagers=tuple((key, wager.paytable.table) for key, wager in self.side_wagers))


# --- resolving -------------------------------------------------------------------------------------------------

def resolve(offering: Offering) -> ResolvedOffering:
    """The validated offering as one `ResolvedOffering`. A choice its jurisdiction does not authorize, or a part
    missing, raises InputError (validation reports them first, with their place and citation)."""
    try:
        return _resolve(offering)
    except (KeyError, TypeError, AttributeError, ArithmeticError, ValueError, UsageError) as exc:
        raise InputError(f"{offering.display_path} cannot be resolved ({type(exc).__name__}: {exc}); "
                         "run rulegen validate on it") from None


def paytable_rules(offering: Offering) -> game.GameRules:
    """The offering's paytables alone (Criss Cross, ante, Five and Six Card Bonus), as `resolve(...).game_rules`
    gives them: what the maximum win per round is computed from. Validation's payout-limit floor reads this, so
    that a part the figure does not use (the cards, the sign-offs, the id) may be broken and the floor still be
    checked in the same pass. Raises InputError as `resolve` does."""
    try:
        data = offering.data
        jurisdiction = jurisdiction_for(data)
        choices = data.get("paytables") or {}
        five, six = data.get("five_card_bonus"), data.get("six_card_bonus")

        def table(kind: str, choice) -> game.Paytable:
            return resolved_paytable(jurisdiction, kind, choice).table

        return game.GameRules(
            criss_cross=table("criss_cross", choices.get("criss_cross", "standard")),
            ante=table("ante", choices.get("ante", "standard")),
            five_card_bonus=table("five_card_bonus", five["paytable"]) if five else None,
            six_card_bonus=table("six_card_bonus", six["paytable"]) if six else None)
    except (KeyError, TypeError, AttributeError, ArithmeticError, ValueError) as exc:
        raise InputError(f"{offering.display_path} cannot be resolved ({type(exc).__name__}: {exc}); "
                         "run rulegen validate on it") from None


def standard_rules() -> game.GameRules:
    """The game `rulegen settle` settles without an offering: the `standard` tables that every jurisdiction
    `jurisdictions/common/standard.yaml` lists authorizes (JurisdictionDataError where they disagree), with the
    readings that file gives as notes."""
    from rulegen.jurisdiction import JurisdictionDataError, load_jurisdiction, standard_game

    standard = standard_game()
    tables: dict[str, game.Paytable] = {}
    for code in standard.jurisdictions:
        jurisdiction = load_jurisdiction(code)
        for kind in standard.paytables:
            if "standard" not in jurisdiction.paytable_names(kind):
                raise JurisdictionDataError(f"{jurisdiction.name} authorizes no {kind} table named standard, which "
                                            f"{standard.description} name")
            table = resolved_paytable(jurisdiction, kind, "standard").table
            if tables.setdefault(kind, table) != table:
                raise JurisdictionDataError(f"{jurisdiction.name}'s standard {kind} table differs from "
                                            f"{standard.jurisdictions[0]}'s, but {standard.description} are one")
    return game.GameRules(criss_cross=tables["criss_cross"], ante=tables["ante"],
                          five_card_bonus=tables.get("five_card_bonus"), six_card_bonus=tables.get("six_card_bonus"),
                          notes=standard.readings)


def clause_config(offering: ResolvedOffering) -> clauses.OfferingConfig:
    """The choices of the resolved offering that decide which clauses, readings and notes of its text apply."""
    spin = offering.bonus_spin
    wager = spin.wager if spin is not None else None
    return clauses.OfferingConfig(
        dealing=offering.cards.dealing,
        shuffling=offering.cards.shuffling,
        decks=offering.cards.decks,
        five_card_bonus=offering.five_card_bonus is not None,
        six_card_bonus=offering.six_card_bonus is not None,
        bonus_spin=spin.kind if spin else None,
        bonus_spin_paytable=spin.paytable if spin else None,
        bonus_spin_wager=int(wager) if wager is not None and wager == wager.to_integral_value() else None,
        community_pay=str(spin.community_pay) if spin and spin.community_pay is not None else None,
        top_prize=spin.top_prize.kind if spin else None,
        payout_limit=offering.payout_limit.amount is not None,
        ante_table=offering.ante.name,
        bonus_spin_names=tuple((kind, str(spec["name"]["value"]))
                               for kind, spec in (offering.jurisdiction.data.get("bonus_spin") or {}).items()
                               if isinstance(spec, dict) and isinstance(spec.get("name"), dict)
                               and spec["name"].get("value")),
    )


def _offered(listed: tuple[str, ...], offered: set[str]) -> tuple[str, ...]:
    """The wagers of a jurisdiction's list this table offers: a limit covers, a maximum counts, only those."""
    return tuple(wager for wager in listed if wager in offered)


def _resolve(offering: Offering) -> ResolvedOffering:
    resolved = _resolve_choices(offering)
    config = clause_config(resolved)
    notes = settlement_notes(resolved.jurisdiction, config)
    offered = set(game.MAIN_WAGERS) | {key for key, _ in resolved.offered_side_wagers}
    offered |= {"bonus_spin"} if resolved.bonus_spin is not None else set()
    limit = replace(resolved.payout_limit, covers=_offered(resolved.payout_limit.covers, offered),
                    counted_in_max_win=_offered(resolved.payout_limit.counted_in_max_win, offered))
    return replace(resolved, notes=notes, payout_limit=limit)


def _resolve_choices(offering: Offering) -> ResolvedOffering:
    data = offering.data
    jurisdiction = jurisdiction_for(data)
    head = data["offering"]
    operator = head.get("operator") or {}
    table = data.get("table") or {}
    cards = data.get("cards") or {}
    limits = data.get("limits") or {}
    choices = data.get("paytables") or {}
    five = data.get("five_card_bonus")
    six = data.get("six_card_bonus")
    limit = data.get("payout_limit") or {}
    return ResolvedOffering(
        offering=offering,
        jurisdiction=jurisdiction,
        id=str(head["id"]),
        version=int(head["version"]),
        effective_date=_text(head.get("effective_date")),
        operator=Operator(name=str(operator.get("name")), licence=_text(operator.get("licence")),
                          logo=_text(operator.get("logo"))),
        table=TableChoices(positions=table.get("positions"), payout_odds_display=table.get("payout_odds_display"),
                           payout_limit_display=table.get("payout_limit_display")),
        cards=Cards(decks=int(cards["decks"]), back_colours=tuple(cards.get("back_colours") or ()),
                    shuffling=str(cards["shuffling"]), dealing=str(cards["dealing"]),
                    deck_change_hours=_money(cards.get("deck_change_hours"))),
        limits=Limits(ante=Range(Decimal(str(limits["ante"]["minimum"])), Decimal(str(limits["ante"]["maximum"]))),
                      adjacent_boxes=limits.get("adjacent_boxes")),
        criss_cross=resolved_paytable(jurisdiction, "criss_cross", choices.get("criss_cross", "standard")),
        ante=resolved_paytable(jurisdiction, "ante", choices.get("ante", "standard")),
        five_card_bonus=(SideWager(resolved_paytable(jurisdiction, "five_card_bonus", five["paytable"]),
                                   _money(five.get("minimum")), _money(five.get("maximum"))) if five else None),
        six_card_bonus=(SideWager(resolved_paytable(jurisdiction, "six_card_bonus", six["paytable"]),
                                  _money(six.get("minimum")), _money(six.get("maximum"))) if six else None),
        bonus_spin=resolved_bonus_spin(jurisdiction, data["bonus_spin"]) if data.get("bonus_spin") else None,
        payout_limit=PayoutLimit(amount=_money(limit.get("amount")),
                                 covers=tuple(_cited(jurisdiction, "payout_limit", "covers").value or ()),
                                 counted_in_max_win=tuple(
                                     _cited(jurisdiction, "payout_limit", "counted_in_max_win").value or ()),
                                 per=_limit_per(jurisdiction)),
        signoffs=tuple(SignOff(role=str(entry.get("role")), name=_text(entry.get("name")),
                               title=_text(entry.get("title")), date=_text(entry.get("date")))
                       for entry in data.get("signoff") or [] if isinstance(entry, dict)),
        notes=(),
        side_wagers=tuple((key, SideWager(resolved_paytable(jurisdiction, key, data[key]["paytable"]),
                                          _money(data[key].get("minimum")), _money(data[key].get("maximum"))))
                          for key in wagers.keys() if key not in SHIPPED_SIDE and data.get(key)),
    )


def _limit_per(jurisdiction: Jurisdiction) -> str:
    """The text's words for what one payout limit applies to, where the data gives them."""
    node = jurisdiction.data.get("payout_limit") or {}
    per = node.get("per") if isinstance(node, dict) else None
    return str(per["value"]) if isinstance(per, dict) and per.get("value") else PayoutLimit.per


def settlement_notes(jurisdiction: Jurisdiction, config: clauses.OfferingConfig) -> tuple[str, ...]:
    """The readings a settlement carries, of those whose `when` this table meets."""
    return tuple(entry["reading"] for entry in jurisdiction.readings()
                 if entry.get("key") in SETTLEMENT_READINGS and entry.get("reading")
                 and clauses.unmet(entry.get("when") or {}, config) is None)


def resolved_paytable(jurisdiction: Jurisdiction, kind: str, choice) -> ResolvedPaytable:
    table, name, citation = resolve_paytable(jurisdiction, kind, choice)
    if table is None:
        raise InputError(f"the {kind} paytable {choice!r} is not one {jurisdiction.name} authorizes")
    source = choice if isinstance(choice, Mapping) else _cited(jurisdiction, "paytables", kind, str(choice)).value
    entries = tuple((str(hand), pays if isinstance(pays, str) else Decimal(str(pays))) for hand, pays in source.items())
    named = (jurisdiction.data.get("paytables") or {}).get(kind, {}).get(name) if name is not None else None
    label = str(named["label"]) if isinstance(named, Mapping) and named.get("label") else None
    return ResolvedPaytable(kind=kind, name=name, citation=citation, written_out=isinstance(choice, Mapping),
                            entries=entries, table=game.Paytable.from_mapping(table, pay_classes(kind)), label=label)


def pay_classes(kind: str) -> tuple[str, ...]:
    """The pay classes a paytable of `kind` pays on: a side wager's own (rulegen.wagers), else the poker classes."""
    found = [wager for wager in wagers.registered() if wager.key == kind]
    return found[0].pay_classes if found else PAY_CLASSES


def odds_mapping(mapping: Mapping) -> dict:
    """A paytable as written (numbers, Decimals, 'push') → {hand class: Fraction | 'push'}.

    What the keys mean (an `_or_better` key also pays every stronger hand the table does not list) is the
    game layer's to say: `rulegen.game.Paytable.from_mapping` reads this mapping.
    """
    return {str(key): value if isinstance(value, str) else Fraction(Decimal(str(value)))
            for key, value in mapping.items()}


def resolve_paytable(jurisdiction: Jurisdiction, kind: str, choice) -> tuple[dict | None, str | None, str | None]:
    """(table, name, citation) for a paytable choice: a named table, or a written-out one.

    A written-out table is matched against the authorized tables by what it pays for each hand, so
    `pair_sixes_or_better: 1` equals `pair_jacks_or_better: 1` + `pair_sixes_through_tens: 1`.
    Returns (None, None, None) for a name the jurisdiction does not authorize and (table, None, None)
    for a written-out table that matches none.
    """
    if not isinstance(choice, Mapping):
        name = str(choice)
        if name not in jurisdiction.paytable_names(kind):
            return None, None, None
        cited = _cited(jurisdiction, "paytables", kind, name)
        return odds_mapping(cited.value), name, cited.citation
    table = odds_mapping(choice)
    for name in jurisdiction.paytable_names(kind):
        cited = _cited(jurisdiction, "paytables", kind, name)
        if payout_vector(odds_mapping(cited.value), kind) == payout_vector(table, kind):
            return table, name, cited.citation
    return table, None, None


def payout_vector(table: Mapping, kind: str | None = None) -> tuple:
    """What a table pays for each pay class of `kind` (rulegen.wagers; the poker classes where None), weakest first
    (-1 lose, 0 push, N for N to 1)."""
    return game.Paytable.from_mapping(table, pay_classes(kind) if kind else PAY_CLASSES).payouts
