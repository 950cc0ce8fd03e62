"""Which mail a situation calls for, rendered by moderator.render (templates/)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..config import Config
from ..engine import Game
from ..orders import QueuedOrder, Report, help_text
from ..render import (
    BoardView,
    Refusal,
    Rendered,
    ReplyView,
    board_mail,
    build_message,
    game_end_mail,
    game_start_mail,
    history_mail,
    make_message_id,
    notice_mail,
    published_outcome,
    refused_mail,
    reminder_mail,
    render,
    service_mail,
    undo_mail,
    unknown_sender_mail,
    update_mail,
)
from ..store import models as m


def deadline_outcome(game_row: m.Game, game: Game, seat: int) -> str:
    """What happens to ``seat``'s decision now if no order comes by the deadline, as
    every mail that asks for it says: the one place that words it (the clock's
    Moderator._timeout does what this says)."""
    policy = game_row.deadline_action
    if policy is m.DeadlineAction.WAIT:
        return "nothing: the game waits for you (you get a reminder)"
    if policy is m.DeadlineAction.AUTOPILOT:
        return "the autopilot decides for you"
    return published_outcome(game, seat)


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

    def update(
        self,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        *,
        board: BoardView | None,
        events: Sequence[str] = (),
        reply: Report | ReplyView | None = None,
        notes: Sequence[str] = (),
        kept: Sequence[QueuedOrder] = (),
        copied_from: str | None = None,
    ) -> Rendered:
        """A seat's mail after a change or in answer to his mail (the final scores once
        the game is over). ``board``: the board of this change, built once for every
        seat (None: unchanged, a short mail)."""
        idx = seat.seat_index
        if game.over:
            return render(
                game_end_mail(
                    game, game_row.tag, idx, events, board=board, reply=reply, notes=notes
                )
            )
        return render(
            update_mail(
                game,
                game_row.tag,
                idx,
                board=board,
                events=events,
                reply=reply,
                notes=notes,
                deadline=game_row.deadline_at,
                time_zone=seat.timezone,
                kept=kept,
                at_deadline=self._outcome(game_row, game, idx),
                copied_from=copied_from,
            )
        )

    @staticmethod
    def _outcome(game_row: m.Game, game: Game, seat: int) -> str | None:
        if seat not in game.deciding():
            return None
        return deadline_outcome(game_row, game, seat)

    def reminder(
        self,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        now: datetime,
        kept: Sequence[QueuedOrder],
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
                kept=kept,
                at_deadline=self._outcome(game_row, game, seat.seat_index),
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
                at_deadline=self._outcome(game_row, game, seat.seat_index),
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
                at_deadline=self._outcome(game_row, game, seat.seat_index),
            )
        )

    def board_text(self, game_row: m.Game, game: Game) -> str:
        """The public board as plain text (for `moderator game show`)."""
        return render(board_mail(game, game_row.tag)).text

    # -- answers and notices -------------------------------------------------------------

    def unknown_sender(self, games: Sequence[str] = ()) -> Rendered:
        return render(unknown_sender_mail(self.config.moderator.address, games))

    def refused(
        self,
        game_row: m.Game,
        game: Game | None,
        refusal: Refusal,
        *,
        had_password: bool,
        signed: bool,
    ) -> Rendered:
        return render(
            refused_mail(game, game_row.tag, refusal, had_password=had_password, signed=signed)
        )

    def notice(
        self,
        game_row: m.Game,
        game: Game | None,
        title: str,
        paragraphs: Sequence[str],
        *,
        seat: m.Seat | None = None,
        with_board: bool = False,
    ) -> Rendered:
        """A notice; ``with_board``: with the seat's part and the board (the game goes
        on)."""
        playing = with_board and seat is not None and game is not None and not game.over
        idx = seat.seat_index if playing and seat is not None else None
        return render(
            notice_mail(
                game,
                game_row.tag,
                title,
                paragraphs,
                seat=idx,
                deadline=game_row.deadline_at,
                time_zone="UTC" if seat is None else seat.timezone,
                at_deadline=None
                if idx is None or game is None
                else self._outcome(game_row, game, idx),
                with_board=with_board,
            )
        )

    def history(self, game_row: m.Game, game: Game | None, lines: Sequence[str]) -> Rendered:
        return render(history_mail(game, game_row.tag, lines))

    def help(self, game_row: m.Game, game: Game | None, topic: str | None) -> Rendered:
        """The guide to the orders (the orders package's content)."""
        head = f"The guide to the orders{f' on {topic!r}' if topic else ''}."
        return render(service_mail(game, game_row.tag, head, help_text(topic)))
