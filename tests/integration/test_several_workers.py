"""Several workers on one PostgreSQL database and one mailbox, over real Dovecot and
Postfix: two full daemons, of which one reads the mailbox at a time, and a processor
(`run --no-poll`). Every message is handled once, nobody fights over the mailbox, and
the reader's clean stop hands the mailbox to the other at once, and one killed outright
hands it on when its lease runs out (docs/deploy.md)."""

from __future__ import annotations

import collections
import email
import email.policy
import os
import signal
import smtplib
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from mailstack import MailStack
from sqlalchemy import Engine, select
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, sessionmaker

from moderator.config import load_config, new_secret
from moderator.daemon import POLL_LEASE
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = (("Alice", "alice"), ("Bob", "bob"), ("Carol", "carol"), ("Dave", "dave"))


def write_config(stack: MailStack, directory: Path, db_url: str) -> Path:
    path = directory / "config.toml"
    path.write_text(
        f"""
source = "imap"
outgoing = "smtp"

[moderator]
address = "{stack.address("moderator")}"
secret = "{new_secret()}"

[database]
url = "{db_url}"

[imap]
host = "{stack.host}"
port = {stack.ports.imaps}
security = "imaps"
ca_file = "{stack.ca_cert}"
user = "{stack.address("moderator")}"
password = "{stack.password}"

[smtp]
host = "{stack.host}"
port = {stack.ports.smtp}
security = "starttls"
ca_file = "{stack.ca_cert}"

[deadlines]
tick_seconds = 1.0

[autopilot]
playouts = 4
"""
    )
    return path


class Worker:
    """One `moderator run` process with its log in a file."""

    def __init__(self, name: str, config: Path, directory: Path, *flags: str) -> None:
        self.name = name
        self.log = directory / f"{name}.log"
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "moderator", "run", "--config", str(config), *flags],
                cwd=ROOT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def text(self) -> str:
        return self.log.read_text()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=60)


def wait_until(
    what: str, predicate: Callable[[], bool], timeout: float, logs: Callable[[], str]
) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}\n{logs()}")
        time.sleep(0.1)


def new_game(
    stack: MailStack, pg_server: object, directory: Path, name: str
) -> tuple[Path, Engine, sessionmaker[Session]]:
    """A database of its own, migrated, a configuration for it, and a game of PLAYERS
    (its start mails waiting in the outbox)."""
    url: URL = pg_server.create_database(name)  # type: ignore[attr-defined]
    db_url = url.render_as_string(hide_password=False)
    upgrade(db_url)
    config_path = write_config(stack, directory, db_url)
    engine = make_engine(db_url)
    factory = make_session_factory(engine)
    admin = Admin(Moderator(load_config(config_path), factory), who="test")
    admin.new_game([NewPlayer(n, stack.address(u)) for n, u in PLAYERS], seed=5)
    return config_path, engine, factory


def reply_addresses(factory: sessionmaker[Session]) -> dict[str, str]:
    """Each player's reply address, from the mails that started the game."""
    with factory.begin() as session:
        return {
            row.recipient: email.message_from_bytes(row.raw, policy=email.policy.default)[
                "Reply-To"
            ]
            .addresses[0]
            .addr_spec
            for row in session.scalars(select(m.OutboxMessage))
        }


def send_round(stack: MailStack, reply_to: dict[str, str]) -> list[str]:
    """A "help" from every player to his reply address; their Message-IDs."""
    sent = []
    with smtplib.SMTP(stack.host, stack.ports.smtp, local_hostname="localhost") as smtp:
        for name, user in PLAYERS:
            msg = EmailMessage()
            msg["From"] = f"{name} <{stack.address(user)}>"
            msg["To"] = reply_to[stack.address(user)]
            msg["Subject"] = "Re: help"
            msg["Message-ID"] = make_msgid(domain="players.example.test")
            msg.set_content("help\n")
            smtp.send_message(msg)
            sent.append(str(msg["Message-ID"]))
    return sent


def handled(factory: sessionmaker[Session]) -> int:
    with factory.begin() as session:
        rows = session.scalars(select(m.InboundMessage.status)).all()
    return sum(status is m.MessageStatus.DONE for status in rows)


@pytest.fixture
def mailboxes(mailstack: MailStack) -> Iterator[MailStack]:
    for user in ("moderator", *(user for _, user in PLAYERS)):
        mailstack.purge(user, ["INBOX", "Processed"])
    yield mailstack


def test_one_reader_of_the_mailbox_and_processors_beside_it_handle_each_mail_once(
    mailboxes: MailStack, pg_server: object, tmp_path: Path
) -> None:
    stack = mailboxes
    config_path, engine, factory = new_game(stack, pg_server, tmp_path, "several_workers")
    reply_to = reply_addresses(factory)

    workers = [
        Worker("first", config_path, tmp_path),
        Worker("second", config_path, tmp_path),
        Worker("processor", config_path, tmp_path, "--no-poll"),
    ]

    def logs() -> str:
        return "\n".join(f"--- {w.name}\n{w.text()[-3000:]}" for w in workers)

    try:
        full = workers[:2]
        wait_until(
            "one reader and one that waits",
            lambda: (
                sum("mailbox lease taken" in w.text() for w in full) == 1
                and sum("this daemon processes and sends" in w.text() for w in full) == 1
            ),
            30,
            logs,
        )
        reader = next(w for w in full if "mailbox lease taken" in w.text())
        other = next(w for w in full if w is not reader)
        assert "lease" not in workers[2].text()  # --no-poll: never a reader
        checked = subprocess.run(
            [sys.executable, "-m", "moderator", "check", "--config", str(config_path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        (daemons,) = [line for line in checked.stdout.splitlines() if " daemons " in line]
        assert all(f":{w.proc.pid}" in daemons for w in workers), daemons
        assert f"mailbox read by {socket.gethostname()}:{reader.proc.pid}:" in daemons

        sent: list[str] = []
        for _ in range(3):
            sent += send_round(stack, reply_to)
        wait_until("12 messages handled", lambda: handled(factory) == 12, 60, logs)
        wait_until("the mailbox emptied", lambda: not stack.folder_uids("moderator"), 30, logs)

        # The reader stops cleanly: the other full daemon reads from now on, at once.
        assert reader.stop() == 0
        wait_until(
            "the other daemon to take the mailbox",
            lambda: "mailbox lease taken" in other.text(),
            20,
            logs,
        )
        sent += send_round(stack, reply_to)
        wait_until("16 messages handled", lambda: handled(factory) == 16, 60, logs)
        wait_until("the mailbox emptied", lambda: not stack.folder_uids("moderator"), 30, logs)
    finally:
        codes = [w.stop() for w in workers]
        engine.dispose()
    assert codes == [0, 0, 0], logs()
    assert_each_mail_handled_once(factory, stack, sent, workers)


def answers_sent(factory: sessionmaker[Session]) -> int:
    with factory.begin() as session:
        rows = session.scalars(
            select(m.OutboxMessage.status).where(m.OutboxMessage.inbound_message_id.is_not(None))
        ).all()
    return sum(status is m.OutboxStatus.SENT for status in rows)


def assert_each_mail_handled_once(
    factory: sessionmaker[Session], stack: MailStack, sent: list[str], workers: list[Worker]
) -> None:
    """Every mail sent was recorded, answered and moved to the processed folder once, and
    no worker logged trouble."""
    with factory.begin() as session:
        inbound = session.scalars(select(m.InboundMessage)).all()
        replies = session.scalars(
            select(m.OutboxMessage).where(m.OutboxMessage.inbound_message_id.is_not(None))
        ).all()
    assert sorted(row.message_id or "" for row in inbound) == sorted(sent)
    assert collections.Counter(r.inbound_message_id for r in replies) == {
        row.id: 1 for row in inbound
    }  # one answer to each mail, none twice
    assert all(r.status is m.OutboxStatus.SENT for r in replies)
    processed = [
        email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"]
        for raw in stack.read_mailbox("moderator", "Processed")
    ]
    assert sorted(map(str, processed)) == sorted(sent)
    text = "\n".join(w.text() for w in workers)
    for trouble in ("Traceback", "UID MOVE failed", "EXPUNGEISSUED", "level=ERROR"):
        assert trouble not in text, text
    lines = [line for line in text.splitlines() if " processed message=" in line]
    assert len(lines) == len(sent) and all("outcome=service" in line for line in lines)


@pytest.mark.parametrize("reader_host", ["this host", "another host"])
def test_a_reader_killed_outright_hands_the_mailbox_on(
    mailboxes: MailStack, pg_server: object, tmp_path: Path, reader_host: str
) -> None:
    """kill -9 leaves the dead reader's lease in the database (no clean stop hands it
    over). A reader of this host: the other full daemon sees its process is gone and
    takes the mailbox without waiting for the lease (made to run an hour here). A reader
    of another host, whose process cannot be asked about: nobody reads the mailbox until
    the lease runs out, then the other daemon does. Either way every mail, those that
    came meanwhile included, is handled, moved and answered once. The test moves the
    lease's expiry instead of waiting LEASE_SECONDS: it waits for no clock."""
    stack = mailboxes
    name = f"lease_takeover_{reader_host.replace(' ', '_')}"
    config_path, engine, factory = new_game(stack, pg_server, tmp_path, name)
    reply_to = reply_addresses(factory)
    workers = [Worker("first", config_path, tmp_path), Worker("second", config_path, tmp_path)]

    def logs() -> str:
        return "\n".join(f"--- {w.name}\n{w.text()[-3000:]}" for w in workers)

    def lease_runs_until(moment: datetime, holder_host: str | None = None) -> None:
        with factory.begin() as session:
            lease = session.get(m.Lease, POLL_LEASE, with_for_update=True)
            assert lease is not None
            lease.expires_at = moment
            if holder_host is not None:
                lease.holder = holder_host + ":" + lease.holder.partition(":")[2]

    sent: list[str] = []
    try:
        wait_until(
            "one reader",
            lambda: sum("mailbox lease taken" in w.text() for w in workers) == 1,
            30,
            logs,
        )
        reader = next(w for w in workers if "mailbox lease taken" in w.text())
        other = next(w for w in workers if w is not reader)
        sent += send_round(stack, reply_to)
        wait_until("4 messages handled", lambda: handled(factory) == 4, 60, logs)
        wait_until("the mailbox emptied", lambda: not stack.folder_uids("moderator"), 30, logs)
        wait_until("4 answers sent", lambda: answers_sent(factory) == 4, 60, logs)

        an_hour = m.utcnow() + timedelta(hours=1)
        if reader_host == "this host":
            reader.proc.send_signal(signal.SIGKILL)
            assert reader.proc.wait(timeout=30) == -signal.SIGKILL
            lease_runs_until(an_hour)  # whoever holds it: no waiting for it to run out
            sent += send_round(stack, reply_to)
        else:
            # The other daemon holds still while the dead reader's lease becomes that of
            # a process elsewhere (so it cannot take it over in between).
            other.proc.send_signal(signal.SIGSTOP)
            try:
                reader.proc.send_signal(signal.SIGKILL)
                assert reader.proc.wait(timeout=30) == -signal.SIGKILL
                lease_runs_until(an_hour, holder_host="elsewhere.example.test")
            finally:
                other.proc.send_signal(signal.SIGCONT)
            # Mail that comes while the dead reader's lease runs waits in the mailbox.
            sent += send_round(stack, reply_to)
            wait_until(
                "4 mails delivered", lambda: len(stack.folder_uids("moderator")) == 4, 30, logs
            )
            assert "mailbox lease taken" not in other.text()
            assert handled(factory) == 4
            lease_runs_until(m.utcnow() - timedelta(seconds=1))
        wait_until(
            "the other daemon to take the mailbox",
            lambda: "mailbox lease taken" in other.text(),
            30,
            logs,
        )
        wait_until("8 messages handled", lambda: handled(factory) == 8, 60, logs)
        wait_until("the mailbox emptied", lambda: not stack.folder_uids("moderator"), 30, logs)
        wait_until("8 answers sent", lambda: answers_sent(factory) == 8, 60, logs)
    finally:
        codes = sorted(w.stop() for w in workers)
        engine.dispose()
    assert codes == [-signal.SIGKILL, 0], logs()  # the reader killed, the other stopped
    assert_each_mail_handled_once(factory, stack, sent, workers)
