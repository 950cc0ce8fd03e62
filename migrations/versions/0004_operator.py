"""The operator's view: what became of each message, notes for the operator's mail, the
mailbox lease (one poller at a time) and the daemons' runs (a crash is noticed).

Revision ID: 0004_operator
Revises: 0003_game_id_indexes
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_operator"
down_revision: str | Sequence[str] | None = "0003_game_id_indexes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
# Spelt out, not imported: later model changes must not rewrite this revision.
OUTCOMES = (
    "applied",
    "kept",
    "asked-back",
    "service",
    "game-not-active",
    "not-authenticated",
    "forged",
    "no-game",
    "automatic",
    "own-mail",
    "failed",
)
NOTE_KINDS = (
    "processing-failed",
    "mail-refused",
    "mail-stuck",
    "daemon-restarted",
    "deadlines-missed",
)


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def upgrade() -> None:
    with op.batch_alter_table("inbound_messages") as batch:
        batch.add_column(sa.Column("outcome", sa.String(max(map(len, OUTCOMES))), nullable=True))
        batch.add_column(sa.Column("seat_index", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("applied", sa.Integer(), nullable=False, server_default="0"))
        batch.create_check_constraint("outcome", _in("outcome", OUTCOMES))
    op.create_table(
        "operator_notes",
        sa.Column("id", BIG_ID, primary_key=True),
        sa.Column("kind", sa.String(max(map(len, NOTE_KINDS))), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("mailed_at", _ts(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_operator_notes"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_operator_notes_game_id_games", ondelete="SET NULL"
        ),
        sa.CheckConstraint(_in("kind", NOTE_KINDS), name=op.f("ck_operator_notes_note_kind")),
    )
    op.create_index("ix_operator_notes_mailed_at", "operator_notes", ["mailed_at"])
    op.create_table(
        "leases",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("holder", sa.String(200), nullable=False),
        sa.Column("acquired_at", _ts(), nullable=False),
        sa.Column("expires_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_leases"),
    )
    op.create_table(
        "daemon_runs",
        sa.Column("id", BIG_ID, primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", _ts(), nullable=False),
        sa.Column("seen_at", _ts(), nullable=False),
        sa.Column("stopped_at", _ts(), nullable=True),
        sa.Column("clean", sa.Boolean(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_daemon_runs"),
    )
    op.create_index("ix_daemon_runs_stopped_at", "daemon_runs", ["stopped_at"])


def downgrade() -> None:
    op.drop_index("ix_daemon_runs_stopped_at", table_name="daemon_runs")
    op.drop_table("daemon_runs")
    op.drop_table("leases")
    op.drop_index("ix_operator_notes_mailed_at", table_name="operator_notes")
    op.drop_table("operator_notes")
    with op.batch_alter_table("inbound_messages") as batch:
        batch.drop_constraint("outcome", type_="check")
        batch.drop_column("applied")
        batch.drop_column("seat_index")
        batch.drop_column("outcome")
