"""`rulegen math FILE [--json] [--no-cache]`: the paytable math of one offering."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rulegen import terminal
from rulegen.commands._common import exits_cleanly
from rulegen.errors import InvalidOfferingError
from rulegen.money import dollars as money

if TYPE_CHECKING:
    from rulegen.math.results import MathReport


def _pct(value) -> str:
    return "—" if value is None else f"{100 * value:.4f}%"


def print_tables(report: MathReport, title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=terminal.raw(sys.stdout))
    main = report.main_game
    from rich.markup import escape

    table = Table(title=f"{escape(terminal.printable_line(title))}: main game (optimal strategy; per unit of one ante)")
    table.add_column("figure")
    table.add_column("value", justify="right")

    def choices(frequencies) -> str:
        return " / ".join(_pct(v) for v in (frequencies.fold, frequencies.once, frequencies.thrice))

    for label, value in (
            ("house edge per ante", _pct(main.house_edge_per_ante)),
            ("house edge per initial wager (both antes)", _pct(main.house_edge_per_initial_wager)),
            ("element of risk", _pct(main.element_of_risk)),
            ("average total wager (antes)", f"{main.average_total_wager:.6f}"),
            ("hit frequency", _pct(main.hit_frequency)),
            ("standard deviation (antes)", f"{main.standard_deviation:.6f}"),
            ("Across: fold / 1x / 3x", choices(main.decisions.across)),
            ("Down: fold / 1x / 3x", choices(main.decisions.down)),
            ("Middle: fold / 1x / 3x", choices(main.decisions.middle)),
            ("tie rule", main.tie_rule)):
        table.add_row(label, value)
    monte = main.monte_carlo
    if monte:
        table.add_row(f"Monte Carlo ({monte.rounds:,} rounds, 99%)",
                      f"{monte.interval[0]:.5f} .. {monte.interval[1]:.5f} "
                      f"({'covers' if monte.covers_exact else 'MISSES'} {monte.exact_ev_per_ante:.5f})")
    console.print(table)

    fold = [hand for hand, choice in main.across_decision.items() if choice == "fold"]
    raise3 = [hand for hand, choice in main.across_decision.items() if choice == "3x"]
    console.print(f"Across decision: 3x on {', '.join(raise3) or 'none'}; fold {', '.join(fold) or 'none'}; "
                  "1x on every other starting hand.")

    side = Table(title="Side wagers")
    side.add_column("wager")
    side.add_column("house edge", justify="right")
    side.add_column("hit frequency", justify="right")
    for name, section in (("Five Card Bonus", report.five_card_bonus), ("Six Card Bonus", report.six_card_bonus)):
        if section is not None:
            side.add_row(name, _pct(section.house_edge), _pct(section.hit_frequency))
    spin = report.bonus_spin
    if spin is not None:
        if spin.weighted is not None:
            side.add_row("Bonus Spin", _pct(1 - spin.weighted.return_per_wager), _pct(spin.trigger_probability))
        else:
            side.add_row("Bonus Spin", f"needs the wheel's weights; 100% return at a mean prize of "
                                       f"${spin.break_even_mean_prize:,.2f}", _pct(spin.trigger_probability))
    console.print(side)
    console.print(f"Maximum win per round at the minimum: {money(report.max_win_per_round_at_minimum)} "
                  f"({report.max_win.detail.summary})")
    cap = report.payout_cap
    if cap is not None:
        for row in cap.at:
            console.print(f"Payout cap {money(cap.amount)} at a {money(row.ante)} ante: binds in "
                          f"{row.probability_cap_binds:.3e} of rounds, removes ${row.ev_removed_per_round_dollars:.6f} "
                          "per round (not in the house edge)")
    for note in report.notes:
        console.print(f"note: {note}")


def register(app: typer.Typer) -> None:
    @app.command("math")
    def math_command(
        file: Annotated[Path, typer.Argument(help="The offering file.", show_default=False)],
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (the spec's keys).")] = False,
        no_cache: Annotated[bool, typer.Option(
            "--no-cache", help="Recompute; neither read nor write the cache.")] = False,
    ) -> None:
        """The paytable math of the offering: exact main-game analysis, bonus edges, maximum win per round."""
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        with exits_cleanly():
            from rulegen.offering import load_offering
            from rulegen.validate import validate_offering

            offering = load_offering(file, str(file))
            findings = validate_offering(offering)
            errors = [f for f in findings if f.level == "error"]
            if errors:
                raise InvalidOfferingError(f"{file} has {len(errors)} error{'s' if len(errors) != 1 else ''}; "
                                           "fix them before computing its math", errors)
            from rulegen.math.report import settled  # not through the build layer, which loads the renderer

            resolved = settled(offering)
            console = Console(file=terminal.raw(sys.stderr))
            show = console.is_terminal or bool(os.environ.get("RULEGEN_PROGRESS"))
            with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                          TimeElapsedColumn(), console=console, transient=True, disable=not show) as progress:
                task = progress.add_task("main game: starting hands", total=169)

                def advance(done: int, total: int) -> None:
                    progress.update(task, completed=done, total=total)

                from rulegen.math.report import offering_report
                from rulegen.math.json_values import json_text

                report = offering_report(resolved, use_cache=not no_cache, progress=advance)
            if as_json:
                typer.echo(json_text(report.to_json()))
            else:
                print_tables(report, str(file))
