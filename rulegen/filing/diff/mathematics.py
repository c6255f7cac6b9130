"""The mathematics that changed between two revisions: the figures a regulator compares, old → new."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from rulegen.filing.diff.words import _money
from rulegen.math.figures import COMPARED_FIGURES, figure_at

if TYPE_CHECKING:
    from rulegen.offering import Offering


# The figures a regulator compares between revisions: `rulegen.math.figures.COMPARED_FIGURES`, by their path in
# `rulegen math --json`. A bonus's return is 1 − its house edge; a wager not offered is None ("not offered").
MATH_TOLERANCE = 1e-12  # figures closer than this are the same figure computed twice


@dataclass(frozen=True)
class MathChange:
    figure: str
    label: str
    old: float | None
    new: float | None
    old_text: str
    new_text: str
    text: str  # "House edge (per ante, optimal strategy): 3.4120% → 3.2855%"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def offering_math(offering: Offering) -> dict[str, Any]:
    """The offering's mathematics with the keys of `rulegen math --json` (computed, or read from the math cache)."""
    from rulegen.math.report import offering_report
    from rulegen.resolved import resolve

    report: dict[str, Any] = offering_report(resolve(offering)).to_json()
    return report


def _figure(report: dict[str, Any], path: str, kind: str) -> float | None:
    value = figure_at(report, path)
    if value is None:
        return None
    number = float(value)
    return 1.0 - number if kind == "return" else number


def _figure_text(value: float | None, kind: str, digits: int) -> str:
    if value is None:
        return "not offered"
    if kind == "money":
        return _money(int(value) if value == int(value) else value)
    return f"{100 * value:.{digits}f}%"


def math_changes(old_report: dict[str, Any], new_report: dict[str, Any]) -> list[MathChange]:
    """Each figure of COMPARED_FIGURES that differs between the two revisions' mathematics, old → new.
    Percentages print to 4 decimals, or as many more (up to 8) as it takes for the two to read differently."""
    changes: list[MathChange] = []
    for compared in COMPARED_FIGURES:
        assert compared.name is not None and compared.label is not None
        figure, label, path, kind = compared.name, compared.label, compared.path, compared.kind
        old, new = _figure(old_report, path, kind), _figure(new_report, path, kind)
        if old is None and new is None:
            continue
        if old is not None and new is not None and abs(old - new) <= MATH_TOLERANCE:
            continue
        digits = 4
        while digits < 8 and _figure_text(old, kind, digits) == _figure_text(new, kind, digits):
            digits += 1
        old_text, new_text = _figure_text(old, kind, digits), _figure_text(new, kind, digits)
        changes.append(MathChange(figure, label, old, new, old_text, new_text, f"{label}: {old_text} → {new_text}"))
    return changes


def math_diff(old: Offering, new: Offering) -> dict[str, Any]:
    """{"changes": [...], "note": None} for two offerings; when either's mathematics cannot be computed (it does
    not validate, say), no changes and a note that says why."""
    try:
        before, after = offering_math(old), offering_math(new)
    except Exception as exc:  # an offering that does not validate may break the analysis anywhere
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return {"changes": [], "note": f"the mathematics could not be computed for both revisions ({reason})"}
    changes = math_changes(before, after)
    return {"changes": [c.to_json() for c in changes],
            "note": None if changes else "no figure of the mathematics changed"}
