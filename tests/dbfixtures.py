"""Database fixtures: every store test runs on SQLite and on a throwaway PostgreSQL database.

PostgreSQL: per test session, one uniquely named database (``pr_test_<random>``)
is created on the server named by ``PR_TEST_PG_URL`` (default: the local
server at 127.0.0.1:5432, user postgres, trust auth) and dropped at the end.
When no server answers, the PostgreSQL parameters are skipped with the reason.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session, sessionmaker

from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade
from moderator.store.models import Base

PG_ADMIN_URL = os.environ.get(
    "PR_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
BACKENDS = ["sqlite", "postgresql"]


class PostgresServer:
    """Creates and drops throwaway databases on one server."""

    def __init__(self, admin_url: URL) -> None:
        self.admin_url = admin_url
        self.prefix = f"pr_test_{secrets.token_hex(4)}"
        self.created: list[str] = []
        self._admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")

    def create_database(self, suffix: str = "") -> URL:
        name = self.prefix + (f"_{suffix}" if suffix else "")
        with self._admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        self.created.append(name)
        return self.admin_url.set(database=name)

    def reset_schema(self, url: URL) -> None:
        """Leave the database at ``url`` empty (as new) without recreating it."""
        engine = create_engine(url, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                conn.execute(text("DROP SCHEMA public CASCADE"))
                conn.execute(text("CREATE SCHEMA public"))
        finally:
            engine.dispose()

    def close(self) -> None:
        with self._admin.connect() as conn:
            for name in self.created:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self._admin.dispose()


def _connect_postgres() -> tuple[PostgresServer | None, str]:
    url = make_url(PG_ADMIN_URL)
    probe = create_engine(url, connect_args={"connect_timeout": 3})
    try:
        with probe.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # any failure means: no usable server
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc)
        return None, f"no PostgreSQL server answers at {url.render_as_string()}: {first_line}"
    finally:
        probe.dispose()
    return PostgresServer(url), ""


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """The PostgreSQL server for this session, or a skip saying why there is none."""
    server, reason = _connect_postgres()
    if server is None:
        pytest.skip(reason)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def pg_scratch_url(pg_server: PostgresServer) -> URL:
    """A throwaway database for tests that need it empty (reset before each use)."""
    return pg_server.create_database("scratch")


@pytest.fixture(params=BACKENDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> URL:
    """URL of an empty database with no tables, on each backend in turn."""
    if request.param == "sqlite":
        return make_url(f"sqlite:///{tmp_path / 'empty.sqlite'}")
    server: PostgresServer = request.getfixturevalue("pg_server")
    url: URL = request.getfixturevalue("pg_scratch_url")
    server.reset_schema(url)
    return url


@pytest.fixture(scope="session", params=BACKENDS)
def migrated_engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    """An engine on a database migrated to head once per session, per backend."""
    if request.param == "sqlite":
        url = make_url(f"sqlite:///{tmp_path_factory.mktemp('db') / 'store.sqlite'}")
    else:
        server: PostgresServer = request.getfixturevalue("pg_server")
        url = server.create_database("store")
    upgrade(url)
    engine = make_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


def clear_tables(engine: Engine) -> None:
    """Delete every row (children first) so the next test starts from empty tables."""
    tables = list(reversed(Base.metadata.sorted_tables))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            names = ", ".join(t.name for t in tables)
            conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        else:
            for table in tables:
                conn.execute(table.delete())


@pytest.fixture
def db_engine(migrated_engine: Engine) -> Iterator[Engine]:
    """The migrated engine for one test; its tables are emptied afterwards."""
    try:
        yield migrated_engine
    finally:
        clear_tables(migrated_engine)


@pytest.fixture
def session_factory(db_engine: Engine) -> sessionmaker[Session]:
    """``moderator.store.db.make_session_factory`` on the test database."""
    return make_session_factory(db_engine)


@pytest.fixture
def session(session_factory: sessionmaker[Session]) -> Iterator[Session]:
    """A session on the test database, closed (uncommitted work rolled back) afterwards."""
    with session_factory() as s:
        yield s
