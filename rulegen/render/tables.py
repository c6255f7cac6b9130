"""The offering's paytables and Bonus Spin tables as rows for the templates, read from the resolved offering.

A paytable is data the operator chose (a named table or one written out), not a computed figure: it is
resolved once (`rulegen.resolved`) and laid out here in rank order, best hand first.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from rulegen import vocabulary, wagers
from rulegen.render.filters import money

if TYPE_CHECKING:
    from rulegen.jurisdiction import Cited
    from rulegen.resolved import ResolvedOffering, ResolvedPaytable

HAND_ORDER = vocabulary.HANDS
WAGER_NAMES = vocabulary.WAGER_NAMES


Pays = Decimal | str  # N (for N to 1) or the word push, as the offering or the data writes it


class PaytableRow(TypedDict):
    hand: str
    pays: Pays


class PaytableView(TypedDict):
    kind: str
    name: str | None
    label: str | None
    citation: str | None
    written_out: bool
    rows: list[PaytableRow]


class SegmentRow(TypedDict):
    symbol: str
    jackpot: bool
    pays: Decimal | None
    community: Decimal | None
    weight: int | None
    position: object


class CommunityRow(TypedDict):
    symbol: str
    pays: Decimal
    weight: int | None


class MinimumView(TypedDict):
    value: object
    citation: str


class TopPrizeView(TypedDict):
    kind: str
    initial: Decimal | None
    reset: Decimal | None
    rate_of_progression_percent: Decimal | None
    description: str | None


class BonusSpinView(TypedDict):
    """The Bonus Spin table as the rules, the sign and the appendix lay it out."""

    minimum_initial: MinimumView | None
    minimum_reset: MinimumView | None
    kind: str
    kind_name: str
    community_rows: list[CommunityRow]
    community_caption: str | None
    wager: Decimal
    paytable: str
    community_pay: str | None
    trigger: str
    citation: str
    note: str | None
    community_citation: str | None
    top_prize: TopPrizeView
    segments: list[SegmentRow]
    weighted: bool
    has_community: bool
    has_positions: bool
    hardware_approval: str | None
    wager_on_win: dict[str, Any] | None  # the jurisdiction's cited value: is a winning wager collected or returned


def rows(mapping: Mapping[str, Pays]) -> list[PaytableRow]:
    """[{hand, pays}] best hand first; `pays` is a number (N to 1) or the word push, as written."""
    ordered = sorted(mapping.items(), key=lambda item: HAND_ORDER.index(item[0]) if item[0] in HAND_ORDER else 99)
    return [{"hand": hand, "pays": pays} for hand, pays in ordered]


def paytable(table: ResolvedPaytable | None) -> PaytableView | None:
    """{kind, name, citation, rows, written_out} for one paytable of the offering, or None if not offered."""
    if table is None:
        return None
    return {
        "kind": table.kind,
        "name": table.name,
        "label": table.label,
        "citation": table.citation,
        "written_out": table.written_out,
        "rows": rows(dict(table.entries)),
    }


def _money(value: Decimal | None) -> str:
    return money(Decimal(str(value))) if value is not None else "—"


def _minimum(found: Cited | None) -> MinimumView | None:
    return {"value": found.value, "citation": found.citation} if found is not None else None


def offering_paytables(offering: ResolvedOffering) -> dict[str, PaytableView | None]:
    """Each paytable kind of the resolved offering as rows (None for a side wager not offered)."""
    return {kind: paytable(table) for kind, table in offering.paytables.items()}


def added_wagers(offering: ResolvedOffering) -> dict[str, dict[str, Any]]:
    """Each side wager a data folder adds (rulegen.wagers) that the offering offers: its name, its wager range and
    its own templates, `wagers/<key>/rules.html` (its rules, its paytable among them) and `wagers/<key>/sign.html`
    (the line under its table on the sign)."""
    return {key: {"key": key, "name": wagers.kind(key).name, "minimum": wager.minimum, "maximum": wager.maximum,
                  "rules": f"wagers/{key}/rules.html", "sign": f"wagers/{key}/sign.html"}
            for key, wager in offering.side_wagers}


def _spin_name(offering: ResolvedOffering, kind: str) -> str:
    """The Bonus Spin wager's name as its jurisdiction's text gives it, else the product's name for the kind."""
    spec = (offering.jurisdiction.data.get("bonus_spin") or {}).get(kind) or {}
    name = spec.get("name") if isinstance(spec, dict) else None
    if isinstance(name, dict) and name.get("value"):
        return str(name["value"])
    return vocabulary.BONUS_SPIN_KINDS.get(kind, kind)


def bonus_spin(offering: ResolvedOffering) -> BonusSpinView | None:
    """The Bonus Spin wheel table as offered: segments with player and community pays, and its citations."""
    spin = offering.bonus_spin
    if spin is None:
        return None
    segments: list[SegmentRow] = [{"symbol": s.symbol, "jackpot": s.jackpot, "pays": s.pays, "community": s.community,
                 "weight": s.weight, "position": s.position} for s in spin.segments]
    community_rows: list[CommunityRow] = [{"symbol": " / ".join(_money(s) for s in row.symbols), "pays": row.pays,
                                           "weight": row.weight} for row in spin.community_table]
    community_caption = None
    if spin.community_citation is not None:
        designated = spin.community_pay
        if spin.kind == "xtreme":
            community_caption = f"Community Prize Wheel {designated}, designated in this submission"
        else:
            community_caption = (f"Community-pay table {designated} for a {_money(spin.wager)} wager, designated in "
                                 "this submission")
    top = spin.top_prize
    return {
        "minimum_initial": _minimum(spin.minimum_initial),
        "minimum_reset": _minimum(spin.minimum_reset),
        "kind": spin.kind,
        "kind_name": _spin_name(offering, spin.kind),
        "community_rows": community_rows,
        "community_caption": community_caption,
        "wager": spin.wager,
        "paytable": spin.paytable,
        "community_pay": spin.community_pay,
        "trigger": spin.trigger,
        "citation": spin.citation,
        "note": spin.note,
        "community_citation": spin.community_citation,
        "top_prize": {"kind": top.kind, "initial": top.initial, "reset": top.reset,
                      "rate_of_progression_percent": top.rate_of_progression_percent, "description": top.description},
        "segments": segments,
        "weighted": spin.weighted,
        "has_community": spin.has_community,
        "has_positions": spin.has_positions,
        "hardware_approval": spin.hardware_approval,
        "wager_on_win": _wager_on_win(offering, spin.kind),
    }


def _wager_on_win(offering: ResolvedOffering, kind: str) -> dict[str, Any] | None:
    on_win = offering.jurisdiction.cited("bonus_spin", kind, "wager_on_win")
    if on_win is None:
        return None
    return {"value": on_win.value, "citation": on_win.citation, "reading": on_win.reading}
