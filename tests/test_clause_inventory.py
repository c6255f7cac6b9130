"""The clause inventories (`jurisdictions/clauses/<code>.yaml`) against the source texts they list.

The labels are read from the source texts (../shared/regulations/) by `regulation_labels`, a reader written apart from
the inventory: a clause the text has and the inventory lacks, or one the inventory invents, fails here.
"""

from __future__ import annotations

import re

import pytest

from rulegen import clauses
from tests import regulation_labels

CODES = ("MD", "NJ", "PA", "HOUSE")


@pytest.mark.parametrize("code", CODES)
def test_every_clause_label_of_the_text_is_in_the_inventory(code, regulations):
    found = regulation_labels.READERS[code]()
    inventory = clauses.load(code)
    listed = [c.id for c in inventory.clauses]
    missing = [ident for ident, _parent, _text in found if ident not in inventory.by_id]
    assert not missing, f"{code}: clauses of the text missing from the inventory: {missing}"
    invented = sorted(set(listed) - {ident for ident, _p, _t in found})
    assert not invented, f"{code}: inventory clauses the text does not have: {invented}"
    assert listed == [ident for ident, _p, _t in found], f"{code}: the inventory is not in the text's order"


@pytest.mark.parametrize("code", CODES)
def test_each_clause_sits_under_the_clause_the_text_puts_it_under(code, regulations):
    inventory = clauses.load(code)
    for ident, parent, _text in regulation_labels.READERS[code]():
        assert inventory.clause(ident).parent == parent, ident


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9$]+", text.lower().replace("\\$", "$"))


@pytest.mark.parametrize("code", CODES)
def test_summaries_are_in_our_own_words(code, regulations):
    """No summary repeats eight consecutive words of its source text."""
    inventory = clauses.load(code)
    source = " ".join(_words((regulations / inventory.source).read_text(encoding="utf-8")))
    copied = []
    for clause in inventory.clauses:
        words = _words(clause.summary)
        for start in range(len(words) - 7):
            if " " + " ".join(words[start:start + 8]) + " " in " " + source + " ":
                copied.append(clause.id)
                break
    assert not copied, f"{code}: summaries copying the text: {copied}"


def test_the_readers_see_the_shape_of_each_text(regulations):
    """Known facts about the texts, so a reader that silently stops finding labels fails here, not later."""
    md = [i for i, _p, _t in regulation_labels.maryland()]
    assert [i for i in md if re.fullmatch(r"Chapter \d+", i)] == [f"Chapter {n}" for n in range(1, 14)]
    assert "Chapter 2 §D" not in md and "Chapter 2 §E" in md          # the text jumps from §C to §E
    assert md[-1] == "Chapter 13 §E(2)"                              # and ends there
    assert "Chapter 2 §B(6)(2)" in md and "Chapter 12 §D(6)(b)(iv)" in md and "Chapter 12 §E(22)(h)" in md
    assert "Chapter 12 §D(1)(i)" in md and "Chapter 12 §D(11)(iii)" in md   # a letter (i), and a roman (i)
    nj = [i for i, _p, _t in regulation_labels.new_jersey()]
    assert ([i for i in nj if "(" not in i and " " not in i]
            == ["13:69E-1.13Z"] + [f"13:69F-40.{n}" for n in range(1, 13)])
    assert {"13:69E-1.13Z(a)1", "13:69F-40.5(c)1iv", "13:69F-40.8(a)", "13:69F-40.10(i)4", "13:69F-40.11(d)",
            "13:69F-40.11(c) Table 5", "13:69F-40.2 opening"} <= set(nj)
    assert "13:69F-40.11(e)" not in nj                               # "(b) through (e)" is a reference, not a clause
    pa = [i for i, _p, _t in regulation_labels.pennsylvania()]
    assert [i for i in pa if "(" not in i and " " not in i] == [f"674a.{n}" for n in range(1, 14)]
    assert {"674a.11(h)(1)(ii)", "674a.11(i)", "674a.13(g)", "674a.1 Down Hand"} <= set(pa)
    assert [i for i, _p, _t in regulation_labels.house()] == list(regulation_labels.HOUSE_HEADINGS)


@pytest.mark.parametrize("code", CODES)
def test_citations_are_in_the_jurisdictions_form(code):
    forms = {"MD": r"MLGCA Criss Cross Poker Standard Rules, Chapter \d+( §[A-Z](\([0-9a-z]+\))*)?",
             "NJ": r"N\.J\.A\.C\. 13:69(E-1\.13Z|F-40\.\d+)(\([a-z]\)(\d+(i{1,3}|iv)?)?)?"
                   r"( Table \d| \(opening paragraph\)| “[^”]+”)?",
             "PA": r"58 Pa\. Code § 674a\.\d+((\([a-z]\))(\(\d+\))?(\([ivx]+\))?| \(definition of [A-Za-z ]+\))?",
             "HOUSE": r"House rules, (" + "|".join(regulation_labels.HOUSE_HEADINGS) + ")"}
    for clause in clauses.load(code).clauses:
        assert re.fullmatch(forms[code], clause.citation), clause.citation


def test_a_citation_resolves_to_the_clauses_it_names():
    md = clauses.load("MD")
    assert (md.ids_of_citation("MLGCA Criss Cross Poker Standard Rules, Chapter 6 §A, §B")
            == ["Chapter 6 §A", "Chapter 6 §B"])
    assert md.expand(["Chapter 12 §C*"]) == {"Chapter 12 §C"} | {f"Chapter 12 §C({n})" for n in range(1, 10)}
    with pytest.raises(clauses.InventoryError):
        md.ids_of_citation("MLGCA Criss Cross Poker Standard Rules, Chapter 2 §D")
    pa = clauses.load("PA")
    assert pa.ids_of_citation("58 Pa. Code § 674a.11(h)(1); 674a.12(a)") == ["674a.11(h)(1)", "674a.12(a)"]


def test_which_clauses_apply_follows_the_offering():
    md = clauses.load("MD")
    shoe = clauses.OfferingConfig(dealing="manual-shoe", shuffling="automated-counting", decks=2)
    assert md.not_applying("Chapter 8 §D(3)", shoe) is None
    assert "from the dealer's hand" in md.not_applying("Chapter 9 §B(2)", shoe)
    assert "counts the cards" in md.not_applying("Chapter 8 §E", shoe)      # a counting shuffler: no stub count
    by_hand = clauses.OfferingConfig(dealing="manual-shoe", shuffling="automated", decks=2)
    assert md.not_applying("Chapter 8 §F(5)", by_hand) is None
    assert "does not offer" in md.not_applying("Chapter 12 §C(1)", shoe)


def _citations(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "citation" and isinstance(value, str):
                yield ".".join(map(str, path)), value
            else:
                yield from _citations(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _citations(value, (*path, index))


@pytest.mark.parametrize("code", CODES)
def test_every_citation_in_the_jurisdiction_data_names_clauses_of_the_text(code):
    from rulegen.jurisdiction import load_jurisdiction

    inventory = clauses.load(code)
    wrong = []
    for where, citation in _citations(load_jurisdiction(code).data):
        try:
            inventory.ids_of_citation(citation)
        except clauses.InventoryError as exc:
            wrong.append(f"{where}: {exc}")
    assert not wrong, wrong


@pytest.mark.parametrize("form, words", [
    ("{labels: [{pattern: '(', write: x}]}", "citation_form.labels:"),
    ("{labels: [{pattern: x}]}", "{pattern, write} strings"),
    ("{section_starts: [1]}", "section_starts is a list of strings"),
    ("{tail: true}", "citation_form takes only"),
])
def test_a_citation_form_that_cannot_be_read_is_refused_at_load(tmp_path, monkeypatch, form, words):
    """An inventory in a data folder whose citation_form is malformed is an InventoryError naming the file."""
    folder = tmp_path / "jurisdictions" / "clauses"
    folder.mkdir(parents=True)
    path = folder / "pa.yaml"
    path.write_text(f"code: PA\nsource: x.txt\ncitation_prefix: 'P '\ncitation_form: {form}\n"
                    "clauses:\n  - {id: '1', summary: One.}\n", encoding="utf-8")
    monkeypatch.setenv("RULEGEN_DATA_PATH", str(tmp_path))
    assert clauses.inventory_path("PA") == path
    with pytest.raises(clauses.InventoryError, match=re.escape(words)) as raised:
        clauses.load("PA")
    assert str(path) in str(raised.value)
