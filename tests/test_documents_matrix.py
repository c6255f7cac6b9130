"""Every configuration of the matrix (tests/configurations.py) read as a regulator reads it (tests/doccheck.py).

The HTML of the rules, the sign and the appendix of every configuration is checked here; the PDFs of a covering
subset too (one configuration of each jurisdiction, each dealing method and each shuffling among them). The whole
matrix's PDFs are checked by the benchmark (tests/benchmarks/bench_documents_matrix.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.configurations import Configuration, configurations
from tests.doccheck import Config, check_html, concordance_order, configuration_problems, stray_line_breaks

MATRIX = list(configurations())
# The configurations whose PDFs the fast suite reads, chosen so that every jurisdiction, dealing method and way of
# shuffling is among them.
PDF_SUBSET = {"md-fixed-a-manual-shuffle", "nj-t4-fixed", "pa-no-fcb-no-limit", "house-no-six", "md-prog-b-autoshoe",
              "nj-no-limit-stated",  # a wheel with its segment weights, the widest table
              "nj-t5-progressive"}  # the limit following the meter: a sentence the layout once broke after one word


def test_the_matrix_covers_every_dealing_shuffling_and_deck_count():
    seen = {(c.data["cards"]["dealing"], c.data["cards"]["shuffling"], c.data["cards"]["decks"]) for c in MATRIX}
    assert {dealing for dealing, _, _ in seen} == {"manual-shoe", "hand", "automated-shoe"}
    assert {shuffling for _, shuffling, _ in seen} == {"manual", "automated", "automated-counting"}
    assert {decks for _, _, decks in seen} == {1, 2}
    kinds = {(c.data.get("bonus_spin") or {}).get("top_prize", {}).get("kind") for c in MATRIX}
    assert kinds == {None, "progressive", "fixed", "merchandise"}
    assert {c.jurisdiction for c in MATRIX if "five_card_bonus" not in c.data} == {"MD", "NJ", "PA", "HOUSE"} - {"NJ"}
    # a payout limit left out where the text allows it (New Jersey's rule sets it; Pennsylvania's is optional);
    # Maryland's text has every table state its own (MLGCA Chapter 12 §B)
    assert {c.jurisdiction for c in MATRIX if "payout_limit" not in c.data} == {"NJ", "PA"}


@pytest.mark.parametrize("configuration", MATRIX, ids=[c.name for c in MATRIX])
def test_documents_say_only_what_is_true_for_the_table(configuration: Configuration, tmp_path: Path):
    problems = configuration_problems(configuration, tmp_path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", sorted(PDF_SUBSET))
def test_no_text_outside_the_page(name: str, tmp_path: Path):
    configuration = next(c for c in MATRIX if c.name == name)
    problems = configuration_problems(configuration, tmp_path, html=False, pdfs=True)
    assert not problems, "\n".join(problems)


def test_the_check_finds_what_it_looks_for():
    """Each check fails on a document that has its defect (so a passing matrix means something)."""
    config = Config.of(next(c for c in MATRIX if c.name == "md-fixed-a-manual-shuffle").data)
    bad = ('<p class="rule">The dealer, or the shuffler, puts the deck in the shoe; once won, the prize is offered '
           'again at —. New Jersey reads it so. Settled by rulegen\'s settlement code for the Progressivewager.</p>')
    found = "\n".join(check_html("rules.html", bad, config))
    for expected in ("a shuffler", "another jurisdiction", "placeholder", "tool vocabulary"):
        assert expected in found, expected
    halves = ('<p class="rule">If the shuffler breaks down it is covered before the table shuffles or deals another '
              'way.</p><table class="summary"><tr><td>$50,000, rising with the Bonus Spin meter</td></tr></table>'
              '<p class="rule">The payout limit is $50,000.</p>')
    found = "\n".join(check_html("rules.html", halves, config))
    assert "fallback" in found and "follow the meter" in found
    signoff = ('<section class="signoff"><p>The manifest gives the digest of the HTML this document is printed '
               'from.</p></section>')
    assert len(check_html("rules.html", signoff, config)) == 2
    listed = '<p class="rule not-applicable">This chapter governs a shuffler; this table has none.</p>'
    assert check_html("rules.html", listed, config) == []
    order = ('<tr data-concordance="Chapter 5 §D"></tr><tr data-concordance="Chapter 5 §A"></tr>')
    assert concordance_order(order, "MD")


@pytest.mark.parametrize("code", ["MD", "NJ", "PA", "HOUSE"])
def test_the_concordance_follows_the_text_clause_by_clause(code: str):
    """The Concordance lists the inventory in its order; a clause's sub-clauses come right under it, before the next
    clause of its level (as the text prints them), never after a later one (NJ listed 40.11(d) before 40.11(c)'s
    Tables 3 to 5)."""
    from rulegen.clauses import available, load

    if not available(code):
        pytest.skip(f"{code} has no clause inventory")
    inventory = load(code)
    open_parents: list[str] = []
    for clause in inventory.clauses:
        while open_parents and open_parents[-1] != clause.parent:
            open_parents.pop()
        assert clause.parent is None or open_parents, f"{clause.id} comes after its parent {clause.parent}'s siblings"
        open_parents.append(clause.id)


def test_the_check_finds_a_word_the_layout_left_alone_on_a_line():
    """The layout engine can break a line after one word when an element follows the text (here the citation's
    span without the break opportunity the rules' citations carry): the check reads it from the PDF's own lines."""
    from rulegen.render.fetcher import SafeFetcher
    from rulegen.render.pdf import render_pdf
    from rulegen.resources import assets_dir

    head = ('<html><head><link rel="stylesheet" href="rulegen-asset:css/fonts.css">'
            '<link rel="stylesheet" href="rulegen-asset:css/document.css"></head><body><main>')
    text = ("To cut, the dealer puts the cover card at least ten cards from the top of the stack and moves every card "
            "above it, with the cover card, to the bottom; the stack then goes into the dealing shoe.")
    cite = "MLGCA Criss Cross Poker Standard Rules, Chapter 5 §D(1), (2)"
    pdfs = {way: render_pdf(f'{head}<p class="rule">{text}{joint}<span class="cite">{cite}</span></p></main></body>'
                            '</html>', fetcher=SafeFetcher(assets_dir(), {}), effective_date="2027-03-01")
            for way, joint in (("bare", " "), ("with the break opportunity", "<wbr> "))}
    assert "'every' alone on a line" in "\n".join(stray_line_breaks("bare", pdfs["bare"]))
    assert stray_line_breaks("with", pdfs["with the break opportunity"]) == []


def _rules_and_math(configuration: Configuration, folder: Path):
    from rulegen.assemble import math_results, settled
    from rulegen.render import documents
    from rulegen.render.context import draft_status
    from rulegen.validate import validate_file

    folder.mkdir()
    path = configuration.write(folder)
    report = validate_file(path, path.name)
    assert report.offering is not None and not [f for f in report.findings if f.level == "error"]
    offering = settled(report.offering)
    results = math_results(offering)
    return documents.rules_html(offering, results, draft=draft_status(offering, False)), results


def _words(html: str) -> str:
    import html as html_lib
    import re

    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_rules_say_a_game_that_favours_the_player_does_so_with_the_appendixs_figure(tmp_path: Path):
    """MD's §A table paid to the antes as written gives the player the edge: the rules say so, with the figure the
    math computes, beside the rule (round 20 found it only in the appendix); the waiver's table does not."""
    from rulegen.render.filters import percent

    as_written = next(c for c in MATRIX if c.name == "md-limit-no-spin")
    rules, results = _rules_and_math(as_written, tmp_path / "as-written")
    edge = results.main_game.house_edge_per_initial_wager
    assert edge < 0
    assert f"Paid so, the game favours the player: a player who plays the best strategy gains {percent(-edge)} of " \
           "the initial wager (both antes) a round on average" in _words(rules)
    waiver = next(c for c in MATRIX if c.name == "md-ante-operator")
    rules, results = _rules_and_math(waiver, tmp_path / "waiver")
    assert results.main_game.house_edge_per_initial_wager > 0 and "favours the player" not in _words(rules)


def test_the_rules_say_when_community_pays_take_the_bonus_spin_past_the_wager(tmp_path: Path):
    """An Xtreme wager whose community pays take its return past 100% at a full table: the rules give the number of
    other players from which it does and the return there, the appendix's own figures; a wager that stays under at a
    full table says nothing of the kind."""
    import copy

    from rulegen.render.filters import percent
    from tests.configurations import DEALING, sample_data, spin, top, weighted_wheel

    data = copy.deepcopy(sample_data("MD"))
    data["offering"]["id"] = "md-xtreme-b"
    for change in (DEALING["autoshoe-counting-1"], spin(kind="xtreme", wager=5, paytable="B", community_pay="B",
                                                        trigger="pair_in_hole_cards",
                                                        top_prize=top("progressive", 2500, 1000, 2)),
                   weighted_wheel("MD")):
        change(data)
    rules, results = _rules_and_math(Configuration("md-xtreme-b", "MD", data), tmp_path / "xtreme-b")
    rows = results.bonus_spin.weighted.community_value
    over = [row for row in rows if row.return_with_community > 1]
    assert over, "the wheel of this test no longer takes the wager past 100% at a full table"
    words = _words(rules)
    assert "At a full table the wager favours the player:" in words
    assert f"take its return to {percent(over[0].return_with_community)} of the wager" in words
    under = next(c for c in MATRIX if c.name == "md-xtreme-c-pair")
    rules, results = _rules_and_math(under, tmp_path / "xtreme-c")
    assert all(row.return_with_community <= 1 for row in results.bonus_spin.weighted.community_value)
    assert "At a full table the wager favours the player" not in _words(rules)


def test_what_round_26_sent_back_is_said_as_the_table_is(tmp_path: Path):
    """Round 26 sent back three MD points, each mended from the configuration, not from the sample: a Paytable C
    table says plainly that it offers no community pay and submits that (on the sign too); a hand-dealt table's
    counting shuffler does not feed a shoe, and the rules say why §B(1) and (2)'s removal of a short deck reaches it
    all the same; and the appendix says its Bonus Spin returns are the most the wager returns, a fold forfeiting it.
    A shoe table's counting shuffler has §B's words with no such reading."""
    from rulegen.assemble import settled
    from rulegen.render.appendix import render_appendix_html
    from rulegen.render.context import draft_status
    from rulegen.validate import validate_file

    merchandise = next(c for c in MATRIX if c.name == "md-merch-c-hand")
    rules, results = _rules_and_math(merchandise, tmp_path / "c")
    words = _words(rules)
    assert "This table offers no community pay." in words
    assert "submits the wager so, without community pay, for the Commission's approval" in words
    assert "No community pay at this table" in _sign_words("md-merch-c-hand", tmp_path)
    assert "No community pay" not in _sign_words("md-prog-b-autoshoe", tmp_path)  # Paytable B's $500 pays one
    path = merchandise.write(tmp_path / "c")
    offering = settled(validate_file(path, path.name).offering)
    appendix = _words(render_appendix_html(offering, results, draft=draft_status(offering, False)))
    assert "a player who folds loses the Bonus Spin wager with the hand" in appendix
    assert "each figure is the most the wager returns" in appendix

    hand = next(c for c in MATRIX if c.name == "md-xtreme-a-pair")
    assert hand.data["cards"]["dealing"] == "hand" and hand.data["cards"]["shuffling"] == "automated-counting"
    words = _words(_rules_and_math(hand, tmp_path / "hand")[0])
    # §B(1)-(2)'s removal names any counting shuffler: restated at a hand-dealt table too, with the reading that
    # says why (round 30 sent back a Concordance that had them not apply while the rules applied them)
    assert ("if it shows another number, the deck is taken off the table. MLGCA Criss Cross Poker Standard Rules, "
            "Chapter 5 §B(1), (2)") in words
    assert "we read that removal as reaching this table's shuffler" in words
    for clause in ("Chapter 5 §B(1)", "Chapter 5 §B(2)"):
        assert not re.search(re.escape(clause) + r" [^§]{0,200}?Does not apply", words), clause
    shoe = next(c for c in MATRIX if c.name == "md-prog-b-autoshoe")
    assert shoe.data["cards"]["shuffling"] == "automated-counting"
    words = _words(_rules_and_math(shoe, tmp_path / "shoe")[0])
    assert ("if it shows another number, the deck is taken off the table. MLGCA Criss Cross Poker Standard Rules, "
            "Chapter 5 §B(1), (2)") in words
    assert "we read that removal as reaching this table's shuffler" not in words



def _sign_words(name: str, tmp_path: Path) -> str:
    """The words of the letter sign of the matrix's configuration `name`."""
    from rulegen.assemble import settled
    from rulegen.render.context import draft_status
    from rulegen.render.signage import render_signage_html
    from rulegen.validate import validate_file

    configuration = next(c for c in MATRIX if c.name == name)
    folder = tmp_path / f"sign-{name}"
    folder.mkdir()
    path = configuration.write(folder)
    offering = settled(validate_file(path, path.name).offering)
    return _words(render_signage_html(offering, draft=draft_status(offering, False)))
