"""The table sign (layer: render): every paytable offered, the ante limits, the payout limit where it is shown.

Any size: the named sheets (letter, tabloid, a4, a3, each `-landscape` too), any `WxH` in inches or millimetres,
and the table-top limit card (4x6 in: antes, limits and the payout limit only). Here: the sheet, what the sign
says, and the HTML at a given scale; its blocks are balanced over one to three columns, and the type's scale is
estimated from the sheet. Fitting the sign to its sheet (the largest type that fits on WeasyPrint's boxes, the room
left spread, the finished PDF checked against the trim) is rulegen.render.signfit's.

`print_proof` makes the printer's file: PDF/X-4 with a CMYK output intent (the shipped ISO Coated v2 300%, or
the print shop's profile given as a PressProfile), 0.125 in bleed, and a slug outside the bleed carrying the crop
marks and the offering id, version, size and printing condition (see rulegen.render.prepress for the boxes and
the reproducible bytes). Every colour the template sets is `device-cmyk()`; text and rules are 100% K.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from typing import Any

from rulegen.errors import RulegenError, UsageError
from rulegen.render import tables
from rulegen.render.context import document_info
from rulegen.render.environment import render_template
from rulegen.render.filters import money
from rulegen.render.pdf import w3c_datetime
from rulegen.render.prepress import PressProfile
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
BASE_TYPE = {"body": 14, "small": 10, "h1": 28, "h2": 16, "operator": 15, "limits": 17}
LETTER_COLUMN_IN = Decimal("2.9")  # the narrowest column a paytable takes at scale 1 (14 pt) without overflowing
MARGIN_IN = Decimal("0.45")
COLUMN_GAP_IN = Decimal("0.3")
LINE_IN = Decimal("0.245")  # one paytable line on a letter sign at scale 1 (14 pt type, its leading and rule)
HEAD_LINES = Decimal(9)  # the operator, the title, the limits, the payout limit and the foot, in paytable lines
DRAFT_EM = Decimal("3.6")  # "DRAFT" in bold type is about 3.6 em wide

BLOCKS = ("criss_cross", "ante", "five_card_bonus", "six_card_bonus", "bonus_spin")


def antes_share_the_table(offering: ResolvedOffering) -> bool:
    """The antes are paid from the Criss Cross paytable itself, row for row (MD's Chapter 12 §A as written): the
    sign prints that table once, for the bets and the antes."""
    paytables = tables.offering_paytables(offering)
    ante, main = paytables.get("ante"), paytables.get("criss_cross")
    return ante is not None and main is not None and ante["rows"] == main["rows"]


def block_lines(offering: ResolvedOffering) -> dict[str, int]:
    """Each block the sign carries, in order, with its height in paytable lines (heading and notes included):
    what the columns are balanced on."""
    paytables = tables.offering_paytables(offering)
    shared = antes_share_the_table(offering)
    lines: dict[str, int] = {}
    for name, notes in (("criss_cross", 5 if shared else 4), ("ante", 3),
                        *((key, 3) for key, _ in offering.offered_side_wagers)):
        table = paytables.get(name)
        if name == "ante" and shared:
            continue  # printed with the Criss Cross paytable
        if table is not None:
            lines[name] = len(table["rows"]) + notes
    spin = tables.bonus_spin(offering) if offering.bonus_spin is not None else None
    if spin is not None:
        lines["bonus_spin"] = 2 * len(bonus_spin_prizes(spin)) + 6
    return lines


def balanced_columns(lines: dict[str, int], columns: int) -> list[list[str]]:
    """The blocks in order, cut into `columns` runs so the tallest run is as short as it can be."""
    import itertools

    names = list(lines)
    columns = max(1, min(columns, len(names)))
    best: list[list[str]] | None = None
    best_height = None
    for cuts in itertools.combinations(range(1, len(names)), columns - 1):
        edges = (0, *cuts, len(names))
        runs = [names[a:b] for a, b in zip(edges, edges[1:])]
        height = max(sum(lines[n] for n in run) for run in runs)
        if best_height is None or height < best_height:
            best, best_height = runs, height
    return best or [names]


def margin_in(size: SignSize) -> Decimal:
    """The safe margin inside the trim: 0.45 in on a letter sign, more on large sheets (at most 1.5 in)."""
    short = min(size.width_in, size.height_in)
    return max(Decimal("0.25"), min(Decimal("1.5"), (MARGIN_IN * short / Decimal("8.5")).quantize(Decimal("0.01"))))


def estimated_scale(size: SignSize, lines: dict[str, int], columns: int) -> Decimal:
    """The scale the sheet allows with this many columns, judged from the column's width and the tallest column's
    lines (the fitting then finds the real one on the laid-out sign)."""
    margin = margin_in(size)
    runs = balanced_columns(lines, columns)
    count = len(runs)
    width = size.width_in - 2 * margin
    by_width = width / (count * LETTER_COLUMN_IN + (count - 1) * COLUMN_GAP_IN)
    if size.card:
        by_width = width / Decimal("3.4")
        tallest = Decimal(8)
    else:
        tallest = Decimal(max(sum(lines[n] for n in run) for run in runs))
    by_height = (size.height_in - 2 * margin) / ((tallest + HEAD_LINES) * LINE_IN)
    return max(Decimal("0.3"), min(by_width, by_height))


def columns_for(size: SignSize, lines: dict[str, int] | int = 4) -> int:
    """One column on the limit card; otherwise the count of columns (one to three) that allows the largest type,
    more columns where the estimates are within a tenth (a paytable line across a whole wide sheet reads badly)."""
    if size.card:
        return 1
    if isinstance(lines, int):
        lines = {name: 6 for name in BLOCKS[:lines]}
    candidates = [n for n in (1, 2, 3) if n <= len(lines)]
    return max(candidates, key=lambda n: (estimated_scale(size, lines, n) * (1 + Decimal("0.1") * (n - 1)), n))


def type_sizes(scale: Decimal) -> dict[str, str]:
    """Point sizes of the sign's type at `scale` (14 pt body on a letter sign: capitals about 3.5 mm)."""
    return {name: f"{(Decimal(points) * scale).quantize(Decimal('0.01')).normalize():f}pt"
            for name, points in BASE_TYPE.items()}


def draft_points(size: SignSize, scale: Decimal) -> Decimal:
    """The DRAFT mark across the sheet: 110 pt on a letter sign, never so large that, turned 30 degrees, it
    leaves the trim (its width then is about 0.87 of its length plus half its height)."""
    room = min(size.width_pt * Decimal("0.8"), size.height_pt * Decimal("1.2"))
    return min(Decimal(110) * scale, room / (DRAFT_EM * Decimal("0.87") + Decimal("0.4"))).quantize(Decimal("0.01"))


@cache
def _advances(bold: bool) -> tuple[dict[int, int], int]:
    from fontTools.ttLib import TTFont

    from rulegen.resources import assets_dir

    font = TTFont(str(assets_dir() / "fonts" / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), lazy=True)
    metrics = font["hmtx"].metrics
    widths = {code: metrics[glyph][0] for code, glyph in font.getBestCmap().items()}
    units = int(font["head"].unitsPerEm)
    font.close()
    return widths, units


def text_em(text: str, *, bold: bool = False) -> Decimal:
    """The width of `text` in the sign's type, in em (from the shipped font's advance widths)."""
    widths, units = _advances(bold)
    fallback = widths.get(ord("M"), units)
    return Decimal(sum(widths.get(ord(ch), fallback) for ch in text)) / units


def pays_width_em(offering: ResolvedOffering) -> Decimal:
    """The width of the pays column in every paytable of the sign: its longest entry ("1,000 to 1"), bold, and
    the space before it. Every table gives its hands the same room, so a hand wraps alike in all of them."""
    from rulegen.render.filters import odds

    entries = [odds(row["pays"]) for table in tables.offering_paytables(offering).values() if table
               for row in table["rows"]]
    widest = max((text_em(entry, bold=True) for entry in entries), default=Decimal(4))
    return (widest + Decimal("0.5")).quantize(Decimal("0.01"))


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
        "follows_meter_above": limit.follows_meter_above,
        "meter_plus": limit.meter_plus,
    }


def payout_limit_for_card(offering: ResolvedOffering) -> dict[str, Any] | None:
    """The limit card states the payout limit whenever one is set (it is a sign at the table)."""
    amount = offering.payout_limit.amount
    return None if amount is None else {"amount": amount, "per": offering.payout_limit.per,
                                        "follows_meter_above": offering.payout_limit.follows_meter_above,
                                        "meter_plus": offering.payout_limit.meter_plus}


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
    for word in str(text).split(" "):  # a no-break space already in the text (a wager's name) stays
        if not word:
            continue
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
            "wager_on_win_reading": on_win.reading, "lost_on_fold": not offering.bonus_spin.settled_after_fold}


# --- the page ----------------------------------------------------------------------------------------------------

@dataclass
class Layout:
    """What the template needs to place the sign on its sheet."""

    size: SignSize
    scale: Decimal
    print_proof: bool
    columns: list[list[str]]
    pays_em: Decimal = Decimal(5)
    spread_pt: Decimal = Decimal(0)  # room added above and below each paytable line to fill the sheet's height

    def css(self) -> dict[str, Any]:
        size = self.size
        margin = margin_in(size)
        mark_from = BLEED_IN  # crop marks start where the bleed ends ...
        mark_to = BLEED_IN + MARK_LENGTH_IN  # ... and run outward, inside the slug
        spread = self.spread_pt

        def space(points: object, spreads: object = 0) -> str:
            value = Decimal(str(points)) * self.scale + Decimal(str(spreads)) * spread
            return f"{_plain(value.quantize(Decimal('0.01')))}pt"

        return {
            "size": f"{_plain(size.width_pt)}pt {_plain(size.height_pt)}pt",
            "margin": f"{_plain(margin)}in",
            "gap": f"{_plain((COLUMN_GAP_IN * self.scale).quantize(Decimal('0.001')))}in",
            "bleed": f"{_plain(SLUG_IN)}in",
            "type": {**type_sizes(self.scale), "draft": f"{_plain(draft_points(size, self.scale))}pt"},
            "rule": {name: f"{_plain((Decimal(w) * self.scale).quantize(Decimal('0.01')))}pt"
                     for name, w in {"heavy": "3", "medium": "1.5", "light": "0.5", "box": "2"}.items()},
            "space": space,
            "row_pad": f"{_plain((spread / 2).quantize(Decimal('0.01')))}pt",
            "pays_width": f"{_plain(self.pays_em)}em",
            "logo": {"height": space(58), "width": space(180)},
            "mark": {"from": f"{_plain(mark_from)}in", "length": f"{_plain(MARK_LENGTH_IN)}in",
                     "to": f"{_plain(mark_to)}in", "weight": "0.25pt"},
            # the slug line sits between the bleed's edge (plus a gap) and the sheet's edge
            "slug": {"bottom": f"{_plain(SLUG_IN - Decimal('0.05'))}in",
                     "height": f"{_plain(SLUG_IN - Decimal('0.05') - BLEED_IN - Decimal('0.04'))}in"},
        }


def sign_title(operator: str, size: SignSize) -> str:
    """The PDF's title: whose sign, which sign, on which sheet."""
    what = "Criss Cross Poker limit card" if size.card else "Criss Cross Poker table sign"
    return f"{operator} — {what}, {size.label}"


def sign_created(offering: ResolvedOffering) -> str | None:
    """The date the sign's file carries as made: the submission's latest sign-off, a day that has passed when the
    sign is printed (the effective date is the day the rules take effect, often weeks later); the effective date
    only while nobody has signed off."""
    days = sorted(str(entry.date)[:10] for entry in offering.signoffs if entry.date)
    return days[-1] if days else offering.effective_date


def slug_text(doc: dict[str, Any], size: SignSize, profile: PressProfile | None) -> str:
    condition = f" · {profile.name}" if profile is not None else ""
    return (f"{doc['offering_id']} · version {doc['version']} · {size.label} trim, {_plain(BLEED_IN)} in bleed"
            f"{condition} · {'DRAFT' if doc['draft'] else 'final'}")


def slug_points(slug: str, size: SignSize) -> Decimal:
    """The slug's type size: 6 pt, smaller where one line of it would not fit across the sheet (a limit card)."""
    room = size.width_pt - Decimal(10)  # the slug runs between the vertical crop marks
    return max(Decimal("3.5"), min(Decimal(6), room / max(text_em(slug), Decimal(1)))).quantize(Decimal("0.1"))


def signage_context(offering: ResolvedOffering, *, draft: Any, size: str | SignSize = "letter", print_proof: bool = False,
                    scale: Decimal | None = None, spread_pt: Decimal = Decimal(0),
                    profile: PressProfile | None = None, columns: list[list[str]] | None = None) -> dict[str, Any]:
    jurisdiction = offering.jurisdiction
    sheet = size if isinstance(size, SignSize) else sign_size(size)
    lines = block_lines(offering)
    count = columns_for(sheet, lines)
    layout = Layout(sheet, estimated_scale(sheet, lines, count) if scale is None else scale, print_proof,
                    columns or balanced_columns(lines, count), pays_width_em(offering), spread_pt)
    bets = jurisdiction.rule("bet_multiple")
    doc = dict(document_info(offering, kind="signage", title=sign_title(offering.operator.name, sheet),
                             short_title="Table sign", draft=draft))
    created = sign_created(offering)
    doc["created"] = w3c_datetime(created)
    doc["description"] = f"{doc['title']} — {offering.id} version {offering.version}"
    if print_proof and profile is None:
        from rulegen.render.prepress import shipped_profile

        profile = shipped_profile()
    slug = slug_text(doc, sheet, profile if print_proof else None)
    return {
        "doc": doc,
        "page": {**layout.css(), "print": print_proof, "name": sheet.name, "label": sheet.label,
                 "card": sheet.card, "columns": len(layout.columns), "column_blocks": layout.columns,
                 "scale": layout.scale},
        "slug": slug,
        "slug_points": _plain(slug_points(slug, sheet)),
        "ante": offering.limits.ante,
        "bets": bets.value if bets else None,
        "paytables": tables.offering_paytables(offering),
        "antes_share": antes_share_the_table(offering),
        "five_card_bonus": offering.five_card_bonus,
        "six_card_bonus": offering.six_card_bonus,
        "added_wagers": tables.added_wagers(offering),
        "bonus_spin": None if sheet.card else bonus_spin_on_sign(offering),
        "payout_limit": payout_limit_on_sign(offering),
        "card_spin": offering.bonus_spin if sheet.card else None,
        "card_payout_limit": payout_limit_for_card(offering) if sheet.card else None,
        "keep": keep,
        "nobreak": nobreak,
        "positions": offering.table.positions,
    }


def render_signage_html(offering: ResolvedOffering, *, draft: Any, size: str | SignSize = "letter", print_proof: bool = False,
                        scale: Decimal | None = None, spread_pt: Decimal = Decimal(0),
                        profile: PressProfile | None = None, columns: list[list[str]] | None = None) -> str:
    return render_template("signage.html", **signage_context(offering, draft=draft, size=size, print_proof=print_proof,
                                                             scale=scale, spread_pt=spread_pt, profile=profile,
                                                             columns=columns))
