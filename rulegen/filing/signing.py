"""Signing rules.pdf: open the signer's PKCS#12 identity, check it, sign with pyHanko (PAdES).

Signing is an incremental update: the unsigned rendering stays byte for byte at the start of the signed
file, so `rulegen verify --rebuild` can compare it with a fresh rendering. Nothing here is offline-hostile:
no timestamp authority (unless --tsa names one), no OCSP or CRL is contacted.
"""

from __future__ import annotations

import datetime as _dt
import io
import os
from pathlib import Path

from rulegen.errors import InputError

PASSPHRASE_ENV = "RULEGEN_SIGN_PASSPHRASE"
SIGNATURE_FIELD = "RulegenFilingSignature"


def passphrase_from_env() -> bytes | None:
    value = os.environ.get(PASSPHRASE_ENV)
    return None if value is None else value.encode("utf-8")


def _load_identity(p12_path, passphrase: bytes | None):
    """(private key, certificate, other certificates) from a PKCS#12 file; InputError when it will not open."""
    from cryptography.hazmat.primitives.serialization import pkcs12

    from rulegen.safeio import UnsafeFile, read_regular

    path = Path(p12_path)
    try:
        data = read_regular(path, 1 << 20, follow_symlinks=True)  # a .p12 is a few kilobytes
    except UnsafeFile as exc:
        if exc.reason == "no such file":
            raise InputError(f"the signing identity {path} does not exist") from None
        if exc.reason.startswith("is a folder"):
            raise InputError(f"the signing identity {path} is a folder, not a PKCS#12 (.p12) file") from None
        raise InputError(f"the signing identity {path} cannot be read: {exc.reason}") from None
    try:
        key, cert, others = pkcs12.load_key_and_certificates(data, passphrase or None)
    except ValueError:
        hint = (f"set {PASSPHRASE_ENV} to its passphrase" if passphrase is None
                else f"check the passphrase in {PASSPHRASE_ENV}")
        raise InputError(f"the signing identity {path} will not open: it is not a PKCS#12 file, or the "
                         f"passphrase is wrong ({hint})") from None
    except Exception as exc:  # cryptography raises a few kinds on malformed input
        raise InputError(f"the signing identity {path} will not open: {exc}") from None
    if key is None or cert is None:
        raise InputError(f"the signing identity {path} holds no private key with its certificate; export the "
                         "signer's key and certificate together")
    return key, cert, list(others or [])


def describe_name(name) -> str:
    """A certificate name as people read it: the common name, then the organization."""
    from cryptography.x509.oid import NameOID

    def first(oid):
        values = name.get_attributes_for_oid(oid)
        return str(values[0].value) if values else None

    common, organization = first(NameOID.COMMON_NAME), first(NameOID.ORGANIZATION_NAME)
    if common and organization:
        return f"{common}, {organization}"
    return common or organization or name.rfc4514_string()


def _check_certificate(cert, path: Path, now: _dt.datetime | None = None) -> None:
    from cryptography import x509

    now = now or _dt.datetime.now(_dt.timezone.utc)
    not_after, not_before = cert.not_valid_after_utc, cert.not_valid_before_utc
    who = describe_name(cert.subject)
    if now > not_after:
        raise InputError(f"the signing certificate in {path} ({who}) expired on {not_after:%Y-%m-%d %H:%M} UTC; "
                         "a filing cannot be signed with it")
    if now < not_before:
        raise InputError(f"the signing certificate in {path} ({who}) is not valid before "
                         f"{not_before:%Y-%m-%d %H:%M} UTC")
    try:
        usage = cert.extensions.get_extension_for_class(x509.KeyUsage).value
    except x509.ExtensionNotFound:
        return
    if not (usage.digital_signature or usage.content_commitment):
        raise InputError(f"the signing certificate in {path} ({who}) may not sign documents (its key usage "
                         "allows neither digital signature nor non-repudiation)")


def signer_name(p12_path, passphrase: bytes | None) -> str:
    """The name on the signer's certificate, for the sign-off page; InputError if it cannot sign now."""
    path = Path(p12_path)
    _key, cert, _others = _load_identity(path, passphrase)
    _check_certificate(cert, path)
    return describe_name(cert.subject)


def sign_pdf(pdf_bytes: bytes, p12_path, passphrase: bytes | None, *, tsa_url: str | None = None) -> bytes:
    """rules.pdf signed (PAdES baseline B, SHA-256) as an incremental update of `pdf_bytes`; with `tsa_url`, the
    signature also carries an RFC 3161 timestamp token from that authority (PAdES baseline T), fetched over HTTP
    at signing time: the only network access rulegen makes, and only when asked."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers

    from pyhanko.keys.internal import translate_pyca_cryptography_cert_to_asn1, translate_pyca_cryptography_key_to_asn1
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    from rulegen.filing.pdf import unverifiable_certificates

    path = Path(p12_path)
    key, cert, others = _load_identity(path, passphrase)  # clear messages before pyHanko sees the file
    _check_certificate(cert, path)
    chain = [translate_pyca_cryptography_cert_to_asn1(c) for c in others]
    # Carry only chain certificates whose own signature checks against another carried one: verify refuses
    # any other, since a changed byte inside them would be signed by no one.
    unverifiable = set(unverifiable_certificates(chain, chain))
    registry = SimpleCertificateStore()
    registry.register_multiple([c for c in chain if c.subject.human_friendly not in unverifiable])
    signer = signers.SimpleSigner(signing_key=translate_pyca_cryptography_key_to_asn1(key),
                                  signing_cert=translate_pyca_cryptography_cert_to_asn1(cert), cert_registry=registry)
    metadata = signers.PdfSignatureMetadata(
        field_name=SIGNATURE_FIELD,
        md_algorithm="sha256",
        subfilter=fields.SigSeedSubFilter.PADES,
        reason="Rules submission: filed as final",
        name=describe_name(cert.subject),
    )
    timestamper = None
    if tsa_url is not None:
        from pyhanko.sign.timestamps import HTTPTimeStamper

        if not tsa_url.startswith(("http://", "https://")):
            raise InputError(f"--tsa {tsa_url}: a timestamp authority is an http:// or https:// URL")
        timestamper = HTTPTimeStamper(tsa_url, timeout=30)
    output = io.BytesIO()
    writer = IncrementalPdfFileWriter(io.BytesIO(pdf_bytes), strict=True)
    try:
        signers.sign_pdf(writer, metadata, signer=signer, output=output, timestamper=timestamper)
    except Exception as exc:
        if timestamper is None:
            raise
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"the timestamp authority {tsa_url} gave no usable timestamp: {reason}") from None
    signed = output.getvalue()
    if not signed.startswith(pdf_bytes):  # the promise verify --rebuild depends on
        raise RuntimeError("signing changed the unsigned rendering")
    return signed
