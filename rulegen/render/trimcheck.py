"""Text outside the trim, read from a finished PDF as a print shop's preflight reads it (layer: render).

The sign is fitted on WeasyPrint's boxes; this is the second, independent check on what was written: PDFium
(pypdfium2) lays out every character of the PDF and each character's box must lie inside its page's TrimBox (or
MediaBox, where a page has no TrimBox). The one exception is the slug line of a printer's file, which lies by
design outside the bleed, below the trim: it is named by the caller and allowed there, and only there.
"""

from __future__ import annotations

from collections.abc import Iterable

TOLERANCE_PT = 0.5  # PDFium's boxes are glyph outlines, rounded; half a point is well inside any printer's trim


def text_outside_trim(document: str, data: bytes, *, slug: Iterable[str] = ()) -> list[str]:
    """Every character of the PDF whose box leaves its page's TrimBox (or MediaBox), as PDFium lays it out, as one
    line per page naming the characters; the `slug` texts are allowed wholly below the page's BleedBox."""
    import pypdfium2

    allowed = {"".join(text.split()) for text in slug}
    problems: list[str] = []
    pdf = pypdfium2.PdfDocument(data)
    try:
        for number in range(len(pdf)):
            page = pdf[number]
            left, bottom, right, top = page.get_trimbox() or page.get_mediabox()
            bleed_bottom = (page.get_bleedbox() or (left, bottom, right, top))[1]
            text = page.get_textpage()
            outside: list[tuple[str, bool]] = []
            for index in range(text.count_chars()):
                char_left, char_bottom, char_right, char_top = text.get_charbox(index)
                if char_right <= char_left:  # spaces and line ends have no box
                    continue
                if char_left < left - TOLERANCE_PT or char_right > right + TOLERANCE_PT \
                        or char_bottom < bottom - TOLERANCE_PT or char_top > top + TOLERANCE_PT:
                    outside.append((text.get_text_range(index, 1), char_top < bleed_bottom))
            in_slug = "".join("".join(char for char, below in outside if below).split())
            if allowed and in_slug in allowed:
                outside = [(char, below) for char, below in outside if not below]
            if outside:
                chars = "".join(char for char, _ in outside)
                problems.append(f"{document}: page {number + 1}: {len(outside)} characters outside the trim: "
                                f"{chars[:80]!r}")
            text.close()
            page.close()
    finally:
        pdf.close()
    return problems
