"""The `history` reply: the game so far, round by round, in the engine's words."""

from __future__ import annotations

from conftest import PLAYERS, Table
from letters import latest_reply_to, letter, outbox, text_of

from moderator.store import models as m


def send(table: Table, seat: int, body: str) -> None:
    player = PLAYERS[seat]
    raw = letter(player.address, latest_reply_to(table.factory, player.address), body)
    table.moderator.ingest(raw, source=m.MessageSource.PIPE)
    table.moderator.process_all()


def test_history_has_round_headings_and_says_where_colonists_went(table: Table) -> None:
    send(table, 0, "role mayor")
    send(table, 1, "history")
    reply = text_of(outbox(table.factory)[-1])
    assert reply.startswith("The game so far: ")
    lines = reply.splitlines()
    heading = lines.index("Round 1 · governor Anna")
    assert lines[heading + 1] == "  Anna chooses the mayor."
    assert any(line.startswith("  Colonists arrive for mayor Anna:") for line in lines)
    # where the colonists went (the others had one way each, applied at once)
    assert "  Bob places 1 on indigo." in lines[heading + 2 :]
