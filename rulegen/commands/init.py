"""`rulegen init`: a commented starter offering that validates as it stands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulegen.errors import OutputError, UsageError
from rulegen.terminal import printable_line


def register(app: typer.Typer) -> None:
    @app.command("init")
    def init(
        jurisdiction: Annotated[str, typer.Option("--jurisdiction", "-j", help="MD, NJ, PA or HOUSE.")],
        with_: Annotated[str, typer.Option("--with", help="Optional wagers, comma-separated: five-card-bonus, "
                                                          "bonus-spin, six-card-bonus, xtreme (Maryland's Bonus "
                                                          "Spin Xtreme).")] = "",
        output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the starter to this new file "
                                                                           "instead of printing it.")] = None,
    ) -> None:
        """Print (or write) a commented starter offering for one jurisdiction; it validates as it stands."""
        from rulegen.safeio import UnsafeFile, write_replacing
        from rulegen.starter import WITH_NAMES, starter_text

        wagers = [w.strip() for w in with_.split(",") if w.strip()]
        unknown = [w for w in wagers if w not in WITH_NAMES]
        if unknown:
            raise UsageError(f"--with {unknown[0]!r} is not a wager; the optional wagers are "
                             f"{', '.join(WITH_NAMES)}")
        if "six-card-bonus" in wagers and "five-card-bonus" not in wagers:
            wagers.insert(0, "five-card-bonus")
            typer.echo("rulegen: note: the Six Card Bonus wager equals the Five Card Bonus wager, which it requires: "
                       "both are included", err=True)
        text = starter_text(jurisdiction, wagers)  # a StarterError is a UsageError
        if output is None:
            typer.echo(text, nl=False)
            return
        if output.exists():
            raise UsageError(f"{output} exists; init writes a new file and never replaces one")
        try:
            write_replacing(output, text.encode("utf-8"))
        except UnsafeFile as exc:
            raise OutputError(str(exc)) from None
        typer.echo(printable_line(f"wrote {output}: check it with `rulegen validate {output}`"), err=True)
