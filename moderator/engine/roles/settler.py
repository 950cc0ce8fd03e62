"""The settler: each player in turn may take a plantation (or a quarry)."""

from __future__ import annotations

from ..actions import PASS, Action, Pass, TakePlantation, TakeQuarry, UseHacienda
from ..components import Building, Good, Role
from ..events import Event, HaciendaDrawn, Passed, PlantationsRevealed, PlantationTaken
from ..rng import shuffle
from ..state import State
from .common import colonist_available, take_colonist

# Module-level names: an Enum member looked up on its class is slow (see game.py).
_HACIENDA = Building.HACIENDA
_CONSTRUCTION_HUT = Building.CONSTRUCTION_HUT
_HOSPICE = Building.HOSPICE


HACIENDA_YES = UseHacienda(True)
HACIENDA_NO = UseHacienda(False)
# The offered actions, made once: a frozen dataclass costs a few hundred ns to build.
_TAKE = {(g, h): TakePlantation(g, h) for g in Good for h in (False, True)}
_QUARRY = {h: TakeQuarry(h) for h in (False, True)}


def _draw(s: State) -> tuple[Good | None, bool]:
    """Draw the top face-down plantation, reshuffling the discards when the pile is out."""
    reshuffled = False
    if not s.pile and s.discards:
        s.pile, s.discards = s.discards, []
        s.rng = shuffle(s.rng, s.pile)
        reshuffled = True
    if not s.pile:
        return None, reshuffled
    return s.pile.pop(), reshuffled


def hacienda_possible(s: State, seat: int) -> bool:
    p = s.players[seat]
    return p.active(_HACIENDA) and p.island_free > 0 and bool(s.pile or s.discards)


def quarry_allowed(s: State, seat: int) -> bool:
    """A quarry is the settler's privilege, and anyone's with an occupied construction hut."""
    return s.quarries > 0 and (seat == s.picker or s.players[seat].active(_CONSTRUCTION_HUT))


def legal(s: State, seat: int) -> list[Action]:
    if s.step == 0:
        return [HACIENDA_YES, HACIENDA_NO]
    p = s.players[seat]
    if p.island_free <= 0:
        return []
    hospice = (False, True) if p.active(_HOSPICE) and colonist_available(s) else (False,)
    out: list[Action] = []
    for g in sorted(set(s.face_up)):
        for h in hospice:
            out.append(_TAKE[g, h])
    if quarry_allowed(s, seat):
        for h in hospice:
            out.append(_QUARRY[h])
    if out:
        out.append(PASS)
    return out


def apply(s: State, seat: int, action: Action, ev: list[Event]) -> bool:
    """Apply one settler action; returns True when the seat's turn is over."""
    p = s.players[seat]
    if isinstance(action, UseHacienda):
        s.step = 1
        if action.use:
            good, reshuffled = _draw(s)
            if reshuffled:
                ev.append(PlantationsRevealed((), True))
            if good is not None:
                p.plantations[good] += 1
                ev.append(HaciendaDrawn(seat, good))
        return False
    if isinstance(action, TakePlantation):
        s.face_up.remove(action.good)
        p.plantations[action.good] += 1
        if action.hospice:
            take_colonist(s)
            p.occupied[action.good] += 1
        ev.append(PlantationTaken(seat, action.good, action.hospice))
    elif isinstance(action, TakeQuarry):
        s.quarries -= 1
        p.quarries += 1
        if action.hospice:
            take_colonist(s)
            p.occupied_quarries += 1
        ev.append(PlantationTaken(seat, None, action.hospice))
    else:
        assert isinstance(action, Pass)
        ev.append(Passed(seat, Role.SETTLER))
    return True


def end(s: State, ev: list[Event]) -> None:
    """Discard the face-up tiles left and turn up N+1 new ones."""
    s.discards.extend(s.face_up)
    s.face_up = []
    reshuffled = False
    for _ in range(s.n + 1):
        good, again = _draw(s)
        reshuffled = reshuffled or again
        if good is None:
            break
        s.face_up.append(good)
    s.face_up.sort()
    ev.append(PlantationsRevealed(tuple(s.face_up), reshuffled))
