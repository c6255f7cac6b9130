"""A finding: one problem (or note) at one place in one file, printed like a compiler's message.

Layer: a leaf (uses nothing of ours); load, validate, build and filing all make and read findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field

LEVELS = ("error", "warning", "note")

Node = tuple  # a node's path in the offering: keys (str) and list indexes (int), e.g. ("cards", "back_colours", 1)


def dotted(node: Node) -> str:
    """`("cards", "back_colours", 1)` -> `cards.back_colours[1]`."""
    text = ""
    for part in node:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text


@dataclass(frozen=True)
class Finding:
    """`FILE:LINE:COL: level: message [citation] (RULE)`; LINE and COL count from 1, as editors do.

    `node` is the path of the offending node (for a missing field, the path it should have); `field` is its
    dotted form. `rule` is the stable code of the rule broken (e.g. `NJ-40.11d-limit`), listed in
    jurisdictions/README.md; it follows the citation in parentheses so that `[citation]` stays where readers
    of the text form expect it.
    """

    path: str
    line: int
    column: int
    level: str
    message: str
    citation: str | None = None
    node: Node | None = None  # None: the finding is about the file as a whole (not UTF-8, not YAML ...)
    rule: str | None = None
    extra: dict = dc_field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown finding level {self.level!r}")
        if self.node is not None and not isinstance(self.node, tuple):
            raise TypeError(f"a finding's node is a tuple path, not {type(self.node).__name__}")

    @property
    def field(self) -> str | None:
        """The dotted path of the node (`cards.back_colours[1]`); None for a finding about the whole file."""
        if self.node is None:
            return None
        return dotted(self.node) or None

    def format(self) -> str:
        text = f"{self.path}:{self.line}:{self.column}: {self.level}: {self.message}"
        if self.citation:
            text += f" [{self.citation}]"
        if self.rule:
            text += f" ({self.rule})"
        return text

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "level": self.level,
            "message": self.message,
            "citation": self.citation,
            "field": self.field,
            "rule": self.rule,
        }

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, LEVELS.index(self.level), self.message)


def worst_level(findings) -> str | None:
    levels = {f.level for f in findings}
    for level in LEVELS:
        if level in levels:
            return level
    return None
