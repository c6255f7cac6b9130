"""Broken and hostile offerings: each gets its exact verdict, one clear message, and never a traceback."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

HOSTILE = Path(__file__).parent / "data" / "hostile"

# file -> (exit status, words the first error or warning must carry)
VERDICTS = {
    "syntax_error.yaml": (2, "YAML syntax error"),
    "empty.yaml": (2, "empty"),
    "only_comments.yaml": (2, "holds no data"),
    "not_utf8.yaml": (2, "not UTF-8"),
    "bom_utf8.yaml": (0, ""),
    "bom_utf16.yaml": (2, "UTF-16"),
    "list_top.yaml": (2, "top level is a list"),
    "scalar_top.yaml": (2, "top level is a single value"),
    "duplicate_keys.yaml": (1, "duplicate key 'positions'"),
    "alias_bomb.yaml": (2, "anchors"),
    "reused_anchor.yaml": (2, "anchors"),
    "nesting_deep.yaml": (2, "nested more than 32"),
    "nesting_block_deep.yaml": (2, "nested more than 32"),
    "number_huge.yaml": (1, "limits.ante.maximum"),
    "number_nan.yaml": (1, "finite"),
    "number_infinite.yaml": (1, "finite"),
    "number_negative_zero.yaml": (1, "limits.ante.minimum"),
    "string_200000.yaml": (2, "200,000 characters"),
    "markup_in_names.yaml": (0, "printed exactly as written"),
    "logo_outside.yaml": (1, "outside the offering file's folder"),
    "logo_absolute.yaml": (1, "not absolute"),
    "logo_url.yaml": (1, "not a URL"),
    "logo_file_url.yaml": (1, "not a URL"),
    "logo_not_image.yaml": (1, "not a PNG image"),
    "control_characters.yaml": (2, "special characters"),
    "nul_bytes.yaml": (2, "special characters"),
    "python_tag.yaml": (2, "!!python/object/apply:os.system"),
    "two_documents.yaml": (2, "more than one YAML document"),
    "wrong_types.yaml": (1, "table.positions is 'six'"),
    "unprintable_name.yaml": (1, "U+202E right-to-left override"),
    "number_exponent_ante.yaml": (1, "limits.ante.minimum is 1e999999"),
    "money_many_digits.yaml": (1, "payout_limit.amount is 50000.0000000000000000000000001"),
    "deck_hours_tiny.yaml": (1, "cards.deck_change_hours is 1e-999999"),
    "wheel_symbol_exponent.yaml": (1, "bonus_spin.wheel[4].symbol is '1e999999'"),
    "surrogate_key.yaml": (2, "a key in table holds an unpaired surrogate"),
    "line_separator_in_comment.yaml": (2, "U+2028 line separator"),
    "date_before_1980.yaml": (1, "offering.effective_date is 1960-06-01; an effective date lies between 1980-01-01"),
    "date_year_one.yaml": (1, "offering.effective_date is 0001-01-01"),
    "id_newline.yaml": (1, "offering.id is 'test-pa\\n'"),
    "logo_dotdot_inside.yaml": (1, "'..' step"),
    "logo_backslash.yaml": (1, "backslash"),
    "logo_drive.yaml": (1, "a drive"),
    "logo_svg_use_bomb.yaml": (1, "more than 20,000 elements once its <use> references are expanded"),
    "logo_svg_script.yaml": (1, "<script>"),
    "logo_svg_cross_file.yaml": (1, "refer only to parts of itself"),
    "logo_png_truncated.yaml": (1, "does not decode completely"),
}
ASSETS = [p for p in HOSTILE.iterdir() if p.suffix in (".png", ".svg")]  # the logos the corpus names

# Files the loader refuses with exit 1 (the offering is wrong, not unreadable): diff cannot compare them either.
REFUSED_AT_LOAD = {"duplicate_keys.yaml", "number_huge.yaml", "number_exponent_ante.yaml", "money_many_digits.yaml",
                   "deck_hours_tiny.yaml"}


def test_the_corpus_and_the_verdicts_match():
    assert {p.name for p in HOSTILE.glob("*.yaml")} == set(VERDICTS)


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_verdict(name):
    status, words = VERDICTS[name]
    result = CliRunner().invoke(app, ["validate", str(HOSTILE / name), "--format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == status, result.stdout
    document = json.loads(result.stdout)
    findings = document["files"][0]["findings"]
    if status:
        assert findings and findings[0]["line"] >= 1 and findings[0]["column"] >= 1
    if words:
        assert any(words in f["message"] for f in findings), findings
    assert "Traceback" not in result.stdout


def test_logo_symlink_out_of_the_folder_is_refused(tmp_path):
    folder = tmp_path / "offering"
    folder.mkdir()
    shutil.copy(HOSTILE.parent / "correct_pa.yaml", folder / "pa.yaml")
    text = (folder / "pa.yaml").read_text().replace(
        "    licence: Certificate holder 1234\n", "    licence: Certificate holder 1234\n    logo: logo.png\n")
    (folder / "pa.yaml").write_text(text)
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 32)
    os.symlink(secret, folder / "logo.png")
    result = CliRunner().invoke(app, ["validate", str(folder / "pa.yaml")])
    assert result.exit_code == 1
    assert "symbolic link" in result.stdout


def test_a_folder_with_hostile_files_among_valid_ones_reports_each_and_goes_on(tmp_path):
    for name in VERDICTS:
        shutil.copy(HOSTILE / name, tmp_path / name)
    for asset in ASSETS:
        shutil.copy(asset, tmp_path)
    for code in ("md", "nj", "pa", "house"):
        shutil.copy(HOSTILE.parent / f"correct_{code}.yaml", tmp_path / f"correct_{code}.yaml")
    result = CliRunner().invoke(app, ["validate", str(tmp_path), "--format", "json"])
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    statuses = {Path(f["path"]).name: f["status"] for f in document["files"]}
    assert len(statuses) == len(VERDICTS) + 4
    for name, (status, _words) in VERDICTS.items():
        assert statuses[name] == status, name
    for code in ("md", "nj", "pa", "house"):
        assert statuses[f"correct_{code}.yaml"] == 0


@pytest.mark.parametrize("name", ["alias_bomb.yaml", "not_utf8.yaml", "syntax_error.yaml"])
def test_a_real_process_prints_no_traceback(name):
    exe = Path(sys.executable).parent / "rulegen"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]
    # The timeout only catches a hang; how fast each answer comes is measured by the benchmark.
    result = subprocess.run(command + ["validate", str(HOSTILE / name)], capture_output=True, text=True, timeout=120)
    assert result.returncode == VERDICTS[name][0]
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.startswith(str(HOSTILE / name) + ":")


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_every_command_answers_each_hostile_file_without_a_traceback(tmp_path, math_cache, name):
    """math, signage and build give the verdict validate gives (exit 0, 1 or 2) and write nothing on failure."""
    status, _words = VERDICTS[name]
    folder = tmp_path / "offering"
    folder.mkdir()
    shutil.copy(HOSTILE / name, folder / name)
    for asset in ASSETS:
        shutil.copy(asset, folder)
    out = tmp_path / "out"
    commands = {
        "math": ["math", str(folder / name), "--json"],
        "signage": ["signage", str(folder / name), "-o", str(out / "sign.pdf")],
        "build": ["build", str(folder / name), "--out", str(out)],
    }
    for command, arguments in commands.items():
        result = CliRunner().invoke(app, arguments)
        assert result.exception is None or isinstance(result.exception, SystemExit), (command, result.exception)
        assert result.exit_code == status, (command, result.stdout, result.stderr)
        assert "Traceback" not in result.stdout + result.stderr, command
        if status:
            assert not out.exists() or not any(out.iterdir()), command
            lines = (result.stdout + result.stderr).splitlines()
            assert any(line.startswith(f"{folder / name}:") for line in lines), (command, lines)  # FILE:LINE:COL
            wrapped = re.compile(re.escape(f"rulegen: error: {folder / name}:") + r"\d+:\d+:")
            assert not any(wrapped.match(line) for line in lines), (command, lines)  # a finding is never wrapped
    # diff describes revisions and compares whatever loads, valid or not; a file that cannot be loaded is refused
    result = CliRunner().invoke(app, ["diff", str(HOSTILE.parent / "correct_pa.yaml"), str(folder / name)])
    assert result.exception is None or isinstance(result.exception, SystemExit), ("diff", result.exception)
    assert result.exit_code == (status if status == 2 or name in REFUSED_AT_LOAD else 0), result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_a_fifo_or_a_device_as_the_offering_is_refused_at_once(tmp_path):
    fifo = tmp_path / "offering.yaml"
    os.mkfifo(fifo)
    for target in (fifo, Path("/dev/zero")):
        result = CliRunner().invoke(app, ["validate", str(target)])
        assert result.exit_code == 2, result.stdout
        assert "not a regular file" in result.stdout
    # a folder holding a FIFO among its YAML files: the FIFO is reported, the others still checked
    shutil.copy(HOSTILE.parent / "correct_pa.yaml", tmp_path / "pa.yaml")
    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert "not a regular file" in result.stdout and "pa.yaml" in result.stdout


def test_a_mebibyte_of_keys_is_answered_at_the_limit(tmp_path):
    """100,000 keys in one mapping: refused at the 257th, not walked."""
    text = "schema_version: 1\ntable:\n" + "".join(f"  k{i}: 1\n" for i in range(100_000))
    (tmp_path / "keys.yaml").write_text(text[: (1 << 20) - 1])
    result = CliRunner().invoke(app, ["validate", str(tmp_path / "keys.yaml")])
    assert result.exit_code == 2
    assert "table holds more than 256 keys" in result.stdout
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{tmp_path / 'keys.yaml'}:259:3:")


def test_a_logo_swapped_after_it_is_read_is_not_what_the_filing_carries(tmp_path, math_cache, monkeypatch):
    """The race of a link swapped between the checks and the attachment: the logo is read once, so the swap,
    made here by a hook right after the read, reaches nothing the build writes."""
    import rulegen.logo as logo_module
    from rulegen.filing.pdf import embedded_files, open_reader

    folder = tmp_path / "offering"
    folder.mkdir()
    text = (HOSTILE.parent / "correct_pa.yaml").read_text().replace(
        "    licence: Certificate holder 1234\n", "    licence: Certificate holder 1234\n    logo: logo.png\n")
    (folder / "pa.yaml").write_text(text)
    genuine = (HOSTILE / "logo-ok.png").read_bytes()
    (folder / "logo.png").write_bytes(genuine)
    secret = tmp_path / "secret.png"
    secret.write_bytes(genuine[:-12] + b"SECRET-BYTES")
    check = logo_module.check_logo

    def swap_then_check(name, data):
        (folder / "logo.png").unlink()
        os.symlink(secret, folder / "logo.png")
        return check(name, data)

    monkeypatch.setattr(logo_module, "check_logo", swap_then_check)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(folder / "pa.yaml"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    built = next(out.iterdir())
    attached = {f.name: f.data for f in embedded_files(open_reader((built / "rules.pdf").read_bytes()))}
    assert attached["logo.png"] == genuine
    manifest = json.loads((built / "manifest.json").read_text())
    assert manifest["logo"]["sha256"] == __import__("hashlib").sha256(genuine).hexdigest()
    for output in built.iterdir():
        assert b"SECRET-BYTES" not in output.read_bytes(), output.name


def _signed_sample() -> Path:
    from rulegen.resources import samples_dir

    return samples_dir() / "pa-five-card-bonus.yaml"


def test_a_fifo_as_previous_revision_offering_or_identity_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    sample = HOSTILE.parent / "correct_pa.yaml"
    base = ["settle", "--hole", "Js Ts", "--across", "As Ks", "--down", "9s 8s", "--middle", "Qs", "--ante", "5"]
    for arguments in (["diff", str(fifo), str(sample)], ["diff", str(sample), str(fifo)],
                      ["build", str(sample), "--previous", str(fifo), "--out", str(tmp_path / "out")],
                      base + ["--offering", str(fifo)],
                      ["build", str(_signed_sample()), "--final", "--sign", str(fifo), "--out", str(tmp_path / "out")]):
        result = CliRunner().invoke(app, arguments)
        assert result.exit_code in (1, 2), (arguments, result.output)
        assert "named pipe" in result.output or "not a regular file" in result.output, (arguments, result.output)
        assert "Traceback" not in result.output
