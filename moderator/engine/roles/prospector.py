"""The prospector: the picker takes one doubloon; nobody else acts."""

from __future__ import annotations

from ..events import Event, ProspectorPaid
from ..state import State


def begin(s: State, ev: list[Event]) -> None:
    s.players[s.picker].doubloons += 1
    ev.append(ProspectorPaid(s.picker))
