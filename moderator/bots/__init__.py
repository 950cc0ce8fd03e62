"""Autopilot players, each a pure function of a position: random, heuristic and search.

``HeuristicBot(seed).choose(game, seat)`` stands in for an absent player and plays the
demo; :func:`search` (the search player) thinks harder within a :class:`Budget` and can
run anywhere, off the path that processes mail: it reads the position it is given and
returns an action, changing nothing.
"""

from .heuristic import HeuristicBot, heuristic_action
from .players import Bot, RandomBot
from .search import Budget, SearchBot, search

__all__ = ["Bot", "Budget", "HeuristicBot", "RandomBot", "SearchBot", "heuristic_action", "search"]
