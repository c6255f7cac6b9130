"""`rulegen diff`: each change between two revisions named in a regulator's words, grouped by the section of the
rules document it touches, with its citation; offering files or built filings; the changes section for the
rules document."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.filing import changes_section, diff_offerings
from rulegen.offering import load_offering, parse_offering
from rulegen.resources import samples_dir

MD = "MLGCA Criss Cross Poker Standard Rules, "

BASE = """\
schema_version: 1
offering:
  id: diff-md
  jurisdiction: MD
  operator:
    name: Diff Test Casino
  version: 2
  effective_date: 2027-01-15
table:
  positions: 6
  payout_odds_display: sign
  payout_limit_display: sign
cards:
  decks: 2
  back_colours: [red, blue]
  shuffling: automated-counting
  dealing: manual-shoe
  deck_change_hours: 8
limits:
  ante: {minimum: 5, maximum: 100}
paytables:
  criss_cross: standard
  ante: standard
five_card_bonus:
  minimum: 1
  maximum: 50
  paytable: standard
bonus_spin:
  kind: progressive
  wager: 5
  paytable: D
  community_pay: A
  trigger: pair_in_hole_cards
  top_prize:
    kind: progressive
    initial: 5000
    reset: 5000
    rate_of_progression_percent: 2.5
payout_limit:
  amount: 50000
signoff:
  - {role: prepared, name: A Preparer, title: Compliance Analyst, date: 2026-11-02}
  - {role: reviewed, name: B Reviewer, title: Director of Table Games, date: 2026-11-05}
  - {role: approved, name: C Approver, title: "Vice President, Compliance", date: 2026-11-09}
"""


def offering(text: str, name: str = "offering.yaml"):
    return parse_offering(text.encode(), name)


def edited(text: str, changes: dict) -> str:
    """`text` with {dotted path: value} applied (None deletes), written back as YAML."""
    yaml = YAML(typ="rt")
    data = yaml.load(text)
    for path, value in changes.items():
        keys = path.split(".")
        node = data
        for key in keys[:-1]:
            node = node.setdefault(key, {})
        if value is None:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def texts(changes) -> list[str]:
    return [c.text for c in changes]


def test_no_change_between_identical_revisions():
    assert diff_offerings(offering(BASE), offering(BASE)) == []


def test_each_change_is_named_in_a_regulators_words_with_its_citation():
    new = edited(BASE, {"offering.version": 3, "five_card_bonus.maximum": 100, "limits.ante.minimum": 10,
                        "cards.deck_change_hours": 4, "cards.dealing": "hand", "table.payout_odds_display": "layout",
                        "bonus_spin.paytable": "C", "payout_limit.amount": 75000})
    changes = diff_offerings(offering(BASE), offering(new))
    by_field = {c.field: c for c in changes}
    assert by_field["five_card_bonus.maximum"].text == "Five Card Bonus maximum: $50 → $100"
    assert by_field["limits.ante.minimum"].text == "Ante minimum: $5 → $10"
    assert by_field["cards.deck_change_hours"].text == "Deck change interval: 8 hours → 4 hours"
    assert by_field["offering.version"].text == "Submission revision: 2 → 3"
    assert by_field["payout_limit.amount"].text.endswith("$50,000 → $75,000")
    assert by_field["table.payout_odds_display"].text == \
        "Payout odds shown: posted on a sign at each table → inscribed on the layout"
    assert by_field["bonus_spin.paytable"].text.startswith("Bonus Spin paytable: D → C")
    assert len(changes) == 8
    for change in changes:
        if change.section not in ("submission", "signoff"):
            assert change.citation and change.citation.startswith(MD), change
    assert by_field["cards.dealing"].citation.startswith(MD + "Chapter 9")
    assert by_field["cards.dealing"].section == "Chapter 9"
    assert by_field["table.payout_odds_display"].section == "Chapter 2"
    # grouped: every section's changes together, sections in the rules document's order
    sections = [c.section for c in changes]
    assert sections == sorted(sections, key=sections.index)
    assert sections[0] == "submission"


def test_paytables_wagers_and_signoffs():
    written_out = {"royal_flush": 1000, "straight_flush": 100, "four_of_a_kind": 40, "full_house": 12, "flush": 8,
                   "straight": 5, "three_of_a_kind": 3, "two_pair": 2, "pair_jacks_or_better": 1,
                   "pair_sixes_through_tens": "push"}
    new = edited(BASE, {"paytables.criss_cross": written_out, "bonus_spin": None, "signoff": [
        {"role": "prepared", "name": "D Newcomer", "title": "Compliance Analyst", "date": "2027-01-02"}]})
    changes = diff_offerings(offering(BASE), offering(new))
    got = texts(changes)
    assert "Criss Cross paytable, royal flush: 500 to 1 → 1,000 to 1" in got
    assert any(t.startswith("Bonus Spin: no longer offered") for t in got)
    assert any(t.startswith("Prepared by: A Preparer, Compliance Analyst (2026-11-02) → D Newcomer") for t in got)
    assert any(t.startswith("Reviewed by: B Reviewer") and t.endswith("→ none") for t in got)
    back = diff_offerings(offering(new), offering(BASE))
    assert any(t.startswith("Bonus Spin: now offered") for t in texts(back))


def test_fields_added_and_removed():
    new = edited(BASE, {"offering.operator.licence": "Licence 77", "five_card_bonus": None})
    got = texts(diff_offerings(offering(BASE), offering(new)))
    assert "Licence: Licence 77 (new)" in got
    assert any(t.startswith("Five Card Bonus: no longer offered (was minimum $1, maximum $50") for t in got)


def test_changes_section_for_the_rules_document():
    new = edited(BASE, {"offering.version": 3, "five_card_bonus.maximum": 100, "offering.effective_date": "2027-06-01"})
    section = changes_section(offering(BASE), offering(new))
    assert section["title"] == "Changes from revision 2"
    assert section["from_revision"] == 2 and section["to_revision"] == 3
    assert section["count"] == 1  # the revision and date are the heading, not changes
    [group] = section["groups"]
    assert group["changes"][0]["text"] == "Five Card Bonus maximum: $50 → $100"
    json.dumps(section)  # plain data for the template
    unchanged = changes_section(offering(BASE), offering(edited(BASE, {"offering.version": 3})))
    assert unchanged["count"] == 0 and unchanged["groups"] == [] and "No change" in unchanged["summary"]


def test_command_text_and_json(tmp_path):
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(BASE)
    new.write_text(edited(BASE, {"five_card_bonus.maximum": 100}))
    runner = CliRunner()
    result = runner.invoke(app, ["diff", str(old), str(new)])
    assert result.exit_code == 0, result.output
    assert "Five Card Bonus maximum: $50 → $100" in result.stdout
    result = runner.invoke(app, ["diff", str(old), str(new), "--format", "json"])
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert payload["count"] == 1
    assert payload["sections"][0]["changes"][0]["field"] == "five_card_bonus.maximum"
    result = runner.invoke(app, ["diff", str(old), str(tmp_path / "missing.yaml")])
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_diff_reads_the_offering_inside_a_filing(tmp_path):
    """A built filing's rules.pdf is read for its attached offering (checked against its manifest)."""
    from weasyprint import HTML

    from rulegen.assemble import pdf_attachments
    from rulegen.filing import build_manifest

    (tmp_path / "offering.yaml").write_text(BASE)
    old = load_offering(tmp_path / "offering.yaml")
    manifest = build_manifest(offering=old, jurisdiction_code="MD", outputs={}, options={"final": False},
                              findings=[], renderer_versions={}, signoffs=None)
    pdf = HTML(string="<title>x</title><p>rules</p>").write_pdf(attachments=pdf_attachments(old, manifest))
    (tmp_path / "rules.pdf").write_bytes(pdf)
    (tmp_path / "new.yaml").write_text(edited(BASE, {"five_card_bonus.maximum": 100}))
    result = CliRunner().invoke(app, ["diff", str(tmp_path / "rules.pdf"), str(tmp_path / "new.yaml")])
    assert result.exit_code == 0, result.output
    assert "Five Card Bonus maximum: $50 → $100" in result.stdout
    other = parse_offering((tmp_path / "new.yaml").read_bytes(), "offering.yaml", tmp_path / "offering.yaml")
    mismatched = HTML(string="<title>x</title><p>rules</p>").write_pdf(attachments=pdf_attachments(other, manifest))
    (tmp_path / "mismatched.pdf").write_bytes(mismatched)
    result = CliRunner().invoke(app, ["diff", str(tmp_path / "mismatched.pdf"), str(tmp_path / "new.yaml")])
    assert result.exit_code == 2 and "does not match its manifest" in result.stderr


def _samples() -> list[Path]:
    found = sorted(samples_dir().glob("*.yaml"))
    assert found, f"no bundled samples in {samples_dir()}"  # an empty list would skip the test silently
    return found


@pytest.mark.parametrize("sample", _samples(), ids=lambda p: p.name)
def test_each_bundled_sample_against_an_edited_copy(sample):
    """Every edit made to a bundled sample shows up as one named change."""
    text = sample.read_text(encoding="utf-8")
    data = load_offering(sample).data
    edits = {"offering.version": int(data["offering"]["version"]) + 1, "limits.ante.maximum": 999,
             "table.positions": 5}
    if "five_card_bonus" in data:
        edits["five_card_bonus.maximum"] = 77
    changes = diff_offerings(offering(text), offering(edited(text, edits)))
    fields = {c.field for c in changes}
    assert fields == set(edits), texts(changes)
    by_field = {c.field: c for c in changes}
    assert by_field["limits.ante.maximum"].text.endswith("→ $999")
    assert by_field["table.positions"].text.endswith("→ 5")
    assert by_field["table.positions"].citation


# --- the mathematics that changed ----------------------------------------------------------------------------------

def _math_json(path: Path) -> dict:
    result = CliRunner().invoke(app, ["math", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_diff_states_the_mathematics_that_changed(tmp_path, math_cache):
    """Doubling the ante minimum and dropping the Five Card Bonus: the bonus's return goes to "not offered" and
    the maximum win per round at the minimum doubles (every main-game pay is a multiple of the ante, and PA's
    count leaves the Five Card Bonus out); the main game's edge, risk and hit frequency do not move."""
    sample = samples_dir() / "pa-five-card-bonus.yaml"
    text = sample.read_text(encoding="utf-8")
    assert "ante: {minimum: 5, maximum: 200}" in text and "five_card_bonus:" in text
    start, end = text.index("five_card_bonus:"), text.index("payout_limit:")
    edited = tmp_path / "pa-v2.yaml"
    edited.write_text(text[:start].replace("ante: {minimum: 5, maximum: 200}", "ante: {minimum: 10, maximum: 200}")
                      .replace("  version: 1\n", "  version: 2\n") + text[end:], encoding="utf-8")
    old, new = _math_json(sample), _math_json(edited)
    result = CliRunner().invoke(app, ["diff", str(sample), str(edited), "--format", "json"])
    assert result.exit_code == 0, result.output
    figures = {m["figure"]: m for m in json.loads(result.stdout)["math"]}
    assert set(figures) == {"five_card_bonus_return", "max_win"}
    bonus = figures["five_card_bonus_return"]
    assert bonus["old"] == pytest.approx(1 - old["five_card_bonus"]["house_edge"], abs=1e-15)
    assert bonus["new"] is None and bonus["new_text"] == "not offered"
    assert bonus["old_text"] == f"{100 * (1 - old['five_card_bonus']['house_edge']):.4f}%"
    win = figures["max_win"]
    assert win["old"] == old["max_win_per_round_at_minimum"] and win["new"] == new["max_win_per_round_at_minimum"]
    assert win["new"] == 2 * win["old"]
    assert win["text"] == (f"Maximum win per round at the minimum wagers: ${win['old']:,.0f} → "
                           f"${win['new']:,.0f}")
    text_out = CliRunner().invoke(app, ["diff", str(sample), str(edited)]).stdout
    assert "Mathematics (old → new)" in text_out and win["text"] in text_out and bonus["text"] in text_out
    section = changes_section(load_offering(sample), load_offering(edited))
    assert [m["figure"] for m in section["math"]] == ["five_card_bonus_return", "max_win"]


def test_a_change_that_leaves_the_mathematics_alone_says_so(tmp_path, math_cache):
    sample = samples_dir() / "pa-five-card-bonus.yaml"
    edited = tmp_path / "renamed.yaml"
    text = sample.read_text(encoding="utf-8")
    edited.write_text(text.replace("  version: 1\n", "  version: 2\n"), encoding="utf-8")
    payload = json.loads(CliRunner().invoke(app, ["diff", str(sample), str(edited), "--format", "json"]).stdout)
    assert payload["math"] == [] and payload["math_note"] == "no figure of the mathematics changed"


def test_math_changes_print_enough_digits_to_differ():
    from rulegen.filing.diff import math_changes

    old = {"main_game": {"house_edge_per_ante": 0.0341234561, "element_of_risk": 0.02, "hit_frequency": 0.4},
           "max_win_per_round_at_minimum": 1000}
    new = {"main_game": {"house_edge_per_ante": 0.0341234569, "element_of_risk": 0.02, "hit_frequency": 0.41},
           "max_win_per_round_at_minimum": 1000}
    changes = {c.figure: c for c in math_changes(old, new)}
    assert set(changes) == {"house_edge", "hit_frequency"}
    assert changes["house_edge"].text == "House edge (per ante, optimal strategy): 3.4123456% → 3.4123457%"
    assert changes["hit_frequency"].text == "Hit frequency (rounds with a net win): 40.0000% → 41.0000%"


# --- the payout limit's effect among the mathematics ---------------------------------------------------------------

def test_lowering_the_payout_limit_is_a_change_of_the_mathematics(tmp_path, math_cache):
    """PA's sample with its limit cut from $100,000 to $50,000 (§ 674a.12(d) lets a limit be set at $50,000 or
    above; MD's and the house rules' limits are fixed): the diff reports each figure of the limit's effect that
    moves, as `rulegen math` computes it for each revision, and none that stays. At the maximum ante the lower
    limit binds more often and removes more per round."""
    text = (samples_dir() / "pa-five-card-bonus.yaml").read_text(encoding="utf-8")
    assert "payout_limit:\n  amount: 50000\n" in text and "  version: 1\n" in text
    sample = tmp_path / "pa-v1.yaml"
    sample.write_text(text.replace("payout_limit:\n  amount: 50000\n", "payout_limit:\n  amount: 100000\n"),
                      encoding="utf-8")
    edited_file = tmp_path / "pa-v2.yaml"
    edited_file.write_text(text.replace("  version: 1\n", "  version: 2\n"), encoding="utf-8")
    old, new = _math_json(sample), _math_json(edited_file)
    result = CliRunner().invoke(app, ["diff", str(sample), str(edited_file), "--format", "json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["math_note"] is None
    figures = {m["figure"]: m for m in payload["math"]}
    expected = {}
    for row_old, row_new in zip(old["payout_cap"]["at"], new["payout_cap"]["at"], strict=True):
        for key, name in (("probability_cap_binds", "binds"), ("ev_removed_per_round_dollars", "removes")):
            if row_old[key] != row_new[key]:
                expected[f"payout_limit_{row_old['which']}_ante_{name}"] = (row_old[key], row_new[key])
    for row_old, row_new in zip(old["payout_cap"]["bonuses"], new["payout_cap"]["bonuses"], strict=True):
        for key, name in (("probability_cap_binds", "binds"), ("ev_removed_per_wager_dollars", "removes"),
                          ("house_edge_with_cap", "house_edge")):
            if row_old[key] != row_new[key]:
                expected[f"payout_limit_{row_old['wager']}_{row_old['which']}_{name}"] = (row_old[key], row_new[key])
    # at the maximum ante the cut binds more often and removes more; the main game's own figures stay
    assert {"payout_limit_maximum_ante_binds", "payout_limit_maximum_ante_removes"} <= set(expected)
    assert set(figures) == set(expected)
    for name, (before, after) in expected.items():
        assert (figures[name]["old"], figures[name]["new"]) == (before, after)
    removed = figures["payout_limit_maximum_ante_removes"]
    assert removed["new"] > removed["old"] > 0
    assert removed["text"] == (f"Payout limit, maximum ante ($200): expected payout removed per round: "
                               f"${removed['old']:.4f} → ${removed['new']:.4f}")
    text_out = CliRunner().invoke(app, ["diff", str(sample), str(edited_file)]).stdout
    assert "Mathematics (old → new)" in text_out and removed["text"] in text_out
    assert "No figure of the mathematics changed" not in text_out


def test_payout_limit_figures_compared_row_by_row():
    """From two math reports: a figure that moves is reported, with enough places that a tiny one never reads as
    nought; a bonus the new limit no longer covers reads "no payout limit"; the same rows give no change."""
    from rulegen.filing.diff import math_changes

    def report(removed_at_min: float, bonuses: list[dict]) -> dict:
        return {"payout_cap": {"amount": 3000, "at": [
            {"ante": 2, "which": "minimum", "probability_cap_binds": 5.3e-07,
             "ev_removed_per_round_dollars": removed_at_min},
            {"ante": 10, "which": "maximum", "probability_cap_binds": 3.1e-05, "ev_removed_per_round_dollars": 0.05}],
            "bonuses": bonuses}}

    bonus = {"wager": "six_card_bonus", "amount": 10, "which": "maximum", "probability_cap_binds": 9.2e-06,
             "ev_removed_per_wager_dollars": 0.0646, "house_edge_with_cap": 0.2}
    assert math_changes(report(1.8e-06, [bonus]), report(1.8e-06, [bonus])) == []
    changes = {c.figure: c for c in math_changes(report(1.8e-06, [bonus]), report(2.7e-04, []))}
    assert set(changes) == {"payout_limit_minimum_ante_removes", "payout_limit_six_card_bonus_maximum_binds",
                            "payout_limit_six_card_bonus_maximum_removes",
                            "payout_limit_six_card_bonus_maximum_house_edge"}
    assert changes["payout_limit_minimum_ante_removes"].text == (
        "Payout limit, minimum ante ($2): expected payout removed per round: $0.0000018 → $0.0002700")
    edge = changes["payout_limit_six_card_bonus_maximum_house_edge"]
    assert edge.text == ("Payout limit, Six Card Bonus by itself, maximum wager ($10): house edge with the limit: "
                         "20.0000% → no payout limit")
    assert edge.new is None
