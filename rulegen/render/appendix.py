"""The math appendix (par sheet): every figure read by attribute from the math layer's typed `MathReport`, none
computed here. A renamed field fails the render (AttributeError, or Jinja's StrictUndefined) instead of
dropping a line; a wager the offering does not have is None and its section is left out. The one sum made here
joins the outcome rows of hand classes that the offering's paytable names as one row (a pair of 6s or better), so
the appendix lists the table as it is written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from markupsafe import Markup

from rulegen.render import svg, tables
from rulegen.render.context import document_info, max_win_reading
from rulegen.render.environment import render_template
from rulegen.resolved import ResolvedOffering, clause_config

if TYPE_CHECKING:
    from rulegen.math.results import BonusResult, Figure, MainGameAnalysis, MathReport, NetOutcome, VerificationCheck
    from rulegen.resolved import SideWager
    from rulegen.math.wheel_results import BonusSpinResult
    from rulegen.render.context import Draft

Row = TypeVar("Row")

RANKS = "AKQJT98765432"
WAGER_TITLES = {
    "main_game": "Main game (antes with Across, Down and Middle bets)",
    "five_card_bonus": "Five Card Bonus",
    "six_card_bonus": "Six Card Bonus",
    "bonus_spin": "Bonus Spin",
}


def starting_hand(row: int, column: int) -> str:
    """The 13 x 13 grid's hand at (row, column): pairs on the diagonal, suited above it, offsuit below."""
    high, low = RANKS[min(row, column)], RANKS[max(row, column)]
    if row == column:
        return high + low
    return high + low + ("s" if column > row else "o")


@dataclass(frozen=True)
class GridCell:
    hand: str
    decision: str  # fold | 1x | 3x


def strategy_grid(decisions: dict[str, str]) -> list[list[GridCell]]:
    """The Across decision of each of the 169 starting hands, as the 13 x 13 grid (a hand missing is a KeyError)."""
    return [[GridCell(hand, decisions[hand]) for hand in (starting_hand(row, column) for column in range(13))]
            for row in range(13)]


def in_columns(rows: Iterable[Row], columns: int = 3) -> list[list[Row | None]]:
    """Rows laid out down `columns` side-by-side groups (a long table printed compactly), top to bottom first."""
    items = list(rows)
    height = -(-len(items) // columns)
    return [[items[c * height + r] if c * height + r < len(items) else None for c in range(columns)]
            for r in range(height)]


def main_chart(distribution: tuple[NetOutcome, ...]) -> Markup:
    bars = [(str(row.outcome), row.probability) for row in distribution]
    labels = ["" for _ in distribution]  # the figures are in the table beside the chart; bars this many stay unlabelled
    return svg.bar_chart(bars, title="Main game: probability of each net result per round, in antes (log scale)",
                         value_labels=labels, log_scale=True)


@dataclass(frozen=True)
class WheelView:
    spin: BonusSpinResult
    drawing: Markup  # the SVG
    positions_given: bool  # the text numbers the wheel's positions (the wedges go round in that order)
    community_name: str | None  # the designated community-pay table or Community Prize Wheel: "wheel C"
    operator_term: str  # whose wheel the weights are: "casino licensee", "facility operator"
    agency: str  # who approves it
    community_wheel_weight: int | None = None  # the Community Prize Wheel's weights' total, where they are given
    lost_on_fold: bool = False  # a folding player's Bonus Spin wager is lost with the hand (as settlement has it)


def _limit_base(offering: ResolvedOffering) -> Any:
    base = offering.jurisdiction.cited("payout_limit", "base_amount")
    return base.value if base is not None else None


def wheel_view(spin: BonusSpinResult | None, spin_table: tables.BonusSpinView | None,
               jurisdiction: Any, *, lost_on_fold: bool = False) -> WheelView | None:
    if spin is None:
        return None
    if spin_table is None:
        raise ValueError("the math has a Bonus Spin result but the offering has no Bonus Spin table")
    segments = [{"label": "Top" if s["jackpot"] else f"${s['pays']:,}", "weight": s["weight"],
                 "highlight": s["jackpot"], "position": s.get("position")} for s in spin_table["segments"]]
    agency = jurisdiction.cited("agency")
    if agency is None or not agency.value:
        raise ValueError(f"the {jurisdiction.name} data names no agency to approve the wheel")
    designated = spin_table["community_pay"]
    return WheelView(spin=spin, drawing=svg.wheel(segments), positions_given=bool(spin_table["has_positions"]),
                     community_name=f"wheel {designated}" if designated is not None else None,
                     operator_term=str(jurisdiction.operator_term), agency=str(agency.value),
                     community_wheel_weight=_community_wheel_weight(spin_table), lost_on_fold=lost_on_fold)


def _community_wheel_weight(spin_table: tables.BonusSpinView) -> int | None:
    rows = spin_table["community_rows"]
    if spin_table["kind"] != "xtreme" or not rows or any(row["weight"] is None for row in rows):
        return None
    return sum(int(row["weight"] or 0) for row in rows)


@dataclass(frozen=True)
class CheckRow:
    """A verification check as printed: an interval shows as [low, high]."""
    check: str
    expected: int | float | str | list[float]
    computed: int | float | str | list[float]
    passed: bool


def _figure(value: Figure) -> int | float | str | list[float]:
    return list(value) if isinstance(value, tuple) else value


def check_rows(checks: tuple[VerificationCheck, ...]) -> list[CheckRow]:
    return [CheckRow(c.check, _figure(c.expected), _figure(c.computed), c.passed) for c in checks]


def appendix_context(offering: ResolvedOffering, results: MathReport, *, draft: Draft) -> dict[str, Any]:
    main: MainGameAnalysis = results.main_game
    spin_table = tables.bonus_spin(offering)
    return {
        "doc": document_info(offering, kind="appendix", title="Criss Cross Poker — Math appendix",
                             short_title="Math appendix", draft=draft),
        "main": main,
        "main_chart": main_chart(main.distribution),
        "main_columns": in_columns(main.distribution),
        "grid": strategy_grid(main.across_decision),
        "five": _as_written(results.five_card_bonus, offering.five_card_bonus),
        "six": results.six_card_bonus,
        "wheel": wheel_view(results.bonus_spin, spin_table, offering.jurisdiction,
                            lost_on_fold=offering.bonus_spin is not None and not offering.bonus_spin.settled_after_fold),
        "max_win": results.max_win,
        "verification": check_rows(results.verification),
        "payout_cap": results.payout_cap,
        "ante_as_written": results.ante_as_written,
        "limit_follows_meter_above": offering.payout_limit.follows_meter_above,
        "limit_base": _limit_base(offering),
        "ante_table": {"label": offering.ante.label, "citation": offering.ante.citation,
                       "entries": offering.ante.entries},
        "notes": results.notes,
        "five_card_bonus_offered": results.five_card_bonus is not None,
        **own_citations(offering.jurisdiction, spin_table, offering),
    }


# Paytable keys that name two of the analysis's pay classes together, and the classes they join.
JOINED_ROWS = {"pair_sixes_or_better": ("pair_jacks_or_better", "pair_sixes_through_tens")}


def _as_written(result: BonusResult | None, wager: SideWager | None) -> BonusResult | None:
    """The bonus's outcome rows with the classes its paytable names together joined into that row."""
    if result is None or wager is None:
        return result
    rows = list(result.outcomes)
    for key, parts in JOINED_ROWS.items():
        if key not in dict(wager.paytable.entries):
            continue
        found = [row for row in rows if row.hand_class in parts]
        if len(found) != len(parts) or len({row.pays for row in found}) != 1:
            continue
        combinations = sum(row.combinations for row in found)
        joined = replace(found[0], hand_class=key, combinations=combinations,
                         probability=combinations / result.boards,
                         contribution=sum(row.contribution for row in found))
        at = rows.index(found[0])
        rows = [row for row in rows if row not in found]
        rows.insert(at, joined)
    return replace(result, outcomes=tuple(rows))


def own_citations(jurisdiction: Any, spin_table: tables.BonusSpinView | None,
                  offering: ResolvedOffering | None = None) -> dict[str, Any]:
    """What the appendix cites for its figures, from the offering's own jurisdiction: the wagers its text counts in
    the maximum win and the reading of that count, the payout-limit rule, the Bonus Spin table."""
    counted = jurisdiction.cited("payout_limit", "counted_in_max_win")
    config = clause_config(offering) if offering is not None else None
    rule = jurisdiction.cited("payout_limit", "rule")
    return {
        "max_win_counts": list(counted.value) if counted is not None and counted.value else [],
        "max_win_reading": max_win_reading(jurisdiction, config),
        "payout_limit_citation": rule.citation if rule is not None else None,
        "spin_citation": spin_table.get("citation") if spin_table else None,
    }


def render_appendix_html(offering: ResolvedOffering, results: MathReport, *, draft: Draft) -> str:
    return render_template("appendix.html", **appendix_context(offering, results, draft=draft))
