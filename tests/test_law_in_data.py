"""The law lives in the jurisdiction data, not in Python: no string of rulegen/ cites a jurisdiction's text, the
notes of a settlement are its own jurisdiction's readings, and the standard game is read from the data."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.jurisdiction import JurisdictionDataError, codes, load_jurisdiction
from rulegen.resources import samples_dir

PACKAGE = Path(__file__).resolve().parent.parent / "rulegen"
runner = CliRunner()


def _prefixes() -> list[str]:
    return [load_jurisdiction(code).data["document"]["citation_prefix"] + " " for code in codes()]


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body \
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            found.add(id(body[0].value))
    return found


def test_no_string_of_the_code_cites_a_jurisdictions_text():
    """A reading, a note or a table a document or a command prints comes from the data; comments and docstrings
    may cite the clause a rule follows."""
    prefixes = _prefixes()
    assert "N.J.A.C. " in prefixes and "58 Pa. Code " in prefixes  # the scan looks for real citation forms
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                found += [f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value[:80]!r}"
                          for prefix in prefixes if prefix in node.value]
    assert not found, "\n".join(found)


def _settle(*extra: str) -> list[str]:
    result = runner.invoke(app, ["settle", "--hole", "Js Jh", "--across", "2c 3d", "--down", "9s 8s", "--middle",
                                 "Kd", "--ante", "5", "--format", "json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["notes"]


@pytest.mark.parametrize("sample, symbol", [("md-progressive.yaml", "250"), ("nj-bonus-spin.yaml", "250")])
@pytest.mark.parametrize("bets", ["3,3,3", "1,0"])
def test_a_settlements_notes_are_its_own_jurisdictions_readings(sample, symbol, bets):
    path = samples_dir() / sample
    code = "MD" if sample.startswith("md") else "NJ"
    notes = _settle("--bets", bets, "--bonus-spin", "5", "--wheel", symbol, "--offering", str(path))
    data = load_jurisdiction(code).data
    own = {entry["reading"] for entry in data["readings"]}
    own |= {data["bonus_spin"]["progressive"]["wager_on_win"]["reading"]}
    assert notes and set(notes) <= own, set(notes) - own
    other = "N.J.A.C. " if code == "MD" else "MLGCA "
    assert not any(other in note for note in notes), notes
    # the reading of how a spin is paid is carried whenever a Bonus Spin wager is settled
    assert data["bonus_spin"]["progressive"]["wager_on_win"]["reading"] in notes


def test_the_standard_game_is_the_data_of_the_jurisdictions_it_names():
    from rulegen.game import Paytable
    from rulegen.jurisdiction import standard_game
    from rulegen.resolved import standard_rules

    standard, rules = standard_game(), standard_rules()
    assert len(standard.jurisdictions) >= 2
    for code in standard.jurisdictions:
        jurisdiction = load_jurisdiction(code)
        for kind in standard.paytables:
            table = Paytable.from_mapping(jurisdiction.paytable(kind, "standard").value)
            assert getattr(rules, kind) == table
    assert _settle("--bets", "3,3,3") == list(standard.readings)


def _data_folder(tmp_path: Path, **changes) -> Path:
    from ruamel.yaml import YAML

    from rulegen.resources import data_root

    source = data_root() / "jurisdictions" / "common" / "standard.yaml"
    yaml = YAML(typ="safe")
    data = yaml.load(source.read_text(encoding="utf-8"))
    data.update(changes)
    folder = tmp_path / "jurisdictions" / "common"
    folder.mkdir(parents=True)
    with (folder / "standard.yaml").open("w", encoding="utf-8") as stream:
        yaml.dump(data, stream)
    return tmp_path


def test_standard_tables_that_disagree_are_refused(tmp_path, monkeypatch):
    from rulegen.resolved import standard_rules

    monkeypatch.setenv("RULEGEN_DATA_PATH", str(_data_folder(tmp_path, jurisdictions=["MD", "HOUSE"])))
    with pytest.raises(JurisdictionDataError, match="authorizes no criss_cross table named standard"):
        standard_rules()


def test_a_standard_game_file_out_of_its_format_is_refused(tmp_path, monkeypatch):
    from rulegen.resolved import standard_rules

    monkeypatch.setenv("RULEGEN_DATA_PATH", str(_data_folder(tmp_path, paytables=["ante"])))
    with pytest.raises(JurisdictionDataError, match="schemas/common/standard.schema.json"):
        standard_rules()
