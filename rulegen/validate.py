"""Validation: the JSON Schemas of the offering format and each jurisdiction, plus the checks that need
exact money, the jurisdiction's data or a computed figure (the payout-limit floor).

Every finding carries the line and column of the offending node and the citation of the rule broken.
Validation never prints and never exits: the command line does.
"""

from __future__ import annotations

import difflib
import json
import math
import os
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path

from rulegen.errors import ExitCode
from rulegen.findings import Finding, worst_level
from rulegen.jurisdiction import (
    FORMAT,
    Jurisdiction,
    bonus_spin_table,
    community_pay_table,
    load_jurisdiction,
    payout_vector,
    resolve_paytable,
)
from rulegen.offering import Offering, OfferingLoadError, dotted, load_offering
from rulegen.resources import assets_dir, schemas_dir

SCHEMA_BASE = "https://rulegen.example/schemas/"
SIGNOFF_ROLES = ("prepared", "reviewed", "approved")
WAGER_NAMES = {
    "ante_across": "Ante Across", "ante_down": "Ante Down", "across": "Across Bet", "down": "Down Bet",
    "middle": "Middle Bet", "five_card_bonus": "Five Card Bonus", "six_card_bonus": "Six Card Bonus",
    "bonus_spin": "Bonus Spin",
}


# --- schemas -------------------------------------------------------------------------------------------------

@cache
def _schemas() -> dict[str, dict]:
    return {path.name: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(schemas_dir().glob("*.schema.json"))}


@cache
def _validator():
    from jsonschema import Draft202012Validator, FormatChecker
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    schemas = _schemas()
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema, default_specification=DRAFT202012))
        for schema in schemas.values())
    return Draft202012Validator(schemas["offering.schema.json"], registry=registry, format_checker=FormatChecker())


def _jsonable(node):
    """Non-finite numbers are reported by their own check; the schema sees them as null so no comparison raises."""
    if isinstance(node, dict):
        return {k: _jsonable(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_jsonable(v) for v in node]
    if isinstance(node, float) and not math.isfinite(node):
        return None
    if isinstance(node, Decimal) and not node.is_finite():
        return None
    return node


def _non_finite_numbers(value, node=()):
    """(node, number) for every NaN or infinity in the data."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _non_finite_numbers(child, node + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _non_finite_numbers(child, node + (index,))
    elif (isinstance(value, float) and not math.isfinite(value)) or \
            (isinstance(value, Decimal) and not value.is_finite()):
        yield node, value


def _describe(value) -> str:
    if isinstance(value, str):
        return repr(value) if len(value) <= 60 else repr(value[:57] + "...")
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "empty"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _schema_findings(offering: Offering, data) -> list[Finding]:
    findings: list[Finding] = []
    for error in _validator().iter_errors(data):
        findings.extend(_explain(offering, error))
    return findings


def _explain(offering: Offering, error) -> list[Finding]:
    node = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    citation = schema.get("x-citation", FORMAT)
    note = schema.get("x-message")
    field = dotted(node) or "the offering"
    kind = error.validator

    if kind in ("oneOf", "anyOf") and error.context:
        branches: dict[int, list] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [subs for subs in branches.values()
                   if not any(s.validator in ("type", "const") and not s.relative_path for s in subs)]
        if len(fitting) == 1:
            return [f for sub in fitting[0] for f in _explain(offering, sub)]
        return [offering.finding(node, "error", f"{field} is {_describe(error.instance)}; {note or 'not a valid value'}",
                                 citation)]
    if kind == "additionalProperties":
        allowed = list((schema.get("properties") or {}).keys())
        known = set(allowed)
        results = []
        for key in error.instance:
            if key in known:
                continue
            hint = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
            where = f"in {field}" if node else "at the top level"
            message = f"unknown field '{key}' {where}"
            message += f"; did you mean '{hint[0]}'?" if hint else f"; the fields here are {', '.join(allowed)}"
            if error.instance.get(key) is None and not hint:
                message += (" (if it belongs to the value before it: inside { }, a comma ends a value, so put a "
                            "value that holds a comma in quotes)")
            results.append(offering.finding(node + (key,), "error", message, FORMAT, key=True))
        return results
    if kind == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        target = dotted(node + (missing,))
        message = f"{target} is missing" + (f"; {note}" if note else "")
        return [offering.finding(node, "error", message, citation, key=bool(node))]
    if kind == "dependentRequired":
        return [offering.finding(node, "error", note or error.message, citation)]
    if kind == "not":
        return [offering.finding(node, "error", f"{field} is not allowed here: {note}" if note else
                                 f"{field} is not allowed here", citation, key=True)]
    if kind == "propertyNames":
        return [offering.finding(node + (error.instance,), "error",
                                 f"'{error.instance}' is not a hand class; {note}", citation, key=True)]
    if kind == "format":
        return [offering.finding(node, "error", f"{field} is {_describe(error.instance)}, which is not a real date "
                                 "(YYYY-MM-DD)", citation)]
    if kind == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        words = {"integer": "a whole number", "number": "a number", "string": "text", "object": "a mapping",
                 "array": "a list"}
        expected = " or ".join(words.get(part, part) for part in str(expected).split(" or "))
        message = f"{field} is {_describe(error.instance)}; it should be {expected}"
        if note:
            message += f" ({note})"
        return [offering.finding(node, "error", message, citation)]
    if kind in ("minItems", "maxItems", "minProperties"):
        return [offering.finding(node, "error", f"{field}: {note or error.message}", citation)]
    if kind in ("minLength", "maxLength"):
        length = len(error.instance) if isinstance(error.instance, str) else 0
        return [offering.finding(node, "error", f"{field} has {length} characters; {note or error.message}",
                                 citation)]
    # const, enum, minimum, maximum, exclusiveMinimum, pattern ...
    message = f"{field} is {_describe(error.instance)}; "
    if note:
        message += note
    elif kind == "enum":
        message += "it should be one of " + ", ".join(_describe(v) for v in error.validator_value)
    elif kind == "const":
        message += f"it should be {_describe(error.validator_value)}"
    elif kind in ("minimum", "exclusiveMinimum"):
        message += f"it should be {'above' if kind == 'exclusiveMinimum' else 'at least'} {error.validator_value}"
    elif kind in ("maximum", "exclusiveMaximum"):
        message += f"it should be {'below' if kind == 'exclusiveMaximum' else 'at most'} {error.validator_value}"
    else:
        message += error.message
    return [offering.finding(node, "error", message, citation)]


# --- checks in Python ----------------------------------------------------------------------------------------

MONEY_FIELDS = (
    ("limits", "ante", "minimum"), ("limits", "ante", "maximum"),
    ("five_card_bonus", "minimum"), ("five_card_bonus", "maximum"),
    ("bonus_spin", "wager"), ("bonus_spin", "top_prize", "initial"), ("bonus_spin", "top_prize", "reset"),
    ("payout_limit", "amount"),
)


def _get(data, node):
    for key in node:
        if isinstance(data, dict) and key in data:
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data


def _number(value) -> Decimal | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, Decimal) and value.is_finite():
        return value
    return None


def _money(amount: Decimal) -> str:
    amount = Decimal(amount)
    if amount == amount.to_integral_value():
        return f"${int(amount):,}"
    return f"${amount.quantize(Decimal('0.01')):,}"


class _Checker:
    def __init__(self, offering: Offering, jurisdiction: Jurisdiction | None, schema_nodes: set[tuple]):
        self.offering = offering
        self.data = offering.data
        self.j = jurisdiction
        self.findings: list[Finding] = []
        self.schema_nodes = schema_nodes  # nodes the schema already complained about

    def add(self, node, level, message, citation=FORMAT, *, key=False):
        self.findings.append(self.offering.finding(tuple(node), level, message, citation or FORMAT, key=key))

    def cite(self, key: str, default: str = FORMAT) -> str:
        cited = self.j.rule(key) if self.j else None
        return cited.citation if cited else default

    # numbers ---------------------------------------------------------------------------------------------
    def finite_numbers(self):
        for node, value in _non_finite_numbers(self.data):
            self.add(node, "error", f"{dotted(node)} is {value}; numbers must be finite")

    def money(self):
        nodes = list(MONEY_FIELDS)
        for index, _segment in enumerate(_get(self.data, ("bonus_spin", "wheel")) or []):
            nodes.append(("bonus_spin", "wheel", index, "community"))
        for node in nodes:
            value = _number(_get(self.data, node))
            if value is None or node in self.schema_nodes:
                continue
            if (value * 100) % 1 != 0:
                self.add(node, "error", f"{dotted(node)} is {value}; money is whole dollars or dollars and cents "
                                        "(at most two decimal places)")

    def ranges(self):
        for base, label in ((("limits", "ante"), "ante"), (("five_card_bonus",), "Five Card Bonus")):
            low = _number(_get(self.data, base + ("minimum",)))
            high = _number(_get(self.data, base + ("maximum",)))
            if low is not None and high is not None and low > high:
                self.add(base + ("minimum",), "error",
                         f"{dotted(base + ('minimum',))} is {_money(low)}, above the {label} maximum {_money(high)}")

    # cards -----------------------------------------------------------------------------------------------
    def cards(self):
        cards = self.data.get("cards")
        if not isinstance(cards, dict):
            return
        decks, colours = cards.get("decks"), cards.get("back_colours")
        shuffling, dealing = cards.get("shuffling"), cards.get("dealing")
        two = self.j.rule("two_decks") if self.j else None
        one = self.j.rule("one_deck_cover_card") if self.j else None
        if isinstance(colours, list) and decks in (1, 2) and len(colours) != decks:
            self.add(("cards", "back_colours"), "error",
                     f"cards.back_colours lists {len(colours)} colour(s) for {decks} deck(s); give one per deck",
                     one.citation if one and decks == 1 else (two.citation if two else FORMAT))
        if decks == 2 and two is not None:
            rule = two.value or {}
            allowed = rule.get("requires_shuffling") or ["automated", "automated-counting"]
            if shuffling not in allowed:
                self.add(("cards", "shuffling"), "error",
                         f"cards.shuffling is {_describe(shuffling)}; two decks are allowed only with an automated "
                         "card shuffling device", two.citation)
            if rule.get("back_colours_differ") and isinstance(colours, list) and len(colours) == 2 \
                    and str(colours[0]).strip().lower() == str(colours[1]).strip().lower():
                self.add(("cards", "back_colours", 1), "error",
                         f"both decks have {_describe(colours[0])} backs; the two decks' backs must be of different "
                         "colours", two.citation)
        if dealing == "hand" and shuffling not in ("automated", "automated-counting"):
            rule = self.j.rule("hand_dealing_requires_automated_shuffler") if self.j else None
            if rule is None or rule.value:
                self.add(("cards", "shuffling"), "error",
                         f"cards.shuffling is {_describe(shuffling)}; cards dealt from the hand must be shuffled by an "
                         "automated shuffling device", rule.citation if rule else FORMAT)
        hours = _number(cards.get("deck_change_hours"))
        rule = self.j.rule("deck_change_hours") if self.j else None
        if hours is not None and rule is not None and isinstance(rule.value, dict) and dealing in rule.value:
            most = Decimal(str(rule.value[dealing]))
            if hours > most:
                how = "by hand" if dealing == "hand" else f"from a {dealing.replace('-', ' ')}"
                self.add(("cards", "deck_change_hours"), "error",
                         f"cards.deck_change_hours is {hours}; decks dealt {how} must be changed at least every "
                         f"{most} hours", rule.citation)

    # paytables -------------------------------------------------------------------------------------------
    def paytables(self):
        j = self.j
        checks = [(("paytables", "criss_cross"), "criss_cross", "the Criss Cross paytable"),
                  (("paytables", "ante"), "ante", "the ante paytable")]
        if isinstance(self.data.get("five_card_bonus"), dict):
            checks.append((("five_card_bonus", "paytable"), "five_card_bonus", "the Five Card Bonus paytable"))
        if isinstance(self.data.get("six_card_bonus"), dict):
            checks.append((("six_card_bonus", "paytable"), "six_card_bonus", "the Six Card Bonus paytable"))
        house = j is not None and j.code == "HOUSE"
        for node, kind, label in checks:
            choice = _get(self.data, node)
            if choice is None or node in self.schema_nodes or any(n[:len(node)] == node for n in self.schema_nodes):
                continue
            names = j.paytable_names(kind)
            if isinstance(choice, str):
                table, name, citation = resolve_paytable(j, kind, choice)
                if table is None:
                    hint = difflib.get_close_matches(choice, names, n=1, cutoff=0.5)
                    message = f"{dotted(node)} is {_describe(choice)}, which is not a {label} {j.name} authorizes"
                    message += (f"; did you mean '{hint[0]}'?" if hint else
                                (f"; the named tables are {', '.join(names)}" if names else
                                 "; write the table out"))
                    self.add(node, "error", message, self._paytable_citation(kind))
                continue
            table, name, citation = resolve_paytable(j, kind, choice)
            if house:
                self.well_formed(node, table, label)
                continue
            if name is None:
                self.add(node, "error", f"{dotted(node)} pays differently from every {label} {j.name} authorizes; "
                                        f"use {', '.join(repr(n) for n in names) or 'an authorized table'}"
                                        " or write one out exactly", self._paytable_citation(kind))

    def _paytable_citation(self, kind: str) -> str:
        names = self.j.paytable_names(kind)
        if names:
            cited = self.j.paytable(kind, names[0])
            if cited:
                return cited.citation
        return FORMAT

    def well_formed(self, node, table: dict, label: str):
        """HOUSE paytables: no negative pays, and a better hand never pays less than a worse one."""
        from rulegen.evaluator import PAY_CLASSES

        try:
            vector = payout_vector(table)
        except Exception as exc:  # a table the game layer refuses
            self.add(node, "error", f"{dotted(node)} is not a usable paytable: {exc}")
            return
        citation = "House rules, Pay Tables"
        for weaker in range(len(vector)):
            for stronger in range(weaker + 1, len(vector)):
                if vector[stronger] < vector[weaker]:
                    self.add(node, "error",
                             f"{dotted(node)} pays {_pay_words(vector[stronger])} for {PAY_CLASSES[stronger].replace('_', ' ')} "
                             f"but {_pay_words(vector[weaker])} for the weaker {PAY_CLASSES[weaker].replace('_', ' ')}; "
                             "a better hand must never pay less than a worse one", citation)
                    return

    # bonus spin ------------------------------------------------------------------------------------------
    def bonus_spin(self):
        spin = self.data.get("bonus_spin")
        if not isinstance(spin, dict) or self.j is None or any(n[:1] == ("bonus_spin",) for n in self.schema_nodes):
            return
        j = self.j
        kind = spin.get("kind")
        table = bonus_spin_table(j, spin)
        if table is None:
            self.add(("bonus_spin", "paytable"), "error",
                     f"bonus_spin.paytable is {_describe(spin.get('paytable'))}, which is not a Bonus Spin {kind} "
                     f"paytable {j.name} authorizes", FORMAT)
            return
        top = spin.get("top_prize") or {}
        top_kind = table.value.get("top_prize")
        if top_kind and top.get("kind"):
            allowed = {"fixed": {"fixed"}, "progressive": {"progressive"},
                       "fixed_or_merchandise": {"fixed", "merchandise"},
                       "fixed_or_progressive": {"fixed", "merchandise", "progressive"}}.get(top_kind, {top_kind})
            if top["kind"] not in allowed:
                self.add(("bonus_spin", "top_prize", "kind"), "error",
                         f"bonus_spin.top_prize.kind is {_describe(top['kind'])}; paytable {spin.get('paytable')} pays "
                         f"its top symbol as {top_kind.replace('_', ' ')}", table.citation)
        for which in ("initial", "reset"):
            minimum = j.cited("bonus_spin", str(kind), f"minimum_{which}", str(spin.get("paytable")))
            amount = _number(top.get(which))
            if minimum is not None and amount is not None and amount < Decimal(str(minimum.value)):
                self.add(("bonus_spin", "top_prize", which), "error",
                         f"bonus_spin.top_prize.{which} is {_money(amount)}; the {which} amount for paytable "
                         f"{spin.get('paytable')} must be at least {_money(Decimal(str(minimum.value)))}",
                         minimum.citation)
            if minimum is not None and minimum.reading:
                self.add(("bonus_spin", "top_prize", which), "note", minimum.reading, minimum.citation)
        if spin.get("community_pay") is not None and community_pay_table(j, spin) is None \
                and j.cited("bonus_spin", str(kind), "community_pays") is not None:
            self.add(("bonus_spin", "community_pay"), "error",
                     f"bonus_spin.community_pay is {_describe(spin.get('community_pay'))}, which is not a community-pay "
                     f"table {j.name} authorizes for a {_money(Decimal(str(spin.get('wager'))))} wager", FORMAT)
        if table.note:
            self.add(("bonus_spin", "paytable"), "note", table.note, table.citation)
        if table.reading:
            self.add(("bonus_spin", "paytable"), "note", table.reading, table.citation)
        symbols = {_symbol(row.get("symbol")) for row in table.value.get("symbols", [])}
        for index, segment in enumerate(spin.get("wheel") or []):
            symbol = _symbol(segment.get("symbol"))
            if symbol not in symbols:
                self.add(("bonus_spin", "wheel", index, "symbol"), "error",
                         f"bonus_spin.wheel[{index}].symbol is {_describe(segment.get('symbol'))}, which paytable "
                         f"{spin.get('paytable')} does not have; its symbols are "
                         f"{', '.join(sorted(symbols, key=_symbol_order))}", table.citation)
        if not spin.get("wheel"):
            self.add(("bonus_spin",), "note",
                     "no wheel segment weights are given, so no return figure for the Bonus Spin can be computed; "
                     "the math appendix gives the return as a function of the wheel's mean prize and needs the "
                     "manufacturer's weights for a figure", FORMAT, key=True)
        hardware = j.rule("bonus_spin_hardware")
        if hardware is not None and hardware.value and not (hardware.value or {}).get("approval"):
            self.add(("bonus_spin",), "note",
                     f"a table offering this wager needs a {hardware.value.get('system', 'progressive table game system')}",
                     hardware.citation, key=True)
        reading = j.reading("bonus_spin_after_fold")
        if reading:
            self.add(("bonus_spin",), "note", reading["reading"], reading.get("citation"), key=True)

    # sign-offs and text ------------------------------------------------------------------------------------
    def signoffs(self):
        signoff = self.data.get("signoff")
        if not isinstance(signoff, list):
            self.add(("offering",), "note", "no sign-off yet: every document says DRAFT until the offering is "
                                            "prepared, reviewed and approved", key=True)
            return
        seen: dict[str, int] = {}
        for index, entry in enumerate(signoff):
            if not isinstance(entry, dict):
                continue
            role = entry.get("role")
            if role in seen:
                self.add(("signoff", index, "role"), "error",
                         f"signoff[{index}].role '{role}' is given twice (also signoff[{seen[role]}]); each role signs once")
            else:
                seen[role] = index
            effective = _get(self.data, ("offering", "effective_date"))
            date = entry.get("date")
            if isinstance(date, str) and isinstance(effective, str) and date > effective:
                self.add(("signoff", index, "date"), "warning",
                         f"signoff[{index}] ({role}) is dated {date}, after the effective date {effective}")
        missing = [role for role in SIGNOFF_ROLES if role not in seen]
        if missing:
            self.add(("signoff",), "note", f"the sign-off lacks {', '.join(missing)}: every document says DRAFT "
                                           "and --final is refused until all three roles have signed", key=True)

    def _printed_text(self):
        """(node, text) for each free-text value the documents print."""
        nodes = [("offering", "operator", "name"), ("offering", "operator", "licence"),
                 ("bonus_spin", "top_prize", "description"), ("bonus_spin", "hardware_approval")]
        for index, entry in enumerate(self.data.get("signoff") or []):
            if isinstance(entry, dict):
                nodes += [("signoff", index, "name"), ("signoff", index, "title")]
        colours = _get(self.data, ("cards", "back_colours"))
        nodes += [("cards", "back_colours", index) for index in range(len(colours) if isinstance(colours, list) else 0)]
        for node in nodes:
            value = _get(self.data, node)
            if isinstance(value, str) and node not in self.schema_nodes:
                yield node, value

    def plain_text(self):
        for node, value in self._printed_text():
            if any(token in value for token in ("<", ">", "{{", "{%", "&#")):
                self.add(node, "warning", f"{dotted(node)} looks like markup or template syntax; it is plain text "
                                          "and will be printed exactly as written")

    def printable(self):
        """Every character of the free text the documents print must come from the fonts rulegen ships.

        A character the shipped fonts lack is drawn from whatever font the machine has, so the PDF would differ
        from one machine to the next and a regulator could not rebuild the filing; control and invisible
        formatting characters (bidirectional overrides among them) could make printed text read otherwise than
        the file says. Both are errors.
        """
        for node, value in self._printed_text():
            bad = unprintable_characters(value)
            if bad:
                shown = ", ".join(_character_words(c) for c in bad[:3]) + (f" and {len(bad) - 3} more" if len(bad) > 3 else "")
                self.add(node, "error", f"{dotted(node)} contains {shown}, which the documents cannot print the same "
                                        "way on every machine (rulegen prints Latin, Greek and Cyrillic letters, "
                                        "punctuation and common symbols); write it without")

    def logo(self):
        logo = _get(self.data, ("offering", "operator", "logo"))
        if not isinstance(logo, str) or ("offering", "operator", "logo") in self.schema_nodes:
            return
        node = ("offering", "operator", "logo")
        problem = logo_problem(self.offering, logo)
        if problem:
            self.add(node, "error", f"offering.operator.logo {_describe(logo)}: {problem}")

    # readings --------------------------------------------------------------------------------------------
    def readings(self):
        j = self.j
        for key, node in (("ante_table", ("paytables", "ante")), ("middle_both_push", ("paytables", "criss_cross"))):
            reading = j.reading(key)
            if reading and reading.get("reading"):
                self.add(node, "note", reading["reading"], reading.get("citation"))


@cache
def _font_characters() -> frozenset[int]:
    """The code points every shipped font can draw (a name may be set in any of them)."""
    from fontTools.ttLib import TTFont

    covered = None
    for path in sorted((assets_dir() / "fonts").glob("*.ttf")):
        font = TTFont(path, lazy=True)
        points = set(font.getBestCmap() or {})
        font.close()
        covered = points if covered is None else covered & points
    return frozenset(covered or ())


def unprintable_characters(text: str) -> list[str]:
    """The distinct characters of `text`, in order, that are control or format characters or lack a glyph."""
    import unicodedata

    bad: list[str] = []
    covered = None
    for char in text:
        if char in bad:
            continue
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            bad.append(char)
            continue
        if char.isascii():
            continue
        if covered is None:
            covered = _font_characters()
        if ord(char) not in covered:
            bad.append(char)
    return bad


def _character_words(char: str) -> str:
    import unicodedata

    name = unicodedata.name(char, "")
    code = f"U+{ord(char):04X}"
    if unicodedata.category(char).startswith("C") or not char.isprintable():
        return f"{code} {name.lower() or 'a control character'}"
    return f"{char!r} ({code}{' ' + name.lower() if name else ''})"


def _pay_words(value) -> str:
    if value < 0:
        return "a loss"
    if value == 0:
        return "a push"
    return f"{value} to 1"


def _symbol(symbol) -> str:
    from rulegen.jurisdiction import _symbol_key

    return _symbol_key(symbol)


def _symbol_order(symbol: str):
    try:
        return (0, -Decimal(symbol))
    except Exception:
        return (-1, 0)


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def logo_problem(offering: Offering, logo: str) -> str | None:
    """Why a logo cannot be used, or None. It must be a PNG or SVG file inside the offering's folder."""
    if "://" in logo or logo.startswith(("//", "data:")):
        return "a logo is a file beside the offering file, not a URL"
    candidate = Path(logo)
    if candidate.is_absolute():
        return "a logo path is relative to the offering file's folder, not absolute"
    folder = offering.folder
    lexical = Path(os.path.normpath(folder / candidate))
    if folder != lexical and folder not in lexical.parents:
        return "the path leads outside the offering file's folder; the logo must be inside it"
    try:
        resolved = (folder / candidate).resolve(strict=True)
    except (OSError, RuntimeError):
        return "no such file beside the offering file"
    if folder != resolved and folder not in resolved.parents:
        return "the path leads outside the offering file's folder (after following links); the logo must be inside it"
    if not resolved.is_file():
        return "not a file"
    try:
        with open(resolved, "rb") as handle:
            head = handle.read(512)
            size = resolved.stat().st_size
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if size > 5 * 1024 * 1024:
        return "the logo is larger than 5 MiB"
    if logo.lower().endswith(".png"):
        if not head.startswith(PNG_MAGIC):
            return "the file is not a PNG image"
    elif logo.lower().endswith(".svg"):
        text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
        if not (text.startswith("<svg") or text.startswith("<?xml") or "<svg" in text):
            return "the file is not an SVG image"
    return None


# --- payout limit ----------------------------------------------------------------------------------------------

def payout_limit_findings(offering: Offering, jurisdiction: Jurisdiction, schema_nodes: set) -> list[Finding]:
    """The payout-limit rule, with the floor computed exactly by the math layer (maximum win per round)."""
    data = offering.data
    rule = jurisdiction.cited("payout_limit", "rule")
    if rule is None:
        return []
    if any(n[:1] in (("paytables",), ("limits",), ("five_card_bonus",), ("payout_limit",)) for n in schema_nodes):
        return []  # the figure cannot be trusted until those validate
    limit = data.get("payout_limit")
    amount = _number(limit.get("amount")) if isinstance(limit, dict) else None
    base = jurisdiction.cited("payout_limit", "base_amount")
    base_amount = Decimal(str(base.value)) if base and base.value is not None else None
    findings: list[Finding] = []
    node = ("payout_limit", "amount") if amount is not None else ("payout_limit",)

    max_win = maximum_win(offering, jurisdiction)
    if max_win is None:
        return findings
    figure = max(base_amount, max_win.amount) if base_amount is not None else max_win.amount
    how = _floor_words(max_win, base_amount, figure)
    reading = jurisdiction.cited("payout_limit", "counted_in_max_win")
    rule_kind = rule.value
    required = jurisdiction.cited("payout_limit", "required")
    if amount is None and required is not None and required.value and not isinstance(limit, dict):
        findings.append(offering.finding(("payout_limit",), "warning",
                                         f"no payout_limit is stated; the limit applies by force of the text and is "
                                         f"{_money(figure)}: state it so the rules document and the sign show it",
                                         required.citation, key=True))
    if rule_kind == "at_least_greater_of":
        if amount is not None and amount < figure:
            findings.append(offering.finding(node, "error",
                                             f"payout_limit.amount is {_money(amount)}, below the floor of {_money(figure)}; {how}",
                                             rule.citation))
    elif rule_kind == "equals_greater_of":
        if amount is not None and amount != figure:
            findings.append(offering.finding(node, "error",
                                             f"payout_limit.amount is {_money(amount)}; the payout limit must be {_money(figure)}; {how}",
                                             rule.citation))
    elif rule_kind == "at_most_greater_of":
        if amount is not None and amount > figure:
            findings.append(offering.finding(node, "error",
                                             f"payout_limit.amount is {_money(amount)}, above the {_money(figure)} the "
                                             f"aggregate payout limit may not exceed; {how}", rule.citation))
        elif amount is not None and amount < figure:
            findings.append(offering.finding(node, "warning",
                                             f"payout_limit.amount is {_money(amount)}, below {_money(figure)}; {how}. "
                                             "A lower limit would cut wins a minimum bettor can reach", rule.citation))
    elif rule_kind == "house_cap":
        if amount is not None and amount < max_win.amount:
            findings.append(offering.finding(node, "warning",
                                             f"payout_limit.amount is {_money(amount)}, below the maximum win per round "
                                             f"at the minimum wager: {how}; the cap would cut such a win",
                                             rule.citation))
    if rule.reading:
        findings.append(offering.finding(node, "note", rule.reading, rule.citation, key=amount is None))
    if reading is not None and reading.reading:
        findings.append(offering.finding(node, "note", f"{reading.reading} (floor figure: {_money(max_win.amount)})",
                                         reading.citation, key=amount is None))
    return findings


def _floor_words(max_win, base_amount, figure) -> str:
    parts = [f"the most one player can win in a round at the minimum wager is {_money(max_win.amount)}"]
    detail = getattr(max_win, "detail", None) or {}
    summary = detail.get("summary") if isinstance(detail, dict) else None
    if summary:
        parts.append(f"({summary})")
    if base_amount is not None:
        parts.append(f"and the greater of {_money(base_amount)} and that is {_money(figure)}")
    return " ".join(parts)


def maximum_win(offering: Offering, jurisdiction: Jurisdiction):
    from rulegen.jurisdiction import game_rules_for
    from rulegen.math.maxwin import max_win_per_round

    data = offering.data
    counted_cited = jurisdiction.cited("payout_limit", "counted_in_max_win")
    counted = frozenset(counted_cited.value) if counted_cited else frozenset()
    ante_minimum = _number(_get(data, ("limits", "ante", "minimum")))
    if ante_minimum is None:
        return None
    five = _number(_get(data, ("five_card_bonus", "minimum")))
    rules = game_rules_for(data)
    return max_win_per_round(rules, ante_minimum, five if "five_card_bonus" in counted else None, counted)


# --- entry points -----------------------------------------------------------------------------------------------

def validate_offering(offering: Offering) -> list[Finding]:
    """Every finding for one loaded offering: schema errors, rule checks, readings; sorted by place."""
    data = _jsonable(offering.data)
    non_finite = {node for node, _value in _non_finite_numbers(offering.data)}
    # the schema sees a non-finite number as null; its own check says what is wrong with it
    findings = [f for f in _schema_findings(offering, data) if _node_of(f) not in non_finite]
    schema_nodes = {tuple(_node_of(f)) for f in findings} | non_finite  # nodes the later checks leave alone
    code = (offering.data.get("offering") or {}).get("jurisdiction") if isinstance(offering.data.get("offering"), dict) else None
    jurisdiction = load_jurisdiction(code) if code in ("MD", "NJ", "PA", "HOUSE") else None
    checker = _Checker(offering, jurisdiction, schema_nodes)
    checker.finite_numbers()
    checker.money()
    checker.ranges()
    checker.signoffs()
    checker.plain_text()
    checker.printable()
    checker.logo()
    if jurisdiction is not None:
        checker.cards()
        checker.paytables()
        checker.bonus_spin()
        checker.readings()
    findings.extend(checker.findings)
    if jurisdiction is not None and not any(f.level == "error" for f in findings):
        findings.extend(payout_limit_findings(offering, jurisdiction, schema_nodes))
    unique = {}
    for finding in findings:
        unique.setdefault((finding.line, finding.column, finding.level, finding.message), finding)
    return sorted(unique.values(), key=Finding.sort_key)


def _node_of(finding: Finding) -> tuple:
    """The node path back from a finding's dotted field (for skipping checks the schema already failed)."""
    import re

    if not finding.field:
        return ()
    parts: list = []
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", finding.field):
        parts.append(int(index) if index else name)
    return tuple(parts)


@dataclass
class FileReport:
    path: str
    status: int
    findings: list[Finding]
    offering: Offering | None = None

    def to_json(self) -> dict:
        return {"path": self.path, "status": self.status, "findings": [f.to_json() for f in self.findings]}


def validate_file(path: str | Path, display_path: str | None = None) -> FileReport:
    display = display_path or str(path)
    try:
        offering = load_offering(path, display)
    except OfferingLoadError as exc:
        return FileReport(display, int(exc.exit_code), exc.findings)
    try:
        findings = validate_offering(offering)
    except Exception as exc:  # one broken file never stops a batch: it is reported, and the batch goes on
        finding = Finding(display, 1, 1, "error", f"could not be checked: internal error {type(exc).__name__}: {exc}",
                          FORMAT)
        return FileReport(display, int(ExitCode.UNUSABLE), [finding], offering)
    status = ExitCode.INVALID if worst_level(findings) == "error" else ExitCode.OK
    return FileReport(display, int(status), findings, offering)
