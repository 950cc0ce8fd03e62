"""What applying an action caused, for mails and archives."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import get_args

from .actions import Layout
from .components import Building, Good, Role
from .frozen import quick_init


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
    """A player could act and chose not to (in the captain phase: not to use his
    wharf)."""

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
    """A player's new layout (``after``), and the one it replaced, so that a reader can
    be told where the colonists went."""

    seat: int
    extra: bool
    san_juan: int
    before: Layout
    after: Layout


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


def _a(words: str) -> str:
    """``words`` with its indefinite article: "an indigo plantation", "a quarry"."""
    return f"an {words}" if words[:1] in "aeiou" else f"a {words}"


def _ship(index: int, ships: Sequence[int]) -> str:
    """A cargo ship by its capacity, as boards and orders name it ("the 5-ship")."""
    return f"the {ships[index]}-ship"


def _and(parts: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def circles(layout: Layout) -> dict[str, int]:
    """Colonists per place of a layout: plantations by kind, quarries, buildings."""
    out = {Good(g).label: n for g, n in enumerate(layout.plantations)}
    out["quarry"] = layout.quarries
    out.update((f"the {b.label}", n) for b, n in layout.buildings)
    return out


def _place(place: str, n: int) -> str:
    """A place for ``n`` colonists: "corn", "a quarry", "quarries", "the hacienda"."""
    if place == "quarry":
        return "a quarry" if n == 1 else "quarries"
    return place


def _placed(event: ColonistsPlaced, name: str) -> str:
    """Where a player's colonists went: what he removed, then what he placed, and how
    many are left in San Juan ("Anna removes 1 from indigo and places 2 on the coffee
    roaster; 1 stays in San Juan.")."""
    before, after = circles(event.before), circles(event.after)
    # The board's order: plantations, quarries, then the buildings as built.
    buildings = sorted({b for b, _ in (*event.before.buildings, *event.after.buildings)})
    places = [*list(before)[:6], *(f"the {b.label}" for b in buildings)]
    change = [(p, after.get(p, 0) - before.get(p, 0)) for p in places]
    removed = [f"{-d} from {_place(p, -d)}" for p, d in change if d < 0]
    added = [f"{d} on {_place(p, d)}" for p, d in change if d > 0]
    parts = []
    if removed:
        parts.append("removes " + _and(removed))
    if added:
        parts.append(("then places " if removed else "places ") + _and(added))
    body = ", ".join(parts) or "leaves the colonists where they were"
    if event.extra:
        body = "takes the mayor's extra colonist" + (", " if removed else " and ") + body
    text = f"{name} {body}"
    if event.san_juan:
        text += f"; {event.san_juan} {'stays' if event.san_juan == 1 else 'stay'} in San Juan"
    return text + "."


# What a player who passes did not do, by phase.
_PASSES = {
    Role.SETTLER: "takes no plantation",
    Role.BUILDER: "builds nothing",
    Role.CRAFTSMAN: "takes no extra barrel",
    Role.TRADER: "sells nothing",
    Role.CAPTAIN: "does not use the wharf",
}


def describe_all(events: Sequence[Event], names: Sequence[str], ships: Sequence[int]) -> list[str]:
    """The events as sentences (``describe``), the players with nothing to do in a
    phase one after the other told in one ("Chris, David and Anna have nothing to do in
    the trader phase.")."""
    out: list[str] = []
    idle: list[Skipped] = []

    def flush() -> None:
        if len(idle) > 1:
            who = _and([names[e.seat] for e in idle])
            out.append(f"{who} have nothing to do in the {idle[0].role.label} phase.")
        elif idle:
            out.append(describe(idle[0], names, ships))
        idle.clear()

    for event in events:
        if isinstance(event, Skipped) and (not idle or idle[0].role is event.role):
            idle.append(event)
            continue
        flush()
        if isinstance(event, Skipped):
            idle.append(event)
        else:
            out.append(describe(event, names, ships))
    flush()
    return out


def describe(event: Event, names: Sequence[str], ships: Sequence[int]) -> str:
    """One English sentence for an event, for mails, archives and the demo. ``ships``:
    the cargo ships' capacities, smallest first, to name ships as the board and the
    orders do ("the 7-ship"); ``Game.describe`` passes the game's own."""
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
        case Passed(seat=s, role=role):
            return f"{names[s]} {_PASSES.get(role, 'passes')}."
        case HaciendaDrawn(seat=s, good=good):
            return f"{names[s]} uses the hacienda and draws {_a(good.label)} plantation."
        case PlantationTaken(seat=s, good=good, hospice=h):
            tile = "a quarry" if good is None else f"{_a(good.label)} plantation"
            return f"{names[s]} takes {tile}{' (manned by the hospice)' if h else ''}."
        case PlantationsRevealed(goods=goods, reshuffled=re):
            shown = ", ".join(g.label for g in goods) or "none"
            return f"New plantations: {shown}{' (discards reshuffled)' if re else ''}."
        case ColonistsArrived(mayor=m, dealt=dealt):
            share = ", ".join(f"{names[i]} {n}" for i, n in enumerate(dealt))
            return f"Colonists arrive for mayor {names[m]}: {share}."
        case ColonistsPlaced():
            return _placed(event, names[event.seat])
        case ShipRefilled(colonists=n, short=short):
            end = " The supply ran short: this is the last round." if short else ""
            return f"The colonist ship is refilled with {n}.{end}"
        case Built(seat=s, building=b, cost=c, university=u):
            manned = " (manned by the university)" if u else ""
            return f"{names[s]} builds {_a(b.label)} for {c}{manned}."
        case Produced(seat=s, goods=goods):
            return f"{names[s]} produces {_goods_text(goods)}."
        case FactoryPaid(seat=s, doubloons=d):
            return f"{names[s]}'s factory pays {d}."
        case ExtraTaken(seat=s, good=good):
            return f"{names[s]} takes an extra barrel of {good.label} as craftsman."
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
            return "Full ships are unloaded: " + _and([_ship(i, ships) for i in unloaded]) + "."
        case ProspectorPaid(seat=s):
            return f"{names[s]} takes a doubloon as prospector."
        case EndTriggered(reason=reason):
            return f"The end of the game is near: {reason}. This is the last round."
        case RoundEnded(round=r):
            return f"Round {r} ends."
        case GameEnded(scores=scores, winners=winners):
            table = ", ".join(f"{names[i]} {v}" for i, v in enumerate(scores))
            won = _and([names[w] for w in winners])
            return f"The game is over: {table}. Winner{'s' if len(winners) > 1 else ''}: {won}."
    raise AssertionError(f"unknown event {event!r}")


for _event in get_args(Event):
    quick_init(_event)
