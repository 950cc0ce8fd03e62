"""The autopilot: who decides for a seat at its deadline (where the rules publish no
default, or always under a game's "autopilot" policy) and for an absent player."""

from __future__ import annotations

import enum
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..bots import HeuristicBot
from ..config import AutopilotSection
from ..engine import Action, Game, action_to

log = logging.getLogger("moderator.autopilot")


class Player(enum.StrEnum):
    HEURISTIC = "heuristic"


def _heuristic(game: Game, seat: int, seed: int, seconds: float) -> Action:
    return HeuristicBot(seed).choose(game, seat)


@dataclass(frozen=True, slots=True)
class Autopilot:
    """A player the moderator lets decide. ``inline``: cheap enough (milliseconds) to
    decide inside the transaction of the mail or the clock tick that needs it; otherwise
    the planner decides off that path (moderator/daemon.py) and the mails that announce
    the decision wait for it."""

    player: Player
    choose: Callable[[Game, int, int, float], Action]
    inline: bool
    seconds: float = 1.0  # thinking time per decision, for players that search


PLAYERS = {Player.HEURISTIC: Autopilot(Player.HEURISTIC, _heuristic, inline=True)}


def configured(section: AutopilotSection) -> Autopilot:
    """The autopilot the configuration names (config.py checks the name)."""
    return replace(PLAYERS[Player(section.player)], seconds=section.seconds)


def autopilot_seed(game_seed: int, seq: int, seat: int) -> int:
    """The autopilot's seed for one decision: the game's, the number the action will have
    in the log, and the seat (so a replay of the same position decides the same)."""
    return game_seed ^ (seq << 8) ^ seat


def decide(autopilot: Autopilot, state_json: str, seat: int, seed: int) -> str:
    """The autopilot's action as the log stores it (JSON), from a position as the store
    keeps it: a pure function, so that it may run in another process."""
    game = Game.from_json(state_json)
    try:
        action = autopilot.choose(game, seat, seed, autopilot.seconds)
    except Exception:  # a failing player must not stall the game: the heuristic decides
        log.exception("the %s autopilot failed; the heuristic decides", autopilot.player)
        action = _heuristic(game, seat, seed, 0.0)
    return json.dumps(action_to(action), sort_keys=True)


__all__ = ["PLAYERS", "Autopilot", "Player", "autopilot_seed", "configured", "decide"]
