"""Set up rulebook positions for the engine's rule tests.

A position starts from ``Game.new`` and is edited through the helpers below, each of
which moves components out of the supply (or back into it), never creating any; the
finished position is reloaded through the validating JSON loader (:func:`ready`), so a
test cannot build a board the real game could not hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from moderator.engine import PASS, Game, Good, PickRole, Role
from moderator.engine.actions import Action
from moderator.engine.components import BUILDINGS, Building
from moderator.engine.events import Event
from moderator.engine.state import Phase, State

NAMES = ("Anna", "Bob", "Chris", "David", "Eve")
CORN, INDIGO, SUGAR, TOBACCO, COFFEE = (
    Good.CORN,
    Good.INDIGO,
    Good.SUGAR,
    Good.TOBACCO,
    Good.COFFEE,
)


def new(players: int = 4, seed: int = 1) -> Game:
    """A fresh game: seat 0 is Anna, the governor."""
    return Game.new(NAMES[:players], seed)


def blank(players: int = 4, seed: int = 1, doubloons: int | None = None) -> Game:
    """A fresh game whose boards are empty: the starting plantations go back to the pile."""
    game = new(players, seed)
    s = game.state
    for seat in range(s.n):
        clear_board(s, seat)
        if doubloons is not None:
            s.players[seat].doubloons = doubloons
    return game


def ready(game: Game) -> Game:
    """Reload the edited position through the validating loader (conservation checks)."""
    return Game.from_json(game.to_json())


# -- moving components ------------------------------------------------------------


def _from_supply(s: State, colonists: int) -> None:
    if colonists > s.colonist_supply:
        raise ValueError("not enough colonists in the supply")
    s.colonist_supply -= colonists


def clear_board(s: State, seat: int) -> None:
    """Return every tile, building, colonist and barrel of ``seat`` to the supply."""
    p = s.players[seat]
    for g in Good:
        s.pile.extend([g] * p.plantations[g])
        p.plantations[g] = 0
        p.occupied[g] = 0
        s.goods_supply[g] += p.goods[g]
        p.goods[g] = 0
    s.quarries += p.quarries
    p.quarries = p.occupied_quarries = 0
    s.colonist_supply += sum(p.buildings.values()) + p.san_juan
    for b in p.buildings:
        s.supply_buildings[b] += 1
    p.buildings = {}
    p.san_juan = 0


def plant(s: State, seat: int, good: Good, tiles: int = 1, manned: int = 0) -> None:
    """Give ``seat`` plantations from the face-down pile, ``manned`` of them occupied."""
    p = s.players[seat]
    for _ in range(tiles):
        s.pile.remove(good)
    p.plantations[good] += tiles
    _from_supply(s, manned)
    p.occupied[good] += manned


def quarry(s: State, seat: int, tiles: int = 1, manned: int = 0) -> None:
    p = s.players[seat]
    if tiles > s.quarries:
        raise ValueError("not enough quarries")
    s.quarries -= tiles
    p.quarries += tiles
    _from_supply(s, manned)
    p.occupied_quarries += manned


def build(s: State, seat: int, building: Building, colonists: int = 0) -> None:
    """Put a building from the supply into ``seat``'s city with ``colonists`` on it."""
    if s.supply_buildings[building] <= 0:
        raise ValueError(f"no {building.label} left")
    assert colonists <= BUILDINGS[building].circles
    s.supply_buildings[building] -= 1
    p = s.players[seat]
    _from_supply(s, colonists)
    p.buildings[building] = colonists
    p.buildings = dict(sorted(p.buildings.items()))


def man(s: State, seat: int, building: Building, colonists: int = 1) -> None:
    """Put more colonists from the supply on a building ``seat`` already owns."""
    _from_supply(s, colonists)
    s.players[seat].buildings[building] += colonists


def san_juan(s: State, seat: int, colonists: int) -> None:
    _from_supply(s, colonists)
    s.players[seat].san_juan += colonists


def goods(s: State, seat: int, **barrels: int) -> None:
    """Give ``seat`` barrels from the goods supply, e.g. ``goods(s, 0, corn=2)``."""
    for name, n in barrels.items():
        g = Good[name.upper()]
        if n > s.goods_supply[g]:
            raise ValueError(f"not enough {name} in the supply")
        s.goods_supply[g] -= n
        s.players[seat].goods[g] += n


def ship(s: State, index: int, good: Good, count: int) -> None:
    """Put ``count`` barrels of ``good`` from the supply on cargo ship ``index``."""
    s.goods_supply[good] -= count
    s.ships[index].good = good
    s.ships[index].count = count


def trading_house(s: State, *kinds: Good) -> None:
    for g in kinds:
        s.goods_supply[g] -= 1
        s.trading_house.append(g)


def vp(s: State, seat: int, chips: int) -> None:
    """Move ``chips`` victory points from the bank to ``seat``."""
    s.vp_chips -= chips
    s.players[seat].vp += chips


def empty_colonist_supply(s: State, keep: int = 0) -> int:
    """Move all but ``keep`` colonists of the supply into seat 0's San Juan (they must be
    somewhere); returns how many moved."""
    moved = s.colonist_supply - keep
    san_juan(s, 0, moved)
    return moved


def face_up(s: State, *kinds: Good) -> None:
    """Replace the face-up plantations with ``kinds`` (taken from the pile)."""
    s.pile.extend(s.face_up)
    s.face_up = []
    for g in kinds:
        s.pile.remove(g)
        s.face_up.append(g)
    s.face_up.sort()


def starts(s: State, seat: int) -> None:
    """Make ``seat`` the governor, about to pick the first role of a round."""
    assert s.phase is Phase.ROLE and s.picks == 0
    s.governor = seat
    s.turn = seat


# -- playing -------------------------------------------------------------------------


def pick(game: Game, role: Role) -> list[Event]:
    """The seat whose turn it is picks ``role``."""
    (seat,) = game.deciding()
    return game.apply(seat, PickRole(role))


def play(game: Game, moves: Iterable[tuple[int, Action]]) -> list[Event]:
    events: list[Event] = []
    for seat, action in moves:
        events.extend(game.apply(seat, action))
    return events


def of_type(events: Sequence[Event], kind: type) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def finish_phase(game: Game) -> list[Event]:
    """Play out the current phase: everyone passes where he may, else takes his first
    legal action (used only to get past phases a test is not about)."""
    events: list[Event] = []
    while game.state.phase not in (Phase.ROLE, Phase.OVER):
        decision = game.decisions()[0]
        legal = decision.actions
        action = PASS if PASS in legal else legal[0]
        events.extend(game.apply(decision.seat, action))
    return events


def pick_and_finish(game: Game, *roles: Role) -> list[Event]:
    """Each role in turn is picked by whoever is to pick, and its phase played out."""
    events: list[Event] = []
    for role in roles:
        events.extend(pick(game, role))
        events.extend(finish_phase(game))
    return events
