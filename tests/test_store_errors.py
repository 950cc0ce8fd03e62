"""Database errors in words: what failed, the database named without its password, and
whether a daemon waits it out (an outage) or stops (a bug, a missing table)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError, OperationalError

from moderator.store.db import describe_db_error, is_outage, make_engine


def failure(url: str, sql: str = "SELECT 1") -> Exception:
    engine = create_engine(url, connect_args={"connect_timeout": 3} if "postgres" in url else {})
    try:
        with engine.connect() as conn:
            conn.execute(text(sql))
    except Exception as exc:
        return exc
    finally:
        engine.dispose()
    raise AssertionError("no failure")


def test_a_refused_connection_is_an_outage_named_without_the_password() -> None:
    url = "postgresql+psycopg://moderator:hunter2@127.0.0.1:9/moderator"  # discard: closed
    exc = failure(url)
    said = describe_db_error(exc, url)
    assert is_outage(exc)
    assert said.startswith("the database postgresql+psycopg://moderator:***@127.0.0.1:9/moderator")
    assert "refused the connection" in said and "hunter2" not in said


def test_a_missing_table_is_not_an_outage_and_says_so(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'empty.sqlite'}"
    exc = failure(url, "SELECT * FROM games")
    assert not is_outage(exc)
    assert describe_db_error(exc, url) == (
        f"the database {url} has no such table (is it migrated?): no such table: games"
    )


def test_an_unreachable_sqlite_file_is_an_outage(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'no' / 'such' / 'folder.sqlite'}"
    exc = failure(url)
    assert is_outage(exc)
    assert "cannot be opened" in describe_db_error(exc, url)


def test_a_full_disk_is_an_outage() -> None:
    exc = OperationalError("INSERT", {}, Exception("database or disk is full"))
    assert is_outage(exc)
    assert "is on a full disk" in describe_db_error(exc, "sqlite:///x.sqlite")


def test_a_postgresql_database_refusing_connections_is_an_outage_and_says_so() -> None:
    # What bench/soak.py's PostgreSQL fault (ALLOW_CONNECTIONS false) makes the driver say.
    words = (
        'connection to server at "127.0.0.1", port 5432 failed: FATAL:  database "pr" is '
        "not currently accepting connections"
    )
    exc = OperationalError("SELECT 1", {}, Exception(words))
    assert is_outage(exc)
    assert "refuses connections" in describe_db_error(exc, "postgresql://u:pw@127.0.0.1/pr")
    assert "pw" not in describe_db_error(exc, "postgresql://u:pw@127.0.0.1/pr")


@pytest.mark.parametrize(
    "exc", [IntegrityError("INSERT", {}, Exception("UNIQUE")), RuntimeError("bug")]
)
def test_other_errors_are_not_outages(exc: Exception) -> None:
    assert not is_outage(exc)


def test_the_postgresql_server_names_a_missing_table(pg_scratch_url: object) -> None:
    url = str(pg_scratch_url.render_as_string(hide_password=False))  # type: ignore[attr-defined]
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT * FROM no_such_table"))
    except Exception as exc:
        assert not is_outage(exc)
        assert "has no such table" in describe_db_error(exc, url)
    else:
        raise AssertionError("no failure")
    finally:
        engine.dispose()
