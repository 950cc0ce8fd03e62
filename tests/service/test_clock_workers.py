"""The clock with several processes on one PostgreSQL database: each deadline's action is
applied once, and each decision the planner makes is stored once, however the processes
race."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from clocks import START, Clock
from dbfixtures import PostgresServer
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.config import Config, ModeratorSection
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade
from moderator.store.passwords import hash_secret

pytestmark = pytest.mark.integration

PROCESS = Path(__file__).with_name("clockproc.py")
SECRET = "Bq2y9yS9Y2tK0m4o1sX7c3wzJ8rW6vHnP5aQeLdTfUg"
GAMES = 12
PROCESSES = 2
TIMEOUT_S = 120


@pytest.fixture(autouse=True)
def cheap_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(m, "hash_secret", functools.partial(hash_secret, n=2**4))


def players(game: int) -> list[NewPlayer]:
    return [NewPlayer(n, f"{n.lower()}.{game}@example.test") for n in ("Anna", "Bob", "Chris")]


def race(url: str, now: str, mode: str) -> list[int]:
    """Start the processes, release them together, and what each did."""
    procs = [
        subprocess.Popen(
            [sys.executable, str(PROCESS), url, SECRET, now, mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(PROCESSES)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        done = []
        for proc in procs:
            out, _ = proc.communicate(timeout=TIMEOUT_S)
            assert proc.returncode == 0
            done.append(json.loads(out.strip().splitlines()[-1])["done"])
        return done
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def deadline_actions(factory: sessionmaker[Session]) -> Counter[str]:
    with factory.begin() as session:
        rows = session.execute(
            select(m.Game.tag)
            .join(m.Action, m.Action.game_id == m.Game.id)
            .where(m.Action.actor.in_([m.ActorKind.DEFAULT, m.ActorKind.AUTOPILOT]))
        ).scalars()
        return Counter(rows)


def board_mails(session: Session) -> Counter[int]:
    """The mails of each game since it began (one board mail per seat per change)."""
    return Counter(
        session.scalars(select(m.OutboxMessage.game_id).where(m.OutboxMessage.kind != "game_start"))
    )


def test_two_processes_apply_each_deadline_action_once_and_plan_each_turn_once(
    pg_server: PostgresServer,
) -> None:
    url = pg_server.create_database("clock_race")
    upgrade(url)
    engine = make_engine(url)
    factory = make_session_factory(engine)
    config = Config(moderator=ModeratorSection(address="moderator@example.test", secret=SECRET))
    admin = Admin(Moderator(config, factory, clock=Clock(START)))
    tags = [admin.new_game(players(i), seed=700 + i)[0] for i in range(GAMES)]
    rendered = url.render_as_string(hide_password=False)

    # Every governor's deadline has passed: both processes tick at once.
    after = (START + timedelta(hours=49)).isoformat()
    race(rendered, after, "tick")
    assert deadline_actions(factory) == dict.fromkeys(tags, 1)
    with factory.begin() as session:
        games = list(session.scalars(select(m.Game).order_by(m.Game.id)))
        for game in games:
            seqs = session.scalars(select(m.Action.seq).where(m.Action.game_id == game.id))
            assert sorted(seqs) == list(range(1, game.version + 1)), game.tag
        # Where the next turn is the autopilot's to decide, the boards wait for the
        # planner (it thinks off the mail path); elsewhere they went out once.
        waiting = {g.id for g in games if any(t.undecided for t in g.turns)}
        assert waiting
        assert board_mails(session) == {g.id: 3 for g in games if g.id not in waiting}

    # Both processes plan at once: each decision stored once, each change mailed once.
    planned = race(rendered, after, "plan")
    assert sum(planned) == len(waiting)
    with factory.begin() as session:
        assert not [t for g in session.scalars(select(m.Game)) for t in g.turns if t.undecided]
        assert board_mails(session) == {g.id: 3 for g in games}
    engine.dispose()
