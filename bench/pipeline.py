"""Benchmark: the whole mail pipeline over real Dovecot + Postfix on loopback, in one run.

Issue 5 item 7. Starts the project's test mail stack (tests/mailstack, used as a
library) and ``moderator run`` as a separate process (SQLite in a temporary
directory, IMAP IDLE in, SMTP out), then measures:

(a) the raw SMTP rate of the servers: the moderator's own outgoing mails (the
    same bytes, so the same sizes and mix of board, turn and acknowledgement
    mails), sent again by aiosmtplib until all are delivered, spread over as
    many fresh mailboxes as (c) has players, over 1, 2, 4 and 8 connections:
    the best of these is the servers' rate, whatever number the daemon uses
    (--connections, 8). Measured three times, around the two runs of (c):
    before them (the mails of (b), the daemon idle), between them (the daemon
    idle) and after them (the daemon stopped); each run of (c) is compared
    with the mean of the two around it, because this machine's speed drifts
    by up to a third within minutes;
(b) order -> reply latency: one order at a time in a quiet system, from the
    moment Postfix accepted the order to the moment the reply is in the
    player's mailbox, seen two ways: by IDLE on the player's mailbox (what a
    mail client sees; Dovecot adds its notify delay again here) and by a NOOP
    poll every few ms (the moment of delivery). The moderator's database
    timestamps split it into: accepted -> stored by the daemon (Dovecot's IDLE
    on the moderator's INBOX) -> processed -> reply accepted by Postfix ->
    delivered;
(c) sustained throughput with 20 games in play: bots send orders for 20 games
    at once, each game played by four players of its own (80 mailboxes), each
    seat with at most one order in flight, decided from the game's snapshot
    and sent to the seat's signed reply address; orders applied per second
    and outgoing mails per second over a fixed window. Run twice, with fresh
    games: the daemon with the default CPU weight, then with the CPUWeight= of
    the shipped systemd unit (docs/moderator.service). The daemon, Postfix and
    Dovecot each run in a session of their own, as services do, and Linux
    shares a busy CPU between those groups first (autogroup; cgroups under
    systemd): with an even share the daemon falls behind and the servers idle
    for want of its mail.

It prints the ratios against the targets: outgoing mails/s at least half the
raw SMTP rate, and p50 latency at most 1.0 s. Everything is bounded in time
and stops by itself; servers and traffic stay on 127.0.0.1.

Run: ``.venv/bin/python bench/pipeline.py`` (``--help`` for the knobs;
``--profile`` runs the daemon under cProfile and prints where its time goes).
Needs root (the stack runs Dovecot and Postfix; it installs them if missing).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import math
import os
import pstats
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime, make_msgid
from itertools import pairwise
from pathlib import Path
from typing import Any

import aioimaplib
import aiosmtplib
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the project's own mail stack, used as a library

from mailstack import MailStack, running  # noqa: E402

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
from moderator.store.queries import unsent_mail  # noqa: E402

PLAYERS = (("Alice", "alice"), ("Bob", "bob"), ("Carol", "carol"), ("Dave", "dave"))
SECRET = "COqPEWzlEYgMAEI9B4BlgGAnrh59ZMtuestP2z2j-mk"
RAW_CONNECTIONS = (1, 2, 4, 8)  # the raw rate is the best of these
RAW_RUNS = 3 * (len(RAW_CONNECTIONS) + 1)  # before, between and after (c), warm-ups included
_RAW_USED = itertools.count()


def player_users(game: int) -> list[tuple[str, str]]:
    """(name, mailbox) of game ``game``'s four players: every game is played by people of
    its own, as on a real service, so each mailbox gets one game's mail. (Twenty games
    played by the same four mailboxes would fill them with thousands of mails in a run,
    and Dovecot delivers into a mailbox of thousands of mails more slowly than into a
    small one.)"""
    return [(f"{name} {game}", f"{user}{game}") for name, user in PLAYERS]


def sink_users(run: int, mailboxes: int) -> list[str]:
    """The fresh mailboxes raw run ``run`` sends to, as many as the players of (c)."""
    return [f"sink{run}x{n}" for n in range(mailboxes)]


EXISTS = re.compile(rb"^(\d+) EXISTS$")
MAILDIR_TIME = re.compile(r"^(\d+)\.M(\d+)P")
MESSAGE_ID = re.compile(rb"^Message-ID:\s*(<[^>]+>)", re.MULTILINE | re.IGNORECASE)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


# -- the daemon ------------------------------------------------------------------------------


def write_config(stack: MailStack, directory: Path, db_url: str, connections: int) -> Path:
    path = directory / "moderator.toml"
    path.write_text(
        f"""
source = "imap"
outgoing = "smtp"
log_level = "WARNING"
[moderator]
address = "{stack.address("moderator")}"
secret = "{SECRET}"
[database]
url = "{db_url}"
[imap]
host = "{stack.host}"
port = {stack.ports.imap}
security = "plain"
user = "{stack.address("moderator")}"
password = "{stack.password}"
[smtp]
host = "{stack.host}"
port = {stack.ports.smtp}
security = "plain"
connections = {connections}
[limits]
replies_per_sender_per_hour = 1000000
[deadlines]
tick_seconds = 5.0
[autopilot]
# The instant player: this bench measures mail; the search's thinking is bench/bots.py's.
player = "heuristic"
"""
    )
    return path


def machine_busy() -> tuple[float, float]:
    """CPU seconds the whole machine has spent busy so far, all cores, and the seconds
    the hypervisor took from this virtual machine's cores (steal), from Linux /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    busy = sum(fields[:7]) - fields[3] - fields[4]  # all but idle, iowait and steal
    tick = os.sysconf("SC_CLK_TCK")
    return busy / tick, fields[7] / tick


def machine_since(before: tuple[float, float], seconds: float) -> tuple[float, float]:
    """Cores busy, and cores stolen, on average since ``before`` (machine_busy())."""
    busy, stolen = machine_busy()
    return (busy - before[0]) / seconds, (stolen - before[1]) / seconds


def unit_weight() -> int:
    """The CPUWeight= that docs/moderator.service, the shipped systemd unit, gives the
    daemon (systemd's default is 100): (c) is measured without it and with it."""
    unit = (ROOT / "docs" / "moderator.service").read_text()
    found = re.search(r"^CPUWeight=(\d+)\s*$", unit, re.MULTILINE)
    assert found, "docs/moderator.service sets no CPUWeight="
    return int(found.group(1))


def weigh(pid: int, weight: int) -> None:
    """Give process ``pid``'s scheduling group ``weight`` against the default 100, as
    CPUWeight= does under systemd. Here the groups are sessions (Linux autogroup: the
    daemon, Postfix and Dovecot each run in a session of their own, as services do), and
    a group's weight is set through its nice value, each step of which is a factor 1.25
    (the kernel's sched_prio_to_weight)."""
    nice = max(-20, min(19, -round(math.log(weight / 100, 1.25))))
    Path(f"/proc/{pid}/autogroup").write_text(f"{nice}\n")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of a process and its live children, from Linux /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) for child in children)


def run_profiled_daemon(config_path: str, out: str, cprofile: bool) -> int:
    """`moderator run` with, for each kind of database call, the time it waited for the
    one database thread and the CPU it took there (thread time), written to OUT.waits;
    with ``cprofile`` also cProfile on the event-loop thread AND the database thread (a
    plain `python -m cProfile` sees only the first), written to OUT.loop and OUT.db."""
    import concurrent.futures
    import cProfile
    import json

    from moderator import daemon as daemon_module
    from moderator.config import load_config as load

    db_profile = cProfile.Profile()
    waits: dict[str, list[float]] = {}
    cpu: dict[str, float] = {}

    class ProfiledPool(concurrent.futures.ThreadPoolExecutor):
        def __init__(self, *a: Any, **k: Any) -> None:
            if cprofile:
                k["initializer"] = db_profile.enable
            super().__init__(*a, **k)

        def submit(self, fn: Any, /, *a: Any, **k: Any) -> Any:
            queued = time.perf_counter()
            label = getattr(fn, "__qualname__", "?")
            if label.endswith("db.<locals>.run"):  # Daemon.db wraps the real call
                for cell in fn.__closure__ or ():
                    inner = cell.cell_contents
                    if callable(inner) and hasattr(inner, "__qualname__"):
                        label = inner.__qualname__

            def timed() -> Any:
                waits.setdefault(label, []).append(time.perf_counter() - queued)
                began = time.thread_time()
                try:
                    return fn(*a, **k)
                finally:
                    cpu[label] = cpu.get(label, 0.0) + time.thread_time() - began

            return super().submit(timed)

        def shutdown(self, wait: bool = True, **k: Any) -> None:
            if cprofile:
                super().submit(db_profile.disable).result()
            super().shutdown(wait, **k)

    setattr(daemon_module, "ThreadPoolExecutor", ProfiledPool)  # noqa: B010
    loop_profile = cProfile.Profile()
    if cprofile:
        loop_profile.enable()
    loop_cpu = time.thread_time()
    try:
        code = daemon_module.run_daemon(load(config_path))
    finally:
        loop_cpu = time.thread_time() - loop_cpu
        if cprofile:
            loop_profile.disable()
            loop_profile.dump_stats(out + ".loop")
            db_profile.dump_stats(out + ".db")
        Path(out + ".waits").write_text(
            json.dumps({"waits": waits, "cpu": cpu, "loop cpu": loop_cpu})
        )
    return code


# -- (a) raw SMTP --------------------------------------------------------------------------


async def imap_login(stack: MailStack, user: str) -> Any:
    client = aioimaplib.IMAP4(host=stack.host, port=stack.ports.imap, timeout=30)
    await client.wait_hello_from_server()
    await client.login(stack.address(user), stack.password)
    return client


def sent_mails(engine: Engine, count: int) -> list[bytes]:
    """The last ``count`` mails the moderator sent, as it sent them."""
    with Session(engine) as session:
        return list(
            session.scalars(
                select(m.OutboxMessage.raw)
                .where(m.OutboxMessage.status == m.OutboxStatus.SENT)
                .order_by(m.OutboxMessage.id.desc())
                .limit(count)
            )
        )


async def raw_smtp_rate(
    stack: MailStack, messages: list[bytes], connections: int, mailboxes: int
) -> tuple[float, float, float]:
    """Messages per second (accepted by Postfix, delivered into the mailboxes), and the
    client's CPU seconds per message (aiosmtplib's own cost). Each call delivers to
    ``mailboxes`` mailboxes of its own, empty until then, in turn: like (c), where each
    player's mailbox gets its share of the mail."""
    sinks = sink_users(next(_RAW_USED), mailboxes)
    pending = [(stack.address(sinks[n % len(sinks)]), raw) for n, raw in enumerate(messages)]
    pending.reverse()
    assert messages, "no mails to send"

    async def one_connection() -> None:
        smtp = aiosmtplib.SMTP(
            hostname=stack.host, port=stack.ports.smtp, start_tls=False, local_hostname="localhost"
        )
        await smtp.connect()
        while pending:
            to, raw = pending.pop()
            await smtp.sendmail("moderator@example.test", [to], raw)
        await smtp.quit()

    started, cpu = time.time(), time.process_time()
    await asyncio.gather(*(one_connection() for _ in range(connections)))
    cpu = time.process_time() - cpu
    accepted = time.time() - started
    deadline = time.monotonic() + 120
    while (last := last_delivery(stack, sinks, len(messages))) is None:
        if time.monotonic() > deadline:
            raise TimeoutError("raw SMTP: not everything was delivered in 120 s")
        await asyncio.sleep(0.05)
    delivered = last - started
    return len(messages) / accepted, len(messages) / delivered, cpu / max(1, len(messages))


def last_delivery(stack: MailStack, users: list[str], expected: int) -> float | None:
    """When Dovecot delivered the last of ``expected`` mails into these users' maildirs
    (epoch seconds, from the file names, as in delivery_times), or None while some are
    still on their way. Read from the files: an IMAP login per mailbox, every few ms,
    would cost the servers being measured more than the count is worth."""
    root = stack.directory / "mail" / stack.domain
    names = [
        name
        for user in users
        if (box := root / user / "Maildir" / "new").is_dir()
        for name in os.listdir(box)
    ]
    if len(names) < expected:
        return None
    stamps = (MAILDIR_TIME.match(name) for name in names)
    return max(int(s.group(1)) + int(s.group(2)) / 1e6 for s in stamps if s)


async def raw_phase(stack: MailStack, reader: Engine, args: argparse.Namespace, when: str) -> float:
    """(a): the moderator's latest mails sent again over 1, 2, 4 and 8 connections; prints
    each and returns the best delivered/s (the servers' rate, whatever the daemon uses)."""
    sample = sent_mails(reader, 500)
    mails = [sample[n % len(sample)] for n in range(args.raw)]
    size = statistics.mean(len(x) for x in mails) if mails else 0
    # Warm-up, not counted: Postfix and Dovecot start their delivery processes on demand.
    await raw_smtp_rate(stack, mails[:300], 4, 4 * args.games)
    print(
        f"(a) raw SMTP {when}: {len(mails)} of the moderator's mails ({len(sample)} "
        f"different, mean {size / 1024:.1f} KiB) again, by aiosmtplib:"
    )
    best = 0.0
    for connections in RAW_CONNECTIONS:
        machine0, t0 = machine_busy(), time.monotonic()
        accepted, delivered, client = await raw_smtp_rate(stack, mails, connections, 4 * args.games)
        machine, stolen = machine_since(machine0, time.monotonic() - t0)
        print(
            f"    {connections} connection{'s' if connections > 1 else ''}: {accepted:.0f} msg/s"
            f" accepted, {delivered:.0f} msg/s delivered; machine CPU {machine:.2f} cores"
            f" ({stolen:.2f} stolen), of which the client {1000 * client:.2f} ms per mail"
        )
        best = max(best, delivered)
    return best


# -- orders --------------------------------------------------------------------------------


@dataclass
class Seats:
    """What a bot needs to address a seat: the game's tag, the seats' key ids and the
    players' names and mailboxes."""

    game_id: int
    tag: str
    key_ids: dict[int, int]
    players: dict[int, tuple[str, str]]
    brains: dict[int, HeuristicBot] = field(default_factory=dict)


def order_mail(stack: MailStack, seats: Seats, game: Game, seat: int) -> tuple[str, str, bytes]:
    """(Message-ID, recipient, raw) of a real order mail to the seat's signed address."""
    brain = seats.brains.setdefault(seat, HeuristicBot(seats.game_id * 31 + seat))
    action = brain.choose(game, seat)
    name, user = seats.players[seat]
    to = reply_address(
        stack.address("moderator"), SECRET.encode(), seats.tag, seat, seats.key_ids[seat]
    )
    # Written directly, as a mail client would send it: the email package's header
    # objects would make the bots, not the moderator, the busiest part of the run.
    message_id = make_msgid(domain="players.example.test")
    body = f"{format_action(action, game, seat)}\r\n\r\n-- \r\n{name}\r\n"
    raw = (
        f"From: {name} <{stack.address(user)}>\r\nTo: {to}\r\n"
        f"Subject: Re: [{seats.tag}] orders\r\nMessage-ID: {message_id}\r\n"
        f"Date: {format_datetime(m.utcnow())}\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n"
        f"\r\n{body}"
    )
    return message_id, to, raw.encode()


def load_seats(engine: Engine, tag: str) -> Seats:
    with Session(engine) as session:
        row = session.scalar(select(m.Game).where(m.Game.tag == tag))
        assert row is not None
        seats = row.active_seats()
        return Seats(
            row.id,
            tag,
            {s.seat_index: s.mac_key_id for s in seats},
            {s.seat_index: (s.name, s.address.partition("@")[0]) for s in seats},
        )


def snapshots(engine: Engine, ids: list[int]) -> dict[int, tuple[int, str, m.GameStatus]]:
    with Session(engine) as session:
        rows = session.execute(
            select(m.Game.id, m.Snapshot.seq, m.Snapshot.state_json, m.Game.status)
            .join(m.Snapshot, m.Snapshot.game_id == m.Game.id)
            .where(m.Game.id.in_(ids))
        ).all()
    return {gid: (seq, state, status) for gid, seq, state, status in rows}


def stored_waiting(engine: Engine) -> int:
    """Messages the daemon has stored and not yet processed."""
    with engine.connect() as conn:
        query = select(func.count(m.InboundMessage.id)).where(
            m.InboundMessage.status == m.MessageStatus.NEW
        )
        return conn.execute(query).scalar_one()


def positions(engine: Engine, ids: list[int]) -> dict[int, tuple[int, m.GameStatus]]:
    """Each game's snapshot number and status: cheap to poll (no state, no ORM)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(m.Game.id, m.Snapshot.seq, m.Game.status)
            .join(m.Snapshot, m.Snapshot.game_id == m.Game.id)
            .where(m.Game.id.in_(ids))
        ).all()
    return {gid: (seq, status) for gid, seq, status in rows}


def handled(engine: Engine, message_ids: list[str]) -> set[str | None]:
    """Which of these orders the moderator has processed."""
    with engine.connect() as conn:
        return {
            mid
            for (mid,) in conn.execute(
                select(m.InboundMessage.message_id).where(
                    m.InboundMessage.message_id.in_(message_ids),
                    m.InboundMessage.status != m.MessageStatus.NEW,
                )
            )
        }


def delivery_times(stack: MailStack, user: str) -> dict[str, datetime]:
    """When Dovecot delivered each message of a user's maildir (all folders), by
    Message-ID: Dovecot names a maildir file after its delivery time (seconds and
    microseconds)."""
    root = stack.directory / "mail" / stack.domain / user / "Maildir"
    out: dict[str, datetime] = {}
    for path in root.glob("**/*"):
        if not path.is_file() or path.parent.name not in ("new", "cur"):
            continue
        stamp = MAILDIR_TIME.match(path.name)
        found = MESSAGE_ID.search(path.read_bytes()[:4096])
        if stamp and found:
            seconds = int(stamp.group(1)) + int(stamp.group(2)) / 1e6
            out[found.group(1).decode()] = datetime.fromtimestamp(seconds, UTC)
    return out


def outbox_busy(engine: Engine) -> int:
    with Session(engine) as session:
        return unsent_mail(session)


async def caught_up(engine: Engine, inbox: Path, timeout: float = 60.0) -> int:
    """Wait until every order is processed and moved out of the moderator's INBOX and
    every reply is sent (the daemon may still be working off the last orders); the
    messages left in the INBOX if that took longer than ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        await wait_quiet(engine, timeout=120)
        left = sum(len(os.listdir(inbox / d)) for d in ("new", "cur"))
        if not left or time.monotonic() > deadline:
            return left
        await asyncio.sleep(0.1)


async def wait_quiet(engine: Engine, timeout: float = 30.0) -> None:
    """Nothing left to send (the mail may still be on its way through Postfix)."""
    deadline = time.monotonic() + timeout
    while outbox_busy(engine):
        if time.monotonic() > deadline:
            raise TimeoutError("the outbox did not drain")
        await asyncio.sleep(0.01)


# -- (b) latency ---------------------------------------------------------------------------


class Watcher:
    """Two connections to one mailbox: one in IDLE, one polling with NOOP."""

    def __init__(self, idle: Any, poll: Any) -> None:
        self.idle = idle
        self.poll = poll

    @classmethod
    async def open(cls, stack: MailStack, user: str) -> Watcher:
        idle, poll = await imap_login(stack, user), await imap_login(stack, user)
        await idle.select("INBOX")
        await poll.select("INBOX")
        return cls(idle, poll)

    async def absorb(self) -> None:
        """Let both connections see everything delivered so far."""
        await self.idle.noop()
        await self.poll.noop()

    async def wait_idle(self) -> float:
        while True:
            lines = await self.idle.wait_server_push(timeout=30)
            if any(EXISTS.match(bytes(x)) for x in lines if isinstance(x, bytes | bytearray)):
                return time.monotonic()

    async def wait_poll(self, deadline: float) -> float:
        while time.monotonic() < deadline:
            response = await self.poll.noop()
            if any(EXISTS.match(bytes(x)) for x in response.lines if isinstance(x, bytes)):
                return time.monotonic()
            await asyncio.sleep(0.003)
        raise TimeoutError("no reply seen by polling")

    async def close(self) -> None:
        for client in (self.idle, self.poll):
            with contextlib.suppress(TimeoutError, aioimaplib.AioImapException, OSError):
                await asyncio.wait_for(client.logout(), 2)


@dataclass
class Sample:
    message_id: str
    accepted: float  # monotonic
    accepted_wall: datetime
    idle: float
    polled: float


async def latency(
    stack: MailStack, engine: Engine, tag: str, orders: int
) -> tuple[list[Sample], dict[str, list[float]]]:
    seats = load_seats(engine, tag)
    watchers = {seat: await Watcher.open(stack, user) for seat, (_, user) in seats.players.items()}
    smtp = aiosmtplib.SMTP(
        hostname=stack.host, port=stack.ports.smtp, start_tls=False, local_hostname="localhost"
    )
    await smtp.connect()
    samples: list[Sample] = []
    try:
        while len(samples) < orders:
            await wait_quiet(engine)
            await asyncio.sleep(0.15)  # the last replies reach the mailboxes
            _, state, status = snapshots(engine, [seats.game_id])[seats.game_id]
            if status is not m.GameStatus.ACTIVE:
                break
            game = Game.from_json(state)
            seat = game.deciding()[0]
            watcher = watchers[seat]
            await watcher.absorb()
            idle = await watcher.idle.idle_start(timeout=60)
            message_id, to, raw = order_mail(stack, seats, game, seat)
            await smtp.sendmail(stack.address(seats.players[seat][1]), [to], raw)
            accepted, accepted_wall = time.monotonic(), m.utcnow()
            seen_idle, seen_poll = await asyncio.gather(
                watcher.wait_idle(), watcher.wait_poll(accepted + 30)
            )
            watcher.idle.idle_done()
            await asyncio.wait_for(idle, 10)
            samples.append(Sample(message_id, accepted, accepted_wall, seen_idle, seen_poll))
    finally:
        await smtp.quit()
        for w in watchers.values():
            await w.close()
    # Where the time goes, from the moderator's own timestamps (same clock, same machine).
    parts: dict[str, list[float]] = {"stored": [], "processed": [], "reply sent": []}
    with Session(engine) as session:
        for s in samples:
            inbound = session.scalar(
                select(m.InboundMessage).where(m.InboundMessage.message_id == s.message_id)
            )
            reply = session.scalar(
                select(m.OutboxMessage)
                .where(m.OutboxMessage.in_reply_to == s.message_id)
                .order_by(m.OutboxMessage.id)
            )
            if inbound is None or reply is None or reply.sent_at is None:
                continue
            base = s.accepted_wall
            parts["stored"].append((inbound.received_at - base).total_seconds())
            assert inbound.processed_at is not None
            parts["processed"].append((inbound.processed_at - base).total_seconds())
            parts["reply sent"].append((reply.sent_at - base).total_seconds())
    return samples, parts


# -- (c) sustained throughput ----------------------------------------------------------------


async def sustained(
    stack: MailStack, engine: Engine, tags: list[str], seconds: float, connections: int
) -> dict[str, float]:
    games = [load_seats(engine, tag) for tag in tags]
    by_id = {g.game_id: g for g in games}
    queue: asyncio.Queue[tuple[str, str, str, bytes]] = asyncio.Queue()
    queued_at: dict[str, datetime] = {}
    game_of: dict[str, int] = {}
    seen_at: dict[str, datetime] = {}
    accepted_at: dict[str, datetime] = {}
    in_flight: dict[tuple[int, int], str] = {}
    sent = 0

    async def sender() -> None:
        nonlocal sent
        smtp = aiosmtplib.SMTP(
            hostname=stack.host, port=stack.ports.smtp, start_tls=False, local_hostname="localhost"
        )
        await smtp.connect()
        try:
            while True:
                message_id, mail_from, to, raw = await queue.get()
                await smtp.sendmail(mail_from, [to], raw)
                accepted_at[message_id] = m.utcnow()
                sent += 1
                queue.task_done()
        finally:
            smtp.close()

    senders = [asyncio.create_task(sender()) for _ in range(connections)]
    cache: dict[int, tuple[int, Game]] = {}
    waiting: list[int] = []
    backlog: list[int] = []
    laps: list[float] = []
    bots_cpu = time.process_time()
    started = time.monotonic()
    started_wall = m.utcnow()
    try:
        while time.monotonic() - started < seconds:
            lap = time.monotonic()
            if in_flight:
                done = handled(engine, list(in_flight.values()))
                now = m.utcnow()
                seen_at.update((mid, now) for mid in done if mid is not None)
                in_flight = {k: v for k, v in in_flight.items() if v not in done}
            waiting.append(len(in_flight))
            backlog.append(stored_waiting(engine))
            active = {
                gid: seq
                for gid, (seq, status) in positions(engine, list(by_id)).items()
                if status is m.GameStatus.ACTIVE
            }
            moved = [gid for gid, seq in active.items() if cache.get(gid, (-1,))[0] != seq]
            for gid, (seq, state, _) in (snapshots(engine, moved) if moved else {}).items():
                cache[gid] = (seq, Game.from_json(state))
            for gid in active:
                game = cache[gid][1]
                for seat in game.deciding():
                    if (gid, seat) in in_flight:
                        continue
                    message_id, to, raw = order_mail(stack, by_id[gid], game, seat)
                    in_flight[(gid, seat)] = message_id
                    queued_at[message_id] = m.utcnow()
                    game_of[message_id] = gid
                    from_ = stack.address(by_id[gid].players[seat][1])
                    queue.put_nowait((message_id, from_, to, raw))
            laps.append(time.monotonic() - lap)
            # The players are elsewhere in real life; here they share the 2 cores with the
            # daemon and the servers: look every 50 ms (a look costs about 4 ms of CPU).
            await asyncio.sleep(0.05)
    finally:
        for task in senders:
            task.cancel()
    ended_wall = m.utcnow()
    bots_cpu = (time.process_time() - bots_cpu) / (time.monotonic() - started)
    # The window: after a warm-up, to the end of the run.
    w0 = started_wall + timedelta(seconds=min(5.0, seconds / 4))
    w1 = ended_wall
    window = (w1 - w0).total_seconds()
    with Session(engine) as session:
        applied = session.scalar(
            select(func.count(m.Action.id)).where(
                m.Action.created_at >= w0,
                m.Action.created_at < w1,
                m.Action.actor == m.ActorKind.PLAYER,
                m.Action.game_id.in_(list(by_id)),
            )
        )
        processed = session.scalar(
            select(func.count(m.InboundMessage.id)).where(
                m.InboundMessage.processed_at >= w0, m.InboundMessage.processed_at < w1
            )
        )
        mails = session.scalar(
            select(func.count(m.OutboxMessage.id)).where(
                m.OutboxMessage.sent_at >= w0, m.OutboxMessage.sent_at < w1
            )
        )
        made = session.scalar(
            select(func.count(m.OutboxMessage.id)).where(
                m.OutboxMessage.created_at >= w0, m.OutboxMessage.created_at < w1
            )
        )
        delivered = delivery_times(stack, "moderator")
        stages: dict[str, list[float]] = {
            "queued": [],
            "delivered": [],
            "stored": [],
            "processed": [],
        }
        for mid, stored_at, done_at in session.execute(
            select(
                m.InboundMessage.message_id,
                m.InboundMessage.received_at,
                m.InboundMessage.processed_at,
            ).where(m.InboundMessage.received_at >= w0, m.InboundMessage.received_at < w1)
        ):
            if mid is not None and mid in accepted_at and done_at is not None:
                stages["queued"].append((accepted_at[mid] - queued_at[mid]).total_seconds())
                if mid in delivered:
                    stages["delivered"].append((delivered[mid] - accepted_at[mid]).total_seconds())
                    stages["stored"].append((stored_at - delivered[mid]).total_seconds())
                stages["processed"].append((done_at - stored_at).total_seconds())
        # From an order processed to the game's next order queued by the bots.
        done_at_of = {
            mid: done
            for mid, done in session.execute(
                select(m.InboundMessage.message_id, m.InboundMessage.processed_at).where(
                    m.InboundMessage.message_id.in_(list(queued_at))
                )
            )
            if mid is not None and done is not None
        }
        by_game: dict[int, list[str]] = {}
        for mid in sorted(queued_at, key=lambda x: queued_at[x]):
            by_game.setdefault(game_of[mid], []).append(mid)
        stages["seen"] = [
            (seen_at[mid] - done_at_of[mid]).total_seconds()
            for mid in seen_at
            if mid in done_at_of and queued_at[mid] >= w0
        ]
        stages["total"] = [
            (seen_at[mid] - queued_at[mid]).total_seconds()
            for mid in seen_at
            if queued_at[mid] >= w0
        ]
        stages["next order"] = [
            (queued_at[b] - done_at_of[a]).total_seconds()
            for mids in by_game.values()
            for a, b in pairwise(mids)
            if a in done_at_of and queued_at[b] >= w0
        ]
        lags = [
            (sent_at - created).total_seconds() if sent_at is not None else 0.0
            for created, sent_at in session.execute(
                select(m.OutboxMessage.created_at, m.OutboxMessage.sent_at).where(
                    m.OutboxMessage.sent_at >= w0, m.OutboxMessage.sent_at < w1
                )
            )
        ]
    return {
        "orders waiting": statistics.mean(waiting) if waiting else 0.0,
        "stored waiting": statistics.mean(backlog) if backlog else 0.0,
        "stored idle": sum(1 for n in backlog if n == 0) / max(1, len(backlog)),
        "bots lap p50": statistics.median(laps) if laps else float("nan"),
        "bots laps/s": len(laps) / seconds,
        "bots cpu": bots_cpu,
        "outbox lag p50": statistics.median(lags) if lags else float("nan"),
        **{
            f"{name} p50": statistics.median(values) if values else float("nan")
            for name, values in stages.items()
        },
        **{
            f"{name} mean": statistics.mean(values) if values else float("nan")
            for name, values in stages.items()
        },
        "window": window,
        "orders sent": float(sent),
        "orders applied/s": (applied or 0) / window,
        "orders processed/s": (processed or 0) / window,
        "mails sent/s": (mails or 0) / window,
        "mails made/s": (made or 0) / window,
    }


def print_sustained(
    games: int, label: str, result: dict[str, float], cpu: float, machine: float, stolen: float
) -> None:
    print(
        f"(c) {games} games in play, the daemon at {label}, {result['window']:.1f} s window: "
        f"{result['orders applied/s']:.1f} orders applied/s "
        f"({result['orders processed/s']:.1f} mails processed/s), "
        f"{result['mails sent/s']:.1f} outgoing mails/s "
        f"({result['mails made/s']:.1f} made/s)"
    )
    print(
        f"    outbox: a mail waits {result['outbox lag p50']:.2f} s (p50) between being "
        f"made and accepted by Postfix; the bots sent {result['orders sent']:.0f} orders"
    )
    print(
        f"    orders sent and not yet processed: {result['orders waiting']:.1f} on average, of"
        f" which stored by the daemon {result['stored waiting']:.1f} (none at"
        f" {100 * result['stored idle']:.0f}% of the bots' looks);"
        " an order waits (p50/mean) "
        f"{result['queued p50']:.3f}/{result['queued mean']:.3f} s for the bots' SMTP, "
        f"{result['delivered p50']:.3f}/{result['delivered mean']:.3f} s until Dovecot "
        f"delivers it, {result['stored p50']:.3f}/{result['stored mean']:.3f} s until the "
        f"daemon stored it, {result['processed p50']:.3f}/{result['processed mean']:.3f} s "
        f"until processed, {result['seen p50']:.3f}/{result['seen mean']:.3f} s until the "
        f"bots see it ({result['total p50']:.3f}/{result['total mean']:.3f} s in all); "
        f"{result['next order p50']:.3f}/{result['next order mean']:.3f} s from processed "
        "to the game's next order; the bots look every "
        f"{1 / result['bots laps/s']:.3f} s (a look takes {result['bots lap p50']:.3f} s)"
    )
    orders = result["orders processed/s"] or float("nan")
    rest = machine - cpu - result["bots cpu"]
    print(
        f"    CPU, in cores of {os.cpu_count()}: machine {machine:.2f} = daemon {cpu:.2f} "
        f"({1000 * cpu / orders:.1f} ms per order) + bots {result['bots cpu']:.2f} "
        f"({1000 * result['bots cpu'] / orders:.1f} ms per order) + mail servers and "
        f"the rest {rest:.2f} ({1000 * rest / (result['mails sent/s'] + orders):.1f} ms "
        f"per mail in or out); the hypervisor took {stolen:.2f} cores more"
    )


# -- all together --------------------------------------------------------------------------


async def bench(stack: MailStack, args: argparse.Namespace, workdir: Path) -> int:
    print(
        f"mail stack: Dovecot IMAP {stack.ports.imap}, Postfix SMTP {stack.ports.smtp} on 127.0.0.1"
    )
    db_url = f"sqlite:///{workdir / 'moderator.sqlite'}"
    config_path = write_config(stack, workdir, db_url, args.connections)
    upgrade(db_url)
    admin = Admin(Moderator(load_config(config_path), make_session_factory(make_engine(db_url))))

    def players(game: int) -> list[NewPlayer]:
        return [NewPlayer(name, stack.address(user)) for name, user in player_users(game)]

    latency_tag, _ = admin.new_game(players(0), seed=1)
    reader = make_engine(db_url, sqlite_immediate=False)

    profile = workdir / "daemon.prof"
    command = [sys.executable, "-m", "moderator", "run", "--config", str(config_path)]
    if args.profile or args.cpu:
        mode = "cprofile" if args.profile else "cpu"
        command = [sys.executable, __file__, "--profiled-daemon", str(config_path)]
        command += [str(profile), mode]
    log_path = workdir / "daemon.log"
    with open(log_path, "wb") as log_file:
        daemon = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )
    try:
        samples, parts = await latency(stack, reader, latency_tag, args.orders)
        via_idle = [s.idle - s.accepted for s in samples]
        via_poll = [s.polled - s.accepted for s in samples]
        print(f"(b) order -> reply, {len(samples)} orders one at a time:")
        print(
            "    reply in the player's mailbox (NOOP poll):  "
            f"p50 {statistics.median(via_poll):.3f} s,"
            f" p99 {percentile(via_poll, 0.99):.3f} s"
        )
        print(
            "    ... then seen by IDLE on that mailbox:      "
            f"p50 {statistics.median(via_idle):.3f} s,"
            f" p99 {percentile(via_idle, 0.99):.3f} s (Dovecot's notify delay once more)"
        )
        for name, values in parts.items():
            if values:
                print(f"    ... order accepted -> {name:<12} p50 {statistics.median(values):.3f} s")

        # (c) twice, with fresh games each time: the daemon with the default CPU
        # weight, then with the one docs/moderator.service gives it. (a) before, between
        # and after them: the machine's speed drifts by up to a third within minutes
        # here, and each run of (c) is compared with the mean of the two around it.
        raws = [await raw_phase(stack, reader, args, "before (c), daemon idle")]
        results: dict[str, dict[str, float]] = {}
        inbox = stack.directory / "mail" / stack.domain / "moderator" / "Maildir"
        for run, weight in enumerate((100, unit_weight())):
            if run:
                await caught_up(reader, inbox)
                raws.append(await raw_phase(stack, reader, args, "between the runs, daemon idle"))
            weigh(daemon.pid, weight)
            first = 1 + run * args.games
            tags = [
                admin.new_game(players(first + n), seed=100 * (run + 1) + n)[0]
                for n in range(args.games)
            ]
            cpu0, machine0, t0 = cpu_seconds(daemon.pid), machine_busy(), time.monotonic()
            result = await sustained(stack, reader, tags, args.seconds, args.connections)
            elapsed = time.monotonic() - t0
            cpu = (cpu_seconds(daemon.pid) - cpu0) / elapsed
            machine, stolen = machine_since(machine0, elapsed)
            label = f"CPUWeight={weight}" + (" (the default)" if weight == 100 else "")
            print_sustained(args.games, label, result, cpu, machine, stolen)
            results[label] = result
        left = await caught_up(reader, inbox)
        print(f"    left in the moderator's INBOX once the daemon caught up: {left}")
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            code = daemon.wait(timeout=60)
        except subprocess.TimeoutExpired:
            daemon.kill()
            code = daemon.wait()

    # (a) again, with the daemon stopped: the servers alone, on the moderator's own mails.
    raws.append(await raw_phase(stack, reader, args, "after (c), daemon stopped"))
    p50 = statistics.median(via_poll)
    p50_idle = statistics.median(via_idle)
    print("ratios (each run of (c) against the mean raw rate of the runs of (a) around it):")
    for (label, result), (before, after) in zip(results.items(), pairwise(raws), strict=True):
        raw = (before + after) / 2
        ratio = result["mails sent/s"] / raw
        print(
            f"    outgoing mails/s / raw SMTP rate, daemon at {label}: "
            f"{result['mails sent/s']:.1f} / {raw:.0f} (of {before:.0f} and {after:.0f}) "
            f"= {ratio:.2f} (target >= 0.5: {'met' if ratio >= 0.5 else 'MISSED'})"
        )
    print(
        f"    order -> reply in the mailbox, p50 {p50:.2f} s / 1.0 s = {p50:.2f} "
        f"(target <= 1: {'met' if p50 <= 1.0 else 'MISSED'}); seen by IDLE {p50_idle:.2f} s"
    )
    print(f"daemon exit code {code} (log: {log_path})")
    if args.profile or args.cpu:
        with Session(reader) as session:
            processed = session.scalar(
                select(func.count(m.InboundMessage.id)).where(
                    m.InboundMessage.processed_at.is_not(None)
                )
            )
        print_profile(profile, args.profile_lines if args.profile else 0, processed or 0)
    return 0 if code == 0 else 1


def print_profile(profile: Path, lines: int, orders: int) -> None:
    import json

    recorded = json.loads(Path(f"{profile}.waits").read_text())
    waits: dict[str, list[float]] = recorded["waits"]
    cpu: dict[str, float] = recorded["cpu"]
    print(
        f"\ndaemon, whole run ({orders} mails processed): database calls, the time they waited "
        "for the one database thread (queueing) and the CPU they took there:"
    )
    for label, values in sorted(waits.items(), key=lambda kv: -cpu.get(kv[0], 0.0)):
        print(
            f"    {label:<40} {len(values):>6} calls, waited p50 {statistics.median(values):.4f} s"
            f" max {max(values):.3f} s; CPU {cpu.get(label, 0.0):.1f} s,"
            f" {1000 * cpu.get(label, 0.0) / max(orders, 1):.2f} ms per mail processed"
        )
    loop_cpu = recorded["loop cpu"]
    print(
        f"    event-loop thread (IMAP, SMTP, the rest): CPU {loop_cpu:.1f} s, "
        f"{1000 * loop_cpu / max(orders, 1):.2f} ms per mail processed"
    )
    if not lines:
        return
    for part, title in (("db", "database thread"), ("loop", "event-loop thread")):
        print(f"\ndaemon {title} profile ({profile}.{part}), by cumulative time:")
        pstats.Stats(f"{profile}.{part}").sort_stats("cumulative").print_stats(lines)


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:2] == ["--profiled-daemon"]:
        return run_profiled_daemon(sys.argv[2], sys.argv[3], sys.argv[4] == "cprofile")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--raw", type=int, default=1500, help="messages for the raw SMTP rate")
    parser.add_argument("--orders", type=int, default=40, help="orders for the latency sample")
    parser.add_argument("--games", type=int, default=20, help="games in play for throughput")
    parser.add_argument("--seconds", type=float, default=30.0, help="throughput run length")
    parser.add_argument(
        "--connections", type=int, default=8, help="the daemon's SMTP connections (8)"
    )
    parser.add_argument("--profile", action="store_true", help="run the daemon under cProfile")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="the daemon's CPU per kind of database call, without cProfile's overhead",
    )
    parser.add_argument("--profile-lines", type=int, default=25)
    args = parser.parse_args(argv)
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="pipeline-bench-"))  # kept: the daemon's log
    users = [user for n in range(1 + 2 * args.games) for _, user in player_users(n)]
    users += [user for run in range(RAW_RUNS) for user in sink_users(run, 4 * args.games)]
    with running(extra_users=users) as stack:
        code = asyncio.run(bench(stack, args, workdir))
    print(f"total {time.monotonic() - started:.1f} s")
    return code


if __name__ == "__main__":
    sys.exit(main())
