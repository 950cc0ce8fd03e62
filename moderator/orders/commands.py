"""The parsed orders: typed frozen commands, and the decision each one is for."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TypeGuard

from ..engine.actions import DecisionKind
from ..engine.components import Building, Good, Role


@dataclass(frozen=True, slots=True)
class RoleRef:
    """A role named in an order. ``exact`` is False for a bare "prospector", which means
    whichever prospector card carries the most doubloons (the published default)."""

    role: Role
    exact: bool = True


@dataclass(frozen=True, slots=True)
class RoleCmd:
    """Pick a role; several roles form a preference list (the first legal one is taken)."""

    roles: tuple[RoleRef, ...]


@dataclass(frozen=True, slots=True)
class HaciendaCmd:
    use: bool


@dataclass(frozen=True, slots=True)
class SettleCmd:
    """Take a face-up plantation (``good``) or a quarry (``good`` None).
    ``hospice`` None: the hospice mans the tile whenever it can (the default)."""

    good: Good | None
    hospice: bool | None = None

    @property
    def quarry(self) -> bool:
        return self.good is None


@dataclass(frozen=True, slots=True)
class BuildCmd:
    """Build a building. ``name`` is what the player wrote; ``candidates`` every building
    those words fit (more than one is an ambiguity reported at resolution). ``price``:
    the doubloons the player says it costs him ("buy the small warehouse for 3"), a
    detail checked when it is done, never another order."""

    name: str = field(compare=False)
    candidates: tuple[Building, ...]
    university: bool | None = None
    price: int | None = None


@dataclass(frozen=True, slots=True)
class SellCmd:
    """Sell one barrel; alternatives in order of preference ("sell tobacco or coffee").
    ``price``: the doubloons the player says the sale gives ("sell coffee for 6"), a
    detail checked when it is done, never another order."""

    goods: tuple[Good, ...]
    price: int | None = None


@dataclass(frozen=True, slots=True)
class ShipCmd:
    """Load a cargo ship. Every part is optional: no good means the kind with the most
    barrels to ship (ties: the lowest value); no ship means the smallest that holds them.
    ``ship`` is a ship's capacity, or ``rank`` its place among the ships by capacity
    (0 the smallest, 1 the middle one, -1 the largest: "the big boat"); ``count`` a
    check of how many barrels go aboard."""

    good: Good | None = None
    count: int | None = None
    ship: int | None = None
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class WharfCmd:
    """Ship all barrels of one kind on the private wharf (only ever when ordered)."""

    good: Good | None = None


class Where(Enum):
    WAREHOUSE = "warehouse"
    WINDROSE = "wind rose"


@dataclass(frozen=True, slots=True)
class KeepItem:
    """A good kept, how many and where. ``heads``: its place is said before it
    ("warehouse: sugar"), and so is for the goods after it in its list that say none
    ("warehouse: sugar and tobacco")."""

    good: Good
    count: int | None = None
    where: Where | None = None
    heads: bool = field(default=False, compare=False)


class Rest(Enum):
    """What a keep order says of the goods it does not name: kept ("keep everything",
    "the rest in the warehouse"), or dropped ("dump the rest")."""

    KEPT = "kept"
    DROPPED = "dropped"


@dataclass(frozen=True, slots=True)
class KeptRest:
    """ "the rest in the warehouse", "everything", "dump the rest": a part of a keep
    order on the goods it does not name."""

    rest: Rest
    where: Where | None = None


@dataclass(frozen=True, slots=True)
class Dropped:
    """ "dump the corn", "not the indigo": goods a keep order does not keep."""

    goods: tuple[Good, ...]


@dataclass(frozen=True, slots=True)
class KeepCmd:
    """The goods kept at the end of the captain phase, in order of preference.
    Unplaced items fill the warehouses first, then the wind rose. ``rest``: what becomes
    of the goods not named, kept (where ``rest_where`` says) or dropped; dropped or None,
    the space left is filled by the published default. ``drop``: goods not to keep.
    Nothing said at all: the published default. ``whole``: every barrel of each good
    named is kept ("all the sugar and coffee"), or the player is asked. ``most``: the
    most barrels ("keep as much as I can")."""

    items: tuple[KeepItem, ...]
    rest: Rest | None = None
    rest_where: Where | None = None
    drop: tuple[Good, ...] = ()
    whole: bool = False  # "keep all the sugar and coffee": every barrel of each good named
    most: bool = False  # "keep the most": the most barrels, the published default among ties


@dataclass(frozen=True, slots=True)
class ExtraCmd:
    """The craftsman's privilege barrel."""

    good: Good


class TargetKind(Enum):
    PLANTATION = "plantation"
    QUARRY = "quarry"
    BUILDING = "building"
    SAN_JUAN = "san juan"


@dataclass(frozen=True, slots=True)
class Target:
    """A place for colonists, as written. A building target keeps every building the
    words fit; the player's own board decides among them."""

    kind: TargetKind
    text: str = field(compare=False)
    good: Good | None = None
    buildings: tuple[Building, ...] = ()


@dataclass(frozen=True, slots=True)
class Move:
    """``count`` colonists off or onto ``target``. None: a placement fills every empty
    circle of the target ("fill the coffee roaster"), or, ``rest``, takes every colonist
    not placed yet ("the rest on the coffee roaster"); a removal takes every colonist
    off it ("empty the quarry")."""

    count: int | None
    target: Target
    rest: bool = False


@dataclass(frozen=True, slots=True)
class Share:
    """``count`` colonists shared among ``targets``, at least one each ("both on corn and
    sugar", "all three on corn, sugar and the mill"); None: every colonist the other
    placements leave ("everyone to the roaster and the university"), however many that
    is. ``as_written``: a count written before a list ("place 2 on corn, sugar") may
    also mean that many on the first place and one on each other; the board decides,
    and asks when both can be done. ``loose``: no count was said ("the new ones to the
    roaster and the university", "University and coffee roaster"): as many as the board
    takes there, which places fewer than the writer has only by mistake (the order is
    then completed or asked back, as one that places too few)."""

    count: int | None
    targets: tuple[Target, ...]
    as_written: bool = False
    loose: bool = False


@dataclass(frozen=True, slots=True)
class MayorCmd:
    """A colonist order: every removal first, then every placement (seed 002).
    ``extra`` None: the mayor takes his privilege colonist (the default). ``stay``: the
    order says the colonists it does not place stay in San Juan ("rest in San Juan"),
    so nothing is added to it. ``board``: the placements are counts written after their
    places and nothing else ("corn 1, sugar 2, roaster 2, university 0"), which may be
    the board as it is to end too: places that hold colonists now are read both ways
    (the board decides, and asks when both can be done); a count of 0 is only that."""

    extra: bool | None = None
    removals: tuple[Move, ...] = ()
    placements: tuple[Move | Share, ...] = ()
    stay: bool = False
    board: bool = False

    def merged(self, other: MayorCmd) -> MayorCmd:
        # (a board stays one while the other part only answers on the extra colonist)
        board = (self.board or not self.moves) and (other.board or not other.moves)
        return MayorCmd(
            other.extra if other.extra is not None else self.extra,
            self.removals + other.removals,
            self.placements + other.placements,
            self.stay or other.stay,
            board and (self.board or other.board),
        )

    @property
    def moves(self) -> bool:
        """Whether the order removes or places any colonist."""
        return bool(self.removals or self.placements)


@dataclass(frozen=True, slots=True)
class PassCmd:
    """Decline the decision: ``kind`` names which one ("sell nothing"), None: the current."""

    kind: DecisionKind | None = None


@dataclass(frozen=True, slots=True)
class DefaultCmd:
    """Apply the moderator's published default for the current decision."""


# -- service commands: they ask the moderator for something, they change nothing -----


@dataclass(frozen=True, slots=True)
class HelpCmd:
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class StatusCmd:
    pass


@dataclass(frozen=True, slots=True)
class BoardCmd:
    pass


@dataclass(frozen=True, slots=True)
class OrdersCmd:
    """What may I order now?"""


@dataclass(frozen=True, slots=True)
class HistoryCmd:
    pass


@dataclass(frozen=True, slots=True)
class ResendCmd:
    pass


@dataclass(frozen=True, slots=True)
class MailCmd:
    """How much mail the seat wants: every change (``every``, the default), or only its
    own turns and a summary at the end of each round."""

    every: bool


# -- absences: they change the seat's standing with the clock, not the game ------------


@dataclass(frozen=True, slots=True)
class AwayCmd:
    """The player will be away: for ``days``, or until a day (its start, in his own time
    zone, is his return): ``month`` and ``day`` (the next such day, or that of ``year``),
    or a ``weekday`` (0 = Monday: the next one after today). The moderator, who knows
    today in the player's zone, turns it into a moment (service/deadlines.return_day)."""

    days: int | None = None
    month: int | None = None
    day: int | None = None
    year: int | None = None
    weekday: int | None = None


@dataclass(frozen=True, slots=True)
class BackCmd:
    """The player is back: his absence ends."""


AbsenceCommand = AwayCmd | BackCmd

GameCommand = (
    RoleCmd
    | HaciendaCmd
    | SettleCmd
    | BuildCmd
    | SellCmd
    | ShipCmd
    | WharfCmd
    | KeepCmd
    | ExtraCmd
    | MayorCmd
    | PassCmd
    | DefaultCmd
)
ServiceCommand = HelpCmd | StatusCmd | BoardCmd | OrdersCmd | HistoryCmd | ResendCmd | MailCmd
Command = GameCommand | ServiceCommand | AbsenceCommand

SERVICE_COMMANDS = (HelpCmd, StatusCmd, BoardCmd, OrdersCmd, HistoryCmd, ResendCmd, MailCmd)

_KIND: dict[type, DecisionKind] = {
    RoleCmd: DecisionKind.ROLE,
    HaciendaCmd: DecisionKind.HACIENDA,
    SettleCmd: DecisionKind.SETTLE,
    BuildCmd: DecisionKind.BUILD,
    SellCmd: DecisionKind.SELL,
    ShipCmd: DecisionKind.LOAD,
    WharfCmd: DecisionKind.LOAD,
    KeepCmd: DecisionKind.STORE,
    ExtraCmd: DecisionKind.CRAFTSMAN_EXTRA,
    MayorCmd: DecisionKind.MAYOR,
}


# The decision a role's phase asks of the player who picked it first.
ROLE_DECISION: dict[Role, DecisionKind] = {
    Role.SETTLER: DecisionKind.SETTLE,
    Role.MAYOR: DecisionKind.MAYOR,
    Role.BUILDER: DecisionKind.BUILD,
    Role.CRAFTSMAN: DecisionKind.CRAFTSMAN_EXTRA,
    Role.TRADER: DecisionKind.SELL,
    Role.CAPTAIN: DecisionKind.LOAD,
}


def is_service(command: Command) -> TypeGuard[ServiceCommand]:
    return isinstance(command, SERVICE_COMMANDS)


def is_absence(command: Command) -> TypeGuard[AbsenceCommand]:
    return isinstance(command, AwayCmd | BackCmd)


def target_kind(command: Command) -> DecisionKind | None:
    """The kind of decision a command is for; None: the current one (pass, default) or
    no decision at all (service and absence commands)."""
    if isinstance(command, PassCmd):
        return command.kind
    return _KIND.get(type(command))
