"""The mayor: colonists arrive and every player lays out his colonists anew, all at once."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from ..actions import Action, Layout, PlaceColonists
from ..components import BUILDINGS, GOODS, Building
from ..events import ColonistsArrived, ColonistsPlaced, EndTriggered, Event, ShipRefilled
from ..state import Player, State


def _groups(p: Player) -> tuple[list[int], list[Building]]:
    """Capacities in a fixed order: five plantation kinds, quarries, then each building."""
    caps = [*p.plantations, p.quarries]
    built = sorted(p.buildings)
    caps.extend([BUILDINGS[b].circles for b in built])
    return caps, built


# The counting polynomials are packed into one integer, a coefficient per _SLOT bits,
# so that a multiplication in C does the work of a loop over every count. A player
# has at most 12 island spaces and 12 city spaces (3 circles at most each), so no
# count of layouts comes near 2**64.
_SLOT = 64
_COEFF = (1 << _SLOT) - 1
# 1 + x + ... + x**cap: the ways to put 0..cap colonists on one group of ``cap`` circles.
_ONES = [sum(1 << (_SLOT * j) for j in range(cap + 1)) for cap in range(40)]
_WINDOW = [(1 << (_SLOT * (cap + 1))) - 1 for cap in range(40)]


class LayoutSpace(Sequence[PlaceColonists]):
    """Every legal layout of one player, as a lazy sequence.

    A late-game board can have thousands of layouts, so they are counted and
    unranked on demand rather than listed: ``len``, indexing, iteration and
    membership are all exact.
    """

    __slots__ = ("_built", "_caps", "_extras", "_len", "_placed", "_sizes", "_ways")

    def __init__(self, p: Player, extras: tuple[bool, ...], base: int) -> None:
        self._caps, self._built = _groups(p)
        self._extras = extras
        capacity = sum(self._caps)
        # Colonists placed on circles: all of them, or every circle when there are more.
        self._placed = tuple([min(base + x, capacity) for x in extras])
        self._ways: list[int] = []
        self._sizes: tuple[int, ...] = ()
        self._len = -1

    def _count(self) -> None:
        """Fill ways[i], the polynomial whose coefficient of x**r is the number of
        layouts of r colonists over groups i.. (only up to the largest r needed)."""
        caps = self._caps
        k = len(caps)
        top = max(self._placed)
        mask = (1 << (_SLOT * (top + 1))) - 1
        ways = [0] * (k + 1)
        ways[k] = poly = 1
        for i in range(k - 1, -1, -1):
            cap = caps[i]
            if cap:
                poly = (poly * _ONES[cap if cap <= top else top]) & mask
            ways[i] = poly
        self._ways = ways
        self._sizes = tuple((poly >> (_SLOT * n)) & _COEFF for n in self._placed)
        self._len = sum(self._sizes)

    def __bool__(self) -> bool:
        return True  # there is always at least one layout

    def __len__(self) -> int:
        if self._len < 0:
            self._count()
        return self._len

    @overload
    def __getitem__(self, index: int) -> PlaceColonists: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[PlaceColonists]: ...
    def __getitem__(self, index: int | slice) -> PlaceColonists | Sequence[PlaceColonists]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)  # also counts the layouts on first use
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(index)
        for extra, size, placed in zip(self._extras, self._sizes, self._placed, strict=True):
            if index < size:
                return PlaceColonists(self._unrank(index, placed), extra)
            index -= size
        raise IndexError(index)  # pragma: no cover - guarded above

    def _unrank(self, index: int, remaining: int) -> Layout:
        caps = self._caps
        counts = [0] * len(caps)
        ways = self._ways
        for i, cap in enumerate(caps):
            if not cap:
                continue
            top = cap if cap < remaining else remaining
            # The layouts of the groups after this one, for remaining - top .. remaining
            # colonists: slot j holds those with top - j colonists on this group.
            window = (ways[i + 1] >> (_SLOT * (remaining - top))) & _WINDOW[top]
            x = 0
            w = window >> (_SLOT * top)
            while index >= w:
                index -= w
                x += 1
                w = (window >> (_SLOT * (top - x))) & _COEFF
            if x:
                counts[i] = x
                remaining -= x
                if not remaining:
                    break
        return self._layout(counts)

    def _layout(self, counts: list[int]) -> Layout:
        plantations = (counts[0], counts[1], counts[2], counts[3], counts[4])
        buildings = tuple([(b, n) for b, n in zip(self._built, counts[6:], strict=True) if n])
        return Layout(plantations, counts[5], buildings)

    def __iter__(self) -> Iterator[PlaceColonists]:
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, PlaceColonists) or item.extra not in self._extras:
            return False
        layout = item.layout
        placed = self._placed[self._extras.index(item.extra)]
        if layout.placed != placed or layout.quarries > self._caps[5] or layout.quarries < 0:
            return False
        for g in GOODS:
            if not 0 <= layout.plantations[g] <= self._caps[g]:
                return False
        last = -1
        for b, n in layout.buildings:
            if b <= last or b not in self._built or not 0 < n <= BUILDINGS[b].circles:
                return False
            last = b
        return True


def begin(s: State, ev: list[Event]) -> None:
    """Deal the ship's colonists once round the table from the mayor into San Juan."""
    n = s.n
    ship = s.colonist_ship
    dealt = [0] * n
    for seat in range(n):
        offset = (seat - s.picker) % n
        dealt[seat] = ship // n + (1 if offset < ship % n else 0)
        s.players[seat].san_juan += dealt[seat]
    s.colonist_ship = 0
    ev.append(ColonistsArrived(s.picker, tuple(dealt)))
    s.waiting = [True] * n


def extras(s: State, seat: int) -> tuple[bool, ...]:
    """The mayor's privilege colonist comes from the supply, and only while it lasts."""
    if seat == s.picker and s.colonist_supply > 0:
        return (True, False)
    return (False,)


def legal(s: State, seat: int) -> Sequence[Action]:
    if not s.waiting[seat]:
        return ()
    p = s.players[seat]
    choices = extras(s, seat)
    if p.colonists == 0 and choices == (False,):
        return ()
    return LayoutSpace(p, choices, p.colonists)


def apply(s: State, seat: int, action: Action, ev: list[Event]) -> None:
    assert isinstance(action, PlaceColonists)
    p = s.players[seat]
    total = p.colonists
    if action.extra:
        s.colonist_supply -= 1
        total += 1
    layout = action.layout
    o = p.occupied
    before = Layout(
        (o[0], o[1], o[2], o[3], o[4]),
        p.occupied_quarries,
        tuple((b, n) for b, n in p.buildings.items() if n),
    )
    p.occupied = list(layout.plantations)
    p.occupied_quarries = layout.quarries
    placed = dict(layout.buildings)
    for b in p.buildings:
        p.buildings[b] = placed.get(b, 0)
    p.san_juan = total - layout.placed
    s.waiting[seat] = False
    ev.append(ColonistsPlaced(seat, action.extra, p.san_juan, before, layout))


def end(s: State, ev: list[Event]) -> None:
    """Refill the ship: one per empty building circle, at least one per player."""
    need = max(sum(p.empty_building_circles for p in s.players), s.n)
    short = s.colonist_supply < need
    put = min(need, s.colonist_supply)
    s.colonist_supply -= put
    s.colonist_ship += put
    ev.append(ShipRefilled(put, short))
    if short and s.end_reason is None:
        s.end_reason = "the colonist ship could not be refilled"
        ev.append(EndTriggered(s.end_reason))
