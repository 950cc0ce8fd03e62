"""Seats choose how much mail they get, and keep what their next mail must tell.

Revision ID: 0005_mail_preference
Revises: 0004_operator
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_mail_preference"
down_revision: str | Sequence[str] | None = "0004_operator"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("mail_preference", sa.String(5), nullable=False, server_default="every")
        )
        batch.add_column(sa.Column("unmailed", sa.Text(), nullable=True))
        batch.create_check_constraint(
            "mail_preference", "mail_preference IN ('every', 'turns')"
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint(op.f("ck_seats_mail_preference"), type_="check")
        batch.drop_column("unmailed")
        batch.drop_column("mail_preference")
