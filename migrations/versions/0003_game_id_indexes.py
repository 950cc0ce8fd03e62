"""Indexes on seats(game_id) and queued_orders(game_id): every order reads both by game,
and without them each order scanned the whole table (its cost grew with the games stored).

Revision ID: 0003_game_id_indexes
Revises: 0002_initial_position
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0003_game_id_indexes"
down_revision: str | Sequence[str] | None = "0002_initial_position"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_seats_game_id", "seats", ["game_id"])
    op.create_index("ix_queued_orders_game_id", "queued_orders", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_queued_orders_game_id", table_name="queued_orders")
    op.drop_index("ix_seats_game_id", table_name="seats")
