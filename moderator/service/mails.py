"""Outgoing mail: what each player is told after a change, written to the outbox."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from ..config import Config
from ..engine import Event, Game
from ..mail.envelope import Envelope
from ..orders import Report
from ..orders.commands import BoardCmd, OrdersCmd, ResendCmd, ServiceCommand, StatusCmd
from ..render import Rendered, public_view
from ..store import models as m
from .auth import reply_address
from .compose import Composer
from .kept import Kept, kept_for, kept_orders

log = logging.getLogger("moderator.mail")

# Mails that answer a player's message (RFC 3834 "auto-replied"): capped per sender,
# and sent with a null return path.
REPLY_KINDS = ("ack", "error", "service", "notice", "auth_failed", "unknown_sender", "copy")
# The per-sender cap guards against mail loops and abuse, which yield rejected mail:
# the acknowledgement of an accepted order is bounded by the game itself.
CAPPED_KINDS = tuple(k for k in REPLY_KINDS if k != "ack")
# A plain INSERT (see table_of), built once: every mail of every order goes through it.
_INSERT_OUTBOX = insert(m.table_of(m.OutboxMessage))


class Mailer:
    """Renders mails for a processing run and adds them to the outbox (sent after commit)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.composer = Composer(config)

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
    ) -> dict[str, object]:
        """The outbox row of one mail, built and ready to send; the row is read back only
        by the sender."""
        # Replies thread on the player's message; everything else on the game's thread.
        root = self.thread_root(game_row)
        if env is not None and env.message_id:
            in_reply_to: str | None = env.message_id
            references = [*([root] if root else []), *env.references[-8:], env.message_id]
        else:
            in_reply_to = root
            references = [root] if root else []
        message_id, raw = self.composer.build(
            mail,
            to=to,
            reply_to=reply_to,
            in_reply_to=in_reply_to,
            references=references,
            auto_submitted=auto,
        )
        return {
            "game_id": None if game_row is None else game_row.id,
            "inbound_message_id": None if message is None else message.id,
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
        clients show one thread per game (RFC 5322 §3.6.4)."""
        if game_row is None:
            return None
        domain = self.config.moderator.address.partition("@")[2] or "localhost"
        return f"<{game_row.tag.lower()}.{game_row.seed}@{domain}>"

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

    # -- mails --------------------------------------------------------------------------

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

    def reply(
        self,
        session: Session,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        env: Envelope,
        message: m.InboundMessage,
        report: Report,
        kept: Kept | None = None,
    ) -> None:
        """The acknowledgement or the error report, to the sender; copied to the seat's
        own address when the order came from elsewhere. ``kept``: the game's kept orders,
        when the caller has them already."""
        if not report.accepted and not report.errors:
            return
        if kept is None:
            kept = kept_orders(session, game_row.id)
        queued = [q for _, q in kept if q.key.seat == seat.seat_index]
        mail = self.composer.ack(game_row, game, seat, report, queued)
        sender = env.from_address or seat.address
        reply_to = self._reply_to(game_row, seat)
        if mail.kind == "ack" or self._may_reply(session, sender):
            self._answer(session, game_row, mail, sender, env, message, reply_to)
        if sender != seat.address and report.accepted:
            copy = self.composer.copy_notice(game_row, sender, mail)
            row = self._row(
                copy, seat.address, game_row=game_row, reply_to=reply_to, message=message
            )
            self._queue(session, row)

    def boards(
        self,
        session: Session,
        game_row: m.Game,
        game: Game,
        events: Sequence[Event],
        kept: Kept | None = None,
    ) -> None:
        """Every player gets the new board; those who must (or may already) order get
        their turn mail, with the orders possible, the default and the deadline."""
        if kept is None:
            kept = kept_orders(session, game_row.id)
        public = public_view(game, events)  # the same for every seat: built once
        rows = []
        for seat in game_row.active_seats():
            queued = [q for _, q in kept if q.key.seat == seat.seat_index]
            mail = self.composer.board(game_row, game, seat, events, queued, public)
            rows.append(self._seat_row(game_row, seat, mail))
        if rows:
            self._queue(session, rows)

    def reminders(self, session: Session, game_row: m.Game, game: Game, now: datetime) -> None:
        deciding = set(game.deciding())
        for seat in game_row.active_seats():
            if seat.seat_index in deciding:
                queued = kept_for(session, game_row.id, seat.seat_index)
                mail = self.composer.reminder(game_row, game, seat, now, queued)
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
        """help and history get a notice; board, status, orders and resend the board or
        turn mail as it would be sent now."""
        sender = env.from_address or seat.address
        if not self._may_reply(session, sender):
            return
        reply_to = self._reply_to(game_row, seat)
        answer = self.composer.service(game_row, commands, history)
        if answer is not None:
            self._answer(session, game_row, answer, sender, env, message, reply_to)
        if any(isinstance(c, BoardCmd | StatusCmd | OrdersCmd | ResendCmd) for c in commands):
            queued = kept_for(session, game_row.id, seat.seat_index)
            board = self.composer.board(game_row, game, seat, (), queued)
            self._answer(session, game_row, board, sender, env, message, reply_to)

    def notice(
        self,
        session: Session,
        game_row: m.Game,
        seat: m.Seat,
        env: Envelope,
        message: m.InboundMessage,
        text: str,
    ) -> None:
        sender = env.from_address or seat.address
        if self._may_reply(session, sender):
            mail = self.composer.notice(game_row, text)
            self._answer(
                session, game_row, mail, sender, env, message, self._reply_to(game_row, seat)
            )

    def auth_failed(
        self,
        session: Session,
        game_row: m.Game,
        env: Envelope,
        message: m.InboundMessage,
        had_password: bool,
    ) -> None:
        sender = env.from_address or ""
        if not sender or self._replies_lately(session, sender, 24, ("auth_failed",)) >= 3:
            return
        mail = self.composer.auth_failed(game_row, had_password)
        self._answer(session, game_row, mail, sender, env, message, None)

    def unknown_sender(self, session: Session, env: Envelope, message: m.InboundMessage) -> None:
        """At most one short explanation a day to an address the moderator doesn't know."""
        sender = env.from_address or ""
        per_day = self.config.limits.unknown_sender_replies_per_day
        if not sender or self._replies_lately(session, sender, 24, ("unknown_sender",)) >= per_day:
            return
        self._answer(session, None, self.composer.unknown_sender(), sender, env, message, None)

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
                self._to_seat(session, game_row, seat, mail)

    def undo(self, session: Session, game_row: m.Game, game: Game, reason: str, by: str) -> None:
        for seat in game_row.active_seats():
            self._to_seat(
                session, game_row, seat, self.composer.undo(game_row, game, seat, reason, by)
            )

    def announce(self, session: Session, game_row: m.Game, title: str, text: str) -> None:
        for seat in game_row.active_seats():
            self._to_seat(
                session, game_row, seat, self.composer.announcement(game_row, title, text)
            )
