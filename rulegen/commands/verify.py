"""`rulegen verify PATH... [--trust CA.pem] [--integrity-only] [--strict] [--format json] [--details]`: re-check
built filings, offline, reproducing every byte from the signed offering: files and folders, one line per filing and
a summary."""

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
        ("verified", "verified"), ("intact", "intact (integrity only, not verified)"),
        ("unreproducible", "not reproducible here"), ("untrusted", "intact but signer not trusted"),
        ("failed", "failed"),
        ("unsigned", "unsigned draft(s)"), ("unusable", "unusable")) if totals[key]]
    count = totals["filings"]
    return (f"{count} filing{'s' if count != 1 else ''}: " + (", ".join(parts) or "none") +
            f" ({seconds:.1f} s; offline: only revocation data the filings embed, no authority consulted)")


def _previous_revisions(paths: list[Path]):
    """The revisions given with --previous, read once each (an offering file or a filing's attached offering),
    looked up by offering id and revision."""
    from rulegen.filing import offering_from_path

    held = {}
    for path in paths:
        offering = offering_from_path(path)
        head = offering.data.get("offering") if isinstance(offering.data, dict) else None
        if isinstance(head, dict):
            held[(head.get("id"), head.get("version"))] = offering
    return lambda offering_id, revision: held.get((offering_id, revision))


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
        integrity_only: Annotated[bool, typer.Option(
            "--integrity-only", help="Fast: check the signature, trust and hashes only, without building the signed "
                                     "offering again. Never VERIFIED: a filing that passes is reported INTACT, "
                                     "INTEGRITY ONLY.")] = False,
        rebuild: Annotated[bool, typer.Option(
            "--rebuild", hidden=True, help="Accepted for compatibility: reproducing every byte is the default.")]
        = False,
        strict: Annotated[bool, typer.Option(
            "--strict", help="Treat warnings (rules changed since the build) as failures.")] = False,
        format: Annotated[OutputFormat, format_option()] = OutputFormat.TEXT,
        details: Annotated[bool, typer.Option("--details", help="Under each filing, every check and its result.")]
        = False,
        previous: Annotated[list[Path] | None, typer.Option(
            "--previous", help="An earlier revision (its offering file or filing), to check a filing's \"changes "
                               "from revision N\" section against; repeatable. Without revision N such a filing is "
                               "not verified.", show_default=False)] = None,
    ) -> None:
        """Check built filings: signature, trust, the whole package, and every byte reproduced from the signed offering.

        VERIFIED means rulegen built the signed offering (and its logo) again here and every file of the package
        equals the fresh build: rules.pdf as signed, rules.html, signage.pdf, math-appendix.pdf, manifest.json.
        This needs the versions of rulegen, WeasyPrint, pydyf and Pango the manifest records; with others the
        filing is reported as not reproducible here, naming the versions to install.

        Exit 0: every filing is VERIFIED (or, with --integrity-only, INTACT); 1: any filing fails, cannot be
        reproduced here, is an unsigned draft or has an untrusted signer; 2: a path or the trust roots cannot
        be used. Goes on past a broken filing.
        """
        from rulegen.errors import UsageError
        from rulegen.filing.verify import summary, verify_paths

        if integrity_only and rebuild:
            raise UsageError("--rebuild and --integrity-only contradict each other; verify rebuilds by default")
        from rulegen.filing.rebuild import Reproducer

        reproduce: Reproducer | None = None
        if not integrity_only:  # the renderer is imported only when it is used: --integrity-only stays fast
            from rulegen.assemble import reproduce_filing_for_verify

            reproduce = reproduce_filing_for_verify
        began = time.perf_counter()
        show = None if format == "json" else (lambda report: print_line(report, details))
        reports = verify_paths(paths, trust=trust or None, reproduce=reproduce, strict=strict, progress=show,
                               previous=_previous_revisions(previous or []))
        totals = summary(reports)
        seconds = time.perf_counter() - began
        if format == "json":
            typer.echo(json.dumps({"filings": [r.to_json() for r in reports],
                                   "summary": {**totals, "seconds": round(seconds, 3)}}, indent=2,
                                  ensure_ascii=False))
        else:
            typer.echo(summary_line(totals, seconds))
        raise typer.Exit(code=totals["exit_code"])
