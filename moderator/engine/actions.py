"""The decisions a player can take, as small frozen dataclasses joined in one union."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import get_args

from .components import Building, Good, Role
from .frozen import quick_init


class DecisionKind(Enum):
    """What a pending decision is about (used for prompts and order resolution)."""

    ROLE = "role"
    HACIENDA = "hacienda"
    SETTLE = "settle"
    MAYOR = "mayor"
    BUILD = "build"
    CRAFTSMAN_EXTRA = "extra"
    SELL = "sell"
    LOAD = "load"
    STORE = "store"


@dataclass(frozen=True, slots=True)
class PickRole:
    role: Role


@dataclass(frozen=True, slots=True)
class UseHacienda:
    """Before settling: take (or not) the top face-down plantation too."""

    use: bool


@dataclass(frozen=True, slots=True)
class TakePlantation:
    good: Good
    hospice: bool = False


@dataclass(frozen=True, slots=True)
class TakeQuarry:
    hospice: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    """A player's whole colonist layout; San Juan holds whoever is left over.

    ``plantations[g]`` is the number of occupied plantations of good ``g``;
    ``buildings`` lists the buildings with at least one colonist, in enum order.
    """

    plantations: tuple[int, int, int, int, int]
    quarries: int
    buildings: tuple[tuple[Building, int], ...]

    @property
    def placed(self) -> int:
        return sum(self.plantations) + self.quarries + sum([n for _, n in self.buildings])

    def on(self, building: Building) -> int:
        for b, n in self.buildings:
            if b is building:
                return n
        return 0


@dataclass(frozen=True, slots=True)
class PlaceColonists:
    """The mayor phase: one player's new layout. ``extra`` is the mayor's privilege
    colonist (always False for everyone else)."""

    layout: Layout
    extra: bool = False


@dataclass(frozen=True, slots=True)
class Build:
    building: Building
    university: bool = False


@dataclass(frozen=True, slots=True)
class ExtraGood:
    """The craftsman's privilege barrel."""

    good: Good


@dataclass(frozen=True, slots=True)
class Sell:
    good: Good


@dataclass(frozen=True, slots=True)
class Load:
    """Load every barrel of ``good`` that fits on cargo ship ``ship`` (0 = smallest)."""

    good: Good
    ship: int


@dataclass(frozen=True, slots=True)
class LoadWharf:
    good: Good


@dataclass(frozen=True, slots=True)
class Store:
    """End of the captain phase: the kinds kept whole in warehouses, and the one
    barrel kept on the wind rose (None when nothing is left for it)."""

    warehouse: tuple[Good, ...]
    windrose: Good | None


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline: take no tile, build nothing, sell nothing, no extra barrel, no wharf."""


Action = (
    PickRole
    | UseHacienda
    | TakePlantation
    | TakeQuarry
    | PlaceColonists
    | Build
    | ExtraGood
    | Sell
    | Load
    | LoadWharf
    | Store
    | Pass
)

for _action in get_args(Action):
    quick_init(_action)

PASS = Pass()
