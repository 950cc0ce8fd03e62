"""Which mail a situation calls for, rendered by moderator.render (templates/)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..config import Config
from ..engine import Game, action_from
from ..orders import QueuedOrder, Report, format_action
from ..render import (
    BoardView,
    Refusal,
    Rendered,
    ReplyView,
    board_mail,
    build_message,
    game_end_mail,
    game_start_mail,
    help_mail,
    history_mail,
    make_message_id,
    notice_mail,
    refused_mail,
    reminder_mail,
    render,
    undo_mail,
    unknown_sender_mail,
    update_mail,
)
from ..render.views import WAITS_FOR_YOU, Absence, Note, outcome_text, standing_lines
from ..store import models as m


def deadline_outcome(game_row: m.Game, game: Game, seat: int) -> str | None:
    """What is done for ``seat`` if no order comes by his deadline, as every mail that
    asks him says (worded by render.views.outcome_text). It reads his turn, whose action
    the clock applies as it is (Moderator._clock_game). None: he decides nothing now."""
    turn = game_row.turn_of(seat)
    if turn is None:
        return None
    if turn.actor is None:
        return WAITS_FOR_YOU
    if turn.action is None:
        return outcome_text(None, default=False)
    order = format_action(action_from(json.loads(turn.action)), game, seat)
    return outcome_text(order, default=turn.actor is m.ActorKind.DEFAULT, absent=turn.absent)


def standing(game_row: m.Game, seat: m.Seat, now: datetime, limit: int) -> tuple[str, ...]:
    """Where a seat stands with the clock, in his own mails (render.views.standing_lines):
    his absence, and the deadlines he missed in a row (the operator is told at
    ``limit``)."""
    absence = None
    if seat.away_until is not None and seat.away_until > now:
        autopilot = game_row.absence_policy is m.AbsencePolicy.AUTOPILOT
        absence = Absence(seat.away_until, seat.timezone, autopilot)
    return standing_lines(absence, seat.missed_deadlines, limit)


@dataclass(frozen=True, slots=True)
class SeatClock:
    """The clock's part of a seat's mail: his deadline (his turn's), what is done at it,
    and where he stands (absence, missed deadlines)."""

    deadline: datetime | None
    at_deadline: str | None
    standing: tuple[str, ...]


class Composer:
    """Turns game situations into rendered mails and MIME bytes."""

    def __init__(self, config: Config, clock: Callable[[], datetime] = m.utcnow) -> None:
        self.config = config
        self.clock = clock
        self.domain = config.moderator.address.partition("@")[2] or "localhost"

    # -- the clock's part of a mail ----------------------------------------------------

    def absences(self, game_row: m.Game) -> dict[int, Absence]:
        """The players away now, by seat (every seat's board shows them)."""
        now = self.clock()
        autopilot = game_row.absence_policy is m.AbsencePolicy.AUTOPILOT
        return {
            s.seat_index: Absence(s.away_until, s.timezone, autopilot)
            for s in game_row.active_seats()
            if s.away_until is not None and s.away_until > now
        }

    def _clock(self, game_row: m.Game, game: Game, seat: m.Seat) -> SeatClock:
        """The seat's deadline, what is done at it, and where he stands with the clock."""
        turn = game_row.turn_of(seat.seat_index)
        limit = self.config.deadlines.missed_before_operator
        return SeatClock(
            None if turn is None else turn.due_at,
            deadline_outcome(game_row, game, seat.seat_index),
            standing(game_row, seat, self.clock(), limit),
        )

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
        notes: Sequence[Note] = (),
        kept: Sequence[QueuedOrder] = (),
        copied_from: str | None = None,
        summary: int | None = None,
    ) -> Rendered:
        """A seat's mail after a change or in answer to his mail (the final scores once
        the game is over). ``board``: the board of this change, built once for every
        seat (None: unchanged, a short mail); ``summary``: the round it sums up."""
        idx = seat.seat_index
        if game.over:
            return render(
                game_end_mail(
                    game, game_row.tag, idx, events, board=board, reply=reply, notes=notes
                )
            )
        clock = self._clock(game_row, game, seat)
        return render(
            update_mail(
                game,
                game_row.tag,
                idx,
                board=board,
                events=events,
                reply=reply,
                notes=notes,
                time_zone=seat.timezone,
                kept=kept,
                deadline=clock.deadline,
                at_deadline=clock.at_deadline,
                standing=clock.standing,
                copied_from=copied_from,
                summary=summary,
            )
        )

    def reminder(
        self,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        now: datetime,
        kept: Sequence[QueuedOrder],
    ) -> Rendered:
        clock = self._clock(game_row, game, seat)
        return render(
            reminder_mail(
                game,
                game_row.tag,
                seat.seat_index,
                now=now,
                time_zone=seat.timezone,
                kept=kept,
                deadline=clock.deadline or now,
                at_deadline=clock.at_deadline,
                standing=clock.standing,
            )
        )

    def game_start(
        self, game_row: m.Game, game: Game, seat: m.Seat, password: str, reply_to: str
    ) -> Rendered:
        clock = self._clock(game_row, game, seat)
        return render(
            game_start_mail(
                game,
                game_row.tag,
                seat.seat_index,
                password,
                reply_to=reply_to,
                time_zone=seat.timezone,
                deadline=clock.deadline,
                at_deadline=clock.at_deadline,
                standing=clock.standing,
            )
        )

    def undo(self, game_row: m.Game, game: Game, seat: m.Seat, reason: str, by: str) -> Rendered:
        clock = self._clock(game_row, game, seat)
        return render(
            undo_mail(
                game,
                game_row.tag,
                seat.seat_index,
                reason=reason,
                by=by,
                time_zone=seat.timezone,
                deadline=clock.deadline,
                at_deadline=clock.at_deadline,
                standing=clock.standing,
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
        clock = (
            None
            if idx is None or game is None or seat is None
            else self._clock(game_row, game, seat)
        )
        return render(
            notice_mail(
                game,
                game_row.tag,
                title,
                paragraphs,
                seat=idx,
                time_zone="UTC" if seat is None else seat.timezone,
                with_board=with_board,
                deadline=None if clock is None else clock.deadline,
                at_deadline=None if clock is None else clock.at_deadline,
                standing=() if clock is None else clock.standing,
            )
        )

    def history(self, game_row: m.Game, game: Game | None, lines: Sequence[str]) -> Rendered:
        return render(history_mail(game, game_row.tag, lines))

    def help(
        self, game_row: m.Game, game: Game | None, topic: str | None, seat: m.Seat | None = None
    ) -> Rendered:
        """The guide to the orders, with the mayor's examples in ``seat``'s own words."""
        return render(
            help_mail(game, game_row.tag, topic, None if seat is None else seat.seat_index)
        )
