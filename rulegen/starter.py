"""A first offering in minutes: the combined schema of one jurisdiction, and a commented starter offering.

Layer: load (reads the shipped schemas and samples; judges nothing: the starter is validated by its tests).

The combined schema is the offering schema with one jurisdiction's constraints folded in, as one file with no
outside reference, for tools that want one file and for editors: a wager the jurisdiction does not authorize is
not among its properties at all (so an editor does not offer it), and each field's description carries the
jurisdiction's constraints with their citations (so hovering shows the rule and the clause).

The starter is the jurisdiction's bundled sample reduced to the main game plus the optional wagers asked for,
with placeholders for the operator and no sign-offs, every field preceded by a comment saying what it is and
which clause governs it, and a first line pointing the editor at the installed combined schema.
"""

from __future__ import annotations

import copy
import datetime
import json
import re
import textwrap
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from rulegen.errors import UsageError
from rulegen.resources import data_roots, schema_files, schemas_dir

BASE = "offering.schema.json"
OPTIONAL_WAGERS = {"five-card-bonus": "five_card_bonus", "bonus-spin": "bonus_spin", "six-card-bonus": "six_card_bonus"}
# `--with xtreme`: the Bonus Spin Xtreme wager (Maryland's alone; no bundled sample shows it) at its first paytable,
# as the text allows it: a $5 wager (Chapter 7 §E(2)(c); at $1 or $2 a pair-triggered spin paying at least $40 would
# return more than the wager), Hot Spot Paytable A (Chapter 12 §E(1)) with its own
# Community Prize Wheel designated (§E(13)(b), §E(14)), a qualifying event the Rules Submission states
# (§E(2)(c)), and a progressive top prize at the least initial and reset amounts for Paytable A (§E(11)(b)(i))
# with its rate of progression (§E(11)(a)). tests/test_starter.py validates it against the jurisdiction's rules.
XTREME = {"kind": "xtreme", "wager": 5, "paytable": "A", "community_pay": "A", "trigger": "pair_in_hole_cards",
          "top_prize": {"kind": "progressive", "initial": 2500, "reset": 1000,
                        "rate_of_progression_percent": Decimal("2.5")}}
# `--with` names of one kind of an optional wager: the wager's key, and the block the starter writes for it
WAGER_KINDS = {"xtreme": ("bonus_spin", XTREME)}
WITH_NAMES = (*OPTIONAL_WAGERS, *WAGER_KINDS)
COMBINED_FOLDER = "combined"


# A JSON Schema (or an offering's data) as read from JSON or YAML: open data, each reader checks what it needs.
Schema = dict[str, Any]
# A field's path in the schema: property names, "[]" for a list's items, ("*",) for the whole file.
SchemaPath = tuple[str, ...]


class StarterError(UsageError):
    """The starter cannot be written as asked; the message says why."""


def _read_json(path: Path) -> Schema:
    schema: Schema = json.loads(path.read_text(encoding="utf-8"))
    return schema


def jurisdiction_codes() -> list[str]:
    """Codes with a schema of their own beside the offering schema (the file name in upper case), shipped or in a
    `RULEGEN_DATA_PATH` folder."""
    return sorted(name.split(".")[0].upper() for name in schema_files()
                  if name != BASE and name != "jurisdiction.schema.json")


def _schema_path(code: str) -> Path:
    path = schema_files().get(f"{code.lower()}.schema.json")
    if code.upper() not in jurisdiction_codes() or path is None or not path.is_file():
        raise StarterError(f"no jurisdiction {code!r}; the jurisdictions are {', '.join(jurisdiction_codes())}")
    return path


def _local_refs(node: Any, base_name: str) -> Any:
    """Rewrite references into the offering schema (`offering.schema.json#/$defs/x`) as local ones."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                target, _, fragment = value.partition("#")
                if target in ("", base_name):
                    out[key] = "#" + fragment if fragment else "#"
                    continue
                raise StarterError(f"the schema refers to {value!r}, which the combined schema cannot hold")
            out[key] = _local_refs(value, base_name)
        return out
    if isinstance(node, list):
        return [_local_refs(item, base_name) for item in node]
    return node


def _constraint_words(fragment: Schema) -> str | None:
    message, citation = fragment.get("x-message"), fragment.get("x-citation")
    if not message:
        return None
    return f"{message} [{citation}]" if citation else message


def _fold(target: Schema, fragment: Schema, notes: dict[SchemaPath, list[str]], path: SchemaPath) -> None:
    """Fold one jurisdiction fragment into the schema node `target` (same meaning as `allOf: [target, fragment]`)."""
    for name, sub in fragment.get("properties", {}).items():
        properties = target.setdefault("properties", {})
        if sub.get("not") == {}:  # the jurisdiction forbids the field: drop it (the base forbids unknown keys)
            properties.pop(name, None)
            if name in target.get("required", []):
                target["required"] = [r for r in target["required"] if r != name]
            continue
        _fold(properties.setdefault(name, {}), sub, notes, path + (name,))
    if isinstance(fragment.get("items"), dict):
        _fold(target.setdefault("items", {}), fragment["items"], notes, path + ("[]",))
    rest = {k: v for k, v in fragment.items() if k not in ("properties", "items", "x-message", "x-citation")}
    if "required" in rest:
        target["required"] = sorted(set(target.get("required", [])) | set(rest.pop("required")))
    if rest:
        target.setdefault("allOf", []).append(rest)
    words = _constraint_words(fragment)
    if words:
        notes.setdefault(path, []).append(words)


def combined_schema(code: str) -> Schema:
    """One jurisdiction's schema as a single self-contained file (Draft 2020-12)."""
    base = copy.deepcopy(_read_json(schema_files()[BASE]))
    jurisdiction = _read_json(_schema_path(code))
    base.pop("allOf", None)  # the dispatch on offering.jurisdiction: here the jurisdiction is fixed
    base.pop("$id", None)
    schema: Schema = _local_refs(base, BASE)
    notes: dict[SchemaPath, list[str]] = {}
    for fragment in jurisdiction.get("allOf", []):
        fragment = _local_refs(fragment, BASE)
        if set(fragment) - {"properties", "x-message", "x-citation"}:
            schema.setdefault("allOf", []).append(fragment)  # conditional rules stay as they are
            words = _constraint_words(fragment.get("then", {})) if "then" in fragment else None
            if words:
                notes.setdefault(("*",), []).append(words)
            continue
        _fold(schema, fragment, notes, ())
    offering = schema["properties"]["offering"]["properties"]
    offering["jurisdiction"] = {**offering.get("jurisdiction", {}), "const": code.upper()}
    for path, constraints in notes.items():
        node = _node(schema, path)
        if node is None:
            continue
        lines = [node.get("description", "")] if node.get("description") else []
        lines += constraints
        node["description"] = "\n".join(lines)
    schema["title"] = f"Criss Cross Poker offering: {jurisdiction.get('title', code)}"
    return schema


def _node(schema: Schema, path: SchemaPath) -> Schema | None:
    if path == ("*",):
        return schema
    node = schema
    for step in path:
        child = node.get("items") if step == "[]" else node.get("properties", {}).get(step)
        if child is None:
            return None
        node = child
    return node


def combined_schema_text(code: str) -> str:
    return json.dumps(combined_schema(code), indent=2, ensure_ascii=False) + "\n"


def combined_schema_path(code: str) -> Path | None:
    """Where the installed combined schema of `code` is (written from `combined_schema`; a test keeps it so);
    None for a jurisdiction of a `RULEGEN_DATA_PATH` folder, which has none installed."""
    _schema_path(code)
    path = schemas_dir() / COMBINED_FOLDER / f"{code.lower()}.schema.json"
    return path if path.is_file() else None


# --- the starter offering --------------------------------------------------------------------------------------

def _sample(code: str) -> Schema:
    from rulegen.offering import load_offering

    samples = [path for root in data_roots() for path in sorted((root / "jurisdictions" / "samples").glob("*.yaml"))]
    for path in samples:
        offering = load_offering(path)
        if str(offering.data.get("offering", {}).get("jurisdiction", "")).upper() == code.upper():
            return offering.data
    raise StarterError(f"no bundled sample offering for {code}")


def _forbidden_words(code: str, key: str) -> str | None:
    for fragment in _read_json(_schema_path(code)).get("allOf", []):
        sub = fragment.get("properties", {}).get(key)
        if isinstance(sub, dict) and sub.get("not") == {}:
            return _constraint_words(sub)
    return None


def required_wagers(code: str) -> list[str]:
    """The optional wagers (by their `--with` names) that the jurisdiction requires every offering to offer."""
    required: set[str] = set()
    for fragment in _read_json(_schema_path(code)).get("allOf", []):
        if "if" not in fragment:
            required.update(fragment.get("required", []))
    return [name for name, key in OPTIONAL_WAGERS.items() if key in required]


def starter_data(code: str, wagers: list[str], today: datetime.date) -> Schema:
    wagers = list(dict.fromkeys([*required_wagers(code), *wagers]))
    schema = combined_schema(code)
    allowed = schema["properties"]
    sample = _sample(code)
    data: Schema = {}
    for key, value in sample.items():
        if key in OPTIONAL_WAGERS.values() or key == "signoff":
            continue
        data[key] = copy.deepcopy(value)
    data["offering"]["id"] = f"new-{code.lower()}-offering"
    data["offering"]["operator"] = {"name": "Operator name as printed",
                                    **({"licence": "Licence or certificate number"}
                                       if "licence" in sample["offering"].get("operator", {}) else {})}
    data["offering"]["version"] = 1
    data["offering"]["effective_date"] = today.isoformat()
    if "xtreme" in wagers:
        wagers = [wager for wager in wagers if wager != "bonus-spin"]  # the Xtreme wager is the table's Bonus Spin
    for wager in wagers:
        key = OPTIONAL_WAGERS[wager] if wager in OPTIONAL_WAGERS else WAGER_KINDS[wager][0]
        if key not in allowed:
            raise StarterError(_forbidden_words(code, key) or f"{code} does not authorize the "
                                                               f"{wager.replace('-', ' ')} wager")
        if wager in WAGER_KINDS:
            _kind_allowed(code, wager, allowed[key])
            data[key] = copy.deepcopy(WAGER_KINDS[wager][1])
            continue
        if key not in sample:
            raise StarterError(f"no bundled {code} sample shows the {wager.replace('-', ' ')} wager to start from")
        block = copy.deepcopy(sample[key])
        if isinstance(block, dict):
            block.pop("wheel", None)  # weights come from the manufacturer's par sheet, not from us
        data[key] = block
    ordered = {k: data[k] for k in list(allowed) if k in data}
    return ordered


def _kind_allowed(code: str, name: str, wager: Schema) -> None:
    """Refuse `--with xtreme` where the jurisdiction's wager is of another kind, in its schema's words."""
    kind = wager.get("properties", {}).get("kind", {})
    kinds = [str(rule["const"]) for rule in kind.get("allOf", []) if isinstance(rule, dict) and "const" in rule]
    kinds += [str(value) for value in kind.get("enum", [])] if not kinds else []
    if name not in kinds:
        words = kind.get("description", "").split("\n")[1:]
        raise StarterError(f"--with {name}: " + (" ".join(words) if words else f"{code} authorizes no {name} wager"))


_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .,()'/-]*$")


def _scalar(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    text = str(value)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return text
    if _PLAIN.match(text) and text.lower() not in ("true", "false", "null", "yes", "no", "on", "off", "y", "n"):
        return text
    return json.dumps(text, ensure_ascii=False)


def _flow(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)


def _comment(node: Schema | None, indent: str, width: int = 110) -> list[str]:
    if not node or not node.get("description"):
        return []
    lines = []
    for paragraph in node["description"].split("\n"):
        lines += textwrap.wrap(paragraph, width=width - len(indent) - 2) or [""]
    return [f"{indent}# {line}".rstrip() for line in lines]


def _emit(data: Schema, schema_node: Schema, indent: str = "") -> list[str]:
    out: list[str] = []
    properties = schema_node.get("properties", {})
    for key, value in data.items():
        sub = properties.get(key, {})
        out += _comment(sub, indent)
        if isinstance(value, dict) and sub.get("properties"):  # fields of their own: each gets its comment
            out.append(f"{indent}{key}:")
            out += _emit(value, sub, indent + "  ")
        elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
            out.append(f"{indent}{key}:")
            out += [f"{indent}  - {_flow(v)}" for v in value]
        else:
            out.append(f"{indent}{key}: {_flow(value)}")
        if not indent:
            out.append("")
    return out


def starter_text(code: str, wagers: list[str], today: datetime.date | None = None) -> str:
    code = code.upper()
    today = today or datetime.date.today()
    schema = combined_schema(code)
    data = starter_data(code, wagers, today)
    combined = combined_schema_path(code)
    head = [
        f"# yaml-language-server: $schema={combined.as_uri()}" if combined is not None else
        f"# For an editor's completion, write {code}'s schema to a file with `rulegen schema -j {code}` and name it "
        "on a first line `# yaml-language-server: $schema=FILE`.",
        f"# A Criss Cross Poker offering under {schema['title'].split(': ', 1)[-1]}, written by `rulegen init` as a "
        "starting point.",
        "# It validates as it stands (`rulegen validate FILE`). Replace the operator's details and every value the",
        "# operator chooses; the comment above each field says what it is and which clause governs it.",
        "",
    ]
    signoff = schema["properties"].get("signoff", {})
    tail = _comment(signoff, "") + [
        "# Add the three sign-offs when the submission is approved:",
        "# signoff:",
        "#   - {role: prepared, name: ..., title: ..., date: YYYY-MM-DD}",
        "#   - {role: reviewed, name: ..., title: ..., date: YYYY-MM-DD}",
        "#   - {role: approved, name: ..., title: ..., date: YYYY-MM-DD}",
    ]
    return "\n".join(head + _emit(data, schema) + tail) + "\n"


# --- the field reference ---------------------------------------------------------------------------------------

def _values(node: Schema, defs: Schema) -> str:
    ref = node.get("$ref", "")
    if ref.startswith("#/$defs/"):
        target = defs.get(ref.rsplit("/", 1)[1], {})
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    if "enum" in node:
        return " \\| ".join(f"`{v}`" for v in node["enum"])
    if "const" in node:
        return f"`{node['const']}`"
    kind = node.get("type")
    if kind == "number" and "maximum" in node and node.get("exclusiveMinimum") == 0 and ref.endswith("money"):
        return "dollars"
    if kind in ("integer", "number"):
        low = node.get("minimum", node.get("exclusiveMinimum"))
        high = node.get("maximum")
        bounds = f" {low}–{high}" if low is not None and high is not None else ""
        return ("whole number" if kind == "integer" else "number") + bounds
    if kind == "string":
        return "date" if node.get("format") == "date" else "text"
    if kind == "array":
        return "list"
    if kind == "object" or "properties" in node:
        return "mapping"
    if "oneOf" in node:
        return "name or table"
    return ""


def field_reference() -> str:
    """The README's field reference, in Markdown, generated from the offering schema and the jurisdictions'."""
    base = _read_json(schema_files()[BASE])
    defs = base.get("$defs", {})
    rows = ["| field | values | what it is | example |", "|---|---|---|---|"]

    def walk(node: Schema, path: str) -> None:
        for name, sub in node.get("properties", {}).items():
            dotted = f"{path}.{name}" if path else name
            example = sub.get("examples", [None])[0] if sub.get("examples") else None
            shown = f"`{json.dumps(example, ensure_ascii=False)}`" if example is not None else ""
            rows.append(f"| `{dotted}` | {_values(sub, defs)} | {sub.get('description', '')} | {shown} |")
            walk(sub, dotted)
            if isinstance(sub.get("items"), dict):
                walk(sub["items"], dotted + "[]")

    walk(base, "")
    lines = rows + [""]
    for code in jurisdiction_codes():
        jurisdiction = _read_json(_schema_path(code))
        lines.append(f"**{jurisdiction.get('title', code)}** adds:")
        lines.append("")
        for fragment in jurisdiction.get("allOf", []):
            for path, words in _fragment_rules(fragment, ""):
                lines.append(f"- `{path or '(the file)'}`: {words}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _fragment_rules(fragment: Schema, path: str) -> Iterator[tuple[str, str]]:
    words = _constraint_words(fragment)
    if words:
        yield path, words
    for name, sub in fragment.get("properties", {}).items():
        yield from _fragment_rules(sub, f"{path}.{name}" if path else name)
    if isinstance(fragment.get("items"), dict):
        yield from _fragment_rules(fragment["items"], path + "[]")
    for key in ("then", "else"):
        if isinstance(fragment.get(key), dict):
            yield from _fragment_rules(fragment[key], path)
