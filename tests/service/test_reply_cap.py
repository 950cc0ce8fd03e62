"""A reply longer than [caps] reply_bytes is not sent as such: the player gets a short note
instead, threaded on his mail."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import PLAYERS, Table
from letters import latest_reply_to, letter, outbox, text_of

from moderator.config import CapsSection, Config
from moderator.store import models as m

CAP = 16 * 1024


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(config, caps=CapsSection(reply_bytes=CAP))


def test_a_reply_over_the_cap_becomes_a_short_note(table: Table) -> None:
    anna = PLAYERS[0].address
    body = "\n".join(f"frobnicate {'the widgets ' * 60}{i}" for i in range(13))  # < 10,000
    raw = letter(anna, latest_reply_to(table.factory, anna), body, message_id="<long@x.test>")
    before = len(outbox(table.factory))
    table.moderator.ingest(raw, source=m.MessageSource.PIPE)
    table.moderator.process_all()
    (reply,) = outbox(table.factory)[before:]
    assert len(bytes(reply)) < CAP
    assert "more than the 16 KB the moderator" in " ".join(text_of(reply).split())
    assert reply["In-Reply-To"] == "<long@x.test>"
