"""The craftsman: everyone produces; the craftsman may take one extra barrel."""

from __future__ import annotations

from ..actions import PASS, Action, ExtraGood
from ..components import FACTORY_BONUS, GOODS, Building, Good, Role
from ..events import Event, ExtraTaken, FactoryPaid, Passed, Produced
from ..state import State
from .common import order_from

# Module-level names: an Enum member looked up on its class is slow (see game.py).
_FACTORY = Building.FACTORY


EXTRA = {g: ExtraGood(g) for g in Good}
_KINDS = range(len(GOODS))


def begin(s: State, ev: list[Event]) -> None:
    """Production in order from the craftsman, so a short supply favours him."""
    s.produced = [False] * 5
    supply = s.goods_supply
    for seat in order_from(s, s.picker):
        p = s.players[seat]
        got = p.production()
        kinds = 0
        for g in _KINDS:
            n = got[g]
            if n:
                if n > supply[g]:
                    n = got[g] = supply[g]
                    if not n:
                        continue
                kinds += 1
                supply[g] -= n
                p.goods[g] += n
        if kinds:
            ev.append(Produced(seat, (got[0], got[1], got[2], got[3], got[4])))
        if p.active(_FACTORY) and FACTORY_BONUS[kinds]:
            p.doubloons += FACTORY_BONUS[kinds]
            ev.append(FactoryPaid(seat, FACTORY_BONUS[kinds]))
        if seat == s.picker:
            s.produced = [n > 0 for n in got]


def legal(s: State, seat: int) -> list[Action]:
    if seat != s.picker:
        return []
    out: list[Action] = [EXTRA[g] for g in GOODS if s.produced[g] and s.goods_supply[g] > 0]
    if out:
        out.append(PASS)
    return out


def apply(s: State, seat: int, action: Action, ev: list[Event]) -> None:
    if isinstance(action, ExtraGood):
        s.goods_supply[action.good] -= 1
        s.players[seat].goods[action.good] += 1
        ev.append(ExtraTaken(seat, action.good))
    else:
        ev.append(Passed(seat, Role.CRAFTSMAN))
    s.produced = [False] * 5
