"""The pure Puerto Rico rules engine: no mail, no SQL, no templates."""

from .actions import (
    PASS,
    Action,
    Build,
    DecisionKind,
    ExtraGood,
    Layout,
    Load,
    LoadWharf,
    Pass,
    PickRole,
    PlaceColonists,
    Sell,
    Store,
    TakePlantation,
    TakeQuarry,
    UseHacienda,
)
from .components import BUILDINGS, Building, Good, Role
from .events import Event, describe
from .game import STANDARD, TWO_PLAYER, Decision, Game, IllegalAction, replay
from .serialize import StateError, action_from, action_to
from .state import Phase, Player, State

__all__ = [
    "BUILDINGS",
    "PASS",
    "STANDARD",
    "TWO_PLAYER",
    "Action",
    "Build",
    "Building",
    "Decision",
    "DecisionKind",
    "Event",
    "ExtraGood",
    "Game",
    "Good",
    "IllegalAction",
    "Layout",
    "Load",
    "LoadWharf",
    "Pass",
    "Phase",
    "PickRole",
    "PlaceColonists",
    "Player",
    "Role",
    "Sell",
    "State",
    "StateError",
    "Store",
    "TakePlantation",
    "TakeQuarry",
    "UseHacienda",
    "action_from",
    "action_to",
    "describe",
    "replay",
]
