"""Deadlines: a reminder before, then the announced default (or the autopilot) at the
deadline, entering the game like a player's order."""

from __future__ import annotations

from datetime import datetime, timedelta

from conftest import PLAYERS
from letters import first_line, outbox, text_of
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.config import Config
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 12, 0, tzinfo=m.utcnow().tzinfo)

    def __call__(self) -> datetime:
        return self.now


def start_game(
    factory: sessionmaker[Session],
    config: Config,
    action: str,
    players: list[NewPlayer] = PLAYERS,
) -> tuple[Moderator, Clock, str]:
    clock = Clock()
    moderator = Moderator(config, factory, clock=clock)
    tag, _ = Admin(moderator).new_game(
        players, seed=3, deadline_hours=48, reminder_hours=12, deadline_action=action
    )
    return moderator, clock, tag


def actions(factory: sessionmaker[Session]) -> list[tuple[int | None, m.ActorKind]]:
    with factory.begin() as session:
        return [
            (a.seat_index, a.actor) for a in session.scalars(select(m.Action).order_by(m.Action.id))
        ]


def test_every_turn_mail_announces_the_deadline_in_the_players_time_zone(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    tokyo = [NewPlayer("Anna", "anna@example.test", "Asia/Tokyo"), *PLAYERS[1:]]
    start_game(session_factory, config, "default", tokyo)
    anna = next(mail for mail in outbox(session_factory) if str(mail["To"]) == "anna@example.test")
    # 12:00 UTC + 48 h, and what is done then
    assert "No order by Tue 24 Nov 2026 21:00 JST (Asia/Tokyo) → the autopilot decides" in " ".join(
        text_of(anna).split()
    )


def test_a_reminder_comes_before_the_deadline_and_only_once(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, clock, _ = start_game(session_factory, config, "default")
    before = len(outbox(session_factory))
    clock.now += timedelta(hours=35)
    assert moderator.tick() == 0
    clock.now += timedelta(hours=2)  # 37 h: 11 h before the deadline
    assert moderator.tick() == 1
    mails = outbox(session_factory)[before:]
    assert [str(mail["To"]) for mail in mails] == ["anna@example.test"]  # the governor picks
    assert first_line(mails[0]).startswith("Reminder, about 11 hours left. Your turn:")
    moderator.tick()
    assert len(outbox(session_factory)) == before + 1
    assert actions(session_factory) == []


def test_at_the_deadline_the_autopilot_picks_where_the_rules_have_no_default(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, clock, _ = start_game(session_factory, config, "default")
    clock.now += timedelta(hours=49)
    moderator.tick()
    first = actions(session_factory)[0]
    assert first == (0, m.ActorKind.AUTOPILOT)  # no published default for a role pick


def test_the_wait_policy_only_reminds(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, clock, _ = start_game(session_factory, config, "wait")
    clock.now += timedelta(hours=49)
    moderator.tick()
    assert actions(session_factory) == []
    assert first_line(outbox(session_factory)[-1]).startswith("Reminder")


def test_a_paused_game_has_no_deadline(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, clock, tag = start_game(session_factory, config, "default")
    Admin(moderator).set_status(tag, m.GameStatus.PAUSED, "holiday")
    clock.now += timedelta(days=30)
    assert moderator.tick() == 0
    assert actions(session_factory) == []


def test_a_seat_that_misses_its_deadline_is_told_to_the_operator(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, clock, _ = start_game(session_factory, config, "default")
    clock.now += timedelta(hours=49)
    moderator.tick()
    with session_factory.begin() as session:
        notes = session.scalars(select(m.OperatorNote)).all()
        assert [(n.kind, n.text) for n in notes] == [
            (
                m.NoteKind.DEADLINES_MISSED,
                "seat 1 (Anna) missed a deadline; the autopilot decided for it",
            )
        ]
