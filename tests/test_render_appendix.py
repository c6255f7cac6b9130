"""The math appendix reads the typed math results by attribute: a field the template asks for and the results
do not have stops the render (Jinja's StrictUndefined) instead of dropping a line; a wager not offered is None
and its section is left out."""

from __future__ import annotations

import dataclasses

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
