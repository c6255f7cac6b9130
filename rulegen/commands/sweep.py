"""`rulegen sweep SPEC.yaml --out DIR [--scheduler ADDRESS] [--workers N] [--parquet]`: exact figures for many candidate
paytables of one base offering (rulegen.sweep)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from rulegen import terminal


def register(app: typer.Typer) -> None:
    @app.command("sweep")
    def sweep_command(
        spec: Annotated[Path, typer.Argument(help="The sweep spec (base offering, rows to vary, filter).",
                                             show_default=False)],
        out: Annotated[Path, typer.Option("--out", help="The folder of the results (sweep.csv, pareto.svg); "
                                                        "a rerun skips the candidates already there.")],
        scheduler: Annotated[str | None, typer.Option(
            "--scheduler", help="A Dask scheduler's address (tcp://HOST:PORT); without it, a local cluster "
                                "over this machine's cores.")] = None,
        workers: Annotated[int | None, typer.Option(
            "--workers", min=1, help="Worker processes of the local cluster (default: one per core).")] = None,
        parquet: Annotated[bool | None, typer.Option(
            "--parquet/--no-parquet", help="Write sweep.parquet too (default: for 10,000 candidates or more).",
            show_default=False)] = None,
    ) -> None:
        """Exact figures for every candidate paytable of a sweep spec, its filter and Pareto front."""
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        from rulegen.sweep.run import run_sweep
        from rulegen.sweep.spec import load_spec

        loaded = load_spec(spec)
        console = Console(file=terminal.raw(sys.stderr))
        show = console.is_terminal or bool(os.environ.get("RULEGEN_PROGRESS"))
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                      TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=True,
                      disable=not show) as progress:
            counts = progress.add_task("shared counts: starting hands", total=169, visible=False)
            task = progress.add_task("candidates", total=loaded.count)

            def counted(done: int, total: int) -> None:
                progress.update(counts, completed=done, total=total, visible=done < total)

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            summary = run_sweep(loaded, out, scheduler=scheduler, workers=workers, progress=advance,
                                counts_progress=counted, parquet=parquet)
        typer.echo(terminal.printable_line(
            f"{summary.candidates:,} candidates ({summary.computed:,} computed, {summary.skipped:,} already in "
            f"{out}); {summary.passing:,} pass the filter, {summary.front:,} on the Pareto front: "
            + ", ".join(str(out / name) for name in summary.files)))
