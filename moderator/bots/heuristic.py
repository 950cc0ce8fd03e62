"""The heuristic player: the moderator's defaults, else a greedy estimate of the gain."""

from __future__ import annotations

import random

from ..engine import (
    BUILDINGS,
    Action,
    Build,
    DecisionKind,
    ExtraGood,
    Game,
    Good,
    Pass,
    PickRole,
    Role,
    Sell,
    TakePlantation,
    TakeQuarry,
)
from ..engine.defaults import default_action
from ..engine.roles import builder, trader
from .players import offered

# Decisions where the published default is also a sensible play.
_DEFAULTED = (DecisionKind.MAYOR, DecisionKind.LOAD, DecisionKind.STORE)


class HeuristicBot:
    """Plays sensibly enough for a demo or an absent player, and fast enough to be the
    search player's model of everyone in its playouts. Against three random players it
    wins nearly every game (bench/bots.py)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Action:
        return heuristic_action(game, seat, self.rng)


def heuristic_action(game: Game, seat: int, rng: random.Random) -> Action:
    """The heuristic's choice for ``seat``; ``rng`` breaks ties between equal values."""
    legal = offered(game, seat)
    if game.kind() in _DEFAULTED:
        action = default_action(game, seat)
        if action is not None:
            return action
    return max(legal, key=lambda a: (action_value(game, seat, a), rng.random()))


def action_value(game: Game, seat: int, action: Action) -> float:
    """The heuristic worth of one action: the immediate gain, roughly in victory points."""
    s = game.state
    p = s.players[seat]
    match action:
        case PickRole(role=role):
            return _role_value(game, seat, role) + s.role_doubloons[role]
        case TakePlantation(good=good, hospice=h):
            producers = sum(
                BUILDINGS[b].circles for b in p.buildings if BUILDINGS[b].produces is good
            )
            have = p.plantations[good]
            return 1 + good.price * 0.3 + (1.5 if producers > have else 0) + h
        case TakeQuarry(hospice=h):
            return 2.0 + h
        case Build(building=b, university=u):
            info = BUILDINGS[b]
            return info.vp * 2 + info.price * 0.3 - builder.cost(s, seat, b) * 0.1 + u
        case Sell(good=good):
            return trader.price(s, seat, good)
        case ExtraGood(good=good):
            return good.price
        case Pass():
            return 0.5
    return 1.0


def _role_value(game: Game, seat: int, role: Role) -> float:
    s = game.state
    p = s.players[seat]
    if role is Role.CRAFTSMAN:
        return sum(p.production()) * 0.8
    if role is Role.TRADER:
        sellable = [g for g in Good if p.goods[g] and g not in s.trading_house]
        return max((trader.price(s, seat, g) for g in sellable), default=-1)
    if role is Role.CAPTAIN:
        return sum(p.goods) * 0.6
    if role is Role.BUILDER:
        return min(p.doubloons, 10) * 0.4
    if role is Role.MAYOR:
        return 1.0 + p.san_juan * 0.3
    if role is Role.SETTLER:
        return 1.5 if p.island_free else -1
    return 1.0  # prospector
