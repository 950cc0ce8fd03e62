"""What the operator sees: one log line per message, warnings for forged and refused
mail, and failures told by mail, grouped, at most once an hour."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta

import pytest
from conftest import Table
from letters import latest_reply_to, letter
from sqlalchemy import select

from moderator.config import Config
from moderator.service.operator import OPERATOR_KIND, notify_operator, queue_digest
from moderator.store import models as m


def send(table: Table, raw: bytes) -> None:
    table.moderator.ingest(raw, source=m.MessageSource.PIPE)
    table.moderator.process_all()


def inbound(table: Table) -> list[m.InboundMessage]:
    with table.factory.begin() as session:
        return list(session.scalars(select(m.InboundMessage).order_by(m.InboundMessage.id)))


def operator_mails(table: Table) -> list[m.OutboxMessage]:
    with table.factory.begin() as session:
        query = select(m.OutboxMessage).where(m.OutboxMessage.kind == OPERATOR_KIND)
        return list(session.scalars(query.order_by(m.OutboxMessage.id)))


def with_operator(config: Config) -> Config:
    return replace(config, moderator=replace(config.moderator, operator="ops@example.test"))


def test_each_message_gets_one_log_line_saying_what_became_of_it(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    anna = latest_reply_to(table.factory, "anna@example.test")
    with caplog.at_level(logging.INFO, logger="moderator"):
        send(table, letter("anna@example.test", anna, "role settler"))
        send(table, letter("anna@example.test", anna, "role trader"))  # not her turn now
        send(table, letter("stranger@example.test", "moderator@example.test", "hello"))
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("processed")]
    assert len(lines) == 3
    assert f"game={table.tag} seat=1 outcome=applied orders=1 ms=" in lines[0]
    assert "from=anna@example.test" in lines[0]
    assert f"game={table.tag} seat=1 outcome=" in lines[1] and "orders=0" in lines[1]
    assert "outcome=applied" not in lines[1]
    assert "game=- seat=- outcome=no-game orders=0" in lines[2]
    rows = inbound(table)
    assert [(r.outcome, r.seat_index, r.applied) for r in rows] == [
        (m.Outcome.APPLIED, 0, 1),
        (rows[1].outcome, 0, 0),
        (m.Outcome.NO_GAME, None, 0),
    ]
    assert rows[1].outcome in (m.Outcome.ASKED_BACK, m.Outcome.KEPT)


def test_a_forged_reply_address_is_a_warning_and_recorded_as_forged(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    real = latest_reply_to(table.factory, "anna@example.test")
    forged = real[: real.index("@") - 3] + "aaa" + real[real.index("@") :]
    with caplog.at_level(logging.INFO, logger="moderator"):
        send(table, letter("mallory@example.test", forged, "role settler"))
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(w.startswith(f"forged reply address to={forged}") for w in warnings)

    # With the game in the subject it is a refused sender too.
    with caplog.at_level(logging.INFO, logger="moderator"):
        send(
            table, letter("mallory@example.test", forged, "role settler", subject=f"[{table.tag}]")
        )
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(w.startswith("refused sender=mallory@example.test") for w in warnings)
    assert [(r.outcome, r.status) for r in inbound(table)] == [
        (m.Outcome.FORGED, m.MessageStatus.IGNORED)
    ] * 2


def test_a_processing_failure_is_mailed_to_the_operator_at_most_once_an_hour(
    table: Table, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the renderer fell over")

    monkeypatch.setattr(table.moderator.mailer, "after_run", broken)
    anna = latest_reply_to(table.factory, "anna@example.test")
    send(table, letter("anna@example.test", anna, "role settler"))
    (row,) = inbound(table)
    assert row.status is m.MessageStatus.FAILED and row.outcome is m.Outcome.FAILED
    ops = with_operator(config)
    now = m.utcnow()
    with table.factory.begin() as session:
        assert queue_digest(session, ops, now) == 1
    (mail,) = operator_mails(table)
    assert mail.recipient == "ops@example.test"
    text = mail.raw.decode()
    assert "Messages that failed to process (1)" in text and "the renderer fell over" in text
    assert f"{table.tag}: message {row.id} from anna@example.test" in text

    send(table, letter("anna@example.test", anna, "role mayor"))
    with table.factory.begin() as session:
        assert queue_digest(session, ops, now + timedelta(minutes=59)) == 0  # within the hour
    with table.factory.begin() as session:
        assert queue_digest(session, ops, now + timedelta(minutes=61)) == 1
        assert queue_digest(session, ops, now + timedelta(minutes=200)) == 0  # nothing new
    assert len(operator_mails(table)) == 2


def test_without_an_operator_address_notes_wait_in_the_database(
    table: Table, config: Config
) -> None:
    with table.factory.begin() as session:
        notify_operator(session, m.NoteKind.MAIL_REFUSED, "mail 3 to x@example.test: 550")
        assert queue_digest(session, config, m.utcnow()) == 0
    assert operator_mails(table) == []
    with table.factory.begin() as session:
        (note,) = session.scalars(select(m.OperatorNote)).all()
        assert note.mailed_at is None


def test_the_operator_mail_groups_by_kind_and_escapes_what_others_wrote(
    table: Table, config: Config
) -> None:
    with table.factory.begin() as session:
        notify_operator(session, m.NoteKind.MAIL_REFUSED, "to <b>eve</b>@example.test: 550")
        notify_operator(session, m.NoteKind.DAEMON_RESTARTED, "the daemon on a (pid 1) died")
        notify_operator(session, m.NoteKind.MAIL_REFUSED, "to bob@example.test: 550")
        assert queue_digest(session, with_operator(config), m.utcnow()) == 3
    (mail,) = operator_mails(table)
    raw = mail.raw.decode()
    assert "Subject: [pr-moderator] 3 things for the operator" in raw
    assert "Auto-Submitted: auto-generated" in raw
    html = raw[raw.index("text/html") :]
    assert "&lt;b&gt;eve&lt;/b&gt;" in html.replace("=\r\n", "") and "<b>eve" not in html
    plain = raw[: raw.index("text/html")]
    assert plain.index("Mail the server refused (2)") < plain.index("Daemon restarts")
