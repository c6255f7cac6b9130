"""The template environment: autoescaping, strict undefined names, and one macro per section of every jurisdiction."""

from __future__ import annotations

import re

import jinja2
import pytest

from rulegen.jurisdiction import codes, load_jurisdiction
from rulegen.render.environment import environment
from rulegen.render.rules import section_slug

CODES = codes()


def test_offering_text_is_escaped_never_compiled():
    template = environment().from_string("<p>{{ name }}</p>")
    assert template.render(name="<script>alert(1)</script>{{ 7*7 }}") == (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;{{ 7*7 }}</p>")


def test_undefined_names_raise():
    with pytest.raises(jinja2.UndefinedError):
        environment().from_string("{{ missing }}").render()


@pytest.mark.parametrize("section_id, slug", [
    ("Chapter 1", "chapter_1"), ("13:69F-40.10", "s_13_69f_40_10"), ("§ 674a.12", "s_674a_12"),
    ("5 Card Bonus", "s_5_card_bonus"), ("Game and Bonus wagers", "game_and_bonus_wagers")])
def test_section_slugs(section_id, slug):
    assert section_slug(section_id) == slug


@pytest.mark.parametrize("code", CODES)
def test_every_section_of_the_data_has_its_macro(code):
    """The rules document follows the data's `sections`; each needs a macro in templates/rules/<code>.html."""
    source = environment().loader.get_source(environment(), f"rules/{code.lower()}.html")[0]
    macros = set(re.findall(r"{%\s*macro\s+(\w+)\(", source))
    for section in load_jurisdiction(code).data["sections"]:
        assert section_slug(section["id"]) in macros, f"{code}: no macro for {section['id']}"


def test_templates_hold_no_python_branching_on_jurisdictions():
    source = environment().loader.get_source(environment(), "rules.html")[0]
    for code in CODES:
        assert f'"{code}"' not in source and f"'{code}'" not in source
