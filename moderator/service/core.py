"""The moderator core: record a message, then process it in one transaction, exactly once."""

from __future__ import annotations

import json
import logging
import time
import traceback
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..archive.log import game_log
from ..config import Config
from ..engine import Action, DecisionKind, Event, Game, IllegalAction, action_from, action_to
from ..engine.defaults import default_action
from ..mail.envelope import Envelope, is_own_mail, parse_envelope
from ..orders import Accepted, Report, check_mail, format_action
from ..orders.commands import AwayCmd, HistoryCmd
from ..orders.errors import IllegalOrder
from ..orders.parser import password as password_line
from ..orders.queue import Decided, DecisionKey, QueuedOrder, Step, advance
from ..render import Refusal
from ..render.views import Absence, absence_text
from ..store import models as m
from ..store.db import is_outage
from ..store.queries import lock_game, record_inbound
from .auth import forged_reply_address, read_reply_address, subject_tag
from .autopilot import Autopilot, autopilot_seed, choose, configured, decide
from .caps import bound_services, bound_text, ignored_notice
from .deadlines import (
    AbsenceError,
    DueTimes,
    Schedule,
    absence_end,
    due_times,
    return_day,
    zone_of,
)
from .kept import Kept, kept_orders
from .mails import Answer, Mailer, asked, mail_preference
from .operator import notify_operator

log = logging.getLogger("moderator.service")


class ReplayError(Exception):
    """A game's stored log does not replay to a legal game."""


@dataclass
class Applied:
    """What one processing run did to a game, for the mails."""

    events: list[Event] = field(default_factory=list)
    # seat, action, who decided, and the order text that produced it (if any)
    actions: list[tuple[int, Action, m.ActorKind, str | None]] = field(default_factory=list)
    # How many of the first actions are the orders of the mail being answered; the rest
    # were done for the players (kept orders, forced moves, defaults).
    from_mail: int = 0
    # The actions the autopilot took for absent players (by their index in ``actions``).
    absent: set[int] = field(default_factory=set)
    # The decision each action took, with the action as an order (by its index in
    # ``actions``).
    decided: list[Decided] = field(default_factory=list)
    # Kept orders dropped, for the mails: seat, the player's text, and why; and the mail
    # each came in (its inbound message's id).
    dropped: list[tuple[int, str, str, int | None]] = field(default_factory=list)
    # The actions that were kept orders (by index in ``actions``), with their mail's id.
    kept: dict[int, int | None] = field(default_factory=dict)
    # Actions the answer to the mail already tells as done (by index in ``actions``).
    told: set[int] = field(default_factory=set)

    @property
    def changed(self) -> bool:
        return bool(self.actions)

    @property
    def echoes(self) -> list[str]:
        """Each action as an order, worded in the position it was applied in (for the
        mails: "the default was applied: ship 3 corn on the 5-ship")."""
        return [d.echo for d in self.decided]

    @property
    def seats(self) -> set[int]:
        """The seats that acted (their turns start afresh)."""
        return {seat for seat, _, _, _ in self.actions}


def key_text(key: DecisionKey) -> str:
    """The decision an order is kept for, as the store's unique key."""
    rnd = "-" if key.round is None else str(key.round)
    pick = "-" if key.pick is None else str(key.pick)
    return f"{key.seat}:{key.kind.value}:{rnd}:{pick}"


def _rekey(row: m.QueuedOrder, order: QueuedOrder) -> None:
    """The stored order's key as the order's now (tied to a phase, or not)."""
    text = key_text(order.key)
    if row.decision_key != text:
        row.decision_key = text
        row.parsed_json = json.dumps(order.to_dict())


# How many of the oldest waiting messages a worker looks at before it takes any game.
CLAIM_CANDIDATES = 50

# Statements of every message, built once (building a statement costs more than running
# it from SQLAlchemy's compiled cache).
_CANDIDATES = (
    select(m.InboundMessage.id, m.InboundMessage.game_id)
    .where(m.InboundMessage.status == m.MessageStatus.NEW)
    .order_by(m.InboundMessage.id)
    .limit(CLAIM_CANDIDATES)
)
_GAME_BY_TAG = select(m.Game.id).where(m.Game.tag == bindparam("tag"))
_INSERT_ACTIONS = insert(m.table_of(m.Action))


class Moderator:
    """Everything the daemon, the CLI and the tests do to games goes through here."""

    def __init__(
        self,
        config: Config,
        factory: sessionmaker[Session],
        clock: Callable[[], datetime] = m.utcnow,
        autopilot: Autopilot | None = None,
    ) -> None:
        config.require_secret()  # nothing that signs runs without one
        self.config = config
        self.factory = factory
        self.clock = clock
        self.mailer = Mailer(config, clock)
        # Who decides for a seat when the moderator must: one place names the player.
        self.autopilot = autopilot or configured(config.autopilot)

    # -- intake ------------------------------------------------------------------

    def ingest(
        self,
        raw: bytes,
        *,
        source: m.MessageSource,
        mailbox: str | None = None,
        uidvalidity: int | None = None,
        uid: int | None = None,
    ) -> int | None:
        """Record a raw message durably (before anything else); None if already recorded
        (same Message-ID, same bytes, or same mailbox UID)."""
        with self.factory.begin() as session:
            return self.ingest_in(
                session, raw, source=source, mailbox=mailbox, uidvalidity=uidvalidity, uid=uid
            )

    def ingest_in(
        self,
        session: Session,
        raw: bytes,
        *,
        source: m.MessageSource,
        mailbox: str | None = None,
        uidvalidity: int | None = None,
        uid: int | None = None,
    ) -> int | None:
        """ingest() in the caller's transaction (a batch of mails in one commit)."""
        env = parse_envelope(raw, max_bytes=self.config.caps.mail_bytes)
        return record_inbound(
            session,
            raw,
            source=source,
            message_id=env.message_id,
            mailbox=mailbox,
            uidvalidity=uidvalidity,
            uid=uid,
            sender=env.from_address,
            game_id=self._route_game(session, env),
        )

    def _route_game(self, session: Session, env: Envelope) -> int | None:
        """Which game a message belongs to (not yet who sent it): the signed reply
        address it was sent to, else the tag in the subject."""
        tag: str | None = None
        for address in env.recipients:
            token = read_reply_address(address, self.config.moderator.address, self.config.secret)
            if token is not None:
                tag = token.tag
                break
        if tag is None:
            tag = subject_tag(env.subject)
        if tag is None:
            # A new mail without a tag from a player of exactly one game is for that
            # game (where it still has to prove its seat, and is told how if it can't).
            games = self._games_of(session, env.from_address)
            return games[0][0] if len(games) == 1 else None
        return session.scalar(_GAME_BY_TAG, {"tag": tag})

    @staticmethod
    def _games_of(session: Session, address: str | None) -> list[tuple[int, str]]:
        """The active games in which ``address`` holds a seat: (id, tag)."""
        if not address:
            return []
        rows = session.execute(
            select(m.Game.id, m.Game.tag)
            .join(m.Seat, m.Seat.game_id == m.Game.id)
            .where(
                m.Seat.address == address.lower(),
                m.Seat.active.is_(True),
                m.Game.status == m.GameStatus.ACTIVE,
            )
            .distinct()
            .order_by(m.Game.id)
        )
        return [(game_id, tag) for game_id, tag in rows]

    # -- processing ----------------------------------------------------------------

    def process_next(self, worker: str = "worker") -> bool:
        """Process the oldest waiting message of one game no other worker holds (or one
        message that belongs to no game). False when nothing is waiting."""
        return self.process_one(worker)[0]

    def process_one(self, worker: str = "worker") -> tuple[bool, int | None]:
        """process_next(), and which message it handled: (False, None) when nothing is
        waiting, else (True, the message's id; None if processing failed before one was
        taken)."""
        started = time.perf_counter()
        try:
            with self.factory.begin() as session:
                claimed = self._claim(session)
                if claimed is None:
                    return False, None
                message, game_row = claimed
                message.claimed_by = worker
                message.claimed_at = self.clock()
                message.attempts += 1
                self._process(session, message, game_row)
                tag = None if game_row is None else game_row.tag
        except Exception as exc:  # roll back, keep the message and the error aside
            if is_outage(exc):
                # The database went away (or its disk filled): the message is not at
                # fault and stays waiting; the caller waits the outage out.
                raise
            log.exception("processing failed")
            failed: int | None = getattr(exc, "inbound_id", None)
            self._fail(message_id=failed, error=traceback.format_exc())
            return True, failed
        log_processed(message, tag, started)
        return True, message.id

    def process_all(self, worker: str = "worker") -> int:
        count = 0
        while self.process_next(worker):
            count += 1
        return count

    def _claim(self, session: Session) -> tuple[m.InboundMessage, m.Game | None] | None:
        """Take the oldest waiting message no other worker holds: its game is locked (SKIP
        LOCKED) and only that game's oldest message is taken, so the messages of one game
        are applied in arrival order, one worker at a time, and no game (nor a message
        that belongs to none) waits behind others that keep receiving mail. Returns the
        message and its game, locked for this transaction (None: a message of no game)."""
        new = m.InboundMessage.status == m.MessageStatus.NEW
        # The oldest waiting messages (index on status, id), tried in order; the games
        # other workers hold are skipped.
        candidates = session.execute(_CANDIDATES).all()
        tried: set[int] = set()
        for message_id, game_id in candidates:
            if game_id is None:
                message = session.scalars(
                    select(m.InboundMessage)
                    .where(m.InboundMessage.id == message_id, new)
                    .with_for_update(skip_locked=True)
                ).first()
                if message is not None:
                    return message, None
                continue
            if game_id in tried:
                continue
            tried.add(game_id)
            game = lock_game(session, game_id, skip_locked=True)
            if game is None:
                continue  # another worker has this game
            # The first candidate of a game is its oldest waiting message, unless another
            # worker processed it before we had the lock.
            message = session.get(m.InboundMessage, message_id, with_for_update=True)
            if message is None or message.status is not m.MessageStatus.NEW:
                message = self._oldest_of_game(session, game_id)
            if message is not None:
                return message, game
        if len(candidates) < CLAIM_CANDIDATES:
            return None
        # Every one of the oldest is held by other workers: any game with waiting mail.
        waiting = (
            select(m.InboundMessage.id).where(m.InboundMessage.game_id == m.Game.id, new).exists()
        )
        held = session.scalar(
            select(m.Game.id).where(waiting).limit(1).with_for_update(skip_locked=True)
        )
        # Held now: read with its seats and snapshot as the last holder left them.
        game = None if held is None else lock_game(session, held)
        if game is not None:
            message = self._oldest_of_game(session, game.id)
            return None if message is None else (message, game)
        message = self._claim_loose(session)
        return None if message is None else (message, None)

    @staticmethod
    def _oldest_of_game(session: Session, game_id: int) -> m.InboundMessage | None:
        """The oldest waiting message of a game the caller has locked."""
        return session.scalars(
            select(m.InboundMessage)
            .where(
                m.InboundMessage.game_id == game_id,
                m.InboundMessage.status == m.MessageStatus.NEW,
            )
            .order_by(m.InboundMessage.id)
            .limit(1)
            .with_for_update()
        ).first()

    @staticmethod
    def _claim_loose(session: Session) -> m.InboundMessage | None:
        """The oldest waiting message that belongs to no game."""
        return session.scalars(
            select(m.InboundMessage)
            .where(
                m.InboundMessage.game_id.is_(None),
                m.InboundMessage.status == m.MessageStatus.NEW,
            )
            .order_by(m.InboundMessage.id)
            .limit(1)
            .with_for_update(skip_locked=True)
        ).first()

    def _fail(self, message_id: int | None, error: str) -> None:
        """Mark the message failed in a fresh transaction, and tell the operator; nothing
        else of it is kept."""
        if message_id is None:
            return
        with self.factory.begin() as session:
            row = session.get(m.InboundMessage, message_id)
            if row is not None:
                row.status = m.MessageStatus.FAILED
                row.outcome = m.Outcome.FAILED
                row.error = error[-4000:]
                last = error.strip().splitlines()[-1] if error.strip() else "unknown error"
                notify_operator(
                    session,
                    m.NoteKind.PROCESSING_FAILED,
                    f"message {row.id} from {row.sender or 'an unknown sender'}: {last}",
                    game_id=row.game_id,
                )

    def _process(
        self, session: Session, message: m.InboundMessage, game_row: m.Game | None
    ) -> None:
        try:
            self._process_inner(session, message, game_row)
        except Exception as exc:
            exc.inbound_id = message.id  # type: ignore[attr-defined]
            raise

    def _process_inner(
        self, session: Session, message: m.InboundMessage, game_row: m.Game | None
    ) -> None:
        """``game_row``: the message's game, locked by _claim in this transaction."""
        env = parse_envelope(message.raw, max_bytes=self.config.caps.mail_bytes)
        now = self.clock()
        message.processed_at = now
        message.status = m.MessageStatus.DONE
        if env.is_automatic:
            # RFC 3834: never answer automatic mail (auto-replies, bounces, lists).
            message.status = m.MessageStatus.IGNORED
            message.outcome = m.Outcome.AUTOMATIC
            message.error = f"automatic mail: {env.automatic_reason}"
            return
        if is_own_mail(env, [self.config.moderator.address]):
            message.status = m.MessageStatus.IGNORED
            message.outcome = m.Outcome.OWN_MAIL
            message.error = "our own mail"
            return
        if game_row is None:
            message.status = m.MessageStatus.IGNORED
            message.outcome = m.Outcome.NO_GAME
            message.error = "no game"
            # A reply address of ours that does not verify names no game we can trust.
            self._forged(env, message, None)
            games = [tag for _, tag in self._games_of(session, env.from_address)]
            self.mailer.unknown_sender(session, env, message, games)
            return
        seat = self._authenticate(session, game_row, env, message)
        if seat is None:
            message.status = m.MessageStatus.IGNORED
            if message.outcome is None:
                message.outcome = m.Outcome.NOT_AUTHENTICATED
            if message.error is None:
                message.error = "not authenticated"
            log.warning(
                "refused sender=%s game=%s reason=%r",
                env.from_address,
                game_row.tag,
                message.error,
            )
            return
        message.seat_index = seat.seat_index
        game = self.load(session, game_row)
        if game_row.status is not m.GameStatus.ACTIVE:
            message.outcome = m.Outcome.GAME_NOT_ACTIVE
            self.mailer.notice(
                session,
                game_row,
                game,
                seat,
                env,
                message,
                f"{game_row.tag} is {game_row.status.value}: your mail changed nothing.",
                [
                    "The game is finished; thank you for playing."
                    if game_row.status is m.GameStatus.FINISHED
                    else "Orders are read again when the moderator resumes the game."
                ],
            )
            return
        before = asked(game, game_row)
        # Bounded work (service/caps.py): whatever the mail holds, only so much is read.
        caps = self.config.caps
        bounded = bound_text(env.text, caps, cut=env.cut)
        env = replace(env, text=bounded.text)
        idx, round_ = seat.seat_index, game.state.round
        replayed: dict[DecisionKind, str | None] = {}

        def done(kind: DecisionKind) -> str | None:
            if kind not in replayed:  # a replay each: once per kind and mail
                replayed[kind] = self._done(session, game_row, idx, kind, round_)
            return replayed[kind]

        report = check_mail(env.text, game, idx, done=done)
        report.services, unanswered = bound_services(report.services, caps)
        said = mail_preference(seat, report.services)
        applied = Applied()
        for accepted in report.accepted:
            if accepted.action is not None:
                # The steps of one turn, with only forced moves between (check_mail).
                while accepted.action not in game.legal_actions(seat.seat_index):
                    if not self._force(game, applied):
                        raise AssertionError(f"{accepted.action!r} is not legal")
                self._apply(
                    game,
                    seat.seat_index,
                    accepted.action,
                    m.ActorKind.PLAYER,
                    applied,
                    accepted.text,
                )
        applied.from_mail = len(applied.actions)
        movers = self._absence(game_row, seat, report)
        self._store_queue(session, game_row, report, message)
        message.applied = len(applied.actions) + (1 if absence_done(report) else 0)
        message.outcome = outcome_of(report, message.applied)
        kept = self._advance(session, game_row, game, applied)
        kept = self._settle(session, game_row, game, applied, kept, message, movers=movers)
        told(report, applied, message.id)
        answer = Answer(seat, env, message, report, report.services, said)
        # A mail of nothing but "help" or "history" gets only that answer.
        only_services = report.services and not answer.wants_board
        only_services = only_services and not (report.accepted or report.errors)
        self.mailer.after_run(
            session,
            game_row,
            game,
            applied,
            before,
            answer=None if only_services else answer,
            kept=kept,
        )
        if report.services:
            wants_history = any(isinstance(c, HistoryCmd) for c in report.services)
            history = self.history(session, game_row) if wants_history else []
            self.mailer.services(
                session, game_row, game, seat, env, message, report.services, history
            )
        if bounded.ignored or unanswered:
            self.mailer.notice(
                session,
                game_row,
                game,
                seat,
                env,
                message,
                f"{game_row.tag}: part of your mail was not read",
                ignored_notice([*bounded.ignored, *unanswered]),
            )

    def _absence(self, game_row: m.Game, seat: m.Seat, report: Report) -> set[int]:
        """The seat's standing with the clock after his mail: his absence order carried out
        ("away ..." begins or moves his absence, "back" ends it; one that cannot be is an
        error in the answer and changes nothing); any other order of his ends his absence;
        any order at all his run of missed deadlines. The seats whose turn starts afresh
        because of it."""
        order = report.absence
        if not report.accepted and order is None:
            return set()
        seat.missed_deadlines = 0
        was_away = self.away(seat)
        if order is not None and isinstance(order.command, AwayCmd):
            try:
                end = self._away_end(seat, order.command)
            except AbsenceError as exc:
                error = IllegalOrder(str(exc)).at(order.line, order.line_no)
                report.errors.append(error.with_legal(report.legal))
                order = None
            else:
                seat.away_until = end
                autopilot = game_row.absence_policy is m.AbsencePolicy.AUTOPILOT
                absence = Absence(end, seat.timezone, autopilot)
                order.meaning = f"away {absence_text(absence, own=True)}"
                return {seat.seat_index}
        if order is not None:  # back
            order.meaning = "back" if was_away else "back (you were not away)"
        elif not report.accepted:
            return set()
        seat.away_until = None
        return {seat.seat_index} if was_away else set()

    def _away_end(self, seat: m.Seat, command: AwayCmd) -> datetime:
        """When the absence a player orders ends (AbsenceError: it cannot be)."""
        if command.days is not None:
            return self.absence_until(seat, days=command.days)
        today = self.clock().astimezone(zone_of(seat.timezone)).date()
        return self.absence_until(seat, until=return_day(command, today))

    def absence_until(
        self, seat: m.Seat, *, days: int | None = None, until: date | None = None
    ) -> datetime:
        """When an absence of the seat's player announced now ends: ``days`` later, or at
        the start of the day ``until`` in his zone (AbsenceError: it cannot be)."""
        return absence_end(
            self.clock(),
            zone_of(seat.timezone),
            self.config.deadlines.longest_absence_days,
            days=days,
            until=until,
        )

    # -- authentication ------------------------------------------------------------

    def _authenticate(
        self, session: Session, game_row: m.Game, env: Envelope, message: m.InboundMessage
    ) -> m.Seat | None:
        """A signed reply address proves the seat; otherwise the seat's password must be
        in the mail. A From address alone never moves a seat."""
        seats = {s.seat_index: s for s in game_row.active_seats()}
        outdated = False  # a signed address of this game, of an earlier key generation
        for address in env.recipients:
            token = read_reply_address(address, self.config.moderator.address, self.config.secret)
            if token is not None and token.tag == game_row.tag:
                seat = seats.get(token.seat)
                if seat is not None and seat.mac_key_id == token.key_id:
                    return seat
                outdated = True
        self._forged(env, message, game_row.tag)
        sender = (env.from_address or "").lower()
        secret = password_line(env.text)
        limits = self.config.limits
        hour_ago = self.clock() - timedelta(hours=1)
        recent = session.scalar(
            select(func.count(m.AuthFailure.id)).where(
                m.AuthFailure.sender == sender, m.AuthFailure.created_at >= hour_ago
            )
        )
        if (recent or 0) >= limits.auth_failures_per_sender_per_hour:
            message.error = "rate limited"
            return None
        if secret:
            # The sender's own seat first, then the others (a player writing from
            # another address still needs the password).
            order = sorted(seats.values(), key=lambda s: s.address != sender)
            for seat in order:
                seat_failures = session.scalar(
                    select(func.count(m.AuthFailure.id)).where(
                        m.AuthFailure.game_id == game_row.id,
                        m.AuthFailure.seat_index == seat.seat_index,
                        m.AuthFailure.created_at >= hour_ago,
                    )
                )
                if (seat_failures or 0) >= limits.auth_failures_per_seat_per_hour:
                    continue
                if seat.check_secret(secret):
                    return seat
        guessed = next((s for s in seats.values() if s.address == sender), None)
        session.add(
            m.AuthFailure(
                sender=sender,
                game_id=game_row.id,
                seat_index=None if guessed is None else guessed.seat_index,
                inbound_message_id=message.id,
                reason="bad password" if secret else "no signed address or password",
            )
        )
        session.flush()
        if secret:
            refusal = Refusal.BAD_PASSWORD
        else:
            refusal = Refusal.OLD_ADDRESS if outdated else Refusal.NO_CREDENTIALS
        self.mailer.refused(
            session,
            game_row,
            self.load(session, game_row),
            env,
            message,
            refusal,
            had_password=bool(secret),
            seat=guessed,
        )
        return None

    def _forged(self, env: Envelope, message: m.InboundMessage, tag: str | None) -> None:
        """Record and log (WARNING) a reply address of ours that we never signed."""
        for address in env.recipients:
            if read_reply_address(
                address, self.config.moderator.address, self.config.secret
            ) is None and forged_reply_address(address, self.config.moderator.address):
                log.warning(
                    "forged reply address to=%s sender=%s game=%s",
                    address,
                    env.from_address,
                    tag or "-",
                )
                message.outcome = m.Outcome.FORGED
                message.error = f"forged reply address {address}"
                return

    # -- the game --------------------------------------------------------------------

    def load(self, session: Session, game_row: m.Game) -> Game:
        """The game from its snapshot (the log is the truth; the snapshot its cache)."""
        snapshot = game_row.snapshot
        if snapshot is None or snapshot.seq != game_row.version:
            return self.rebuild(session, game_row)
        return Game.from_json(snapshot.state_json)

    @staticmethod
    def start(game_row: m.Game) -> Game:
        """The game as it began: the seed's setup, or the position it was created from;
        the seats named as they are now (a replacement may bring a new name)."""
        names = [s.name for s in sorted(game_row.active_seats(), key=lambda s: s.seat_index)]
        if game_row.initial_state is None:
            return Game.new(names, game_row.seed)
        game = Game.from_json(game_row.initial_state)
        for player, name in zip(game.state.players, names, strict=True):
            player.name = name
        return game

    def rebuild(self, session: Session, game_row: m.Game) -> Game:
        """Replay the whole log from the start (the snapshot is only a cache of this).
        ReplayError: the log does not replay, saying where (never expected: the log is the
        truth; the mail that needed it fails, and the operator is told this)."""
        game = self.start(game_row)
        for seq, (seat, action, _) in enumerate(self.logged(session, game_row), 1):
            try:
                game.apply(seat, action)
            except IllegalAction as exc:
                raise ReplayError(
                    f"{game_row.tag} (game {game_row.id}, version {game_row.version}, "
                    f"{len(game.state.players)} seats) does not replay its log: action {seq}, "
                    f"seat {seat}, {json.dumps(action_to(action), sort_keys=True)}: {exc}"
                ) from exc
        return game

    @staticmethod
    def logged(session: Session, game_row: m.Game) -> Iterator[tuple[int, Action, m.ActorKind]]:
        """The game's log in order: who acted (-1: nobody's seat), the action, and who
        decided it."""
        rows = session.execute(
            select(m.Action.seat_index, m.Action.action_json, m.Action.actor)
            .where(m.Action.game_id == game_row.id)
            .order_by(m.Action.seq)
        )
        for seat, action_json, actor in rows:
            yield -1 if seat is None else seat, action_from(json.loads(action_json)), actor

    def _apply(
        self,
        game: Game,
        seat: int,
        action: Action,
        actor: m.ActorKind,
        applied: Applied,
        text: str | None = None,
        decided: Decided | None = None,
    ) -> None:
        applied.decided.append(decided or Decided.of(game, seat, action))
        applied.events.extend(game.apply(seat, action))
        applied.actions.append((seat, action, actor, text))

    def _store_queue(
        self, session: Session, game_row: m.Game, report: Report, message: m.InboundMessage
    ) -> None:
        """The last order received for a decision replaces earlier ones."""
        for item in report.queued:
            key = key_text(item.key)
            session.execute(
                update(m.QueuedOrder)
                .where(
                    m.QueuedOrder.game_id == game_row.id,
                    m.QueuedOrder.seat_index == item.key.seat,
                    m.QueuedOrder.decision_key == key,
                    m.QueuedOrder.superseded.is_(False),
                    m.QueuedOrder.applied_at.is_(None),
                )
                .values(superseded=True)
            )
            session.add(
                m.QueuedOrder(
                    game_id=game_row.id,
                    seat_index=item.key.seat,
                    decision_key=key,
                    order_text=item.text,
                    parsed_json=json.dumps(item.to_dict()),
                    inbound_message_id=message.id,
                )
            )
        if report.queued:
            session.flush()

    def _advance(self, session: Session, game_row: m.Game, game: Game, applied: Applied) -> Kept:
        """Apply forced decisions and kept orders until someone must be asked; the kept
        orders still waiting. A kept order is used at its decision or dropped (and the
        player told): when that decision is taken otherwise, when it cannot be done, when
        its phase ends without it (orders.queue.advance, the corpus's path too)."""
        now = self.clock()
        let_go: list[m.QueuedOrder] = []  # rows no longer waiting

        def act(step: Step[m.QueuedOrder]) -> None:
            text = None
            if step.used is not None:
                row, q = step.used
                row.applied_at = now
                _rekey(row, q)
                let_go.append(row)
                applied.kept[len(applied.actions)] = row.inbound_message_id
                text = q.text
            actor = m.ActorKind.FORCED if step.forced else m.ActorKind.PLAYER
            self._apply(game, step.seat, step.action, actor, applied, text, step.decided)

        line = advance(game, kept_orders(session, game_row.id), applied.decided, act)
        for row, q, reason in line.dropped:
            row.superseded = True
            _rekey(row, q)
            let_go.append(row)
            if reason:
                applied.dropped.append((q.key.seat, q.text, reason, row.inbound_message_id))
        # A waiting order tied to the phase in progress is stored with its new key, after
        # the rows let go are written (one waiting order per decision).
        moved = [(row, q) for row, q in line.kept if row.decision_key != key_text(q.key)]
        if moved and let_go:
            session.flush()
        for row, q in moved:
            _rekey(row, q)
        return line.kept

    def _done(
        self, session: Session, game_row: m.Game, seat: int, kind: DecisionKind, round_: int
    ) -> str | None:
        """What ``seat`` ordered (or had done for him) in his ``kind`` decisions of round
        ``round_``, as orders; None if nothing. Replays the log: asked only of an order for
        a decision this round has already asked (a resent mail)."""
        game = self.start(game_row)
        echoes: list[str] = []
        for who, action, _ in self.logged(session, game_row):
            if who == seat and game.state.round == round_ and game.kind() is kind:
                echoes.append(format_action(action, game, seat))
            game.apply(who, action)
        return "; ".join(echoes) or None

    def _force(self, game: Game, applied: Applied) -> bool:
        """Apply the first move forced on anyone (only one choice); False if none is."""
        decision = next((d for d in game.decisions() if d.forced), None)
        if decision is None:
            return False
        self._apply(game, decision.seat, decision.actions[0], m.ActorKind.FORCED, applied)
        return True

    def _commit_game(
        self,
        session: Session,
        game_row: m.Game,
        game: Game,
        applied: Applied,
        message: m.InboundMessage | None,
        *,
        flush: bool = True,
    ) -> None:
        """Append to the log and refresh the snapshot, in the caller's transaction (and
        flush, unless the caller has more to change first)."""
        if not applied.changed:
            return
        first = game_row.version + 1
        # Plain INSERTs, all in one statement: the log rows are not read back as objects.
        session.connection().execute(
            _INSERT_ACTIONS,
            [
                {
                    "game_id": game_row.id,
                    "seq": seq,
                    "seat_index": seat,
                    "action_json": json.dumps(action_to(action), sort_keys=True),
                    "order_text": text,
                    "actor": actor,
                    "inbound_message_id": None if message is None else message.id,
                }
                for seq, (seat, action, actor, text) in enumerate(applied.actions, first)
            ],
        )
        seq = first + len(applied.actions) - 1
        game_row.version = seq
        state = game.to_json()
        if game_row.snapshot is None:
            session.add(m.Snapshot(game_id=game_row.id, seq=seq, state_json=state))
        else:
            game_row.snapshot.seq = seq
            game_row.snapshot.state_json = state
        game_row.last_message_at = self.clock()
        if game.over:
            game_row.status = m.GameStatus.FINISHED
        if flush:
            session.flush()

    # -- service commands -------------------------------------------------------------

    def history(self, session: Session, game_row: m.Game) -> list[str]:
        """The game so far, replayed from the log: a heading for each round, then what
        happened in it, one line per event (archive.log)."""
        log = game_log(self.start(game_row), self.logged(session, game_row))
        return log.text()

    # -- turns: each deciding seat's deadline, and what is done for him then -------------

    def _settle(
        self,
        session: Session,
        game_row: m.Game,
        game: Game,
        applied: Applied,
        kept: Kept,
        message: m.InboundMessage | None,
        *,
        movers: Collection[int] = (),
    ) -> Kept:
        """After a change in memory: the seats the autopilot plays for now are played, the
        change is logged, and the turns are brought in line with the position. ``movers``:
        seats whose turn starts afresh though they did not act (an absence began or ended,
        a new player). The mails come after (_mail_change)."""
        kept = self._play_absent(session, game_row, game, applied, kept)
        self._commit_game(session, game_row, game, applied, message, flush=False)
        if applied.changed or movers:
            self._schedule(game_row, game, movers={*movers, *applied.seats})
        session.flush()  # once for the log, the game and its turns
        return kept

    def mark_absence(
        self, session: Session, game_row: m.Game, game: Game, seat: m.Seat, until: datetime | None
    ) -> None:
        """The seat's player is away until ``until`` (None: back): his turn starts afresh
        under the game's absence policy (the autopilot may play for him at once), and the
        mails of what that did go out."""
        before = asked(game, game_row)
        seat.away_until = until
        applied = Applied()
        kept = self._advance(session, game_row, game, applied)
        kept = self._settle(session, game_row, game, applied, kept, None, movers={seat.seat_index})
        self.mailer.after_run(session, game_row, game, applied, before, kept=kept)

    def away(self, seat: m.Seat) -> bool:
        """The seat's player said he is away, and is not back yet."""
        return seat.away_until is not None and seat.away_until > self.clock()

    def _autopiloted(self, game_row: m.Game, seat: m.Seat) -> bool:
        """The autopilot plays for this seat now: he is away, in a game whose policy is
        that the autopilot plays for absent players."""
        return game_row.absence_policy is m.AbsencePolicy.AUTOPILOT and self.away(seat)

    def _play_absent(
        self, session: Session, game_row: m.Game, game: Game, applied: Applied, kept: Kept
    ) -> Kept:
        """Absent players' decisions are taken at once by an inline autopilot (the planner
        takes them, one by one, when the autopilot must think off the mail path)."""
        if not self.autopilot.inline:
            return kept
        away = {s.seat_index for s in game_row.active_seats() if self._autopiloted(game_row, s)}
        while away and not game.over:
            seat = next((s for s in game.deciding() if s in away), None)
            if seat is None:
                break
            seq = game_row.version + len(applied.actions) + 1
            action = choose(self.autopilot, game, seat, autopilot_seed(game_row.seed, seq, seat))
            applied.absent.add(len(applied.actions))
            self._apply(game, seat, action, m.ActorKind.AUTOPILOT, applied)
            kept = self._advance(session, game_row, game, applied)
        return kept

    def _schedule(
        self,
        game_row: m.Game,
        game: Game,
        *,
        movers: Collection[int] = (),
        decide_now: bool = False,
    ) -> None:
        """A turn for each seat that must decide now, none for the others. A seat facing the
        same decision as before, who did not act (``movers``) and whose absence did not
        change, keeps his turn: its deadline and the action it announced. The game's
        deadline_at and reminder_at are the earliest of its turns'."""
        active = game_row.status is m.GameStatus.ACTIVE and not game.over
        deciding = game.deciding() if active else ()
        before = {t.seat: t for t in game_row.turns}
        seats = {s.seat_index: s for s in game_row.active_seats()}
        decision = f"{game.state.round}:{game.kind()}"
        turns = []
        for idx in deciding:
            absent = self._autopiloted(game_row, seats[idx])
            turn = before.get(idx)
            if turn is None or idx in movers or not self._still(turn, game, decision, absent):
                turn = self._begin_turn(game_row, game, seats[idx], decision, absent, decide_now)
            turns.append(turn)
        game_row.turns = turns
        self._mark_clock(game_row, turns)

    def reschedule(
        self, game_row: m.Game, game: Game, seats: Collection[int] | None = None
    ) -> None:
        """Fresh turns for ``seats`` (None: every seat), their deadline actions decided here
        and now: for the operator's commands (new game, resume, undo, replace), which run
        off the mail path. A paused game has no turns."""
        everyone = range(len(game.names))
        self._schedule(game_row, game, movers=everyone if seats is None else seats, decide_now=True)

    @staticmethod
    def _still(turn: m.Turn, game: Game, decision: str, absent: bool) -> bool:
        """The turn still stands: the same decision, and its action still legal."""
        if turn.decision != decision or turn.absent != absent:
            return False
        if turn.action is None:
            return True
        return action_from(json.loads(turn.action)) in game.legal_actions(turn.seat)

    def _begin_turn(
        self,
        game_row: m.Game,
        game: Game,
        seat: m.Seat,
        decision: str,
        absent: bool,
        decide_now: bool = False,
    ) -> m.Turn:
        """A fresh turn: its deadline on the seat's own clock, and what is done then,
        decided here unless the autopilot must think off the mail path (``decide_now``:
        here in any case)."""
        now = self.clock()
        due: datetime | None = now
        remind: datetime | None = None
        if not absent:
            start = now
            stretch = game_row.absence_policy is m.AbsencePolicy.STRETCH
            if stretch and self.away(seat) and seat.away_until is not None:
                start = seat.away_until  # his clock starts when he is back
            times = self._times(game_row, seat, start)
            due, remind = times.due_at, times.remind_at
        actor, action = self._deadline_action(game_row, game, seat.seat_index, absent)
        inline = decide_now or self.autopilot.inline
        if actor is m.ActorKind.AUTOPILOT and action is None and inline:
            seed = autopilot_seed(game_row.seed, game_row.version + 1, seat.seat_index)
            action = choose(self.autopilot, game, seat.seat_index, seed)
        return m.Turn(
            seat=seat.seat_index,
            decision=decision,
            version=game_row.version,
            due_at=due,
            remind_at=remind,
            actor=actor,
            action=None if action is None else json.dumps(action_to(action), sort_keys=True),
            absent=absent,
        )

    @staticmethod
    def _times(game_row: m.Game, seat: m.Seat, start: datetime) -> DueTimes:
        """The deadline and reminder of a decision of ``seat`` whose clock starts at
        ``start``, under the game's rules, on the seat's own clock."""
        schedule = Schedule(
            game_row.deadline_hours,
            game_row.reminder_hours,
            game_row.weekend_pause,
            zone_of(seat.timezone),
        )
        return due_times(schedule, start)

    @staticmethod
    def _deadline_action(
        game_row: m.Game, game: Game, seat: int, absent: bool
    ) -> tuple[m.ActorKind | None, Action | None]:
        """Who acts for the seat at his deadline, and the action where it needs no thought:
        the published default under the "default" policy; the autopilot where the rules
        publish none, always under the "autopilot" policy, and for an absent player;
        nobody under "wait"."""
        if absent:
            return m.ActorKind.AUTOPILOT, None
        policy = game_row.deadline_action
        if policy is m.DeadlineAction.WAIT:
            return None, None
        if policy is m.DeadlineAction.DEFAULT:
            action = default_action(game, seat)
            if action is not None:
                return m.ActorKind.DEFAULT, action
        return m.ActorKind.AUTOPILOT, None

    @staticmethod
    def _mark_clock(game_row: m.Game, turns: Sequence[m.Turn] | None = None) -> None:
        """The game's next deadline and reminder (the clock's indexed columns): the earliest
        of its turns' (a turn the autopilot has yet to decide waits for the planner)."""
        turns = game_row.turns if turns is None else turns
        dues = [t.due_at for t in turns if t.due_at is not None and not t.undecided]
        reminders = [t.remind_at for t in turns if t.remind_at is not None]
        game_row.deadline_at = min(dues, default=None)
        game_row.reminder_at = min(reminders, default=None)

    def _missed(self, session: Session, game_row: m.Game, seats: Sequence[int]) -> None:
        """These seats' deadlines passed with no order: one more in a row each; the
        operator is told when a seat's run reaches the configured count (the seat's own
        mails say so from the first)."""
        limit = self.config.deadlines.missed_before_operator
        for seat in game_row.active_seats():
            if seat.seat_index not in seats:
                continue
            seat.missed_deadlines += 1
            if seat.missed_deadlines == limit:
                notify_operator(
                    session,
                    m.NoteKind.DEADLINES_MISSED,
                    f"seat {seat.seat_index + 1} ({seat.name} <{seat.address}>) missed "
                    f"{limit} deadlines in a row; `moderator game replace {game_row.tag} "
                    f"{seat.seat_index + 1} ADDRESS` hands the seat to another player",
                    game_id=game_row.id,
                )

    # -- the clock ----------------------------------------------------------------------

    def tick(self) -> int:
        """Send the reminders due and apply the deadline actions due, as announced; returns
        the games touched."""
        now = self.clock()
        touched = 0
        with self.factory.begin() as session:
            due = session.scalars(
                select(m.Game.id).where(
                    m.Game.status == m.GameStatus.ACTIVE,
                    (m.Game.reminder_at <= now) | (m.Game.deadline_at <= now),
                )
            ).all()
        for game_id in due:
            with self.factory.begin() as session:
                # Locked, and read again: another worker's tick may have been first.
                game_row = lock_game(session, game_id)
                if game_row is None or game_row.status is not m.GameStatus.ACTIVE:
                    continue
                self._clock_game(session, game_row, self.load(session, game_row))
                touched += 1
        return touched

    def _clock_game(self, session: Session, game_row: m.Game, game: Game) -> None:
        """The game's reminders due, then the actions of its turns due, each as its mails
        announced it (the wait policy: one more reminder, a deadline missed, and the game
        waits, with a fresh deadline)."""
        now = self.clock()
        if game_row.turns_json is None and not game.over:
            self._adopt(game_row, game)
        turns = list(game_row.turns)
        due = [t for t in turns if t.due_at is not None and t.due_at <= now and not t.undecided]
        # A reminder goes out before the deadline, not with the action taken at it. Under
        # the wait policy the deadline passes with one more reminder: a deadline missed,
        # and the seat's next one runs from now (so a seat that never answers reaches the
        # operator after missed_before_operator of them), while the game waits for him.
        remind = {
            t.seat
            for t in turns
            if t.remind_at is not None and t.remind_at <= now and (t.due_at or now) > now
        }
        waited = {t.seat for t in due if t.actor is None}
        remind |= waited
        if remind:
            seats = {s.seat_index: s for s in game_row.active_seats()}
            renewed = []
            for t in turns:
                if t.seat in waited:
                    times = self._times(game_row, seats[t.seat], now)
                    t = replace(t, due_at=times.due_at, remind_at=times.remind_at)
                elif t.seat in remind:
                    t = replace(t, remind_at=None)
                renewed.append(t)
            game_row.turns = renewed
            self._missed(session, game_row, sorted(waited))
            self.mailer.reminders(session, game_row, game, now, remind)
        applied = Applied()
        before = asked(game, game_row)
        missed: list[int] = []
        for turn in due:
            if turn.actor is None or turn.action is None:
                continue
            action = action_from(json.loads(turn.action))
            if turn.seat not in game.deciding() or action not in game.legal_actions(turn.seat):
                # Turns are kept only while their action stays legal: not expected.
                log.error("game=%s seat=%d: deadline action not legal", game_row.tag, turn.seat)
                continue
            if turn.absent:
                applied.absent.add(len(applied.actions))
            else:
                missed.append(turn.seat)
            self._apply(game, turn.seat, action, turn.actor, applied)
        kept = None
        if applied.changed:
            self._missed(session, game_row, missed)
            kept = self._advance(session, game_row, game, applied)
            kept = self._settle(session, game_row, game, applied, kept, None)
            self.mailer.after_run(session, game_row, game, applied, before, kept=kept)
        else:
            self._mark_clock(game_row)
        if not game_row.planning:
            self.mailer.release(session, game_row, game)

    def _adopt(self, game_row: m.Game, game: Game) -> None:
        """A game from before turns were kept: its deciding seats' turns, due at the
        deadline its mails announced."""
        deadline, reminder = game_row.deadline_at, game_row.reminder_at
        self._schedule(game_row, game, decide_now=True)
        game_row.turns = [
            t if t.absent else replace(t, due_at=deadline, remind_at=reminder)
            for t in game_row.turns
        ]
        self._mark_clock(game_row)

    # -- the planner: the autopilot's decisions off the mail path ----------------------

    def undecided(self, limit: int = 20) -> list[PlanJob]:
        """Turns whose deadline action the autopilot has still to decide, with the
        position to decide it in."""
        with self.factory.begin() as session:
            rows = session.execute(
                select(
                    m.Game.id, m.Game.version, m.Game.seed, m.Game.turns_json, m.Snapshot.state_json
                )
                .join(m.Snapshot, m.Snapshot.game_id == m.Game.id)
                .where(
                    m.Game.planning.is_(True),
                    m.Game.status == m.GameStatus.ACTIVE,
                    m.Snapshot.seq == m.Game.version,
                )
                .order_by(m.Game.id)
                .limit(limit)
            ).all()
        return [
            PlanJob(game_id, version, t.seat, state, autopilot_seed(seed, version + 1, t.seat))
            for game_id, version, seed, turns_json, state in rows
            for t in m.Turn.load(turns_json)
            if t.undecided
        ]

    def decide(self, job: PlanJob) -> str:
        """The autopilot's action for a job (JSON); pure, and slow for a search player."""
        return decide(self.autopilot, job.state_json, job.seat, job.seed)

    def settle_decision(self, job: PlanJob, action_json: str) -> bool:
        """Store the autopilot's decision for a turn, unless the game moved meanwhile (its
        new turns are decided anew); then do what it makes possible: an absent player's
        move at once, the mails that wait for it. False when it came too late."""
        with self.factory.begin() as session:
            game_row = lock_game(session, job.game_id)
            if (
                game_row is None
                or game_row.status is not m.GameStatus.ACTIVE
                or game_row.version != job.version
            ):
                return False
            turn = game_row.turn_of(job.seat)
            if turn is None or not turn.undecided:
                return False
            game_row.turns = [
                replace(t, action=action_json) if t.seat == job.seat else t for t in game_row.turns
            ]
            self._clock_game(session, game_row, self.load(session, game_row))
            return True

    def plan_all(self) -> int:
        """Decide every turn the autopilot has still to decide, here and now (the command
        line and tests; the daemon's planner does it in another process). The number of
        decisions stored."""
        stored = 0
        while jobs := self.undecided():
            progressed = False
            for job in jobs:
                if self.settle_decision(job, self.decide(job)):
                    stored += 1
                    progressed = True
            if not progressed:
                break
        return stored


@dataclass(frozen=True, slots=True)
class PlanJob:
    """A turn for the autopilot to decide: the game at ``version``, as JSON."""

    game_id: int
    version: int
    seat: int
    state_json: str
    seed: int


def absence_done(report: Report) -> bool:
    """The mail's absence order was carried out."""
    return report.absence is not None and bool(report.absence.meaning)


def told(report: Report, applied: Applied, message_id: int) -> None:
    """The mail's orders kept for later that this same run used or dropped are told as
    what became of them, never also as kept: one used is done (and not told again as a
    kept order applied), one dropped is told by its note."""
    used = {applied.actions[i][3]: i for i, mail in applied.kept.items() if mail == message_id}
    dropped = {text for _, text, _, mail in applied.dropped if mail == message_id}
    out: list[Accepted] = []
    for a in report.accepted:
        kept = a.queued  # as stored: the text it was kept as
        if kept is not None and kept.text in used:
            i = used.pop(kept.text)
            applied.told.add(i)
            a = replace(a, action=applied.actions[i][1], key=None, meaning=applied.echoes[i])
        elif kept is not None and kept.text in dropped:
            continue
        out.append(a)
    report.accepted = out


def outcome_of(report: Report, applied: int) -> m.Outcome:
    """What a player's mail to his game came to (``applied``: its orders carried out, an
    absence order included)."""
    if applied:
        return m.Outcome.APPLIED
    if report.queued:
        return m.Outcome.KEPT
    if report.services and not report.errors:
        return m.Outcome.SERVICE
    return m.Outcome.ASKED_BACK


def log_processed(message: m.InboundMessage, tag: str | None, started: float) -> None:
    """The one line the log has for each message: where it went and what it came to."""
    seat = "-" if message.seat_index is None else str(message.seat_index + 1)
    outcome = message.outcome.value if message.outcome is not None else message.status.value
    log.info(
        "processed message=%d from=%s game=%s seat=%s outcome=%s orders=%d ms=%.1f",
        message.id,
        message.sender or "-",
        tag or "-",
        seat,
        outcome,
        message.applied or 0,
        (time.perf_counter() - started) * 1000,
    )
