import json
import subprocess
import sys

from typer.testing import CliRunner

from rulegen.cli import app

runner = CliRunner()
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
