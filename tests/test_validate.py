"""Validation: each constraint of the checklist, broken once, gives an error at the offending line with the
citation of the rule broken; the valid offerings pass."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.findings import dotted
from rulegen.offering import load_offering
from rulegen.resources import samples_dir
from rulegen.validate import validate_file

DATA = Path(__file__).parent / "data"
DELETE = object()
MD = "MLGCA Criss Cross Poker Standard Rules, "
NJ = "N.J.A.C. "
PA = "58 Pa. Code § "


def mutated(tmp_path: Path, base: str, changes: dict) -> Path:
    """A copy of tests/data/correct_<base>.yaml with `changes` applied ({node path: value | DELETE})."""
    yaml = YAML(typ="rt")
    data = yaml.load((DATA / f"correct_{base}.yaml").read_text())
    for node, value in changes.items():
        parent = data
        for key in node[:-1]:
            if key not in parent:
                parent[key] = {}
            parent = parent[key]
        if value is DELETE:
            del parent[node[-1]]
        else:
            parent[node[-1]] = value
    out = io.StringIO()
    yaml.dump(data, out)
    path = tmp_path / f"{base}.yaml"
    path.write_text(out.getvalue())
    return path


def expect(path: Path, node: tuple, citation: str, level: str = "error", words: str = "", key: bool = False):
    """A finding about exactly `node` (its `field` is the node's full dotted path, named in the message), at the
    node's line (its value or key; for a missing node, its parent's key), citing `citation`."""
    report = validate_file(path)
    offering = load_offering(path)
    present = node
    while present and present not in offering.positions:
        present = present[:-1]
    places = {offering.locate(present, key=key), offering.locate(present, key=True), offering.locate(present)}
    matches = [f for f in report.findings if f.level == level and (f.citation or "").startswith(citation)
               and words in f.message and f.field == (dotted(node) or None)]
    assert all(f.field in f.message for f in matches if f.field)
    assert matches, "\n".join(f.format() for f in report.findings) or "no findings"
    assert any((f.line, f.column) in places for f in matches), (
        f"expected at {places}:\n" + "\n".join(f.format() for f in matches))
    return report


@pytest.mark.parametrize("base", ["md", "nj", "pa", "house"])
def test_correct_offerings_have_no_errors(base):
    report = validate_file(DATA / f"correct_{base}.yaml")
    assert report.status == 0, "\n".join(f.format() for f in report.findings)


def test_bundled_samples_are_valid():
    samples = sorted(samples_dir().glob("*.yaml"))
    assert {load_offering(p).data["offering"]["jurisdiction"] for p in samples} == {"MD", "NJ", "PA", "HOUSE"}
    for path in samples:
        report = validate_file(path)
        assert report.status == 0, "\n".join(f.format() for f in report.findings)


CASES = [
    # positions
    ("md", {("table", "positions"): 7}, ("table", "positions"), MD + "Chapter 2 §A"),
    ("nj", {("table", "positions"): 5}, ("table", "positions"), NJ + "13:69E-1.13Z(a)"),
    ("pa", {("table", "positions"): 7}, ("table", "positions"), PA + "674a.2(a)"),
    # payout odds shown on the layout or a sign
    ("md", {("table", "payout_odds_display"): DELETE}, ("table", "payout_odds_display"), MD + "Chapter 2 §B(5)"),
    ("nj", {("table", "payout_odds_display"): DELETE}, ("table", "payout_odds_display"), NJ + "13:69E-1.13Z(b)4"),
    ("pa", {("table", "payout_odds_display"): DELETE}, ("table", "payout_odds_display"), PA + "674a.2(b)(5)"),
    ("pa", {("table", "payout_odds_display"): "menu"}, ("table", "payout_odds_display"), "offering format"),
    # PA payout limit shown
    ("pa", {("table", "payout_limit_display"): DELETE}, ("table", "payout_limit_display"), PA + "674a.2(b)(6)"),
    # Bonus Spin hardware
    ("nj", {("bonus_spin", "hardware_approval"): DELETE}, ("bonus_spin", "hardware_approval"), NJ + "13:69E-1.13Z(e)"),
    ("nj", {("bonus_spin", "hardware_approval"): "MO-1"}, ("bonus_spin", "hardware_approval"), NJ + "13:69E-1.13Z(e)"),
    # decks
    ("md", {("cards", "shuffling"): "manual"}, ("cards", "shuffling"), MD + "Chapter 3 §B"),
    ("nj", {("cards", "decks"): 2, ("cards", "back_colours"): ["red", "blue"]}, ("cards", "shuffling"), NJ + "13:69F-40.2(a)"),
    ("pa", {("cards", "decks"): 2, ("cards", "back_colours"): ["red", "red"]}, ("cards", "back_colours", 1), PA + "674a.3(b)"),
    ("md", {("cards", "back_colours"): ["blue", "Blue"]}, ("cards", "back_colours", 1), MD + "Chapter 3 §B"),
    ("house", {("cards", "shuffling"): "manual", ("cards", "dealing"): "manual-shoe"}, ("cards", "shuffling"), "House rules, Equipment"),
    # deck changes
    ("md", {("cards", "deck_change_hours"): 9}, ("cards", "deck_change_hours"), MD + "Chapter 3 §C"),
    ("pa", {("cards", "deck_change_hours"): 5}, ("cards", "deck_change_hours"), PA + "674a.3(c)"),
    # dealing from the hand needs an automated shuffler
    ("md", {("cards", "dealing"): "hand", ("cards", "deck_change_hours"): 4, ("cards", "decks"): 1,
            ("cards", "back_colours"): ["red"], ("cards", "shuffling"): "manual"}, ("cards", "shuffling"), MD + "Chapter 9 §A(1)"),
    ("nj", {("cards", "dealing"): "hand"}, ("cards", "shuffling"), NJ + "13:69F-40.8(b)1"),
    ("pa", {("cards", "shuffling"): "manual"}, ("cards", "shuffling"), PA + "674a.9(a)(1)"),
    # limits
    ("md", {("limits", "ante", "minimum"): 200}, ("limits", "ante", "minimum"), "offering format"),
    ("md", {("limits", "ante", "minimum"): 5.555}, ("limits", "ante", "minimum"), "offering format"),
    ("md", {("limits", "ante", "minimum"): -5}, ("limits", "ante", "minimum"), "offering format"),
    ("house", {("limits", "ante", "maximum"): 25}, ("limits", "ante", "maximum"), "House rules, Game and Bonus wagers"),
    # paytables
    ("md", {("paytables", "criss_cross"): "generous"}, ("paytables", "criss_cross"), MD + "Chapter 12 §A"),
    ("nj", {("paytables", "criss_cross"): {"royal_flush": 1000, "straight_flush": 100}}, ("paytables", "criss_cross", "royal_flush"), NJ + "13:69F-40.11"),
    ("pa", {("paytables", "criss_cross", "full_house"): 15}, ("paytables", "criss_cross", "full_house"), PA + "674a.12(b)"),
    ("pa", {("paytables", "ante"): {"pair_jacks_or_better": 2, "pair_sixes_through_tens": "push"}}, ("paytables", "ante", "pair_jacks_or_better"), PA + "674a.12(a)"),
    ("nj", {("paytables", "ante"): {"pair_sixes_or_better": 1}}, ("paytables", "ante", "pair_sixes_or_better"), NJ + "13:69F-40.11(a)"),
    ("md", {("five_card_bonus", "paytable"): {"royal_flush": 250}}, ("five_card_bonus", "paytable", "flush"), MD + "Chapter 12 §C"),
    ("nj", {("five_card_bonus", "paytable"): "big"}, ("five_card_bonus", "paytable"), NJ + "13:69F-40.11(b)"),
    ("pa", {("five_card_bonus", "paytable"): {"royal_flush": 250, "straight_flush": 100, "four_of_a_kind": 40,
             "full_house": 15, "flush": 10, "straight": 6, "three_of_a_kind": 4, "two_pair": 3,
             "pair_sixes_or_better": 2}}, ("five_card_bonus", "paytable", "pair_sixes_or_better"), PA + "674a.12(c)"),
    ("house", {("paytables", "criss_cross", "flush"): 12}, ("paytables", "criss_cross", "flush"), "House rules, Pay Tables"),
    ("house", {("six_card_bonus", "paytable", "straight"): 30}, ("six_card_bonus", "paytable", "straight"), "House rules, Pay Tables"),
    # Bonus Spin
    ("md", {("bonus_spin", "wager"): 1}, ("bonus_spin", "wager"), MD + "Chapter 7 §E(2)(b)"),
    ("md", {("bonus_spin", "paytable"): "E"}, ("bonus_spin", "paytable"), MD + "Chapter 12 §D"),
    ("md", {("bonus_spin", "trigger"): "suited_hole_cards"}, ("bonus_spin", "trigger"), MD + "Chapter 7 §E(2)(b)"),
    ("md", {("bonus_spin", "top_prize", "initial"): 4000}, ("bonus_spin", "top_prize", "initial"), MD + "Chapter 12 §D(6)"),
    ("md", {("bonus_spin", "top_prize", "rate_of_progression_percent"): DELETE}, ("bonus_spin", "top_prize", "rate_of_progression_percent"), MD + "Chapter 12 §D(6)(a)"),
    ("md", {("bonus_spin", "kind"): "xtreme", ("bonus_spin", "wager"): 3, ("bonus_spin", "paytable"): "B",
            ("bonus_spin", "community_pay"): "B"}, ("bonus_spin", "wager"), MD + "Chapter 7 §E(2)(c)"),
    ("md", {("bonus_spin", "kind"): "xtreme", ("bonus_spin", "wager"): 2, ("bonus_spin", "paytable"): "B",
            ("bonus_spin", "community_pay"): "B", ("bonus_spin", "trigger"): DELETE}, ("bonus_spin", "trigger"), MD + "Chapter 7 §E(2)(c)"),
    ("nj", {("bonus_spin", "wager"): 1}, ("bonus_spin", "wager"), NJ + "13:69F-40.11(c)"),
    ("nj", {("bonus_spin", "paytable"): 6}, ("bonus_spin", "paytable"), NJ + "13:69F-40.11(c)"),
    ("pa", {("bonus_spin",): {"kind": "progressive", "wager": 5, "paytable": "A", "top_prize": {"kind": "fixed"}}},
     ("bonus_spin",), PA + "674a.7(e)"),
    # PA adjacent boxes
    ("pa", {("limits", "adjacent_boxes"): DELETE}, ("limits", "adjacent_boxes"), PA + "674a.7(g)"),
    # Six Card Bonus: HOUSE only, and it requires the Five Card Bonus
    ("md", {("six_card_bonus",): {"paytable": {"royal_flush": 1000}}}, ("six_card_bonus",), MD + "Chapter 7 §E(2)"),
    ("house", {("five_card_bonus",): DELETE}, ("five_card_bonus",), "House rules, 6 Card Bonus Wager"),
    # payout limit
    ("nj", {("payout_limit", "amount"): 40000}, ("payout_limit", "amount"), NJ + "13:69F-40.11(d)"),
    ("md", {("payout_limit", "amount"): 60000}, ("payout_limit", "amount"), MD + "Chapter 12 §B"),
    ("pa", {("payout_limit", "amount"): 25000}, ("payout_limit", "amount"), PA + "674a.12(d)"),
]


@pytest.mark.parametrize("base, changes, node, citation", CASES,
                         ids=[f"{c[0]}-{'-'.join(map(str, next(iter(c[1]))))}-{i}" for i, c in enumerate(CASES)])
def test_each_broken_rule_is_an_error_at_its_line_with_its_citation(tmp_path, base, changes, node, citation):
    report = expect(mutated(tmp_path, base, changes), node, citation, key=True)
    assert report.status == 1


@pytest.mark.parametrize("base, changes", [
    ("md", {("cards", "deck_change_hours"): DELETE}),  # Chapter 3 §C fixes the interval: the documents print it
    ("pa", {("cards", "deck_change_hours"): DELETE}),  # § 674a.3(c) likewise
    ("md", {("table", "payout_limit_display"): DELETE}),  # Maryland sets no rule on where the limit is shown
    ("nj", {("payout_limit",): DELETE}),  # 40.11(d) sets the limit itself: the documents print the figure
    ("nj", {("bonus_spin", "paytable"): "4", ("bonus_spin", "wager"): 1,
            ("bonus_spin", "top_prize"): {"kind": "merchandise", "initial": 5000, "description": "A motorcycle"}}),
])
def test_what_the_text_settles_itself_is_not_refused(tmp_path, base, changes):
    report = validate_file(mutated(tmp_path, base, changes))
    assert report.status == 0, "\n".join(f.format() for f in report.findings)


def test_a_new_jersey_limit_left_out_is_the_figure_the_rule_sets(tmp_path):
    report = validate_file(mutated(tmp_path, "nj", {("payout_limit",): DELETE}))
    [note] = [f for f in report.findings if f.rule.endswith("limit-by-rule")]
    assert note.level == "note" and "$50,000" in note.message and note.citation == NJ + "13:69F-40.11(d)"


def test_a_new_jersey_table_without_the_five_card_bonus_is_refused(tmp_path):
    report = expect(mutated(tmp_path, "nj", {("five_card_bonus",): DELETE}), ("five_card_bonus",),
                    NJ + "13:69E-1.13Z(b)2", key=True)
    assert report.status == 1


def test_house_cap_below_the_maximum_win_is_a_warning(tmp_path):
    path = mutated(tmp_path, "house", {})  # the house's own $3,000 cap, below the $3,724 a minimum bettor can win
    report = expect(path, ("payout_limit", "amount"), "House rules", level="warning", words="below")
    assert report.status == 0


def test_floor_error_prints_the_floor_and_how_it_was_reached(tmp_path):
    path = mutated(tmp_path, "pa", {("payout_limit", "amount"): 25000})
    report = validate_file(path)
    [error] = [f for f in report.findings if f.level == "error"]
    assert "$50,000" in error.message and "minimum wager" in error.message


def test_unknown_keys_get_a_did_you_mean(tmp_path):
    path = mutated(tmp_path, "pa", {("table", "postions"): 6})
    report = expect(path, ("table", "postions"), "offering format", words="did you mean 'positions'", key=True)
    assert report.status == 1


def test_every_finding_is_reported_not_just_the_first(tmp_path):
    path = mutated(tmp_path, "nj", {("table", "positions"): 7, ("cards", "dealing"): "hand",
                                    ("limits", "ante", "minimum"): 1000, ("bonus_spin", "wager"): 1})
    errors = [f for f in validate_file(path).findings if f.level == "error"]
    assert len(errors) >= 4


def test_md_readings_are_notes_with_citations():
    report = validate_file(DATA / "correct_md.yaml")
    notes = [f for f in report.findings if f.level == "note"]
    assert any("Chapter 11 §I(3)" in (f.citation or "") for f in notes)
    assert any("Chapter 12 §B" in (f.citation or "") for f in notes)
    assert all(f.citation for f in notes)


def test_cli_text_json_and_exit_codes(tmp_path):
    runner = CliRunner()
    good = DATA / "correct_pa.yaml"
    bad = mutated(tmp_path, "pa", {("table", "positions"): 7})
    unusable = tmp_path / "empty.yaml"
    unusable.write_text("")
    result = runner.invoke(app, ["validate", str(good)])
    assert result.exit_code == 0 and "1 file checked: 1 valid" in result.stdout
    result = runner.invoke(app, ["validate", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:" in result.stdout and "[58 Pa. Code § 674a.2(a)]" in result.stdout
    result = runner.invoke(app, ["validate", str(tmp_path), "--format", "json"])
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document["summary"]["files"] == 2 and document["summary"]["unusable"] == 1
    statuses = {Path(f["path"]).name: f["status"] for f in document["files"]}
    assert statuses == {"pa.yaml": 1, "empty.yaml": 2}
    finding = document["files"][0]["findings"][0]
    assert set(finding) == {"path", "line", "column", "level", "message", "citation", "field", "rule"}
    bad_findings = next(f for f in document["files"] if Path(f["path"]).name == "pa.yaml")["findings"]
    [positions] = [f for f in bad_findings if f["level"] == "error"]
    assert positions["field"] == "table.positions" and positions["rule"] == "PA-674a.2a-positions"


@pytest.mark.parametrize("node, value, words", [
    (("offering", "operator", "name"), "Casino 東京", "'東' (U+6771"),
    (("offering", "operator", "name"), "Casino \u202eonisac", "U+202E right-to-left override"),
    (("offering", "operator", "licence"), "Licence\u200b 12", "U+200B zero width space"),
    (("offering", "operator", "name"), "Slots 🎰", "'🎰' (U+1F3B0"),
    (("cards", "back_colours", 0), "rouge\u0007", "U+0007"),
])
def test_text_the_shipped_fonts_cannot_print_is_an_error(tmp_path, node, value, words):
    path = mutated(tmp_path, "pa", {node: value})
    report = expect(path, node, "offering format", words=words)
    assert report.status == 1


def test_a_signoff_name_with_a_bidirectional_override_is_an_error(tmp_path):
    signoff = [{"role": "prepared", "name": "A \u202eB", "title": "Analyst", "date": "2026-11-02"}]
    path = mutated(tmp_path, "pa", {("signoff",): signoff})
    expect(path, ("signoff", 0, "name"), "offering format", words="U+202E")


def test_latin_greek_cyrillic_and_typographic_text_is_printable(tmp_path):
    name = "Café Ñandú — “Ελληνικό” & Казино O’Brien ♠♥♦♣ €5"
    path = mutated(tmp_path, "pa", {("offering", "operator", "name"): name})
    report = validate_file(path)
    assert report.status == 0, "\n".join(f.format() for f in report.findings)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_a_non_finite_number_gets_one_error_that_names_it(tmp_path, value):
    path = mutated(tmp_path, "pa", {("limits", "ante", "minimum"): value})
    report = validate_file(path)
    errors = [f for f in report.findings if f.level == "error"]
    assert len(errors) == 1 and "numbers must be finite" in errors[0].message, [f.format() for f in errors]


def test_a_card_room_with_other_house_rules_ships_its_own_data(tmp_path, monkeypatch):
    """The README's example: the bundled house rules refuse a 500-to-1 royal and a $5,000 cap; a data folder
    whose house.yaml and house.schema.json carry them accepts the same offering."""
    import json
    import shutil

    from rulegen.resources import jurisdictions_dir, schemas_dir

    changes = {("paytables", "criss_cross", "royal_flush"): 500, ("payout_limit", "amount"): 5000}
    path = mutated(tmp_path, "house", changes)
    refused = {f.rule for f in validate_file(path).findings if f.level == "error"}
    assert refused == {"HOUSE-PayTables-table-row", "HOUSE-PayTables-house-cap"}

    data = tmp_path / "mycardroom"
    (data / "schemas").mkdir(parents=True)
    (data / "jurisdictions").mkdir()
    schema = json.loads((schemas_dir() / "house.schema.json").read_text(encoding="utf-8"))
    [cap] = [f for f in schema["allOf"] if "payout_limit" in f.get("properties", {})]
    cap["properties"]["payout_limit"]["properties"]["amount"]["const"] = 5000
    (data / "schemas" / "house.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    house = (jurisdictions_dir() / "house.yaml").read_text(encoding="utf-8")
    assert house.count("{royal_flush: 250, straight_flush: 100, four_of_a_kind: 40, full_house: 10,") == 1
    (data / "jurisdictions" / "house.yaml").write_text(
        house.replace("{royal_flush: 250, straight_flush: 100, four_of_a_kind: 40, full_house: 10,",
                      "{royal_flush: 500, straight_flush: 100, four_of_a_kind: 40, full_house: 10,"), encoding="utf-8")
    shutil.copy(path, data / "offering.yaml")
    monkeypatch.setenv("RULEGEN_DATA_PATH", str(data))
    report = validate_file(data / "offering.yaml")
    assert report.status == 0, "\n".join(f.format() for f in report.findings)


def test_a_weighted_wheel_that_pays_back_more_than_it_takes_is_refused_with_its_exact_return(tmp_path):
    """With the weights the return is exact: an Xtreme A wheel weighted almost all on its $250 segment, on a $5 pair
    trigger, returns about 78/1326 x $250 / $5 = 294%; weighted on its $40 segment it returns 47% and passes."""
    symbols = ["jackpot", 250, 100, 80, 75, 60, 50, 45, 40]

    def xtreme(heavy):
        return {("bonus_spin",): {"kind": "xtreme", "wager": 5, "paytable": "A", "community_pay": "A",
                                  "trigger": "pair_in_hole_cards",
                                  "top_prize": {"kind": "progressive", "initial": 2500, "reset": 2500,
                                                "rate_of_progression_percent": 2},
                                  "wheel": [{"symbol": s, "weight": 10_000 if s == heavy else 1} for s in symbols]}}

    report = validate_file(mutated(tmp_path, "md", xtreme(250)))
    [error] = [f for f in report.findings if f.rule == "FORMAT-spin-return"]
    assert error.message.startswith("bonus_spin returns 294% of the wager") and "from the wheel's weights" in error.message
    assert not [f for f in validate_file(mutated(tmp_path, "md", xtreme(40))).findings if f.rule == "FORMAT-spin-return"]
