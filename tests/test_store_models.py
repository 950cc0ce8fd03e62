"""Store models on SQLite and PostgreSQL: constraints, round trips, locks and claims."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, func, select, text
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from moderator.store.db import make_engine, normalise_url
from moderator.store.models import (
    Action,
    ActorKind,
    AuditEntry,
    AuthFailure,
    Game,
    GameStatus,
    GameVariant,
    InboundMessage,
    MailboxState,
    MessageSource,
    MessageStatus,
    OutboxMessage,
    OutboxStatus,
    QueuedOrder,
    Seat,
    Snapshot,
)
from moderator.store.passwords import hash_secret, verify_secret
from moderator.store.queries import (
    claim_next_message,
    due_outbox,
    lock_game,
    record_inbound,
    requeue_interrupted,
    sha256_hex,
    take_mail,
)

# Cheap scrypt parameters for property tests; the defaults are exercised elsewhere.
FAST = {"n": 2**4, "r": 1, "p": 1}


def new_game(session: Session, tag: str = "PR-1", players: int = 3) -> Game:
    game = Game(tag=tag, variant=GameVariant.STANDARD, seed=12345)
    for index in range(players):
        game.seats.append(Seat(seat_index=index, name=f"P{index}", address=f"p{index}@example.org"))
    session.add(game)
    session.flush()
    return game


def message(raw: bytes, message_id: str | None = None, **extra: Any) -> InboundMessage:
    return InboundMessage(
        raw=raw,
        raw_sha256=sha256_hex(raw),
        message_id=message_id,
        source=extra.pop("source", MessageSource.PIPE),
        **extra,
    )


def commit_fails(session: Session, *objects: object) -> bool:
    """True when committing ``objects`` violates a constraint (the session is rolled back)."""
    session.add_all(objects)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return True
    return False


# --- Inbound messages: the keys of exactly-once -------------------------------------


def test_the_same_message_id_is_recorded_only_once(session: Session) -> None:
    session.add(message(b"first", "<a@example.org>"))
    session.commit()
    assert commit_fails(session, message(b"second body", "<a@example.org>"))


def test_the_same_raw_bytes_are_recorded_only_once(session: Session) -> None:
    session.add(message(b"same bytes", "<a@example.org>"))
    session.commit()
    assert commit_fails(session, message(b"same bytes", "<b@example.org>"))


def test_messages_without_message_id_do_not_collide(session: Session) -> None:
    session.add_all([message(b"one"), message(b"two"), message(b"three")])
    session.commit()
    assert session.scalar(select(func.count()).select_from(InboundMessage)) == 3


def test_the_same_imap_uid_in_the_same_uidvalidity_is_recorded_only_once(
    session: Session,
) -> None:
    imap: dict[str, Any] = {"source": MessageSource.IMAP, "mailbox": "INBOX", "uidvalidity": 7}
    session.add(message(b"one", uid=1, **imap))
    session.add(message(b"two", uid=2, **imap))
    # RFC 3501 2.3.1.1: a new UIDVALIDITY makes old UIDs meaningless, so they may repeat.
    session.add(message(b"three", uid=1, source=MessageSource.IMAP, mailbox="INBOX", uidvalidity=8))
    session.commit()
    assert commit_fails(session, message(b"four", uid=1, **imap))


def test_a_uid_needs_its_mailbox_and_uidvalidity(session: Session) -> None:
    assert commit_fails(session, message(b"one", uid=1, source=MessageSource.IMAP))


def test_raw_bytes_round_trip_exactly(session: Session) -> None:
    raw = bytes(range(256)) + b"\r\n.\r\nSubject: =?iso-8859-1?q?caf=E9?=\r\n\x00"
    session.add(message(raw))
    session.commit()
    session.expire_all()
    assert session.scalars(select(InboundMessage.raw)).one() == raw


def test_record_inbound_returns_none_for_a_duplicate_and_keeps_the_transaction(
    session: Session,
) -> None:
    first = record_inbound(session, b"raw 1", source=MessageSource.PIPE, message_id="<m1@x>")
    assert first is not None
    assert record_inbound(session, b"raw 2", source=MessageSource.PIPE, message_id="<m1@x>") is None
    assert record_inbound(session, b"raw 1", source=MessageSource.PIPE) is None
    third = record_inbound(session, b"raw 3", source=MessageSource.PIPE, message_id="<m3@x>")
    assert third is not None
    session.commit()
    rows = session.scalars(select(InboundMessage.message_id).order_by(InboundMessage.id)).all()
    assert rows == ["<m1@x>", "<m3@x>"]


def test_an_overlong_message_id_or_sender_is_recorded_and_its_replay_is_a_duplicate(
    session: Session,
) -> None:
    # A mail may carry anything: PostgreSQL refused a 20,000-character Message-ID and the
    # mail was never recorded (tests/data/mail/hostile/message_id_huge.eml).
    long_id = "<" + "m" * 20_000 + "@x>"
    first = record_inbound(
        session, b"raw 1", source=MessageSource.PIPE, message_id=long_id, sender="a" * 400
    )
    assert first is not None
    again = record_inbound(session, b"raw 2", source=MessageSource.PIPE, message_id=long_id)
    assert again is None  # the same id, however long, is the same message
    session.commit()
    row = session.get(InboundMessage, first)
    assert row is not None and row.sender is None
    assert row.message_id is not None and len(row.message_id) <= 998


# --- The action log ------------------------------------------------------------------


def test_an_action_seq_is_unique_within_its_game(session: Session) -> None:
    game, other = new_game(session, "PR-1"), new_game(session, "PR-2")
    session.add_all(
        [
            Action(game_id=game.id, seq=1, seat_index=0, action_json="{}", actor=ActorKind.PLAYER),
            Action(game_id=other.id, seq=1, seat_index=0, action_json="{}", actor=ActorKind.PLAYER),
        ]
    )
    session.commit()
    duplicate = Action(
        game_id=game.id, seq=1, seat_index=1, action_json="{}", actor=ActorKind.FORCED
    )
    assert commit_fails(session, duplicate)


def test_actions_read_back_in_seq_order_with_their_source(session: Session) -> None:
    game = new_game(session)
    inbound = message(b"order mail", "<o@x>")
    session.add(inbound)
    session.flush()
    for seq in (3, 1, 2):
        session.add(
            Action(
                game_id=game.id,
                seq=seq,
                seat_index=seq % 3,
                action_json=f'{{"n": {seq}}}',
                order_text=f"order {seq}",
                actor=ActorKind.PLAYER,
                inbound_message_id=inbound.id,
            )
        )
    session.commit()
    log = session.scalars(select(Action).where(Action.game_id == game.id).order_by(Action.seq))
    assert [(a.seq, a.order_text, a.inbound_message_id) for a in log] == [
        (1, "order 1", inbound.id),
        (2, "order 2", inbound.id),
        (3, "order 3", inbound.id),
    ]


def test_deleting_a_game_removes_its_rows_and_keeps_its_mail(session: Session) -> None:
    game = new_game(session)
    inbound = message(b"x", game_id=game.id)
    session.add(inbound)
    session.flush()
    session.add_all(
        [
            Action(game_id=game.id, seq=1, action_json="{}", actor=ActorKind.ADMIN),
            Snapshot(game_id=game.id, seq=1, state_json="{}"),
            QueuedOrder(game_id=game.id, seat_index=0, decision_key="k", order_text="o"),
            OutboxMessage(game_id=game.id, to_addrs=["a@x"], raw=b"r", message_id="<out@x>"),
        ]
    )
    session.commit()
    session.delete(game)
    session.commit()
    session.expire_all()
    for model in (Seat, Action, Snapshot, QueuedOrder):
        assert session.scalar(select(func.count()).select_from(model)) == 0, model
    assert session.scalars(select(InboundMessage.game_id)).one() is None
    assert session.scalars(select(OutboxMessage.game_id)).one() is None


def test_foreign_keys_are_enforced(session: Session) -> None:
    orphan = Action(game_id=999, seq=1, action_json="{}", actor=ActorKind.PLAYER)
    assert commit_fails(session, orphan)


# --- Games, seats, snapshots, queued orders --------------------------------------------


def test_game_tags_are_unique(session: Session) -> None:
    new_game(session, "PR-12")
    session.commit()
    assert commit_fails(session, Game(tag="PR-12", variant=GameVariant.TWO_PLAYER, seed=1))


def test_a_new_game_has_sensible_defaults(session: Session) -> None:
    game = new_game(session)
    session.commit()
    session.expire_all()
    assert game.status is GameStatus.SETUP
    assert game.version == 0
    assert (game.deadline_hours, game.reminder_hours) == (48, 12)
    assert game.created_at.tzinfo is not None and game.created_at.utcoffset() == timedelta(0)
    assert [seat.seat_index for seat in game.seats] == [0, 1, 2]


def test_an_unknown_status_is_rejected_by_the_database(session: Session) -> None:
    new_game(session)
    session.commit()
    with pytest.raises(IntegrityError):
        session.execute(text("UPDATE games SET status = 'sleeping'"))
    session.rollback()


def test_only_one_active_player_per_seat_but_replaced_ones_stay(session: Session) -> None:
    game = new_game(session)
    session.commit()
    assert commit_fails(
        session, Seat(game_id=game.id, seat_index=1, name="Other", address="o@example.org")
    )
    old = session.scalars(select(Seat).where(Seat.game_id == game.id, Seat.seat_index == 1)).one()
    old.active = False
    old.replaced_at = datetime.now(UTC)
    session.add(
        Seat(game_id=game.id, seat_index=1, name="New", address="new@example.org", mac_key_id=1)
    )
    session.commit()
    session.refresh(game)
    assert [(s.seat_index, s.name) for s in game.active_seats()] == [
        (0, "P0"),
        (1, "New"),
        (2, "P2"),
    ]
    assert len(game.seats) == 4


def test_seat_addresses_are_lower_cased_and_time_zones_checked() -> None:
    seat = Seat(
        seat_index=0, name="Ann", address="  Ann.Example@Mail.ORG ", timezone="Europe/Berlin"
    )
    assert seat.address == "ann.example@mail.org"
    with pytest.raises(ValueError, match="unknown time zone"):
        Seat(seat_index=0, name="Bob", address="b@x", timezone="Mars/Olympus")


def test_a_seat_stores_a_salted_hash_never_the_password(session: Session) -> None:
    game = new_game(session)
    seat = game.seats[0]
    seat.set_secret("tobacco42")
    session.commit()
    session.expire_all()
    stored = session.scalars(select(Seat.secret_hash).where(Seat.id == seat.id)).one()
    assert stored is not None and "tobacco42" not in stored
    assert stored.startswith("scrypt$")
    assert seat.check_secret("tobacco42")
    assert not seat.check_secret("tobacco43")
    assert not game.seats[1].check_secret("tobacco42")  # no password set


@settings(max_examples=25, deadline=None)
@given(password=st.text(min_size=1, max_size=40), other=st.text(min_size=1, max_size=40))
def test_a_password_verifies_only_against_its_own_hash(password: str, other: str) -> None:
    stored = hash_secret(password, **FAST)
    assert verify_secret(password, stored)
    assert hash_secret(password, **FAST) != stored  # a fresh salt every time
    if other != password:
        assert not verify_secret(other, stored)


def test_malformed_hashes_never_verify() -> None:
    for stored in ("", "plain", "scrypt$1$2$3", "md5$a$b$c$d$e", "scrypt$x$8$1$AA$AA"):
        assert not verify_secret("secret", stored)
    with pytest.raises(ValueError):
        hash_secret("")


def test_one_snapshot_per_game(session: Session) -> None:
    game = new_game(session)
    session.add(Snapshot(game_id=game.id, seq=0, state_json='{"round": 1}'))
    session.commit()
    game.snapshot = None
    session.flush()
    session.add(Snapshot(game_id=game.id, seq=5, state_json='{"round": 2}'))
    session.commit()
    session.expire_all()
    snapshot = session.get(Snapshot, game.id)
    assert snapshot is not None and (snapshot.seq, snapshot.state_json) == (5, '{"round": 2}')


def test_one_active_queued_order_per_seat_and_decision(session: Session) -> None:
    game = new_game(session)

    def order(text: str, key: str = "r3:captain:s1") -> QueuedOrder:
        return QueuedOrder(game_id=game.id, seat_index=1, decision_key=key, order_text=text)

    first = order("ship corn")
    session.add_all([first, order("sell sugar", key="r3:trader:s1")])
    session.commit()
    assert commit_fails(session, order("ship indigo"))

    first.superseded = True
    second = order("ship indigo")
    session.add(second)
    session.commit()
    second.applied_at = datetime.now(UTC)
    session.add(order("ship coffee"))
    session.commit()
    active = session.scalars(
        select(QueuedOrder.order_text).where(
            QueuedOrder.superseded.is_(False), QueuedOrder.applied_at.is_(None)
        )
    ).all()
    assert sorted(active) == ["sell sugar", "ship coffee"]


# --- Timestamps, outbox, audit, mailbox state, auth failures ------------------------


def test_timestamps_come_back_timezone_aware_utc(session: Session) -> None:
    game = new_game(session)
    berlin = timezone(timedelta(hours=2))
    game.deadline_at = datetime(2025, 6, 1, 14, 30, 15, 123456, tzinfo=berlin)
    session.commit()
    session.expire_all()
    assert game.deadline_at == datetime(2025, 6, 1, 12, 30, 15, 123456, tzinfo=UTC)
    assert game.deadline_at.tzinfo is UTC


def test_naive_timestamps_are_refused(session: Session) -> None:
    game = new_game(session)
    game.deadline_at = datetime(2025, 6, 1, 12, 0)
    with pytest.raises(StatementError, match="naive datetime"):
        session.flush()
    session.rollback()


def test_outbox_message_ids_are_unique_and_recipients_round_trip(session: Session) -> None:
    mail = OutboxMessage(
        to_addrs=["a@example.org", "Bé <b@example.org>"],
        raw=b"Subject: hi\r\n\r\nbody\r\n",
        message_id="<out-1@moderator>",
        in_reply_to="<in-1@player>",
    )
    session.add(mail)
    session.commit()
    session.expire_all()
    assert mail.to_addrs == ["a@example.org", "Bé <b@example.org>"]
    assert (mail.status, mail.attempts) == (OutboxStatus.PENDING, 0)
    again = OutboxMessage(to_addrs=["c@x"], raw=b"x", message_id="<out-1@moderator>")
    assert commit_fails(session, again)


def test_due_outbox_lists_pending_mail_whose_time_has_come_and_take_mail_marks_one(
    session: Session,
) -> None:
    now = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)

    def mail(n: int, minutes: int, status: OutboxStatus = OutboxStatus.PENDING) -> OutboxMessage:
        return OutboxMessage(
            to_addrs=["a@x"],
            raw=b"r",
            message_id=f"<{n}@x>",
            status=status,
            next_try_at=now + timedelta(minutes=minutes),
        )

    session.add_all(
        [mail(1, -5), mail(2, -10), mail(3, 5), mail(4, -20, OutboxStatus.SENT), mail(5, 0)]
    )
    session.commit()
    due = due_outbox(session, now=now)
    by_id = {row.id: row for row in session.scalars(select(OutboxMessage))}
    assert [by_id[mail.id].message_id for mail in due] == ["<2@x>", "<1@x>", "<5@x>"]
    assert due[0].raw == b"r" and due[0].to_addrs == ["a@x"]
    # Listed, not taken: each is marked just before it is handed over, and only once.
    assert all(row.status is not OutboxStatus.SENDING for row in by_id.values())
    assert take_mail(session, due[0].id)
    assert not take_mail(session, due[0].id)  # another sender has it now
    session.commit()
    session.expire_all()
    statuses = {row.message_id: (row.status, row.attempts) for row in by_id.values()}
    assert statuses["<2@x>"] == (OutboxStatus.SENDING, 1)
    assert statuses["<1@x>"] == (OutboxStatus.PENDING, 0)


def test_mail_left_sending_by_a_crash_is_pending_again_with_its_message_id(
    session: Session,
) -> None:
    for n, status in enumerate([OutboxStatus.SENDING, OutboxStatus.SENT, OutboxStatus.SENDING]):
        session.add(
            OutboxMessage(
                to_addrs=["a@x"], recipient="a@x", raw=b"r", message_id=f"<{n}@x>", status=status
            )
        )
    session.commit()
    again = requeue_interrupted(session)
    session.commit()
    assert [(mid, to) for _, mid, to in again] == [("<0@x>", "a@x"), ("<2@x>", "a@x")]
    rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
    assert [r.status for r in rows] == [
        OutboxStatus.PENDING,
        OutboxStatus.SENT,
        OutboxStatus.PENDING,
    ]
    assert requeue_interrupted(session) == []


def test_audit_entries_keep_their_arguments(session: Session) -> None:
    game = new_game(session)
    entry = AuditEntry(game_id=game.id, who="admin@example.org", command="undo", reason="misclick")
    entry.arguments = {"seq": 14, "seat": 2}
    session.add(entry)
    session.commit()
    session.expire_all()
    assert entry.arguments == {"seat": 2, "seq": 14}


def test_mailbox_state_is_one_row_per_mailbox(session: Session) -> None:
    session.add(MailboxState(mailbox="INBOX", uidvalidity=7, last_seen_uid=41))
    session.commit()
    assert commit_fails(session, MailboxState(mailbox="INBOX", uidvalidity=8))


def test_auth_failures_count_in_a_window_per_sender_and_per_seat(session: Session) -> None:
    game = new_game(session)
    now = datetime.now(UTC)
    for minutes, sender, seat in [(1, "Eve@X.org", 0), (5, "eve@x.org", 1), (90, "eve@x.org", 0)]:
        session.add(
            AuthFailure(
                sender=sender,
                game_id=game.id,
                seat_index=seat,
                reason="bad password",
                created_at=now - timedelta(minutes=minutes),
            )
        )
    session.commit()
    since = now - timedelta(hours=1)
    per_sender = select(func.count()).where(
        AuthFailure.sender == "eve@x.org", AuthFailure.created_at >= since
    )
    per_seat = select(func.count()).where(
        AuthFailure.game_id == game.id, AuthFailure.seat_index == 0, AuthFailure.created_at >= since
    )
    assert session.scalar(per_sender) == 2
    assert session.scalar(per_seat) == 1


# --- Optimistic versions and row locks --------------------------------------------------


def test_a_stale_game_version_cannot_overwrite_a_newer_one(
    session_factory: sessionmaker[Session],
) -> None:
    with session_factory.begin() as s:
        game_id = new_game(s).id
    with session_factory() as first, session_factory() as second:
        mine = first.get_one(Game, game_id)
        first.commit()  # read without holding a lock, as a worker preparing a move would
        theirs = second.get_one(Game, game_id)
        theirs.version += 1
        second.commit()
        mine.version += 1
        with pytest.raises(StaleDataError):
            first.commit()
    with session_factory() as s:
        assert s.get_one(Game, game_id).version == 1


def test_claim_next_message_takes_the_oldest_new_one(session: Session) -> None:
    session.add_all([message(b"a"), message(b"b", status=MessageStatus.DONE), message(b"c")])
    session.commit()
    claimed = claim_next_message(session)
    assert claimed is not None and claimed.raw == b"a"
    claimed.status = MessageStatus.DONE
    session.commit()
    claimed = claim_next_message(session)
    assert claimed is not None and claimed.raw == b"c"


def test_two_workers_claim_different_messages_on_postgresql(db_engine: Engine) -> None:
    if db_engine.dialect.name != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's; SQLite serialises whole transactions")
    factory = sessionmaker(bind=db_engine, expire_on_commit=False)
    with factory.begin() as s:
        s.add_all([message(b"a"), message(b"b")])
    with factory() as first, factory() as second:
        one = claim_next_message(first)
        two = claim_next_message(second)
        assert one is not None and two is not None
        assert (one.raw, two.raw) == (b"a", b"b")
        two.status = MessageStatus.DONE
        second.flush()
        # "a" is locked by the first worker and skipped, not waited for.
        assert claim_next_message(second) is None


def test_lock_game_makes_a_second_writer_wait_for_the_first(db_engine: Engine) -> None:
    factory = sessionmaker(bind=db_engine, expire_on_commit=False)
    with factory.begin() as s:
        game_id = new_game(s).id
    first = factory()
    locked = lock_game(first, game_id)
    assert locked is not None
    seen: list[int] = []

    def second_writer() -> None:
        with factory.begin() as s:
            game = lock_game(s, game_id)
            assert game is not None
            seen.append(game.version)
            game.version += 1

    thread = threading.Thread(target=second_writer)
    thread.start()
    thread.join(timeout=0.5)
    assert thread.is_alive(), "the second writer should wait for the game lock"
    locked.version += 1
    first.commit()
    first.close()
    thread.join(timeout=20)
    assert not thread.is_alive()
    assert seen == [1]  # it saw the first writer's committed move, not the old version


# --- Engine configuration -----------------------------------------------------------------


def test_sqlite_connections_use_wal_foreign_keys_and_a_busy_timeout(tmp_path: object) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/sub/dir/m.sqlite")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10_000
    finally:
        engine.dispose()


def test_plain_postgresql_urls_get_the_psycopg_driver() -> None:
    assert normalise_url("postgresql://u@h/db").drivername == "postgresql+psycopg"
    assert normalise_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    assert normalise_url(None).render_as_string() == "sqlite:///var/moderator.sqlite"
