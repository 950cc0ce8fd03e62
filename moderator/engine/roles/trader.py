"""The trader: each player in turn may sell one barrel to the trading house."""

from __future__ import annotations

from ..actions import PASS, Action, Sell
from ..components import GOODS, TRADING_HOUSE_SPACES, Building, Good, Role
from ..events import Event, Passed, Sold, TradingHouseEmptied
from ..state import State

# Module-level names: an Enum member looked up on its class is slow (see game.py).
_SMALL_MARKET = Building.SMALL_MARKET
_LARGE_MARKET = Building.LARGE_MARKET
_OFFICE = Building.OFFICE


SELL = {g: Sell(g) for g in Good}


def price(s: State, seat: int, good: Good) -> int:
    p = s.players[seat]
    bonus = 1 if seat == s.picker else 0
    if p.active(_SMALL_MARKET):
        bonus += 1
    if p.active(_LARGE_MARKET):
        bonus += 2
    return good.price + bonus


def legal(s: State, seat: int) -> list[Action]:
    if len(s.trading_house) >= TRADING_HOUSE_SPACES:
        return []
    p = s.players[seat]
    office = p.active(_OFFICE)
    out: list[Action] = [
        SELL[g] for g in GOODS if p.goods[g] and (office or g not in s.trading_house)
    ]
    if out:
        out.append(PASS)
    return out


def apply(s: State, seat: int, action: Action, ev: list[Event]) -> None:
    if not isinstance(action, Sell):
        ev.append(Passed(seat, Role.TRADER))
        return
    p = s.players[seat]
    paid = price(s, seat, action.good)
    p.goods[action.good] -= 1
    p.doubloons += paid
    s.trading_house.append(action.good)
    ev.append(Sold(seat, action.good, paid))


def end(s: State, ev: list[Event]) -> None:
    if len(s.trading_house) >= TRADING_HOUSE_SPACES:
        for g in s.trading_house:
            s.goods_supply[g] += 1
        ev.append(TradingHouseEmptied(tuple(s.trading_house)))
        s.trading_house = []
