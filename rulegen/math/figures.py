"""The figures of an offering's mathematics named outside the math layer, listed once (math layer).

Each is named by its path in `rulegen math --json` (`MathReport.to_json()`, the spec's keys). A filing records every
one in its manifest, under that dotted path (the exact expected values where the math gives them, and the figures
the documents print), and `verify` computes them afresh and compares; `rulegen diff` compares those with a `label`
between two revisions, printed as their `kind` says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulegen.math.results import MathReport


@dataclass(frozen=True)
class Figure:
    path: str  # its dotted path in `rulegen math --json`: "main_game.house_edge_per_ante"
    name: str | None = None  # what `rulegen diff` calls it when it compares it between revisions
    label: str | None = None  # and how it reads there
    kind: str = "percent"  # how diff prints it: percent | return (1 − a house edge, as a percentage) | money

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.path.split("."))


# A bonus's return is 1 − its house edge; a wager not offered is None ("not offered").
FIGURES: tuple[Figure, ...] = (
    Figure("main_game.ev_per_ante_exact"),
    Figure("main_game.variance_exact"),
    Figure("main_game.average_total_wager_exact"),
    Figure("main_game.house_edge_per_ante", name="house_edge", label="House edge (per ante, optimal strategy)"),
    Figure("main_game.element_of_risk", name="element_of_risk", label="Element of risk"),
    Figure("main_game.hit_frequency", name="hit_frequency", label="Hit frequency (rounds with a net win)"),
    Figure("five_card_bonus.ev"),
    Figure("five_card_bonus.house_edge", name="five_card_bonus_return", label="Five Card Bonus return to the player",
           kind="return"),
    Figure("six_card_bonus.ev"),
    Figure("six_card_bonus.house_edge", name="six_card_bonus_return", label="Six Card Bonus return to the player",
           kind="return"),
    Figure("bonus_spin.return_per_wager", name="bonus_spin_return", label="Bonus Spin return to the player"),
    Figure("bonus_spin.return_per_mean_prize"),
    Figure("max_win_per_round_at_minimum", name="max_win", label="Maximum win per round at the minimum wagers",
           kind="money"),
)

# The figures a filing's manifest records, by their dotted paths, in this order.
FILED_FIGURES: tuple[str, ...] = tuple(figure.path for figure in FIGURES)
# The figures a regulator compares between revisions (`rulegen diff`), in this order.
COMPARED_FIGURES: tuple[Figure, ...] = tuple(figure for figure in FIGURES if figure.label is not None)


def figure_at(document: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path of `rulegen math --json`, or None where a step is missing (a wager not offered)."""
    node: Any = document
    for step in path.split("."):
        node = node.get(step) if isinstance(node, dict) else None
    return node


def filed_figures(results: MathReport) -> dict[str, Any]:
    """The figures a filing records (`FILED_FIGURES`) from the math report, by dotted path; a figure of a wager the
    table does not offer is left out, so a filing names only its own wagers."""
    document = results.to_json()
    found = {path: figure_at(document, path) for path in FILED_FIGURES}
    return {path: value for path, value in found.items() if value is not None}
