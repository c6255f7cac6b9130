"""The register of received filings (filing layer): what a regulator received, when, and what is wrong with it.

`add_filings` verifies each filing in full (as `rulegen verify` does: trust failing closed, every byte reproduced
from the signed offering), then records it with its
verdict, hashes, signer, finding counts and the diff to the previous revision of the same offering, and flags
what a reviewer must look at:

  duplicate        a verified filing of the same (offering id, revision) is already in the register: refused,
                   nothing recorded. Only a verified filing holds its (offering id, revision): a draft or a filing
                   that fails is recorded with its verdict but holds nothing, so it cannot keep the genuine
                   filing out, and the flags below compare with verified filings only
  revision-gap     revisions between the previous one received and this one are missing
  out-of-order     a later revision of the offering was received before this one
  effective-date   the effective date is earlier than the previous revision's
  jurisdiction     the jurisdiction differs from the previous revision's
  signer-operator  the signer's certificate names another organisation than the offering's operator (or none),
                   or signed a verified filing of another operator before
  operator         the operator differs from the previous revision's
  register-jurisdiction  the filing is for another jurisdiction than the register's (when it has one)
  changes-section  the "changes from revision N" section the filing prints is not the diff from revision N as the
                   register holds it (the one part of a filing's rendering that its own offering does not give,
                   so verify's reproduction takes it from the manifest)

The register is a SQLite file or a PostgreSQL database (see register_store); each filing is recorded in one
transaction under the register's write lock, so concurrent adds lose nothing and see each other.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, func, insert, select
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import IntegrityError

from rulegen.errors import ExitCode, InputError
from rulegen.filing.manifest import manifest_bytes, sha256
from rulegen.filing.register_rechecks import latest_rechecks
from rulegen.filing.register_store import filings, flags, settings, write_lock
from rulegen.filing.rebuild import Reproducer
from rulegen.filing.verify import VerifyReport, filing_paths, load_trust_roots, trust_paths, verify_filing

FLAG_TITLES = {
    "duplicate": "duplicate (offering id, revision): refused",
    "revision-gap": "gap in revisions",
    "out-of-order": "received out of order",
    "effective-date": "effective date earlier than the previous revision's",
    "jurisdiction": "jurisdiction changed",
    "signer-operator": "signer not the operator's",
    "operator": "operator changed",
    "register-jurisdiction": "another jurisdiction than the register's",
    "changes-section": "changes section not the diff from the previous revision",
}


@dataclass(frozen=True)
class Flag:
    kind: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "title": FLAG_TITLES.get(self.kind, self.kind), "message": self.message}


@dataclass
class AddResult:
    """What `register add` did with one path."""

    path: str
    report: VerifyReport
    entry: int | None = None  # the register's number for the filing; None when refused
    refused: str | None = None
    flags: list[Flag] = field(default_factory=list)
    previous: int | None = None
    changes: dict[str, Any] | None = None

    @property
    def status(self) -> str:
        return "refused" if self.refused else self.report.status

    @property
    def exit_code(self) -> int:
        if self.report.error is not None:
            return int(ExitCode.UNUSABLE)
        if self.refused or self.flags or self.report.exit_code:
            return int(ExitCode.INVALID)
        return int(ExitCode.OK)

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "entry": self.entry, "status": self.status, "refused": self.refused,
                "verdict": self.report.verdict, "offering_id": self.report.offering_id,
                "revision": self.report.revision, "flags": [f.to_json() for f in self.flags],
                "previous_entry": self.previous, "exit_code": self.exit_code}


# --- settings ------------------------------------------------------------------------------------------------------

def register_jurisdiction(engine: Engine) -> str | None:
    with engine.connect() as connection:
        value = connection.execute(select(settings.c.value).where(settings.c.key == "jurisdiction")).scalar()
    return None if value is None else str(value)


def set_jurisdiction(engine: Engine, code: str | None) -> None:
    """The register's jurisdiction: filings for another are flagged. None clears it."""
    with engine.begin() as connection:
        write_lock(connection)
        connection.execute(settings.delete().where(settings.c.key == "jurisdiction"))
        if code:
            connection.execute(insert(settings).values(key="jurisdiction", value=code.strip().upper()))


# --- adding --------------------------------------------------------------------------------------------------------

def add_filings(engine: Engine, paths: Iterable[Any], *, reproduce: Reproducer, trust: Any = None,
                environ: Any = None, progress: Callable[[AddResult], None] | None = None,
                clock: Callable[[], _dt.datetime] | None = None) -> list[AddResult]:
    """Verify and record every filing under `paths` (files and folders, as verify takes them).

    `reproduce` is the renderer full verification builds the signed offering again with (the command hands in
    `rulegen.assemble.reproduce_filing_for_verify`): only a filing whose every byte it reproduces is recorded as
    verified. It is not optional: the register has no integrity-only mode."""
    roots = load_trust_roots(trust_paths(trust, environ))
    results = []
    for path, problem in filing_paths(paths):
        if problem is not None:
            result = AddResult(str(path), VerifyReport(str(path), error=problem))
        else:
            try:
                report = verify_filing(path, roots=roots, reproduce=reproduce, previous=held_revision(engine))
            except InputError as exc:
                report = VerifyReport(str(path), error=exc.message)
            result = record(engine, report, clock=clock)
        results.append(result)
        if progress is not None:
            progress(result)
    return results


def held_revision(engine: Engine) -> Callable[[str, int], Any]:
    """Revision N of an offering as the register holds it (its verified filing's offering), for verify to check a
    "changes from revision N" section against; None when the register holds no verified revision N."""
    def held(offering_id: str, revision: int) -> Any:
        from rulegen.offering import OfferingLoadError, parse_offering

        if not -INTEGER_MAX <= revision <= INTEGER_MAX:
            return None
        with engine.connect() as connection:
            row = connection.execute(select(filings.c.offering_source, filings.c.offering_name).where(and_(
                filings.c.offering_id == offering_id, filings.c.slot_revision == revision))).first()
        if row is None or row.offering_source is None:
            return None
        try:
            return parse_offering(bytes(row.offering_source), row.offering_name or "previous.yaml")
        except (OfferingLoadError, InputError):
            return None
    return held


def record(engine: Engine, report: VerifyReport, *, clock: Callable[[], _dt.datetime] | None = None) -> AddResult:
    """Record one verified filing: flags and the diff to its previous revision are worked out under the
    register's write lock, in the transaction that inserts it."""
    result = AddResult(report.path, report)
    received = (clock or _now)()
    revision = _revision(report)
    try:
        with engine.begin() as connection:
            write_lock(connection)
            if report.offering_id is not None and revision is not None and _holds_slot(report):
                same = connection.execute(
                    select(filings.c.id, filings.c.received_at).where(
                        and_(filings.c.offering_id == report.offering_id,
                             filings.c.slot_revision == revision))).first()
                if same is not None:
                    result.refused = (f"revision {revision} of {report.offering_id} is already in the register, "
                                      f"verified, as entry {same.id} (received {_iso(same.received_at)}); not "
                                      "recorded again")
                    result.flags.append(Flag("duplicate", result.refused))
                    return result
            result.flags.extend(_flags(connection, report, revision))
            previous = _previous(connection, report.offering_id, revision)
            if previous is not None:
                result.previous = previous.id
                result.changes = _changes(previous, report)
                problem = _changes_section_problem(previous, report)
                if problem is not None:
                    result.flags.append(Flag("changes-section", problem))
            key = connection.execute(insert(filings).values(**_row(report, received, result))).inserted_primary_key
            entry = int(key[0]) if key is not None else 0
            result.entry = entry
            if result.flags:
                connection.execute(insert(flags), [{"filing_id": entry, "kind": f.kind, "message": f.message}
                                                   for f in result.flags])
    except IntegrityError:  # another register add recorded the same (offering id, revision) first
        result.entry, result.changes, result.previous = None, None, None
        result.refused = (f"revision {revision} of {report.offering_id} was recorded by another register add at "
                          "the same moment; not recorded again")
        result.flags = [Flag("duplicate", result.refused)]
    return result


def _holds_slot(report: VerifyReport) -> bool:
    """Whether the filing takes its (offering id, revision) in the register: only a verified one does."""
    return report.error is None and report.status == "verified"


# The register's whole numbers are SQL INTEGER: 32 bits in PostgreSQL, 64 in SQLite. A filing claiming a
# revision beyond them (nothing a real offering has) is recorded without one, as a filing with no usable revision is.
INTEGER_MAX = 2**31 - 1


def _revision(report: VerifyReport) -> int | None:
    revision = report.revision
    if isinstance(revision, bool) or not isinstance(revision, int) or not -INTEGER_MAX <= revision <= INTEGER_MAX:
        return None
    return revision


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)


def _iso(moment: Any) -> str:
    if isinstance(moment, _dt.datetime):
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=_dt.timezone.utc)
        return str(moment.astimezone(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"))
    return str(moment)


def _counts(report: VerifyReport) -> dict[str, int]:
    findings = report.manifest["findings"] if report.manifest is not None else []
    levels = [f.get("level") for f in findings if isinstance(f, dict)]
    return {"errors": levels.count("error"), "warnings": levels.count("warning"), "notes": levels.count("note")}


def _row(report: VerifyReport, received: _dt.datetime, result: AddResult) -> dict[str, Any]:
    manifest = report.manifest
    offering = manifest["offering"] if manifest is not None else None
    return {
        "received_at": received,
        "path": report.path,
        "offering_id": report.offering_id,
        "operator": report.operator,
        "jurisdiction": report.jurisdiction,
        "revision": _revision(report),
        "effective_date": report.effective_date,
        "status": report.status,
        "exit_code": report.exit_code,
        "first_problem": report.first_problem,
        "rules_sha256": report.rules_sha256,
        "manifest_sha256": sha256(manifest_bytes(manifest)) if manifest is not None else None,
        "offering_sha256": offering["sha256"] if offering is not None else None,
        "signer": report.signer,
        "signer_subject": report.signer_subject,
        "signer_fingerprint": report.signer_fingerprint,
        "signing_time": report.signing_time,
        "pades_level": report.pades_level,
        "timestamp": report.timestamp if report.timestamp_authority else None,
        "revocation": report.revocation,
        "trust": report.trust_status if report.error is None else None,
        **_counts(report),
        "checks": json.dumps([{"name": c.name, "status": c.status, "detail": c.detail} for c in report.checks],
                             ensure_ascii=False),
        "previous_id": result.previous,
        "changes": json.dumps(result.changes, ensure_ascii=False) if result.changes is not None else None,
        "offering_name": report.offering_name,
        "offering_source": report.offering_source,
        "slot_revision": _revision(report) if _holds_slot(report) else None,
    }


def _previous(connection: Connection, offering_id: str | None, revision: int | None) -> Row[Any] | None:
    """The highest verified revision of the offering below this one (the one its changes are measured from)."""
    if offering_id is None or revision is None:
        return None
    return connection.execute(
        select(filings).where(and_(filings.c.offering_id == offering_id, filings.c.slot_revision < revision))
        .order_by(filings.c.slot_revision.desc()).limit(1)).first()


def _flags(connection: Connection, report: VerifyReport, revision: int | None) -> list[Flag]:
    found: list[Flag] = []
    code = connection.execute(select(settings.c.value).where(settings.c.key == "jurisdiction")).scalar()
    if code and report.jurisdiction and report.jurisdiction.upper() != code.upper():
        found.append(Flag("register-jurisdiction", f"the filing is for {report.jurisdiction}; this register "
                                                   f"holds {code} filings"))
    if report.offering_id is not None and revision is not None:
        previous = _previous(connection, report.offering_id, revision)
        later = connection.execute(
            select(func.min(filings.c.slot_revision)).where(and_(filings.c.offering_id == report.offering_id,
                                                                 filings.c.slot_revision > revision))).scalar()
        if previous is not None and revision - previous.revision > 1:
            missing = list(range(previous.revision + 1, revision))
            found.append(Flag("revision-gap", f"revision {revision} follows revision {previous.revision} (entry "
                                              f"{previous.id}): revision{'s' if len(missing) > 1 else ''} "
                                              + _span(missing) + " not received"))
        if later is not None:
            found.append(Flag("out-of-order", f"revision {revision} arrived after revision {later} of the same "
                                              "offering"))
        if previous is not None:
            before, now = _date(previous.effective_date), _date(report.effective_date)
            if before is not None and now is not None and now < before:
                found.append(Flag("effective-date",
                                  f"effective {now.isoformat()}, earlier than revision {previous.revision}'s "
                                  f"{before.isoformat()} (entry {previous.id})"))
            if previous.operator and report.operator and not _same_name(previous.operator, report.operator):
                found.append(Flag("operator", f"revision {previous.revision} (entry {previous.id}) was "
                                              f"{previous.operator}'s; this revision names {report.operator}"))
            if previous.jurisdiction and report.jurisdiction and previous.jurisdiction != report.jurisdiction:
                found.append(Flag("jurisdiction", f"revision {previous.revision} (entry {previous.id}) was for "
                                                  f"{previous.jurisdiction}; this revision is for "
                                                  f"{report.jurisdiction}"))
    if report.signed and report.signer_fingerprint and report.operator:
        organization = report.signer_organization
        if organization is None:
            found.append(Flag("signer-operator", f"the signer's certificate ({report.signer}) names no organisation, "
                                                 f"so nothing ties it to the operator {report.operator}"))
        elif not _same_name(organization, report.operator):
            found.append(Flag("signer-operator", f"the signer's certificate ({report.signer}) is "
                                                 f"{organization}'s, not the operator's ({report.operator})"))
        others = connection.execute(
            select(filings.c.operator, func.min(filings.c.id)).where(and_(
                filings.c.signer_fingerprint == report.signer_fingerprint, filings.c.operator.is_not(None),
                filings.c.slot_revision.is_not(None),
                filings.c.operator != report.operator)).group_by(filings.c.operator)
            .order_by(filings.c.operator)).all()
        if others:
            found.append(Flag("signer-operator", f"the signer's certificate ({report.signer}; SHA-256 "
                                                 f"{report.signer_fingerprint[:16]}...) also signed for "
                                                 + "; ".join(f"{operator} (entry {entry})"
                                                             for operator, entry in others)
                                                 + f", not only for {report.operator}"))
    return found


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _span(numbers: list[int]) -> str:
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def _date(text: str | None) -> _dt.date | None:
    try:
        return _dt.date.fromisoformat(str(text)[:10]) if text else None
    except ValueError:
        return None


def _changes(previous: Row[Any], report: VerifyReport) -> dict[str, Any] | None:
    """The diff from the previous revision's offering to this one's, as recorded JSON; None if either is
    missing (a filing whose attached offering did not match its manifest carries none to compare)."""
    if previous.offering_source is None or report.offering_source is None:
        return None
    from rulegen.filing.diff import changes_json, diff_offerings, math_diff
    from rulegen.offering import OfferingLoadError, parse_offering

    try:
        before = parse_offering(bytes(previous.offering_source), previous.offering_name or "previous.yaml")
        after = parse_offering(report.offering_source, report.offering_name or "offering.yaml")
        changes = diff_offerings(before, after)
    except (OfferingLoadError, InputError) as exc:
        return {"error": getattr(exc, "message", str(exc))}
    mathematics = math_diff(before, after)
    return changes_json(changes, f"revision {previous.revision}", f"revision {report.revision}", mathematics)


def _changes_section_problem(previous: Row[Any], report: VerifyReport) -> str | None:
    """Whether the filing's "changes from revision N" section, when it prints one from the revision the register
    holds as its previous, is the section a build gives from that revision's offering; None if it is, or if
    there is nothing to compare."""
    printed = report.manifest["options"].get("changes") if report.manifest is not None else None
    if not isinstance(printed, dict) or previous.offering_source is None or report.offering_source is None:
        return None
    if printed.get("from_revision") != previous.revision:
        return None  # it compares with a revision the register does not hold as the previous one
    from rulegen.filing.verify.package import changes_section_problem
    from rulegen.offering import OfferingLoadError, parse_offering

    try:
        before = parse_offering(bytes(previous.offering_source), previous.offering_name or "previous.yaml")
    except (OfferingLoadError, InputError) as exc:
        return f"the changes section cannot be checked: {getattr(exc, 'message', exc)}"
    problem = changes_section_problem(printed, before, report.offering_source, report.offering_name or "offering.yaml")
    if problem is None:
        return None
    return (f"the filing prints a \"changes from revision {previous.revision}\" section that is not the diff from "
            f"revision {previous.revision} in the register (entry {previous.id}): {problem}")


# --- reading -------------------------------------------------------------------------------------------------------

LIST_COLUMNS = ("entry", "received", "offering_id", "revision", "jurisdiction", "operator", "effective_date",
                "status", "flags", "signer", "first_problem", "current_status")


def entries(engine: Engine) -> list[dict[str, Any]]:
    """Every filing in the register, oldest first, with its flags (the listing's rows)."""
    with engine.connect() as connection:
        rows = connection.execute(select(filings).order_by(filings.c.id)).mappings().all()
        all_flags = connection.execute(select(flags).order_by(flags.c.id)).mappings().all()
        latest = latest_rechecks(connection)
    by_filing: dict[int, list[dict[str, Any]]] = {}
    for flag in all_flags:
        by_filing.setdefault(flag["filing_id"], []).append(Flag(flag["kind"], flag["message"]).to_json())
    return [_entry(row, by_filing.get(row["id"], []), recheck=latest.get(row["id"])) for row in rows]


def _entry(row: Any, entry_flags: list[dict[str, Any]], *, full: bool = False,
           recheck: dict[str, Any] | None = None) -> dict[str, Any]:
    """An entry as the listing shows it; `status` and `trust` are the verdict on receipt, `current_status` the
    latest re-verification's (`rechecked`: when, by whom, its status, trust and first problem), else the same."""
    entry = {
        "entry": row["id"],
        "received": _iso(row["received_at"]),
        "path": row["path"],
        "offering_id": row["offering_id"],
        "operator": row["operator"],
        "jurisdiction": row["jurisdiction"],
        "revision": row["revision"],
        "effective_date": row["effective_date"],
        "status": row["status"],
        "trust": row["trust"],
        "first_problem": row["first_problem"],
        "flags": entry_flags,
        "signer": row["signer"],
        "signer_fingerprint": row["signer_fingerprint"],
        "signing_time": row["signing_time"],
        "pades_level": row["pades_level"],
        "timestamp": row["timestamp"],
        "revocation": row["revocation"],
        "rules_sha256": row["rules_sha256"],
        "manifest_sha256": row["manifest_sha256"],
        "offering_sha256": row["offering_sha256"],
        "findings": {"errors": row["errors"], "warnings": row["warnings"], "notes": row["notes"]},
        "previous_entry": row["previous_id"],
        "current_status": recheck["status"] if recheck is not None else row["status"],
        "rechecked": None if recheck is None else {**recheck, "at": _iso(recheck["at"])},
    }
    if full:
        entry["signer_subject"] = row["signer_subject"]
        entry["checks"] = json.loads(row["checks"] or "[]")
        entry["changes"] = json.loads(row["changes"]) if row["changes"] else None
    return entry


def show(engine: Engine, key: str) -> list[dict[str, Any]]:
    """Entries in full: by register number (`12`), by offering id (every revision), or `offering-id@revision`."""
    with engine.connect() as connection:
        query = select(filings)
        if key.isdigit():
            query = query.where(filings.c.id == _number(key))
        elif "@" in key:
            offering_id, _, revision = key.rpartition("@")
            if not revision.isdigit():
                raise InputError(f"{key}: give an entry number, an offering id, or offering-id@revision")
            query = query.where(and_(filings.c.offering_id == offering_id, filings.c.revision == _number(revision)))
        else:
            query = query.where(filings.c.offering_id == key)
        rows = connection.execute(query.order_by(filings.c.revision, filings.c.id)).mappings().all()
        latest = latest_rechecks(connection, [row["id"] for row in rows])
        found = []
        for row in rows:
            entry_flags = connection.execute(select(flags).where(flags.c.filing_id == row["id"])
                                             .order_by(flags.c.id)).mappings().all()
            found.append(_entry(row, [Flag(f["kind"], f["message"]).to_json() for f in entry_flags], full=True,
                                recheck=latest.get(row["id"])))
    if not found:
        raise InputError(f"{key}: no such entry in the register", exit_code=ExitCode.INVALID)
    return found


def _number(digits: str) -> int:
    """An entry or revision number as typed; one too large for the database matches nothing (-1), never overflows."""
    value = int(digits)
    return value if value <= INTEGER_MAX else -1


# --- the reviewer's page ------------------------------------------------------------------------------------------

def _page_status(status: str) -> str:
    # Not verified; the page (render/register_page.py) names five statuses, and its first-problem column says why:
    # the filing was not reproduced (integrity only) or cannot be reproduced here.
    return "failed" if status in ("intact", "unreproducible") else status


def report_rows(engine: Engine) -> dict[str, Any]:
    """Everything the reviewer's page shows, as plain data (render/register_page.py lays it out): every entry in
    full, the counts by status, how many are flagged, the register's jurisdiction."""
    rows = []
    with engine.connect() as connection:
        latest = latest_rechecks(connection)
        for row in connection.execute(select(filings).order_by(filings.c.id)).mappings().all():
            entry_flags = connection.execute(select(flags).where(flags.c.filing_id == row["id"])
                                             .order_by(flags.c.id)).mappings().all()
            entry = _entry(row, [Flag(f["kind"], f["message"]).to_json() for f in entry_flags], full=True,
                           recheck=latest.get(row["id"]))
            # The page shows the current status (the latest re-verification's), the one on receipt beside it.
            entry["received_status"] = _page_status(entry["status"])
            entry["status"] = _page_status(entry["current_status"])
            if entry["rechecked"] is not None:
                entry["first_problem"] = entry["rechecked"]["first_problem"]
            rows.append(entry)
    return {"rows": rows, "jurisdiction": register_jurisdiction(engine),
            "totals": {status: sum(1 for r in rows if r["status"] == status)
                       for status in ("verified", "untrusted", "failed", "unsigned", "unusable")},
            "flagged": sum(1 for r in rows if r["flags"])}
