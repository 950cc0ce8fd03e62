"""A complete 4-player game played by mail over real Dovecot and Postfix, the daemon a process."""

from __future__ import annotations

import collections
import contextlib
import email
import email.policy
import imaplib
import json
import os
import signal
import smtplib
import subprocess
import sys
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest
from mailstack import MailStack
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from moderator.bots import HeuristicBot
from moderator.config import load_config
from moderator.demo import asks_for_orders
from moderator.engine import Game, action_from
from moderator.orders import format_action
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade
from moderator.store.queries import unsent_mail

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = (("Alice", "alice"), ("Bob", "bob"), ("Carol", "carol"), ("Dave", "dave"))
GAME_SEED = 4242
GAME_TIMEOUT = 280.0  # seconds for the whole game; it takes about a third of that here
STALL_TIMEOUT = 20.0  # no order sent and no mail received for this long: something is stuck


def write_config(stack: MailStack, directory: Path, db_url: str) -> Path:
    """IMAPS in and STARTTLS out, both checked against the stack's own CA."""
    path = directory / "moderator.toml"
    path.write_text(
        f"""
source = "imap"
outgoing = "smtp"
log_level = "INFO"

[moderator]
address = "{stack.address("moderator")}"
secret = "dPuZTTf0ykLtEgLmgfk2S99GaI7gokXJpQ5rZ0RJVf8"

[database]
url = "{db_url}"

[imap]
host = "{stack.host}"
port = {stack.ports.imaps}
security = "imaps"
ca_file = "{stack.ca_cert}"
user = "{stack.address("moderator")}"
password = "{stack.password}"
mailbox = "INBOX"
processed_folder = "Processed"
idle = true

[smtp]
host = "{stack.host}"
port = {stack.ports.smtp}
security = "starttls"
ca_file = "{stack.ca_cert}"

[limits]
# Every order is acknowledged, and a bot waits for that answer before it orders again;
# the default cap (30 replies an hour) would silence the acks within a fast game.
replies_per_sender_per_hour = 10000

[deadlines]
tick_seconds = 1.0

[autopilot]
# The search player, as deployed, thinking in its own process while the mails that
# announce its choices wait; a few playouts a decision keep the game quick.
playouts = 4
"""
    )
    return path


class ImapBot:
    """A player who reads his own IMAP mailbox and answers through SMTP, like a person would:
    he orders when the mail asks him, and waits for the answer to one order before the next."""

    def __init__(self, stack: MailStack, seat: int, name: str, user: str, seed: int) -> None:
        self.stack = stack
        self.seat = seat
        self.name = name
        self.address = stack.address(user)
        self.brain = HeuristicBot(seed)
        self.imap = imaplib.IMAP4(stack.host, stack.ports.imap, timeout=10)
        self.imap.login(self.address, stack.password)
        self.imap.select("INBOX", readonly=True)
        self.smtp = smtplib.SMTP(stack.host, stack.ports.smtp, local_hostname="localhost")
        self.last_uid = 0
        self.reply_to: str | None = None
        self.last_id: str | None = None
        self.asked = False
        self.in_flight: str | None = None  # Message-ID of the order not yet answered
        self.received: list[str] = []
        self.sent: list[str] = []
        self.log: list[tuple[str, str]] = []

    def poll(self) -> int:
        """Read new mail (NOOP lets Dovecot see it at once; no IDLE notify delay here)."""
        self.imap.noop()
        _, data = self.imap.uid("SEARCH", f"UID {self.last_uid + 1}:*")
        uids = [int(n) for n in (data[0] or b"").split() if int(n) > self.last_uid]
        if not uids:
            return 0
        _, fetched = self.imap.uid("FETCH", ",".join(map(str, uids)), "(UID BODY.PEEK[])")
        count = 0
        for item in fetched:
            if not isinstance(item, tuple):
                continue
            msg = email.message_from_bytes(item[1], policy=email.policy.default)
            count += 1
            self.received.append(str(msg["Message-ID"]))
            self.log.append((str(msg["Subject"]), str(msg["In-Reply-To"])))
            if msg["Reply-To"]:
                self.reply_to = msg["Reply-To"].addresses[0].addr_spec
                self.last_id = str(msg["Message-ID"])
            if self.in_flight is not None and str(msg["In-Reply-To"] or "") == self.in_flight:
                self.in_flight = None
            self.asked = self.asked or asks_for_orders(msg)
        self.last_uid = max(uids)
        return count

    @property
    def ready(self) -> bool:
        return self.asked and self.in_flight is None and self.reply_to is not None

    def order(self, game: Game) -> None:
        """Decide from the board and send the order to the signed reply address."""
        assert self.reply_to is not None
        action = self.brain.choose(game, self.seat)
        msg = EmailMessage()
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = self.reply_to
        msg["Subject"] = "Re: orders"
        msg["Message-ID"] = make_msgid(domain="players.example.test")
        msg["Date"] = format_datetime(m.utcnow())
        if self.last_id:
            msg["In-Reply-To"] = self.last_id
        msg.set_content(f"{format_action(action, game, self.seat)}\n\n-- \n{self.name}\n")
        self.smtp.sendmail(self.address, [self.reply_to], bytes(msg))
        self.asked = False
        self.in_flight = str(msg["Message-ID"])
        self.sent.append(self.in_flight)

    def close(self) -> None:
        for quit_ in (self.imap.logout, self.smtp.quit):
            with contextlib.suppress(OSError, imaplib.IMAP4.error, smtplib.SMTPException):
                quit_()


def message_ids(raws: list[bytes]) -> list[str]:
    return [
        str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"])
        for raw in raws
    ]


def game_state(engine: Engine, tag: str) -> tuple[m.GameStatus, int, str]:
    """Read-only look at the game row: status, version and the snapshot JSON."""
    with Session(engine) as session:
        row = session.scalar(select(m.Game).where(m.Game.tag == tag))
        assert row is not None and row.snapshot is not None
        return row.status, row.snapshot.seq, row.snapshot.state_json


def outbox_busy(engine: Engine) -> int:
    with Session(engine) as session:
        return unsent_mail(session)


def outbox_ids(engine: Engine) -> dict[str, list[str]]:
    """recipient -> Message-IDs of the mails the outbox says were sent to it."""
    with Session(engine) as session:
        rows = session.execute(
            select(m.OutboxMessage.recipient, m.OutboxMessage.message_id, m.OutboxMessage.status)
        ).all()
    assert {status for *_, status in rows} == {m.OutboxStatus.SENT}
    sent: dict[str, list[str]] = collections.defaultdict(list)
    for recipient, message_id, _ in rows:
        sent[recipient].append(message_id)
    return sent


def wait_until(what: str, predicate: object, timeout: float) -> None:
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.fixture
def mailboxes(mailstack: MailStack) -> Iterator[MailStack]:
    """The moderator's and the players' mailboxes, empty at the start."""
    for user in ("moderator", *(user for _, user in PLAYERS)):
        mailstack.purge(user, ["INBOX", "Processed"])
    yield mailstack


def test_a_complete_game_by_mail_over_imap_and_smtp(mailboxes: MailStack, tmp_path: Path) -> None:
    stack = mailboxes
    started = time.monotonic()
    db_url = f"sqlite:///{tmp_path / 'moderator.sqlite'}"
    config_path = write_config(stack, tmp_path, db_url)
    config = load_config(config_path)
    upgrade(db_url)
    admin = Admin(Moderator(config, make_session_factory(make_engine(db_url))), who="test")
    players = [NewPlayer(name, stack.address(user)) for name, user in PLAYERS]
    tag, _ = admin.new_game(players, seed=GAME_SEED)
    reader = make_engine(db_url, sqlite_immediate=False)

    log_path = tmp_path / "daemon.log"
    with open(log_path, "wb") as log_file:  # a file, not a pipe the daemon could fill
        daemon = subprocess.Popen(
            [sys.executable, "-m", "moderator", "run", "--config", str(config_path)],
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    bots = [
        ImapBot(stack, seat, name, user, seed=GAME_SEED * 31 + seat)
        for seat, (name, user) in enumerate(PLAYERS)
    ]
    try:
        # -- the game: bots read their mail and order when asked ---------------------------
        version = -1
        game: Game | None = None
        status = m.GameStatus.ACTIVE
        last_progress = time.monotonic()
        while status is m.GameStatus.ACTIVE:
            now = time.monotonic()
            assert now - started < GAME_TIMEOUT, "the game did not finish in time"
            if now - last_progress > STALL_TIMEOUT:
                waiting = {b.name: (b.asked, b.in_flight, b.log[-3:]) for b in bots}
                pytest.fail(f"stalled at version {version}: {waiting}\n{log_path.read_text()}")
            if sum(bot.poll() for bot in bots):
                last_progress = now
            if any(bot.ready for bot in bots):
                status, seq, state_json = game_state(reader, tag)
                if seq != version or game is None:
                    version, game = seq, Game.from_json(state_json)
                deciding = set(game.deciding())
                for bot in bots:
                    if bot.ready and bot.seat in deciding:
                        bot.order(game)
                        last_progress = now
            else:
                time.sleep(0.005)
                status, _, _ = game_state(reader, tag)
        played = time.monotonic() - started

        # -- let the last mails arrive and the last orders move -----------------------------
        def settled() -> bool:
            if outbox_busy(reader) or stack.folder_uids("moderator"):
                return False
            sent = outbox_ids(reader)
            return all(
                len(stack.folder_uids(user)) == len(sent[stack.address(user)])
                for _, user in PLAYERS
            )

        wait_until("the outbox to drain and the mail to arrive", settled, timeout=30.0)
        for bot in bots:
            bot.poll()  # the final scores
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=30) == 0, log_path.read_text()[-4000:]
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        for bot in bots:
            bot.close()
    log_text = log_path.read_text()
    assert "daemon stopped" in log_text
    assert "Traceback" not in log_text, log_text[-4000:]

    # -- the game finished, and every order was a real mail ----------------------------------
    record = admin.export(tag)
    assert record["game"]["status"] == "finished" and record["final"] is not None
    orders = [mid for bot in bots for mid in bot.sent]
    assert len(orders) == len(set(orders))
    actors = collections.Counter(entry["actor"] for entry in record["actions"])
    assert actors["player"] == len(orders), actors  # one applied action per order mail
    assert set(actors) <= {"player", "forced"}
    assert {e["message_id"] for e in record["actions"] if e["actor"] == "player"} == set(orders)

    # -- each mailbox holds exactly what the outbox says was sent to it, nothing twice ---------
    sent = outbox_ids(reader)
    assert set(sent) == {stack.address(user) for _, user in PLAYERS}
    total = 0
    for bot in bots:
        delivered = message_ids(stack.read_mailbox(bot.address.split("@")[0]))
        assert len(delivered) == len(set(delivered)), f"{bot.name} got a mail twice"
        assert sorted(delivered) == sorted(sent[bot.address]), bot.name
        assert sorted(bot.received) == sorted(delivered)
        total += len(delivered)
    all_sent = [mid for ids in sent.values() for mid in ids]
    assert len(all_sent) == len(set(all_sent)) == total

    # -- the record equals a direct engine replay of the same orders --------------------------
    replay = Game.new([name for name, _ in PLAYERS], GAME_SEED)
    for entry in record["actions"]:
        replay.apply(entry["seat"], action_from(entry["action"]))
    assert replay.over
    assert [s.total for s in replay.scores()] == [row["total"] for row in record["final"]]
    assert [s.tiebreak for s in replay.scores()] == [row["tiebreak"] for row in record["final"]]
    _, seq, state_json = game_state(reader, tag)
    assert seq == len(record["actions"])
    assert json.loads(replay.to_json()) == json.loads(state_json)
    assert replay.to_json() == state_json
    assert admin.replay_check(tag)[0]

    # -- the moderator read every order once and filed it away --------------------------------
    assert stack.read_mailbox("moderator") == []
    processed = message_ids(stack.read_mailbox("moderator", "Processed"))
    assert sorted(processed) == sorted(orders)
    with Session(reader) as session:
        statuses = session.scalars(select(m.InboundMessage.status)).all()
    assert collections.Counter(statuses) == {m.MessageStatus.DONE: len(orders)}

    elapsed = time.monotonic() - started
    print(
        f"\n{tag}: {len(record['actions'])} actions ({dict(actors)}), {len(orders)} order mails, "
        f"{total} mails delivered; game {played:.1f} s, whole test {elapsed:.1f} s"
    )
