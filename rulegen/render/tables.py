"""The offering's paytables and Bonus Spin tables as rows for the templates, read from the jurisdiction data.

A paytable is data the operator chose (a named table or one written out), not a computed figure: it is
read through `rulegen.jurisdiction` and laid out here in rank order, best hand first.
"""

from __future__ import annotations

from decimal import Decimal

from rulegen import jurisdiction as juris
from rulegen import vocabulary
from rulegen.render.filters import money

HAND_ORDER = vocabulary.HANDS
WAGER_NAMES = vocabulary.WAGER_NAMES


def rows(mapping: dict) -> list[dict]:
    """[{hand, pays}] best hand first; `pays` is a number (N to 1) or the word push, as written."""
    ordered = sorted(mapping.items(), key=lambda item: HAND_ORDER.index(item[0]) if item[0] in HAND_ORDER else 99)
    return [{"hand": hand, "pays": pays} for hand, pays in ordered]


def _plain(value):
    if isinstance(value, str):
        return value
    return Decimal(str(value))


def paytable(jurisdiction, kind: str, choice) -> dict | None:
    """{name, citation, rows, written_out} for one paytable choice of the offering, or None if not offered."""
    if choice is None:
        return None
    table, name, citation = juris.resolve_paytable(jurisdiction, kind, choice)
    if table is None:
        return None
    source = choice if isinstance(choice, dict) else jurisdiction.paytable(kind, name).value
    return {
        "kind": kind,
        "name": name,
        "citation": citation,
        "written_out": isinstance(choice, dict),
        "rows": rows({str(k): _plain(v) for k, v in source.items()}),
    }


def _money(value) -> str:
    return money(Decimal(str(value))) if value is not None else "—"


def offering_paytables(offering_data: dict, jurisdiction) -> dict:
    tables = offering_data.get("paytables") or {}
    five = offering_data.get("five_card_bonus")
    six = offering_data.get("six_card_bonus")
    return {
        "criss_cross": paytable(jurisdiction, "criss_cross", tables.get("criss_cross", "standard")),
        "ante": paytable(jurisdiction, "ante", tables.get("ante", "standard")),
        "five_card_bonus": paytable(jurisdiction, "five_card_bonus", five.get("paytable")) if five else None,
        "six_card_bonus": paytable(jurisdiction, "six_card_bonus", six.get("paytable")) if six else None,
    }


def bonus_spin(offering_data: dict, jurisdiction) -> dict | None:
    """The Bonus Spin wheel table as offered: segments with player and community pays, and its citations."""
    spin = offering_data.get("bonus_spin")
    if not spin:
        return None
    table = juris.bonus_spin_table(jurisdiction, spin)
    community = juris.community_pay_table(jurisdiction, spin)
    resolved = juris.bonus_spin_for(offering_data, jurisdiction)
    positions = {}
    if table is not None:
        for row in table.value.get("symbols", []):
            positions[juris._symbol_key(row.get("symbol"))] = row.get("position")
    segments = []
    for segment in resolved.segments:
        segments.append({
            "symbol": segment.symbol,
            "jackpot": segment.symbol == "jackpot",
            "pays": segment.pays,
            "community": segment.community,
            "weight": segment.weight,
            "position": positions.get(segment.symbol),
        })
    top = spin.get("top_prize") or {}
    community_rows = []
    community_caption = None
    if community is not None and isinstance(community.value, list):
        for row in community.value:
            symbols = row.get("symbols")
            text = " / ".join(_money(s) for s in symbols) if symbols else _money(row.get("symbol"))
            community_rows.append({"symbol": text, "pays": Decimal(str(row["pays"]))})
        designated = spin.get("community_pay")
        if spin.get("kind") == "xtreme":
            community_caption = f"Community Prize Wheel {designated}, designated in this submission"
        else:
            community_caption = (f"Community-pay table {designated} for a {_money(spin.get('wager'))} wager, designated in "
                                 "this submission")
    letter = str(spin.get("paytable"))
    minimums = {}
    for key in ("minimum_initial", "minimum_reset"):
        found = jurisdiction.cited("bonus_spin", str(spin.get("kind")), key, letter)
        minimums[key] = {"value": found.value, "citation": found.citation} if found is not None else None
    return {
        **minimums,
        "kind": spin.get("kind"),
        "kind_name": vocabulary.BONUS_SPIN_KINDS.get(str(spin.get("kind")), str(spin.get("kind"))),
        "community_rows": community_rows,
        "community_caption": community_caption,
        "wager": Decimal(str(spin.get("wager"))),
        "paytable": str(spin.get("paytable")),
        "community_pay": spin.get("community_pay"),
        "trigger": spin.get("trigger") or "pair_in_hole_cards",
        "citation": table.citation if table else None,
        "note": table.note if table else None,
        "community_citation": community.citation if community else None,
        "top_prize": {"kind": top.get("kind", "fixed"), "initial": top.get("initial"), "reset": top.get("reset"),
                      "rate_of_progression_percent": top.get("rate_of_progression_percent")},
        "segments": segments,
        "weighted": all(s["weight"] is not None for s in segments) and bool(segments),
        "has_community": any(s["community"] is not None for s in segments),
        "has_positions": any(s["position"] is not None for s in segments),
        "hardware_approval": spin.get("hardware_approval"),
    }
