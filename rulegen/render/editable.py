"""rules.docx: the rules document as Word text a lawyer can redline, made from the rules HTML a build renders.

Every heading is a Word heading (Heading 1 to 4, so the navigation pane and a table of contents follow the
document), every table a Word table (the Concordance included), every citation in the character style
"Citation", every "Our reading" box in the paragraph style "Reading". Each page's header and footer say that
this is an editable copy, not the filed document (rules.pdf is). The figure of the table layout is drawn, not
text, and is left out with a note saying so.

Reproducible: the same HTML gives the same bytes. The document's core properties are dated with the offering's
effective date, and the zip is written again with every member dated the same fixed day, in the order python-docx
wrote them.
"""

from __future__ import annotations

import datetime as _dt
import io
import re
import zipfile
from typing import Any

import lxml.html
from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.shared import Pt, RGBColor

MARK = "EDITABLE COPY — not the filed document. The filed rules are rules.pdf, signed; a change made here is " \
       "filed only by changing the offering and building again."
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip can hold: no member carries the time it was written
CITATION = "Citation"
READING = "Reading"
SKIPPED = {"script", "style", "svg", "nav", "title", "head", "meta"}
BLOCKS = {"p", "div", "section", "ul", "ol", "li", "table", "h1", "h2", "h3", "h4", "caption", "figure"}


def _classes(element: Any) -> set[str]:
    return set((element.get("class") or "").split())


def _styles(document: Any) -> None:
    styles = document.styles
    citation = styles.add_style(CITATION, WD_STYLE_TYPE.CHARACTER)
    citation.font.size = Pt(8)
    citation.font.color.rgb = RGBColor(0x44, 0x44, 0x44)
    reading = styles.add_style(READING, WD_STYLE_TYPE.PARAGRAPH)
    reading.base_style = styles["Normal"]
    reading.font.italic = True
    reading.paragraph_format.left_indent = Pt(18)


def _text(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "")


class _Writer:
    """Walks the HTML body, writing paragraphs, runs and tables into the Word document."""

    def __init__(self, document: Any):
        self.document = document
        self.paragraph: Any = None
        self.paragraph_style = "Normal"

    def new_paragraph(self, style: str | None = None) -> Any:
        self.paragraph = self.document.add_paragraph(style=style or self.paragraph_style)
        return self.paragraph

    def end_paragraph(self) -> None:
        self.paragraph = None

    def run(self, text: str, *, bold: bool = False, italic: bool = False, citation: bool = False,
            target: Any = None) -> None:
        text = _text(text)
        if not text or (not text.strip() and target is None and self.paragraph is None):
            return
        paragraph = target if target is not None else (self.paragraph or self.new_paragraph())
        if not paragraph.runs and text.startswith(" "):
            text = text.lstrip()
            if not text:
                return
        run = paragraph.add_run(text, style=CITATION if citation else None)
        run.bold = bold or None
        run.italic = italic or None

    def inline(self, element: Any, *, bold: bool = False, italic: bool = False, citation: bool = False,
               target: Any = None) -> None:
        """The text of `element` and its inline children as runs, then its tail."""
        tag = element.tag if isinstance(element.tag, str) else ""
        classes = _classes(element)
        bold = bold or tag in ("b", "strong", "th")
        italic = italic or tag in ("i", "em")
        citation = citation or bool(classes & {"cite", "clause"})
        if tag == "br":
            paragraph = target if target is not None else (self.paragraph or self.new_paragraph())
            paragraph.add_run().add_break()
        elif tag not in SKIPPED:
            self.run(element.text, bold=bold, italic=italic, citation=citation, target=target)
            for child in element:
                if isinstance(child.tag, str) and child.tag in BLOCKS and target is None:
                    self.block(child)
                else:
                    self.inline(child, bold=bold, italic=italic, citation=citation, target=target)
                    continue
                self.run(child.tail, target=target)

    def block(self, element: Any) -> None:
        tag = element.tag if isinstance(element.tag, str) else ""
        classes = _classes(element)
        if tag in SKIPPED or classes & {"running-header", "running-footer", "draft-mark", "toc"}:
            if tag == "svg":
                self.end_paragraph()
                self.document.add_paragraph("[The figure of the table layout is in rules.pdf.]", style=READING)
            self.end_paragraph()
            return
        if tag in ("h1", "h2", "h3", "h4"):
            self.end_paragraph()
            heading = self.document.add_heading(level=int(tag[1]))
            self.inline_children(element, heading)
            self.end_paragraph()
        elif tag == "table":
            self.end_paragraph()
            self.table(element)
        elif tag in ("ul", "ol"):
            self.end_paragraph()
            for item in element:
                if isinstance(item.tag, str) and item.tag == "li":
                    self.new_paragraph("List Bullet" if tag == "ul" else "List Number")
                    self.inline(item)
                    self.end_paragraph()
        elif tag in ("p", "caption", "li") or classes & {"reading", "rule", "choice", "kicker", "example"}:
            self.end_paragraph()
            style = READING if "reading" in classes else "Normal"
            previous, self.paragraph_style = self.paragraph_style, style
            self.new_paragraph(style)
            self.inline(element)
            self.paragraph_style = previous
            self.end_paragraph()
        else:  # a container: its text as a paragraph of its own, its blocks in turn
            self.run(element.text)
            for child in element:
                if isinstance(child.tag, str) and (child.tag in BLOCKS or child.tag in SKIPPED):
                    self.block(child)
                elif isinstance(child.tag, str):
                    self.inline(child)
                    continue
                self.run(child.tail)
            self.end_paragraph()

    def inline_children(self, element: Any, paragraph: Any) -> None:
        self.run(element.text, target=paragraph)
        for child in element:
            self.inline(child, target=paragraph)
            self.run(child.tail, target=paragraph)

    def table(self, element: Any) -> None:
        caption = element.find("caption")
        if caption is not None:
            self.new_paragraph("Caption")
            self.inline_children(caption, self.paragraph)
            self.end_paragraph()
        rows = [row for row in element.iter("tr")]
        if not rows:
            return
        width = max(sum(int(cell.get("colspan") or 1) for cell in row if cell.tag in ("td", "th")) for row in rows)
        table = self.document.add_table(rows=len(rows), cols=max(width, 1))
        table.style = "Table Grid"
        for r, row in enumerate(rows):
            c = 0
            for cell in row:
                if cell.tag not in ("td", "th") or c >= width:
                    continue
                span = min(int(cell.get("colspan") or 1), width - c)
                target = table.cell(r, c)
                if span > 1:
                    target = target.merge(table.cell(r, c + span - 1))
                paragraph = target.paragraphs[0]
                self.run(cell.text, bold=cell.tag == "th", target=paragraph)
                for child in cell:
                    self.inline(child, bold=cell.tag == "th", target=paragraph)
                    self.run(child.tail, bold=cell.tag == "th", target=paragraph)
                c += span
        self.end_paragraph()


def _mark_every_page(document: Any) -> None:
    for section in document.sections:
        for part in (section.header, section.footer):
            paragraph = part.paragraphs[0]
            paragraph.text = ""
            run = paragraph.add_run(MARK)
            run.bold = True
            run.font.size = Pt(8)
            run.font.color.rgb = RGBColor(0xA3, 0x00, 0x00)


def rules_docx(html: str, *, title: str, operator: str, effective_date: str | None) -> bytes:
    """rules.docx from the rules document's HTML: Word headings, tables and styles, marked on every page as an
    editable copy, dated `effective_date` (YYYY-MM-DD), the same bytes for the same input."""
    tree = lxml.html.document_fromstring(html)
    document = Document()
    _styles(document)
    _mark_every_page(document)
    writer = _Writer(document)
    body = tree.find("body")
    for child in body if body is not None else []:
        writer.block(child)
    date = _dt.datetime.fromisoformat(effective_date) if effective_date else _dt.datetime(2000, 1, 1)
    properties = document.core_properties
    properties.title = f"{title} — editable copy, not the filed document"
    properties.author = operator
    properties.last_modified_by = operator
    properties.comments = MARK
    properties.created = properties.modified = properties.last_printed = date
    properties.revision = 1
    out = io.BytesIO()
    document.save(out)
    return fixed_zip(out.getvalue())


def fixed_zip(data: bytes) -> bytes:
    """The zip `data` written again with every member dated ZIP_DATE, in the same order, deflated."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            member = zipfile.ZipInfo(info.filename, date_time=ZIP_DATE)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o644 << 16
            target.writestr(member, source.read(info.filename))
    return out.getvalue()
