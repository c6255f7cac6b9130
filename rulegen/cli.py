"""The command line: typer commands, exit codes, progress. No logic lives here.

Each command is a module in `rulegen/commands/` with a `register(app)` function; library code raises a
`RulegenError`, and `main` turns it into one message and an exit code. No traceback reaches the user
unless RULEGEN_DEBUG is set.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

import typer

from rulegen import __version__
from rulegen.commands._common import report_error, reporting_errors
from rulegen.errors import ExitCode, RulegenError

app = typer.Typer(
    name="rulegen",
    help="Criss Cross Poker rules submissions from one offering file: validate, math, build, verify.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"rulegen {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Criss Cross Poker rules submissions from one offering file."""


def _register_commands() -> None:
    import rulegen.commands as commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"rulegen.commands.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)
    # Every command, a group's subcommands (`register add`) included, ends a RulegenError the same way:
    # report_error prints it, its class gives the exit code.
    apps = [app]
    while apps:
        current = apps.pop()
        for command in current.registered_commands:
            if command.callback is not None:
                command.callback = reporting_errors(command.callback)
        apps.extend(group.typer_instance for group in current.registered_groups if group.typer_instance)


_register_commands()


def main() -> None:
    from rulegen import terminal

    terminal.install()  # every character a command prints that could act on the terminal is shown escaped
    from rulegen.scratch import run_temporaries

    try:
        # every temporary file of the run in one folder, removed at the end; a killed run's goes at the next run
        with run_temporaries():
            app(standalone_mode=True)
    except RulegenError as exc:  # raised outside a command (while the commands load)
        sys.exit(report_error(exc))
    except KeyboardInterrupt:
        typer.echo("rulegen: interrupted", err=True)
        sys.exit(int(ExitCode.UNUSABLE))
    except Exception as exc:  # the last guard: a message, never a traceback
        if os.environ.get("RULEGEN_DEBUG"):
            raise
        typer.echo(f"rulegen: internal error: {type(exc).__name__}: {exc} (set RULEGEN_DEBUG=1 for details)",
                   err=True)
        sys.exit(int(ExitCode.UNUSABLE))
