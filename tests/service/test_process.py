"""process(message): exactly once, authenticated, all or nothing, mails in the outbox."""

from __future__ import annotations

import json

import pytest
from conftest import PLAYERS, Table
from letters import first_line, latest_reply_to, letter, outbox, text_of
from sqlalchemy import func, select

from moderator.store import models as m


def send(table: Table, raw: bytes) -> int | None:
    got = table.moderator.ingest(raw, source=m.MessageSource.PIPE)
    table.moderator.process_all()
    return got


def state(table: Table) -> dict[str, object]:
    with table.factory.begin() as session:
        row = session.scalar(select(m.Game).where(m.Game.tag == table.tag))
        assert row is not None and row.snapshot is not None
        data = json.loads(row.snapshot.state_json)
        assert isinstance(data, dict)
        return data


def count(table: Table, model: type[m.Base]) -> int:
    with table.factory.begin() as session:
        return session.scalar(select(func.count()).select_from(model)) or 0


def statuses(table: Table) -> list[tuple[str, str | None]]:
    with table.factory.begin() as session:
        rows = session.scalars(select(m.InboundMessage).order_by(m.InboundMessage.id))
        return [(r.status.value, r.error) for r in rows]


def order(table: Table, seat: int, body: str, **kw: str) -> bytes:
    player = PLAYERS[seat]
    return letter(player.address, latest_reply_to(table.factory, player.address), body, **kw)


def test_game_start_mails_every_seat_its_password_and_signed_reply_address(table: Table) -> None:
    mails = outbox(table.factory)
    assert [str(mail["To"]) for mail in mails] == [p.address for p in PLAYERS]
    for seat, mail in enumerate(mails):
        assert table.passwords[seat] in text_of(mail)
        reply_to = mail["Reply-To"].addresses[0].addr_spec
        assert reply_to.startswith(f"moderator+{table.tag.lower()}.s{seat}.")
        assert mail["Auto-Submitted"] == "auto-generated"
        assert mail.get_content_type() == "multipart/alternative"


def test_reply_to_the_signed_address_moves_the_seat(table: Table) -> None:
    send(table, order(table, 0, "Role Settler"))
    assert state(table)["phase"] == "settler"
    assert statuses(table) == [("done", None)]
    with table.factory.begin() as session:
        (row,) = session.scalars(select(m.Action)).all()
        # The log says who, what, from which message and the words he used.
        assert (row.seat_index, row.actor, row.order_text) == (
            0,
            m.ActorKind.PLAYER,
            "Role Settler",
        )
        assert row.inbound_message_id is not None


def test_the_same_message_id_twice_is_applied_once(table: Table) -> None:
    raw = order(table, 0, "role settler", message_id="<once@example.test>")
    assert send(table, raw) is not None
    mails = count(table, m.OutboxMessage)
    again = letter(
        "anna@example.test",
        "moderator@example.test",
        "role mayor",
        message_id="<once@example.test>",
    )
    assert send(table, again) is None
    assert send(table, raw) is None
    assert state(table)["phase"] == "settler"
    assert count(table, m.OutboxMessage) == mails
    assert count(table, m.Action) == 1


def test_a_spoofed_from_address_alone_does_not_move_a_seat(table: Table) -> None:
    spoof = letter(
        "anna@example.test",
        "moderator@example.test",
        "role settler",
        subject=f"Re: [{table.tag}] orders",
    )
    send(table, spoof)
    assert state(table)["phase"] == "role"
    assert statuses(table) == [("ignored", "not authenticated")]
    with table.factory.begin() as session:
        assert session.scalar(select(func.count(m.AuthFailure.id))) == 1


def test_a_forged_signature_does_not_move_a_seat(table: Table) -> None:
    real = latest_reply_to(table.factory, "anna@example.test")
    forged = real[: real.index("@") - 3] + "aaa" + real[real.index("@") :]
    send(table, letter("anna@example.test", forged, "role settler"))
    assert state(table)["phase"] == "role"


def test_the_password_works_from_another_address_and_the_seat_is_copied(table: Table) -> None:
    body = f"role builder\npassword {table.passwords[0]}"
    send(
        table,
        letter(
            "anna.on.holiday@example.test",
            "moderator@example.test",
            body,
            subject=f"[{table.tag}] orders",
        ),
    )
    assert state(table)["phase"] == "builder"
    mails = outbox(table.factory)[4:]
    recipients = [str(mail["To"]) for mail in mails]
    assert "anna.on.holiday@example.test" in recipients  # the answer
    assert recipients.count("anna@example.test") == 1  # the copy, which is her board too
    (copy,) = [mail for mail in mails if str(mail["To"]) == "anna@example.test"]
    assert "arrived from anna.on.holiday@example.test" in " ".join(text_of(copy).split())
    assert "Buildings for sale" in text_of(copy)


def test_wrong_passwords_are_rate_limited_per_sender(table: Table) -> None:
    for i in range(7):
        send(
            table,
            letter(
                "mallory@example.test",
                "moderator@example.test",
                f"role settler\npassword guess{i}",
                subject=f"[{table.tag}] x",
            ),
        )
    with table.factory.begin() as session:
        failures = session.scalar(select(func.count(m.AuthFailure.id)))
    assert failures == table.moderator.config.limits.auth_failures_per_sender_per_hour
    send(
        table,
        letter(
            "mallory@example.test",
            "moderator@example.test",
            f"role settler\npassword {table.passwords[0]}",
            subject=f"[{table.tag}] x",
        ),
    )
    assert state(table)["phase"] == "role"  # even the right password, while limited


@pytest.mark.parametrize(
    "header",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"List-Id": "<players.example.test>"},
    ],
)
def test_automatic_mail_is_never_answered_or_applied(table: Table, header: dict[str, str]) -> None:
    before = count(table, m.OutboxMessage)
    send(table, order(table, 0, "role settler", headers=header))
    assert state(table)["phase"] == "role"
    assert count(table, m.OutboxMessage) == before
    assert statuses(table)[0][0] == "ignored"


def test_an_illegal_order_changes_nothing_and_lists_what_may_be_ordered(table: Table) -> None:
    send(table, order(table, 0, "role settler\nbuild wharf"))
    send(table, order(table, 1, "take coffee plantation"))  # Bob: not his decision
    reply = outbox(table.factory)[-1]
    assert str(reply["To"]) == "bob@example.test"
    text = text_of(reply)
    assert "take coffee plantation" in text.lower()
    assert state(table)["phase"] == "settler"


def test_an_error_reply_quotes_the_line_and_lists_the_legal_orders(table: Table) -> None:
    send(table, order(table, 0, "role astronaut\nrole settler"))
    (reply,) = [
        mail for mail in outbox(table.factory)[4:] if str(mail["To"]) == "anna@example.test"
    ]
    text = text_of(reply)
    assert first_line(reply) == "Your turn: settler — take a plantation (1 line not understood)"
    assert "> role astronaut" in text
    assert "not understood" in text


def test_an_unexpected_failure_rolls_back_and_keeps_the_message(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    import moderator.service.core as core

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("disk on fire")

    before = count(table, m.OutboxMessage)
    monkeypatch.setattr(core, "check_mail", boom)
    send(table, order(table, 0, "role settler"))
    assert state(table)["phase"] == "role"
    assert count(table, m.OutboxMessage) == before
    assert count(table, m.Action) == 0
    ((status, error),) = statuses(table)
    assert status == "failed" and error is not None and "disk on fire" in error


def test_a_message_for_no_game_gets_one_short_explanation_a_day(table: Table) -> None:
    before = count(table, m.OutboxMessage)
    for _ in range(3):
        send(table, letter("stranger@example.test", "moderator@example.test", "hello?"))
    assert count(table, m.OutboxMessage) == before + 1


def test_service_commands_reply_without_changing_the_game(table: Table) -> None:
    send(table, order(table, 2, "help\nstatus\nhistory"))
    reply = outbox(table.factory)[-1]
    assert str(reply["To"]) == "chris@example.test"
    assert reply["In-Reply-To"]
    assert state(table)["phase"] == "role"
    assert count(table, m.Action) == 0


def test_replies_thread_on_the_players_message(table: Table) -> None:
    send(table, order(table, 0, "role settler", message_id="<anna-1@example.test>"))
    ack = next(mail for mail in outbox(table.factory)[4:] if str(mail["To"]) == "anna@example.test")
    assert ack["In-Reply-To"] == "<anna-1@example.test>"
    assert "<anna-1@example.test>" in str(ack["References"])
    assert ack["Auto-Submitted"] == "auto-replied"


def test_every_mail_of_a_game_threads_on_the_game(table: Table) -> None:
    send(table, order(table, 0, "role settler"))
    mails = outbox(table.factory)
    roots = {str(mail["References"]).split()[0] for mail in mails}
    assert len(roots) == 1 and table.tag.lower() in roots.pop()
    assert all(mail["In-Reply-To"] and mail["Message-ID"] for mail in mails)
    assert len({str(mail["Message-ID"]) for mail in mails}) == len(mails)


def test_the_reply_cap_stops_error_replies_but_never_acknowledgements(table: Table) -> None:
    from dataclasses import replace

    from moderator.service.core import Moderator

    config = table.moderator.config
    strict = replace(config, limits=replace(config.limits, replies_per_sender_per_hour=2))
    table.moderator = Moderator(strict, table.factory)

    def replies_to_anna() -> list[str]:
        return [
            text_of(mail)
            for mail in outbox(table.factory)[4:]
            if str(mail["To"]) == "anna@example.test" and mail["Auto-Submitted"] == "auto-replied"
        ]

    for _ in range(4):
        send(table, order(table, 0, "role astronaut"))
    assert len(replies_to_anna()) == 2  # a looping or confused sender is cut off
    send(table, order(table, 0, "role settler"))
    assert any("done: role settler" in s for s in replies_to_anna())  # an accepted order is
    assert state(table)["phase"] == "settler"  # always acknowledged


def test_messages_are_taken_oldest_first_whatever_their_game(table: Table) -> None:
    """A game with a low number that keeps receiving mail must not starve the others,
    nor mail that belongs to no game."""
    later_tag, _ = table.admin.new_game(PLAYERS, seed=8)  # a higher game id
    mods = table.moderator
    ids = [
        mods.ingest(
            letter("x@example.test", "moderator@example.test", "role mayor", subject=f"[{tag}]"),
            source=m.MessageSource.PIPE,
        )
        for tag in (later_tag, "PR-999999", table.tag, later_tag)
    ]
    done: list[int | None] = []
    while mods.process_next("test"):
        with table.factory.begin() as session:
            handled = session.scalars(
                select(m.InboundMessage.id).where(m.InboundMessage.status != m.MessageStatus.NEW)
            )
            done += sorted(set(handled) - set(done))
    assert done == ids


def test_a_log_that_does_not_replay_fails_the_mail_and_says_where(table: Table) -> None:
    send(table, order(table, 0, "role settler"))
    with table.factory.begin() as session:
        # The governor's role taken by another seat, and the snapshot out of date: the
        # next mail must rebuild the game from a log that does not replay.
        first = session.scalar(select(m.Action).where(m.Action.seq == 1))
        assert first is not None and first.seat_index == 0
        first.seat_index = 2
        snapshot = session.scalar(select(m.Snapshot))
        assert snapshot is not None
        snapshot.seq = 0
    send(table, order(table, 0, "take corn"))
    (_, (status, error)) = statuses(table)
    assert status == "failed" and error is not None
    last = error.strip().splitlines()[-1]
    assert f"ReplayError: {table.tag} " in last, last
    assert "does not replay its log: action 1, seat 2, " in last
    with table.factory.begin() as session:
        notes = session.scalars(select(m.OperatorNote.text)).all()
    assert any("action 1, seat 2" in note for note in notes), notes
