"""Every clause accounted for, in every configuration an offering can take.

For each jurisdiction the sample offering is varied over every dealing method and shuffler (with one or two
decks where allowed), each optional wager present or absent, the payout limit present or absent, and each Bonus
Spin kind, paytable, community-pay table, wager and top-prize kind. The rules HTML of each (no PDF) must restate
every clause of the inventory that applies, name no clause that does not apply or does not exist, and list every
clause in its Concordance.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest

from rulegen import clauses
from rulegen.jurisdiction import load_jurisdiction
from rulegen.offering import load_offering
from rulegen.render import concordance
from rulegen.render.context import draft_status
from rulegen.render.rules import clause_config, render_rules_html
from rulegen.resolved import resolve
from rulegen.resources import samples_dir

# The rules HTML without the math: no maximum-win figure is printed (the template's branch for a missing figure), and
# a main game that favours the house, of which the rules say nothing.
NO_MATH = SimpleNamespace(max_win=SimpleNamespace(amount=None, detail=None), bonus_spin=None,
                          main_game=SimpleNamespace(house_edge_per_initial_wager=0.04))

SAMPLES = {"MD": "md-progressive.yaml", "NJ": "nj-bonus-spin.yaml", "PA": "pa-five-card-bonus.yaml",
           "HOUSE": "house-six-card-bonus.yaml"}
CARDS = [(dealing, shuffling, decks)
         for dealing in ("manual-shoe", "hand", "automated-shoe")
         for shuffling in ("manual", "automated", "automated-counting")
         for decks in (1, 2)
         if not (dealing == "hand" and shuffling == "manual") and not (decks == 2 and shuffling == "manual")]


def _sample(code):
    return load_offering(Path(samples_dir()) / SAMPLES[code])


def _with_cards(data, code, dealing, shuffling, decks):
    data["cards"].update(dealing=dealing, shuffling=shuffling, decks=decks,
                         back_colours=["red", "blue"][:decks])
    hours = (load_jurisdiction(code).data["rules"].get("deck_change_hours") or {}).get("value")
    if hours:
        data["cards"]["deck_change_hours"] = hours[dealing]
    else:
        data["cards"].pop("deck_change_hours", None)
    return data


def _bonus_spin_variants(code):
    if code == "MD":
        tops = ("progressive", "fixed", "merchandise")
        for index, (letter, community) in enumerate(itertools.product("ABCD", ("A", "B", None))):
            top = tops[index % 3]
            spin = {"kind": "progressive", "wager": 5, "paytable": letter, "trigger": "pair_in_hole_cards",
                    "top_prize": {"kind": top, "initial": 5000, "reset": 5000, "rate_of_progression_percent": 2.5}}
            if community:
                spin["community_pay"] = community
            yield spin
        for index, letter in enumerate("ABCDEFGHI"):
            wager = (1, 2, 5)[index % 3]
            yield {"kind": "xtreme", "wager": wager, "paytable": letter, "community_pay": letter,
                   "trigger": "pair_or_suited_hole_cards",
                   "top_prize": {"kind": "progressive", "initial": 5000, "reset": 1000,
                                 "rate_of_progression_percent": 2}}
        yield {"kind": "xtreme", "wager": 1, "paytable": "A", "trigger": "suited_hole_cards",
               "top_prize": {"kind": "progressive", "initial": 2500, "reset": 1000, "rate_of_progression_percent": 2}}
    if code == "NJ":
        for table, top in (("3", "progressive"), ("3", "fixed"), ("3", "merchandise"), ("4", "fixed"),
                           ("4", "merchandise"), ("5", "progressive")):
            yield {"kind": "progressive", "wager": 5 if table == "3" else 1, "paytable": table,
                   "trigger": "pair_in_hole_cards", "hardware_approval": "MO-381-17-019-DGE",
                   "top_prize": {"kind": top, "initial": 10000, "reset": 10000}}


def configurations(code):
    base = _sample(code)
    found = []
    # every card configuration twice, each time with another of the four optional-wager and limit combinations
    pairs = list(itertools.product((True, False), (True, False)))
    cases = [(cards, *pairs[(index + turn) % 4]) for index, cards in enumerate(CARDS) for turn in (0, 2)]
    for (dealing, shuffling, decks), five, limit in cases:
        data = _with_cards(copy.deepcopy(base.data), code, dealing, shuffling, decks)
        if not five:
            data.pop("five_card_bonus", None)
            data.pop("six_card_bonus", None)
        if not limit:
            data.pop("payout_limit", None)
        else:
            data.setdefault("payout_limit", {"amount": 50000 if code != "HOUSE" else 3000})
        data.pop("bonus_spin", None)
        name = f"{dealing}/{shuffling}/{decks}d/{'5cb' if five else 'no5cb'}/{'limit' if limit else 'nolimit'}"
        found.append((name, data))
    for spin in _bonus_spin_variants(code):
        data = copy.deepcopy(base.data)
        data["bonus_spin"] = spin
        found.append((f"bonus-spin {spin['kind']} {spin['paytable']} ${spin['wager']} community "
                      f"{spin.get('community_pay')} top {spin['top_prize']['kind']}", data))
    if code == "HOUSE":
        data = copy.deepcopy(base.data)
        data.pop("six_card_bonus", None)
        found.append(("five card bonus without six", data))
    return found


def _render(base, data, code):
    offering = resolve(SimpleNamespace(data=data, sha256=base.sha256, path=base.path, display_path=str(base.path)))
    assert offering.jurisdiction == load_jurisdiction(code)
    # the product's reading of the offering, checked apart (the wager's name in the text is the data's, not a choice)
    assert dataclasses.replace(clause_config(offering), bonus_spin_names=()) == config_of(data)
    return render_rules_html(offering, NO_MATH, draft=draft_status(offering, False))


def config_of(data):
    """Which clauses apply, read from the raw offering independently of the renderer's `clause_config`."""
    cards, spin = data.get("cards") or {}, data.get("bonus_spin") or {}
    wager = spin.get("wager")
    return clauses.OfferingConfig(
        dealing=cards.get("dealing"), shuffling=cards.get("shuffling"), decks=cards.get("decks"),
        five_card_bonus=bool(data.get("five_card_bonus")), six_card_bonus=bool(data.get("six_card_bonus")),
        bonus_spin=spin.get("kind"), bonus_spin_paytable=str(spin["paytable"]) if spin else None,
        bonus_spin_wager=int(wager) if wager is not None and Decimal(str(wager)) % 1 == 0 else None,
        community_pay=str(spin["community_pay"]) if spin.get("community_pay") is not None else None,
        top_prize=(spin.get("top_prize") or {}).get("kind", "fixed") if spin else None,
        payout_limit=(data.get("payout_limit") or {}).get("amount") is not None,
        ante_table=_ante_name(data))


def _ante_name(data):
    """The ante table's name as written, or the authorized table a written-out one pays as (the house's)."""
    from rulegen.resolved import resolve_paytable

    choice = (data.get("paytables") or {}).get("ante", "standard")
    if isinstance(choice, str):
        return choice
    return resolve_paytable(load_jurisdiction(data["offering"]["jurisdiction"]), "ante", choice)[1]


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_every_clause_is_restated_or_does_not_apply_in_every_configuration(code):
    inventory = clauses.load(code)
    base = _sample(code)
    problems = []
    for name, data in configurations(code):
        html = _render(base, data, code)
        config = config_of(data)
        places = concordance.restated(html, inventory)
        rows = concordance.rows(inventory, config, html)
        missing = [row.clause_id for row in rows if row.status == "unaccounted"]
        wrong = sorted(ident for ident in places if inventory.not_applying(ident, config))
        listed = {row.clause_id for row in rows}
        for row in rows:
            if row.covers:
                listed.update(d.id for d in inventory.descendants(row.clause_id))
        unlisted = [c.id for c in inventory.clauses if c.id not in listed]
        in_html = set(re.findall(r'data-concordance="([^"]+)"', html))
        if missing or wrong or unlisted or in_html != {row.clause_id for row in rows}:
            problems.append(f"{name}: not restated {missing}; restated though not applying {wrong}; "
                            f"missing from the Concordance {unlisted}")
        applicable_restated = [i for i in places if not inventory.not_applying(i, config)]
        assert applicable_restated, name
    assert not problems, "\n".join(problems[:10])


def test_a_rule_naming_an_unknown_clause_fails_the_render():
    from rulegen.render.rules import ClauseNames

    names = ClauseNames(clauses.load("MD"), clauses.OfferingConfig())
    with pytest.raises(clauses.InventoryError):
        names.attr("Chapter 2 §D")
    assert (names.attr("Chapter 6 §A", "MLGCA Criss Cross Poker Standard Rules, Chapter 6 §B")
            == "Chapter 6 §A|Chapter 6 §B")


def test_a_clause_left_out_is_reported_not_hidden():
    """Remove one rule's clauses from a rendered document: the Concordance marks the clause as not restated."""
    base = _sample("MD")
    html = _render(base, copy.deepcopy(base.data), "MD")
    cut = html.replace('data-clauses="Chapter 13 §B"', 'data-clauses=""')
    assert cut != html
    config = config_of(base.data)
    rows = concordance.rows(clauses.load("MD"), config, cut)
    assert [r.clause_id for r in rows if r.status == "unaccounted"] == ["Chapter 13", "Chapter 13 §B"]


def test_sections_that_do_not_apply_say_why():
    base = _sample("MD")
    data = _with_cards(copy.deepcopy(base.data), "MD", "automated-shoe", "automated-counting", 1)
    html = _render(base, data, "MD")
    assert "summarized for completeness" not in html
    assert html.count("None of its clauses applies to this table") == 2     # Chapters 8 and 9
    assert "governs dealing from the dealer&#39;s hand; this table deals from an automated dealing shoe" in html


def test_concordance_is_the_last_section_before_the_sign_off():
    base = _sample("PA")
    html = _render(base, copy.deepcopy(base.data), "PA")
    assert html.index('id="concordance"') > html.index('id="readings"')
    assert html.index('id="concordance"') < html.index('id="signoff"')
    assert '<a href="#concordance">Concordance</a>' in html


def test_amounts_come_from_the_offering():
    base = _sample("MD")
    data = copy.deepcopy(base.data)
    data["limits"]["ante"] = {"minimum": Decimal("7"), "maximum": Decimal("70")}
    html = _render(base, data, "MD")
    assert "$7 to $70" in html


def test_a_house_heading_restated_says_which_of_its_parts_do_not_apply():
    """The house text numbers nothing: one heading holds the Six Card Bonus's marker, limits and paytable beside the
    main game's. Without that wager the Concordance points the heading to its section and says which parts are not
    restated, and why; with it, nothing is left out."""
    import copy

    base = _sample("HOUSE")
    without = copy.deepcopy(base.data)
    without.pop("six_card_bonus", None)
    html = _render(base, without, "HOUSE")
    assert "Not restated: the opaque marker over the Six Card Bonus cards; that part applies only where the Six " \
           "Card Bonus is offered" in " ".join(html.split())
    assert "Not restated: the Six Card Bonus paytable" in html and "Not restated: the Five Card Bonus" not in html
    assert "Not restated:" not in _render(base, copy.deepcopy(base.data), "HOUSE")
