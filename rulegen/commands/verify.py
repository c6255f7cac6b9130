"""`rulegen verify PATH... [--trust CA.pem] [--rebuild] [--strict] [--format json] [--details]`: re-check built
filings, offline: files and folders, one line per filing and a summary."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from rulegen.commands._common import OutputFormat, format_option
from rulegen.terminal import printable_line

MARKS = {"ok": "ok  ", "FAIL": "FAIL", "warn": "warn", "note": "note"}


def print_line(report, details: bool) -> None:
    typer.echo(printable_line(f"{report.path}: {report.verdict}"))
    if details:
        for check in report.checks:
            typer.echo(printable_line(f"  {MARKS[check.status]}  {check.name}: {check.detail}"))


def summary_line(totals: dict, seconds: float) -> str:
    parts = [f"{totals[key]} {label}" for key, label in (
        ("verified", "verified"), ("untrusted", "intact but signer not trusted"), ("failed", "failed"),
        ("unsigned", "unsigned draft(s)"), ("unusable", "unusable")) if totals[key]]
    count = totals["filings"]
    return (f"{count} filing{'s' if count != 1 else ''}: " + (", ".join(parts) or "none") +
            f" ({seconds:.1f} s; offline: only revocation data the filings embed, no authority consulted)")


def register(app: typer.Typer) -> None:
    @app.command("verify")
    def verify(
        paths: Annotated[list[Path], typer.Argument(
            metavar="PATH...", show_default=False,
            help="Filings (rules.pdf) and folders: a build folder stands for its rules.pdf, any other folder for "
                 "every rules.pdf under it. Each filing's folder is its package.")],
        trust: Annotated[list[Path] | None, typer.Option(
            "--trust", help="A CA certificate (PEM or DER) a signer may chain to; repeatable. RULEGEN_TRUST may "
                            "name a folder of them. Without any, no filing verifies.",
            show_default=False)] = None,
        rebuild: Annotated[bool, typer.Option(
            "--rebuild", help="Re-render from the attached offering and compare with the signed rendering.")] = False,
        strict: Annotated[bool, typer.Option(
            "--strict", help="Treat warnings (rules changed since the build) as failures.")] = False,
        format: Annotated[OutputFormat, format_option()] = OutputFormat.TEXT,
        details: Annotated[bool, typer.Option("--details", help="Under each filing, every check and its result.")]
        = False,
    ) -> None:
        """Check built filings: signature over every byte, trust, attachments, the whole package, rules since then.

        Exit 0: every filing is signed, final, passes every check and its signer chains to a trust root;
        1: any filing fails (an intact signature from an untrusted signer, an unsigned draft, a missing or
        extra file...); 2: a path or the trust roots cannot be used. Goes on past a broken filing.
        """
        from rulegen.build import render_rules_pdf_for_verify
        from rulegen.filing.verify import summary, verify_paths

        began = time.perf_counter()
        show = None if format == "json" else (lambda report: print_line(report, details))
        reports = verify_paths(paths, trust=trust or None, rebuild=render_rules_pdf_for_verify if rebuild else None,
                               strict=strict, progress=show)
        totals = summary(reports)
        seconds = time.perf_counter() - began
        if format == "json":
            typer.echo(json.dumps({"filings": [r.to_json() for r in reports],
                                   "summary": {**totals, "seconds": round(seconds, 3)}}, indent=2,
                                  ensure_ascii=False))
        else:
            typer.echo(summary_line(totals, seconds))
        raise typer.Exit(code=totals["exit_code"])
