"""What every command shares: the one way a RulegenError becomes messages and an exit code, and `--format` as
an Enum (`--sign-size`, parsed, is in `_sign_size`, apart, so that validate never loads the renderer)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any, TypeVar

import typer

from rulegen.errors import RulegenError
from rulegen.terminal import printable_line

F = TypeVar("F", bound=Callable[..., Any])


def report_error(exc: RulegenError) -> int:
    """Print an error as every command does; return its exit code. The only place an error is printed.

    The findings it carries go to standard output as `FILE:LINE:COL: ...` lines, exactly as validate prints
    them (editors and CI annotate those); a summary that says more than the findings goes to standard error as
    `rulegen: error: ...`. Each is one line: a new line or control character in a path or name it quotes is
    shown escaped (`terminal.printable_line`), so no input can print a line of its own.
    """
    findings = exc.findings
    for finding in findings:
        typer.echo(printable_line(finding.format()))
    if not findings or exc.message != "\n".join(finding.format() for finding in findings):
        typer.echo(f"rulegen: error: {printable_line(exc.message)}", err=True)  # one line, whatever it quotes
    return int(exc.exit_code)


def reporting_errors(command: F) -> F:
    """Wrap a command's function so a RulegenError it raises ends the command through `report_error`.

    `rulegen.cli` wraps every registered command with it, so a command body only raises."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RulegenError as exc:
            raise typer.Exit(code=report_error(exc)) from None

    return run  # type: ignore[return-value]


@contextlib.contextmanager
def exits_cleanly() -> Iterator[None]:
    """The same as `reporting_errors`, for part of a command body (kept for the commands that use it)."""
    try:
        yield
    except RulegenError as exc:
        raise typer.Exit(code=report_error(exc)) from None


class OutputFormat(str, Enum):
    """`--format`: what a command prints."""

    TEXT = "text"
    JSON = "json"


def format_option(help_text: str = "text or json.") -> Any:
    return typer.Option("--format", help=help_text, case_sensitive=False)
