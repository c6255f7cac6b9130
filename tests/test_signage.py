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
