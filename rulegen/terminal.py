"""Text bound for a terminal: control and bidirectional characters shown escaped, never sent raw.

Layer: load (uses nothing of ours). Offering keys and values, file names and a filing's contents reach the
terminal in findings, diffs and verification lines; an ESC could recolour or move the cursor, a U+202E could
make a line read backwards. Such characters are printed as Python-style escapes (`\\x1b`, `\\u202e`).
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, bidirectional embeddings, overrides, isolates and marks, the line and paragraph
# separators, zero-width and invisible formatting characters, the byte-order mark, and lone surrogates.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
_UNSAFE_LINE = re.compile(_UNSAFE.pattern[:-1] + "\t\n]")


def _escape(match: re.Match) -> str:
    char = match.group(0)
    code = ord(char)
    if char == "\n":
        return "\\n"
    if char == "\t":
        return "\\t"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """`text` with every unsafe character escaped; new lines and tabs kept."""
    return _UNSAFE.sub(_escape, str(text))


def printable_line(text: object) -> str:
    """`text` as one line: unsafe characters, new lines and tabs all escaped."""
    return _UNSAFE_LINE.sub(_escape, str(text))
