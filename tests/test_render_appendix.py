"""The math appendix reads the typed math results by attribute: a field the template asks for and the results
do not have stops the render (Jinja's StrictUndefined) instead of dropping a line; a wager not offered is None
and its section is left out."""

from __future__ import annotations

import dataclasses
import re

import jinja2
import pytest

from rulegen import assemble
from rulegen.render import appendix
from rulegen.render.context import draft_status
from rulegen.resolved import resolve
from rulegen.render.environment import render_template
from rulegen.resources import samples_dir


@pytest.fixture(scope="module")
def pa(math_cache):
    path = samples_dir() / "pa-five-card-bonus.yaml"
    loaded, _findings = assemble.load_and_validate(path)
    offering = resolve(loaded)
    report = assemble.math_results(offering)
    context = appendix.appendix_context(offering, report, draft=draft_status(offering, False))
    return report, context


class Renamed:
    """The main game's results with one field renamed, as a careless edit of the math layer would leave them."""

    def __init__(self, main):
        self._main = main

    def __getattr__(self, name):
        if name == "house_edge_per_ante":
            raise AttributeError(name)
        return getattr(self._main, name)


def test_the_appendix_renders_the_typed_results(pa):
    report, context = pa
    html = render_template("appendix.html", **context)
    assert report.six_card_bonus is None and report.bonus_spin is None
    assert "<h2>Six Card Bonus</h2>" not in html and "<h2>Bonus Spin wheel</h2>" not in html
    assert "<h2>Five Card Bonus</h2>" in html
    assert all(check.passed for check in report.verification) and html.count("<td>passed</td>") == len(
        report.verification)


def test_a_renamed_field_stops_the_render(pa):
    _report, context = pa
    with pytest.raises(jinja2.UndefinedError):
        render_template("appendix.html", **{**context, "main": Renamed(context["main"])})


def test_a_renamed_bonus_field_stops_the_render(pa):
    report, context = pa

    @dataclasses.dataclass(frozen=True)
    class OldBonus:  # the bonus result as a dict-shaped older layer named it: no `element_of_risk`
        house_edge: float
        hit_frequency: float
        standard_deviation: float
        boards: int
        outcomes: tuple

    five = report.five_card_bonus
    old = OldBonus(five.house_edge, five.hit_frequency, five.standard_deviation, five.boards, five.outcomes)
    with pytest.raises(jinja2.UndefinedError):
        render_template("appendix.html", **{**context, "five": old})


def test_the_appendix_cites_its_own_jurisdiction_and_counts_as_it_does(pa):
    """Pennsylvania's payout limit leaves the Five Card Bonus out of the maximum win (58 Pa. Code § 674a.12(d)):
    the headline says so, and every citation is Pennsylvania's."""
    _report, context = pa
    html = render_template("appendix.html", **context)
    assert "(and the Five Card Bonus minimum)" not in html
    assert "58 Pa. Code § 674a.12(d)" in html
    assert "MLGCA" not in html and "N.J.A.C." not in html and "Maryland" not in html


# --- the Bonus Spin section: what the return rests on, with and without the wheel's weights ------------------------

def _spin_section(pa, tmp_path, code, *changes):
    """The appendix's Bonus Spin section for the sample of `code` changed by `changes` (tests/configurations.py),
    rendered into the PA context (the section reads only its own wheel, so no other main game is analysed)."""
    import copy

    from rulegen.math.report import wheel_setting
    from rulegen.math.wheel import bonus_spin_math
    from rulegen.offering import load_offering
    from rulegen.render import tables
    from tests.configurations import Configuration, sample_data

    data = copy.deepcopy(sample_data(code))
    for change in changes:
        change(data)
    offering = resolve(load_offering(Configuration(f"{code.lower()}-spin", code, data).write(tmp_path)))
    spin = bonus_spin_math(offering.game_rules.bonus_spin, wheel_setting(offering))
    table = tables.bonus_spin(offering)
    _report, context = pa
    html = render_template("appendix.html", **{**context, "wheel": appendix.wheel_view(spin, table,
                                                                                         offering.jurisdiction),
                                               "spin_citation": table["citation"] if table else None})
    section = html[html.index("<h2>Bonus Spin wheel</h2>"):html.index("<h2>Maximum win")]
    section = re.sub(r"</?(b|span)\b[^>]*>", "", section)  # inline markup, so that sentences read whole
    return " ".join(section.replace("&#39;", "'").replace("&amp;", "&").split())


def test_the_md_sample_wheel_without_weights_gives_its_return_exactly(pa, tmp_path):
    """Paytable D at $5, a pair in the hole cards (78 of 1,326), a $5,000 meter reset at $5,000 and 2.5% a wager,
    no community pay: return = 78/1326 x M / $5 + 2.5% = M/$85 + 2.5%, 100% at M = 85 x 39/40 = $82.875."""
    from tests.configurations import without

    section = _spin_section(pa, tmp_path, "MD", lambda data: without("wheel")(data["bonus_spin"]))
    assert "M/$85 + 2.5% = 78/1326 × M / $5 + 2.5%" in section
    assert ">0 to 5<" in section and "M = $82.875" in section
    assert "the reset amount of its meter, $5,000" in section and "starts at its initial amount, $5,000" in section
    assert "C is $0" in section
    assert "par sheet" not in section and "does not show how often the wheel stops on it" in section
    assert "in the order the text lists them" in section


def test_an_nj_table_4_wheel_without_weights_counts_the_community_pays(pa, tmp_path):
    from tests.configurations import spin, top

    section = _spin_section(pa, tmp_path, "NJ", spin(kind="progressive", wager=1, paytable="4",
                                                     trigger="pair_in_hole_cards", top_prize=top("fixed", 2500),
                                                     hardware_approval="MO-381-17-019-DGE"))
    assert "(M + kC)/$17 = 78/1326 × (M + k × C) / $1" in section
    assert "$20 when the wheel stops on $100, $10 on $50, $3 on $15" in section
    assert "its fixed amount, $2,500" in section
    for k in range(6):  # 1326/78 = 17: each other player adds k/17 per dollar of C; 100% where M + kC = $17
        community = "" if k == 0 else (" + C" if k == 1 else f" + {k}C")
        assert f"M{community} = $17" in section
        if k:
            assert f"{k}/17 (" in section
    assert ">6<" not in section  # six positions: at most five others
    assert "in the order of the wheel positions the table gives" in section


def test_a_merchandise_top_prize_is_counted_at_its_stated_value(pa, tmp_path):
    from tests.configurations import spin, top

    section = _spin_section(pa, tmp_path, "NJ", spin(kind="progressive", wager=1, paytable="4",
                                                     trigger="pair_in_hole_cards",
                                                     top_prize=top("merchandise", 5000, description="A motorcycle"),
                                                     hardware_approval="MO-381-17-019-DGE"))
    assert "the casino licensee's stated value of the merchandise, $5,000" in section


def test_weights_are_said_to_be_the_operators_own_wheel(pa, tmp_path):
    section = _spin_section(pa, tmp_path, "NJ")
    assert ("those of the casino licensee's own wheel, submitted for the approval of the New Jersey Division of "
            "Gaming Enforcement; the text gives only the wheel's positions") in section
    assert "The return below rests on them" in section and "par sheet" not in section
    assert "Value of community pays to one Bonus Spin wager" in section


def test_a_bonus_row_the_table_names_as_one_is_listed_as_one(pa):
    """PA's Five Card Bonus pays "Pair of 6s or better 1 to 1" (§ 674a.12(c)): the appendix lists that one row, its
    boards the analysis's pairs of jacks to aces and pairs of 6s to 10s together (C(52,5) x their probabilities)."""
    report, context = pa
    classes = {row.hand_class: row for row in report.five_card_bonus.outcomes}
    assert {"pair_jacks_or_better", "pair_sixes_through_tens"} <= set(classes)
    listed = {row.hand_class: row for row in context["five"].outcomes}
    assert "pair_jacks_or_better" not in listed and "pair_sixes_through_tens" not in listed
    joined = listed["pair_sixes_or_better"]
    # every pair of 6s to aces: 9 ranks x C(4,2) suits of the pair x C(12,3) other ranks x 4^3 suits
    assert joined.combinations == 9 * 6 * 220 * 64 == 760_320
    assert joined.combinations == (classes["pair_jacks_or_better"].combinations
                                   + classes["pair_sixes_through_tens"].combinations)
    assert sum(row.combinations for row in context["five"].outcomes) == 2_598_960
    html = render_template("appendix.html", **context)
    assert "<td>Pair of 6s or better</td><td class=\"num\">1 to 1</td><td class=\"num\">760,320</td>" in html
    assert "Pair of 6s through 10s" not in html


def test_a_game_that_favours_the_player_says_so(tmp_path, math_cache):
    """MD's antes paid from §A's own table (as_written) give the player the edge: the appendix says so in words,
    beside the negative figure, which is the analysis's own."""
    source = (samples_dir() / "md-progressive.yaml").read_text()
    (tmp_path / "md.yaml").write_text(source.replace("  ante: standard\n", "  ante: as_written\n"))
    for logo in samples_dir().glob("*.svg"):
        (tmp_path / logo.name).write_bytes(logo.read_bytes())
    loaded, _findings = assemble.load_and_validate(tmp_path / "md.yaml")
    offering = resolve(loaded)
    report = assemble.math_results(offering)
    assert report.main_game.house_edge_per_ante < 0
    html = render_template("appendix.html", **appendix.appendix_context(offering, report,
                                                                         draft=draft_status(offering, False)))
    assert "The main game's house edge is negative: as filed, the game favours the player" in html


def test_a_game_that_favours_the_house_says_nothing_of_the_player(pa):
    report, context = pa
    assert report.main_game.house_edge_per_ante > 0
    assert "favours the player" not in render_template("appendix.html", **context)
