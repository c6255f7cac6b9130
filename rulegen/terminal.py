"""Text bound for a terminal: control and bidirectional characters shown escaped, never sent raw.

Layer: below findings (uses nothing of ours). Offering keys and values, file names and a filing's contents
reach the terminal in findings, diffs, verification lines and JSON; an ESC could recolour the screen or move the
cursor, a U+202E could make a line read backwards, a lone surrogate would crash the write. Such characters are
written as `\\uXXXX` escapes, which read the same in Python and inside a JSON string (so `--format json` output
stays valid JSON and means the same text).

`rulegen.cli.main` puts both standard streams behind `EscapingStream`, so every command's output passes through
one place. rich draws progress bars and tables with escape sequences of its own: it is given `raw(stream)`, and
the text it draws is the product's own figures (any name in it goes through `printable` first).
"""

from __future__ import annotations

import io
import re
from typing import TextIO

# C0 and C1 controls (tab and newline aside), DEL, bidirectional embeddings, overrides, isolates and marks, the
# line and paragraph separators, zero-width and invisible formatting characters, the BOM, and lone surrogates.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
_UNSAFE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")


def _escape(match: re.Match) -> str:
    char = match.group(0)
    if char == "\n":
        return "\\n"
    if char == "\t":
        return "\\t"
    return f"\\u{ord(char):04x}"


def printable(text: object) -> str:
    """`text` with every unsafe character escaped; new lines and tabs kept."""
    return _UNSAFE.sub(_escape, str(text))


def printable_line(text: object) -> str:
    """`text` as one line: unsafe characters, new lines and tabs all escaped."""
    return _UNSAFE_LINE.sub(_escape, str(text))


class EscapingStream(io.TextIOBase):
    """A text stream that writes `printable(text)` to the stream it wraps."""

    def __init__(self, stream: TextIO):
        super().__init__()
        self._stream = stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # a text stream refuses bytes (click probes for a binary writer this way)
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._stream.write(printable(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", "utf-8") or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self._stream, "errors", None)

    @property
    def raw_stream(self) -> TextIO:
        return self._stream


def raw(stream: TextIO) -> TextIO:
    """The stream under an `EscapingStream` (for rich, whose own escape sequences must reach the terminal)."""
    return stream.raw_stream if isinstance(stream, EscapingStream) else stream


def install() -> None:
    """Put standard output and standard error behind `EscapingStream` (once)."""
    import sys

    if not isinstance(sys.stdout, EscapingStream):
        sys.stdout = EscapingStream(sys.stdout)
    if not isinstance(sys.stderr, EscapingStream):
        sys.stderr = EscapingStream(sys.stderr)
