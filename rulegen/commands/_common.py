"""Helpers every command uses: turning a RulegenError into a message and an exit code."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import typer

from rulegen.errors import RulegenError


@contextlib.contextmanager
def exits_cleanly() -> Iterator[None]:
    """Inside a command body: a RulegenError becomes `rulegen: error: ...` on stderr and its exit code."""
    try:
        yield
    except RulegenError as exc:
        typer.echo(f"rulegen: error: {exc.message}", err=True)
        raise typer.Exit(code=int(exc.exit_code)) from None
