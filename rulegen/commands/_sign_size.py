"""`--sign-size`: any size the sign can be rendered at (rulegen.render.signage.sign_size), checked when the
command line is parsed, so a bad size stops the command before any work as a usage error (exit 2)."""

from __future__ import annotations

from typing import Any

import typer

from rulegen.errors import RulegenError


def sign_size(value: str) -> str:
    """`--sign-size`: a named sheet or any WxH (see rulegen.render.signage.sign_size); checked when parsed, so
    a bad size stops the command before any work, as a usage error (exit 2)."""
    from rulegen.render.signage import sign_size as parse

    try:
        parse(value)
    except RulegenError as exc:
        raise typer.BadParameter(exc.message) from None
    return value


def sign_size_option(help_text: str) -> Any:
    return typer.Option("--sign-size", help=help_text, parser=sign_size)
