import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app

runner = CliRunner()
DATA = Path(__file__).parent / "data"
BASE = ["settle", "--hole", "Js Ts", "--across", "As Ks", "--down", "9s 8s", "--middle", "Qs", "--ante", "5"]


def test_step_by_step_text():
    result = runner.invoke(app, BASE + ["--bets", "3,3,3", "--five-card-bonus", "5"])
    assert result.exit_code == 0, result.output
    assert "royal flush" in result.stdout and "straight flush, queen high" in result.stdout
    assert "Middle $15: wins 500 to 1" in result.stdout
    assert "Total: +$16,560." in result.stdout


def test_json_and_fold():
    result = runner.invoke(app, BASE + ["--bets", "1,0", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [w["wager"] for w in data["wagers"]] == ["ante_across", "ante_down", "across"]
    assert data["net"] == -15
    assert set(data["wagers"][0]) >= {"wager", "amount", "hand", "result", "net"}


def test_bad_input_exits_2():
    result = runner.invoke(app, ["settle", "--hole", "Js Js", "--across", "As Ks", "--down", "9s 8s", "--middle", "Qs",
                                 "--ante", "5"])
    assert result.exit_code == 2
    assert "Js is given twice" in result.stderr
    result = runner.invoke(app, BASE + ["--bets", "3,x"])
    assert result.exit_code == 2 and "--bets" in result.stderr
    result = runner.invoke(app, BASE + ["--bonus-spin", "5"])
    assert result.exit_code == 2 and "no Bonus Spin" in result.stderr
    result = runner.invoke(app, ["settle", "--hole", "Zz Ts", "--across", "As Ks", "--down", "9s 8s", "--middle", "Qs",
                                 "--ante", "5"])
    assert result.exit_code == 2 and "'Zz' is not a card" in result.stderr


def test_offering_tables(tmp_path):
    from rulegen.resources import samples_dir

    sample = samples_dir() / "house-six-card-bonus.yaml"
    result = runner.invoke(app, BASE + ["--bets", "3,3,3", "--five-card-bonus", "2", "--six-card", "2c 3d 4h 5s",
                                        "--offering", str(sample), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    wagers = {w["wager"]: w for w in data["wagers"]}
    assert wagers["across"]["net"] == 15 * 250  # the house table pays a royal flush 250 to 1
    assert wagers["payout_limit"]["net"] < 0  # the $3,000 aggregate cap


def test_subprocess_run():
    completed = subprocess.run([sys.executable, "-m", "rulegen"] + BASE + ["--bets", "1,1,1"], capture_output=True,
                               text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert "Total:" in completed.stdout


@pytest.mark.parametrize("extra, words", [
    (["--ante", "1e26"], "--ante is '1e26'"),
    (["--ante", "5.555"], "--ante is '5.555'"),
    (["--ante", "2000000000"], "below $1,000,000,000"),
    (["--ante", "5", "--bonus-spin", "5", "--wheel", "1e999999"], "--wheel is '1e999999'"),
])
def test_amounts_are_judged_on_their_text_before_any_arithmetic(extra, words):
    arguments = BASE[:-2] if "--ante" in extra[:1] else list(BASE)
    extra = extra if "--ante" in extra[:1] else extra[2:]
    result = CliRunner().invoke(app, arguments + extra + ["--bets", "1,1,1"])
    assert result.exit_code == 2, result.output
    assert words in result.output


def test_an_offering_that_does_not_validate_is_not_settled_under(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((DATA / "correct_pa.yaml").read_text().replace("positions: 6", "positions: 60"))
    result = CliRunner().invoke(app, BASE + ["--bets", "1,1,1", "--offering", str(bad)])
    assert result.exit_code == 1
    assert "table.positions" in result.output and "does not validate" in result.output
