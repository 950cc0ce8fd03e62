"""Final scoring: VP chips, building points, large-building bonuses, and the tie-break."""

from __future__ import annotations

from dataclasses import dataclass

from .components import BUILDINGS, Building
from .state import Player, State


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    chips: int
    buildings: int
    bonus: int
    tiebreak: int  # doubloons plus goods

    @property
    def total(self) -> int:
        return self.chips + self.buildings + self.bonus


def large_bonus(p: Player, building: Building) -> int:
    """The end-of-game bonus of one occupied large building (rules-reference table)."""
    if not p.active(building):
        return 0
    if building is Building.GUILD_HALL:
        return sum(
            1 if BUILDINGS[b].small_production else 2
            for b in p.buildings
            if BUILDINGS[b].produces is not None
        )
    if building is Building.RESIDENCE:
        tiles = p.island_tiles
        return 4 if tiles <= 9 else tiles - 5
    if building is Building.FORTRESS:
        return p.colonists // 3
    if building is Building.CUSTOMS_HOUSE:
        return p.vp // 4
    if building is Building.CITY_HALL:
        return sum(1 for b in p.buildings if BUILDINGS[b].violet)
    return 0


def score(s: State, seat: int) -> Score:
    p = s.players[seat]
    return Score(
        seat=seat,
        chips=p.vp,
        buildings=sum(BUILDINGS[b].vp for b in p.buildings),
        bonus=sum(large_bonus(p, b) for b in p.buildings if BUILDINGS[b].large),
        tiebreak=p.doubloons + sum(p.goods),
    )


def scores(s: State) -> tuple[Score, ...]:
    return tuple(score(s, seat) for seat in range(s.n))


def winners(s: State) -> tuple[int, ...]:
    """Most points; ties to the most doubloons plus goods; a tie after that is shared."""
    table = scores(s)
    best = max((sc.total, sc.tiebreak) for sc in table)
    return tuple(sc.seat for sc in table if (sc.total, sc.tiebreak) == best)
