"""What each mail says (subject, plain text, HTML) and its MIME form."""

from __future__ import annotations

import html
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import TYPE_CHECKING

from ..config import Config
from ..engine import Event, Game, Good, Role, describe
from ..engine.defaults import default_action
from ..mail.envelope import OWN_MAIL_HEADER, safe_header_value
from ..orders import Report, format_action, help_text, legal_orders
from ..orders.commands import (
    BoardCmd,
    HelpCmd,
    HistoryCmd,
    OrdersCmd,
    ResendCmd,
    ServiceCommand,
    StatusCmd,
)
from ..store import models as m

if TYPE_CHECKING:
    from .core import Applied

WIDTH = 72


@dataclass(frozen=True, slots=True)
class Mail:
    kind: str  # board, your_turn, ack, error, game_start, game_end, reminder, ...
    subject: str
    text: str
    html: str


def _wrap(text: str) -> str:
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= WIDTH:
            out.append(line)
        else:
            indent = len(line) - len(line.lstrip())
            out.extend(textwrap.wrap(line, WIDTH, subsequent_indent=" " * (indent + 2)))
    return "\n".join(out)


def _html(text: str) -> str:
    """The same words as the plain text, escaped, in a monospaced block."""
    body = html.escape(text)
    return (
        '<!DOCTYPE html><html><body><pre style="font-family: monospace; font-size: 13px">'
        f"{body}</pre></body></html>"
    )


def _mail(kind: str, subject: str, text: str) -> Mail:
    wrapped = _wrap(text)
    return Mail(kind, subject, wrapped, _html(wrapped))


class Composer:
    """Turns game situations into mails; the templates' view-models live in render/."""

    def __init__(self, config: Config) -> None:
        self.config = config

    # -- MIME --------------------------------------------------------------------------

    def build(
        self,
        mail: Mail,
        *,
        to: str,
        reply_to: str | None,
        in_reply_to: str | None,
        references: Sequence[str],
        auto_submitted: str,
    ) -> tuple[str, bytes]:
        """multipart/alternative, threaded, marked automatic (RFC 3834)."""
        domain = self.config.moderator.address.partition("@")[2] or "localhost"
        message_id = make_msgid(domain=domain)
        msg = EmailMessage()
        msg["Subject"] = safe_header_value(mail.subject)
        msg["From"] = (
            f"{safe_header_value(self.config.moderator.name)} <{self.config.moderator.address}>"
        )
        msg["To"] = safe_header_value(to)
        if reply_to:
            msg["Reply-To"] = safe_header_value(reply_to)
        msg["Message-ID"] = message_id
        if in_reply_to:
            msg["In-Reply-To"] = safe_header_value(in_reply_to)
        if references:
            msg["References"] = safe_header_value(" ".join(references[-10:]))
        msg["Date"] = format_datetime(m.utcnow())
        msg["Auto-Submitted"] = auto_submitted
        msg[OWN_MAIL_HEADER] = safe_header_value(self.config.moderator.instance)
        msg.set_content(mail.text, cte="quoted-printable")
        msg.add_alternative(mail.html, subtype="html", cte="quoted-printable")
        return message_id, bytes(msg)

    # -- pieces --------------------------------------------------------------------------

    def _subject(self, game_row: m.Game, game: Game, what: str) -> str:
        s = game.state
        phase = "Game over" if game.over else s.phase.value.capitalize()
        return f"[{game_row.tag}] Round {s.round} · {phase} · {what}"

    def _orders_part(self, game_row: m.Game, game: Game, seat: m.Seat) -> list[str]:
        idx = seat.seat_index
        legal = legal_orders(game, idx)
        if not legal:
            upcoming = game.upcoming(idx)
            if upcoming:
                # Seeds 000/001: everyone who might sell or load is asked at once; the
                # order is applied when his turn comes, if it is still possible then.
                return [
                    "Your turn in this phase is still to come. Send your order now; it is",
                    "applied when your turn comes if it is still possible then:",
                    *(f"    {format_action(a, game, idx)}" for a in upcoming),
                ]
            return [
                "You have nothing to decide now. Orders for your later decisions",
                "are kept and applied when the decision comes.",
            ]
        out = ["You may order now:", *(f"    {line}" for line in legal)]
        default = default_action(game, idx)
        if default is not None and game_row.deadline_action is not m.DeadlineAction.WAIT:
            out.append(f"If you send nothing: {format_action(default, game, idx)}")
        if game_row.deadline_at is not None:
            out.append(f"Deadline: {_local(game_row, seat)}")
        return out

    def board_text(self, game: Game, seat_index: int | None) -> list[str]:
        s = game.state
        lines = [f"Round {s.round}, governor {s.players[s.governor].name}."]
        roles = []
        for r, d in s.role_doubloons.items():
            taken = s.role_taken.get(r)
            who = f" ({s.players[taken].name})" if taken is not None else ""
            roles.append(f"{Role(r).label}{'+' + str(d) if d else ''}{who}")
        lines.append("Roles: " + ", ".join(roles))
        lines.append(
            f"Colonists: {s.colonist_supply} in supply, {s.colonist_ship} on the ship. "
            f"VP chips left: {s.vp_chips}."
        )
        ships = []
        for ship in s.ships:
            cargo = f"{ship.count} {ship.good.label}" if ship.good is not None else "empty"
            ships.append(f"{ship.capacity}-ship: {cargo}")
        lines.append("Ships: " + "; ".join(ships))
        house = ", ".join(g.label for g in s.trading_house) or "empty"
        lines.append(f"Trading house: {house}")
        lines.append(
            "Plantations: "
            + (", ".join(g.label for g in s.face_up) or "none")
            + f"; quarries left: {s.quarries}"
        )
        lines.append("")
        for i, p in enumerate(s.players):
            mark = " (you)" if i == seat_index else ""
            lines.append(
                f"{p.name}{mark}: {p.doubloons} doubloons, {p.vp} VP, San Juan {p.san_juan}"
            )
            island = [
                f"{p.occupied[g]}/{p.plantations[g]} {Good(g).label}"
                for g in range(5)
                if p.plantations[g]
            ]
            if p.quarries:
                island.append(f"{p.occupied_quarries}/{p.quarries} quarry")
            lines.append("  island: " + (", ".join(island) or "empty"))
            city = [f"{b.label} {n}/{b.info.circles}" for b, n in p.buildings.items()]
            lines.append("  city: " + (", ".join(city) or "empty"))
            goods = [f"{n} {Good(g).label}" for g, n in enumerate(p.goods) if n]
            lines.append("  goods: " + (", ".join(goods) or "none"))
        return lines

    # -- mail types ------------------------------------------------------------------------

    def ack(
        self, game_row: m.Game, game: Game, seat: m.Seat, report: Report, applied: Applied
    ) -> Mail:
        what = "orders not accepted" if report.errors and not report.accepted else "orders"
        lines = [report.render()]
        if applied.changed and report.accepted:
            lines += ["", "What happened:"] + [
                f"  {describe(e, game.names)}" for e in applied.events
            ]
        return _mail(
            "error" if report.errors and not report.accepted else "ack",
            self._subject(game_row, game, what),
            "\n".join(lines),
        )

    def copy_notice(self, game_row: m.Game, seat: m.Seat, sender: str, mail: Mail) -> Mail:
        text = (
            f"Orders for your seat arrived from {sender}, not from your address on "
            f"record, and were accepted. This is a copy.\n\n{mail.text}"
        )
        return _mail("copy", f"[{game_row.tag}] copy of orders from another address", text)

    def board(self, game_row: m.Game, game: Game, seat: m.Seat, events: Sequence[Event]) -> Mail:
        idx = seat.seat_index
        your_turn = bool(game.upcoming(idx))
        lines = ["What happened:"] + [f"  {describe(e, game.names)}" for e in events]
        lines += ["", *self.board_text(game, idx)]
        if game.over:
            lines += ["", *self._scores(game)]
            return _mail(
                "game_end", self._subject(game_row, game, "final scores"), "\n".join(lines)
            )
        lines += ["", *self._orders_part(game_row, game, seat)]
        kind = "your_turn" if your_turn else "board"
        return _mail(kind, self._subject(game_row, game, kind.replace("_", " ")), "\n".join(lines))

    def _scores(self, game: Game) -> list[str]:
        winners = game.winners()
        out = ["Final scores (chips + buildings + bonus; doubloons and goods):"]
        for sc in sorted(game.scores(), key=lambda sc: (-sc.total, -sc.tiebreak)):
            mark = "  winner" if sc.seat in winners else ""
            out.append(
                f"  {game.names[sc.seat]:<12} {sc.total:>3} = {sc.chips} + {sc.buildings} + "
                f"{sc.bonus}  ({sc.tiebreak}){mark}"
            )
        return out

    def reminder(self, game_row: m.Game, game: Game, seat: m.Seat) -> Mail:
        lines = ["A reminder: the game is waiting for your orders.", ""]
        lines += self._orders_part(game_row, game, seat)
        return _mail("reminder", self._subject(game_row, game, "reminder"), "\n".join(lines))

    def service(
        self,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        commands: Sequence[ServiceCommand],
        history: list[str],
    ) -> Mail:
        parts: list[str] = []
        for c in commands:
            if isinstance(c, HelpCmd):
                parts.append(help_text(c.topic))
            elif isinstance(c, StatusCmd | BoardCmd | ResendCmd):
                parts.append("\n".join(self.board_text(game, seat.seat_index)))
                parts.append("\n".join(self._orders_part(game_row, game, seat)))
            elif isinstance(c, OrdersCmd):
                parts.append("\n".join(self._orders_part(game_row, game, seat)))
            elif isinstance(c, HistoryCmd):
                parts.append("History:\n" + "\n".join(f"  {line}" for line in history))
        return _mail("service", self._subject(game_row, game, "as you asked"), "\n\n".join(parts))

    def notice(self, game_row: m.Game, text: str) -> Mail:
        return _mail("notice", f"[{game_row.tag}] notice", text)

    def auth_failed(self, game_row: m.Game, had_password: bool) -> Mail:
        why = (
            "the password was wrong"
            if had_password
            else "it came neither as a reply to "
            "one of the moderator's mails to your seat nor with your seat's password"
        )
        text = (
            f"Your mail about game {game_row.tag} was not accepted: {why}.\n\n"
            "Reply to the moderator's last mail to you, or add a line\n"
            "    password <your password>\n"
            "to your orders."
        )
        return _mail("auth_failed", f"[{game_row.tag}] orders not accepted", text)

    def unknown_sender(self) -> Mail:
        text = (
            "This is the Puerto Rico play-by-email moderator. Your mail does not belong "
            "to any game it runs, so it was not read further. Players reply to the "
            "moderator's mails about their game. You will not get this explanation "
            "more than once a day."
        )
        return _mail("unknown_sender", "About your mail to the Puerto Rico moderator", text)

    def game_start(self, game_row: m.Game, game: Game, seat: m.Seat, password: str | None) -> Mail:
        names = ", ".join(game.names)
        lines = [
            f"Welcome to game {game_row.tag} of Puerto Rico: {names}.",
            f"You play {seat.name} (seat {seat.seat_index + 1}).",
            "",
            "To order, reply to the moderator's latest mail: the reply address is",
            "signed for your seat, so replying is enough. From another address, add",
            "a line 'password <your password>'.",
        ]
        if password:
            lines += [f"Your password: {password}"]
        lines += ["", "Send 'help' for the order language.", ""]
        lines += [*self.board_text(game, seat.seat_index), ""]
        lines += self._orders_part(game_row, game, seat)
        return _mail(
            "game_start", f"[{game_row.tag}] Game start · you are {seat.name}", "\n".join(lines)
        )

    def announcement(
        self, game_row: m.Game, game: Game, seat: m.Seat, title: str, text: str
    ) -> Mail:
        lines = [text, "", *self.board_text(game, seat.seat_index), ""]
        lines += self._orders_part(game_row, game, seat)
        return _mail("announcement", f"[{game_row.tag}] {title}", "\n".join(lines))


def _local(game_row: m.Game, seat: m.Seat) -> str:
    from zoneinfo import ZoneInfo

    assert game_row.deadline_at is not None
    when = game_row.deadline_at.astimezone(ZoneInfo(seat.timezone))
    return when.strftime("%a %d %b %Y %H:%M %Z")
