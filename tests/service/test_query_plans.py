"""No query of an order's processing reads a table whole: each finds its rows by an index,
so an order costs the same with 10 or 100,000 games stored (bench/store.py measures it)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PLAYERS
from letters import latest_reply_to, letter
from sqlalchemy import Engine, event
from sqlalchemy.orm import sessionmaker

from moderator.config import Config
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade

# "SCAN t" reads table t whole (with or without a covering index); "SEARCH t USING ..."
# goes straight to the rows. A scan of a temporary b-tree (ORDER BY) is not a table.
_SCAN = re.compile(r"\bSCAN (?!CONSTANT ROW)(\w+)")


@pytest.fixture
def sqlite_engine(tmp_path: Path) -> Iterator[Engine]:
    url = f"sqlite:///{tmp_path / 'plans.sqlite'}"
    upgrade(url)
    engine = make_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


def plans(engine: Engine, statements: list[tuple[str, Any]]) -> dict[str, list[str]]:
    """Each statement's scans of whole tables, by SQLite's query planner."""
    found: dict[str, list[str]] = {}
    with engine.connect() as conn:
        for sql, params in statements:
            if not sql.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE", "WITH")):
                continue
            rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", params).all()
            scans = [t for row in rows for t in _SCAN.findall(str(row[-1]))]
            if scans:
                found[" ".join(sql.split())[-200:]] = scans
    return found


def test_processing_an_order_reads_no_table_whole(sqlite_engine: Engine, config: Config) -> None:
    factory: sessionmaker[Any] = make_session_factory(sqlite_engine)
    moderator = Moderator(config, factory)
    admin = Admin(moderator)
    for i in range(3):  # other games, so that a scan would have something to read
        admin.new_game([NewPlayer(f"P{i}{s}", f"p{i}{s}@example.test") for s in range(3)])
    tag, passwords = admin.new_game(PLAYERS, seed=7)
    anna = PLAYERS[0].address
    mails = [
        letter(anna, latest_reply_to(factory, anna), "role settler"),  # applied, boards
        letter(PLAYERS[1].address, latest_reply_to(factory, PLAYERS[1].address), "take corn"),
        letter(anna, latest_reply_to(factory, anna), "help\nboard\nhistory"),  # services
        letter(anna, latest_reply_to(factory, anna), "ship 9 gold"),  # an error
        letter(
            anna,
            "moderator@example.test",
            f"password {passwords[0]}\nstatus",
            subject=f"Re: [{tag}]",
        ),  # by password
        letter(anna, "moderator@example.test", "status", subject=f"Re: [{tag}]"),  # refused
        letter("stranger@example.test", "moderator@example.test", "role mayor"),  # no game
    ]
    statements: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, sql: str, params: Any, *_: Any) -> None:
        statements.append((sql, params))

    event.listen(sqlite_engine, "before_cursor_execute", record)
    try:
        for raw in mails:
            moderator.ingest(raw, source=m.MessageSource.PIPE)
            assert moderator.process_next("plans")
    finally:
        event.remove(sqlite_engine, "before_cursor_execute", record)
    assert len(statements) > 50
    assert plans(sqlite_engine, statements) == {}
