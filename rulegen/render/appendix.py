"""The math appendix (par sheet): every figure read from the math layer's results dict, none computed here.

The dict is the spec's `rulegen math --json` structure plus par-sheet detail. Where a part the appendix
wants is not in the dict, the appendix says so in print rather than filling the gap itself.
"""

from __future__ import annotations

from rulegen.render import svg, tables
from rulegen.render.context import document_info
from rulegen.render.environment import render_template

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


def strategy_grid(decisions: dict | None) -> list[list[dict]] | None:
    if not decisions:
        return None
    grid = []
    for row in range(13):
        cells = []
        for column in range(13):
            hand = starting_hand(row, column)
            cells.append({"hand": hand, "decision": decisions.get(hand)})
        grid.append(cells)
    return grid


def _first(mapping: dict | None, *keys):
    """The first of `keys` the math dict holds (the par-sheet detail's names are the math layer's)."""
    if not isinstance(mapping, dict):
        return None
    for key in keys:
        if key in mapping and mapping[key] is not None:
            return mapping[key]
    return None


def outcome_rows(section: dict | None) -> list[dict] | None:
    """The outcome table of one wager as rows {outcome, pays, combinations, probability, contribution}."""
    rows = _first(section, "outcomes", "outcome_table", "distribution")
    if rows is None:
        return None
    if isinstance(rows, dict):
        rows = [{"outcome": key, **(value if isinstance(value, dict) else {"probability": value})}
                for key, value in rows.items()]
    found = []
    for row in rows:
        found.append({
            "outcome": _first(row, "outcome", "hand_class", "hand", "net", "label"),
            "pays": _first(row, "pays", "payout", "odds"),
            "combinations": _first(row, "combinations", "count", "ways"),
            "probability": _first(row, "probability", "p"),
            "contribution": _first(row, "return", "contribution", "expected_return"),
        })
    return found


def in_columns(rows: list | None, columns: int = 3) -> list[list] | None:
    """Rows laid out down `columns` side-by-side groups (a long table printed compactly), top to bottom first."""
    if not rows:
        return None
    height = -(-len(rows) // columns)
    return [[rows[c * height + r] if c * height + r < len(rows) else None for c in range(columns)]
            for r in range(height)]


def decision_rows(main: dict) -> dict | None:
    """How often each decision is reached and taken: {decision: {fold, 1x, 2x, 3x}} as the math layer gives it."""
    decisions = _first(main, "decisions", "fold_frequency", "fold_frequencies", "later_decisions")
    if not isinstance(decisions, dict):
        return None
    return {name: value for name, value in decisions.items() if isinstance(value, dict)} or None


def main_chart(main: dict | None):
    rows = outcome_rows(main)
    if not rows:
        return None
    bars = [(str(r["outcome"]), float(r["probability"] or 0)) for r in rows]
    labels = ["" for _ in rows]  # the figures are in the table beside the chart; bars this many stay unlabelled
    return svg.bar_chart(bars, title="Main game: probability of each net result per round, in antes (log scale)",
                         value_labels=labels, log_scale=True)


def wheel_view(results: dict, spin_table: dict | None):
    spin = results.get("bonus_spin")
    if not spin_table:
        return None
    segments = [{"label": "Top" if s["jackpot"] else f"${s['pays']:,}", "weight": s["weight"],
                 "highlight": s["jackpot"]} for s in spin_table["segments"]]
    return {
        "weighted": spin_table["weighted"],
        "drawing": svg.wheel(segments),
        "m": spin or {},
        "return_per_wager": _first(spin, "return_per_wager"),
        "progressive": _first(spin, "progressive"),
        "community_value": _first(spin, "community_value") or [],
    }


def appendix_context(offering, jurisdiction, results: dict, *, draft) -> dict:
    data = offering.data
    main = results.get("main_game") or {}
    return {
        "doc": document_info(offering, jurisdiction, kind="appendix", title="Criss Cross Poker — Math appendix",
                             short_title="Math appendix", draft=draft),
        "r": results,
        "main": main,
        "paytables": tables.offering_paytables(data, jurisdiction),
        "main_outcomes": outcome_rows(main),
        "main_chart": main_chart(main),
        "main_columns": in_columns(outcome_rows(main)),
        "grid": strategy_grid(main.get("across_decision")),
        "later_folds": decision_rows(main),
        "decisions_note": (main.get("decisions") or {}).get("note") if isinstance(main.get("decisions"), dict) else None,
        "five": results.get("five_card_bonus"),
        "five_outcomes": outcome_rows(results.get("five_card_bonus")),
        "six": results.get("six_card_bonus"),
        "six_outcomes": outcome_rows(results.get("six_card_bonus")),
        "wheel": wheel_view(results, tables.bonus_spin(data, jurisdiction)),
        "max_win": results.get("max_win") or {},
        "max_win_amount": results.get("max_win_per_round_at_minimum"),
        "verification": _first(results, "verification", "checks", "self_checks"),
        "payout_cap": results.get("payout_cap"),
        "notes": results.get("notes") or [],
        "limits": data.get("limits") or {},
        "five_card_bonus": data.get("five_card_bonus") or None,
    }


def render_appendix_html(offering, jurisdiction, results: dict, *, draft) -> str:
    return render_template("appendix.html", **appendix_context(offering, jurisdiction, results, draft=draft))
