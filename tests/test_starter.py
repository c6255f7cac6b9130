"""`rulegen init` and `rulegen schema`: a starter that validates as it stands, a combined schema that agrees."""

from __future__ import annotations

import itertools
import json

import jsonschema
import pytest
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.offering import load_offering
from rulegen.resources import samples_dir, schemas_dir
from rulegen.starter import OPTIONAL_WAGERS, combined_schema, jurisdiction_codes
from rulegen.validate import validate_file

CODES = ["HOUSE", "MD", "NJ", "PA"]


def test_the_jurisdictions_come_from_the_schema_files():
    assert jurisdiction_codes() == CODES


def _authorized(code: str) -> list[str]:
    return [w for w, key in OPTIONAL_WAGERS.items() if key in combined_schema(code)["properties"]]


@pytest.mark.parametrize("code", CODES)
def test_every_starter_validates_as_it_stands(tmp_path, code, math_cache):
    authorized = _authorized(code)
    assert authorized, code  # every jurisdiction offers at least one optional wager
    for count in range(len(authorized) + 1):
        for wagers in itertools.combinations(authorized, count):
            target = tmp_path / f"{code}-{'-'.join(wagers) or 'main'}.yaml"
            result = CliRunner().invoke(app, ["init", "--jurisdiction", code, "--with", ",".join(wagers),
                                              "-o", str(target)])
            assert result.exit_code == 0, result.output
            report = validate_file(target)
            assert int(report.status) == 0, [f.format() for f in report.findings]
            data = load_offering(target).data
            for wager in wagers:
                assert OPTIONAL_WAGERS[wager] in data
            text = target.read_text()
            assert text.startswith("# yaml-language-server: $schema=file://")
            assert "signoff" not in data


def test_a_starter_comments_every_field_it_writes():
    result = CliRunner().invoke(app, ["init", "-j", "NJ", "--with", "five-card-bonus,bonus-spin"])
    lines = result.stdout.splitlines()
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped and not stripped.startswith(("#", "- ")):
            assert lines[number - 1].strip().startswith("#"), f"no comment above line {number + 1}: {line}"
    assert "[N.J.A.C. 13:69E-1.13Z(e)]" in result.stdout  # the clause that governs hardware_approval


@pytest.mark.parametrize("code, wager, words", [
    ("PA", "bonus-spin", "58 Pa. Code"),
    ("NJ", "six-card-bonus", "N.J.A.C."),
])
def test_a_wager_the_jurisdiction_does_not_authorize_is_refused_with_its_clause(code, wager, words):
    result = CliRunner().invoke(app, ["init", "-j", code, "--with", wager])
    assert result.exit_code == 2
    assert words in result.stderr


def test_init_never_replaces_a_file(tmp_path):
    target = tmp_path / "offering.yaml"
    target.write_text("mine")
    result = CliRunner().invoke(app, ["init", "-j", "PA", "-o", str(target)])
    assert result.exit_code == 2 and target.read_text() == "mine"


def test_unknown_wager_and_jurisdiction():
    assert CliRunner().invoke(app, ["init", "-j", "PA", "--with", "side-bet"]).exit_code == 2
    result = CliRunner().invoke(app, ["init", "-j", "ZZ"])
    assert result.exit_code == 2 and "MD, NJ, PA" in result.stderr


def test_schema_path_is_the_installed_folder():
    result = CliRunner().invoke(app, ["schema", "--path"])
    assert result.exit_code == 0 and result.stdout.strip() == str(schemas_dir())


@pytest.mark.parametrize("code", CODES)
def test_the_combined_schema_is_one_self_contained_file_that_agrees_with_validate(code):
    result = CliRunner().invoke(app, ["schema", "--jurisdiction", code])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert "$ref\": \"offering" not in result.stdout and "\"$id\"" not in result.stdout
    validator = jsonschema.Draft202012Validator(schema)
    for sample in sorted(samples_dir().glob("*.yaml")):
        data = json.loads(json.dumps(load_offering(sample).data, default=str))  # dates and Decimals as JSON
        same = data["offering"]["jurisdiction"] == code
        errors = list(validator.iter_errors(_numbers(data)))
        assert (not errors) == same, (sample.name, [e.message for e in errors][:3])
    for wager, key in OPTIONAL_WAGERS.items():
        forbidden = wager not in _authorized(code)
        assert (key not in schema["properties"]) == forbidden


def _numbers(node):
    """The loader keeps money as Decimal; JSON Schema tools see numbers."""
    if isinstance(node, dict):
        return {k: _numbers(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_numbers(v) for v in node]
    if isinstance(node, str):
        try:
            return float(node) if "." in node and node.replace(".", "", 1).isdigit() else node
        except ValueError:
            return node
    return node


def test_a_field_constrained_by_the_jurisdiction_describes_the_rule_and_its_clause():
    schema = combined_schema("NJ")
    positions = schema["properties"]["table"]["properties"]["positions"]
    assert "six betting positions" in positions["description"]
    assert "[N.J.A.C. 13:69E-1.13Z(a)]" in positions["description"]


@pytest.mark.parametrize("code", CODES)
def test_the_shipped_combined_schemas_are_current(code):
    """Editors read schemas/combined/<code>.schema.json (the starter's first line points there)."""
    from rulegen.starter import combined_schema_path, combined_schema_text

    shipped = combined_schema_path(code).read_text(encoding="utf-8")
    assert shipped == combined_schema_text(code), (
        f"schemas/combined/{code.lower()}.schema.json is out of date: regenerate it with "
        f"`python -m rulegen schema --jurisdiction {code} > schemas/combined/{code.lower()}.schema.json`")


def test_the_readme_field_reference_is_current():
    from pathlib import Path

    from rulegen.starter import field_reference

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    start, end = "<!-- field-reference:start -->\n", "<!-- field-reference:end -->"
    shipped = readme[readme.index(start) + len(start): readme.index(end)]
    assert shipped == field_reference(), "README's field reference is out of date: regenerate it with " \
                                         "`python -m rulegen schema --reference`"


def test_init_with_xtreme_writes_a_maryland_bonus_spin_xtreme_that_validates(tmp_path, math_cache):
    for wagers in ("xtreme", "xtreme,five-card-bonus", "bonus-spin,xtreme"):
        target = tmp_path / f"md-{wagers.replace(',', '-')}.yaml"
        result = CliRunner().invoke(app, ["init", "-j", "MD", "--with", wagers, "-o", str(target)])
        assert result.exit_code == 0, result.output
        report = validate_file(target)
        assert int(report.status) == 0, [f.format() for f in report.findings]
        spin = load_offering(target).data["bonus_spin"]
        assert spin["kind"] == "xtreme" and spin["paytable"] == "A" and spin["wager"] == 5
        assert spin["top_prize"]["kind"] == "progressive" and "wheel" not in spin
        assert ("five_card_bonus" in load_offering(target).data) == ("five-card-bonus" in wagers)


@pytest.mark.parametrize("code, words", [
    ("NJ", "--with xtreme: New Jersey's Bonus Spin is the progressive Bonus Spin wager (kind: progressive) "
           "[N.J.A.C. 13:69F-40.1]"),
    ("PA", "Pennsylvania authorizes no Bonus Spin wager"),
    ("HOUSE", "the house rules offer no Bonus Spin wager"),
])
def test_xtreme_elsewhere_is_refused_in_the_texts_words(tmp_path, code, words):
    target = tmp_path / "offering.yaml"
    result = CliRunner().invoke(app, ["init", "-j", code, "--with", "xtreme", "-o", str(target)])
    assert result.exit_code == 2 and words in result.stderr
    assert not target.exists()
