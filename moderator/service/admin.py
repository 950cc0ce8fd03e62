"""The moderator's administration: creating games, seats, absences, undo, export."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import date, datetime
from email.parser import BytesHeaderParser
from email.policy import default as default_policy
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..archive.record import export_record
from ..engine import Game, action_from
from ..mail.address import AddressError, normalise_address
from ..orders import format_action
from ..store import models as m
from ..store.queries import lock_game
from .core import Applied, Moderator
from .deadlines import AbsenceError
from .kept import kept_orders

_WORDS = (
    "anchor",
    "barrel",
    "cargo",
    "coffee",
    "corn",
    "doubloon",
    "harbor",
    "indigo",
    "island",
    "market",
    "mayor",
    "quarry",
    "settler",
    "ship",
    "sugar",
    "tobacco",
    "trader",
    "wharf",
    "guild",
    "fortress",
    "hospice",
    "residence",
    "captain",
)


class AdminError(ValueError):
    """An admin command that cannot be carried out; nothing was changed."""


@dataclass(frozen=True, slots=True)
class NewPlayer:
    name: str
    address: str
    timezone: str = "UTC"


def player_address(text: str) -> str:
    """A player's address as stored (lower case, IDNA domain), or AdminError saying why
    the moderator cannot mail it."""
    try:
        return normalise_address(text)
    except AddressError as exc:
        raise AdminError(str(exc)) from None


def make_password() -> str:
    """Three words and a number: easy to type in a mail, about 38 bits."""
    words = [secrets.choice(_WORDS) for _ in range(3)]
    return "-".join(words) + f"-{secrets.randbelow(1000):03d}"


class Admin:
    """Each method is one transaction, audited, announced where players are affected."""

    def __init__(self, moderator: Moderator, who: str = "operator") -> None:
        self.moderator = moderator
        self.who = who

    def _audit(
        self,
        session: Session,
        game_id: int | None,
        command: str,
        args: dict[str, Any],
        reason: str | None = None,
    ) -> None:
        entry = m.AuditEntry(game_id=game_id, who=self.who, command=command, reason=reason)
        entry.arguments = args
        session.add(entry)

    def _locked(self, session: Session, ref: str | int) -> m.Game:
        game_id = self.resolve(session, ref)
        row = lock_game(session, game_id)
        assert row is not None
        return row

    def resolve(self, session: Session, ref: str | int) -> int:
        """A game by id (12) or tag (PR-12)."""
        text = str(ref).strip().upper()
        if text.startswith("PR-"):
            found = session.scalar(select(m.Game.id).where(m.Game.tag == text))
        elif text.isdigit():
            found = session.scalar(select(m.Game.id).where(m.Game.id == int(text)))
        else:
            found = None
        if found is None:
            raise AdminError(f"no game {ref!r}")
        return found

    # -- games ---------------------------------------------------------------------------

    def new_game(
        self,
        players: Sequence[NewPlayer],
        *,
        seed: int | None = None,
        deadline_hours: int = 48,
        reminder_hours: int = 12,
        deadline_action: str = "default",
        position: str | None = None,
        absence: str = "autopilot",
        weekend_pause: bool = False,
    ) -> tuple[str, dict[int, str]]:
        """Create a game, seat the players, mail each his password; returns the tag and
        the passwords (shown once to the operator). ``position``: a state JSON to start
        from instead of the seed's setup (docs/state-format.md). ``absence``: what a
        player's absence does (autopilot or stretch); ``weekend_pause``: deadlines do not
        run on Saturdays and Sundays in each player's time zone."""
        if not 2 <= len(players) <= 5:
            raise AdminError("a game needs 2 to 5 players")
        addresses = [player_address(p.address) for p in players]
        if len(set(addresses)) != len(addresses):
            raise AdminError("each player needs his own address")
        action, policy = _policies(deadline_action, absence)
        _check_hours(deadline_hours, reminder_hours)
        seed = secrets.randbits(48) if seed is None else seed
        try:
            if position is None:
                game = Game.new([p.name for p in players], seed)
            else:
                game = Game.from_json(position)
                if list(game.names) != [p.name for p in players]:
                    raise AdminError("the position's player names differ from the players")
        except ValueError as exc:  # StateError included
            raise AdminError(str(exc)) from None
        passwords: dict[int, str] = {}
        with self.moderator.factory.begin() as session:
            row = m.Game(
                tag=f"NEW-{secrets.token_hex(6)}",
                variant=m.GameVariant(game.state.variant),
                seed=seed,
                status=m.GameStatus.ACTIVE,
                deadline_hours=deadline_hours,
                reminder_hours=reminder_hours,
                deadline_action=action,
                absence_policy=policy,
                weekend_pause=weekend_pause,
                version=0,
                initial_state=None if position is None else game.to_json(),
            )
            session.add(row)
            session.flush()
            row.tag = f"PR-{row.id}"
            for i, p in enumerate(players):
                try:
                    seat = m.Seat(
                        seat_index=i, name=p.name, address=addresses[i], timezone=p.timezone
                    )
                except ValueError as exc:
                    raise AdminError(str(exc)) from None
                passwords[i] = make_password()
                seat.set_secret(passwords[i])
                row.seats.append(seat)
            session.add(m.Snapshot(game_id=row.id, seq=0, state_json=game.to_json()))
            session.flush()
            session.refresh(row)
            applied = Applied()
            self.moderator._advance(session, row, game, applied)
            self.moderator._commit_game(session, row, game, applied, None)
            self.moderator.reschedule(row, game)
            self.moderator.mailer.game_start(session, row, game, passwords)
            self._audit(
                session, row.id, "game new", {"players": [p.name for p in players], "seed": seed}
            )
            tag = row.tag
        return tag, passwords

    def list_games(self) -> list[dict[str, Any]]:
        with self.moderator.factory.begin() as session:
            rows = session.scalars(select(m.Game).order_by(m.Game.id))
            return [
                {
                    "id": r.id,
                    "tag": r.tag,
                    "status": r.status.value,
                    "players": [s.name for s in r.active_seats()],
                    "actions": r.version,
                }
                for r in rows
            ]

    def show(self, ref: str | int) -> str:
        with self.moderator.factory.begin() as session:
            row = session.get(m.Game, self.resolve(session, ref))
            assert row is not None
            game = self.moderator.load(session, row)
            composer = self.moderator.mailer.composer
            head = f"{row.tag} ({row.status.value}, {row.version} actions)"
            facts = "\n".join(self._facts(session, row, game))
            return f"{head}\n{facts}\n\n{composer.board_text(row, game)}"

    def _facts(self, session: Session, row: m.Game, game: Game) -> list[str]:
        """What an operator asks first: whom the game waits for and until when, what is
        kept for later, and when each seat last wrote."""
        now = self.moderator.clock()

        def when(at: datetime | None) -> str:
            if at is None:
                return "never"
            hours = (at - now).total_seconds() / 3600
            ago = f"in {hours:.0f} h" if hours >= 0 else f"{-hours:.0f} h ago"
            return f"{at:%Y-%m-%d %H:%M} UTC ({ago})"

        seats = row.active_seats()
        waiting = [f"{seats[i].name} (seat {i + 1})" for i in game.deciding() if i < len(seats)]
        rules = DeadlineRules.of(row)
        lines = [
            f"Waiting for: {', '.join(waiting) or 'nobody'}",
            f"Deadline rules: {rules.deadline_hours} h, a reminder {rules.reminder_hours} h "
            f"before; then {rules.deadline_action.value}; absences: {rules.absence.value}; "
            f"weekend pause {_word(rules.weekend_pause)}",
        ]
        if not row.turns:
            lines.append(f"Deadline: none ({row.status.value})")
        for turn in row.turns:
            # Each deciding seat's own deadline and what is done at it (his mails say it).
            name = seats[turn.seat].name if turn.seat < len(seats) else "?"
            if turn.undecided:
                then = "the autopilot is deciding what"
            elif turn.action is None or turn.actor is None:
                then = "nothing: the game waits"
            else:
                order = format_action(action_from(json.loads(turn.action)), game, turn.seat)
                then = f"{turn.actor.value}: {order}"
            lines.append(f"Deadline of {name}: {when(turn.due_at)}, then {then}")
        lines += [f"Last activity: {when(row.last_message_at)}", "Seats:"]
        last_mail = dict(
            session.execute(
                select(m.InboundMessage.seat_index, func.max(m.InboundMessage.received_at))
                .where(m.InboundMessage.game_id == row.id, m.InboundMessage.seat_index.is_not(None))
                .group_by(m.InboundMessage.seat_index)
            ).all()
        )
        for seat in seats:
            lines.append(
                f"  {seat.seat_index + 1}  {seat.name} <{seat.address}>  "
                f"last mail: {when(last_mail.get(seat.seat_index))}"
            )
            if seat.away_until is not None and seat.away_until > now:
                lines.append(f"     away until {when(seat.away_until)}")
            if seat.missed_deadlines:
                lines.append(f"     missed {seat.missed_deadlines} deadline(s) in a row")
        kept = kept_orders(session, row.id)
        lines.append(f"Kept orders: {len(kept) or 'none'}")
        for _, queued in kept:
            name = seats[queued.key.seat].name if queued.key.seat < len(seats) else "?"
            lines.append(f"  seat {queued.key.seat + 1} ({name}): {queued.text}")
        return lines

    def set_status(self, ref: str | int, status: m.GameStatus, reason: str | None) -> bool:
        """Pause or resume a game, announced to every seat; False (and no mail) when it
        already has that status."""
        with self.moderator.factory.begin() as session:
            row = self._locked(session, ref)
            if row.status is m.GameStatus.FINISHED:
                raise AdminError(f"{row.tag} is finished")
            before = row.status
            if before is status:
                return False
            row.status = status
            resumed = status is m.GameStatus.ACTIVE
            title = f"{row.tag} is {'resumed' if resumed else 'paused'} by the moderator."
            text = f"Reason: {reason}" if reason else ""
            # Paused: no turns, no deadlines; resumed: fresh ones for everyone, and everyone
            # gets the board again, with his new deadline, in that mail.
            game = self.moderator.load(session, row)
            self.moderator.reschedule(row, game)
            self.moderator.mailer.announce(session, row, game, title, text, with_board=resumed)
            self._audit(session, row.id, f"game {status.value}", {"from": before.value}, reason)
        return True

    def configure(
        self,
        ref: str | int,
        *,
        deadline_hours: int | None = None,
        reminder_hours: int | None = None,
        deadline_action: str | None = None,
        absence: str | None = None,
        weekend_pause: bool | None = None,
    ) -> list[str]:
        """Change a game's deadline rules (None: unchanged); every seat's deadline starts
        afresh under them, and every player is told and gets the board with his new
        deadline. Returns the changes, as "name: before -> after"."""
        with self.moderator.factory.begin() as session:
            row = self._locked(session, ref)
            if row.status in (m.GameStatus.FINISHED, m.GameStatus.ABORTED):
                raise AdminError(f"{row.tag} is {row.status.value}")
            before = DeadlineRules.of(row)
            action, policy = _policies(
                deadline_action or before.deadline_action.value, absence or before.absence.value
            )
            after = DeadlineRules(
                before.deadline_hours if deadline_hours is None else deadline_hours,
                before.reminder_hours if reminder_hours is None else reminder_hours,
                action,
                policy,
                before.weekend_pause if weekend_pause is None else weekend_pause,
            )
            _check_hours(after.deadline_hours, after.reminder_hours)
            changes = before.changes(after)
            if not changes:
                return []
            after.set(row)
            game = self.moderator.load(session, row)
            self.moderator.reschedule(row, game)
            title = f"{row.tag}: the moderator changed the deadline rules."
            text = "\n".join(f"  {line}" for line in changes)
            # Every deadline starts afresh under them: each player gets his in that mail.
            active = row.status is m.GameStatus.ACTIVE
            self.moderator.mailer.announce(session, row, game, title, text, with_board=active)
            self._audit(session, row.id, "game set", {"changes": changes})
            return changes

    def undo(self, ref: str | int, reason: str) -> int:
        """Take back the last player's (or the clock's) action and everything the
        moderator applied after it; announced to every seat. Returns actions removed."""
        if not reason.strip():
            raise AdminError("an undo needs a reason (it is announced to every player)")
        with self.moderator.factory.begin() as session:
            row = self._locked(session, ref)
            last = session.scalar(
                select(m.Action)
                .where(m.Action.game_id == row.id, m.Action.actor != m.ActorKind.FORCED)
                .order_by(m.Action.seq.desc())
                .limit(1)
            )
            if last is None:
                raise AdminError(f"{row.tag} has nothing to undo")
            removed = row.version - last.seq + 1
            session.execute(
                delete(m.Action).where(m.Action.game_id == row.id, m.Action.seq >= last.seq)
            )
            row.version = last.seq - 1
            game = self.moderator.rebuild(session, row)
            assert row.snapshot is not None
            row.snapshot.seq = row.version
            row.snapshot.state_json = game.to_json()
            if row.status is m.GameStatus.FINISHED:
                row.status = m.GameStatus.ACTIVE
            self.moderator.reschedule(row, game)
            # The players are told that the moderator did it; who exactly is in the audit log.
            self.moderator.mailer.undo(session, row, game, reason, "the moderator")
            self._audit(session, row.id, "game undo", {"removed": removed}, reason)
            return removed

    def absence(
        self,
        ref: str | int,
        seat_ref: str,
        *,
        until: date | None = None,
        days: int | None = None,
    ) -> datetime | None:
        """The operator notes that a player is away (``until`` a day, in the player's
        zone, or for ``days``; players order it themselves too), or back (neither). Under
        the game's policy the autopilot plays for him at once, or his deadlines wait; the
        player is told. Returns when the absence ends (None: back)."""
        with self.moderator.factory.begin() as session:
            row = self._locked(session, ref)
            if row.status is not m.GameStatus.ACTIVE:
                raise AdminError(f"{row.tag} is {row.status.value}")
            seat = _seat_of(row, seat_ref)
            end = None
            if until is not None or days is not None:
                try:
                    end = self.moderator.absence_until(seat, days=days, until=until)
                except AbsenceError as exc:
                    raise AdminError(str(exc)) from None
            game = self.moderator.load(session, row)
            self.moderator.mark_absence(session, row, game, seat, end)
            title = f"{row.tag}: the moderator noted " + (
                "that you are back." if end is None else "your absence."
            )
            self.moderator.mailer.tell(session, row, game, seat, title)
            self._audit(
                session,
                row.id,
                "game away" if end is not None else "game back",
                {"seat": seat.seat_index, "until": None if end is None else end.isoformat()},
            )
            return end

    def replace(
        self,
        ref: str | int,
        seat_ref: str,
        address: str,
        timezone: str = "UTC",
        name: str | None = None,
    ) -> str:
        """A new player takes over a seat: new address, new password, and the old reply
        addresses stop working (the MAC key generation moves on). ``name``: the new
        player's name (default: the seat keeps the old one)."""
        address = player_address(address)
        if name is not None and (not name.strip() or any(c in name for c in "\r\n<>")):
            raise AdminError(f"not a player's name: {name!r}")
        with self.moderator.factory.begin() as session:
            row = self._locked(session, ref)
            seats = row.active_seats()
            old = _seat_of(row, seat_ref)
            new_name = old.name if name is None else name.strip()
            if any(s.name == new_name for s in seats if s is not old):
                raise AdminError(f"{new_name!r} already plays in {row.tag}; choose another name")
            old.active = False
            old.replaced_at = m.utcnow()
            session.flush()
            try:
                new = m.Seat(
                    seat_index=old.seat_index,
                    name=new_name,
                    address=address,
                    timezone=timezone,
                    mac_key_id=old.mac_key_id + 1,
                )
            except ValueError as exc:  # an unknown time zone; the transaction rolls back
                raise AdminError(str(exc)) from None
            password = make_password()
            new.set_secret(password)
            row.seats.append(new)
            session.flush()
            game = self.moderator.load(session, row)
            if new.name != old.name:
                # The name is part of the state: the snapshot takes it, and a replay of the
                # log gives the same (Moderator.start names the seats as they are now).
                game.state.players[new.seat_index].name = new.name
                assert row.snapshot is not None
                row.snapshot.state_json = game.to_json()
            # The new player's own deadline starts now.
            self.moderator.reschedule(row, game, {new.seat_index})
            self.moderator.mailer.game_start(session, row, game, {new.seat_index: password})
            self._audit(
                session,
                row.id,
                "game replace",
                {
                    "seat": old.seat_index,
                    "from": old.address,
                    "to": new.address,
                    "name": new.name,
                },
            )
            return password

    def export(self, ref: str | int) -> dict[str, Any]:
        """The game record (docs/game-record.md)."""
        with self.moderator.factory.begin() as session:
            row = session.get(m.Game, self.resolve(session, ref))
            assert row is not None
            return export_record(session, row, self.moderator.start(row), self.moderator.clock())

    def replay_check(self, ref: str | int) -> tuple[bool, str]:
        """Rebuild from the log and compare with the snapshot."""
        with self.moderator.factory.begin() as session:
            row = session.get(m.Game, self.resolve(session, ref))
            assert row is not None
            rebuilt = self.moderator.rebuild(session, row).to_json()
            snap = row.snapshot
            if snap is None:
                return False, "no snapshot"
            if snap.state_json == rebuilt and snap.seq == row.version:
                return True, f"{row.tag}: the log ({row.version} actions) gives the snapshot"
            return False, f"{row.tag}: the snapshot differs from a replay of the log"


def _policies(deadline_action: str, absence: str) -> tuple[m.DeadlineAction, m.AbsencePolicy]:
    try:
        action = m.DeadlineAction(deadline_action)
    except ValueError:
        raise AdminError("deadline action must be default, autopilot or wait") from None
    try:
        policy = m.AbsencePolicy(absence)
    except ValueError:
        raise AdminError("absence must be autopilot or stretch") from None
    return action, policy


def _check_hours(deadline_hours: int, reminder_hours: int) -> None:
    if deadline_hours < 1:
        raise AdminError(f"the deadline must be at least 1 hour, not {deadline_hours}")
    if not 0 <= reminder_hours < deadline_hours:
        raise AdminError(
            f"the reminder ({reminder_hours} h before the deadline) must be at least 0 "
            f"and less than the deadline ({deadline_hours} h)"
        )


def _seat_of(row: m.Game, seat_ref: str) -> m.Seat:
    """A seat of the game by number (1 = first) or player's name."""
    seats = row.active_seats()
    found = next(
        (
            s
            for s in seats
            if str(s.seat_index + 1) == seat_ref or s.name.lower() == seat_ref.lower()
        ),
        None,
    )
    if found is None:
        raise AdminError(f"no seat {seat_ref!r} in {row.tag} (use 1-{len(seats)} or a name)")
    return found


@dataclass(frozen=True, slots=True)
class DeadlineRules:
    """A game's deadline rules, as `moderator game set` changes them."""

    deadline_hours: int
    reminder_hours: int
    deadline_action: m.DeadlineAction
    absence: m.AbsencePolicy
    weekend_pause: bool

    @classmethod
    def of(cls, row: m.Game) -> DeadlineRules:
        return cls(
            row.deadline_hours,
            row.reminder_hours,
            row.deadline_action,
            row.absence_policy,
            row.weekend_pause,
        )

    def set(self, row: m.Game) -> None:
        row.deadline_hours = self.deadline_hours
        row.reminder_hours = self.reminder_hours
        row.deadline_action = self.deadline_action
        row.absence_policy = self.absence
        row.weekend_pause = self.weekend_pause

    def changes(self, other: DeadlineRules) -> list[str]:
        """What differs in ``other``, as "deadline hours: 48 -> 24"."""
        out = []
        for f in fields(self):
            old, new = getattr(self, f.name), getattr(other, f.name)
            if old != new:
                out.append(f"{f.name.replace('_', ' ')}: {_word(old)} -> {_word(new)}")
        return out


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


# -- outgoing mail that needs a person ----------------------------------------------------


def _outbox_row(row: m.OutboxMessage) -> dict[str, Any]:
    return {
        "id": row.id,
        "to": row.recipient,
        "kind": row.kind,
        "status": row.status.value,
        "attempts": row.attempts,
        "last_error": row.last_error,
        "created_at": row.created_at.isoformat(),
        "next_try_at": row.next_try_at.isoformat(timespec="seconds"),
    }


def stuck_mail(
    admin: Admin, statuses: Sequence[str] = ("failed", "sending")
) -> list[dict[str, Any]]:
    """Outgoing mail the daemon will not send by itself: refused (failed) or interrupted
    while being handed over (sending: it may or may not have reached the server)."""
    try:
        wanted = [m.OutboxStatus(s) for s in statuses]
    except ValueError:
        raise AdminError(
            f"status must be one of {', '.join(s.value for s in m.OutboxStatus)}"
        ) from None
    with admin.moderator.factory.begin() as session:
        rows = session.scalars(
            select(m.OutboxMessage)
            .where(m.OutboxMessage.status.in_(wanted))
            .order_by(m.OutboxMessage.id)
        )
        return [_outbox_row(row) for row in rows]


def retry_mail(admin: Admin, mail_id: int) -> None:
    """Send a failed or interrupted mail again (the operator's decision, audited)."""
    with admin.moderator.factory.begin() as session:
        row = session.get(m.OutboxMessage, mail_id, with_for_update=True)
        if row is None:
            raise AdminError(f"no outgoing mail {mail_id}")
        if row.status not in (m.OutboxStatus.FAILED, m.OutboxStatus.SENDING):
            raise AdminError(f"mail {mail_id} is {row.status.value}, not failed or sending")
        before = row.status.value
        row.status = m.OutboxStatus.PENDING
        row.next_try_at = m.utcnow()
        admin._audit(session, row.game_id, "outbox retry", {"mail": mail_id, "was": before})


# -- mail received, and what became of it --------------------------------------------------


def _subject(raw: bytes) -> str:
    """The decoded subject, from the headers alone (the body is not parsed)."""
    try:
        headers = BytesHeaderParser(policy=default_policy).parsebytes(raw)
        subject = str(headers.get("Subject", "") or "")
    except (ValueError, TypeError, IndexError):  # a header too broken to decode
        return "(unreadable subject)"
    return " ".join(subject.split())[:60] or "(no subject)"


def _why(row: m.InboundMessage) -> str:
    """The reason beside the outcome: the last line of a traceback, or the short reason."""
    if not row.error:
        return ""
    lines = row.error.strip().splitlines()
    return lines[-1] if row.status is m.MessageStatus.FAILED else lines[0]


def received_mail(
    admin: Admin, statuses: Sequence[str] | None, game: str | None, limit: int
) -> list[dict[str, Any]]:
    """The newest ``limit`` messages received (oldest of them first), with what became
    of each: its status, outcome, game, seat and why it was ignored or failed."""
    try:
        wanted = [m.MessageStatus(s) for s in statuses or ()]
    except ValueError:
        raise AdminError(
            f"status must be one of {', '.join(s.value for s in m.MessageStatus)}"
        ) from None
    with admin.moderator.factory.begin() as session:
        query = select(m.InboundMessage).order_by(m.InboundMessage.id.desc()).limit(limit)
        if wanted:
            query = query.where(m.InboundMessage.status.in_(wanted))
        if game is not None:
            query = query.where(m.InboundMessage.game_id == admin.resolve(session, game))
        rows = list(reversed(session.scalars(query).all()))
        tags = {game_id: tag for game_id, tag in session.execute(select(m.Game.id, m.Game.tag))}
        return [
            {
                "id": row.id,
                "received": row.received_at.strftime("%Y-%m-%d %H:%M"),
                "status": row.status.value,
                "outcome": row.outcome.value if row.outcome else "-",
                "game": tags.get(row.game_id, "-") if row.game_id is not None else "-",
                "seat": "-" if row.seat_index is None else str(row.seat_index + 1),
                "sender": row.sender or "-",
                "subject": _subject(row.raw),
                "why": _why(row),
            }
            for row in rows
        ]
