"""Addresses: a forged display name moves nothing and breaks nothing; players with an
internationalised domain are seated and mailed; what cannot be mailed is refused clearly."""

from __future__ import annotations

import zoneinfo

import pytest
from conftest import PLAYERS, Table
from letters import latest_reply_to, outbox, text_of
from sqlalchemy import select

from moderator.service.admin import AdminError, NewPlayer
from moderator.store import models as m


def raw_mail(from_header: str, to: str, body: str, message_id: str) -> bytes:
    """A message written byte by byte, as a forger would (no library tidies it up)."""
    return (
        f"From: {from_header}\r\nTo: {to}\r\nSubject: Re: orders\r\n"
        f"Message-ID: {message_id}\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\n"
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        f"{body}\r\n"
    ).encode()


def test_an_order_whose_from_name_hides_a_header_is_applied_and_answered_safely(
    table: Table,
) -> None:
    anna = PLAYERS[0].address
    forged = f"=?utf-8?q?Evil=0D=0ABcc:_victim@evil.test?= <{anna}>"
    raw = raw_mail(forged, latest_reply_to(table.factory, anna), "role settler", "<f1@x.test>")
    before = len(outbox(table.factory))
    table.moderator.ingest(raw, source=m.MessageSource.PIPE)
    assert table.moderator.process_all() == 1
    with table.factory.begin() as session:
        message = session.scalars(select(m.InboundMessage)).one()
        assert (message.status, message.error) == (m.MessageStatus.DONE, None)
        assert session.scalars(select(m.Action.order_text)).all() == ["role settler"]
    mails = outbox(table.factory)[before:]
    assert mails, "no reply and no boards"
    for mail in mails:
        assert "victim" not in bytes(mail).decode("ascii", "replace").lower()
        assert mail["Bcc"] is None
    assert {str(mail["To"]) for mail in mails} == {p.address for p in PLAYERS}


def test_a_player_with_an_internationalised_domain_is_seated_and_mailed(table: Table) -> None:
    players = [NewPlayer("Anna", "anna@Müller.de"), NewPlayer("Bob", "bob@bücher.example")]
    tag, _ = table.admin.new_game(players, seed=3)
    with table.factory.begin() as session:
        game = session.scalars(select(m.Game).where(m.Game.tag == tag)).one()
        assert [s.address for s in game.seats] == [
            "anna@xn--mller-kva.de",
            "bob@xn--bcher-kva.example",
        ]
    sent = [mail for mail in outbox(table.factory) if tag in str(mail["Subject"])]
    assert sorted(str(mail["To"]) for mail in sent) == [
        "anna@xn--mller-kva.de",
        "bob@xn--bcher-kva.example",
    ]
    assert all("password" in text_of(mail).lower() for mail in sent)


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("jürgen@example.de", "SMTPUTF8"),
        ("anna@bad..domain", "not a plain address"),
        ("anna@-x-.de", "not a plain address"),
        ('"anna smith"@example.org', "not a plain address"),
        ("nobody", "not an e-mail address"),
    ],
)
def test_an_address_the_moderator_cannot_mail_is_refused_at_game_new(
    table: Table, address: str, why: str
) -> None:
    with pytest.raises(AdminError, match=why):
        table.admin.new_game([NewPlayer("A", address), NewPlayer("B", "b@example.org")])
    with pytest.raises(AdminError, match=why):
        table.admin.replace(table.tag, "1", address)


def test_time_zones_come_from_the_tzdata_package_when_the_system_has_none() -> None:
    # A seat's zone must never fall back to UTC because the host lacks /usr/share/zoneinfo.
    try:
        zoneinfo.reset_tzpath([])
        zoneinfo.ZoneInfo.clear_cache()
        assert str(zoneinfo.ZoneInfo("America/New_York")) == "America/New_York"
        assert "Europe/Berlin" in zoneinfo.available_timezones()
    finally:
        zoneinfo.reset_tzpath()
        zoneinfo.ZoneInfo.clear_cache()
