"""Signed filings made cheaply for the verify and register tests and the register benchmark: a throwaway PKI,
and a small WeasyPrint rendering that carries the real attachments (offering, manifest) with the outputs of a
build beside it, signed as `rulegen build --final --sign` signs. No render pipeline or math is needed, so the
filings take a fraction of a second each.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rulegen.assemble import pdf_attachments
from rulegen.filing import build_manifest, manifest_bytes, reproducible_clock, sign_pdf, signer_name
from rulegen.filing.rebuild import Reproducer
from rulegen.offering import load_offering

PASSPHRASE = b"correct horse battery staple"
SIGNER = "Priya Raman"

OFFERING = """\
schema_version: 1
offering:
  id: filing-test-pa
  jurisdiction: PA
  operator:
    name: Test Pennsylvania Casino
    licence: Certificate holder 1234
  version: 3
  effective_date: 2027-03-01
table:
  positions: 6
  payout_odds_display: sign
  payout_limit_display: sign
cards:
  decks: 1
  back_colours: [red]
  shuffling: automated
  dealing: hand
  deck_change_hours: 4
limits:
  ante: {minimum: 5, maximum: 100}
  adjacent_boxes: 2
paytables:
  criss_cross: standard
  ante: standard
five_card_bonus:
  minimum: 1
  maximum: 25
  paytable: standard
payout_limit:
  amount: 50000
signoff:
  - {role: prepared, name: Dana Whitfield, title: Table Games Compliance Manager, date: 2026-11-02}
  - {role: reviewed, name: Luis Ortega, title: Director of Table Games, date: 2026-11-05}
  - {role: approved, name: Priya Raman, title: "Vice President, Compliance", date: 2026-11-09}
"""


# --- a throwaway PKI ---------------------------------------------------------------------------------------------

def _name(common: str, organization: str | None = None):
    from cryptography import x509
    from cryptography.x509.oid import NameOID

    parts = [x509.NameAttribute(NameOID.COMMON_NAME, common)]
    if organization:
        parts.append(x509.NameAttribute(NameOID.ORGANIZATION_NAME, organization))
    return x509.Name(parts)


def _certificate(subject, issuer, public_key, signing_key, *, ca: bool, start, end, serial: int):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    usage = x509.KeyUsage(digital_signature=not ca, content_commitment=not ca, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                          encipher_only=False, decipher_only=False)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
            .serial_number(serial).not_valid_before(start).not_valid_after(end)
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
            .add_extension(usage, critical=True)
            .sign(signing_key, hashes.SHA256()))


def make_pki(folder: Path) -> dict[str, Path]:
    """A CA, a signer under it (valid now), an expired signer, and an unrelated CA; PEM and PKCS#12 files."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import pkcs12

    now = dt.datetime.now(dt.timezone.utc)
    ca_key, other_key, signer_key = (ec.generate_private_key(ec.SECP256R1()) for _ in range(3))
    ca_name = _name("Filing Test Root CA", "Test Gaming Authority")
    ca = _certificate(ca_name, ca_name, ca_key.public_key(), ca_key, ca=True, start=now - dt.timedelta(days=400),
                      end=now + dt.timedelta(days=400), serial=1)
    other_name = _name("Unrelated Root CA")
    other = _certificate(other_name, other_name, other_key.public_key(), other_key, ca=True,
                         start=now - dt.timedelta(days=400), end=now + dt.timedelta(days=400), serial=2)
    signer = _certificate(_name(SIGNER, "Test Pennsylvania Casino"), ca_name, signer_key.public_key(), ca_key,
                          ca=False, start=now - dt.timedelta(days=1), end=now + dt.timedelta(days=30), serial=3)
    expired = _certificate(_name(SIGNER, "Test Pennsylvania Casino"), ca_name, signer_key.public_key(), ca_key,
                           ca=False, start=now - dt.timedelta(days=300), end=now - dt.timedelta(days=10), serial=4)
    files = {}
    for label, cert in (("signer", signer), ("expired", expired)):
        blob = pkcs12.serialize_key_and_certificates(b"signer", signer_key, cert, [ca],
                                                     serialization.BestAvailableEncryption(PASSPHRASE))
        files[label] = folder / f"{label}.p12"
        files[label].write_bytes(blob)
    for label, cert in (("ca", ca), ("other_ca", other)):
        files[label] = folder / f"{label}.pem"
        files[label].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    files["expired_cert"] = expired  # type: ignore[assignment]
    files["ca_cert"], files["ca_key"] = ca, ca_key  # type: ignore[assignment]
    files["signer_key"] = signer_key  # type: ignore[assignment]
    return files


# --- a filing ----------------------------------------------------------------------------------------------------

OUTPUTS = {
    "rules.html": b"<!doctype html><title>Rules</title><p>Criss Cross Poker</p>\n",
    "signage.pdf": b"%PDF-1.7 stand-in for the table sign\n%%EOF\n",
    "math-appendix.pdf": b"%PDF-1.7 stand-in for the math appendix\n%%EOF\n",
}



def make_trusted_pki(pki_folder: Path, trust_folder: Path) -> dict[str, Path]:
    """make_pki's files, and `trust_folder` holding the test CA as an agency's trust folder (RULEGEN_TRUST) would:
    its path is files["trust_folder"]."""
    import shutil

    files = make_pki(pki_folder)
    shutil.copy(files["ca"], trust_folder / "ca.pem")
    files["trust_folder"] = trust_folder
    return files

def render(offering, manifest) -> bytes:
    from weasyprint import HTML

    html = ("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Criss Cross Poker rules</title>"
            "<meta name='dcterms.created' content='2027-03-01'><meta name='dcterms.modified' content='2027-03-01'>"
            "</head><body><h1>Criss Cross Poker</h1><p>Rules of the game, with the offering and manifest attached."
            "</p></body></html>")
    with reproducible_clock(manifest):
        return HTML(string=html).write_pdf(attachments=pdf_attachments(offering, manifest), pdf_variant="pdf/a-3u")


def build(folder: Path, pki: dict | None, *, final: bool = True, extra_offering: str = "", edit=None,
          text: str | None = None, identity: Path | None = None) -> Path:
    """A build folder: offering.yaml, the outputs, manifest.json and rules.pdf (signed when `pki` is given);
    `edit(manifest)` changes the manifest before it is rendered in, to make filings a real build would not."""
    from rulegen.validate import validate_offering

    folder.mkdir(parents=True, exist_ok=True)
    source = folder.parent / f"{folder.name}-source" / "offering.yaml"  # not in the package, as in a real build
    source.parent.mkdir(exist_ok=True)
    source.write_text((OFFERING if text is None else text) + extra_offering)
    offering = load_offering(source)
    findings = validate_offering(offering)
    signoffs = list(offering.data["signoff"])
    if pki is not None:
        identity = identity or pki["signer"]
        signoffs.append({"role": "signature", "name": signer_name(identity, PASSPHRASE)})
    manifest = build_manifest(offering=offering, jurisdiction_code=offering.data["offering"]["jurisdiction"],
                              outputs=dict(OUTPUTS), options={"final": final, "sign": pki is not None},
                              findings=findings, renderer_versions=renderer_versions(), signoffs=signoffs)
    if edit is not None:
        edit(manifest)
    pdf = render(offering, manifest)
    if pki is not None:
        pdf = sign_pdf(pdf, identity, PASSPHRASE)
    for name, data in OUTPUTS.items():
        (folder / name).write_bytes(data)
    (folder / "manifest.json").write_bytes(manifest_bytes(manifest))
    (folder / "rules.pdf").write_bytes(pdf)
    return folder / "rules.pdf"



def renderer_versions() -> dict[str, str | None]:
    """The versions of the libraries this factory renders with (WeasyPrint's, as the pipeline's are read)."""
    from rulegen.render.pdf import renderer_versions as read

    return read()


def _reproduce(*, source: bytes, name: str, logo, options, signer) -> dict[str, bytes]:
    """This factory's own product, built again from the signed offering alone (the `PackageRenderer` verify is
    handed): the stand-in outputs, the manifest made afresh, and rules.pdf rendered with it. A genuine factory
    filing reproduces byte for byte; one whose manifest `build(edit=...)` changed does not."""
    import tempfile

    from rulegen.validate import validate_offering

    with tempfile.TemporaryDirectory(prefix="filing-factory-") as folder:
        path = Path(folder) / (Path(name).name or "offering.yaml")
        path.write_bytes(source)
        offering = load_offering(path)
        findings = validate_offering(offering)
        signoffs = list(offering.data["signoff"]) + ([{"role": "signature", "name": signer}] if signer else [])
        manifest = build_manifest(offering=offering, jurisdiction_code=offering.data["offering"]["jurisdiction"],
                                  outputs=dict(OUTPUTS), options=dict(options), findings=findings,
                                  renderer_versions=renderer_versions(), signoffs=signoffs)
        return {"rules.pdf": render(offering, manifest), **OUTPUTS, "manifest.json": manifest_bytes(manifest)}


reproduce = Reproducer(_reproduce, renderer_versions)


def make_identity(folder: Path, pki: dict, common: str, organization: str | None, serial: int) -> Path:
    """Another signer under the test root: its PKCS#12 file (passphrase PASSPHRASE)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import pkcs12

    now = dt.datetime.now(dt.timezone.utc)
    key = ec.generate_private_key(ec.SECP256R1())
    cert = _certificate(_name(common, organization), pki["ca_cert"].subject, key.public_key(), pki["ca_key"],
                        ca=False, start=now - dt.timedelta(days=1), end=now + dt.timedelta(days=30), serial=serial)
    path = folder / f"signer-{serial}.p12"
    path.write_bytes(pkcs12.serialize_key_and_certificates(b"signer", key, cert, [pki["ca_cert"]],
                                                           serialization.BestAvailableEncryption(PASSPHRASE)))
    return path
