"""Signing rules.pdf: open the signer's PKCS#12 identity, check it, sign with pyHanko (PAdES).

Signing is an incremental update: the unsigned rendering stays byte for byte at the start of the signed
file, so `rulegen verify` can compare it with a fresh rendering. Nothing here reaches the network
unless --tsa names a timestamp authority; then (PAdES B-LT) the authority, and the CRL distribution points and
OCSP responders the signer's and the authority's certificates name, are asked at signing time.
"""

from __future__ import annotations

import datetime as _dt
import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from cryptography import x509 as _x509
    from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes

from rulegen.errors import InputError
from rulegen.filing.signing_revision import SIGNATURE_FIELD

PASSPHRASE_ENV = "RULEGEN_SIGN_PASSPHRASE"


def passphrase_from_env() -> bytes | None:
    value = os.environb.get(PASSPHRASE_ENV.encode()) if os.supports_bytes_environ else None
    if value is not None:
        return value  # the passphrase's own bytes, whatever the locale (a byte not in UTF-8 stays as it is)
    text = os.environ.get(PASSPHRASE_ENV)
    return None if text is None else os.fsencode(text)


def _load_identity(p12_path: str | Path, passphrase: bytes | None
                   ) -> tuple[PrivateKeyTypes, _x509.Certificate, list[_x509.Certificate]]:
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


def describe_name(name: _x509.Name) -> str:
    """A certificate name as people read it: the common name, then the organization."""
    from cryptography.x509.oid import NameOID

    def first(oid: _x509.ObjectIdentifier) -> str | None:
        values = name.get_attributes_for_oid(oid)
        return str(values[0].value) if values else None

    common, organization = first(NameOID.COMMON_NAME), first(NameOID.ORGANIZATION_NAME)
    if common and organization:
        return f"{common}, {organization}"
    return common or organization or name.rfc4514_string()


def _check_certificate(cert: _x509.Certificate, path: Path, now: _dt.datetime | None = None) -> None:
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


def signer_name(p12_path: str | Path, passphrase: bytes | None) -> str:
    """The name on the signer's certificate, for the sign-off page; InputError if it cannot sign now."""
    path = Path(p12_path)
    _key, cert, _others = _load_identity(path, passphrase)
    _check_certificate(cert, path)
    return describe_name(cert.subject)


def sign_pdf(pdf_bytes: bytes, p12_path: str | Path, passphrase: bytes | None, *, tsa_url: str | None = None) -> bytes:
    """rules.pdf signed (PAdES baseline B; SHA-256, or the digest the key requires: see `signature_mechanism`) as
    an incremental update of `pdf_bytes`.

    With `tsa_url`, PAdES baseline LT: the signature carries an RFC 3161 timestamp token from that authority,
    and a second incremental update adds the Document Security Store (DSS) holding the certificates and the
    revocation data (CRLs, OCSP responses) of the signer's chain and of the timestamp authority's, fetched at
    signing time from the URLs those certificates name, so `rulegen verify` can check the signature offline,
    years later. These fetches are the only network access rulegen makes, and only when asked. A filing
    promised as B-LT is never quietly less: a certificate that names no revocation source, a source that
    fails, or a revoked certificate stops signing with an InputError (exit 2)."""
    path = Path(p12_path)
    key, cert, others = _load_identity(path, passphrase)  # clear messages before pyHanko sees the file
    _check_certificate(cert, path)
    return sign_with_key(pdf_bytes, key, cert, others, tsa_url=tsa_url)


def sign_with_key(pdf_bytes: bytes, key: PrivateKeyTypes, cert: _x509.Certificate, others: list[_x509.Certificate],
                  *, tsa_url: str | None = None) -> bytes:
    """`sign_pdf` once the identity is open and checked: the key, its certificate and the chain beside it."""
    from pyhanko.keys.internal import translate_pyca_cryptography_cert_to_asn1, translate_pyca_cryptography_key_to_asn1
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    from rulegen.filing.pdf import unverifiable_certificates

    chain = [translate_pyca_cryptography_cert_to_asn1(c) for c in others]
    # Carry only chain certificates whose own signature checks against another carried one: verify refuses
    # any other, since a changed byte inside them would be signed by no one.
    unverifiable = set(unverifiable_certificates(chain, chain))
    carried = [c for c in chain if c.subject.human_friendly not in unverifiable]
    registry = cast(Any, SimpleCertificateStore).from_certs(carried)  # pyHanko leaves it unannotated
    signing_cert = translate_pyca_cryptography_cert_to_asn1(cert)
    digest, mechanism = signature_mechanism(signing_cert)
    signer = signers.SimpleSigner(signing_key=translate_pyca_cryptography_key_to_asn1(key),
                                  signing_cert=signing_cert, cert_registry=registry, signature_mechanism=mechanism)
    timestamper = None
    context = None
    if tsa_url is not None:
        timestamper, context = _long_term_context(tsa_url, signing_cert, carried)
    metadata = signers.PdfSignatureMetadata(
        field_name=SIGNATURE_FIELD,
        md_algorithm=digest,
        subfilter=fields.SigSeedSubFilter.PADES,
        reason="Rules submission: filed as final",
        name=describe_name(cert.subject),
        embed_validation_info=context is not None,
        validation_context=context,
        signer_key_usage=set(),  # _check_certificate accepts digital signature or non-repudiation, as verify does
    )
    output = io.BytesIO()
    writer = IncrementalPdfFileWriter(io.BytesIO(pdf_bytes), strict=True)
    try:
        signers.sign_pdf(writer, metadata, signer=signer, output=output, timestamper=timestamper)
    except Exception as exc:
        if timestamper is None:
            raise
        raise InputError(_long_term_failure(exc, tsa_url or "", describe_name(cert.subject))) from None
    signed = output.getvalue()
    if not signed.startswith(pdf_bytes):  # the promise verify's reproduction depends on
        raise RuntimeError("signing changed the unsigned rendering")
    if context is not None:
        signed = _validation_data_revision(signed, tsa_url or "")
    return signed


def signature_mechanism(signing_cert: Any) -> tuple[str, Any]:
    """The digest and the signature mechanism the signer's key signs with (asn1crypto certificate): SHA-256 with the
    key's own mechanism (RSA PKCS#1 v1.5, ECDSA), which pyHanko picks; an Ed25519 key signs SHA-512 and an Ed448
    key SHAKE256, as RFC 8419 binds them; an RSA-PSS key (id-RSASSA-PSS) signs with the parameters its certificate
    fixes, else PSS over SHA-256 with pyHanko's parameters (pyHanko picks no mechanism for such a key itself)."""
    from asn1crypto import algos
    from pyhanko.sign.general import optimal_pss_params

    algorithm = signing_cert.public_key.algorithm
    if algorithm == "ed25519":
        return "sha512", None
    if algorithm == "ed448":
        return "shake256", None
    if algorithm == "rsassa_pss":
        fixed = signing_cert.public_key["algorithm"]["parameters"]
        if fixed.native is not None:
            return str(fixed["hash_algorithm"]["algorithm"].native), algos.SignedDigestAlgorithm(
                {"algorithm": "rsassa_pss", "parameters": fixed})
        return "sha256", algos.SignedDigestAlgorithm({"algorithm": "rsassa_pss",
                                                     "parameters": optimal_pss_params(signing_cert, "sha256")})
    return "sha256", None


def _long_term_context(tsa_url: str, signing_cert: Any, carried: list[Any]) -> tuple[Any, Any]:
    """The timestamper for `tsa_url`, and the validation context that gathers the revocation data to embed.

    The authority is asked for one token first, to learn its certificates. The context's roots only anchor the
    chains whose revocation data is gathered (the self-signed certificates the identity and the token carry,
    and those RULEGEN_TRUST names): deciding whom to trust is verify's business. The roots themselves have
    no revocation data; every certificate below them must name a CRL or an OCSP responder that answers."""
    import asyncio

    from pyhanko.sign.timestamps import HTTPTimeStamper
    from pyhanko_certvalidator import ValidationContext

    if not tsa_url.startswith(("http://", "https://")):
        raise InputError(f"--tsa {tsa_url}: a timestamp authority is an http:// or https:// URL")
    timestamper = HTTPTimeStamper(tsa_url, timeout=30)
    try:
        token = asyncio.run(timestamper.async_dummy_response("sha256"))
        token_certs = [c.chosen for c in token["content"]["certificates"] or []]
    except Exception as exc:
        raise InputError(f"the timestamp authority {tsa_url} gave no usable timestamp: {_first_line(exc)}") from None
    token_signer = next((c for c in token_certs if _signs_token(c, token)), None)
    for whose, leaf, pool in (("the signer's", signing_cert, carried), ("the timestamp authority's", token_signer,
                                                                        token_certs)):
        for cert in _chain_below_root(leaf, pool):
            if not _revocation_sources(cert):
                raise InputError(
                    f"--tsa signs for long-term validation (PAdES B-LT), which embeds the revocation status of every "
                    f"certificate below the root; {whose} certificate {cert.subject.human_friendly!r} names no CRL "
                    "distribution point and no OCSP responder, so its status cannot be embedded. Sign with a "
                    "certificate (and a timestamp authority) whose CA publishes revocation status, or without --tsa")
    candidates = carried + token_certs + _environment_roots()
    roots = {c.sha256: c for c in candidates if c.self_issued}
    others = {c.sha256: c for c in carried + token_certs if not c.self_issued}
    context = ValidationContext(trust_roots=list(roots.values()), other_certs=list(others.values()),
                                allow_fetching=True, revocation_mode="require")
    return timestamper, context


def _signs_token(cert: Any, token: Any) -> bool:
    """Whether `cert` is the one that signed the timestamp token (its issuer and serial number)."""
    for info in token["content"]["signer_infos"]:
        sid = info["sid"]
        if sid.name == "issuer_and_serial_number" and cert.issuer == sid.chosen["issuer"] \
                and cert.serial_number == sid.chosen["serial_number"].native:
            return True
    return False


def _chain_below_root(leaf: Any, pool: list[Any]) -> list[Any]:
    """`leaf` and its issuers among `pool`, by name, up to (not including) a self-issued root."""
    chain: list[Any] = []
    current = leaf
    while current is not None and not current.self_issued and len(chain) < 8:
        chain.append(current)
        current = next((c for c in pool if c.subject == current.issuer and c is not current), None)
    return chain


def _revocation_sources(cert: Any) -> list[str]:
    """The CRL distribution points and OCSP responders a certificate names (asn1crypto)."""
    urls = [str(url) for url in cert.ocsp_urls]
    for point in cert.crl_distribution_points:
        url = point.url
        if url:
            urls.append(str(url))
    return urls


def _environment_roots() -> list[Any]:
    from rulegen.filing.verify import load_trust_roots, trust_paths

    try:
        return load_trust_roots(trust_paths(None))
    except InputError:
        return []  # a broken RULEGEN_TRUST is verify's error to report; signing only loses an anchor


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _long_term_failure(exc: BaseException, tsa_url: str, signer: str) -> str:
    """One sentence for why a B-LT signature could not be made: the deepest cause pyHanko chained."""
    from pyhanko_certvalidator.errors import InsufficientRevinfoError, PathBuildingError, RevokedError

    causes: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and len(causes) < 8:
        causes.append(current)
        current = current.__cause__ or current.__context__
    for cause in causes:
        if isinstance(cause, RevokedError):
            return (f"a certificate of the signature is revoked, so no filing can be signed with it: "
                    f"{_first_line(cause)}")
        if isinstance(cause, InsufficientRevinfoError):
            return (f"--tsa signs for long-term validation (PAdES B-LT), which needs the revocation status of every "
                    f"certificate of the signer {signer} and of the timestamp authority {tsa_url}, and a CRL "
                    f"distribution point or OCSP responder they name did not give it: {_first_line(cause)}")
        if isinstance(cause, PathBuildingError):
            return (f"the certificate chain of the signer {signer} or of the timestamp authority {tsa_url} does not "
                    f"reach a root certificate: {_first_line(cause)} (carry the root in the PKCS#12 identity, or "
                    "name a folder holding it in RULEGEN_TRUST)")
    return (f"signing for long-term validation with the timestamp authority {tsa_url} failed: "
            f"{_first_line(causes[-1])}")


def _validation_data_revision(signed: bytes, tsa_url: str) -> bytes:
    """The signed file with its last update rewritten by `validation_data_update`, from the validation data
    (certificates, CRLs, OCSP responses) pyHanko gathered and appended."""
    from rulegen.filing.dss import dss_contents, validation_data_update
    from rulegen.filing.pdf import open_reader, revision_end

    reader = open_reader(signed)
    if reader.xrefs.total_revisions != 3 or "/DSS" not in reader.root:
        raise InputError(f"signing with --tsa {tsa_url} wrote no validation data: the filing would not be PAdES "
                         "B-LT")
    certs, ocsps, crls = dss_contents(reader)
    if not (ocsps or crls):
        raise InputError(f"signing with --tsa {tsa_url} gathered no revocation data: the filing would not be PAdES "
                         "B-LT")
    return validation_data_update(signed[: revision_end(signed, reader, 1)], certs, ocsps, crls)
