"""Verifying a register entry again, from the command line (`rulegen register reverify`), as the desk's button does
for a filing it archived: the filing is verified in full once more with the trust roots of today, and the
re-verification is recorded beside the entry (`register_rechecks`), whose verdict on receipt stays as it was.

The filing is read where the entry says it was received from, or from the folder or file the caller names instead
(a package moved since). Its rules.pdf must still be the bytes the register recorded (their SHA-256): at the
recorded place, other bytes are a failed re-verification, recorded; at a place the caller names, other bytes are
another filing, refused without recording anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from rulegen.errors import ExitCode, InputError
from rulegen.filing.rebuild import Reproducer
from rulegen.filing.register import held_revision
from rulegen.filing.register_rechecks import latest_rechecks, record_recheck, recheck_of
from rulegen.filing.register_store import filings
from rulegen.filing.verify import PathsArgument, VerifyReport, load_trust_roots, trust_paths, verify_filing

DESK_PATH_PREFIX = "desk upload "  # how an entry the desk received names its filing (web/desk/intake.py uses it)


@dataclass
class Reverified:
    """A recorded re-verification of one register entry."""

    entry: int
    path: str
    status: str  # verified, untrusted, failed, ... (verify's statuses)
    was: str  # the entry's current status before (its latest re-verification's, else the one on receipt)
    received_status: str  # the verdict on receipt, which stays
    first_problem: str | None
    verdict: str
    trust_roots: int
    by: str | None
    report: VerifyReport

    @property
    def exit_code(self) -> int:
        return int(ExitCode.OK) if self.status == "verified" else int(ExitCode.INVALID)

    def to_json(self) -> dict[str, Any]:
        return {"entry": self.entry, "path": self.path, "status": self.status, "was": self.was,
                "received_status": self.received_status, "verdict": self.verdict,
                "first_problem": self.first_problem, "trust_roots": self.trust_roots, "by": self.by,
                "checks": [{"name": c.name, "status": c.status, "detail": c.detail} for c in self.report.checks],
                "exit_code": self.exit_code}


def reverify_entry(engine: Engine, entry: int, *, reproduce: Reproducer, trust: PathsArgument = None,
                   environ: Mapping[str, str] | None = None, source: str | Path | None = None,
                   by: str | None = None) -> Reverified:
    """Verify register entry `entry` again, in full, with today's trust roots (`trust` and RULEGEN_TRUST), and
    record it. InputError, with nothing recorded, when there is no such entry (exit 1), or the trust roots, the
    filing's place or `source` cannot be used, or `source` holds another filing (exit 2)."""
    with engine.connect() as connection:
        row = connection.execute(select(filings.c.id, filings.c.path, filings.c.status, filings.c.rules_sha256)
                                 .where(filings.c.id == entry)).first()
        if row is None:
            raise InputError(f"{entry}: no such entry in the register", exit_code=ExitCode.INVALID)
        latest = latest_rechecks(connection, [entry]).get(entry)
    was = str(latest["status"] if latest is not None else row.status)
    roots = load_trust_roots(trust_paths(trust, environ))  # unusable roots stop here, before anything is read
    recorded = str(row.path)
    path = Path(source) if source is not None else Path(recorded)
    if source is None and not path.exists():
        hint = ("it came in through the desk, which verifies it again from its archive (the filing's page); "
                if recorded.startswith(DESK_PATH_PREFIX) else "")
        raise InputError(f"entry {entry} was received from {recorded}, which no longer exists; {hint}give the "
                         "filing's folder or rules.pdf as it is now with --from PATH")
    try:
        report = verify_filing(path, roots=roots, reproduce=reproduce, previous=held_revision(engine))
    except InputError as exc:
        raise InputError(f"entry {entry}: {exc.message}; nothing recorded") from None
    changed = row.rules_sha256 is not None and report.rules_sha256 != row.rules_sha256
    if changed:
        received, now = str(row.rules_sha256), str(report.rules_sha256)
        if source is not None:
            raise InputError(f"{report.path} is not the filing entry {entry} recorded: its SHA-256 is {now[:16]}..., "
                             f"the register's {received[:16]}...; nothing recorded")
        check = report.add("received", False, f"the file at {report.path} no longer holds the bytes received "
                                              f"(SHA-256 {now[:16]}..., on receipt {received[:16]}...)")
        report.checks.remove(check)
        report.checks.insert(0, check)  # the first problem: whatever else fails follows from it
    kept = recheck_of(report)
    if changed:
        kept["status"] = "failed"  # however the changed file reads (an unsigned one included)
        kept["first_problem"] = f"received: {check.detail}"
    verdict = report.verdict if report.status == kept["status"] else f"FAILED: {kept['first_problem']}"
    record_recheck(engine, entry, by=by, **kept)
    return Reverified(entry=entry, path=report.path, status=kept["status"], was=was, received_status=str(row.status),
                      first_problem=kept["first_problem"], verdict=verdict, trust_roots=len(roots), by=by,
                      report=report)
