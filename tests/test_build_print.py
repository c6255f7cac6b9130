"""`rulegen build --print`: the printer's sign inside a filing, as `rulegen signage` makes it.

The logo is measured as laid out on the sign and its resolution reported (a warning on a draft, the build refused
on a final one); the shop's own profile (`--icc`) is the sign's output intent and is named in the manifest."""

from __future__ import annotations

import io
import json
import re

import pikepdf
import pytest
from PIL import Image
from typer.testing import CliRunner

from rulegen.cli import app  # noqa: E402
from rulegen.resources import samples_dir  # noqa: E402

from tests.test_signage import SHOP_CONDITION, shop_profile  # noqa: E402

PA = next(s for s in sorted(samples_dir().glob("*.yaml")) if s.stem.startswith("pa"))

pytestmark = [pytest.mark.usefixtures("math_cache"),  # tests/conftest.py
              pytest.mark.pdf]  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)


def with_png_logo(folder, width: int, height: int):
    folder.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, "PNG")
    (folder / "logo.png").write_bytes(out.getvalue())
    source = re.sub(r"(\n  operator:\n    name: [^\n]+\n)", lambda m: m.group(1) + "    logo: logo.png\n",
                    PA.read_text(), count=1)
    path = folder / PA.name
    path.write_text(source)
    return path


def test_a_draft_build_reports_the_logos_ppi_and_records_the_shops_profile(tmp_path):
    offering = with_png_logo(tmp_path / "offering", 120, 40)
    profile, data = shop_profile(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(offering), "--out", str(out), "--print", "--icc", str(profile)])
    assert result.exit_code == 0, result.output
    warning = [line for line in result.stderr.splitlines() if "ppi" in line]
    assert len(warning) == 1 and ": warning: the logo prints at " in warning[0]
    folder = next(out.iterdir())
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["options"]["icc"]["name"] == SHOP_CONDITION.decode()
    assert manifest["options"]["icc"]["file"] == "shop-gracol.icc"
    with pikepdf.open(folder / "signage.pdf") as pdf:
        assert pdf.Root.OutputIntents[0].DestOutputProfile.read_bytes() == data


def test_a_final_build_refuses_a_logo_under_300_ppi_and_writes_nothing(tmp_path):
    offering = with_png_logo(tmp_path / "offering", 120, 40)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(offering), "--out", str(out), "--final"])
    assert result.exit_code == 1, result.output
    assert ": error: the logo prints at " in result.output and "ppi" in result.output
    assert not out.exists() or not any(out.iterdir())


def test_a_build_with_the_shops_profile_is_reproduced_with_that_profile_and_only_with_it(tmp_path, monkeypatch):
    import rulegen.assemble as pipeline
    from rulegen.errors import RulegenError

    profile, _ = shop_profile(tmp_path)
    built = pipeline.build(PA, pipeline.BuildOptions(out_dir=tmp_path / "out", print_proof=True, icc=profile,
                                                     sign_size="tabloid"))
    options = json.loads(built.files["manifest.json"])["options"]
    monkeypatch.delenv(pipeline.ICC_PROFILES_ENV, raising=False)
    with pytest.raises(RulegenError, match=pipeline.ICC_PROFILES_ENV):
        pipeline.reproduce_filing_for_verify(source=PA.read_bytes(), name=PA.name, logo=None, options=options,
                                             signer=None)
    shelf = tmp_path / "profiles"
    shelf.mkdir()
    (shelf / "gracol.icc").write_bytes(profile.read_bytes())
    monkeypatch.setenv(pipeline.ICC_PROFILES_ENV, str(shelf))
    fresh = pipeline.reproduce_filing_for_verify(source=PA.read_bytes(), name=PA.name, logo=None, options=options,
                                                 signer=None)
    assert {name: fresh[name] == built.files[name] for name in fresh} == {name: True for name in built.files}
