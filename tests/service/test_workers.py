"""Several worker processes on one PostgreSQL database: every message once, each game in order.

The order mails are written in advance against a private in-memory copy of each
game (Game.new from the same seed): a seeded HeuristicBot picks the action of the
seat that must decide, ``format_action`` turns it into order text, the copy applies
it and then the forced decisions exactly as the moderator's auto-advance does, and
the mail replies to that seat's signed Reply-To address. So the mails are valid in
sequence, and the copy's log is the log every run must end with.

The single-worker reference runs on a second database cloned (CREATE DATABASE ...
TEMPLATE) from the first once its games are created and its mails ingested, before
any is processed: the same games and messages, never touched by the other run. It
runs at the same time as the four workers, as a fifth process on its own database,
to keep the test short on a small machine.
"""

from __future__ import annotations

import email
import email.policy
import functools
import itertools
import json
import subprocess
import sys
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from dbfixtures import PostgresServer
from letters import letter
from sqlalchemy import create_engine, event, select, text, update
from sqlalchemy.engine import URL
from sqlalchemy.orm import ORMExecuteState, Session, sessionmaker

from moderator.bots import HeuristicBot
from moderator.config import AutopilotSection, Config, ModeratorSection
from moderator.engine import Game, action_to
from moderator.orders import format_action
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade
from moderator.store.passwords import hash_secret

pytestmark = pytest.mark.integration

WORKER = Path(__file__).with_name("workerproc.py")
MODERATOR_ADDRESS = "moderator@example.test"
SECRET = "uhF59MfZiCBZVjz1OKoInjGfZxObQ7LjfY7XSPa8RKY"
NAMES = ("Anna", "Bob", "Chris", "David")
GAMES = 20
MAILS_PER_GAME = 10
WORKERS = 4
RACE_MAILS = 24
WORKER_TIMEOUT_S = 120


@pytest.fixture(autouse=True)
def cheap_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat passwords are not what these tests check (the mails carry signed reply
    addresses), and full-cost scrypt for 80 seats would dominate the run time."""
    monkeypatch.setattr(m, "hash_secret", functools.partial(hash_secret, n=2**4))


@dataclass(frozen=True)
class Script:
    """The mails one game receives, and the log the moderator must end with."""

    orders: list[tuple[int, str]]  # (seat, order text), one mail each
    log: list[tuple[int, str]]  # (seat, action JSON), forced actions included
    final: str  # the copy's state JSON after the last mail


@dataclass(frozen=True)
class Record:
    """What a run left of one game: its log, version and snapshot."""

    log: list[tuple[int, int | None, str, str, str | None]]  # seq, seat, actor, action, msg-id
    version: int
    snapshot: str


def players(game: int) -> list[NewPlayer]:
    # Own addresses per game, so no per-recipient reply cap is shared between games.
    return [NewPlayer(name, f"{name.lower()}.{game}@example.test") for name in NAMES]


def config() -> Config:
    return Config(
        moderator=ModeratorSection(address=MODERATOR_ADDRESS, secret=SECRET),
        autopilot=AutopilotSection(player="heuristic"),
    )


def _apply(game: Game, seat: int, action: object, log: list[tuple[int, str]]) -> None:
    game.apply(seat, action)  # type: ignore[arg-type]
    log.append((seat, json.dumps(action_to(action), sort_keys=True)))  # type: ignore[arg-type]


def _forced(game: Game, log: list[tuple[int, str]]) -> None:
    """The moderator's auto-advance with no kept orders: the first forced decision, again."""
    while not game.over:
        decision = next((d for d in game.decisions() if d.forced), None)
        if decision is None:
            return
        _apply(game, decision.seat, decision.actions[0], log)


def script(seed: int, count: int) -> Script:
    game = Game.new(list(NAMES), seed)
    bot = HeuristicBot(seed)
    log: list[tuple[int, str]] = []
    orders: list[tuple[int, str]] = []
    _forced(game, log)
    while len(orders) < count and not game.over:
        decision = game.decisions()[0]
        action = bot.choose(game, decision.seat)
        orders.append((decision.seat, format_action(action, game, decision.seat)))
        _apply(game, decision.seat, action, log)
        _forced(game, log)
    assert len(orders) == count, "the game ended before all its mails were written"
    return Script(orders, log, game.to_json())


def open_database(url: URL, seeds: list[int]) -> tuple[sessionmaker[Session], list[str]]:
    """Migrate an empty database and create one game per seed (tags PR-1, PR-2, ...)."""
    upgrade(url)
    factory = make_session_factory(make_engine(url))
    admin = Admin(Moderator(config(), factory))
    tags = [admin.new_game(players(i), seed=seed)[0] for i, seed in enumerate(seeds)]
    return factory, tags


def close(factory: sessionmaker[Session]) -> None:
    engine = factory.kw["bind"]
    engine.dispose()


def reply_addresses(factory: sessionmaker[Session]) -> dict[str, str]:
    """The signed Reply-To of the newest mail to each address in the outbox."""
    found: dict[str, str] = {}
    with factory.begin() as session:
        for raw in session.scalars(select(m.OutboxMessage.raw).order_by(m.OutboxMessage.id)):
            mail = email.message_from_bytes(raw, policy=email.policy.default)
            if mail["Reply-To"]:
                found[str(mail["To"])] = str(mail["Reply-To"])
    return found


def write_mails(
    factory: sessionmaker[Session], tags: list[str], scripts: list[Script]
) -> list[bytes]:
    """Every game's mails, interleaved round by round as they might arrive."""
    addresses = reply_addresses(factory)
    per_game: list[list[bytes]] = []
    for i, (tag, plan) in enumerate(zip(tags, scripts, strict=True)):
        seats = players(i)
        reply_to = [addresses[p.address] for p in seats]
        per_game.append(
            [
                letter(
                    seats[seat].address,
                    reply_to[seat],
                    text,
                    subject=f"Re: [{tag}] your turn",
                    message_id=f"<{tag.lower()}.{k}@players.example.test>",
                )
                for k, (seat, text) in enumerate(plan.orders)
            ]
        )
    longest = max(len(mails) for mails in per_game)
    return [mails[k] for k in range(longest) for mails in per_game if k < len(mails)]


def ingest(factory: sessionmaker[Session], raws: list[bytes]) -> None:
    moderator = Moderator(config(), factory)
    for raw in raws:
        assert moderator.ingest(raw, source=m.MessageSource.PIPE) is not None


def clone_database(server: PostgresServer, source: URL, suffix: str) -> URL:
    """A new database with the contents of ``source`` (which must have no connections)."""
    name = f"{server.prefix}_{suffix}"
    admin = create_engine(server.admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{source.database}"'))
    finally:
        admin.dispose()
    server.created.append(name)  # dropped with the others at the end of the session
    return server.admin_url.set(database=name)


def run_workers(workers: dict[str, URL]) -> dict[str, int]:
    """Start one worker process per name (on its database), release them together, wait
    for them all; how many messages each processed."""
    procs = {
        name: subprocess.Popen(
            [sys.executable, str(WORKER), url.render_as_string(hide_password=False), name, SECRET],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name, url in workers.items()
    }
    try:
        for proc in procs.values():
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
        for proc in procs.values():
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        processed: dict[str, int] = {}
        for name, proc in procs.items():
            out, _ = proc.communicate(timeout=WORKER_TIMEOUT_S)
            assert proc.returncode == 0, f"worker {name} exited with {proc.returncode}"
            processed[name] = json.loads(out.strip().splitlines()[-1])["processed"]
        return processed
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def records(factory: sessionmaker[Session]) -> dict[str, Record]:
    out: dict[str, Record] = {}
    with factory.begin() as session:
        for game in session.scalars(select(m.Game).order_by(m.Game.id)):
            rows = session.execute(
                select(m.Action, m.InboundMessage.message_id)
                .outerjoin(m.InboundMessage, m.Action.inbound_message_id == m.InboundMessage.id)
                .where(m.Action.game_id == game.id)
                .order_by(m.Action.seq)
            ).all()
            log = [
                (a.seq, a.seat_index, a.actor.value, a.action_json, message_id)
                for a, message_id in rows
            ]
            assert game.snapshot is not None
            out[game.tag] = Record(log, game.version, game.snapshot.state_json)
    return out


def messages(factory: sessionmaker[Session]) -> list[m.InboundMessage]:
    with factory.begin() as session:
        return list(session.scalars(select(m.InboundMessage).order_by(m.InboundMessage.id)))


def assert_each_message_applied_once(factory: sessionmaker[Session], count: int) -> None:
    rows = messages(factory)
    assert len(rows) == count
    assert Counter(r.status for r in rows) == {m.MessageStatus.DONE: count}
    assert [r.attempts for r in rows] == [1] * count
    assert all(r.error is None for r in rows)


def assert_logs_follow_the_scripts(
    found: dict[str, Record], tags: list[str], scripts: list[Script]
) -> None:
    for tag, plan in zip(tags, scripts, strict=True):
        record = found[tag]
        # No gaps, no duplicates: seq runs 1..version.
        assert [row[0] for row in record.log] == list(range(1, record.version + 1)), tag
        assert [(row[1], row[3]) for row in record.log] == plan.log, tag
        assert json.loads(record.snapshot) == json.loads(plan.final), tag


def test_four_worker_processes_apply_200_mails_over_20_games_exactly_once_in_order(
    pg_server: PostgresServer,
) -> None:
    seeds = [4000 + i for i in range(GAMES)]
    scripts = [script(seed, MAILS_PER_GAME) for seed in seeds]
    url = pg_server.create_database("workers")
    factory, tags = open_database(url, seeds)
    raws = write_mails(factory, tags, scripts)
    assert len(raws) == GAMES * MAILS_PER_GAME == 200
    ingest(factory, raws)
    close(factory)
    single_url = clone_database(pg_server, url, "workers_single")

    names = [f"w{i}" for i in range(WORKERS)]
    processed = run_workers({**{name: url for name in names}, "single": single_url})

    assert processed["single"] == len(raws)
    assert sum(processed[name] for name in names) == len(raws)
    several_factory = make_session_factory(make_engine(url))
    single_factory = make_session_factory(make_engine(single_url))
    try:
        assert_each_message_applied_once(several_factory, len(raws))
        assert {r.claimed_by for r in messages(several_factory)} <= set(names)
        assert_each_message_applied_once(single_factory, len(raws))
        several, single = records(several_factory), records(single_factory)
        assert several == single
        assert_logs_follow_the_scripts(several, tags, scripts)
    finally:
        close(several_factory)
        close(single_factory)


def test_two_workers_racing_on_one_game_apply_its_mails_in_arrival_order(
    pg_server: PostgresServer,
) -> None:
    seed, count = 4242, RACE_MAILS
    plan = script(seed, count)
    url = pg_server.create_database("race")
    factory, tags = open_database(url, [seed])
    ingest(factory, write_mails(factory, tags, [plan]))

    processed = run_workers({"left": url, "right": url})
    assert sum(processed.values()) == count
    assert_each_message_applied_once(factory, count)

    rows = messages(factory)
    print("claimed:", Counter(r.claimed_by for r in rows), processed)
    # Processed one after the other in arrival (id) order ...
    times = [r.processed_at for r in rows]
    assert all(a is not None and b is not None and a <= b for a, b in itertools.pairwise(times))
    found = records(factory)
    # ... every action of a mail lands after those of the mails before it ...
    ids = {r.message_id: r.id for r in rows}
    sources = [ids[row[4]] for row in found[tags[0]].log if row[4] is not None]
    assert sources == sorted(sources)
    # ... and the game is exactly where the mails, in order, lead.
    assert_logs_follow_the_scripts(found, tags, [plan])
    close(factory)


def seats_of(factory: sessionmaker[Session]) -> list[tuple[int, int, str | None, int, str]]:
    """Every seat of every game as stored: game, seat, news kept for its next mail, deadlines
    missed, mail preference."""
    with factory.begin() as session:
        rows = session.execute(
            select(
                m.Seat.game_id,
                m.Seat.seat_index,
                m.Seat.unmailed,
                m.Seat.missed_deadlines,
                m.Seat.mail_preference,
            ).order_by(m.Seat.game_id, m.Seat.seat_index)
        ).all()
        return [(g, s, news, missed, pref.value) for g, s, news, missed, pref in rows]


def test_a_claim_begun_while_another_worker_held_the_game_reads_it_as_committed(
    pg_server: PostgresServer,
) -> None:
    """A worker whose claim of a game began while another worker held it, and got the lock
    once that worker had committed, works from the game as committed: its row, and its
    seats and snapshot too. A claim that read the seats and snapshot in its locking
    statement got them as they were when the statement began (PostgreSQL, READ COMMITTED):
    the game's new version with its old snapshot and old seats, so what the first mail kept
    for a seat's next mail was lost; and with SKIP LOCKED the seats read while the row was
    still held were left out altogether (a mail refused for its seat, the game rebuilt for
    fewer players: an order lost, once in a full run of the four-worker test above).

    The interleaving is made, not waited for: the second worker's statements run on server
    cursors (PostgreSQL locks a cursor's rows when it first fetches them), and the first
    worker commits between the second's declaring of its lock and its fetching."""
    seed = 4012
    plan = script(seed, 2)
    url = pg_server.create_database("claim")
    factory, tags = open_database(url, [seed])
    with factory.begin() as session:
        # A seat mailed on its own turns only keeps what happened for its next mail, so
        # each mail of the game changes some seat's row.
        session.execute(update(m.Seat).values(mail_preference=m.MailPreference.TURNS))
    ingest(factory, write_mails(factory, tags, [plan]))
    close(factory)
    one_by_one = make_session_factory(make_engine(clone_database(pg_server, url, "claim_ref")))
    assert Moderator(config(), one_by_one).process_all("single") == 2

    first_factory = make_session_factory(make_engine(url))
    second_engine = make_engine(url)
    second_factory = make_session_factory(second_engine)
    holding, go, committed = threading.Event(), threading.Event(), threading.Event()

    @event.listens_for(first_factory, "before_commit")
    def hold(session: Session) -> None:
        holding.set()
        assert go.wait(WORKER_TIMEOUT_S)

    @event.listens_for(first_factory, "after_commit")
    def done(session: Session) -> None:
        committed.set()

    @event.listens_for(second_factory, "do_orm_execute")
    def on_a_server_cursor(state: ORMExecuteState) -> None:
        if state.is_select:
            state.update_execution_options(stream_results=True)

    @event.listens_for(second_engine, "after_cursor_execute")
    def first_commits_before_the_fetch(*args: object) -> None:
        statement = str(args[2])
        if "FOR UPDATE" in statement and "FROM games" in statement and not go.is_set():
            go.set()  # declared, not fetched: the first worker commits now
            assert committed.wait(WORKER_TIMEOUT_S)

    ids = [r.id for r in messages(one_by_one)]
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(Moderator(config(), first_factory).process_one, "first")
        assert holding.wait(WORKER_TIMEOUT_S)
        second = Moderator(config(), second_factory).process_one("second")
        interleaved = go.is_set()
        go.set()  # the first worker is never left waiting
        assert first.result(WORKER_TIMEOUT_S) == (True, ids[0])
    assert interleaved, "the second worker never tried the game's lock"
    assert second == (True, ids[1])
    try:
        assert_each_message_applied_once(first_factory, 2)
        assert [r.claimed_by for r in messages(first_factory)] == ["first", "second"]
        found = records(first_factory)
        assert found == records(one_by_one)
        assert_logs_follow_the_scripts(found, tags, [plan])
        assert seats_of(first_factory) == seats_of(one_by_one)
    finally:
        close(first_factory)
        close(second_factory)
        close(one_by_one)
