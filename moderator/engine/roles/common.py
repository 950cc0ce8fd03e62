"""Small rules shared by several roles."""

from __future__ import annotations

from ..state import State


def colonist_available(s: State) -> bool:
    """Hospice and university take a colonist from the supply, or from the ship when
    the supply is empty (docs/rules-interpretations.md)."""
    return s.colonist_supply > 0 or s.colonist_ship > 0


def take_colonist(s: State) -> None:
    if s.colonist_supply > 0:
        s.colonist_supply -= 1
    else:
        s.colonist_ship -= 1


def order_from(s: State, first: int) -> list[int]:
    """Seats in clockwise order starting with ``first``."""
    n = s.n
    return [(first + i) % n for i in range(n)]
