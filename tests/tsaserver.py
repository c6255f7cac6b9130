"""An RFC 3161 timestamp authority on 127.0.0.1 for the tests: an HTTP server (a thread) that answers each
TimeStampReq with pyHanko's test time stamper, under a TSA certificate the test CA issues (RSA, with the
critical timeStamping extended key usage a TSA certificate must carry)."""

from __future__ import annotations

import datetime as dt
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def tsa_identity(ca_cert, ca_key):
    """(asn1crypto certificate, asn1crypto private key, the CA as asn1crypto) of a TSA under the given CA."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    from pyhanko.keys.internal import translate_pyca_cryptography_cert_to_asn1, translate_pyca_cryptography_key_to_asn1

    now = dt.datetime.now(dt.timezone.utc)
    key = rsa.generate_private_key(65537, 2048)
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test Timestamp Authority")]))
            .issuer_name(ca_cert.subject).public_key(key.public_key()).serial_number(900)
            .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=390))
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
            .add_extension(x509.KeyUsage(True, True, False, False, False, False, False, False, False), critical=True)
            .sign(ca_key, hashes.SHA256()))
    return (translate_pyca_cryptography_cert_to_asn1(cert), translate_pyca_cryptography_key_to_asn1(key),
            translate_pyca_cryptography_cert_to_asn1(ca_cert))


class TimestampAuthority:
    def __init__(self, ca_cert, ca_key, fixed_time: dt.datetime | None = None) -> None:
        """`fixed_time`: every token carries this time instead of the clock's (a test of a late timestamp)."""
        from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper

        cert, key, ca = tsa_identity(ca_cert, ca_key)
        self.stamper = DummyTimeStamper(tsa_cert=cert, tsa_key=key, certs_to_embed=[ca], fixed_dt=fixed_time)
        self.requests = 0
        authority = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                from asn1crypto import tsp

                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                answer = authority.stamper.request_tsa_response(tsp.TimeStampReq.load(body)).dump()
                authority.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/timestamp-reply")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/tsa"

    def __enter__(self) -> "TimestampAuthority":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
