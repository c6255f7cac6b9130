"""`rulegen signage`: the table sign alone, validated, with a printer's proof.

Every sample at every size, preflighted, is in test_signage_print.py; here the command itself."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner


from rulegen.cli import app  # noqa: E402
from rulegen.resources import samples_dir  # noqa: E402

SAMPLES = sorted(samples_dir().glob("*.yaml"))
PA = next(s for s in SAMPLES if s.stem.startswith("pa"))
POINTS = 72


pytestmark = pytest.mark.usefixtures("math_cache")  # tests/conftest.py


def sign(tmp_path, *args, sample=PA):
    out = tmp_path / "sign.pdf"
    result = CliRunner().invoke(app, ["signage", str(sample), "-o", str(out), *args])
    return result, out


def box(page, name):
    return [float(v) for v in page[name]]


def test_print_proof_has_bleed_and_crop_marks(tmp_path):
    result, out = sign(tmp_path, "--print", "--sign-size", "tabloid")
    assert result.exit_code == 0, result.output
    page = PdfReader(out).pages[0]
    media, trim = box(page, "/MediaBox"), box(page, "/TrimBox")
    assert trim[2] - trim[0] == pytest.approx(11 * POINTS, abs=0.5)
    assert media[2] - media[0] > trim[2] - trim[0] + 2 * 0.125 * POINTS - 0.5  # bleed, and room for the marks
    bleed = box(page, "/BleedBox")
    assert bleed[2] - bleed[0] == pytest.approx((11 + 0.25) * POINTS, abs=0.5)


def test_the_sign_carries_every_paytable_the_limits_and_draft(tmp_path):
    result, out = sign(tmp_path)
    text = re.sub(r"\s+", " ", PdfReader(out).pages[0].extract_text())
    assert "Two equal antes, each $5 minimum, $200 maximum" in text
    # each table whole under its heading, as the sample's offering gives it
    assert ("ACROSS, DOWN AND MIDDLE Each bet 1 to 3 times the ante; Middle pays on the higher of the Across and "
            "Down hands Royal flush 500 to 1 Straight flush 100 to 1 Four of a kind 40 to 1 Full house 12 to 1 "
            "Flush 8 to 1 Straight 5 to 1 Three of a kind 3 to 1 Two pair 2 to 1 Pair of jacks or better 1 to 1 "
            "Pair of 6s through 10s Push ANTES") in text
    assert ("ANTES Ante Across pays on the Across hand, Ante Down on the Down hand Pair of jacks or better 1 to 1 "
            "Pair of 6s through 10s Push FIVE CARD BONUS") in text
    assert ("FIVE CARD BONUS The five community cards · $1 to $50 Royal flush 250 to 1 Straight flush 100 to 1 "
            "Four of a kind 40 to 1 Full house 15 to 1 Flush 10 to 1 Straight 6 to 1 Three of a kind 4 to 1 "
            "Two pair 3 to 1 Pair of 6s or better 1 to 1 Aggregate") in text
    # Pennsylvania shows the payout limit on a sign here (58 Pa. Code § 674a.2(b)(6))
    assert "Aggregate payout limit: $50,000 per player per round" in text
    assert text.startswith("DRAFT ") and text.endswith(" DRAFT")


def test_final_sign_has_no_draft_and_is_reproducible(tmp_path):
    result, out = sign(tmp_path, "--final")
    assert result.exit_code == 0, result.output
    first = out.read_bytes()
    assert "DRAFT" not in PdfReader(io.BytesIO(first)).pages[0].extract_text()
    result, out = sign(tmp_path, "--final")
    assert out.read_bytes() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sign.pdf"]


def test_invalid_offering_writes_nothing(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(PA.read_text().replace("minimum: 5, maximum: 200", "minimum: 500, maximum: 200"))
    result, out = sign(tmp_path, sample=broken)
    assert result.exit_code == 1
    assert "error:" in result.stdout
    assert not out.exists()


def test_final_without_signoffs_is_refused(tmp_path):
    unsigned = tmp_path / "unsigned.yaml"
    unsigned.write_text(PA.read_text().split("signoff:")[0])
    result, out = sign(tmp_path, "--final", sample=unsigned)
    assert result.exit_code == 1
    assert not out.exists()


def test_bad_size_and_unreadable_file(tmp_path):
    result, _ = sign(tmp_path, "--sign-size", "poster")
    assert result.exit_code == 2
    result, _ = sign(tmp_path, sample=tmp_path / "missing.yaml")
    assert result.exit_code == 2


# --- the print shop's own profile (--icc) --------------------------------------------------------------------------

SHOP_CONDITION = b"Shop GRACoL test (not for use)!"  # as long as the shipped profile's description, put in its place


def shop_profile(folder) -> tuple:
    """A CMYK press profile that is not the shipped one: the shipped profile with another printing condition."""
    from rulegen.render import prepress
    from rulegen.resources import assets_dir

    data = bytearray((assets_dir() / prepress.PROFILE).read_bytes())
    shipped = b"ISO Coated v2 300% (basICColor)"
    at = data.find(shipped)
    assert at > 0 and len(shipped) == len(SHOP_CONDITION)
    data[at:at + len(shipped)] = SHOP_CONDITION
    path = folder / "shop-gracol.icc"
    path.write_bytes(bytes(data))
    return path, bytes(data)


def test_the_shops_profile_is_the_output_intent_and_named_in_the_slug(tmp_path):
    import pikepdf

    profile, data = shop_profile(tmp_path)
    result, out = sign(tmp_path, "--print", "--icc", str(profile), "--sign-size", "tabloid")
    assert result.exit_code == 0, result.output
    with pikepdf.open(out) as pdf:
        intent = pdf.Root.OutputIntents[0]
        assert intent.DestOutputProfile.read_bytes() == data
        assert str(intent.OutputConditionIdentifier) == SHOP_CONDITION.decode()
    page = PdfReader(out).pages[0]
    assert SHOP_CONDITION.decode() in page.extract_text()
    again = tmp_path / "again.pdf"
    CliRunner().invoke(app, ["signage", str(PA), "-o", str(again), "--print", "--icc", str(profile),
                             "--sign-size", "tabloid"])
    assert again.read_bytes() == out.read_bytes(), "the same profile gives the same bytes"


def test_an_rgb_or_malformed_profile_is_refused(tmp_path):
    from PIL import ImageCms

    rgb = tmp_path / "srgb.icc"
    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    result, out = sign(tmp_path, "--print", "--icc", str(rgb))
    assert result.exit_code == 2 and "not CMYK" in result.stderr and not out.exists()
    _, data = shop_profile(tmp_path)
    cut = tmp_path / "cut.icc"
    cut.write_bytes(data[:4096])
    result, out = sign(tmp_path, "--print", "--icc", str(cut))
    assert result.exit_code == 2 and "malformed ICC profile" in result.stderr and not out.exists()
    text = tmp_path / "notes.icc"
    text.write_text("not a profile")
    result, _ = sign(tmp_path, "--print", "--icc", str(text))
    assert result.exit_code == 2 and "not an ICC profile" in result.stderr
    result, _ = sign(tmp_path, "--print", "--icc", "https://example.com/GRACoL.icc")
    assert result.exit_code == 2 and "fetches nothing" in result.stderr
    result, _ = sign(tmp_path, "--icc", str(cut))
    assert result.exit_code == 2 and "give --print too" in result.stderr


# --- the file's name, title and date ---------------------------------------------------------------------------------

def test_the_default_name_carries_the_size_so_sizes_do_not_replace_each_other(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for size in ("letter", "24x36in"):
        result = CliRunner().invoke(app, ["signage", str(PA), "--sign-size", size, "--print"])
        assert result.exit_code == 0, result.output
        assert "the printer's file" in result.stdout and "proof" not in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["allegheny-crossing-ccp-signage-24x36in.pdf",
                                                          "allegheny-crossing-ccp-signage-letter.pdf"]


def test_the_title_names_the_operator_and_sign_and_the_date_is_the_latest_signoff(tmp_path):
    from rulegen.offering import load_offering

    result, out = sign(tmp_path, "--sign-size", "limit-card")
    assert result.exit_code == 0, result.output
    info = PdfReader(out).metadata
    operator = load_offering(PA).data["offering"]["operator"]["name"]
    assert info.title == f"{operator} — Criss Cross Poker limit card, limit-card 4 × 6 in"
    latest = max(str(entry["date"]) for entry in load_offering(PA).data["signoff"])
    assert info["/CreationDate"].startswith("D:" + latest.replace("-", ""))
    assert latest < str(load_offering(PA).data["offering"]["effective_date"])
