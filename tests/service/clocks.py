"""A clock the tests move by hand (the Moderator takes it), and reading what the mails
announce for the deadline."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.message import EmailMessage

from letters import text_of
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.store import models as m

# The service tests' first day: a Sunday.
START = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


class Clock:
    """Now is whatever the test says; nothing sleeps."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def actions(factory: sessionmaker[Session]) -> list[tuple[int | None, m.ActorKind]]:
    """The game log as (seat, who decided), in order."""
    with factory.begin() as session:
        return [
            (a.seat_index, a.actor) for a in session.scalars(select(m.Action).order_by(m.Action.id))
        ]


_ANNOUNCED = re.compile(
    r"No order by (?P<when>.+?) → (?:the default is applied for you|the autopilot orders for "
    r"you): (?P<order>.+)"
)


def paragraph(text: str, start: str) -> str | None:
    """The line of a plain-text mail that begins with ``start`` and the indented lines
    that continue it (the wrapping), on one line."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(start):
            more = []
            for follow in lines[i + 1 :]:
                if not follow.startswith("    ") or not follow.strip():
                    break
                more.append(follow)
            return " ".join(" ".join([line, *more]).split())
    return None


def announced(mail: EmailMessage) -> tuple[str, str] | None:
    """What a turn mail announces for the deadline: (the deadline as written, the order
    that will be applied then); None when it announces nothing."""
    line = paragraph(text_of(mail), "No order by")
    if line is None:
        return None
    found = _ANNOUNCED.fullmatch(line)
    assert found is not None, line
    return found["when"], found["order"]
