"""`rulegen build --final --sign ID.p12`: a signed final filing that `rulegen verify --rebuild` accepts."""

from __future__ import annotations

import datetime

import pytest
from typer.testing import CliRunner

pytest.importorskip("rulegen.math.report", reason="the math layer has not landed")

from rulegen.cli import app  # noqa: E402
from rulegen.resources import samples_dir  # noqa: E402


@pytest.fixture(scope="module")
def identity(tmp_path_factory):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import pkcs12
    from cryptography.x509.oid import NameOID

    folder = tmp_path_factory.mktemp("identity")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Samuel Okafor"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Allegheny Crossing")])
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(11).not_valid_before(start).not_valid_after(start + datetime.timedelta(days=3650))
            .add_extension(x509.KeyUsage(True, True, False, False, False, False, False, False, False), critical=True)
            .sign(key, hashes.SHA256()))
    (folder / "id.p12").write_bytes(pkcs12.serialize_key_and_certificates(
        b"signer", key, cert, None, serialization.BestAvailableEncryption(b"secret")))
    (folder / "ca.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return folder


def test_signed_final_build_verifies(tmp_path, identity, monkeypatch):
    monkeypatch.setenv("RULEGEN_SIGN_PASSPHRASE", "secret")
    sample = next(s for s in sorted(samples_dir().glob("*.yaml")) if s.stem.startswith("pa"))
    runner = CliRunner()
    built = runner.invoke(app, ["build", str(sample), "--out", str(tmp_path), "--final", "--sign",
                                str(identity / "id.p12")])
    assert built.exit_code == 0, built.output
    filing = tmp_path / "allegheny-crossing-ccp" / "rules.pdf"
    checked = runner.invoke(app, ["verify", str(filing), "--rebuild", "--trust", str(identity / "ca.pem")])
    assert checked.exit_code == 0, checked.output
    assert "Samuel Okafor" in checked.stdout


def test_wrong_passphrase_writes_nothing(tmp_path, identity, monkeypatch):
    monkeypatch.setenv("RULEGEN_SIGN_PASSPHRASE", "wrong")
    sample = next(s for s in sorted(samples_dir().glob("*.yaml")) if s.stem.startswith("pa"))
    result = CliRunner().invoke(app, ["build", str(sample), "--out", str(tmp_path / "out"), "--final", "--sign",
                                      str(identity / "id.p12")])
    assert result.exit_code == 2
    assert "passphrase" in result.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())
