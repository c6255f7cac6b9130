"""The offering's paytables and Bonus Spin tables as rows for the templates, read from the resolved offering.

A paytable is data the operator chose (a named table or one written out), not a computed figure: it is
resolved once (`rulegen.resolved`) and laid out here in rank order, best hand first.
"""

from __future__ import annotations

from decimal import Decimal

from rulegen import vocabulary
from rulegen.render.filters import money

HAND_ORDER = vocabulary.HANDS
WAGER_NAMES = vocabulary.WAGER_NAMES


def rows(mapping: dict) -> list[dict]:
    """[{hand, pays}] best hand first; `pays` is a number (N to 1) or the word push, as written."""
    ordered = sorted(mapping.items(), key=lambda item: HAND_ORDER.index(item[0]) if item[0] in HAND_ORDER else 99)
    return [{"hand": hand, "pays": pays} for hand, pays in ordered]


def paytable(table) -> dict | None:
    """{kind, name, citation, rows, written_out} for one paytable of the offering, or None if not offered."""
    if table is None:
        return None
    return {
        "kind": table.kind,
        "name": table.name,
        "citation": table.citation,
        "written_out": table.written_out,
        "rows": rows(dict(table.entries)),
    }


def _money(value) -> str:
    return money(Decimal(str(value))) if value is not None else "—"


def offering_paytables(offering) -> dict:
    """Each paytable kind of the resolved offering as rows (None for a side wager not offered)."""
    return {kind: paytable(table) for kind, table in offering.paytables.items()}


def bonus_spin(offering) -> dict | None:
    """The Bonus Spin wheel table as offered: segments with player and community pays, and its citations."""
    spin = offering.bonus_spin
    if spin is None:
        return None
    segments = [{"symbol": s.symbol, "jackpot": s.jackpot, "pays": s.pays, "community": s.community,
                 "weight": s.weight, "position": s.position} for s in spin.segments]
    community_rows = [{"symbol": " / ".join(_money(s) for s in row.symbols), "pays": row.pays}
                      for row in spin.community_table]
    community_caption = None
    if spin.community_citation is not None:
        designated = spin.community_pay
        if spin.kind == "xtreme":
            community_caption = f"Community Prize Wheel {designated}, designated in this submission"
        else:
            community_caption = (f"Community-pay table {designated} for a {_money(spin.wager)} wager, designated in "
                                 "this submission")
    minimums = {key: ({"value": found.value, "citation": found.citation} if found is not None else None)
                for key, found in (("minimum_initial", spin.minimum_initial), ("minimum_reset", spin.minimum_reset))}
    top = spin.top_prize
    return {
        **minimums,
        "kind": spin.kind,
        "kind_name": vocabulary.BONUS_SPIN_KINDS.get(spin.kind, spin.kind),
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
                      "rate_of_progression_percent": top.rate_of_progression_percent},
        "segments": segments,
        "weighted": spin.weighted,
        "has_community": spin.has_community,
        "has_positions": spin.has_positions,
        "hardware_approval": spin.hardware_approval,
    }
