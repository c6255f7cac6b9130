"""Validation in one pass: every check that does not read the broken part still runs, so unrelated problems are
reported together; a missing field is reported at its parent's line. Each case mutates a correct offering once
and reads the findings at the offending lines, word for word where the message is new."""

from __future__ import annotations

from pathlib import Path

from rulegen.offering import load_offering
from rulegen.validate import validate_file
from tests.test_validate import DELETE, mutated

PA_FLOOR = ("payout_limit.amount is $25,000, below the floor of $50,000; the most one player can win in a round at the "
            "minimum wager is $16,510 (antes $5 each and 3x raises of $15: royal flush (Jc Qc Kc Ac Tc) Across, "
            "straight flush, queen high (Jc Qc 8c 9c Tc) Down) and the greater of $50,000 and that is $50,000")


def errors(path: Path) -> list:
    return [f for f in validate_file(path).findings if f.level == "error"]


def at(path: Path, finding) -> str:
    """The text of the line a finding points at."""
    return path.read_text().splitlines()[finding.line - 1]


def test_a_typod_key_and_a_payout_limit_below_the_floor_are_reported_together(tmp_path):
    path = mutated(tmp_path, "pa", {("table", "positions"): DELETE, ("table", "postions"): 6,
                                    ("payout_limit", "amount"): 25000})
    found = {f.rule: f for f in errors(path)}
    assert set(found) == {"FORMAT-required", "FORMAT-unknown-field", "PA-674a.12d-limit"}, found
    assert found["FORMAT-unknown-field"].message == "table.postions is not a field of table; did you mean 'positions'?"
    assert at(path, found["FORMAT-unknown-field"]).strip().startswith("postions:")
    assert found["PA-674a.12d-limit"].message == PA_FLOOR
    assert at(path, found["PA-674a.12d-limit"]).strip() == "amount: 25000"


def test_the_floor_is_checked_when_a_part_it_does_not_read_is_broken(tmp_path):
    signoff = [{"role": "prepared", "name": "A", "title": "B", "date": "2026-13-40"}]
    path = mutated(tmp_path, "pa", {("cards", "shuffling"): DELETE, ("offering", "id"): "Bad Id",
                                    ("signoff",): signoff, ("payout_limit", "amount"): 25000})
    rules = sorted(f.rule for f in errors(path))
    assert rules == ["FORMAT-date", "FORMAT-form", "FORMAT-required", "PA-674a.12d-limit"], rules


def test_the_floor_waits_for_the_parts_it_is_computed_from(tmp_path):
    # an ante minimum that is not a number: no figure can be trusted, so no floor finding (and no crash)
    path = mutated(tmp_path, "pa", {("limits", "ante", "minimum"): "five", ("payout_limit", "amount"): 25000})
    assert [f.rule for f in errors(path)] == ["FORMAT-type"]
    # a Criss Cross paytable Pennsylvania does not authorize: the same
    path = mutated(tmp_path, "pa", {("paytables", "criss_cross"): "generous", ("payout_limit", "amount"): 25000})
    assert "PA-674a.12d-limit" not in [f.rule for f in errors(path)]


def test_an_offering_without_a_jurisdiction_is_checked_not_crashed(tmp_path):
    path = mutated(tmp_path, "md", {("offering", "jurisdiction"): DELETE})
    found = errors(path)
    assert [f.message for f in found] == ["offering.jurisdiction is missing"], [f.format() for f in found]
    assert at(path, found[0]) == "offering:"


def test_a_missing_field_is_reported_at_its_parents_line(tmp_path):
    # a rule check's missing field (not the schema's): at the key of the mapping that lacks it, not its first entry
    path = mutated(tmp_path, "md", {("bonus_spin", "top_prize"): {"kind": "fixed"}})
    found = [f for f in errors(path) if f.field == "bonus_spin.top_prize.initial"]
    assert [f.message for f in found] == ["bonus_spin.top_prize.initial is missing; a fixed top prize states its "
                                          "amount as initial"]
    assert at(path, found[0]).strip() == "top_prize:"
    # the schema's, nested two deep
    path = mutated(tmp_path, "md", {("limits", "ante"): {"minimum": 5}})
    found = [f for f in errors(path) if f.field == "limits.ante.maximum"]
    assert [f.message for f in found] == ["limits.ante.maximum is missing"]
    assert at(path, found[0]).strip() == "ante:"


def test_a_finding_about_a_missing_node_is_placed_at_its_nearest_present_parents_key():
    offering = load_offering(Path(__file__).parent / "data" / "correct_md.yaml")
    finding = offering.finding(("bonus_spin", "top_prize", "description", "deeper"), "error", "x")
    assert (finding.line, finding.column) == offering.key_positions[("bonus_spin", "top_prize")]
    present = offering.finding(("bonus_spin", "top_prize", "kind"), "error", "x")
    assert (present.line, present.column) == offering.positions[("bonus_spin", "top_prize", "kind")]


def test_a_duplicate_key_and_a_number_out_of_range_do_not_hide_the_other_findings(tmp_path):
    text = (Path(__file__).parent / "data" / "correct_pa.yaml").read_text()
    assert "  positions: 6\n" in text and "  decks: 1\n" in text and "  amount: 50000\n" in text
    path = tmp_path / "pa.yaml"
    path.write_text(text.replace("  positions: 6\n", "  positions: 6\n  positions: 7\n")
                    .replace("  decks: 1\n", "  decks: 1e999999\n").replace("  amount: 50000\n", "  amount: 25000\n"))
    report = validate_file(path)
    assert report.status == 1
    found = [(f.field, f.message) for f in report.findings if f.level == "error"]
    lines = path.read_text().splitlines()
    assert found == [
        ("table.positions", "duplicate key 'positions' in table: it is also on line 11; a key may appear once (which "
                            "value was meant cannot be known)"),
        ("cards.decks", "cards.decks is 1e999999: an offering's numbers hold at most 15 significant digits and lie "
                        "between 0.000001 and 10^12 (or are 0)"),
        ("payout_limit.amount", PA_FLOOR),
    ], found
    errors_at = [lines[f.line - 1].strip() for f in report.findings if f.level == "error"]
    assert errors_at == ["positions: 7", "decks: 1e999999", "amount: 25000"]


def test_the_other_commands_still_refuse_a_duplicate_key_at_load(tmp_path):
    from rulegen.errors import ExitCode
    from rulegen.offering import OfferingLoadError

    path = tmp_path / "pa.yaml"
    path.write_text((Path(__file__).parent / "data" / "correct_pa.yaml").read_text()
                    .replace("  positions: 6\n", "  positions: 6\n  positions: 7\n"))
    try:
        load_offering(path)
    except OfferingLoadError as exc:
        assert exc.exit_code == ExitCode.INVALID and "duplicate key 'positions'" in exc.message
    else:
        raise AssertionError("a duplicate key loaded")
