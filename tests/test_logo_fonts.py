"""An offering with an SVG logo builds to the same bytes whatever fonts the machine has.

The documents are set in the shipped fonts, and a logo may hold no text (`FORMAT-logo-text`), only paths, so no
glyph comes from the machine. The test builds one offering with an SVG logo twice, each in its own process: as the
machine is, and with every font of the machine hidden from fontconfig (FONTCONFIG_FILE names a configuration
with no font folder and a cache of its own). Every file of the two builds must be the same, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulegen.resources import samples_dir
from tests.test_hostile_inputs import PLAUSIBLE_LOGO

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

NO_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><cachedir>{cache}</cachedir></fontconfig>
"""


def _rulegen() -> list[str]:
    exe = Path(sys.executable).parent / "rulegen"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]


def _build(offering: Path, out: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    result = subprocess.run(_rulegen() + ["build", str(offering), "--out", str(out)], capture_output=True, text=True,
                            env=env, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_an_svg_logo_gives_the_same_bytes_with_the_machines_fonts_hidden(tmp_path):
    folder = tmp_path / "offering"
    folder.mkdir()
    text = (samples_dir() / "pa-five-card-bonus.yaml").read_text(encoding="utf-8")
    licence = next(row for row in text.splitlines() if row.strip().startswith("licence:"))
    (folder / "pa.yaml").write_text(text.replace(licence, licence + "\n    logo: logo.svg", 1), encoding="utf-8")
    (folder / "logo.svg").write_text(PLAUSIBLE_LOGO, encoding="utf-8")

    _build(folder / "pa.yaml", tmp_path / "machine", dict(os.environ))

    config = tmp_path / "no-fonts.conf"
    config.write_text(NO_FONTS.format(cache=tmp_path / "fontconfig-cache"), encoding="utf-8")
    hidden = {**os.environ, "FONTCONFIG_FILE": str(config), "XDG_CACHE_HOME": str(tmp_path / "xdg-cache")}
    hidden.pop("FONTCONFIG_PATH", None)
    result = _build(folder / "pa.yaml", tmp_path / "no-fonts", hidden)
    assert "No fonts configured in FontConfig" in result.stderr  # the machine's fonts were hidden indeed

    built = sorted(p.relative_to(tmp_path / "machine") for p in (tmp_path / "machine").rglob("*") if p.is_file())
    assert {p.name for p in built} >= {"rules.pdf", "signage.pdf", "math-appendix.pdf", "rules.html", "manifest.json"}
    manifest = json.loads((tmp_path / "machine" / built[0].parent / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["logo"]["sha256"] == hashlib.sha256((folder / "logo.svg").read_bytes()).hexdigest()
    for name in built:
        first, second = (tmp_path / "machine" / name).read_bytes(), (tmp_path / "no-fonts" / name).read_bytes()
        assert first == second, f"{name} differs with the machine's fonts hidden"
