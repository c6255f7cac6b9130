"""A timestamp authority and the revocation services of a test CA on 127.0.0.1, for the signing tests.

One HTTP server (a thread) answers:
  POST /tsa       an RFC 3161 TimeStampReq, with pyHanko's test time stamper, under a TSA certificate the test CA
                  issues (RSA, with the critical timeStamping extended key usage a TSA certificate must carry)
  GET  /crl       the test CA's CRL (RFC 5280), listing the serials in `revoked`
  POST /ocsp      an RFC 6960 OCSP request about a certificate the CA issued here, answered by the CA itself

The TSA certificate names the CRL; signers from `issue_signer` name both the CRL and the OCSP responder, so a
signature timestamped here can carry the revocation data of every certificate in its chains (PAdES B-LT).
With `revocation=False` the certificates name no revocation source (the B-T case signing refuses to promote).
`failing = True` makes the revocation services answer 503, as a source that is down.

The server is a daemon thread of the test process: it ends with that process however it ends (a killed run
included, tests/test_test_servers.py), and `__exit__` stops it at the end of each `with`.
"""

from __future__ import annotations

import datetime as dt
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


def _revocation_extensions(builder: Any, base: str, *, crl: bool, ocsp: bool) -> Any:
    from cryptography import x509
    from cryptography.x509.oid import AuthorityInformationAccessOID

    if crl:
        point = x509.DistributionPoint([x509.UniformResourceIdentifier(f"{base}/crl")], None, None, None)
        builder = builder.add_extension(x509.CRLDistributionPoints([point]), critical=False)
    if ocsp:
        access = x509.AccessDescription(AuthorityInformationAccessOID.OCSP,
                                        x509.UniformResourceIdentifier(f"{base}/ocsp"))
        builder = builder.add_extension(x509.AuthorityInformationAccess([access]), critical=False)
    return builder


def _digest_for(key: Any) -> Any:
    """The digest a CA's key signs certificates, CRLs and OCSP responses with: SHA-256, or none for an Ed25519
    key (which hashes as its own scheme says)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ed25519

    return None if isinstance(key, ed25519.Ed25519PrivateKey) else hashes.SHA256()


class TimestampAuthority:
    def __init__(self, ca_cert: Any, ca_key: Any, fixed_time: dt.datetime | None = None, *,
                 revocation: bool = True, embed_ca: bool = True) -> None:
        """`fixed_time`: every token carries this time instead of the clock's (a test of a late timestamp).
        `revocation`: the TSA certificate names this server's CRL (else no revocation source at all).
        `embed_ca`: tokens carry the CA's certificate beside the TSA's (as many real authorities do not)."""
        from pyhanko.keys.internal import translate_pyca_cryptography_cert_to_asn1
        from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper

        self.ca_cert, self.ca_key = ca_cert, ca_key
        self.revocation = revocation
        self.revoked: dict[int, dt.datetime] = {}  # serial -> revocation time, listed by the CRL and OCSP
        self.issued: dict[int, Any] = {}  # serial -> cryptography certificate, for OCSP answers
        self.failing = False
        self.requests = 0  # timestamp requests
        self.revocation_requests = 0  # CRL downloads and OCSP requests
        authority = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, status: int, kind: str, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802 (the http.server name)
                if self.path != "/crl":
                    return self._answer(404, "text/plain", b"not here")
                authority.revocation_requests += 1
                if authority.failing:
                    return self._answer(503, "text/plain", b"down")
                self._answer(200, "application/pkix-crl", authority.crl())

            def do_POST(self) -> None:  # noqa: N802
                from asn1crypto import tsp

                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/ocsp":
                    authority.revocation_requests += 1
                    if authority.failing:
                        return self._answer(503, "text/plain", b"down")
                    return self._answer(200, "application/ocsp-response", authority.ocsp(body))
                answer = authority.stamper.request_tsa_response(tsp.TimeStampReq.load(body)).dump()
                authority.requests += 1
                self._answer(200, "application/timestamp-reply", answer)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)  # bound now: certificates name its port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        cert, key = self._tsa_certificate()
        self.tsa_cert = cert
        self.stamper = DummyTimeStamper(
            tsa_cert=translate_pyca_cryptography_cert_to_asn1(cert), tsa_key=self._asn1_key(key),
            certs_to_embed=[translate_pyca_cryptography_cert_to_asn1(ca_cert)] if embed_ca else [],
            fixed_dt=fixed_time)

    @staticmethod
    def _asn1_key(key: Any) -> Any:
        from pyhanko.keys.internal import translate_pyca_cryptography_key_to_asn1

        return translate_pyca_cryptography_key_to_asn1(key)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def url(self) -> str:
        return f"{self.base}/tsa"

    def _tsa_certificate(self) -> tuple[Any, Any]:
        from cryptography import x509
        from cryptography.hazmat.primitives.asymmetric import rsa
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

        now = dt.datetime.now(dt.timezone.utc)
        key = rsa.generate_private_key(65537, 2048)
        builder = (x509.CertificateBuilder()
                   .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test Timestamp Authority")]))
                   .issuer_name(self.ca_cert.subject).public_key(key.public_key()).serial_number(900)
                   .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=390))
                   .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
                   .add_extension(x509.KeyUsage(True, True, False, False, False, False, False, False, False),
                                  critical=True))
        builder = _revocation_extensions(builder, self.base, crl=self.revocation, ocsp=False)
        cert = builder.sign(self.ca_key, _digest_for(self.ca_key))
        self.issued[cert.serial_number] = cert
        return cert, key

    def issue_signer(self, folder: Path, passphrase: bytes, *, serial: int, common: str = "Priya Raman",
                     organization: str = "Test Pennsylvania Casino", crl: bool = True, ocsp: bool = True,
                     valid_for: dt.timedelta = dt.timedelta(days=30), non_repudiation: bool = True) -> Path:
        """A signer's PKCS#12 identity under the CA, naming this server's CRL and/or OCSP responder."""
        from cryptography import x509
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import pkcs12
        from cryptography.x509.oid import NameOID

        now = dt.datetime.now(dt.timezone.utc)
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common),
                          x509.NameAttribute(NameOID.ORGANIZATION_NAME, organization)])
        builder = (x509.CertificateBuilder().subject_name(name).issuer_name(self.ca_cert.subject)
                   .public_key(key.public_key()).serial_number(serial)
                   .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + valid_for)
                   .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                   .add_extension(x509.KeyUsage(True, non_repudiation, False, False, False, False, False, False,
                                                False), critical=True))
        cert = _revocation_extensions(builder, self.base, crl=crl, ocsp=ocsp).sign(self.ca_key,
                                                                                    _digest_for(self.ca_key))
        self.issued[serial] = cert
        path = folder / f"signer-{serial}.p12"
        path.write_bytes(pkcs12.serialize_key_and_certificates(
            b"signer", key, cert, [self.ca_cert], serialization.BestAvailableEncryption(passphrase)))
        return path

    def revoke(self, serial: int, when: dt.datetime | None = None) -> None:
        self.revoked[serial] = when or dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=1)

    def crl(self, issued: dt.datetime | None = None) -> bytes:
        """The CA's CRL, issued now (its last update five minutes before), or at the time `issued` names."""
        from cryptography import x509
        from cryptography.hazmat.primitives import serialization

        now = issued or dt.datetime.now(dt.timezone.utc)
        builder = (x509.CertificateRevocationListBuilder().issuer_name(self.ca_cert.subject)
                   .last_update(now - dt.timedelta(minutes=5)).next_update(now + dt.timedelta(days=7))
                   .add_extension(x509.CRLNumber(int(now.timestamp())), critical=False)
                   .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(self.ca_key.public_key()),
                                  critical=False))
        for serial, when in sorted(self.revoked.items()):
            builder = builder.add_revoked_certificate(
                x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(when).build())
        return builder.sign(self.ca_key, _digest_for(self.ca_key)).public_bytes(serialization.Encoding.DER)

    def ocsp(self, body: bytes) -> bytes:
        from cryptography import x509
        from cryptography.hazmat.primitives import serialization
        from cryptography.x509 import ocsp

        request = ocsp.load_der_ocsp_request(body)
        cert = self.issued.get(request.serial_number)
        if cert is None:
            return ocsp.OCSPResponseBuilder.build_unsuccessful(
                ocsp.OCSPResponseStatus.UNAUTHORIZED).public_bytes(serialization.Encoding.DER)
        now = dt.datetime.now(dt.timezone.utc)
        revoked = self.revoked.get(request.serial_number)
        builder = ocsp.OCSPResponseBuilder().add_response(
            cert=cert, issuer=self.ca_cert, algorithm=request.hash_algorithm,
            cert_status=ocsp.OCSPCertStatus.REVOKED if revoked else ocsp.OCSPCertStatus.GOOD,
            this_update=now - dt.timedelta(minutes=5), next_update=now + dt.timedelta(days=1),
            revocation_time=revoked, revocation_reason=None,
        ).responder_id(ocsp.OCSPResponderEncoding.HASH, self.ca_cert)
        for extension in request.extensions:
            if isinstance(extension.value, x509.OCSPNonce):
                builder = builder.add_extension(extension.value, critical=False)
        return builder.sign(self.ca_key, _digest_for(self.ca_key)).public_bytes(serialization.Encoding.DER)

    def __enter__(self) -> "TimestampAuthority":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
