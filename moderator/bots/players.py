"""What every bot offers, and the random player (the yardstick of the benchmarks)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..engine import Action, Game


class Bot(Protocol):
    """A player that chooses one of ``seat``'s legal actions in ``game``."""

    def choose(self, game: Game, seat: int) -> Action: ...


def offered(game: Game, seat: int) -> Sequence[Action]:
    """The legal actions of ``seat``; a bot asked when it has no decision is a caller's bug."""
    legal = game.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision now")
    return legal


class RandomBot:
    """Chooses uniformly among the legal actions (mayor layouts included)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Action:
        legal = offered(game, seat)
        return legal[self.rng.randrange(len(legal))]
