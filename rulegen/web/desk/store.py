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


def add_user(engine: Engine, name: str, role: str, password: str) -> User:
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
        connection.execute(insert(events).values(at=now(), user_id=user.id, user_name=name, action="user-added",
                                                 detail=f"role {role}", address=None))
    return user


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


def _filing_json(row: Any, names: dict[int, str], *, full: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": row.id, "received_at": _iso(row.received_at), "uploaded_by": names.get(row.uploaded_by),
        "status": row.status, "assignee": names.get(row.assignee) if row.assignee else None,
        "verdict": row.verdict, "verify_status": row.verify_status, "offering_id": row.offering_id,
        "revision": row.revision, "jurisdiction": row.jurisdiction, "operator": row.operator, "signer": row.signer,
        "rules_sha256": row.rules_sha256, "register_entry": row.register_entry}
    report = json.loads(row.report)
    entry["flag_kinds"] = [flag.get("kind") for flag in report.get("flags", [])]
    if full:
        entry.update(verdict_text=row.verdict_text, checks=report.get("checks", []), flags=report.get("flags", []),
                     findings=report.get("findings", []), refused=report.get("refused"))
    return entry


def _user_names(connection: Any) -> dict[int, str]:
    return {r.id: r.name for r in connection.execute(select(users.c.id, users.c.name))}


def list_filings(engine: Engine, *, status: str | None = None, assignee: str | None = None) -> list[dict[str, Any]]:
    query = select(filings).order_by(filings.c.id.desc())
    if status:
        query = query.where(filings.c.status == status)
    with engine.connect() as connection:
        names = _user_names(connection)
        if assignee:
            ids = [i for i, n in names.items() if n == assignee]
            query = query.where(filings.c.assignee.in_(ids))
        rows = connection.execute(query).all()
    return [_filing_json(r, names) for r in rows]


def get_filing(engine: Engine, filing_id: int) -> dict[str, Any] | None:
    with engine.connect() as connection:
        row = connection.execute(select(filings).where(filings.c.id == filing_id)).first()
        if row is None:
            return None
        names = _user_names(connection)
        stored = connection.execute(select(files.c.name, files.c.sha256, files.c.size)
                                    .where(files.c.filing_id == filing_id).order_by(files.c.name)).all()
    entry = _filing_json(row, names, full=True)
    entry["files"] = [{"name": f.name, "sha256": f.sha256, "size": f.size} for f in stored]
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


def decide(engine: Engine, filing_id: int, *, user: User, address: str | None, decision: str, note: str) -> None:
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
