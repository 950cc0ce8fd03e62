"""The builder: each player in turn may build one building."""

from __future__ import annotations

from ..actions import PASS, Action, Build
from ..components import BUILDINGS, CITY_SPACES, Building, Role
from ..events import Built, EndTriggered, Event, Passed
from ..state import State
from .common import colonist_available, take_colonist

# Module-level names: an Enum member looked up on its class is slow (see game.py).
_UNIVERSITY = Building.UNIVERSITY


def cost(s: State, seat: int, building: Building) -> int:
    """Price, less the builder's privilege, less one per occupied quarry up to the column."""
    info = BUILDINGS[building]
    p = s.players[seat]
    discount = min(p.occupied_quarries, info.column) + (1 if seat == s.picker else 0)
    return max(info.price - discount, 0)


# (building, price, column, spaces) and the action objects, computed once: this is hot.
_ROWS = tuple((b, i.price, i.column, i.spaces) for b, i in BUILDINGS.items())
_BUILD = {(b, u): Build(b, u) for b in Building for u in (False, True)}


def legal(s: State, seat: int) -> list[Action]:
    p = s.players[seat]
    free = CITY_SPACES - p.city_used
    if free <= 0:
        return []
    university = p.active(_UNIVERSITY) and colonist_available(s)
    quarries = p.occupied_quarries
    privilege = 1 if seat == s.picker else 0
    money = p.doubloons
    supply = s.supply_buildings
    owned = p.buildings
    out: list[Action] = []
    for b, price, column, spaces in _ROWS:
        if spaces > free or not supply[b] or b in owned:
            continue
        if price - privilege - (quarries if quarries < column else column) > money:
            continue
        out.append(_BUILD[b, False])
        if university:
            out.append(_BUILD[b, True])
    if out:
        out.append(PASS)
    return out


def apply(s: State, seat: int, action: Action, ev: list[Event]) -> None:
    if not isinstance(action, Build):
        ev.append(Passed(seat, Role.BUILDER))
        return
    p = s.players[seat]
    price = cost(s, seat, action.building)
    p.doubloons -= price
    s.supply_buildings[action.building] -= 1
    p.buildings[action.building] = 0
    # Keep the city in building order so layouts and JSON are canonical.
    p.buildings = dict(sorted(p.buildings.items()))
    if action.university:
        take_colonist(s)
        p.buildings[action.building] = 1
    ev.append(Built(seat, action.building, price, action.university))
    if p.city_used >= CITY_SPACES and s.end_reason is None:
        s.end_reason = f"{p.name} has filled the twelfth city space"
        ev.append(EndTriggered(s.end_reason))
