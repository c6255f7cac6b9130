"""`rulegen verify`: re-check a built filing, offline (revocation is judged from the data a B-LT filing embeds).

`verify_paths` checks many: files and folders (a folder stands for every build folder or rules.pdf under it),
one report each, going on past a broken one.

Order of the checks, each reported with a reason:
  pdf         the file reads as a PDF with the shape rulegen writes: one rendering, then one signature revision,
              then (PAdES B-LT) at most one update holding validation data
  signature   one PAdES signature, cryptographically intact and valid
  coverage    the signature covers every byte of the file and no revision follows it (pyHanko's coverage level
              and modification level, plus the revision count);
              or every byte of its revision, and the update after it is the Document Security Store alone:
              byte for byte the update rulegen writes for the data it holds, rated LTA_UPDATES by pyHanko's
              difference analysis, every certificate, CRL and OCSP response in it signed by its issuer
  revision    the signature's own revision adds the signature and its field and nothing else: pyHanko's
              difference analysis of it against the rendering before it (no new /Pages, content stream or page)
  contents    the unsigned gap holds exactly the DER signature in upper-case hex, then zeros (pyHanko alone
              misses a changed byte there)
  certificate the signer's certificate was within its validity period at the signing time it reports
  trust       the certificate chains to a trust root (--trust or RULEGEN_TRUST) at that time; with no root, or
              one it does not chain to, the filing is "intact, signer not trusted" and fails (trust fails closed)
  revocation  the PAdES level (B-B, B-T, B-LT); with embedded revocation data, every certificate below the root
              in the signer's chain and the timestamp authority's was not revoked at the timestamp's time, by
              that data alone (nothing is fetched: a missing or failing proof fails the filing)
  manifest    manifest.json is attached, canonical, and of a format this rulegen reads
  offering    the attached offering's bytes match the manifest's SHA-256 (and the logo's, if any)
  identity    the offering's id, jurisdiction, revision and effective date, and its operator, are read from the
              signed, attached offering (never from the manifest); a manifest saying otherwise fails
  attachments nothing else is attached
  final       the build was --final with every sign-off role, and the signer's name is the one recorded
  outputs     the whole package: every output the manifest lists, and manifest.json, is beside the filing and
              matches; a missing file or a file the manifest does not list fails
  rules       the shipped jurisdiction data and schemas, and the findings they give now, against the manifest's
  reproduce   (full verification; not with --integrity-only) the build layer's renderer builds the signed
              offering and its logo again, with fresh math and only the build options the offering does not carry;
              every file equals the package's byte for byte: rules.pdf up to the signature's update, rules.html,
              signage.pdf, math-appendix.pdf and manifest.json (beside and attached). With other renderer versions,
              fonts or jurisdiction data than the manifest records, the filing cannot be reproduced here: not
              verified, and the verdict names the versions to install. Only a reproduced filing is VERIFIED.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import logging
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Union, cast

PathsArgument = Union[str, Path, Iterable[Union[str, Path]], None]  # one file, several, or none

from rulegen.errors import ExitCode, InputError
from rulegen.filing.manifest import (
    MANIFEST_FORMAT, MANIFEST_NAME, RendererVersions, canonical_json, data_hashes, sha256,
)
from rulegen.filing.rebuild import REPRODUCED_FILES, Reproducer

SIGNOFF_ROLES = ("prepared", "reviewed", "approved")
SIBLING_OUTPUTS = ("rules.html", "signage.pdf", "math-appendix.pdf")


@dataclass
class Check:
    """One check: ok True (passed), False (failed), None (not checked, said why); warning marks a pass
    that deserves attention (rules moved since the build), which `--strict` treats as a failure."""

    name: str
    ok: bool | None
    detail: str
    warning: bool = False

    @property
    def status(self) -> str:
        if self.ok is False:
            return "FAIL"
        if self.ok is None:
            return "note"
        return "warn" if self.warning else "ok"


TRUST_ENV = "RULEGEN_TRUST"
CERTIFICATE_SUFFIXES = (".pem", ".crt", ".cer", ".der")


# Every status a report can have: verified (every check passed and every byte reproduced); intact (every check of
# an integrity-only run passed: nothing was reproduced, so it is not verified); unreproducible (the checks passed
# but the software or data here are not the build's, so the filing could not be reproduced); untrusted; failed;
# unsigned; unusable.
STATUSES = ("verified", "intact", "unreproducible", "untrusted", "failed", "unsigned", "unusable")


@dataclass
class VerifyReport:
    path: str
    checks: list[Check] = field(default_factory=list)
    signed: bool = False
    final: bool = False
    signer: str | None = None
    signer_subject: str | None = None
    signer_fingerprint: str | None = None  # SHA-256 of the signer certificate's DER bytes, lower-case hex
    signing_time: str | None = None
    trusted: bool | None = None  # None: not reached (no intact signature to check the signer of)
    trust_roots: int = 0
    strict: bool = False
    seconds: float = 0.0
    rules_sha256: str | None = None
    timestamp: str | None = None  # the RFC 3161 timestamp's time, when the signature carries one
    timestamp_authority: str | None = None
    pades_level: str | None = None  # B-B, B-T or B-LT: what the signature carries (the checks say if it holds)
    revocation_data: dict[str, int] | None = None  # what the Document Security Store holds
    revocation_status: str | None = None  # "good": shown not revoked at the signature's time, offline
    offering_id: str | None = None
    operator: str | None = None
    jurisdiction: str | None = None
    revision: int | str | None = None
    effective_date: str | None = None
    error: str | None = None  # the file could not be used at all (exit 2): missing, unreadable, not a PDF
    manifest: dict[str, Any] | None = field(default=None, repr=False)
    offering_source: bytes | None = field(default=None, repr=False)  # the attached offering, when it matches
    offering_name: str | None = None
    integrity_only: bool = False  # no reproduction was asked for (--integrity-only): never "verified"
    reproduced: bool = False  # every file of the package equals a fresh build of the signed offering
    unreproducible: str | None = None  # why this machine cannot reproduce the filing (the versions to install)

    def add(self, name: str, ok: bool | None, detail: str, *, warning: bool = False) -> Check:
        check = Check(name, ok, detail, warning)
        self.checks.append(check)
        return check

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if c.ok is False]

    @property
    def warnings(self) -> list[Check]:
        return [c for c in self.checks if c.ok is not False and c.warning]

    @property
    def status(self) -> str:
        """One word for a table: verified, untrusted, failed, unsigned, unusable."""
        if self.error is not None:
            return "unusable"
        failures = self.failures
        if not self.signed and not any(c.name == "pdf" for c in failures):
            return "unsigned"
        if failures and all(c.name == "trust" for c in failures):
            return "untrusted"
        if self.unreproducible is not None and all(c.name == "reproduce" for c in failures) \
                and not (self.strict and self.warnings):
            return "unreproducible"
        if failures or (self.strict and self.warnings):
            return "failed"
        if self.integrity_only or not self.reproduced:
            return "intact"
        return "verified"

    @property
    def trust_status(self) -> str:
        if not self.signed:
            return "unsigned"
        if self.trusted is None:
            return "not checked"
        return "trusted" if self.trusted else "not trusted"

    @property
    def verdict(self) -> str:
        status = self.status
        if status == "unusable":
            return f"UNUSABLE: {self.error}"
        failures = [c for c in self.failures if c.name != "signature" or self.signed]
        if status == "unsigned":
            tail = ("; also " + "; ".join(f"{c.name}: {c.detail}" for c in failures[:3])) if failures else ""
            return "UNSIGNED DRAFT: not a filed submission" + tail
        if status == "untrusted":
            return "INTACT, SIGNER NOT TRUSTED: " + "; ".join(c.detail for c in failures[:1])
        if status == "unreproducible":
            return f"NOT VERIFIED, CANNOT BE REPRODUCED HERE: {self.unreproducible}"
        if failures:
            return "FAILED: " + "; ".join(f"{c.name}: {c.detail}" for c in failures[:3])
        if self.strict and self.warnings:
            return "FAILED (--strict): " + "; ".join(f"{c.name}: {c.detail}" for c in self.warnings[:3])
        warned = " (warning: " + "; ".join(c.name for c in self.warnings) + ")" if self.warnings else ""
        if status == "intact":
            return (f"INTACT, INTEGRITY ONLY (not verified: nothing was reproduced): signed final filing, signer "
                    f"{self.signer} trusted; {self.signature_summary}; run `rulegen verify` without "
                    "--integrity-only to reproduce it" + warned)
        return (f"VERIFIED: signed final filing, signer {self.signer} trusted, every byte reproduced from the signed "
                f"offering; {self.signature_summary}" + warned)

    @property
    def signature_summary(self) -> str:
        """The PAdES level, the timestamp and the revocation proof, in a few words."""
        parts = [f"PAdES {self.pades_level}" if self.pades_level else "PAdES level unknown"]
        if self.timestamp and self.timestamp_authority:
            parts.append(f"timestamp {self.timestamp} by {self.timestamp_authority}")
        else:
            parts.append("no timestamp (the signing time is the signer's claim)")
        if self.revocation_status == "good":
            parts.append("certificates not revoked at signing time (embedded revocation data)")
        else:
            parts.append("no revocation data embedded")
        return ", ".join(parts)

    @property
    def first_problem(self) -> str | None:
        if self.error is not None:
            return self.error
        problems = [c for c in self.failures if c.name != "signature" or self.signed]
        if not self.signed and not any(c.name == "pdf" for c in problems):
            return "unsigned draft: not a filed submission"
        if problems:
            return f"{problems[0].name}: {problems[0].detail}"
        if self.strict and self.warnings:
            return f"{self.warnings[0].name}: {self.warnings[0].detail}"
        if self.status == "intact":
            return "integrity only: the package was not reproduced from the signed offering, so it is not verified"
        return None

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return int(ExitCode.UNUSABLE)
        return int(ExitCode.OK) if self.status in ("verified", "intact") else int(ExitCode.INVALID)

    @property
    def revocation(self) -> str | None:
        """The revocation proof in a word (good, failed, not embedded, not checked); None when unsigned."""
        if not self.signed:
            return None
        return self.revocation_status or self._revocation_check_status()

    def _revocation_check_status(self) -> str:
        check = next((c for c in self.checks if c.name == "revocation"), None)
        if check is None:
            return "not checked"
        if check.ok is not None:
            return "good" if check.ok else "failed"
        data = self.revocation_data
        return "not embedded" if not data or not (data["crls"] or data["ocsp_responses"]) else "not checked"

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "status": self.status,
            "verdict": self.verdict,
            "mode": "integrity-only" if self.integrity_only else "full",
            "reproduced": self.reproduced,
            "exit_code": self.exit_code,
            "offering_id": self.offering_id,
            "operator": self.operator,
            "jurisdiction": self.jurisdiction,
            "revision": self.revision,
            "effective_date": self.effective_date,
            "rules_pdf_sha256": self.rules_sha256,
            "signed": self.signed,
            "final": self.final,
            "signer": {"name": self.signer, "subject": self.signer_subject,
                       "certificate_sha256": self.signer_fingerprint} if self.signed else None,
            "signing_time": self.signing_time,
            "timestamp": {"time": self.timestamp, "authority": self.timestamp_authority}
            if self.timestamp_authority else None,
            "pades_level": self.pades_level,
            "revocation": {"embedded": bool(self.revocation_data and (self.revocation_data["crls"]
                                                                       or self.revocation_data["ocsp_responses"])),
                           **(self.revocation_data or {"certificates": 0, "crls": 0, "ocsp_responses": 0}),
                           "status": self.revocation,
                           "detail": next((c.detail for c in self.checks if c.name == "revocation"), None)}
            if self.signed else None,
            "trust": self.trust_status,
            "trusted": self.trusted,
            "checks": [{**asdict(c), "status": c.status} for c in self.checks],
            "seconds": round(self.seconds, 3),
        }


@contextlib.contextmanager
def _quiet_pyhanko() -> Iterator[None]:
    """pyHanko logs each failed path build with a traceback; the report says it in one line instead."""
    loggers = [logging.getLogger(name) for name in ("pyhanko", "pyhanko_certvalidator", "pyhanko.sign")]
    saved = [(lg, lg.level, lg.propagate) for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level, propagate in saved:
            lg.setLevel(level)
            lg.propagate = propagate


MAX_FILING_BYTES = 256 * 1024 * 1024  # far above any rules.pdf; a bound on what one check reads into memory


def _read(path: Path, *, follow_symlinks: bool = True) -> bytes:
    """A file named on the command line (a filing, a trust root), read once: a regular file of bounded size,
    never a FIFO or device that would hang the run."""
    from rulegen.safeio import UnsafeFile, read_regular

    try:
        return read_regular(path, MAX_FILING_BYTES, follow_symlinks=follow_symlinks)
    except UnsafeFile as exc:
        if "the most read" in exc.reason or "larger than" in exc.reason:
            raise InputError(f"{path} is larger than {MAX_FILING_BYTES // (1024 * 1024)} MiB; it is not a filing "
                             "rulegen built") from None
        raise InputError(f"{path}: {exc.reason}") from None


def load_trust_roots(trust: PathsArgument) -> list[Any]:
    """asn1crypto certificates from one or more PEM/DER files (a PEM file may hold several)."""
    from asn1crypto import pem, x509 as asn1_x509

    paths = [trust] if isinstance(trust, (str, Path)) else list(trust or [])
    roots = []
    for item in paths:
        path = Path(item)
        data = _read(path)
        try:
            if pem.detect(data):
                blocks = [der for kind, _headers, der in pem.unarmor(data, multiple=True) if kind == "CERTIFICATE"]
            else:
                blocks = [data]
            certs = [asn1_x509.Certificate.load(der) for der in blocks]
            for cert in certs:
                cert.native  # parse fully now, so a broken file fails here and not mid-validation
        except Exception:
            raise InputError(f"--trust {path}: not a PEM or DER certificate file") from None
        if not certs:
            raise InputError(f"--trust {path}: holds no CERTIFICATE block")
        roots.extend(certs)
    return roots


def trust_paths(trust: PathsArgument = None, environ: Mapping[str, str] | None = None) -> list[Path]:
    """The certificate files to trust: each --trust file, then every certificate file (.pem, .crt, .cer,
    .der) in each folder RULEGEN_TRUST names (several joined by the path separator). A folder named there that
    is missing or holds no certificate is an error, not an empty trust list: a mistyped setting must not
    quietly trust nothing and still look configured."""
    import os

    paths = [Path(p) for p in ([trust] if isinstance(trust, (str, Path)) else list(trust or []))]
    environ = os.environ if environ is None else environ
    for entry in filter(None, (environ.get(TRUST_ENV) or "").split(os.pathsep)):
        folder = Path(entry)
        if folder.is_file():
            paths.append(folder)
            continue
        if not folder.is_dir():
            raise InputError(f"{TRUST_ENV} names {folder}, which is not a folder of trusted certificates")
        found = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in CERTIFICATE_SUFFIXES)
        if not found:
            raise InputError(f"{TRUST_ENV} names {folder}, which holds no certificate file "
                             f"({', '.join(CERTIFICATE_SUFFIXES)})")
        paths.extend(found)
    return paths


def verify_filing(path: str | Path, *, trust: PathsArgument = None, reproduce: Reproducer | None = None,
                  strict: bool = False, roots: list[Any] | None = None,
                  environ: Mapping[str, str] | None = None) -> VerifyReport:
    """Every check on the filing at `path` (its rules.pdf, or its build folder); its package is the folder.

    `reproduce` is the renderer that builds the whole package again from the signed offering, with the versions of
    the libraries it renders with (`rulegen.assemble.reproduce_filing_for_verify`): every file must equal the fresh
    one, and only then is the filing VERIFIED. Without it the checks are integrity only (status "intact" at best,
    never "verified").

    Trust roots are `roots` (already loaded) or read from `trust` and RULEGEN_TRUST. Raises InputError (exit
    2) only when the file cannot be read, is not a PDF at all, or the trust roots cannot be used; everything
    wrong with the filing itself is a failed check in the report (exit 1).
    """
    began = time.perf_counter()
    path = Path(path)
    if path.is_dir() and (path / "rules.pdf").is_file():  # a build folder: its rules.pdf is the filing
        path = path / "rules.pdf"
    report = VerifyReport(str(path), strict=strict, integrity_only=reproduce is None)
    if roots is None:
        roots = load_trust_roots(trust_paths(trust, environ))
    report.trust_roots = len(roots)
    data = _read(path)
    if b"%PDF-" not in data[:1024] and b"%%EOF" not in data[-4096:]:
        raise InputError(f"{path} is not a PDF; give the filing's rules.pdf")
    report.rules_sha256 = sha256(data)
    with _quiet_pyhanko():
        _Verifier(report, path, data, roots).run(reproduce=reproduce)
    report.seconds = time.perf_counter() - began
    return report


def filing_paths(paths: Iterable[str | Path]) -> list[tuple[Path, str | None]]:
    """Each path given, expanded: a file stands for itself; a build folder (one holding rules.pdf) for its
    rules.pdf; any other folder for every rules.pdf under it, in name order, leaving out hidden folders (a
    build being published writes into `.<id>.new-PID/` first). A path that holds no filing
    comes back with the reason, so a batch reports it and goes on."""
    found: list[tuple[Path, str | None]] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            if (path / "rules.pdf").is_file():
                found.append((path / "rules.pdf", None))
                continue
            under = sorted(p for p in path.rglob("rules.pdf") if p.is_file()
                           and not any(part.startswith(".") for part in p.relative_to(path).parts))
            if not under:
                found.append((path, f"{path} is a folder with no rules.pdf under it"))
            found.extend((p, None) for p in under)
        elif path.exists():
            found.append((path, None))
        else:
            found.append((path, f"{path}: no such file or folder"))
    return found


def verify_paths(paths: Iterable[str | Path], *, trust: PathsArgument = None, reproduce: Reproducer | None = None,
                 strict: bool = False, environ: Mapping[str, str] | None = None,
                 progress: Callable[[VerifyReport], None] | None = None) -> list[VerifyReport]:
    """One report per filing under `paths` (see filing_paths), going on past any that cannot be used: those
    get a report with `error` set (exit 2). Unusable trust roots stop everything first (InputError)."""
    roots = load_trust_roots(trust_paths(trust, environ))
    reports = []
    for path, problem in filing_paths(paths):
        if problem is None:
            try:
                report = verify_filing(path, reproduce=reproduce, strict=strict, roots=roots)
            except InputError as exc:
                report = VerifyReport(str(path), strict=strict, error=exc.message, trust_roots=len(roots),
                                      integrity_only=reproduce is None)
        else:
            report = VerifyReport(str(path), strict=strict, error=problem, trust_roots=len(roots),
                                  integrity_only=reproduce is None)
        reports.append(report)
        if progress is not None:
            progress(report)
    return reports


def summary(reports: list[VerifyReport]) -> dict[str, Any]:
    counts = {status: 0 for status in STATUSES}
    for report in reports:
        counts[report.status] += 1
    return {"filings": len(reports), **counts,
            "exit_code": max((r.exit_code for r in reports), default=int(ExitCode.UNUSABLE)),
            "seconds": round(sum(r.seconds for r in reports), 3)}


class _Verifier:
    def __init__(self, report: VerifyReport, path: Path, data: bytes, roots: list[Any]) -> None:
        self.report, self.path, self.data, self.roots = report, path, data, roots
        self.reader: Any = None
        self.signatures: list[Any] = []
        self.signed_prefix_end: int | None = None  # where the unsigned rendering ends
        self.signature_end: int | None = None  # where the signature's revision ends (the file's end, but for a DSS)
        self.dss_update = False  # a third revision follows the signature: it may only add validation data
        self.manifest: dict[str, Any] | None = None
        self.attachments: dict[str, bytes] = {}
        self.certificate_name: str | None = None

    def run(self, *, reproduce: Reproducer | None) -> None:
        if not self._structure():
            return
        self._signature()
        self._attachments()
        self._final()
        self._outputs()
        self._rules()
        if reproduce is not None:
            self._reproduce(reproduce)

    # --- the PDF and its signature -----------------------------------------------------------------------------

    def _structure(self) -> bool:
        from rulegen.filing.pdf import open_reader, revision_end

        report = self.report
        try:
            self.reader = open_reader(self.data)
            revisions = self.reader.xrefs.total_revisions
            self.signatures = list(self.reader.embedded_signatures)
        except Exception as exc:
            report.add("pdf", False, f"cannot be read as a PDF: {_reason(exc)}")
            return False
        expected = 2 if self.signatures else 1
        if len(self.signatures) == 1 and revisions == 3:
            self.dss_update = True  # PAdES B-LT: validation data after the signature; the coverage check judges it
        elif revisions != expected:
            report.add("pdf", False, f"{revisions} revisions; a rulegen filing has {expected} (the rendering"
                                     + (", then its signature; or 3, with validation data after the signature)"
                                        if self.signatures else ")")
                                     + ": something was added after it was built")
            return True
        try:
            self.signed_prefix_end = revision_end(self.data, self.reader, 0)
            self.signature_end = revision_end(self.data, self.reader, 1) if self.signatures else None
            end = revision_end(self.data, self.reader, revisions - 1)
        except Exception as exc:
            report.add("pdf", False, f"the rendering's end cannot be found: {_reason(exc)}")
            return True
        if end != len(self.data):
            report.add("pdf", False, f"{len(self.data) - end} bytes follow the end of the PDF")
            return True
        if not self.signatures:
            report.add("pdf", True, f"{len(self.data):,} bytes, one revision")
        else:
            report.add("pdf", True, f"{len(self.data):,} bytes; the rendering is the first {self.signed_prefix_end:,}"
                       + (f", the signature's revision ends at byte {self.signature_end:,}, then an update that "
                          "must hold validation data only" if self.dss_update else ""))
        return True

    def _signature(self) -> None:
        from pyhanko.sign.validation import validate_pdf_signature
        from pyhanko.sign.validation.settings import KeyUsageConstraints
        from pyhanko_certvalidator import ValidationContext

        from rulegen.filing.pdf import FilingFormatError, check_cms_structure, check_signature_gap

        report = self.report
        if not self.signatures:
            report.add("signature", False, "none: this is an unsigned draft, not a filed submission "
                                           "(a filing is signed by `rulegen build --final --sign ID.p12`)")
            return
        report.signed = True  # it claims to be signed; the checks below say whether the claim holds
        if len(self.signatures) > 1:
            report.add("signature", False, f"{len(self.signatures)} signatures; a rulegen filing has exactly one")
            return
        embedded = self.signatures[0]
        signed_bytes = self.data[: self.signature_end] if self.signature_end is not None else self.data
        try:
            gap = check_signature_gap(signed_bytes, embedded.byte_range)
            carried = check_cms_structure(embedded.pkcs7_content[:gap.der_length], self.roots or ())
            report.add("contents", True, f"the DER signature ({gap.der_length:,} bytes; {carried}) is followed "
                                         f"only by {gap.padding:,} zero bytes")
        except FilingFormatError as exc:
            report.add("contents", False, str(exc))
        except Exception as exc:
            report.add("contents", False, _reason(exc))
        try:
            cert = embedded.signer_cert
            signing_time = embedded.self_reported_timestamp
        except Exception as exc:
            report.add("signature", False, f"the signature cannot be read: {_reason(exc)}")
            return
        report.signer = self.certificate_name = _asn1_name(cert)
        report.signer_subject = cert.subject.human_friendly
        report.signer_fingerprint = fingerprint = sha256(cert.dump())
        report.signing_time = signing_time.isoformat() if signing_time else None
        key_usage = KeyUsageConstraints(key_usage={"digital_signature", "non_repudiation"}, match_all_key_usages=False)
        context = ValidationContext(trust_roots=list(self.roots or []), allow_fetching=False, moment=signing_time,
                                    revocation_mode="soft-fail")
        try:
            status = validate_pdf_signature(embedded, context, key_usage_settings=key_usage)
        except Exception as exc:
            report.add("signature", False, f"cannot be validated: {_reason(exc)}")
            return
        if status.intact and status.valid:
            report.add("signature", True, f"intact and valid ({status.md_algorithm}, signed by {report.signer} at "
                                          f"{_when(signing_time)} as the signer reports it)")
        elif not status.intact:
            report.add("signature", False, "not intact: the signed bytes were changed after signing (their digest "
                                           "no longer matches the one signed)")
        else:
            report.add("signature", False, "the signature value does not verify with the signer's certificate")
        self._timestamp(status, signing_time)
        self._coverage(status)
        self._signing_revision()
        self._certificate(cert, signing_time)
        issuer = _asn1_name(cert, True)
        if not (status.intact and status.valid):
            report.trusted = None
            report.add("trust", None, f"not checked: the signature itself does not hold (signer {report.signer}, "
                                      f"issued by {issuer})")
        elif not self.roots:
            report.trusted = False
            report.add("trust", False, f"signer {report.signer} (issued by {issuer}; certificate SHA-256 "
                                       f"{fingerprint[:16]}...) is not checked against any trust "
                                       f"root: give --trust CA.pem or set {TRUST_ENV} to a folder of trusted "
                                       "certificates")
        elif status.trusted:
            report.trusted = True
            path = status.validation_path
            anchor_name = path.trust_anchor.authority.name.human_friendly if path is not None else None
            report.add("trust", True, "the certificate chains to the trust root "
                       + (repr(anchor_name) if anchor_name else "given")
                       + f" at the signing time ({_when(signing_time)})")
        else:
            report.trusted = False
            problem = getattr(status, "trust_problem_indic", None)
            report.add("trust", False, f"signer {report.signer} (issued by {issuer}) does not chain to any of the "
                                       f"{len(self.roots)} trust root(s) at the signing time"
                       + (f" ({getattr(problem, 'name', problem)})" if problem else ""))
        try:
            self._revocation(embedded, status, signing_time)
        except Exception as exc:  # a malformed token or DSS: reported, never raised past the report
            report.add("revocation", False, f"the validation data cannot be read: {_reason(exc)}")

    def _coverage(self, status: Any) -> None:
        """The signature covers every byte of the file; or, for PAdES B-LT, every byte up to the end of its own
        revision, followed by one update that pyHanko's difference analysis finds adds validation data only
        (LTA_UPDATES: the Document Security Store) and that changes nothing else (`_dss_only`)."""
        from pyhanko.sign.diff_analysis import ModificationLevel

        report = self.report
        coverage = getattr(status.coverage, "name", str(status.coverage))
        if getattr(status, "docmdp_ok", None) is False:
            report.add("coverage", False, "pyHanko finds the changes after the signature not permitted by it")
            return
        if not self.dss_update:
            level = status.modification_level
            if coverage == "ENTIRE_FILE" and level in (None, ModificationLevel.NONE):
                report.add("coverage", True, "the signature covers the whole file; no revision follows it")
            else:
                report.add("coverage", False, f"the signature does not cover the whole file (coverage "
                                              f"{coverage.lower()})")
            return
        level = status.modification_level
        if coverage != "ENTIRE_REVISION":
            report.add("coverage", False, f"the signature does not cover its own revision (coverage {coverage.lower()})")
        elif level != ModificationLevel.LTA_UPDATES:
            report.add("coverage", False, "the update after the signature is not validation data alone: pyHanko's "
                                          "difference analysis rates it "
                                          + (level.name if level is not None else "unknown"))
        elif (problem := self._validation_data_problem()) is not None:
            report.add("coverage", False, f"the update after the signature is not validation data alone: {problem}")
        else:
            report.add("coverage", True, f"the signature covers every byte up to the end of its revision "
                                         f"({self.signature_end:,}); after it, one update adds validation data "
                                         "(the Document Security Store) and changes nothing else")

    def _signing_revision(self) -> None:
        """The signature's own revision adds the signature and its field, nothing else (pyHanko's difference
        analysis, applied to the signing revision against the rendering before it)."""
        from rulegen.filing.signing_revision import SIGNATURE_FIELD, signing_revision_problem

        problem = signing_revision_problem(self.reader, SIGNATURE_FIELD)
        if problem is None:
            self.report.add("revision", True, f"the signing revision adds the signature field {SIGNATURE_FIELD!r} "
                                              "and its signature, and changes nothing of the rendering")
        else:
            self.report.add("revision", False, "the signing revision changes the document beyond adding the "
                                               f"signature: {problem}")

    def _validation_data_problem(self) -> str | None:
        try:
            return self._dss_only() or self._dss_form() or self._dss_items()
        except Exception as exc:  # a damaged update: reported, never raised past the report
            return f"it cannot be read: {_reason(exc)}"

    def _dss_form(self) -> str | None:
        """The update is byte for byte the one rulegen writes for the validation data it holds."""
        from rulegen.filing.dss import dss_contents, validation_data_update

        assert self.signature_end is not None
        certs, ocsps, crls = dss_contents(self.reader)
        expected = validation_data_update(self.data[: self.signature_end], certs, ocsps, crls)
        if expected == self.data:
            return None
        first = next((i for i, (a, b) in enumerate(zip(expected, self.data)) if a != b),
                     min(len(expected), len(self.data)))
        return (f"it is not in the form rulegen writes for the validation data it holds: byte {first:,} differs "
                f"({len(self.data):,} bytes, {len(expected):,} expected)")

    def _dss_items(self) -> str | None:
        """Every certificate, CRL and OCSP response in the Document Security Store reads, and its own signature
        checks against a certificate the filing or the trust roots hold: the store is unsigned, so a changed byte
        in an item nobody needs would otherwise pass unseen."""
        from asn1crypto import crl as asn1_crl, ocsp as asn1_ocsp, x509 as asn1_x509

        from rulegen.filing.pdf import unverifiable_certificates

        dss = self.reader.root["/DSS"]

        def blobs(key: str) -> list[bytes]:
            return [ref.get_object().data for ref in (dss.get(key) or [])]

        try:
            certs = [asn1_x509.Certificate.load(b, strict=True) for b in blobs("/Certs")]
            crls = [asn1_crl.CertificateList.load(b, strict=True) for b in blobs("/CRLs")]
            ocsps = [asn1_ocsp.OCSPResponse.load(b, strict=True) for b in blobs("/OCSPs")]
            for item in [*certs, *crls, *ocsps]:
                item.native  # parse fully: a damaged item fails here
        except Exception as exc:
            return f"an item of the Document Security Store does not read: {_reason(exc)}"
        embedded = self.signatures[0]
        pool = certs + list(embedded.other_embedded_certs) + [embedded.signer_cert] \
            + _timestamp_certificates(embedded.signer_info)
        bad = unverifiable_certificates(certs, pool, self.roots)
        if bad:
            return "the Document Security Store holds certificate(s) whose own signature does not check: " \
                + ", ".join(bad)
        for index, crl in enumerate(crls):
            if not _signed_by_one_of(crl["tbs_cert_list"].dump(), crl, pool + list(self.roots),
                                     crl["tbs_cert_list"]["issuer"]):
                return f"CRL {index + 1} of the Document Security Store is not signed by its issuer"
        for index, response in enumerate(ocsps):
            basic = response.basic_ocsp_response
            responders = list(basic["certs"] or [])
            if unverifiable_certificates(responders, pool + responders, self.roots):
                return f"OCSP response {index + 1} of the Document Security Store carries a certificate that does not check"
            if not _signed_by_one_of(basic["tbs_response_data"].dump(), basic, pool + responders + list(self.roots),
                                     None, basic["tbs_response_data"]["responder_id"]):
                return f"OCSP response {index + 1} of the Document Security Store is not signed by its responder"
        return None

    def _dss_only(self) -> str | None:
        """The last revision changes the catalog's /DSS entry and adds objects reachable from it, nothing else.
        pyHanko's LTA_UPDATES also admits new document timestamps and new signature fields; a rulegen filing
        has neither."""
        from pyhanko.pdf_utils import generic

        reader = self.reader
        last = reader.xrefs.total_revisions - 1
        root_ref = reader.trailer.raw_get("/Root")
        if not isinstance(root_ref, generic.IndirectObject):
            return "the catalog is not an indirect object"
        dss_ref = reader.root.raw_get("/DSS") if "/DSS" in reader.root else None
        if dss_ref is None:
            return "it holds no Document Security Store"
        previous = reader.get_historical_root(last - 1)
        before = {k: v for k, v in previous.items() if k != "/DSS"}
        now = {k: v for k, v in reader.root.items() if k != "/DSS"}
        if set(before) != set(now) or any(reader.root.raw_get(k) != previous.raw_get(k) for k in before):
            return "it changes the document catalog beyond its /DSS entry"
        reachable: set[tuple[int, int]] = set()
        pending: list[Any] = [dss_ref]
        while pending and len(reachable) < 10_000:
            item = pending.pop()
            if isinstance(item, generic.IndirectObject):
                if (item.idnum, item.generation) in reachable:
                    continue
                reachable.add((item.idnum, item.generation))
                item = cast(Any, item).get_object()  # pyHanko leaves get_object unannotated
            if isinstance(item, generic.DictionaryObject):  # a stream is a dictionary too
                pending.extend(item.raw_get(k) for k in item)
            elif isinstance(item, generic.ArrayObject):
                pending.extend(item.raw_get(i) for i in range(len(item)))
        for entry in ("/Root", "/Info", "/Encrypt"):
            if _raw_or_none(reader.trailer, entry, None) != _raw_or_none(reader.trailer, entry, last - 1):
                return f"it changes the trailer's {entry} entry"
        xref_stream = reader.xrefs.get_xref_container_info(last).stream_ref
        earlier = {(r.idnum, r.generation) for rev in range(last) for r in reader.xrefs.explicit_refs_in_revision(rev)}
        for ref in reader.xrefs.explicit_refs_in_revision(last):
            key = (ref.idnum, ref.generation)
            if key == (root_ref.idnum, root_ref.generation) or ref == xref_stream:
                continue
            if key not in reachable:
                return f"it changes object {ref.idnum} {ref.generation}, which the Document Security Store does not hold"
            if key in earlier:
                return f"it rewrites object {ref.idnum} {ref.generation} of the signed document"
        return None

    def _revocation(self, embedded: Any, status: Any, signing_time: _dt.datetime | None) -> None:
        """The PAdES level, and with a Document Security Store (B-LT) the proof it carries: every certificate below
        the root in the signer's chain and in the timestamp authority's is shown not revoked at the signature's
        time by the CRLs and OCSP responses the file holds. Offline: nothing is fetched, whatever the
        certificates name."""
        import asyncio

        from pyhanko.sign.validation import DocumentSecurityStore
        from pyhanko_certvalidator import CertificateValidator
        from pyhanko_certvalidator.errors import PathBuildingError, RevokedError

        report = self.report
        stamp = getattr(status, "timestamp_validity", None)
        try:
            dss = DocumentSecurityStore.read_dss(self.reader) if "/DSS" in self.reader.root else None
            certs, ocsps, crls = (len(dss.certs), len(dss.ocsps), len(dss.crls)) if dss else (0, 0, 0)
        except Exception as exc:
            report.add("revocation", False, f"the Document Security Store cannot be read: {_reason(exc)}")
            return
        report.revocation_data = {"certificates": certs, "crls": crls, "ocsp_responses": ocsps}
        timestamped = stamp is not None
        report.pades_level = "B-LT" if timestamped and dss is not None and (crls or ocsps) else (
            "B-T" if timestamped else "B-B")
        if dss is None or not (crls or ocsps):
            report.add("revocation", None, "no revocation data is embedded (PAdES " + report.pades_level + "): "
                       "whether the certificate was revoked when it signed cannot be shown offline; "
                       "`rulegen build --sign ID.p12 --tsa URL` embeds it")
            return
        if not self.dss_update:
            report.add("revocation", False, "the Document Security Store is inside the signed revision; rulegen "
                                            "adds it after the signature")
            return
        trusted_time = self._trusted_timestamp()
        moment = trusted_time or signing_time
        held = f"{crls} CRL(s) and {ocsps} OCSP response(s)"
        if report.trusted is not True:
            report.add("revocation", None, f"{held} embedded; not checked: the signer does not chain to a trust root")
            return
        if moment is None:
            report.add("revocation", False, "the signature reports no time to check the revocation data at")
            return
        chains: list[tuple[str, Any, list[Any], set[str]]] = [
            (f"the signer {report.signer}", embedded.signer_cert, list(embedded.other_embedded_certs), set())]
        if stamp is not None and trusted_time is not None:
            token_certs = _timestamp_certificates(embedded.signer_info)
            chains.append((f"the timestamp authority {report.timestamp_authority}", stamp.signing_cert, token_certs,
                           {"time_stamping"}))
        checked = []
        for label, cert, intermediates, extended in chains:
            context = dss.as_validation_context({
                "trust_roots": list(self.roots), "allow_fetching": False, "revocation_mode": "require",
                "moment": moment})
            validator: Any = CertificateValidator(cert, intermediate_certs=intermediates, validation_context=context)
            try:
                path = asyncio.run(validator.async_validate_usage(set(), extended))  # unannotated in certvalidator
            except RevokedError as exc:
                report.add("revocation", False, f"the embedded revocation data shows a certificate of {label} "
                                                f"revoked before the signature's time ({_when(moment)}): "
                                                f"{_first_line(exc)}")
                return
            except PathBuildingError as exc:
                report.add("revocation", False, f"the chain of {label} cannot be built from the filing and the trust "
                                                f"roots: {_first_line(exc)}")
                return
            except Exception as exc:
                report.add("revocation", False, f"the embedded revocation data does not show {label}'s certificates "
                                                f"good at the signature's time ({_when(moment)}): {_first_line(exc)}")
                return
            checked.append(f"{label} ({len(path) - 1} certificate(s) below the root)")
        report.revocation_status = "good"
        report.add("revocation", True, "PAdES B-LT: " + " and ".join(checked) + " were not revoked at the "
                   + ("timestamp's" if trusted_time else "signer's claimed") + f" time ({_when(moment)}), by the "
                   f"{held} the filing embeds; checked offline")

    def _timestamp(self, status: Any, signing_time: _dt.datetime | None) -> None:
        """The RFC 3161 timestamp a --tsa signature carries: its time, its authority, whether it holds."""
        report = self.report
        stamp = getattr(status, "timestamp_validity", None)
        if stamp is None:
            report.add("timestamp", None, "none: the signing time is the signer's own claim (sign with --tsa URL "
                                          "for an RFC 3161 timestamp)")
            return
        when = getattr(stamp, "timestamp", None)
        try:
            authority = _asn1_name(stamp.signing_cert)
        except Exception:
            authority = "an unnamed authority"
        report.timestamp = when.isoformat() if when else None
        report.timestamp_authority = authority
        if not (stamp.intact and stamp.valid):
            report.add("timestamp", False, f"the timestamp token from {authority} does not verify: it was changed "
                                           "or does not belong to this signature")
        elif not stamp.trusted:
            report.add("timestamp", False, f"the timestamp authority {authority} does not chain to a trust root "
                                           "(--trust or RULEGEN_TRUST)")
        else:
            drift = abs((when - signing_time).total_seconds()) if when and signing_time else None
            report.add("timestamp", True, f"RFC 3161 timestamp {_when(when)} by {authority}, intact, valid and "
                                          "trusted" + (f"; the signer's own claim differs by {drift:.0f} s"
                                                       if drift is not None and drift >= 1 else ""))

    def _certificate(self, cert: Any, signing_time: _dt.datetime | None) -> None:
        report = self.report
        validity = cert["tbs_certificate"]["validity"]
        not_before, not_after = validity["not_before"].native, validity["not_after"].native
        if signing_time is None:
            report.add("certificate", False, "the signature reports no signing time")
        elif signing_time > not_after:
            report.add("certificate", False, f"the certificate had expired ({_when(not_after)}) when the filing was "
                                             f"signed ({_when(signing_time)})")
        elif signing_time < not_before:
            report.add("certificate", False, f"the certificate was not yet valid ({_when(not_before)}) when the "
                                             f"filing was signed ({_when(signing_time)})")
        elif (stamp_time := self._trusted_timestamp()) is not None and not (not_before <= stamp_time <= not_after):
            report.add("certificate", False, f"the certificate was not valid ({_when(not_before)} to "
                                             f"{_when(not_after)}) at the timestamp's time ({_when(stamp_time)}), "
                                             "whatever time the signer claims")
        else:
            stamped = any(c.name == "timestamp" and c.ok for c in report.checks)
            report.add("certificate", True, f"valid from {_when(not_before)} to {_when(not_after)}, so at the "
                                            "signing time" + (" (the signer's claim; the timestamp above dates the "
                                                              "signature independently)" if stamped else
                                                              " (the signer's own claim: no timestamp authority)"))

    def _trusted_timestamp(self) -> _dt.datetime | None:
        if self.report.timestamp is None or not any(c.name == "timestamp" and c.ok for c in self.report.checks):
            return None
        return _dt.datetime.fromisoformat(self.report.timestamp)

    # --- what the filing carries -------------------------------------------------------------------------------

    def _attachments(self) -> None:
        from rulegen.filing.pdf import embedded_files

        report = self.report
        try:
            files = embedded_files(self.reader)
        except Exception as exc:
            report.add("manifest", False, f"the attachments cannot be read: {_reason(exc)}")
            return
        for item in files:
            if item.name in self.attachments:
                report.add("attachments", False, f"{item.name!r} is attached twice")
                return
            self.attachments[item.name] = item.data
            if item.declared_size is not None and item.declared_size != len(item.data):
                report.add("attachments", False, f"{item.name!r} declares {item.declared_size} bytes but holds "
                                                 f"{len(item.data)}")
        raw = self.attachments.get(MANIFEST_NAME)
        if raw is None:
            report.add("manifest", False, f"no {MANIFEST_NAME} is attached; this is not a rulegen filing, or it "
                                          "was built without one")
            return
        try:
            manifest = json.loads(raw.decode("utf-8"))
        except Exception as exc:
            report.add("manifest", False, f"the attached {MANIFEST_NAME} is not JSON: {_reason(exc)}")
            return
        if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
            report.add("manifest", False, f"the attached {MANIFEST_NAME} is not a {MANIFEST_FORMAT} manifest")
            return
        if canonical_json(manifest) != raw:
            report.add("manifest", False, f"the attached {MANIFEST_NAME} is not in canonical form (sorted keys, "
                                          "fixed separators): it was not written by rulegen as it stands")
            return
        self.manifest = report.manifest = manifest
        head = _dict(manifest.get("offering"))
        report.add("manifest", True, f"attached, canonical, {len(raw):,} bytes (SHA-256 {sha256(raw)[:16]}...)")

        offering = head
        expected: dict[str | None, dict[str, Any]] = {_str(offering.get("file")): offering}
        if manifest.get("logo"):
            logo = _dict(manifest["logo"])
            expected[_str(logo.get("file"))] = logo
        for name, entry in expected.items():
            label = "offering" if entry is offering else "logo"
            content = self.attachments.get(name) if name is not None else None
            if content is None:
                report.add(label, False, f"{name!r} is named in the manifest but not attached")
            elif sha256(content) != entry.get("sha256"):
                report.add(label, False, f"the attached {name!r} does not match the manifest's SHA-256 "
                                         f"({sha256(content)[:16]}... attached, {str(entry.get('sha256'))[:16]}... "
                                         "recorded)")
            else:
                report.add(label, True, f"the attached {name!r} ({len(content):,} bytes) matches the manifest")
                if label == "offering":
                    report.offering_source, report.offering_name = content, name
                    self._identity(content, name or "offering.yaml", manifest)
        extra = sorted(set(self.attachments) - set(expected) - {MANIFEST_NAME})
        if extra:
            report.add("attachments", False, "attached but not in the manifest: " + ", ".join(map(repr, extra)))

    def _identity(self, source: bytes, name: str, manifest: dict[str, Any]) -> None:
        """Which offering this is (id, jurisdiction, revision, effective date, operator) is read from the signed,
        attached offering, never from the manifest; a manifest that says otherwise fails."""
        from rulegen.filing.manifest import IDENTITY_FIELDS, offering_identity
        from rulegen.offering import parse_offering

        report = self.report
        try:
            offering = parse_offering(source, name)
        except Exception as exc:
            report.add("identity", False, f"the attached offering cannot be read: {_reason(exc)}")
            return
        identity = offering_identity(offering)
        report.offering_id = _text_or_none(identity["id"])
        report.jurisdiction = _text_or_none(identity["jurisdiction"])
        version = identity["version"]
        report.revision = version if isinstance(version, (int, str)) and not isinstance(version, bool) else None
        report.effective_date = _text_or_none(identity["effective_date"])
        report.operator = _operator_of(source)
        head = _dict(manifest.get("offering"))
        wrong = [f"{field} {head.get(field)!r} (the offering says {identity[field]!r})" for field in IDENTITY_FIELDS
                 if head.get(field) != identity[field]]
        if manifest.get("date") != identity["effective_date"]:
            wrong.append(f"date {manifest.get('date')!r} (the offering's effective date is "
                         f"{identity['effective_date']!r})")
        true = (f"{report.offering_id} revision {report.revision} for {report.jurisdiction}, effective "
                f"{report.effective_date}, operator {report.operator}")
        if wrong:
            report.add("identity", False, f"the manifest claims another identity than the signed offering's ({true}): "
                       + "; ".join(wrong))
        else:
            report.add("identity", True, f"read from the signed offering: {true}; the manifest says the same")

    def _final(self) -> None:
        report, manifest = self.report, self.manifest
        if manifest is None:
            return
        options = _dict(manifest.get("options"))
        roles = {str(s.get("role")) for s in _list(manifest.get("signoffs")) if isinstance(s, dict)}
        missing = [role for role in SIGNOFF_ROLES if role not in roles]
        if not options.get("final"):
            report.add("final", False, "built as a draft (no --final); every page says DRAFT")
            return
        if missing:
            report.add("final", False, "built --final without the sign-off of " + ", ".join(missing))
            return
        report.final = True
        recorded = _recorded_signer(manifest)
        if report.signed and recorded is not None and self.certificate_name is not None:
            if not _same_name(recorded, self.certificate_name):
                report.add("final", False, f"the sign-off page names the signer {recorded!r}, but the filing is "
                                           f"signed by {self.certificate_name!r}")
                return
        report.add("final", True, "built --final with the sign-off of " + ", ".join(SIGNOFF_ROLES)
                   + (f"; signer recorded as {recorded!r}" if recorded else ""))

    def _outputs(self) -> None:
        """The whole package: the folder holds the filing, manifest.json and every output the manifest lists,
        each matching it, and nothing else."""
        report, manifest = self.report, self.manifest
        if manifest is None:
            return
        folder = self.path.parent
        matched: list[str] = []
        missing: list[str] = []
        wrong: list[str] = []
        listed = _dict(manifest.get("outputs"))
        for name, entry in sorted(listed.items()):
            if "/" in name or "\\" in name or name.startswith("."):
                wrong.append(f"{name!r} (not a plain file name)")
                continue
            sibling = folder / name
            if not os.path.lexists(sibling):
                missing.append(name)
                continue
            try:
                digest = hashlib.sha256(_read(sibling, follow_symlinks=False)).hexdigest()
            except InputError as exc:  # a link out of the folder, a FIFO, a 20 GiB file: reported, not followed
                wrong.append(f"{name} ({exc.message.split(': ', 1)[-1]})")
                continue
            (matched if isinstance(entry, dict) and digest == entry.get("sha256") else wrong).append(name)
        beside = folder / MANIFEST_NAME
        if self.path.name != MANIFEST_NAME:
            if not beside.is_file():
                missing.append(MANIFEST_NAME)
            else:
                try:
                    same = _read(beside, follow_symlinks=False) == self.attachments.get(MANIFEST_NAME)
                except InputError:
                    same = False
                (matched if same else wrong).append(MANIFEST_NAME)
        expected = set(listed) | {MANIFEST_NAME, self.path.name}
        try:
            present = sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir())
        except OSError as exc:
            report.add("outputs", False, f"the filing's folder cannot be listed: {exc.strerror or exc}")
            return
        extra = [name for name in present if name.rstrip("/") not in expected]
        problems = []
        if wrong:
            problems.append("changed since the build: " + ", ".join(wrong))
        if missing:
            problems.append("listed in the manifest but missing: " + ", ".join(missing))
        if extra:
            problems.append("in the filing's folder but not in the manifest: " + ", ".join(extra[:8])
                            + (f" and {len(extra) - 8} more" if len(extra) > 8 else ""))
        if problems:
            report.add("outputs", False, "the package is not as built: " + "; ".join(problems))
        else:
            report.add("outputs", True, f"the whole package is present and matches the manifest: {self.path.name}, "
                       + ", ".join(matched) + ", nothing else")

    def _rules(self) -> None:
        """The embedded offering against the rules shipped now: which data changed, which findings moved."""
        from rulegen import __version__

        report, manifest = self.report, self.manifest
        if manifest is None:
            return
        entry = _dict(manifest.get("offering"))
        source = self.attachments.get(_str(entry.get("file")) or "")
        if source is None or sha256(source) != entry.get("sha256"):
            return  # already failed above
        recorded = _dict(manifest.get("data"))
        now: dict[str, Any] = data_hashes(_str(entry.get("jurisdiction")))
        old_files, new_files = _dict(recorded.get("files")), _dict(now["files"])
        changed = sorted(n for n in set(old_files) | set(new_files) if old_files.get(n) != new_files.get(n))
        built_with = _dict(manifest.get("software")).get("rulegen")
        moved = bool(changed) or built_with != __version__
        try:
            logo_name = _str(_dict(manifest.get("logo")).get("file"))
            logo = (logo_name, self.attachments.get(logo_name, b"")) if logo_name is not None else None
            findings = _findings_now(source, _str(entry.get("file")) or "offering.yaml", logo, str(now["sha256"]))
        except Exception as exc:
            report.add("rules", False, f"the attached offering cannot be checked now: {_reason(exc)}")
            return
        recorded_findings = [f for f in _list(manifest.get("findings")) if isinstance(f, dict)]
        old = {_finding_key(f) for f in recorded_findings}
        new = {_finding_key(f): f for f in findings}
        appeared = [f for key, f in new.items() if key not in old]
        gone = [key for key in old if key not in new]
        errors_now = [f for f in findings if f.get("level") == "error"]
        errors_then = [f for f in recorded_findings if f.get("level") == "error"]
        parts: list[str] = []
        if changed:
            parts.append(f"{len(changed)} data file(s) changed since the build: " + ", ".join(changed[:8])
                         + (" ..." if len(changed) > 8 else ""))
        if built_with != __version__:
            parts.append(f"built with rulegen {built_with}, checked with {__version__}")
        if appeared:
            parts.append("new finding(s): " + " | ".join(_finding_text(f) for f in appeared[:6]))
        if gone:
            parts.append(f"{len(gone)} finding(s) of the build no longer appear")
        if errors_then:
            report.add("rules", False, f"the manifest records {len(errors_then)} error(s): a filing with errors is "
                                       "not a valid submission")
        elif errors_now and not moved:
            report.add("rules", False, "the attached offering does not validate, yet the rules have not changed "
                                       "since the build: " + "; ".join(parts))
        elif parts and moved:
            report.add("rules", True, "the rules moved since the build: " + "; ".join(parts)
                       + (" — the offering no longer validates" if errors_now else ""), warning=True)
        elif appeared or gone:
            report.add("rules", False, "the findings recorded in the manifest differ from the ones this rulegen "
                                       "finds with the same rules: " + "; ".join(parts))
        else:
            report.add("rules", True, f"the attached offering validates as it did at the build ({len(findings)} "
                                      "finding(s), none an error), against unchanged jurisdiction data and schemas")

    def _reproduce(self, renderer: Reproducer) -> None:
        """The whole package again, from the signature and the signed, attached offering (and logo) alone: every
        file a build of that offering gives here must equal the filing's, byte for byte; rules.pdf is compared up
        to the signature's own update (the revision the signature covers). Skipped, and the filing not VERIFIED,
        when the renderer or the data here are not the ones the manifest records: the verdict names them."""
        report, manifest = self.report, self.manifest
        if manifest is None or report.offering_source is None:
            report.add("reproduce", False, "not attempted: the filing has no readable manifest or no attached "
                                           "offering matching it, so there is nothing to reproduce it from")
            return
        if not report.signed or self.signed_prefix_end is None:
            report.add("reproduce", None, "not attempted: the filing carries no signed rendering to compare")
            return
        differ = _environment_differs(manifest, report.jurisdiction, renderer.versions())
        if differ:
            report.unreproducible = differ
            report.add("reproduce", False, "the filing cannot be reproduced here, so it cannot be verified here: "
                                           + differ)
            return
        logo_name = _str(_dict(manifest.get("logo")).get("file"))
        logo = (logo_name, self.attachments.get(logo_name, b"")) if logo_name is not None else None
        options = _dict(manifest.get("options"))
        signer = self.certificate_name or _recorded_signer(manifest)
        try:
            fresh = _reproduction(renderer, report.offering_source, report.offering_name or "offering.yaml", logo,
                                  options, signer)
        except Exception as exc:
            findings = getattr(exc, "findings", None)
            errors = [f for f in findings or [] if getattr(f, "level", None) == "error"]
            if errors:
                report.add("reproduce", False, "the signed offering does not validate here, so no build of it "
                                               f"exists to compare with: {len(errors)} error(s), first: "
                                               f"{errors[0].format() if hasattr(errors[0], 'format') else errors[0]}")
            else:
                report.add("reproduce", False, f"the signed offering could not be built again: {_reason(exc)}")
            return
        folder = self.path.parent
        wrong: list[str] = []
        sizes: list[str] = []
        for name in REPRODUCED_FILES:
            want = fresh.get(name)
            if want is None:
                wrong.append(f"{name} (the renderer gave none)")
                continue
            if name == "rules.pdf":
                have: bytes | None = self.data[: self.signed_prefix_end]
                label = "rules.pdf (the signed revision)"
            else:
                try:
                    have = _read(folder / name, follow_symlinks=False)
                except InputError:
                    have = None
                label = name
            if name == MANIFEST_NAME and self.attachments.get(MANIFEST_NAME) != want:
                wrong.append(f"{MANIFEST_NAME} attached to rules.pdf ({_first_difference(self.attachments.get(MANIFEST_NAME), want)})")
            if have != want:
                wrong.append(f"{label} ({_first_difference(have, want)})")
            else:
                sizes.append(f"{label} {len(want):,} bytes")
        if wrong:
            report.add("reproduce", False, "not what the signed offering builds: " + "; ".join(wrong)
                       + _manifest_differences(self.attachments.get(MANIFEST_NAME), fresh.get(MANIFEST_NAME)))
        else:
            report.reproduced = True
            report.add("reproduce", True, "rulegen built the signed offering again and reproduced every byte: "
                       + ", ".join(sizes))


_REPRODUCTIONS: dict[str, dict[str, bytes]] = {}


def _reproduction(renderer: Reproducer, source: bytes, name: str, logo: tuple[str, bytes] | None,
                  options: dict[str, Any], signer: str | None) -> dict[str, bytes]:
    """The renderer's files for these inputs, remembered for the run: checking many copies of one filing (or
    copies that differ only in what the reproduction does not read) builds it once."""
    from rulegen.filing.manifest import software_versions

    inputs: dict[str, Any] = {"source": source, "name": name, "logo": [logo[0], logo[1]] if logo else None,
                              "options": options, "signer": signer,
                              "software": software_versions(renderer.versions()),
                              "data": data_hashes(None)["sha256"], "renderer": repr(renderer)}
    key = sha256(canonical_json(inputs))
    if key not in _REPRODUCTIONS:
        fresh = renderer(source=source, name=name, logo=logo, options=options, signer=signer)
        if len(_REPRODUCTIONS) >= 4:
            _REPRODUCTIONS.clear()
        _REPRODUCTIONS[key] = {k: bytes(v) for k, v in fresh.items()}
    return dict(_REPRODUCTIONS[key])


def _environment_differs(manifest: dict[str, Any], jurisdiction: str | None,
                         renderer_versions: RendererVersions) -> str | None:
    """What differs between the software and data the manifest records and those installed here (the renderer's
    libraries: `renderer_versions`), as what to install; None when they are the same (a reproduction can then be
    byte for byte)."""
    from rulegen.filing.manifest import software_versions

    then, now = _dict(manifest.get("software")), software_versions(renderer_versions)
    labels = {"rulegen": "rulegen", "weasyprint": "WeasyPrint", "pydyf": "pydyf", "pango": "Pango"}
    differ = [f"{labels[k]} {then.get(k)} (here {now.get(k)})" for k in labels if then.get(k) != now.get(k)]
    parts = []
    if differ:
        parts.append("it was built with " + ", ".join(differ))
    if then.get("fonts") != now.get("fonts"):
        parts.append(f"the fonts it was built with are not the ones rulegen {now.get('rulegen')} ships")
    recorded = _dict(manifest.get("data"))
    here = data_hashes(jurisdiction)
    if recorded.get("sha256") != here["sha256"] or recorded.get("files") != here["files"]:
        old, new = _dict(recorded.get("files")), _dict(here["files"])
        changed = sorted(n for n in set(old) | set(new) if old.get(n) != new.get(n))
        parts.append(f"the jurisdiction data and schemas differ from the build's ({len(changed)} file(s): "
                     + ", ".join(changed[:6]) + (" ..." if len(changed) > 6 else "") + ")")
    if not parts:
        return None
    install = [f"rulegen=={then.get('rulegen')}", f"weasyprint=={then.get('weasyprint')}",
               f"pydyf=={then.get('pydyf')}"]
    return ("; ".join(parts) + ". To verify it, install the versions it was built with: pip install "
            + " ".join(install) + f", with Pango {then.get('pango')} (a system library) and the jurisdiction data "
            f"rulegen {then.get('rulegen')} ships")


def _first_difference(have: bytes | None, want: bytes) -> str:
    if have is None:
        return "missing"
    first = next((i for i, (a, b) in enumerate(zip(have, want)) if a != b), min(len(have), len(want)))
    return f"differs from byte {first:,}: {len(have):,} bytes in the filing, {len(want):,} built"


def _manifest_differences(attached: bytes | None, fresh: bytes | None) -> str:
    """Which fields of the attached manifest are not the ones the build of the signed offering records."""
    try:
        old, new = json.loads(attached or b"{}"), json.loads(fresh or b"{}")
    except ValueError:
        return ""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return ""
    fields: list[str] = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            fields.extend(f"{key}.{k}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
        else:
            fields.append(key)
    return (" — the manifest differs in " + ", ".join(fields[:10]) + (" ..." if len(fields) > 10 else "")) if fields \
        else ""


_FINDINGS_CACHE: dict[tuple[str | None, ...], list[dict[str, Any]]] = {}


def _findings_now(source: bytes, name: str, logo: tuple[str, bytes] | None,
                  data_sha256: str) -> list[dict[str, Any]]:
    """The findings validation gives the offering today. The offering (and its logo) are written to a private
    temporary folder first, so checks that look beside the file see what the build saw. Remembered per
    content, since checking many copies of one filing would otherwise validate each time."""
    import tempfile
    from pathlib import PurePosixPath

    from rulegen.offering import OfferingLoadError, load_offering
    from rulegen.validate import validate_offering

    key = (sha256(source), name, sha256(logo[1]) if logo else None, logo[0] if logo else None, data_sha256)
    if key not in _FINDINGS_CACHE:
        safe_name = PurePosixPath(name).name or "offering.yaml"
        with tempfile.TemporaryDirectory(prefix="rulegen-verify-") as folder:
            target = Path(folder) / safe_name
            target.write_bytes(source)
            if logo:
                relative = PurePosixPath(logo[0])
                if not relative.is_absolute() and ".." not in relative.parts and relative.parts:
                    (Path(folder) / relative).parent.mkdir(parents=True, exist_ok=True)
                    (Path(folder) / relative).write_bytes(logo[1])
            try:
                findings = [f.to_json() for f in validate_offering(load_offering(target, name))]
            except OfferingLoadError as exc:
                findings = [f.to_json() for f in exc.findings]
        if len(_FINDINGS_CACHE) > 64:
            _FINDINGS_CACHE.clear()
        _FINDINGS_CACHE[key] = findings
    return [dict(f) for f in _FINDINGS_CACHE[key]]


def _timestamp_certificates(signer_info: Any) -> list[Any]:
    """The certificates the signature's RFC 3161 timestamp token carries (asn1crypto)."""
    found: list[Any] = []
    unsigned = signer_info["unsigned_attrs"]
    if unsigned.native is None:
        return found
    for attribute in unsigned:
        if attribute["type"].native == "signature_time_stamp_token":
            for token in attribute["values"]:
                found.extend(c.chosen for c in token["content"]["certificates"] or [])
    return found


def _signed_by_one_of(tbs: bytes, signed: Any, candidates: list[Any], issuer: Any = None,
                      responder: Any = None) -> bool:
    """Whether the signature over `tbs` (a CRL's or an OCSP response's) checks with the key of one of the
    `candidates` (asn1crypto certificates) named by `issuer` (a Name) or `responder` (an OCSP ResponderId)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
    from cryptography.x509 import load_der_x509_certificate

    algorithm = signed["signature_algorithm"]
    digest = {"sha1": hashes.SHA1(), "sha256": hashes.SHA256(), "sha384": hashes.SHA384(),
              "sha512": hashes.SHA512()}.get(algorithm.hash_algo)
    if signed["signature"].contents[:1] != b"\x00":  # a signature is whole bytes: a count of unused bits is a change
        return False
    value = signed["signature"].native
    for candidate in candidates:
        if issuer is not None and candidate.subject != issuer:
            continue
        if responder is not None:
            if responder.name == "by_name" and candidate.subject != responder.chosen:
                continue
            if responder.name == "by_key" and candidate.public_key.sha1 != responder.chosen.native:
                continue
        try:
            key = load_der_x509_certificate(candidate.dump()).public_key()
            if digest is None:
                continue
            if isinstance(key, rsa.RSAPublicKey):
                key.verify(value, tbs, padding.PKCS1v15(), digest)
            elif isinstance(key, ec.EllipticCurvePublicKey):
                key.verify(value, tbs, ec.ECDSA(digest))
            else:
                continue
            return True
        except Exception:
            continue
    return False


def _raw_or_none(trailer: Any, key: str, revision: int | None) -> Any:
    try:
        return trailer.raw_get(key, revision=revision)
    except KeyError:
        return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _dict(value: object) -> dict[str, Any]:
    """A manifest's mapping, or an empty one where the (untrusted) manifest holds something else."""
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _text_or_none(value: object) -> str | None:
    return None if value is None or isinstance(value, (dict, list)) else str(value)


def _operator_of(source: bytes) -> str | None:
    """The operator's name in the attached offering (the manifest does not record it); None if unreadable."""
    from ruamel.yaml import YAML

    try:
        data = YAML(typ="safe", pure=True).load(source.decode("utf-8"))
        return _text_or_none(data["offering"]["operator"]["name"])
    except Exception:
        return None


def _recorded_signer(manifest: dict[str, Any]) -> str | None:
    for entry in _list(manifest.get("signoffs")):
        if isinstance(entry, dict) and entry.get("role") in ("signature", "signed", "signer"):
            return _str(entry.get("name")) or _str(entry.get("certificate"))
    signing = _dict(manifest.get("options")).get("signer")
    return signing if isinstance(signing, str) else None


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _asn1_name(cert: Any, issuer: bool = False) -> str:
    """Common name, then organization, as signer_name() prints them."""
    name = cert.issuer if issuer else cert.subject
    native = name.native
    common, organization = native.get("common_name"), native.get("organization_name")
    if isinstance(common, list):
        common = common[0]
    if isinstance(organization, list):
        organization = organization[0]
    if common and organization:
        return f"{common}, {organization}"
    return str(common or organization or name.human_friendly)


def _when(moment: _dt.datetime | None) -> str:
    return "an unknown time" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S %Z").strip()


def _finding_key(finding: dict[str, Any]) -> tuple[Any, ...]:
    return (finding.get("level"), finding.get("field"), finding.get("message"), finding.get("citation"))


def _finding_text(finding: dict[str, Any]) -> str:
    text = f"{finding.get('level')}: {finding.get('message')}"
    return text + (f" [{finding['citation']}]" if finding.get("citation") else "")


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
