"""The Jinja2 environment every document is rendered with.

Autoescaping is on for every template, undefined names raise (StrictUndefined), and templates come only
from the product's templates folder: no offering text is ever compiled as a template, it only ever
arrives as a value, escaped.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2

from rulegen.render import filters
from rulegen.render.fetcher import asset_url, offering_url
from rulegen.resources import template_dirs


def environment() -> jinja2.Environment:
    """The environment for the templates folders in use (the extra data folders first, then the shipped one)."""
    return _environment(tuple(str(folder) for folder in template_dirs()))


@cache
def _environment(folders: tuple[str, ...]) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(folders)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.filters.update(filters.FILTERS)
    env.globals["asset_url"] = asset_url
    env.globals["offering_url"] = offering_url
    return env


def render_template(name: str, **context: Any) -> str:
    return environment().get_template(name).render(**context)
