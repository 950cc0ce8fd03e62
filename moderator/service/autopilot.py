"""The autopilot: who decides for a seat at its deadline (where the rules publish no
default, or always under a game's "autopilot" policy) and for an absent player."""

from __future__ import annotations

import enum
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..bots import Budget, HeuristicBot, search
from ..bots.search import DEFAULT_BUDGET
from ..config import AutopilotSection
from ..engine import Action, Game, action_to

log = logging.getLogger("moderator.autopilot")


class Player(enum.StrEnum):
    SEARCH = "search"  # determinised Monte Carlo search: strong, seconds a decision
    HEURISTIC = "heuristic"  # one greedy step: milliseconds (the demo's)


def _search(game: Game, seat: int, seed: int, budget: Budget) -> Action:
    return search(game, seat, seed, budget)


def _heuristic(game: Game, seat: int, seed: int, budget: Budget) -> Action:
    return HeuristicBot(seed).choose(game, seat)


@dataclass(frozen=True, slots=True)
class Autopilot:
    """A player the moderator lets decide. ``inline``: cheap enough (milliseconds) to
    decide inside the transaction of the mail or the clock tick that needs it; otherwise
    the planner decides off that path (moderator/daemon.py) and the mails that announce
    the decision wait for it."""

    player: Player
    choose: Callable[[Game, int, int, Budget], Action]
    inline: bool
    budget: Budget = DEFAULT_BUDGET  # how long a player that searches thinks


PLAYERS = {
    Player.SEARCH: Autopilot(Player.SEARCH, _search, inline=False),
    Player.HEURISTIC: Autopilot(Player.HEURISTIC, _heuristic, inline=True),
}


def configured(section: AutopilotSection) -> Autopilot:
    """The autopilot the configuration names (config.py checks the name and numbers):
    thinking ``seconds`` a decision, or exactly ``playouts`` when set."""
    if section.playouts:
        budget = Budget.of_playouts(section.playouts)
    else:
        budget = Budget(seconds=section.seconds)
    return replace(PLAYERS[Player(section.player)], budget=budget)


def autopilot_seed(game_seed: int, seq: int, seat: int) -> int:
    """The autopilot's seed for one decision: the game's, the number the action will have
    in the log, and the seat (so a replay of the same position decides the same)."""
    return game_seed ^ (seq << 8) ^ seat


def choose(autopilot: Autopilot, game: Game, seat: int, seed: int) -> Action:
    """The autopilot's action for ``seat`` in ``game`` (which is not changed). A player
    that fails must not stall the game: the heuristic decides then, and it is logged."""
    try:
        return autopilot.choose(game, seat, seed, autopilot.budget)
    except Exception:
        log.exception("the %s autopilot failed; the heuristic decides", autopilot.player)
        return _heuristic(game, seat, seed, autopilot.budget)


def decide(autopilot: Autopilot, state_json: str, seat: int, seed: int) -> str:
    """:func:`choose` from a position as the store keeps it, to the action as the log
    stores it (JSON): a pure function, so that it may run in another process."""
    action = choose(autopilot, Game.from_json(state_json), seat, seed)
    return json.dumps(action_to(action), sort_keys=True)


__all__ = ["PLAYERS", "Autopilot", "Player", "autopilot_seed", "choose", "configured", "decide"]
