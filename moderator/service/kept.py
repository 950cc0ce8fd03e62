"""Orders kept for later decisions, as stored: read back for the engine and the mails."""

from __future__ import annotations

import json

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from ..orders import OrderError
from ..orders import QueuedOrder as Queued
from ..store import models as m

Kept = list[tuple[m.QueuedOrder, Queued]]
"""Kept orders as stored rows with what they say."""

# Read for every message: built once.
_WAITING = (
    select(m.QueuedOrder)
    .where(
        m.QueuedOrder.game_id == bindparam("game_id"),
        m.QueuedOrder.superseded.is_(False),
        m.QueuedOrder.applied_at.is_(None),
    )
    .order_by(m.QueuedOrder.id)
)


def kept_orders(session: Session, game_id: int) -> Kept:
    """The game's orders still waiting for their decision, oldest first. One that cannot
    be read any more is dropped (its player will simply be asked)."""
    rows = session.scalars(_WAITING, {"game_id": game_id})
    out: Kept = []
    for row in rows:
        try:
            out.append((row, Queued.from_dict(json.loads(row.parsed_json or "{}"))))
        except (OrderError, ValueError, KeyError):
            row.superseded = True
    return out


def kept_for(session: Session, game_id: int, seat: int) -> list[Queued]:
    return [q for _, q in kept_orders(session, game_id) if q.key.seat == seat]
