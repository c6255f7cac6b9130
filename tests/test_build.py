"""`rulegen build` end to end on every bundled sample: the files, their text, their figures, their bytes.

One build of each sample is shared by the tests of this module; the math comes from a cache in a folder
that lasts the session (the build itself never runs the simulation).
"""

from __future__ import annotations

import base64

import io
import json
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from rulegen import vocabulary
from rulegen.render import filters


from rulegen.cli import app  # noqa: E402
from rulegen import assemble as pipeline
from rulegen.render import examples  # noqa: E402
from rulegen.offering import load_offering  # noqa: E402
from rulegen.resolved import resolve  # noqa: E402
from rulegen.resources import samples_dir  # noqa: E402

SAMPLES = sorted(samples_dir().glob("*.yaml"))
OUTPUTS = ("rules.pdf", "rules.html", "signage.pdf", "math-appendix.pdf", "manifest.json")


pytestmark = [pytest.mark.usefixtures("math_cache"),  # tests/conftest.py
              pytest.mark.pdf]  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)


def page_texts(data: bytes) -> list[str]:
    """The text of each page, as PDFium (the engine of Chrome's PDF viewer) extracts it: twenty times faster
    than pypdf on these documents, and a reader apart from the pyHanko and pikepdf the product uses."""
    document = pypdfium2.PdfDocument(data)
    try:
        return [document[i].get_textpage().get_text_bounded() for i in range(len(document))]
    finally:
        document.close()


def pdf_text(data: bytes) -> str:
    return normalize("\n".join(page_texts(data)))


def normalize(text: str) -> str:
    return re.sub(r"\s+", " ", text)


class Built:
    def __init__(self, sample: Path, folder: Path):
        self.sample = sample
        self.folder = folder
        self.offering = load_offering(sample)
        self.data = self.offering.data
        self.resolved = resolve(self.offering)
        self.jurisdiction = self.resolved.jurisdiction
        self.math = pipeline.math_results(self.resolved)
        self.files = {name: (folder / name).read_bytes() for name in OUTPUTS}
        self.rules = pdf_text(self.files["rules.pdf"])
        self.signage = pdf_text(self.files["signage.pdf"])
        self.appendix = pdf_text(self.files["math-appendix.pdf"])


@pytest.fixture(scope="module")
def builds(sample_build) -> dict[str, Built]:
    """A draft build of each sample, the run's own (tests/conftest.py), which other modules share."""
    return {sample.stem: Built(sample, sample_build(sample)) for sample in SAMPLES}


@pytest.fixture(params=[s.stem for s in SAMPLES])
def built(request, builds) -> Built:
    return builds[request.param]


def test_every_output_is_written(built):
    assert sorted(p.name for p in built.folder.iterdir()) == sorted(OUTPUTS)
    assert not [p for p in built.folder.parent.iterdir() if p.name.startswith(".")]


def test_rules_pdf_carries_the_offering_and_the_manifest(built):
    reader = PdfReader(io.BytesIO(built.files["rules.pdf"]))
    attached = {name: content[0] for name, content in reader.attachments.items()}
    assert attached[built.sample.name] == built.sample.read_bytes()
    assert attached["manifest.json"] == built.files["manifest.json"]


def test_rules_follow_the_jurisdictions_sections_with_citations(built):
    text = built.rules
    for section in built.jurisdiction.data["sections"]:
        assert normalize(section["id"]) in text, section["id"]
        assert normalize(section["citation"]) in text, section["citation"]
    first = built.jurisdiction.data["sections"][0]["citation"]
    assert text.index(normalize(first)) < text.index(normalize(built.jurisdiction.data["sections"][-1]["citation"]))
    if built.jurisdiction.code == "MD":
        assert "Chapter 3 §" in text
    assert "Ch. " not in text


def test_header_footer_pages_and_draft(built):
    reader = PdfReader(io.BytesIO(built.files["rules.pdf"]))
    pages = len(reader.pages)
    assert f"Page 1 of {pages}" in built.rules and f"Page {pages} of {pages}" in built.rules
    head = built.data["offering"]
    assert head["operator"]["name"] in built.rules
    assert head["id"] in built.rules
    assert built.offering.sha256[:16] in built.rules
    for data in (built.files["rules.pdf"], built.files["signage.pdf"], built.files["math-appendix.pdf"]):
        for text in page_texts(data):
            assert "DRAFT" in text, "every page of a draft says DRAFT"


def _rows(table) -> str:
    """A paytable's rows as a document prints them, from the offering's entries: "Royal flush 500 to 1 ..."."""
    return " ".join(f"{vocabulary.HAND_NAMES[hand]} {'Push' if pays == 'push' else f'{pays:,} to 1'}"
                    for hand, pays in table.entries)


def test_operator_choices_and_paytables_are_stated(built):
    text, data = built.rules, built.data
    ante = data["limits"]["ante"]
    assert f"{filters.money(ante['minimum'])} to {filters.money(ante['maximum'])}" in text
    # the Criss Cross and ante tables, each row as the offering gives it, in its order, under its heading
    for kind in ("criss_cross", "ante"):
        rows = _rows(getattr(built.resolved, kind))
        assert f"Hand Pays {rows} Any other hand Loses" in text, (kind, rows)
    for role in data.get("signoff") or []:
        assert role["name"] in text
    if data.get("payout_limit"):
        assert f"Payout limit {filters.money(data['payout_limit']['amount'])} {built.resolved.payout_limit.per}" in text
    if data.get("bonus_spin"):
        # the wager's name as its text gives it: New Jersey's "Bonus Spin" wager (40.10(i)2), Maryland's Bonus Spin
        # Progressive (Payout) wager
        kind = {"NJ": "Bonus Spin"}.get(built.jurisdiction.code,
                                        vocabulary.BONUS_SPIN_KINDS[data["bonus_spin"]["kind"]])
        wager = filters.money(Decimal(str(data["bonus_spin"]["wager"])))
        assert f"Bonus Spin offered: {kind}, {wager} wager" in text
    if data.get("limits", {}).get("adjacent_boxes"):
        assert "adjacent boxes" in text


def test_worked_examples_print_the_settlement_codes_figures(built):
    """Each example's table, row by row (wager, amount, hand, result, net) and its net for the round, read within
    that example: a short figure such as +$5 is looked for in its own row, not anywhere in the document."""
    worked = examples.worked_examples(built.resolved)
    assert len(worked) >= 2
    starts = [built.rules.index(f"Example {n}: ") for n in range(1, len(worked) + 1)]
    for example, start, end in zip(worked, starts, [*starts[1:], len(built.rules)]):
        shown = built.rules[start:end]
        for line in example["lines"]:
            row = (f"{vocabulary.WAGER_NAMES[line['wager']]} {filters.money(line['amount'])} {line['hand']} "
                   f"{line['result']} {filters.signed_money(line['net'])}")
            assert normalize(row) in shown, row
        assert f"Net for the round {filters.signed_money(example['net'])}" in shown


def test_payout_limit_figure_comes_from_the_math(built):
    max_win = filters.money(built.math.max_win.amount)
    assert f"The most one player can win in a round at the minimum wager is {max_win} at this table" in built.rules
    limit = built.resolved.payout_limit.amount
    # above the limit, the figure is the win before it, and the appendix says what the limit pays instead
    cut = (rf", before the payout limit of {re.escape(filters.money(limit))}, which cuts what such a round pays to "
           rf"{re.escape(filters.money(limit))}" if limit is not None and built.math.max_win.amount > limit else "")
    assert re.search(r"The most one player can win in one round betting the table minimum \([^)]*\): "
                     + re.escape(max_win) + cut + r"\..*? antes "
                     + re.escape(filters.money(built.resolved.limits.ante.minimum)), built.appendix), max_win


def test_appendix_prints_the_math_results(built):
    main = built.math.main_game
    for figure in (main.house_edge_per_ante, main.house_edge_per_initial_wager, main.element_of_risk,
                   main.hit_frequency):
        assert filters.percent(figure) in built.appendix
    assert filters.number(main.standard_deviation) in built.appendix
    assert filters.number(main.average_total_wager) in built.appendix
    assert len(main.across_decision) == 169
    for bonus in (built.math.five_card_bonus, built.math.six_card_bonus):
        if bonus is not None:
            assert filters.percent(bonus.house_edge) in built.appendix


def test_signage_shows_every_paytable_and_the_limits(built):
    """Each table under its heading with every row of the offering's paytable in order, and the limits in their
    own sentences (a figure such as $5 is looked for where the sign states it, not anywhere on it)."""
    text, data, resolved = built.signage, built.data, built.resolved
    ante = data["limits"]["ante"]
    assert (f"Two equal antes, each {filters.money(ante['minimum'])} minimum, "
            f"{filters.money(ante['maximum'])} maximum") in text
    assert _rows(resolved.criss_cross) in _sign_section(text, "ACROSS, DOWN AND MIDDLE")
    if _rows(resolved.ante) == _rows(resolved.criss_cross):  # MD's §A as written: one table, headed for both
        assert "ANTES AND THE ACROSS, DOWN AND MIDDLE BETS" in text and text.count("ANTES") == 1
    else:
        assert _rows(resolved.ante) in _sign_section(text, "ANTES")
    for wager, heading in (("five_card_bonus", "FIVE CARD BONUS"), ("six_card_bonus", "SIX CARD BONUS")):
        side = getattr(resolved, wager)
        if data.get(wager):
            assert _rows(side.paytable) in _sign_section(text, heading), wager
        else:
            assert side is None and heading not in text
    if data.get("bonus_spin"):
        assert "BONUS SPIN" in text
    if data.get("payout_limit") and data["table"].get("payout_limit_display") == "sign":
        assert (f"Aggregate payout limit: {filters.money(data['payout_limit']['amount'])} "
                f"{built.resolved.payout_limit.per}" in text)


SIGN_HEADINGS = ("ACROSS, DOWN AND MIDDLE", "ANTES", "FIVE CARD BONUS", "SIX CARD BONUS", "BONUS SPIN",
                 "Aggregate payout limit")


def _sign_section(text: str, heading: str) -> str:
    """The sign's text from `heading` to the next heading."""
    start = text.index(heading) + len(heading)
    ends = [found for other in SIGN_HEADINGS if (found := text.find(other, start)) != -1]
    return text[start:min(ends, default=len(text))]


def test_fonts_are_ours_and_embedded(built):
    for name in ("rules.pdf", "signage.pdf", "math-appendix.pdf"):
        reader = PdfReader(io.BytesIO(built.files[name]))
        for page in reader.pages:
            fonts = (page.get("/Resources") or {}).get("/Font") or {}
            for font in fonts.values():
                font = font.get_object()
                assert "Rulegen" in str(font["/BaseFont"]), font["/BaseFont"]
                descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
                assert "/FontFile2" in descendant["/FontDescriptor"].get_object()


def test_a_second_build_is_byte_identical(builds, tmp_path):
    sample = SAMPLES[0]
    first = builds[sample.stem]
    again = pipeline.build(sample, pipeline.BuildOptions(out_dir=tmp_path))
    for name in OUTPUTS:
        assert (again.folder / name).read_bytes() == first.files[name], name


def test_cli_build_of_an_invalid_offering_writes_nothing(tmp_path):
    broken = tmp_path / "broken.yaml"
    md = next(s for s in SAMPLES if s.stem.startswith("md"))
    broken.write_text(md.read_text().replace("positions: 6", "positions: 9"))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(broken), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert "error:" in result.stdout and "table.positions" in result.stdout
    assert not out.exists() or not list(out.iterdir())


def test_final_needs_every_signoff(tmp_path):
    text = SAMPLES[0].read_text()
    unsigned = tmp_path / "unsigned.yaml"
    unsigned.write_text(re.sub(r"\n  - \{role: approved[^\n]*", "", text))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(unsigned), "--out", str(out), "--final"])
    assert result.exit_code == 1
    assert "approved" in result.stderr
    assert not out.exists() or not list(out.iterdir())


def test_final_needs_the_bonus_spin_wheel_weights(tmp_path, final_md):
    """A filed appendix states the return of every wager offered: a Bonus Spin wheel without its weights builds
    as a DRAFT (the return as a formula) and is refused as final, with nothing written."""
    md = next(s for s in SAMPLES if s.stem.startswith("md"))
    text = md.read_text()
    unweighted = tmp_path / "unweighted.yaml"
    unweighted.write_text(re.sub(r"\n  wheel:\n(    - [^\n]*\n)+", "\n", text))
    assert "weight:" in text and "weight:" not in unweighted.read_text()
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(unweighted), "--out", str(out), "--final"])
    assert result.exit_code == 1, result.output
    assert "segment weights" in result.stderr and "bonus_spin.wheel" in result.stderr
    assert not out.exists() or not list(out.iterdir())
    assert final_md.exit_code == 0, final_md.output  # the same offering with its weights builds as final


def test_what_final_lacks_is_said_before_validation_computes_anything(tmp_path, monkeypatch):
    """A final build validates with its figures computed afresh (half a minute): a missing sign-off or wheel weight
    is refused before that, from the file as loaded, with the form of the entry to write."""
    import rulegen.validate

    def no_validation(*_args, **_kwargs):
        raise AssertionError("validation ran before the refusal")

    monkeypatch.setattr(rulegen.validate, "validate_file", no_validation)
    md = next(s for s in SAMPLES if s.stem.startswith("md"))
    unsigned = tmp_path / "unsigned.yaml"
    unsigned.write_text(re.sub(r"\n  - \{role: (reviewed|approved)[^\n]*", "", md.read_text()))
    unweighted = tmp_path / "unweighted.yaml"
    unweighted.write_text(re.sub(r"\n  wheel:\n(    - [^\n]*\n)+", "\n", md.read_text()))
    for path, words in ((unsigned, "missing: reviewed, approved"), (unsigned, "- {role: prepared, name: ..., title: "),
                        (unweighted, "segment weights")):
        result = CliRunner().invoke(app, ["build", str(path), "--out", str(tmp_path / "out"), "--final"])
        assert result.exit_code == 1, result.output
        assert words in result.stderr and "AssertionError" not in result.output, result.output
    broken = tmp_path / "broken.yaml"  # a file that does not load is left to validation, which reports it
    broken.write_text("offering: [\n")
    result = CliRunner().invoke(app, ["build", str(broken), "--out", str(tmp_path / "out"), "--final"])
    assert isinstance(result.exception, AssertionError) and "validation ran" in str(result.exception)


@pytest.fixture(scope="module")
def final_md(tmp_path_factory):
    """The Maryland sample (a Bonus Spin wheel with its weights) built final through the command line, once for
    the tests of a final build (a final build computes every figure afresh: seconds)."""
    md = next(s for s in SAMPLES if s.stem.startswith("md"))
    out = tmp_path_factory.mktemp("final")
    result = CliRunner().invoke(app, ["build", str(md), "--out", str(out), "--final"])
    result.out = out
    return result


def test_final_build_says_no_draft(final_md):
    assert final_md.exit_code == 0, final_md.output
    [folder] = [p for p in final_md.out.iterdir()]
    assert json.loads((folder / "manifest.json").read_bytes())["options"]["final"] is True
    for name in ("rules.pdf", "signage.pdf", "math-appendix.pdf"):
        text = pdf_text((folder / name).read_bytes())
        assert "criss cross" in text.lower() and "DRAFT" not in text, name


def test_a_failed_render_keeps_the_previous_build(builds, tmp_path, monkeypatch):
    sample = SAMPLES[0]
    first = tmp_path / builds[sample.stem].folder.name  # the module's build of it, published here before
    shutil.copytree(builds[sample.stem].folder, first)
    before = {p.name: p.read_bytes() for p in first.iterdir()}

    def broken(*args, **kwargs):
        raise OSError("the disk went away")

    monkeypatch.setattr(pipeline, "render_appendix_pdf", broken)
    with pytest.raises(OSError):
        pipeline.build(sample, pipeline.BuildOptions(out_dir=tmp_path))
    assert {p.name: p.read_bytes() for p in first.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [first.name]


def test_logo_is_attached(tmp_path):
    folder = tmp_path / "offering"
    folder.mkdir()
    sample = next(s for s in SAMPLES if "pa" in s.stem)
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082")
    (folder / "logo.png").write_bytes(png)
    text = sample.read_text().replace('    licence:', '    logo: logo.png\n    licence:', 1)
    (folder / "offer.yaml").write_text(text)
    result = pipeline.build(folder / "offer.yaml", pipeline.BuildOptions(out_dir=tmp_path / "out"))
    reader = PdfReader(io.BytesIO(result.files["rules.pdf"]))
    assert reader.attachments["logo.png"][0] == png
    # rules.html carries the logo itself, the bytes the loader read, so it opens anywhere
    assert b'src="data:image/png;base64,' + base64.b64encode(png) + b'"' in result.files["rules.html"]
    assert b"rulegen-offering:" not in result.files["rules.html"]


def test_rules_html_names_no_resource_outside_itself(built):
    """The rules.html a build writes opens anywhere: every URL it holds is a data: URI or a link inside itself."""
    import lxml.html
    from fontTools.ttLib import TTFont

    data = (built.folder / "rules.html").read_bytes()
    tree = lxml.html.fromstring(data)
    urls = [value for element in tree.iter() if isinstance(element.tag, str)
            for name, value in element.attrib.items() if name in ("src", "href", "xlink:href", "srcset", "poster")]
    styles = "\n".join(element.text or "" for element in tree.iter("style")) + "\n".join(
        element.get("style") or "" for element in tree.iter() if isinstance(element.tag, str))
    css_urls = re.findall(r"url\(\s*[\"']?([^\"')]*)", styles)
    assert len(css_urls) == 10  # the ten shipped font faces, embedded
    outside = [url for url in urls + css_urls if not url.startswith(("data:", "#"))]
    assert outside == []
    assert b"rulegen-asset:" not in data and b"rulegen-offering:" not in data
    sans = next(url for url in css_urls if url.startswith("data:font/ttf;base64,"))
    font = TTFont(io.BytesIO(base64.b64decode(sans.split(",", 1)[1])))
    cmap = font.getBestCmap()
    assert all(ord(character) in cmap for character in "Criss Cross Poker")  # subset, the document's glyphs kept
    assert len(cmap) < 400


def test_cli_builds_every_sample_without_a_file(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEGEN_PROCESSES", "1")  # several offerings build in worker processes, which this stand-in
    calls = []                                    # (patched into this one) would not reach
    monkeypatch.setattr(pipeline, "build", lambda path, options, **kw: calls.append(Path(path).name) or
                        (_ for _ in ()).throw(pipeline.OfferingInvalid("stop", [])))
    result = CliRunner().invoke(app, ["build", "--out", str(tmp_path)])
    assert sorted(calls) == sorted(s.name for s in SAMPLES)
    assert result.exit_code == 1


def test_cli_rejects_a_bad_sign_size(tmp_path):
    result = CliRunner().invoke(app, ["build", str(SAMPLES[0]), "--sign-size", "poster", "--out", str(tmp_path)])
    assert result.exit_code == 2


def test_unwritable_output_is_exit_2(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = CliRunner().invoke(app, ["build", str(SAMPLES[0]), "--out", str(blocker)])
    assert result.exit_code == 2
    shutil.rmtree(tmp_path / "never", ignore_errors=True)


def test_verify_rebuild_renders_the_same_rules_pdf(builds):
    built = builds[next(s.stem for s in SAMPLES if s.stem.startswith("pa"))]
    manifest = json.loads(built.files["manifest.json"])
    fresh = pipeline.render_rules_pdf_for_verify(source=built.sample.read_bytes(), name=built.sample.name, logo=None,
                                                 manifest=manifest, signer=None)
    assert fresh == built.files["rules.pdf"]


def test_previous_revision_adds_a_changes_section(tmp_path):
    sample = next(s for s in SAMPLES if s.stem.startswith("pa"))
    new = tmp_path / "new.yaml"
    new.write_text(sample.read_text().replace("  version: 1", "  version: 2").replace("maximum: 200", "maximum: 300")
                   .replace("effective_date: 2027-04-01", "effective_date: 2027-07-01"))
    result = pipeline.build(new, pipeline.BuildOptions(out_dir=tmp_path / "out", previous=sample))
    text = pdf_text(result.files["rules.pdf"])
    options = json.loads(result.files["manifest.json"])["options"]
    assert options["previous"] == sample.name
    changes = options["changes"]  # what the section was made from, recorded so verify --rebuild can remake it
    assert (changes["from_revision"], changes["to_revision"], changes["effective_date"]) == (1, 2, "2027-07-01")
    [group] = changes["groups"]
    [change] = group["changes"]  # the version and the effective date are not changes to the rules
    assert change["field"] == "limits.ante.maximum" and "$200" in change["text"] and "$300" in change["text"]
    assert changes["count"] == 1 and changes["summary"] == "1 change to the rules since revision 1"
    assert f"{changes['title']} {changes['summary']}" in text
    assert normalize(change["text"]) in text


LIMIT_WORDS = {"MD": "for any hand", "NJ": "for a player on any hand", "PA": "per player per round"}


def test_the_limit_is_worded_as_each_text_words_it(builds):
    # MLGCA Chapter 12 §B "for any hand"; N.J.A.C. 13:69F-40.11(d) "for a player on any hand"; 58 Pa. Code
    # § 674a.12(d) "per player per round": the rules and the sign say what the text says, no other state's words
    for built in builds.values():
        words = LIMIT_WORDS.get(built.jurisdiction.code)
        if words is None or built.resolved.payout_limit.amount is None:
            continue
        amount = filters.money(built.resolved.payout_limit.amount)
        assert f"{amount} {words}" in built.rules, built.jurisdiction.code
        others = [w for code, w in LIMIT_WORDS.items() if code != built.jurisdiction.code and w not in words]
        assert not [w for w in others if f"{amount} {w}" in built.rules + built.signage], built.jurisdiction.code


# "1.5 to 1", "3/2 to 1", "1000 to 1" (a range of sections, "40.7 to 40.9", is no pay)
ODDS_FORMS = re.compile(r"\b(?:\d+(?:\.\d+|/\d+)|\d{4,}) to \d+\b(?!\.?\d)")


def test_odds_read_one_way_in_every_document(built):
    """A pay reads "N to 1" or "3 to 2" with thousands separated, in the rules, the appendix and the sign alike."""
    html = built.files["rules.html"].decode("utf-8")
    for name, text in (("rules.html", html), ("rules.pdf", built.rules), ("math-appendix.pdf", built.appendix),
                       ("signage.pdf", built.signage)):
        assert " to 1" in text, name  # the documents do print odds, so the search below looks at them
        assert not ODDS_FORMS.findall(text), (name, ODDS_FORMS.findall(text))
