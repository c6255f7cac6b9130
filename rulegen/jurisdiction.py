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

    def bonus_spin_table_names(self, kind: str) -> list[str]:
        """The Bonus Spin tables of one kind (`progressive`, `xtreme`); none where the wager is not authorized."""
        spin = (self.data.get("bonus_spin") or {}).get(kind) or {}
        return [str(name) for name in spin.get("paytables") or {}]

    def community_pay_tables(self, kind: str) -> dict:
        """The community-pay tables of one Bonus Spin kind, as the data keys them (by wager size, or by letter)."""
        spin = (self.data.get("bonus_spin") or {}).get(kind) or {}
        return dict(spin.get("community_pays") or {})

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
