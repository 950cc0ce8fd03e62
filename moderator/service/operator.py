"""What the operator is told: notes written where things go wrong, mailed grouped at most
once an hour to `[moderator] operator`."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from ..config import Config
from ..render import Rendered
from ..render.env import environment, tidy_text
from ..render.message import build_message, make_message_id
from ..store import models as m

log = logging.getLogger("moderator.operator")

# At most one mail an hour: a failure that repeats every minute must not flood the
# operator, and an hour is soon enough for anything that waits for a person.
DIGEST_EVERY = timedelta(hours=1)
# A note's text is one or a few lines; a traceback goes into the inbox row, not here.
NOTE_CHARS = 2000
OPERATOR_KIND = "operator"
_INSERT_NOTE = insert(m.table_of(m.OperatorNote))


@dataclass(frozen=True, slots=True)
class NoteTitle:
    kind: m.NoteKind
    title: str
    what_to_do: str


# One heading per kind in the mail, in this order, with what a person can do about it.
TITLES = (
    NoteTitle(
        m.NoteKind.PROCESSING_FAILED,
        "Messages that failed to process",
        "Nothing of them was applied or sent. `moderator inbox list --status failed` "
        "shows them with the error.",
    ),
    NoteTitle(
        m.NoteKind.MAIL_REFUSED,
        "Mail the server refused",
        "`moderator outbox list --status failed` shows the reason; fix the address, then "
        "`moderator outbox retry ID`.",
    ),
    NoteTitle(
        m.NoteKind.MAIL_STUCK,
        "Mail that does not go out",
        "The daemon keeps trying; `moderator check` tests the SMTP connection and "
        "`moderator outbox list` shows what waits.",
    ),
    NoteTitle(
        m.NoteKind.DAEMON_RESTARTED,
        "Daemon restarts after a crash",
        "The log (journalctl -u moderator) says why it stopped.",
    ),
    NoteTitle(
        m.NoteKind.DEADLINES_MISSED,
        "Seats that miss their deadlines",
        "`moderator game replace` gives a seat to a new player.",
    ),
)
_TITLE = {t.kind: t for t in TITLES}


def notify_operator(
    session: Session, kind: m.NoteKind, text: str, *, game_id: int | None = None
) -> None:
    """Tell the operator, in the caller's transaction (so a note about something that is
    rolled back is rolled back with it). Mailed with the others of the hour."""
    log.warning("operator told kind=%s game=%s: %s", kind.value, game_id, text.splitlines()[0])
    session.connection().execute(
        _INSERT_NOTE,
        {"kind": kind, "game_id": game_id, "text": text[:NOTE_CHARS], "created_at": m.utcnow()},
    )


@dataclass(frozen=True, slots=True)
class NoteGroup:
    title: str
    what_to_do: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OperatorMail:
    """The view-model of templates/operator.{txt,html}.j2."""

    kind: str
    subject: str
    instance: str
    groups: tuple[NoteGroup, ...]


def _line(note: m.OperatorNote, tags: dict[int, str]) -> str:
    when = note.created_at.strftime("%Y-%m-%d %H:%M UTC")
    game = f"{tags[note.game_id]}: " if note.game_id in tags else ""
    return f"{when}  {game}{note.text}"


def digest(config: Config, notes: Sequence[m.OperatorNote], tags: dict[int, str]) -> Rendered:
    """The operator's mail for these notes, grouped by kind."""
    ordered = sorted(notes, key=lambda n: ([t.kind for t in TITLES].index(n.kind), n.id))
    groups = tuple(
        NoteGroup(
            _TITLE[kind].title,
            _TITLE[kind].what_to_do,
            tuple(_line(n, tags) for n in items),
        )
        for kind, items in groupby(ordered, key=lambda n: n.kind)
    )
    count = len(notes)
    view = OperatorMail(
        kind=OPERATOR_KIND,
        subject=f"[{config.moderator.instance}] {count} thing{'s' if count != 1 else ''} "
        "for the operator",
        instance=config.moderator.instance,
        groups=groups,
    )
    env = environment()
    text = env.get_template("operator.txt.j2").render(v=view)
    html = env.get_template("operator.html.j2").render(v=view)
    return Rendered(view.kind, view.subject, tidy_text(text), html)


def queue_digest(session: Session, config: Config, now: datetime) -> int:
    """Put the notes not yet mailed into one mail to the operator, unless one went out
    within the hour or no operator address is set; the notes it carries."""
    to = config.moderator.operator
    if not to:
        return 0
    last = session.scalar(
        select(m.OutboxMessage.created_at)
        .where(m.OutboxMessage.kind == OPERATOR_KIND)
        .order_by(m.OutboxMessage.created_at.desc())
        .limit(1)
    )
    if last is not None and now - last < DIGEST_EVERY:
        return 0
    notes = session.scalars(
        select(m.OperatorNote)
        .where(m.OperatorNote.mailed_at.is_(None))
        .order_by(m.OperatorNote.id)
        .with_for_update()
    ).all()
    if not notes:
        return 0
    game_ids = {n.game_id for n in notes if n.game_id is not None}
    tags = {
        game_id: tag
        for game_id, tag in session.execute(
            select(m.Game.id, m.Game.tag).where(m.Game.id.in_(game_ids))
        )
    }
    mail = digest(config, notes, tags)
    domain = config.moderator.address.partition("@")[2] or "localhost"
    message_id = make_message_id(domain)
    raw = build_message(
        mail,
        from_addr=config.moderator.address,
        to=[to],
        reply_to=None,
        message_id=message_id,
        in_reply_to=None,
        references=(),
        auto_submitted="auto-generated",
        instance=config.moderator.instance,
        from_name=config.moderator.name,
    )
    session.add(
        m.OutboxMessage(
            to_addrs=[to],
            recipient=to.lower(),
            kind=OPERATOR_KIND,
            raw=raw,
            message_id=message_id,
            created_at=now,
            next_try_at=now,
        )
    )
    session.execute(
        update(m.OperatorNote)
        .where(m.OperatorNote.id.in_([n.id for n in notes]))
        .values(mailed_at=now)
    )
    log.info("operator mail queued to=%s notes=%d", to, len(notes))
    return len(notes)
