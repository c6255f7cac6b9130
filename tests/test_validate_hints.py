"""Hints: what to write instead, for a YAML syntax error, a date written another way and a misspelled hand name;
and `validate --quiet`, which leaves notes out. Each case breaks a correct offering once and reads the finding at
the offending line, word for word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.validate import validate_file
from rulegen.validate.dates import date_hint
from tests.test_validate import DATA, mutated

NOT_A_DATE = "offering.effective_date is '{}', which is not a real date (YYYY-MM-DD); {}"


@pytest.mark.parametrize("written, hint", [
    ("04/12/2027", "write 2027-04-12 (read month first, the US order: April 12, 2027; if 4 December 2027 was meant, "
                   "write 2027-12-04)"),
    ("12/25/2027", "write 2027-12-25 (December 25, 2027)"),
    ("25/12/2027", "write 2027-12-25 (25 December 2027, as 25 is no month)"),
    ("04-12-2027", "write 2027-04-12 (read month first, the US order: April 12, 2027; if 4 December 2027 was meant, "
                   "write 2027-12-04)"),
    ("12.04.2027", "write 2027-04-12 (read day first, as dotted dates are written: 12 April 2027; if December 4, "
                   "2027 was meant, write 2027-12-04)"),
    ("04.04.2027", "write 2027-04-04"),
    ("April 12, 2027", "write 2027-04-12"),
    ("Apr 12 2027", "write 2027-04-12"),
    ("12 April 2027", "write 2027-04-12"),
    ("12-Apr-2027", "write 2027-04-12"),
    ("2027/04/12", "write 2027-04-12"),
])
def test_a_date_written_another_way_says_the_iso_form_to_write(tmp_path, written, hint):
    path = mutated(tmp_path, "pa", {("offering", "effective_date"): written})
    found = [f for f in validate_file(path).findings if f.rule == "FORMAT-date"]
    assert [f.message for f in found] == [NOT_A_DATE.format(written, hint)]
    line = path.read_text().splitlines()[found[0].line - 1]
    assert line.strip().startswith("effective_date:") and written in line


def test_a_sign_off_date_gets_the_hint_too(tmp_path):
    signoff = [{"role": "prepared", "name": "A", "title": "B", "date": "11/02/2026"}]
    path = mutated(tmp_path, "pa", {("signoff",): signoff})
    found = [f for f in validate_file(path).findings if f.rule == "FORMAT-date"]
    assert [f.message for f in found] == [
        "signoff[0].date is '11/02/2026', which is not a real date (YYYY-MM-DD); write 2026-11-02 (read month first, "
        "the US order: November 2, 2026; if 11 February 2026 was meant, write 2026-02-11)"]


@pytest.mark.parametrize("written", ["02/30/2027", "13/13/2027", "Someday 3, 2027", "2027-4-1", "soon"])
def test_no_hint_where_no_reading_is_a_day_of_the_calendar(written):
    assert date_hint(written) is None


@pytest.mark.parametrize("key, meant", [
    ("royal_flsh", "royal_flush"), ("3_of_a_kind", "three_of_a_kind"), ("Two Pair", "two_pair"),
    ("pair_of_jacks_or_better", "pair_jacks_or_better"), ("pair_6s_through_10s", "pair_sixes_through_tens"),
])
def test_a_misspelled_hand_name_says_did_you_mean(tmp_path, key, meant):
    table = {"pair_jacks_or_better": 1, "pair_sixes_through_tens": "push"}
    table.pop(meant, None)
    path = mutated(tmp_path, "nj", {("paytables", "ante"): {**table, key: 1}})
    found = [f for f in validate_file(path).findings if f.rule == "FORMAT-hand-class"]
    assert [f.message for f in found] == [f"paytables.ante.{key} is not a hand class; did you mean '{meant}'?"]
    assert path.read_text().splitlines()[found[0].line - 1].strip().startswith(key)


SYNTAX = [
    ("tab", "schema_version: 1\noffering:\n\tid: x\n", "3:1",
     "found character '\\t' that cannot start any token; YAML indents and separates with spaces, never tabs: replace "
     "the tab with spaces"),
    ("colon in a value", "offering:\n  operator:\n    name: Harbor Point: Casino\n", "3:23",
     "mapping values are not allowed here; the value holds ': ', which YAML reads as the start of another key: put "
     "the value in quotes (name: \"Example: Casino\")"),
    ("indented too far", "table:\n  positions: 6\n    payout_odds_display: sign\n", "3:24",
     "mapping values are not allowed here; line 3 is indented deeper than line 2 above it, whose key already has a "
     "value: start it in the same column as the keys it belongs with"),
    ("indented too little", "table:\n    positions: 6\n  payout_odds_display: sign\n", "3:3",
     "expected <block end>, but found '<block mapping start>'; line 3 starts in column 3, in line with no key or list "
     "item above it: start it in the same column as the keys it belongs with"),
    ("no space after a colon", "table:\n  positions:6\n  payout_odds_display: sign\n", "3:22",
     "mapping values are not allowed here; line 2 has no space after its colon: write 'positions: 6'"),
    ("a list not closed", "cards:\n  back_colours: [red, blue\n  decks: 2\n", "3:8",
     "expected ',' or ']', but got ':'; the [ opened at line 2, column 17 is not closed: end it with ] on that line "
     "(and put a value that holds a comma in quotes)"),
    ("a list not closed at the end of the file", "table:\n  positions: 6\nlimits: [\n", "4:1",
     "expected the node content, but found '<stream end>'; the file ends inside the [ opened at line 3, column 9: "
     "end it with ] on that line, or put a value that begins with [ in quotes"),
    ("a quote not closed", "offering:\n  id: \"harbor\n  version: 1\n", "4:1",
     "found unexpected end of stream; the quote opened at line 2, column 7 is never closed: end the value with the "
     "same quote"),
    ("a key with no colon", "table:\n  positions\n  decks: 1\n", "3:8",
     "mapping values are not allowed here; line 2 ('positions') has no ': ', so YAML reads it as part of the key on "
     "line 3: give it its value (positions: ...) or remove it"),
    ("a line with no colon at the end", "table:\n  decks: 1\n  positions\n", "4:1",
     "could not find expected ':'; line 3 ('positions') is neither 'key: value' nor a list item: add ': ' after its "
     "key, or join it to the line above"),
    ("a value beginning with a brace", "offering:\n  operator:\n    name: {Harbor}, Inc\n", "3:19",
     "expected <block end>, but found ','; a value that begins with { or [ is read as a mapping or a list: put text "
     "that begins with one in quotes"),
    ("a backslash in double quotes", "offering:\n  operator:\n    logo: \"logos\\harbor.png\"\n", "3:18",
     "found unknown escape character 'h'; inside double quotes a backslash starts an escape: put the value in single "
     "quotes, or write a backslash as \\\\"),
]


@pytest.mark.parametrize("name, text, place, message", SYNTAX, ids=[case[0] for case in SYNTAX])
def test_a_yaml_syntax_error_says_what_to_write(tmp_path, name, text, place, message):
    path = tmp_path / "offering.yaml"
    path.write_text(text)
    report = validate_file(path)
    assert report.status == 2
    assert [f.format() for f in report.findings] == [
        f"{path}:{place}: error: YAML syntax error: {message} [offering format]"]


def test_quiet_leaves_notes_out_and_still_counts_them(tmp_path):
    path = DATA / "correct_md.yaml"
    loud = CliRunner().invoke(app, ["validate", str(path)])
    quiet = CliRunner().invoke(app, ["validate", "--quiet", str(path)])
    assert loud.exit_code == quiet.exit_code == 0
    notes = [line for line in loud.stdout.splitlines() if ": note: " in line]
    assert notes and ": note: " not in quiet.stdout
    count = f"{len(notes)} note{'s' if len(notes) != 1 else ''}"
    assert loud.stdout.splitlines()[-1].endswith(count)
    # everything but the notes stays (the file's warning: its table A names no symbol of Paytable D's wheel)
    kept = [line for line in loud.stdout.splitlines()[:-1] if ": note: " not in line]
    assert kept and all(": warning: " in line for line in kept)
    assert quiet.stdout.splitlines() == kept + [loud.stdout.splitlines()[-1] + " (not shown: --quiet)"]
    document = json.loads(CliRunner().invoke(app, ["validate", "-q", "--format", "json", str(path)]).stdout)
    assert [f["level"] for f in document["files"][0]["findings"]] == ["warning"] * len(kept)
    assert document["summary"]["notes"] == len(notes)


def test_quiet_keeps_errors_and_warnings(tmp_path):
    # a typo'd key (an error) and the house's own $3,000 cap below the maximum win (a warning)
    path = mutated(tmp_path, "house", {("table", "postions"): 6})
    result = CliRunner().invoke(app, ["validate", "-q", str(path)])
    assert result.exit_code == 1
    levels = [line.split(": ")[1] for line in result.stdout.splitlines()[:-1]]
    assert levels == ["error", "warning"], result.stdout


def test_hints_leave_the_offering_file_as_it_was(tmp_path):
    path = mutated(tmp_path, "pa", {("offering", "effective_date"): "04/12/2027"})
    before = path.read_bytes()
    CliRunner().invoke(app, ["validate", str(path)])
    assert path.read_bytes() == before and sorted(p.name for p in Path(tmp_path).iterdir()) == ["pa.yaml"]


@pytest.mark.parametrize("node, written, message", [
    (("cards", "dealing"), "manual_shoe", "cards.dealing is 'manual_shoe'; cards are dealt from a manual shoe, from "
                                          "the hand, or from an automated shoe; did you mean 'manual-shoe'?"),
    (("cards", "shuffling"), "Automated Counting", None),
    (("table", "payout_odds_display"), "layuot", None),
])
def test_a_misspelled_choice_says_did_you_mean(tmp_path, node, written, message):
    path = mutated(tmp_path, "pa", {node: written})
    found = [f for f in validate_file(path).findings if f.level == "error"]
    assert len(found) == 1 and found[0].field == ".".join(node), [f.format() for f in found]
    if message is not None:
        assert found[0].message == message
    meant = {"Automated Counting": "automated-counting", "layuot": "layout", "manual_shoe": "manual-shoe"}[written]
    assert found[0].message.endswith(f"; did you mean '{meant}'?")
    assert path.read_text().splitlines()[found[0].line - 1].strip() == f"{node[-1]}: {written}"
