"""The printer's sign, checked as a print shop's preflight would: every sample at every named size.

The preflight here reads the PDF with pikepdf, independently of how rulegen made it: any RGB colour operator
or image fails, so do a missing output intent, boxes not nested as MediaBox > BleedBox > TrimBox, a font not
embedded, text not in 100% K, crop marks shorter than 0.25 in or inside the bleed. PDFium then reads every
character of the finished PDF: none may lie outside the TrimBox (the slug line outside the bleed aside), and the
text must reach down the sheet (no empty band over a tenth of its height). The layout checks read WeasyPrint's
boxes of the same rendering: one page, nothing past its column, no heading, row or note line holding a single
word, and a hand named in two tables wrapped alike in both.
"""

from __future__ import annotations

import dataclasses
import io
import re
from decimal import Decimal

import pikepdf
import pytest
from pypdf import PdfReader


from rulegen.offering import load_offering  # noqa: E402
from rulegen.render import documents, prepress, signage  # noqa: E402
from rulegen.render.context import draft_status  # noqa: E402
from rulegen.resolved import resolve  # noqa: E402
from rulegen.resources import samples_dir  # noqa: E402

from tests.doccheck import text_outside_page  # noqa: E402

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

SAMPLES = sorted(samples_dir().glob("*.yaml"))
NAMED = ("letter", "tabloid", "a4", "a3", "limit-card", "24x36in")
ODD = ("600x900mm", "a3-landscape", "5x14in")
MOST_EMPTY = 0.10  # the largest empty band a sign may leave across its sheet, as a share of the height
PT = 72
BLEED_PT = 0.125 * PT
RGB_OPERATORS = {"rg", "RG"}


# --- an independent preflight --------------------------------------------------------------------------------

def _rgb_space(space) -> bool:
    if space is None:
        return False
    if isinstance(space, pikepdf.Name):
        return space in (pikepdf.Name.DeviceRGB, pikepdf.Name.CalRGB)
    if isinstance(space, pikepdf.Array) and len(space):
        kind = space[0]
        if kind == pikepdf.Name.ICCBased:
            return int(space[1].get("/N", 0)) == 3
        if kind == pikepdf.Name.Indexed:
            return _rgb_space(space[1])
        if kind == pikepdf.Name.CalRGB:
            return True
        if kind in (pikepdf.Name.Separation, pikepdf.Name.DeviceN):
            return _rgb_space(space[2])
    return False


def _multiply(a, b):
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _outputs(function) -> set[int]:
    if int(function.get("/FunctionType", -1)) == 3:
        return set().union(*(_outputs(f) for f in function.Functions))
    return {len(function.get("/C0", [0]))}


def shading_problems(shading) -> list[str]:
    """An RGB gradient, or one whose colour function gives another number of values than its space has."""
    space = shading.get("/ColorSpace")
    if _rgb_space(space):
        return ["RGB shading"]
    components = {pikepdf.Name.DeviceCMYK: 4, pikepdf.Name.DeviceGray: 1}.get(space)
    function = shading.get("/Function")
    if components and function is not None and not isinstance(function, pikepdf.Array):
        if _outputs(function) != {components}:
            return [f"a {space} gradient whose function gives {sorted(_outputs(function))} values"]
    return []


def preflight(data: bytes) -> tuple[list[str], list[tuple]]:
    """(problems, filled rectangles in registration colour as (x0, y0, x1, y1) in page space)."""
    problems: list[str] = []
    marks: list[tuple] = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        intents = pdf.Root.get("/OutputIntents")
        if not intents:
            problems.append("no output intent")
        else:
            intent = intents[0]
            if intent.get("/S") != pikepdf.Name.GTS_PDFX:
                problems.append(f"output intent subtype {intent.get('/S')}")
            profile = intent.get("/DestOutputProfile")
            if profile is None or int(profile.get("/N", 0)) != 4:
                problems.append("the output intent has no CMYK profile")
        xmp = pdf.Root.Metadata.read_bytes() if "/Metadata" in pdf.Root else b""
        if b"PDF/X-4" not in xmp:
            problems.append("the XMP metadata does not claim PDF/X-4")
        seen: set = set()

        def walk(owner, resources, ctm):
            fonts = (resources or {}).get("/Font") or {}
            for name, font in fonts.items():
                if font.objgen in seen:
                    continue
                seen.add(font.objgen)
                descendants = font.get("/DescendantFonts")
                target = descendants[0] if descendants else font
                descriptor = target.get("/FontDescriptor")
                if descriptor is None or not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                    problems.append(f"font {name} ({font.get('/BaseFont')}) is not embedded")
            spaces = (resources or {}).get("/ColorSpace") or {}
            fill = stroke = None
            fill_colour: tuple = ()
            stack = []
            in_text = False
            pending = None
            for operands, operator in pikepdf.parse_content_stream(owner):
                op = str(operator)
                if op in RGB_OPERATORS:
                    problems.append(f"RGB colour operator {op} {[float(v) for v in operands]}")
                elif op in ("cs", "CS"):
                    space = operands[0]
                    resolved = spaces.get(str(space), space) if str(space) in spaces else space
                    if _rgb_space(resolved):
                        problems.append(f"RGB colour space {space} set with {op}")
                    if op == "cs":
                        fill = resolved
                    else:
                        stroke = resolved
                elif op in ("sc", "scn"):
                    fill_colour = tuple(round(float(v), 4) if not isinstance(v, pikepdf.Name) else str(v)
                                        for v in operands)
                elif op == "k":
                    fill, fill_colour = pikepdf.Name.DeviceCMYK, tuple(round(float(v), 4) for v in operands)
                elif op == "g":
                    fill, fill_colour = pikepdf.Name.DeviceGray, tuple(float(v) for v in operands)
                elif op == "q":
                    stack.append((list(ctm), fill, stroke, fill_colour))
                elif op == "Q":
                    ctm, fill, stroke, fill_colour = stack.pop()
                elif op == "cm":
                    ctm = _multiply([float(v) for v in operands], ctm)
                elif op == "BT":
                    in_text = True
                elif op == "ET":
                    in_text = False
                elif op in ("Tj", "TJ", "'", '"') and in_text:
                    if fill != pikepdf.Name.DeviceCMYK or fill_colour != (0, 0, 0, 1):
                        problems.append(f"text in {fill} {fill_colour}, not 100% K")
                elif op == "re":
                    pending = [float(v) for v in operands]
                elif op in ("f", "f*", "F") and pending is not None:
                    if fill == pikepdf.Name.DeviceCMYK and fill_colour == (1, 1, 1, 1):
                        x, y, w, h = pending
                        (ax, ay), (bx, by) = _apply(ctm, x, y), _apply(ctm, x + w, y + h)
                        marks.append((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
                    pending = None
                elif op == "Do":
                    xobject = ((resources or {}).get("/XObject") or {}).get(str(operands[0]))
                    if xobject is None or xobject.objgen in seen:
                        continue
                    seen.add(xobject.objgen)
                    if xobject.get("/Subtype") == pikepdf.Name.Image:
                        if _rgb_space(xobject.get("/ColorSpace")):
                            problems.append(f"RGB image {operands[0]}")
                    else:
                        matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                        walk(xobject, xobject.get("/Resources"), _multiply(matrix, ctm))
            for shading in ((resources or {}).get("/Shading") or {}).values():
                problems.extend(shading_problems(shading))
            for pattern in ((resources or {}).get("/Pattern") or {}).values():
                if pattern.objgen in seen:
                    continue
                seen.add(pattern.objgen)
                if int(pattern.get("/PatternType", 0)) == 2:
                    problems.extend(shading_problems(pattern.Shading))
                else:
                    walk(pattern, pattern.get("/Resources"), ctm)

        for number, page in enumerate(pdf.pages, 1):
            boxes = {name: [float(v) for v in page.obj[name]] for name in ("/MediaBox", "/BleedBox", "/TrimBox")
                     if name in page.obj}
            if len(boxes) != 3:
                missing = sorted({"/MediaBox", "/BleedBox", "/TrimBox"} - set(boxes))
                problems.append(f"page {number}: boxes missing: {missing}")
                continue
            media, bleed, trim = boxes["/MediaBox"], boxes["/BleedBox"], boxes["/TrimBox"]
            for outer, inner, names in ((media, bleed, "MediaBox > BleedBox"), (bleed, trim, "BleedBox > TrimBox")):
                if not (outer[0] < inner[0] and outer[1] < inner[1] and outer[2] > inner[2] and outer[3] > inner[3]):
                    problems.append(f"page {number}: not {names}: {outer} {inner}")
            if [round(b - t, 3) for b, t in zip(bleed, trim)] != [-BLEED_PT, -BLEED_PT, BLEED_PT, BLEED_PT]:
                problems.append(f"page {number}: the bleed is not 0.125 in: BleedBox {bleed}, TrimBox {trim}")
            walk(page, page.obj.get("/Resources"), [1, 0, 0, 1, 0, 0])
    return problems, marks


def crop_mark_problems(data: bytes, marks: list[tuple]) -> list[str]:
    """Eight marks, each at least 0.25 in long, on the trim lines, starting at the bleed's edge or beyond."""
    page = PdfReader(io.BytesIO(data)).pages[0]
    x0, y0, x1, y1 = (float(v) for v in page["/TrimBox"])
    problems = []
    found = {"h": 0, "v": 0}
    for (a, b, c, d) in marks:
        horizontal = (c - a) > (d - b)
        length = (c - a) if horizontal else (d - b)
        if length < 0.25 * PT - 0.01:
            problems.append(f"a crop mark {length / PT:.3f} in long")
        if horizontal:
            on_trim = any(abs((b + d) / 2 - y) < 0.5 for y in (y0, y1))
            gap = min(abs(x0 - c), abs(a - x1))
            outside = c <= x0 - BLEED_PT + 0.01 or a >= x1 + BLEED_PT - 0.01
        else:
            on_trim = any(abs((a + c) / 2 - x) < 0.5 for x in (x0, x1))
            gap = min(abs(y0 - d), abs(b - y1))
            outside = d <= y0 - BLEED_PT + 0.01 or b >= y1 + BLEED_PT - 0.01
        if not on_trim:
            problems.append(f"a crop mark off the trim lines at {(a, b, c, d)}")
        if not outside or gap < BLEED_PT - 0.01:
            problems.append(f"a crop mark inside the bleed at {(a, b, c, d)}")
        found["h" if horizontal else "v"] += 1
    if found != {"h": 4, "v": 4}:
        problems.append(f"expected 4 horizontal and 4 vertical crop marks, found {found}")
    return problems


# --- an independent layout check ---------------------------------------------------------------------------------

def layout_problems(document) -> list[str]:
    from weasyprint.formatting_structure import boxes

    problems = []
    if len(document.pages) != 1:
        problems.append(f"{len(document.pages)} pages")
    page = document.pages[0]._page_box
    for box in page.descendants():
        if not isinstance(box, boxes.BlockContainerBox):
            continue
        lines = [c for c in box.children if isinstance(c, boxes.LineBox)]
        texts = ["".join(t.text for t in line.descendants() if isinstance(t, boxes.TextBox)).strip() for line in lines]
        right = box.content_box_x() + box.width
        for line, text in zip(lines, texts):
            for leaf in line.descendants():
                if isinstance(leaf, boxes.TextBox) and leaf.position_x + leaf.width > right + 0.5:
                    problems.append(f"{text!r} runs past its box")
        if len([t for t in texts if t]) > 1:
            problems += [f"{t!r} alone on a line of {texts}" for t in texts if len(t.split()) == 1]
    hands: dict[str, set[int]] = {}  # a hand's name in each table: how many lines it takes
    for box in page.descendants():
        if isinstance(box, boxes.TableRowBox) and box.children:
            cell = box.children[0]
            lines = [c for c in cell.descendants() if isinstance(c, boxes.LineBox)]
            text = " ".join("".join(t.text for t in line.descendants() if isinstance(t, boxes.TextBox)).strip()
                            for line in lines)
            hands.setdefault(" ".join(text.split()), set()).add(len(lines))
    problems += [f"{hand!r} wraps into {sorted(counts)} lines in different tables"
                 for hand, counts in hands.items() if len(counts) > 1]
    return problems


def empty_band(data: bytes) -> float:
    """The share of the trim's height below the lowest character inside the trim (PDFium's reading)."""
    import pypdfium2

    pdf = pypdfium2.PdfDocument(data)
    try:
        page = pdf[0]
        left, bottom, right, top = page.get_trimbox()
        text = page.get_textpage()
        lows = [text.get_charbox(i)[1] for i in range(text.count_chars())]
        lowest = min(low for low in lows if low >= bottom - 0.5)
        return (lowest - bottom) / (top - bottom)
    finally:
        pdf.close()


_CACHE: dict = {}


def rendering(sample, size, *, print_proof=True, final=False):
    key = (sample, size, print_proof, final)
    if key not in _CACHE:
        offering = load_offering(sample)
        resolved = resolve(offering)
        _CACHE[key] = (offering, documents.signage_rendering(resolved, draft=draft_status(resolved, final),
                                                            size=size, print_proof=print_proof))
    return _CACHE[key]


CASES = [(s, size) for s in SAMPLES for size in NAMED] + \
        [(s, size) for s in SAMPLES if s.stem.startswith("nj") for size in ODD]  # the longest sign


@pytest.mark.parametrize("sample, size", CASES, ids=lambda v: getattr(v, "stem", v))
def test_preflight_and_layout_at_every_size(sample, size):
    offering, result = rendering(sample, size)
    problems, marks = preflight(result.pdf)
    assert problems == []
    assert crop_mark_problems(result.pdf, marks) == []
    assert layout_problems(result.document) == []
    slug = re.search(r'<div class="slug">(.*?)</div>', result.html)[1].replace("&amp;", "&")
    assert text_outside_page(f"{sample.stem} {size}", result.pdf, slug=(slug,)) == []
    assert empty_band(result.pdf) <= MOST_EMPTY
    page = PdfReader(io.BytesIO(result.pdf)).pages[0]
    trim = [float(v) for v in page["/TrimBox"]]
    sheet = signage.sign_size(size)
    assert trim[2] - trim[0] == pytest.approx(float(sheet.width_pt), abs=0.01)
    assert trim[3] - trim[1] == pytest.approx(float(sheet.height_pt), abs=0.01)
    # the slug: offering id, version and size, outside the bleed
    head = offering.data["offering"]
    found = []

    def visit(text, cm, tm, font, size_):
        x, y = tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        found.append((text, x, y))

    page.extract_text(visitor_text=visit)
    slug = " ".join(t for t, x, y in found if y < trim[1] - BLEED_PT and t.strip())
    assert head["id"] in slug and f"version {head['version']}" in slug and sheet.label.split(" ")[-1] in slug
    assert not [t for t, x, y in found if t.strip() and y > trim[3] + BLEED_PT], "nothing above the bleed but marks"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda v: v.stem)
def test_type_grows_with_the_sheet(sample):
    letter, tabloid, poster = (rendering(sample, size)[1].body_pt for size in ("letter", "tabloid", "24x36in"))
    assert letter >= 14 and tabloid > letter * Decimal("1.3") and poster > letter * Decimal("2.8")


def test_a_sign_with_no_side_wager_takes_one_column_and_fills_the_sheet():
    offering = load_offering(next(s for s in SAMPLES if s.stem.startswith("pa")))
    resolved = resolve(offering)
    plain = dataclasses.replace(resolved, five_card_bonus=None)
    result = documents.signage_rendering(plain, draft=draft_status(plain, False), size="letter", print_proof=True)
    assert "Five Card Bonus" not in result.html and result.html.count('<div class="column">') == 1
    assert empty_band(result.pdf) <= MOST_EMPTY
    assert result.body_pt > 18, "one column of two tables on a letter sheet: type larger than the usual 14 pt"


def test_the_printer_file_is_reproducible_and_its_document_id_is_not_random():
    offering, first = rendering(SAMPLES[-1], "tabloid")
    resolved = resolve(offering)
    again = documents.signage_rendering(resolved, draft=draft_status(resolved, False),
                                       size="tabloid", print_proof=True)
    assert again.pdf == first.pdf
    ids = []
    for result in (first, rendering(SAMPLES[-1], "tabloid", final=True)[1]):
        with pikepdf.open(io.BytesIO(result.pdf)) as pdf:
            ids += re.findall(rb"xmp\.did:[0-9a-f-]+", pdf.Root.Metadata.read_bytes())
    assert len(ids) == 2 and ids[0] != ids[1], "the DRAFT and the final printer's file are two documents"
    assert ids[0] == prepress.document_id(offering.source + b"signage" + b"tabloid" + b"print"
                                          + first.html.encode("utf-8"))


def test_rgb_is_converted_and_grey_goes_to_black_ink_only():
    assert prepress.rgb_to_cmyk(0, 0, 0) == (0, 0, 0, 1)
    assert prepress.rgb_to_cmyk(0.5, 0.5, 0.5) == (0, 0, 0, 0.5)
    c, m, y, k = prepress.rgb_to_cmyk(1, 0, 0)
    assert m > 0.8 and y > 0.8 and c < 0.1


@pytest.mark.parametrize("text, width, height", [
    ("letter", 8.5, 11), ("tabloid-landscape", 17, 11), ("a4", 210 / 25.4, 297 / 25.4), ("24x36in", 24, 36),
    ("600x900mm", 600 / 25.4, 900 / 25.4), ("limit-card", 4, 6), ("36 x 24 IN", 36, 24)])
def test_sizes_parse(text, width, height):
    size = signage.sign_size(text)
    assert float(size.width_pt) == pytest.approx(width * PT, abs=0.01)
    assert float(size.height_pt) == pytest.approx(height * PT, abs=0.01)


@pytest.mark.parametrize("text", ["poster", "0x10in", "10x10cm", "500x10in", "limit-card-landscape", "x"])
def test_bad_sizes_are_usage_errors(text):
    from rulegen.errors import UsageError

    with pytest.raises(UsageError):
        signage.sign_size(text)


def test_keep_never_leaves_a_word_alone():
    assert signage.keep("Criss Cross Poker") == "Criss\u00a0Cross\u00a0Poker"
    assert signage.keep("Pair of jacks or better") == "Pair\u00a0of jacks or\u00a0better"
    assert signage.keep("Across · Down · Middle") == "Across\u00a0·\u00a0Down\u00a0·\u00a0Middle"
    # a wager's name joined by no-break spaces stays whole: the limit's coverage never ends a line on "Five"
    assert signage.keep("on Middle bet, Five\u00a0Card\u00a0Bonus, Bonus\u00a0Spin") == (
        "on\u00a0Middle bet, Five\u00a0Card\u00a0Bonus,\u00a0Bonus\u00a0Spin")


def test_soft_proof_is_plain_pdf_without_output_intent_or_rgb():
    _, result = rendering(SAMPLES[0], "letter", print_proof=False)
    problems, _ = preflight(result.pdf)
    assert [p for p in problems if "RGB" in p or "not 100% K" in p] == []
    assert "no output intent" in problems


def test_decimal_sizes_keep_their_label():
    assert signage.sign_size("24x36in").label == "24 × 36 in"
    assert signage.sign_size("a3").label == "a3 297 × 420 mm"
    assert Decimal(signage.sign_size("a3").width_pt) == Decimal("841.890")


def test_the_trim_check_finds_text_past_the_trim_and_allows_only_the_named_slug_below_the_bleed():
    from rulegen.render.fetcher import SafeFetcher
    from rulegen.render.pdf import render_pdf
    from rulegen.render.trimcheck import text_outside_trim
    from rulegen.resources import assets_dir

    def pdf(body: str) -> bytes:
        html = ("<html><head><style>@page { size: 4in 6in; margin: 0; bleed: 0.5in } body { margin: 0.3in } "
                ".out { position: fixed; left: 3.7in; top: 1in; white-space: nowrap } "
                ".slug { position: fixed; bottom: -0.4in; left: 0.1in; font-size: 6pt }</style></head>"
                f"<body><p>Inside</p>{body}</body></html>")
        return render_pdf(html, fetcher=SafeFetcher(assets_dir(), {}), effective_date="2027-01-01", variant=None)

    assert text_outside_trim("card", pdf("")) == []
    past = text_outside_trim("card", pdf('<div class="out">Bonus $10</div>'))
    assert len(past) == 1 and "outside the trim" in past[0] and "$10" in past[0]
    slug = pdf('<div class="slug">card-id · version 1</div>')
    assert text_outside_trim("card", slug, slug=["card-id · version 1"]) == []
    assert text_outside_trim("card", slug, slug=["another slug"]) != []
