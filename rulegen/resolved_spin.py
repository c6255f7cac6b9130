"""The Bonus Spin's part of the resolved offering: the wheel's segments with the player and community pays from
the jurisdiction's table, the offering's weights, the top prize and the Community Prize Wheel.

Layer: as `rulegen.resolved`, which re-exports what is here (above load, `rulegen.jurisdiction` and `rulegen.game`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rulegen import game
from rulegen.errors import InputError
from rulegen.jurisdiction import Cited, Jurisdiction

DEFAULT_TRIGGER = "pair_in_hole_cards"


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
    weight: int | None = None  # a Community Prize Wheel: how often it stops here (bonus_spin.community_wheel)


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
    def community_wheel(self) -> bool:
        """The community pays come from a Community Prize Wheel of their own (MD's Xtreme wager)."""
        return self.kind == "xtreme" and bool(self.community_table)

    @property
    def community_weighted(self) -> bool:
        """Every amount of the Community Prize Wheel has its weight from the offering's `community_wheel`."""
        return self.community_wheel and all(row.weight is not None for row in self.community_table)

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


def bonus_spin_table(jurisdiction: Jurisdiction, spin: Mapping) -> Cited | None:
    """The jurisdiction's Bonus Spin table the offering names, or None where it authorizes no such table."""
    kind, name = str(spin.get("kind")), str(spin.get("paytable"))
    if name not in jurisdiction.bonus_spin_table_names(kind):
        return None
    return cited_or_error(jurisdiction, "bonus_spin", kind, "paytables", name)


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


def _weight(value) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


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
    community_weights = {money_key(seg.get("symbol")): seg.get("weight") for seg in (spin.get("community_wheel") or [])
                         if isinstance(seg, Mapping)}
    community_table = tuple(
        CommunityPay(symbols=tuple(money_or_none(s)
                                   for s in (row["symbols"] if row.get("symbols") else [row.get("symbol")])),
                     pays=Decimal(str(row["pays"])),
                     weight=_weight(community_weights.get(money_key(row.get("symbol") if row.get("symbol") is not None
                                                                    else (row.get("symbols") or [None])[0]))))
        for row in (community.value if community is not None and isinstance(community.value, list) else []))
    kind = str(spin.get("kind"))
    minimums = {key: jurisdiction.named("bonus_spin", kind, key, str(spin.get("paytable")))
                for key in ("minimum_initial", "minimum_reset")}
    return ResolvedBonusSpin(
        kind=str(spin.get("kind")), wager=Decimal(str(spin["wager"])), paytable=str(spin.get("paytable")),
        community_pay=spin.get("community_pay"), trigger=spin.get("trigger") or DEFAULT_TRIGGER,
        citation=table.citation, note=table.note, community_citation=community.citation if community else None,
        top_prize=TopPrize(kind=top.get("kind", "fixed"), initial=money_or_none(top.get("initial")),
                           reset=money_or_none(top.get("reset")),
                           rate_of_progression_percent=money_or_none(top.get("rate_of_progression_percent")),
                           description=text_or_none(top.get("description"))),
        segments=tuple(segments), hardware_approval=text_or_none(spin.get("hardware_approval")),
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


def money_or_none(value) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    return value if isinstance(value, Decimal) else Decimal(str(value))


def text_or_none(value) -> str | None:
    return None if value is None else str(value)


def cited_or_error(jurisdiction: Jurisdiction, *keys: str) -> Cited:
    cited = jurisdiction.cited(*keys)
    if cited is None:
        raise InputError(f"the {jurisdiction.name} data has no {'.'.join(keys)}")
    return cited
