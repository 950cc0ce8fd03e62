"""What applying an action caused, for mails and archives."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .components import Building, Good, Role


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    governor: int


@dataclass(frozen=True, slots=True)
class RolePicked:
    seat: int
    role: Role
    doubloons: int


@dataclass(frozen=True, slots=True)
class PhaseEnded:
    role: Role


@dataclass(frozen=True, slots=True)
class Skipped:
    """A player had nothing he could do in this phase."""

    seat: int
    role: Role


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int
    role: Role


@dataclass(frozen=True, slots=True)
class HaciendaDrawn:
    seat: int
    good: Good


@dataclass(frozen=True, slots=True)
class PlantationTaken:
    seat: int
    good: Good | None  # None: a quarry
    hospice: bool


@dataclass(frozen=True, slots=True)
class PlantationsRevealed:
    goods: tuple[Good, ...]
    reshuffled: bool


@dataclass(frozen=True, slots=True)
class ColonistsArrived:
    """The mayor phase begins: privilege colonist and the ship dealt round the table."""

    mayor: int
    dealt: tuple[int, ...]  # colonists from the ship, per seat


@dataclass(frozen=True, slots=True)
class ColonistsPlaced:
    seat: int
    extra: bool
    san_juan: int


@dataclass(frozen=True, slots=True)
class ShipRefilled:
    colonists: int
    short: bool  # the supply could not fill the ship: the game ends after this round


@dataclass(frozen=True, slots=True)
class Built:
    seat: int
    building: Building
    cost: int
    university: bool


@dataclass(frozen=True, slots=True)
class Produced:
    seat: int
    goods: tuple[int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class FactoryPaid:
    seat: int
    doubloons: int


@dataclass(frozen=True, slots=True)
class ExtraTaken:
    seat: int
    good: Good


@dataclass(frozen=True, slots=True)
class Sold:
    seat: int
    good: Good
    price: int


@dataclass(frozen=True, slots=True)
class TradingHouseEmptied:
    goods: tuple[Good, ...]


@dataclass(frozen=True, slots=True)
class Loaded:
    seat: int
    good: Good
    count: int
    ship: int | None  # None: the wharf
    vp: int


@dataclass(frozen=True, slots=True)
class GoodsStored:
    seat: int
    kept: tuple[int, int, int, int, int]
    lost: tuple[int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class ShipsUnloaded:
    ships: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ProspectorPaid:
    seat: int


@dataclass(frozen=True, slots=True)
class EndTriggered:
    reason: str


@dataclass(frozen=True, slots=True)
class RoundEnded:
    round: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = (
    RoundStarted
    | RolePicked
    | PhaseEnded
    | Skipped
    | Passed
    | HaciendaDrawn
    | PlantationTaken
    | PlantationsRevealed
    | ColonistsArrived
    | ColonistsPlaced
    | ShipRefilled
    | Built
    | Produced
    | FactoryPaid
    | ExtraTaken
    | Sold
    | TradingHouseEmptied
    | Loaded
    | GoodsStored
    | ShipsUnloaded
    | ProspectorPaid
    | EndTriggered
    | RoundEnded
    | GameEnded
)


def _goods_text(counts: Sequence[int]) -> str:
    parts = [f"{n} {Good(g).label}" for g, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "nothing"


def _ship(index: int, ships: Sequence[int]) -> str:
    """A cargo ship by its capacity, as boards and orders name it ("the 5-ship")."""
    return f"the {ships[index]}-ship" if index < len(ships) else f"ship {index + 1}"


def describe(event: Event, names: Sequence[str], ships: Sequence[int] = ()) -> str:
    """One English sentence for an event, for mails, archives and the demo. ``ships``:
    the cargo ships' capacities, smallest first, to name ships as the board does."""
    match event:
        case RoundStarted(round=r, governor=g):
            return f"Round {r} begins; {names[g]} is governor."
        case RolePicked(seat=s, role=role, doubloons=d):
            bonus = f" and takes {d} doubloon{'s' if d != 1 else ''}" if d else ""
            return f"{names[s]} chooses the {role.label}{bonus}."
        case PhaseEnded(role=role):
            return f"The {role.label} phase ends."
        case Skipped(seat=s, role=role):
            return f"{names[s]} has nothing to do in the {role.label} phase."
        case Passed(seat=s):
            return f"{names[s]} passes."
        case HaciendaDrawn(seat=s, good=good):
            return f"{names[s]} uses the hacienda and draws a {good.label} plantation."
        case PlantationTaken(seat=s, good=good, hospice=h):
            tile = "a quarry" if good is None else f"a {good.label} plantation"
            return f"{names[s]} takes {tile}{' (manned by the hospice)' if h else ''}."
        case PlantationsRevealed(goods=goods, reshuffled=re):
            shown = ", ".join(g.label for g in goods) or "none"
            return f"New plantations: {shown}{' (discards reshuffled)' if re else ''}."
        case ColonistsArrived(mayor=m, dealt=dealt):
            share = ", ".join(f"{names[i]} {n}" for i, n in enumerate(dealt))
            return f"Colonists arrive for mayor {names[m]}: {share}."
        case ColonistsPlaced(seat=s, extra=x, san_juan=sj):
            extra = " with the mayor's extra colonist" if x else ""
            return f"{names[s]} places colonists{extra}; {sj} in San Juan."
        case ShipRefilled(colonists=n, short=short):
            end = " The supply ran short: this is the last round." if short else ""
            return f"The colonist ship is refilled with {n}.{end}"
        case Built(seat=s, building=b, cost=c, university=u):
            manned = " (manned by the university)" if u else ""
            return f"{names[s]} builds a {b.label} for {c}{manned}."
        case Produced(seat=s, goods=goods):
            return f"{names[s]} produces {_goods_text(goods)}."
        case FactoryPaid(seat=s, doubloons=d):
            return f"{names[s]}'s factory pays {d}."
        case ExtraTaken(seat=s, good=good):
            return f"{names[s]} takes an extra {good.label} as craftsman."
        case Sold(seat=s, good=good, price=p):
            return f"{names[s]} sells {good.label} for {p}."
        case TradingHouseEmptied():
            return "The trading house is full and is emptied."
        case Loaded(seat=s, good=good, count=n, ship=ship, vp=vp):
            where = "on the wharf" if ship is None else f"on {_ship(ship, ships)}"
            return f"{names[s]} ships {n} {good.label} {where} for {vp} VP."
        case GoodsStored(seat=s, kept=kept, lost=lost):
            return f"{names[s]} keeps {_goods_text(kept)} and loses {_goods_text(lost)}."
        case ShipsUnloaded(ships=unloaded):
            return "Full ships are unloaded: " + ", ".join(_ship(i, ships) for i in unloaded) + "."
        case ProspectorPaid(seat=s):
            return f"{names[s]} takes a doubloon as prospector."
        case EndTriggered(reason=reason):
            return f"The end of the game is near: {reason}. This is the last round."
        case RoundEnded(round=r):
            return f"Round {r} ends."
        case GameEnded(scores=scores, winners=winners):
            table = ", ".join(f"{names[i]} {v}" for i, v in enumerate(scores))
            won = " and ".join(names[w] for w in winners)
            return f"The game is over: {table}. Winner: {won}."
    raise AssertionError(f"unknown event {event!r}")
