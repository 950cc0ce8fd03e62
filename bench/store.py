"""Benchmark: orders per second through Moderator.ingest + process_next, early and late in a game.

Issue 4 item 7: with 1,000 games in the database, on SQLite (a temporary file)
and on PostgreSQL (a throwaway database, dropped at the end; skipped with a
message when no server answers), measure how many order mails per second go
through ``Moderator.ingest`` + ``Moderator.process_next`` at an EARLY position
(round 1-2) and at a LATE position (round 12, ~200 actions in the log) of a
game. The late figure must be within 20 % of the early one: the cost of an
order must not grow with the log.

The orders are real RFC 5322 mails replying to the seat's signed Reply-To
address, written against an in-memory copy of the game (a seeded HeuristicBot
plays; ``format_action`` writes its choice as order text). Each run uses a
fresh game brought to its position by storing what the moderator would have
stored: the action log, the snapshot, and the past mails in and out. The 1,000
background games are bulk-inserted the same way (seats, snapshot, log rows,
some mails) at varied positions, streamed (FILL_CHUNK games a transaction: the memory
does not grow with the number of games).

Issue 13 item 6: the cost of an order must not grow with the games stored either.
``--games 1000 100000`` fills a database of each size and prints the per-order cost at
each side by side (the largest within 20 % of the smallest); ``--spread N`` then mails N
orders, each to a background game drawn at random (a real server's pattern: no game
stays warm), and prints orders/s and the p50/p99 time of one order (target: at least
17 orders/s, one order per game every 10 minutes over 10,000 games, with p99 under
200 ms), and this process's CPU time per order, which a shared machine stretches less.

Run: ``nice -n 10 .venv/bin/python bench/store.py`` (``--help`` for the knobs; the
PostgreSQL server is ``PR_BENCH_PG_URL`` or postgres@127.0.0.1:5432), e.g.
``--games 1000 10000 --spread 300``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import random
import resource
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, func, insert, select, text, update
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session, sessionmaker

from moderator.bots import HeuristicBot
from moderator.config import AutopilotSection, Config, LimitsSection, ModeratorSection
from moderator.engine import Action, Game, action_to
from moderator.orders import format_action
from moderator.service.admin import Admin, NewPlayer
from moderator.service.auth import reply_address
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade
from moderator.store.passwords import hash_secret

PG_ADMIN_URL = os.environ.get(
    "PR_BENCH_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
ADDRESS = "moderator@bench.example"
SECRET = "ganG9KsBli0qvlFIH9lOr1ziElKJxH3gFD3c1EatgZI"
NAMES = ("Anna", "Bob", "Chris", "David")
SEED = 8  # a HeuristicBot game of 201 mails that reaches round 15
LATE_ROUND = 12
BACKGROUND_LINES = 10  # distinct bot games the background games are cut from
RECENT_MAILS = 8  # past mails in and out stored per background game
FILL_CHUNK = 500  # background games built and committed at a time
# Issue 13: one order per game every 10 minutes over 10,000 games, each within 200 ms.
SPREAD_RATE = 17
SPREAD_P99_MS = 200


@dataclass(frozen=True)
class Step:
    """One order mail of a played line, and the game as it stood before it."""

    seat: int
    order: str
    round: int
    log_before: int  # actions in the log before this mail
    state_before: str


@dataclass(frozen=True)
class Line:
    """A whole bot game: its mails and the action log they produce."""

    seed: int
    steps: list[Step]
    log: list[tuple[int, str, m.ActorKind]]  # seat, action JSON, who decided


def play(seed: int) -> Line:
    game = Game.new(list(NAMES), seed)
    bot = HeuristicBot(seed)
    log: list[tuple[int, str, m.ActorKind]] = []

    def apply(seat: int, action: Action, actor: m.ActorKind) -> None:
        game.apply(seat, action)
        log.append((seat, json.dumps(action_to(action), sort_keys=True), actor))

    def forced() -> None:  # the moderator's auto-advance, with no kept orders
        while not game.over:
            decision = next((d for d in game.decisions() if d.forced), None)
            if decision is None:
                return
            apply(decision.seat, decision.actions[0], m.ActorKind.FORCED)

    forced()
    steps: list[Step] = []
    while not game.over:
        decision = game.decisions()[0]
        action = bot.choose(game, decision.seat)
        order = format_action(action, game, decision.seat)
        steps.append(Step(decision.seat, order, game.state.round, len(log), game.to_json()))
        apply(decision.seat, action, m.ActorKind.PLAYER)
        forced()
    return Line(seed, steps, log)


def config() -> Config:
    # No reply cap in the way: every order costs its full work (reply and boards). The
    # instant autopilot: the mails of each order go out in its own transaction, as this
    # bench has always measured (the search player's thinking is bench/bots.py's).
    return Config(
        moderator=ModeratorSection(address=ADDRESS, secret=SECRET),
        limits=LimitsSection(replies_per_sender_per_hour=10**9),
        autopilot=AutopilotSection(player="heuristic"),
    )


def mail(sender: str, to: str, body: str, subject: str, message_id: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = message_id
    msg["Date"] = "Sun, 22 Nov 2026 10:00:00 +0000"
    msg.set_content(body + "\n\nThanks,\n-- \nsent from the benchmark\n")
    return bytes(msg)


# -- filling the database ------------------------------------------------------------------


def stored_mail(sender: str, to: str, subject: str, message_id: str, body: str) -> bytes:
    """A plain RFC 5322 message for the stored history (formatted directly: fast)."""
    return (
        f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n"
        "Date: Sat, 21 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\n"
        f"{body}\r\n"
    ).encode()


BOARD = "\r\n".join(f"{'row':<10}{i:>4} " + "#" * 40 for i in range(40))


def past_rows(
    game_id: int, tag: str, addresses: list[str], steps: list[Step], now: Any
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Done inbound mails and sent outbox mails for ``steps``, as they would be stored."""
    inbound: list[dict[str, Any]] = []
    outbox: list[dict[str, Any]] = []
    old = now - timedelta(days=2)
    for step in steps:
        message_id = f"<{secrets.token_hex(8)}@players.example>"
        raw = stored_mail(addresses[step.seat], ADDRESS, f"Re: [{tag}]", message_id, step.order)
        inbound.append(
            {
                "raw": raw,
                "raw_sha256": secrets.token_hex(32),
                "message_id": message_id,
                "source": m.MessageSource.PIPE,
                "sender": addresses[step.seat],
                "status": m.MessageStatus.DONE,
                "attempts": 1,
                "game_id": game_id,
                "received_at": old,
                "processed_at": old,
            }
        )
        for to in addresses:
            out_id = f"<{secrets.token_hex(8)}@bench.example>"
            outbox.append(
                {
                    "game_id": game_id,
                    "to_addrs": [to],
                    "recipient": to,
                    "raw": stored_mail(ADDRESS, to, f"[{tag}] board", out_id, BOARD),
                    "message_id": out_id,
                    "status": m.OutboxStatus.SENT,
                    "attempts": 1,
                    "next_try_at": old,
                    "sent_at": old,
                    "created_at": old,
                    "kind": "board",
                }
            )
    return inbound, outbox


def fill(factory: sessionmaker[Session], count: int, lines: list[Line]) -> None:
    """``count`` active background games at varied positions, inserted in bulk and
    streamed: FILL_CHUNK games are built and committed at a time, so the memory the fill
    takes does not grow with ``count`` (10,000 games built at once took 1.46 GB)."""
    secret_hash = hash_secret("anchor-barrel-cargo-001")  # one hash for all: scrypt is slow
    now = m.utcnow()
    with factory.begin() as session:
        first = (session.scalar(select(func.max(m.Game.id))) or 0) + 1
    began = time.perf_counter()
    for chunk in range(0, count, FILL_CHUNK):
        with factory.begin() as session:
            for model, rows in background_rows(
                range(first + chunk, first + min(count, chunk + FILL_CHUNK)),
                lines,
                secret_hash,
                now,
            ):
                session.execute(insert(model), rows)
        if count > FILL_CHUNK:
            done = min(count, chunk + FILL_CHUNK)
            print(
                f"\r  filled {done:,}/{count:,} games ({time.perf_counter() - began:.0f} s, "
                f"peak {peak_mb():.0f} MB)",
                end="" if done < count else "\n",
                file=sys.stderr,
                flush=True,
            )
    with factory.begin() as session:
        if factory.kw["bind"].dialect.name == "postgresql":
            # Explicit ids were inserted: move the sequence past them.
            session.execute(
                text(
                    "SELECT setval(pg_get_serial_sequence('games', 'id'),"
                    " (SELECT max(id) FROM games))"
                )
            )
    with factory.begin() as session:
        session.execute(text("ANALYZE"))  # fresh planner statistics, as a live database has


def background_cut(game_id: int, lines: list[Line]) -> tuple[Line, int]:
    """The line a background game follows and the step it stands at (before its order)."""
    line = lines[game_id % len(lines)]
    return line, (game_id * 37) % (len(line.steps) - 1)  # anywhere but past the last order


def background_rows(
    ids: range, lines: list[Line], secret_hash: str, now: Any
) -> list[tuple[type[m.Base], list[dict[str, Any]]]]:
    """The rows of the background games ``ids``, table by table (parents first)."""
    games, seats, snapshots, actions, inbound, outbox = [], [], [], [], [], []
    for game_id in ids:
        line, cut = background_cut(game_id, lines)
        step = line.steps[cut]
        tag = f"PR-{game_id}"
        addresses = background_addresses(game_id)
        games.append(
            {
                "id": game_id,
                "tag": tag,
                "variant": m.GameVariant.STANDARD,
                "seed": line.seed,
                "status": m.GameStatus.ACTIVE,
                "version": step.log_before,
                "deadline_at": now + timedelta(hours=48),
                "reminder_at": now + timedelta(hours=36),
                "last_message_at": now,
            }
        )
        seats += [
            {
                "game_id": game_id,
                "seat_index": s,
                "name": NAMES[s],
                "address": addresses[s],
                "secret_hash": secret_hash,
            }
            for s in range(len(NAMES))
        ]
        snapshots.append(
            {"game_id": game_id, "seq": step.log_before, "state_json": step.state_before}
        )
        actions += log_rows(game_id, line, step.log_before, now)
        ins, outs = past_rows(
            game_id, tag, addresses, line.steps[max(0, cut - RECENT_MAILS) : cut], now
        )
        inbound += ins
        outbox += outs
    return [
        (m.Game, games),
        (m.Seat, seats),
        (m.Snapshot, snapshots),
        (m.Action, actions),
        (m.InboundMessage, inbound),
        (m.OutboxMessage, outbox),
    ]


def log_rows(
    game_id: int, line: Line, upto: int, now: Any, *, after: int = 0
) -> list[dict[str, Any]]:
    """The action log rows ``after`` < seq <= ``upto`` of a game following ``line``."""
    return [
        {
            "game_id": game_id,
            "seq": seq,
            "seat_index": seat,
            "action_json": action,
            "actor": actor,
            "created_at": now,
        }
        for seq, (seat, action, actor) in enumerate(line.log[:upto], 1)
        if seq > after
    ]


def background_addresses(game_id: int) -> list[str]:
    return [f"{n.lower()}.{game_id}@players.example" for n in NAMES]


def peak_mb() -> float:
    """This process's peak resident memory (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def position_game(admin: Admin, line: Line, start: int, run: str) -> tuple[str, list[str]]:
    """A new game brought to ``line.steps[start]``: its log, snapshot and past mails
    stored as the moderator would have stored them. Returns the tag and addresses."""
    players = [NewPlayer(n, f"{n.lower()}.{run}@players.example") for n in NAMES]
    tag, _ = admin.new_game(players, seed=line.seed)
    step = line.steps[start]
    with admin.moderator.factory.begin() as session:
        game = session.scalars(select(m.Game).where(m.Game.tag == tag)).one()
        have = game.version
        assert [
            tuple(r)
            for r in session.execute(
                select(m.Action.seat_index, m.Action.action_json)
                .where(m.Action.game_id == game.id)
                .order_by(m.Action.seq)
            )
        ] == [(s, a) for s, a, _ in line.log[:have]]
        now = m.utcnow()
        rows = log_rows(game.id, line, step.log_before, now, after=have)
        if rows:
            session.execute(insert(m.Action), rows)
        ins, outs = past_rows(game.id, tag, [p.address for p in players], line.steps[:start], now)
        if ins:
            session.execute(insert(m.InboundMessage), ins)
            session.execute(insert(m.OutboxMessage), outs)
        session.execute(
            update(m.Snapshot)
            .where(m.Snapshot.game_id == game.id)
            .values(seq=step.log_before, state_json=step.state_before)
        )
        session.execute(update(m.Game).where(m.Game.id == game.id).values(version=step.log_before))
    return tag, [p.address for p in players]


def timed_run(
    moderator: Moderator, admin: Admin, line: Line, start: int, orders: int, run: str
) -> float:
    """Orders per second for ``orders`` mails from ``line.steps[start]`` on a fresh game."""
    tag, addresses = position_game(admin, line, start, run)
    cfg = moderator.config
    raws = []
    for k, step in enumerate(line.steps[start : start + orders]):
        to = reply_address(ADDRESS, cfg.secret, tag, step.seat, 0)
        raws.append(
            mail(addresses[step.seat], to, step.order, f"Re: [{tag}] your turn", f"<{run}.{k}@p>")
        )
    began = time.perf_counter()
    for raw in raws:
        moderator.ingest(raw, source=m.MessageSource.PIPE)
        assert moderator.process_next("bench")
    elapsed = time.perf_counter() - began
    # Every order was applied: the log is where the line says.
    want = (
        line.steps[start + orders].log_before if start + orders < len(line.steps) else len(line.log)
    )
    with moderator.factory.begin() as session:
        game = session.scalars(select(m.Game).where(m.Game.tag == tag)).one()
        assert game.version == want, f"{tag}: version {game.version}, expected {want}"
    return orders / elapsed


# -- the backends ----------------------------------------------------------------------------


@contextmanager
def sqlite_url() -> Iterator[URL]:
    with tempfile.TemporaryDirectory(prefix="pr-bench-") as tmp:
        yield make_url(f"sqlite:///{Path(tmp) / 'bench.sqlite'}")


@contextmanager
def postgres_url() -> Iterator[URL | str]:
    """A throwaway database (dropped at the end), or the reason there is none."""
    admin_url = make_url(PG_ADMIN_URL)
    admin = create_engine(
        admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3}
    )
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # any failure means: no usable server
        admin.dispose()
        first = (str(exc).strip().splitlines() or [repr(exc)])[0]
        yield f"no PostgreSQL server answers at {admin_url.render_as_string()}: {first}"
        return
    name = f"pr_bench_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.set(database=name)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@dataclass
class Result:
    games: int
    early: list[float]  # orders per second, one figure per run
    late: list[float]
    spread: list[float]  # seconds per order (ingest + processing), orders spread at random
    spread_rate: float = 0.0  # orders per second over the spread run
    spread_cpu: float = 0.0  # this process's CPU seconds per spread order
    spread_wall: float = 0.0  # seconds the spread's orders took in all


@dataclass
class Sized:
    """One database of ``games`` background games, filled and ready to measure."""

    games: int
    engine: Any
    moderator: Moderator
    admin: Admin
    result: Result
    spread: SpreadState


def prepare(url: URL, games: int, lines: list[Line]) -> Sized:
    upgrade(url)
    engine = make_engine(url)
    factory = make_session_factory(engine)
    moderator = Moderator(config(), factory)
    began = time.perf_counter()
    fill(factory, games, lines)
    with factory.begin() as session:
        stored = session.scalar(select(func.count(m.Game.id)))
        logged = session.scalar(select(func.count(m.Action.id)))
        mails = session.scalar(select(func.count(m.OutboxMessage.id)))
    print(
        f"  {stored:,} games, {logged:,} log rows, {mails:,} outbox mails stored in "
        f"{time.perf_counter() - began:.1f} s (peak memory {peak_mb():.0f} MB)",
        flush=True,
    )
    admin = Admin(moderator)
    timed_run(moderator, admin, lines[0], 0, 5, "warm")  # imports, caches, templates
    return Sized(games, engine, moderator, admin, Result(games, [], [], []), SpreadState())


def measure(sizes: list[Sized], args: argparse.Namespace, lines: list[Line]) -> None:
    """The early and late runs and the spread's orders of every size, interleaved run by
    run, so that a busy machine's drift touches every size alike (the sizes' databases
    are all filled first)."""
    line = lines[0]
    late = next(i for i, s in enumerate(line.steps) if s.round >= LATE_ROUND)
    assert late + args.orders <= len(line.steps)
    chunk = -(-args.spread // args.runs) if args.spread else 0
    for r in range(args.runs):
        for sized in sizes:
            res, mod, admin = sized.result, sized.moderator, sized.admin
            res.early.append(timed_run(mod, admin, line, 0, args.orders, f"e{r}"))
            res.late.append(timed_run(mod, admin, line, late, args.orders, f"l{r}"))
            count = min(chunk, args.spread - len(res.spread))
            if count > 0:
                cpu, wall = time.process_time(), time.perf_counter()
                res.spread += spread_run(mod, lines, sized.games, count, sized.spread)
                res.spread_cpu += time.process_time() - cpu
                res.spread_wall += time.perf_counter() - wall
    for sized in sizes:
        res = sized.result
        if res.spread:
            res.spread_rate = len(res.spread) / res.spread_wall
            res.spread_cpu /= len(res.spread)
        sized.engine.dispose()


@dataclass
class SpreadState:
    """Where the spread's games stand: the next step of each game ordered so far."""

    rng: random.Random = field(default_factory=lambda: random.Random(13))
    cursor: dict[int, int] = field(default_factory=dict)
    run: str = field(default_factory=lambda: secrets.token_hex(4))  # Message-IDs' own


def spread_run(
    moderator: Moderator, lines: list[Line], games: int, orders: int, state: SpreadState
) -> list[float]:
    """``orders`` order mails, each to a background game drawn at random (a real server's
    pattern: no game stays warm), each the legal next order of its game's line. Returns
    each order's time (ingest + processing, seconds); every order is checked applied."""
    secret = moderator.config.secret
    times: list[float] = []
    inbound: list[int] = []
    while len(times) < orders:
        game_id = state.rng.randrange(1, games + 1)  # the background games' ids
        line, cut = background_cut(game_id, lines)
        at = state.cursor.get(game_id, cut)
        if at >= len(line.steps):
            continue  # this game is over
        step = line.steps[at]
        state.cursor[game_id] = at + 1
        tag = f"PR-{game_id}"
        raw = mail(
            background_addresses(game_id)[step.seat],
            reply_address(ADDRESS, secret, tag, step.seat, 0),
            step.order,
            f"Re: [{tag}] your turn",
            f"<spread.{state.run}.{game_id}.{at}@p>",
        )
        t0 = time.perf_counter()
        got = moderator.ingest(raw, source=m.MessageSource.PIPE)
        assert got is not None and moderator.process_next("bench")
        times.append(time.perf_counter() - t0)
        inbound.append(got)
    with moderator.factory.begin() as session:
        outcomes = session.execute(
            select(m.InboundMessage.outcome, func.count())
            .where(m.InboundMessage.id.in_(inbound))
            .group_by(m.InboundMessage.outcome)
        ).all()
    assert dict(outcomes) == {m.Outcome.APPLIED: orders}, f"not every order applied: {outcomes}"
    return times


def spread(values: list[float]) -> str:
    med = statistics.median(values)
    noise = (max(values) - min(values)) / 2 / med * 100
    return f"{med:6.1f} /s  (min {min(values):.1f}, max {max(values):.1f}, ±{noise:.0f} %)"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def report(result: Result) -> bool:
    early, late = statistics.median(result.early), statistics.median(result.late)
    ratio = late / early
    ok = ratio >= 0.8
    ratios = [lt / e for e, lt in zip(result.early, result.late, strict=True)]
    print(f"  early orders/s: {spread(result.early)}")
    print(f"  late  orders/s: {spread(result.late)}")
    print(
        f"  late/early: {ratio:.2f}  (pairwise {min(ratios):.2f}-{max(ratios):.2f})  "
        f"{'within' if ok else 'NOT within'} 20 %"
    )
    if result.spread:
        p50, p99 = percentile(result.spread, 50) * 1000, percentile(result.spread, 99) * 1000
        good = result.spread_rate >= SPREAD_RATE and p99 < SPREAD_P99_MS
        print(
            f"  spread over {result.games:,} games: {len(result.spread)} orders, "
            f"{result.spread_rate:.1f} orders/s, p50 {p50:.0f} ms, p99 {p99:.0f} ms  "
            f"({'meets' if good else 'MISSES'} >= {SPREAD_RATE} /s and p99 < {SPREAD_P99_MS} ms); "
            f"this process's CPU {result.spread_cpu * 1000:.0f} ms an order (the load average "
            f"was {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
        )
        ok = ok and good
    return ok


def side_by_side(results: list[Result]) -> bool:
    """Per-order cost (ms, medians of the runs) at each size, against the smallest."""
    base = results[0]

    def ms(rates: list[float]) -> float:
        return 1000 / statistics.median(rates)

    print("  per-order cost, ms (ingest + processing; median of the runs):")
    print("    games        " + "".join(f"{r.games:>14,}" for r in results) + "   largest/smallest")
    ok = True
    for name, pick in (("early", lambda r: r.early), ("late", lambda r: r.late)):
        costs = [ms(pick(r)) for r in results]
        ratio = costs[-1] / ms(pick(base))
        ok = ok and ratio <= 1.2
        cells = "".join(f"{c:>14.1f}" for c in costs)
        print(
            f"    {name:<13}{cells}   {ratio:.2f} "
            f"({'within' if ratio <= 1.2 else 'NOT within'} 20 %)"
        )
    if all(r.spread for r in results):
        cells = "".join(f"{statistics.median(r.spread) * 1000:>14.1f}" for r in results)
        print(f"    spread p50   {cells}")
        cells = "".join(f"{r.spread_cpu * 1000:>14.1f}" for r in results)
        ratio = results[-1].spread_cpu / base.spread_cpu
        print(f"    spread CPU   {cells}   {ratio:.2f} (this process's CPU an order)")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--games",
        type=int,
        nargs="+",
        default=[1000],
        help="background games; several sizes (a database each) are compared side by side, "
        "e.g. --games 1000 100000 (1000)",
    )
    parser.add_argument("--orders", type=int, default=20, help="order mails per run (20)")
    parser.add_argument("--runs", type=int, default=5, help="runs per position (5)")
    parser.add_argument(
        "--spread",
        type=int,
        default=0,
        metavar="N",
        help="then N orders spread at random over the stored games: orders/s, p50, p99 (0)",
    )
    parser.add_argument(
        "--backend", choices=("sqlite", "postgresql", "both"), default="both", help="(both)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)

    line = play(SEED)
    lines = [line, *(play(SEED + 100 + i) for i in range(BACKGROUND_LINES - 1))]
    late = next(i for i, s in enumerate(line.steps) if s.round >= LATE_ROUND)
    print(
        f"early: mails 1-{args.orders} (round {line.steps[0].round}-"
        f"{line.steps[args.orders - 1].round}, log {line.steps[0].log_before} actions); "
        f"late: mails {late + 1}-{late + args.orders} (round {line.steps[late].round}-"
        f"{line.steps[late + args.orders - 1].round}, log {line.steps[late].log_before} actions)"
    )
    backends: list[tuple[str, Callable[[], Any]]] = []
    if args.backend in ("sqlite", "both"):
        backends.append(("SQLite", sqlite_url))
    if args.backend in ("postgresql", "both"):
        backends.append(("PostgreSQL", postgres_url))
    ok = True
    for name, opener in backends:
        with contextlib.ExitStack() as stack:
            sizes = []
            for games in args.games:
                print(f"{name}, {games:,} games:", flush=True)
                url = stack.enter_context(opener())
                if isinstance(url, str):
                    print(f"  skipped: {url}")
                    break
                sizes.append(prepare(url, games, lines))
            if not sizes:
                continue
            measure(sizes, args, lines)
        for sized in sizes:
            print(f"{name}, {sized.games:,} games:")
            ok = report(sized.result) and ok
        if len(sizes) > 1:
            print(f"{name}, the sizes side by side (measured in turn, run by run):")
            ok = side_by_side([s.result for s in sizes]) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
