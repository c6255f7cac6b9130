"""The error hierarchy and the exit codes every command shares (see shared/spec/offering-format.md)."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0  # done; warnings and notes allowed
    INVALID = 1  # the offering or filing is wrong
    UNUSABLE = 2  # the input cannot be used or the command cannot run


class RulegenError(Exception):
    """An error a command turns into a message and an exit code; never a traceback."""

    exit_code: ExitCode = ExitCode.UNUSABLE

    def __init__(self, message: str, *, exit_code: ExitCode | None = None):
        super().__init__(message)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code


class UsageError(RulegenError):
    """Bad arguments (exit 2)."""


class InputError(RulegenError):
    """An input file that cannot be used (exit 2): unreadable, not YAML, not UTF-8, over the limits."""


class InvalidOfferingError(RulegenError):
    """The offering breaks a rule (exit 1); carries the findings."""

    exit_code = ExitCode.INVALID

    def __init__(self, message: str, findings=()):
        super().__init__(message)
        self.findings = list(findings)


class OutputError(RulegenError):
    """An output that cannot be written (exit 2)."""


class CardError(UsageError):
    """A card that cannot be parsed, or a card given twice."""
