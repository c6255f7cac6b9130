"""Reads the clause labels of each source text in the shared regulations/ folder, independently of the inventory.

The texts are read where the project keeps them, `../shared/regulations/` beside the repository (CI has it
there too), or in the folder `RULEGEN_REGULATIONS` names; they are not copied into the repository, so an
amended text is compared as it is now. Where neither is found the tests that need them are skipped with the
reason (the `regulations` fixture of tests/conftest.py), unless RULEGEN_REQUIRE_REGULATIONS=1 (CI), where they
fail.

Each reader walks one text line by line and returns its clauses in the text's order as (id, parent, text),
where `id` is the clause's pinpoint label in the jurisdiction's citation form without the common prefix
(MD `Chapter 12 §D(6)(b)(i)`, NJ `13:69F-40.5(c)1ii`, PA `674a.11(h)(1)(i)`, HOUSE `Round of Play`).
The inventory test compares these with `jurisdictions/clauses/<code>.yaml`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

FOLDER_ENV = "RULEGEN_REGULATIONS"
REQUIRE_ENV = "RULEGEN_REQUIRE_REGULATIONS"
BESIDE = Path(__file__).resolve().parent.parent.parent / "shared" / "regulations"  # ../shared/regulations


def locate() -> tuple[Path | None, str]:
    """The folder of the source texts, or None and the one-line reason it was not found.

    `RULEGEN_REGULATIONS` names it, else it is `../shared/regulations` beside the repository; a folder counts
    when it holds the texts' README.md.
    """
    named = os.environ.get(FOLDER_ENV)
    folder = Path(named) if named else BESIDE
    if (folder / "README.md").is_file():
        return folder, ""
    where = f"{FOLDER_ENV}={named}" if named else f"{BESIDE} (and {FOLDER_ENV} is unset)"
    return None, f"the source regulation texts are not at {where}"


def texts() -> Path:
    folder, reason = locate()
    if folder is None:
        raise FileNotFoundError(reason)
    return folder


ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


def _clean(line: str) -> str:
    line = line.replace("\\$", "$").strip()
    line = re.sub(r"^[-*]\s*", "", line).strip()
    return line


# ---------------------------------------------------------------- Maryland ------------------------------------

_MD_PAGE_HEADER = re.compile(
    r"^\**(Maryland State Lottery and Gaming Control Agency|Standard Rules – Criss Cross Poker)\**$")


def maryland(path: Path | None = None) -> list[tuple[str, str | None, str]]:
    lines = (path or texts() / "md-standard-rules.txt").read_text(encoding="utf-8").splitlines()
    found: list[tuple[str, str | None, str]] = []
    chapter = None
    section = None
    stack: list[tuple[str, str]] = []  # (kind, token) below the section: kind in num, alpha, roman
    started = False
    for raw in lines:
        line = _clean(raw)
        if not line or _MD_PAGE_HEADER.match(line):
            continue
        heading = re.match(r"^Chapter (\d+) [–-] (.+?)\.?$", line)
        if heading and not re.search(r"\.{3,}|\t", raw):
            started = True
            chapter = f"Chapter {heading.group(1)}"
            section = None
            stack = []
            found.append((chapter, None, heading.group(2)))
            continue
        if not started:
            continue
        sec = re.match(r"^([A-Z])\. (.*)$", line)
        if sec:
            section = f"{chapter} §{sec.group(1)}"
            stack = []
            found.append((section, chapter, sec.group(2)))
            continue
        item = re.match(r"^\(([0-9]+|[a-z]+)\)\s*(.*)$", line)
        if not item or section is None:
            continue
        token, text = item.group(1), item.group(2)
        if token.isdigit():
            if stack and stack[-1][0] == "num" and token == "1" and int(stack[-1][1]) > 1:
                # Chapter 2 §B(6) numbers its own items (1), (2) again: read as children of (6).
                stack.append(("num", token))
            else:
                while stack and stack[-1][0] != "num":
                    stack.pop()
                if stack:
                    stack.pop()
                stack.append(("num", token))
        else:
            alphas = [t for k, t in stack if k == "alpha"]
            is_roman = token in ROMAN and not (token == "i" and alphas and alphas[-1] == "h")
            if is_roman:
                while stack and stack[-1][0] == "roman":
                    stack.pop()
                stack.append(("roman", token))
            else:
                while stack and stack[-1][0] in ("roman", "alpha"):
                    stack.pop()
                stack.append(("alpha", token))
        ident = section + "".join(f"({t})" for _, t in stack)
        parent = section + "".join(f"({t})" for _, t in stack[:-1])
        found.append((ident, parent, text))
    return found


# ---------------------------------------------------------------- New Jersey ----------------------------------

def new_jersey(path: Path | None = None) -> list[tuple[str, str | None, str]]:
    text = (path or texts() / "nj-njac-13-69f-40.txt").read_text(encoding="utf-8").replace("\\$", "$")
    # Section headings: "13:69E-1.13Z ..." and "13:69F-40.N Title", possibly mid-line after "- ".
    text = "\n".join(re.sub(r"^[-\s]*", "", line).strip() for line in text.splitlines())
    parts = re.split(r"(?m)^(13:69E-1\.13Z|13:69F-40\.\d+)\s*", text)
    found: list[tuple[str, str | None, str]] = []
    for number, body in zip(parts[1::2], parts[2::2]):
        section = number.rstrip(".")
        title = body.splitlines()[0].strip() if body.strip() else ""
        found.append((section, None, title[:80]))
        if section == "13:69F-40.1":
            for match in re.finditer(r"\"([^\"]+)\"\s+(?:shall mean|means)", body):
                found.append((f"{section} “{match.group(1)}”", section, match.group(0)))
            continue
        if section == "13:69F-40.2":
            found.append((f"{section} opening", section, "one deck"))
        letter = None
        number_label = None
        # Lettered subsections start a line (after "- ") or follow a sentence inside one ("... (c) If ...").
        tokens = re.finditer(r"(?:(?<=^)|(?<=\n)|(?<=[a-z] )|(?<=\. )|(?<=; ))\(([a-z])\)\s|"
                             r"(?:(?<=^)|(?<=\n)|(?<=: )|(?<=; )|(?<=\. )|(?<=; and ))([0-9])\.\s|"
                             r"(?:(?<=\n)|(?<=: ))(i{1,3}|iv)\.\s", body)
        # the tables of 40.11 stand where the text prints them: after the subsection that names them
        tables = [(found_table.start(), found_table.group(1))
                  for found_table in re.finditer(r"(?m)^\|?\s*Table (\d)\.", body)]

        def tables_before(position: float) -> None:
            while tables and tables[0][0] < position:
                table = tables.pop(0)[1]
                owner = {"1": "(a)", "2": "(b)", "3": "(c)", "4": "(c)", "5": "(c)"}[table]
                found.append((f"{section}{owner} Table {table}", f"{section}{owner}", "table"))

        for match in tokens:
            tables_before(match.start())
            if match.group(1):
                following = body[match.end():match.end() + 12]
                expected = chr(ord(letter) + 1) if letter else "a"
                if match.group(1) != expected or following.startswith(("above", "below", "through", "and (")):
                    continue  # a cross-reference such as "(c) above", not a new subsection
                letter = match.group(1)
                number_label = None
                ident = f"{section}({letter})"
                found.append((ident, section, body[match.end():match.end() + 60]))
            elif match.group(2):
                number_label = match.group(2)
                parent = f"{section}({letter})" if letter else section
                ident = f"{parent}{number_label}"
                found.append((ident, parent, body[match.end():match.end() + 60]))
            else:
                parent = f"{section}({letter}){number_label}"
                found.append((f"{parent}{match.group(3)}", parent, body[match.end():match.end() + 60]))
        tables_before(float("inf"))
    return found


# ---------------------------------------------------------------- Pennsylvania --------------------------------

def pennsylvania(path: Path | None = None) -> list[tuple[str, str | None, str]]:
    lines = (path or texts() / "pa-58-pa-code-chapter-674a.txt").read_text(encoding="utf-8").splitlines()
    found: list[tuple[str, str | None, str]] = []
    section = None
    letter = number = None
    previous_kind = None
    previous_line = ""
    for raw in lines:
        line = raw.strip()
        if line.startswith("Thread Rating:") or line.startswith("No part of the information"):
            break
        heading = re.match(r"^§ (674a\.\d+)\. (.+)$", line)
        if heading:
            section = heading.group(1)
            letter = number = None
            previous_kind = None
            found.append((section, None, heading.group(2)))
            continue
        if section is None or not line:
            continue
        if section == "674a.1":
            term = re.match(r"^([A-Z][A-Za-z ]+)—", line)
            if term:
                found.append((f"674a.1 {term.group(1)}", section, line))
            continue
        item = re.match(r"^\(([0-9]+|[a-z]+)\)\s+(.*)$", line)
        if not item:
            continue
        token, text = item.group(1), item.group(2)
        if token.isdigit():
            number = token
            ident, parent, previous_kind = f"{section}({letter})({number})", f"{section}({letter})", "num"
        elif token in ROMAN and previous_kind in ("num", "roman") and (token != "i" or previous_line.endswith(":")):
            ident, parent = f"{section}({letter})({number})({token})", f"{section}({letter})({number})"
            previous_kind = "roman"
        else:
            letter, number = token, None
            ident, parent, previous_kind = f"{section}({letter})", section, "alpha"
        found.append((ident, parent, text))
        previous_line = line
    return found


# ---------------------------------------------------------------- House rules ---------------------------------

HOUSE_HEADINGS = ("Equipment", "Game and Bonus wagers", "Pay Tables", "Dealing procedures", "Round of Play",
                  "Paying Out", "5 Card Bonus", "6 Card Bonus Wager", "Irregularities")


def house(path: Path | None = None) -> list[tuple[str, str | None, str]]:
    lines = (path or texts() / "house-rules-six-card-bonus.txt").read_text(encoding="utf-8").splitlines()
    found = []
    for index, raw in enumerate(lines):
        line = raw.strip().rstrip(":")
        following = next((later.strip() for later in lines[index + 1:] if later.strip()), "")
        if following.startswith("PLAYER HAND"):
            continue  # a paytable's caption ("5 Card Bonus" inside Pay Tables), not a heading
        if line in HOUSE_HEADINGS:
            found.append((line, None, line))
    return found


READERS = {"MD": maryland, "NJ": new_jersey, "PA": pennsylvania, "HOUSE": house}
