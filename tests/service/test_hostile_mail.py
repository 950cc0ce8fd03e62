"""The hostile mail corpus through the real ingest path (issue 13, item 7): each mail of
tests/data/mail/hostile/ is recorded and processed as the daemon does it; none crashes
the moderator, none applies what it should not, none gets an answer that carries a
header, recipient or script of the attacker's, and each is answered or ignored as
tests/data/mail/hostile/expected.toml says (the file gives the reason for each)."""

from __future__ import annotations

from dataclasses import dataclass

import hostile  # tests/hostile.py (tests/ is on the path), shared with bench/soak.py
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from moderator.config import Config
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m

EXPECTED = hostile.expectations()
NAMES = [path.stem for path in hostile.corpus()]


@dataclass
class Seen:
    """What became of one mail."""

    status: str
    outcome: str | None
    applied: int
    orders: list[str]  # the order texts of the player's actions it caused
    routed: bool
    answers: list[tuple[tuple[str, ...], bytes]]


def new_game(moderator: Moderator) -> hostile.Game:
    admin = Admin(moderator)
    tag, passwords = admin.new_game([NewPlayer(n, a) for n, a in hostile.PLAYERS], seed=7)
    with moderator.factory.begin() as session:
        seats = session.scalars(
            select(m.Seat).join(m.Game).where(m.Game.tag == tag).order_by(m.Seat.seat_index)
        ).all()
        keys = {s.seat_index: s.mac_key_id for s in seats}
    return hostile.Game(
        tag, moderator.config.moderator.address, moderator.config.secret, keys, passwords
    )


def send(moderator: Moderator, game: hostile.Game, name: str) -> Seen:
    factory: sessionmaker[Session] = moderator.factory
    raw = hostile.fill((hostile.CORPUS / f"{name}.eml").read_bytes(), game.values())
    with factory.begin() as session:
        last_out = session.scalar(select(func.max(m.OutboxMessage.id))) or 0
        last_action = session.scalar(select(func.max(m.Action.id))) or 0
    inbound = moderator.ingest(raw, source=m.MessageSource.PIPE)
    moderator.process_all()
    with factory.begin() as session:
        answers = [
            (tuple(row.to_addrs), row.raw)
            for row in session.scalars(select(m.OutboxMessage).where(m.OutboxMessage.id > last_out))
        ]
        orders = [
            text or ""
            for text in session.scalars(
                select(m.Action.order_text)
                .where(m.Action.id > last_action, m.Action.actor == m.ActorKind.PLAYER)
                .order_by(m.Action.id)
            )
        ]
        if inbound is None:
            return Seen("duplicate", None, 0, orders, False, answers)
        row = session.get(m.InboundMessage, inbound)
        assert row is not None
        return Seen(
            row.status.value,
            None if row.outcome is None else row.outcome.value,
            row.applied,
            orders,
            row.game_id is not None,
            answers,
        )


@pytest.fixture
def moderator(session_factory: sessionmaker[Session], config: Config) -> Moderator:
    return Moderator(config, session_factory)


def test_the_corpus_is_large_and_every_mail_has_its_expected_outcome() -> None:
    assert len(NAMES) >= 50
    assert sorted(EXPECTED) == NAMES
    for expected in EXPECTED.values():
        assert all(before in EXPECTED for before in expected.before)


@pytest.mark.parametrize("name", NAMES)
def test_a_hostile_mail_is_handled_as_expected_and_answered_safely(
    moderator: Moderator, name: str
) -> None:
    expected = EXPECTED[name]
    game = new_game(moderator)
    for before in expected.before:
        first = send(moderator, game, before)
        assert first.status != "failed", f"{before} failed"
    seen = send(moderator, game, name)
    assert seen.status != "failed", "processing raised (the operator was told)"
    assert (seen.status, seen.outcome) == (expected.status, expected.outcome), expected.why
    assert seen.applied == len(seen.orders) == expected.applied, expected.why
    assert seen.orders == list(expected.orders), expected.why
    if expected.status != "duplicate":
        assert seen.routed == expected.routed
    allowed = expected.recipients()
    assert {to for tos, _ in seen.answers for to in tos} == allowed, expected.why
    for tos, raw in seen.answers:
        assert hostile.answer_problems(raw, allowed) == [], tos
