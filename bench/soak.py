"""Crash-and-fault soak (issue 13, item 7): orders by real mail while the daemon is killed
and its servers fail, then the books are checked and docs/reliability.md is written.

The daemon runs as in production (``moderator run``: IMAPS in from Dovecot, STARTTLS out
through Postfix, both real, on loopback, started from a temporary directory by
tests/mailstack). Players are played by this script: for each game it reads the board,
lets the heuristic bot choose, and mails the order to the seat's signed reply address
through Postfix, one order in flight per game. Meanwhile, in two legs:

- SQLite (the database on a small tmpfs of its own): the daemon SIGKILLed at random
  moments and started again; Postfix stopped a while; Dovecot stopped and started; the
  tmpfs filled to the last byte; the tmpfs made read-only (root ignores a file's mode).
- PostgreSQL (a throwaway database at 127.0.0.1:5432, when a server answers): SIGKILLs;
  the database refusing connections (ALLOW_CONNECTIONS false, its sessions ended), then
  back. The shared server itself is never stopped.

The hostile corpus (tests/data/mail/hostile/) goes through the same Postfix and Dovecot
to a game of its own during the first leg.

At the end of each leg the daemon is stopped with SIGTERM and the books are read:
orders lost (mailed, never applied), applied twice, mails lost (in the outbox as sent to
a player, absent from his mailbox, or never sent), duplicate mails (one Message-ID twice
in a mailbox: resent after a kill), the time to recover from each fault (from the fault's
end until every order sent before it is applied and the outbox is empty), and what became
of each hostile mail. ``--report PATH`` writes them (docs/reliability.md by default).

Run (as root, for Dovecot, Postfix and the tmpfs): ``nice -n 10 .venv/bin/python
bench/soak.py`` (``--help`` for the knobs; ``--short`` is the run of tests/integration/
test_soak.py).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import dataclasses
import email
import email.policy
import hashlib
import json
import os
import random
import shutil
import signal
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from sqlalchemy import Engine, create_engine, func, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the mail stack and the hostile corpus
sys.path.insert(0, str(ROOT / "tests" / "integration"))  # the end-to-end test's config
sys.path.insert(0, str(ROOT / "bench"))

import hostile  # noqa: E402
from mailstack import MailStack, MailStackUnavailable, running  # noqa: E402
from store import postgres_url  # noqa: E402  (bench/store.py: a throwaway database)
from test_end_to_end import write_config  # noqa: E402  (IMAPS in, STARTTLS out)

from moderator.bots import HeuristicBot  # noqa: E402
from moderator.config import load_config  # noqa: E402
from moderator.engine import Game  # noqa: E402
from moderator.orders import format_action  # noqa: E402
from moderator.service.admin import Admin, NewPlayer  # noqa: E402
from moderator.service.auth import reply_address  # noqa: E402
from moderator.service.core import Moderator  # noqa: E402
from moderator.store import models as m  # noqa: E402
from moderator.store.db import make_engine, make_session_factory  # noqa: E402
from moderator.store.migrate import upgrade  # noqa: E402

PG_ADMIN_URL = os.environ.get(
    "PR_BENCH_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
PLAYERS = (("Alice", "alice"), ("Bob", "bob"), ("Carol", "carol"), ("Dave", "dave"))
# The hostile corpus's game is seated as the corpus expects (tests/hostile.py): its
# players at the stack's domain have mailboxes; Bob's IDNA domain is bounced locally.
HOSTILE_USERS = ("anna", "chris", "david")
TMPFS_MB = 48
RESTART_SEC = 5.0  # docs/moderator.service


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


# -- the daemon ---------------------------------------------------------------------------


class Daemon:
    """``moderator run`` as a process of its own; its log appended across restarts."""

    def __init__(self, config: Path, log_path: Path) -> None:
        self.config = config
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.kills = 0
        self.exits: list[int] = []
        self.restart_at: float | None = None

    def start(self) -> None:
        with open(self.log_path, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "moderator", "run", "--config", str(self.config)],
                cwd=ROOT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def check(self) -> None:
        """A daemon that exited by itself is noted and started again as the systemd unit
        would (docs/moderator.service: RestartSec=5; after exit 2 it would not be, which
        is then a finding of this run)."""
        if self.proc is None or self.proc.poll() is None:
            return
        if self.restart_at is None:
            self.exits.append(self.proc.returncode)
            log(f"the daemon exited by itself with status {self.proc.returncode}")
            self.restart_at = time.monotonic() + RESTART_SEC
        elif time.monotonic() >= self.restart_at:
            self.restart_at = None
            self.start()

    def kill(self) -> None:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.kills += 1
        self.restart_at = None

    def stop(self) -> int:
        assert self.proc is not None
        if self.proc.poll() is not None:
            self.start()  # exited by itself: stop a running one, to see it stop cleanly
            time.sleep(3)
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return -9


# -- the players ---------------------------------------------------------------------------


@dataclass
class Order:
    message_id: str
    tag: str
    seat: int
    text: str
    sent_at: float


@dataclass
class Driver:
    """Mails each game's next order (the heuristic bot's choice) once the last is done."""

    stack: MailStack
    reader: Engine
    tags: list[str]
    moderator: str
    secret: bytes
    users: tuple[str, ...] = tuple(user for _, user in PLAYERS)
    sent: list[Order] = field(default_factory=list)
    in_flight: dict[str, Order] = field(default_factory=dict)
    smtp_down: int = 0  # sends refused (Postfix stopped)
    read_errors: int = 0  # the harness's own reads refused (the database away)
    finished: set[str] = field(default_factory=set)
    bots: dict[str, HeuristicBot] = field(default_factory=dict)
    rate: float = 3.0  # orders mailed per second at most (a steady flow through the faults)
    last_sent: float = 0.0

    def read(self) -> tuple[dict[str, str], dict[str, tuple[str, str | None]]] | None:
        """The in-flight orders' rows, then the games' snapshots (tag -> state JSON): in
        this order, so that a board read is never older than an order seen processed (the
        other way round, an order processed between the two reads was retired against the
        board before it, and the next order chosen from that stale board)."""
        try:
            with Session(self.reader) as session:
                ids = [o.message_id for o in self.in_flight.values()]
                rows = {
                    mid: (status.value, None if outcome is None else outcome.value)
                    for mid, status, outcome in session.execute(
                        select(
                            m.InboundMessage.message_id,
                            m.InboundMessage.status,
                            m.InboundMessage.outcome,
                        ).where(m.InboundMessage.message_id.in_(ids))
                    )
                }
                session.commit()  # a fresh snapshot of the database for the boards
                states = dict(
                    session.execute(
                        select(m.Game.tag, m.Snapshot.state_json)
                        .join(m.Snapshot, m.Snapshot.game_id == m.Game.id)
                        .where(m.Game.tag.in_(self.tags))
                    ).all()
                )
            return states, rows
        except SQLAlchemyError:
            self.read_errors += 1
            return None

    def step(self, budget: int) -> None:
        """Retire the orders processed, and mail the next ones (at most ``budget`` in all)."""
        got = self.read()
        if got is None:
            return
        states, rows = got
        for tag, order in list(self.in_flight.items()):
            status = rows.get(order.message_id)
            if status is not None and status[0] not in ("new", "processing"):
                del self.in_flight[tag]
        for tag in self.tags:
            if tag in self.in_flight or tag in self.finished or len(self.sent) >= budget:
                continue
            if time.monotonic() - self.last_sent < 1 / self.rate:
                return
            game = Game.from_json(states[tag])
            if game.over:
                self.finished.add(tag)
                continue
            seat = game.deciding()[0]
            seed = int(hashlib.sha256(tag.encode()).hexdigest()[:8], 16)
            bot = self.bots.setdefault(tag, HeuristicBot(seed))
            order_text = format_action(bot.choose(game, seat), game, seat)
            if not self.mail(tag, seat, order_text):
                return

    def mail(self, tag: str, seat: int, order_text: str) -> bool:
        user = self.users[seat]
        msg = EmailMessage()
        msg["From"] = self.stack.address(user)
        msg["To"] = reply_address(self.moderator, self.secret, tag, seat, 0)
        msg["Subject"] = f"Re: [{tag}] orders"
        msg["Message-ID"] = make_msgid(domain="soak.example.test")
        msg["Date"] = format_datetime(m.utcnow())
        msg.set_content(f"{order_text}\n")
        try:
            with smtplib.SMTP(self.stack.host, self.stack.ports.smtp, timeout=10) as smtp:
                smtp.sendmail(str(msg["From"]), [str(msg["To"])], bytes(msg))
        except (OSError, smtplib.SMTPException):
            self.smtp_down += 1
            return False
        self.last_sent = time.monotonic()
        order = Order(str(msg["Message-ID"]), tag, seat, order_text, self.last_sent)
        self.sent.append(order)
        self.in_flight[tag] = order
        return True


# -- the books -----------------------------------------------------------------------------


def outbox_settled(reader: Engine) -> bool:
    try:
        with Session(reader) as session:
            busy = session.scalar(
                select(func.count(m.OutboxMessage.id)).where(
                    m.OutboxMessage.status.in_((m.OutboxStatus.PENDING, m.OutboxStatus.SENDING))
                )
            )
            waiting = session.scalar(
                select(func.count(m.InboundMessage.id)).where(
                    m.InboundMessage.status.in_((m.MessageStatus.NEW, m.MessageStatus.PROCESSING))
                )
            )
    except SQLAlchemyError:
        return False
    return not busy and not waiting


@dataclass
class Fault:
    name: str
    lasted: float  # seconds the fault was on
    recovered: float | None  # seconds from its end until all was done again (None: never)


@dataclass
class Leg:
    backend: str
    orders: int = 0
    games: int = 0
    kills: int = 0
    lost: list[str] = field(default_factory=list)
    twice: list[str] = field(default_factory=list)
    not_applied: dict[str, int] = field(default_factory=dict)
    mails_sent: int = 0
    mails_lost: list[str] = field(default_factory=list)
    duplicates: int = 0
    refused_by_server: int = 0
    unsent: dict[str, int] = field(default_factory=dict)
    faults: list[Fault] = field(default_factory=list)
    kill_recoveries: list[float] = field(default_factory=list)
    exits: list[int] = field(default_factory=list)
    stop_status: int | None = None
    tracebacks: int = 0
    hostile: list[tuple[str, str, str]] = field(default_factory=list)
    elapsed: float = 0.0


def books(leg: Leg, driver: Driver, reader: Engine, stack: MailStack) -> None:
    """Orders lost or applied twice, and mails lost or duplicated, from the database and
    the players' mailboxes."""
    sent = {o.message_id for o in driver.sent}
    with Session(reader) as session:
        applied = dict(
            session.execute(
                select(m.InboundMessage.message_id, func.count(m.Action.id))
                .join(m.Action, m.Action.inbound_message_id == m.InboundMessage.id)
                .where(m.Action.actor == m.ActorKind.PLAYER)
                .group_by(m.InboundMessage.message_id)
            ).all()
        )
        outcomes = dict(
            session.execute(
                select(m.InboundMessage.message_id, m.InboundMessage.outcome).where(
                    m.InboundMessage.message_id.in_(sent)
                )
            ).all()
        )
        rows = session.execute(
            select(m.OutboxMessage.recipient, m.OutboxMessage.message_id, m.OutboxMessage.status)
        ).all()
    leg.orders = len(sent)
    leg.lost = sorted(mid for mid in sent if applied.get(mid, 0) == 0)
    leg.twice = sorted(mid for mid in sent if applied.get(mid, 0) > 1)
    leg.not_applied = dict(
        collections.Counter(
            str(outcomes.get(mid)) for mid in sent if outcomes.get(mid) is not m.Outcome.APPLIED
        )
    )
    users = {stack.address(u) for u in stack.users}
    boxes: dict[str, collections.Counter[str]] = {}
    for address in users:
        ids = collections.Counter(
            str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"])
            for raw in stack.read_mailbox(address.split("@")[0])
        )
        boxes[address] = ids
    for recipient, message_id, status in rows:
        if status is m.OutboxStatus.FAILED and recipient not in users:
            leg.refused_by_server += 1  # a hostile sender's address that has no mailbox
            continue
        if recipient not in users:
            continue
        leg.mails_sent += 1
        if status is not m.OutboxStatus.SENT:
            leg.unsent[status.value] = leg.unsent.get(status.value, 0) + 1
            leg.mails_lost.append(f"{message_id} to {recipient}: {status.value}")
        elif boxes[recipient][message_id] == 0:
            leg.mails_lost.append(f"{message_id} to {recipient}: not in the mailbox")
    leg.duplicates = sum(n - 1 for ids in boxes.values() for n in ids.values() if n > 1)


# -- the faults ----------------------------------------------------------------------------


class Harness:
    """One leg: a database, a daemon, the games, the players, the faults."""

    def __init__(
        self,
        stack: MailStack,
        work: Path,
        db_url: str,
        backend: str,
        args: argparse.Namespace,
        daemon_url: str | None = None,
    ) -> None:
        """``daemon_url``: the same database as the daemon reaches it (SQLite: through a
        bind mount that can be made read-only on its own)."""
        self.stack = stack
        self.args = args
        self.leg = Leg(backend)
        self.rng = random.Random(args.seed)
        upgrade(db_url)
        self.config_path = write_config(stack, work, daemon_url or db_url)
        config = load_config(self.config_path)
        self.factory = make_session_factory(make_engine(db_url))
        self.admin = Admin(Moderator(config, self.factory), who="soak")
        self.reader = make_engine(db_url, sqlite_immediate=False)
        for user in stack.users:
            stack.purge(user, ["INBOX", "Processed"])
        tags = []
        for g in range(args.games):
            players = [NewPlayer(name, stack.address(user)) for name, user in PLAYERS]
            tag, _ = self.admin.new_game(players, seed=1000 + g)
            tags.append(tag)
        self.leg.games = len(tags)
        self.secret = config.secret
        self.driver = Driver(stack, self.reader, tags, stack.address("moderator"), self.secret)
        self.daemon = Daemon(self.config_path, work / f"daemon-{backend}.log")
        self.started = time.monotonic()
        # Orders the driver may have mailed so far: each phase adds its share, so that
        # orders keep coming through every fault.
        self.budget = 0

    def allow(self, share: float) -> None:
        self.budget = min(self.args.orders, self.budget + max(1, round(share * self.args.orders)))

    # The orders flow while this runs: ``seconds`` of traffic (the daemon's own pace).
    def traffic(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.daemon.check()
            self.driver.step(self.budget)
            time.sleep(0.05)

    def settle(self, timeout: float) -> float | None:
        """Seconds until every order sent is processed and the outbox is empty."""
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            self.daemon.check()
            self.driver.step(len(self.driver.sent))  # retire, send nothing new
            if not self.driver.in_flight and outbox_settled(self.reader):
                return time.monotonic() - began
            time.sleep(0.1)
        return None

    def fault(
        self, name: str, on: Callable[[], None], off: Callable[[], None], hold: float
    ) -> None:
        log(f"{self.leg.backend}: {name} for {hold:.0f} s")
        self.allow(0.1)
        began = time.monotonic()
        on()
        try:
            self.traffic(hold)
        finally:
            off()
        lasted = time.monotonic() - began
        self.traffic(0.5)  # orders go on as the service comes back
        recovered = self.settle(self.args.recover_timeout)
        log(f"  recovered in {recovered if recovered is None else round(recovered, 1)} s")
        self.leg.faults.append(Fault(name, lasted, recovered))

    def kills(self, count: int) -> None:
        for _ in range(count):
            self.allow(0.4 / count)
            self.traffic(self.rng.uniform(0.8, 3.0))
            pending = len(self.driver.in_flight)
            self.daemon.kill()
            time.sleep(self.rng.uniform(0.0, 0.5))
            self.daemon.start()
            began = time.monotonic()
            if pending:
                # Until the orders in flight at the kill are all processed.
                waiting = {o.message_id for o in self.driver.in_flight.values()}
                while waiting & {o.message_id for o in self.driver.in_flight.values()}:
                    if time.monotonic() - began > self.args.recover_timeout:
                        break
                    self.driver.step(len(self.driver.sent))
                    time.sleep(0.05)
                self.leg.kill_recoveries.append(time.monotonic() - began)
        log(f"{self.leg.backend}: {count} SIGKILLs, {len(self.driver.sent)} orders sent so far")

    def finish(self) -> Leg:
        # The rest of the orders, then everything done, then a clean stop.
        self.budget = self.args.orders
        while len(self.driver.sent) < self.args.orders and len(self.driver.finished) < len(
            self.driver.tags
        ):
            self.traffic(2.0)
        settled = self.settle(self.args.recover_timeout)
        if settled is None:
            log(f"{self.leg.backend}: NOT settled after {self.args.recover_timeout} s")
        self.leg.stop_status = self.daemon.stop()
        self.leg.kills = self.daemon.kills
        self.leg.exits = self.daemon.exits
        self.leg.tracebacks = self.daemon.log_path.read_text(errors="replace").count("Traceback")
        time.sleep(1.0)  # the last deliveries into the mailboxes (LMTP)
        books(self.leg, self.driver, self.reader, self.stack)
        self.leg.elapsed = time.monotonic() - self.started
        return self.leg


# -- the hostile corpus through the real servers ----------------------------------------------


def send_hostile(harness: Harness) -> list[tuple[str, str]]:
    """Every corpus mail (its ``before`` mails first) to a game of its own, through
    Postfix; returns (case, marker) pairs to find each later."""
    stack = harness.stack
    players = [NewPlayer(name, address) for name, address in hostile.PLAYERS]
    tag, passwords = harness.admin.new_game(players, seed=7)  # Anna decides first
    with Session(harness.reader) as session:
        keys = {
            s.seat_index: s.mac_key_id
            for s in session.scalars(select(m.Seat).join(m.Game).where(m.Game.tag == tag))
        }
    game = hostile.Game(tag, stack.address("moderator"), harness.secret, keys, passwords)
    values = game.values()
    sent: list[tuple[str, str]] = []
    for name, expected in sorted(hostile.expectations().items()):
        for case in (*expected.before, name):
            raw = hostile.fill((hostile.CORPUS / f"{case}.eml").read_bytes(), values)
            marker = f"soak-{len(sent)}-{case}"
            raw = f"X-Soak-Case: {marker}\r\n".encode() + raw
            try:
                with smtplib.SMTP(stack.host, stack.ports.smtp, timeout=30) as smtp:
                    smtp.sendmail("mallory@example.test", [stack.address("moderator")], raw)
            except (OSError, smtplib.SMTPException) as exc:
                sent.append((case, f"refused by Postfix: {str(exc)[:80]}"))
                continue
            sent.append((case, marker))
    return sent


def hostile_outcomes(harness: Harness, sent: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    expected = hostile.expectations()
    with Session(harness.reader) as session:
        rows = session.execute(
            select(m.InboundMessage.raw, m.InboundMessage.status, m.InboundMessage.outcome)
        ).all()
    found: dict[str, str] = {}
    for raw, status, outcome in rows:
        head = raw[:4096]
        at = head.find(b"X-Soak-Case: ")
        if at >= 0:
            marker = head[at + 13 : head.find(b"\r\n", at)].decode()
            found[marker] = f"{status.value} / {None if outcome is None else outcome.value}"
    out = []
    for case, marker in sent:
        if marker.startswith("refused by Postfix"):
            observed = marker
        else:
            observed = found.get(marker, "not recorded (a duplicate of an earlier mail)")
        want = expected[case]
        out.append((case, f"{want.status} / {want.outcome}", observed))
    return out


# -- the legs ------------------------------------------------------------------------------


@contextlib.contextmanager
def mounted(prefix: str, *mount: str) -> Iterator[Path]:
    """A fresh folder with ``mount ... FOLDER`` on it, unmounted and removed after."""
    where = Path(tempfile.mkdtemp(prefix=prefix))
    subprocess.run(["mount", *mount, str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        with contextlib.suppress(OSError):
            where.rmdir()


def sqlite_leg(stack: MailStack, work: Path, args: argparse.Namespace) -> Leg:
    with (
        mounted("pr-soak-db-", "-t", "tmpfs", "-o", f"size={TMPFS_MB}m", "tmpfs") as disk,
        mounted("pr-soak-view-", "--bind", str(disk)) as view,
    ):
        h = Harness(
            stack,
            work,
            f"sqlite:///{disk / 'moderator.sqlite'}",
            "SQLite",
            args,
            daemon_url=f"sqlite:///{view / 'moderator.sqlite'}",
        )
        h.daemon.start()
        hostile_sent = send_hostile(h) if args.hostile else []
        h.settle(args.recover_timeout)  # the corpus handled before the faults are timed
        h.kills(args.kills)
        h.fault("Postfix stopped", stack.stop_postfix, stack.start_postfix, args.hold)
        h.fault(
            "Dovecot stopped and started",
            stack.stop_dovecot,
            lambda: (stack.start_dovecot(), flush_postfix(stack)),
            args.hold,
        )
        filler = disk / "filler"

        def fill() -> None:
            # (the open too may find the disk full already: then it is full, as wanted)
            with contextlib.suppress(OSError), open(filler, "wb") as out:
                while True:
                    out.write(b"\0" * 65536)
                    out.flush()

        h.fault(
            "disk full (SQLite on a full tmpfs)",
            fill,
            lambda: filler.unlink(missing_ok=True),
            args.hold,
        )

        def read_only() -> None:
            # A file system with a file open for writing cannot be made read-only: the
            # daemon is killed, its view of the database made read-only, and it starts on it.
            h.daemon.kill()
            remount(view, "ro")
            seen = h.daemon.log_path.stat().st_size
            h.daemon.start()
            # The hold begins when the daemon has met the read-only database (its start
            # takes seconds on a busy machine).
            waited = time.monotonic()
            while time.monotonic() - waited < 120:
                with open(h.daemon.log_path, "rb") as log_file:
                    log_file.seek(seen)
                    new = log_file.read()
                if b"outage" in new or b"not started" in new or not h.daemon.alive():
                    break
                time.sleep(0.2)

        h.fault(
            "database read-only (SIGKILL, then a start on a read-only mount)",
            read_only,
            lambda: remount(view, "rw"),
            args.hold,
        )
        leg = h.finish()
        leg.hostile = hostile_outcomes(h, hostile_sent) if args.hostile else []
        return leg


def remount(where: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,bind,{mode}", str(where)], check=True)


def flush_postfix(stack: MailStack) -> None:
    """Deliver what Postfix deferred while Dovecot was away now, not at its next queue run
    (five minutes by default): the moderator's recovery is what is measured."""
    subprocess.run(
        ["postqueue", "-c", str(stack.directory / "postfix"), "-f"],
        check=False,
        capture_output=True,
        env={**os.environ, "PATH": os.environ.get("PATH", "") + ":/usr/sbin:/sbin"},
    )


def postgres_leg(stack: MailStack, work: Path, args: argparse.Namespace) -> Leg | str:
    with postgres_url() as got:
        if isinstance(got, str):
            return got
        url = got.render_as_string(hide_password=False)
        name = got.database
        admin = create_engine(got.set(database="postgres"), isolation_level="AUTOCOMMIT")
        h = Harness(stack, work, url, "PostgreSQL", args)
        h.daemon.start()
        h.kills(args.kills)

        def refuse() -> None:
            with admin.connect() as conn:
                conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = :name AND pid <> pg_backend_pid()"
                    ),
                    {"name": name},
                )

        def allow() -> None:
            with admin.connect() as conn:
                conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))

        try:
            h.fault("PostgreSQL refusing connections", refuse, allow, args.hold)
            leg = h.finish()
        finally:
            allow()
            h.reader.dispose()
            h.factory.kw["bind"].dispose()
            admin.dispose()
        return leg


# -- the report ----------------------------------------------------------------------------


def report(legs: list[Leg], skipped: list[str], args: argparse.Namespace, command: str) -> str:
    total = lambda f: sum(f(leg) for leg in legs)  # noqa: E731
    out = [
        "# Reliability: orders and mails under crashes and faults",
        "",
        f"Written by `bench/soak.py` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}); "
        "the command:",
        "",
        f"    {command}",
        "",
        "The daemon ran as deployed (`moderator run`, IMAPS from a real Dovecot, STARTTLS to a "
        "real Postfix, on loopback). The players were this script: each game's next order, "
        "chosen by the heuristic bot, mailed through Postfix to the seat's signed address, one "
        "order in flight per game. What the faults were and how each is made: the docstring "
        "of bench/soak.py. The machine was shared with other work (load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end).",
        "",
        "## The books",
        "",
        "| | " + " | ".join(leg.backend for leg in legs) + " | all |",
        "|---|" + "---|" * (len(legs) + 1),
    ]

    def row(label: str, f: Callable[[Leg], int]) -> None:
        out.append(f"| {label} | " + " | ".join(str(f(leg)) for leg in legs) + f" | {total(f)} |")

    row("games", lambda leg: leg.games)
    row("orders mailed", lambda leg: leg.orders)
    row("SIGKILLs of the daemon", lambda leg: leg.kills)
    row("**orders lost** (mailed, never applied)", lambda leg: len(leg.lost))
    row("**orders applied twice**", lambda leg: len(leg.twice))
    row("orders processed but not applied", lambda leg: sum(leg.not_applied.values()))
    row("mails to players (outbox)", lambda leg: leg.mails_sent)
    row(
        "**mails lost** (never sent, or sent and not in the mailbox)",
        lambda leg: len(leg.mails_lost),
    )
    row("duplicate mails (one Message-ID twice in a mailbox)", lambda leg: leg.duplicates)
    row("daemon exits by itself (75: try again later)", lambda leg: len(leg.exits))
    row("tracebacks in the daemon's log", lambda leg: leg.tracebacks)
    out.append(
        "| clean stop (SIGTERM) status | "
        + " | ".join(str(leg.stop_status) for leg in legs)
        + " | |"
    )
    for leg in legs:
        for what, items in (
            ("lost", leg.lost),
            ("applied twice", leg.twice),
            ("mails lost", leg.mails_lost),
        ):
            if items:
                out.append("")
                out.append(f"{leg.backend}, {what}: " + ", ".join(items[:20]))
        if leg.not_applied:
            out.append("")
            out.append(
                f"{leg.backend}, orders processed but not applied, by outcome: {leg.not_applied}"
            )
    out += [
        "",
        "Duplicates are the price of the outgoing guarantee (docs/architecture.md): a mail "
        "handed to Postfix when the daemon was killed, before its `sent` was recorded, is "
        "sent again at the start with the same Message-ID (a reader's client folds them).",
        "",
        "A daemon started while its database, IMAP or SMTP server is away does not start: it "
        "exits with 75 (try again later) and the unit starts it again (RestartSec=5), as "
        "this script does; once started, every task waits an outage out.",
        "",
        "## Time to recover",
        "",
        "From the end of each fault until every order mailed before it was applied and the "
        "outbox was empty again (the orders kept coming meanwhile).",
        "",
        "| leg | fault | lasted (s) | recovered after (s) |",
        "|---|---|---|---|",
    ]
    for leg in legs:
        if leg.kill_recoveries:
            k = leg.kill_recoveries
            out.append(
                f"| {leg.backend} | SIGKILL, restart at once ({len(k)} with orders in "
                "flight) | - | "
                f"median {statistics.median(k):.1f}, max {max(k):.1f} |"
            )
        for f in leg.faults:
            rec = "NOT within the timeout" if f.recovered is None else f"{f.recovered:.1f}"
            out.append(f"| {leg.backend} | {f.name} | {f.lasted:.0f} | {rec} |")
    for reason in skipped:
        out += ["", f"Skipped: {reason}"]
    hostile_rows = [h for leg in legs for h in leg.hostile]
    if hostile_rows:
        out += [
            "",
            "## The hostile corpus through Postfix and Dovecot",
            "",
            "Each mail of tests/data/mail/hostile/ (its reasons in expected.toml), with a "
            "`X-Soak-Case` header added to find it, sent during the SQLite leg to a game of "
            "its own. Expected: the outcome tests/service/test_hostile_mail.py checks through "
            "ingest with Anna to decide; here the game moves on as its mails apply, so an "
            "order may find itself no longer legal (kept for later or asked back instead of "
            "applied). Postfix rewrites bare CR and LF line ends into CRLF.",
            "",
            "| mail | expected (status / outcome) | here |",
            "|---|---|---|",
        ]
        out += [f"| {case} | {want} | {got} |" for case, want, got in hostile_rows]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--orders", type=int, default=160, help="orders per leg (160)")
    parser.add_argument("--games", type=int, default=8, help="games per leg (8)")
    parser.add_argument("--kills", type=int, default=12, help="SIGKILLs per leg (12)")
    parser.add_argument("--hold", type=float, default=15.0, help="seconds each fault lasts (15)")
    parser.add_argument("--recover-timeout", type=float, default=180.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-hostile", dest="hostile", action="store_false")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--report", type=Path, default=ROOT / "docs" / "reliability.md")
    parser.add_argument("--json", type=Path, help="also write the books as JSON here")
    parser.add_argument("--logs", type=Path, help="keep the daemons' logs in this folder")
    parser.add_argument(
        "--short",
        action="store_true",
        help="the short run of the test suite: 30 orders, 3 games, 3 kills, 6 s faults",
    )
    args = parser.parse_args(argv)
    if args.short:
        args.orders, args.games, args.kills, args.hold = 30, 3, 3, 6.0
    command = "bench/soak.py " + " ".join(sys.argv[1:] if argv is None else argv)
    legs: list[Leg] = []
    skipped: list[str] = []
    try:
        with running(HOSTILE_USERS) as stack, tempfile.TemporaryDirectory(prefix="pr-soak-") as tmp:
            work = Path(tmp)
            if args.backend in ("sqlite", "both"):
                legs.append(sqlite_leg(stack, work, args))
            if args.backend in ("postgresql", "both"):
                got = postgres_leg(stack, work, args)
                if isinstance(got, str):
                    skipped.append(f"PostgreSQL: {got}")
                else:
                    legs.append(got)
            if args.logs:
                args.logs.mkdir(parents=True, exist_ok=True)
                for found in work.glob("daemon-*.log"):
                    shutil.copy(found, args.logs / found.name)
            args.report.parent.mkdir(parents=True, exist_ok=True)
            text_ = report(legs, skipped, args, command)
            args.report.write_text(text_, encoding="utf-8")
            if args.json:
                args.json.write_text(
                    json.dumps([dataclasses.asdict(leg) for leg in legs], indent=1)
                )
            print(text_)
    except MailStackUnavailable as exc:
        print(f"soak: the mail stack cannot run here: {exc}", file=sys.stderr)
        return 2
    bad = any(leg.lost or leg.twice or leg.mails_lost for leg in legs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
