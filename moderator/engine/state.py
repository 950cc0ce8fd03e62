"""The whole game state: plain mutable records owned by one Game, copied on demand."""

from __future__ import annotations

from enum import Enum

from .components import BUILDINGS, GOODS, ISLAND_SPACES, PRODUCERS, Building, Good

# City spaces and circles per building, by building number (the hot paths add them up).
_SPACES = tuple(info.spaces for info in BUILDINGS.values())
_CIRCLES = tuple(info.circles for info in BUILDINGS.values())
_PRODUCERS_AFTER_CORN = tuple((int(g), PRODUCERS[g]) for g in GOODS[1:])


class Phase(Enum):
    ROLE = "role"
    SETTLER = "settler"
    MAYOR = "mayor"
    BUILDER = "builder"
    CRAFTSMAN = "craftsman"
    TRADER = "trader"
    CAPTAIN = "captain"
    STORE = "store"
    OVER = "over"

    # Members are singletons compared by identity; hashing them by identity in C keeps
    # the engine's phase tables off Enum.__hash__, a Python function.
    __hash__ = object.__hash__


class Ship:
    """A cargo ship: its capacity, the kind it carries (None when empty), how many barrels."""

    __slots__ = ("capacity", "count", "good")

    def __init__(self, capacity: int, good: Good | None = None, count: int = 0) -> None:
        self.capacity = capacity
        self.good = good
        self.count = count

    @property
    def full(self) -> bool:
        return self.count >= self.capacity

    @property
    def space(self) -> int:
        return self.capacity - self.count

    def copy(self) -> Ship:
        return Ship(self.capacity, self.good, self.count)


class Player:
    """One seat's board, wallet and goods."""

    __slots__ = (
        "buildings",
        "doubloons",
        "goods",
        "name",
        "occupied",
        "occupied_quarries",
        "plantations",
        "quarries",
        "san_juan",
        "vp",
    )

    def __init__(self, name: str, doubloons: int) -> None:
        self.name = name
        self.doubloons = doubloons
        self.vp = 0
        self.goods = [0, 0, 0, 0, 0]
        self.plantations = [0, 0, 0, 0, 0]
        self.occupied = [0, 0, 0, 0, 0]  # occupied plantations per good
        self.quarries = 0
        self.occupied_quarries = 0
        # Built buildings in building order, with the colonists on each.
        self.buildings: dict[Building, int] = {}
        self.san_juan = 0

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.name = self.name
        p.doubloons = self.doubloons
        p.vp = self.vp
        p.goods = self.goods[:]
        p.plantations = self.plantations[:]
        p.occupied = self.occupied[:]
        p.quarries = self.quarries
        p.occupied_quarries = self.occupied_quarries
        p.buildings = dict(self.buildings)
        p.san_juan = self.san_juan
        return p

    # -- derived facts -------------------------------------------------------

    def active(self, building: Building) -> bool:
        """An occupied building works; an empty one never does."""
        return self.buildings.get(building, 0) > 0

    @property
    def island_tiles(self) -> int:
        return sum(self.plantations) + self.quarries

    @property
    def island_free(self) -> int:
        return ISLAND_SPACES - self.island_tiles

    @property
    def city_used(self) -> int:
        return sum([_SPACES[b] for b in self.buildings])

    @property
    def colonists(self) -> int:
        return (
            sum(self.occupied)
            + self.occupied_quarries
            + sum(self.buildings.values())
            + self.san_juan
        )

    @property
    def circles(self) -> int:
        return sum(self.plantations) + self.quarries + sum([_CIRCLES[b] for b in self.buildings])

    @property
    def empty_building_circles(self) -> int:
        return sum([_CIRCLES[b] - n for b, n in self.buildings.items()])

    def production(self) -> list[int]:
        """Barrels this player would produce per good, before the supply limits it."""
        occupied = self.occupied
        out = [occupied[0], 0, 0, 0, 0]  # corn needs no building
        buildings = self.buildings
        for g, producers in _PRODUCERS_AFTER_CORN:
            plantations = occupied[g]
            if plantations:
                workers = 0
                for b in producers:
                    workers += buildings.get(b, 0)
                out[g] = plantations if plantations < workers else workers
        return out


class State:
    """Everything needed to continue the game; serialised by moderator.engine.serialize."""

    __slots__ = (
        "acted",
        "captain_privilege_used",
        "colonist_ship",
        "colonist_supply",
        "declined_wharf",
        "discards",
        "end_reason",
        "face_up",
        "goods_supply",
        "governor",
        "phase",
        "picker",
        "picks",
        "pile",
        "players",
        "produced",
        "quarries",
        "rng",
        "role",
        "role_doubloons",
        "role_taken",
        "round",
        "seed",
        "ships",
        "step",
        "supply_buildings",
        "trading_house",
        "turn",
        "variant",
        "vp_chips",
        "waiting",
        "wharf_used",
    )

    def __init__(self) -> None:
        self.variant = "standard"
        self.seed = 0
        self.rng = 0
        self.players: list[Player] = []
        self.round = 1
        self.governor = 0
        self.phase = Phase.ROLE
        self.role: int = -1  # the role being carried out (a Role value), -1 in role selection
        self.picker = 0
        self.turn = 0
        self.picks = 0  # roles picked this round
        self.acted = 0  # seats done in the current sequential phase
        self.step = 0  # settler: 0 = hacienda question pending, 1 = choosing a tile
        self.waiting: list[bool] = []  # simultaneous phases: who still has to decide
        self.wharf_used: list[bool] = []
        self.declined_wharf: list[bool] = []
        self.captain_privilege_used = False
        self.produced = [False] * 5  # craftsman phase: the kinds the craftsman received
        # Role cards in play (a Role value each), with their doubloons, and who took each.
        self.role_doubloons: dict[int, int] = {}
        self.role_taken: dict[int, int] = {}  # role -> seat, this round
        self.colonist_supply = 0
        self.colonist_ship = 0
        self.vp_chips = 0
        self.goods_supply = [0, 0, 0, 0, 0]
        self.trading_house: list[Good] = []
        self.ships: list[Ship] = []
        self.pile: list[Good] = []  # face-down plantations, top = last
        self.face_up: list[Good] = []
        self.discards: list[Good] = []
        self.quarries = 0
        self.supply_buildings: dict[Building, int] = {}
        self.end_reason: str | None = None

    @property
    def n(self) -> int:
        return len(self.players)

    def copy(self) -> State:
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        s.players = [p.copy() for p in self.players]
        s.waiting = self.waiting[:]
        s.produced = self.produced[:]
        s.wharf_used = self.wharf_used[:]
        s.declined_wharf = self.declined_wharf[:]
        s.role_doubloons = dict(self.role_doubloons)
        s.role_taken = dict(self.role_taken)
        s.goods_supply = self.goods_supply[:]
        s.trading_house = self.trading_house[:]
        s.ships = [ship.copy() for ship in self.ships]
        s.pile = self.pile[:]
        s.face_up = self.face_up[:]
        s.discards = self.discards[:]
        s.supply_buildings = dict(self.supply_buildings)
        return s
