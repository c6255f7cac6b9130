"""Helpers every command uses: turning a RulegenError into messages and an exit code."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import typer

from rulegen.errors import RulegenError


def report_error(exc: RulegenError) -> int:
    """Print an error as every command does; return its exit code.

    The findings it carries go to standard output as `FILE:LINE:COL: ...` lines, exactly as validate prints
    them (editors and CI annotate those); a summary that says more than the findings goes to standard error as
    `rulegen: error: ...`.
    """
    findings = getattr(exc, "findings", None) or []
    for finding in findings:
        typer.echo(finding.format())
    if not findings or exc.message != "\n".join(finding.format() for finding in findings):
        typer.echo(f"rulegen: error: {exc.message}", err=True)
    return int(exc.exit_code)


@contextlib.contextmanager
def exits_cleanly() -> Iterator[None]:
    """Inside a command body: a RulegenError is printed by `report_error` and ends with its exit code."""
    try:
        yield
    except RulegenError as exc:
        raise typer.Exit(code=report_error(exc)) from None
