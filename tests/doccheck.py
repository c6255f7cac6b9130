"""The document check: what a regulator reading the built documents of one configuration would send back.

Each check reads the documents as printed (the text of the HTML, the text boxes of the PDFs) against the
configuration they were built for, and returns every problem as a line naming the document, the check and the
words at fault:

- a placeholder or empty value where a figure or a word belongs ("offered again at —", "None", "null");
- another jurisdiction named or cited in the rules, the sign or the appendix;
- the tool's own vocabulary (its name in a rule, command-line flags, program terms, words run together);
- a word of equipment or a wager the configuration lacks, in a restated rule, a reading or the limit's coverage
  (a "does not apply" entry and the Summary's "not offered" may name them: that is what they are for);
- a Concordance row out of the text's order;
- any text of a PDF outside its page (its TrimBox where it has one, else its MediaBox).
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from rulegen.clauses import load as load_inventory

JURISDICTION_WORDS = {
    "MD": r"\bMaryland\b|\bMLGCA\b|\bCOMAR\b|Lottery and Gaming",
    "NJ": r"\bNew Jersey\b|N\.\s?J\.\s?A\.\s?C\.|\bDivision of Gaming Enforcement\b|13:69[EF]",
    "PA": r"\bPennsylvania\b|Pa\. Code|\b674a\b|Gaming Control Board",
    "HOUSE": r"\bHouse rules\b",
}

TOOL_WORDS = [
    r"\brulegen's\b", r"settlement code", r"\(--\w", r"(?<!\w)--(final|sign|print|rebuild)\b", r"\bnull\b",
    r"\bNone\b", r"\bTrue\b", r"\bFalse\b", r"\bnan\b", r"\bExpected 0\b", r"[A-Za-z]wager\b", r"\bundefined\b",
    r"\{\{|\}\}|\{%|%\}", r"\bweb-page noise\b", r"\bsnake_case\b", r"\b[a-z]+_[a-z_]+\b",
]

# Words of the tool's own making that no page of a filing may print, the cover and the sign-off included.
TOOL_WORDS_ANYWHERE = [r"\bHTML\b", r"\bmanifest\b", r"versions of the programs", r"\bJSON\b", r"\bYAML\b"]

QUOTED = re.compile(r'"[^"]*"|“[^”]*”')
LACKED = re.compile(r"[^.;:]*, which this table does not have")

PLACEHOLDERS = [
    r"\b(at|and|of|is|to|from|be|was|or)\s+—", r"\$\s*—", r"—\s*[.,;:](?!\d)", r"\$\s*(?=[.,;)]|\s)", r"\(\s*\)",
    r"\bN/A\b", r"\?\?", r"\bTBD\b", r"\bXXX\b",
]


@dataclass(frozen=True)
class Config:
    """What a document check needs of a configuration (taken from its offering data)."""

    jurisdiction: str
    dealing: str
    shuffling: str
    decks: int
    five_card_bonus: bool
    six_card_bonus: bool
    bonus_spin: str | None
    spin_table: str | None
    top_prize: str | None
    payout_limit: bool

    @classmethod
    def of(cls, data: dict[str, Any]) -> Config:
        spin = data.get("bonus_spin")
        return cls(
            jurisdiction=str(data["offering"]["jurisdiction"]), dealing=data["cards"]["dealing"],
            shuffling=data["cards"]["shuffling"], decks=int(data["cards"]["decks"]),
            five_card_bonus="five_card_bonus" in data, six_card_bonus="six_card_bonus" in data,
            bonus_spin=spin["kind"] if spin else None, spin_table=str(spin["paytable"]) if spin else None,
            top_prize=spin["top_prize"]["kind"] if spin else None, payout_limit="payout_limit" in data)

    def absent(self) -> list[tuple[str, str]]:
        """(pattern, what the table lacks) for every word of equipment or wager this table does not have."""
        found: list[tuple[str, str]] = []
        if self.shuffling == "manual":
            found.append((r"\bshuffler\b|shuffling (device|machine)|automat\w* (card )?shuffl", "a shuffler"))
        if self.shuffling != "automated-counting":
            found.append((r"\bcounting shuffler|shuffler (that )?counts", "a counting shuffler"))
        if self.dealing == "hand":
            found.append((r"\bshoe\b", "a dealing shoe"))
        if self.dealing != "automated-shoe":
            found.append((r"automated (dealing )?shoe", "an automated shoe"))
        if self.dealing != "hand":
            found.append((r"\bfrom the (dealer's )?hand\b|\bdealt by hand\b|\bhand-dealt\b", "dealing by hand"))
        if self.decks == 1:
            found.append((r"\b(two|both|the|other|these|alternate|each) decks\b|\bdecks are\b|\bother deck\b",
                          "a second deck"))
        if not self.five_card_bonus:
            found.append((r"\b(Five|5) Card Bonus\b", "the Five Card Bonus"))
        if not self.six_card_bonus:
            found.append((r"\b(Six|6) Card Bonus\b|\bsix extra|\bfour extra community", "the Six Card Bonus"))
        if self.bonus_spin is None:
            found.append((r"\bBonus Spin\b|\bwheel\b|\bjackpot\b", "the Bonus Spin"))
        if self.bonus_spin == "progressive":
            found.append((r"\bXtreme\b|\bHot Spot\b", "the Bonus Spin Xtreme"))
        if self.bonus_spin == "xtreme":
            found.append((r"Bonus Spin Progressive", "the Bonus Spin Progressive"))
        if self.top_prize in ("fixed", "merchandise"):
            found.append((r"\bmeter\b|\bgrows by\b", "a progressive meter"))
        if self.jurisdiction == "NJ" and self.spin_table:
            others = "|".join(t for t in ("3", "4", "5") if t != self.spin_table)
            found.append((rf"\bTables? ({others})\b", f"another Bonus Spin table than Table {self.spin_table}"))
        return found


class _Regions(HTMLParser):
    """The text of a rules document split into what it restates (rules, readings, the limit's coverage) and what
    only lists (the Summary, "does not apply" entries, the Concordance, the cover)."""

    SKIP = {"not-applicable", "concordance", "title-page", "toc", "facts", "running-header", "running-footer",
            "draft-banner", "signoff", "concordance-table", "summary", "choices", "section-head"}
    HEADINGS = {"h1", "h2", "nav", "caption"}  # the text's own section titles, and lists of what is offered

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.restated: list[str] = []
        self.everything: list[str] = []
        self.style = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self.style += 1
        if tag in ("br", "img", "meta", "link", "hr", "input", "col", "wbr"):
            return
        values = dict(attrs)
        classes = set((values.get("class") or "").split()) | {values.get("id") or ""}
        skipping = bool(classes & self.SKIP) or tag in self.HEADINGS or (self.stack[-1][1] if self.stack else False)
        self.stack.append((tag, skipping))
        if tag in ("p", "div", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "section", "table"):
            self.everything.append(BREAK)
            if not skipping:
                self.restated.append(BREAK)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self.style -= 1
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break
        if tag in ("p", "div", "li", "td", "th", "h1", "h2", "h3", "h4"):
            self.everything.append(BREAK)
            self.restated.append(BREAK)

    def handle_data(self, data: str) -> None:
        if self.style:
            return
        self.everything.append(data)
        if not (self.stack and self.stack[-1][1]):
            self.restated.append(data)


BREAK = "\x00"  # between blocks (a paragraph, a cell); a line break inside a paragraph is only a space


def lines(parts: Iterable[str]) -> list[str]:
    return [" ".join(line.split()) for line in "".join(parts).split(BREAK) if line.strip()]


def regions(html: str) -> tuple[list[str], list[str]]:
    """(every line of text, the lines that restate a rule or reading)."""
    reader = _Regions()
    reader.feed(html)
    reader.close()
    return lines(reader.everything), lines(reader.restated)


def _hits(document: str, check: str, patterns: Iterable[str], texts: list[str], what: str = "") -> list[str]:
    problems = []
    for pattern in patterns:
        for line in texts:
            for match in re.finditer(pattern, line):
                start = max(0, match.start() - 60)
                problems.append(f"{document}: {check}{what}: {match.group(0)!r} in …{line[start:match.end() + 60]}…")
    return problems


def check_html(document: str, html: str, config: Config) -> list[str]:
    """Every problem of one HTML document (rules.html, or the HTML of the sign or the appendix)."""
    everything, restated = regions(html)
    restated = [QUOTED.sub("“…”", line) for line in restated]  # the text's own words, quoted, may name anything
    restated = [LACKED.sub("…", line) for line in restated]  # "…, which this table does not have" says it lacks it
    problems: list[str] = []
    others = [JURISDICTION_WORDS[code] for code in JURISDICTION_WORDS if code != config.jurisdiction]
    problems += _hits(document, "another jurisdiction", others, everything)
    problems += _hits(document, "tool vocabulary", TOOL_WORDS, restated)
    problems += _hits(document, "tool vocabulary", TOOL_WORDS_ANYWHERE, everything)
    problems += _hits(document, "placeholder", PLACEHOLDERS, everything)
    for pattern, lacking in config.absent():
        problems += _hits(document, "names what the table lacks", [pattern], restated, f" ({lacking})")
    problems += disagreements(document, everything, restated)
    return problems


# Statements a document must not leave half made: (where one is found, what must be said too, the defect).
AGREEMENTS = [
    (r"shuffles or deals another way", r"uses no other method of shuffling or dealing|may shuffle or deal",
     "a broken device's fallback restated without saying which method this table uses"),
    (r"rising with the Bonus Spin meter", r"rises with the\s+meter",
     "a payout limit said to follow the meter in one place and fixed in the payout rule"),
]


def disagreements(document: str, everything: list[str], restated: list[str]) -> list[str]:
    """Where one part of a rules document states a thing, the part that governs it must state it too."""
    whole, rules = " ".join(everything), " ".join(restated)
    return [f"{document}: disagreement: {what}" for found, needed, what in AGREEMENTS
            if re.search(found, whole) and not re.search(needed, rules)]


def concordance_order(html: str, jurisdiction: str) -> list[str]:
    """The Concordance's rows must follow the clause inventory's order, which is the text's."""
    inventory = load_inventory(jurisdiction)
    order = {clause.id: index for index, clause in enumerate(inventory.clauses)}
    rows = [html_lib.unescape(found) for found in re.findall(r'data-concordance="([^"]+)"', html)]
    problems = []
    for before, after in zip(rows, rows[1:]):
        if order.get(before, -1) > order.get(after, -1):
            problems.append(f"rules.html: Concordance row {after!r} comes after {before!r}, against the text's order")
    return problems


def text_outside_page(document: str, data: bytes, *, slug: tuple[str, ...] = ()) -> list[str]:
    """Every character of the PDF whose box leaves its page's TrimBox (or MediaBox), as PDFium lays it out (the
    product's own check of a finished sign, rulegen.render.trimcheck; a printer's file names its slug line)."""
    from rulegen.render.trimcheck import text_outside_trim

    return text_outside_trim(document, data, slug=slug)


def stray_line_breaks(document: str, data: bytes) -> list[str]:
    """Words the PDF sets alone on a line inside running text although the line above had room for them (a line
    breaking fault of the layout engine: "moves / every / card above it")."""
    import pypdfium2

    problems: list[str] = []
    pdf = pypdfium2.PdfDocument(data)
    try:
        for number in range(len(pdf)):
            text = pdf[number].get_textpage()
            runs = []
            for index in range(text.count_rects()):
                left, bottom, right, top = text.get_rect(index)
                runs.append((round(bottom, 1), left, right, top - bottom,
                             text.get_text_bounded(left, bottom, right, top).strip()))
            lines: list[list] = []
            for bottom, left, right, height, words in sorted(runs, key=lambda r: (-r[0], r[1])):
                if lines and abs(lines[-1][0] - bottom) < 1:
                    line = lines[-1]
                    line[1], line[2] = min(line[1], left), max(line[2], right)
                    line[4] = f"{line[4]} {words}"
                else:
                    lines.append([bottom, left, right, height, words])
            widest = {}
            for _bottom, left, right, _height, _words in lines:
                key = round(left)
                widest[key] = max(widest.get(key, 0.0), right)
            for above, alone, below in zip(lines, lines[1:], lines[2:]):
                same_column = abs(above[1] - alone[1]) < 1 and abs(alone[1] - below[1]) < 1
                same_type = abs(above[3] - below[3]) < 0.6 and alone[3] < above[3] + 0.6
                word = alone[4]
                if not (same_column and same_type and word and " " not in word and below[4][:1].islower()):
                    continue
                column_right = widest[round(above[1])]
                if above[2] < column_right - 60 or below[2] < column_right - 60:
                    continue  # running text fills its lines; short lines are a table's cells or a heading's
                following = below[4].split(" ")[0]
                following_width = (below[2] - below[1]) * len(following) / max(len(below[4]), 1)
                if alone[2] + 3 + following_width < column_right - 1:
                    problems.append(f"{document}: page {number + 1}: {word!r} alone on a line, though "
                                    f"{following!r} after it would fit: {above[4][-30:]!r} / {word} / "
                                    f"{below[4][:30]!r}")
    finally:
        pdf.close()
    return problems


def configuration_problems(configuration, folder, *, html: bool = True, pdfs: bool = False,
                           sign_sizes: tuple[str, ...] = ("letter",)) -> list[str]:
    """Build one configuration of the matrix (tests/configurations.py) in `folder` and read its documents: the HTML
    of the rules, the sign and the appendix and the Concordance's order; with `pdfs`, every PDF's text boxes."""
    from rulegen.assemble import math_results, settled
    from rulegen.render import documents
    from rulegen.render.appendix import render_appendix_html
    from rulegen.render.context import draft_status
    from rulegen.render.signage import render_signage_html
    from rulegen.validate import validate_file

    path = configuration.write(folder)
    report = validate_file(path, path.name)
    errors = [finding.format() for finding in report.findings if finding.level == "error"]
    if errors:
        return [f"{configuration.name} does not validate: {error}" for error in errors]
    offering = settled(report.offering)
    results = math_results(offering)
    draft = draft_status(offering, False)
    config = Config.of(configuration.data)
    rules = documents.rules_html(offering, results, draft=draft)
    problems: list[str] = []
    if html:
        problems += check_html("rules.html", rules, config)
        problems += check_html("signage.html", render_signage_html(offering, draft=draft), config)
        problems += check_html("appendix.html", render_appendix_html(offering, results, draft=draft), config)
        problems += concordance_order(rules, config.jurisdiction)
    if pdfs:
        rules_pdf = documents.rules_pdf(offering, rules, [])
        problems += text_outside_page("rules.pdf", rules_pdf) + stray_line_breaks("rules.pdf", rules_pdf)
        for size in sign_sizes:
            problems += text_outside_page(f"signage.pdf ({size})",
                                          documents.signage_pdf(offering, draft=draft, size=size))
        appendix_pdf = documents.appendix_pdf(offering, results, draft=draft)
        problems += text_outside_page("math-appendix.pdf", appendix_pdf) + stray_line_breaks("math-appendix.pdf",
                                                                                           appendix_pdf)
    return problems
