"""Real RFC 5322 messages for the service tests, and reading the outbox back."""

from __future__ import annotations

import email
import email.policy
import itertools
from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.store import models as m

_counter = itertools.count(1)


def letter(
    sender: str,
    to: str,
    body: str,
    *,
    subject: str = "Re: orders",
    message_id: str | None = None,
    headers: dict[str, str] | None = None,
) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or make_msgid(domain=f"n{next(_counter)}.example.test")
    msg["Date"] = "Sun, 22 Nov 2026 10:00:00 +0000"
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body)
    return bytes(msg)


def outbox(factory: sessionmaker[Session]) -> list[EmailMessage]:
    with factory.begin() as session:
        rows = session.scalars(select(m.OutboxMessage).order_by(m.OutboxMessage.id)).all()
        out = []
        for row in rows:
            parsed = email.message_from_bytes(row.raw, policy=email.policy.default)
            assert isinstance(parsed, EmailMessage)
            out.append(parsed)
        return out


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    content = part.get_content()
    assert isinstance(content, str)
    return content


def first_line(msg: EmailMessage) -> str:
    """What a mail asks of its reader: its first line, which clients show as the
    preview."""
    return text_of(msg).partition("\n")[0].rstrip("\r")


def latest_reply_to(factory: sessionmaker[Session], address: str) -> str:
    """The signed Reply-To of the newest mail to ``address``."""
    for msg in reversed(outbox(factory)):
        if msg["To"] == address and msg["Reply-To"]:
            return str(msg["Reply-To"].addresses[0].addr_spec)
    raise AssertionError(f"no mail to {address}")
