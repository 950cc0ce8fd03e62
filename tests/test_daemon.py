"""The daemon: maildir in, outbox drained after commit, clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from moderator.config import load_config
from moderator.daemon import Daemon
from moderator.demo import MailBot, play_by_mail
from moderator.engine import Game
from moderator.mail.maildir import address_folder, new_messages, open_maildir
from moderator.mail.smtp import SendResult, SendStatus
from moderator.service.admin import Admin, NewPlayer
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade

ROOT = Path(__file__).resolve().parents[1]


def write_config(tmp_path: Path) -> Path:
    path = tmp_path / "moderator.toml"
    path.write_text(
        f"""
source = "maildir"
outgoing = "maildir"
[moderator]
address = "moderator@example.test"
secret = "WF3uCulbhG1Tqwz855JlTjuSuYPRYP33Kgfm8kgNR1g"
[database]
url = "sqlite:///{tmp_path}/m.sqlite"
[maildir]
path = "{tmp_path}/mail"
[deadlines]
tick_seconds = 0.2
"""
    )
    return path


def test_a_whole_game_by_mail_through_the_daemon(tmp_path: Path) -> None:
    """The demo's pipeline: every order a real mail, every reply delivered, the log
    equal to a replay, nothing sent twice."""
    names = ["Anna", "Bob", "Chris"]
    tag, daemon, admin = asyncio.run(play_by_mail(tmp_path, names, seed=11))
    record = admin.export(tag)
    assert record["final"] is not None
    ok, _ = admin.replay_check(tag)
    assert ok
    c = daemon.counters
    assert c.failed == 0 and c.retried == 0
    factory = daemon.factory
    with factory.begin() as session:
        rows = session.scalars(select(m.OutboxMessage)).all()
        ids = [r.message_id for r in rows]
        assert len(ids) == len(set(ids)) == c.sent
        assert all(r.status is m.OutboxStatus.SENT for r in rows)
    delivered = sum(
        len(os.listdir(address_folder(tmp_path / "mailboxes", f"{n.lower()}@example.test") / d))
        for n in names
        for d in ("new", "cur")
    )
    assert delivered == c.sent
    # A direct engine replay of the same actions gives the same final state.
    game = Game.new(names, 11)
    from moderator.engine import action_from

    for entry in record["actions"]:
        game.apply(entry["seat"], action_from(entry["action"]))
    assert game.over and [s.total for s in game.scores()] == [r["total"] for r in record["final"]]


class Flaky:
    """A transport that refuses the first n sends temporarily, then one permanently."""

    def __init__(self, temporary: int) -> None:
        self.temporary = temporary
        self.sent: list[bytes] = []

    async def send(self, raw: bytes, mail_from: str, rcpt_to: list[str]) -> SendResult:
        if self.temporary > 0:
            self.temporary -= 1
            return SendResult(SendStatus.TEMPORARY, reason="451 try later", code=451)
        if rcpt_to == ["bob@example.test"]:
            return SendResult(SendStatus.PERMANENT, reason="550 no such user", code=550)
        self.sent.append(raw)
        return SendResult(SendStatus.ACCEPTED)

    async def close(self) -> None:
        return None


def test_the_sender_retries_4xx_fails_5xx_and_never_resends_accepted_mail(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path))
    upgrade(config.database.url)
    factory = make_session_factory(make_engine(config.database.url))
    transport = Flaky(temporary=2)
    daemon = Daemon(config, factory, transport, poll_seconds=0.05)
    Admin(daemon.moderator).new_game(
        [NewPlayer("Anna", "anna@example.test"), NewPlayer("Bob", "bob@example.test")], seed=1
    )

    async def scenario() -> None:
        assert await daemon.send_due() == 2  # both deferred
        with factory.begin() as session:
            rows = session.scalars(select(m.OutboxMessage).order_by(m.OutboxMessage.id)).all()
            assert [r.status for r in rows] == [m.OutboxStatus.PENDING] * 2
            assert all(r.next_try_at > m.utcnow() for r in rows)
            for r in rows:
                r.next_try_at = m.utcnow()  # the backoff has passed
        assert await daemon.send_due() == 2
        assert await daemon.send_due() == 0  # nothing is due: nothing goes twice

    asyncio.run(scenario())
    with factory.begin() as session:
        rows = session.scalars(select(m.OutboxMessage).order_by(m.OutboxMessage.id)).all()
        assert [r.status for r in rows] == [m.OutboxStatus.SENT, m.OutboxStatus.FAILED]
        assert rows[1].last_error is not None and "550" in rows[1].last_error
    assert len(transport.sent) == 1


def test_moderator_run_answers_mail_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    config_path = write_config(tmp_path)
    config = load_config(config_path)
    upgrade(config.database.url)
    factory = make_session_factory(make_engine(config.database.url))
    from moderator.service.core import Moderator

    admin = Admin(Moderator(config, factory))
    tag, _ = admin.new_game(
        [NewPlayer("Anna", "anna@example.test"), NewPlayer("Bob", "bob@example.test")], seed=3
    )
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "moderator", "run", "--config", str(config_path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        mailboxes = tmp_path / "mail" / "mailboxes"
        anna = MailBot(mailboxes, 0, "Anna", "anna@example.test", seed=1)
        deadline = time.monotonic() + 30
        while not anna.read() and time.monotonic() < deadline:
            time.sleep(0.05)  # the game-start mail is sent by the daemon
        with factory.begin() as session:
            row = session.scalar(select(m.Game).where(m.Game.tag == tag))
            assert row is not None and row.snapshot is not None
            game = Game.from_json(row.snapshot.state_json)
        inbox = open_maildir(tmp_path / "mail" / "inbox")
        inbox.add(anna.order(game))
        box = address_folder(mailboxes, "anna@example.test")
        while not new_messages(box) and time.monotonic() < deadline:
            time.sleep(0.05)
        replies = [
            email.message_from_bytes(raw, policy=email.policy.default)
            for _, raw in new_messages(box)
        ]
        assert replies, "no answer from the daemon"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
        assert proc.returncode == 0, err.decode()
        assert b"daemon stopped" in err
    finally:
        if proc.poll() is None:
            proc.kill()
    with factory.begin() as session:
        statuses = session.scalars(select(m.InboundMessage.status)).all()
        assert statuses == [m.MessageStatus.DONE]


@pytest.mark.parametrize("bad", ["source = 'pigeon'", "[moderator]\nsecret = 'short'"])
def test_a_bad_config_is_a_clear_error_not_a_traceback(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(bad)
    proc = subprocess.run(
        [sys.executable, "-m", "moderator", "run", "--config", str(path)],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert b"Traceback" not in proc.stderr and proc.stderr.strip().count(b"\n") == 0
