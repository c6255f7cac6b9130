"""Load an offering file: YAML → plain data, with the line and column of every node.

The tree is built from ruamel.yaml's event stream rather than its composer, so that everything
dangerous or ambiguous is refused before any value exists: anchors and aliases (no alias bomb can
expand), nesting deeper than 32, strings over 1,000 characters, a second document, explicit tags
other than the core ones. Duplicate keys are collected (every one, with both lines). Money is exact:
a number with a decimal point becomes a `Decimal` built from the scalar's own text, never a float.
Dates stay as the text the operator wrote; the schema checks their form.

Problems that make the file unusable raise `OfferingLoadError` with exit code 2; duplicate keys raise
it with exit code 1 (the offering is wrong, not unreadable), as the spec says.
"""

from __future__ import annotations

import hashlib
import re
import warnings
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulegen.errors import ExitCode, RulegenError
from rulegen.findings import Finding, dotted
from rulegen.safeio import UnsafeFile, read_regular

if TYPE_CHECKING:
    from ruamel.yaml.events import ScalarEvent

    from rulegen.logo import Logo, LogoRefused

MAX_BYTES = 1 << 20  # [offering format] a file of at most 1 MiB
MAX_DEPTH = 32  # [offering format] nesting at most 32 deep
MAX_STRING = 1000  # [offering format] strings at most 1,000 characters
# [offering format] at most 256 keys in a mapping or items in a list (the largest real one: 64 wheel segments)
MAX_ENTRIES = 256
MAX_SIGNIFICANT_DIGITS = 15  # [offering format] a number holds at most 15 significant digits ...
MAX_MAGNITUDE_EXPONENT = 12  # ... and is below 10^12 ...
MIN_MAGNITUDE_EXPONENT = -6  # ... and, unless zero, at least 0.000001: checked on the text before any arithmetic
# YAML reads these as line breaks and editors do not: a finding's line number would point at the wrong line.
_HIDDEN_LINE_BREAKS = {"\x85": "U+0085 next line", "\u2028": "U+2028 line separator",
                       "\u2029": "U+2029 paragraph separator"}
FORMAT = "offering format"

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL_TRUE = re.compile(r"^(?:true|True|TRUE)$")
_BOOL_FALSE = re.compile(r"^(?:false|False|FALSE)$")
_INT = re.compile(r"^[-+]?[0-9]+$")
_INT_OCT = re.compile(r"^0o[0-7]+$")
_INT_HEX = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)$")
_CORE_TAGS = {
    "tag:yaml.org,2002:str": "str",
    "tag:yaml.org,2002:int": "int",
    "tag:yaml.org,2002:float": "float",
    "tag:yaml.org,2002:bool": "bool",
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:map": "map",
    "tag:yaml.org,2002:seq": "seq",
}

# A node's path: keys (str) and list indexes (int); None stands for a mapping key not read yet.
Path_ = tuple[str | int | None, ...]


class OfferingLoadError(RulegenError):
    """The file could not be turned into an offering; carries the findings that say why."""

    def __init__(self, findings: list[Finding], exit_code: ExitCode):
        super().__init__("\n".join(f.format() for f in findings), exit_code=exit_code, findings=findings)


@dataclass
class Offering:
    """One offering file as loaded: its bytes, its data, and where each node stands in the text."""

    path: Path  # the file on disk (may be None-like for in-memory text in tests)
    display_path: str  # the path as the user gave it; every finding starts with it
    source: bytes
    data: dict[str, Any]  # the YAML mapping as loaded: its values are open (validation judges them)
    positions: dict[Path_, tuple[int, int]] = field(repr=False)  # node path -> (line, column) of its value
    key_positions: dict[Path_, tuple[int, int]] = field(repr=False)  # mapping entry path -> its key
    # (Logo | None,) or LogoRefused, once read
    _logo: tuple[Logo | None] | LogoRefused | None = field(default=None, repr=False, compare=False)
    # Loaded with keep_going: the errors that make the offering wrong but leave the rest readable (a duplicate
    # key, a number out of range), and the nodes they make unknowable (validation judges nothing there).
    load_findings: list[Finding] = field(default_factory=list, repr=False, compare=False)
    broken: frozenset[Path_] = field(default=frozenset(), repr=False, compare=False)

    def logo(self) -> Logo | None:
        """The logo the offering names, read once from its folder and checked (`rulegen.logo`), or None.

        Every later use (validation, rendering, the manifest's hash, the attachment) gets these same bytes;
        `LogoRefused` says why a named logo cannot be used.
        """
        from rulegen.logo import LogoRefused, read_logo

        if self._logo is None:
            head = self.data.get("offering") if isinstance(self.data, dict) else None
            operator = head.get("operator") if isinstance(head, dict) else None
            name = operator.get("logo") if isinstance(operator, dict) else None
            if not isinstance(name, str) or not name:
                self._logo = (None,)
            else:
                try:
                    self._logo = (read_logo(self.folder, name),)
                except LogoRefused as refusal:
                    self._logo = refusal
        if isinstance(self._logo, LogoRefused):
            raise self._logo
        return self._logo[0]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.source).hexdigest()

    @property
    def folder(self) -> Path:
        return self.path.resolve().parent

    def locate(self, node: Path_, *, key: bool = False) -> tuple[int, int]:
        """Line and column of a node; the nearest ancestor that exists when the node itself is missing."""
        node = tuple(node)
        while True:
            if key and node in self.key_positions:
                return self.key_positions[node]
            if node in self.positions:
                return self.positions[node]
            if not node:
                return (1, 1)
            node = node[:-1]
            key = False

    def present(self, node: Path_) -> Path_:
        """The node itself when the file has it, else its nearest ancestor that the file has."""
        node = tuple(node)
        while node and node not in self.positions:
            node = node[:-1]
        return node

    def finding(self, node: Path_, level: str, message: str, citation: str | None = None, *,
                key: bool = False, rule: str | None = None, at: Path_ | None = None) -> Finding:
        """A finding about `node`, placed at `node` (its key with `key=True`), or at `at` when given (the
        parent of a missing field, say). A missing node with no `at` is placed where it belongs: at the key of
        the nearest part that exists (its parent's own line, `top_prize:`, not the line of the parent's first
        entry)."""
        if at is None and tuple(node) not in self.positions:
            at, key = self.present(node), True
        line, column = self.locate(node if at is None else at, key=key)
        return Finding(self.display_path, line, column, level, message, citation, tuple(node), rule)


def load_offering(path: str | Path, display_path: str | None = None, *, keep_going: bool = False) -> Offering:
    """The offering in the file. An unusable file raises OfferingLoadError (exit 2); so does a wrong one (exit 1:
    a duplicate key, a number out of range) unless `keep_going`, which loads the rest for validation to judge in
    the same pass and holds those errors in `load_findings` (a duplicated key keeps its first value, an
    out-of-range number reads as empty; both nodes are `broken`)."""
    path = Path(path)
    display = display_path if display_path is not None else str(path)
    try:
        source = read_regular(path, MAX_BYTES)
    except UnsafeFile as exc:
        if "larger than" in exc.reason or "the most read" in exc.reason:
            raise _fail(display, 1, 1, f"the file is larger than {MAX_BYTES:,} bytes (1 MiB), the most an offering "
                                       "file may be") from None
        raise _fail(display, 1, 1, exc.reason) from None
    return parse_offering(source, display, path, keep_going=keep_going)


def parse_offering(source: bytes, display: str, path: Path | None = None, *, keep_going: bool = False) -> Offering:
    if len(source) > MAX_BYTES:
        raise _fail(display, 1, 1, f"the file is larger than {MAX_BYTES:,} bytes (1 MiB), the most an offering "
                                   "file may be")
    text = _decode(source, display)
    if not text.strip():
        raise _fail(display, 1, 1, "the file is empty; an offering file is a YAML mapping of fields")
    data, positions, key_positions, wrong = _compose(text, display, keep_going)
    return Offering(path or Path(display), display, source, data, positions, key_positions,
                    load_findings=wrong, broken=frozenset(f.node for f in wrong if f.node is not None))


def _fail(display: str, line: int, column: int, message: str, code: ExitCode = ExitCode.UNUSABLE,
          node: Path_ = ()) -> OfferingLoadError:
    finding = Finding(display, line, column, "error", message, FORMAT, tuple(node) or None)
    return OfferingLoadError([finding], code)


def _decode(source: bytes, display: str) -> str:
    if source.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _fail(display, 1, 1, "the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8")
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = source[: exc.start]
        line = prefix.count(b"\n") + 1
        column = len(prefix[prefix.rfind(b"\n") + 1:].decode("utf-8", errors="replace")) + 1
        raise _fail(display, line, column,
                    f"the file is not UTF-8 text (byte 0x{source[exc.start]:02x} at offset {exc.start}); "
                    "save it as UTF-8") from None
    # A UTF-8 byte-order mark is allowed by YAML; drop it so columns count from the first real character.
    text = text[1:] if text.startswith("\ufeff") else text
    for char, name in _HIDDEN_LINE_BREAKS.items():
        at = text.find(char)
        if at >= 0:
            before = text[:at]
            line = before.count("\n") + 1
            column = at - (before.rfind("\n") + 1) + 1
            raise _fail(display, line, column,
                        f"the file holds the character {name}, which YAML reads as a line break and editors do "
                        "not (every line number after it would be wrong); remove it")
    return text


def _mark(event_or_error: object) -> tuple[int, int]:
    mark = getattr(event_or_error, "start_mark", None) or getattr(event_or_error, "problem_mark", None) \
        or getattr(event_or_error, "context_mark", None)
    if mark is None:
        return (1, 1)
    return (mark.line + 1, mark.column + 1)


class _Frame:
    """A mapping or a list being read: its value so far, its path, and (in a mapping) the key read last."""

    __slots__ = ("kind", "value", "node", "start", "pending", "key_lines")

    def __init__(self, kind: str, value: dict[str, Any] | list[Any], node: Path_, start: tuple[int, int]):
        self.kind = kind  # "map" | "seq"
        self.value = value
        self.node = node
        self.start = start
        self.pending: tuple[str, tuple[int, int]] | None = None  # a key read, waiting for its value, and where
        self.key_lines: dict[str, int] = {}


def _compose(text: str, display: str, keep_going: bool = False) -> tuple[
        dict[str, Any], dict[Path_, tuple[int, int]], dict[Path_, tuple[int, int]], list[Finding]]:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError

    parser = YAML(typ="safe", pure=True)  # events only; the round-trip parser would also gather comments
    positions: dict[Path_, tuple[int, int]] = {}
    key_positions: dict[Path_, tuple[int, int]] = {}
    duplicates: list[Finding] = []
    wrong: list[Finding] = []  # with keep_going: values out of range, each read as empty
    stack: list[_Frame] = []
    root: object = None
    documents = 0

    def place(value: object, pos: tuple[int, int], node_kind: str | None = None) -> Path_ | None:
        """Attach a finished value to its parent; returns the value's path."""
        nonlocal root
        if not stack:
            root = value
            positions[()] = pos
            return ()
        parent = stack[-1]
        if len(parent.value) >= MAX_ENTRIES:
            kind = "items" if parent.kind == "seq" else "keys"
            raise _fail(display, *pos, f"{dotted(parent.node) or 'the top level'} holds more than {MAX_ENTRIES} "
                                       f"{kind}, the most an offering file may hold in one place", node=parent.node)
        if isinstance(parent.value, list):  # a "seq" frame
            node = parent.node + (len(parent.value),)
            parent.value.append(value)
            positions[node] = pos
            return node
        if parent.pending is None:
            # this value is a key
            if node_kind != "scalar":
                raise _fail(display, *pos, "a mapping key must be plain text, not a list or a mapping",
                            node=parent.node)
            key = value if isinstance(value, str) else _key_text(value)
            parent.pending = (key, pos)
            return None
        key, key_pos = parent.pending
        parent.pending = None
        node = parent.node + (key,)
        if key in parent.key_lines:
            first_line = parent.key_lines[key]
            duplicates.append(Finding(
                display, key_pos[0], key_pos[1], "error",
                f"duplicate key '{key}' in {dotted(parent.node) or 'the top level'}: it is also on line {first_line}; "
                "a key may appear once (which value was meant cannot be known)",
                FORMAT, node))
            return node
        parent.key_lines[key] = key_pos[0]
        parent.value[key] = value
        positions[node] = pos
        key_positions[node] = key_pos
        return node

    def container_path() -> Path_:
        if not stack:
            return ()
        parent = stack[-1]
        if parent.kind == "seq":
            return parent.node + (len(parent.value),)
        return parent.node + (parent.pending[0] if parent.pending is not None else None,)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for event in parser.parse(text):
                name = type(event).__name__
                if name == "AliasEvent":
                    raise _fail(display, *_mark(event),
                                f"YAML aliases (*{event.anchor}) are not accepted in an offering file; write the "
                                "value out in full", node=container_path())
                anchor = getattr(event, "anchor", None)
                if anchor is not None:
                    raise _fail(display, *_mark(event),
                                f"YAML anchors (&{anchor}) are not accepted in an offering file; write each value "
                                "out in full", node=container_path())
                if name == "DocumentStartEvent":
                    documents += 1
                    if documents > 1:
                        raise _fail(display, *_mark(event),
                                    "the file holds more than one YAML document; an offering file holds one")
                    continue
                tag = getattr(event, "tag", None)
                if tag is not None and tag not in _CORE_TAGS and name in (
                        "ScalarEvent", "MappingStartEvent", "SequenceStartEvent"):
                    raise _fail(display, *_mark(event),
                                f"the YAML tag {tag.replace('tag:yaml.org,2002:', '!!')} is not accepted; write plain "
                                "values", node=container_path())
                if name == "MappingStartEvent" or name == "SequenceStartEvent":
                    pos = _mark(event)
                    if stack and stack[-1].kind == "map" and stack[-1].pending is None:
                        raise _fail(display, *pos, "a mapping key must be plain text, not a list or a mapping",
                                    node=stack[-1].node)
                    if len(stack) >= MAX_DEPTH:
                        raise _fail(display, *pos, f"the data is nested more than {MAX_DEPTH} levels deep",
                                    node=container_path())
                    node = container_path()
                    stack.append(_Frame("map" if name == "MappingStartEvent" else "seq",
                                        {} if name == "MappingStartEvent" else [], node, pos))
                elif name in ("MappingEndEvent", "SequenceEndEvent"):
                    frame = stack.pop()
                    place(frame.value, frame.start, "container")
                elif name == "ScalarEvent":
                    pos = _mark(event)
                    try:
                        value = _resolve(event, display, pos, container_path())
                    except OfferingLoadError as exc:
                        is_key = bool(stack) and stack[-1].kind == "map" and stack[-1].pending is None
                        if not keep_going or exc.exit_code != ExitCode.INVALID or is_key:
                            raise
                        wrong.extend(exc.findings)  # a value out of range: reported, read as empty
                        value = None
                    place(value, pos, "scalar")
    except OfferingLoadError:
        raise
    except MarkedYAMLError as exc:
        line, column = _mark(exc)
        problem = (exc.problem or exc.context or "the YAML cannot be parsed").strip()
        innermost = (stack[-1].kind, stack[-1].start) if stack else None
        hint = syntax_hint(exc, text, innermost)
        raise _fail(display, line, column, f"YAML syntax error: {problem}" + (f"; {hint}" if hint else "")) from None
    except Exception as exc:  # ruamel.yaml raises other exceptions on some malformed input
        position = getattr(exc, "position", None)
        line, column = (1, 1)
        if isinstance(position, int):
            prefix = text[:position]
            line = prefix.count("\n") + 1
            column = position - (prefix.rfind("\n") + 1) + 1
        reason = getattr(exc, "reason", None) or str(exc) or type(exc).__name__
        raise _fail(display, line, column, f"YAML syntax error: {reason}") from None

    if root is None:
        raise _fail(display, 1, 1, "the file holds no data; an offering file is a YAML mapping of fields")
    if not isinstance(root, dict):
        kind = "a list" if isinstance(root, list) else "a single value"
        raise _fail(display, *positions.get((), (1, 1)),
                    f"the top level is {kind}; an offering file is a YAML mapping of fields "
                    "(schema_version, offering, table, ...)")
    if duplicates and not keep_going:
        raise OfferingLoadError(duplicates, ExitCode.INVALID)
    return root, positions, key_positions, duplicates + wrong


def syntax_hint(exc: Any, text: str, innermost: tuple[str, tuple[int, int]] | None = None) -> str | None:
    """What to write instead, for the YAML syntax errors people make in an offering file, or None.

    Read from ruamel.yaml's problem and context and the lines they mark, and `innermost`, the kind ("map" or
    "seq") and place of the mapping or list being read when the parser stopped; the finding stays at the
    problem's place (where the parser stopped), and the hint names the line where the fix usually goes."""
    problem = str(getattr(exc, "problem", None) or "")
    context = str(getattr(exc, "context", None) or "")
    here, opened = getattr(exc, "problem_mark", None), getattr(exc, "context_mark", None)
    lines = text.split("\n")

    def line(mark: Any) -> str:
        return lines[mark.line] if mark is not None and 0 <= mark.line < len(lines) else ""

    def where(mark: Any) -> str:
        return f"line {mark.line + 1}, column {mark.column + 1}"

    def previous(mark: Any) -> tuple[int, str] | None:
        """The nearest line above the mark that holds something other than a comment."""
        for number in range(mark.line - 1, -1, -1):
            if lines[number].strip() and not lines[number].lstrip().startswith("#"):
                return number + 1, lines[number]
        return None

    def indent(content: str) -> int:
        return len(content) - len(content.lstrip(" "))

    if "'\\t'" in problem:
        return "YAML indents and separates with spaces, never tabs: replace the tab with spaces"
    if "that cannot start any token" in problem:
        char = problem.split("'")[1] if problem.count("'") >= 2 else "it"
        return f"a plain value cannot begin with {char}: put the value in quotes"
    if context.startswith("while parsing a flow") and problem.startswith("expected ','") and opened is not None:
        bracket, closing = ("[", "]") if "sequence" in context else ("{", "}")
        return (f"the {bracket} opened at {where(opened)} is not closed: end it with {closing} on that line "
                "(and put a value that holds a comma in quotes)")
    if context.startswith("while parsing a flow") and "<stream end>" in problem and innermost is not None:
        kind, (line_number, column) = innermost  # the file ended inside a [ ] or { } (the parser marks no opening)
        bracket, closing = ("[", "]") if kind == "seq" else ("{", "}")
        return (f"the file ends inside the {bracket} opened at line {line_number}, column {column}: end it with "
                f"{closing} on that line, or put a value that begins with {bracket} in quotes")
    if "quoted scalar" in context and "end of stream" in problem and opened is not None:
        return f"the quote opened at {where(opened)} is never closed: end the value with the same quote"
    if "unknown escape character" in problem:
        return ("inside double quotes a backslash starts an escape: put the value in single quotes, or write a "
                "backslash as \\\\")
    if "could not find expected ':'" in problem and opened is not None:
        return (f"line {opened.line + 1} ({line(opened).strip()!r}) is neither 'key: value' nor a list item: add ': ' "
                "after its key, or join it to the line above")
    if problem == "mapping values are not allowed here" and here is not None:
        content = line(here)
        before = content[:here.column].lstrip(" -")
        if ": " in before:
            return ("the value holds ': ', which YAML reads as the start of another key: put the value in quotes "
                    "(name: \"Example: Casino\")")
        above = previous(here)
        if above is not None:
            number, prior = above
            key, colon, rest = prior.partition(":")
            if colon and rest and not rest.startswith((" ", "\t")) and ": " not in prior and "#" not in key:
                return f"line {number} has no space after its colon: write '{key.strip()}: {rest.strip()}'"
            if not colon and not prior.lstrip().startswith("-") and indent(prior) == indent(content):
                return (f"line {number} ({prior.strip()!r}) has no ': ', so YAML reads it as part of the key on line "
                        f"{here.line + 1}: give it its value ({prior.strip()}: ...) or remove it")
            if indent(content) > indent(prior) and not prior.rstrip().endswith(":"):
                return (f"line {here.line + 1} is indented deeper than line {number} above it, whose key already has "
                        "a value: start it in the same column as the keys it belongs with")
        return "put a value that holds ': ' in quotes, and start the keys of one mapping in one column"
    if problem.startswith("expected <block end>, but found") and here is not None:
        found = problem.rsplit("found", 1)[1].strip()
        if found == "'-'":
            return ("a list item (-) cannot stand among a mapping's keys: put the list under a key of its own, "
                    "indented")
        if found in ("'<block mapping start>'", "'<block sequence start>'", "'?'"):
            return (f"line {here.line + 1} starts in column {here.column + 1}, in line with no key or list item above "
                    "it: start it in the same column as the keys it belongs with")
        if found in ("']'", "'}'"):
            return (f"this {found[1]} closes nothing that was opened: remove it, or put a value that holds one in "
                    "quotes")
        value = line(here)[:here.column].partition(":")[2].strip()
        if value.startswith(("{", "[")):
            return ("a value that begins with { or [ is read as a mapping or a list: put text that begins with one "
                    "in quotes")
        return "the value ended (at a closing quote or bracket) and more text follows it: put the whole value in quotes"
    return None


def _key_text(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _resolve(event: ScalarEvent, display: str, pos: tuple[int, int], node: Path_) -> object:
    """The YAML 1.2 core schema, with exact decimals for money and dates kept as text."""
    raw = event.value
    if len(raw) > MAX_STRING:
        raise _fail(display, *pos, f"a value of {len(raw):,} characters; the most a value may hold is "
                                   f"{MAX_STRING:,}", node=node)
    surrogate = next((c for c in raw if "\ud800" <= c <= "\udfff"), None)
    if surrogate is not None:
        where = (f"a key in {dotted(node[:-1]) or 'the top level'}" if node and node[-1] is None
                 else dotted(node) or "a value")
        raise _fail(display, *pos, f"{where} holds an unpaired surrogate escape "
                                   f"(\\u{ord(surrogate):04x}), which is not a character", node=node)
    tag = _CORE_TAGS.get(event.tag) if event.tag else None
    plain = event.style is None
    if tag == "str" or (tag is None and not plain):
        return raw
    if tag is None:
        tag = _implicit_kind(raw)
    try:
        if tag == "null":
            return None
        if tag == "bool":
            if _BOOL_TRUE.match(raw):
                return True
            if _BOOL_FALSE.match(raw):
                return False
            raise ValueError
        if tag == "int":
            if _INT_OCT.match(raw):
                value = int(raw[2:], 8) if len(raw) <= 2 + MAX_SIGNIFICANT_DIGITS + 3 else None
            elif _INT_HEX.match(raw):
                value = int(raw[2:], 16) if len(raw) <= 2 + MAX_SIGNIFICANT_DIGITS else None
            else:
                value = int(raw) if len(raw.lstrip("+-").lstrip("0")) <= MAX_SIGNIFICANT_DIGITS else None
            if value is None or abs(value) >= 10 ** MAX_MAGNITUDE_EXPONENT:
                raise _OutOfRange
            return value
        if tag == "float":
            if _INF.match(raw):
                return float("-inf") if raw.startswith("-") else float("inf")
            if _NAN.match(raw):
                return float("nan")
            if not _FLOAT.match(raw) or not _bounded_decimal_text(raw):
                raise _OutOfRange
            return Decimal(raw)
    except _OutOfRange:
        raise _fail(display, *pos, f"{dotted(node) or 'a value'} is {raw}: an offering's numbers hold at most "
                                   f"{MAX_SIGNIFICANT_DIGITS} significant digits and lie between 0.000001 and "
                                   f"10^{MAX_MAGNITUDE_EXPONENT} (or are 0)", ExitCode.INVALID, node=node) from None
    except (ValueError, InvalidOperation):
        raise _fail(display, *pos, f"'{raw}' is not a valid {tag}", node=node) from None
    return raw


class _OutOfRange(Exception):
    """A number whose text is outside what any field of an offering can mean."""


_DECIMAL_PARTS = re.compile(r"^[-+]?([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?$")


def _bounded_decimal_text(raw: str) -> bool:
    """True when the number's text is within the offering format's bounds, judged on the digits alone."""
    match = _DECIMAL_PARTS.match(raw)
    if match is None:
        return False
    whole, fraction, exponent_text = match.group(1), match.group(2) or "", match.group(3)
    if exponent_text is not None and len(exponent_text.lstrip("+-").lstrip("0")) > 3:
        return False  # an exponent of four or more digits is out of range whatever the digits are
    exponent = int(exponent_text) if exponent_text is not None else 0
    digits = (whole + fraction).lstrip("0")
    if not digits:
        return True  # zero, however written
    significant = digits.rstrip("0")
    if len(significant) > MAX_SIGNIFICANT_DIGITS and len(fraction.rstrip("0")) > 0:
        return False
    if len(significant) > MAX_SIGNIFICANT_DIGITS:
        return False
    # the position of the leading digit: value = 0.d1d2... x 10^adjusted
    leading = len(whole.lstrip("0")) if whole.lstrip("0") else -(len(fraction) - len(fraction.lstrip("0")))
    adjusted = leading + exponent
    return MIN_MAGNITUDE_EXPONENT < adjusted <= MAX_MAGNITUDE_EXPONENT


def _implicit_kind(raw: str) -> str:
    if _NULL.match(raw):
        return "null"
    if _BOOL_TRUE.match(raw) or _BOOL_FALSE.match(raw):
        return "bool"
    if _INT.match(raw) or _INT_OCT.match(raw) or _INT_HEX.match(raw):
        return "int"
    if _FLOAT.match(raw) or _INF.match(raw) or _NAN.match(raw):
        return "float"
    return "str"
