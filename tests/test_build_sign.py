"""`rulegen build --sign`: the build line names the signer (the certificate's common name and organization), and
--sign without --final is warned about (the build still signs, as before)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen import assemble as pipeline
from rulegen.cli import app
from rulegen.resources import samples_dir
from tests.filing_factory import PASSPHRASE, SIGNER, make_pki

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

SAMPLE = samples_dir() / "pa-five-card-bonus.yaml"
WARNING = ("rulegen: warning: --sign without --final signs a DRAFT: every page says DRAFT, and `rulegen verify` "
           "accepts only a signed final filing; to file it, build with --final (every sign-off role given) and --sign")


@pytest.fixture
def stand_in(monkeypatch):
    """The build replaced by one that answers at once with the signer the options name."""
    def fake(path, options, *, display=None, **_kw):
        signer = f"{SIGNER}, Test Pennsylvania Casino" if options.sign else None
        draft = None if not options.final else type("Final", (), {"draft": False})()
        return pipeline.BuildResult(options.out_dir / "pa", None, [], {"rules.pdf": b""}, draft, {"all": 2.0},
                                    signer)

    monkeypatch.setattr(pipeline, "build", fake)


def test_a_signed_final_build_line_names_the_signer_and_no_warning(tmp_path, stand_in):
    result = CliRunner().invoke(app, ["build", str(SAMPLE), "--final", "--sign", str(tmp_path / "id.p12"),
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"{SAMPLE}: built {tmp_path}/pa/ (final, signed by {SIGNER}, Test Pennsylvania Casino; "
                             "rules.pdf) in 2.0 s\n")
    assert "warning" not in result.stderr


def test_an_unsigned_build_line_names_no_signer(tmp_path, stand_in):
    result = CliRunner().invoke(app, ["build", str(SAMPLE), "--out", str(tmp_path)])
    assert result.stdout == f"{SAMPLE}: built {tmp_path}/pa/ (DRAFT; rules.pdf) in 2.0 s\n"
    assert "warning" not in result.stderr


def test_sign_without_final_is_warned_once_however_many_offerings(tmp_path, stand_in, monkeypatch):
    monkeypatch.setenv("RULEGEN_PROCESSES", "1")
    other = tmp_path / "other.yaml"
    other.write_text(SAMPLE.read_text().replace("id: ", "id: other-", 1))
    result = CliRunner().invoke(app, ["build", str(SAMPLE), str(other), "--sign", str(tmp_path / "id.p12"),
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stderr.count(WARNING) == 1
    assert result.stdout.count(f"(DRAFT, signed by {SIGNER}, Test Pennsylvania Casino; ") == 2


def test_sign_without_final_still_signs_and_names_the_signer(tmp_path, monkeypatch):
    pki = make_pki(tmp_path)
    monkeypatch.setenv("RULEGEN_SIGN_PASSPHRASE", PASSPHRASE.decode())
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(SAMPLE), "--sign", str(pki["signer"]), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert WARNING in result.stderr
    line = result.stdout.splitlines()[-1]
    assert f" (DRAFT, signed by {SIGNER}, Test Pennsylvania Casino; " in line
    folder = Path(line.split(": built ")[1].split("/ (")[0])
    assert b"/ByteRange" in (folder / "rules.pdf").read_bytes()  # signed, as before
