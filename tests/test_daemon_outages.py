"""The daemon under faults: every task waits out a database outage and resumes, a task
that fails for another reason stops the daemon, and mail interrupted by a crash goes out
again with its Message-ID."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, select, text
from sqlalchemy.orm import Session, sessionmaker
from test_daemon import write_config  # tests/ is on the path, not a package

from moderator.config import load_config
from moderator.daemon import EXIT_TASK_FAILED, Daemon
from moderator.mail.maildir import MaildirSink, open_maildir
from moderator.mail.smtp import SendResult, SendStatus
from moderator.service.admin import Admin, NewPlayer
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = [NewPlayer(n, f"{n.lower()}@example.test") for n in ("Anna", "Bob", "Chris")]


class Switch:
    """Makes every statement on an engine fail like a full disk while it is on: the
    database as the daemon sees it during an outage."""

    def __init__(self, engine: Engine, words: str = "database or disk is full") -> None:
        self.down = False
        self.words = words
        self.failures = 0
        event.listen(engine, "before_cursor_execute", self._check)

    def _check(self, *_: Any) -> None:
        if self.down:
            self.failures += 1
            raise sqlite3.OperationalError(self.words)


@dataclass
class Setup:
    tmp_path: Path
    engine: Engine
    factory: sessionmaker[Session]
    daemon: Daemon
    switch: Switch
    tag: str

    def inbox_add(self, raw: bytes) -> None:
        open_maildir(self.tmp_path / "mail" / "inbox").add(raw)

    def count(self, *where: Any, model: type[m.Base] = m.OutboxMessage) -> int:
        with self.factory.begin() as session:
            return session.scalar(select(func.count()).select_from(model).where(*where)) or 0


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[Setup]:
    config = load_config(write_config(tmp_path))
    upgrade(config.database.url)
    engine = make_engine(config.database.url)
    factory = make_session_factory(engine)
    daemon = Daemon(
        config,
        factory,
        MaildirSink(tmp_path / "mail" / "mailboxes"),
        maildir=tmp_path / "mail" / "inbox",
        poll_seconds=0.05,
    )
    tag, _ = Admin(daemon.moderator).new_game(PLAYERS, seed=5)
    switch = Switch(engine)
    try:
        yield Setup(tmp_path, engine, factory, daemon, switch, tag)
    finally:
        engine.dispose()


def status_mail(setup: Setup, n: int) -> bytes:
    player = PLAYERS[n % len(PLAYERS)]
    return (
        f"From: {player.name} <{player.address}>\r\nTo: moderator@example.test\r\n"
        f"Subject: Re: [{setup.tag}] your turn\r\nMessage-ID: <outage-{n}@example.test>\r\n"
        "Content-Type: text/plain\r\n\r\nhelp\r\n"
    ).encode()


async def until(check: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def test_every_task_waits_out_a_database_outage_and_all_mail_goes_out_after_it(
    setup: Setup, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="moderator")

    def tasks_in(prefix: str) -> set[str]:
        lines = (r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)
        return {line.split()[1].rstrip(":") for line in lines if line.startswith(prefix)}

    async def scenario() -> None:
        runner = asyncio.create_task(setup.daemon.run())
        await until(lambda: setup.count(m.OutboxMessage.status == m.OutboxStatus.SENT) == 3)
        setup.switch.down = True
        for n in range(8):  # mail arrives while the database is away
            setup.inbox_add(status_mail(setup, n))
        await until(lambda: setup.switch.failures > 20)  # every task has tried, some twice
        await asyncio.sleep(1.0)
        assert not runner.done(), "the daemon gave up"
        setup.switch.down = False
        await until(
            lambda: (
                setup.count(model=m.InboundMessage) == 8
                and setup.count(
                    m.InboundMessage.status == m.MessageStatus.NEW, model=m.InboundMessage
                )
                == 0
                and setup.count(m.OutboxMessage.status != m.OutboxStatus.SENT) == 0
            )
        )
        # Every task that met the outage says it is over (after its backoff, up to 15 s).
        await until(lambda: tasks_in("outage task=") <= tasks_in("recovered task="), 60)
        setup.daemon.stop()
        await runner

    asyncio.run(scenario())
    assert setup.daemon.failure is None
    assert setup.count(m.OutboxMessage.status == m.OutboxStatus.SENT) == 3 + 8  # help replies
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    # One line per task that met the outage, naming the database and what failed.
    assert errors and all(e.startswith("outage task=") for e in errors), errors
    assert len(errors) == len({e.split(":")[0] for e in errors})
    assert all("is on a full disk" in e and "m.sqlite" in e for e in errors)
    recovered = [r.getMessage() for r in caplog.records if r.getMessage().startswith("recovered")]
    assert len(recovered) == len(errors)


class Handing:
    """A transport that notes how many mails are marked `sending` whenever it is handed
    one, and can take the database away right after a hand-over."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.marked: list[int] = []
        self.handed: list[bytes] = []
        self.fail_after: int | None = None

    async def send(self, raw: bytes, mail_from: str, rcpt_to: list[str]) -> SendResult:
        with self.setup.engine.connect() as conn:
            self.marked.append(
                conn.execute(text("SELECT count(*) FROM outbox WHERE status = 'sending'")).scalar()
                or 0
            )
        self.handed.append(raw)
        if self.fail_after is not None and len(self.handed) == self.fail_after:
            self.setup.switch.down = True  # the answer cannot be recorded now
        return SendResult(SendStatus.ACCEPTED)

    async def close(self) -> None:
        return None


def test_each_mail_is_marked_sending_just_before_it_is_handed_over(setup: Setup) -> None:
    transport = Handing(setup)
    setup.daemon.transports = [transport, Handing(setup)]
    setup.daemon.transports[1].marked = transport.marked  # type: ignore[attr-defined]
    setup.daemon.transports[1].handed = transport.handed  # type: ignore[attr-defined]
    Admin(setup.daemon.moderator).new_game(
        [NewPlayer(f"P{i}", f"p{i}@example.test") for i in range(5)], seed=9
    )
    assert asyncio.run(setup.daemon.send_due()) == 3 + 5
    # Never more marked than there are connections, whatever the batch (not 50 at once).
    assert max(transport.marked) <= 2
    assert setup.count(m.OutboxMessage.status != m.OutboxStatus.SENT) == 0


def test_an_answer_the_database_could_not_take_is_recorded_when_it_is_back(setup: Setup) -> None:
    transport = Handing(setup)
    transport.fail_after = 2
    setup.daemon.transports = [transport]

    async def scenario() -> None:
        with pytest.raises(Exception, match="full"):
            await setup.daemon.send_due()
        setup.switch.down = False
        while await setup.daemon.send_due():
            pass

    asyncio.run(scenario())
    # Each mail handed over exactly once, and recorded sent: nothing left `sending`.
    assert len(transport.handed) == len(set(transport.handed)) == 3
    assert setup.count(m.OutboxMessage.status == m.OutboxStatus.SENT) == 3


def test_mail_left_sending_by_a_crash_is_sent_again_at_the_start_with_its_message_id(
    setup: Setup, caplog: pytest.LogCaptureFixture
) -> None:
    with setup.factory.begin() as session:
        row = session.scalars(select(m.OutboxMessage).order_by(m.OutboxMessage.id)).first()
        assert row is not None
        row.status = m.OutboxStatus.SENDING  # as a SIGKILL after the hand-over leaves it
        row_id, message_id = row.id, row.message_id
    transport = Handing(setup)
    setup.daemon.transports = [transport]
    caplog.set_level(logging.INFO, logger="moderator")

    async def scenario() -> None:
        runner = asyncio.create_task(setup.daemon.run())
        await until(lambda: setup.count(m.OutboxMessage.status != m.OutboxStatus.SENT) == 0)
        setup.daemon.stop()
        await runner

    asyncio.run(scenario())
    assert setup.daemon.counters.resent == 1
    assert sum(message_id.encode() in raw for raw in transport.handed) == 1
    assert any(
        f"resending outbox={row_id} message_id={message_id}" in r.getMessage()
        for r in caplog.records
    )


def test_a_task_failing_for_another_reason_stops_the_daemon(setup: Setup) -> None:
    def broken() -> int:
        raise RuntimeError("a bug in the clock")

    setup.daemon.moderator.tick = broken  # type: ignore[method-assign]

    async def scenario() -> None:
        await asyncio.wait_for(setup.daemon.run(), 30)

    asyncio.run(scenario())
    assert setup.daemon.failure is not None and "clock" in setup.daemon.failure


def test_moderator_run_exits_non_zero_when_a_task_fails_and_names_why(tmp_path: Path) -> None:
    config_path = write_config(tmp_path)
    config = load_config(config_path)
    upgrade(config.database.url)
    proc = subprocess.Popen(
        [sys.executable, "-m", "moderator", "run", "--config", str(config_path)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        engine = make_engine(config.database.url)
        deadline = time.monotonic() + 60

        def started() -> bool:  # the daemon's run is recorded (a short transaction each)
            with engine.connect() as conn:
                return bool(conn.execute(text("SELECT count(*) FROM daemon_runs")).scalar())

        while not started():
            assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        with engine.begin() as conn:  # not an outage: someone dropped a table under it
            conn.execute(text("DROP TABLE outbox"))
        engine.dispose()
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == EXIT_TASK_FAILED, err.decode()
    assert b"has no such table" in err and b"daemon failed" in err
