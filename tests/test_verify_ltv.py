"""Long-term validation: `--tsa` makes a PAdES B-LT signature (an RFC 3161 timestamp, then a Document Security Store
holding the revocation data of the signer's and the timestamp authority's chains), and `verify` checks it offline.

The test CA's timestamp authority, CRL and OCSP responder run on 127.0.0.1 (tests/tsaserver.py) while signing
and are stopped before anything is verified, so a verify that fetched would fail. pyHanko's own AdES long-term
validation (ETSI EN 319 102-1) is the oracle.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.errors import InputError
from rulegen.filing import sign_pdf, verify_filing
from rulegen.filing.pdf import open_reader, revision_end
from rulegen.filing.dss import dss_contents, validation_data_update


from tests import filing_factory as factory  # noqa: E402
from tests import tsaserver  # noqa: E402

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)
PASSPHRASE = factory.PASSPHRASE


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    return factory.make_trusted_pki(tmp_path_factory.mktemp("pki"), tmp_path_factory.mktemp("trusted"))


@pytest.fixture(autouse=True)
def _trust_the_test_root(pki, monkeypatch):
    monkeypatch.setenv("RULEGEN_TRUST", str(pki["trust_folder"]))


@pytest.fixture(scope="module")
def unsigned_filing(tmp_path_factory, pki) -> tuple[Path, bytes]:
    """A signed package (for its folder) and the unsigned rendering to sign again."""
    filing = factory.build(tmp_path_factory.mktemp("plain") / "filing-test-pa", pki)
    data = filing.read_bytes()
    return filing, data[: revision_end(data, open_reader(data), 0)]


@pytest.fixture(scope="module")
def signed_lt(unsigned_filing, pki, tmp_path_factory) -> dict:
    """A B-LT filing, and what the authority served; the server is stopped when the tests run."""
    filing, unsigned = unsigned_filing
    folder = tmp_path_factory.mktemp("lt")
    with tsaserver.TimestampAuthority(pki["ca_cert"], pki["ca_key"]) as tsa:
        identity = tsa.issue_signer(folder, PASSPHRASE, serial=70)
        signed = sign_pdf(unsigned, identity, PASSPHRASE, tsa_url=tsa.url)
        served = {"timestamps": tsa.requests, "revocation": tsa.revocation_requests, "tsa": tsa,
                  "signer_serial": 70}
    shutil.copytree(filing.parent, folder / "package")
    (folder / "package" / "rules.pdf").write_bytes(signed)
    return {"path": folder / "package" / "rules.pdf", "data": signed, **served}


def failed(report) -> dict[str, str]:
    return {c.name: c.detail for c in report.checks if c.ok is False}


def check(report, name: str):
    return next(c for c in report.checks if c.name == name)


def oracle(path: Path, root_pem: Path) -> Any:
    """pyHanko's AdES validation of the signature with time (ETSI EN 319 102-1 § 5.5), offline: the revocation
    data it may use is what the file's Document Security Store holds, and it must have some for every
    certificate below the root (REQUIRE_REVINFO). pyHanko's AdES long-term (§ 5.6.3) entry point asks for
    proof of existence of that data before the signature's time, which only a document timestamp (B-LTA)
    gives, so "with time" plus the store's data is the judgement B-LT calls for."""
    import asyncio

    from asn1crypto import crl as asn1_crl, ocsp as asn1_ocsp, pem, x509 as asn1_x509
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation.ades import ades_with_time_validation
    from pyhanko.sign.validation.policy_decl import (
        LocalKnowledge,
        RevinfoOnlineFetchingRule,
        RevocationInfoGatheringSpec,
        SignatureValidationSpec,
    )
    from pyhanko.sign.validation.status import PdfSignatureStatus
    from pyhanko_certvalidator.context import CertValidationPolicySpec
    from pyhanko_certvalidator.policy_decl import REQUIRE_REVINFO, CertRevTrustPolicy
    from pyhanko_certvalidator.registry import SimpleTrustManager
    from pyhanko_certvalidator.revinfo.archival import CRLContainer, OCSPContainer

    _, _, der = pem.unarmor(root_pem.read_bytes())
    with path.open("rb") as handle:
        reader = PdfFileReader(handle)
        certs, ocsps, crls = dss_contents(reader)
        knowledge = LocalKnowledge(
            known_ocsps=[c for o in ocsps for c in OCSPContainer.load_multi(asn1_ocsp.OCSPResponse.load(o))],
            known_crls=[CRLContainer(asn1_crl.CertificateList.load(c)) for c in crls],
            known_certs=[asn1_x509.Certificate.load(c) for c in certs])
        policy = CertValidationPolicySpec(
            trust_manager=SimpleTrustManager.build(trust_roots=[asn1_x509.Certificate.load(der)]),
            revinfo_policy=CertRevTrustPolicy(REQUIRE_REVINFO))
        spec = SignatureValidationSpec(
            cert_validation_policy=policy, local_knowledge=knowledge,
            revinfo_gathering_policy=RevocationInfoGatheringSpec(
                online_fetching_rule=RevinfoOnlineFetchingRule.LOCAL_ONLY))
        embedded = reader.embedded_signatures[0]
        embedded.compute_integrity_info()  # coverage and difference analysis, for the status
        return asyncio.run(ades_with_time_validation(
            embedded.signed_data, spec, raw_digest=embedded.compute_digest(),
            extra_status_kwargs=embedded.summarise_integrity_info(), status_cls=PdfSignatureStatus))


# --- signing -----------------------------------------------------------------------------------------------------

def test_tsa_signing_embeds_the_revocation_data_of_both_chains(signed_lt):
    data = signed_lt["data"]
    reader = open_reader(data)
    assert reader.xrefs.total_revisions == 3  # the rendering, the signature, the validation data
    certs, ocsps, crls = dss_contents(reader)
    assert len(ocsps) == 1 and len(crls) == 1  # the signer names both; the TSA the CRL only
    assert signed_lt["revocation"] >= 2 and signed_lt["timestamps"] >= 1
    from asn1crypto import crl as asn1_crl, ocsp as asn1_ocsp, x509 as asn1_x509

    subjects = {asn1_x509.Certificate.load(c).subject.native["common_name"] for c in certs}
    assert {"Priya Raman", "Test Timestamp Authority"} <= subjects
    response = asn1_ocsp.OCSPResponse.load(ocsps[0]).basic_ocsp_response["tbs_response_data"]["responses"][0]
    assert response["cert_id"]["serial_number"].native == signed_lt["signer_serial"]
    assert response["cert_status"].name == "good"
    assert asn1_crl.CertificateList.load(crls[0])["tbs_cert_list"]["revoked_certificates"].native in (None, [])
    # the update after the signature changes nothing of the signed document: same ID, Info, metadata
    signature_end = revision_end(data, reader, 1)
    assert reader.trailer["/ID"] == open_reader(data[:signature_end]).trailer["/ID"]
    refs = {r.idnum for r in reader.xrefs.explicit_refs_in_revision(2)}
    assert reader.trailer.raw_get("/Info").idnum not in refs and reader.root.raw_get("/Metadata").idnum not in refs


@pytest.mark.parametrize("case", ["revoked", "no revocation source", "source down", "tsa without source"])
def test_signing_that_cannot_be_b_lt_fails(unsigned_filing, pki, tmp_path, case):
    """Promised B-LT, never quietly B-T: each case is an InputError (exit 2) that says why."""
    _, unsigned = unsigned_filing
    with tsaserver.TimestampAuthority(pki["ca_cert"], pki["ca_key"],
                                      revocation=case != "tsa without source") as tsa:
        identity = tsa.issue_signer(tmp_path, PASSPHRASE, serial=71, crl=case != "no revocation source",
                                    ocsp=case != "no revocation source")
        if case == "revoked":
            tsa.revoke(71)
        if case == "source down":
            tsa.failing = True
        with pytest.raises(InputError) as caught:
            sign_pdf(unsigned, identity, PASSPHRASE, tsa_url=tsa.url)
    message = caught.value.message
    assert int(caught.value.exit_code) == 2
    if case == "revoked":
        assert "revoked" in message and "no filing can be signed" in message
    else:
        assert "PAdES B-LT" in message and "revocation" in message, message
    if case == "no revocation source":
        assert "the signer's certificate" in message and "Priya Raman" in message and "names no CRL" in message
    if case == "tsa without source":
        assert "the timestamp authority's certificate" in message and "Test Timestamp Authority" in message
        assert "names no CRL" in message
    if case == "source down":
        assert "did not give it" in message and tsa.revocation_requests >= 1


def test_a_timestamp_authority_under_a_root_nobody_names_fails_until_rulegen_trust_names_it(
        unsigned_filing, pki, tmp_path, monkeypatch):
    """The authority's tokens carry only its own certificate, under a root neither the identity nor the token
    holds: its chain cannot be completed, so its revocation data cannot be gathered; with the root in
    RULEGEN_TRUST it can, and the filing verifies (trusting both roots)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    _, unsigned = unsigned_filing
    now = dt.datetime.now(dt.timezone.utc)
    other_key = ec.generate_private_key(ec.SECP256R1())
    other_name = factory._name("Other Timestamping Root")
    other = factory._certificate(other_name, other_name, other_key.public_key(), other_key, ca=True,
                                 start=now - dt.timedelta(days=10), end=now + dt.timedelta(days=400), serial=5)
    (tmp_path / "roots").mkdir()
    (tmp_path / "roots" / "other.pem").write_bytes(other.public_bytes(serialization.Encoding.PEM))
    monkeypatch.delenv("RULEGEN_TRUST")
    with tsaserver.TimestampAuthority(pki["ca_cert"], pki["ca_key"]) as signer_ca, \
            tsaserver.TimestampAuthority(other, other_key, embed_ca=False) as tsa:
        identity = signer_ca.issue_signer(tmp_path, PASSPHRASE, serial=73)
        with pytest.raises(InputError, match="does not reach a root certificate.*RULEGEN_TRUST"):
            sign_pdf(unsigned, identity, PASSPHRASE, tsa_url=tsa.url)
        monkeypatch.setenv("RULEGEN_TRUST", str(tmp_path / "roots"))
        signed = sign_pdf(unsigned, identity, PASSPHRASE, tsa_url=tsa.url)
    target = tmp_path / "package" / "rules.pdf"
    shutil.copytree(unsigned_filing[0].parent, target.parent)
    target.write_bytes(signed)
    report = verify_filing(target, trust=[pki["ca"], tmp_path / "roots" / "other.pem"])
    assert report.exit_code == 0 and report.pades_level == "B-LT", report.verdict


def test_a_build_that_cannot_be_b_lt_publishes_nothing(unsigned_filing, pki, tmp_path, math_cache):
    from rulegen.resources import samples_dir

    out = tmp_path / "out"
    with tsaserver.TimestampAuthority(pki["ca_cert"], pki["ca_key"]) as tsa:
        identity = tsa.issue_signer(tmp_path, PASSPHRASE, serial=72)
        tsa.revoke(72)
        result = CliRunner().invoke(app, ["build", str(samples_dir() / "pa-five-card-bonus.yaml"), "--out", str(out),
                                          "--final", "--sign", str(identity), "--tsa", tsa.url],
                                    env={"RULEGEN_SIGN_PASSPHRASE": PASSPHRASE.decode()})
    assert result.exit_code == 2, result.output
    assert "revoked" in result.stderr
    assert not out.exists() or not any(p for p in out.iterdir() if not p.name.startswith("."))


# --- verifying, offline --------------------------------------------------------------------------------------------

def test_a_b_lt_filing_verifies_offline_and_says_so(signed_lt, pki):
    report = verify_filing(signed_lt["path"])  # the authority and its CRL and OCSP responder are stopped
    assert report.exit_code == 0, report.verdict
    assert report.pades_level == "B-LT" and report.revocation_status == "good"
    revocation = check(report, "revocation")
    assert revocation.ok and "not revoked at the timestamp's time" in revocation.detail
    assert "Priya Raman" in revocation.detail and "Test Timestamp Authority" in revocation.detail
    assert "validation data" in check(report, "coverage").detail
    assert "PAdES B-LT" in report.verdict and "Test Timestamp Authority" in report.verdict
    payload = report.to_json()
    assert payload["pades_level"] == "B-LT"
    assert payload["revocation"]["embedded"] is True and payload["revocation"]["status"] == "good"
    assert payload["revocation"]["crls"] == 1 and payload["revocation"]["ocsp_responses"] == 1
    assert payload["timestamp"]["authority"] == "Test Timestamp Authority"
    stamp = dt.datetime.fromisoformat(payload["timestamp"]["time"])
    assert abs((dt.datetime.now(dt.timezone.utc) - stamp).total_seconds()) < 600


def test_a_digital_signature_only_certificate_signs_b_lt(unsigned_filing, pki, tmp_path):
    """Many document-signing certificates allow digital signature without non-repudiation: B-LT takes them too."""
    filing, unsigned = unsigned_filing
    with tsaserver.TimestampAuthority(pki["ca_cert"], pki["ca_key"]) as tsa:
        identity = tsa.issue_signer(tmp_path, PASSPHRASE, serial=75, non_repudiation=False)
        signed = sign_pdf(unsigned, identity, PASSPHRASE, tsa_url=tsa.url)
    target = tmp_path / "package" / "rules.pdf"
    shutil.copytree(filing.parent, target.parent)
    target.write_bytes(signed)
    report = verify_filing(target)
    assert report.exit_code == 0 and report.pades_level == "B-LT", report.verdict


def test_a_signer_revoked_and_expired_after_signing_still_verifies(unsigned_filing, pki, tmp_path):
    """What B-LT is for: long after signing the signer's certificate has expired and its CA lists it revoked, yet
    the filing verifies offline, from the data embedded when it was signed. The certificate is valid for 30 days
    from the day before signing (days of margin, however slow the machine); verification travels the clock 60
    days on, past its expiry, and the CA revokes it a day after the timestamp."""
    import time_machine

    filing, unsigned = unsigned_filing
    with tsaserver.TimestampAuthority(pki["ca_cert"], pki["ca_key"]) as tsa:
        identity = tsa.issue_signer(tmp_path, PASSPHRASE, serial=74, valid_for=dt.timedelta(days=30))
        signed = sign_pdf(unsigned, identity, PASSPHRASE, tsa_url=tsa.url)
    expiry = tsa.issued[74].not_valid_after_utc
    target = tmp_path / "package" / "rules.pdf"
    shutil.copytree(filing.parent, target.parent)
    target.write_bytes(signed)
    stamped = dt.datetime.fromisoformat(verify_filing(target).timestamp)
    assert stamped < expiry - dt.timedelta(days=29)
    tsa.revoke(74, stamped + dt.timedelta(days=1))
    # A CRL of the timestamp's time listing the revocation, dated after the timestamp, beside the embedded data
    # (pyHanko takes no CRL issued after the signature's time to judge it).
    listing_later = tsa.crl(issued=stamped)
    with time_machine.travel(stamped + dt.timedelta(days=60), tick=True):
        assert dt.datetime.now(dt.timezone.utc) > expiry + dt.timedelta(days=29)  # verifying after the expiry
        report = verify_filing(target)
        assert report.exit_code == 0 and report.pades_level == "B-LT", report.verdict
        assert check(report, "revocation").ok and report.revocation_status == "good"
        assert check(report, "certificate").ok, check(report, "certificate").detail
        # the same signature with that CRL (revoked after the timestamp) is still good at the timestamp's time
        target.write_bytes(_with_validation_data(signed, [listing_later], ocsps=[]))
        report = verify_filing(target)
        assert report.exit_code == 0 and report.revocation_status == "good", report.verdict
        # while the same CRL with the revocation dated before the timestamp fails it
        tsa.revoke(74, stamped - dt.timedelta(hours=1))
        target.write_bytes(_with_validation_data(signed, [tsa.crl(issued=stamped)], ocsps=[]))
        report = verify_filing(target)
        assert report.exit_code == 1 and "revoked before the signature's time" in failed(report)["revocation"]


@pytest.fixture
def factory_reproduces(monkeypatch):
    """The commands verify in full with the build layer's renderer; for these stand-in filings the factory's own
    product stands in for it."""
    from tests.filing_factory import reproduce

    monkeypatch.setattr("rulegen.assemble.reproduce_filing_for_verify", reproduce)


def test_the_command_reports_level_timestamp_and_revocation(signed_lt, factory_reproduces):
    runner = CliRunner()
    result = runner.invoke(app, ["verify", str(signed_lt["path"])])
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert "PAdES B-LT" in first and "timestamp" in first and "not revoked at signing time" in first
    result = runner.invoke(app, ["verify", str(signed_lt["path"]), "--format", "json"])
    [filing] = json.loads(result.stdout)["filings"]
    assert filing["pades_level"] == "B-LT" and filing["revocation"]["status"] == "good"
    assert {"path", "status", "signer", "timestamp", "trust", "checks"} <= set(filing)  # the old keys stay


def test_the_register_records_level_timestamp_and_revocation(signed_lt, tmp_path, factory_reproduces):
    db = str(tmp_path / "register.sqlite")
    added = CliRunner().invoke(app, ["register", "add", str(signed_lt["path"]), "--db", db])
    assert added.exit_code == 0, added.output
    [row] = json.loads(CliRunner().invoke(app, ["register", "list", "--db", db, "--format", "json"]).stdout)
    report = verify_filing(signed_lt["path"])
    assert (row["pades_level"], row["revocation"]) == ("B-LT", "good")
    assert row["timestamp"] == report.timestamp and row["timestamp"]
    shown = CliRunner().invoke(app, ["register", "show", "1", "--db", db]).stdout
    assert "pades level: B-LT" in shown and "revocation: good" in shown


def test_a_b_b_and_a_b_t_filing_say_what_they_lack(unsigned_filing, pki):
    filing, _ = unsigned_filing
    report = verify_filing(filing)
    assert report.exit_code == 0 and report.pades_level == "B-B"
    assert check(report, "revocation").ok is None and report.to_json()["revocation"]["embedded"] is False
    assert "no revocation data" in report.verdict


def test_pyhanko_long_term_validation_agrees(signed_lt, pki):
    from pyhanko.sign.ades.report import AdESPassed

    result = oracle(signed_lt["path"], pki["ca"])
    assert result.ades_subindic == AdESPassed.OK, result.failure_msg
    assert result.best_signature_time is not None  # the timestamp's time, not the signer's claim
    assert result.api_status is not None and result.api_status.timestamp_validity is not None


def _with_validation_data(data: bytes, crls: list[bytes], ocsps: list[bytes] | None = None) -> bytes:
    reader = open_reader(data)
    certs, old_ocsps, _ = dss_contents(reader)
    return validation_data_update(data[: revision_end(data, reader, 1)], certs,
                                  old_ocsps if ocsps is None else ocsps, crls)


def test_embedded_data_showing_the_signer_revoked_fails_and_the_oracle_agrees(signed_lt, pki, tmp_path):
    """The same signature, with a CRL (the CA's, properly signed) saying the signer was revoked an hour before."""
    tsa = signed_lt["tsa"]
    tsa.revoke(signed_lt["signer_serial"])
    try:
        revoked_crl = tsa.crl()
    finally:
        tsa.revoked.clear()
    target = tmp_path / "package" / "rules.pdf"
    shutil.copytree(signed_lt["path"].parent, target.parent)
    target.write_bytes(_with_validation_data(signed_lt["data"], [revoked_crl], ocsps=[]))
    report = verify_filing(target)
    assert report.exit_code == 1
    assert "revoked" in failed(report)["revocation"], report.verdict
    assert set(failed(report)) == {"revocation"}  # the form and every item check; only the status fails
    from pyhanko.sign.ades.report import AdESPassed

    assert oracle(target, pki["ca"]).ades_subindic != AdESPassed.OK


def test_embedded_data_missing_a_chain_fails(signed_lt, pki, tmp_path):
    """Without the CRL, the timestamp authority's certificate (which names only the CRL) is unproven."""
    target = tmp_path / "package" / "rules.pdf"
    shutil.copytree(signed_lt["path"].parent, target.parent)
    target.write_bytes(_with_validation_data(signed_lt["data"], []))
    report = verify_filing(target)
    assert report.exit_code == 1 and "Test Timestamp Authority" in failed(report)["revocation"], report.verdict
    from pyhanko.sign.ades.report import AdESPassed

    assert oracle(target, pki["ca"]).ades_subindic != AdESPassed.OK


def test_anything_but_validation_data_after_the_signature_fails(signed_lt, tmp_path):
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    import io

    data = signed_lt["data"]
    target = tmp_path / "package" / "rules.pdf"
    shutil.copytree(signed_lt["path"].parent, target.parent)
    reader = open_reader(data)
    signature_end = revision_end(data, reader, 1)
    # the validation data plus a changed title in the same update
    writer = IncrementalPdfFileWriter(io.BytesIO(data[:signature_end]))
    certs, ocsps, crls = dss_contents(reader)
    from asn1crypto import crl as asn1_crl, ocsp as asn1_ocsp, x509 as asn1_x509
    from pyhanko.sign.validation import DocumentSecurityStore

    DocumentSecurityStore.supply_dss_in_writer(writer, None, certs=[asn1_x509.Certificate.load(c) for c in certs],
                                               ocsps=[asn1_ocsp.OCSPResponse.load(o) for o in ocsps],
                                               crls=[asn1_crl.CertificateList.load(c) for c in crls])
    info = writer.trailer["/Info"]
    info[generic.NameObject("/Title")] = generic.TextStringObject("Other rules")
    writer.update_container(info)
    out = io.BytesIO()
    writer.write(out)
    cases = {"title changed with the validation data": out.getvalue()}
    # a fourth revision after an honest DSS update
    writer = IncrementalPdfFileWriter(io.BytesIO(data))
    writer.root[generic.NameObject("/Lang")] = generic.TextStringObject("fr")
    writer.update_root()
    out = io.BytesIO()
    writer.write(out)
    cases["a later update"] = out.getvalue()
    cases["bytes appended"] = data + b"% trailing\n"
    for label, tampered in cases.items():
        target.write_bytes(tampered)
        report = verify_filing(target)
        assert report.exit_code == 1, (label, report.verdict)
        assert {"pdf", "coverage"} & set(failed(report)), (label, failed(report))


def test_one_changed_byte_in_the_validation_data_fails(signed_lt, tmp_path):
    data = signed_lt["data"]
    reader = open_reader(data)
    start = revision_end(data, reader, 1)
    target = tmp_path / "package" / "rules.pdf"
    shutil.copytree(signed_lt["path"].parent, target.parent)
    step = max(1, (len(data) - start) // 40)
    # and in each certificate, CRL and OCSP response, the count of unused bits before its signature: a bit string
    # that says one bit is unused still reads as the same signature bytes
    from asn1crypto import crl as asn1_crl, ocsp as asn1_ocsp, x509 as asn1_x509

    certs, ocsps, crls = dss_contents(reader)
    signatures = ([asn1_x509.Certificate.load(c)["signature_value"] for c in certs]
                  + [asn1_crl.CertificateList.load(c)["signature"] for c in crls]
                  + [asn1_ocsp.OCSPResponse.load(o).basic_ocsp_response["signature"] for o in ocsps])
    unused_bits = [data.find(bits.contents, start) for bits in signatures]
    assert all(p > start for p in unused_bits) and len(unused_bits) == len(certs) + len(crls) + len(ocsps)
    checked = 0
    for position in list(range(start, len(data), step)) + [len(data) - 1] + unused_bits:
        tampered = bytearray(data)
        tampered[position] ^= 0x01
        target.write_bytes(bytes(tampered))
        report = verify_filing(target)
        assert report.exit_code == 1 and failed(report), (position, report.verdict)
        checked += 1
    assert checked > 35


STORED = Path(__file__).with_name("data") / "ltv"


def test_a_stored_b_lt_filing_still_verifies(tmp_path, monkeypatch):
    """tests/data/ltv/b-lt-rules.pdf was signed B-LT with pyHanko 0.38 on 2026-11-23; its signer's certificate
    expires 30 days later, so in time this also checks a filing whose certificates have expired. Its signature,
    timestamp, validation-data update (compared byte for byte with the one this pyHanko writes) and embedded
    revocation proof must hold. It travels without its package, so only those checks are asserted. If an
    upgrade of pyHanko fails here, verify would refuse every B-LT filing made before it: change how the update
    is compared, not the stored file."""
    monkeypatch.delenv("RULEGEN_TRUST")
    shutil.copy(STORED / "b-lt-rules.pdf", tmp_path / "rules.pdf")
    report = verify_filing(tmp_path / "rules.pdf", trust=STORED / "ca.pem")
    statuses = {c.name: c.ok for c in report.checks}
    for name in ("pdf", "contents", "signature", "timestamp", "coverage", "certificate", "trust", "revocation"):
        assert statuses.get(name) is True, (name, report.checks)
    assert report.pades_level == "B-LT" and report.timestamp is not None
    assert report.timestamp.startswith("2026-11-23")
