"""`rulegen verify FILING.pdf [--trust CA.pem] [--rebuild] [--strict]`: re-check a built filing, offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from rulegen.commands._common import exits_cleanly
from rulegen.errors import ExitCode

MARKS = {"ok": "ok  ", "FAIL": "FAIL", "warn": "warn", "note": "note"}


def print_report(report) -> None:
    typer.echo(f"{report.path}: {report.verdict}")
    for check in report.checks:
        typer.echo(f"  {MARKS[check.status]}  {check.name}: {check.detail}")
    if report.signed and report.trusted is None:
        typer.echo("  The signer's certificate was not checked against a root; give --trust CA.pem to check it.")
    typer.echo(f"  ({report.seconds:.2f} s; offline: no revocation or timestamp authority was consulted)")


def register(app: typer.Typer) -> None:
    @app.command("verify")
    def verify(
        filing: Annotated[Path, typer.Argument(
            metavar="FILING.pdf", show_default=False,
            help="The filing's rules.pdf (or its build folder); the outputs beside it are checked too.")],
        trust: Annotated[list[Path] | None, typer.Option(
            "--trust", help="A CA certificate (PEM or DER) the signer's certificate must chain to; repeatable.",
            show_default=False)] = None,
        rebuild: Annotated[bool, typer.Option(
            "--rebuild", help="Re-render from the attached offering and compare with the signed rendering.")] = False,
        strict: Annotated[bool, typer.Option(
            "--strict", help="Treat warnings (rules changed since the build) as failures.")] = False,
        format: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    ) -> None:
        """Check a built filing: signature over every byte, attachments, manifest, outputs, rules since the build.

        Exit 0: a signed final filing, every check passed; 1: an unsigned draft or a failed check; 2: unusable.
        """
        from rulegen.filing import verify_filing

        if format not in ("text", "json"):
            typer.echo(f"rulegen: error: --format is {format!r}; it is text or json", err=True)
            raise typer.Exit(code=int(ExitCode.UNUSABLE))
        with exits_cleanly():
            report = verify_filing(filing, trust=trust or None, rebuild=rebuild, strict=strict)
        if format == "json":
            typer.echo(json.dumps(report.to_json(), indent=2))
        else:
            print_report(report)
        raise typer.Exit(code=report.exit_code)
