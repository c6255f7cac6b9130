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
from functools import cache
from typing import Any

from rulegen.errors import InputError
from rulegen.resources import jurisdiction_files, jurisdictions_dir, schema_files, wager_files

FORMAT = "offering format"
# The payout-limit rules that set the limit by their own force, so that an offering stating none has the rule's
# figure (filled in by math.report.with_limit_by_rule): New Jersey's "shall be" the greater figure (N.J.A.C.
# 13:69F-40.11(d)). Maryland's "may not exceed" sets only a ceiling (MLGCA Chapter 12 §B), so a Maryland offering
# states its limit; Pennsylvania's limit is optional (§ 674a.12(d)); a house cap is the card room's own.
LIMIT_SET_BY_RULE = ("equals_greater_of",)
SCHEMA_FILE = "jurisdiction.schema.json"


class JurisdictionDataError(InputError):
    """A jurisdiction's data file is not in the data format, or a key asked of it does not exist (exit 2)."""


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
        """The cited value at `keys` (e.g. `cited("rules", "positions")`).

        None only where the data says there is none: a `null` on the way (`bonus_spin: null`, `house_limits:
        null`). A key the data does not have, or a node that is not a cited value, raises
        JurisdictionDataError: a misspelled key is an error, never a rule silently skipped.
        """
        node: Any = self.data
        for index, key in enumerate(keys):
            if node is None:
                return None
            if not isinstance(node, dict) or key not in node:
                raise JurisdictionDataError(f"the {self.code} data has no {'.'.join(keys[:index + 1])}")
            node = node[key]
        if node is None:
            return None
        if not isinstance(node, dict) or "citation" not in node:
            raise JurisdictionDataError(f"the {self.code} data's {'.'.join(keys)} is not a cited value")
        return Cited(node.get("value"), node["citation"], node.get("note"), node.get("reading"),
                     _text(node.get("effective")))

    def named(self, *keys: str) -> Cited | None:
        """The cited value an offering names by its last key (a table letter, a wager size), or None where the
        data has no entry of that name: for lookups whose last key comes from the offering, not the format."""
        node: Any = self.data
        for key in keys[:-1]:
            if not isinstance(node, dict) or node.get(key) is None:
                return None
            node = node[key]
        if not isinstance(node, dict) or keys[-1] not in node:
            return None
        return self.cited(*keys)

    def rule(self, key: str) -> Cited | None:
        return self.cited("rules", key)

    def paytable_names(self, kind: str) -> list[str]:
        tables = (self.data.get("paytables") or {}).get(kind) or {}
        return [str(name) for name in tables]

    def paytable(self, kind: str, name: str) -> Cited | None:
        return self.named("paytables", kind, str(name))

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


def codes() -> tuple[str, ...]:
    """Every jurisdiction rulegen knows: the shipped data files and those of `RULEGEN_DATA_PATH`'s folders, each
    named by its file's name in upper case."""
    return tuple(jurisdiction_files())


MAX_DATA_BYTES = 8 * 1024 * 1024  # a jurisdiction's data file (the shipped ones are under 100 kB)


def load_jurisdiction(code: str) -> Jurisdiction:
    """The jurisdiction's data, checked against `schemas/jurisdiction.schema.json` as it loads."""
    files = jurisdiction_files()
    path = files.get(str(code))
    if path is None:
        raise InputError(f"unknown jurisdiction {code!r}; rulegen knows {', '.join(files)}")
    from rulegen.safeio import UnsafeFile, read_regular

    try:  # as every input file: one non-blocking open of a regular file (a data folder's may be a link), bounded
        source = read_regular(path, MAX_DATA_BYTES, follow_symlinks=True)
    except UnsafeFile as exc:
        raise InputError(f"the jurisdiction data {path} cannot be read: {exc.reason}") from None
    wagers = tuple((key, str(where), where.read_bytes()) for key, where in wager_files().items())
    return _load(str(code), str(path), source, wagers)


@cache
def _load(code: str, path: str, source: bytes, wagers: tuple[tuple[str, str, bytes], ...] = ()) -> Jurisdiction:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        # Data, not an offering: ruamel.yaml's C parser when installed (its Python resolver types the values either
        # way; tests/test_jurisdiction_data.py holds the two parsers to the same data).
        data = _plain(YAML(typ="safe").load(source))
    except YAMLError as exc:
        raise JurisdictionDataError(f"{path}: not readable YAML: {exc}") from None
    problems = _schema_problems(data)
    if problems:
        raise JurisdictionDataError(f"{path} does not match the jurisdiction data format "
                                    f"(schemas/jurisdiction.schema.json):\n" + "\n".join(problems))
    if data["code"] != code:
        raise JurisdictionDataError(f"{path}: code is {data['code']!r}, but a jurisdiction's code is its file's name "
                                    f"in upper case ({code!r})")
    digest = hashlib.sha256(source)
    for key, where, wager_source in wagers:
        if _authorize_wager(data, code, key, where, wager_source):
            digest.update(b"\0" + wager_source)  # the data this jurisdiction holds includes the wager's file
    return Jurisdiction(code, data, digest.hexdigest())


def _authorize_wager(data: dict, code: str, key: str, where: str, source: bytes) -> bool:
    """A side wager a data folder adds (`wagers/<key>.yaml`, rulegen.wagers) carries, per jurisdiction code, the
    cited authorization of the wager and its authorized paytables; they join this jurisdiction's `wagers` and
    `paytables` as if its own file listed them. False where the wager's file says nothing of this jurisdiction."""
    from jsonschema import Draft202012Validator
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        wager = _plain(YAML(typ="safe").load(source))
    except YAMLError as exc:
        raise JurisdictionDataError(f"{where}: not readable YAML: {exc}") from None
    entry = ((wager.get("jurisdictions") or {}) if isinstance(wager, dict) else {}).get(code)
    if entry is None:
        return False
    schema = {"$defs": _jurisdiction_schema()["$defs"], "type": "object", "additionalProperties": False,
              "required": ["wager", "paytables"],
              "properties": {"wager": {"$ref": "#/$defs/cited"},
                             "paytables": {"type": "object", "minProperties": 1,
                                           "additionalProperties": {"$ref": "#/$defs/cited"}}}}
    errors = sorted(Draft202012Validator(schema).iter_errors(entry), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        raise JurisdictionDataError(f"{where}: jurisdictions.{code} is not a cited authorization:\n" + "\n".join(
            f"  {'.'.join(map(str, e.absolute_path)) or code}: {e.message}" for e in errors))
    if key in data["wagers"] or key in data["paytables"]:
        raise JurisdictionDataError(f"{where}: the {code} data already has a wager or paytables named {key}")
    data["wagers"][key] = entry["wager"]
    data["paytables"][key] = entry["paytables"]
    return True


def _schema_problems(data) -> list[str]:
    from jsonschema import Draft202012Validator, FormatChecker

    validator = Draft202012Validator(_jurisdiction_schema(), format_checker=FormatChecker())
    found = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        where = ".".join(str(part) for part in error.absolute_path) or "the top level"
        found.append(f"  {where}: {error.message}")
    return found


@cache
def _jurisdiction_schema() -> dict:
    import json

    path = schema_files().get(SCHEMA_FILE)
    if path is None:
        raise JurisdictionDataError(f"the schema {SCHEMA_FILE} is missing")
    schema: dict = json.loads(path.read_text(encoding="utf-8"))
    return schema


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
    known = codes()
    if code not in known:
        raise InputError(f"offering.jurisdiction must be one of {', '.join(known)}")
    return load_jurisdiction(code)


COMMON = ("jurisdictions", "common")  # data every jurisdiction shares, each file with its schema in schemas/common/


def common_data(name: str) -> dict:
    """`jurisdictions/common/<name>.yaml` from the first data folder that has it, checked against
    `schemas/common/<name>.schema.json` (JurisdictionDataError where it is missing or out of its format)."""
    import json

    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    from rulegen.resources import data_roots

    where, schema_where = f"jurisdictions/common/{name}.yaml", f"schemas/common/{name}.schema.json"
    path = next((p for p in (root / where for root in data_roots()) if p.is_file()), None)
    schema_path = next((p for p in (root / schema_where for root in data_roots()) if p.is_file()), None)
    if path is None or schema_path is None:
        raise JurisdictionDataError(f"the shared data {where} or its schema {schema_where} is missing")
    try:
        data = _plain(YAML(typ="safe").load(path.read_bytes()))
    except YAMLError as exc:
        raise JurisdictionDataError(f"{path}: not readable YAML: {exc}") from None
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(json.loads(schema_path.read_text(encoding="utf-8"))).iter_errors(data),
                    key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        raise JurisdictionDataError(f"{path} does not match {schema_where}:\n" + "\n".join(
            f"  {'.'.join(map(str, e.absolute_path)) or 'the top level'}: {e.message}" for e in errors))
    result: dict = data
    return result


@dataclass(frozen=True)
class StandardGame:
    """The game settled without an offering (`jurisdictions/common/standard.yaml`): the tables named `standard`
    in each listed jurisdiction's data, and the readings its settlement carries."""

    description: str
    jurisdictions: tuple[str, ...]
    paytables: tuple[str, ...]
    readings: tuple[str, ...]


def standard_game() -> StandardGame:
    """The standard game's data (`jurisdictions/common/standard.yaml`), checked against its schema."""
    data = common_data("standard")
    return StandardGame(str(data["description"]), tuple(data["jurisdictions"]), tuple(data["paytables"]),
                        tuple(str(entry["reading"]) for entry in data["readings"]))


def data_fingerprint() -> str:
    """SHA-256 over every jurisdiction file and schema shipped, for manifests and caches."""
    from rulegen.resources import schemas_dir

    digest = hashlib.sha256()
    for folder in (jurisdictions_dir(), schemas_dir()):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and "samples" not in p.parts):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()
