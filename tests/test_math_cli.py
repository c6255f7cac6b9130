import json
import math
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app

runner = CliRunner()


def sample(name):
    from rulegen.resources import samples_dir

    return str(samples_dir() / name)


def test_json_keys_pa():
    result = runner.invoke(app, ["math", sample("pa-five-card-bonus.yaml"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    main = data["main_game"]
    for key in ("house_edge_per_ante", "house_edge_per_initial_wager", "element_of_risk", "average_total_wager",
                "hit_frequency", "standard_deviation", "across_decision"):
        assert isinstance(main[key], (int, float, dict)), key
    assert len(main["across_decision"]) == 169
    assert set(main["across_decision"].values()) <= {"fold", "1x", "2x", "3x"}
    assert main["house_edge_per_initial_wager"] == pytest.approx(main["house_edge_per_ante"] / 2)
    assert 0 < data["five_card_bonus"]["house_edge"] < 0.1
    assert data["six_card_bonus"] is None and data["bonus_spin"] is None
    # PA's limit does not cover the Five Card Bonus: the main game alone at the $5 minimum (sample's minimum)
    assert data["max_win_per_round_at_minimum"] == data["max_win"]["amount"]
    # money is an exact decimal numeral: 3 x (500 + 100 + 500) + 2 antes = 3,302 antes at the $5 minimum
    exact = json.loads(result.stdout, parse_float=Decimal)
    assert exact["max_win_per_round_at_minimum"] == 3302 * 5
    assert '"max_win_per_round_at_minimum": 16510,' in result.stdout
    assert data["max_win"]["detail"]["cards"]
    assert main["monte_carlo"]["covers_exact"]


def test_text_tables():
    result = runner.invoke(app, ["math", sample("pa-five-card-bonus.yaml")])
    assert result.exit_code == 0, result.output
    assert "house edge per ante" in result.stdout and "Maximum win per round" in result.stdout


def test_no_cache_is_passed_through(monkeypatch):
    from rulegen.math import report

    seen = []
    real = report.math_report

    def spy(*args, **kwargs):
        seen.append(kwargs["use_cache"])
        return real(*args, **{**kwargs, "use_cache": True})  # the figures from the warm cache; the flag is what counts

    monkeypatch.setattr(report, "math_report", spy)
    result = runner.invoke(app, ["math", sample("pa-five-card-bonus.yaml"), "--json", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert seen == [False]


def test_house_sample():
    result = runner.invoke(app, ["math", sample("house-six-card-bonus.yaml"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["six_card_bonus"]["house_edge"] > 0
    assert data["payout_cap"]["amount"] == 3000
    assert [row["which"] for row in data["payout_cap"]["at"]] == ["minimum", "maximum"]
    # The cap on each bonus by itself, against counting by hand: the $3,000 cap binds on a 6 Card Bonus only on a
    # royal flush at $10 (1,000 to 1, $10,000; a straight flush pays $2,000); a six-card set holds a royal flush in
    # 4 x 47 ways of C(52, 6), and each such set loses $7,000 to the cap. The 5 Card Bonus never reaches it.
    rows = {(row["wager"], row["which"]): row for row in data["payout_cap"]["bonuses"]}
    assert set(rows) == {(w, m) for w in ("five_card_bonus", "six_card_bonus") for m in ("minimum", "maximum")}
    sets = math.comb(52, 6)
    assert rows["six_card_bonus", "maximum"]["probability_cap_binds"] == pytest.approx(4 * 47 / sets, rel=1e-12)
    assert rows["six_card_bonus", "maximum"]["ev_removed_per_wager_dollars"] == pytest.approx(4 * 47 * 7000 / sets)
    assert rows["six_card_bonus", "maximum"]["house_edge_with_cap"] == pytest.approx(
        data["six_card_bonus"]["house_edge"] + 4 * 47 * 700 / sets)
    for key in (("six_card_bonus", "minimum"), ("five_card_bonus", "minimum"), ("five_card_bonus", "maximum")):
        assert rows[key]["probability_cap_binds"] == 0 and rows[key]["ev_removed_per_wager_dollars"] == 0


def test_bonus_spin_sample_without_weights():
    result = runner.invoke(app, ["math", sample("nj-bonus-spin.yaml"), "--json"])
    assert result.exit_code == 0, result.output
    spin = json.loads(result.stdout)["bonus_spin"]
    assert spin["trigger_probability"] == pytest.approx(78 / 1326)
    if not spin["weights_given"]:
        assert spin["return_per_wager"] is None and spin["break_even_mean_prize"] > 0


def test_missing_file_exits_2(tmp_path):
    result = runner.invoke(app, ["math", str(tmp_path / "none.yaml")])
    assert result.exit_code == 2


def test_invalid_offering_exits_1(tmp_path):
    from rulegen.resources import samples_dir

    text = (samples_dir() / "pa-five-card-bonus.yaml").read_text()
    assert "positions: 6" in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("positions: 6", "positions: 9"))
    result = runner.invoke(app, ["math", str(bad), "--json"])
    assert result.exit_code == 1
    # the findings print as validate prints them (FILE:LINE:COL on standard output); the summary on stderr
    assert result.stdout.startswith(f"{bad}:") and "table.positions" in result.stdout
    assert "fix them before computing its math" in result.stderr


def test_not_yaml_exits_2(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [")
    result = runner.invoke(app, ["math", str(broken)])
    assert result.exit_code == 2


def test_the_md_ante_table_as_written_is_given_for_the_regulator(tmp_path):
    """Maryland's §A pays every winning wager from one table; the operator's own ante table departs from it
    (`as_written` in the data). The report gives the main game's figures with the antes paid from the Criss Cross
    table on every row, the way the analysis computes any table, and only where the data marks the departure: the
    sample, which pays the antes as written, has none."""
    from dataclasses import replace

    from rulegen.math.main_game import analyse_main_game
    from rulegen.offering import load_offering
    from rulegen.resolved import resolve

    source = Path(sample("md-progressive.yaml")).read_text(encoding="utf-8")
    assert "  ante: as_written" in source
    own = tmp_path / "md-own-ante.yaml"
    own.write_text(source.replace("  ante: as_written", "  ante: standard", 1), encoding="utf-8")
    result = runner.invoke(app, ["math", str(own), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    written = data["ante_as_written"]
    rules = resolve(load_offering(own)).game_rules
    literal = analyse_main_game(replace(rules, ante=rules.criss_cross))
    assert written["table"] == "criss_cross" and written["house_edge_per_ante"] == literal.house_edge_per_ante
    # the antes' higher rows can only help the player: the edge falls, here below zero
    assert written["house_edge_per_ante"] < 0 < data["main_game"]["house_edge_per_ante"]
    assert written["house_edge_per_initial_wager"] == pytest.approx(written["house_edge_per_ante"] / 2)
    for other in ("md-progressive.yaml", "pa-five-card-bonus.yaml", "nj-bonus-spin.yaml", "house-six-card-bonus.yaml"):
        out = runner.invoke(app, ["math", sample(other), "--json"])
        assert json.loads(out.stdout)["ante_as_written"] is None
