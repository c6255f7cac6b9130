"""Property: any valid offering the strategy draws builds, completely, with its free text printed literally.

Paytables come from the standard tables and the card room's own (named or written out), so the math cache
serves after the first build of each; structure and values elsewhere vary freely: names with markup and
template syntax, identifiers, versions, dates, positions, payout limits, which optional wagers are offered,
Bonus Spin tables, sign-offs complete or not (and then a final build).
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import io
import json
import string
from pathlib import Path

from hypothesis import HealthCheck, Phase, assume, given, note, settings, strategies as st
from markupsafe import escape
from pypdf import PdfReader
from ruamel.yaml import YAML
import pytest

from rulegen import assemble as pipeline
from rulegen.math import cache as math_cache_module
from rulegen.validate import validate_file

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

DATA = Path(__file__).parent / "data"
OUTPUTS = {"rules.pdf", "rules.html", "signage.pdf", "math-appendix.pdf", "manifest.json"}
ALPHABET = string.ascii_letters + string.digits + " &'\"<>{}%#;.,-/()éñüßøÅΑβγДжё’—“”"

free_text = st.text(alphabet=ALPHABET, min_size=1, max_size=60).filter(lambda s: s.strip() == s and s)
money_steps = st.integers(min_value=0, max_value=200).map(lambda n: n * 500)


def _load(name: str):
    return YAML(typ="rt").load((DATA / f"correct_{name}.yaml").read_text())


@st.composite
def valid_offerings(draw):
    base = draw(st.sampled_from(("md", "nj", "pa", "house")))
    data = _load(base)
    head = data["offering"]
    head["id"] = draw(st.from_regex(r"[a-z0-9][a-z0-9-]{2,30}", fullmatch=True))
    head["operator"]["name"] = draw(free_text)
    if draw(st.booleans()):
        head["operator"]["licence"] = draw(free_text)
    head["version"] = draw(st.integers(min_value=1, max_value=999))
    head["effective_date"] = draw(st.dates(min_value=datetime.date(2026, 1, 1),
                                           max_value=datetime.date(2035, 12, 31))).isoformat()
    positions = {"md": st.just(6), "nj": st.just(6), "pa": st.integers(1, 6), "house": st.integers(1, 7)}[base]
    data["table"]["positions"] = draw(positions)
    if base in ("pa", "house"):  # Maryland caps the limit at $50,000 and New Jersey fixes it there
        data["payout_limit"]["amount"] = data["payout_limit"]["amount"] + draw(money_steps)

    if draw(st.booleans()):  # the Criss Cross table written out instead of named, or the other way round
        criss_cross = data["paytables"]["criss_cross"]
        if isinstance(criss_cross, str):
            from rulegen.jurisdiction import load_jurisdiction

            table = load_jurisdiction(head["jurisdiction"]).paytable("criss_cross", criss_cross)
            data["paytables"]["criss_cross"] = dict(table.value)
        else:
            data["paytables"]["criss_cross"] = "house" if base == "house" else "standard"
    if base != "house" and draw(st.booleans()):
        del data["five_card_bonus"]
    if base == "md":
        spin = data["bonus_spin"]
        spin["paytable"] = draw(st.sampled_from("BD"))  # the progressive ones (A and C pay a fixed top prize)
        spin["community_pay"] = draw(st.sampled_from("AB"))
        initial = 5000 + draw(money_steps)
        spin["top_prize"]["initial"] = initial
        spin["top_prize"]["reset"] = draw(st.integers(min_value=5000, max_value=initial))
    if base == "nj":
        table = draw(st.sampled_from((3, 4)))
        data["bonus_spin"]["paytable"] = table
        data["bonus_spin"]["wager"] = 5 if table == 3 else 1
    if base in ("md", "nj") and draw(st.integers(min_value=0, max_value=3)) == 0:
        del data["bonus_spin"]
    elif base in ("md", "nj"):
        from tests.configurations import weighted_wheel

        weighted_wheel(base.upper())(data)  # the wheel's weights, which a final build needs

    roles = draw(st.sampled_from(((), ("prepared",), ("prepared", "reviewed", "approved"))))
    if roles:
        data["signoff"] = [{"role": role, "name": draw(free_text), "title": draw(free_text),
                            "date": "2026-11-0%d" % (index + 1)} for index, role in enumerate(roles)]
    elif "signoff" in data:
        del data["signoff"]
    final = len(roles) == 3 and draw(st.booleans())
    out = io.StringIO()
    YAML(typ="rt").dump(data, out)
    return out.getvalue(), final


# Each example is a whole build (seconds), so a failure is reported as drawn rather than shrunk.
@settings(max_examples=5, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
@given(drawn=valid_offerings())
def test_any_valid_offering_builds_completely(tmp_path_factory, math_cache, monkeypatch, drawn):
    # A final build computes every figure afresh (tests/test_math_cache.py holds it to that); these properties
    # are about the documents, so a drawn final build reads the session's math cache as a draft does.
    monkeypatch.setattr(math_cache_module, "fresh", contextlib.nullcontext)
    text, final = drawn
    note(text)
    folder = tmp_path_factory.mktemp("drawn")
    path = folder / "offering.yaml"
    path.write_text(text)
    report = validate_file(path)
    assume(report.status == 0)

    result = pipeline.build(path, pipeline.BuildOptions(out_dir=folder / "out", final=final))
    written = {p.name for p in result.folder.iterdir()}
    assert written == OUTPUTS
    assert [p.name for p in (folder / "out").iterdir()] == [result.folder.name]  # no temporary leftovers

    manifest = json.loads((result.folder / "manifest.json").read_text())
    hashes = json.dumps(manifest)
    for name in ("rules.html", "signage.pdf", "math-appendix.pdf"):
        assert hashlib.sha256((result.folder / name).read_bytes()).hexdigest() in hashes, name
    for name in ("rules.pdf", "signage.pdf", "math-appendix.pdf"):
        data = (result.folder / name).read_bytes()
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"), name
        for page in PdfReader(io.BytesIO(data)).pages:  # every glyph from a shipped font, on any machine
            for font in ((page.get("/Resources") or {}).get("/Font") or {}).values():
                assert "Rulegen" in str(font.get_object()["/BaseFont"]), (name, font.get_object()["/BaseFont"])

    html = (result.folder / "rules.html").read_text()
    offering = result.offering.data["offering"]
    assert str(escape(offering["operator"]["name"])) in html  # printed literally, never as markup
    assert ('class="draft-mark"' in html) is (not final)
    assert manifest["options"]["final"] is final
