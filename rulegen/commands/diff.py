"""`rulegen diff OLD NEW [--format json]`: the changes between two revisions, grouped by rules-document section."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from rulegen.commands._common import OutputFormat, format_option
from rulegen.errors import ExitCode
from rulegen.terminal import printable_line


def register(app: typer.Typer) -> None:
    @app.command("diff")
    def diff(
        old: Annotated[Path, typer.Argument(help="The earlier revision: an offering file or a filing's rules.pdf.",
                                            show_default=False)],
        new: Annotated[Path, typer.Argument(help="The later revision: an offering file or a filing's rules.pdf.",
                                            show_default=False)],
        format: Annotated[OutputFormat, format_option()] = OutputFormat.TEXT,
    ) -> None:
        """Every change between two revisions in a regulator's words, by section of the rules, with citations."""
        from rulegen.filing.diff import changes_json, diff_offerings, math_diff, offering_from_path
        from rulegen.validate import check_revision

        before = offering_from_path(old, str(old))
        after = offering_from_path(new, str(new))
        revision = check_revision(before, after, level="warning")  # reported; the diff goes on
        changes = diff_offerings(before, after)
        mathematics = math_diff(before, after) if changes else {"changes": [], "note": None}
        if format == "json":
            payload = changes_json(changes, str(old), str(new), mathematics)
            payload["revision_findings"] = [finding.to_json() for finding in revision]
            typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
            raise typer.Exit(code=int(ExitCode.OK))
        for finding in revision:
            typer.echo(printable_line(finding.format()))
        if not changes:
            typer.echo(printable_line(f"No changes between {old} and {new}."))
            raise typer.Exit(code=int(ExitCode.OK))
        typer.echo(printable_line(f"{len(changes)} change{'s' if len(changes) != 1 else ''} from {old} to {new}:"))
        section = None
        for change in changes:
            if change.section != section:
                section = change.section
                typer.echo(f"\n{change.section_title}")
            typer.echo(printable_line(f"  {change.text}" + (f" [{change.citation}]" if change.citation else "")))
        typer.echo("\nMathematics (old → new)")
        for figure in mathematics["changes"]:
            typer.echo(f"  {figure['text']}")
        if mathematics["note"]:
            typer.echo(f"  {mathematics['note'][0].upper()}{mathematics['note'][1:]}.")
        raise typer.Exit(code=int(ExitCode.OK))
