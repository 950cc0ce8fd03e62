"""Engine and session factory from a database URL (SQLite by default, or PostgreSQL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
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
    return create_engine(parsed, echo=echo, pool_pre_ping=True)


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions bound to ``engine``; use ``with factory.begin() as session:`` per unit of work.

    ``expire_on_commit`` is off so objects stay readable after the commit
    (e.g. to report what was done) without another round trip.
    """
    return sessionmaker(bind=engine, expire_on_commit=False)
