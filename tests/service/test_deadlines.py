"""Deadlines: a reminder before, then the announced default (or the autopilot) at the
deadline, entering the game like a player's order."""

from __future__ import annotations

from datetime import timedelta

from clocks import Clock, actions, announced
from conftest import PLAYERS
from letters import first_line, latest_reply_to, letter, outbox, text_of
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.config import Config
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m

PIPE = m.MessageSource.PIPE


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


def test_every_turn_mail_announces_the_deadline_in_the_players_time_zone(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    tokyo = [NewPlayer("Anna", "anna@example.test", "Asia/Tokyo"), *PLAYERS[1:]]
    start_game(session_factory, config, "default", tokyo)
    anna = next(mail for mail in outbox(session_factory) if str(mail["To"]) == "anna@example.test")
    when, _ = announced(anna) or ("", "")
    assert when == "Tue 24 Nov 2026 21:00 JST (Asia/Tokyo)"  # 12:00 UTC + 48 h


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


def test_under_the_wait_policy_each_deadline_passed_is_missed_and_the_operator_told_at_the_limit(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    """The game waits for Anna, but her deadlines go on: each one passed is a reminder
    and a deadline missed, and at the configured count the operator is told, as under
    the other policies (a seat that never answers must reach a person)."""
    moderator, clock, _ = start_game(session_factory, config, "wait")
    limit = config.deadlines.missed_before_operator
    before = len(outbox(session_factory))
    for missed_so_far in range(1, limit + 1):
        with session_factory.begin() as session:
            remind_at = session.scalars(select(m.Game.reminder_at)).one()
        assert remind_at is not None
        clock.now = remind_at
        assert moderator.tick() == 1  # the reminder before the deadline
        pass_the_deadline(moderator, clock, session_factory)
        assert missed(session_factory)["Anna"] == missed_so_far
    assert actions(session_factory) == []  # nothing was played for her
    with session_factory.begin() as session:
        notes = session.scalars(select(m.OperatorNote)).all()
        game = session.scalars(select(m.Game)).one()
    assert [n.kind for n in notes] == [m.NoteKind.DEADLINES_MISSED]
    assert game.deadline_at == clock.now + timedelta(hours=48)  # her next, from now
    mails = outbox(session_factory)[before:]
    assert {str(mail["To"]) for mail in mails} == {"anna@example.test"}
    # One reminder before each deadline and one at it.
    assert len(mails) == 2 * limit and all(first_line(x).startswith("Reminder") for x in mails)
    last = " ".join(text_of(mails[-1]).split())
    assert f"You have missed {limit} deadlines in a row. The moderator has been told" in last


def test_a_paused_game_has_no_deadline(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, clock, tag = start_game(session_factory, config, "default")
    Admin(moderator).set_status(tag, m.GameStatus.PAUSED, "holiday")
    clock.now += timedelta(days=30)
    assert moderator.tick() == 0
    assert actions(session_factory) == []


def missed(factory: sessionmaker[Session]) -> dict[str, int]:
    with factory.begin() as session:
        return {s.name: s.missed_deadlines for s in session.scalars(select(m.Seat))}


def pass_the_deadline(moderator: Moderator, clock: Clock, factory: sessionmaker[Session]) -> None:
    with factory.begin() as session:
        due = session.scalars(select(m.Game.deadline_at)).one()
    assert due is not None
    clock.now = due + timedelta(minutes=1)
    moderator.tick()


def test_after_three_missed_deadlines_in_a_row_the_operator_is_told_once(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    """Nobody writes: each deadline passed counts for the seat it was his; at the third
    in a row the operator is told (once), and the seat's mails say so from the first."""
    moderator, clock, _ = start_game(session_factory, config, "default")
    limit = config.deadlines.missed_before_operator
    while max(missed(session_factory).values()) < limit + 1:
        pass_the_deadline(moderator, clock, session_factory)
    with session_factory.begin() as session:
        notes = session.scalars(select(m.OperatorNote).order_by(m.OperatorNote.id)).all()
    told = [n.text for n in notes if n.kind is m.NoteKind.DEADLINES_MISSED]
    reached = [name for name, count in missed(session_factory).items() if count >= limit]
    assert len(told) == len(reached) >= 1
    assert all(f"missed {limit} deadlines in a row" in text for text in told)
    assert any("seat 1 (Anna <anna@example.test>)" in text for text in told)
    anna = [mail for mail in outbox(session_factory) if str(mail["To"]) == "anna@example.test"]
    last = " ".join(text_of(anna[-1]).split())
    count = missed(session_factory)["Anna"]
    assert f"You have missed {count} deadlines in a row." in last
    assert "The moderator has been told" in last


def test_an_order_ends_a_run_of_missed_deadlines(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, clock, _ = start_game(session_factory, config, "default")
    pass_the_deadline(moderator, clock, session_factory)  # Anna's role: the autopilot's
    assert missed(session_factory)["Anna"] == 1
    anna = [mail for mail in outbox(session_factory) if str(mail["To"]) == "anna@example.test"]
    assert "You have missed 1 deadline in a row." in " ".join(text_of(anna[-1]).split())
    # The autopilot took the settler for her: she settles first, and writes.
    anna_reply = latest_reply_to(session_factory, "anna@example.test")
    moderator.ingest(letter("anna@example.test", anna_reply, "take quarry"), source=PIPE)
    moderator.process_all()
    assert missed(session_factory)["Anna"] == 0
    anna = [mail for mail in outbox(session_factory) if str(mail["To"]) == "anna@example.test"]
    assert "missed" not in text_of(anna[-1])


def test_game_replace_hands_a_silent_seat_on_with_the_board_a_new_password_and_a_new_deadline(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, clock, tag = start_game(session_factory, config, "default")

    def anna_to_decide() -> bool:
        with session_factory.begin() as session:
            return session.scalars(select(m.Game)).one().turn_of(0) is not None

    limit = config.deadlines.missed_before_operator
    while missed(session_factory)["Anna"] < limit or not anna_to_decide():
        pass_the_deadline(moderator, clock, session_factory)
    clock.now += timedelta(hours=1)
    password = Admin(moderator).replace(tag, "1", "erin@example.test", name="Erin")
    assert missed(session_factory).get("Erin") == 0
    erin = [mail for mail in outbox(session_factory) if mail["To"] == "erin@example.test"]
    text = " ".join(text_of(erin[-1]).split())
    assert password in text and "Round " in text and "missed" not in text
    with session_factory.begin() as session:
        turn = session.scalars(select(m.Game)).one().turn_of(0)
    # Her own deadline, from now: the silence was Anna's, not hers.
    assert turn is not None and turn.due_at == clock.now + timedelta(hours=48)
    assert "No order by" in text
