"""The one error hierarchy and the exit codes every command shares (see shared/spec/offering-format.md).

Every error a command can meet is a `RulegenError`. Each class carries its exit code, and an error may carry
the findings that explain it (each printed as `FILE:LINE:COL: level: message [citation]`). The command line
turns one into a message and an exit code in one place (`rulegen.cli.report_error`); nothing below the
command line prints or exits.

    RulegenError                     exit 2 unless a subclass says otherwise
    ├── UsageError                   bad arguments (2)
    │   └── CardError                a card that cannot be parsed, or one given twice (2)
    ├── InputError                   an input that cannot be used: unreadable, not YAML, over the limits (2)
    ├── OutputError                  an output that cannot be written (2)
    ├── RenderError                  the renderer refused a resource or failed (2)
    └── InvalidOfferingError         the offering or filing breaks a rule (1)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulegen.findings import Finding


class ExitCode(IntEnum):
    OK = 0  # done; warnings and notes allowed
    INVALID = 1  # the offering or filing is wrong
    UNUSABLE = 2  # the input cannot be used or the command cannot run


class RulegenError(Exception):
    """An error a command turns into a message and an exit code; never a traceback."""

    exit_code: ExitCode = ExitCode.UNUSABLE

    def __init__(self, message: str, *, exit_code: ExitCode | None = None,
                 findings: Iterable[Finding] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.findings: list[Finding] = list(findings)
        if exit_code is not None:
            self.exit_code = exit_code

    def __reduce__(self) -> tuple[object, ...]:
        # An error raised in a build's worker process comes back pickled: keep its class, message, exit code
        # and findings whatever the subclass's constructor takes.
        return (_restore, (type(self), self.message), dict(self.__dict__))


def _restore(cls: type[RulegenError], message: str) -> RulegenError:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    return error


class UsageError(RulegenError):
    """Bad arguments (exit 2)."""


class CardError(UsageError):
    """A card that cannot be parsed, or a card given twice (exit 2)."""


class InputError(RulegenError):
    """An input file that cannot be used (exit 2): unreadable, not YAML, not UTF-8, over the limits."""


class OutputError(RulegenError):
    """An output that cannot be written (exit 2)."""


class RenderError(RulegenError):
    """The renderer refused or failed to read a resource, or WeasyPrint failed (exit 2)."""


class InvalidOfferingError(RulegenError):
    """The offering breaks a rule (exit 1); carries the findings."""

    exit_code = ExitCode.INVALID

    def __init__(self, message: str, findings: Iterable[Finding] = (), *,
                 exit_code: ExitCode | None = None) -> None:
        super().__init__(message, findings=findings, exit_code=exit_code)
