"""Jurisdiction data: each jurisdiction's rules as cited values, read from `jurisdictions/<code>.yaml`.

A "cited value" is a mapping `{value: ..., citation: ...}` (plus optional `effective`, `note`, `reading`);
jurisdictions/README.md documents the format. This module reads the files and answers the questions the
other layers ask of them (which paytables are authorized, what a named table holds, what the payout
limit covers) without knowing which jurisdiction it is talking about: adding a state is adding data.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

from rulegen.errors import InputError
from rulegen.resources import jurisdictions_dir

CODES = ("MD", "NJ", "PA", "HOUSE")
FORMAT = "offering format"


@dataclass(frozen=True)
class Cited:
    value: Any
    citation: str
    note: str | None = None
    reading: str | None = None
    effective: str | None = None


@dataclass(frozen=True)
class Jurisdiction:
    code: str
    data: dict
    sha256: str

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def operator_term(self) -> str:
        return self.data["operator_term"]["value"]

    def cited(self, *keys: str) -> Cited | None:
        """The cited value at `keys` (e.g. `cited("rules", "positions")`), or None where the data has none."""
        node: Any = self.data
        for key in keys:
            if not isinstance(node, dict) or key not in node or node[key] is None:
                return None
            node = node[key]
        if not isinstance(node, dict) or "citation" not in node:
            return None
        return Cited(node.get("value"), node["citation"], node.get("note"), node.get("reading"),
                     _text(node.get("effective")))

    def rule(self, key: str) -> Cited | None:
        return self.cited("rules", key)

    def paytable_names(self, kind: str) -> list[str]:
        tables = (self.data.get("paytables") or {}).get(kind) or {}
        return [str(name) for name in tables]

    def paytable(self, kind: str, name: str) -> Cited | None:
        return self.cited("paytables", kind, str(name))

    def readings(self) -> list[dict]:
        return list(self.data.get("readings") or [])

    def reading(self, key: str) -> dict | None:
        for entry in self.readings():
            if entry.get("key") == key:
                return entry
        return None


def _text(value) -> str | None:
    return None if value is None else str(value)


@cache
def load_jurisdiction(code: str) -> Jurisdiction:
    from ruamel.yaml import YAML

    if code not in CODES:
        raise InputError(f"unknown jurisdiction {code!r}; rulegen knows {', '.join(CODES)}")
    path = jurisdictions_dir() / f"{code.lower()}.yaml"
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise InputError(f"the jurisdiction data {path} cannot be read: {exc.strerror or exc}") from None
    data = YAML(typ="safe", pure=True).load(source)
    return Jurisdiction(code, _plain(data), hashlib.sha256(source).hexdigest())


def _plain(node):
    """Dates in the data become ISO text, so the data is JSON-able like an offering's."""
    import datetime as _dt

    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, (_dt.date, _dt.datetime)):
        return node.isoformat()
    if isinstance(node, float):
        return Decimal(repr(node))
    return node


def jurisdiction_for(offering_data: dict) -> Jurisdiction:
    code = (offering_data.get("offering") or {}).get("jurisdiction")
    if code not in CODES:
        raise InputError(f"offering.jurisdiction must be one of {', '.join(CODES)}")
    return load_jurisdiction(code)


def data_fingerprint() -> str:
    """SHA-256 over every jurisdiction file and schema shipped, for manifests and caches."""
    from rulegen.resources import schemas_dir

    digest = hashlib.sha256()
    for folder in (jurisdictions_dir(), schemas_dir()):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and "samples" not in p.parts):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


# --- paytables -------------------------------------------------------------------------------------------------

def odds_mapping(mapping: dict) -> dict:
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
    Returns (table, None, None) for a written-out table that matches none.
    """
    if isinstance(choice, str):
        cited = jurisdiction.paytable(kind, choice)
        if cited is None:
            return None, None, None
        return odds_mapping(cited.value), choice, cited.citation
    table = odds_mapping(choice)
    for name in jurisdiction.paytable_names(kind):
        cited = jurisdiction.paytable(kind, name)
        if cited is not None and payout_vector(odds_mapping(cited.value)) == payout_vector(table):
            return table, name, cited.citation
    return table, None, None


def payout_vector(table: dict) -> tuple:
    """What a table pays for each pay class, weakest first (-1 lose, 0 push, N for N to 1)."""
    from rulegen.game import Paytable
    from rulegen.evaluator import PAY_CLASSES

    paytable = Paytable.from_mapping(table)
    return tuple(paytable.payout(index) for index in range(len(PAY_CLASSES)))


def game_rules_for(offering_data: dict):
    """The offering's paytables, Bonus Spin and payout limit resolved to `rulegen.game.GameRules`.

    The offering must have validated: a name that resolves to no table raises InputError here.
    """
    from rulegen import game

    jurisdiction = jurisdiction_for(offering_data)
    tables = offering_data.get("paytables") or {}

    def resolved(kind: str, choice):
        table, _name, _citation = resolve_paytable(jurisdiction, kind, choice)
        if table is None:
            raise InputError(f"the {kind} paytable {choice!r} is not one {jurisdiction.name} authorizes")
        return game.Paytable.from_mapping(table)

    criss_cross = resolved("criss_cross", tables.get("criss_cross", "standard"))
    ante = resolved("ante", tables.get("ante", "standard"))
    five = offering_data.get("five_card_bonus")
    six = offering_data.get("six_card_bonus")
    five_card_bonus = resolved("five_card_bonus", five["paytable"]) if five else None
    six_card_bonus = resolved("six_card_bonus", six["paytable"]) if six else None
    bonus_spin = bonus_spin_for(offering_data, jurisdiction) if offering_data.get("bonus_spin") else None

    payout_limit = None
    limit = offering_data.get("payout_limit")
    if limit:
        covers = jurisdiction.cited("payout_limit", "covers")
        payout_limit = game.PayoutLimit(Decimal(str(limit["amount"])), frozenset(covers.value if covers else ()))

    notes = tuple(entry["reading"] for entry in jurisdiction.readings()
                  if entry.get("key") in ("middle_both_push", "bonus_spin_after_fold", "ante_table")
                  and entry.get("reading"))
    return game.GameRules(criss_cross=criss_cross, ante=ante, five_card_bonus=five_card_bonus,
                          six_card_bonus=six_card_bonus, bonus_spin=bonus_spin, payout_limit=payout_limit,
                          notes=notes)


def bonus_spin_table(jurisdiction: Jurisdiction, spin: dict) -> Cited | None:
    kind = spin.get("kind")
    return jurisdiction.cited("bonus_spin", str(kind), "paytables", str(spin.get("paytable")))


def community_pay_table(jurisdiction: Jurisdiction, spin: dict) -> Cited | None:
    """The designated community-pay table, for the wager's size where the jurisdiction keys them so."""
    kind, designated = str(spin.get("kind")), spin.get("community_pay")
    if designated is None:
        return None
    pays = (((jurisdiction.data.get("bonus_spin") or {}).get(kind) or {}).get("community_pays")) or {}
    wager = _money_key(spin.get("wager"))
    if wager in pays and isinstance(pays[wager], dict) and str(designated) in pays[wager]:
        return jurisdiction.cited("bonus_spin", kind, "community_pays", wager, str(designated))
    return jurisdiction.cited("bonus_spin", kind, "community_pays", str(designated))


def _money_key(amount) -> str:
    if amount is None:
        return ""
    value = Decimal(str(amount))
    return str(int(value)) if value == value.to_integral_value() else str(value)


def bonus_spin_for(offering_data: dict, jurisdiction: Jurisdiction | None = None):
    """The Bonus Spin wager as `rulegen.game.BonusSpin`: the wheel's segments with the player and community pays.

    Segments come from the jurisdiction's paytable; weights only from the offering's `wheel` (the
    manufacturer's par sheet). Without weights, no segment has a weight and no return can be computed.
    """
    from rulegen import game

    jurisdiction = jurisdiction or jurisdiction_for(offering_data)
    spin = offering_data["bonus_spin"]
    table = bonus_spin_table(jurisdiction, spin)
    if table is None:
        raise InputError(f"the Bonus Spin paytable {spin.get('paytable')!r} is not one {jurisdiction.name} authorizes")
    community = community_pay_table(jurisdiction, spin)
    community_by_symbol: dict[str, Decimal] = {}
    if community is not None:
        for row in community.value:
            symbols = row.get("symbols") or []
            if symbols:
                community_by_symbol[_money_key(symbols[0])] = Decimal(str(row["pays"]))
    weights = {_symbol_key(seg.get("symbol")): seg for seg in (spin.get("wheel") or [])}
    segments = []
    for row in table.value.get("symbols", []):
        symbol = _symbol_key(row.get("symbol"))
        pays = None if row.get("pays") is None else Decimal(str(row["pays"]))
        community_pay = row.get("community")
        community_pay = Decimal(str(community_pay)) if community_pay is not None else community_by_symbol.get(symbol)
        given = weights.get(symbol)
        if given is not None and given.get("community") is not None:
            community_pay = Decimal(str(given["community"]))
        segments.append(game.WheelSegment(symbol=symbol, pays=pays, community=community_pay,
                                          weight=int(given["weight"]) if given else None))
    top = spin.get("top_prize") or {}
    top_amount = top.get("initial")
    return game.BonusSpin(wager=Decimal(str(spin["wager"])), trigger=spin.get("trigger") or "pair_in_hole_cards",
                          segments=tuple(segments), top_prize_kind=top.get("kind", "fixed"),
                          top_prize_amount=Decimal(str(top_amount)) if top_amount is not None else None)


def _symbol_key(symbol) -> str:
    if symbol is None:
        return ""
    if isinstance(symbol, str):
        text = symbol.strip().lower().lstrip("$").replace(",", "")
        if text in ("jackpot", "fixed prize", "fixed_prize", "top", "top_prize"):
            return "jackpot"
        try:
            return _money_key(Decimal(text))
        except Exception:
            return text
    return _money_key(symbol)
