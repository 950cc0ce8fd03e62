"""SQLAlchemy 2 typed models: games, seats, inbox, action log, snapshots, outbox, audit."""

from __future__ import annotations

import enum
import functools
import json
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Enum,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship, validates
from sqlalchemy.types import TypeDecorator

from .passwords import hash_secret, verify_secret

# Explicit names for every constraint and index, so migrations can refer to them
# and both backends agree. PostgreSQL truncates identifiers at 63 characters.
NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# Lengths shared with the migration.
ADDRESS_LEN = 320  # RFC 5321 4.5.3.1: 64 local part + @ + 255 domain
MESSAGE_ID_LEN = 998  # RFC 5322 2.1.1: the longest line a header may have
SHA256_HEX_LEN = 64


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that is always timezone-aware UTC in Python, on every backend.

    PostgreSQL stores ``timestamptz``; SQLite has no time zones, so values are
    stored as naive UTC text and get their ``tzinfo`` back when read.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: store timezone-aware UTC times")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class StringList(TypeDecorator[list[str]]):
    """A list of strings stored as a JSON array in a TEXT column."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: list[str] | None, dialect: Dialect) -> str | None:
        if value is None:
            return None
        return json.dumps(list(value), ensure_ascii=False)

    def process_result_value(self, value: str | None, dialect: Dialect) -> list[str] | None:
        if value is None:
            return None
        loaded = json.loads(value)
        return [str(item) for item in loaded]


# Surrogate keys of the tables that grow with traffic: 64-bit on PostgreSQL,
# plain INTEGER on SQLite (only "INTEGER PRIMARY KEY" is an auto-increment rowid).
BigIntId = BigInteger().with_variant(Integer(), "sqlite")


class GameVariant(enum.StrEnum):
    STANDARD = "standard"
    TWO_PLAYER = "two-player"


class GameStatus(enum.StrEnum):
    SETUP = "setup"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"
    ABORTED = "aborted"


class DeadlineAction(enum.StrEnum):
    """What the clock does when a decision's deadline passes."""

    DEFAULT = "default"  # apply the default announced in the last mail
    AUTOPILOT = "autopilot"  # let the autopilot bot decide
    WAIT = "wait"  # remind only; never decide for the player


class MailPreference(enum.StrEnum):
    """How much mail a seat wants (the player chooses it with an order)."""

    EVERY = "every"  # a mail for every change of the game
    TURNS = "turns"  # his own turns, and a summary at the end of each round


class AbsencePolicy(enum.StrEnum):
    """What a seat's absence ("away until 3 December") does to his decisions."""

    AUTOPILOT = "autopilot"  # the autopilot plays for him at once
    STRETCH = "stretch"  # his deadlines run from his return


class MessageSource(enum.StrEnum):
    IMAP = "imap"
    MAILDIR = "maildir"
    PIPE = "pipe"
    CLOCK = "clock"


class MessageStatus(enum.StrEnum):
    NEW = "new"
    PROCESSING = "processing"
    DONE = "done"
    IGNORED = "ignored"
    FAILED = "failed"


class Outcome(enum.StrEnum):
    """What became of a processed message: the log's line for it and `moderator inbox
    list` say this, beside the status."""

    APPLIED = "applied"  # at least one order applied (others may be kept for later)
    KEPT = "kept"  # orders kept for a later decision, none applied now
    ASKED_BACK = "asked-back"  # nothing applied: the player got an error and what he may order
    SERVICE = "service"  # only service commands (help, board, history ...)
    GAME_NOT_ACTIVE = "game-not-active"  # the game is paused or over: told so
    NOT_AUTHENTICATED = "not-authenticated"  # no valid signed address, no right password
    FORGED = "forged"  # a reply address of ours with a wrong signature
    NO_GAME = "no-game"  # not for any game: the sender got the explanation
    AUTOMATIC = "automatic"  # an auto-reply, bounce or list mail: never answered
    OWN_MAIL = "own-mail"  # one of our own mails came back
    FAILED = "failed"  # processing raised: rolled back, kept aside, the operator told


class NoteKind(enum.StrEnum):
    """What the operator is told about (grouped into one mail at most once an hour)."""

    PROCESSING_FAILED = "processing-failed"
    MAIL_REFUSED = "mail-refused"
    MAIL_STUCK = "mail-stuck"
    DAEMON_RESTARTED = "daemon-restarted"
    DEADLINES_MISSED = "deadlines-missed"


class ActorKind(enum.StrEnum):
    PLAYER = "player"
    FORCED = "forced"
    DEFAULT = "default"
    AUTOPILOT = "autopilot"
    ADMIN = "admin"


class OutboxStatus(enum.StrEnum):
    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"


def _enum(cls: type[enum.StrEnum], name: str) -> Enum:
    """A portable enum column: VARCHAR plus a CHECK constraint, storing the values."""
    return Enum(
        cls,
        name=name,
        native_enum=False,
        create_constraint=True,
        validate_strings=True,
        length=max(len(member.value) for member in cls),
        values_callable=lambda members: [member.value for member in members],
    )


class Base(DeclarativeBase):
    """Declarative base carrying the shared metadata and naming convention."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def table_of(model: type[Base]) -> Table:
    """A model's Core table, for plain INSERTs of rows nothing reads back as objects
    (the unit of work's bookkeeping costs more than the statement)."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


@dataclass(frozen=True, slots=True)
class Turn:
    """A seat's pending decision as the clock sees it: when it falls due, when he is
    reminded, and what the moderator does for him then. That action is decided once
    (by the autopilot off the mail path where it must think), announced in his mails,
    and applied as announced. Kept on the game row (``games.turns_json``), rewritten
    with every change; a seat still facing the same decision after another seat's move
    keeps his turn."""

    seat: int
    decision: str  # the decision it is for: "round:kind"
    version: int  # the game version when it began
    due_at: datetime | None  # None: no deadline runs
    remind_at: datetime | None  # None: reminded already, or no reminder
    # Who acts at due_at: DEFAULT or AUTOPILOT (with no action yet: the autopilot has
    # still to decide); None: nobody (the wait policy).
    actor: ActorKind | None
    action: str | None  # the action applied then, as the log stores it (JSON)
    absent: bool = False  # the seat is away and the autopilot plays for him now

    @property
    def undecided(self) -> bool:
        """The autopilot has still to decide what is done at the deadline."""
        return self.actor is ActorKind.AUTOPILOT and self.action is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decision": self.decision,
            "version": self.version,
            "due_at": None if self.due_at is None else self.due_at.isoformat(),
            "remind_at": None if self.remind_at is None else self.remind_at.isoformat(),
            "actor": None if self.actor is None else self.actor.value,
            "action": self.action,
            "absent": self.absent,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Turn:
        def when(value: str | None) -> datetime | None:
            return None if value is None else datetime.fromisoformat(value).astimezone(UTC)

        return cls(
            seat=int(data["seat"]),
            decision=str(data["decision"]),
            version=int(data["version"]),
            due_at=when(data["due_at"]),
            remind_at=when(data["remind_at"]),
            actor=None if data["actor"] is None else ActorKind(data["actor"]),
            action=data["action"],
            absent=bool(data["absent"]),
        )

    @staticmethod
    def dump(turns: Sequence[Turn]) -> str:
        return json.dumps([t.to_dict() for t in turns], sort_keys=True)

    @staticmethod
    @functools.lru_cache(maxsize=256)
    def load(text: str | None) -> tuple[Turn, ...]:
        """The turns stored as ``text`` (parsed once per distinct text: every mail of a
        change reads them)."""
        if not text:
            return ()
        return tuple(Turn.from_dict(item) for item in json.loads(text))


class Game(Base):
    """One game. ``version`` equals the seq of the last applied action.

    Every ORM UPDATE of a game carries ``WHERE version = <loaded value>``
    (SQLAlchemy ``version_id_col`` with the value managed by the service), so a
    writer working from a stale copy gets ``StaleDataError`` instead of
    overwriting another worker's move.
    """

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tag: Mapped[str] = mapped_column(String(32), unique=True)
    variant: Mapped[GameVariant] = mapped_column(_enum(GameVariant, "game_variant"))
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[GameStatus] = mapped_column(
        _enum(GameStatus, "game_status"), default=GameStatus.SETUP, index=True
    )
    deadline_hours: Mapped[int] = mapped_column(Integer, default=48)
    reminder_hours: Mapped[int] = mapped_column(Integer, default=12)
    deadline_action: Mapped[DeadlineAction] = mapped_column(
        _enum(DeadlineAction, "deadline_action"), default=DeadlineAction.DEFAULT
    )
    # When the pending decision falls due / its reminder goes out (None: nothing
    # pending). Set by the service; the clock scans these two indexed columns.
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    reminder_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    last_message_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The state JSON the game started from, when not the seed's own setup.
    initial_state: Mapped[str | None] = mapped_column(Text)
    absence_policy: Mapped[AbsencePolicy] = mapped_column(
        _enum(AbsencePolicy, "absence_policy"),
        default=AbsencePolicy.AUTOPILOT,
        server_default=AbsencePolicy.AUTOPILOT.value,
    )
    # Deadlines do not run on Saturdays and Sundays, in each seat's own time zone.
    weekend_pause: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Each deciding seat's turn (see Turn), as JSON; rewritten with every change.
    turns_json: Mapped[str | None] = mapped_column(Text)
    # Some turn waits for the autopilot to decide its deadline action: the planner's work
    # list; the mails that announce it wait too (the seats' ``unmailed``).
    planning: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game",
        order_by="Seat.seat_index",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )
    snapshot: Mapped[Snapshot | None] = relationship(
        back_populates="game", cascade="all, delete-orphan", passive_deletes=True
    )

    __table_args__ = (
        Index("ix_games_planning", "planning"),
        CheckConstraint("seed >= 0", name="seed_nonnegative"),
        CheckConstraint("version >= 0", name="version_nonnegative"),
        CheckConstraint("deadline_hours > 0", name="deadline_hours_positive"),
        CheckConstraint("reminder_hours >= 0", name="reminder_hours_nonnegative"),
    )
    # DeclarativeBase declares this as an instance attribute, so mypy refuses ClassVar.
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}  # noqa: RUF012

    def active_seats(self) -> list[Seat]:
        """The seats currently played, in seat order."""
        return [seat for seat in self.seats if seat.active]

    @property
    def turns(self) -> tuple[Turn, ...]:
        """The turns of the seats that must decide now, in seat order."""
        return Turn.load(self.turns_json)

    @turns.setter
    def turns(self, turns: Sequence[Turn]) -> None:
        ordered = sorted(turns, key=lambda t: t.seat)
        self.turns_json = Turn.dump(ordered) if ordered else None
        self.planning = any(t.undecided for t in ordered)

    def turn_of(self, seat_index: int) -> Turn | None:
        """The seat's pending decision as the clock sees it (None: he decides nothing now)."""
        return next((t for t in self.turns if t.seat == seat_index), None)


class Seat(Base):
    """Who plays seat ``seat_index`` (0-based, the engine's player index).

    Replacing a player keeps the old row (``active`` false, ``replaced_at``
    set) and adds a new active one; at most one active row per seat index.
    """

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_index: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    address: Mapped[str] = mapped_column(String(ADDRESS_LEN), index=True)
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    secret_hash: Mapped[str | None] = mapped_column(String(255))
    # Generation of the seat's signed reply address; the MAC covers it, so
    # bumping it (on replacement or a reset) invalidates every older address.
    mac_key_id: Mapped[int] = mapped_column(Integer, default=0)
    mail_preference: Mapped[MailPreference] = mapped_column(
        _enum(MailPreference, "mail_preference"),
        default=MailPreference.EVERY,
        server_default=MailPreference.EVERY.value,
    )
    # What happened since the seat's last mail and is still to be told in its next one,
    # as JSON {"events": [...], "notes": [...]} (None: nothing).
    unmailed: Mapped[str | None] = mapped_column(Text)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    replaced_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The player said he is away until then ("away until 3 December"); any order of
    # his ends it sooner.
    away_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Deadlines passed in a row with no order from him (the operator is told at the
    # configured count); an order sets it back to 0, a new player starts at 0.
    missed_deadlines: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    game: Mapped[Game] = relationship(back_populates="seats")

    __table_args__ = (
        CheckConstraint("seat_index >= 0", name="seat_index_nonnegative"),
        # A game's seats, for every order (the claim loads them with the game). The
        # partial index below serves only queries that also say "active".
        Index("ix_seats_game_id", "game_id"),
        CheckConstraint("missed_deadlines >= 0", name="missed_deadlines_nonnegative"),
        Index(
            "uq_seats_game_id_seat_index_active",
            "game_id",
            "seat_index",
            unique=True,
            sqlite_where=text("active"),
            postgresql_where=text("active"),
        ),
    )

    @validates("address")
    def _lower_address(self, _key: str, value: str) -> str:
        return value.strip().lower()

    @validates("timezone")
    def _known_timezone(self, _key: str, value: str) -> str:
        try:
            zoneinfo.ZoneInfo(value)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r}") from exc
        return value

    def set_secret(self, password: str) -> None:
        """Store a salted hash of ``password`` (never the password itself)."""
        self.secret_hash = hash_secret(password)

    def check_secret(self, password: str) -> bool:
        """True when ``password`` is this seat's password."""
        return verify_secret(password, self.secret_hash)


class InboundMessage(Base):
    """A message as received, kept verbatim; the unit of exactly-once processing."""

    __tablename__ = "inbound_messages"

    id: Mapped[int] = mapped_column(BigIntId, primary_key=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    raw_sha256: Mapped[str] = mapped_column(String(SHA256_HEX_LEN), unique=True)
    message_id: Mapped[str | None] = mapped_column(String(MESSAGE_ID_LEN), unique=True)
    source: Mapped[MessageSource] = mapped_column(_enum(MessageSource, "message_source"))
    mailbox: Mapped[str | None] = mapped_column(String(255))
    uidvalidity: Mapped[int | None] = mapped_column(BigInteger)
    uid: Mapped[int | None] = mapped_column(BigInteger)
    sender: Mapped[str | None] = mapped_column(String(ADDRESS_LEN))
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    status: Mapped[MessageStatus] = mapped_column(
        _enum(MessageStatus, "message_status"), default=MessageStatus.NEW
    )
    error: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # Lease for a claim committed before processing (status "processing"):
    # a worker that finds an old claimed_at may take the message over.
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), index=True
    )
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # What became of it (None while waiting), the seat it came from when authenticated,
    # and how many orders it had applied.
    outcome: Mapped[Outcome | None] = mapped_column(_enum(Outcome, "outcome"))
    seat_index: Mapped[int | None] = mapped_column(Integer)
    applied: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    __table_args__ = (
        # NULLs never collide, so the constraint binds only IMAP messages.
        UniqueConstraint("mailbox", "uidvalidity", "uid", name="uq_inbound_messages_mailbox_uid"),
        CheckConstraint(
            "uid IS NULL OR (mailbox IS NOT NULL AND uidvalidity IS NOT NULL)",
            name="uid_has_mailbox",
        ),
        CheckConstraint("attempts >= 0", name="attempts_nonnegative"),
        # "Next new message": WHERE status = 'new' ORDER BY id ... SKIP LOCKED.
        Index("ix_inbound_messages_status_id", "status", "id"),
    )


class Action(Base):
    """One applied engine action: the action log is the truth."""

    __tablename__ = "actions"

    id: Mapped[int] = mapped_column(BigIntId, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    # None for actions that belong to no seat (e.g. an admin's game-level action).
    seat_index: Mapped[int | None] = mapped_column(Integer)
    action_json: Mapped[str] = mapped_column(Text)
    order_text: Mapped[str | None] = mapped_column(Text)
    actor: Mapped[ActorKind] = mapped_column(_enum(ActorKind, "actor_kind"))
    inbound_message_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_messages.id", ondelete="SET NULL"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        CheckConstraint("seq >= 1", name="seq_positive"),
    )


class Snapshot(Base):
    """The cached state of a game after action ``seq``; one row per game.

    A cache only: it can always be rebuilt by replaying ``actions`` from the
    seed. The service overwrites it in the same transaction that appends to
    the log, so ``snapshots.seq == games.version == max(actions.seq)``.
    """

    __tablename__ = "snapshots"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    state_json: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    game: Mapped[Game] = relationship(back_populates="snapshot")

    __table_args__ = (CheckConstraint("seq >= 0", name="seq_nonnegative"),)


class QueuedOrder(Base):
    """An order sent ahead of its turn, applied when its decision comes up.

    Active means neither superseded (a newer order for the same decision came)
    nor applied; at most one active order per (game, seat, decision key).
    """

    __tablename__ = "queued_orders"

    id: Mapped[int] = mapped_column(BigIntId, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_index: Mapped[int] = mapped_column(Integer)
    decision_key: Mapped[str] = mapped_column(String(200))
    order_text: Mapped[str] = mapped_column(Text)
    parsed_json: Mapped[str | None] = mapped_column(Text)
    inbound_message_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_messages.id", ondelete="SET NULL"), index=True
    )
    superseded: Mapped[bool] = mapped_column(Boolean, default=False)
    applied_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        # A game's kept orders, read for every order. The partial index below is used
        # only by a query whose WHERE repeats its condition word for word.
        Index("ix_queued_orders_game_id", "game_id"),
        Index(
            "uq_queued_orders_active",
            "game_id",
            "seat_index",
            "decision_key",
            unique=True,
            sqlite_where=text("NOT superseded AND applied_at IS NULL"),
            postgresql_where=text("NOT superseded AND applied_at IS NULL"),
        ),
    )


class OutboxMessage(Base):
    """A rendered mail waiting to be sent after the transaction that made it commits."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(BigIntId, primary_key=True)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), index=True
    )
    inbound_message_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_messages.id", ondelete="SET NULL"), index=True
    )
    to_addrs: Mapped[list[str]] = mapped_column(StringList)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    message_id: Mapped[str] = mapped_column(String(MESSAGE_ID_LEN), unique=True)
    in_reply_to: Mapped[str | None] = mapped_column(String(MESSAGE_ID_LEN))
    status: Mapped[OutboxStatus] = mapped_column(
        _enum(OutboxStatus, "outbox_status"), default=OutboxStatus.PENDING
    )
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_error: Mapped[str | None] = mapped_column(Text)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The (single) recipient and the mail type (board, ack, unknown_sender, ...): the
    # reply caps count by these.
    recipient: Mapped[str] = mapped_column(String(ADDRESS_LEN), default="", server_default="")
    kind: Mapped[str] = mapped_column(String(32), default="", server_default="")

    __table_args__ = (
        CheckConstraint("attempts >= 0", name="attempts_nonnegative"),
        # "Due mail": WHERE status = 'pending' AND next_try_at <= now ORDER BY next_try_at.
        Index("ix_outbox_status_next_try_at", "status", "next_try_at"),
        Index("ix_outbox_recipient_created", "recipient", "created_at"),
    )


class AuditEntry(Base):
    """An administrative command: who ran it, with what, and why."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(BigIntId, primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    who: Mapped[str] = mapped_column(String(ADDRESS_LEN))
    command: Mapped[str] = mapped_column(String(100))
    arguments_json: Mapped[str] = mapped_column(Text, default="{}")
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (Index("ix_audit_log_game_id_created_at", "game_id", "created_at"),)

    @property
    def arguments(self) -> dict[str, Any]:
        """The decoded arguments."""
        value = json.loads(self.arguments_json)
        if not isinstance(value, dict):
            raise ValueError("audit arguments are not a JSON object")
        return value

    @arguments.setter
    def arguments(self, value: dict[str, Any]) -> None:
        self.arguments_json = json.dumps(value, ensure_ascii=False, sort_keys=True)


class MailboxState(Base):
    """Where the IMAP poller stopped in a mailbox (RFC 3501 UIDVALIDITY + UID)."""

    __tablename__ = "mailbox_state"

    mailbox: Mapped[str] = mapped_column(String(255), primary_key=True)
    uidvalidity: Mapped[int] = mapped_column(BigInteger)
    last_seen_uid: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class OperatorNote(Base):
    """Something a person must look at; the daemon mails the unsent ones to the
    `[moderator] operator` address, grouped, at most once an hour."""

    __tablename__ = "operator_notes"

    id: Mapped[int] = mapped_column(BigIntId, primary_key=True)
    kind: Mapped[NoteKind] = mapped_column(_enum(NoteKind, "note_kind"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # When it went out in a mail (None: not yet, or no operator address is set).
    mailed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)


class Lease(Base):
    """A named job only one process may do at a time (reading the mailbox): held by
    ``holder`` until ``expires_at``, renewed while it works; a holder that dies loses it
    when it expires."""

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))
    acquired_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class DaemonRun(Base):
    """One run of `moderator run`: a daemon that ends without a clean stop is found by the
    next one to start (its process gone, or silent too long) and the operator is told."""

    __tablename__ = "daemon_runs"

    id: Mapped[int] = mapped_column(BigIntId, primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    stopped_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # False for a daemon found dead by another: it stopped without finishing.
    clean: Mapped[bool | None] = mapped_column(Boolean)

    __table_args__ = (Index("ix_daemon_runs_stopped_at", "stopped_at"),)


class AuthFailure(Base):
    """One failed authentication attempt, for rate limits per sender and per seat.

    An events table rather than counters: the limit is "at most N rows for this
    sender (or this game and seat) with created_at in the last window", which
    is a sliding window with no read-modify-write race between workers. Rows
    older than the longest window may be deleted at any time.
    """

    __tablename__ = "auth_failures"

    id: Mapped[int] = mapped_column(BigIntId, primary_key=True)
    sender: Mapped[str] = mapped_column(String(ADDRESS_LEN))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_index: Mapped[int | None] = mapped_column(Integer)
    inbound_message_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_messages.id", ondelete="SET NULL")
    )
    reason: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        Index("ix_auth_failures_sender_created_at", "sender", "created_at"),
        Index("ix_auth_failures_game_seat_created_at", "game_id", "seat_index", "created_at"),
    )

    @validates("sender")
    def _lower_sender(self, _key: str, value: str) -> str:
        return value.strip().lower()


__all__ = [
    "AbsencePolicy",
    "Action",
    "ActorKind",
    "AuditEntry",
    "AuthFailure",
    "Base",
    "DaemonRun",
    "DeadlineAction",
    "Game",
    "GameStatus",
    "GameVariant",
    "InboundMessage",
    "Lease",
    "MailPreference",
    "MailboxState",
    "MessageSource",
    "MessageStatus",
    "NoteKind",
    "OperatorNote",
    "OutboxMessage",
    "OutboxStatus",
    "Outcome",
    "QueuedOrder",
    "Seat",
    "Snapshot",
    "StringList",
    "Turn",
    "UTCDateTime",
    "utcnow",
]
