"""The desk's storage: its tables live in the register's database (SQLite file or PostgreSQL), beside the
register's own, so `rulegen register list` shows every filing the desk received.

The register's schema is the register's migrations' (opened with `open_register`); the desk's tables are created by
`rulegen desk init` (and on `serve`) with `create_all`, which adds only the tables that are missing.

Events are append-only: this module has no function that updates or deletes one, and the database refuses to
(triggers made with the table, on SQLite and PostgreSQL). Sessions are stored by the
SHA-256 of their token, never the token itself; passwords by their argon2id hash.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import (
    DDL,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

ROLES = ("analyst", "supervisor", "admin")
DECIDERS = ("supervisor", "admin")
STATUSES = ("received", "in review", "accepted", "returned", "superseded")
DECISIONS = ("accepted", "returned")

metadata = MetaData()

users = Table(
    "desk_users", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(100), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("password_hash", Text, nullable=False),
    Column("active", Boolean, nullable=False, default=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

sessions = Table(
    "desk_sessions", metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("desk_users.id"), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("address", String(64)),
)

filings = Table(
    "desk_filings", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Column("uploaded_by", Integer, ForeignKey("desk_users.id"), nullable=False),
    Column("status", String(16), nullable=False),  # the queue's: received, in review, accepted, returned, superseded
    Column("assignee", Integer, ForeignKey("desk_users.id")),
    Column("verdict", String(16), nullable=False),  # VERIFIED, NOT TRUSTED, FAILED
    Column("verify_status", String(16), nullable=False),  # verify's own word (verified, untrusted, failed, ...)
    Column("verdict_text", Text, nullable=False),
    Column("offering_id", String(200), index=True),
    Column("revision", Integer),
    Column("jurisdiction", String(32)),
    Column("operator", Text),
    Column("signer", Text),
    Column("rules_sha256", String(64)),
    Column("register_entry", Integer),  # the register's number; None when the register refused it (duplicate)
    Column("report", Text, nullable=False),  # JSON: verify's report, the register's flags and refusal
)

files = Table(
    "desk_files", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("filing_id", Integer, ForeignKey("desk_filings.id"), nullable=False, index=True),
    Column("name", String(255), nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("size", Integer, nullable=False),
)

letters = Table(
    "desk_letters", metadata,  # the letter to the operator a decision wrote, archived by its SHA-256
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("filing_id", Integer, ForeignKey("desk_filings.id"), nullable=False, index=True),
    Column("decision", String(16), nullable=False),
    Column("name", String(255), nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("size", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

verifications = Table(
    "desk_verifications", metadata,  # each re-verification of the archived files with the trust roots of its day
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("filing_id", Integer, ForeignKey("desk_filings.id"), nullable=False, index=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("user_id", Integer, ForeignKey("desk_users.id"), nullable=False),
    Column("verdict", String(16), nullable=False),
    Column("verdict_text", Text, nullable=False),
    Column("trust_roots", Integer, nullable=False),
    Column("report", Text, nullable=False),  # JSON: verify's report
)

events = Table(
    "desk_events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("filing_id", Integer, ForeignKey("desk_filings.id"), index=True),
    Column("user_id", Integer, ForeignKey("desk_users.id")),
    Column("user_name", String(100)),  # as given: a failed login names whom it tried
    Column("action", String(32), nullable=False),
    Column("detail", Text),
    Column("address", String(64)),
)


# The database itself refuses to change or delete an event, whatever connects to it (made with the table).
for _statement in (
        "CREATE TRIGGER desk_events_no_update BEFORE UPDATE ON desk_events "
        "BEGIN SELECT RAISE(ABORT, 'the desk''s events are append-only'); END",
        "CREATE TRIGGER desk_events_no_delete BEFORE DELETE ON desk_events "
        "BEGIN SELECT RAISE(ABORT, 'the desk''s events are append-only'); END"):
    event.listen(events, "after_create", DDL(_statement).execute_if(dialect="sqlite"))
for _statement in (
        "CREATE FUNCTION desk_events_append_only() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'the desk''s events are append-only'; END $$",
        "CREATE TRIGGER desk_events_append_only BEFORE UPDATE OR DELETE ON desk_events "
        "FOR EACH ROW EXECUTE FUNCTION desk_events_append_only()"):
    event.listen(events, "after_create", DDL(_statement).execute_if(dialect="postgresql"))


def now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


def _aware(moment: _dt.datetime) -> _dt.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=_dt.timezone.utc)


def create_tables(engine: Engine) -> None:
    metadata.create_all(engine)


# --- users ---------------------------------------------------------------------------------------------------------

_HASHER = PasswordHasher()  # argon2id with argon2-cffi's recommended parameters
_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))  # an unknown user costs a login as long as a known one


@dataclass(frozen=True)
class User:
    id: int
    name: str
    role: str

    @property
    def decides(self) -> bool:
        return self.role in DECIDERS


class DeskError(Exception):
    """A request the desk refuses, with the message to show."""


def add_user(engine: Engine, name: str, role: str, password: str, *, by: User | None = None,
             address: str | None = None) -> User:
    name = name.strip()
    if not name or len(name) > 100 or any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise DeskError("a user's name is 1 to 100 printable characters")
    if role not in ROLES:
        raise DeskError(f"the role is {role!r}; it is one of {', '.join(ROLES)}")
    if len(password) < 12:
        raise DeskError("a password has at least 12 characters")
    with engine.begin() as connection:
        if connection.execute(select(users.c.id).where(users.c.name == name)).first() is not None:
            raise DeskError(f"there is already a user {name!r}")
        key = connection.execute(insert(users).values(name=name, role=role, password_hash=_HASHER.hash(password),
                                                      active=True, created_at=now())).inserted_primary_key
        user = User(int(key[0]) if key else 0, name, role)
        # by the admin who added them in the browser; by the new user's own name from the command line
        log(connection, action="user-added", user=by or user, address=address, detail=f"{name}, role {role}")
    return user


@dataclass(frozen=True)
class Account:
    name: str
    role: str
    active: bool
    created_at: str | None


def list_users(engine: Engine) -> list[Account]:
    with engine.connect() as connection:
        rows = connection.execute(select(users).order_by(users.c.name)).all()
    return [Account(r.name, r.role, bool(r.active), _iso(r.created_at)) for r in rows]


def disable_user(engine: Engine, name: str, *, by: User, address: str | None) -> None:
    """The user can no longer log in, and their open sessions end; their events and filings stay theirs."""
    if by.role != "admin":
        raise PermissionError("only an admin manages the desk's users")
    if name == by.name:
        raise DeskError("an admin does not disable their own account (another admin does)")
    with engine.begin() as connection:
        row = connection.execute(select(users.c.id, users.c.active).where(users.c.name == name)).first()
        if row is None:
            raise DeskError(f"there is no user {name!r}")
        if not row.active:
            raise DeskError(f"{name} is already disabled")
        connection.execute(update(users).where(users.c.id == row.id).values(active=False))
        connection.execute(sessions.delete().where(sessions.c.user_id == row.id))
        log(connection, action="user-disabled", user=by, address=address, detail=name)


def user_events(engine: Engine, limit: int = 200) -> list[dict[str, Any]]:
    """The latest events about the desk's users (added, disabled), newest first."""
    with engine.connect() as connection:
        rows = connection.execute(select(events).where(events.c.action.in_(("user-added", "user-disabled")))
                                  .order_by(events.c.id.desc()).limit(limit)).all()
    return [{"id": r.id, "at": _iso(r.at), "user": r.user_name, "action": r.action, "detail": r.detail,
             "address": r.address} for r in rows]


def authenticate(engine: Engine, name: str, password: str) -> User | None:
    with engine.connect() as connection:
        row = connection.execute(select(users).where(and_(users.c.name == name, users.c.active.is_(True)))).first()
    try:
        _HASHER.verify(row.password_hash if row is not None else _DUMMY_HASH, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return None
    return None if row is None else User(row.id, row.name, row.role)


def failed_logins(engine: Engine, name: str, address: str | None, since: _dt.datetime) -> int:
    """Failed logins since `since` for this user name or from this address (whichever is more)."""
    counts = []
    with engine.connect() as connection:
        for column, value in ((events.c.user_name, name), (events.c.address, address)):
            if value is None:
                continue
            counts.append(connection.execute(select(func.count()).select_from(events).where(and_(
                events.c.action == "login-failed", column == value, events.c.at >= since))).scalar() or 0)
    return max(counts, default=0)


# --- sessions ------------------------------------------------------------------------------------------------------

def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def open_session(engine: Engine, user: User, address: str | None, lifetime: _dt.timedelta) -> tuple[str, str]:
    """A new session for `user`: (token for the cookie, CSRF token)."""
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    moment = now()
    with engine.begin() as connection:
        connection.execute(sessions.delete().where(sessions.c.expires_at < moment))
        connection.execute(insert(sessions).values(token_sha256=_digest(token), user_id=user.id, csrf=csrf,
                                                   created_at=moment, expires_at=moment + lifetime, address=address))
    return token, csrf


@dataclass(frozen=True)
class Session:
    user: User
    csrf: str
    token_sha256: str

    def csrf_matches(self, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(self.csrf.encode(), str(given).encode("utf-8", "replace"))


def find_session(engine: Engine, token: str | None) -> Session | None:
    if not token or len(token) > 200:
        return None
    digest = _digest(token)
    with engine.connect() as connection:
        row = connection.execute(
            select(sessions.c.csrf, sessions.c.expires_at, users.c.id, users.c.name, users.c.role)
            .join(users, users.c.id == sessions.c.user_id)
            .where(and_(sessions.c.token_sha256 == digest, users.c.active.is_(True)))).first()
    if row is None or _aware(row.expires_at) <= now():
        return None
    return Session(User(row.id, row.name, row.role), row.csrf, digest)


def close_session(engine: Engine, session: Session) -> None:
    with engine.begin() as connection:
        connection.execute(sessions.delete().where(sessions.c.token_sha256 == session.token_sha256))


# --- events --------------------------------------------------------------------------------------------------------

def log(connection: Any, *, action: str, user: User | None, address: str | None, filing_id: int | None = None,
        detail: str | None = None, user_name: str | None = None) -> None:
    connection.execute(insert(events).values(
        at=now(), filing_id=filing_id, user_id=user.id if user else None,
        user_name=user.name if user else user_name, action=action, detail=detail, address=address))


def record_event(engine: Engine, **fields: Any) -> None:
    with engine.begin() as connection:
        log(connection, **fields)


def filing_events(engine: Engine, filing_id: int) -> list[dict[str, Any]]:
    with engine.connect() as connection:
        rows = connection.execute(select(events).where(events.c.filing_id == filing_id).order_by(events.c.id)).all()
    return [{"id": r.id, "at": _iso(r.at), "user": r.user_name, "action": r.action, "detail": r.detail,
             "address": r.address} for r in rows]


def _iso(moment: _dt.datetime | None) -> str | None:
    return None if moment is None else _aware(moment).astimezone(_dt.timezone.utc).isoformat(timespec="seconds")


# --- filings -------------------------------------------------------------------------------------------------------

def add_filing(engine: Engine, *, user: User, address: str | None, verdict: str, report: dict[str, Any],
               register_entry: int | None, stored: list[tuple[str, str, int]]) -> int:
    """Record a received filing (whatever its verdict), its files, and the event; an earlier revision of the same
    offering still open in the queue is superseded by it."""
    revision = report.get("revision")
    revision = revision if isinstance(revision, int) and not isinstance(revision, bool) \
        and -2**31 < revision < 2**31 else None
    with engine.begin() as connection:
        key = connection.execute(insert(filings).values(
            received_at=now(), uploaded_by=user.id, status="received", assignee=None, verdict=verdict,
            verify_status=str(report.get("status")), verdict_text=str(report.get("verdict")),
            offering_id=report.get("offering_id"), revision=revision, jurisdiction=report.get("jurisdiction"),
            operator=report.get("operator"), signer=(report.get("signer") or {}).get("name"),
            rules_sha256=report.get("rules_pdf_sha256"), register_entry=register_entry,
            report=json.dumps(report, ensure_ascii=False))).inserted_primary_key
        filing_id = int(key[0]) if key else 0
        if stored:
            connection.execute(insert(files), [{"filing_id": filing_id, "name": n, "sha256": h, "size": s}
                                               for n, h, s in stored])
        log(connection, action="uploaded", user=user, address=address, filing_id=filing_id,
            detail=f"{len(stored)} file(s); verdict {verdict}")
        if report.get("offering_id") is not None and revision is not None:
            older = connection.execute(select(filings.c.id).where(and_(
                filings.c.offering_id == report["offering_id"], filings.c.revision < revision,
                filings.c.status.in_(("received", "in review"))))).scalars().all()
            for old in older:
                connection.execute(update(filings).where(filings.c.id == old).values(status="superseded"))
                log(connection, action="superseded", user=user, address=address, filing_id=old,
                    detail=f"by filing {filing_id} (revision {revision})")
    return filing_id


def latest_verifications(connection: Any, filing_ids: list[int]) -> dict[int, Any]:
    """The latest re-verification of each of the filings (its verdict and when), by filing; none if never."""
    if not filing_ids:
        return {}
    rows = connection.execute(select(verifications.c.filing_id, verifications.c.verdict, verifications.c.at)
                              .where(verifications.c.filing_id.in_(filing_ids)).order_by(verifications.c.id)).all()
    return {r.filing_id: r for r in rows}  # the last of each filing's wins


def filing_row(row: Any, names: dict[int, str], *, latest: Any = None, full: bool = False) -> dict[str, Any]:
    """A row of desk_filings as the queue and the API show it (`full`: with its checks, flags and findings).

    `verdict` is the verdict on receipt, never changed; `current_verdict` is the latest re-verification's (with
    `verified_again_at`), else the one on receipt: what the queue shows and a diff's trust rests on."""
    entry: dict[str, Any] = {
        "id": row.id, "received_at": _iso(row.received_at), "uploaded_by": names.get(row.uploaded_by),
        "status": row.status, "assignee": names.get(row.assignee) if row.assignee else None,
        "verdict": row.verdict, "current_verdict": latest.verdict if latest is not None else row.verdict,
        "verified_again_at": _iso(latest.at) if latest is not None else None,
        "verify_status": row.verify_status, "offering_id": row.offering_id,
        "revision": row.revision, "jurisdiction": row.jurisdiction, "operator": row.operator, "signer": row.signer,
        "rules_sha256": row.rules_sha256, "register_entry": row.register_entry}
    report = json.loads(row.report)
    entry["flag_kinds"] = [flag.get("kind") for flag in report.get("flags", [])]
    if full:
        entry.update(verdict_text=row.verdict_text, checks=report.get("checks", []), flags=report.get("flags", []),
                     effective_date=report.get("effective_date"),
                     findings=report.get("findings", []), refused=report.get("refused"))
    return entry


def _user_names(connection: Any) -> dict[int, str]:
    return {r.id: r.name for r in connection.execute(select(users.c.id, users.c.name))}


def get_filing(engine: Engine, filing_id: int) -> dict[str, Any] | None:
    with engine.connect() as connection:
        row = connection.execute(select(filings).where(filings.c.id == filing_id)).first()
        if row is None:
            return None
        names = _user_names(connection)
        stored = connection.execute(select(files.c.name, files.c.sha256, files.c.size)
                                    .where(files.c.filing_id == filing_id).order_by(files.c.name)).all()
        latest = latest_verifications(connection, [filing_id]).get(filing_id)
    entry = filing_row(row, names, latest=latest, full=True)
    entry["files"] = [{"name": f.name, "sha256": f.sha256, "size": f.size} for f in stored]
    entry["letters"] = filing_letters(engine, filing_id)
    entry["reverifications"] = filing_verifications(engine, filing_id)
    return entry


def filing_file(engine: Engine, filing_id: int, name: str) -> str | None:
    """The SHA-256 of the file `name` of filing `filing_id`, or None."""
    with engine.connect() as connection:
        value = connection.execute(select(files.c.sha256).where(and_(files.c.filing_id == filing_id,
                                                                     files.c.name == name))).scalar()
    return None if value is None else str(value)


def _current(connection: Any, filing_id: int) -> Any:
    row = connection.execute(select(filings.c.id, filings.c.status, filings.c.offering_id, filings.c.revision)
                             .where(filings.c.id == filing_id)).first()
    if row is None:
        raise LookupError(filing_id)
    return row


def add_note(engine: Engine, filing_id: int, *, user: User, address: str | None, text: str) -> None:
    text = text.strip()
    if not text:
        raise DeskError("a note says something")
    if len(text) > 10_000:
        raise DeskError("a note is at most 10,000 characters")
    with engine.begin() as connection:
        _current(connection, filing_id)
        log(connection, action="note", user=user, address=address, filing_id=filing_id, detail=text)


def assign(engine: Engine, filing_id: int, *, user: User, address: str | None) -> None:
    """The user takes the filing: it is theirs and in review (an open filing only)."""
    with engine.begin() as connection:
        row = _current(connection, filing_id)
        if row.status not in ("received", "in review"):
            raise DeskError(f"filing {filing_id} is {row.status}; only an open filing is taken for review")
        connection.execute(update(filings).where(filings.c.id == filing_id).values(assignee=user.id,
                                                                                  status="in review"))
        log(connection, action="assigned", user=user, address=address, filing_id=filing_id,
            detail=f"to {user.name}; in review")


def decide(engine: Engine, filing_id: int, *, user: User, address: str | None, decision: str, note: str,
           letter: tuple[str, str, int] | None = None) -> None:
    """Record the decision; with `letter` (its name, SHA-256 in the archive, size), the letter it wrote, in the
    same transaction: a decision and its letter are recorded together or not at all."""
    if not user.decides:
        raise PermissionError("only a supervisor records a decision")
    if decision not in DECISIONS:
        raise DeskError(f"the decision is {decision!r}; it is accepted or returned")
    note = (note or "").strip()
    if len(note) > 10_000:
        raise DeskError("a note is at most 10,000 characters")
    with engine.begin() as connection:
        row = _current(connection, filing_id)
        if row.status not in ("received", "in review"):
            raise DeskError(f"filing {filing_id} is already {row.status}")
        connection.execute(update(filings).where(filings.c.id == filing_id).values(status=decision))
        log(connection, action=decision, user=user, address=address, filing_id=filing_id, detail=note or None)
        if letter is not None:
            name, digest, size = letter
            connection.execute(insert(letters).values(filing_id=filing_id, decision=decision, name=name,
                                                      sha256=digest, size=size, created_at=now()))
            log(connection, action="letter", user=user, address=address, filing_id=filing_id,
                detail=f"{name} to the operator ({size:,} bytes, SHA-256 {digest})")
        if decision == "accepted" and row.offering_id is not None and row.revision is not None:
            older = connection.execute(select(filings.c.id).where(and_(
                filings.c.offering_id == row.offering_id, filings.c.revision < row.revision,
                filings.c.status == "accepted"))).scalars().all()
            for old in older:
                connection.execute(update(filings).where(filings.c.id == old).values(status="superseded"))
                log(connection, action="superseded", user=user, address=address, filing_id=old,
                    detail=f"by filing {filing_id} (revision {row.revision}), accepted")


def user_names(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return sorted(_user_names(connection).values())


# --- letters, re-verifications, revisions ---------------------------------------------------------------------------

def filing_letters(engine: Engine, filing_id: int) -> list[dict[str, Any]]:
    with engine.connect() as connection:
        rows = connection.execute(select(letters).where(letters.c.filing_id == filing_id)
                                  .order_by(letters.c.id)).all()
    return [{"name": r.name, "decision": r.decision, "sha256": r.sha256, "size": r.size,
             "created_at": _iso(r.created_at)} for r in rows]


def letter_file(engine: Engine, filing_id: int, name: str) -> str | None:
    with engine.connect() as connection:
        value = connection.execute(select(letters.c.sha256).where(and_(letters.c.filing_id == filing_id,
                                                                       letters.c.name == name))).scalar()
    return None if value is None else str(value)


def add_verification(engine: Engine, filing_id: int, *, user: User, address: str | None, verdict: str,
                     report: dict[str, Any], trust_roots: int, was: str) -> None:
    with engine.begin() as connection:
        _current(connection, filing_id)
        connection.execute(insert(verifications).values(
            filing_id=filing_id, at=now(), user_id=user.id, verdict=verdict, verdict_text=str(report.get("verdict")),
            trust_roots=trust_roots, report=json.dumps(report, ensure_ascii=False)))
        log(connection, action="reverified", user=user, address=address, filing_id=filing_id,
            detail=f"verdict {verdict} (was {was}), with today's {trust_roots} trust root(s)")


def filing_verifications(engine: Engine, filing_id: int) -> list[dict[str, Any]]:
    """Each re-verification of the filing, newest first, with its checks."""
    with engine.connect() as connection:
        names = _user_names(connection)
        rows = connection.execute(select(verifications).where(verifications.c.filing_id == filing_id)
                                  .order_by(verifications.c.id.desc())).all()
    return [{"at": _iso(r.at), "user": names.get(r.user_id), "verdict": r.verdict, "verdict_text": r.verdict_text,
             "trust_roots": r.trust_roots, "checks": json.loads(r.report).get("checks", [])} for r in rows]


def revisions(engine: Engine, offering_id: str) -> list[dict[str, Any]]:
    """Every filing the desk received of the offering, by revision then arrival; `verdict` its current one (the
    latest re-verification's, else on receipt), `received_verdict` the one on receipt."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(filings.c.id, filings.c.revision, filings.c.received_at, filings.c.verdict, filings.c.status)
            .where(filings.c.offering_id == offering_id).order_by(filings.c.revision, filings.c.id)).all()
        latest = latest_verifications(connection, [r.id for r in rows])
    return [{"id": r.id, "revision": r.revision, "received_at": _iso(r.received_at), "received_verdict": r.verdict,
             "verdict": latest[r.id].verdict if r.id in latest else r.verdict, "status": r.status} for r in rows]


def previous_revision(history: list[dict[str, Any]], filing_id: int, revision: int | None) -> dict[str, Any] | None:
    """The recorded revision before `revision` that a diff compares against: the highest earlier revision, and of
    its filings the verified one if any, else the latest received."""
    if revision is None:
        return None
    earlier = [h for h in history if h["revision"] is not None and h["revision"] < revision and h["id"] != filing_id]
    if not earlier:
        return None
    top = max(h["revision"] for h in earlier)
    candidates = [h for h in earlier if h["revision"] == top]
    return max(candidates, key=lambda h: (h["verdict"] == "VERIFIED", h["id"]))
