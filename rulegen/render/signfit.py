"""Fitting the table sign to its sheet (layer: render): the largest type that fits, the room left spread.

The sign (rulegen.render.signage) says what it says; this module finds how large it can say it. Its blocks are
balanced over the columns signage chooses, then WeasyPrint lays the sign out at a scale: nothing past a column or
the sheet's margins, no word alone on a line, one page. The scale grows or shrinks from the room left (or the
overflow) until the largest that fits is found, the room left under the sign is spread over its paytable lines,
and the finished PDF is read with PDFium (rulegen.render.trimcheck): a character outside the TrimBox makes the
type smaller, and a sheet too small for legible type is refused (SignDoesNotFit), never printed clipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from rulegen.errors import InvalidOfferingError, RulegenError
from rulegen.findings import Finding
from rulegen.render.prepress import PressProfile
from rulegen.render.signage import (
    BASE_TYPE,
    BLEED_IN,
    LINE_IN,
    MIN_PRINTED_PPI,
    SignSize,
    balanced_columns,
    block_lines,
    columns_for,
    estimated_scale,
    render_signage_html,
    sign_created,
    sign_size,
)
from rulegen.resolved import ResolvedOffering

CSS_PX_PER_INCH = 96
PX_PER_PT = Decimal(4) / Decimal(3)
MAX_FITS = 12
GOOD_FILL = 0.96  # the fitting stops growing the type once the sign fills this much of its sheet's height
FILLED = 0.96  # below this, the room left is spread over the paytables' lines
CLOSE = Decimal("1.015")  # a scale that fits within 1.5% of one that does not is the largest
MAX_GROWTH = Decimal("1.6")
MIN_SCALE = Decimal("0.5")  # 7 pt body type, 5 pt notes: below this a sign is not legible from a seat


@dataclass
class Measure:
    """What WeasyPrint's layout says about one rendering of the sign."""

    pages: int
    used_px: float  # how far down the sheet the sign's content reaches
    height_px: float
    overflowing: list[str]  # lines wider than their box, or text past the sheet's margins
    widowed: list[str]  # lines of a heading, row or note holding a single word
    logo_ppi: float | None = None  # a raster logo's pixels per inch at its printed size
    logo_width_in: float | None = None
    lines: int = 0  # paytable lines (rows) in the tallest column
    blocks: dict[str, float] = field(default_factory=dict)  # each paytable block's height, in CSS px

    @property
    def fits(self) -> bool:
        return self.pages == 1 and self.used_px <= self.height_px + 0.5 and not self.overflowing and not self.widowed

    @property
    def fill(self) -> float:
        return self.used_px / self.height_px

    @property
    def too_wide(self) -> bool:
        return bool(self.overflowing or self.widowed)


def _classes(box: Any) -> set[str]:
    element = getattr(box, "element", None)
    if element is None or getattr(box, "element_tag", None) is None:
        return set()
    return set((element.get("class") or "").split())


def _line_text(line: Any) -> str:
    from weasyprint.formatting_structure import boxes

    return "".join(b.text for b in line.descendants() if isinstance(b, boxes.TextBox))


def _line_right(line: Any) -> float:
    from weasyprint.formatting_structure import boxes

    rights = [b.position_x + b.margin_width() for b in line.descendants()
              if isinstance(b, (boxes.TextBox, boxes.AtomicInlineLevelBox))]
    return float(max(rights, default=line.position_x))


def _logo_drawn_width(box: Any) -> float:
    """The width the logo is drawn at inside its box (`object-fit: contain`), in CSS px."""
    image = box.replacement
    width, height, ratio = image.get_intrinsic_size(1, 16)
    if ratio is None and width and height:
        ratio = width / height
    if not ratio:
        return float(box.width)
    return float(min(box.width, box.height * ratio))


def measure(document: Any, size: SignSize) -> Measure:
    """Lay-out facts of a rendered sign: pages, the content's depth, text too wide for its box or past the sheet's
    margins, lines holding one word, the logo's resolution as printed."""
    from weasyprint.formatting_structure import boxes

    used = 0.0
    overflowing: list[str] = []
    widowed: list[str] = []
    logo_ppi = logo_width_in = None
    every_box = [box for page in document.pages for box in page._page_box.descendants()]
    sheet_left = sheet_right = None
    rows_in_column: list[int] = []
    blocks: dict[str, float] = {}
    for box in every_box:
        classes = _classes(box)
        if "sheet" in classes:
            used += box.margin_height()  # summed over the pages the sign spilled onto
            if len(document.pages) == 1:
                used = box.position_y + box.margin_height()
            sheet_left = box.content_box_x()
            sheet_right = sheet_left + box.width
        for name in classes:
            if name.startswith("block-"):
                blocks[name[len("block-"):]] = float(box.margin_height())
        if "column" in classes or "card-limits" in classes:
            rows_in_column.append(sum(1 for child in box.descendants() if isinstance(child, boxes.TableRowBox)))
        if isinstance(box, boxes.ReplacedBox) and "logo" in classes:
            pixels = getattr(box.replacement, "width", None)  # raster images know their pixels; SVG has none
            if isinstance(pixels, int) and box.width:
                logo_width_in = _logo_drawn_width(box) / CSS_PX_PER_INCH
                logo_ppi = pixels / logo_width_in
        if not isinstance(box, boxes.BlockContainerBox) or "slug" in classes:
            continue
        lines = [child for child in box.children if isinstance(child, boxes.LineBox)]
        right = box.content_box_x() + box.width
        texts = [_line_text(line).strip() for line in lines]
        for line, text in zip(lines, texts):
            if _line_right(line) > right + 0.5:
                overflowing.append(text)
        if len([t for t in texts if t]) > 1:
            widowed.extend(t for t in texts if len(t.split()) == 1)
    if sheet_left is not None and sheet_right is not None:  # nothing past the margins, a table's cell included
        placed = {id(inner) for box in every_box if {"slug", "mark", "draft-mark"} & _classes(box)
                  for inner in box.descendants()}  # the slug, crop marks and DRAFT mark stand on the sheet itself
        for box in every_box:
            if isinstance(box, (boxes.TextBox, boxes.ReplacedBox)) and id(box) not in placed and box.width:
                if box.position_x < sheet_left - 0.5 or box.position_x + box.margin_width() > sheet_right + 0.5:
                    overflowing.append(getattr(box, "text", "an image"))
    return Measure(len(document.pages), used, float(size.height_pt * PX_PER_PT), overflowing, widowed, logo_ppi,
                   logo_width_in, max(rows_in_column, default=0), blocks)


@dataclass
class SignRendering:
    pdf: bytes
    scale: Decimal
    measure: Measure
    document: object  # WeasyPrint's Document of the final layout (tests read its boxes)
    html: str
    findings: list[Finding] = field(default_factory=list)
    spread_pt: Decimal = Decimal(0)
    profile: PressProfile | None = None

    @property
    def body_pt(self) -> Decimal:
        return (BASE_TYPE["body"] * self.scale).quantize(Decimal("0.1"))


LOGO_FIELD = ("offering", "operator", "logo")


def logo_findings(offering: ResolvedOffering, result: Measure, *, final: bool) -> list[Finding]:
    """A raster logo printed below 300 ppi: a warning naming its ppi; an error on a final sign."""
    if result.logo_ppi is None or result.logo_ppi >= MIN_PRINTED_PPI:
        return []
    level = "error" if final else "warning"
    message = (f"the logo prints at {result.logo_ppi:.0f} ppi on this sign, below the {MIN_PRINTED_PPI} ppi a "
               f"printer needs; give an SVG logo, or a PNG at least "
               f"{result.logo_ppi and _pixels_needed(result):,} pixels wide")
    return [offering.offering.finding(LOGO_FIELD, level, message)]


def _pixels_needed(result: Measure) -> int:
    return int(-(-result.logo_width_in * MIN_PRINTED_PPI // 1)) if result.logo_width_in else 0


class SignDoesNotFit(RulegenError):
    """No type size makes the sign fit its sheet (exit 2): the sheet is too small for what the sign must say."""


@dataclass
class _Attempt:
    scale: Decimal
    spread: Decimal
    measure: Measure
    laid_out: Any
    html: str


def _next_scale(scale: Decimal, result: Measure, fits: _Attempt | None, too_large: Decimal | None) -> Decimal:
    """The next scale to try: in proportion to the room left (or the overflow) in height, kept strictly between the
    largest scale that fits and the smallest that does not; halfway between them when width was the limit."""
    if result.too_wide:
        guess = scale * Decimal("0.9")
    else:
        ratio = Decimal(str(result.height_px / max(result.used_px, 1.0)))
        guess = scale * min(ratio * Decimal("0.995"), MAX_GROWTH)
    low = fits.scale if fits is not None else MIN_SCALE
    if too_large is not None and not (low < guess < too_large):
        guess = (low + too_large) / 2
    return max(MIN_SCALE, guess).quantize(Decimal("0.0001"))


def render_signage_pdf(offering: ResolvedOffering, *, draft: Any, size: str | SignSize = "letter", print_proof: bool = False,
                       fetcher: Any = None, profile: PressProfile | None = None) -> SignRendering:
    """The sign's PDF at the largest type that fits its sheet, the room left spread over its paytable lines, and
    verified on the finished PDF: no character outside the trim (the slug of a printer's file aside)."""
    from rulegen.render import prepress
    from rulegen.render.fetcher import SafeFetcher
    from rulegen.render.pdf import lay_out
    from rulegen.render.trimcheck import text_outside_trim
    from rulegen.resources import assets_dir

    if fetcher is None:
        loaded: Any = offering.offering
        logo = loaded.logo()
        fetcher = SafeFetcher(assets_dir(), {logo.name: logo.data} if logo is not None else {})
    sheet = size if isinstance(size, SignSize) else sign_size(size)
    if print_proof and profile is None:
        profile = prepress.shipped_profile()
    lines = block_lines(offering)
    created = sign_created(offering)
    seed = offering.offering.source + b"signage" + sheet.name.encode() + (b"print" if print_proof else b"")
    if print_proof and profile is not None and profile.file is not None:
        seed += profile.sha256.encode("ascii")

    count = columns_for(sheet, lines)
    arrangement = balanced_columns(lines, count)

    def attempt(scale: Decimal, spread: Decimal = Decimal(0)) -> _Attempt:
        html = render_signage_html(offering, draft=draft, size=sheet, print_proof=print_proof, scale=scale,
                                   spread_pt=spread, profile=profile, columns=arrangement)
        laid_out = lay_out(html, fetcher=fetcher, effective_date=created, identifier_seed=seed,
                           variant=prepress.PRINT_VARIANT if print_proof else None)
        return _Attempt(scale, spread, measure(laid_out.document, sheet), laid_out, html)

    fits: _Attempt | None = None
    too_large: Decimal | None = None
    last: Measure | None = None
    scale = max(MIN_SCALE, estimated_scale(sheet, lines, count)).quantize(Decimal("0.0001"))
    rebalanced = sheet.card
    for _ in range(MAX_FITS):
        tried = attempt(scale)
        last = tried.measure
        if not rebalanced and len(tried.measure.blocks) == len(lines):
            # the columns balanced again on the blocks' heights as laid out (the estimate counts lines, not wraps)
            rebalanced = True
            unit = float(LINE_IN) * CSS_PX_PER_INCH * float(scale)
            measured = {name: max(1, round(tried.measure.blocks[name] / unit)) for name in lines}
            better = balanced_columns(measured, count)
            if better != arrangement:
                arrangement = better
                continue
        if tried.measure.fits:
            fits = tried
            if tried.measure.fill >= GOOD_FILL:
                break
        else:
            too_large = scale if too_large is None else min(too_large, scale)
        if fits is None and scale <= MIN_SCALE:
            break
        if fits is not None and too_large is not None and too_large <= fits.scale * CLOSE:
            break
        scale = _next_scale(scale, tried.measure, fits, too_large)
        if fits is not None and scale <= fits.scale:
            break
    if fits is None:
        raise _does_not_fit(sheet, last)
    outside: list[str] = []
    for _ in range(3):  # the finished PDF is the judge: text past the trim there means smaller type, or no sign
        best = _spread(fits, attempt)
        rendering = _finished(offering, best, sheet, print_proof, draft, profile, seed)
        outside = text_outside_trim("the sign", rendering.pdf, slug=[_slug_of(best.html)] if print_proof else [])
        if not outside:
            return rendering
        smaller = (fits.scale * Decimal("0.94")).quantize(Decimal("0.0001"))
        if smaller < MIN_SCALE:
            break
        fits = attempt(smaller)
        if not fits.measure.fits:
            break
    raise SignDoesNotFit(f"the sign does not fit a {sheet.label} sheet: {outside[0] if outside else 'it overflows'}"
                         "; choose a larger size")


def _spread(fits: _Attempt, attempt: Any) -> _Attempt:
    """The room left under the sign, given to its paytable lines (equally above and below each), so the sign
    fills its sheet: measured once, corrected once."""
    result = fits.measure
    if result.fill >= FILLED or result.lines == 0:
        return fits
    room_pt = Decimal(str((result.height_px * 0.985 - result.used_px) * 0.75))
    spread = (room_pt / (result.lines + 4)).quantize(Decimal("0.01"))
    best = fits
    for _ in range(2):
        tried = attempt(fits.scale, spread)
        if not tried.measure.fits:
            spread = (spread * Decimal("0.8")).quantize(Decimal("0.01"))
            continue
        best = tried
        gained = tried.measure.used_px - result.used_px
        if tried.measure.fill >= FILLED or gained <= 0:
            break
        spread = (spread * Decimal(str((result.height_px * 0.985 - result.used_px) / gained))).quantize(Decimal("0.01"))
    return best


def _slug_of(html: str) -> str:
    import html as html_lib

    match = re.search(r'<div class="slug">(.*?)</div>', html, re.S)
    return html_lib.unescape(match[1]) if match else ""


def _finished(offering: ResolvedOffering, best: _Attempt, sheet: SignSize, print_proof: bool, draft: Any,
              profile: PressProfile | None, seed: bytes) -> SignRendering:
    from rulegen.render import prepress

    findings = logo_findings(offering, best.measure, final=not draft.draft)
    errors = [f for f in findings if f.level == "error"]
    if errors:
        raise InvalidOfferingError("\n".join(f.format() for f in errors), errors)
    pdf = best.laid_out.write()
    if print_proof:
        assert profile is not None
        pdf = prepress.finish_for_press(pdf, bleed_in=BLEED_IN, seed=seed + best.html.encode("utf-8"),
                                        profile=profile)
    return SignRendering(pdf, best.scale, best.measure, best.laid_out.document, best.html, findings, best.spread,
                         profile if print_proof else None)


def _does_not_fit(sheet: SignSize, last: Measure | None) -> SignDoesNotFit:
    detail = (f"a line does not fit its column: {last.overflowing[0]!r}" if last and last.overflowing
              else f"a single word stands alone on a line: {last.widowed[0]!r}" if last and last.widowed
              else "the content is taller than the sheet")
    return SignDoesNotFit(f"the sign does not fit a {sheet.label} sheet with legible type (body at least "
                          f"{BASE_TYPE['body'] * MIN_SCALE:.0f} pt; {detail}): choose a larger size")
