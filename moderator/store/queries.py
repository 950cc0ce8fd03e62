"""The queries that make processing exactly-once with several workers: record, claim, lock."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from .models import (
    ADDRESS_LEN,
    MESSAGE_ID_LEN,
    Game,
    InboundMessage,
    Lease,
    MessageSource,
    MessageStatus,
    OutboxMessage,
    OutboxStatus,
    table_of,
    utcnow,
)


def sha256_hex(raw: bytes) -> str:
    """The hex SHA-256 of a raw message, as stored in ``inbound_messages.raw_sha256``."""
    return hashlib.sha256(raw).hexdigest()


def record_inbound(
    session: Session,
    raw: bytes,
    *,
    source: MessageSource,
    message_id: str | None = None,
    mailbox: str | None = None,
    uidvalidity: int | None = None,
    uid: int | None = None,
    sender: str | None = None,
    game_id: int | None = None,
) -> int | None:
    """Insert a received message as ``new``; its id, or None when it was already
    recorded.

    "Already" means the same Message-ID, the same raw bytes, or the same
    mailbox UID. The unique constraints decide, which keeps this correct when
    two pollers see the same message at once (INSERT ... ON CONFLICT DO NOTHING:
    a duplicate leaves the caller's transaction usable).

    A Message-ID longer than its column (a mail may carry anything) is recorded as a
    stand-in made from its digest, so the same id is still a duplicate; an overlong
    sender is not recorded (PostgreSQL refused both, and the mail was never stored).
    """
    if message_id is not None and len(message_id) > MESSAGE_ID_LEN:
        message_id = f"<{sha256_hex(message_id.encode('utf-8', 'replace'))}@long-id.invalid>"
    if sender is not None and len(sender) > ADDRESS_LEN:
        sender = None
    row = {
        "raw": raw,
        "raw_sha256": sha256_hex(raw),
        "message_id": message_id,
        "source": source,
        "mailbox": mailbox,
        "uidvalidity": uidvalidity,
        "uid": uid,
        "sender": sender,
        "status": MessageStatus.NEW,
        "attempts": 0,
        "game_id": game_id,
    }
    # A plain INSERT (see table_of): processing loads the row when it comes to it.
    connection = session.connection()
    unless_recorded = _INSERT_UNLESS_RECORDED.get(connection.dialect.name)
    if unless_recorded is None:
        name = connection.dialect.name
        raise NotImplementedError(f"the store runs on SQLite or PostgreSQL, not {name}")
    new_id = connection.execute(unless_recorded, row).scalar()
    return None if new_id is None else int(new_id)


_INSERT_UNLESS_RECORDED = {
    "sqlite": sqlite_insert(table_of(InboundMessage))
    .on_conflict_do_nothing()
    .returning(table_of(InboundMessage).c.id),
    "postgresql": postgresql_insert(table_of(InboundMessage))
    .on_conflict_do_nothing()
    .returning(table_of(InboundMessage).c.id),
}


def claim_next_message(session: Session) -> InboundMessage | None:
    """Lock the oldest ``new`` message for this transaction, skipping ones other workers hold.

    PostgreSQL: ``FOR UPDATE SKIP LOCKED``, so workers never wait on each other
    and never take the same row. SQLite ignores the clause; there every
    transaction already holds the database write lock (BEGIN IMMEDIATE, see
    db.py). Process the message and mark it done before committing.
    """
    statement = (
        select(InboundMessage)
        .where(InboundMessage.status == MessageStatus.NEW)
        .order_by(InboundMessage.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    return session.scalars(statement).first()


# The game's lock, waiting for it or not (building a statement costs more than running
# it). The statement reads the games row alone; the seats and the snapshot are read by
# statements of their own once the lock is held (selectinload), never joined into it: under
# READ COMMITTED a locking statement returns the locked row as its last holder committed
# it but every joined row as it was when the statement began, and with SKIP LOCKED each
# joined row is locked or skipped on its own, so a holder that commits while the statement
# runs leaves some of the game's seats out of it. A claim then took a game whose new
# version came with half its seats and its old snapshot: the mail was refused for a seat
# the game did not seem to have, and the game, rebuilt for fewer players, did not replay.
_LOCK_GAME = {
    skip: select(Game)
    .where(Game.id == bindparam("game_id"))
    .options(selectinload(Game.seats), selectinload(Game.snapshot))
    .with_for_update(skip_locked=skip)
    .execution_options(populate_existing=True)
    for skip in (False, True)
}


def lock_game(session: Session, game_id: int, *, skip_locked: bool = False) -> Game | None:
    """The game with its seats and snapshot, row-locked until the transaction ends: one
    writer per game at a time (``skip_locked``: None at once if another holds it).

    Always re-reads the row and what comes with it (``populate_existing``), read after the
    lock is held, so all of it is what the previous lock holder committed.
    """
    return session.scalars(_LOCK_GAME[skip_locked], {"game_id": game_id}).first()


class DueMail(NamedTuple):
    """A mail taken for sending: its outbox row id, bytes, recipients and kind."""

    id: int
    raw: bytes
    to_addrs: list[str]
    kind: str


def due_outbox(session: Session, *, now: datetime | None = None, limit: int = 20) -> list[DueMail]:
    """Up to ``limit`` pending mails whose ``next_try_at`` has come, oldest first. Read,
    not taken: the sender takes each one (take_mail) just before handing it over. Plain
    statements: no objects for the rows' bytes to be loaded into and compared at flush."""
    when = utcnow() if now is None else now
    return [DueMail(*row) for row in session.execute(_DUE, {"now": when, "limit": limit})]


def take_mail(session: Session, mail_id: int) -> bool:
    """Mark one pending mail ``sending``, with one more attempt, in the caller's
    transaction: committed just before the mail is handed to the server, so that a crash
    leaves at most the mails in flight marked. False when it is not pending any more
    (another sender took it)."""
    result = session.execute(_TAKE, {"mail_id": mail_id}, execution_options=_NO_SYNC)
    return bool(getattr(result, "rowcount", 0) == 1)


def requeue_interrupted(session: Session) -> list[tuple[int, str, str]]:
    """The mails a daemon left ``sending`` (it stopped between handing a mail over and
    recording the server's answer: a crash): pending again and due now, to be sent again
    with the same bytes and Message-ID. Their (id, Message-ID, recipient)."""
    rows = [
        (int(row.id), str(row.message_id), str(row.recipient))
        for row in session.execute(
            select(OutboxMessage.id, OutboxMessage.message_id, OutboxMessage.recipient)
            .where(OutboxMessage.status == OutboxStatus.SENDING)
            .order_by(OutboxMessage.id)
        )
    ]
    if rows:
        session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id.in_([row[0] for row in rows]))
            .values(status=OutboxStatus.PENDING, next_try_at=utcnow()),
            execution_options=_NO_SYNC,
        )
    return rows


# The sender's statements, built once (it runs them for every mail).
_DUE = (
    select(OutboxMessage.id, OutboxMessage.raw, OutboxMessage.to_addrs, OutboxMessage.kind)
    .where(
        OutboxMessage.status == OutboxStatus.PENDING,
        OutboxMessage.next_try_at <= bindparam("now"),
    )
    .order_by(OutboxMessage.next_try_at, OutboxMessage.id)
    .limit(bindparam("limit"))
)
_TAKE = (
    update(OutboxMessage)
    .where(OutboxMessage.id == bindparam("mail_id"), OutboxMessage.status == OutboxStatus.PENDING)
    .values(status=OutboxStatus.SENDING, attempts=OutboxMessage.attempts + 1)
)
_NO_SYNC = {"synchronize_session": False}


def unsent_mail(session: Session) -> int:
    """Mails made but not yet handed to the server (pending or being sent)."""
    statement = select(func.count(OutboxMessage.id)).where(
        OutboxMessage.status.in_([OutboxStatus.PENDING, OutboxStatus.SENDING])
    )
    return session.scalar(statement) or 0


def planning_games(session: Session) -> int:
    """Games with a turn whose deadline action the autopilot has still to decide (their
    board mails wait for it)."""
    statement = select(func.count(Game.id)).where(Game.planning.is_(True))
    return session.scalar(statement) or 0


def waiting_messages(session: Session) -> int:
    """Received messages not yet processed."""
    statement = select(func.count(InboundMessage.id)).where(
        InboundMessage.status == MessageStatus.NEW
    )
    return session.scalar(statement) or 0


# -- leases: a job only one process may do at a time -------------------------------------


def take_lease(
    session: Session,
    name: str,
    holder: str,
    *,
    now: datetime,
    seconds: float,
    dead: Callable[[str], bool] | None = None,
) -> str | None:
    """Take or renew the lease ``name`` for ``seconds`` from ``now``: None when ``holder``
    has it now, else who holds it. The row is locked for the check (SQLite: the
    transaction's write lock), so two processes cannot both take it. ``dead(other)``:
    True when the other holder is known to be gone (a process of this host that no longer
    exists): its lease is taken at once rather than when it runs out."""
    until = now + timedelta(seconds=seconds)
    row = session.get(Lease, name, with_for_update=True)
    if row is None:
        # Two first takers race on the primary key: the loser's INSERT fails, its
        # savepoint rolls back, and it reads who won.
        try:
            with session.begin_nested():
                session.add(Lease(name=name, holder=holder, acquired_at=now, expires_at=until))
            return None
        except IntegrityError:
            row = session.get(Lease, name, with_for_update=True, populate_existing=True)
            assert row is not None
    if row.holder != holder and row.expires_at > now and not (dead and dead(row.holder)):
        return row.holder
    if row.holder != holder:
        row.holder = holder
        row.acquired_at = now
    row.expires_at = until
    return None


def release_lease(session: Session, name: str, holder: str) -> None:
    """Give the lease up at once (a clean stop), if ``holder`` still has it."""
    session.execute(delete(Lease).where(Lease.name == name, Lease.holder == holder))
