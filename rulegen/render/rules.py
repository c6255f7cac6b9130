"""The rules document: the jurisdiction's own sections, in its own order, filled in with the operator's choices.

The order and headings come from the jurisdiction data's `sections` list; the words of each section come
from `templates/rules/<code>.html`, one macro per section (named by `section_slug`). Adding a state is its
data file plus that template. Worked examples are settled by `rulegen.game.settle_round`; the figures of
the payout-limit paragraph come from the math results.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from rulegen import clauses, vocabulary
from rulegen.cards import full_deck
from rulegen.render import concordance, examples, svg, tables
from rulegen.render.context import document_info, max_win_reading, signoffs
from rulegen.render.environment import render_template
from rulegen.resolved import clause_config

SHUFFLING_WORDS = vocabulary.SHUFFLING_WORDS
DEALING_WORDS = vocabulary.DEALING_WORDS

if TYPE_CHECKING:
    from rulegen.jurisdiction import Jurisdiction
    from rulegen.math.results import MathReport, MaxWinDetail
    from rulegen.render.context import Draft, DocumentInfo, SignoffRow
    from rulegen.render.examples import WorkedExample
    from rulegen.render.tables import BonusSpinView, PaytableView
    from rulegen.resolved import ResolvedOffering, SideWager


class CitedView(TypedDict):
    """One cited value of the jurisdiction data as a template reads it (`value` is whatever the data holds)."""

    value: Any
    citation: str
    note: str | None
    reading: str | None
    effective: str | None


class JurisdictionView(TypedDict):
    code: str
    template: str
    name: str
    document: dict[str, Any]
    agency: CitedView | None
    operator_term: str
    submission_term: str
    rules: dict[str, CitedView | None]
    wagers: dict[str, CitedView | None]
    readings: dict[str, dict[str, Any] | None]
    quirks: list[Any]
    house_limits: dict[str, Any]
    sections: list[dict[str, Any]]


class PayoutLimitView(TypedDict):
    amount: Decimal | None
    per: str
    follows_meter_above: Decimal | None
    meter_plus: Decimal | None
    rule: CitedView | None
    base: CitedView | None
    covers: CitedView | None
    covers_names: list[str]
    by_rule: bool
    display: str | None
    display_rule: CitedView | None
    max_win: Decimal
    max_win_detail: MaxWinDetail
    counted: dict[str, Any] | None  # the maximum-win reading this table meets: {"reading", "citation", ...}
    notice: CitedView | None


class RulesContext(TypedDict):
    doc: DocumentInfo
    j: JurisdictionView
    c: dict[str, object]
    paytables: dict[str, PaytableView | None]
    five_card_bonus: SideWager | None
    six_card_bonus: SideWager | None
    added_wagers: dict[str, dict[str, Any]]
    bonus_spin: BonusSpinView | None
    spin_return: float | None  # the Bonus Spin's return per wager at the wheel's weights, where they are given
    spin_over: dict[str, Any] | None  # where other players' community pays take the Bonus Spin past its wager
    payout_limit: PayoutLimitView | None
    main_house_edge: float | None  # per initial wager, which the rules state where it favours the player
    layout_svg: str
    examples: list[WorkedExample]
    signoffs: list[SignoffRow]
    signer: str | None
    changes: dict[str, Any] | None
    cl: ClauseNames
    concordance_marker: str


def section_slug(section_id: str) -> str:
    """"Chapter 1" → chapter_1, "13:69F-40.1" → s_13_69f_40_1, "§ 674a.1" → s_674a_1, "5 Card Bonus" → s_5_card_bonus."""
    slug = re.sub(r"[^a-z0-9]+", "_", section_id.lower()).strip("_")
    return "s_" + slug if not slug or slug[0].isdigit() else slug


def sections(jurisdiction: Jurisdiction) -> list[dict[str, Any]]:
    found = []
    for index, section in enumerate(jurisdiction.data.get("sections") or [], start=1):
        entry = {"title": section.get("id"), "citation": None, "effective": None, **section}
        entry["slug"] = section_slug(str(section["id"]))
        entry["anchor"] = f"section-{index}"
        found.append(entry)
    return found


def cited(jurisdiction: Jurisdiction, *keys: str) -> CitedView | None:
    value = jurisdiction.cited(*keys)
    if value is None:
        return None
    return {"value": value.value, "citation": value.citation, "note": value.note, "reading": value.reading,
            "effective": value.effective}


def choices(offering: ResolvedOffering) -> dict[str, object]:
    """The operator's choices the rules state, with the rule each one falls under."""
    jurisdiction = offering.jurisdiction
    cards = offering.cards
    table = offering.table
    limits = offering.limits
    dealing = cards.dealing
    shuffling = cards.shuffling
    procedures = cited(jurisdiction, "rules", "dealing_procedures")
    dealing_citations = (procedures["value"] if procedures is not None else None) or {}
    stub = cited(jurisdiction, "rules", "stub_count_every_rounds")
    change = cited(jurisdiction, "rules", "deck_change_hours")
    change_rule = None
    if change and isinstance(change["value"], dict):
        change_rule = change["value"].get(dealing)
    return {
        "positions": table.positions,
        "payout_odds_display": table.payout_odds_display,
        "payout_limit_display": table.payout_limit_display,
        "decks": cards.decks,
        "cards_per_deck": len(full_deck()),
        "back_colours": list(cards.back_colours),
        "shuffling": shuffling,
        "shuffling_words": (jurisdiction.data.get("shuffling_words") or {}).get(shuffling)
        or SHUFFLING_WORDS.get(shuffling, shuffling),
        "automated_shuffler": shuffling in ("automated", "automated-counting"),
        "counting_shuffler": shuffling == "automated-counting",
        "manual_shuffle": shuffling == "manual",
        "dealing": dealing,
        "dealing_words": DEALING_WORDS.get(dealing, dealing),
        "dealing_citation": dealing_citations.get(dealing),
        "stub_count_required": bool(stub and stub["value"]) and shuffling != "automated-counting",
        "stub_count_every": stub["value"] if stub else None,
        "stub_citation": stub["citation"] if stub else None,
        "deck_change_hours": cards.deck_change_hours,
        "deck_change_rule_hours": change_rule,
        "deck_change_citation": change["citation"] if change else None,
        "ante": limits.ante,
        "adjacent_boxes": limits.adjacent_boxes,
    }


def spin_over_the_wager(results: MathReport) -> dict[str, Any] | None:
    """Where the community pays of other players' spins take the Bonus Spin's return past the wager: from how many
    other players, and the return at a full table (the rules say so, as the appendix's table shows)."""
    spin = results.bonus_spin
    past = spin.weighted.past_the_wager() if spin is not None and spin.weighted is not None else None
    if past is None:
        return None
    first, full = past
    return {"from": first.other_players, "from_return": first.return_with_community,
            "full": full.other_players, "full_return": full.return_with_community}


def payout_limit(offering: ResolvedOffering, results: MathReport) -> PayoutLimitView | None:
    """The payout limit as the rules state it, with the maximum win per round from the math results."""
    jurisdiction = offering.jurisdiction
    amount = offering.payout_limit.amount
    rule = cited(jurisdiction, "payout_limit", "rule")
    if rule is None and amount is None:
        return None
    covers = cited(jurisdiction, "payout_limit", "covers")
    base = cited(jurisdiction, "payout_limit", "base_amount")
    display = cited(jurisdiction, "rules", "payout_limit_display")
    max_win = results.max_win
    return {
        "amount": amount,
        "rule": rule,
        "base": base,
        "covers": covers,
        "covers_names": [tables.WAGER_NAMES.get(w, w) for w in offering.payout_limit.covers],
        "by_rule": offering.payout_limit.by_rule,
        "per": offering.payout_limit.per,
        "follows_meter_above": offering.payout_limit.follows_meter_above,
        "meter_plus": offering.payout_limit.meter_plus,
        "display": offering.table.payout_limit_display,
        "display_rule": display,
        "max_win": max_win.amount,
        "max_win_detail": max_win.detail,
        # the reading of what the maximum win counts that this table meets: the appendix's, word for word
        "counted": max_win_reading(jurisdiction, clause_config(offering)),
        "notice": cited(jurisdiction, "payout_limit", "notice_of_decrease"),
    }


def jurisdiction_view(jurisdiction: Jurisdiction) -> JurisdictionView:
    data = jurisdiction.data
    return {
        "code": jurisdiction.code,
        "template": jurisdiction.code.lower(),
        "name": jurisdiction.name,
        "document": {"clauses_are": "numbered", "title": None, "version": None, "effective": None, "effective_note": None, "adopted": None, "source": None, "amended": [],
                     **(data.get("document") or {})},
        "agency": cited(jurisdiction, "agency"),
        "operator_term": jurisdiction.operator_term,
        "submission_term": (data.get("submission_term") or {}).get("value") or "rules submission",
        "rules": {key: cited(jurisdiction, "rules", key) for key in (data.get("rules") or {})},
        "wagers": {key: cited(jurisdiction, "wagers", key) for key in (data.get("wagers") or {})},
        "readings": {entry["key"]: entry for entry in data.get("readings") or [] if "key" in entry},
        "quirks": list(data.get("quirks") or []),
        "house_limits": data.get("house_limits") or {},
        "sections": sections(jurisdiction),
    }


class ClauseNames:
    """What a template asks of the clause inventory: the ids a rule restates, their citation, why one does not apply.

    A rule names its clauses as ids (`"Chapter 8 §D(3)"`), as a full citation from the jurisdiction data, or as a
    list of either; `X*` is a clause with everything under it (a printed table).
    """

    def __init__(self, inventory: clauses.Inventory | None, config: clauses.OfferingConfig):
        self.inventory = inventory
        self.config = config

    def ids(self, *names: object) -> list[str]:
        found: list[str] = []
        for name in names:
            if name is None or name == "":
                continue
            if isinstance(name, (list, tuple)):
                found.extend(self.ids(*name))
                continue
            text = str(name)
            if self.inventory is not None and text.startswith(self.inventory.citation_prefix):
                found.extend(self.inventory.ids_of_citation(text))
            else:
                if self.inventory is not None:
                    self.inventory.expand([text])  # an unknown id is an error here, not a silent citation
                found.append(text)
        return list(dict.fromkeys(found))

    def attr(self, *names: object) -> str:
        return "|".join(self.ids(*names))

    def id(self, citation: str) -> str:
        """The clause a citation from the jurisdiction data names, as an id (`Chapter 8`, `674a.9`): a template
        names a section the data gives, never one it works out itself."""
        ids = self.ids(citation)
        if len(ids) != 1:
            raise ValueError(f"{citation!r} names {len(ids)} clauses, not one")
        return ids[0]

    def cite(self, *names: object) -> str:
        ids = self.ids(*names)
        if self.inventory is None:
            return ", ".join(ids)
        return self.inventory.citation(ids)

    def reason(self, clause_id: str) -> str | None:
        if self.inventory is None:
            return None
        return self.inventory.not_applying(clause_id, self.config)

    def applies(self, clause_id: str) -> bool:
        return self.reason(clause_id) is None

    def summary(self, clause_id: str) -> str:
        return self.inventory.clause(clause_id).summary if self.inventory is not None else clause_id


def for_this_table(j: JurisdictionView, config: clauses.OfferingConfig) -> JurisdictionView:
    """The view with only the readings and notes on the text whose `when` this table meets: a reading about a
    wager, a device or a table the offering does not have is not printed (a reading left out reads as None)."""
    return {**j, "readings": {key: entry if entry is not None and clauses.unmet(entry.get("when") or {}, config) is None
                              else None for key, entry in j["readings"].items()},
            "quirks": [entry for entry in j["quirks"] if clauses.unmet(entry.get("when") or {}, config) is None]}


def rules_context(offering: ResolvedOffering, results: MathReport, *, draft: Draft, signer: str | None = None,
                  changes: dict[str, Any] | None = None) -> RulesContext:
    """`offering` is the resolved offering (`rulegen.resolved.ResolvedOffering`)."""
    jurisdiction = offering.jurisdiction
    inventory = clauses.load(jurisdiction.code) if clauses.available(jurisdiction.code) else None
    config = clause_config(offering)
    j = for_this_table(jurisdiction_view(jurisdiction), config)
    paytables = tables.offering_paytables(offering)
    spin = tables.bonus_spin(offering)
    five, six = offering.five_card_bonus, offering.six_card_bonus
    return {
        "doc": document_info(offering, kind="rules", title=f"Criss Cross Poker — Rules Submission "
                             f"({jurisdiction.name})", short_title="Rules", draft=draft),
        "j": j,
        "c": choices(offering),
        "paytables": paytables,
        "five_card_bonus": five,
        "six_card_bonus": six,
        "added_wagers": tables.added_wagers(offering),
        "bonus_spin": spin,
        "spin_return": (results.bonus_spin.weighted.return_per_wager
                        if results.bonus_spin is not None and results.bonus_spin.weighted is not None else None),
        "spin_over": spin_over_the_wager(results),
        "payout_limit": payout_limit(offering, results),
        # the main game's house edge per initial wager, which the rules state where it favours the player
        "main_house_edge": results.main_game.house_edge_per_initial_wager,
        "layout_svg": svg.cross_layout(five_card_bonus=five is not None, bonus_spin=spin is not None,
                                       six_card_bonus=six is not None),
        "examples": examples.worked_examples(offering),
        "signoffs": signoffs(offering, signer),
        "signer": signer,
        "changes": changes,
        "cl": ClauseNames(inventory, config),
        "concordance_marker": concordance.MARKER if inventory is not None else "",
    }


def render_rules_html(offering: ResolvedOffering, results: MathReport, *, draft: Draft, signer: str | None = None,
                      changes: dict[str, Any] | None = None) -> str:
    """The rules document; its Concordance is read from the rendered body's `data-clauses` and put in last."""
    context = rules_context(offering, results, draft=draft, signer=signer, changes=changes)
    html = render_template("rules.html", **context)
    names = context["cl"]
    if names.inventory is None:
        return html
    found = concordance.rows(names.inventory, names.config, html)
    read = concordance.read(names.inventory, found, context["j"]["readings"].values())
    table = render_template("rules/_concordance.html", rows=found, j=context["j"], inventory=names.inventory,
                            read=read)
    return html.replace(concordance.MARKER, table, 1)
