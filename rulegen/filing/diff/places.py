"""Where a change lands in the rules document (its section) and the rule that governs it (its citation): from the
jurisdiction data, else from the jurisdiction's schema."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulegen.filing.diff.words import PAYTABLES, SECTIONS, Data, Node, _part

if TYPE_CHECKING:
    from rulegen.jurisdiction import Jurisdiction


# The rules document follows the jurisdiction's sections (`sections` in its data: id, title, citation). A change
# belongs to the section whose citation its own citation falls under; its own citation comes from the cited value
# that governs the field. Where the data cites nothing for a field, the section is found by what it is about. Which
# cited value governs a field, and the words of a section's title that speak of it, are data:
# jurisdictions/common/fields.yaml.


def _fields() -> tuple[dict[str, tuple[tuple[str, ...], ...]], dict[str, tuple[str, ...]]]:
    from rulegen.resources import data_roots

    return _fields_in(tuple(data_roots()))  # read again when RULEGEN_DATA_PATH names other folders


@cache
def _fields_in(roots: tuple[Path, ...]) -> tuple[dict[str, tuple[tuple[str, ...], ...]], dict[str, tuple[str, ...]]]:
    from rulegen.jurisdiction import common_data

    data = common_data("fields")
    return ({field: tuple(tuple(keys) for keys in governing) for field, governing in data["cited_by"].items()},
            {field: tuple(words) for field, words in data["topic_words"].items()})


def cited_by() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each offering field → the key paths of the cited values that govern it (the first found wins)."""
    return _fields()[0]


def topic_words() -> dict[str, tuple[str, ...]]:
    """Each offering field → words of a section title that speak of it (where nothing is cited)."""
    return _fields()[1]


OWN_SECTIONS = {"offering": ("submission", "Submission"), "schema_version": ("submission", "Submission"),
                "signoff": ("signoff", "Sign-off")}


def _jurisdiction(data: Data) -> Jurisdiction | None:
    from rulegen.jurisdiction import codes, load_jurisdiction

    code = _part(data, "offering").get("jurisdiction")
    if not isinstance(code, str) or code not in codes():
        return None
    try:
        return load_jurisdiction(code)
    except Exception:  # a diff still reads without the data; it only loses citations
        return None


def _data_sections(jurisdiction: Jurisdiction | None) -> list[dict[str, Any]]:
    if jurisdiction is None:
        return []
    sections = jurisdiction.data.get("sections") or []
    if isinstance(sections, dict):
        sections = [{"id": key, **(value if isinstance(value, dict) else {"title": value})}
                    for key, value in sections.items()]
    return [s for s in sections if isinstance(s, dict) and (s.get("id") or s.get("key"))]


def _section_order(jurisdiction: Jurisdiction | None) -> list[str]:
    return ["submission"] + [str(s.get("id") or s.get("key")) for s in _data_sections(jurisdiction)] + [
        key for key, _, _ in SECTIONS if key != "submission"] + ["signoff"]


def _fill(template: str, data: Data) -> str | None:
    if not template.startswith("{"):
        return template
    name = template[1:-1]
    cards, tables, spin = _part(data, "cards"), _part(data, "paytables"), _part(data, "bonus_spin")
    values = {
        "decks_rule": "two_decks" if cards.get("decks") == 2 else "one_deck_cover_card",
        "dealing": cards.get("dealing"),
        "criss_cross_table": tables.get("criss_cross"),
        "ante_table": tables.get("ante"),
        "five_card_bonus_table": _part(data, "five_card_bonus").get("paytable"),
        "six_card_bonus_table": _part(data, "six_card_bonus").get("paytable"),
        "kind": spin.get("kind"),
        "spin_table": spin.get("paytable"),
    }
    value = values.get(name)
    return None if value is None or isinstance(value, (dict, list)) else str(value)


def _field_citation(node: Node, jurisdiction: Jurisdiction | None, data: Data) -> str | None:
    """The rule that governs this field: a cited value in the jurisdiction data, else its schema's x-citation."""
    if jurisdiction is None:
        return None
    path = tuple(str(p) for p in node)
    for length in range(len(path), 0, -1):
        for keys in cited_by().get(".".join(path[:length]), ()):
            filled = [_fill(k, data) for k in keys]
            known = [k for k in filled if k is not None]
            if len(known) != len(filled):
                continue
            citation = _cited_at(jurisdiction, known)
            if citation:
                return citation
        table = _written_out_table(path[:length], jurisdiction, data)
        if table:
            return table
    citations = _schema_citations(jurisdiction.code)
    for length in range(len(path), 0, -1):
        if path[:length] in citations:
            return citations[path[:length]]
    return None


def _cited_at(jurisdiction: Jurisdiction, keys: list[str]) -> str | None:
    """The citation at `keys` in the data; a key missing from a cited value is looked up inside its value, where
    a text is itself a citation (`dealing_procedures: {value: {hand: "N.J.A.C. 13:69F-40.8"}, ...}`)."""
    node: Any = jurisdiction.data
    for key in keys:
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, dict) and isinstance(node.get("value"), dict) and key in node["value"]:
            node = node["value"][key]
        else:
            return None
    if isinstance(node, str):
        return node if any(ch.isdigit() for ch in node) else None
    if isinstance(node, dict) and node.get("citation"):
        return str(node["citation"])
    return None


def _written_out_table(path: tuple[str, ...], jurisdiction: Jurisdiction, data: Data) -> str | None:
    """A paytable written out in full is cited as the authorized table it matches."""
    key = tuple(path)
    if key not in PAYTABLES:
        return None
    choice = _part(data, key[0]).get(key[1])
    if not isinstance(choice, dict):
        return None
    try:
        from rulegen.resolved import resolve_paytable

        kind = key[0] if key[0] != "paytables" else key[1]
        _table, _name, citation = resolve_paytable(jurisdiction, kind, choice)
    except Exception:
        return None
    return citation


def _under(citation: str, section_citation: str) -> bool:
    """True when `citation` falls under `section_citation`: a prefix that ends where a part ends
    ("40.1" covers "40.1(a)" but not "40.11"; "Chapter 1" covers "Chapter 1 §A" but not "Chapter 12")."""
    if not section_citation or not citation.startswith(section_citation):
        return False
    rest = citation[len(section_citation):]
    return not rest or not (rest[0].isalnum() or rest[0] in ".-:")


def _place(node: Node, jurisdiction: Jurisdiction | None, data: Data | None = None) -> tuple[str, str, str | None]:
    """(section id, section title, citation) for an offering field."""
    data = data or {}
    head = str(node[0])
    citation = _field_citation(node, jurisdiction, data) if head not in OWN_SECTIONS else None
    if head in OWN_SECTIONS:
        key, title = OWN_SECTIONS[head]
        return key, title, None
    sections = _data_sections(jurisdiction)
    if citation:
        best = None
        for section in sections:
            section_citation = str(section.get("citation") or "")
            if _under(citation, section_citation) and (best is None or len(section_citation) > len(best[1])):
                best = (section, section_citation)
        if best is not None:
            section = best[0]
            return str(section.get("id") or section.get("key")), str(section.get("title") or ""), citation
    path = ".".join(str(p) for p in node)
    for prefix, words in sorted(topic_words().items(), key=lambda item: -len(item[0])):
        if path == prefix or path.startswith(prefix + "."):
            for word in words:
                for section in sections:
                    if word in str(section.get("title") or "").lower():
                        return (str(section.get("id") or section.get("key")), str(section.get("title")),
                                citation or section.get("citation"))
            break
    for key, title, prefixes in SECTIONS:
        if head in prefixes:
            return key, title, citation
    return "submission", "Submission", citation


def _schema_citations(code: str) -> dict[tuple[str, ...], str]:
    """Field path → the x-citation beside the first constraint on it in the jurisdiction's schema (shipped, or
    in a `RULEGEN_DATA_PATH` folder)."""
    from rulegen.resources import schema_files

    return _citations_in(schema_files().get(f"{code.lower()}.schema.json"))


@cache
def _citations_in(path: Path | None) -> dict[tuple[str, ...], str]:
    try:
        schema = json.loads(path.read_text(encoding="utf-8")) if path is not None else {}
    except (OSError, ValueError):
        return {}
    found: dict[tuple[str, ...], str] = {}

    def visit(node: object, path: tuple[str, ...], depth: int = 0) -> None:
        if depth > 40:
            return
        if isinstance(node, list):
            for item in node:
                visit(item, path, depth + 1)
            return
        if not isinstance(node, dict):
            return
        citation = node.get("x-citation")
        if isinstance(citation, str):
            for field in node.get("required") or []:
                found.setdefault(path + (str(field),), citation)
            if path and not node.get("required"):
                found.setdefault(path, citation)
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name, child in value.items():
                    visit(child, path + (str(name),), depth + 1)
            elif key in ("allOf", "anyOf", "oneOf", "then", "else", "items"):
                visit(value, path, depth + 1)

    visit(schema, ())
    return found
