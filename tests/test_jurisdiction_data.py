"""Every value of the jurisdiction data is cited, in its jurisdiction's citation form, and the samples are usable.

The data is read from the installed package (`rulegen.resources.jurisdictions_dir()`), so a file left out of the
wheel fails here. Each check is a function returning the problems it finds; every check is also run on a
deliberately broken in-memory copy, so a checker that stopped looking would fail its own test.
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
import os
import re
from decimal import Decimal
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from rulegen.resources import jurisdictions_dir, samples_dir, schemas_dir

CODES = ("MD", "NJ", "PA", "HOUSE")

# The offering format's hand classes: the only keys a paytable may have.
HAND_CLASSES = frozenset({
    "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind",
    "two_pair", "pair_jacks_or_better", "pair_sixes_through_tens", "pair_sixes_or_better",
})

HOUSE_HEADINGS = ("Equipment", "Game and Bonus wagers", "Pay Tables", "Dealing procedures", "Round of Play",
                  "Paying Out", "5 Card Bonus", "6 Card Bonus Wager", "Irregularities")

# One pattern per jurisdiction, at pinpoint level: Maryland "Chapter N §X(1)(a)(i)" (never "Ch."), with an
# optional range "-(4)"; New Jersey "13:69F-40.N(x)1" or "13:69E-1.13Z(x)" with an optional "Table N";
# Pennsylvania "§ 674a.N(x)(1)(i)"; house rules one of the house text's headings.
_MD_PART = r"\((?:\d+|[a-z]|[ivx]+)\)"
CITATION_FORMS = {
    "MD": re.compile(r"^MLGCA Criss Cross Poker Standard Rules, Chapter (?:[1-9]|1[0-3])"
                     rf"(?: §[A-Z](?:{_MD_PART})*(?:-{_MD_PART})?)?$"),
    "NJ": re.compile(r"^N\.J\.A\.C\. (?:13:69F-40\.(?:[1-9]|1[0-2])|13:69E-1\.13Z)"
                     r"(?:\([a-z]\)(?:\d+(?:\.?[ivx]+)?)?)?(?: Table [1-5])?$"),
    "PA": re.compile(r"^58 Pa\. Code § 674a\.(?:[1-9]|1[0-3])(?:\([a-z]\)(?:\(\d+\)(?:\([ivx]+\))?)?)?$"),
    "HOUSE": re.compile(r"^House rules, (?:" + "|".join(map(re.escape, HOUSE_HEADINGS)) + r")$"),
}

# The top-level keys whose every leaf must sit inside a cited value.
CITED_AREAS = ("agency", "operator_term", "rules", "wagers", "paytables", "bonus_spin", "payout_limit", "house_limits")

REQUIRED_TOP = ("code", "name", "document", "agency", "operator_term", "sections", "rules", "wagers", "paytables",
                "payout_limit", "readings", "quirks")
REQUIRED_RULES = ("positions", "payout_odds_display", "payout_limit_display", "one_deck_cover_card", "two_decks",
                  "deck_change_hours", "hand_dealing_requires_automated_shuffler", "stub_count_every_rounds",
                  "dealing_procedures", "equal_antes", "bet_multiple", "adjacent_boxes_required",
                  "bonus_spin_hardware", "middle_bet", "bonus_spin_after_fold")
REQUIRED_PAYOUT_LIMIT = ("rule", "required", "base_amount", "covers", "counted_in_max_win")
WAGER_NAMES = frozenset({"ante_across", "ante_down", "across", "down", "middle", "five_card_bonus",
                         "six_card_bonus", "bonus_spin"})
OPERATOR_TERMS = {"MD": "facility operator", "NJ": "casino licensee", "PA": "certificate holder", "HOUSE": "card room"}
REQUIRED_READINGS = {
    "MD": {"ante_table", "payout_limit_rule", "xtreme_initial_reset", "bonus_spin_wager_size",
           "community_pay_symbols", "fixed_prize_rate_of_progression", "max_win_at_minimum", "middle_both_push",
           "bonus_spin_after_fold"},
    "NJ": {"payout_limit_rule", "payout_limit_covers", "max_win_at_minimum", "bonus_spin_after_fold"},
    "PA": {"payout_limit_rule", "max_win_at_minimum"},
    "HOUSE": {"payout_limit_rule", "max_win_at_minimum"},
}

# Pennsylvania's dates, from the text: the chapter (46 Pa.B. 5540) and the 2019 amendment (49 Pa.B. 6676).
PA_ADOPTED = "2016-08-26"
PA_EFFECTIVE = "2016-08-27"
PA_AMENDED_EFFECTIVE = "2019-11-02"
PA_AMENDED_SECTIONS = ("674a.7", "674a.12")

SAMPLE_TOP = ("schema_version", "offering", "table", "cards", "limits", "paytables", "signoff")
SAMPLES = {"md-progressive.yaml": "MD", "nj-bonus-spin.yaml": "NJ", "pa-five-card-bonus.yaml": "PA",
           "house-six-card-bonus.yaml": "HOUSE"}
SCHEMA_LINE = "# yaml-language-server: $schema=../../schemas/offering.schema.json"


def _load(path: Path):
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def _data(code: str) -> dict:
    return _load(jurisdictions_dir() / f"{code.lower()}.yaml")


@pytest.fixture(scope="module")
def data() -> dict[str, dict]:
    return {code: _data(code) for code in CODES}


def _is_number(value) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def _walk(node, path=()):
    """(path, mapping) for every mapping in the tree."""
    if isinstance(node, dict):
        yield path, node
        for key, child in node.items():
            yield from _walk(child, path + (str(key),))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _walk(child, path + (str(index),))


def _where(path) -> str:
    return ".".join(path) or "(top)"


# --- the checks ------------------------------------------------------------------------------------------------

def citation_problems(code: str, data: dict) -> list[str]:
    """Every cited value has a non-empty citation; every citation is in the jurisdiction's form and names one
    of the file's own sections."""
    problems = []
    form = CITATION_FORMS[code]
    sections = [s.get("citation") for s in data.get("sections") or [] if isinstance(s, dict)]
    for path, node in _walk(data):
        if "value" in node and not (isinstance(node.get("citation"), str) and node["citation"].strip()):
            problems.append(f"{_where(path)}: a cited value without a citation")
        citations = [node["citation"]] if "citation" in node else []
        if path[-1:] == ("dealing_procedures",) and isinstance(node.get("value"), dict):
            citations += [c for c in node["value"].values() if c is not None]
        for citation in citations:
            if not isinstance(citation, str) or not citation.strip():
                problems.append(f"{_where(path)}: empty citation")
            elif not form.match(citation):
                problems.append(f"{_where(path)}: {citation!r} is not in {code}'s citation form")
            elif path[:1] != ("sections",) and not any(
                    citation == s or citation.startswith(s + " ") or citation.startswith(s + "(")
                    for s in sections if s):
                problems.append(f"{_where(path)}: {citation!r} names no section listed in `sections`")
    for key in ("readings", "quirks"):
        for index, entry in enumerate(data.get(key) or []):
            if not (isinstance(entry, dict) and entry.get("key") and entry.get("citation")
                    and (entry.get("reading") or entry.get("note"))):
                problems.append(f"{key}.{index}: needs key, citation and reading (or note)")
    return problems


def leaf_problems(data: dict) -> list[str]:
    """No number anywhere, and no leaf at all in the cited areas, outside the `value` of a cited value."""
    problems = []

    def visit(node, path, inside_value, in_area):
        if isinstance(node, dict):
            cited = "value" in node and "citation" in node
            for key, child in node.items():
                key = str(key)
                visit(child, path + (key,), inside_value or (cited and key == "value"),
                      in_area or (not path and key in CITED_AREAS))
        elif isinstance(node, list):
            for index, child in enumerate(node):
                visit(child, path + (str(index),), inside_value, in_area)
        elif node is not None and not inside_value:
            if _is_number(node):
                problems.append(f"{_where(path)}: the number {node} is not inside a cited value")
            elif in_area and path[-1] not in ("citation", "note", "reading", "effective", "label", "as_written"):
                problems.append(f"{_where(path)}: {node!r} is not inside a cited value")

    visit(data, (), False, False)
    return problems


def structure_problems(code: str, data: dict) -> list[str]:
    problems = [f"missing top-level key {key}" for key in REQUIRED_TOP if key not in data]
    if data.get("code") != code:
        problems.append(f"code is {data.get('code')!r}, not {code}")
    problems += [f"rules.{key} is missing" for key in REQUIRED_RULES if key not in (data.get("rules") or {})]
    limit = data.get("payout_limit") or {}
    problems += [f"payout_limit.{key} is missing" for key in REQUIRED_PAYOUT_LIMIT if key not in limit]
    for key in ("covers", "counted_in_max_win"):
        names = set((limit.get(key) or {}).get("value") or [])
        if names - WAGER_NAMES:
            problems.append(f"payout_limit.{key} names unknown wagers {sorted(names - WAGER_NAMES)}")
    if (data.get("operator_term") or {}).get("value") != OPERATOR_TERMS[code]:
        problems.append(f"operator_term is not {OPERATOR_TERMS[code]!r}")
    for key in ("five_card_bonus", "bonus_spin", "six_card_bonus"):
        if key not in (data.get("wagers") or {}):
            problems.append(f"wagers.{key} is missing")
    present = {entry.get("key") for entry in data.get("readings") or [] if isinstance(entry, dict)}
    problems += [f"readings lacks {key}" for key in sorted(REQUIRED_READINGS[code] - present)]
    if code in ("MD", "NJ") and not data.get("bonus_spin"):
        problems.append("bonus_spin is missing")
    return problems


def _citation_section(citation: str) -> str | None:
    match = re.search(r"§ (674a\.\d+)", citation or "")
    return match.group(1) if match else None


def effective_problems(code: str, data: dict) -> list[str]:
    """Only Pennsylvania's text carries dates, and each of its values carries its section's date."""
    problems = []
    document = data.get("document") or {}
    if code != "PA":
        if document.get("effective") is not None:
            problems.append(f"document.effective is set, but {code}'s text gives no date")
        for path, node in _walk(data):
            if "effective" in node and path != ("document",):
                problems.append(f"{_where(path)}: `effective` in {code}, whose text gives no date")
        return problems
    if str(document.get("effective")) != PA_EFFECTIVE:
        problems.append(f"document.effective is {document.get('effective')}, not {PA_EFFECTIVE}")
    if str(document.get("adopted")) != PA_ADOPTED:
        problems.append(f"document.adopted is {document.get('adopted')}, not {PA_ADOPTED}")
    amended = document.get("amended") or []
    if len(amended) != 1 or sorted(amended[0].get("sections") or []) != sorted(PA_AMENDED_SECTIONS) \
            or str(amended[0].get("effective")) != PA_AMENDED_EFFECTIVE \
            or amended[0].get("source") != "49 Pa.B. 6676":
        problems.append("document.amended is not §§ 674a.7 and 674a.12, effective 2019-11-02, 49 Pa.B. 6676")
    for path, node in _walk(data):
        if path[:1] == ("document",) or not ("value" in node or path[:1] == ("sections",)):
            continue
        if path[:1] == ("sections",) and not path[1:]:
            continue
        section = _citation_section(node.get("citation"))
        expected = PA_AMENDED_EFFECTIVE if section in PA_AMENDED_SECTIONS else PA_EFFECTIVE
        given = node.get("effective")
        if isinstance(given, (dt.date, dt.datetime)):
            given = given.isoformat()[:10]
        if given != expected:
            problems.append(f"{_where(path)}: effective is {given}, but § {section} took effect {expected}")
    return problems


def paytable_problems(data: dict) -> list[str]:
    problems = []
    for kind, tables in (data.get("paytables") or {}).items():
        for name, cited in (tables or {}).items():
            table = (cited or {}).get("value") if isinstance(cited, dict) else None
            if not isinstance(table, dict) or not table:
                problems.append(f"paytables.{kind}.{name}: not a cited table")
                continue
            for hand, pays in table.items():
                if hand not in HAND_CLASSES:
                    problems.append(f"paytables.{kind}.{name}: {hand!r} is not a hand class of the offering format")
                if not (pays == "push" or (_is_number(pays) and pays > 0)):
                    problems.append(f"paytables.{kind}.{name}.{hand}: {pays!r} is neither N (N to 1) nor push")
    return problems


def standard_table_problems(datas: dict[str, dict]) -> list[str]:
    """The three states share one main table, one ante table and one Five Card Bonus table."""
    problems = []
    for kind in ("criss_cross", "ante", "five_card_bonus"):
        tables = {code: ((datas[code].get("paytables") or {}).get(kind) or {}).get("standard", {}).get("value")
                  for code in ("MD", "NJ", "PA")}
        if tables["MD"] is None or any(table != tables["MD"] for table in tables.values()):
            problems.append(f"the standard {kind} table differs between MD, NJ and PA: {tables}")
    return problems


def section_order_problems(code: str, data: dict) -> list[str]:
    ids = [s.get("id") for s in data.get("sections") or []]
    expected = {
        "MD": [f"Chapter {n}" for n in range(1, 14)],
        "NJ": ["13:69E-1.13Z"] + [f"13:69F-40.{n}" for n in range(1, 13)],
        "PA": [f"§ 674a.{n}" for n in range(1, 14)],
        "HOUSE": list(HOUSE_HEADINGS),
    }[code]
    return [] if ids == expected else [f"sections are {ids}, not the text's {expected}"]


def plain_yaml_problems(text: str) -> list[str]:
    from ruamel.yaml.events import AliasEvent

    problems = []
    for event in YAML(typ="safe", pure=True).parse(text):
        if isinstance(event, AliasEvent) or getattr(event, "anchor", None):
            problems.append(f"line {event.start_mark.line + 1}: anchors and aliases are not used in the data")
    return problems


def sample_problems(path: Path, expected_code: str) -> list[str]:
    """A sample is a usable offering: the product's loader reads it, and it carries every top-level key."""
    from rulegen.offering import OfferingLoadError, load_offering

    text = path.read_text(encoding="utf-8")
    problems = [] if text.splitlines()[:1] == [SCHEMA_LINE] else ["the first line is not the schema comment"]
    try:
        offering = load_offering(path)
    except OfferingLoadError as exc:
        return problems + [f"does not load: {exc}"]
    sample = offering.data
    problems += [f"missing top-level key {key}" for key in SAMPLE_TOP if key not in sample]
    if (sample.get("offering") or {}).get("jurisdiction") != expected_code:
        problems.append(f"jurisdiction is not {expected_code}")
    roles = sorted(entry.get("role") for entry in sample.get("signoff") or [] if isinstance(entry, dict))
    if roles != ["approved", "prepared", "reviewed"]:
        problems.append(f"the sign-off roles are {roles}, not prepared, reviewed and approved")
    return problems


def sample_data_problems(sample: dict, data: dict) -> list[str]:
    """Every table the sample names is one its jurisdiction's data holds."""
    problems = []
    tables = data.get("paytables") or {}
    choices = [("criss_cross", (sample.get("paytables") or {}).get("criss_cross")),
               ("ante", (sample.get("paytables") or {}).get("ante"))]
    for kind in ("five_card_bonus", "six_card_bonus"):
        if isinstance(sample.get(kind), dict):
            choices.append((kind, sample[kind].get("paytable")))
    for kind, choice in choices:
        if isinstance(choice, str) and choice not in (tables.get(kind) or {}):
            problems.append(f"the {kind} paytable {choice!r} is not in the data")
        elif isinstance(choice, dict) and not any(
                (cited or {}).get("value") == choice for cited in (tables.get(kind) or {}).values()):
            problems.append(f"the written-out {kind} paytable matches no table of the data")
    spin = sample.get("bonus_spin")
    if isinstance(spin, dict):
        kind = (data.get("bonus_spin") or {}).get(spin.get("kind")) or {}
        if str(spin.get("paytable")) not in (kind.get("paytables") or {}):
            problems.append(f"the Bonus Spin paytable {spin.get('paytable')!r} is not in the data")
        if spin.get("community_pay") is not None:
            pays = kind.get("community_pays") or {}
            by_wager = pays.get(str(spin.get("wager"))) or {}
            if str(spin["community_pay"]) not in by_wager and str(spin["community_pay"]) not in pays:
                problems.append(f"the community-pay table {spin['community_pay']!r} is not in the data")
    return problems


# --- the data passes -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code", CODES)
def test_every_value_is_cited_in_its_jurisdictions_form(data, code):
    assert citation_problems(code, data[code]) == []


@pytest.mark.parametrize("code", CODES)
def test_no_number_or_paytable_leaf_outside_a_cited_value(data, code):
    assert leaf_problems(data[code]) == []


@pytest.mark.parametrize("code", CODES)
def test_the_format_keys_are_present(data, code):
    assert structure_problems(code, data[code]) == []


@pytest.mark.parametrize("code", CODES)
def test_dates_only_where_the_text_gives_them(data, code):
    assert effective_problems(code, data[code]) == []


@pytest.mark.parametrize("code", CODES)
def test_paytables_use_the_hand_classes(data, code):
    assert paytable_problems(data[code]) == []


@pytest.mark.parametrize("code", CODES)
def test_sections_follow_the_text(data, code):
    assert section_order_problems(code, data[code]) == []


@pytest.mark.parametrize("code", CODES)
def test_data_files_are_plain_utf8_yaml(code):
    text = (jurisdictions_dir() / f"{code.lower()}.yaml").read_bytes().decode("utf-8")
    assert plain_yaml_problems(text) == []


def test_the_states_share_the_standard_tables(data):
    assert standard_table_problems(data) == []


def test_numbers_read_from_the_texts(data):
    """A few figures pinned to the texts, where extraction noise made them easy to misread."""
    md, nj, pa, house = data["MD"], data["NJ"], data["PA"], data["HOUSE"]
    progressive = md["bonus_spin"]["progressive"]
    assert {k: v["value"] for k, v in progressive["minimum_initial"].items()} == \
        {"A": 1000, "B": 1000, "C": 5000, "D": 5000}
    assert progressive["paytables"]["D"]["value"]["top_prize"] == "progressive"
    assert progressive["paytables"]["A"]["value"]["top_prize"] == "fixed_or_merchandise"
    assert progressive["paytables"]["C"]["value"]["top_prize"] == "fixed_or_merchandise"
    xtreme = md["bonus_spin"]["xtreme"]
    assert {k: v["value"] for k, v in xtreme["minimum_initial"].items()} == dict.fromkeys("ABC", 2500) | \
        dict.fromkeys("DEFGHI", 5000)
    assert {v["value"] for v in xtreme["minimum_reset"].values()} == {1000}
    table_3 = nj["bonus_spin"]["progressive"]["paytables"]["3"]["value"]
    assert [row["pays"] for row in table_3["symbols"][1:]] == [2500, 1000, 500, 350, 200, 250, 75, 25, 70, 60, 50]
    assert {row["pays"]: row["community"] for row in table_3["symbols"] if row["community"]} == \
        {500: 100, 200: 50, 25: 15}
    assert sorted(row["position"] for row in table_3["symbols"]) == list(range(12))
    assert nj["bonus_spin"]["progressive"]["paytables"]["4"]["value"]["top_prize"] == "fixed_or_merchandise"  # 40.1
    assert nj["bonus_spin"]["progressive"]["paytables"]["5"]["value"]["top_prize"] == "progressive"
    assert "five_card_bonus" not in pa["payout_limit"]["covers"]["value"]
    assert pa["rules"]["adjacent_boxes_required"]["value"] is True
    assert house["paytables"]["criss_cross"]["house"]["value"]["royal_flush"] == 250
    assert house["paytables"]["criss_cross"]["house"]["value"]["full_house"] == 10
    assert house["house_limits"]["payout_cap"]["value"] == 3000


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_product_resolves_what_each_sample_names(name):
    """rulegen.resolved finds, in the shipped data, every table a sample names, with its citation."""
    from rulegen.game import Paytable
    from rulegen.offering import load_offering
    from rulegen.resolved import resolve

    loaded = load_offering(samples_dir() / name)
    sample = loaded.data
    data = _data(SAMPLES[name])
    offering = resolve(loaded)
    assert offering.jurisdiction.code == SAMPLES[name]
    for kind in ("criss_cross", "ante"):
        choice = sample["paytables"][kind]
        table = offering.paytables[kind]
        if isinstance(choice, str):
            cited = data["paytables"][kind][choice]
            assert (table.name, table.citation, table.written_out) == (choice, cited["citation"], False)
            assert table.table == Paytable.from_mapping(cited["value"])
        else:
            assert table.written_out and table.table == Paytable.from_mapping(choice)
    spin = sample.get("bonus_spin")
    assert (offering.bonus_spin is None) == (spin is None)
    if spin:
        cited = data["bonus_spin"][spin["kind"]]["paytables"][str(spin["paytable"])]
        assert offering.bonus_spin.citation == cited["citation"]
        assert [s.pays for s in offering.bonus_spin.segments] == [row["pays"] for row in cited["value"]["symbols"]]
        if spin.get("community_pay") is not None:
            pays = data["bonus_spin"][spin["kind"]]["community_pays"]
            by_wager = pays.get(str(spin["wager"]), pays)
            community = by_wager[str(spin["community_pay"])]
            assert offering.bonus_spin.community_citation == community["citation"]
            expected = {str(row["symbols"][0]): row["pays"] for row in community["value"]}
            assert {s.symbol: s.community for s in offering.bonus_spin.segments if s.community is not None} == {
                s.symbol: expected[s.symbol] for s in offering.bonus_spin.segments if s.symbol in expected}
    limit = sample.get("payout_limit")
    assert offering.payout_limit.amount == (limit["amount"] if limit else None)
    assert list(offering.payout_limit.covers) == data["payout_limit"]["covers"]["value"]


# --- the samples -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_samples_load_with_every_top_level_key(name):
    assert sample_problems(samples_dir() / name, SAMPLES[name]) == []


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_samples_name_tables_the_data_holds(data, name):
    from rulegen.offering import load_offering

    sample = load_offering(samples_dir() / name).data
    assert sample_data_problems(sample, data[SAMPLES[name]]) == []


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_samples_satisfy_the_schemas(name):
    import json

    from jsonschema import Draft202012Validator, FormatChecker
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    from rulegen.offering import load_offering

    # The files carry no $id (editors resolve their relative references beside them): each is registered under
    # its own file name, which is what those references name.
    schemas = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(schemas_dir().glob("*.schema.json"))}
    registry = Registry().with_resources(
        (name, Resource.from_contents(s, default_specification=DRAFT202012)) for name, s in schemas.items())
    root = schemas["offering.schema.json"]
    validator = Draft202012Validator(root, registry=registry, format_checker=FormatChecker())
    sample = load_offering(samples_dir() / name).data
    assert [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(sample)] == []


# --- the checks catch what they are for ------------------------------------------------------------------------

def _broken(code: str, change) -> dict:
    copy_ = copy.deepcopy(_data(code))
    change(copy_)
    return copy_


BREAKAGES = [
    ("MD", "citation removed", lambda d: d["rules"]["positions"].pop("citation"), citation_problems),
    ("MD", "empty citation", lambda d: d["rules"]["equal_antes"].update(citation=" "), citation_problems),
    ("MD", "'Ch.' for 'Chapter'", lambda d: d["rules"]["positions"].update(
        citation="MLGCA Criss Cross Poker Standard Rules, Ch. 2 §A(1)"), citation_problems),
    ("NJ", "another state's form", lambda d: d["rules"]["positions"].update(
        citation="58 Pa. Code § 674a.2(a)"), citation_problems),
    ("PA", "a section the text lacks", lambda d: d["rules"]["positions"].update(
        citation="58 Pa. Code § 674a.14(a)"), citation_problems),
    ("HOUSE", "a heading the text lacks", lambda d: d["rules"]["equal_antes"].update(
        citation="House rules, Antes"), citation_problems),
    ("NJ", "a cited section left out of `sections`", lambda d: d.update(
        sections=[s for s in d["sections"] if s["id"] != "13:69F-40.11"]), citation_problems),
    ("MD", "reading without citation", lambda d: d["readings"][0].pop("citation"), citation_problems),
    ("MD", "bare number", lambda d: d["rules"].update(stub_count_every_rounds=5),
     lambda code, data: leaf_problems(data)),
    ("NJ", "bare paytable", lambda d: d["paytables"]["ante"].update(
        standard={"pair_jacks_or_better": 1, "pair_sixes_through_tens": "push"}),
     lambda code, data: leaf_problems(data)),
    ("PA", "bare word", lambda d: d["wagers"].update(five_card_bonus="optional"),
     lambda code, data: leaf_problems(data)),
    ("MD", "date in Maryland", lambda d: d["rules"]["positions"].update(effective=dt.date(2020, 1, 1)),
     effective_problems),
    ("NJ", "document date in New Jersey", lambda d: d["document"].update(effective=dt.date(2017, 1, 1)),
     effective_problems),
    ("PA", "wrong section date", lambda d: d["paytables"]["criss_cross"]["standard"].update(
        effective=dt.date(2016, 8, 27)), effective_problems),
    ("PA", "missing section date", lambda d: d["rules"]["positions"].pop("effective"),
     effective_problems),
    ("PA", "wrong chapter date", lambda d: d["document"].update(effective=dt.date(2016, 8, 26)),
     effective_problems),
    ("MD", "unknown hand class", lambda d: d["paytables"]["criss_cross"]["standard"]["value"].update(royal_flsh=500),
     lambda code, data: paytable_problems(data)),
    ("NJ", "negative pay", lambda d: d["paytables"]["five_card_bonus"]["standard"]["value"].update(flush=-1),
     lambda code, data: paytable_problems(data)),
    ("MD", "missing rule", lambda d: d["rules"].pop("middle_bet"), structure_problems),
    ("MD", "missing reading", lambda d: d["readings"].pop(0), structure_problems),
    ("PA", "unknown wager name", lambda d: d["payout_limit"]["covers"]["value"].append("ante"), structure_problems),
    ("NJ", "sections out of order", lambda d: d["sections"].reverse(), section_order_problems),
]


@pytest.mark.parametrize("code, what, change, check", BREAKAGES, ids=[b[1] for b in BREAKAGES])
def test_each_check_fails_on_a_broken_copy(code, what, change, check):
    assert check(code, _data(code)) == [], "the unbroken data must pass first"
    assert check(code, _broken(code, change)), f"the check missed: {what}"


def test_the_standard_table_check_fails_when_a_state_differs():
    datas = {code: _data(code) for code in CODES}
    datas["NJ"]["paytables"]["criss_cross"]["standard"]["value"]["full_house"] = 9
    assert standard_table_problems(datas)


def test_the_anchor_check_fails_on_an_alias():
    assert plain_yaml_problems("base: &pays {flush: 8}\ncopy: *pays\n")


def test_the_sample_checks_fail_on_broken_samples(tmp_path):
    source = (samples_dir() / "pa-five-card-bonus.yaml").read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("signoff:"))
    unsigned = tmp_path / "unsigned.yaml"
    unsigned.write_text("".join(lines[:start]), encoding="utf-8")
    assert sample_problems(unsigned, "PA")
    anchored = tmp_path / "anchored.yaml"
    anchored.write_text(source.replace("ante: {minimum: 5, maximum: 200}", "ante: &a {minimum: 5, maximum: 200}"),
                        encoding="utf-8")
    assert sample_problems(anchored, "PA")
    unnamed = {"paytables": {"criss_cross": "generous", "ante": "standard"}}
    assert sample_data_problems(unnamed, _data("PA"))


# --- data checked at load; jurisdictions listed from the data; RULEGEN_DATA_PATH ----------------------------------

def test_the_jurisdictions_are_the_data_files():
    from rulegen.jurisdiction import codes

    shipped = sorted(p.stem.upper() for p in jurisdictions_dir().glob("*.yaml"))
    assert list(codes()) == shipped and set(CODES) <= set(shipped)


def _data_folder(root: Path, name: str, text: str) -> Path:
    (root / "jurisdictions").mkdir(parents=True, exist_ok=True)
    (root / "jurisdictions" / name).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("breakage, words", [
    (lambda text: text.replace("\npayout_limit:", "\npayout_limt:", 1), "payout_limt"),       # misspelled
    (lambda text: text.replace("  equal_antes:", "  equal_ante:", 1), "equal_antes"),          # missing rule
    (lambda text: text.replace("code: PA", "code: QQ", 1), "file's name"),                     # code ≠ name
])
def test_a_broken_data_file_is_an_error_at_load(tmp_path, monkeypatch, breakage, words):
    from rulegen.jurisdiction import JurisdictionDataError, load_jurisdiction

    text = (jurisdictions_dir() / "pa.yaml").read_text(encoding="utf-8")
    assert breakage(text) != text
    monkeypatch.setenv("RULEGEN_DATA_PATH", str(_data_folder(tmp_path, "pa.yaml", breakage(text))))
    with pytest.raises(JurisdictionDataError, match=re.escape(words)):
        load_jurisdiction("PA")


def test_a_data_folder_replaces_a_shipped_jurisdiction(tmp_path, monkeypatch):
    from rulegen.jurisdiction import codes, load_jurisdiction

    text = (jurisdictions_dir() / "pa.yaml").read_text(encoding="utf-8")
    draft = text.replace("name: Pennsylvania", "name: Pennsylvania (draft rule change)", 1)
    assert draft != text
    monkeypatch.setenv("RULEGEN_DATA_PATH", str(_data_folder(tmp_path, "pa.yaml", draft)))
    assert load_jurisdiction("PA").name == "Pennsylvania (draft rule change)"
    assert sorted(codes()) == sorted(CODES)
    monkeypatch.delenv("RULEGEN_DATA_PATH")
    assert load_jurisdiction("PA").name == "Pennsylvania"


@pytest.fixture
def zedland(tmp_path, monkeypatch):
    """Pennsylvania's files copied, as data alone, into an extra data folder as the fictional state ZZ."""
    from rulegen.resources import templates_dir

    root = tmp_path / "data"
    text = (jurisdictions_dir() / "pa.yaml").read_text(encoding="utf-8")
    _data_folder(root, "zz.yaml",
                 text.replace("code: PA", "code: ZZ", 1).replace("name: Pennsylvania", "name: Zedland", 1))
    (root / "jurisdictions" / "clauses").mkdir()
    inventory = (jurisdictions_dir() / "clauses" / "pa.yaml").read_text(encoding="utf-8")
    (root / "jurisdictions" / "clauses" / "zz.yaml").write_text(inventory.replace("code: PA", "code: ZZ", 1),
                                                                 encoding="utf-8")
    (root / "schemas").mkdir()
    (root / "schemas" / "zz.schema.json").write_bytes((schemas_dir() / "pa.schema.json").read_bytes())
    (root / "templates" / "rules").mkdir(parents=True)
    (root / "templates" / "rules" / "zz.html").write_bytes((templates_dir() / "rules" / "pa.html").read_bytes())
    offering = (samples_dir() / "pa-five-card-bonus.yaml").read_text(encoding="utf-8")
    assert "jurisdiction: PA" in offering
    path = tmp_path / "zz-offering.yaml"
    path.write_text(offering.replace("jurisdiction: PA", "jurisdiction: ZZ", 1), encoding="utf-8")
    monkeypatch.setenv("RULEGEN_DATA_PATH", str(root))
    return path


def test_a_fictional_state_validates_and_builds_from_data_alone(zedland, tmp_path, math_cache):
    from rulegen import assemble as build
    from rulegen.jurisdiction import codes
    from rulegen.validate import validate_file

    assert "ZZ" in codes() and "PA" in codes()
    report = validate_file(zedland)
    assert report.status == 0, [f.format() for f in report.findings]
    result = build.build(zedland, build.BuildOptions(out_dir=tmp_path / "out"))
    html = (result.folder / "rules.html").read_text(encoding="utf-8")
    assert "Criss Cross Poker — Rules Submission (Zedland)" in html
    assert "58 Pa. Code § 674a.12" in html  # the copied data's citations, laid out by the copied template
    # The copied clause inventory gives ZZ its Concordance, its labels written in the form its data states
    # (no code of ours knows ZZ, nor that it is Pennsylvania's text).
    assert "<h2>Concordance" in html and "674a.1 (definition of Across Hand)" in html
    for name in ("rules.pdf", "signage.pdf", "math-appendix.pdf", "manifest.json"):
        assert (result.folder / name).stat().st_size > 0
    manifest = json.loads((result.folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["data"]["jurisdiction"] == "ZZ"
    zz = (Path(os.environ["RULEGEN_DATA_PATH"]) / "jurisdictions" / "zz.yaml").read_bytes()
    assert manifest["data"]["jurisdiction_sha256"] == hashlib.sha256(zz).hexdigest()


def test_the_fictional_state_keeps_its_own_schema(zedland):
    """The copied schema applies to ZZ (its $id is its own file's), and PA's still to PA."""
    from rulegen.validate import validate_file

    text = zedland.read_text(encoding="utf-8")
    spun = zedland.with_name("zz-spin.yaml")
    spun.write_text(text + "\nbonus_spin:\n  kind: progressive\n  wager: 5\n  paytable: D\n", encoding="utf-8")
    report = validate_file(spun)
    assert report.status == 1
    assert any("58 Pa. Code § 674a.7(e)" in (f.citation or "") for f in report.findings)
    pa = validate_file(samples_dir() / "pa-five-card-bonus.yaml")
    assert pa.status == 0, [f.format() for f in pa.findings]


def test_a_key_the_data_does_not_have_raises_and_a_null_is_none():
    from rulegen.jurisdiction import JurisdictionDataError, load_jurisdiction

    pa, md = load_jurisdiction("PA"), load_jurisdiction("MD")
    assert pa.cited("payout_limit", "rule").citation == _data("PA")["payout_limit"]["rule"]["citation"]
    with pytest.raises(JurisdictionDataError, match="payout_limit.rulee"):
        pa.cited("payout_limit", "rulee")
    with pytest.raises(JurisdictionDataError, match="positons"):
        pa.rule("positons")
    with pytest.raises(JurisdictionDataError, match="not a cited value"):
        md.cited("bonus_spin", "progressive", "community_pays")
    assert pa.cited("bonus_spin", "progressive", "paytables", "A") is None  # PA: bonus_spin is null
    assert md.cited("house_limits", "bet") is None and md.cited("payout_limit", "notice_of_decrease") is None
    assert md.named("bonus_spin", "progressive", "minimum_initial", "Z") is None  # a table the offering names
    assert md.named("bonus_spin", "progressive", "minimum_initial", "D").value == 5000


def test_the_c_parser_reads_every_data_file_as_the_pure_parser_does():
    """Jurisdiction files and clause inventories load with ruamel.yaml's C parser (a dependency, for speed);
    the values it gives are the pure parser's, file by file."""
    from ruamel.yaml import YAML
    from ruamel.yaml.main import CParser

    assert CParser is not None, "ruamel.yaml.clib is a dependency on CPython"
    assert YAML(typ="safe").Parser is CParser
    files = sorted(jurisdictions_dir().glob("*.yaml")) + sorted((jurisdictions_dir() / "clauses").glob("*.yaml"))
    assert len(files) >= 8
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert YAML(typ="safe").load(text) == YAML(typ="safe", pure=True).load(text), path.name


def test_a_fictional_state_gets_a_starter_and_a_combined_schema(zedland, tmp_path):
    """`rulegen init` and `rulegen schema` find a state added as data: its schema and its sample in the data
    folder. It has no installed combined schema, so the starter says how to write one."""
    from rulegen.starter import combined_schema, jurisdiction_codes, starter_text
    from rulegen.validate import validate_file

    samples = Path(os.environ["RULEGEN_DATA_PATH"]) / "jurisdictions" / "samples"
    samples.mkdir()
    (samples / "zz-five-card-bonus.yaml").write_bytes(zedland.read_bytes())
    assert "ZZ" in jurisdiction_codes()
    assert combined_schema("ZZ")["properties"]["offering"]
    text = starter_text("ZZ", ["five-card-bonus"])
    assert text.startswith("# For an editor's completion, write ZZ's schema to a file with `rulegen schema -j ZZ`")
    path = tmp_path / "zz-start.yaml"
    path.write_text(text, encoding="utf-8")
    report = validate_file(path)
    assert report.status == 0, [f.format() for f in report.findings]
