"""Say it before doing it: each turn mail names the exact action taken at the deadline,
and that action is the one applied; deadlines run on each seat's own clock."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from clocks import Clock, announced
from conftest import PLAYERS
from letters import latest_reply_to, letter, outbox, text_of
from positions import CORN, INDIGO, SUGAR, TOBACCO, pick, plant, ready
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.bots import Budget
from moderator.config import Config
from moderator.engine import Game, Role, action_from
from moderator.orders import check_mail
from moderator.service.admin import Admin, NewPlayer
from moderator.service.autopilot import PLAYERS as AUTOPILOTS
from moderator.service.autopilot import Player
from moderator.service.core import Moderator
from moderator.store import models as m

ZONED = [
    NewPlayer("Anna", "anna@example.test", "Asia/Tokyo"),
    NewPlayer("Bob", "bob@example.test", "Europe/Berlin"),
    NewPlayer("Chris", "chris@example.test", "UTC"),
    NewPlayer("David", "david@example.test", "America/New_York"),
]
FRIDAY_NOON = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def game_row(factory: sessionmaker[Session]) -> tuple[m.Game, Game]:
    with factory.begin() as session:
        row = session.scalars(select(m.Game)).one()
        assert row.snapshot is not None
        return row, Game.from_json(row.snapshot.state_json)


def turns(factory: sessionmaker[Session]) -> dict[int, m.Turn]:
    row, _ = game_row(factory)
    return {t.seat: t for t in row.turns}


def log(factory: sessionmaker[Session]) -> list[m.Action]:
    with factory.begin() as session:
        return list(session.scalars(select(m.Action).order_by(m.Action.seq)))


def last_mail_to(factory: sessionmaker[Session], address: str) -> object:
    return next(mail for mail in reversed(outbox(factory)) if str(mail["To"]) == address)


def mayor_position() -> str:
    """The mayor's phase under way: every player has two plantations and a colonist
    coming, so each has a real choice to make (all at once)."""
    game = Game.new([p.name for p in PLAYERS], 5)
    for seat, good in enumerate([CORN, SUGAR, TOBACCO, INDIGO]):
        plant(game.state, seat, good)
    game = ready(game)
    pick(game, Role.MAYOR)
    assert len(game.deciding()) == 4
    return game.to_json()


@pytest.mark.parametrize("policy", ["default", "autopilot"])
def test_the_action_announced_for_the_deadline_is_the_action_applied(
    session_factory: sessionmaker[Session], config: Config, policy: str
) -> None:
    """Twelve deadlines in a row pass with nobody writing: each time, every deciding
    seat's latest mail said what would be done, and exactly that was done."""
    clock = Clock()
    moderator = Moderator(config, session_factory, clock=clock)
    Admin(moderator).new_game(PLAYERS, seed=11, deadline_action=policy)
    addresses = {i: p.address for i, p in enumerate(PLAYERS)}
    checked = 0
    for _ in range(12):
        row, game = game_row(session_factory)
        promised = {}
        for seat in game.deciding():
            mail = last_mail_to(session_factory, addresses[seat])
            said = announced(mail)  # type: ignore[arg-type]
            assert said is not None, text_of(mail)  # type: ignore[arg-type]
            report = check_mail(said[1], game, seat)
            assert not report.errors and len(report.actions) == 1, said
            promised[seat] = report.actions[0]
        assert row.deadline_at is not None
        before = row.version
        clock.now = row.deadline_at + timedelta(minutes=1)
        moderator.tick()
        taken = [a for a in log(session_factory) if a.seq > before]
        done = {
            a.seat_index: action_from(json.loads(a.action_json))
            for a in taken
            if a.actor in (m.ActorKind.DEFAULT, m.ActorKind.AUTOPILOT)
        }
        assert done == promised
        checked += len(done)
    assert checked >= 12


def test_a_seat_keeps_his_deadline_and_announced_action_while_others_move(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    """In the mayor's phase all place at once: Bob's order does not move Chris's
    deadline nor change what was announced to him."""
    clock = Clock()
    moderator = Moderator(config, session_factory, clock=clock)
    Admin(moderator).new_game(PLAYERS, seed=1, position=mayor_position())
    chris_before = announced(last_mail_to(session_factory, "chris@example.test"))  # type: ignore[arg-type]
    clock.now += timedelta(hours=5)
    bob = "bob@example.test"
    moderator.ingest(
        letter(bob, latest_reply_to(session_factory, bob), "place 1 on sugar"),
        source=m.MessageSource.PIPE,
    )
    moderator.process_all()
    chris_after = announced(last_mail_to(session_factory, "chris@example.test"))  # type: ignore[arg-type]
    assert chris_before is not None and chris_after == chris_before
    now = turns(session_factory)
    assert set(now) == {0, 2, 3}  # Bob has placed his colonist
    assert now[2].due_at == now[0].due_at == datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def test_deadlines_pause_for_the_weekend_in_each_seats_own_time_zone(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    """Friday noon UTC, 12 running hours: Tokyo's and Berlin's weekends begin before
    them (Friday 15:00 and 23:00 UTC), New York's and UTC's do not."""
    clock = Clock(FRIDAY_NOON)
    moderator = Moderator(config, session_factory, clock=clock)
    Admin(moderator).new_game(
        ZONED,
        seed=1,
        position=mayor_position(),
        deadline_hours=12,
        reminder_hours=0,
        weekend_pause=True,
    )
    due = {seat: t.due_at for seat, t in turns(session_factory).items()}
    saturday = datetime(2026, 11, 28, 0, 0, tzinfo=UTC)
    monday = datetime(2026, 11, 30, 0, 0, tzinfo=UTC)
    # Anna: 3 hours on Friday, 9 from Monday 00:00 JST; Bob: 11 on Friday, 1 from Monday
    # 00:00 CET; Chris: noon to midnight; David: his Saturday begins at 05:00 UTC.
    assert due == {0: monday, 1: monday, 2: saturday, 3: saturday}
    said = {
        p.name: announced(last_mail_to(session_factory, p.address))  # type: ignore[arg-type]
        for p in ZONED
    }
    assert said["Anna"] is not None and said["Anna"][0] == "Mon 30 Nov 2026 09:00 JST (Asia/Tokyo)"
    assert said["Bob"] is not None and said["Bob"][0] == "Mon 30 Nov 2026 01:00 CET (Europe/Berlin)"
    assert said["David"] is not None and said["David"][0].startswith("Fri 27 Nov 2026 19:00 EST")

    clock.now = saturday + timedelta(minutes=1)
    moderator.tick()
    defaulted = [a.seat_index for a in log(session_factory) if a.actor is m.ActorKind.DEFAULT]
    assert defaulted == [2, 3]
    clock.now = monday - timedelta(minutes=1)
    moderator.tick()
    assert len([a for a in log(session_factory) if a.actor is m.ActorKind.DEFAULT]) == 2
    clock.now = monday + timedelta(minutes=1)
    moderator.tick()
    defaulted = [a.seat_index for a in log(session_factory) if a.actor is m.ActorKind.DEFAULT]
    assert sorted(defaulted) == [0, 1, 2, 3]


def test_without_the_weekend_pause_a_deadline_runs_through_the_weekend(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    clock = Clock(FRIDAY_NOON)
    moderator = Moderator(config, session_factory, clock=clock)
    Admin(moderator).new_game(
        ZONED, seed=1, position=mayor_position(), deadline_hours=12, reminder_hours=2
    )
    due = {t.due_at for t in turns(session_factory).values()}
    assert due == {FRIDAY_NOON + timedelta(hours=12)}


def off_the_mail_path(config: Config, factory: sessionmaker[Session], clock: Clock) -> Moderator:
    """A moderator whose autopilot is the search player, as deployed (it thinks off the
    mail path, in the planner), with an exact playout budget: the same position always
    gives the same choice."""
    autopilot = replace(AUTOPILOTS[Player.SEARCH], budget=Budget.of_playouts(4))
    return Moderator(config, factory, clock=clock, autopilot=autopilot)


def test_turn_mails_wait_for_the_autopilot_to_decide_off_the_mail_path(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    clock = Clock()
    inline = Moderator(config, session_factory, clock=clock)
    Admin(inline).new_game(PLAYERS, seed=11)
    moderator = off_the_mail_path(config, session_factory, clock)
    anna = "anna@example.test"
    sent = len(outbox(session_factory))
    first = letter(anna, latest_reply_to(session_factory, anna), "role builder")
    moderator.ingest(first, source=m.MessageSource.PIPE)
    moderator.process_all()
    # Anna builds first, and the autopilot has not yet decided what it would build for
    # her: every mail of the change waits for it, her answer too (it announces it).
    assert outbox(session_factory)[sent:] == []
    jobs = moderator.undecided()
    assert [(job.seat, job.version) for job in jobs] == [(0, 1)]
    assert moderator.tick() == 0  # nothing for the clock before the planner decides

    # Anna builds before the planner is done: the job is stale; Bob's turn is next.
    second = letter(anna, latest_reply_to(session_factory, anna), "build small market")
    moderator.ingest(second, source=m.MessageSource.PIPE)
    moderator.process_all()
    assert moderator.settle_decision(jobs[0], moderator.decide(jobs[0])) is False
    assert outbox(session_factory)[sent:] == []
    assert moderator.plan_all() == 1
    mails = outbox(session_factory)[sent:]
    assert sorted(str(mail["To"]) for mail in mails) == sorted(p.address for p in PLAYERS)
    # One answer for both of Anna's mails, on the latest; one mail for Bob with what
    # happened in both changes, and what is done at his deadline.
    answer = next(mail for mail in mails if str(mail["To"]) == anna)
    assert str(answer["In-Reply-To"]) in second.decode()
    text = " ".join(text_of(answer).split())
    assert "role builder" in text and "build small market" in text, text
    bob = next(mail for mail in mails if str(mail["To"]) == "bob@example.test")
    text = " ".join(text_of(bob).split())
    assert "Anna chooses the builder" in text and "Anna builds a small market" in text, text
    said = announced(bob)
    assert said is not None and said[1].startswith("build")

    row, game = game_row(session_factory)
    assert row.deadline_at is not None
    clock.now = row.deadline_at + timedelta(minutes=1)
    moderator.tick()
    applied = log(session_factory)[-1]
    assert applied.actor is m.ActorKind.AUTOPILOT and applied.seat_index == 1
    assert check_mail(said[1], game, 1).actions == [action_from(json.loads(applied.action_json))]


def test_the_planner_decides_as_the_operators_command_did(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    """The choice is a pure function of the position, the seat and the seed (and, for the
    search, an exact playout budget): the same wherever it is computed. `game new`
    decides at once (it runs off the mail path); the planner would decide the same."""
    clock = Clock()
    moderator = off_the_mail_path(config, session_factory, clock)
    Admin(moderator).new_game(PLAYERS, seed=11)
    with session_factory.begin() as session:
        row = session.scalars(select(m.Game)).one()
        (turn,) = row.turns
        inline_choice = turn.action
        row.turns = [replace(turn, action=None)]  # as if it waited for the planner
    (job,) = moderator.undecided()
    assert moderator.decide(job) == inline_choice
