"""Filings signed with the other key types an operator's certificate authority issues: RSA-PSS (an id-RSASSA-PSS
key, which may sign only with PSS, under a root of the same kind) and Ed25519. rulegen signs with each, and verify
checks the signature and builds the chain with pyHanko's validator, as for RSA PKCS#1 v1.5 and ECDSA: VERIFIED
with the right trust root, NOT TRUSTED with another, FAILED when one byte of the signed rendering or of the
signature value changes.

The certificates are made here, valid from a month ago to a year from now; the filings are the factory's. The
Ed25519 identity is a PKCS#12 file signed with as `build --sign` does; the RSA-PSS one is handed to the signing
below the PKCS#12 reader (`sign_with_key`), because cryptography writes any RSA key into a PKCS#12 file as
rsaEncryption, which no longer matches an id-RSASSA-PSS certificate.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from rulegen.filing import verify_filing
from rulegen.filing.pdf import open_reader, revision_end
from rulegen.filing.signing import sign_with_key
from tests.filing_factory import PASSPHRASE, SIGNER, build, make_pki, reproduce

NOW = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
VALID_FROM, VALID_TO = NOW - dt.timedelta(days=30), NOW + dt.timedelta(days=365)
OPERATOR = "Test Pennsylvania Casino"


def _pss_padding():
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    return padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32)


def _issue(subject, issuer, public_key, issuer_key, *, ca: bool, serial: int, pss: bool):
    """A certificate (cryptography's) signed by `issuer_key`: with PSS when `pss`, with Ed25519's own scheme for an
    Ed25519 key; and for `pss`, its key marked id-RSASSA-PSS, a key that may sign with PSS only."""
    from asn1crypto import keys, x509 as asn1_x509
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    usage = x509.KeyUsage(digital_signature=not ca, content_commitment=not ca, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                          encipher_only=False, decipher_only=False)
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
               .serial_number(serial).not_valid_before(VALID_FROM).not_valid_after(VALID_TO)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
               .add_extension(usage, critical=True))
    if isinstance(issuer_key, ed25519.Ed25519PrivateKey):
        return builder.sign(issuer_key, None)
    made = builder.sign(issuer_key, hashes.SHA256(), rsa_padding=_pss_padding() if pss else None)
    if not pss:
        return made
    # cryptography writes every RSA key as rsaEncryption: the key is marked id-RSASSA-PSS in asn1crypto, and the
    # certificate signed again over the changed body.
    cert = asn1_x509.Certificate.load(made.public_bytes(serialization.Encoding.DER))
    tbs = cert["tbs_certificate"].copy()
    rsa_key = cert.public_key["public_key"].parsed
    tbs["subject_public_key_info"] = keys.PublicKeyInfo({"algorithm": keys.PublicKeyAlgorithm(
        {"algorithm": "rsassa_pss"}), "public_key": rsa_key})
    signature = issuer_key.sign(tbs.dump(), _pss_padding(), hashes.SHA256())
    remade = asn1_x509.Certificate({"tbs_certificate": tbs, "signature_algorithm": tbs["signature"],
                                    "signature_value": signature})
    return x509.load_der_x509_certificate(remade.dump())


def make_identity(folder: Path, kind: str) -> dict:
    """A root CA and a signer under it, both of `kind` ("rsa-pss" or "ed25519"): the signer's PKCS#12 file
    (passphrase PASSPHRASE), the root's PEM, and the signer's key and certificates as objects."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519, rsa
    from cryptography.hazmat.primitives.serialization import pkcs12

    from tests.filing_factory import _name

    def key():
        return rsa.generate_private_key(65537, 2048) if kind == "rsa-pss" else ed25519.Ed25519PrivateKey.generate()

    pss = kind == "rsa-pss"
    ca_key, signer_key = key(), key()
    ca_name = _name(f"{kind} Test Root", "Test Gaming Authority")
    ca = _issue(ca_name, ca_name, ca_key.public_key(), ca_key, ca=True, serial=100, pss=pss)
    signer = _issue(_name(SIGNER, OPERATOR), ca_name, signer_key.public_key(), ca_key, ca=False, serial=101, pss=pss)
    folder.mkdir(parents=True, exist_ok=True)
    files = {"p12": folder / "signer.p12", "ca": folder / "ca.pem"}
    files["p12"].write_bytes(pkcs12.serialize_key_and_certificates(
        b"signer", signer_key, signer, [ca], serialization.BestAvailableEncryption(PASSPHRASE)))
    files["ca"].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    return {**files, "key": signer_key, "cert": signer, "ca_cert": ca}


@pytest.fixture(scope="module")
def factory_pki(tmp_path_factory) -> dict:
    return make_pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module", params=["rsa-pss", "ed25519"])
def signed(request, tmp_path_factory, factory_pki) -> tuple[str, Path, dict[str, Path]]:
    kind = request.param
    folder = tmp_path_factory.mktemp(kind)
    identity = make_identity(folder / "pki", kind)
    if kind == "ed25519":
        return kind, build(folder / "filing-test-pa", factory_pki, identity=identity["p12"]), identity
    # The same signer's name as the factory's identity, so the manifest's signature sign-off names it.
    filing = build(folder / "filing-test-pa", factory_pki)
    data = filing.read_bytes()
    unsigned = data[: revision_end(data, open_reader(data), 0)]
    filing.write_bytes(sign_with_key(unsigned, identity["key"], identity["cert"], [identity["ca_cert"]]))
    return kind, filing, identity


@pytest.fixture(autouse=True)
def _no_trust_folder(monkeypatch):
    monkeypatch.delenv("RULEGEN_TRUST", raising=False)


def _signer_info(data: bytes):
    return open_reader(data).embedded_signatures[0].signer_info


def test_the_signature_is_made_with_the_keys_own_algorithm(signed):
    kind, filing, _ = signed
    info = _signer_info(filing.read_bytes())
    mechanism = info["signature_algorithm"]["algorithm"].native
    digest = info["digest_algorithm"]["algorithm"].native
    assert (mechanism, digest) == {"rsa-pss": ("rsassa_pss", "sha256"), "ed25519": ("ed25519", "sha512")}[kind]


def test_verified_with_the_right_root(signed):
    _, filing, identity = signed
    report = verify_filing(filing, trust=identity["ca"], reproduce=reproduce)
    assert report.status == "verified", report.verdict
    assert report.verdict.startswith("VERIFIED")
    checks = {c.name: c for c in report.checks}
    assert checks["signature"].ok and checks["trust"].ok and checks["contents"].ok
    assert checks["signer"].ok and report.signer_organization == OPERATOR


def test_not_trusted_with_another_root(signed, factory_pki):
    _, filing, _ = signed
    report = verify_filing(filing, trust=factory_pki["ca"], reproduce=reproduce)
    assert report.status == "untrusted" and report.exit_code == 1, report.verdict
    assert report.verdict.startswith("INTACT, SIGNER NOT TRUSTED")
    assert "does not chain to any of the 1 trust root(s)" in {c.name: c.detail for c in report.checks}["trust"]


@pytest.mark.parametrize("where", ["rendering", "signature value"])
def test_one_changed_byte_fails(signed, tmp_path, where):
    _, filing, identity = signed
    data = bytearray(filing.read_bytes())
    if where == "rendering":
        position = revision_end(bytes(data), open_reader(bytes(data)), 0) // 2
    else:  # the last byte of the signature value, in the hex of /Contents
        value = bytes(_signer_info(bytes(data))["signature"].native)
        position = bytes(data).find(value.hex().upper().encode()) + 2 * len(value) - 1
        assert position > 2 * len(value)
    data[position] = ord("0") if data[position] != ord("0") else ord("1")
    shutil.copytree(filing.parent, tmp_path / "package")
    target = tmp_path / "package" / "rules.pdf"
    target.write_bytes(bytes(data))
    report = verify_filing(target, trust=identity["ca"], reproduce=reproduce)
    assert report.status == "failed" and report.verdict.startswith("FAILED"), report.verdict
    failed = {c.name: c.detail for c in report.checks if c.ok is False}
    assert "signature" in failed, failed


def test_long_term_validation_data_signed_with_ed25519_is_checked(tmp_path, factory_pki):
    """PAdES B-LT under an Ed25519 root: the CRLs and OCSP responses the filing embeds are signed with Ed25519, and
    verify checks their signatures (pyHanko's validator) before it takes their word on revocation."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    from rulegen.filing import sign_pdf
    from tests import tsaserver
    from tests.filing_factory import _name

    ca_key = ed25519.Ed25519PrivateKey.generate()
    ca_name = _name("ed25519 Long-Term Root", "Test Gaming Authority")
    ca = _issue(ca_name, ca_name, ca_key.public_key(), ca_key, ca=True, serial=200, pss=False)
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    filing = build(tmp_path / "plain" / "filing-test-pa", factory_pki)
    data = filing.read_bytes()
    unsigned = data[: revision_end(data, open_reader(data), 0)]
    with tsaserver.TimestampAuthority(ca, ca_key) as tsa:
        identity = tsa.issue_signer(tmp_path, PASSPHRASE, serial=201)
        signed = sign_pdf(unsigned, identity, PASSPHRASE, tsa_url=tsa.url)
    filing.write_bytes(signed)
    report = verify_filing(filing, trust=tmp_path / "ca.pem", reproduce=reproduce)
    assert report.status == "verified", report.verdict
    assert report.pades_level == "B-LT" and report.revocation_status == "good"
    assert report.revocation_data["crls"] + report.revocation_data["ocsp_responses"] > 0


@pytest.mark.parametrize("kind", ["rsa-pss", "ed25519"])
def test_carried_certificates_are_checked_with_pyhankos_validator(tmp_path, kind):
    """A certificate issued with PSS or Ed25519 checks against its issuer; one whose unsigned outer algorithm was
    changed, whose signature value was changed, or that is checked against another issuer, does not."""
    from asn1crypto import algos, core, x509 as asn1_x509
    from cryptography.hazmat.primitives import serialization

    from rulegen.filing.pdf import signature_checks, unverifiable_certificates

    identity = make_identity(tmp_path, kind)
    other = make_identity(tmp_path / "other", kind)

    def asn1(cert):
        return asn1_x509.Certificate.load(cert.public_bytes(serialization.Encoding.DER))

    signer, root, stranger = asn1(identity["cert"]), asn1(identity["ca_cert"]), asn1(other["ca_cert"])
    assert unverifiable_certificates([signer, root], [root]) == []
    assert unverifiable_certificates([signer], [stranger]) == [signer.subject.human_friendly]
    changed_value = signer.copy()
    value = bytearray(changed_value["signature_value"].native)
    value[-1] ^= 0x01
    changed_value["signature_value"] = bytes(value)
    assert unverifiable_certificates([asn1_x509.Certificate.load(changed_value.dump())], [root])
    # The outer algorithm written another way that the signature still checks with (PSS's default trailer field
    # written out, Ed25519 with NULL parameters, which the strict parse refuses as well): the rule that it be the
    # body's own refuses it.
    changed = signer.copy()
    if kind == "rsa-pss":
        parameters = changed["signature_algorithm"]["parameters"].native
        changed["signature_algorithm"] = algos.SignedDigestAlgorithm(
            {"algorithm": "rsassa_pss", "parameters": {**parameters, "trailer_field": "trailer_field_bc"}})
    else:
        changed["signature_algorithm"] = algos.SignedDigestAlgorithm({"algorithm": "ed25519",
                                                                      "parameters": core.Null()})
    reloaded = asn1_x509.Certificate.load(changed.dump())
    assert reloaded["signature_algorithm"].dump() != reloaded["tbs_certificate"]["signature"].dump()
    assert signature_checks(reloaded["signature_value"].native, reloaded["tbs_certificate"].dump(), root,
                            reloaded["signature_algorithm"])
    assert unverifiable_certificates([reloaded], [root]) == [signer.subject.human_friendly]
