"""`rulegen build --docx`: rules.docx, the rules document as Word text for legal to redline (python-docx reads it
back here): its headings as Word headings, its tables (the Concordance's included) as Word tables, its citations
in their own character style, every page's header and footer marking it as an editable copy; the same bytes for
the same offering; listed in the manifest, so `rulegen verify` reproduces it with the rest of the package.
"""

from __future__ import annotations

import io
import json
import zipfile

import docx
import pytest
from typer.testing import CliRunner

from rulegen import assemble as pipeline
from rulegen.cli import app
from rulegen.filing.manifest import sha256
from rulegen.render.editable import MARK
from rulegen.resources import samples_dir

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

SAMPLE = samples_dir() / "pa-five-card-bonus.yaml"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A build with the editable copy, and the package made again from its offering and recorded options, as
    `rulegen verify` makes it: the second making is the "same bytes each time" the tests compare."""
    out = tmp_path_factory.mktemp("docx")
    first = pipeline.build(SAMPLE, pipeline.BuildOptions(out_dir=out / "first", docx=True))
    manifest = json.loads((first.folder / "manifest.json").read_bytes())
    again = pipeline.reproduce_filing(source=SAMPLE.read_bytes(), name=SAMPLE.name, logo=None,
                                      options=manifest["options"], signer=None)
    return first, again


def test_the_editable_copy_is_written_listed_and_the_same_bytes_each_time(built):
    first, again = built
    data = (first.folder / "rules.docx").read_bytes()
    assert data == again["rules.docx"]
    manifest = json.loads((first.folder / "manifest.json").read_bytes())
    assert manifest["outputs"]["rules.docx"]["sha256"] == sha256(data)
    assert manifest["options"]["docx"] is True
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    document = docx.Document(io.BytesIO(data))
    effective = str(first.offering.data["offering"]["effective_date"])
    assert document.core_properties.created.date().isoformat() == effective
    assert document.core_properties.modified.date().isoformat() == effective


def test_headings_tables_citations_and_marking_are_word_structure(built):
    first, _ = built
    document = docx.Document(str(first.folder / "rules.docx"))
    headings = [(p.style.name, p.text) for p in document.paragraphs if p.style.name.startswith("Heading")]
    assert headings[0][0] == "Heading 1" and "Criss Cross Poker" in headings[0][1]
    names = [text for _style, text in headings]
    assert "Summary of this submission" in names and "Concordance" in names and "Sign-off" in names
    html = (first.folder / "rules.html").read_text(encoding="utf-8")
    assert len(document.tables) == html.count("<table")
    concordance = next(t for t in document.tables if t.rows[0].cells[0].text.strip().lower().startswith("clause"))
    assert len(concordance.rows) == html.count("data-concordance=") + 1
    citations = [run.text for p in document.paragraphs for run in p.runs if run.style.name == "Citation"]
    assert any("Pa. Code" in text or "674a" in text for text in citations), citations[:5]
    for section in document.sections:
        for part in (section.header, section.footer):
            assert part.paragraphs[0].text == MARK
    assert "EDITABLE COPY" in document.core_properties.title.upper() or "editable copy" in \
        document.core_properties.title


def test_reproducing_the_filing_gives_the_same_copy_and_manifest(built):
    """What `rulegen verify` does: the package built again from the offering and the manifest's options."""
    first, made = built
    assert made["rules.docx"] == (first.folder / "rules.docx").read_bytes()
    assert made["manifest.json"] == (first.folder / "manifest.json").read_bytes()
    assert made["rules.pdf"] == (first.folder / "rules.pdf").read_bytes()


def test_without_docx_there_is_no_copy_and_the_manifest_does_not_mention_it(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(pipeline, "build", lambda path, options, **kw: calls.append(options) or
                        (_ for _ in ()).throw(pipeline.OfferingInvalid("stop", [])))
    CliRunner().invoke(app, ["build", str(SAMPLE), "--out", str(tmp_path)])
    CliRunner().invoke(app, ["build", str(SAMPLE), "--out", str(tmp_path), "--docx"])
    assert [options.docx for options in calls] == [False, True]
    assert "docx" not in pipeline.manifest_options(pipeline.BuildOptions(), None, None)
    assert pipeline.manifest_options(pipeline.BuildOptions(docx=True), None, None)["docx"] is True
