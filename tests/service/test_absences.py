"""Absences: while a player is away the autopilot plays for him at once, or his deadlines
wait for his return, as the game says; every board shows it; any order of his ends it."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest
from clocks import START, Clock
from conftest import PLAYERS
from letters import latest_reply_to, letter, outbox, text_of
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.bots import Budget
from moderator.config import Config
from moderator.service.admin import Admin, AdminError
from moderator.service.autopilot import PLAYERS as AUTOPILOTS
from moderator.service.autopilot import Player
from moderator.service.core import Moderator
from moderator.store import models as m

ANNA = "anna@example.test"


def start(
    factory: sessionmaker[Session], config: Config, absence: str, **rules: object
) -> tuple[Moderator, Admin, Clock, str]:
    clock = Clock()
    moderator = Moderator(config, factory, clock=clock)
    admin = Admin(moderator)
    tag, _ = admin.new_game(PLAYERS, seed=3, absence=absence, **rules)  # type: ignore[arg-type]
    return moderator, admin, clock, tag


def log(factory: sessionmaker[Session]) -> list[tuple[int | None, m.ActorKind]]:
    with factory.begin() as session:
        rows = session.scalars(select(m.Action).order_by(m.Action.seq))
        return [(a.seat_index, a.actor) for a in rows]


def seat(factory: sessionmaker[Session], name: str) -> m.Seat:
    with factory.begin() as session:
        return session.scalars(select(m.Seat).where(m.Seat.name == name)).one()


def game_row(factory: sessionmaker[Session]) -> m.Game:
    with factory.begin() as session:
        return session.scalars(select(m.Game)).one()


def last_to(factory: sessionmaker[Session], address: str) -> str:
    mail = next(mail for mail in reversed(outbox(factory)) if str(mail["To"]) == address)
    return " ".join(text_of(mail).split())


def test_the_autopilot_plays_at_once_for_an_absent_player_and_every_board_shows_it(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    _moderator, admin, clock, tag = start(session_factory, config, "autopilot")
    clock.now += timedelta(hours=2)
    end = admin.absence(tag, "Anna", days=5)
    assert end == START + timedelta(hours=2, days=5)
    # Anna was choosing a role: the autopilot chose at once; it is no missed deadline.
    played = [(s, a) for s, a in log(session_factory) if a is not m.ActorKind.FORCED]
    assert played[0] == (0, m.ActorKind.AUTOPILOT)
    assert seat(session_factory, "Anna").missed_deadlines == 0
    # Whenever her turn comes while she is away, the autopilot plays it in the same run.
    assert 0 not in {t.seat for t in game_row(session_factory).turns}
    bob = last_to(session_factory, "bob@example.test")
    assert "Away until Fri 27 Nov 2026 14:00 UTC, the autopilot plays for him" in bob
    anna = last_to(session_factory, ANNA)
    assert "You are away until Fri 27 Nov 2026 14:00 UTC: the autopilot plays for you" in anna
    told = " ".join(text_of(m) for m in outbox(session_factory) if str(m["To"]) == ANNA)
    assert "You are away, so the autopilot played for you: role " in " ".join(told.split())


def test_an_order_from_the_absent_player_ends_the_absence(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, admin, _clock, tag = start(session_factory, config, "autopilot")
    admin.absence(tag, "Anna", days=5)
    assert seat(session_factory, "Anna").away_until is not None
    # Bob is asked now; Anna writes an order for her next role, kept for later.
    raw = letter(ANNA, latest_reply_to(session_factory, ANNA), "role captain")
    moderator.ingest(raw, source=m.MessageSource.PIPE)
    moderator.process_all()
    assert seat(session_factory, "Anna").away_until is None
    assert "away" not in last_to(session_factory, ANNA).lower()


def test_under_the_stretch_policy_an_absent_players_deadline_runs_from_his_return(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, admin, clock, tag = start(session_factory, config, "stretch", deadline_hours=48)
    back_on = date(2026, 12, 3)
    admin.absence(tag, "Anna", until=back_on)
    (turn,) = game_row(session_factory).turns
    assert turn.seat == 0 and not turn.absent
    assert turn.due_at == datetime(2026, 12, 3, tzinfo=UTC) + timedelta(hours=48)
    clock.now = datetime(2026, 12, 4, tzinfo=UTC)
    moderator.tick()
    assert log(session_factory) == []  # the game waits for her
    # She writes her order: the absence ends, the order is applied.
    raw = letter(ANNA, latest_reply_to(session_factory, ANNA), "role settler")
    moderator.ingest(raw, source=m.MessageSource.PIPE)
    moderator.process_all()
    assert log(session_factory)[0] == (0, m.ActorKind.PLAYER)
    assert seat(session_factory, "Anna").away_until is None


def test_back_ends_an_absence_and_the_turn_starts_afresh(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    _moderator, admin, clock, tag = start(session_factory, config, "stretch")
    admin.absence(tag, "1", days=10)
    clock.now += timedelta(hours=3)
    assert admin.absence(tag, "1") is None
    (turn,) = game_row(session_factory).turns
    assert turn.due_at == clock.now + timedelta(hours=48)
    assert "noted that you are back" in last_to(session_factory, ANNA)


@pytest.mark.parametrize(
    ("until", "days", "why"),
    [
        (date(2026, 11, 20), None, "has begun already"),
        (date(2027, 3, 1), None, "30 days at most"),
        (None, 31, "30 days at most"),
    ],
)
def test_an_absence_that_cannot_be_is_refused_and_changes_nothing(
    session_factory: sessionmaker[Session],
    config: Config,
    until: date | None,
    days: int | None,
    why: str,
) -> None:
    _moderator, admin, _clock, tag = start(session_factory, config, "autopilot")
    sent = len(outbox(session_factory))
    with pytest.raises(AdminError, match=why):
        admin.absence(tag, "Anna", until=until, days=days)
    assert seat(session_factory, "Anna").away_until is None
    assert len(outbox(session_factory)) == sent and log(session_factory) == []


def test_the_planner_plays_for_absent_players_one_decision_after_another(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    """With the search player (off the mail path), three absent players are played by
    the planner until the one present must decide; the mails wait till then."""
    clock = Clock()
    search = replace(AUTOPILOTS[Player.SEARCH], budget=Budget.of_playouts(3))
    moderator = Moderator(config, session_factory, clock=clock, autopilot=search)
    admin = Admin(moderator)
    tag, _ = admin.new_game(PLAYERS, seed=3)
    for name in ("Bob", "Chris", "David"):
        admin.absence(tag, name, days=3)
    raw = letter(ANNA, latest_reply_to(session_factory, ANNA), "role builder\nbuild nothing")
    moderator.ingest(raw, source=m.MessageSource.PIPE)
    sent = len(outbox(session_factory))
    moderator.process_all()
    assert len(outbox(session_factory)) == sent  # held: the others' builds are undecided
    assert moderator.plan_all() >= 3
    actors = {(s, a) for s, a in log(session_factory)}
    assert {(1, m.ActorKind.AUTOPILOT), (2, m.ActorKind.AUTOPILOT)} <= actors
    row = game_row(session_factory)
    assert {t.seat for t in row.turns} == {0} and not row.planning  # Anna's turn again
    anna = last_to(session_factory, ANNA)
    assert "No order by" in anna
    record = json.loads(row.turns_json or "[]")
    assert record[0]["actor"] in ("default", "autopilot")


def write(moderator: Moderator, factory: sessionmaker[Session], sender: str, body: str) -> str:
    """The player answers his latest mail with ``body``; his answer, on one line."""
    moderator.ingest(letter(sender, latest_reply_to(factory, sender), body), source=PIPE)
    moderator.process_all()
    return last_to(factory, sender)


PIPE = m.MessageSource.PIPE
BERLIN = [PLAYERS[0], PLAYERS[2], PLAYERS[1], PLAYERS[3]]  # Bob, of Berlin, is seat 3


def test_a_player_orders_his_absence_by_mail_and_the_autopilot_plays_for_him_at_once(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, _admin, _clock, _tag = start(session_factory, config, "autopilot")
    anna = write(moderator, session_factory, ANNA, "Away until 3 December")
    assert seat(session_factory, "Anna").away_until == datetime(2026, 12, 3, tzinfo=UTC)
    assert (
        "done: Away until 3 December understood as: away until Thu 3 Dec 2026 00:00 UTC: "
        "the autopilot plays for you" in anna
    )
    assert "You are away, so the autopilot played for you: role " in anna
    # She was choosing a role: the autopilot chose at once, and it is no missed deadline.
    played = [(s, a) for s, a in log(session_factory) if a is not m.ActorKind.FORCED]
    assert played[0] == (0, m.ActorKind.AUTOPILOT)
    assert 0 not in {t.seat for t in game_row(session_factory).turns}
    bob = last_to(session_factory, "bob@example.test")
    assert "Away until Thu 3 Dec 2026 00:00 UTC, the autopilot plays for him" in bob
    # "back" ends it: her turns are her own again, and the reply says so.
    anna = write(moderator, session_factory, ANNA, "I'm back")
    assert seat(session_factory, "Anna").away_until is None
    assert "done: I'm back understood as: back " in anna
    assert "You are away" not in anna


def test_an_absence_ordered_in_the_players_own_zone_stretches_his_deadline_and_an_order_ends_it(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    """Bob, in Berlin, is back at the start of 3 December there (23:00 UTC the day
    before); under the stretch policy his deadline runs from then; his order ends it."""
    clock = Clock()
    moderator = Moderator(config, session_factory, clock=clock)
    Admin(moderator).new_game(BERLIN, seed=3, absence="stretch", deadline_hours=48)
    bob_address = "bob@example.test"
    # Bob (seat 3) writes before his turn: his absence is noted, no turn of his changes.
    write(moderator, session_factory, bob_address, "away until the 3rd of December")
    back = datetime(2026, 12, 2, 23, tzinfo=UTC)
    assert seat(session_factory, "Bob").away_until == back
    # Anna picks, Chris picks: Bob's turn comes while he is away, due 48 h after his return.
    write(moderator, session_factory, ANNA, "role builder\nbuild nothing")
    write(moderator, session_factory, "chris@example.test", "build nothing")
    (turn,) = game_row(session_factory).turns
    assert turn.seat == 2 and not turn.absent
    assert turn.due_at == back + timedelta(hours=48)
    clock.now = back - timedelta(hours=1)
    moderator.tick()
    assert [s for s, _ in log(session_factory)].count(2) == 0  # his deadline waits for him
    # He writes an order: the absence ends, the order is applied.
    bob = write(moderator, session_factory, bob_address, "build nothing")
    assert seat(session_factory, "Bob").away_until is None
    assert (2, m.ActorKind.PLAYER) in log(session_factory)
    assert "You are away" not in bob


def test_an_order_in_the_same_mail_does_not_end_the_absence_it_announces(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, _admin, _clock, _tag = start(session_factory, config, "stretch")
    anna = write(moderator, session_factory, ANNA, "role settler; away 5 days")
    assert log(session_factory)[0] == (0, m.ActorKind.PLAYER)
    assert seat(session_factory, "Anna").away_until == START + timedelta(days=5)
    assert "until Fri 27 Nov 2026 12:00 UTC: your deadlines wait" in anna


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("away 40 days", "30 days at most"),
        ("away until 1 November", "30 days at most"),  # the next 1 November: 2027
        ("away until 22 November", "has begun already"),  # today
    ],
)
def test_an_absence_order_that_cannot_be_is_answered_with_why_and_changes_nothing(
    session_factory: sessionmaker[Session], config: Config, body: str, why: str
) -> None:
    moderator, _admin, _clock, _tag = start(session_factory, config, "autopilot")
    anna = write(moderator, session_factory, ANNA, body)
    assert why in anna and "You may order now" in anna
    assert seat(session_factory, "Anna").away_until is None
    assert log(session_factory) == []
    with session_factory.begin() as session:
        message = session.scalars(select(m.InboundMessage)).one()
        assert message.outcome is m.Outcome.ASKED_BACK


def test_back_without_an_absence_is_answered_and_changes_nothing(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, _admin, _clock, _tag = start(session_factory, config, "autopilot")
    before = game_row(session_factory).turns
    anna = write(moderator, session_factory, ANNA, "back")
    assert "back (you were not away)" in anna
    assert game_row(session_factory).turns == before and log(session_factory) == []
    with session_factory.begin() as session:
        message = session.scalars(select(m.InboundMessage)).one()
        assert message.outcome is m.Outcome.APPLIED
