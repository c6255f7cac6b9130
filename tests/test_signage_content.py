"""What the sign says (the Bonus Spin's prizes, top prize, community pays and wager; the limit card) and how it
treats the operator's logo (its printed resolution; RGB made CMYK on the printer's file)."""

from __future__ import annotations

import copy
import io
import re
import zlib
from decimal import Decimal

import pikepdf
import pytest
from PIL import Image
from typer.testing import CliRunner


from rulegen.cli import app  # noqa: E402
from rulegen.jurisdiction import jurisdiction_for  # noqa: E402
from rulegen.offering import load_offering  # noqa: E402
from rulegen.render import signage  # noqa: E402
from rulegen.render.context import draft_status  # noqa: E402
from rulegen.resolved import resolve  # noqa: E402
from rulegen.resources import samples_dir  # noqa: E402

SAMPLES = {s.stem.split("-")[0]: s for s in samples_dir().glob("*.yaml")}
NJ, MD, PA = SAMPLES["nj"], SAMPLES["md"], SAMPLES["pa"]

from tests.test_signage_print import preflight  # noqa: E402


def text_of(html: str) -> str:
    plain = re.sub(r"<[^>]+>", " ", html.split("<body>", 1)[1]).replace("\u00a0", " ").replace("&nbsp;", " ")
    return re.sub(r"\s+", " ", plain.replace("&amp;", "&"))


def sign_html(sample, mutate=None, size="letter"):
    offering = load_offering(sample)
    if mutate:
        offering.data = copy.deepcopy(offering.data)
        mutate(offering.data)
    resolved = resolve(offering)
    return text_of(signage.render_signage_html(resolved, draft=draft_status(resolved, False),
                                               size=size)), offering


def money(amount) -> str:
    return f"${Decimal(str(amount)):,.0f}"


def bonus_spin_section(text: str) -> str:
    return text.split("BONUS SPIN", 1)[1] if "BONUS SPIN" in text else text.split("Bonus Spin", 1)[1]


@pytest.mark.parametrize("sample", [NJ, MD], ids=lambda s: s.stem)
def test_prizes_from_the_largest_down_top_prize_first(sample):
    text, offering = sign_html(sample)
    section = bonus_spin_section(text)
    spin = offering.data["bonus_spin"]
    from rulegen.render.tables import bonus_spin

    amounts = {s["pays"] for s in bonus_spin(resolve(offering))["segments"] if s["pays"] is not None}
    expected = [money(a) for a in sorted(amounts, reverse=True)]
    top = spin["top_prize"]
    floor = min(Decimal(str(top[k])) for k in ("initial", "reset") if k in top)
    assert f"Top prize: progressive meter, from {money(floor)}" in section  # the samples reset to their start
    after_top = section.split(f"from {money(floor)}", 1)[1]
    shown = re.findall(r"(?<!wins )\$[\d,]+(?= )", after_top.split("A winning spin")[0])
    prizes = [s for s in shown if s in expected]
    assert prizes == expected, "each prize once, largest first"
    assert "Progressive" not in section.split("Top prize", 1)[1][:40]
    assert "others" not in text


def test_community_pays_in_plain_words():
    text, offering = sign_html(NJ)
    for segment in offering.data["bonus_spin"]["wheel"]:
        if segment.get("community") is not None:
            assert (f"{money(segment['symbol'])} · every other player still in the round with a Bonus Spin wager wins "
                    f"{money(segment['community'])}") in text


def test_the_sign_says_the_wager_is_collected_on_a_win():
    for sample in (NJ, MD):
        text, offering = sign_html(sample)
        wager = money(offering.data["bonus_spin"]["wager"])
        assert (f"A winning spin is paid the amount the wheel shows; the {wager} wager is collected, win or lose."
                in text)
    # the reading is cited from the state's own text
    assert jurisdiction_for(load_offering(NJ).data).cited("bonus_spin", "progressive", "wager_on_win").citation \
        == "N.J.A.C. 13:69F-40.10(i)2"
    md = jurisdiction_for(load_offering(MD).data)
    assert md.cited("bonus_spin", "progressive", "wager_on_win").citation.endswith("Chapter 12 §D(5)")
    assert md.cited("bonus_spin", "xtreme", "wager_on_win").citation.endswith("Chapter 12 §E(10)")


def test_antes_paid_from_the_criss_cross_table_share_its_block():
    """MD's sample pays the antes from Chapter 12 §A's table as written, row for row the bets' table: the sign prints
    that table once, headed for both, with every row of it; an ante table of its own keeps its own block."""
    text, offering = sign_html(MD)
    assert offering.data["paytables"]["ante"] == "as_written"
    assert "Antes and the Across, Down and Middle bets" in text
    assert "Ante Across pays on the Across hand, Ante Down on the Down hand" in text
    assert text.count("Royal flush") == 2  # the shared table and the Five Card Bonus, not a third for the antes
    own, _ = sign_html(MD, lambda data: data["paytables"].update(ante="standard"))
    assert "Antes and the Across, Down and Middle bets" not in own and own.count("Royal flush") == 2
    assert re.search(r"Antes Ante Across pays on the Across hand", own)


def test_a_fixed_top_prize_is_its_amount():
    def fixed(data):
        data["bonus_spin"]["top_prize"] = {"kind": "fixed", "initial": 12500}

    text, _ = sign_html(NJ, fixed)
    assert "Top prize: $12,500" in text and "meter" not in text


def test_a_merchandise_top_prize_is_described():
    def merchandise(data):
        data["bonus_spin"]["top_prize"] = {"kind": "merchandise", "initial": 30000, "description": "a new sedan"}

    text, _ = sign_html(NJ, merchandise)
    assert "Top prize: a new sedan (value $30,000)" in text


def test_the_limit_card_shows_the_limits_only():
    text, offering = sign_html(NJ, size="limit-card")
    ante = offering.data["limits"]["ante"]
    assert f"each {money(ante['minimum'])} minimum, {money(ante['maximum'])} maximum" in text
    five = offering.data["five_card_bonus"]
    assert f"Five Card Bonus {money(five['minimum'])} to {money(five['maximum'])}" in text
    assert f"Aggregate payout limit: {money(offering.data['payout_limit']['amount'])}" in text
    assert "1× to 3× ante" in text
    assert " to 1" not in text and "Royal" not in text and "every other" not in text, "no paytable on the card"


# --- the logo ------------------------------------------------------------------------------------------------

def with_logo(tmp_path, name: str, data: bytes, sample=PA):
    folder = tmp_path / "offering"
    folder.mkdir()
    (folder / name).write_bytes(data)
    source = sample.read_text()
    source = re.sub(r"(\n  operator:\n    name: [^\n]+\n)", lambda m: m.group(1) + f"    logo: {name}\n", source,
                    count=1)
    path = folder / sample.name
    path.write_text(source)
    assert f"logo: {name}" in source
    return path


def png(width: int, height: int, colour=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def image_widths_pt(data: bytes) -> list[float]:
    """Printed width of each image drawn on the first page, from the content stream's matrices."""
    widths = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        stack, ctm = [], [1, 0, 0, 1, 0, 0]
        for operands, operator in pikepdf.parse_content_stream(page):
            op = str(operator)
            if op == "q":
                stack.append(ctm)
            elif op == "Q":
                ctm = stack.pop()
            elif op == "cm":
                a, b, c, d, e, f = (float(v) for v in operands)
                m = ctm
                ctm = [a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2], c * m[1] + d * m[3],
                       e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5]]
            elif op == "Do":
                xobject = page.obj.Resources.XObject[str(operands[0])]
                if xobject.get("/Subtype") == pikepdf.Name.Image:
                    widths.append(abs(ctm[0]))
    return widths


def run(tmp_path, offering, *args):
    out = tmp_path / "sign.pdf"
    result = CliRunner().invoke(app, ["signage", str(offering), "-o", str(out), *args])
    return result, out


def test_a_low_resolution_logo_is_a_warning_naming_its_ppi(tmp_path):
    offering = with_logo(tmp_path, "logo.png", png(120, 40))
    result, out = run(tmp_path, offering)
    assert result.exit_code == 0, result.output
    message = [line for line in result.stderr.splitlines() if "ppi" in line]
    assert len(message) == 1 and ": warning: " in message[0]
    ppi = int(re.search(r"prints at (\d+) ppi", message[0])[1])
    widths = image_widths_pt(out.read_bytes())
    assert len(widths) == 1
    assert ppi == pytest.approx(120 / (widths[0] / 72), abs=1)  # the pixels over the width the PDF prints


def test_a_low_resolution_logo_stops_a_final_printer_file(tmp_path):
    offering = with_logo(tmp_path, "logo.png", png(120, 40))
    result, out = run(tmp_path, offering, "--print", "--final")
    assert result.exit_code == 1
    assert ": error: the logo prints at" in result.stdout
    assert not out.exists()


def test_a_sharp_rgb_logo_is_converted_for_press(tmp_path):
    offering = with_logo(tmp_path, "logo.png", png(1500, 500))
    result, out = run(tmp_path, offering, "--print", "--final")
    assert result.exit_code == 0, result.output
    assert "ppi" not in result.output
    problems, _ = preflight(out.read_bytes())
    assert problems == []
    with pikepdf.open(out) as pdf:
        images = [x for x in pdf.pages[0].obj.Resources.XObject.values() if x.get("/Subtype") == "/Image"]
        assert [str(x.ColorSpace) for x in images] == ["/DeviceCMYK"]
        c, m, y, k = zlib.decompress(images[0].read_raw_bytes())[:4]
        assert m > 200 and y > 150 and c < 60, "red stays red in CMYK"


def test_an_svg_logo_has_no_resolution_and_its_colours_become_cmyk(tmp_path):
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" viewBox="0 0 300 100">'
           b'<rect width="300" height="100" fill="#1040c0"/><circle cx="50" cy="50" r="30" fill="#000000"/></svg>')
    offering = with_logo(tmp_path, "logo.svg", svg)
    result, out = run(tmp_path, offering, "--print", "--final")
    assert result.exit_code == 0, result.output
    assert "ppi" not in result.output
    problems, _ = preflight(out.read_bytes())
    assert problems == []


def test_the_house_bets_are_ante_multiples_with_no_dollar_cap_of_their_own():
    # "each wager not to exceed $10" is read as each ante-sized wager (the reading `wager_cap`), which the $10 ante
    # maximum already keeps: the sign and the card state the bet as a multiple of the ante, as the game settles it.
    house = SAMPLES["house"]
    text, _ = sign_html(house)
    assert "Each bet 1 to 3 times the ante;" in text
    text, _ = sign_html(house, size="limit-card")
    assert "Across, Down and Middle bets 1× to 3× ante Five Card Bonus" in text
    assert "at most" not in text


def test_an_svg_gradient_comes_out_cmyk_with_four_values_per_stop(tmp_path):
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" viewBox="0 0 300 100"><defs>'
           b'<linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#ff0000"/>'
           b'<stop offset="1" stop-color="#0000ff"/></linearGradient></defs>'
           b'<rect width="300" height="100" fill="url(#g)"/></svg>')
    offering = with_logo(tmp_path, "logo.svg", svg)
    result, out = run(tmp_path, offering, "--print", "--final")
    assert result.exit_code == 0, result.output
    problems, _ = preflight(out.read_bytes())
    assert problems == []
    with pikepdf.open(out) as pdf:
        shadings = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o]
        assert shadings and all(s.ColorSpace == pikepdf.Name.DeviceCMYK for s in shadings)
        stops = [list(map(float, f.C0)) for s in shadings for f in ([s.Function] if "/C0" in s.Function
                                                                     else s.Function.Functions)]
        assert stops[0][1] > 0.8 and stops[0][2] > 0.8, "the first stop is still red: magenta and yellow"


def test_a_sheet_too_small_for_legible_type_is_refused(tmp_path):
    result, out = run(tmp_path, NJ, "--sign-size", "3x3in")
    assert result.exit_code == 2
    assert "does not fit a 3 × 3 in sheet with legible type" in result.stderr
    assert not out.exists()


def test_the_logos_printed_size_is_the_layouts_not_its_pixel_count(tmp_path):
    widths = []
    for pixels in (300, 1500):
        (tmp_path / str(pixels)).mkdir()
        offering = with_logo(tmp_path / str(pixels), "logo.png", png(pixels, pixels // 3))
        result, out = run(tmp_path / str(pixels), offering)
        assert result.exit_code == 0, result.output
        widths += image_widths_pt(out.read_bytes())
    assert len(widths) == 2 and widths[0] == pytest.approx(widths[1], abs=0.01)
