"""The manifest and the attachments of rules.pdf: canonical, free of the clock and of the build machine's paths,
hashing every output but rules.pdf, and carried byte for byte inside the PDF."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from rulegen.assemble import pdf_attachments
from rulegen.filing import (
    MANIFEST_NAME,
    build_manifest,
    canonical_json,
    manifest_bytes,
    reproducible_clock,
)
from rulegen.filing.pdf import embedded_files, open_reader
from rulegen.findings import Finding
from rulegen.render.pdf import renderer_versions
from rulegen.offering import load_offering
from rulegen.resources import jurisdictions_dir

OFFERING = """\
schema_version: 1
offering:
  id: manifest-test
  jurisdiction: PA
  operator:
    name: Manifest Test Casino
    logo: art/logo.png
  version: 4
  effective_date: 2027-05-01
table: {positions: 6, payout_odds_display: sign, payout_limit_display: sign}
limits:
  ante: {minimum: 5.50, maximum: 100}
signoff:
  - {role: prepared, name: Dana Whitfield, title: Table Games Compliance Manager, date: 2026-11-02}
"""
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c636060"
                    "6060000000050001a5f645400000000049454e44ae426082")  # a 1 x 1 PNG that decodes completely
OUTPUTS = {"rules.html": b"<p>rules</p>", "signage.pdf": b"%PDF sign", "math-appendix.pdf": b"%PDF math",
           "rules.pdf": b"%PDF not hashed", "manifest.json": b"{}"}


@pytest.fixture
def offering(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "logo.png").write_bytes(PNG)
    (tmp_path / "harbor.yaml").write_text(OFFERING)
    return load_offering(tmp_path / "harbor.yaml", str(tmp_path / "harbor.yaml"))


def manifest_of(offering, **overrides):
    finding = Finding(offering.display_path, 3, 5, "note", "a note", "58 Pa. Code § 674a.7(g)", ("limits", "ante"))
    arguments = dict(offering=offering, jurisdiction_code="PA", outputs=dict(OUTPUTS),
                     options={"final": True, "sign": True, "out": Path("/home/someone/build")},
                     findings=[finding], renderer_versions=renderer_versions(), signoffs=None)
    arguments.update(overrides)
    return build_manifest(**arguments)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_manifest_hashes_the_offering_logo_and_every_output_but_rules_pdf(offering):
    manifest = manifest_of(offering)
    assert manifest["offering"]["sha256"] == sha(OFFERING.encode())
    assert manifest["offering"]["file"] == "harbor.yaml"
    assert (manifest["offering"]["id"], manifest["offering"]["version"]) == ("manifest-test", 4)
    assert manifest["logo"] == {"file": "art/logo.png", "sha256": sha(PNG), "bytes": len(PNG)}
    assert set(manifest["outputs"]) == {"rules.html", "signage.pdf", "math-appendix.pdf"}
    assert manifest["outputs"]["signage.pdf"]["sha256"] == sha(OUTPUTS["signage.pdf"])


def test_manifest_records_versions_data_options_findings_and_signoffs(offering):
    manifest = manifest_of(offering)
    software = manifest["software"]
    assert software["rulegen"] and software["weasyprint"] and software["pango"] and "fonts" in software
    pa = jurisdictions_dir() / "pa.yaml"
    if pa.is_file():
        assert manifest["data"]["jurisdiction_sha256"] == sha(pa.read_bytes())
    assert manifest["data"]["sha256"] and "schemas/offering.schema.json" in manifest["data"]["files"]
    assert manifest["options"]["out"] == "build"  # a path on the build machine is reduced to its name
    [finding] = manifest["findings"]
    assert finding["path"] == "harbor.yaml" and finding["citation"] == "58 Pa. Code § 674a.7(g)"
    assert manifest["signoffs"][0]["date"] == "2026-11-02"


def test_the_manifest_records_the_renderer_versions_the_build_hands_it(offering):
    """The filing layer never imports WeasyPrint: the build passes the manifest the versions of WeasyPrint, pydyf
    and Pango the render layer reads, and the manifest records them."""
    import pydyf
    import weasyprint

    software = manifest_of(offering)["software"]
    assert (software["weasyprint"], software["pydyf"]) == (weasyprint.__version__, pydyf.__version__)
    assert software["pango"] == renderer_versions()["pango"] and re.fullmatch(r"\d+\.\d+\.\d+", software["pango"])
    other = {"weasyprint": "61.2", "pydyf": "0.10.0", "pango": "1.44.7"}
    software = manifest_of(offering, renderer_versions=other)["software"]
    assert (software["weasyprint"], software["pydyf"], software["pango"]) == ("61.2", "0.10.0", "1.44.7")


def test_manifest_depends_on_neither_the_clock_nor_the_folder(offering, tmp_path):
    first = manifest_bytes(manifest_of(offering))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "art").mkdir()
    (elsewhere / "art" / "logo.png").write_bytes(PNG)
    (elsewhere / "harbor.yaml").write_text(OFFERING)
    moved = load_offering(elsewhere / "harbor.yaml", str(elsewhere / "harbor.yaml"))
    assert manifest_bytes(manifest_of(moved)) == first
    assert json.loads(first)["date"] == "2027-05-01"


def test_manifest_json_is_canonical(offering):
    data = manifest_bytes(manifest_of(offering))
    assert data.endswith(b"}\n") and data.count(b"\n") == 1
    assert data == canonical_json(json.loads(data))
    assert data.isascii() and b": " not in data and b", " not in data.replace(b'", "', b"")
    keys = list(json.loads(data))
    assert keys == sorted(keys)


def test_a_manifest_reads_back_as_written_and_one_of_another_form_is_refused(offering):
    """read_manifest is the one reader: what build_manifest writes reads back equal, and a manifest that is not
    JSON, not this format, not canonical or not of the schema's form is refused, saying how."""
    from rulegen.filing.manifest import ManifestError, read_manifest

    manifest = manifest_of(offering)
    data = manifest_bytes(manifest)
    assert read_manifest(data) == json.loads(data) and manifest_bytes(read_manifest(data)) == data
    odd_size = json.loads(data)
    odd_size["outputs"]["rules.html"]["bytes"] = "12"
    unknown = {**json.loads(data), "extra": 1}
    no_logo_hash = json.loads(data)
    del no_logo_hash["logo"]["sha256"]
    for raw, reason in [(b"{", "is not JSON"), (canonical_json({"format": "other/1"}), "is not a rulegen-manifest/1"),
                        (json.dumps(json.loads(data)).encode(), "is not in canonical form"),
                        (canonical_json(odd_size), "at outputs.rules.html.bytes, '12' is not of type 'integer'"),
                        (canonical_json(unknown), "does not have the form"),
                        (canonical_json(no_logo_hash), "at logo")]:
        with pytest.raises(ManifestError) as caught:
            read_manifest(raw)
        assert reason in caught.value.reason, caught.value.reason


def test_rules_pdf_carries_the_exact_bytes(offering):
    from weasyprint import HTML

    manifest = manifest_of(offering)
    raw = manifest_bytes(manifest)
    html = "<!doctype html><html lang=en><title>rules</title><p>Criss Cross Poker</p></html>"
    with reproducible_clock(manifest) as epoch:
        pdf = HTML(string=html).write_pdf(attachments=pdf_attachments(offering, manifest))
    assert epoch == 1809129600  # 2027-05-01T00:00:00Z
    files = {f.name: f for f in embedded_files(open_reader(pdf))}
    assert files["harbor.yaml"].data == OFFERING.encode()
    assert files["art/logo.png"].data == PNG
    assert files[MANIFEST_NAME].data == raw
    assert all(f.declared_size == len(f.data) for f in files.values())


def test_rendering_under_the_effective_date_is_reproducible(offering):
    """fontTools stamps each subset font with the clock unless SOURCE_DATE_EPOCH is set; WeasyPrint stamps each
    attachment unless given dates. Under reproducible_clock, with pdf_attachments, a later run gives the same bytes."""
    import datetime as dt

    import time_machine
    from weasyprint import HTML

    manifest = manifest_of(offering)
    html = "<!doctype html><html lang=en><title>rules</title><p>Criss Cross Poker</p></html>"
    renders = []
    for later in (dt.timedelta(0), dt.timedelta(days=1, seconds=7)):  # the second run a day and 7 s later
        with time_machine.travel(dt.datetime.now(dt.timezone.utc) + later, tick=True), reproducible_clock(manifest):
            renders.append(HTML(string=html).write_pdf(attachments=pdf_attachments(offering, manifest)))
    assert renders[0] == renders[1]
    assert b"D:20270501000000Z" in renders[0]
