"""The clause inventory of each jurisdiction's text, and which clauses apply to one offering.

Layer: jurisdiction (data about the texts; uses nothing of ours but `rulegen.resources`).

`jurisdictions/clauses/<code>.yaml` lists every numbered or lettered clause of the source text, to its deepest
level, in the text's order: its pinpoint label (`id`, the citation without the jurisdiction's prefix), its parent,
a one-line summary in our own words, and, where the clause governs only some configurations of an offering,
`when` (inherited by its sub-clauses). The rules document names the clauses each of its rules restates
(`data-clauses` on the element) and ends with a concordance built from this inventory: every clause that applies
is restated somewhere, every other one is listed with the reason it does not apply.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rulegen import resources, vocabulary

CONDITION_KEYS = ("dealing", "shuffling", "decks", "five_card_bonus", "six_card_bonus", "bonus_spin",
                  "bonus_spin_paytable", "bonus_spin_wager", "community_pay", "top_prize", "payout_limit",
                  "automation", "cut", "ante_table")

DEALING_WORDS = vocabulary.DEALING_WORDS
SHUFFLING_WORDS = vocabulary.SHUFFLING_WORDS  # one wording of each way of shuffling, everywhere
BONUS_SPIN_WORDS = {kind: f"the {name} wager" for kind, name in vocabulary.BONUS_SPIN_KINDS.items()}
TOP_PRIZE_WORDS = vocabulary.TOP_PRIZE_WORDS


class InventoryError(ValueError):
    """A clause inventory file that is malformed, or a clause id that is not in it."""


@dataclass(frozen=True)
class OfferingConfig:
    """The choices of an offering that decide which clauses of its jurisdiction's text apply."""

    dealing: str | None = None
    shuffling: str | None = None
    decks: int | None = None
    five_card_bonus: bool = False
    six_card_bonus: bool = False
    bonus_spin: str | None = None
    bonus_spin_paytable: str | None = None
    bonus_spin_wager: int | None = None
    community_pay: str | None = None
    top_prize: str | None = None
    payout_limit: bool = False
    bonus_spin_names: tuple[tuple[str, str], ...] = ()  # (kind, the wager's name in the text), where the data names it
    ante_table: str | None = None  # the authorized ante table the offering's is or matches (None: one of its own)

    @property
    def automation(self) -> bool:
        return self.shuffling in ("automated", "automated-counting") or self.dealing == "automated-shoe"


@dataclass(frozen=True)
class Clause:
    id: str
    parent: str | None
    summary: str
    citation: str
    when: Mapping[str, Any] = field(default_factory=dict)
    # where a clause the text does not number holds provisions for optional wagers (a house text's headings): each
    # such part in our words with the configurations it applies to, for the Concordance to say when one does not
    parts: tuple[tuple[str, Mapping[str, Any]], ...] = ()


@dataclass(frozen=True)
class CitationForm:
    """How the text's citations are written, from the inventory's `citation_form` (data, never a state's code):
    `labels` rewrite a clause id into its citation label (`{pattern, write}`, a regular expression and its
    replacement); `section_starts` are how a part of a citation naming a new section begins; a later part that
    begins otherwise is short for `abbreviated_prefix` + part; `tail_keeps_section` keeps the `§` of a range's
    or a pair's second clause (`Chapter 11 §A(1)–§B(2)` rather than `–B(2)`)."""

    labels: tuple[tuple[re.Pattern[str], str], ...] = ()
    section_starts: tuple[str, ...] = ()
    abbreviated_prefix: str = ""
    tail_keeps_section: bool = False

    def label(self, clause_id: str) -> str:
        for pattern, write in self.labels:
            clause_id = pattern.sub(write, clause_id)
        return clause_id


@dataclass(frozen=True)
class Inventory:
    code: str
    source: str
    citation_prefix: str
    clauses: tuple[Clause, ...]
    form: CitationForm = field(default_factory=CitationForm)
    by_id: Mapping[str, Clause] = field(init=False, repr=False, compare=False)
    _children: Mapping[str, tuple[Clause, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {c.id: c for c in self.clauses}
        if len(index) != len(self.clauses):
            raise InventoryError(f"{self.code}: a clause id appears twice in the inventory")
        children: dict[str, list[Clause]] = {}
        for clause in self.clauses:
            if clause.parent is not None:
                children.setdefault(clause.parent, []).append(clause)
        object.__setattr__(self, "by_id", index)
        object.__setattr__(self, "_children", {key: tuple(value) for key, value in children.items()})

    def children(self, clause_id: str) -> tuple[Clause, ...]:
        return self._children.get(clause_id, ())

    def descendants(self, clause_id: str) -> list[Clause]:
        found: list[Clause] = []
        for child in self.children(clause_id):
            found.append(child)
            found.extend(self.descendants(child.id))
        return found

    def ancestors(self, clause_id: str) -> list[Clause]:
        chain = []
        parent = self.clause(clause_id).parent
        while parent is not None:
            chain.append(self.clause(parent))
            parent = self.clause(parent).parent
        return chain

    def clause(self, clause_id: str) -> Clause:
        try:
            return self.by_id[clause_id]
        except KeyError:
            raise InventoryError(f"{self.code}: no clause {clause_id!r} in {self.source}") from None

    def conditions(self, clause_id: str) -> dict[str, Any]:
        """The clause's `when`, with those of every clause above it."""
        merged: dict[str, Any] = {}
        for clause in reversed([self.clause(clause_id), *self.ancestors(clause_id)]):
            merged.update(clause.when)
        return merged

    def not_applying(self, clause_id: str, config: OfferingConfig) -> str | None:
        """None when the clause applies to an offering of this configuration, else the reason it does not."""
        return unmet(self.conditions(clause_id), config)

    def parts_not_applying(self, clause_id: str, config: OfferingConfig) -> tuple[tuple[str, str], ...]:
        """The parts of a clause that do not apply to this configuration, each with its reason."""
        found = []
        for what, when in self.clause(clause_id).parts:
            reason = unmet(dict(when), config)
            if reason:
                found.append((what, reason))
        return tuple(found)

    def expand(self, ids: Iterable[str]) -> set[str]:
        """Clause ids named by a rule: `X` is the clause itself, `X*` the clause and everything under it."""
        found: set[str] = set()
        for raw in ids:
            whole = raw.endswith("*")
            clause_id = raw[:-1] if whole else raw
            self.clause(clause_id)
            found.add(clause_id)
            if whole:
                found.update(c.id for c in self.descendants(clause_id))
        return found

    def citation(self, ids: Iterable[str]) -> str:
        """One citation for several clauses, in the text's order: the prefix once, each section once, a clause's
        heading left out where its sub-clauses are named, and three or more consecutive siblings as a range
        (`Chapter 11 §A(1)–(5), §B`; `§ 674a.11(h)(3), (4)`; `13:69F-40.7(c), (d)`)."""
        wanted = {i.rstrip("*") for i in ids}
        missing = wanted - set(self.by_id)
        if missing:
            raise InventoryError(f"{self.code}: no clause {sorted(missing)[0]!r} in {self.source}")
        named = [c for c in self.clauses if c.id in wanted]
        kept = [c for c in named if not any(d.id in wanted for d in self.descendants(c.id))]
        if not kept:
            return ""
        groups: list[tuple[str, list[list[Clause]]]] = []
        for clause in kept:
            base = self._section_of(clause.id)
            if not groups or groups[-1][0] != base:
                groups.append((base, []))
            runs = groups[-1][1]
            last = runs[-1][-1] if runs else None
            if last is not None and last.parent == clause.parent and self._next_sibling(last) is clause:
                runs[-1].append(clause)
            else:
                runs.append([clause])
        parts = []
        for base, runs in groups:
            texts = []
            for run in runs:
                first = self._suffix(run[0].id, base)
                if len(run) >= 3:
                    texts.append(first + "–" + self._suffix(run[-1].id, run[-1].parent or base, tail=True))
                elif len(run) == 2:
                    texts.append(first)
                    texts.append(self._suffix(run[1].id, run[1].parent or base, tail=True))
                else:
                    texts.append(first)
            label = self.form.label(base)
            joined = ", ".join(t for t in texts if t)
            if not joined:
                parts.append(label)
            elif joined.startswith(("§", " ", "“")):
                parts.append(label + (" " if joined.startswith("§") else "") + joined)
            else:
                parts.append(label + joined)
        return self.citation_prefix + "; ".join(parts)

    def _section_of(self, clause_id: str) -> str:
        chain = [clause_id] + [a.id for a in self.ancestors(clause_id)]
        return chain[-1]

    def _next_sibling(self, clause: Clause) -> Clause | None:
        siblings = self.children(clause.parent) if clause.parent else ()
        for index, sibling in enumerate(siblings[:-1]):
            if sibling is clause:
                return siblings[index + 1]
        return None

    def _suffix(self, clause_id: str, base: str, tail: bool = False) -> str:
        """The part of a clause's label after `base`: `§A(1)` of `Chapter 11 §A(1)`, `(4)` of `(h)(4)` as a tail."""
        label = self.form.label(clause_id)
        base_label = self.form.label(base)
        if label == base_label:
            return ""
        rest = label[len(base_label):] if label.startswith(base_label) else label
        if tail and self.form.tail_keeps_section and rest.startswith(" §"):
            return rest.strip()
        return rest if not rest.startswith(" §") else rest[1:]

    def ids_of_citation(self, citation: str) -> list[str]:
        """The clause ids a full citation in the jurisdiction's form names ("..., Chapter 6 §A, §B")."""
        if not citation.startswith(self.citation_prefix):
            raise InventoryError(f"{self.code}: {citation!r} does not start with {self.citation_prefix!r}")
        rest = citation[len(self.citation_prefix):]
        found: list[str] = []
        starts = "".join("|" + re.escape(start) for start in self.form.section_starts)
        for part in re.split(rf";\s*|,\s*(?=§|\({starts})", rest):
            part = part.strip()
            if not part:
                continue
            if found and part.startswith(("§", "(")):
                base = found[-1]
                if part.startswith("§"):
                    part = base.split(" §")[0] + " " + part
                else:
                    part = re.sub(r"\([^)]*\)$", "", base) + part if base.endswith(")") else base + part
            if self.form.abbreviated_prefix and not part.startswith(self.form.section_starts):
                part = self.form.abbreviated_prefix + part
            self.clause(part)
            found.append(part)
        return found


def unmet(when: Mapping[str, Any], config: OfferingConfig) -> str | None:
    """None when an offering of this configuration meets every condition of `when` (a clause's, a reading's or a
    note's), else the reason it does not: one condition decides both whether a text is printed and what the
    Concordance says of it, so the two cannot disagree."""
    for key, allowed in when.items():
        reason = _unmet(key, allowed, config)
        if reason:
            return reason
    return None


def _unmet(key: str, allowed: Any, config: OfferingConfig) -> str | None:
    if key == "dealing":
        if config.dealing not in allowed:
            return (f"governs dealing {' or '.join(DEALING_WORDS[a] for a in allowed)}; this table deals "
                    f"{DEALING_WORDS.get(config.dealing or '', 'by another method')}")
    elif key == "shuffling":
        if config.shuffling not in allowed:
            if allowed == ["manual"]:
                need = "cards shuffled by hand"
            elif set(allowed) == {"manual", "automated"}:
                need = "no shuffler that counts the cards"
            elif allowed == ["automated-counting"]:
                need = "a shuffler that counts the cards after each shuffle"
            else:
                need = "an automated shuffler"
            shuffled = SHUFFLING_WORDS.get(config.shuffling or "", "otherwise")
            return f"applies only with {need}; this table's cards are shuffled {shuffled}"
    elif key == "decks":
        if config.decks not in allowed:
            uses = "one deck" if config.decks == 1 else "another number"
            return f"applies only with two decks; this table uses {uses}"
    elif key in ("five_card_bonus", "six_card_bonus"):
        name = vocabulary.WAGER_NAMES[key]
        if bool(getattr(config, key)) != bool(allowed):
            return (f"applies only where the {name} is offered; this submission does not offer it at this table, "
                    f"a choice it submits for approval")
    elif key == "bonus_spin":
        if config.bonus_spin not in allowed:
            words = {**BONUS_SPIN_WORDS, **{kind: f"the {name} wager" for kind, name in config.bonus_spin_names}}
            offered = words.get(config.bonus_spin or "", "no Bonus Spin wager")
            wanted = " or ".join(words.get(a, "no Bonus Spin wager") for a in allowed)  # null: none
            return f"applies only where {wanted} is offered; this table offers {offered}"
    elif key == "bonus_spin_paytable":
        if config.bonus_spin_paytable not in allowed:
            return (f"governs Bonus Spin paytable {' or '.join(allowed)}; this table uses paytable "
                    f"{config.bonus_spin_paytable}")
    elif key == "bonus_spin_wager":
        if config.bonus_spin_wager not in allowed:
            return (f"governs a ${' or $'.join(str(a) for a in allowed)} Bonus Spin wager; this table's wager is "
                    f"${config.bonus_spin_wager}")
    elif key == "community_pay":
        if config.community_pay is None:
            return "applies only where a community-pay table is designated; this submission designates none"
        if config.community_pay not in allowed:
            return f"governs community-pay table {' or '.join(allowed)}; this table designates {config.community_pay}"
    elif key == "top_prize":
        if config.top_prize not in allowed:
            return (f"applies where the top prize is {' or '.join(TOP_PRIZE_WORDS[a] for a in allowed)}; this "
                    f"table's top prize is {TOP_PRIZE_WORDS.get(config.top_prize or '', 'of another kind')}")
    elif key == "payout_limit":
        if config.payout_limit != bool(allowed):
            return "applies only where a payout limit is set; this submission sets none"
    elif key == "cut":
        # Every text lets a table deal from the hand only with cards its automated shuffler has shuffled (MD
        # Chapter 9 §A(1), N.J.A.C. 13:69F-40.8(b)1, 58 Pa. Code § 674a.9(a)(1)): no card dealt there is cut.
        if (config.dealing != "hand") != bool(allowed):
            return ("applies only to cards that are cut, those shuffled by hand or arriving preshuffled; this table "
                    "deals from the hand, and every deck it deals is shuffled by its automated device first, so no "
                    "card is cut")
    elif key == "ante_table":
        if config.ante_table not in allowed:
            paid = f"the {config.ante_table} table" if config.ante_table else "a table of its own"
            return (f"applies only where the antes are paid from the {' or '.join(allowed)} ante table; this table "
                    f"pays them from {paid}")
    elif key == "automation":
        if config.automation != bool(allowed):
            return "applies only with an automated shuffler or automated dealing shoe; this table uses neither"
    else:
        raise InventoryError(f"unknown condition {key!r}")
    return None


def inventory_path(code: str) -> Path:
    """The clause inventory of `code`: `jurisdictions/clauses/<code>.yaml` in the first data folder that has it
    (`RULEGEN_DATA_PATH`, then the shipped data)."""
    for root in resources.data_roots():
        path = root / "jurisdictions" / "clauses" / f"{code.lower()}.yaml"
        if path.is_file():
            return path
    return resources.jurisdictions_dir() / "clauses" / f"{code.lower()}.yaml"


def load(code: str) -> Inventory:
    return _load(code, inventory_path(code))


@cache
def _load(code: str, path: Path) -> Inventory:
    try:
        from ruamel.yaml import YAML

        raw = YAML(typ="safe").load(path.read_text(encoding="utf-8"))  # data: the C parser, as jurisdiction.py
    except OSError as exc:
        raise InventoryError(f"{code}: the clause inventory {path} cannot be read ({exc.strerror})") from None
    if not isinstance(raw, dict) or raw.get("code") != code or not isinstance(raw.get("clauses"), list):
        raise InventoryError(f"{path}: expected code {code} and a list of clauses")
    prefix = str(raw.get("citation_prefix") or "")
    form = _citation_form(path, raw.get("citation_form") or {})
    clauses = []
    seen: set[str] = set()
    for entry in raw["clauses"]:
        if not isinstance(entry, dict) or not entry.get("id") or not entry.get("summary"):
            raise InventoryError(f"{path}: every clause needs an id and a summary ({entry!r})")
        when = entry.get("when") or {}
        unknown = set(when) - set(CONDITION_KEYS)
        if unknown:
            raise InventoryError(f"{path}: clause {entry['id']!r} has unknown conditions {sorted(unknown)}")
        parent = entry.get("parent")
        if parent is not None and parent not in seen:
            raise InventoryError(f"{path}: clause {entry['id']!r} names parent {parent!r}, not listed before it")
        seen.add(entry["id"])
        parts = []
        for part in entry.get("parts") or []:
            if not isinstance(part, dict) or not part.get("what") or not isinstance(part.get("when"), dict) \
                    or set(part["when"]) - set(CONDITION_KEYS):
                raise InventoryError(f"{path}: clause {entry['id']!r} has a part without `what` and a known `when`")
            parts.append((str(part["what"]), dict(part["when"])))
        clauses.append(Clause(id=str(entry["id"]), parent=parent, summary=str(entry["summary"]),
                              citation=prefix + form.label(str(entry["id"])), when=dict(when), parts=tuple(parts)))
    return Inventory(code=code, source=str(raw.get("source") or ""), citation_prefix=prefix, clauses=tuple(clauses),
                     form=form)


FORM_KEYS = {"labels", "section_starts", "abbreviated_prefix", "tail_keeps_section"}


def _citation_form(path: Path, raw: Any) -> CitationForm:
    if not isinstance(raw, dict) or set(raw) - FORM_KEYS:
        raise InventoryError(f"{path}: citation_form takes only {sorted(FORM_KEYS)}")
    labels = raw.get("labels") or []
    starts = raw.get("section_starts") or []
    if not (isinstance(labels, list) and all(isinstance(e, dict) and set(e) == {"pattern", "write"}
                                             and all(isinstance(v, str) for v in e.values()) for e in labels)):
        raise InventoryError(f"{path}: citation_form.labels is a list of {{pattern, write}} strings")
    if not (isinstance(starts, list) and all(isinstance(e, str) and e for e in starts)):
        raise InventoryError(f"{path}: citation_form.section_starts is a list of strings")
    try:
        compiled = tuple((re.compile(e["pattern"]), e["write"]) for e in labels)
    except re.error as exc:
        raise InventoryError(f"{path}: citation_form.labels: {exc}") from None
    return CitationForm(labels=compiled, section_starts=tuple(starts),
                        abbreviated_prefix=str(raw.get("abbreviated_prefix") or ""),
                        tail_keeps_section=bool(raw.get("tail_keeps_section", False)))


def available(code: str) -> bool:
    return inventory_path(code).is_file()
