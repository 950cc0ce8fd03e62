"""Outgoing mail: what each player is told after a change, written to the outbox.

One mail per change per player: the answer to a player's orders is also his new board;
every other seat gets a mail only when the change is news to it (its preference: every
change, or its own turns and a summary at the end of each round). What a seat was not
mailed about is kept on its row and told in its next mail.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import astuple, dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from ..config import Config
from ..engine import Game, PlaceColonists, Store
from ..engine.events import RoundEnded
from ..engine.state import Phase
from ..mail.envelope import Envelope
from ..orders import QueuedOrder, Report
from ..orders.commands import (
    BoardCmd,
    HelpCmd,
    HistoryCmd,
    MailCmd,
    OrdersCmd,
    ResendCmd,
    ServiceCommand,
    StatusCmd,
)
from ..render import Ask, PublicView, Refusal, Rendered, public_view
from ..render.message import valid_message_id
from ..render.views import (
    ErrorLine,
    NotDone,
    Note,
    NoteKind,
    OrderLine,
    ReplyView,
    ask_of,
    mail_preference_note,
    reply_view,
)
from ..store import models as m
from .auth import reply_address
from .compose import Composer
from .kept import Kept, kept_for, kept_orders

if TYPE_CHECKING:
    from .core import Applied

log = logging.getLogger("moderator.mail")

# Mails that answer a player's message (RFC 3834 "auto-replied"): capped per sender,
# and sent with a null return path.
REPLY_KINDS = (
    "ack",
    "error",
    "help",
    "history",
    "notice",
    "refused",
    "unknown_sender",
    "copy",
)
# The per-sender cap guards against mail loops and abuse, which yield rejected mail:
# the answer to accepted orders is bounded by the game itself.
CAPPED_KINDS = tuple(k for k in REPLY_KINDS if k != "ack")
# A plain INSERT (see table_of), built once: every mail of every order goes through it.
_INSERT_OUTBOX = insert(m.table_of(m.OutboxMessage))
# Decisions that several seats take at once, each unaware of the others' choice.
_SIMULTANEOUS = (Phase.MAYOR, Phase.STORE)
# Answered by the mail that answers the orders: the board (and the mail preference set).
_BOARD_COMMANDS = (BoardCmd, StatusCmd, OrdersCmd, ResendCmd, MailCmd)

Asked = dict[int, tuple[Ask, int, int]]
"""What each seat was asked before a run: the ask, and the round and pick it was in."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The player's mail a run answers: as which seat, from where, and what it came to."""

    seat: m.Seat
    env: Envelope
    message: m.InboundMessage
    report: Report
    services: Sequence[ServiceCommand] = ()
    notes: Sequence[Note] = ()  # what his mail changed besides the game (his preference)

    @property
    def wants_board(self) -> bool:
        return any(isinstance(c, _BOARD_COMMANDS) for c in self.services)


@dataclass(frozen=True, slots=True)
class HeldReply:
    """The answer to a player's mail while it is held (the autopilot is deciding an
    action it announces): what the mail came to, and where to send and thread it."""

    reply: ReplyView
    sender: str
    message_id: str | None  # the player's message, which the answer threads on
    references: tuple[str, ...]
    inbound_id: int
    accepted: bool
    wants_board: bool

    @classmethod
    def of(cls, answer: Answer) -> HeldReply:
        env = answer.env
        return cls(
            reply_view(answer.report),
            env.from_address or answer.seat.address,
            env.message_id,
            tuple(env.references[-8:]),
            answer.message.id,
            bool(answer.report.accepted),
            answer.wants_board,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "reply": {
                "done": [astuple(line) for line in self.reply.done],
                "kept": [astuple(line) for line in self.reply.kept],
                "errors": [[*astuple(line)[:-1], line.heading.value] for line in self.reply.errors],
                "already": [astuple(line) for line in self.reply.already],
            },
            "sender": self.sender,
            "message_id": self.message_id,
            "references": list(self.references),
            "inbound_id": self.inbound_id,
            "accepted": self.accepted,
            "wants_board": self.wants_board,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HeldReply:
        reply = data["reply"]
        return cls(
            ReplyView(
                tuple(OrderLine(*line) for line in reply["done"]),
                tuple(OrderLine(*line) for line in reply["kept"]),
                tuple(
                    # (stored before the heading was: "not understood")
                    ErrorLine(no, line, caret, reason, tuple(alts), NotDone(why[0]))
                    if why
                    else ErrorLine(no, line, caret, reason, tuple(alts))
                    for no, line, caret, reason, alts, *why in reply["errors"]
                ),
                tuple(OrderLine(*line) for line in reply.get("already", ())),
            ),
            str(data["sender"]),
            data["message_id"],
            tuple(data["references"]),
            int(data["inbound_id"]),
            bool(data["accepted"]),
            bool(data["wants_board"]),
        )


@dataclass(slots=True)
class Unmailed:
    """What happened since a seat's last mail, told in its next one. ``due``: the seat
    is to be mailed once the mails held for the autopilot's decision go out, with the
    answers to his mails meanwhile (``replies``)."""

    events: list[str]
    notes: list[Note]
    due: bool = False
    replies: list[HeldReply] = field(default_factory=list)

    @classmethod
    def of(cls, seat: m.Seat) -> Unmailed:
        if not seat.unmailed:
            return cls([], [])
        try:
            data = json.loads(seat.unmailed)
            return cls(
                [str(e) for e in data["events"]],
                [Note.from_stored(n) for n in data["notes"]],
                bool(data.get("due", False)),
                [HeldReply.from_dict(r) for r in data.get("replies", ())],
            )
        except (ValueError, KeyError, TypeError):
            log.warning("seat %s: unreadable unmailed news dropped", seat.id)
            return cls([], [])

    def keep(self, seat: m.Seat) -> None:
        data: dict[str, Any] = {
            "events": self.events,
            "notes": [n.to_dict() for n in self.notes],
        }
        if self.due:
            data["due"] = True
        if self.replies:
            data["replies"] = [r.to_dict() for r in self.replies]
        seat.unmailed = (
            json.dumps(data, ensure_ascii=False)
            if self.events or self.notes or self.due or self.replies
            else None
        )


def asked(game: Game, game_row: m.Game) -> Asked:
    """What the game asks of the seats that want only their own turns (call before
    applying a run's actions; the others are mailed every change)."""
    s = game.state
    return {
        seat.seat_index: (ask_of(game, seat.seat_index), s.round, s.picks)
        for seat in game_row.active_seats()
        if seat.mail_preference is m.MailPreference.TURNS
    }


def _news_for(before: Asked, game: Game, seat: int, acted: set[int]) -> bool:
    """Whether ``seat`` is asked something new: its turn came, or it may now order
    ahead (trader, captain), or it acted and is asked again."""
    s = game.state
    now = ask_of(game, seat)
    if now is not Ask.DECIDE and now is not Ask.AHEAD:
        return False
    return seat in acted or before.get(seat) != (now, s.round, s.picks)


def _hidden(game: Game, applied: Applied) -> bool:
    """A run that only recorded choices of a step several seats take at once (the mayor's
    colonists, the storage), which stays open: news to nobody else until it ends."""
    if game.state.phase not in _SIMULTANEOUS:
        return False
    return all(isinstance(action, PlaceColonists | Store) for _, action, _, _ in applied.actions)


def mail_preference(seat: m.Seat, services: Sequence[ServiceCommand]) -> tuple[Note, ...]:
    """Set how much mail ``seat`` wants, as its mail says ("mail my turns", "mail every
    change"; the last such order counts): the line that tells him, if it says so."""
    chosen = [c for c in services if isinstance(c, MailCmd)]
    if not chosen:
        return ()
    every = chosen[-1].every
    seat.mail_preference = m.MailPreference.EVERY if every else m.MailPreference.TURNS
    return (Note(NoteKind.SAID, reason=mail_preference_note(every)),)


def notes_of(applied: Applied) -> dict[int, list[Note]]:
    """What was done for each seat in a run without its order in the mail answered, one
    line per kind: kept orders applied, moves forced, defaults and the autopilot; and one
    line for each kept order dropped."""
    grouped: dict[int, dict[NoteKind, list[tuple[str, str]]]] = {}
    for i, (seat, _, actor, text) in enumerate(applied.actions):
        if i in applied.told:
            continue  # the answer to his mail says it
        echo = applied.echoes[i] if i < len(applied.echoes) else ""
        if actor is m.ActorKind.FORCED:
            kind = NoteKind.FORCED
        elif actor is m.ActorKind.DEFAULT:
            kind = NoteKind.DEFAULT
        elif actor is m.ActorKind.AUTOPILOT:
            kind = NoteKind.ABSENT if i in applied.absent else NoteKind.AUTOPILOT
        elif actor is m.ActorKind.PLAYER and i >= applied.from_mail:
            kind = NoteKind.KEPT
        else:
            continue
        grouped.setdefault(seat, {}).setdefault(kind, []).append((echo, text or ""))
    out = {
        seat: [
            Note(
                kind,
                tuple(echo for echo, _ in items),
                tuple(text for _, text in items) if kind is NoteKind.KEPT else (),
            )
            for kind, items in kinds.items()
        ]
        for seat, kinds in grouped.items()
    }
    for seat, text, reason, _ in applied.dropped:
        out.setdefault(seat, []).append(Note(NoteKind.DROPPED, (), (text,), reason))
    return out


class Mailer:
    """Renders mails for a processing run and adds them to the outbox (sent after commit)."""

    def __init__(self, config: Config, clock: Callable[[], datetime] = m.utcnow) -> None:
        self.config = config
        self.composer = Composer(config, clock)

    # -- the outbox -------------------------------------------------------------------

    def _reply_to(self, game_row: m.Game, seat: m.Seat) -> str:
        return reply_address(
            self.config.moderator.address,
            self.config.secret,
            game_row.tag,
            seat.seat_index,
            seat.mac_key_id,
        )

    @staticmethod
    def _queue(session: Session, rows: dict[str, object] | list[dict[str, object]]) -> None:
        """Into the outbox (sent after the commit): one row, or several in one INSERT."""
        session.connection().execute(_INSERT_OUTBOX, rows)

    def _row(
        self,
        mail: Rendered,
        to: str,
        *,
        game_row: m.Game | None,
        reply_to: str | None,
        message: m.InboundMessage | None = None,
        env: Envelope | None = None,
        auto: str = "auto-generated",
        held: HeldReply | None = None,
    ) -> dict[str, object]:
        """The outbox row of one mail, built and ready to send; the row is read back only
        by the sender. ``held``: an answer that waited, threaded as ``env`` would be."""
        # Replies thread on the player's message; everything else on the game's thread.
        root = self.thread_root(game_row)
        if env is not None:
            held_thread = (env.message_id, tuple(env.references[-8:]))
        elif held is not None:
            held_thread = (held.message_id, held.references)
        else:
            held_thread = (None, ())
        # A player's ids are his mailer's (or a forger's): thread only on real ones, so
        # a Message-ID of 20,000 characters or with an encoded CRLF cannot fail the answer.
        parent = valid_message_id(held_thread[0])
        held_thread = (parent, tuple(r for r in held_thread[1] if valid_message_id(r)))
        inbound_id = message.id if message is not None else held.inbound_id if held else None
        if held_thread[0]:
            in_reply_to: str | None = held_thread[0]
            references = [*([root] if root else []), *held_thread[1], held_thread[0]]
        else:
            in_reply_to = root
            references = [root] if root else []

        def build(mail: Rendered) -> tuple[str, bytes]:
            return self.composer.build(
                mail,
                to=to,
                reply_to=reply_to,
                in_reply_to=in_reply_to,
                references=references,
                auto_submitted=auto,
            )

        message_id, raw = build(mail)
        cap = self.config.caps.reply_bytes
        if auto == "auto-replied" and len(raw) > cap and game_row is not None:
            # Bounded work per mail ([caps]): a reply too long to send becomes a note.
            log.warning("reply of %d bytes to %s replaced by a note (cap %d)", len(raw), to, cap)
            text = (
                f"The answer to your mail came to {len(raw) // 1024:,} KB, more than the "
                f"{cap // 1024:,} KB the moderator sends in one mail. Please write fewer "
                "orders or requests in one mail."
            )
            mail = self.composer.notice(game_row, None, f"{game_row.tag}: answer too long", [text])
            message_id, raw = build(mail)
        return {
            "game_id": None if game_row is None else game_row.id,
            "inbound_message_id": inbound_id,
            "to_addrs": [to],
            "recipient": to.lower(),
            "kind": mail.kind,
            "raw": raw,
            "message_id": message_id,
            "in_reply_to": in_reply_to,
            "status": m.OutboxStatus.PENDING,
            "next_try_at": m.utcnow(),
        }

    def thread_root(self, game_row: m.Game | None) -> str | None:
        """A fixed Message-ID per game that every mail of the game refers to, so mail
        clients show one thread per game (RFC 5322 §3.6.4). Keyed with the secret: it
        names nothing internal (the seed would tell the plantations to come)."""
        if game_row is None:
            return None
        domain = self.config.moderator.address.partition("@")[2] or "localhost"
        digest = hmac.new(
            self.config.secret, f"thread:{game_row.tag.lower()}".encode(), hashlib.sha256
        ).digest()
        token = base64.b32encode(digest[:10]).decode("ascii").lower()
        return f"<{game_row.tag.lower()}.{token}@{domain}>"

    def _replies_lately(
        self, session: Session, to: str, hours: int, kinds: tuple[str, ...] = CAPPED_KINDS
    ) -> int:
        """Replies of the given kinds sent to ``to`` in the last ``hours``."""
        since = m.utcnow() - timedelta(hours=hours)
        query = select(func.count(m.OutboxMessage.id)).where(
            m.OutboxMessage.recipient == to.lower(),
            m.OutboxMessage.created_at >= since,
            m.OutboxMessage.kind.in_(kinds),
        )
        return session.scalar(query) or 0

    def _may_reply(self, session: Session, to: str) -> bool:
        if not to:
            return False
        cap = self.config.limits.replies_per_sender_per_hour
        if self._replies_lately(session, to, 1) >= cap:
            log.warning("reply cap reached for %s; reply dropped", to)
            return False
        return True

    def _to_seat(self, session: Session, game_row: m.Game, seat: m.Seat, mail: Rendered) -> None:
        """A mail to a seat's own address, with the seat's signed reply address."""
        self._queue(session, self._seat_row(game_row, seat, mail))

    def _seat_row(self, game_row: m.Game, seat: m.Seat, mail: Rendered) -> dict[str, object]:
        return self._row(
            mail, seat.address, game_row=game_row, reply_to=self._reply_to(game_row, seat)
        )

    def _answer(
        self,
        session: Session,
        game_row: m.Game | None,
        mail: Rendered,
        to: str,
        env: Envelope,
        message: m.InboundMessage,
        reply_to: str | None,
    ) -> None:
        """A reply to a player's message (RFC 3834 auto-replied), threaded on it."""
        row = self._row(
            mail,
            to,
            game_row=game_row,
            reply_to=reply_to,
            message=message,
            env=env,
            auto="auto-replied",
        )
        self._queue(session, row)

    # -- after a change, or in answer to a player's mail -----------------------------

    def after_run(
        self,
        session: Session,
        game_row: m.Game,
        game: Game,
        applied: Applied,
        before: Asked,
        *,
        answer: Answer | None = None,
        kept: Kept | None = None,
    ) -> None:
        """The mails of one run (a player's mail, or the clock at a deadline): the answer
        to the sender, with his new board; and to each other seat the news, if the run
        is news to it, else the news kept for its next mail. While the autopilot is still
        deciding an action a mail must announce (``game_row.planning``), the mails due
        are held and go out with release()."""
        if kept is None:
            kept = kept_orders(session, game_row.id)
        changed = applied.changed
        public = public_view(game, applied.events, self.composer.absences(game_row))
        notes = notes_of(applied)
        acted = {seat for seat, _, _, _ in applied.actions}
        hidden = changed and _hidden(game, applied)
        ended = max((e.round for e in applied.events if isinstance(e, RoundEnded)), default=0)
        rows: list[dict[str, object]] = []
        for seat in game_row.active_seats():
            idx = seat.seat_index
            news = Unmailed.of(seat)
            summary: int | None = None
            if changed:
                news.events.extend(public.events)
            news.notes.extend(notes.get(idx, ()))
            if answer is not None and answer.seat.seat_index == idx:
                news.notes.extend(answer.notes)
                news.replies.append(HeldReply.of(answer))
                news.due = True
            elif changed and (
                game.over
                or (
                    not hidden
                    if seat.mail_preference is m.MailPreference.EVERY
                    else ended or _news_for(before, game, idx, acted)
                )
            ):
                news.due = True
                turns = seat.mail_preference is m.MailPreference.TURNS
                if turns and ended and not _news_for(before, game, idx, acted):
                    summary = ended  # the round's summary, not his turn
            if news.due and not game_row.planning:
                news = self._deliver(
                    session, game_row, game, seat, news, public, kept, rows, summary
                )
            news.keep(seat)
        if rows:
            self._queue(session, rows)

    def release(self, session: Session, game_row: m.Game, game: Game) -> None:
        """The mails held while the autopilot decided: each seat due one gets it now, with
        the board as it is and every deadline action known."""
        seats = [(seat, Unmailed.of(seat)) for seat in game_row.active_seats()]
        if not any(news.due for _, news in seats):
            return
        kept = kept_orders(session, game_row.id)
        public = public_view(game, (), self.composer.absences(game_row))
        rows: list[dict[str, object]] = []
        for seat, news in seats:
            if news.due:
                news = self._deliver(session, game_row, game, seat, news, public, kept, rows)
                news.keep(seat)
        if rows:
            self._queue(session, rows)

    def _deliver(
        self,
        session: Session,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        news: Unmailed,
        public: PublicView,
        kept: Kept,
        rows: list[dict[str, object]],
        summary: int | None = None,
    ) -> Unmailed:
        """A seat's mail with its news into ``rows``: the answer to his mail(s), which is
        also his board, or his update (``summary``: the round it sums up). The news left
        to keep (none, once mailed)."""
        own = [q for _, q in kept if q.key.seat == seat.seat_index]
        if news.replies:
            answers = self._reply(session, game_row, game, seat, news, public, own)
            rows.extend(answers)
            if answers:
                return Unmailed([], [])
            return Unmailed(news.events, news.notes)  # capped: told in his next mail
        mail = self.composer.update(
            game_row,
            game,
            seat,
            board=public.board,
            events=news.events,
            notes=news.notes,
            kept=own,
            summary=summary,
        )
        rows.append(self._seat_row(game_row, seat, mail))
        return Unmailed([], [])

    def _reply(
        self,
        session: Session,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        news: Unmailed,
        public: PublicView,
        kept: Sequence[QueuedOrder],
    ) -> list[dict[str, object]]:
        """The answer to the sender's mail (several, if they waited together: one answer
        on the latest), which is also his news; a copy to the seat's own address when
        accepted orders came from elsewhere. The rows (none: the reply cap held it)."""
        latest = news.replies[-1]
        report = ReplyView(
            tuple(line for r in news.replies for line in r.reply.done),
            tuple(line for r in news.replies for line in r.reply.kept),
            tuple(line for r in news.replies for line in r.reply.errors),
            tuple(line for r in news.replies for line in r.reply.already),
        )
        accepted = any(r.accepted for r in news.replies)
        board = None
        if public.events or news.events or any(r.wants_board for r in news.replies):
            board = public.board

        def mail(copied_from: str | None = None) -> Rendered:
            return self.composer.update(
                game_row,
                game,
                seat,
                board=board,
                events=news.events,
                reply=report,
                notes=news.notes,
                kept=kept,
                copied_from=copied_from,
            )

        kind = "ack" if accepted else "error"
        reply_to = self._reply_to(game_row, seat)
        rows = []
        if kind == "ack" or self._may_reply(session, latest.sender):
            rows.append(
                self._row(
                    replace(mail(), kind=kind),
                    latest.sender,
                    game_row=game_row,
                    reply_to=reply_to,
                    auto="auto-replied",
                    held=latest,
                )
            )
        elsewhere = next((r for r in news.replies if r.sender != seat.address and r.accepted), None)
        if elsewhere is not None:
            copy = mail(copied_from=elsewhere.sender)
            rows.append(
                self._row(
                    replace(copy, kind="copy"),
                    seat.address,
                    game_row=game_row,
                    reply_to=reply_to,
                    held=HeldReply(
                        latest.reply, seat.address, None, (), latest.inbound_id, True, False
                    ),
                )
            )
        return rows

    # -- the clock, the operator, and answers that are not orders ----------------------

    def reminders(
        self, session: Session, game_row: m.Game, game: Game, now: datetime, seats: Collection[int]
    ) -> None:
        """A reminder to each of ``seats`` (who must decide) of his deadline."""
        deciding = set(game.deciding())
        for seat in game_row.active_seats():
            if seat.seat_index in deciding and seat.seat_index in seats:
                kept = kept_for(session, game_row.id, seat.seat_index)
                mail = self.composer.reminder(game_row, game, seat, now, kept)
                self._to_seat(session, game_row, seat, mail)

    def services(
        self,
        session: Session,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        env: Envelope,
        message: m.InboundMessage,
        commands: Sequence[ServiceCommand],
        history: list[str],
    ) -> None:
        """help and history get their own answer (board, status, orders and resend are
        answered by the reply to the orders, see Answer.wants_board)."""
        sender = env.from_address or seat.address
        reply_to = self._reply_to(game_row, seat)
        for command in commands:
            if isinstance(command, HelpCmd):
                mail = self.composer.help(game_row, game, command.topic, seat)
            elif isinstance(command, HistoryCmd):
                mail = self.composer.history(game_row, game, history)
            else:
                continue
            if not self._may_reply(session, sender):
                return
            self._answer(session, game_row, mail, sender, env, message, reply_to)

    def notice(
        self,
        session: Session,
        game_row: m.Game,
        game: Game | None,
        seat: m.Seat,
        env: Envelope,
        message: m.InboundMessage,
        title: str,
        paragraphs: Sequence[str],
    ) -> None:
        """A short answer that is not about orders (the game is paused, finished)."""
        sender = env.from_address or seat.address
        if self._may_reply(session, sender):
            mail = self.composer.notice(game_row, game, title, paragraphs)
            self._answer(
                session, game_row, mail, sender, env, message, self._reply_to(game_row, seat)
            )

    def refused(
        self,
        session: Session,
        game_row: m.Game,
        game: Game | None,
        env: Envelope,
        message: m.InboundMessage,
        refusal: Refusal,
        *,
        had_password: bool,
        seat: m.Seat | None,
    ) -> None:
        """The answer to a mail that did not prove its seat. When it came from a seat's
        address on record (``seat``), the answer goes to that address with the seat's
        signed reply address, so replying to it gets in; a forged From only sends the
        answer to the true owner. Otherwise it goes to the sender, unsigned."""
        to = seat.address if seat is not None else env.from_address or ""
        if not to or self._replies_lately(session, to, 24, ("refused",)) >= 3:
            return
        mail = self.composer.refused(
            game_row, game, refusal, had_password=had_password, signed=seat is not None
        )
        reply_to = None if seat is None else self._reply_to(game_row, seat)
        self._answer(session, game_row, mail, to, env, message, reply_to)

    def unknown_sender(
        self,
        session: Session,
        env: Envelope,
        message: m.InboundMessage,
        games: Sequence[str] = (),
    ) -> None:
        """At most one short explanation a day to a sender whose mail names no game
        (``games``: the active games his address has a seat in)."""
        sender = env.from_address or ""
        per_day = self.config.limits.unknown_sender_replies_per_day
        if not sender or self._replies_lately(session, sender, 24, ("unknown_sender",)) >= per_day:
            return
        mail = self.composer.unknown_sender(games)
        self._answer(session, None, mail, sender, env, message, None)

    def game_start(
        self, session: Session, game_row: m.Game, game: Game, passwords: dict[int, str]
    ) -> None:
        """Each seat (or only the ones in ``passwords``) gets his password and the board."""
        for seat in game_row.active_seats():
            if seat.seat_index in passwords:
                reply_to = self._reply_to(game_row, seat)
                mail = self.composer.game_start(
                    game_row, game, seat, passwords[seat.seat_index], reply_to
                )
                seat.unmailed = None
                self._to_seat(session, game_row, seat, mail)

    def undo(self, session: Session, game_row: m.Game, game: Game, reason: str, by: str) -> None:
        """Every seat: the moves taken back and the board now (what it was not yet told
        may be undone: dropped)."""
        for seat in game_row.active_seats():
            seat.unmailed = None
            self._to_seat(
                session, game_row, seat, self.composer.undo(game_row, game, seat, reason, by)
            )

    def tell(
        self, session: Session, game_row: m.Game, game: Game, seat: m.Seat, title: str
    ) -> None:
        """A notice to one seat, with his part and the board (what the clock does for him,
        his absence, included)."""
        mail = self.composer.notice(game_row, game, title, [], seat=seat, with_board=True)
        self._to_seat(session, game_row, seat, mail)

    def announce(
        self,
        session: Session,
        game_row: m.Game,
        game: Game | None,
        title: str,
        text: str,
        *,
        with_board: bool = False,
    ) -> None:
        """A notice to every seat; ``with_board``: with his part and the board (the game
        resumes)."""
        for seat in game_row.active_seats():
            mail = self.composer.notice(
                game_row, game, title, [text] if text else [], seat=seat, with_board=with_board
            )
            self._to_seat(session, game_row, seat, mail)
