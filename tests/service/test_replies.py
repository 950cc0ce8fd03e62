"""The answer to a player's mail, end to end (mail in, mail out): an order for another
decision told in words with what he may order now, a resent order under its own
heading, a question asked back with nothing done."""

from __future__ import annotations

import json

from conftest import PLAYERS, Table
from letters import first_line, latest_reply_to, letter, outbox, text_of
from sqlalchemy import select

from moderator.store import models as m


def send(table: Table, seat: int, body: str) -> str:
    """``body`` from ``seat``'s player, processed; the text of the answer to him."""
    player = PLAYERS[seat]
    raw = letter(player.address, latest_reply_to(table.factory, player.address), body)
    table.moderator.ingest(raw, source=m.MessageSource.PIPE)
    table.moderator.process_all()
    mine = [mail for mail in outbox(table.factory) if str(mail["To"]) == player.address]
    return text_of(mine[-1])


def phase(table: Table) -> str:
    with table.factory.begin() as session:
        row = session.scalar(select(m.Game).where(m.Game.tag == table.tag))
        assert row is not None and row.snapshot is not None
        return str(json.loads(row.snapshot.state_json)["phase"])


def test_a_word_for_another_decision_is_told_in_words_with_the_orders_allowed(
    table: Table,
) -> None:
    send(table, 0, "role builder")
    assert phase(table) == "builder"
    text = " ".join(send(table, 0, "quarry").split())  # Anna, asked what to build
    assert '"quarry" is taken in the settler phase; you are asked now what to build.' in text
    assert 'write it whole: "take quarry"' in text
    assert "does not fit" not in text and "expected" not in text
    assert "build nothing" in text[text.index("You may order now:") :]
    assert phase(table) == "builder"


def test_a_resent_order_is_answered_apart_from_the_lines_not_understood(table: Table) -> None:
    send(table, 0, "role settler\ntake quarry")
    assert phase(table) == "settler"
    text = send(table, 0, "take quarry")
    orders = text[text.index("Your orders:") :]
    assert "already done: take quarry" in orders
    assert "not understood" not in orders
    reply = [m for m in outbox(table.factory) if str(m["To"]) == PLAYERS[0].address][-1]
    assert "not understood" not in first_line(reply)


def test_a_question_is_asked_back_and_nothing_is_done(table: Table) -> None:
    text = " ".join(send(table, 0, "Hi all,\n\nTrader? Or captain?\n\nAnna").split())
    assert phase(table) == "role"
    assert '"role trader" and "role captain"' in text
    assert "nothing was done" in text
