"""The JSON Schemas (Draft 2020-12) of the offering format and each jurisdiction, and their errors in words.

Each schema constraint carries `x-citation` (the clause it encodes), `x-message` (what the rule says, in
words) and, in the jurisdiction schemas, `x-rule` (the slug of its rule code); a constraint without them
is a rule of the offering format.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from decimal import Decimal
from functools import cache
from pathlib import Path

from rulegen.findings import Finding, dotted
from rulegen.jurisdiction import FORMAT, Jurisdiction, codes
from rulegen.offering import Offering
from rulegen.resources import schema_files
from rulegen.validate.core import describe, rule_code
from rulegen.validate.dates import date_hint

SCHEMA_BASE = "https://rulegen.example/schemas/"

# the slug of a schema error's rule code, by JSON Schema keyword, where the constraint names none
KEYWORD_RULES = {
    "additionalProperties": "unknown-field", "required": "required", "dependentRequired": "required",
    "not": "not-allowed", "propertyNames": "hand-class", "format": "date", "type": "type", "minItems": "count",
    "maxItems": "count", "minProperties": "count", "minLength": "length", "maxLength": "length", "const": "value",
    "enum": "value", "minimum": "range", "maximum": "range", "exclusiveMinimum": "range",
    "exclusiveMaximum": "range", "pattern": "form", "oneOf": "value", "anyOf": "value",
}


def _schemas() -> dict[str, dict]:
    return _read_schemas(tuple(schema_files().items()), codes(), _added_wagers())


def _added_wagers() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(key, name, pay classes) of each side wager a data folder adds (rulegen.wagers): the offering's schema takes
    each as an optional part of its own."""
    from rulegen import wagers

    return tuple((kind.key, kind.name, kind.pay_classes) for kind in wagers.registered()
                 if kind.key not in ("five_card_bonus", "six_card_bonus"))


def schema_rules() -> dict[str, str]:
    """{slug: the x-message of its first constraint} over the jurisdiction schemas."""
    found: dict[str, str] = {}

    def walk(node):
        if isinstance(node, dict):
            if "x-rule" in node:
                found.setdefault(node["x-rule"], str(node.get("x-message", "")))
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    for schema in _schemas().values():
        walk(schema)
    return found


@cache
def _read_schemas(files: tuple[tuple[str, Path], ...], known: tuple[str, ...],
                  added: tuple[tuple[str, str, tuple[str, ...]], ...] = ()) -> dict[str, dict]:
    """Every schema by file name, its `$id` the file's own name under SCHEMA_BASE (so a schema copied for a new
    jurisdiction refers to itself, not to the file it was copied from). The offering schema's list of
    jurisdictions and its choice of each one's schema are made from the jurisdictions the data folders hold."""
    schemas = {name: json.loads(path.read_text(encoding="utf-8")) for name, path in files}
    for name, schema in schemas.items():
        schema["$id"] = SCHEMA_BASE + name
    root = schemas["offering.schema.json"]
    jurisdiction = root["properties"]["offering"]["properties"]["jurisdiction"]
    listed = [code for code in jurisdiction.get("enum", []) if code in known]  # the shipped ones, in their order
    with_schema = [code for code in listed + [c for c in known if c not in listed]
                   if f"{code.lower()}.schema.json" in schemas]
    jurisdiction["enum"] = list(with_schema)
    jurisdiction["x-message"] = "the jurisdiction is " + _one_of(with_schema)
    root["allOf"] = [
        {"if": {"properties": {"offering": {"properties": {"jurisdiction": {"const": code}},
                                            "required": ["jurisdiction"]}}, "required": ["offering"]},
         "then": {"$ref": f"{code.lower()}.schema.json"}}
        for code in with_schema]
    for key, name, classes in added:
        root["properties"][key] = _side_wager_schema(name, classes)
    return schemas


def _side_wager_schema(name: str, classes: tuple[str, ...]) -> dict:
    """An added side wager's part of the offering: its least and most wager and its table, on its own pay classes."""
    rows = list(classes[1:])  # the first class is the losing one
    table = {"type": "object", "minProperties": 1,
             "propertyNames": {"enum": rows, "x-message": f"{name} paytable keys are {_one_of(rows)}"},
             "additionalProperties": {"$ref": "#/$defs/paytable/additionalProperties"}}
    return {"description": f"The optional {name} (leave it out if not offered).", "type": "object",
            "additionalProperties": False, "required": ["minimum", "maximum", "paytable"],
            "properties": {"minimum": {"description": f"The least {name} wager, in dollars.", "$ref": "#/$defs/money"},
                           "maximum": {"description": f"The most {name} wager, in dollars.", "$ref": "#/$defs/money"},
                           "paytable": {"x-message": f"the {name} paytable is a table's name or the table written out",
                                        "oneOf": [{"type": "string", "minLength": 1, "maxLength": 40}, table]}}}


def _one_of(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _validator():
    return _validator_for(tuple(schema_files().items()), codes(), _added_wagers())


@cache
def _validator_for(files: tuple[tuple[str, Path], ...], known: tuple[str, ...],
                   added: tuple[tuple[str, str, tuple[str, ...]], ...] = ()):
    from jsonschema import Draft202012Validator, FormatChecker
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    schemas = _read_schemas(files, known, added)
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema, default_specification=DRAFT202012))
        for schema in schemas.values())
    return Draft202012Validator(schemas["offering.schema.json"], registry=registry, format_checker=FormatChecker())


def jsonable(node):
    """Non-finite numbers are reported by their own check; the schema sees them as null so no comparison raises."""
    if isinstance(node, dict):
        return {k: jsonable(v) for k, v in node.items()}
    if isinstance(node, list):
        return [jsonable(v) for v in node]
    if isinstance(node, float) and not math.isfinite(node):
        return None
    if isinstance(node, Decimal) and not node.is_finite():
        return None
    return node


def schema_findings(offering: Offering, data, jurisdiction: Jurisdiction | None) -> list[Finding]:
    findings: list[Finding] = []
    explainer = _Explainer(offering, jurisdiction)
    for error in sorted(_validator().iter_errors(data), key=_priority):
        findings.extend(explainer.explain(error))
    # one finding per problem: a node the schema rejects for two reasons (a date neither real nor YYYY-MM-DD)
    # is reported once, for the more telling reason
    unique: dict[tuple, Finding] = {}
    for finding in findings:
        unique.setdefault((finding.node, finding.level), finding)
    return list(unique.values())


_HAND_WORDS = (("10s", "tens"), ("6s", "sixes"), ("2", "two"), ("3", "three"), ("4", "four"), ("5", "five"),
               ("6", "six"))


def hand_class_hint(key: object, hands: list) -> str | None:
    """The hand class a misspelled paytable key most likely means (`royal_flsh`, `Two Pairs`, `3_of_a_kind`), or
    None where none is close (`pair_of_aces` is no misspelling of a hand the paytables know)."""
    words = re.sub(r"[\s-]+", "_", str(key).strip().lower())
    for digits, word in _HAND_WORDS:
        words = re.sub(rf"(?<![a-z0-9]){digits}(?![a-z0-9])", word, words)
    close = difflib.get_close_matches(words, [str(hand) for hand in hands], n=1, cutoff=0.6)
    return close[0] if close else None


def value_hint(value: str, allowed: list[str]) -> str | None:
    """The allowed word a misspelled value most likely means (`manual_shoe`, `Automated`), or None."""
    if not allowed:
        return None
    words = {re.sub(r"[\s_-]+", "-", word.lower()): word for word in allowed}
    close = difflib.get_close_matches(re.sub(r"[\s_-]+", "-", value.strip().lower()), list(words), n=1, cutoff=0.75)
    return words[close[0]] if close and words[close[0]] != value else None


_PRIORITY = ("required", "additionalProperties", "type", "not", "const", "enum", "format")


def _priority(error) -> tuple:
    kind = error.validator
    return (_PRIORITY.index(kind) if kind in _PRIORITY else len(_PRIORITY), list(error.absolute_path).__repr__())


class _Explainer:
    def __init__(self, offering: Offering, jurisdiction: Jurisdiction | None):
        self.offering = offering
        self.jurisdiction = jurisdiction

    def finding(self, node, message: str, citation: str, schema: dict, kind: str, *, key: bool = False,
                at=None) -> Finding:
        slug = schema.get("x-rule") or KEYWORD_RULES.get(kind, kind)
        return self.offering.finding(tuple(node), "error", message, citation, key=key, at=at,
                                     rule=rule_code(self.jurisdiction, citation, slug))

    def explain(self, error) -> list[Finding]:
        node = tuple(error.absolute_path)
        schema = error.schema if isinstance(error.schema, dict) else {}
        citation = schema.get("x-citation", FORMAT)
        note = schema.get("x-message")
        field = dotted(node) or "the offering"
        kind = error.validator

        def found(where, message, *, key=False, at=None):
            return [self.finding(where, message, citation, schema, kind, key=key, at=at)]

        if "propertyNames" in error.schema_path:  # a key that is not a hand class: the error is at the key
            target = node + (error.instance,)
            hands = error.validator_value if kind == "enum" and isinstance(error.validator_value, list) else []
            close = hand_class_hint(error.instance, hands)
            if close:
                message = f"{dotted(target)} is not a hand class; did you mean '{close}'?"
            else:
                message = f"{dotted(target)} is not a hand class; {note}" if note else \
                    f"{dotted(target)} is not a hand class"
            return [self.finding(target, message, citation, schema, "propertyNames", key=True)]
        if kind in ("oneOf", "anyOf") and error.context:
            branches: dict[int, list] = {}
            for sub in error.context:
                branches.setdefault(sub.relative_schema_path[0], []).append(sub)
            fitting = [subs for subs in branches.values()
                       if not any(s.validator in ("type", "const") and not s.relative_path for s in subs)]
            if len(fitting) == 1:
                return [f for sub in fitting[0] for f in self.explain(sub)]
            return found(node, f"{field} is {describe(error.instance)}; {note or 'not a valid value'}")
        if kind == "additionalProperties":
            allowed = list((schema.get("properties") or {}).keys())
            known = set(allowed)
            results = []
            for key in error.instance:
                if key in known:
                    continue
                hint = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
                where = f"of {field}" if node else "of an offering"
                message = f"{dotted(node + (key,))} is not a field {where}"
                message += f"; did you mean '{hint[0]}'?" if hint else f"; the fields here are {', '.join(allowed)}"
                if error.instance.get(key) is None and not hint:
                    message += (" (if it belongs to the value before it: inside { }, a comma ends a value, so put a "
                                "value that holds a comma in quotes)")
                results.append(self.finding(node + (key,), message, FORMAT, schema, kind, key=True))
            return results
        if kind == "required":
            missing = error.message.split("'")[1] if "'" in error.message else error.message
            target = node + (missing,)
            message = f"{dotted(target)} is missing" + (f"; {note}" if note else "")
            return found(target, message, key=bool(node), at=node)  # at the key of the mapping that lacks it
        if kind == "dependentRequired":
            needed = [name for names in (error.validator_value or {}).values() for name in names
                      if isinstance(error.instance, dict) and name not in error.instance]
            target = node + (needed[0],) if needed else node
            return found(target, f"{dotted(target)} is missing; {note}" if note else error.message, key=bool(node),
                         at=node)
        if kind == "not":
            return found(node, f"{field} is not allowed here; {note}" if note else f"{field} is not allowed here",
                         key=True)
        if kind == "format":
            write = date_hint(error.instance)
            return found(node, f"{field} is {describe(error.instance)}, which is not a real date (YYYY-MM-DD)"
                         + (f"; {write}" if write else ""))
        if kind == "type":
            expected = error.validator_value
            expected = " or ".join(expected) if isinstance(expected, list) else expected
            words = {"integer": "a whole number", "number": "a number", "string": "text", "object": "a mapping",
                     "array": "a list"}
            expected = " or ".join(words.get(part, part) for part in str(expected).split(" or "))
            message = f"{field} is {describe(error.instance)}; it should be {expected}"
            if note:
                message += f" ({note})"
            return found(node, message)
        if kind in ("minItems", "maxItems", "minProperties"):
            count = len(error.instance) if isinstance(error.instance, (list, dict)) else 0
            return found(node, f"{field} has {count} entr{'y' if count == 1 else 'ies'}; {note or error.message}")
        if kind in ("minLength", "maxLength"):
            length = len(error.instance) if isinstance(error.instance, str) else 0
            return found(node, f"{field} has {length} characters; {note or error.message}")
        # const, enum, minimum, maximum, exclusiveMinimum, pattern ...
        message = f"{field} is {describe(error.instance)}; "
        if note:
            message += note
        elif kind == "enum":
            message += "it should be one of " + ", ".join(describe(v) for v in error.validator_value)
        elif kind == "const":
            message += f"it should be {describe(error.validator_value)}"
        elif kind in ("minimum", "exclusiveMinimum"):
            message += f"it should be {'above' if kind == 'exclusiveMinimum' else 'at least'} {error.validator_value}"
        elif kind in ("maximum", "exclusiveMaximum"):
            message += f"it should be {'below' if kind == 'exclusiveMaximum' else 'at most'} {error.validator_value}"
        else:
            message += error.message
        if kind == "enum" and isinstance(error.instance, str) and isinstance(error.validator_value, list):
            close = value_hint(error.instance, [v for v in error.validator_value if isinstance(v, str)])
            if close:
                message += f"; did you mean '{close}'?"
        return found(node, message)
