"""Initial schema: games, seats, inbox, action log, snapshots, queued orders, outbox, audit.

Revision ID: 0001_initial
Revises:
Create Date: 2025-11-22

Written by hand to match moderator/store/models.py; tests/test_migrations.py
checks that the two agree on SQLite and PostgreSQL. Enum values and lengths
are spelt out here (not imported) so that later model changes cannot rewrite
history.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_initial"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ADDRESS_LEN = 320
MESSAGE_ID_LEN = 998

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _choice(
    table: str, column: str, enum_name: str, *values: str
) -> tuple[sa.Column[str], sa.CheckConstraint]:
    """A closed set as the models store it: VARCHAR sized to the longest value plus a CHECK."""
    listed = ", ".join(f"'{value}'" for value in values)
    return (
        sa.Column(column, sa.String(max(len(v) for v in values)), nullable=False),
        sa.CheckConstraint(f"{column} IN ({listed})", name=op.f(f"ck_{table}_{enum_name}")),
    )


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tag", sa.String(32), nullable=False),
        *_choice("games", "variant", "game_variant", "standard", "two-player"),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        *_choice(
            "games", "status", "game_status", "setup", "active", "paused", "finished", "aborted"
        ),
        sa.Column("deadline_hours", sa.Integer(), nullable=False),
        sa.Column("reminder_hours", sa.Integer(), nullable=False),
        *_choice("games", "deadline_action", "deadline_action", "default", "autopilot", "wait"),
        sa.Column("deadline_at", _ts(), nullable=True),
        sa.Column("reminder_at", _ts(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("last_message_at", _ts(), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.UniqueConstraint("tag", name="uq_games_tag"),
        sa.CheckConstraint("seed >= 0", name=op.f("ck_games_seed_nonnegative")),
        sa.CheckConstraint("version >= 0", name=op.f("ck_games_version_nonnegative")),
        sa.CheckConstraint("deadline_hours > 0", name=op.f("ck_games_deadline_hours_positive")),
        sa.CheckConstraint("reminder_hours >= 0", name=op.f("ck_games_reminder_hours_nonnegative")),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_deadline_at", "games", ["deadline_at"])
    op.create_index("ix_games_reminder_at", "games", ["reminder_at"])

    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat_index", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("address", sa.String(ADDRESS_LEN), nullable=False),
        sa.Column("timezone", sa.String(64), nullable=False),
        sa.Column("secret_hash", sa.String(255), nullable=True),
        sa.Column("mac_key_id", sa.Integer(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("replaced_at", _ts(), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_seats"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_seats_game_id_games", ondelete="CASCADE"
        ),
        sa.CheckConstraint("seat_index >= 0", name=op.f("ck_seats_seat_index_nonnegative")),
    )
    op.create_index("ix_seats_address", "seats", ["address"])
    op.create_index(
        "uq_seats_game_id_seat_index_active",
        "seats",
        ["game_id", "seat_index"],
        unique=True,
        sqlite_where=sa.text("active"),
        postgresql_where=sa.text("active"),
    )

    op.create_table(
        "inbound_messages",
        sa.Column("id", BIG_ID, primary_key=True),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("raw_sha256", sa.String(64), nullable=False),
        sa.Column("message_id", sa.String(MESSAGE_ID_LEN), nullable=True),
        *_choice(
            "inbound_messages", "source", "message_source", "imap", "maildir", "pipe", "clock"
        ),
        sa.Column("mailbox", sa.String(255), nullable=True),
        sa.Column("uidvalidity", sa.BigInteger(), nullable=True),
        sa.Column("uid", sa.BigInteger(), nullable=True),
        sa.Column("sender", sa.String(ADDRESS_LEN), nullable=True),
        sa.Column("received_at", _ts(), nullable=False),
        *_choice(
            "inbound_messages",
            "status",
            "message_status",
            "new",
            "processing",
            "done",
            "ignored",
            "failed",
        ),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_by", sa.String(100), nullable=True),
        sa.Column("claimed_at", _ts(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("processed_at", _ts(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_inbound_messages"),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name="fk_inbound_messages_game_id_games",
            ondelete="SET NULL",
        ),
        sa.UniqueConstraint("raw_sha256", name="uq_inbound_messages_raw_sha256"),
        sa.UniqueConstraint("message_id", name="uq_inbound_messages_message_id"),
        sa.UniqueConstraint(
            "mailbox", "uidvalidity", "uid", name="uq_inbound_messages_mailbox_uid"
        ),
        sa.CheckConstraint(
            "uid IS NULL OR (mailbox IS NOT NULL AND uidvalidity IS NOT NULL)",
            name=op.f("ck_inbound_messages_uid_has_mailbox"),
        ),
        sa.CheckConstraint("attempts >= 0", name=op.f("ck_inbound_messages_attempts_nonnegative")),
    )
    op.create_index("ix_inbound_messages_game_id", "inbound_messages", ["game_id"])
    op.create_index("ix_inbound_messages_status_id", "inbound_messages", ["status", "id"])

    op.create_table(
        "actions",
        sa.Column("id", BIG_ID, primary_key=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat_index", sa.Integer(), nullable=True),
        sa.Column("action_json", sa.Text(), nullable=False),
        sa.Column("order_text", sa.Text(), nullable=True),
        *_choice(
            "actions", "actor", "actor_kind", "player", "forced", "default", "autopilot", "admin"
        ),
        sa.Column("inbound_message_id", BIG_ID, nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_actions"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_actions_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["inbound_message_id"],
            ["inbound_messages.id"],
            name="fk_actions_inbound_message_id_inbound_messages",
            ondelete="SET NULL",
        ),
        sa.UniqueConstraint("game_id", "seq", name="uq_actions_game_id_seq"),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_actions_seq_positive")),
    )
    op.create_index("ix_actions_inbound_message_id", "actions", ["inbound_message_id"])

    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("state_json", sa.Text(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_snapshots"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_snapshots_game_id_games", ondelete="CASCADE"
        ),
        sa.CheckConstraint("seq >= 0", name=op.f("ck_snapshots_seq_nonnegative")),
    )

    op.create_table(
        "queued_orders",
        sa.Column("id", BIG_ID, primary_key=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat_index", sa.Integer(), nullable=False),
        sa.Column("decision_key", sa.String(200), nullable=False),
        sa.Column("order_text", sa.Text(), nullable=False),
        sa.Column("parsed_json", sa.Text(), nullable=True),
        sa.Column("inbound_message_id", BIG_ID, nullable=True),
        sa.Column("superseded", sa.Boolean(), nullable=False),
        sa.Column("applied_at", _ts(), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_queued_orders"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_queued_orders_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["inbound_message_id"],
            ["inbound_messages.id"],
            name="fk_queued_orders_inbound_message_id_inbound_messages",
            ondelete="SET NULL",
        ),
    )
    op.create_index("ix_queued_orders_inbound_message_id", "queued_orders", ["inbound_message_id"])
    op.create_index(
        "uq_queued_orders_active",
        "queued_orders",
        ["game_id", "seat_index", "decision_key"],
        unique=True,
        sqlite_where=sa.text("NOT superseded AND applied_at IS NULL"),
        postgresql_where=sa.text("NOT superseded AND applied_at IS NULL"),
    )

    op.create_table(
        "outbox",
        sa.Column("id", BIG_ID, primary_key=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("inbound_message_id", BIG_ID, nullable=True),
        sa.Column("to_addrs", sa.Text(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("message_id", sa.String(MESSAGE_ID_LEN), nullable=False),
        sa.Column("in_reply_to", sa.String(MESSAGE_ID_LEN), nullable=True),
        *_choice("outbox", "status", "outbox_status", "pending", "sending", "sent", "failed"),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_try_at", _ts(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("sent_at", _ts(), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_outbox"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_outbox_game_id_games", ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["inbound_message_id"],
            ["inbound_messages.id"],
            name="fk_outbox_inbound_message_id_inbound_messages",
            ondelete="SET NULL",
        ),
        sa.UniqueConstraint("message_id", name="uq_outbox_message_id"),
        sa.CheckConstraint("attempts >= 0", name=op.f("ck_outbox_attempts_nonnegative")),
    )
    op.create_index("ix_outbox_game_id", "outbox", ["game_id"])
    op.create_index("ix_outbox_inbound_message_id", "outbox", ["inbound_message_id"])
    op.create_index("ix_outbox_status_next_try_at", "outbox", ["status", "next_try_at"])

    op.create_table(
        "audit_log",
        sa.Column("id", BIG_ID, primary_key=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("who", sa.String(ADDRESS_LEN), nullable=False),
        sa.Column("command", sa.String(100), nullable=False),
        sa.Column("arguments_json", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_audit_log"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_audit_log_game_id_games", ondelete="SET NULL"
        ),
    )
    op.create_index("ix_audit_log_game_id_created_at", "audit_log", ["game_id", "created_at"])

    op.create_table(
        "mailbox_state",
        sa.Column("mailbox", sa.String(255), nullable=False),
        sa.Column("uidvalidity", sa.BigInteger(), nullable=False),
        sa.Column("last_seen_uid", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("mailbox", name="pk_mailbox_state"),
    )

    op.create_table(
        "auth_failures",
        sa.Column("id", BIG_ID, primary_key=True),
        sa.Column("sender", sa.String(ADDRESS_LEN), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seat_index", sa.Integer(), nullable=True),
        sa.Column("inbound_message_id", BIG_ID, nullable=True),
        sa.Column("reason", sa.String(100), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_auth_failures"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_auth_failures_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["inbound_message_id"],
            ["inbound_messages.id"],
            name="fk_auth_failures_inbound_message_id_inbound_messages",
            ondelete="SET NULL",
        ),
    )
    op.create_index("ix_auth_failures_sender_created_at", "auth_failures", ["sender", "created_at"])
    op.create_index(
        "ix_auth_failures_game_seat_created_at",
        "auth_failures",
        ["game_id", "seat_index", "created_at"],
    )


def downgrade() -> None:
    # Children before parents; dropping a table drops its indexes and constraints.
    for table in (
        "auth_failures",
        "mailbox_state",
        "audit_log",
        "outbox",
        "queued_orders",
        "snapshots",
        "actions",
        "inbound_messages",
        "seats",
        "games",
    ):
        op.drop_table(table)
