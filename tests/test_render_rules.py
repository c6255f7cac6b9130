"""What the rules document says, checked against the offering and the jurisdiction's own text (HTML only)."""

from __future__ import annotations

import copy
import html as html_lib
import re
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest

from rulegen.jurisdiction import load_jurisdiction
from rulegen.offering import load_offering
from rulegen.render.context import draft_status
from rulegen.render.rules import render_rules_html
from rulegen.resolved import resolve
from rulegen.resources import samples_dir

# The rules HTML without the math: no maximum-win figure is printed (the template's branch for a missing figure), and
# a main game that favours the house, of which the rules say nothing.
NO_MATH = SimpleNamespace(max_win=SimpleNamespace(amount=None, detail=None), bonus_spin=None,
                          main_game=SimpleNamespace(house_edge_per_initial_wager=0.04))

SAMPLES = {"MD": "md-progressive.yaml", "NJ": "nj-bonus-spin.yaml", "PA": "pa-five-card-bonus.yaml",
           "HOUSE": "house-six-card-bonus.yaml"}
PREFIX = {"MD": "MLGCA Criss Cross Poker Standard Rules, ", "NJ": "N.J.A.C. 13:69", "PA": "58 Pa. Code § 674a.",
          "HOUSE": "House rules, "}


def render(code, change=None):
    base = load_offering(Path(samples_dir()) / SAMPLES[code])
    data = copy.deepcopy(base.data)
    if change:
        change(data)
    offering = resolve(SimpleNamespace(data=data, sha256=base.sha256, path=base.path, display_path=str(base.path)))
    assert offering.jurisdiction == load_jurisdiction(code)
    return render_rules_html(offering, NO_MATH, draft=draft_status(offering, False))


def text(document: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", document)).split())


def rule_texts(document: str) -> list[str]:
    return [text(p) for p in re.findall(r'<p class="rule"[^>]*>(.*?)</p>', document, re.S)]


def test_house_antes_paying_two_to_one_are_said_to_pay_two_to_one():
    def two_to_one(data):
        data["paytables"]["ante"] = {"pair_jacks_or_better": 2, "pair_sixes_through_tens": "push"}
    document = render("HOUSE", two_to_one)
    ante_rules = [t for t in rule_texts(document) if "antes are settled" in t]
    assert ante_rules and "pair of jacks or better wins 2 to 1" in ante_rules[0]
    assert "even money" not in text(document)


def test_standard_antes_are_said_to_pay_even_money():
    """Every jurisdiction's standard ante table is said in words; MD's sample pays the antes from §A's table as
    written, so MD is rendered with the operator's own table (a DRAFT's)."""
    def standard(data):
        data["paytables"]["ante"] = "standard"

    for code in ("MD", "NJ", "PA", "HOUSE"):
        assert "pair of jacks or better wins 1 to 1 (even money)" in text(render(code, standard)), code


def test_each_document_cites_its_own_jurisdiction():
    for code in SAMPLES:
        document = render(code)
        cites = [html_lib.unescape(c) for c in re.findall(r'<span class="cite">([^<]+)</span>', document)]
        foreign = [c for c in cites if not c.startswith(PREFIX[code])]
        assert cites and not foreign, (code, foreign[:5])


def test_no_procedure_is_announced_and_left_out():
    for code in SAMPLES:
        assert "for completeness only" not in render(code)


def test_maryland_settles_the_five_card_bonus_before_the_other_wagers():
    body = text(render("MD"))
    assert body.index("Five Card Bonus first.") < body.index("Settlement.")


def test_maryland_states_no_other_states_rules_as_its_own():
    document = render("MD")
    rules = " ".join(rule_texts(document))
    assert "A-2-3-4-5" not in rules and "ace, 2, 3, 4, 5" not in rules   # only in the marked reading
    assert "electronic sensor" not in text(document)
    assert "betting position a wagering device" in rules


def test_maryland_fixed_top_prize_is_not_called_a_meter():
    def fixed(data):
        data["bonus_spin"].update(paytable="A", top_prize={"kind": "fixed", "initial": 1000, "reset": 1000,
                                                           "rate_of_progression_percent": 1})
    rules = " ".join(rule_texts(render("MD", fixed)))
    assert "a fixed prize of $1,000" in rules
    assert "meter's amount" not in rules and "progressive meter" not in rules


def test_maryland_designated_community_table_is_printed():
    document = text(render("MD", lambda d: d["bonus_spin"].update(paytable="A", community_pay="A")))
    assert "Community-pay table A for a $5 wager" in document
    for pair, pays in (("$500 / $100", "$100"), ("$200 / $50", "$50"), ("$25 / $15", "$15")):
        assert f"{pair} {pays}" in document


def test_maryland_xtreme_community_amounts_are_printed():
    def xtreme(data):
        data["bonus_spin"] = {"kind": "xtreme", "wager": 5, "paytable": "A", "community_pay": "A",
                              "trigger": "pair_in_hole_cards",
                              "top_prize": {"kind": "progressive", "initial": 2500, "reset": 1000,
                                            "rate_of_progression_percent": 2}}
    document = text(render("MD", xtreme))
    assert "Community Prize Wheel A" in document
    for amount in ("$35", "$25", "$20", "$15", "$12", "$10", "$7", "$5"):
        assert f"{amount} {amount}" in document


def test_new_jersey_fold_sends_the_cards_to_the_discard_rack():
    rules = rule_texts(render("NJ"))
    across = next(t for t in rules if t.startswith("Once the Across bets are placed"))
    assert "cards to the discard rack" in across
    assert not any("stay on the table" in t for t in rules)
    assert not any("No suit outranks" in t or "suits rank equally" in t.lower() for t in rules)


def test_new_jersey_decisions_follow_no_order_the_text_does_not_give():
    rules = rule_texts(render("NJ"))
    decisions = [t for t in rules if t.startswith(("Across.", "Down.", "Middle."))]
    assert len(decisions) == 3 and not any("farthest" in t for t in decisions)


def test_pennsylvania_fold_keeps_only_the_five_card_bonus_wager():
    rules = rule_texts(render("PA"))
    across = next(t for t in rules if t.startswith("Across."))
    assert "cards go to the discard rack" in across and "Five Card Bonus wager stays on the table" in across


def test_pennsylvania_cover_names_the_2019_amendment():
    assert "§§ 674a.7 and 674a.12 amended November 1, 2019, effective November 2, 2019 (49 Pa.B. 6676)" in \
        text(render("PA"))


def test_pinpoints_reach_the_subsection():
    rules = render("PA")
    assert "58 Pa. Code § 674a.3(c)(1)<" in html_lib.unescape(rules)   # the sample deals by hand
    assert "Chapter 11 §A(1)–(5)<" in html_lib.unescape(render("MD"))


def test_house_document_carries_no_state_procedures():
    body = text(render("HOUSE"))
    for phrase in ("backs differ in colour", "discard rack holds one deck", "stub face down", "no more bets"):
        assert phrase not in body, phrase


def test_amount_changes_reach_the_document():
    def limits(data):
        data["five_card_bonus"].update(minimum=Decimal("3"), maximum=Decimal("30"))
    assert "$3 to $30" in text(render("PA", limits))


def test_the_rules_are_restated_in_our_own_words(regulations):
    """No rule or list item repeats ten consecutive words of its jurisdiction's text (runs of numbers, as in the
    rank order or a paytable, are facts, not sentences, and are left out), and none runs two words together."""
    from rulegen import clauses

    def words(value: str) -> list[str]:
        return re.findall(r"[a-z0-9$]+", value.lower().replace("\\$", "$"))

    from tests.test_render_concordance import configurations

    for code in SAMPLES:
        source = " " + " ".join(words((regulations / clauses.load(code).source).read_text())) + " "
        copied = []
        documents = [render(code)] + [render(code, lambda data, new=new: (data.clear(), data.update(new)))
                                      for _name, new in configurations(code)[::3]]
        paragraphs = [found for document in documents for found in
                      re.findall(r'<p class="rule"[^>]*>(.*?)</p>|<li data-clauses[^>]*>(.*?)</li>', document, re.S)]
        for first, second in dict.fromkeys(paragraphs):
            plain = text(re.sub(r'<span class="cite">[^<]*</span>', "", first or second))
            glued = re.search(r"[a-z]\((?!s\))|[a-z][A-Z]|[a-z][.;,][A-Za-z]", plain)
            assert not glued, (code, "words run together", plain)   # a template line break eaten by a tag
            sentence = words(plain)
            for start in range(len(sentence) - 9):
                run = sentence[start:start + 10]
                if sum(token.isdigit() for token in run) < 3 and " " + " ".join(run) + " " in source:
                    copied.append(" ".join(run))
                    break
        assert not copied, (code, copied)


def test_the_wheel_is_drawn_in_the_order_of_its_positions():
    """New Jersey's tables give each prize a wheel position; the drawing follows them, not the rows."""
    from rulegen.render import svg

    rows = [{"label": "$2,500", "weight": None, "position": 2, "highlight": False},
            {"label": "Top", "weight": None, "position": 0, "highlight": True},
            {"label": "$50", "weight": None, "position": 1, "highlight": False}]
    assert re.findall(r">(\$2,500|Top|\$50)<", str(svg.wheel(rows))) == ["Top", "$50", "$2,500"]
    unpositioned = [{**row, "position": None} for row in rows]
    assert re.findall(r">(\$2,500|Top|\$50)<", str(svg.wheel(unpositioned))) == ["$2,500", "Top", "$50"]


def test_wheel_weights_are_said_to_be_the_operators_own_wheel():
    """The text gives Table 3's wheel positions and no weights: where the weights are printed, the rules say whose
    they are, that they go for approval, and that the return rests on them; without weights nothing is said."""
    nj = " ".join(rule_texts(render("NJ")))
    assert ("The weights (how often the wheel stops on each segment) are not the text's: the text gives only the "
            "wheel's positions. They are those of this casino licensee's own wheel, submitted for the approval of the "
            "New Jersey Division of Gaming Enforcement, and the return of the Bonus Spin wager in the math appendix "
            "rests on them.") in nj
    assert "Weight on this wheel" in render("NJ") and "par sheet" not in render("NJ")

    def weighted(data):
        data["bonus_spin"]["wheel"] = [{"symbol": symbol, "weight": weight} for symbol, weight in
                                       (("jackpot", 1), (2500, 2), (1000, 3), (600, 4), (350, 5), (250, 6), (75, 7),
                                        (40, 8), (70, 9), (60, 10), (50, 11))]
    md = " ".join(rule_texts(render("MD", weighted)))
    assert "the text gives no weights. They are those of this facility operator's own wheel" in md
    assert "Maryland Lottery and Gaming Control Commission" in md
    def unweighted(data):
        data["bonus_spin"].pop("wheel", None)
    assert "own wheel" not in " ".join(rule_texts(render("MD", unweighted)))


def test_the_concordance_points_to_the_readings_of_a_clause():
    document = render("MD")
    row = re.search(r'<tr class="[a-z_]+" data-concordance="Chapter 6 §C"[^>]*>(.*?)</tr>', document, re.S)
    row = row or re.search(r'<tr class="[a-z_]+" data-concordance="Chapter 6"[^>]*>(.*?)</tr>', document, re.S)
    assert row and "How we read the text" in row.group(1)


def test_bet_multiples_and_the_cut_come_from_the_jurisdictions_data(tmp_path, monkeypatch):
    """The templates state the bet as multiples of the ante and the cut's depth from the data: a jurisdiction
    file changed in a RULEGEN_DATA_PATH folder changes the sentences."""
    from rulegen.resources import jurisdictions_dir

    folder = tmp_path / "jurisdictions"
    folder.mkdir()
    for code in ("MD", "NJ", "PA"):
        source = (jurisdictions_dir() / f"{code.lower()}.yaml").read_text(encoding="utf-8")
        changed = source.replace("bet_multiple:\n    value: {minimum: 1, maximum: 3}",
                                 "bet_multiple:\n    value: {minimum: 1, maximum: 4}")
        changed = changed.replace("cut_depth_cards:\n    value: 10", "cut_depth_cards:\n    value: 8")
        assert changed.count("maximum: 4}") == 1 and changed.count("cut_depth_cards:\n    value: 8") == 1, code
        (folder / f"{code.lower()}.yaml").write_text(changed, encoding="utf-8")

    def by_hand(data):  # shuffled by hand and dealt from a shoe: every text's cut applies
        data["cards"]["shuffling"] = "manual"
        data["cards"]["dealing"] = "manual-shoe"

    def rules_of(code: str) -> str:  # the rules, not the Concordance's summaries of the text
        return " ".join(rule_texts(render(code, by_hand)))

    shipped = {code: rules_of(code) for code in ("MD", "NJ", "PA")}
    monkeypatch.setenv("RULEGEN_DATA_PATH", str(tmp_path))
    changed = {code: rules_of(code) for code in ("MD", "NJ", "PA")}
    assert "cover card at least ten cards from the top" in shipped["MD"]
    assert "cover card at least eight cards from the top" in changed["MD"]
    assert "at least 10 cards from the top" in shipped["NJ"]
    assert "at least 8 cards from the top" in changed["NJ"]
    assert "cover card at least ten cards from the top" in shipped["PA"]
    assert "cover card at least eight cards from the top" in changed["PA"]
    for code in ("MD", "NJ", "PA"):
        assert "one to three times" in shipped[code] and "one to four times" not in shipped[code]
        assert "one to four times" in changed[code] and "one to three times" not in changed[code]


def test_the_stub_count_states_the_cards_of_a_deck():
    def counted_by_the_dealer(data):
        data["cards"]["shuffling"] = "manual"
        data["cards"]["dealing"] = "manual-shoe"

    for code in ("NJ", "PA"):
        assert "If the count shows 52 cards" in text(render(code, counted_by_the_dealer)), code


def test_a_maximum_win_above_the_limit_is_said_to_be_cut_by_it(sample_build):
    """The house's $3,000 cap is below its maximum win at the minimum wager: the rules and the appendix print the
    figure as the win before the limit, and the amount the limit pays instead (house rules, Pay Tables)."""
    import json

    built = sample_build(Path(samples_dir()) / SAMPLES["HOUSE"])
    manifest = json.loads((built / "manifest.json").read_bytes())
    most = Decimal(str(manifest["figures"]["max_win_per_round_at_minimum"]))
    cap = Decimal(str(load_offering(Path(samples_dir()) / SAMPLES["HOUSE"]).data["payout_limit"]["amount"]))
    assert most > cap
    rules = text((built / "rules.html").read_text())
    assert (f"The most one player can win in a round at the minimum wager is ${most:,.0f} at this table, before the "
            f"limit, which cuts what such a round pays to ${cap:,.0f}.") in rules


def test_md_antes_paid_as_the_text_is_written_ask_no_waiver():
    """MD Chapter 12 §A pays each winning Criss Cross Poker wager, the antes included, from its one table: the sample
    pays the antes so and asks no waiver; the operator's own ante table asks one, in a DRAFT."""
    def own_table(data):
        data["paytables"]["ante"] = "standard"

    written, own = text(render("MD")), text(render("MD", own_table))
    assert "Waiver requested" in own and "Departures from the text, submitted for decision" in own
    assert "waiver" not in written.lower() and "Departures from the text" not in written
    assert "The antes, like every other winning Criss Cross Poker wager, are paid from this paytable, row for row" \
        in written
    # the table is printed once, captioned for the antes and the bets alike (round 28 found it three times)
    assert written.count("Royal flush 500 to 1") == 1 and own.count("Royal flush 500 to 1") == 1
    assert "Ante Across, Ante Down, and the Across, Down and Middle bets" in written


def test_md_operators_ante_table_is_warned_of_and_refused_by_final(tmp_path):
    """The operator's own ante table departs from MD Chapter 12 §A, and the Standard Rules provide no waiver (round
    26 rejected every filing that asked for one): validation warns, naming what to write instead, a DRAFT builds, and
    --final refuses it before anything is written. The sample, paying the antes as written, draws no such finding."""
    from rulegen import assemble
    from rulegen.errors import InvalidOfferingError

    source = (Path(samples_dir()) / SAMPLES["MD"]).read_text()
    line = "  ante: as_written"
    assert line in source
    _loaded, findings = assemble.load_and_validate(Path(samples_dir()) / SAMPLES["MD"])
    assert [f for f in findings if f.level == "error"] == []
    assert not any("waiver" in f.message or f.rule.endswith("-waiver") for f in findings)
    (tmp_path / "md.yaml").write_text(source.replace(line, "  ante: standard", 1))
    loaded, own = assemble.load_and_validate(tmp_path / "md.yaml")
    warned = [f for f in own if f.rule == "MD-12A-waiver"]
    assert [(f.level, f.field) for f in warned] == [("warning", "paytables.ante")]
    assert "provide no waiver" in warned[0].message and "`ante: as_written`" in warned[0].message
    offering = resolve(loaded)
    assert draft_status(offering, False).draft
    with pytest.raises(InvalidOfferingError, match=r"--final cannot file a departure from MLGCA Criss Cross Poker "
                                                   r"Standard Rules, Chapter 12 §A"):
        draft_status(offering, True)
    # the command: exit 1 with the reason, and nothing written, before any figure is computed or page rendered
    from typer.testing import CliRunner

    from rulegen.cli import app

    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(tmp_path / "md.yaml"), "--final", "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert "--final cannot file a departure from MLGCA Criss Cross Poker Standard Rules, Chapter 12 §A" in result.output
    assert not out.exists() or not any(out.iterdir())
    # an ante table whose pay is not a number is one plain error, the reading's check of the table staying quiet
    (tmp_path / "md.yaml").write_text(source.replace(line, "  ante: {pair_jacks_or_better: lots}", 1))
    from rulegen.validate import validate_file

    errors = [f for f in validate_file(tmp_path / "md.yaml", "md.yaml").findings if f.level == "error"]
    assert [(f.field, f.rule) for f in errors] == [("paytables.ante.pair_jacks_or_better", "FORMAT-value")], errors


def test_the_layouts_bonus_spin_inscription_lists_every_pay_of_the_table():
    """NJ's sample inscribes its odds on the layout (13:69E-1.13Z(b)4): the Bonus Spin line lists the top prize and
    every amount of Table 3 with its community pay, as the text's table has them ($500 with $100, $200 with $50,
    $25 with $15), not a cross-reference."""
    layout = re.search(r"<li>Bonus Spin, a winning spin pays: (.*?)</li>", render("NJ"), re.S)
    assert layout, "no Bonus Spin line among the layout's inscriptions"
    line = text(layout[1])
    assert line.startswith("the top prize (the progressive amount on the meter); $2,500; $1,000; ")
    for player, community in (("$500", "$100"), ("$200", "$50"), ("$25", "$15")):
        assert f"{player} (each other player still in the round with a Bonus Spin wager wins {community})" in line
    for alone in ("$350", "$250", "$75", "$70"):
        assert f"; {alone};" in line + ";" or f"; {alone}." in line
    assert "as the Bonus Spin section" not in line


def test_the_maximum_win_reading_is_the_one_for_this_tables_wagers():
    """MD's data reads the maximum win one way with a Five Card Bonus and another without (`max_win_at_minimum`,
    `max_win_at_minimum_main`): the rules print the one the table meets, never the other."""
    readings = {entry["key"]: entry["reading"] for entry in load_jurisdiction("MD").data["readings"]}
    with_bonus, main_only = readings["max_win_at_minimum"], readings["max_win_at_minimum_main"]
    offered = text(render("MD"))
    assert with_bonus in offered and main_only not in offered

    def no_bonus(data):
        del data["five_card_bonus"]

    plain = text(render("MD", no_bonus))
    assert main_only in plain and with_bonus not in plain


def test_a_pa_table_with_a_shuffler_deals_a_preshuffled_deck_for_its_first_round_and_nothing_while_it_is_down():
    """The certificate holder's own procedure (no dealing while the shuffler is out of order) and § 674a.8(f)'s count
    of a preshuffled deck's stub, which no device counts, say one thing: the preshuffled deck is dealt for its first
    round only, while the shuffler works; with two decks, the other waits in the shuffler (§ 674a.3(b)(2))."""
    for decks in (1, 2):
        def counting_shoe(data, decks=decks):
            data["cards"].update(dealing="manual-shoe", shuffling="automated-counting", decks=decks,
                                 back_colours=["red", "blue"][:decks], deck_change_hours=8)
        rules = [t for t in rule_texts(render("PA", counting_shoe)) if "preshuffled" in t]
        down = next(t for t in rules if "while it is out of order, the table deals no cards" in t)
        assert "a deck that arrives preshuffled included" in down and "only with that shuffler" not in down
        dealt = next(t for t in rules if t.startswith("A deck that arrives preshuffled is cut"))
        assert "dealt for its first round without passing through the shuffler" in dealt
        assert ("while the other deck is stored in the shuffler as § 674a.3(b)(2) requires" in dealt) == (decks == 2)
        assert "674a.8(f)" in dealt


def test_the_house_term_backed_up_is_given_its_reading_where_the_rules_use_it():
    """The house text voids a hand in which more than one card must be "backed up" and never says what that is: the
    rules say how this card room reads the term, next to the rule that uses it (round 22 sent back its absence)."""
    words = text(render("HOUSE"))
    rule = words.index("If more than one card has to be backed up, the hand is a misdeal.")
    reading = words.index("We read it as dealers use the term: a card dealt out of turn or to the wrong place")
    assert 0 < reading - rule < 600
    assert "the card room's reading of its own term, submitted for approval" in words


def test_an_md_hand_dealt_table_puts_a_preshuffled_deck_through_its_shuffler_rather_than_cutting_it():
    """Chapter 9 §A(1) deals from the hand only cards the device has shuffled, so Chapter 5 §C(2)'s cut of a
    preshuffled deck is not this table's: the rules say the deck goes through the shuffler, as the operator's
    procedure (round 24 found it cut and dealt); a shoe table cuts it as §D sets out."""
    def hand(data):
        data["cards"].update(dealing="hand", shuffling="automated", decks=1, deck_change_hours=4)
    document = render("MD", hand)
    words = text(document)
    assert "Cards that arrive preshuffled are shuffled by the device too before they are dealt" in words
    assert "the facility operator's own procedure where the two clauses meet, submitted for approval" in words
    assert "Cards that arrive preshuffled are put in a single stack and cut" not in words
    assert "Unless they arrive preshuffled" not in words
    assert not [t for t in rule_texts(document) if t.startswith("To cut") or "cut again" in t]  # not restated
    assert "The cut of §D and the recut of §E do not apply here" in words  # no card it deals is cut (round 25)
    assert "Cards that arrive preshuffled are put in a single stack and cut as §D sets out" in text(render("MD"))
