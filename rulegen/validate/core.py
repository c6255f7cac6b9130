"""What every check shares: the `Check` it is registered as, and the `Context` it reads and reports into.

A check is a small function registered with the field it governs, where its citation comes from, and the
slug of its rule code. It reads the offering through the context and reports with `ctx.add(...)`, which
stamps each finding with the check's citation (unless the finding names a more precise one) and its rule
code. Checks never print, never exit and never raise for bad input: a problem is a finding.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable

from rulegen.findings import Finding, Node, dotted
from rulegen.jurisdiction import FORMAT, Cited, Jurisdiction
from rulegen.offering import Offering

ANY = "*"  # in a check's field: any list index or mapping key at that place


@dataclass(frozen=True)
class Check:
    """One registered check.

    `field`: the node it governs (`ANY` for any index). `cites`: where its citation comes from, either the
    offering format (`FORMAT`), a key path into the jurisdiction's data (`("rules", "two_decks")`) whose
    citation the finding carries, or a function giving the citations it may carry in a jurisdiction (a Bonus
    Spin check cites the designated table). A finding may name a more precise citation than the check's. `rule`: the slug of its rule code. `jurisdictional`: it needs the
    jurisdiction's data and runs only when the offering names a known one. `needs`: the parts of the offering
    it computes a figure from; it runs unless an error was found in one of them, inside one, in a part that
    holds one, or about the whole file (the payout-limit floor needs a figure the math can trust; a typo'd key
    elsewhere leaves that figure sound, so both are reported in one pass).
    """

    name: str
    field: Node
    cites: str | tuple | Callable[[Jurisdiction], list[str]]
    rule: str
    run: Callable[["Context", "Check"], None]
    jurisdictional: bool = True
    needs: tuple[Node, ...] = ()
    also: tuple[str, ...] = ()  # the slugs of narrower rules some of its findings carry instead of `rule`

    @property
    def slugs(self) -> tuple[str, ...]:
        return (self.rule, *self.also)

    def blocked_by(self, findings) -> bool:
        """An error found in a part this check needs (or about the whole file, or a part holding one)."""
        for finding in findings:
            if finding.level != "error":
                continue
            if finding.node is None:
                return True
            for need in self.needs:
                shorter = min(len(finding.node), len(need))
                if finding.node[:shorter] == need[:shorter]:
                    return True
        return False

    def citation(self, jurisdiction: Jurisdiction | None) -> str | None:
        """The check's citation for a jurisdiction, or None where the jurisdiction's data has no such rule."""
        if self.cites == FORMAT:
            return FORMAT
        if jurisdiction is None:
            return None
        if callable(self.cites):
            citations = self.cites(jurisdiction)
            return citations[0] if citations else None
        cited = jurisdiction.cited(*self.cites)
        return cited.citation if cited else None


@dataclass
class Context:
    """One offering under validation: its data, its jurisdiction, and the findings so far."""

    offering: Offering
    jurisdiction: Jurisdiction | None
    schema_nodes: set = field(default_factory=set)  # nodes the schema already complained about
    findings: list[Finding] = field(default_factory=list)

    @property
    def data(self) -> dict:
        return self.offering.data

    @property
    def j(self) -> Jurisdiction:
        assert self.jurisdiction is not None  # only jurisdictional checks ask, and they run only with one
        return self.jurisdiction

    def get(self, node: Node):
        return get(self.data, node)

    def cited(self, *keys: str) -> Cited | None:
        return self.jurisdiction.cited(*keys) if self.jurisdiction else None

    def failed(self, node: Node) -> bool:
        """The schema already reported this node or one inside it: checks leave it alone."""
        node = tuple(node)
        return any(n[:len(node)] == node for n in self.schema_nodes)

    def add(self, check: Check, node: Node, level: str, message: str, citation: str | None = None, *,
            key: bool = False, rule: str | None = None, at: Node | None = None) -> Finding:
        """Report a finding about `node` (placed at `at` when given: the mapping that lacks a missing field)."""
        cited = citation or check.citation(self.jurisdiction) or FORMAT
        if (rule or check.rule) not in check.slugs:
            raise ValueError(f"check {check.name!r} reports rule {rule!r}, which it does not declare")
        finding = self.offering.finding(tuple(node), level, message, cited, key=key, at=at,
                                        rule=rule_code(self.jurisdiction, cited, rule or check.rule))
        self.findings.append(finding)
        return finding


# --- rule codes ---------------------------------------------------------------------------------------------------

def rule_code(jurisdiction: Jurisdiction | None, citation: str | None, slug: str) -> str:
    """`NJ-40.11d-limit`: the jurisdiction, the clause cited in short, and the rule's slug.

    A rule of the offering format itself is `FORMAT-<slug>`. The clause comes from the citation with the
    jurisdiction's citation prefix removed: `N.J.A.C. 13:69F-40.11(d)` -> `40.11d`, `MLGCA ... Chapter 12
    §D(6)(b)(i)` -> `12D6bi`, `58 Pa. Code § 674a.12(d)` -> `674a.12d`, `House rules, Pay Tables` -> `PayTables`.
    """
    if not citation or citation == FORMAT or jurisdiction is None:
        return f"FORMAT-{slug}"
    return f"{jurisdiction.code}-{clause_code(jurisdiction, citation)}-{slug}"


def clause_code(jurisdiction: Jurisdiction, citation: str) -> str:
    prefix = str((jurisdiction.data.get("document") or {}).get("citation_prefix") or "")
    text = citation[len(prefix):] if prefix and citation.startswith(prefix) else citation
    text = text.split(",")[0] if not text.startswith(",") else text  # "13:69E-1.13Z(b)4, (c)": the first clause
    text = re.sub(r"^\s*[\d]+:[\dA-Z]+-", "", text.strip(" ,"))  # a title:chapter- prefix (13:69F-)
    text = re.sub(r"Table\s*(\d+)", r"T\1", text.replace("Chapter", "").replace("§", ""))
    text = re.sub(r"[\s()]", "", text)
    return text or "text"


# --- reading the data -------------------------------------------------------------------------------------------

def get(data, node: Node):
    for key in node:
        if isinstance(data, dict) and key in data:
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data


def number(value) -> Decimal | None:
    """An exact finite number, or None (a bool, text, NaN or infinity is not a number here)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, Decimal) and value.is_finite():
        return value
    return None


def non_finite_numbers(value, node: Node = ()):
    """(node, number) for every NaN or infinity in the data."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield from non_finite_numbers(child, node + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from non_finite_numbers(child, node + (index,))
    elif (isinstance(value, float) and not math.isfinite(value)) or \
            (isinstance(value, Decimal) and not value.is_finite()):
        yield node, value


def describe(value) -> str:
    """A value as a message shows it."""
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


__all__ = ["ANY", "Check", "Context", "FORMAT", "describe", "dotted", "get", "non_finite_numbers", "number",
           "rule_code"]
