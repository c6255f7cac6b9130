"""The Jinja2 environment every document is rendered with.

Autoescaping is on for every template, undefined names raise (StrictUndefined), and templates come only
from the templates folders (the product's, and those of the data folders `RULEGEN_DATA_PATH` names): no
offering text is ever compiled as a template, it only ever arrives as a value, escaped.

Every template renders in Jinja2's immutable sandbox, the shipped ones too (their output is the same byte for
byte): a template from a card room's data folder is text the card room wrote, and it must not be able to run
Python. In the sandbox no attribute beginning with `_` can be read (so no `__class__`, `__globals__` or
`__subclasses__`), no list or mapping changed, no function that alters data called, `range` is bounded, a
string or list made by multiplying, joining, adding, replacing, padding or formatting, and a number raised to a
power, have a bounded size, what one template writes is bounded, and its rendering is under the render time bound
(`rulegen.render.pdf.time_bound`); the globals are `range` and the product's two URL helpers, the filters
Jinja2's own text and list filters and the product's (`filters.py`). A template that tries anything else stops
the render with a `RenderError` (exit 2) that names it.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.filters import FILTERS as _JINJA_FILTERS
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from jinja2.utils import _PassArg

from rulegen.errors import RenderError
from rulegen.render import filters
from rulegen.render.fetcher import asset_url, offering_url
from rulegen.resources import extra_roots, template_dirs

MAX_PRODUCT = 1_000_000  # the most items or characters a `*` in a template may make
MAX_EXPONENT = 1_000  # the largest power a `**` in a template may raise a number to
MAX_TEXT = 4_000_000  # the longest string or list a template may make by joining, padding or replacing
MAX_OUTPUT = 32_000_000  # the most characters one template may write (the rules document writes about 0.3 M)
# The most memory a template's rendering may take beyond what the process held when it began (on Linux): the
# bounds above hold each string, this holds what a template makes of many (a million strings upper-cased).
MAX_TEMPLATE_MEMORY = 1 << 30

# Jinja2's built-in filters that only read and format the value they are given (every attribute they reach
# goes through the sandbox); left out: `format`, and those that pad to a width a template could make a billion.
_BUILTIN_FILTERS = (
    "abs", "attr", "capitalize", "d", "default", "dictsort", "e", "escape", "first", "float", "forceescape",
    "groupby", "int", "items", "join", "last", "length", "list", "lower", "map", "max", "min", "reject",
    "rejectattr", "replace", "reverse", "round", "safe", "select", "selectattr", "sort", "string", "striptags",
    "sum", "title", "trim", "truncate", "unique", "upper", "wordcount",
)


def _too_long(size: int, how: str) -> None:
    if size > MAX_TEXT:
        raise SecurityError(f"a template may make at most {MAX_TEXT:,} characters or items by {how}")


# Methods of a string that make a longer one: each is bounded before it runs (a template calls them as
# `text.ljust(n)`, outside the filters); `translate` and `format_map` are not called at all.
_PADDING = frozenset({"ljust", "rjust", "center", "zfill"})
_REFUSED_METHODS = frozenset({"translate", "format_map", "maketrans"})
_PRINTF_FIELD = re.compile(r"%[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
_FORMAT_NUMBER = re.compile(r"\d+")


class DocumentSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox with everything that multiplies text bounded (`*`, `**`, `+`, `~`, `%`, the `join`
    and `replace` filters and string methods, padding, format widths), so a template cannot ask for a gigabyte
    string; what a template writes is bounded too (`render_template`)."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def call_binop(self, context: Any, operator_: str, left: Any, right: Any) -> Any:
        if operator_ == "**":
            if isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
                raise SecurityError(f"a power above {MAX_EXPONENT} is not computed in a template")
            return operator.pow(left, right)
        if operator_ == "+":
            if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
                _too_long(len(left) + len(right), "adding")
            return operator.add(left, right)
        if operator_ == "%":
            if isinstance(left, str):
                _check_printf(left)
            return operator.mod(left, right)
        for sequence, times in ((left, right), (right, left)):
            if isinstance(sequence, (str, list, tuple)) and isinstance(times, int):
                if len(sequence) * times > MAX_PRODUCT:
                    raise SecurityError(f"a template may make at most {MAX_PRODUCT:,} items by multiplying")
        return operator.mul(left, right)

    def call_concat(self, context: Any, items: tuple[Any, ...]) -> str:
        """`a ~ b`: Jinja2's own joining (so the text is the same), its length bounded."""
        from jinja2.runtime import markup_join, str_join

        joined: str = (markup_join if context.eval_ctx.autoescape else str_join)(items)
        _too_long(len(joined), "joining with ~")
        return joined

    def wrap_str_format(self, value: Any) -> Any:
        """`text.format` is bounded where the sandbox hands it out (when it is read, not called)."""
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            if value.__name__ in _REFUSED_METHODS:
                raise SecurityError(f"a template may not call {value.__name__} on a string")
            _check_format(value.__self__)
        return wrapped

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja2's form)
        owner, name = getattr(__obj, "__self__", None), getattr(__obj, "__name__", "")
        if isinstance(owner, str) and callable(__obj):
            _check_string_method(owner, name, args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)


def _check_string_method(text: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    if name in _REFUSED_METHODS:
        raise SecurityError(f"a template may not call {name} on a string")
    if name in _PADDING and args and isinstance(args[0], int):
        _too_long(args[0], "padding")
    elif name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(size, int):
            _too_long(len(text) + text.count("\t") * max(size, 0), "expanding tabs")
    elif name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        _too_long(_replaced_length(text, args[0], args[1]), "replacing")
    elif name == "join" and args:
        items = list(args[0]) if not isinstance(args[0], str) else list(args[0])
        _too_long(sum(len(str(item)) for item in items) + len(text) * max(len(items) - 1, 0), "joining")


def _replaced_length(text: str, old: str, new: str) -> int:
    found = len(text) + 1 if old == "" else text.count(old)
    return len(text) + found * max(len(new) - len(old), 0)


def _check_format(text: str) -> None:
    """A `str.format` whose widths and precisions are at most MAX_TEXT, none taken from an argument."""
    import string

    for _literal, _field, spec, _conversion in string.Formatter().parse(text):
        if spec and ("{" in spec or any(int(n) > MAX_TEXT for n in _FORMAT_NUMBER.findall(spec))):
            raise SecurityError(f"a template may not format to a width or precision above {MAX_TEXT:,}, nor one "
                                "an argument gives")


def _check_printf(text: str) -> None:
    for width, precision in _PRINTF_FIELD.findall(text):
        for value in (width, precision):
            if value == "*" or (value and int(value) > MAX_TEXT):
                raise SecurityError(f"a template may not format to a width or precision above {MAX_TEXT:,}, nor "
                                    "one an argument gives")


class _BoundedCodeGenerator(CodeGenerator):
    """Jinja2's code generator, with `~` going through the sandbox's `call_concat` (bounded) instead of straight to
    Jinja2's joining."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:  # noqa: N802 (Jinja2's name)
        self.write("environment.call_concat(context, (")
        for argument in node.nodes:
            self.visit(argument, frame)
            self.write(", ")
        self.write("))")


def _bounded_join(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> Any:
    items = list(value)
    texts = 0 if attribute is not None else sum(len(str(item)) for item in items)
    _too_long(texts + len(str(d)) * max(len(items) - 1, 0), "joining")
    return _JINJA_FILTERS["join"](eval_ctx, items, d, attribute)


def _bounded_replace(eval_ctx: Any, s: str, old: str, new: str, count: int | None = None) -> Any:
    _too_long(_replaced_length(str(s), str(old), str(new)), "replacing")
    return _JINJA_FILTERS["replace"](eval_ctx, s, old, new, count)


DocumentSandbox.code_generator_class = _BoundedCodeGenerator
_bounded_join.jinja_pass_arg = _bounded_replace.jinja_pass_arg = _PassArg.eval_context  # type: ignore[attr-defined]


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
    env.filters.update({"join": _bounded_join, "replace": _bounded_replace})
    env.filters.update(filters.FILTERS)
    env.globals = {"range": env.globals["range"], "asset_url": asset_url, "offering_url": offering_url}
    return env


def render_template(name: str, **context: Any) -> str:
    """The template `name` rendered with `context`. A template the sandbox stops, or one from a data folder that
    fails, is a `RenderError` naming it; the shipped templates' own faults (an undefined name) raise as they are."""
    from rulegen.render.pdf import time_bound

    try:
        with time_bound(f"the template {name}"), _memory_bound():
            return _bounded_output(environment().get_template(name), context)
    except SecurityError as exc:
        raise RenderError(f"the template {name}{_from_data_folders()} tried something templates may not do "
                          f"({exc}); it was not rendered") from None
    except RenderError:
        raise
    except jinja2.TemplateError as exc:
        if not extra_roots():
            raise
        where = f"{exc.filename}:{exc.lineno}: " if isinstance(exc, jinja2.TemplateSyntaxError) and exc.filename \
            else ""
        raise RenderError(f"the template {name}{_from_data_folders()} cannot be rendered: {where}"
                          f"{type(exc).__name__}: {exc}") from None
    except (ArithmeticError, LookupError, MemoryError, RecursionError, TypeError, ValueError) as exc:
        if not extra_roots():  # the shipped templates' own faults raise as they are
            raise
        raise RenderError(f"the template {name}{_from_data_folders()} cannot be rendered: "
                          f"{type(exc).__name__}: {exc}") from None


@contextmanager
def _memory_bound() -> Iterator[None]:
    """Within: the process's data segment may grow by at most MAX_TEMPLATE_MEMORY (RLIMIT_DATA, lowered for the
    rendering and put back after); past it an allocation fails, and the template is stopped with a SecurityError.
    Where the limit or the process's size cannot be read (not Linux), nothing is bounded."""
    try:
        import resource

        held = next(int(line.split()[1]) * 1024 for line in Path("/proc/self/status").read_text().splitlines()
                    if line.startswith("VmData:"))
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    except (ImportError, OSError, StopIteration, ValueError):
        yield
        return
    limit = held + MAX_TEMPLATE_MEMORY
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft != resource.RLIM_INFINITY and soft <= limit:  # a tighter limit already holds
        limit = soft
    resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
    try:
        yield
    except MemoryError:
        raise SecurityError(f"a template may take at most {MAX_TEMPLATE_MEMORY >> 20:,} MiB of memory") from None
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


def _bounded_output(template: jinja2.Template, context: dict[str, Any]) -> str:
    """The template's text, as `render` gives it, stopped once it passes MAX_OUTPUT characters."""
    pieces: list[str] = []
    written = 0
    for piece in template.generate(**context):
        written += len(piece)
        if written > MAX_OUTPUT:
            raise SecurityError(f"a template may write at most {MAX_OUTPUT:,} characters")
        pieces.append(piece)
    return "".join(pieces)


def _from_data_folders() -> str:
    roots = extra_roots()
    if not roots:
        return ""
    return " (templates of RULEGEN_DATA_PATH: " + ", ".join(str(root) for root in roots) + ")"
