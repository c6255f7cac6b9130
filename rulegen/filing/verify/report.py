"""What `rulegen verify` says of one filing: each check with its reason, and the verdict, status and exit code
they add up to (`VerifyReport`, also as `--format json`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from rulegen.errors import ExitCode
from rulegen.filing.manifest import Manifest


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
    signer_organization: str | None = None  # the organisation the signer's certificate names, if any
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
    manifest: Manifest | None = field(default=None, repr=False)
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
        warned = " (warning: " + "; ".join(f"{c.name}: {c.detail}" for c in self.warnings) + ")" \
            if self.warnings else ""
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
