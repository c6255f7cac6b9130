"""The register's HTML page for a reviewer (render layer): the rows `filing.register.report_rows` gives, laid out
by templates/register-report.html. Jinja2 autoescapes everything, so an operator's name prints as text."""

from __future__ import annotations

from typing import Any

STATUS_WORDS = {"verified": "verified", "untrusted": "intact, signer not trusted", "failed": "failed",
                "unsigned": "unsigned draft", "unusable": "unusable"}


def register_page(data: dict[str, Any], *, title: str = "Register of received filings") -> str:
    from jinja2 import StrictUndefined, select_autoescape
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    from rulegen.render.environment import RegularFileLoader
    from rulegen.resources import templates_dir

    # the shipped page only, in the sandbox every document renders in (the rows are a filing's text, escaped)
    environment = ImmutableSandboxedEnvironment(
        loader=RegularFileLoader(str(templates_dir())), autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return environment.get_template("register-report.html").render(
        title=title, rows=data["rows"], totals=data["totals"], flagged=data["flagged"],
        jurisdiction=data["jurisdiction"], words=STATUS_WORDS)
