"""Which mail a situation calls for, rendered by moderator.render (templates/)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import datetime

from ..config import Config
from ..engine import Event, Game
from ..orders import QueuedOrder, Report, help_text
from ..orders.commands import HelpCmd, HistoryCmd, ServiceCommand
from ..render import (
    PublicView,
    Rendered,
    ack_mail,
    board_mail,
    build_message,
    error_mail,
    game_end_mail,
    game_start_mail,
    make_message_id,
    reminder_mail,
    render,
    undo_mail,
    unknown_sender_mail,
    your_turn_mail,
)
from ..render.env import wrap
from ..store import models as m


def note(kind: str, subject: str, text: str) -> Rendered:
    """A short notice with no board: the words wrapped at 72 columns, the HTML the same
    words escaped."""
    body = "\n".join(wrap(line) if line.strip() else "" for line in text.splitlines())
    markup = (
        '<!DOCTYPE html><html><body><pre style="font-family: monospace">'
        f"{html.escape(body)}</pre></body></html>"
    )
    return Rendered(kind, subject, body + "\n", markup)


class Composer:
    """Turns game situations into rendered mails and MIME bytes."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.domain = config.moderator.address.partition("@")[2] or "localhost"

    def build(
        self,
        mail: Rendered,
        *,
        to: str,
        reply_to: str | None,
        in_reply_to: str | None,
        references: Sequence[str],
        auto_submitted: str,
    ) -> tuple[str, bytes]:
        message_id = make_message_id(self.domain)
        raw = build_message(
            mail,
            from_addr=self.config.moderator.address,
            to=[to],
            reply_to=reply_to,
            message_id=message_id,
            in_reply_to=in_reply_to,
            references=references,
            auto_submitted=auto_submitted,
            instance=self.config.moderator.instance,
            from_name=self.config.moderator.name,
        )
        return message_id, raw

    # -- the game's mails ---------------------------------------------------------------

    def board(
        self,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        events: Sequence[Event],
        queued: Sequence[QueuedOrder],
        public: PublicView | None = None,
    ) -> Rendered:
        """After a change: the final scores, the turn mail for whoever may order now
        (also ahead of his turn in the trader and captain phases), else the board.
        ``public``: the board and events of this change, when built already."""
        idx = seat.seat_index
        if game.over:
            return render(game_end_mail(game, game_row.tag, idx, events, public=public))
        build = your_turn_mail if game.upcoming(idx) else board_mail
        return render(
            build(
                game,
                game_row.tag,
                idx,
                events,
                deadline=game_row.deadline_at,
                time_zone=seat.timezone,
                queued=queued,
                public=public,
            )
        )

    def ack(
        self,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        report: Report,
        queued: Sequence[QueuedOrder],
    ) -> Rendered:
        """What was understood, applied and kept — or every rejected line and why."""
        build = error_mail if report.errors else ack_mail
        return render(
            build(
                game,
                game_row.tag,
                seat.seat_index,
                report,
                deadline=game_row.deadline_at,
                time_zone=seat.timezone,
                queued=queued,
            )
        )

    def reminder(
        self,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        now: datetime,
        queued: Sequence[QueuedOrder],
    ) -> Rendered:
        assert game_row.deadline_at is not None
        return render(
            reminder_mail(
                game,
                game_row.tag,
                seat.seat_index,
                now=now,
                deadline=game_row.deadline_at,
                time_zone=seat.timezone,
                queued=queued,
            )
        )

    def game_start(
        self, game_row: m.Game, game: Game, seat: m.Seat, password: str, reply_to: str
    ) -> Rendered:
        return render(
            game_start_mail(
                game,
                game_row.tag,
                seat.seat_index,
                password,
                reply_to=reply_to,
                deadline=game_row.deadline_at,
                time_zone=seat.timezone,
            )
        )

    def undo(self, game_row: m.Game, game: Game, seat: m.Seat, reason: str, by: str) -> Rendered:
        return render(
            undo_mail(
                game,
                game_row.tag,
                seat.seat_index,
                reason=reason,
                by=by,
                deadline=game_row.deadline_at,
                time_zone=seat.timezone,
            )
        )

    def unknown_sender(self) -> Rendered:
        return render(unknown_sender_mail(self.config.moderator.address))

    def board_text(self, game_row: m.Game, game: Game) -> str:
        """The public board as plain text (for `moderator game show`)."""
        return render(board_mail(game, game_row.tag, None)).text

    # -- notices ---------------------------------------------------------------------------

    def service(
        self, game_row: m.Game, commands: Sequence[ServiceCommand], history: list[str]
    ) -> Rendered | None:
        """The answer to help and history; board, status, orders and resend are answered
        with the board or turn mail itself."""
        parts: list[str] = []
        for c in commands:
            if isinstance(c, HelpCmd):
                parts.append(help_text(c.topic))
            elif isinstance(c, HistoryCmd):
                # Round headings at the margin, what happened indented under them.
                lines = (wrap(h, indent="  ", subsequent="      ") for h in history)
                parts.append("The game so far:\n\n" + "\n".join(lines))
        if not parts:
            return None
        return note("service", f"[{game_row.tag}] as you asked", "\n\n".join(parts))

    def copy_notice(self, game_row: m.Game, sender: str, mail: Rendered) -> Rendered:
        text = (
            f"Orders for your seat arrived from {sender}, not from your address on "
            f"record, and were accepted (the sender knew your password). If this was "
            f"not you, tell the moderator. This is a copy of the reply.\n\n{mail.text}"
        )
        return note("copy", f"[{game_row.tag}] orders from another address", text)

    def notice(self, game_row: m.Game, text: str) -> Rendered:
        return note("notice", f"[{game_row.tag}] notice", text)

    def auth_failed(self, game_row: m.Game, had_password: bool) -> Rendered:
        why = (
            "the password was wrong"
            if had_password
            else "it was neither a reply to one of the moderator's mails to your seat "
            "nor did it carry your seat's password"
        )
        text = (
            f"Your mail about game {game_row.tag} was not accepted: {why}.\n\n"
            "Reply to the moderator's latest mail to you, or add a line\n"
            "    password <your password>\n"
            "to your orders."
        )
        return note("auth_failed", f"[{game_row.tag}] orders not accepted", text)

    def announcement(self, game_row: m.Game, title: str, text: str) -> Rendered:
        return note("announcement", f"[{game_row.tag}] {title}", text)
