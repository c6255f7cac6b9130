"""The Concordance: each clause of the jurisdiction's text → where the rules document restates it, or why not.

The rules document's elements name the clauses they restate in a `data-clauses` attribute (ids separated by
`|`; `X*` names a clause with everything under it, as a printed table restates each of its rows). After the
document's body is rendered, `restated` reads those attributes back, section by section, and `rows` lays the
inventory against them and against the offering's configuration: a clause is restated, does not apply (with the
reason), or is accounted for by its sub-clauses. A clause that is none of these is reported, never hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser

from rulegen.clauses import Clause, Inventory, InventoryError, OfferingConfig

MARKER = "<!-- rulegen:concordance -->"


@dataclass(frozen=True)
class Place:
    anchor: str
    title: str


@dataclass(frozen=True)
class Row:
    clause_id: str
    citation: str
    summary: str
    status: str  # restated | not_applicable | in_parts | unaccounted
    places: tuple[Place, ...]
    reason: str | None
    covers: int  # how many sub-clauses share this row's disposition (0: the clause alone)
    parts_out: tuple[tuple[str, str], ...] = ()  # parts of a restated clause that do not apply here, with reasons


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.section: list[Place] = []
        self.pending_title: str | None = None
        self.title_parts: list[str] = []
        self.in_h2 = False
        self.found: list[tuple[str, str]] = []  # (raw id, section anchor)
        self.titles: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "section":
            anchor = values.get("id") or ""
            self.section.append(Place(anchor, anchor))
        if tag == "h2" and self.section and self.section[-1].anchor not in self.titles:
            self.in_h2 = True
            self.title_parts = []
        raw = values.get("data-clauses")
        if raw and self.section:
            for ident in raw.split("|"):
                if ident:
                    self.found.append((ident, self.section[-1].anchor))

    def handle_endtag(self, tag: str) -> None:
        if tag == "h2" and self.in_h2:
            self.in_h2 = False
            self.titles[self.section[-1].anchor] = " ".join("".join(self.title_parts).split())
        if tag == "section" and self.section:
            self.section.pop()

    def handle_data(self, data: str) -> None:
        if self.in_h2:
            self.title_parts.append(data)


def restated(html: str, inventory: Inventory) -> dict[str, tuple[Place, ...]]:
    """Clause id → the sections of the document that restate it, in document order."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    places: dict[str, list[Place]] = {}
    for raw, anchor in reader.found:
        place = Place(anchor, reader.titles.get(anchor, anchor))
        for ident in sorted(inventory.expand([raw])):
            if place not in places.setdefault(ident, []):
                places[ident].append(place)
    return {ident: tuple(found) for ident, found in places.items()}


def rows(inventory: Inventory, config: OfferingConfig, html: str) -> list[Row]:
    places = restated(html, inventory)
    status: dict[str, tuple[str, tuple[Place, ...], str | None]] = {}
    for clause in reversed(inventory.clauses):  # children before parents
        found = places.get(clause.id, ())
        reason = inventory.not_applying(clause.id, config)
        children = inventory.children(clause.id)
        if found:
            status[clause.id] = ("restated", found, None)
        elif reason:
            status[clause.id] = ("not_applicable", (), reason)
        elif children and all(status[c.id][0] != "unaccounted" for c in children):
            status[clause.id] = ("in_parts", (), None)
        else:
            status[clause.id] = ("unaccounted", (), None)
    result: list[Row] = []
    skip: set[str] = set()
    for clause in inventory.clauses:
        if clause.id in skip:
            continue
        kind, found, reason = status[clause.id]
        below = inventory.descendants(clause.id)
        same = bool(below) and kind != "in_parts" and all(status[d.id][0] == kind and status[d.id][2] == reason
                                                         and set(status[d.id][1]) <= set(found) for d in below)
        if kind == "in_parts" and below and _uniform(below, status):
            # a heading whose every sub-clause is restated in the same place(s) or out for the same reason
            first = status[below[0].id]
            kind, found, reason, same = first[0], first[1], first[2], True
        if same:
            skip.update(d.id for d in below)
        result.append(Row(clause.id, clause.citation, clause.summary, kind, found, reason,
                          len(below) if same else 0,
                          inventory.parts_not_applying(clause.id, config) if kind == "restated" else ()))
    return result


def _uniform(below: list[Clause], status: dict[str, tuple[str, tuple[Place, ...], str | None]]) -> bool:
    first = status[below[0].id]
    if first[0] not in ("restated", "not_applicable"):
        return False
    return all(status[d.id][0] == first[0] and status[d.id][1] == first[1] and status[d.id][2] == first[2]
               for d in below)


def unaccounted(inventory: Inventory, config: OfferingConfig, html: str) -> list[str]:
    return [row.clause_id for row in rows(inventory, config, html) if row.status == "unaccounted"]


def read(inventory: Inventory, found: list[Row], readings: Iterable[Mapping[str, object] | None]) -> set[str]:
    """The rows (by clause id) on whose clauses one of the jurisdiction's readings rests."""
    interpreted: set[str] = set()
    for entry in readings:
        if entry is None:  # a reading this table does not print
            continue
        citation = entry.get("citation")
        if not isinstance(citation, str):
            continue
        try:
            interpreted.update(inventory.ids_of_citation(citation))
        except InventoryError:
            continue
    marked = set()
    for row in found:
        covered = {row.clause_id} | ({d.id for d in inventory.descendants(row.clause_id)} if row.covers else set())
        if covered & interpreted:
            marked.add(row.clause_id)
    return marked
