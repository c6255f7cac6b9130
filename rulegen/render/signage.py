"""The table sign (layer: render): every paytable offered, the ante limits, the payout limit where it is shown.

Any size: the named sheets (letter, tabloid, a4, a3, each `-landscape` too), any `WxH` in inches or millimetres,
and the table-top limit card (4x6 in: antes, limits and the payout limit only). The type is scaled to the
sheet and then fitted: the sign is laid out, measured with WeasyPrint's document API, and laid out again
smaller when anything overflows, so every size comes out on one sheet with nothing cut.

`print_proof` makes the printer's file: PDF/X-4 with the shipped CMYK output intent (ISO Coated v2 300%,
templates/assets/icc/), 0.125 in bleed, and a slug outside the bleed carrying the crop marks and the
offering id, version and size (see rulegen.render.prepress for the boxes and the reproducible bytes).
Every colour the template sets is `device-cmyk()`; text and rules are 100% K.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from rulegen.findings import Finding
from rulegen.errors import InvalidOfferingError, RulegenError, UsageError
from rulegen.render import tables
from rulegen.render.context import document_info
from rulegen.render.environment import render_template
from rulegen.render.filters import money
from rulegen.resolved import ResolvedOffering, TopPrize

POINTS_PER_INCH = Decimal(72)
MM_PER_INCH = Decimal("25.4")
BLEED_IN = Decimal("0.125")  # the bleed every sign printer asks for
SLUG_IN = Decimal("0.5")  # from the trim to the edge of the sheet: the bleed, then the marks and the slug line
MARK_LENGTH_IN = Decimal("0.3125")  # crop marks run from the bleed's edge outward (at least 0.25 in)
MIN_SIDE_IN = Decimal(3)
MAX_SIDE_IN = Decimal(120)  # PDF pages stop at 200 in; past 10 ft a sign is a banner, not a table sign
MIN_PRINTED_PPI = 300  # a raster logo below this at its printed size is soft on press

# name -> (width, height, unit)
NAMED_SIZES = {
    "letter": (Decimal("8.5"), Decimal(11), "in"),
    "tabloid": (Decimal(11), Decimal(17), "in"),
    "a4": (Decimal(210), Decimal(297), "mm"),
    "a3": (Decimal(297), Decimal(420), "mm"),
    "limit-card": (Decimal(4), Decimal(6), "in"),
}
SIZE_HELP = ("letter, tabloid, a4, a3 (each also NAME-landscape), limit-card (4x6 in: antes, limits and payout "
             "limit only), or WxH in inches or millimetres such as 24x36in or 600x900mm")
_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(in|mm)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class SignSize:
    """One sheet: its trim size in points, how it was asked for, and whether it is the limit card."""

    name: str
    width_pt: Decimal
    height_pt: Decimal
    unit: str
    width_given: Decimal
    height_given: Decimal
    card: bool = False

    @property
    def label(self) -> str:
        """How the slug names the size: `tabloid 11 × 17 in`, `600 × 900 mm`."""
        size = f"{_plain(self.width_given)} × {_plain(self.height_given)} {self.unit}"
        return size if _CUSTOM.match(self.name) else f"{self.name} {size}"

    @property
    def width_in(self) -> Decimal:
        return self.width_pt / POINTS_PER_INCH

    @property
    def height_in(self) -> Decimal:
        return self.height_pt / POINTS_PER_INCH

    @property
    def landscape(self) -> bool:
        return self.width_pt > self.height_pt


def _plain(value: Decimal) -> str:
    return f"{value.normalize():f}"


def _to_points(value: Decimal, unit: str) -> Decimal:
    inches = value if unit == "in" else value / MM_PER_INCH
    return (inches * POINTS_PER_INCH).quantize(Decimal("0.001"), rounding=ROUND_HALF_EVEN)


def sign_size(name: str) -> SignSize:
    """Parse `--sign-size`; a UsageError (exit 2) says what is accepted."""
    text = str(name).strip().lower()
    base, _, orientation = text.partition("-landscape")
    if base in NAMED_SIZES and orientation == "" and (text == base or text.endswith("-landscape")):
        if base == "limit-card" and text != base:
            raise UsageError("--sign-size limit-card is a 4x6 in portrait card; give WxH for another card size")
        width, height, unit = NAMED_SIZES[base]
        if text != base:
            width, height = height, width
        return SignSize(text, _to_points(width, unit), _to_points(height, unit), unit, width, height,
                        card=base == "limit-card")
    match = _CUSTOM.match(text)
    if not match:
        raise UsageError(f"--sign-size is {name!r}; it is {SIZE_HELP}")
    width, height, unit = Decimal(match[1]), Decimal(match[2]), match[3].lower()
    size = SignSize(f"{_plain(width)}x{_plain(height)}{unit}", _to_points(width, unit), _to_points(height, unit),
                    unit, width, height)
    for side in (size.width_in, size.height_in):
        if not MIN_SIDE_IN <= side <= MAX_SIDE_IN:
            raise UsageError(f"--sign-size {name!r}: each side is between {MIN_SIDE_IN} in and {MAX_SIDE_IN} in "
                             f"({MIN_SIDE_IN * MM_PER_INCH:.0f} mm and {MAX_SIDE_IN * MM_PER_INCH:.0f} mm)")
    return size


# --- type and columns --------------------------------------------------------------------------------------------

# Point sizes on a letter sign; every other sheet multiplies them by its scale.
BASE_TYPE = {"body": 14, "small": 10, "h1": 28, "h2": 16, "operator": 15, "limits": 17, "draft": 110}
LETTER_COLUMN_IN = Decimal("3.65")  # the width of one of a letter sign's two columns
MARGIN_IN = Decimal("0.45")
COLUMN_GAP_IN = Decimal("0.3")


def sign_blocks(offering: ResolvedOffering) -> int:
    """How many paytable blocks the sign carries: the main game and antes, and each optional wager offered."""
    return 2 + sum(1 for wager in (offering.five_card_bonus, offering.six_card_bonus, offering.bonus_spin)
                   if wager is not None)


def columns_for(size: SignSize, blocks: int = 4) -> int:
    """One column on a narrow sheet and on the limit card, three on a landscape sheet with four blocks or
    more, two otherwise."""
    if size.card:
        return 1
    ratio = size.width_pt / size.height_pt
    if ratio < Decimal("0.55"):
        return 1
    return 3 if ratio > Decimal("1.2") and blocks >= 4 else 2


def margin_in(size: SignSize) -> Decimal:
    """The safe margin inside the trim: 0.45 in on a letter sign, more on large sheets (at most 1.5 in)."""
    short = min(size.width_in, size.height_in)
    return max(Decimal("0.3"), min(Decimal("1.5"), (MARGIN_IN * short / Decimal("8.5")).quantize(Decimal("0.01"))))


def first_scale(size: SignSize, columns: int = 2) -> Decimal:
    """The scale a sign starts from: as large as its columns are wide, no taller than its sheet allows
    (the fitting then shrinks or grows it once it has measured the layout)."""
    margin = margin_in(size)
    column = (size.width_in - 2 * margin - (columns - 1) * COLUMN_GAP_IN * _scale_hint(size)) / columns
    by_width = column / LETTER_COLUMN_IN
    if size.card:
        by_width = (size.width_in - 2 * margin) / Decimal("4.6")
    by_height = size.height_in / Decimal(11) * (Decimal(2) / columns if columns > 2 else 1)
    if columns == 1 and not size.card:
        by_height = size.height_in / Decimal(22)
    return max(Decimal("0.3"), min(by_width, by_height * Decimal("1.25")))


def _scale_hint(size: SignSize) -> Decimal:
    return max(Decimal(1), min(size.width_in, size.height_in) / Decimal("8.5"))


def type_sizes(scale: Decimal) -> dict[str, str]:
    """Point sizes of the sign's type at `scale` (14 pt body on a letter sign: capitals about 3.5 mm)."""
    return {name: f"{(Decimal(points) * scale).quantize(Decimal('0.01')).normalize():f}pt"
            for name, points in BASE_TYPE.items()}


# --- what the sign says ------------------------------------------------------------------------------------------

def payout_limit_on_sign(offering: ResolvedOffering) -> dict[str, Any] | None:
    """The payout limit as the sign shows it: when a limit is set and the offering shows it on a sign."""
    limit = offering.payout_limit
    if limit.amount is None or offering.table.payout_limit_display != "sign":
        return None
    rule = offering.jurisdiction.rule("payout_limit_display")
    return {
        "amount": limit.amount,
        "required": bool(rule and rule.value),
        "citation": rule.citation if rule else None,
        "covers": [tables.WAGER_NAMES.get(w, w) for w in limit.covers],
        "per": limit.per,
    }


def payout_limit_for_card(offering: ResolvedOffering) -> dict[str, Any] | None:
    """The limit card states the payout limit whenever one is set (it is a sign at the table)."""
    amount = offering.payout_limit.amount
    return None if amount is None else {"amount": amount, "per": offering.payout_limit.per}


def top_prize_terms(top: TopPrize) -> dict[str, Any]:
    """The operator's top prize as the sign states it: an amount, a merchandise prize, or a progressive meter."""
    kind = top.kind or "fixed"
    if kind == "progressive":
        return {"kind": kind, "initial": top.initial, "reset": top.reset}
    return {"kind": kind, "amount": top.initial, "description": top.description}


def bonus_spin_prizes(spin: tables.BonusSpinView) -> list[dict[str, Any]]:
    """The wheel's prizes once each, largest first: the top prize, then the amounts downward."""
    seen = set()
    prizes = []
    for segment in spin["segments"]:
        key = ("top",) if segment["jackpot"] else (segment["pays"], segment["community"])
        if key in seen:
            continue
        seen.add(key)
        prizes.append({"top": segment["jackpot"], "pays": segment["pays"], "community": segment["community"]})
    prizes.sort(key=lambda p: (not p["top"], -(p["pays"] or 0), -(p["community"] or 0)))
    return prizes


def top_prize_words(terms: dict[str, Any]) -> str:
    """`progressive meter, from $5,000` (and the reset where it differs), `$2,500`, or the merchandise as the
    operator describes it."""
    if terms["kind"] == "progressive":
        initial, reset = terms.get("initial"), terms.get("reset")
        start = initial if initial is not None else reset
        words = "progressive meter" + (f", from {money(start)}" if start is not None else "")
        return words + (f" (after a win, from {money(reset)})" if reset is not None and reset != start else "")
    if terms["kind"] == "merchandise":
        words = terms.get("description") or "merchandise"
        return words + (f" (value {money(terms['amount'])})" if terms.get("amount") is not None else "")
    return money(terms["amount"]) if terms.get("amount") is not None else "fixed prize"


NBSP = "\u00a0"


def keep(text: object) -> str:
    """Text no line break can leave a single word alone on a line: up to three words never break; longer text
    keeps its first two and its last two words together."""
    words: list[str] = []
    for word in str(text).split():
        if words and not any(ch.isalnum() for ch in word):  # a lone "·" or "—" stays with the word before it
            words[-1] += NBSP + word
        else:
            words.append(word)
    if len(words) <= 3:
        return NBSP.join(words)
    return " ".join([NBSP.join(words[:2]), *words[2:-2], NBSP.join(words[-2:])])


def nobreak(text: object) -> str:
    """Text that never breaks across lines (a date)."""
    return NBSP.join(str(text).split())


def bonus_spin_on_sign(offering: ResolvedOffering) -> dict[str, Any] | None:
    spin = tables.bonus_spin(offering)
    if spin is None or offering.bonus_spin is None:
        return None
    jurisdiction = offering.jurisdiction
    on_win = jurisdiction.cited("bonus_spin", str(spin["kind"]), "wager_on_win")
    if on_win is None or on_win.value not in ("collected", "returned"):
        raise RulegenError(f"{jurisdiction.name}'s data does not say whether a Bonus Spin wager is collected or "
                           f"returned when its spin wins (bonus_spin.{spin['kind']}.wager_on_win)")
    terms = top_prize_terms(offering.bonus_spin.top_prize)
    return {**spin, "prizes": bonus_spin_prizes(spin), "top": terms, "top_words": top_prize_words(terms),
            "wager_on_win": on_win.value, "wager_on_win_citation": on_win.citation,
            "wager_on_win_reading": on_win.reading}


# --- the page ----------------------------------------------------------------------------------------------------

@dataclass
class Layout:
    """What the template needs to place the sign on its sheet."""

    size: SignSize
    scale: Decimal
    print_proof: bool
    columns: int = 2

    def css(self) -> dict[str, Any]:
        size = self.size
        margin = margin_in(size)
        mark_from = BLEED_IN  # crop marks start where the bleed ends ...
        mark_to = BLEED_IN + MARK_LENGTH_IN  # ... and run outward, inside the slug
        return {
            "size": f"{_plain(size.width_pt)}pt {_plain(size.height_pt)}pt",
            "margin": f"{_plain(margin)}in",
            "gap": f"{_plain((COLUMN_GAP_IN * self.scale).quantize(Decimal('0.001')))}in",
            "bleed": f"{_plain(SLUG_IN)}in",
            "type": type_sizes(self.scale),
            "rule": {name: f"{_plain((Decimal(w) * self.scale).quantize(Decimal('0.01')))}pt"
                     for name, w in {"heavy": "3", "medium": "1.5", "light": "0.5", "box": "2"}.items()},
            "space": lambda points: f"{_plain((Decimal(str(points)) * self.scale).quantize(Decimal('0.01')))}pt",
            "mark": {"from": f"{_plain(mark_from)}in", "length": f"{_plain(MARK_LENGTH_IN)}in",
                     "to": f"{_plain(mark_to)}in", "weight": "0.25pt"},
            # the slug line sits between the bleed's edge (plus a gap) and the sheet's edge
            "slug": {"bottom": f"{_plain(SLUG_IN - Decimal('0.05'))}in",
                     "height": f"{_plain(SLUG_IN - Decimal('0.05') - BLEED_IN - Decimal('0.04'))}in"},
        }


def signage_context(offering: ResolvedOffering, *, draft: Any, size: str | SignSize = "letter", print_proof: bool = False,
                    scale: Decimal | None = None) -> dict[str, Any]:
    jurisdiction = offering.jurisdiction
    sheet = size if isinstance(size, SignSize) else sign_size(size)
    columns = columns_for(sheet, sign_blocks(offering))
    layout = Layout(sheet, first_scale(sheet, columns) if scale is None else scale, print_proof, columns)
    bets = jurisdiction.rule("bet_multiple")
    doc = document_info(offering, kind="signage", title="Criss Cross Poker table sign",
                        short_title="Table sign", draft=draft)
    return {
        "doc": doc,
        "page": {**layout.css(), "print": print_proof, "name": sheet.name, "label": sheet.label,
                 "card": sheet.card, "columns": layout.columns, "scale": layout.scale},
        "slug": f"{doc['offering_id']} · version {doc['version']} · {sheet.label} trim, "
                f"{_plain(BLEED_IN)} in bleed · {'DRAFT' if doc['draft'] else 'final'}",
        "ante": offering.limits.ante,
        "bets": bets.value if bets else None,
        "paytables": tables.offering_paytables(offering),
        "five_card_bonus": offering.five_card_bonus,
        "six_card_bonus": offering.six_card_bonus,
        "bonus_spin": None if sheet.card else bonus_spin_on_sign(offering),
        "payout_limit": payout_limit_on_sign(offering),
        "card_spin": offering.bonus_spin if sheet.card else None,
        "card_payout_limit": payout_limit_for_card(offering) if sheet.card else None,
        "keep": keep,
        "nobreak": nobreak,
        "positions": offering.table.positions,
    }


def render_signage_html(offering: ResolvedOffering, *, draft: Any, size: str | SignSize = "letter", print_proof: bool = False,
                        scale: Decimal | None = None) -> str:
    return render_template("signage.html", **signage_context(offering, draft=draft, size=size,
                                                             print_proof=print_proof, scale=scale))


# --- fitting the sign to its sheet ---------------------------------------------------------------------------------

CSS_PX_PER_INCH = 96
PX_PER_PT = Decimal(4) / Decimal(3)
MAX_FITS = 7
GOOD_FILL = 0.9  # a sign filling less of its sheet's height than this gets one try at larger type
MAX_GROWTH = Decimal("1.6")
MAX_GROWS = 2
MIN_SCALE = Decimal("0.5")  # 7 pt body type, 5 pt notes: below this a sign is not legible from a seat


@dataclass
class Measure:
    """What WeasyPrint's layout says about one rendering of the sign."""

    pages: int
    used_px: float  # how far down the sheet the sign's content reaches
    height_px: float
    overflowing: list[str]  # lines wider than their box (text that cannot break)
    widowed: list[str]  # lines of a heading, row or note holding a single word
    logo_ppi: float | None = None  # a raster logo's pixels per inch at its printed size
    logo_width_in: float | None = None

    @property
    def fits(self) -> bool:
        return self.pages == 1 and self.used_px <= self.height_px + 0.5 and not self.overflowing and not self.widowed


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


def measure(document: Any, size: SignSize) -> Measure:
    """Lay-out facts of a rendered sign: pages, the content's depth, lines too wide or holding one word."""
    from weasyprint.formatting_structure import boxes

    used = 0.0
    overflowing: list[str] = []
    widowed: list[str] = []
    logo_ppi = logo_width_in = None
    every_box = [box for page in document.pages for box in page._page_box.descendants()]
    for box in every_box:
        classes = _classes(box)
        if "sheet" in classes:
            used += box.margin_height()  # summed over the pages the sign spilled onto
            if len(document.pages) == 1:
                used = box.position_y + box.margin_height()
        if isinstance(box, boxes.ReplacedBox) and "logo" in classes:
            image = box.replacement
            pixels = getattr(image, "width", None)  # raster images know their pixels; SVG has none
            if isinstance(pixels, int) and box.width:
                logo_width_in = box.width / CSS_PX_PER_INCH
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
    return Measure(len(document.pages), used, float(size.height_pt * PX_PER_PT), overflowing, widowed, logo_ppi,
                   logo_width_in)


@dataclass
class SignRendering:
    pdf: bytes
    scale: Decimal
    measure: Measure
    document: object  # WeasyPrint's Document of the final layout (tests read its boxes)
    html: str
    findings: list[Finding] = field(default_factory=list)


LOGO_FIELD = ("offering", "operator", "logo")


def logo_findings(offering: ResolvedOffering, result: Measure, *, print_final: bool) -> list[Finding]:
    """A raster logo printed below 300 ppi: a warning naming its ppi; an error on a final printer's file."""
    if result.logo_ppi is None or result.logo_ppi >= MIN_PRINTED_PPI:
        return []
    level = "error" if print_final else "warning"
    message = (f"the logo prints at {result.logo_ppi:.0f} ppi on this sign, below the {MIN_PRINTED_PPI} ppi a "
               f"printer needs; give an SVG logo, or a PNG at least "
               f"{result.logo_ppi and _pixels_needed(result):,} pixels wide")
    return [offering.offering.finding(LOGO_FIELD, level, message)]


def _pixels_needed(result: Measure) -> int:
    return int(-(-result.logo_width_in * MIN_PRINTED_PPI // 1)) if result.logo_width_in else 0


class SignDoesNotFit(RulegenError):
    """No type size makes the sign fit its sheet (exit 2): the sheet is too small for what the sign must say."""


class _Refit(Exception):
    def __init__(self, measure: Measure, document: Any):
        super().__init__("refit")
        self.measure = measure
        self.document = document


def next_scale(scale: Decimal, result: Measure) -> Decimal:
    """A smaller scale: in proportion to the overflow in height, and at least 6% smaller."""
    ratio = Decimal(1)
    if result.used_px > result.height_px or result.pages > 1:
        ratio = Decimal(str(result.height_px / max(result.used_px, 1.0))) * Decimal("0.98")
    return (scale * min(ratio, Decimal("0.94"))).quantize(Decimal("0.0001"))


def render_signage_pdf(offering: ResolvedOffering, *, draft: Any, size: str | SignSize = "letter", print_proof: bool = False,
                       fetcher: Any = None, effective_date: str | None = None) -> SignRendering:
    """The sign's PDF at the largest type (from the sheet's first scale down) that fits its sheet."""
    from rulegen.render import prepress
    from rulegen.render.pdf import render_pdf

    from rulegen.render.fetcher import SafeFetcher
    from rulegen.resources import assets_dir

    if fetcher is None:
        loaded: Any = offering.offering
        logo = loaded.logo()
        fetcher = SafeFetcher(assets_dir(), {logo.name: logo.data} if logo is not None else {})
    sheet = size if isinstance(size, SignSize) else sign_size(size)
    scale = max(MIN_SCALE, first_scale(sheet, columns_for(sheet, sign_blocks(offering))))
    seed = offering.offering.source + b"signage" + sheet.name.encode() + (b"print" if print_proof else b"")
    last = None
    best: tuple[bytes, Decimal, Measure, Any, str] | None = None
    grows = 0
    too_large: Decimal | None = None
    for _attempt in range(MAX_FITS):
        html = render_signage_html(offering, draft=draft, size=sheet, print_proof=print_proof,
                                   scale=scale)
        kept: dict[str, Any] = {}

        def check(document: Any, kept: dict[str, Any] = kept) -> None:
            result = measure(document, sheet)
            kept["measure"], kept["document"] = result, document
            if not result.fits:
                raise _Refit(result, document)

        try:
            pdf = render_pdf(html, fetcher=fetcher, effective_date=effective_date, identifier_seed=seed,
                             variant=prepress.PRINT_VARIANT if print_proof else None, check=check)
        except _Refit as refit:
            last = refit.measure
            if best is not None:  # the larger type did not fit: once, try halfway; then keep the last that fit
                too_large = scale
                if grows >= MAX_GROWS:
                    break
                grows += 1
                scale = ((best[1] + too_large) / 2).quantize(Decimal("0.0001"))
                continue
            if scale <= MIN_SCALE:
                break
            scale = max(MIN_SCALE, next_scale(scale, last))
            continue
        best = (pdf, scale, kept["measure"], kept["document"], html)
        fill = kept["measure"].used_px / kept["measure"].height_px
        if grows >= MAX_GROWS or fill >= GOOD_FILL:
            break
        grows += 1  # larger type, in proportion to the room left (and below a size that already failed)
        target = scale * min(Decimal(str(1 / max(fill, 0.1))) * Decimal("0.97"), MAX_GROWTH)
        if too_large is not None:
            target = min(target, (scale + too_large) / 2)
        scale = target.quantize(Decimal("0.0001"))
    if best is not None:
        pdf, scale, result, document, html = best
        findings = logo_findings(offering, result, print_final=print_proof and not draft.draft)
        errors = [f for f in findings if f.level == "error"]
        if errors:
            raise InvalidOfferingError("\n".join(f.format() for f in errors), errors)
        if print_proof:
            pdf = prepress.finish_for_press(pdf, bleed_in=BLEED_IN, seed=seed + html.encode("utf-8"))
        return SignRendering(pdf, scale, result, document, html, findings)
    detail = (f"a line does not fit its column: {last.overflowing[0]!r}" if last and last.overflowing
              else f"a single word stands alone on a line: {last.widowed[0]!r}" if last and last.widowed
              else "the content is taller than the sheet")
    raise SignDoesNotFit(f"the sign does not fit a {sheet.label} sheet with legible type (body at least "
                         f"{BASE_TYPE['body'] * MIN_SCALE:.0f} pt; {detail}): choose a larger size")
