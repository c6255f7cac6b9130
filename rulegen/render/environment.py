"""The Jinja2 environment every document is rendered with.

Autoescaping is on for every template, undefined names raise (StrictUndefined), and templates come only
from the templates folders (the product's, and those of the data folders `RULEGEN_DATA_PATH` names): no
offering text is ever compiled as a template, it only ever arrives as a value, escaped.

Every template renders in Jinja2's immutable sandbox, the shipped ones too (their output is the same byte for
byte): a template from a card room's data folder is text the card room wrote, and it must not be able to run
Python. In the sandbox no attribute beginning with `_` can be read (so no `__class__`, `__globals__` or
`__subclasses__`), no list or mapping changed, no function that alters data called, `range` is bounded, and a
string or list multiplied or a number raised to a power has a bounded size; the globals are `range` and the
product's two URL helpers, the filters Jinja2's own text and list filters and the product's (`filters.py`). A
template that tries anything else stops the render with a `RenderError` (exit 2) that names it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import cache
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from rulegen.errors import RenderError
from rulegen.render import filters
from rulegen.render.fetcher import asset_url, offering_url
from rulegen.resources import extra_roots, template_dirs

MAX_PRODUCT = 1_000_000  # the most items or characters a `*` in a template may make
MAX_EXPONENT = 1_000  # the largest power a `**` in a template may raise a number to

# Jinja2's built-in filters that only read and format the value they are given (every attribute they reach
# goes through the sandbox); left out: `format`, and those that pad to a width a template could make a billion.
_BUILTIN_FILTERS = (
    "abs", "attr", "capitalize", "d", "default", "dictsort", "e", "escape", "first", "float", "forceescape",
    "groupby", "int", "items", "join", "last", "length", "list", "lower", "map", "max", "min", "reject",
    "rejectattr", "replace", "reverse", "round", "safe", "select", "selectattr", "sort", "string", "striptags",
    "sum", "title", "trim", "truncate", "unique", "upper", "wordcount",
)


class DocumentSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox with `*` and `**` bounded, so a template cannot ask for a gigabyte string."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator_: str, left: Any, right: Any) -> Any:
        if operator_ == "**":
            if isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
                raise SecurityError(f"a power above {MAX_EXPONENT} is not computed in a template")
            return operator.pow(left, right)
        for sequence, times in ((left, right), (right, left)):
            if isinstance(sequence, (str, list, tuple)) and isinstance(times, int):
                if len(sequence) * times > MAX_PRODUCT:
                    raise SecurityError(f"a template may make at most {MAX_PRODUCT:,} items by multiplying")
        return operator.mul(left, right)


MAX_TEMPLATE_BYTES = 4 * 1024 * 1024


class RegularFileLoader(jinja2.FileSystemLoader):
    """Jinja2's file loader, reading each template as every input file is read (`safeio.read_regular`): one
    non-blocking open of a regular file, at most MAX_TEMPLATE_BYTES. A FIFO, a device or a huge file put in a
    data folder under a template's name is a `RenderError` naming it, never a hang."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        import os
        import posixpath

        from jinja2.loaders import split_template_path

        from rulegen.safeio import UnsafeFile, read_regular

        pieces = split_template_path(template)
        for searchpath in self.searchpath:
            filename = posixpath.join(searchpath, *pieces)
            if not os.path.lexists(filename):
                continue
            try:
                data = read_regular(filename, MAX_TEMPLATE_BYTES, follow_symlinks=True)
                contents = data.decode(self.encoding)
            except UnsafeFile as exc:
                raise RenderError(f"the template {filename} cannot be read: {exc.reason}") from None
            except UnicodeDecodeError:
                raise RenderError(f"the template {filename} is not UTF-8 text") from None
            return contents, os.path.normpath(filename), lambda: True  # auto_reload is off: never read again
        raise jinja2.TemplateNotFound(template)


def environment() -> jinja2.Environment:
    """The environment for the templates folders in use (the extra data folders first, then the shipped one)."""
    return _environment(tuple(str(folder) for folder in template_dirs()))


@cache
def _environment(folders: tuple[str, ...]) -> jinja2.Environment:
    env = DocumentSandbox(
        loader=RegularFileLoader(list(folders)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.filters = {name: env.filters[name] for name in _BUILTIN_FILTERS}
    env.filters.update(filters.FILTERS)
    env.globals = {"range": env.globals["range"], "asset_url": asset_url, "offering_url": offering_url}
    return env


def render_template(name: str, **context: Any) -> str:
    """The template `name` rendered with `context`. A template the sandbox stops, or one from a data folder that
    fails, is a `RenderError` naming it; the shipped templates' own faults (an undefined name) raise as they are."""
    try:
        return environment().get_template(name).render(**context)
    except SecurityError as exc:
        raise RenderError(f"the template {name}{_from_data_folders()} tried something templates may not do "
                          f"({exc}); it was not rendered") from None
    except jinja2.TemplateError as exc:
        if not extra_roots():
            raise
        where = f"{exc.filename}:{exc.lineno}: " if isinstance(exc, jinja2.TemplateSyntaxError) and exc.filename \
            else ""
        raise RenderError(f"the template {name}{_from_data_folders()} cannot be rendered: {where}"
                          f"{type(exc).__name__}: {exc}") from None


def _from_data_folders() -> str:
    roots = extra_roots()
    if not roots:
        return ""
    return " (templates of RULEGEN_DATA_PATH: " + ", ".join(str(root) for root in roots) + ")"
