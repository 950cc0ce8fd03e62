"""Orders kept for later, through the path that reads the mail and sends the answers:
a turn's orders are done all or none, a kept order never outlives its decision, and
what was done for a player is said once."""

from __future__ import annotations

from email.message import EmailMessage

from conftest import PLAYERS, Table, start_at
from letters import latest_reply_to, letter, outbox, text_of
from positions import build, goods, ready, ship
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.config import Config
from moderator.engine import Game
from moderator.engine.components import Building, Good
from moderator.service.core import Moderator
from moderator.store import models as m

ADDRESSES = [p.address for p in PLAYERS]


def send(moderator: Moderator, factory: sessionmaker[Session], seat: int, body: str) -> str:
    """Mail ``body`` from ``seat`` as a reply to his latest mail; the text of the answer."""
    address = ADDRESSES[seat]
    before = len(outbox(factory))
    moderator.ingest(
        letter(address, latest_reply_to(factory, address), body), source=m.MessageSource.PIPE
    )
    moderator.process_all()
    answers = [
        mail
        for mail in outbox(factory)[before:]
        if str(mail["To"]) == address and mail["Auto-Submitted"] == "auto-replied"
    ]
    assert answers, f"no answer to {body!r}"
    return " ".join(text_of(answers[-1]).split())


def last_mail(factory: sessionmaker[Session], seat: int) -> EmailMessage:
    return [mail for mail in outbox(factory) if str(mail["To"]) == ADDRESSES[seat]][-1]


def state(factory: sessionmaker[Session], tag: str) -> tuple[Game, int]:
    """The game now, and the length of its action log."""
    with factory.begin() as session:
        row = session.scalar(select(m.Game).where(m.Game.tag == tag))
        assert row is not None and row.snapshot is not None
        return Game.from_json(row.snapshot.state_json), row.version


def hacienda_game(factory: sessionmaker[Session], config: Config) -> tuple[Moderator, str]:
    """Seed 7 (face up: corn corn sugar sugar coffee); Bob has a manned hacienda and no
    construction hut."""
    game = Game.new([p.name for p in PLAYERS], 7)
    build(game.state, 1, Building.HACIENDA, 1)
    return start_at(factory, config, ready(game).to_json(), seed=7)


def test_a_turn_that_cannot_all_be_done_changes_nothing(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, tag = hacienda_game(session_factory, config)
    send(moderator, session_factory, 0, "role settler\nsettle coffee")
    before, version = state(session_factory, tag)
    assert before.kind() is not None and before.kind().value == "hacienda"
    # Asked about his hacienda, Bob orders a quarry he has no right to.
    answer = send(moderator, session_factory, 1, "take quarry")
    after, again = state(session_factory, tag)
    assert again == version, "a step of the turn was applied"
    assert after.to_json() == before.to_json()
    assert "only the settler" in answer, answer
    assert "done:" not in answer, answer


def test_a_role_and_the_first_step_of_its_phase_are_one_turn(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, tag = hacienda_game(session_factory, config)
    # No tobacco is face up: the settler is not taken either.
    answer = send(moderator, session_factory, 0, "role settler\nsettle tobacco")
    game, version = state(session_factory, tag)
    assert version == 0 and game.kind() is not None and game.kind().value == "role"
    assert "no tobacco plantation face up" in answer, answer
    assert "line 2 of the same turn cannot be done" in answer, answer
    # Both can be done: both are done now, said once as done, never as kept.
    answer = send(moderator, session_factory, 0, "role settler\nsettle coffee")
    game, version = state(session_factory, tag)
    assert version == 2 and game.state.players[0].plantations[4] == 1
    assert "done: role settler" in answer and "done: settle coffee" in answer, answer
    assert "kept" not in answer.lower(), answer


def test_storage_that_cannot_be_done_as_written_is_asked_back(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    game = Game.new([p.name for p in PLAYERS], 7)
    s = game.state
    build(s, 0, Building.SMALL_WAREHOUSE, 1)
    goods(s, 0, corn=2, sugar=2, indigo=1)
    # Every ship full of what Anna holds: nothing of hers can be loaded.
    for index, good in enumerate((Good.CORN, Good.SUGAR, Good.INDIGO)):
        ship(s, index, good, s.ships[index].capacity)
    moderator, tag = start_at(session_factory, config, ready(game).to_json(), seed=7)
    send(moderator, session_factory, 0, "role captain")
    before, version = state(session_factory, tag)
    assert before.kind() is not None and before.kind().value == "store"
    answer = send(moderator, session_factory, 0, "keep corn and sugar in the warehouse")
    assert state(session_factory, tag)[1] == version
    # Asked back, naming the ways to keep both.
    assert "you cannot keep corn and sugar as you wrote" in answer, answer
    assert "keep corn in warehouse, 1 sugar on wind rose" in answer, answer
    assert "keep sugar in warehouse, 1 corn on wind rose" in answer, answer
    answer = send(moderator, session_factory, 0, "keep corn, sugar and indigo")
    assert state(session_factory, tag)[1] == version
    assert "you cannot keep corn, sugar and indigo" in answer, answer
    answer = send(moderator, session_factory, 0, "keep corn in the warehouse, sugar")
    after, _ = state(session_factory, tag)
    assert after.state.players[0].goods[Good.CORN] == 2
    assert after.state.players[0].goods[Good.SUGAR] == 1
    assert after.state.players[0].goods[Good.INDIGO] == 0


def said(mail: EmailMessage, start: str) -> list[str]:
    """The paragraphs of a mail's text that start with ``start``, unwrapped."""
    paragraphs = text_of(mail).replace("\r\n", "\n").split("\n\n")
    return [" ".join(p.split()) for p in paragraphs if p.startswith(start)]


def waiting(factory: sessionmaker[Session], seat: int) -> list[str]:
    """The texts of ``seat``'s kept orders still waiting."""
    with factory.begin() as session:
        return list(
            session.scalars(
                select(m.QueuedOrder.order_text).where(
                    m.QueuedOrder.seat_index == seat,
                    m.QueuedOrder.superseded.is_(False),
                    m.QueuedOrder.applied_at.is_(None),
                )
            )
        )


def test_a_kept_order_whose_phase_goes_by_without_it_is_dropped_and_said_once(
    table: Table,
) -> None:
    factory = table.factory
    send(table.moderator, factory, 1, "sell corn")
    assert waiting(factory, 1) == ["sell corn"]
    # Nobody has a barrel: the trader phase goes by without asking anyone.
    send(table.moderator, factory, 0, "role trader")
    assert waiting(factory, 1) == []
    bob = last_mail(factory, 1)
    assert said(bob, "Your kept order") == [
        "Your kept order “sell corn” was dropped: the trader phase went by without asking "
        "you what to sell."
    ]
    send(table.moderator, factory, 1, "role builder")
    assert said(last_mail(factory, 1), "Your kept order") == []


def test_a_kept_order_that_cannot_be_done_is_dropped_and_the_player_asked(
    table: Table,
) -> None:
    factory = table.factory
    # Face up: corn corn sugar sugar coffee.
    send(table.moderator, factory, 1, "settle tobacco")
    send(table.moderator, factory, 0, "role settler\nsettle coffee")
    assert waiting(factory, 1) == []
    bob = last_mail(factory, 1)
    (line,) = said(bob, "Your kept order")
    assert line.startswith("Your kept order “settle tobacco” was dropped: there is no tobacco"), (
        line
    )
    assert "Your turn: settler" in text_of(bob)


def test_a_kept_order_for_a_forced_decision_is_used_or_dropped(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    # Seed 7: Bob's one indigo plantation is his only place for his one colonist.
    moderator, _ = start_at(
        session_factory, config, Game.new([p.name for p in PLAYERS], 7).to_json(), seed=7
    )
    send(moderator, session_factory, 1, "place 1 on corn")
    send(moderator, session_factory, 0, "role mayor")
    assert waiting(session_factory, 1) == []
    bob = last_mail(session_factory, 1)
    # One line each, in one paragraph.
    assert said(bob, "Your only choice") == [
        "Your only choice was made for you: place 1 on indigo. "
        "Your kept order “place 1 on corn” was dropped: you have no corn plantation."
    ]


def test_a_resent_order_for_a_decision_already_taken_is_answered_already_done(
    table: Table,
) -> None:
    factory, moderator = table.factory, table.moderator
    send(moderator, factory, 0, "role settler\nsettle coffee")
    assert "done: settle sugar" in send(moderator, factory, 1, "settle sugar")
    # The same mail again (a client's retry, a player unsure it arrived): while the
    # settler phase goes on, and after it, in this round.
    answer = send(moderator, factory, 1, "settle sugar")
    assert "already done: settle sugar" in answer, answer
    assert waiting(factory, 1) == []
    send(moderator, factory, 2, "settle corn")
    send(moderator, factory, 3, "settle corn")
    answer = send(moderator, factory, 1, "role builder\nsettle sugar")
    assert "done: role builder" in answer, answer
    assert "already done: settle sugar" in answer, answer
    assert waiting(factory, 1) == []
    game, _ = state(factory, table.tag)
    assert game.state.players[1].plantations[Good.SUGAR] == 1


def test_an_order_of_the_mail_used_later_in_the_same_run_is_told_once_as_done(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    game = Game.new([p.name for p in PLAYERS], 7)
    s = game.state
    for seat in range(4):  # nobody holds anything but what is given below
        s.goods_supply = [a + b for a, b in zip(s.goods_supply, s.players[seat].goods, strict=True)]
        s.players[seat].goods = [0] * 5
    goods(s, 0, corn=1, sugar=1, indigo=1)
    goods(s, 1, corn=1, coffee=1)
    ship(s, 1, Good.SUGAR, 6)
    ship(s, 2, Good.COFFEE, 6)
    moderator, tag = start_at(session_factory, config, ready(game).to_json(), seed=7)
    send(moderator, session_factory, 1, "ship coffee")
    # Anna's keep waits for Bob's load (his kept order), then for the end of the loading.
    answer = send(moderator, session_factory, 0, "role captain\nship corn on 5\nkeep sugar")
    after, _ = state(session_factory, tag)
    assert after.state.phase.value == "role", answer
    assert after.state.players[0].goods[Good.SUGAR] == 1
    assert "done: keep sugar" in answer, answer
    assert "kept:" not in answer and "Your kept order" not in answer, answer


def test_the_orders_of_a_role_that_cannot_be_taken_are_not_kept(table: Table) -> None:
    factory, moderator = table.factory, table.moderator
    send(moderator, factory, 0, "role captain")
    answer = send(moderator, factory, 1, "role captain\nkeep corn\nbuild small market")
    assert "the captain has been taken this round (by Anna)" in answer, answer
    assert "not done: line 1 (the role) cannot be done" in answer, answer
    # The builder's order is for another phase: kept.
    assert waiting(factory, 1) == ["build small market"]
