"""The search player: determinised Monte Carlo search with heuristic playouts.

For one decision the player tries its candidate actions in many sampled worlds and
keeps the one that won most often. A world is the position as the seat sees it with
what it cannot see drawn anew: the order of the face-down plantations and the state of
the random generator that will reshuffle the discards. In each world the candidate is
applied and the game played to its end by the heuristic player for every seat (the
seat itself included). Which candidate is tried next is chosen by UCB1, so the
promising ones get most of the playouts.

The budget is wall-clock time (1 s by default) or an exact number of playouts; with the
latter the choice is a function of the position, the seat and the seed alone.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import Action, Build, DecisionKind, Game, PlaceColonists, TakePlantation, TakeQuarry
from ..engine.defaults import default_action, default_layout
from ..engine.roles.mayor import extras
from .heuristic import action_value, heuristic_action
from .players import offered

# The most candidates one decision considers: the heuristic's favourites among the
# builder's two dozen buildings, or a few sampled mayor layouts besides the default.
MAX_CANDIDATES = 8
MAYOR_SAMPLES = 4
# UCB1's exploration constant, for playout values between 0 and 1.
EXPLORATION = 0.5
# The score margin counts for a small part of a playout's value: it tells a near win
# from a rout when few playouts are made.
MARGIN_WEIGHT = 0.25
MARGIN_SCALE = 20.0


@dataclass(frozen=True, slots=True)
class Budget:
    """How long the search player may think about one decision: ``seconds`` of wall-clock
    time, or exactly ``playouts`` playouts (then the choice is deterministic); with both,
    whichever runs out first. At least one playout is always made."""

    seconds: float | None = 1.0
    playouts: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.playouts is None:
            raise ValueError("a budget needs seconds or playouts")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, not {self.seconds}")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {self.playouts}")

    @classmethod
    def of_playouts(cls, playouts: int) -> Budget:
        return cls(seconds=None, playouts=playouts)


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True, slots=True)
class Thought:
    """What a search found: the action, its mean playout value (0 to 1), how many
    playouts were made in all, and among how many candidates."""

    action: Action
    value: float
    playouts: int
    candidates: int


class SearchBot:
    """The search player as a bot: each decision searched with the same budget and a
    seed drawn from the bot's own generator."""

    def __init__(self, seed: int, budget: Budget = DEFAULT_BUDGET) -> None:
        self.rng = random.Random(seed)
        self.budget = budget

    def choose(self, game: Game, seat: int) -> Action:
        return search(game, seat, self.rng.getrandbits(64), self.budget)


def search(game: Game, seat: int, seed: int, budget: Budget = DEFAULT_BUDGET) -> Action:
    """The search player's action for ``seat`` now. ``game`` is not changed."""
    return think(game, seat, seed, budget).action


def think(game: Game, seat: int, seed: int, budget: Budget = DEFAULT_BUDGET) -> Thought:
    """:func:`search`, with how many playouts it made."""
    legal = offered(game, seat)
    if len(legal) == 1:
        return Thought(legal[0], 0.0, 0, 1)
    rng = random.Random(seed)
    candidates = _candidates(game, seat, legal, rng)
    if len(candidates) == 1:
        return Thought(candidates[0], 0.0, 0, 1)
    k = len(candidates)
    visits = [0] * k
    totals = [0.0] * k
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    limit = budget.playouts
    made = 0
    while made == 0 or (
        (limit is None or made < limit) and (deadline is None or time.perf_counter() < deadline)
    ):
        i = _select(visits, totals, made)
        world = _world(game, rng)
        world.apply(seat, candidates[i])
        _playout(world, rng)
        visits[i] += 1
        totals[i] += _outcome(world, seat)
        made += 1
    best = max(
        range(k), key=lambda j: (totals[j] / visits[j] if visits[j] else -1.0, visits[j], -j)
    )
    return Thought(candidates[best], totals[best] / visits[best], made, k)


def _candidates(game: Game, seat: int, legal: Sequence[Action], rng: random.Random) -> list[Action]:
    """The actions worth searching, the heuristic's favourites first."""
    if game.kind() is DecisionKind.MAYOR:
        s = game.state
        out: list[Action] = [PlaceColonists(default_layout(s, seat, x), x) for x in extras(s, seat)]
        for _ in range(MAYOR_SAMPLES):
            out.append(legal[rng.randrange(len(legal))])
        return list(dict.fromkeys(out))
    # The published default first (loading and storage have no other ranking), then the
    # heuristic's favourites; a tile or building manned for free is never worse than the
    # same one empty.
    default = default_action(game, seat)
    manned = [a for a in legal if not _unmanned_twin(a, legal)]
    ranked = sorted(manned, key=lambda a: -action_value(game, seat, a))
    first = [] if default is None else [default]
    return list(dict.fromkeys(first + ranked))[:MAX_CANDIDATES]


def _unmanned_twin(action: Action, legal: Sequence[Action]) -> bool:
    match action:
        case Build(building=b, university=False):
            return Build(b, True) in legal
        case TakePlantation(good=g, hospice=False):
            return TakePlantation(g, True) in legal
        case TakeQuarry(hospice=False):
            return TakeQuarry(True) in legal
    return False


def _select(visits: list[int], totals: list[float], made: int) -> int:
    """UCB1: every candidate once, then the best upper confidence bound."""
    for i, n in enumerate(visits):
        if n == 0:
            return i
    log_n = math.log(made)
    return max(
        range(len(visits)),
        key=lambda i: totals[i] / visits[i] + EXPLORATION * math.sqrt(log_n / visits[i]),
    )


def _world(game: Game, rng: random.Random) -> Game:
    """A copy of the position with what no seat can see drawn anew: the order of the
    face-down plantations and the generator that will reshuffle the discards."""
    world = game.copy()
    s = world.state
    s.pile.sort()
    rng.shuffle(s.pile)
    s.rng = rng.getrandbits(64)
    return world


def _playout(game: Game, rng: random.Random) -> None:
    """Play to the end, every seat by the heuristic."""
    while not game.over:
        d = game.decisions()[0]
        action = d.actions[0] if d.forced else heuristic_action(game, d.seat, rng)
        game.apply(d.seat, action)


def _outcome(game: Game, seat: int) -> float:
    """1 for a win (a share of it for a tie), less for a loss, with the score margin as
    a small part: between 0 and 1."""
    winners = game.winners()
    won = 1.0 / len(winners) if seat in winners else 0.0
    totals = [sc.total for sc in game.scores()]
    mine = totals[seat]
    best_other = max(t for i, t in enumerate(totals) if i != seat)
    margin = max(-1.0, min(1.0, (mine - best_other) / MARGIN_SCALE))
    return (1 - MARGIN_WEIGHT) * won + MARGIN_WEIGHT * (margin + 1) / 2
