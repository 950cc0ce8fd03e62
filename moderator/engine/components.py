"""The game's closed sets (goods, roles, buildings) and its component tables."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Good(IntEnum):
    """The five kinds of goods, ordered by trading value (corn 0 … coffee 4)."""

    CORN = 0
    INDIGO = 1
    SUGAR = 2
    TOBACCO = 3
    COFFEE = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def price(self) -> int:
        """The trading-house price, which is also the enum value by construction."""
        return int(self)


GOODS: tuple[Good, ...] = tuple(Good)


class Role(IntEnum):
    """The role cards. At five players there are two prospector cards."""

    SETTLER = 0
    MAYOR = 1
    BUILDER = 2
    CRAFTSMAN = 3
    TRADER = 4
    CAPTAIN = 5
    PROSPECTOR = 6
    PROSPECTOR2 = 7

    @property
    def label(self) -> str:
        return "prospector" if self is Role.PROSPECTOR2 else self.name.lower()

    @property
    def is_prospector(self) -> bool:
        return self in (Role.PROSPECTOR, Role.PROSPECTOR2)


class Building(IntEnum):
    """The 23 buildings, in the order of the rulebook's building table."""

    SMALL_INDIGO_PLANT = 0
    SMALL_SUGAR_MILL = 1
    INDIGO_PLANT = 2
    SUGAR_MILL = 3
    TOBACCO_STORAGE = 4
    COFFEE_ROASTER = 5
    SMALL_MARKET = 6
    HACIENDA = 7
    CONSTRUCTION_HUT = 8
    SMALL_WAREHOUSE = 9
    HOSPICE = 10
    OFFICE = 11
    LARGE_MARKET = 12
    LARGE_WAREHOUSE = 13
    FACTORY = 14
    UNIVERSITY = 15
    HARBOR = 16
    WHARF = 17
    GUILD_HALL = 18
    RESIDENCE = 19
    FORTRESS = 20
    CUSTOMS_HOUSE = 21
    CITY_HALL = 22

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")

    @property
    def info(self) -> BuildingInfo:
        return BUILDINGS[self]


@dataclass(frozen=True, slots=True)
class BuildingInfo:
    """One row of the building table."""

    building: Building
    price: int
    vp: int
    circles: int
    column: int
    copies: int
    produces: Good | None = None
    effect: str = ""

    @property
    def large(self) -> bool:
        return self.column == 4

    @property
    def spaces(self) -> int:
        return 2 if self.large else 1

    @property
    def violet(self) -> bool:
        return self.produces is None

    @property
    def small_production(self) -> bool:
        return self.produces is not None and self.circles == 1


_B = Building
_ROWS = (
    BuildingInfo(_B.SMALL_INDIGO_PLANT, 1, 1, 1, 1, 4, Good.INDIGO, "produces indigo"),
    BuildingInfo(_B.SMALL_SUGAR_MILL, 2, 1, 1, 1, 4, Good.SUGAR, "produces sugar"),
    BuildingInfo(_B.INDIGO_PLANT, 3, 2, 3, 2, 3, Good.INDIGO, "produces indigo"),
    BuildingInfo(_B.SUGAR_MILL, 4, 2, 3, 2, 3, Good.SUGAR, "produces sugar"),
    BuildingInfo(_B.TOBACCO_STORAGE, 5, 3, 3, 3, 3, Good.TOBACCO, "produces tobacco"),
    BuildingInfo(_B.COFFEE_ROASTER, 6, 3, 2, 3, 3, Good.COFFEE, "produces coffee"),
    BuildingInfo(_B.SMALL_MARKET, 1, 1, 1, 1, 2, None, "+1 doubloon per sale"),
    BuildingInfo(_B.HACIENDA, 2, 1, 1, 1, 2, None, "extra face-down plantation"),
    BuildingInfo(_B.CONSTRUCTION_HUT, 2, 1, 1, 1, 2, None, "quarry instead of plantation"),
    BuildingInfo(_B.SMALL_WAREHOUSE, 3, 1, 1, 1, 2, None, "store one kind"),
    BuildingInfo(_B.HOSPICE, 4, 2, 1, 2, 2, None, "colonist on new island tile"),
    BuildingInfo(_B.OFFICE, 5, 2, 1, 2, 2, None, "sell a kind already sold"),
    BuildingInfo(_B.LARGE_MARKET, 5, 2, 1, 2, 2, None, "+2 doubloons per sale"),
    BuildingInfo(_B.LARGE_WAREHOUSE, 6, 2, 1, 2, 2, None, "store two kinds"),
    BuildingInfo(_B.FACTORY, 7, 3, 1, 3, 2, None, "doubloons for kinds produced"),
    BuildingInfo(_B.UNIVERSITY, 8, 3, 1, 3, 2, None, "colonist on new building"),
    BuildingInfo(_B.HARBOR, 8, 3, 1, 3, 2, None, "+1 VP per loading"),
    BuildingInfo(_B.WHARF, 9, 3, 1, 3, 2, None, "private ship once per phase"),
    BuildingInfo(
        _B.GUILD_HALL,
        10,
        4,
        1,
        4,
        1,
        None,
        "end: +1 per small, +2 per large production building",
    ),
    BuildingInfo(
        _B.RESIDENCE,
        10,
        4,
        1,
        4,
        1,
        None,
        "end: island tiles <=9 -> 4, 10 -> 5, 11 -> 6, 12 -> 7",
    ),
    BuildingInfo(_B.FORTRESS, 10, 4, 1, 4, 1, None, "end: +1 per 3 colonists on his board"),
    BuildingInfo(_B.CUSTOMS_HOUSE, 10, 4, 1, 4, 1, None, "end: +1 per 4 VP chips"),
    BuildingInfo(_B.CITY_HALL, 10, 4, 1, 4, 1, None, "end: +1 per violet building"),
)
BUILDINGS: dict[Building, BuildingInfo] = {row.building: row for row in _ROWS}
assert tuple(BUILDINGS) == tuple(Building), "building table out of enum order"

# Production buildings of each good, small ones first.
PRODUCERS: dict[Good, tuple[Building, ...]] = {
    g: tuple(b for b in Building if BUILDINGS[b].produces is g) for g in Good
}

ISLAND_SPACES = 12
CITY_SPACES = 12
TRADING_HOUSE_SPACES = 4

# Factory: doubloons for the number of kinds produced (0 and 1 kind: nothing).
FACTORY_BONUS = (0, 0, 1, 2, 3, 5)

# Full box (3–5 players): plantation tiles, quarries, goods barrels.
PLANTATION_TILES: dict[Good, int] = {
    Good.COFFEE: 8,
    Good.TOBACCO: 9,
    Good.CORN: 10,
    Good.SUGAR: 11,
    Good.INDIGO: 12,
}
QUARRIES = 8
GOODS_BARRELS: dict[Good, int] = {
    Good.COFFEE: 9,
    Good.TOBACCO: 9,
    Good.CORN: 10,
    Good.SUGAR: 11,
    Good.INDIGO: 11,
}


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything that depends on the number of players (rules-reference table)."""

    players: int
    doubloons: int
    colonist_supply: int
    colonist_ship: int
    vp_chips: int
    ships: tuple[int, ...]
    roles: tuple[Role, ...]
    face_up: int
    # Starting plantation per seat, seat 0 being the first governor.
    starting: tuple[Good, ...]
    two_player: bool = False


_BASE_ROLES = (Role.SETTLER, Role.MAYOR, Role.BUILDER, Role.CRAFTSMAN, Role.TRADER, Role.CAPTAIN)
_I, _C = Good.INDIGO, Good.CORN

SETUPS: dict[int, Setup] = {
    2: Setup(2, 3, 40, 2, 65, (4, 6), (*_BASE_ROLES, Role.PROSPECTOR), 3, (_I, _C), True),
    3: Setup(3, 2, 55, 3, 75, (4, 5, 6), _BASE_ROLES, 4, (_I, _I, _C)),
    4: Setup(4, 3, 75, 4, 100, (5, 6, 7), (*_BASE_ROLES, Role.PROSPECTOR), 5, (_I, _I, _C, _C)),
    5: Setup(
        5,
        4,
        95,
        5,
        122,
        (6, 7, 8),
        (*_BASE_ROLES, Role.PROSPECTOR, Role.PROSPECTOR2),
        6,
        (_I, _I, _I, _C, _C),
    ),
}

# Two-player variant removals (rules-reference, "Two-player variant").
TWO_PLAYER_PLANTATIONS_REMOVED = 3
TWO_PLAYER_QUARRIES_REMOVED = 3
TWO_PLAYER_GOODS_REMOVED = 2
TWO_PLAYER_PRODUCTION_REMOVED = 2
TWO_PLAYER_VIOLET_REMOVED = 1
# Each player picks this many roles a round in the two-player variant.
TWO_PLAYER_ROLES_EACH = 3


def building_copies(players: int) -> dict[Building, int]:
    """How many of each building the supply starts with."""
    copies = {b: info.copies for b, info in BUILDINGS.items()}
    if players == 2:
        for b, info in BUILDINGS.items():
            if info.produces is not None:
                copies[b] -= TWO_PLAYER_PRODUCTION_REMOVED
            elif not info.large:
                # The single large buildings stay: see docs/rules-interpretations.md.
                copies[b] -= TWO_PLAYER_VIOLET_REMOVED
    return copies
