"""VERIFIED means rulegen reproduces every byte from the signed offering.

The adversary holds a genuine signing certificate the regulator trusts (the test PKI's signer, trusted through
RULEGEN_TRUST) and files a package that is signed and hashed consistently, but whose documents are not what the
signed offering gives: a shadow change inside the signature's own revision, a sign or appendix from another
offering, a manifest that claims another identity. Each must fail, naming what is wrong; a genuine filing
verifies.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from rulegen.filing import verify_filing
from rulegen.filing.pdf import open_reader, revision_end
from rulegen.filing.signing import SIGNATURE_FIELD
from tests.filing_factory import PASSPHRASE, build, make_trusted_pki

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    return make_trusted_pki(tmp_path_factory.mktemp("pki"), tmp_path_factory.mktemp("trusted"))


@pytest.fixture(autouse=True)
def _trust_the_test_root(pki, monkeypatch):
    monkeypatch.setenv("RULEGEN_TRUST", str(pki["trust_folder"]))


@pytest.fixture(scope="module")
def signed_filing(tmp_path_factory, pki) -> Path:
    return build(tmp_path_factory.mktemp("signed") / "filing-test-pa", pki)


def failed(report) -> dict[str, str]:
    return {c.name: c.detail for c in report.checks if c.ok is False}


# --- the signature's own revision ----------------------------------------------------------------------------------

def sign_with_changes(unsigned: bytes, identity: Path, change) -> bytes:
    """What a dishonest filer does: open the rendering for an incremental update, `change(writer)` it, then sign
    in that same update with a trusted identity, as rulegen's signing does (same field, PAdES, SHA-256). The
    signature then covers a revision that holds the extra changes."""
    from cryptography.hazmat.primitives.serialization import pkcs12
    from pyhanko.keys.internal import translate_pyca_cryptography_cert_to_asn1, translate_pyca_cryptography_key_to_asn1
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    key, cert, others = pkcs12.load_key_and_certificates(identity.read_bytes(), PASSPHRASE)
    signer = signers.SimpleSigner(
        signing_key=translate_pyca_cryptography_key_to_asn1(key),
        signing_cert=translate_pyca_cryptography_cert_to_asn1(cert),
        cert_registry=SimpleCertificateStore.from_certs([translate_pyca_cryptography_cert_to_asn1(c) for c in others]))
    writer = IncrementalPdfFileWriter(io.BytesIO(unsigned), strict=True)
    change(writer)
    output = io.BytesIO()
    signers.sign_pdf(writer, signers.PdfSignatureMetadata(field_name=SIGNATURE_FIELD, md_algorithm="sha256",
                                                          subfilter=fields.SigSeedSubFilter.PADES,
                                                          signer_key_usage=set()),
                     signer=signer, output=output)
    return output.getvalue()


def append_content_to_page_one(writer) -> None:
    from pyhanko.pdf_utils import generic

    page = writer.root["/Pages"]["/Kids"][0].get_object()
    stream = writer.add_object(generic.StreamObject(stream_data=b"BT /F1 40 Tf 72 72 Td (ANTE $1,000) Tj ET"))
    contents = page.raw_get("/Contents")
    page["/Contents"] = generic.ArrayObject([*(contents if isinstance(contents, generic.ArrayObject) else [contents]),
                                             stream])
    writer.update_container(page)


def replace_pages(writer) -> None:
    """A new /Pages tree whose one page shows other content, in place of the rendering's."""
    from pyhanko.pdf_utils import generic

    old_page = writer.root["/Pages"]["/Kids"][0].get_object()
    stream = writer.add_object(generic.StreamObject(stream_data=b"BT /F1 40 Tf 72 72 Td (ANTE $1,000) Tj ET"))
    pages_ref = writer.add_object(generic.DictionaryObject({generic.NameObject("/Type"): generic.NameObject("/Pages"),
                                                            generic.NameObject("/Count"): generic.NumberObject(1)}))
    page = generic.DictionaryObject({
        generic.NameObject("/Type"): generic.NameObject("/Page"),
        generic.NameObject("/Parent"): pages_ref,
        generic.NameObject("/MediaBox"): old_page["/MediaBox"],
        generic.NameObject("/Resources"): old_page.raw_get("/Resources"),
        generic.NameObject("/Contents"): stream,
    })
    pages_ref.get_object()[generic.NameObject("/Kids")] = generic.ArrayObject([writer.add_object(page)])
    writer.root[generic.NameObject("/Pages")] = pages_ref
    writer.update_root()


def retitle(writer) -> None:
    """Another title in the document information, which a viewer shows in its title bar."""
    from pyhanko.pdf_utils import generic

    info = writer.trailer["/Info"]
    info[generic.NameObject("/Title")] = generic.TextStringObject("Criss Cross Poker: antes to $1,000")
    writer.update_container(info)


def retitle_metadata(writer) -> None:
    """Another title and subject in the XMP metadata, which a viewer shows as the document's title and
    description (pyHanko's difference analysis admits any well-formed metadata in a later revision)."""
    from pyhanko.pdf_utils import generic

    old = writer.root["/Metadata"].get_object().data
    new = old.replace(b">Criss Cross Poker rules<", b">Criss Cross Poker: antes to $1,000, approved<")
    assert new != old
    stream = generic.StreamObject({generic.NameObject("/Type"): generic.NameObject("/Metadata"),
                                   generic.NameObject("/Subtype"): generic.NameObject("/XML")}, stream_data=new)
    writer.root[generic.NameObject("/Metadata")] = writer.add_object(stream)
    writer.update_root()


def change_nothing(writer) -> None:
    pass


@pytest.mark.parametrize("change", [append_content_to_page_one, replace_pages, retitle, retitle_metadata])
def test_a_shadow_change_in_the_signing_revision_fails(signed_filing, pki, tmp_path, change):
    data = signed_filing.read_bytes()
    unsigned = data[: revision_end(data, open_reader(data), 0)]
    shutil.copytree(signed_filing.parent, tmp_path / "package")
    target = tmp_path / "package" / "rules.pdf"
    shadowed = sign_with_changes(unsigned, pki["signer"], change)
    assert shadowed.startswith(unsigned) and open_reader(shadowed).xrefs.total_revisions == 2
    target.write_bytes(shadowed)
    report = verify_filing(target)
    assert report.exit_code == 1 and report.status == "failed", report.verdict
    problems = failed(report)
    assert "beyond adding the signature" in problems["revision"], problems
    if change is retitle_metadata:
        assert "it changes the XMP metadata beyond the producer and modification date" in problems["revision"]
    signature = next(c for c in report.checks if c.name == "signature")
    assert signature.ok and report.trusted  # a trusted signer, an intact signature: the revision alone gives it away


def test_the_same_signing_without_changes_passes_the_revision_check(signed_filing, pki, tmp_path):
    data = signed_filing.read_bytes()
    unsigned = data[: revision_end(data, open_reader(data), 0)]
    shutil.copytree(signed_filing.parent, tmp_path / "package")
    target = tmp_path / "package" / "rules.pdf"
    target.write_bytes(sign_with_changes(unsigned, pki["signer"], change_nothing))
    report = verify_filing(target)
    revision = next(c for c in report.checks if c.name == "revision")
    assert revision.ok, revision.detail
    genuine = verify_filing(signed_filing)
    assert next(c for c in genuine.checks if c.name == "revision").ok


# --- identity: from the signed offering, never the manifest ----------------------------------------------------------

@pytest.mark.parametrize("field, claim", [("id", "another-offering"), ("jurisdiction", "NJ"), ("version", 9),
                                          ("effective_date", "2026-01-01")])
def test_a_manifest_claiming_another_identity_fails_and_reports_the_true_one(pki, tmp_path, field, claim):
    def claim_another(manifest):
        manifest["offering"][field] = claim
        if field == "effective_date":
            manifest["date"] = claim

    report = verify_filing(build(tmp_path / "claims", pki, edit=claim_another))
    assert report.exit_code == 1 and report.status == "failed", report.verdict
    detail = failed(report)["identity"]
    assert f"{field} {claim!r}" in detail and "filing-test-pa revision 3 for PA" in detail
    assert (report.offering_id, report.jurisdiction, report.revision, report.effective_date, report.operator) == (
        "filing-test-pa", "PA", 3, "2027-03-01", "Test Pennsylvania Casino")
    payload = report.to_json()
    assert (payload["offering_id"], payload["jurisdiction"], payload["revision"]) == ("filing-test-pa", "PA", 3)


def test_the_identity_of_a_genuine_filing_is_the_offerings(signed_filing):
    report = verify_filing(signed_filing)
    identity = next(c for c in report.checks if c.name == "identity")
    assert identity.ok and "read from the signed offering" in identity.detail
    assert (report.offering_id, report.revision) == ("filing-test-pa", 3)


# --- the whole package, reproduced (this factory's product standing in for the pipeline) ----------------------------

def test_a_genuine_filing_reproduces_and_is_verified_only_then(signed_filing):
    from tests.filing_factory import reproduce

    report = verify_filing(signed_filing, reproduce=reproduce)
    assert report.status == "verified" and report.exit_code == 0, report.verdict
    assert report.verdict.startswith("VERIFIED") and "every byte reproduced" in report.verdict
    check = next(c for c in report.checks if c.name == "reproduce")
    assert check.ok and all(n in check.detail for n in ("rules.pdf", "signage.pdf", "math-appendix.pdf",
                                                        "rules.html", "manifest.json"))
    fast = verify_filing(signed_filing)
    assert fast.status == "intact" and fast.exit_code == 0 and "VERIFIED" not in fast.verdict
    assert fast.verdict.startswith("INTACT, INTEGRITY ONLY") and fast.to_json()["mode"] == "integrity-only"


def test_other_renderer_versions_make_a_filing_unreproducible_here(signed_filing):
    from rulegen.filing.rebuild import Reproducer
    from tests.filing_factory import reproduce

    elsewhere = Reproducer(reproduce.render, lambda: {**reproduce.versions(), "pango": "9.99.0"})
    report = verify_filing(signed_filing, reproduce=elsewhere)
    assert report.status == "unreproducible" and report.exit_code == 1, report.verdict
    assert report.verdict.startswith("NOT VERIFIED, CANNOT BE REPRODUCED HERE")
    assert "Pango" in report.verdict and "9.99.0" in report.verdict and "pip install rulegen==" in report.verdict


def test_a_manifest_edited_before_signing_is_not_reproduced(pki, tmp_path):
    from tests.filing_factory import reproduce

    def other_figures(manifest):
        manifest["figures"] = {"main_game.house_edge_per_ante": "1/1000"}

    report = verify_filing(build(tmp_path / "edited", pki, edit=other_figures), reproduce=reproduce)
    assert report.status == "failed", report.verdict
    detail = failed(report)["reproduce"]
    assert "manifest.json" in detail and "rules.pdf (the signed revision)" in detail and "figures" in detail


# --- end to end: a real signed build, and packages a dishonest filer makes from it ------------------------------------

SAMPLE = "pa-five-card-bonus.yaml"


def _render_for(text: str, folder: Path, piece: str) -> bytes:
    """The sign or the appendix of the offering `text`, final, as the pipeline renders them (the math from the
    session's cache: the filer's tools are not bound by verify's rules)."""
    import rulegen.assemble as pipeline
    from rulegen.render import documents
    from rulegen.render.context import draft_status
    from rulegen.resolved import resolve

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "offering.yaml").write_text(text, encoding="utf-8")
    loaded, _findings = pipeline.load_and_validate(folder / "offering.yaml")
    offering = resolve(loaded)
    draft = draft_status(offering, True)
    if piece == "signage.pdf":
        return documents.signage_pdf(offering, draft=draft, fetcher=documents.fetcher_for(offering))
    results = pipeline.math_results(offering)
    return documents.appendix_pdf(offering, results, draft=draft, fetcher=documents.fetcher_for(offering))


def _refile(genuine: Path, folder: Path, identity: Path, replaced: dict[str, bytes]) -> Path:
    """The genuine package with `replaced` files put in, the manifest's hashes of them updated, rules.pdf rendered
    again from the genuine rules.html with that manifest attached, and signed with a trusted identity: every
    hash and the signature are consistent, so only a reproduction can tell."""
    import json

    import rulegen.assemble as pipeline
    from rulegen.filing import manifest_bytes, sign_pdf
    from rulegen.filing.manifest import sha256
    from rulegen.resolved import resolve

    shutil.copytree(genuine.parent, folder)
    manifest = json.loads((folder / "manifest.json").read_bytes())
    for name, data in replaced.items():
        (folder / name).write_bytes(data)
        manifest["outputs"][name] = {"sha256": sha256(data), "bytes": len(data)}
    data = manifest_bytes(manifest)
    source = folder.parent / f"{folder.name}-source"
    source.mkdir()
    name, offering = attached_offering(genuine)
    (source / name).write_bytes(offering)
    loaded, _ = pipeline.load_and_validate(source / name)
    html = _as_rendered((folder / "rules.html").read_text(encoding="utf-8"))
    unsigned = pipeline.rules_pdf_from_html(resolve(loaded), html, pipeline.pdf_attachments(loaded, manifest, data))
    (folder / "manifest.json").write_bytes(data)
    (folder / "rules.pdf").write_bytes(sign_pdf(unsigned, identity, PASSPHRASE))
    return folder / "rules.pdf"


def _as_rendered(written: str) -> str:
    """The rules.html a build wrote (its fonts embedded as data: URIs) with the fonts named again as the renderer
    reads them (`rulegen-asset:`), in the order the shipped fonts.css names them: what rules.pdf is laid out from."""
    import re

    from rulegen.resources import templates_dir

    shipped = re.findall(r'url\("(rulegen-asset:[^"]+)"\)', (templates_dir() / "assets/css/fonts.css").read_text())
    embedded = re.findall(r"url\(\"?(data:font/[^\")]+)", written)
    assert len(shipped) == len(embedded) == 10 and "rulegen-offering:" not in written
    for url, data in zip(shipped, embedded):
        written = written.replace(data, url, 1)
    return written


def attached_offering(filing: Path) -> tuple[str, bytes]:
    """The offering attached to a filing, its name and bytes (the filer has it anyway)."""
    from rulegen.filing.pdf import embedded_files

    [item] = [item for item in embedded_files(open_reader(filing.read_bytes())) if item.name.endswith(".yaml")]
    return item.name, item.data


@pytest.fixture(scope="module")
def real_filing(tmp_path_factory, pki, math_cache) -> Path:
    from typer.testing import CliRunner

    from rulegen.cli import app
    from rulegen.resources import samples_dir

    out = tmp_path_factory.mktemp("real")
    result = CliRunner().invoke(app, ["build", str(samples_dir() / SAMPLE), "--out", str(out), "--final", "--sign",
                                      str(pki["signer"])], env={"RULEGEN_SIGN_PASSPHRASE": PASSPHRASE.decode()})
    assert result.exit_code == 0, (result.output, result.stderr)
    [folder] = [p for p in out.iterdir() if p.is_dir()]
    return folder / "rules.pdf"


def test_a_real_signed_build_is_verified_by_reproducing_every_byte(real_filing, capsys):
    import time

    from rulegen.assemble import reproduce_filing_for_verify

    began = time.perf_counter()
    report = verify_filing(real_filing, reproduce=reproduce_filing_for_verify)
    seconds = time.perf_counter() - began
    with capsys.disabled():
        print(f"\nfull verification of one real filing (fresh math, every file rendered): {seconds:.1f} s")
    assert report.status == "verified" and report.exit_code == 0, report.verdict
    assert report.offering_id == "allegheny-crossing-ccp" and report.jurisdiction == "PA"


@pytest.mark.parametrize("piece", ["signage.pdf", "math-appendix.pdf"])
def test_a_sign_or_appendix_of_another_offering_fails_naming_the_file(real_filing, pki, tmp_path, piece):
    from rulegen.assemble import reproduce_filing_for_verify
    from rulegen.resources import samples_dir

    text = (samples_dir() / SAMPLE).read_text(encoding="utf-8")
    if piece == "signage.pdf":
        assert "ante: {minimum: 5, maximum: 200}" in text
        other = text.replace("ante: {minimum: 5, maximum: 200}", "ante: {minimum: 5, maximum: 1000}")
    else:
        other = text.replace("id: allegheny-crossing-ccp", "id: another-casino-ccp")
        assert other != text
    forged = _refile(real_filing, tmp_path / "forged", pki["signer"],
                     {piece: _render_for(other, tmp_path / "o", piece)})
    fast = verify_filing(forged)
    assert fast.status == "intact", fast.verdict  # signed, trusted, every hash consistent: integrity alone passes
    report = verify_filing(forged, reproduce=reproduce_filing_for_verify)
    assert report.status == "failed" and report.exit_code == 1, report.verdict
    detail = failed(report)["reproduce"]
    assert f"{piece} (differs" in detail and "outputs." + piece in detail
    others = [name for name in ("rules.html", "signage.pdf", "math-appendix.pdf") if name != piece]
    assert not any(f"{name} (differs" in detail for name in others), detail
    assert "VERIFIED" not in report.verdict and piece in report.verdict


@pytest.fixture(scope="module")
def logo_and_limit(tmp_path_factory):
    """A New Jersey offering with a logo and no payout limit, built final and reproduced from what its rules.pdf
    carries (each a build's worth of rendering and fresh math, so done once for the two tests below): the build's
    files, the attachments of its rules.pdf, its manifest and the reproduction's files."""
    import io
    import json
    import re

    from PIL import Image

    import rulegen.assemble as pipeline
    from rulegen.filing.pdf import embedded_files
    from rulegen.resources import samples_dir

    tmp_path = tmp_path_factory.mktemp("logo-and-limit")
    folder = tmp_path / "offering"
    folder.mkdir()
    picture = io.BytesIO()  # sharp enough for a final sign (300 ppi as laid out), which refuses one that is not
    Image.new("RGB", (900, 300), (20, 40, 160)).save(picture, "PNG")
    png = picture.getvalue()
    (folder / "logo.png").write_bytes(png)
    text = (samples_dir() / "nj-bonus-spin.yaml").read_text(encoding="utf-8")
    without = re.sub(r"(?m)^payout_limit:\n  amount: \d+\n", "", text)
    assert without != text
    with_logo = without.replace("    licence:", "    logo: logo.png\n    licence:", 1)
    assert with_logo != without
    (folder / "nj.yaml").write_text(with_logo, encoding="utf-8")
    built = pipeline.build(folder / "nj.yaml", pipeline.BuildOptions(out_dir=tmp_path / "out", final=True))
    manifest = json.loads(built.files["manifest.json"])
    attached = {item.name: item.data for item in embedded_files(open_reader(built.files["rules.pdf"]))}
    fresh = pipeline.reproduce_filing_for_verify(source=attached["nj.yaml"], name="nj.yaml",
                                                 logo=("logo.png", attached["logo.png"]),
                                                 options=manifest["options"], signer=None)
    return {"png": png, "built": built.files, "attached": attached, "manifest": manifest, "fresh": fresh}


def test_an_offering_with_a_logo_is_reproduced_byte_for_byte(logo_and_limit):
    """The reproduction takes the signed logo as given, beside the offering, as the build read it."""
    attached, manifest = logo_and_limit["attached"], logo_and_limit["manifest"]
    assert attached["logo.png"] == logo_and_limit["png"] and manifest["logo"]["file"] == "logo.png"
    built, fresh = logo_and_limit["built"], logo_and_limit["fresh"]
    assert {name: fresh[name] == built[name] for name in fresh} == {name: True for name in built}


def test_the_command_offers_integrity_only_and_still_accepts_rebuild(signed_filing, monkeypatch):
    from typer.testing import CliRunner

    from rulegen.cli import app
    from tests.filing_factory import reproduce

    monkeypatch.setattr("rulegen.assemble.reproduce_filing_for_verify", reproduce)
    runner = CliRunner()
    help_text = runner.invoke(app, ["verify", "--help"], env={"COLUMNS": "200"}).stdout
    assert "--integrity-only" in help_text and "Never VERIFIED" in help_text and "--rebuild" not in help_text
    for extra, verdict in (([], "VERIFIED"), (["--rebuild"], "VERIFIED"), (["--integrity-only"], "INTACT, INTEGRITY")):
        result = runner.invoke(app, ["verify", str(signed_filing), *extra])
        assert result.exit_code == 0 and verdict in result.stdout, (extra, result.output)
        assert ("VERIFIED" in result.stdout) == (verdict == "VERIFIED")
    result = runner.invoke(app, ["verify", str(signed_filing), "--rebuild", "--integrity-only"])
    assert result.exit_code == 2 and "--integrity-only" in result.stderr


def test_a_limit_the_rule_sets_is_reproduced_byte_for_byte(logo_and_limit):
    """A New Jersey offering that states no payout limit gets the figure 40.11(d) sets; verification builds it again
    the same way, so every byte matches, and the documents print that limit."""
    built, fresh = logo_and_limit["built"], logo_and_limit["fresh"]
    assert "the figure the rule itself sets" in built["rules.html"].decode()
    assert {name: fresh[name] == built[name] for name in fresh} == {name: True for name in built}
# --- a data folder's template, run by full verification -----------------------------------------------------------

def test_a_hostile_data_folder_template_runs_nothing_in_full_verification(real_filing, tmp_path, monkeypatch):
    """The regulator installs a card room's data folder to reproduce its filings; a template there that tries to run
    Python, or to take all the memory, is stopped by the sandbox while verification builds the filing again: the
    filing fails, naming the template, and nothing runs."""
    from rulegen.assemble import reproduce_filing_for_verify
    from rulegen.resources import templates_dir

    marker = tmp_path / "pwned"
    shipped = (templates_dir() / "signage.html").read_text(encoding="utf-8")
    for number, payload in enumerate([
        f"{{{{ cycler.__init__.__globals__.os.popen('touch {marker}').read() }}}}",
        "{{ range(100000)|join('x' * 1000000) }}",
    ]):
        root = tmp_path / f"data{number}"
        (root / "templates").mkdir(parents=True)
        (root / "templates" / "signage.html").write_text(payload + shipped, encoding="utf-8")
        monkeypatch.setenv("RULEGEN_DATA_PATH", str(root))
        report = verify_filing(real_filing, reproduce=reproduce_filing_for_verify)
        assert report.status == "failed" and "VERIFIED" not in report.verdict, report.verdict
        detail = failed(report)["reproduce"]
        assert "signage.html" in detail and "tried something templates may not do" in detail, detail
        assert not marker.exists()


# --- rules.docx (build --docx) is reproduced like every other file ------------------------------------------------

@pytest.fixture(scope="module")
def docx_filing(tmp_path_factory, pki, math_cache) -> Path:
    from typer.testing import CliRunner

    from rulegen.cli import app
    from rulegen.resources import samples_dir

    out = tmp_path_factory.mktemp("docx")
    result = CliRunner().invoke(app, ["build", str(samples_dir() / SAMPLE), "--out", str(out), "--final", "--docx",
                                      "--sign", str(pki["signer"])],
                                env={"RULEGEN_SIGN_PASSPHRASE": PASSPHRASE.decode()})
    assert result.exit_code == 0, (result.output, result.stderr)
    [folder] = [p for p in out.iterdir() if p.is_dir()]
    assert (folder / "rules.docx").is_file()
    return folder / "rules.pdf"


def _docx_saying_otherwise(data: bytes) -> bytes:
    """rules.docx with one word of its text changed, written again as the zip it was."""
    import io
    import zipfile

    source, target = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            content = source.read(item)
            if item.filename == "word/document.xml":
                changed = content.replace(b"Criss Cross Poker", b"Criss Cross Poker, antes to $1,000", 1)
                assert changed != content
                content = changed
            out.writestr(item, content)
    return target.getvalue()


def test_a_genuine_filing_with_rules_docx_verifies_and_names_it(docx_filing):
    from rulegen.assemble import reproduce_filing_for_verify

    report = verify_filing(docx_filing, reproduce=reproduce_filing_for_verify)
    assert report.status == "verified", report.verdict
    assert "rules.docx" in next(c.detail for c in report.checks if c.name == "reproduce")


def test_an_altered_rules_docx_fails_even_hashed_into_a_manifest_signed_by_a_trusted_signer(docx_filing, pki,
                                                                                             tmp_path):
    from rulegen.assemble import reproduce_filing_for_verify

    other = _docx_saying_otherwise((docx_filing.parent / "rules.docx").read_bytes())
    # changed beside the filing: its hash is no longer the manifest's
    shutil.copytree(docx_filing.parent, tmp_path / "changed")
    (tmp_path / "changed" / "rules.docx").write_bytes(other)
    report = verify_filing(tmp_path / "changed" / "rules.pdf", reproduce=reproduce_filing_for_verify)
    assert report.status == "failed" and "rules.docx" in failed(report)["outputs"], report.verdict
    # changed, hashed into the manifest, rules.pdf rendered again with it and signed by the trusted identity
    forged = _refile(docx_filing, tmp_path / "forged", pki["signer"], {"rules.docx": other})
    assert verify_filing(forged).status == "intact"  # every hash and the signature agree
    report = verify_filing(forged, reproduce=reproduce_filing_for_verify)
    assert report.status == "failed", report.verdict
    detail = failed(report)["reproduce"]
    assert "rules.docx (differs" in detail and "outputs.rules.docx" in detail, detail
