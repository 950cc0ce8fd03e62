"""The game: who must decide now, the legal actions, and applying one (all or nothing)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from . import serialize
from .actions import Action, DecisionKind, PickRole
from .components import (
    GOODS_BARRELS,
    PLANTATION_TILES,
    QUARRIES,
    SETUPS,
    TWO_PLAYER_GOODS_REMOVED,
    TWO_PLAYER_PLANTATIONS_REMOVED,
    TWO_PLAYER_QUARRIES_REMOVED,
    TWO_PLAYER_ROLES_EACH,
    Good,
    Role,
    building_copies,
)
from .events import (
    Event,
    GameEnded,
    PhaseEnded,
    RolePicked,
    RoundEnded,
    RoundStarted,
    Skipped,
    describe,
)
from .frozen import quick_init
from .rng import shuffle
from .roles import builder, captain, craftsman, mayor, prospector, settler, trader
from .scoring import Score, scores, winners
from .state import Phase, Player, Ship, State

STANDARD = "standard"
TWO_PLAYER = "two-player"

_PICK = {int(r): PickRole(r) for r in Role}
_ROLES = tuple(Role)  # Role(value) through the enum machinery is slow in the hot path
_PHASE_OF_ROLE = {
    Role.SETTLER: Phase.SETTLER,
    Role.MAYOR: Phase.MAYOR,
    Role.BUILDER: Phase.BUILDER,
    Role.CRAFTSMAN: Phase.CRAFTSMAN,
    Role.TRADER: Phase.TRADER,
    Role.CAPTAIN: Phase.CAPTAIN,
}
# An Enum member looked up on its class goes through the metaclass (about 100 ns, many
# times per decision): the hot paths below use these module-level names instead.
_SELECTION, _SETTLER, _MAYOR, _BUILDER, _CRAFTSMAN, _TRADER, _CAPTAIN, _STORE, _OVER = (
    Phase.ROLE,
    Phase.SETTLER,
    Phase.MAYOR,
    Phase.BUILDER,
    Phase.CRAFTSMAN,
    Phase.TRADER,
    Phase.CAPTAIN,
    Phase.STORE,
    Phase.OVER,
)
_HACIENDA, _SETTLE = DecisionKind.HACIENDA, DecisionKind.SETTLE
_KIND = {
    Phase.ROLE: DecisionKind.ROLE,
    Phase.MAYOR: DecisionKind.MAYOR,
    Phase.BUILDER: DecisionKind.BUILD,
    Phase.CRAFTSMAN: DecisionKind.CRAFTSMAN_EXTRA,
    Phase.TRADER: DecisionKind.SELL,
    Phase.CAPTAIN: DecisionKind.LOAD,
    Phase.STORE: DecisionKind.STORE,
}


@quick_init
@dataclass(frozen=True, slots=True)
class Decision:
    """A seat that must decide now, and everything it may do. ``forced``: only one choice,
    which the moderator applies itself."""

    seat: int
    kind: DecisionKind
    actions: Sequence[Action]
    forced: bool


class IllegalAction(Exception):
    """An action that is not legal now; carries what would have been legal."""

    def __init__(self, seat: int, action: object, legal: Sequence[Action], reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.action = action
        self.legal = legal
        self.reason = reason


class Game:
    """One game of Puerto Rico. Deterministic: the same seed and actions give the same state.

    The state is owned by the game and changed only by :meth:`apply`, which checks the
    action against the legal ones before touching anything, so an error changes nothing.
    """

    __slots__ = ("_decisions", "_legal", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        # Both caches describe the current position only: apply() empties them before it
        # changes anything, and _advance() fills _legal for the seat it stops at, since it
        # had to compute those actions anyway to know that the seat has something to do.
        self._legal: dict[int, Sequence[Action]] = {}
        self._decisions: tuple[Decision, ...] | None = None

    # -- creation ----------------------------------------------------------------

    @classmethod
    def new(cls, names: Sequence[str], seed: int) -> Game:
        """Set up a game for 2–5 players; two players play the official variant."""
        n = len(names)
        if n not in SETUPS:
            raise ValueError(f"Puerto Rico is for 2 to 5 players, not {n}")
        if len(set(names)) != n or not all(name.strip() for name in names):
            raise ValueError("player names must be distinct and not blank")
        setup = SETUPS[n]
        s = State()
        s.variant = TWO_PLAYER if setup.two_player else STANDARD
        s.seed = seed
        s.rng = seed & ((1 << 64) - 1)
        s.players = [Player(name, setup.doubloons) for name in names]
        tiles = dict(PLANTATION_TILES)
        s.quarries = QUARRIES
        s.goods_supply = [GOODS_BARRELS[g] for g in Good]
        if setup.two_player:
            tiles = {g: k - TWO_PLAYER_PLANTATIONS_REMOVED for g, k in tiles.items()}
            s.quarries -= TWO_PLAYER_QUARRIES_REMOVED
            s.goods_supply = [k - TWO_PLAYER_GOODS_REMOVED for k in s.goods_supply]
        for seat, good in enumerate(setup.starting):
            s.players[seat].plantations[good] += 1
            tiles[good] -= 1
        s.pile = [g for g in Good for _ in range(tiles[g])]
        s.rng = shuffle(s.rng, s.pile)
        s.colonist_supply = setup.colonist_supply
        s.colonist_ship = setup.colonist_ship
        s.vp_chips = setup.vp_chips
        s.ships = [Ship(c) for c in setup.ships]
        s.role_doubloons = {int(r): 0 for r in setup.roles}
        s.supply_buildings = building_copies(n)
        settler.end(s, [])  # turn up the first N+1 plantations
        s.waiting = [False] * n
        s.wharf_used = [False] * n
        s.declined_wharf = [False] * n
        return cls(s)

    def copy(self) -> Game:
        """An independent game in the same position (the legal actions of the position,
        which are never changed in place, are shared rather than computed again)."""
        game = Game(self.state.copy())
        game._legal = dict(self._legal)
        game._decisions = self._decisions
        return game

    def to_json(self) -> str:
        return serialize.dumps(self.state)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Load a state written by :meth:`to_json` or by hand; raises StateError."""
        return cls(serialize.loads(text))

    # -- queries -----------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.phase is _OVER

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.state.players)

    @property
    def ship_capacities(self) -> tuple[int, ...]:
        return tuple(ship.capacity for ship in self.state.ships)

    def describe(self, event: Event) -> str:
        """The event as a sentence, with this game's names and ships."""
        return describe(event, self.names, self.ship_capacities)

    @property
    def round_size(self) -> int:
        s = self.state
        return 2 * TWO_PLAYER_ROLES_EACH if s.variant == TWO_PLAYER else s.n

    def deciding(self) -> tuple[int, ...]:
        """The seats that must decide now (several at once in the mayor and storage steps)."""
        s = self.state
        phase = s.phase
        if phase is _MAYOR or phase is _STORE:
            return tuple([i for i, w in enumerate(s.waiting) if w])
        if phase is _OVER:
            return ()
        return (s.turn,)

    def kind(self) -> DecisionKind | None:
        s = self.state
        if s.phase is _SETTLER:
            return _HACIENDA if s.step == 0 else _SETTLE
        return _KIND.get(s.phase)

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Everything ``seat`` may do now (empty when it is not his decision)."""
        cached = self._legal.get(seat)
        if cached is not None:
            return cached
        legal = self._compute_legal(seat) if seat in self.deciding() else ()
        self._legal[seat] = legal
        return legal

    def upcoming(self, seat: int) -> Sequence[Action]:
        """What ``seat`` may order now for his turn later in this phase: the trader and
        captain phases ask everyone who might sell or load at once (seeds 000 and 001).
        Equals legal_actions for the seat deciding now; empty when nothing is to come."""
        s = self.state
        if seat in self.deciding():
            return self.legal_actions(seat)
        if s.phase is _TRADER and (seat - s.picker) % s.n >= s.acted:
            return trader.legal(s, seat)
        if s.phase is _CAPTAIN:
            return captain.legal(s, seat)
        return ()

    def decisions(self) -> tuple[Decision, ...]:
        cached = self._decisions
        if cached is not None:
            return cached
        kind = self.kind()
        if kind is None:
            decisions: tuple[Decision, ...] = ()
        else:
            legal_actions = self.legal_actions
            decisions = tuple(
                [
                    Decision(seat, kind, legal, len(legal) == 1)
                    for seat in self.deciding()
                    for legal in (legal_actions(seat),)
                ]
            )
        self._decisions = decisions
        return decisions

    def scores(self) -> tuple[Score, ...]:
        return scores(self.state)

    def winners(self) -> tuple[int, ...]:
        return winners(self.state)

    def _compute_legal(self, seat: int) -> Sequence[Action]:
        s = self.state
        phase = s.phase
        if phase is _SELECTION:
            taken = s.role_taken
            return [_PICK[r] for r in s.role_doubloons if r not in taken]
        if phase is _SETTLER:
            return settler.legal(s, seat)
        if phase is _MAYOR:
            return mayor.legal(s, seat)
        if phase is _BUILDER:
            return builder.legal(s, seat)
        if phase is _CRAFTSMAN:
            return craftsman.legal(s, seat)
        if phase is _TRADER:
            return trader.legal(s, seat)
        if phase is _CAPTAIN:
            return captain.legal(s, seat)
        if phase is _STORE:
            return captain.store_legal(s, seat)
        return ()

    # -- applying ----------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action and everything that follows from it until the next
        decision; returns the events caused. An illegal action raises IllegalAction
        and changes nothing."""
        s = self.state
        if s.phase is _OVER:
            raise IllegalAction(seat, action, (), "the game is over")
        legal = self.legal_actions(seat)
        # The offered actions are shared objects, so an action chosen from them is found
        # by identity (ids compared in C) before any dataclass is compared field by field.
        if not (type(legal) is list and id(action) in map(id, legal)) and action not in legal:
            if not legal:
                reason = f"it is not {s.players[seat].name}'s decision now"
            else:
                reason = "that is not a legal action now"
            raise IllegalAction(seat, action, legal, reason)
        phase = s.phase
        others = self._decisions
        self._decisions = None
        if phase is _MAYOR or phase is _STORE:
            # Simultaneous decisions are independent: the others' choices stay valid.
            del self._legal[seat]
        else:
            self._legal = {}
            others = None
        ev: list[Event] = []
        if phase is _SELECTION:
            assert isinstance(action, PickRole)
            self._pick(seat, action.role, ev)
        elif phase is _SETTLER:
            if settler.apply(s, seat, action, ev):
                s.acted += 1
                s.step = 0
        elif phase is _MAYOR:
            mayor.apply(s, seat, action, ev)
        elif phase is _BUILDER:
            builder.apply(s, seat, action, ev)
            s.acted += 1
        elif phase is _CRAFTSMAN:
            craftsman.apply(s, seat, action, ev)
        elif phase is _TRADER:
            trader.apply(s, seat, action, ev)
            s.acted += 1
        elif phase is _CAPTAIN:
            captain.apply(s, seat, action, ev)
            s.turn = (seat + 1) % len(s.players)
        elif phase is _STORE:
            captain.store_apply(s, seat, action, ev)
        self._advance(ev)
        if others is not None and s.phase is phase:
            # ... and so do their decisions, while the step goes on.
            self._decisions = tuple([d for d in others if d.seat != seat])
        return ev

    def _pick(self, seat: int, role: Role, ev: list[Event]) -> None:
        s = self.state
        p = s.players[seat]
        bonus = s.role_doubloons[role]
        p.doubloons += bonus
        s.role_doubloons[role] = 0
        s.role_taken[role] = seat
        s.picker = seat
        s.role = int(role)
        ev.append(RolePicked(seat, role, bonus))
        phase = _PHASE_OF_ROLE.get(role)
        if phase is None:  # a prospector
            prospector.begin(s, ev)
            self._end_phase(ev)
            return
        s.phase = phase
        s.acted = 0
        s.step = 0
        s.turn = seat
        if phase is _MAYOR:
            mayor.begin(s, ev)
        elif phase is _CRAFTSMAN:
            craftsman.begin(s, ev)
        elif phase is _CAPTAIN:
            s.wharf_used = [False] * len(s.players)
            s.declined_wharf = [False] * len(s.players)
            s.captain_privilege_used = False

    def _advance(self, ev: list[Event]) -> None:
        """Move on to the next decision: skip seats with nothing to do, end phases,
        rounds and the game."""
        s = self.state
        n = len(s.players)
        while True:
            phase = s.phase
            if phase is _OVER or phase is _SELECTION:
                return
            role = _ROLES[s.role]
            if phase is _BUILDER or phase is _SETTLER or phase is _TRADER:
                while s.acted < n:
                    seat = (s.picker + s.acted) % n
                    s.turn = seat
                    if phase is _SETTLER and s.step == 0 and not settler.hacienda_possible(s, seat):
                        s.step = 1
                    legal = self._compute_legal(seat)
                    if legal:
                        self._legal[seat] = legal
                        return
                    ev.append(Skipped(seat, role))
                    s.acted += 1
                    s.step = 0
                if phase is _SETTLER:
                    settler.end(s, ev)
                elif phase is _TRADER:
                    trader.end(s, ev)
                self._end_phase(ev)
            elif phase is _CRAFTSMAN:
                legal = craftsman.legal(s, s.picker)
                if legal:
                    s.turn = s.picker
                    self._legal[s.picker] = legal
                    return
                self._end_phase(ev)
            elif phase is _CAPTAIN:
                for k in range(n):
                    seat = (s.turn + k) % n
                    legal = captain.legal(s, seat)
                    if legal:
                        s.turn = seat
                        self._legal[seat] = legal
                        return
                for seat, options in enumerate(captain.begin_storage(s)):
                    if options:
                        self._legal[seat] = options
                s.phase = _STORE
            elif phase is _MAYOR or phase is _STORE:
                legal_actions = self.legal_actions
                for seat, waiting in enumerate(s.waiting):
                    if waiting and not legal_actions(seat):
                        s.waiting[seat] = False
                if any(s.waiting):
                    return
                if phase is _MAYOR:
                    mayor.end(s, ev)
                else:
                    captain.end(s, ev)
                self._end_phase(ev)

    def _end_phase(self, ev: list[Event]) -> None:
        s = self.state
        self._legal = {}
        ev.append(PhaseEnded(_ROLES[s.role]))
        s.role = -1
        s.picks += 1
        s.phase = _SELECTION
        s.acted = 0
        s.step = 0
        n = len(s.players)
        s.waiting = [False] * n
        if s.picks < self.round_size:
            s.turn = (s.governor + s.picks) % n
            return
        for r in s.role_doubloons:
            if r not in s.role_taken:
                s.role_doubloons[r] += 1
        s.role_taken = {}
        s.picks = 0
        ev.append(RoundEnded(s.round))
        if s.end_reason is not None:
            s.phase = _OVER
            ev.append(GameEnded(tuple(sc.total for sc in scores(s)), winners(s)))
            return
        s.round += 1
        s.governor = (s.governor + 1) % n
        s.turn = s.governor
        ev.append(RoundStarted(s.round, s.governor))


def replay(names: Sequence[str], seed: int, log: Iterable[tuple[int, Action]]) -> Game:
    """Rebuild a game from its seed and action log."""
    game = Game.new(names, seed)
    for seat, action in log:
        game.apply(seat, action)
    return game


__all__ = [
    "STANDARD",
    "TWO_PLAYER",
    "Decision",
    "Game",
    "IllegalAction",
    "replay",
]
