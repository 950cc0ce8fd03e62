"""The captain: players load goods in turn while anyone can; then goods are stored."""

from __future__ import annotations

from itertools import combinations

from ..actions import PASS, Action, Load, LoadWharf, Pass, Store
from ..components import GOODS, SETUPS, Building, Good, Role
from ..events import EndTriggered, Event, GoodsStored, Loaded, Passed, ShipsUnloaded
from ..state import Player, State

# Module-level names: an Enum member looked up on its class is slow (see game.py).
_WHARF = Building.WHARF
_HARBOR = Building.HARBOR
_SMALL_WAREHOUSE = Building.SMALL_WAREHOUSE
_LARGE_WAREHOUSE = Building.LARGE_WAREHOUSE


WHARF = {g: LoadWharf(g) for g in Good}
# The offered loads, made once (a frozen dataclass costs a few hundred ns to build).
_SHIPS = max(len(setup.ships) for setup in SETUPS.values())
_LOAD = {(g, i): Load(g, i) for g in Good for i in range(_SHIPS)}


def ship_options(s: State, p: Player) -> list[Load]:
    """The cargo-ship loads this player may make now (seed 000's loading rules).

    A kind already on a ship may go only on that ship (and not at all when it is full).
    Otherwise it goes on an empty ship: one that takes every barrel if any does
    (any such ship; the default is the smallest), else the one that takes the most.
    """
    out: list[Load] = []
    ships = s.ships
    for g in GOODS:
        have = p.goods[g]
        if not have:
            continue
        carrying = -1
        for i, ship in enumerate(ships):
            if ship.good is g:
                carrying = i
                break
        if carrying >= 0:
            if ships[carrying].count < ships[carrying].capacity:
                out.append(_LOAD[g, carrying])
            continue
        empties = [i for i, ship in enumerate(ships) if ship.good is None]
        if not empties:
            continue
        whole = [i for i in empties if ships[i].capacity >= have]
        if whole:
            out.extend([_LOAD[g, i] for i in whole])
        else:
            out.append(_LOAD[g, max(empties, key=lambda i: ships[i].capacity)])
    return out


def wharf_available(s: State, seat: int) -> bool:
    p = s.players[seat]
    return p.active(_WHARF) and not s.wharf_used[seat] and not s.declined_wharf[seat]


def legal(s: State, seat: int) -> list[Action]:
    p = s.players[seat]
    out: list[Action] = list(ship_options(s, p))
    if wharf_available(s, seat):
        wharf: list[Action] = [WHARF[g] for g in GOODS if p.goods[g]]
        if wharf and not out:
            # Nothing fits on a cargo ship: the wharf is optional, so he may pass.
            wharf.append(PASS)
        out.extend(wharf)
    return out


def _score(s: State, seat: int, count: int) -> int:
    p = s.players[seat]
    vp = count
    if seat == s.picker and not s.captain_privilege_used:
        s.captain_privilege_used = True
        vp += 1
    if p.active(_HARBOR):
        vp += 1
    p.vp += vp
    s.vp_chips -= vp  # may go below zero: shipping still scores (rules-reference)
    return vp


def apply(s: State, seat: int, action: Action, ev: list[Event]) -> None:
    p = s.players[seat]
    if isinstance(action, Load):
        ship = s.ships[action.ship]
        n = min(p.goods[action.good], ship.capacity - ship.count)
        ship.good = action.good
        ship.count += n
        p.goods[action.good] -= n
        ev.append(Loaded(seat, action.good, n, action.ship, _score(s, seat, n)))
    elif isinstance(action, LoadWharf):
        n = p.goods[action.good]
        p.goods[action.good] = 0
        s.goods_supply[action.good] += n
        s.wharf_used[seat] = True
        ev.append(Loaded(seat, action.good, n, None, _score(s, seat, n)))
    else:
        assert isinstance(action, Pass)
        s.declined_wharf[seat] = True
        ev.append(Passed(seat, Role.CAPTAIN))
    if s.vp_chips <= 0 and s.end_reason is None:
        s.end_reason = "the victory-point chips have run out"
        ev.append(EndTriggered(s.end_reason))


# -- storage -------------------------------------------------------------------


def warehouse_kinds(p: Player) -> int:
    return (1 if p.active(_SMALL_WAREHOUSE) else 0) + (2 if p.active(_LARGE_WAREHOUSE) else 0)


def store_options(p: Player) -> list[Store]:
    """Every way to keep goods: ``cap`` whole kinds in warehouses, then one barrel of
    another kind on the wind rose. Empty when everything can be kept anyway."""
    held = [g for g in GOODS if p.goods[g]]
    cap = warehouse_kinds(p)
    if len(held) <= cap:
        return []
    out: list[Store] = []
    for kept in combinations(held, cap):
        rest = [g for g in held if g not in kept]
        for g in rest:
            out.append(Store(kept, g))
    # When everything fits, everything is kept: "he must find room" (seed 000); the
    # choice of what to return exists only when something must be returned.
    if any(_lost(p, o) == 0 for o in out):
        return []
    return out


def _lost(p: Player, store: Store) -> int:
    kept = sum(p.goods[g] for g in store.warehouse)
    if store.windrose is not None:
        kept += 1
    return sum(p.goods) - kept


def store_legal(s: State, seat: int) -> list[Action]:
    if not s.waiting[seat]:
        return []
    return list(store_options(s.players[seat]))


def store_apply(s: State, seat: int, action: Action, ev: list[Event]) -> None:
    assert isinstance(action, Store)
    p = s.players[seat]
    kept = [0, 0, 0, 0, 0]
    for g in action.warehouse:
        kept[g] = p.goods[g]
    if action.windrose is not None:
        kept[action.windrose] += 1
    lost = [p.goods[g] - kept[g] for g in GOODS]
    for g in GOODS:
        s.goods_supply[g] += lost[g]
    p.goods = kept
    s.waiting[seat] = False
    ev.append(
        GoodsStored(
            seat,
            (kept[0], kept[1], kept[2], kept[3], kept[4]),
            (lost[0], lost[1], lost[2], lost[3], lost[4]),
        )
    )


def begin_storage(s: State) -> list[list[Store]]:
    """Everyone who must choose what to keep waits; returns each seat's choices."""
    options = [store_options(p) for p in s.players]
    s.waiting = [bool(o) for o in options]
    return options


def end(s: State, ev: list[Event]) -> None:
    """The captain's last duty: unload the full ships into the supply."""
    unloaded: list[int] = []
    for i, ship in enumerate(s.ships):
        if ship.good is not None and ship.count >= ship.capacity:
            s.goods_supply[ship.good] += ship.count
            ship.good = None
            ship.count = 0
            unloaded.append(i)
    if unloaded:
        ev.append(ShipsUnloaded(tuple(unloaded)))
