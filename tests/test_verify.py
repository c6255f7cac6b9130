"""Signing and verifying a filing: a signed final filing verifies; an unsigned draft is reported as one; a
one-byte change anywhere (unsigned rendering, attachments, signature, its zero padding) fails with a reason;
identities that cannot sign are refused with exit 2.

The filing here is a small WeasyPrint rendering carrying the real attachments (offering, manifest), signed
with a throwaway CA and signer the test generates, so these tests do not depend on the render pipeline.
"""

from __future__ import annotations

import datetime as dt
import os
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.errors import InputError
from rulegen.filing import sign_pdf, signer_name, verify_filing
from rulegen.filing.pdf import check_signature_gap, open_reader, revision_end
from rulegen.filing.rebuild import Reproducer


from tests.filing_factory import (  # noqa: E402
    OUTPUTS,
    PASSPHRASE,
    SIGNER,
    _certificate,
    _name,
    build,
    make_identity,
    make_trusted_pki,
    reproduce,
)

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    return make_trusted_pki(tmp_path_factory.mktemp("pki"), tmp_path_factory.mktemp("trusted"))


@pytest.fixture(autouse=True)
def _trust_the_test_root(pki, monkeypatch):
    """Every test trusts the test root through RULEGEN_TRUST, as an agency's machine would be set up, so a test
    that expects a failure sees the failure it is about and not the untrusted signer; the trust tests unset it."""
    monkeypatch.setenv("RULEGEN_TRUST", str(pki["trust_folder"]))


@pytest.fixture
def factory_reproduces(monkeypatch):
    """The command line hands verify the build layer's renderer; for this module's stand-in filings, the factory's
    own product stands in for it (the real pipeline is tested on real builds below)."""
    monkeypatch.setattr("rulegen.assemble.reproduce_filing_for_verify", reproduce)


@pytest.fixture(scope="module")
def signed_filing(tmp_path_factory, pki) -> Path:
    return build(tmp_path_factory.mktemp("signed") / "filing-test-pa", pki)


@pytest.fixture(scope="module")
def draft_filing(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("draft") / "filing-test-pa", None, final=False)


def package_copy(filing: Path, folder: Path) -> Path:
    """The rules.pdf of a copy of `filing`'s whole package under `folder`, for a test to replace."""
    shutil.copytree(filing.parent, folder / "package")
    return folder / "package" / "rules.pdf"


def failed(report) -> dict[str, str]:
    return {c.name: c.detail for c in report.checks if c.ok is False}


# --- signing -----------------------------------------------------------------------------------------------------

def test_signer_name_reads_the_certificate(pki):
    assert signer_name(pki["signer"], PASSPHRASE) == "Priya Raman, Test Pennsylvania Casino"


@pytest.mark.parametrize("case, message", [
    ("expired", "expired on"),
    ("wrong passphrase", "passphrase is wrong"),
    ("no passphrase", "RULEGEN_SIGN_PASSPHRASE"),
    ("missing", "does not exist"),
    ("not pkcs12", "will not open"),
    ("folder", "is a folder"),
])
def test_identities_that_cannot_sign_are_refused(pki, tmp_path, case, message):
    path, passphrase = pki["signer"], PASSPHRASE
    if case == "expired":
        path = pki["expired"]
    elif case == "wrong passphrase":
        passphrase = b"wrong"
    elif case == "no passphrase":
        passphrase = None
    elif case == "missing":
        path = tmp_path / "nowhere.p12"
    elif case == "not pkcs12":
        path = tmp_path / "text.p12"
        path.write_text("not a key")
    elif case == "folder":
        path = tmp_path
    for attempt in (lambda: signer_name(path, passphrase), lambda: sign_pdf(b"%PDF-1.7\n", path, passphrase)):
        with pytest.raises(InputError) as caught:
            attempt()
        assert message in caught.value.message
        assert int(caught.value.exit_code) == 2


def test_signing_keeps_the_unsigned_rendering_as_a_prefix(signed_filing):
    data = signed_filing.read_bytes()
    reader = open_reader(data)
    assert reader.xrefs.total_revisions == 2
    end = revision_end(data, reader, 0)
    unsigned = open_reader(data[:end])
    assert unsigned.xrefs.total_revisions == 1 and not unsigned.embedded_signatures
    gap = check_signature_gap(data, reader.embedded_signatures[0].byte_range)
    assert gap.padding > 0


# --- verifying ---------------------------------------------------------------------------------------------------

def test_signed_final_filing_verifies_against_its_root(signed_filing, pki):
    report = verify_filing(signed_filing, trust=pki["ca"], reproduce=reproduce)
    assert failed(report) == {}, report.verdict
    assert report.exit_code == 0 and report.signed and report.final and report.trusted
    assert report.signer == "Priya Raman, Test Pennsylvania Casino"
    names = {c.name for c in report.checks if c.ok}
    assert {"pdf", "signature", "coverage", "revision", "contents", "certificate", "trust", "manifest", "offering",
            "identity", "final", "outputs", "rules", "reproduce"} <= names
    assert report.verdict.startswith("VERIFIED")


def test_without_a_trust_root_an_intact_signature_fails_closed(signed_filing, monkeypatch):
    monkeypatch.delenv("RULEGEN_TRUST")
    report = verify_filing(signed_filing)
    assert report.exit_code == 1 and report.status == "untrusted" and report.trust_status == "not trusted"
    assert set(failed(report)) == {"trust"}
    assert "Priya Raman" in failed(report)["trust"] and "--trust" in failed(report)["trust"]
    assert report.verdict.startswith("INTACT, SIGNER NOT TRUSTED")
    signature = next(c for c in report.checks if c.name == "signature")
    assert signature.ok


def test_a_self_signed_signer_is_intact_but_not_trusted(signed_filing, tmp_path, monkeypatch):
    """The case pyHanko calls invalid: a signer who vouches for itself verifies only if a root names it."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import pkcs12

    now = dt.datetime.now(dt.timezone.utc)
    key = ec.generate_private_key(ec.SECP256R1())
    name = _name(SIGNER, "Test Pennsylvania Casino")
    cert = _certificate(name, name, key.public_key(), key, ca=False, start=now - dt.timedelta(days=1),
                        end=now + dt.timedelta(days=30), serial=77)
    identity = tmp_path / "self.p12"
    identity.write_bytes(pkcs12.serialize_key_and_certificates(b"self", key, cert, None,
                                                               serialization.BestAvailableEncryption(PASSPHRASE)))
    folder = tmp_path / "filing"
    shutil.copytree(signed_filing.parent, folder)
    data = signed_filing.read_bytes()
    (folder / "rules.pdf").write_bytes(sign_pdf(data[: revision_end(data, open_reader(data), 0)], identity,
                                                PASSPHRASE))
    report = verify_filing(folder)  # the test root is trusted; this signer is not under it
    assert report.exit_code == 1 and report.status == "untrusted", report.verdict
    assert set(failed(report)) == {"trust"}
    monkeypatch.delenv("RULEGEN_TRUST")
    assert verify_filing(folder).status == "untrusted"
    with pytest.raises(InputError, match="not a folder of trusted certificates"):
        verify_filing(folder, environ={"RULEGEN_TRUST": str(tmp_path / "nothing-here")})
    (tmp_path / "self.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    report = verify_filing(folder, trust=tmp_path / "self.pem")  # named as a root, it is trusted
    assert report.exit_code == 0, report.verdict


def test_a_trust_folder_must_hold_certificates(signed_filing, tmp_path, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("RULEGEN_TRUST", str(empty))
    result = CliRunner().invoke(app, ["verify", str(signed_filing)])
    assert result.exit_code == 2 and "holds no certificate" in result.stderr


def test_a_build_folder_stands_for_its_rules_pdf(signed_filing):
    report = verify_filing(signed_filing.parent)
    assert report.exit_code == 0 and report.path == str(signed_filing)


def test_an_unrelated_root_is_not_trusted(signed_filing, pki, monkeypatch):
    monkeypatch.delenv("RULEGEN_TRUST")
    report = verify_filing(signed_filing, trust=pki["other_ca"])
    assert report.exit_code == 1 and report.status == "untrusted"
    assert "does not chain" in failed(report)["trust"]
    assert verify_filing(signed_filing, trust=[pki["other_ca"], pki["ca"]]).exit_code == 0


def test_unsigned_draft_is_reported_as_a_draft(draft_filing):
    report = verify_filing(draft_filing)
    assert report.exit_code == 1 and not report.signed
    assert report.verdict.startswith("UNSIGNED DRAFT")
    assert "unsigned draft" in failed(report)["signature"]
    assert "final" in failed(report)


def test_a_changed_sibling_output_fails(signed_filing, tmp_path):
    copy = tmp_path / "filing"
    shutil.copytree(signed_filing.parent, copy)
    (copy / "signage.pdf").write_bytes(OUTPUTS["signage.pdf"] + b" ")
    report = verify_filing(copy / "rules.pdf")
    assert report.exit_code == 1 and "signage.pdf" in failed(report)["outputs"]
    (copy / "signage.pdf").unlink()
    (copy / "manifest.json").write_bytes(b"{}\n")
    report = verify_filing(copy / "rules.pdf")
    assert "manifest.json" in failed(report)["outputs"]


def test_a_sibling_that_is_a_link_or_a_fifo_is_reported_not_followed(signed_filing, tmp_path):
    """A link out of the folder (to a huge sparse file, say) or a FIFO beside rules.pdf: named, never read."""
    copy = tmp_path / "filing"
    shutil.copytree(signed_filing.parent, copy)
    huge = tmp_path / "sparse.bin"
    with open(huge, "wb") as handle:
        handle.truncate(20 << 30)  # 20 GiB of nothing: reading it would take minutes
    (copy / "signage.pdf").unlink()
    os.symlink(huge, copy / "signage.pdf")
    (copy / "rules.html").unlink()
    os.mkfifo(copy / "rules.html")
    report = verify_filing(copy / "rules.pdf")
    detail = failed(report)["outputs"]
    assert "signage.pdf (is a symbolic link" in detail and "rules.html (is a named pipe" in detail, detail
    for special in (copy / "rules.html", huge):  # as the filing itself or as a trust root: refused at once
        with pytest.raises(InputError, match="named pipe|larger than"):
            verify_filing(special)
        with pytest.raises(InputError, match="named pipe|larger than"):
            verify_filing(signed_filing, trust=special)


@pytest.mark.parametrize("name", ["math-appendix.pdf", "signage.pdf", "rules.html", "manifest.json"])
def test_a_package_missing_any_file_fails(signed_filing, tmp_path, name):
    copy = tmp_path / "filing"
    shutil.copytree(signed_filing.parent, copy)
    (copy / name).unlink()
    for strict in (False, True):
        report = verify_filing(copy, strict=strict)
        assert report.exit_code == 1 and report.status == "failed"
        assert "missing: " + name in failed(report)["outputs"]


def test_a_package_with_an_extra_file_or_folder_fails(signed_filing, tmp_path):
    copy = tmp_path / "filing"
    shutil.copytree(signed_filing.parent, copy)
    (copy / "notes.txt").write_text("added after the build")
    report = verify_filing(copy)
    assert report.exit_code == 1 and "not in the manifest: notes.txt" in failed(report)["outputs"]
    (copy / "notes.txt").unlink()
    (copy / "extra").mkdir()
    assert "extra/" in failed(verify_filing(copy))["outputs"]
    (copy / "extra").rmdir()
    report = verify_filing(copy)
    assert report.exit_code == 0, report.verdict
    assert "whole package" in next(c for c in report.checks if c.name == "outputs").detail


def _tamper_positions(data: bytes) -> dict[str, list[int]]:
    """Byte offsets to change: spread over the file, and inside each part a forger would aim at."""
    reader = open_reader(data)
    signature = reader.embedded_signatures[0]
    _, length1, start2, _ = [int(v) for v in signature.byte_range]
    gap = check_signature_gap(data, signature.byte_range)
    der_end = length1 + 1 + 2 * gap.der_length  # first hex digit of the padding
    prefix_end = revision_end(data, reader, 0)
    attachments = []
    search = 0
    while (found := data.find(b"/EmbeddedFile", search)) != -1:
        stream = data.find(b"stream", found) + len(b"stream\n")
        attachments += [stream, stream + 5, stream + 17]
        search = found + 1
    step = max(1, len(data) // 97)
    return {
        "spread": list(range(0, len(data), step)) + [len(data) - 1],
        "prefix": [5, prefix_end // 2, prefix_end - 8, prefix_end - 1],
        "attachments": attachments,
        "signature DER": [length1, length1 + 1, length1 + 40, der_end - 1],
        "signature padding": [der_end, der_end + 1, (der_end + start2) // 2, start2 - 2, start2 - 1],
        "signature revision": [prefix_end, (start2 + len(data)) // 2, len(data) - 6],
    }


def test_one_changed_byte_anywhere_fails_with_a_reason(signed_filing, pki, tmp_path):
    data = signed_filing.read_bytes()
    copy_folder = tmp_path / "tampered"
    shutil.copytree(signed_filing.parent, copy_folder)
    target = copy_folder / "rules.pdf"
    checked = 0
    for region, positions in _tamper_positions(data).items():
        assert positions, region
        for position in positions:
            for flip in (0x01, 0x20):
                tampered = bytearray(data)
                tampered[position] ^= flip
                target.write_bytes(bytes(tampered))
                report = verify_filing(target, trust=pki["ca"])
                assert report.exit_code == 1, (region, position, flip, report.verdict)
                reasons = failed(report)
                assert reasons and all(reasons.values()), (region, position)
                checked += 1
    assert checked > 200


def test_an_rsa_identity_signs_and_verifies(signed_filing, tmp_path):
    """Most operators' identities are RSA: its algorithm parameters (NULL) are part of the form verify expects."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.serialization import pkcs12

    now = dt.datetime.now(dt.timezone.utc)
    ca_key, key = rsa.generate_private_key(65537, 2048), rsa.generate_private_key(65537, 2048)
    ca_name = _name("RSA Test Root")
    ca = _certificate(ca_name, ca_name, ca_key.public_key(), ca_key, ca=True, start=now - dt.timedelta(days=1),
                      end=now + dt.timedelta(days=30), serial=10)
    cert = _certificate(_name(SIGNER, "Test Pennsylvania Casino"), ca_name, key.public_key(), ca_key, ca=False,
                        start=now - dt.timedelta(days=1), end=now + dt.timedelta(days=30), serial=11)
    identity = tmp_path / "rsa.p12"
    identity.write_bytes(pkcs12.serialize_key_and_certificates(b"rsa", key, cert, [ca],
                                                               serialization.BestAvailableEncryption(PASSPHRASE)))
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    data = signed_filing.read_bytes()
    unsigned = data[: revision_end(data, open_reader(data), 0)]
    target = package_copy(signed_filing, tmp_path)
    target.write_bytes(sign_pdf(unsigned, identity, PASSPHRASE))
    report = verify_filing(target, trust=tmp_path / "ca.pem")
    assert report.exit_code == 0, report.verdict


def test_a_hex_case_change_in_the_signature_is_caught(signed_filing, tmp_path):
    """pyHanko decodes `a` and `A` alike, so it would pass this; the /Contents check does not."""
    data = bytearray(signed_filing.read_bytes())
    _, length1, _, _ = [int(v) for v in open_reader(bytes(data)).embedded_signatures[0].byte_range]
    position = next(i for i in range(length1 + 1, length1 + 400) if data[i] in b"ABCDEF")
    data[position] ^= 0x20
    target = package_copy(signed_filing, tmp_path)
    target.write_bytes(bytes(data))
    report = verify_filing(target)
    assert report.exit_code == 1 and "upper-case hex" in failed(report)["contents"]


def test_bytes_appended_after_signing_fail(signed_filing, tmp_path):
    target = package_copy(signed_filing, tmp_path)
    target.write_bytes(signed_filing.read_bytes() + b"\n% appended\n")
    report = verify_filing(target)
    assert report.exit_code == 1 and failed(report)


def sign_directly(unsigned: bytes, key, cert, field: str = "Signature") -> bytes:
    """Sign with pyHanko itself, bypassing rulegen's checks (to make filings rulegen would refuse to make)."""
    import io

    from pyhanko.keys.internal import translate_pyca_cryptography_cert_to_asn1, translate_pyca_cryptography_key_to_asn1
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers

    signer = signers.SimpleSigner(signing_key=translate_pyca_cryptography_key_to_asn1(key),
                                  signing_cert=translate_pyca_cryptography_cert_to_asn1(cert), cert_registry=None)
    out = io.BytesIO()
    signers.sign_pdf(IncrementalPdfFileWriter(io.BytesIO(unsigned)), signers.PdfSignatureMetadata(field_name=field),
                     signer=signer, output=out)
    return out.getvalue()


def test_an_expired_certificate_at_signing_time_fails(signed_filing, pki, tmp_path):
    """Signed by pyHanko directly (rulegen refuses to), the certificate check names the dates."""
    data = signed_filing.read_bytes()
    unsigned = data[: revision_end(data, open_reader(data), 0)]
    target = package_copy(signed_filing, tmp_path)
    target.write_bytes(sign_directly(unsigned, pki["signer_key"], pki["expired_cert"]))
    report = verify_filing(target, trust=pki["ca"])
    assert report.exit_code == 1
    assert "had expired" in failed(report)["certificate"]


def test_a_second_signature_or_incremental_update_fails(signed_filing, pki, tmp_path):
    resigned = sign_directly(signed_filing.read_bytes(), pki["signer_key"], pki["expired_cert"], "Second")
    target = package_copy(signed_filing, tmp_path)
    target.write_bytes(resigned)
    report = verify_filing(target)
    assert report.exit_code == 1 and "revisions" in failed(report)["pdf"]


def test_json_and_text_output_of_the_command(signed_filing, draft_filing, pki, monkeypatch, factory_reproduces):
    import hashlib

    monkeypatch.delenv("RULEGEN_TRUST")
    runner = CliRunner()
    result = runner.invoke(app, ["verify", str(signed_filing), "--trust", str(pki["ca"]), "--details"])
    assert result.exit_code == 0, result.stdout
    assert "VERIFIED" in result.stdout and "Priya Raman" in result.stdout and "ok    trust" in result.stdout
    assert result.stdout.strip().splitlines()[-1].startswith("1 filing: 1 verified")
    result = runner.invoke(app, ["verify", str(signed_filing), "--format", "json"])
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    [filing] = payload["filings"]
    assert filing["signed"] is True and filing["trusted"] is False and filing["trust"] == "not trusted"
    assert filing["offering_id"] == "filing-test-pa" and filing["revision"] == 3 and filing["jurisdiction"] == "PA"
    assert filing["operator"] == "Test Pennsylvania Casino" and filing["effective_date"] == "2027-03-01"
    assert filing["rules_pdf_sha256"] == hashlib.sha256(signed_filing.read_bytes()).hexdigest()
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding, pkcs12

    _key, cert, _ = pkcs12.load_key_and_certificates(pki["signer"].read_bytes(), PASSPHRASE)
    assert filing["signer"]["certificate_sha256"] == hashlib.sha256(cert.public_bytes(Encoding.DER)).hexdigest()
    # the signer is named from the certificate itself: its common name and organization, as cryptography reads them
    [common] = cert.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)
    [organization] = cert.subject.get_attributes_for_oid(x509.NameOID.ORGANIZATION_NAME)
    assert (filing["signer"]["name"] == f"{common.value}, {organization.value}"
            == "Priya Raman, Test Pennsylvania Casino")
    assert common.value in filing["signer"]["subject"] and organization.value in filing["signer"]["subject"]
    signed_at = dt.datetime.fromisoformat(filing["signing_time"])  # when the module's filing was signed
    assert cert.not_valid_before_utc <= signed_at <= cert.not_valid_after_utc
    assert {c["name"] for c in filing["checks"]} >= {"signature", "contents", "manifest", "trust", "outputs"}
    assert payload["summary"]["untrusted"] == 1 and payload["summary"]["exit_code"] == 1
    result = runner.invoke(app, ["verify", str(draft_filing)])
    assert result.exit_code == 1 and "UNSIGNED DRAFT" in result.stdout


def test_many_filings_and_folders_in_one_run(signed_filing, draft_filing, tmp_path, factory_reproduces):
    """Folders are searched for build folders; a broken filing or missing path is reported and the run goes on."""
    batch = tmp_path / "received"
    for label in ("a", "b"):
        shutil.copytree(signed_filing.parent, batch / label / "filing-test-pa")
    shutil.copytree(draft_filing.parent, batch / "c" / "draft")
    (batch / "d").mkdir()
    (batch / "d" / "rules.pdf").write_text("not a pdf")
    shutil.copytree(draft_filing.parent, batch / "a" / ".filing-test-pa.new-123")  # a build being published
    tampered = batch / "b" / "filing-test-pa" / "signage.pdf"
    tampered.write_bytes(tampered.read_bytes() + b"!")
    result = CliRunner().invoke(app, ["verify", str(batch), str(tmp_path / "missing"), "--format", "json"])
    payload = json.loads(result.stdout)
    statuses = {Path(f["path"]).relative_to(tmp_path).parts[:2]: f["status"] for f in payload["filings"]}
    assert statuses == {("received", "a"): "verified", ("received", "b"): "failed", ("received", "c"): "unsigned",
                        ("received", "d"): "unusable", ("missing",): "unusable"}
    assert result.exit_code == 2
    assert payload["summary"] == {**payload["summary"], "filings": 5, "verified": 1, "failed": 1, "unsigned": 1,
                                  "unusable": 2}
    result = CliRunner().invoke(app, ["verify", str(batch / "a"), str(batch / "b")])
    lines = result.stdout.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 3
    assert "VERIFIED" in lines[0] and "FAILED" in lines[1] and "signage.pdf" in lines[1]
    assert lines[2].startswith("2 filings: 1 verified, 1 failed")


def test_command_exit_2_for_unusable_input(tmp_path, signed_filing):
    runner = CliRunner()
    assert runner.invoke(app, ["verify", str(tmp_path / "missing.pdf")]).exit_code == 2
    (tmp_path / "notes.txt").write_text("hello")
    result = runner.invoke(app, ["verify", str(tmp_path / "notes.txt")])
    assert result.exit_code == 2 and "UNUSABLE" in result.stdout and "not a PDF" in result.stdout
    result = runner.invoke(app, ["verify", str(signed_filing), "--trust", str(tmp_path / "notes.txt")])
    assert result.exit_code == 2 and "--trust" in result.stderr


def test_rules_that_moved_since_the_build_warn_and_fail_only_with_strict(pki, tmp_path):
    def older_data(manifest):
        manifest["data"]["files"]["schemas/pa.schema.json"] = "0" * 64
        manifest["data"]["files"]["jurisdictions/retired.yaml"] = "1" * 64

    filing = build(tmp_path / "moved", pki, edit=older_data)
    report = verify_filing(filing)
    rules = next(c for c in report.checks if c.name == "rules")
    assert rules.ok and rules.warning and "schemas/pa.schema.json" in rules.detail and "retired.yaml" in rules.detail
    assert report.exit_code == 0
    strict = verify_filing(filing, strict=True)
    assert strict.exit_code == 1 and strict.verdict.startswith("FAILED (--strict)")
    result = CliRunner().invoke(app, ["verify", str(filing), "--integrity-only", "--strict", "--details"])
    assert result.exit_code == 1 and "FAILED (--strict)" in result.stdout and "warn  rules" in result.stdout
    result = CliRunner().invoke(app, ["verify", str(filing)])  # the data it was built with are not here
    assert result.exit_code == 1 and "CANNOT BE REPRODUCED HERE" in result.stdout and "retired.yaml" in result.stdout


def test_findings_that_differ_under_the_same_rules_fail(pki, tmp_path):
    def invented_finding(manifest):
        manifest["findings"].append({"path": "offering.yaml", "line": 1, "column": 1, "level": "note",
                                     "message": "a note this rulegen never gives", "citation": None, "field": None})

    report = verify_filing(build(tmp_path / "invented", pki, edit=invented_finding))
    assert report.exit_code == 1 and "differ" in failed(report)["rules"]


def test_a_build_recording_errors_or_another_signer_fails(pki, tmp_path):
    def with_error(manifest):
        manifest["findings"].append({"path": "offering.yaml", "line": 1, "column": 1, "level": "error",
                                     "message": "broken", "citation": None, "field": None})

    report = verify_filing(build(tmp_path / "errors", pki, edit=with_error))
    assert "error" in failed(report)["rules"]

    def other_signer(manifest):
        manifest["signoffs"][-1]["name"] = "Someone Else"

    report = verify_filing(build(tmp_path / "other", pki, edit=other_signer))
    assert report.exit_code == 1 and "Someone Else" in failed(report)["final"]


def test_a_manifest_not_of_the_manifest_form_fails_even_when_signed(pki, tmp_path):
    def odd_size(manifest):
        manifest["outputs"]["rules.html"]["bytes"] = "many"

    report = verify_filing(build(tmp_path / "odd", pki, edit=odd_size))
    assert report.exit_code == 1 and report.manifest is None
    assert "does not have the form of a rulegen-manifest/1 manifest: at outputs.rules.html.bytes" in \
        failed(report)["manifest"]


def test_a_signed_draft_is_not_a_final_filing(pki, tmp_path):
    report = verify_filing(build(tmp_path / "signed-draft", pki, final=False))
    assert report.signed and not report.final and report.exit_code == 1
    assert "draft" in failed(report)["final"]


def test_reproduction_compares_every_file_with_a_fresh_build(signed_filing, monkeypatch):
    """The comparison itself, with this factory's product standing in for the pipeline's."""
    report = verify_filing(signed_filing, reproduce=reproduce)
    check = next(c for c in report.checks if c.name == "reproduce")
    assert check.ok, check.detail
    assert report.exit_code == 0 and report.status == "verified"

    def newer_renderer(*, source, name, logo, options, signer):
        fresh = dict(reproduce(source=source, name=name, logo=logo, options=options, signer=signer))
        pdf = bytearray(fresh["rules.pdf"])
        pdf[len(pdf) // 2] ^= 0x01
        fresh["rules.pdf"] = bytes(pdf)
        fresh["rules.html"] += b"<!-- another rendering -->"
        return fresh

    report = verify_filing(signed_filing, reproduce=Reproducer(newer_renderer, reproduce.versions))
    assert report.exit_code == 1 and report.status == "failed"
    detail = failed(report)["reproduce"]
    assert "rules.pdf (the signed revision) (differs from byte" in detail and "rules.html" in detail
    assert "signage.pdf" not in detail and "manifest.json" not in detail


# --- end to end: real builds of a bundled sample -------------------------------------------------------------------

SAMPLE = "pa-five-card-bonus.yaml"


def _run_build(args: list[str], passphrase: bytes | None = PASSPHRASE):
    env = {"RULEGEN_SIGN_PASSPHRASE": passphrase.decode() if passphrase is not None else None}
    return CliRunner().invoke(app, ["build", *args], env=env)


@pytest.fixture(scope="module")
def real_builds(tmp_path_factory, pki, math_cache) -> dict[str, Path]:
    from rulegen.resources import samples_dir

    sample = samples_dir() / SAMPLE
    out = tmp_path_factory.mktemp("real")
    builds = {}
    with _tsa_module().TimestampAuthority(pki["ca_cert"], pki["ca_key"]) as tsa:  # the final build is PAdES B-LT
        identity = tsa.issue_signer(out, PASSPHRASE, serial=40)  # names the server's CRL and OCSP responder
        for label, extra in (("final", ["--final", "--sign", str(identity), "--tsa", tsa.url]), ("draft", [])):
            result = _run_build([str(sample), "--out", str(out / label), *extra])
            assert result.exit_code == 0, (result.output, result.stderr)
            [folder] = [p for p in (out / label).iterdir() if p.is_dir()]
            builds[label] = folder / "rules.pdf"
        assert tsa.requests >= 1
    builds["sample"] = sample
    return builds


def test_tsa_needs_a_signature(tmp_path):
    from rulegen.resources import samples_dir

    result = _run_build([str(samples_dir() / SAMPLE), "--out", str(tmp_path / "out"), "--tsa", "http://127.0.0.1:9/"])
    assert result.exit_code == 2 and "--sign" in result.stderr


def test_real_signed_final_build_verifies(real_builds, pki):
    report = verify_filing(real_builds["final"], trust=pki["ca"])
    assert report.exit_code == 0, report.verdict
    assert next(c for c in report.checks if c.name == "timestamp").ok and report.timestamp
    assert report.pades_level == "B-LT" and report.revocation_status == "good"  # a real build with --tsa
    assert report.signed and report.final and report.trusted
    outputs = next(c for c in report.checks if c.name == "outputs")
    assert outputs.ok and all(name in outputs.detail for name in ("signage.pdf", "math-appendix.pdf", "rules.html"))
    html = (real_builds["final"].parent / "rules.html").read_text(encoding="utf-8")
    assert "Priya Raman" in html  # the signer's certificate name is on the sign-off page


def test_real_build_rebuilds_to_the_same_bytes(real_builds, pki, math_cache):
    """Through the command line, which hands verify the build layer's renderer: full verification is the default
    (that `--rebuild` is still accepted and means the same is tests/test_verify_reproduce.py's, on a factory
    filing, so the real reproduction, seconds of fresh math and rendering, runs once here)."""
    result = CliRunner().invoke(app, ["verify", str(real_builds["final"]), "--trust", str(pki["ca"]),
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    [filing] = json.loads(result.stdout)["filings"]
    reproduce = next(c for c in filing["checks"] if c["name"] == "reproduce")
    assert reproduce["ok"] is True and filing["status"] == "verified", reproduce
    assert all(name in reproduce["detail"] for name in ("rules.pdf", "rules.html", "signage.pdf",
                                                        "math-appendix.pdf", "manifest.json"))


def test_real_draft_is_an_unsigned_draft(real_builds):
    result = CliRunner().invoke(app, ["verify", str(real_builds["draft"])])
    assert result.exit_code == 1 and "UNSIGNED DRAFT" in result.stdout


def test_real_build_tampered_fails_with_a_reason(real_builds, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(real_builds["final"].parent, folder)
    data = real_builds["final"].read_bytes()
    for position in (100, len(data) // 3, len(data) // 2, len(data) - 3):
        tampered = bytearray(data)
        tampered[position] ^= 0x01
        (folder / "rules.pdf").write_bytes(bytes(tampered))
        report = verify_filing(folder / "rules.pdf")
        assert report.exit_code == 1 and failed(report), position
    (folder / "rules.pdf").write_bytes(data)
    (folder / "math-appendix.pdf").write_bytes((folder / "math-appendix.pdf").read_bytes() + b"\n")
    report = verify_filing(folder / "rules.pdf")
    assert report.exit_code == 1 and "math-appendix.pdf" in failed(report)["outputs"]


@pytest.mark.parametrize("case", ["expired", "wrong passphrase", "missing"])
def test_real_build_refuses_an_identity_that_cannot_sign(pki, tmp_path, case, math_cache):
    from rulegen.resources import samples_dir

    identity = {"expired": pki["expired"], "wrong passphrase": pki["signer"], "missing": tmp_path / "none.p12"}[case]
    passphrase = b"wrong" if case == "wrong passphrase" else PASSPHRASE
    out = tmp_path / "out"
    result = _run_build([str(samples_dir() / SAMPLE), "--out", str(out), "--final", "--sign", str(identity)],
                        passphrase)
    assert result.exit_code == 2
    assert "signing identity" in result.stderr or "signing certificate" in result.stderr
    assert not out.exists() or not any(p for p in out.iterdir() if not p.name.startswith("."))


def test_real_filing_diffs_against_an_edited_offering(real_builds, tmp_path):
    text = real_builds["sample"].read_text(encoding="utf-8")
    edited = tmp_path / "edited.yaml"
    assert "  maximum: 50\n" in text
    edited.write_text(text.replace("  maximum: 50\n", "  maximum: 100\n"), encoding="utf-8")
    result = CliRunner().invoke(app, ["diff", str(real_builds["final"]), str(edited), "--format", "json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    texts = [c["text"] for s in payload["sections"] for c in s["changes"]]
    assert "Five Card Bonus maximum: $50 → $100" in texts


# --- an RFC 3161 timestamp (--tsa) ---------------------------------------------------------------------------------

def _tsa_module():
    from tests import tsaserver

    return tsaserver


@pytest.fixture(scope="module")
def timestamped(signed_filing, pki, tmp_path_factory) -> Path:
    data = signed_filing.read_bytes()
    unsigned = data[: revision_end(data, open_reader(data), 0)]
    with _tsa_module().TimestampAuthority(pki["ca_cert"], pki["ca_key"]) as tsa:
        identity = tsa.issue_signer(tmp_path_factory.mktemp("identity"), PASSPHRASE, serial=41)
        stamped = sign_pdf(unsigned, identity, PASSPHRASE, tsa_url=tsa.url)
        assert tsa.requests >= 1
    target = package_copy(signed_filing, tmp_path_factory.mktemp("stamped"))
    target.write_bytes(stamped)
    return target


def test_a_timestamped_signature_verifies_and_reports_its_timestamp(timestamped):
    report = verify_filing(timestamped)
    assert report.exit_code == 0, report.verdict
    stamp = next(c for c in report.checks if c.name == "timestamp")
    assert stamp.ok and "Test Timestamp Authority" in stamp.detail
    when = dt.datetime.fromisoformat(report.timestamp)
    assert abs((dt.datetime.now(dt.timezone.utc) - when).total_seconds()) < 600
    payload = report.to_json()
    assert payload["timestamp"] == {"time": report.timestamp, "authority": "Test Timestamp Authority"}
    contents = next(c for c in report.checks if c.name == "contents")
    assert "timestamp token" in contents.detail


def test_a_timestamp_after_the_certificate_expired_fails_whatever_the_signer_claims(signed_filing, pki, tmp_path):
    """The signer's clock says now (inside the certificate's 30 days); the authority says 60 days later."""
    data = signed_filing.read_bytes()
    unsigned = data[: revision_end(data, open_reader(data), 0)]
    late = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=60)
    with _tsa_module().TimestampAuthority(pki["ca_cert"], pki["ca_key"], fixed_time=late) as tsa:
        stamped = sign_pdf(unsigned, tsa.issue_signer(tmp_path, PASSPHRASE, serial=42), PASSPHRASE, tsa_url=tsa.url)
    target = package_copy(signed_filing, tmp_path)
    target.write_bytes(stamped)
    report = verify_filing(target)
    assert report.exit_code == 1
    assert "at the timestamp's time" in failed(report)["certificate"], report.verdict


def test_an_untimestamped_signature_says_its_time_is_the_signers_claim(signed_filing):
    stamp = next(c for c in verify_filing(signed_filing).checks if c.name == "timestamp")
    assert stamp.ok is None and "own claim" in stamp.detail


def test_a_timestamp_authority_not_trusted_fails(timestamped, pki, monkeypatch, tmp_path):
    """Signer and authority must both chain to a root: trusting only an unrelated root fails the timestamp."""
    monkeypatch.delenv("RULEGEN_TRUST")
    report = verify_filing(timestamped, trust=pki["other_ca"])
    assert report.exit_code == 1 and "timestamp" in failed(report)


def test_one_changed_byte_in_a_timestamped_filing_fails(timestamped, tmp_path):
    data = timestamped.read_bytes()
    reader = open_reader(data)
    signature = reader.embedded_signatures[0]
    _, length1, start2, _ = [int(v) for v in signature.byte_range]
    gap = check_signature_gap(data[: revision_end(data, reader, 1)], signature.byte_range)
    der_end = length1 + 1 + 2 * gap.der_length
    token_region = range(der_end - 2 * 2000, der_end, 97)  # the token sits at the end of the DER signature
    target = package_copy(timestamped, tmp_path)
    for position in list(range(0, len(data), len(data) // 23)) + list(token_region):
        tampered = bytearray(data)
        tampered[position] ^= 0x01
        target.write_bytes(bytes(tampered))
        report = verify_filing(target)
        assert report.exit_code == 1 and failed(report), (position, report.verdict)


def test_an_unreachable_timestamp_authority_stops_signing(signed_filing, pki):
    data = signed_filing.read_bytes()
    unsigned = data[: revision_end(data, open_reader(data), 0)]
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(InputError, match="timestamp authority"):
        sign_pdf(unsigned, pki["signer"], PASSPHRASE, tsa_url=f"http://127.0.0.1:{port}/tsa")
    with pytest.raises(InputError, match="http"):
        sign_pdf(unsigned, pki["signer"], PASSPHRASE, tsa_url="ftp://example.invalid/tsa")


def test_a_filing_signed_with_another_organisations_certificate_is_not_a_silent_verified(pki, tmp_path):
    """The operator's filing signed with a certificate the trusted root issued to another casino: every byte
    reproduces, yet the verdict names the other organisation, --details marks it, and --strict fails it."""
    chesapeake = make_identity(tmp_path, pki, "Morgan Hale", "Chesapeake Gaming", serial=501)
    filing = build(tmp_path / "signed-by-another" / "filing-test-pa", pki, identity=chesapeake)
    report = verify_filing(filing, reproduce=reproduce)
    signer = next(c for c in report.checks if c.name == "signer")
    assert signer.ok and signer.warning and signer.status == "warn"
    assert "Chesapeake Gaming's, not the operator's" in signer.detail and "Test Pennsylvania Casino" in signer.detail
    assert report.status == "verified" and report.exit_code == 0
    assert "(warning: signer: the signer's certificate is Chesapeake Gaming's" in report.verdict
    strict = verify_filing(filing, reproduce=reproduce, strict=True)
    assert strict.exit_code == 1 and strict.verdict.startswith("FAILED (--strict): signer: ")
    result = CliRunner().invoke(app, ["verify", str(filing), "--integrity-only", "--details"])
    assert result.exit_code == 0, result.output
    assert "warn  signer: the signer's certificate is Chesapeake Gaming's" in result.stdout
    # the operator's own certificate: the check passes, with no warning
    own = verify_filing(build(tmp_path / "signed-by-own" / "filing-test-pa", pki), reproduce=reproduce)
    mine = next(c for c in own.checks if c.name == "signer")
    assert mine.ok and not mine.warning and "(Test Pennsylvania Casino)" in mine.detail
    assert "warning" not in own.verdict
    # a certificate that names no organisation ties nobody to the operator: a warning too
    nameless = make_identity(tmp_path, pki, "Anonymous Signer", None, serial=502)
    anonymous = verify_filing(build(tmp_path / "signed-anonymously" / "filing-test-pa", pki, identity=nameless),
                              reproduce=reproduce)
    assert "names no organisation" in next(c for c in anonymous.checks if c.name == "signer").detail
