"""A finding: one problem (or note) at one place in one file, printed like a compiler's message."""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field

LEVELS = ("error", "warning", "note")


@dataclass(frozen=True)
class Finding:
    """`FILE:LINE:COL: level: message [citation]`; LINE and COL count from 1, as editors do."""

    path: str
    line: int
    column: int
    level: str
    message: str
    citation: str | None = None
    field: str | None = None  # the dotted path of the field, e.g. "table.positions"
    extra: dict = dc_field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown finding level {self.level!r}")

    def format(self) -> str:
        text = f"{self.path}:{self.line}:{self.column}: {self.level}: {self.message}"
        if self.citation:
            text += f" [{self.citation}]"
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
        }

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, LEVELS.index(self.level), self.message)


def worst_level(findings) -> str | None:
    levels = {f.level for f in findings}
    for level in LEVELS:
        if level in levels:
            return level
    return None
