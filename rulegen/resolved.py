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
from typing import Any

from rulegen import clauses, game, wagers
from rulegen.errors import InputError, UsageError
from rulegen.evaluator import PAY_CLASSES
from rulegen.jurisdiction import Cited, Jurisdiction, jurisdiction_for
from rulegen.offering import Offering

SHIPPED_SIDE = ("five_card_bonus", "six_card_bonus")  # the side wagers with fields of their own
DEFAULT_TRIGGER = "pair_in_hole_cards"

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
class WheelSegment:
    """One segment of the Bonus Spin wheel as the rules and the sign print it."""

    symbol: str
    pays: Decimal | None  # None: the top prize
    community: Decimal | None
    weight: int | None
    position: Any  # the wheel position where the jurisdiction's table gives one

    @property
    def jackpot(self) -> bool:
        return self.symbol == "jackpot"


@dataclass(frozen=True)
class TopPrize:
    kind: str
    initial: Decimal | None = None
    reset: Decimal | None = None
    rate_of_progression_percent: Decimal | None = None
    description: str | None = None


@dataclass(frozen=True)
class CommunityPay:
    """One row of the designated community-pay table: the wheel symbol(s) it names and what it pays the others."""

    symbols: tuple[Decimal | None, ...]  # (player pay, community pay) where the table gives both; else (symbol,)
    pays: Decimal


@dataclass(frozen=True)
class ResolvedBonusSpin:
    """The Bonus Spin wager with its wheel: the jurisdiction's table, community pays and the offering's weights."""

    kind: str
    wager: Decimal
    paytable: str
    community_pay: str | None
    trigger: str
    citation: str
    note: str | None
    community_citation: str | None
    top_prize: TopPrize
    segments: tuple[WheelSegment, ...]
    hardware_approval: str | None
    community_table: tuple[CommunityPay, ...] = ()  # the designated community-pay table as the text prints it
    minimum_initial: Cited | None = None  # the text's minimum initial and reset amounts for this table
    minimum_reset: Cited | None = None
    settled_after_fold: bool = False  # a folding player's wager stays, settled on the hole cards (the data's reading)
    payment_reading: str | None = None  # the data's reading of how a winning spin is paid (`wager_on_win`)

    @property
    def weighted(self) -> bool:
        return bool(self.segments) and all(s.weight is not None for s in self.segments)

    @property
    def has_community(self) -> bool:
        return any(s.community is not None for s in self.segments)

    @property
    def has_positions(self) -> bool:
        return any(s.position is not None for s in self.segments)

    @property
    def game(self) -> game.BonusSpin:
        return game.BonusSpin(
            wager=self.wager, trigger=self.trigger,
            segments=tuple(game.WheelSegment(symbol=s.symbol, pays=s.pays, community=s.community, weight=s.weight)
                           for s in self.segments),
            top_prize_kind=self.top_prize.kind, top_prize_amount=self.top_prize.initial,
            settled_after_fold=self.settled_after_fold,
            notes=(self.payment_reading,) if self.payment_reading else ())


@dataclass(frozen=True)
class PayoutLimit:
    """The payout limit: the amount the offering states (None where it states none) and the jurisdiction's reach."""

    amount: Decimal | None
    covers: tuple[str, ...]  # the wagers the limit applies to, in the data's order
    counted_in_max_win: tuple[str, ...]  # the wagers counted in the maximum win per round at the minimum wager
    by_rule: bool = False  # the amount is the figure the jurisdiction's rule sets, the offering stating none
    per: str = "per player per round"  # the text's own words for what one limit applies to


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


def bonus_spin_table(jurisdiction: Jurisdiction, spin: Mapping) -> Cited | None:
    """The jurisdiction's Bonus Spin table the offering names, or None where it authorizes no such table."""
    kind, name = str(spin.get("kind")), str(spin.get("paytable"))
    if name not in jurisdiction.bonus_spin_table_names(kind):
        return None
    return _cited(jurisdiction, "bonus_spin", kind, "paytables", name)


def community_pay_table(jurisdiction: Jurisdiction, spin: Mapping) -> Cited | None:
    """The designated community-pay table, for the wager's size where the jurisdiction keys them so; None
    where the offering designates none or the jurisdiction has no such table."""
    kind, designated = str(spin.get("kind")), spin.get("community_pay")
    if designated is None:
        return None
    pays = jurisdiction.community_pay_tables(kind)
    wager = money_key(spin.get("wager"))
    if isinstance(pays.get(wager), dict) and str(designated) in pays[wager]:
        return jurisdiction.named("bonus_spin", kind, "community_pays", wager, str(designated))
    if isinstance(pays.get(str(designated)), dict) and "citation" in pays[str(designated)]:
        return jurisdiction.named("bonus_spin", kind, "community_pays", str(designated))
    return None


def resolved_bonus_spin(jurisdiction: Jurisdiction, spin: Mapping) -> ResolvedBonusSpin:
    """The Bonus Spin wager: the wheel's segments with the player and community pays.

    Segments come from the jurisdiction's paytable; weights only from the offering's `wheel` (the
    manufacturer's par sheet). Without weights, no segment has a weight and no return can be computed.
    """
    table = bonus_spin_table(jurisdiction, spin)
    if table is None:
        raise InputError(f"the Bonus Spin paytable {spin.get('paytable')!r} is not one {jurisdiction.name} authorizes")
    community = community_pay_table(jurisdiction, spin)
    community_by_symbol: dict[str, Decimal] = {}
    if community is not None:
        for row in community.value:
            symbols = row.get("symbols") or []
            if symbols:
                community_by_symbol[money_key(symbols[0])] = Decimal(str(row["pays"]))
    weights = {symbol_key(seg.get("symbol")): seg for seg in (spin.get("wheel") or [])}
    segments = []
    for row in table.value.get("symbols", []):
        symbol = symbol_key(row.get("symbol"))
        pays = None if row.get("pays") is None else Decimal(str(row["pays"]))
        community_pay = row.get("community")
        community_pay = Decimal(str(community_pay)) if community_pay is not None else community_by_symbol.get(symbol)
        given = weights.get(symbol)
        # community pays come from the designated table alone; validation holds the wheel's to them
        segments.append(WheelSegment(symbol=symbol, pays=pays, community=community_pay,
                                     weight=int(given["weight"]) if given else None, position=row.get("position")))
    top = spin.get("top_prize") or {}
    community_table = tuple(
        CommunityPay(symbols=tuple(_money(s) for s in (row["symbols"] if row.get("symbols") else [row.get("symbol")])),
                     pays=Decimal(str(row["pays"])))
        for row in (community.value if community is not None and isinstance(community.value, list) else []))
    kind = str(spin.get("kind"))
    minimums = {key: jurisdiction.named("bonus_spin", kind, key, str(spin.get("paytable")))
                for key in ("minimum_initial", "minimum_reset")}
    return ResolvedBonusSpin(
        kind=str(spin.get("kind")), wager=Decimal(str(spin["wager"])), paytable=str(spin.get("paytable")),
        community_pay=spin.get("community_pay"), trigger=spin.get("trigger") or DEFAULT_TRIGGER,
        citation=table.citation, note=table.note, community_citation=community.citation if community else None,
        top_prize=TopPrize(kind=top.get("kind", "fixed"), initial=_money(top.get("initial")),
                           reset=_money(top.get("reset")),
                           rate_of_progression_percent=_money(top.get("rate_of_progression_percent")),
                           description=_text(top.get("description"))),
        segments=tuple(segments), hardware_approval=_text(spin.get("hardware_approval")),
        community_table=community_table, minimum_initial=minimums["minimum_initial"],
        minimum_reset=minimums["minimum_reset"], settled_after_fold=_settled_after_fold(jurisdiction),
        payment_reading=_payment_reading(jurisdiction, kind))


def _settled_after_fold(jurisdiction: Jurisdiction) -> bool:
    """The jurisdiction's reading: a folding player's Bonus Spin wager stays and is settled on the hole cards."""
    rule = jurisdiction.rule("bonus_spin_after_fold")
    return rule is not None and rule.value == "settled"


def _payment_reading(jurisdiction: Jurisdiction, kind: str) -> str | None:
    """The jurisdiction's reading of what a winning spin pays and whether the wager is collected, which every
    settled Bonus Spin wager carries as a note."""
    on_win = jurisdiction.named("bonus_spin", kind, "wager_on_win")
    return on_win.reading if on_win is not None else None


def money_key(amount) -> str:
    """A wager size as the data keys it: "5", "2.5"."""
    if amount is None:
        return ""
    value = Decimal(str(amount))
    return str(int(value)) if value == value.to_integral_value() else str(value)


def symbol_key(symbol) -> str:
    """A wheel symbol as one key: "jackpot" for the top prize, the player pay as text otherwise ("2500")."""
    if symbol is None:
        return ""
    if isinstance(symbol, str):
        text = symbol.strip().lower().lstrip("$").replace(",", "")
        if text in ("jackpot", "fixed prize", "fixed_prize", "top", "top_prize"):
            return "jackpot"
        from rulegen.money import parse_amount

        try:  # judged on its text first: "1e999999" is no amount, and never reaches the arithmetic
            return money_key(parse_amount(text, "a wheel symbol"))
        except ValueError:
            return text
    try:
        return money_key(symbol)
    except (ArithmeticError, ValueError):
        return str(symbol)


def _cited(jurisdiction: Jurisdiction, *keys: str) -> Cited:
    cited = jurisdiction.cited(*keys)
    if cited is None:
        raise InputError(f"the {jurisdiction.name} data has no {'.'.join(keys)}")
    return cited


def _money(value) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    return value if isinstance(value, Decimal) else Decimal(str(value))


def _text(value) -> str | None:
    return None if value is None else str(value)
