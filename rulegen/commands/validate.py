"""`rulegen validate FILE|DIR...`: every finding of every offering, and a summary line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from rulegen.commands._common import OutputFormat, format_option
from rulegen.errors import ExitCode, UsageError
from rulegen.terminal import printable_line


def offering_files(arguments: list[Path]) -> list[tuple[Path, str]]:
    """The files to check: each FILE as given, and every *.yaml / *.yml under each DIR (sorted; links to
    folders are not followed, so a loop cannot trap the walk)."""
    found: list[tuple[Path, str]] = []
    for argument in arguments:
        if argument.is_dir():
            for root, dirs, files in os.walk(argument, followlinks=False):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if name.endswith((".yaml", ".yml")) and not name.startswith("."):
                        path = Path(root) / name
                        found.append((path, str(path)))
        else:
            found.append((argument, str(argument)))
    return found


def summarise(reports) -> dict:
    levels = {"error": 0, "warning": 0, "note": 0}
    for report in reports:
        for finding in report.findings:
            levels[finding.level] += 1
    return {
        "files": len(reports),
        "valid": sum(1 for r in reports if r.status == ExitCode.OK),
        "invalid": sum(1 for r in reports if r.status == ExitCode.INVALID),
        "unusable": sum(1 for r in reports if r.status == ExitCode.UNUSABLE),
        "errors": levels["error"],
        "warnings": levels["warning"],
        "notes": levels["note"],
        "status": max((r.status for r in reports), default=0),
    }


def summary_line(summary: dict, *, quiet: bool = False) -> str:
    def plural(n, word):
        return f"{n} {word}{'' if n == 1 else 's'}"

    hidden = " (not shown: --quiet)" if quiet and summary["notes"] else ""
    return (f"{plural(summary['files'], 'file')} checked: {summary['valid']} valid, {summary['invalid']} with errors, "
            f"{summary['unusable']} unusable; {plural(summary['errors'], 'error')}, "
            f"{plural(summary['warnings'], 'warning')}, {plural(summary['notes'], 'note')}{hidden}")


def shown(findings, quiet: bool) -> list:
    """The findings to print: with --quiet, the errors and warnings alone (notes are counted, not printed)."""
    return [finding for finding in findings if not (quiet and finding.level == "note")]


def register(app: typer.Typer) -> None:
    @app.command("validate")
    def validate(
        paths: Annotated[list[Path], typer.Argument(help="Offering files, or folders to search for *.yaml / *.yml.",
                                                     show_default=False)],
        format: Annotated[OutputFormat, format_option("text (compiler-style lines) or json.")] = OutputFormat.TEXT,
        quiet: Annotated[bool, typer.Option(
            "--quiet", "-q", help="Leave notes out: print errors and warnings only (the summary still counts "
                                  "notes).")] = False,
    ) -> None:
        """Check offerings against the offering format and their jurisdiction's rules; print every finding."""
        from rulegen.validate import validate_file

        files = offering_files(paths)
        if not files:
            raise UsageError("no *.yaml or *.yml offering files found under " + ", ".join(str(p) for p in paths))
        reports = []
        for path, display in files:
            report = validate_file(path, display)
            reports.append(report)
            if format == "text":
                for finding in shown(report.findings, quiet):
                    typer.echo(printable_line(finding.format()))
        summary = summarise(reports)
        if format == "json":
            printed = [{**r.to_json(), "findings": [f.to_json() for f in shown(r.findings, quiet)]} for r in reports]
            typer.echo(json.dumps({"files": printed, "summary": summary}, indent=2))
        else:
            typer.echo(summary_line(summary, quiet=quiet))
        raise typer.Exit(code=int(summary["status"]))
