"""The register's storage (filing layer): tables, the database it opens, and its migrations.

SQLAlchemy Core over SQLite (a file, the default) or PostgreSQL (an agency's shared register). The schema is
created and upgraded only by the Alembic migrations in `register_migrations/`, run when a register is opened:
opening an older register upgrades it, and two processes opening a new one at once do not race (SQLite: the
write lock is taken before anything is read; PostgreSQL: an advisory lock).

Every write happens in a transaction that first takes the register's write lock (`write_lock`), so two
`rulegen register add` at once are serialised where it matters: the checks that read earlier filings and
the insert that follows see one consistent register, and the unique (offering id, revision) constraint
of verified filings refuses a duplicate whichever process comes second.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from alembic.config import Config

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Connection, Engine

from rulegen.errors import InputError

DB_ENV = "RULEGEN_REGISTER_DB"
MIGRATIONS = Path(__file__).resolve().parent / "register_migrations"
ADVISORY_LOCK = 0x72756C65  # "rule": the PostgreSQL advisory lock key of a register's writes

metadata = MetaData()

settings = Table(
    "register_settings", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

filings = Table(
    "filings", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Column("path", Text, nullable=False),
    Column("offering_id", String(200), index=True),
    Column("operator", Text),
    Column("jurisdiction", String(32)),
    Column("revision", Integer),
    Column("effective_date", String(32)),
    Column("status", String(16), nullable=False),
    Column("exit_code", Integer, nullable=False),
    Column("first_problem", Text),
    Column("rules_sha256", String(64)),
    Column("manifest_sha256", String(64)),
    Column("offering_sha256", String(64)),
    Column("signer", Text),
    Column("signer_subject", Text),
    Column("signer_fingerprint", String(64), index=True),
    Column("signing_time", String(40)),
    Column("pades_level", String(8)),  # migration 0002
    Column("timestamp", String(40)),  # the RFC 3161 timestamp's time, when the signature carries one
    Column("revocation", String(16)),  # good, failed, not embedded, not checked
    Column("trust", String(16)),
    Column("errors", Integer, nullable=False, default=0),
    Column("warnings", Integer, nullable=False, default=0),
    Column("notes", Integer, nullable=False, default=0),
    Column("checks", Text, nullable=False),  # JSON: every check of the verification
    Column("previous_id", Integer, ForeignKey("filings.id")),
    Column("changes", Text),  # JSON: the diff to the previous revision, with the mathematics that changed
    Column("offering_name", Text),
    Column("offering_source", LargeBinary),  # the attached offering, for diffs against later revisions
    # migration 0003: the revision of a verified filing, NULL for any other; a verified filing alone holds its
    # (offering id, revision), so a draft or a failed filing received first cannot keep the genuine one out.
    Column("slot_revision", Integer),
    UniqueConstraint("offering_id", "slot_revision", name="uq_filings_offering_slot"),
)

flags = Table(
    "flags", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("filing_id", Integer, ForeignKey("filings.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("kind", String(40), nullable=False),
    Column("message", Text, nullable=False),
)

rechecks = Table(  # migration 0004: each re-verification of an entry; the entry keeps its verdict on receipt
    "rechecks", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("filing_id", Integer, ForeignKey("filings.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("by", Text),  # who asked for it: the desk's user
    Column("status", String(16), nullable=False),
    Column("trust", String(16)),
    Column("first_problem", Text),
    Column("checks", Text, nullable=False),  # JSON: every check of the re-verification
)


def default_location() -> str:
    """RULEGEN_REGISTER_DB when set, else register.sqlite in the user's data folder."""
    configured = os.environ.get(DB_ENV)
    if configured:
        return configured
    import platformdirs

    return str(Path(platformdirs.user_data_dir("rulegen")) / "register.sqlite")


def database_url(location: str) -> str:
    """A SQLAlchemy URL from --db: a postgresql:// (or postgres://) URL as given, anything else a SQLite file."""
    if location.startswith(("postgresql://", "postgresql+psycopg2://", "postgres://")):
        url = "postgresql+psycopg2://" + location.split("://", 1)[1]
        _check_url(location, url)
        return url
    if location.startswith("sqlite:///"):
        return location
    if "://" in location:
        raise InputError(f"--db {location}: give a file path or a postgresql:// URL")
    path = Path(location).expanduser()
    if path.is_dir():
        raise InputError(f"--db {location} is a folder; give the register's file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"--db {location}: its folder cannot be made: {exc.strerror or exc}") from None
    return f"sqlite:///{path}"


def _check_url(location: str, url: str) -> None:
    """A PostgreSQL URL that names a host, a port from 1 to 65535 and no character a driver would choke on, or
    InputError saying what is wrong with it (SQLAlchemy and psycopg2 raise ValueError or worse for these)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    shown = _display(location)
    if any(ord(char) < 32 or 0xD800 <= ord(char) <= 0xDFFF or ord(char) == 127 for char in location):
        raise InputError(f"--db {shown!r}: the URL holds a control character or an undecodable byte")
    try:
        parsed = make_url(url)
        port = parsed.port  # SQLAlchemy reads the port as a number: a word raises ValueError
    except (ArgumentError, ValueError) as exc:
        raise InputError(f"--db {shown}: not a usable postgresql:// URL ({_first_line(exc)}); give "
                         "postgresql://USER@HOST:PORT/DATABASE") from None
    if port is not None and not 1 <= port <= 65535:
        raise InputError(f"--db {shown}: the port is {port}; a port is a number from 1 to 65535")


def is_postgresql(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


def make_engine(location: str) -> Engine:
    url = database_url(location)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 120})

        @event.listens_for(engine, "connect")
        # let SQLAlchemy, not the driver, say when a transaction begins
        def _connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute("PRAGMA busy_timeout = 120000")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Connection) -> None:
            # the write lock first: no read-then-write race between two processes
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True)


def write_lock(connection: Connection) -> None:
    """Inside a transaction: wait for, then hold until it ends, the register's write lock."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
    # SQLite: every transaction began with BEGIN IMMEDIATE, which is the write lock.


def alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine) -> None:
    """Bring the register's schema to the newest migration, under the write lock."""
    from alembic import command

    with engine.begin() as connection:
        write_lock(connection)
        command.upgrade(alembic_config(connection), "head")


def open_register(location: str | None = None) -> Engine:
    """An engine on the register at `location` (default_location() when None), its schema up to date."""
    from sqlalchemy.exc import SQLAlchemyError

    from alembic.util.exc import CommandError

    location = location or default_location()
    try:
        engine = make_engine(location)
    except (ValueError, SQLAlchemyError) as exc:  # a URL SQLAlchemy or the driver refuses
        raise InputError(f"the register at {_display(location)} cannot be opened: {_first_line(exc)}") from None
    try:
        upgrade(engine)
    except (SQLAlchemyError, ValueError, OverflowError, UnicodeError) as exc:
        engine.dispose()
        raise InputError(f"the register at {_display(location)} cannot be opened: {_first_line(exc)}") from None
    except CommandError as exc:  # the database names a schema revision none of our migrations is
        engine.dispose()
        raise InputError(f"the register at {_display(location)} cannot be opened: its schema is at a revision this "
                         f"version of rulegen does not know ({_first_line(exc)}); it was made by a newer rulegen, "
                         "or is not a rulegen register") from None
    return engine


def _display(location: str) -> str:
    """A location fit to print: a URL's password replaced by ***."""
    from sqlalchemy.engine import make_url

    if "://" not in location:
        return location
    try:
        return make_url(location).render_as_string(hide_password=True)
    except Exception:
        return location.split("://", 1)[0] + "://..."


def _first_line(exc: BaseException) -> str:
    text_ = str(getattr(exc, "orig", None) or exc).strip()
    return text_.splitlines()[0] if text_ else type(exc).__name__
