"""Games may start from a given position; outbox rows say whom and what kind of mail.

Revision ID: 0002_initial_position
Revises: 0001_initial
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_initial_position"
down_revision: str | Sequence[str] | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("initial_state", sa.Text(), nullable=True))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("recipient", sa.String(320), nullable=False, server_default=""))
        batch.add_column(sa.Column("kind", sa.String(32), nullable=False, server_default=""))
        batch.create_index("ix_outbox_recipient_created", ["recipient", "created_at"])


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_index("ix_outbox_recipient_created")
        batch.drop_column("kind")
        batch.drop_column("recipient")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("initial_state")
