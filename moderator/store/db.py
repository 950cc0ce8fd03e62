"""Engine and session factory from a database URL (SQLite by default, or PostgreSQL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

DEFAULT_URL = "sqlite:///var/moderator.sqlite"
SQLITE_BUSY_TIMEOUT_MS = 10_000


def normalise_url(url: str | URL | None) -> URL:
    """Parse ``url``; plain ``postgresql://`` / ``postgres://`` get the psycopg 3 driver."""
    parsed = make_url(DEFAULT_URL if url is None else url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def shown(url: str | URL) -> str:
    """The database's URL for messages and logs: its password hidden."""
    return normalise_url(url).render_as_string(hide_password=True)


# What the driver's words mean, most specific first: (words in the message, what failed).
_MEANINGS = (
    (("no such table", "undefinedtable"), "has no such table (is it migrated?)"),
    (("connection refused", "could not connect"), "refused the connection (is it running?)"),
    (("not currently accepting connections",), "refuses connections (ALLOW_CONNECTIONS "
     "false?)"),
    (("name or service not known", "could not translate host"), "has a host name that "
     "does not resolve"),
    (("password authentication failed", "authentication failed"), "refused the login"),
    (("database or disk is full", "no space left"), "is on a full disk"),
    (("readonly database", "read-only"), "is read-only (file or folder permissions?)"),
    (("unable to open database file",), "cannot be opened (missing folder or permissions?)"),
    (("database is locked",), "is locked by another process"),
    (("does not exist",), "does not exist"),
    (("server closed the connection", "terminating connection", "connection is closed",
      "consuming input failed", "connection reset"), "dropped the connection"),
    (("timeout", "timed out"), "did not answer in time"),
)  # fmt: skip


def describe_db_error(exc: BaseException, url: str | URL) -> str:
    """What went wrong with the database, in a line for an operator: what failed, the
    database named without its password, and the driver's own words (not the SQL)."""
    cause = getattr(exc, "orig", None) or exc  # SQLAlchemy wraps the driver's exception
    lines = str(cause).strip().splitlines()
    words = lines[0].strip() if lines else type(cause).__name__
    lowered = f"{type(cause).__name__} {words}".lower()
    meaning = next((what for keys, what in _MEANINGS if any(k in lowered for k in keys)), "failed")
    return f"the database {shown(url)} {meaning}: {words}"


def is_outage(exc: BaseException) -> bool:
    """True for database trouble that passes and is waited out (a server down or
    restarting, a dropped connection, a full disk, a read-only file, a lock held too long);
    False for the rest: a missing table or a bug stops the daemon, to be looked at."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    if not isinstance(exc, OperationalError | InterfaceError | DisconnectionError | PoolTimeout):
        return False
    text = str(getattr(exc, "orig", None) or exc).lower()
    return not any(k in text for k in ("no such table", "no such column", "syntax error"))


def sqlite_file(url: URL) -> Path | None:
    """The file of a SQLite URL (None: in memory, or another backend)."""
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _install_sqlite_hooks(engine: Engine, *, immediate: bool) -> None:
    """Pragmas on every new connection, and BEGIN IMMEDIATE for every transaction.

    The pysqlite driver opens transactions lazily at the first write, so two
    processes could read the same "new" row before either wrote: SQLite has no
    SELECT ... FOR UPDATE. Taking the write lock at BEGIN makes each
    transaction a claim; busy_timeout makes the others wait for it.
    """

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
        # Let SQLAlchemy (below) emit BEGIN itself rather than the driver.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute("PRAGMA journal_mode = WAL")
            # FULL: a commit is on disk before it returns. With NORMAL a power cut can
            # undo the last commits after their effects left the machine: an order
            # moved out of the INBOX but no longer recorded, a mail marked `sending`
            # and handed to the server but pending again, sent twice (see
            # docs/architecture.md, The store). Costs one fsync per commit.
            cursor.execute("PRAGMA synchronous = FULL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def make_engine(
    url: str | URL | None = None, *, echo: bool = False, sqlite_immediate: bool = True
) -> Engine:
    """An engine for ``url`` (default ``sqlite:///var/moderator.sqlite``).

    SQLite: WAL, foreign keys, a busy timeout, and the parent directory is
    created. PostgreSQL: psycopg 3 with pre-ping, so a restarted server costs
    one retry rather than an error.
    """
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = sqlite_file(parsed)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(parsed, echo=echo)
        _install_sqlite_hooks(engine, immediate=sqlite_immediate)
        return engine
    # A server that drops packets must not hold the daemon's database thread for minutes.
    return create_engine(
        parsed, echo=echo, pool_pre_ping=True, connect_args={"connect_timeout": 10}
    )


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions bound to ``engine``; use ``with factory.begin() as session:`` per unit of work.

    ``expire_on_commit`` is off so objects stay readable after the commit
    (e.g. to report what was done) without another round trip.
    """
    return sessionmaker(bind=engine, expire_on_commit=False)
