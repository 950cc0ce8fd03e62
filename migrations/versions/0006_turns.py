"""Turns (each deciding seat's deadline, reminder and the action announced for it, on the
game row) and whether the autopilot has one to decide, absences (away until, and the
game's policy), the weekend pause, missed deadlines.

Revision ID: 0006_turns
Revises: 0005_mail_preference
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_turns"
down_revision: str | Sequence[str] | None = "0005_mail_preference"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Spelt out, not imported: later model changes must not rewrite this revision.
ABSENCE_POLICIES = ("autopilot", "stretch")


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column(
                "absence_policy",
                sa.String(max(map(len, ABSENCE_POLICIES))),
                nullable=False,
                server_default="autopilot",
            )
        )
        batch.add_column(
            sa.Column("weekend_pause", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("turns_json", sa.Text(), nullable=True))
        batch.add_column(
            sa.Column("planning", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.create_check_constraint("absence_policy", _in("absence_policy", ABSENCE_POLICIES))
        batch.create_index("ix_games_planning", ["planning"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away_until", _ts(), nullable=True))
        batch.add_column(
            sa.Column("missed_deadlines", sa.Integer(), nullable=False, server_default="0")
        )
        batch.create_check_constraint("missed_deadlines_nonnegative", "missed_deadlines >= 0")


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("missed_deadlines_nonnegative", type_="check")
        batch.drop_column("missed_deadlines")
        batch.drop_column("away_until")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_planning")
        batch.drop_constraint("absence_policy", type_="check")
        batch.drop_column("planning")
        batch.drop_column("turns_json")
        batch.drop_column("weekend_pause")
        batch.drop_column("absence_policy")
