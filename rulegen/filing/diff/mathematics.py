"""The mathematics that changed between two revisions: the figures a regulator compares, old → new."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from rulegen.filing.diff.words import _money
from rulegen.math.figures import COMPARED_FIGURES, figure_at
from rulegen.vocabulary import wager_name

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


def _figure_text(value: float | None, kind: str, digits: int, absent: str = "not offered") -> str:
    if value is None:
        return absent
    if kind == "money":
        return _money(int(value) if value == int(value) else value)
    if kind == "expected_money":  # an expectation in dollars, to as many places as the percentages
        return f"${value:,.{digits}f}"
    return f"{100 * value:.{digits}f}%"


def _places(old: float | None, new: float | None, kind: str) -> int:
    """4 decimals, or more (up to 10) where a small figure would read as nought: two significant digits of each
    figure that is not 0, so a tiny probability or expectation never prints as 0.0000."""
    if kind == "money":
        return 0
    scale = 1 if kind == "expected_money" else 100
    places = 4
    for value in (old, new):
        if value:
            places = max(places, 1 - math.floor(math.log10(abs(value * scale))))
    return min(places, 10)


def _change(figure: str, label: str, old: float | None, new: float | None, kind: str,
            absent: str = "not offered") -> MathChange | None:
    """The change of one figure, old → new, or None where the two are the same figure; percentages and expected
    amounts print to 4 decimals (more for a tiny figure: `_places`), or as many more (up to 8) as it takes for the
    two to read differently."""
    if old is None and new is None:
        return None
    if old is not None and new is not None and abs(old - new) <= MATH_TOLERANCE:
        return None
    digits = _places(old, new, kind)
    while digits < 8 and _figure_text(old, kind, digits, absent) == _figure_text(new, kind, digits, absent):
        digits += 1
    old_text, new_text = _figure_text(old, kind, digits, absent), _figure_text(new, kind, digits, absent)
    return MathChange(figure, label, old, new, old_text, new_text, f"{label}: {old_text} → {new_text}")


def math_changes(old_report: dict[str, Any], new_report: dict[str, Any]) -> list[MathChange]:
    """Each figure of COMPARED_FIGURES that differs between the two revisions' mathematics, old → new, then each
    figure of the payout limit's effect that differs (`payout_limit_changes`)."""
    changes: list[MathChange] = []
    for compared in COMPARED_FIGURES:
        assert compared.name is not None and compared.label is not None
        path, kind = compared.path, compared.kind
        change = _change(compared.name, compared.label, _figure(old_report, path, kind),
                         _figure(new_report, path, kind), kind)
        if change is not None:
            changes.append(change)
    return changes + payout_limit_changes(old_report, new_report)


# --- the payout limit's effect (the math report's `payout_cap`, rulegen.math.cap) -----------------------------------

# Per row of the effect: the figure's key in the row, its name's stem, its words, how it prints.
_MAIN_FIGURES = (("probability_cap_binds", "binds", "probability the limit binds", "percent"),
                 ("ev_removed_per_round_dollars", "removes", "expected payout removed per round", "expected_money"))
_BONUS_FIGURES = (("probability_cap_binds", "binds", "probability the limit binds", "percent"),
                  ("ev_removed_per_wager_dollars", "removes", "expected payout removed per wager", "expected_money"),
                  ("house_edge_with_cap", "house_edge", "house edge with the limit", "percent"))
NO_LIMIT = "no payout limit"


def _cap_rows(report: dict[str, Any], part: str) -> dict[tuple[str, ...], dict[str, Any]]:
    """The rows of the payout limit's effect on the main game (`at`, by minimum|maximum) or on each bonus
    (`bonuses`, by wager and minimum|maximum); none where the offering has no limit."""
    section = report.get("payout_cap")
    if not isinstance(section, dict):
        return {}
    rows = section.get(part) or []
    if part == "at":
        return {(row["which"],): row for row in rows}
    return {(row["wager"], row["which"]): row for row in rows}


def _amounts(old: dict[str, Any] | None, new: dict[str, Any] | None, key: str) -> str:
    """The amount wagered a row is at, as it reads: "$10", or "$10 → $20" where the revisions differ."""
    before = _money(old[key]) if old is not None else None
    after = _money(new[key]) if new is not None else None
    if before is None or after is None or before == after:
        return str(before or after)
    return f"{before} → {after}"


def payout_limit_changes(old_report: dict[str, Any], new_report: dict[str, Any]) -> list[MathChange]:
    """Each figure of the payout limit's effect that differs between the two revisions: on the main game at the
    minimum and maximum ante, and on each bonus the limit covers at its minimum and maximum wager (the appendix's
    two tables). A revision without a limit, or whose limit does not cover the bonus, reads "no payout limit"."""
    changes: list[MathChange] = []
    for part, figures in (("at", _MAIN_FIGURES), ("bonuses", _BONUS_FIGURES)):
        before, after = _cap_rows(old_report, part), _cap_rows(new_report, part)
        keys = list(before) + [key for key in after if key not in before]
        for key in keys:
            old_row, new_row = before.get(key), after.get(key)
            if part == "at":
                which = key[0]
                where = f"{which} ante ({_amounts(old_row, new_row, 'ante')})"
                stem = f"payout_limit_{which}_ante"
            else:
                wager, which = key
                amount = _amounts(old_row, new_row, "amount")
                where = f"{wager_name(wager)} by itself, {which} wager ({amount})"
                stem = f"payout_limit_{wager}_{which}"
            for field, name, words, kind in figures:
                old = float(old_row[field]) if old_row is not None else None
                new = float(new_row[field]) if new_row is not None else None
                change = _change(f"{stem}_{name}", f"Payout limit, {where}: {words}", old, new, kind, NO_LIMIT)
                if change is not None:
                    changes.append(change)
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
