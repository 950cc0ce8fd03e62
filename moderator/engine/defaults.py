"""The moderator's published defaults: what happens when a player names nothing."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import (
    PASS,
    Action,
    Build,
    DecisionKind,
    ExtraGood,
    Layout,
    Load,
    PlaceColonists,
    Store,
    TakePlantation,
    TakeQuarry,
    UseHacienda,
)
from .components import BUILDINGS, GOODS, PRODUCERS, Building, Good, Role
from .game import Game
from .roles import captain
from .state import State


def smallest_ship(s: State, seat: int, good: Good) -> Load | None:
    """Seed 000: no ship named, "the smallest that will hold the shipped goods".

    The legal loads of one kind already follow the loading rules (the ship carrying
    the kind, else an empty one that takes every barrel, else the one that takes the
    most), so the smallest legal ship is the default.
    """
    loads = [a for a in captain.ship_options(s, s.players[seat]) if a.good is good]
    return min(loads, key=lambda a: s.ships[a.ship].capacity, default=None)


def shipped(s: State, seat: int, load: Load) -> int:
    ship = s.ships[load.ship]
    return min(s.players[seat].goods[load.good], ship.capacity - ship.count)


def default_load(s: State, seat: int) -> Load | None:
    """Seed 000: no goods named, "the greatest quantity will be shipped first, resolving
    ties in favour of the lowest trading value"; then the smallest ship. Never the
    wharf (used only when ordered)."""
    best: Load | None = None
    best_key: tuple[int, int] | None = None
    for good in GOODS:
        load = smallest_ship(s, seat, good)
        if load is None:
            continue
        key = (-shipped(s, seat, load), int(good))
        if best_key is None or key < best_key:
            best, best_key = load, key
    return best


def default_store(s: State, seat: int) -> Store | None:
    """Defaults page: "the highest-value goods are kept" — the warehouses take the
    kinds of highest trading value, the wind rose a barrel of the best kind left."""
    options = captain.store_options(s.players[seat])
    if not options:
        return None
    p = s.players[seat]
    held = sorted((g for g in GOODS if p.goods[g]), reverse=True)
    cap = captain.warehouse_kinds(p)
    kept = tuple(sorted(held[:cap]))
    rest = held[cap:]
    store = Store(kept, rest[0] if rest else None)
    assert store in options
    return store


def manned_tile(legal: Sequence[Action], good: Good | None) -> Action | None:
    """Defaults page: "Hospice … the new tile is manned by default". The tile ``good``
    (None: a quarry) with the hospice's colonist when that is legal, else without."""
    for hospice in (True, False):
        tile: Action = TakeQuarry(hospice) if good is None else TakePlantation(good, hospice)
        if tile in legal:
            return tile
    return None


def manned_building(legal: Sequence[Action], building: Building) -> Build | None:
    """Defaults page: "… and university: the new building is manned by default"."""
    for university in (True, False):
        if Build(building, university) in legal:
            return Build(building, university)
    return None


def default_extra(s: State, seat: int) -> ExtraGood | None:
    """Defaults page: the craftsman's extra barrel is the highest-value kind he produced."""
    kinds = [g for g in GOODS if s.produced[g] and s.goods_supply[g] > 0]
    return ExtraGood(max(kinds)) if kinds else None


def richest_prospector(s: State) -> Role | None:
    """Defaults page: the prospector card bearing the most doubloons (the first on a tie)."""
    cards = [Role(r) for r in s.role_doubloons if Role(r).is_prospector and r not in s.role_taken]
    return max(cards, key=lambda r: (s.role_doubloons[r], -int(r)), default=None)


def default_layout(s: State, seat: int, extra: bool) -> Layout:
    """The mayor default: colonists already placed stay; newcomers fill empty circles,
    first production pairs (plantation with its building, best goods first), then corn,
    then violet buildings (dearest first), then quarries, then anything left."""
    p = s.players[seat]
    free = p.san_juan + (1 if extra else 0)
    occupied = p.occupied[:]
    quarries = p.occupied_quarries
    on = dict(p.buildings)

    def room(b: Building) -> int:
        return BUILDINGS[b].circles - on[b]

    def fill_plantation(g: Good) -> bool:
        nonlocal free
        if free and occupied[g] < p.plantations[g]:
            occupied[g] += 1
            free -= 1
            return True
        return False

    def fill_building(b: Building) -> bool:
        nonlocal free
        if free and b in on and room(b) > 0:
            on[b] += 1
            free -= 1
            return True
        return False

    for g in sorted(GOODS[1:], reverse=True):
        producers = [b for b in PRODUCERS[g] if b in on]
        while free:
            workers = sum(on[b] for b in producers)
            if occupied[g] <= workers:
                if not fill_plantation(g):
                    break
            elif not any(fill_building(b) for b in producers):
                break
    while fill_plantation(Good.CORN):
        pass
    violet = sorted((b for b in on if BUILDINGS[b].violet), key=lambda b: -BUILDINGS[b].price)
    for b in violet:
        fill_building(b)
    while free and quarries < p.quarries:
        quarries += 1
        free -= 1
    for g in GOODS:
        while fill_plantation(g):
            pass
    for b in on:
        while fill_building(b):
            pass
    buildings = tuple((b, n) for b, n in sorted(on.items()) if n)
    return Layout(
        (occupied[0], occupied[1], occupied[2], occupied[3], occupied[4]), quarries, buildings
    )


def default_action(game: Game, seat: int) -> Action | None:
    """The action the moderator applies for ``seat`` when he names nothing, or None
    where the rules publish no default (role, settler tile, building, sale)."""
    legal = game.legal_actions(seat)
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    s = game.state
    kind = game.kind()
    action: Action | None = None
    if kind is DecisionKind.HACIENDA:
        action = UseHacienda(True)
    elif kind is DecisionKind.MAYOR:
        extra = seat == s.picker and s.colonist_supply > 0
        action = PlaceColonists(default_layout(s, seat, extra), extra)
    elif kind is DecisionKind.CRAFTSMAN_EXTRA:
        action = default_extra(s, seat)
    elif kind is DecisionKind.LOAD:
        action = default_load(s, seat) or PASS
    elif kind is DecisionKind.STORE:
        action = default_store(s, seat)
    if action is not None and action not in legal:  # pragma: no cover - a bug, not input
        raise AssertionError(f"default {action!r} is not legal")
    return action
