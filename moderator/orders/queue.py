"""Orders ahead of time: which decision an order is for, and applying a kept order when
that decision comes (if it is still legal; otherwise the player is asked)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from ..engine.actions import Action, DecisionKind
from ..engine.defaults import default_action
from ..engine.game import Game
from ..engine.state import Phase
from .commands import (
    Command,
    GameCommand,
    HaciendaCmd,
    PassCmd,
    is_absence,
    is_service,
    target_kind,
)
from .errors import OrderError
from .resolve import KIND_NAMES, decision_of, resolve

_PHASES: dict[DecisionKind, tuple[Phase, ...]] = {
    DecisionKind.ROLE: (Phase.ROLE,),
    DecisionKind.HACIENDA: (Phase.SETTLER,),
    DecisionKind.SETTLE: (Phase.SETTLER,),
    DecisionKind.MAYOR: (Phase.MAYOR,),
    DecisionKind.BUILD: (Phase.BUILDER,),
    DecisionKind.CRAFTSMAN_EXTRA: (Phase.CRAFTSMAN,),
    DecisionKind.SELL: (Phase.TRADER,),
    DecisionKind.LOAD: (Phase.CAPTAIN,),
    DecisionKind.STORE: (Phase.CAPTAIN, Phase.STORE),
}

# A settle order answers the hacienda question with its default (use it) on the way.
_IMPLIED: dict[DecisionKind, DecisionKind] = {DecisionKind.SETTLE: DecisionKind.HACIENDA}


@dataclass(frozen=True, slots=True, order=True)
class DecisionKey:
    """The decision an order is for. ``round``/``pick`` name the role phase in progress
    (the order is dropped when it ends); None: the next decision of this kind to come."""

    seat: int
    kind: DecisionKind
    round: int | None = None
    pick: int | None = None

    @property
    def current(self) -> bool:
        return self.round is not None

    def describe(self) -> str:
        what = KIND_NAMES[self.kind]
        if self.current:
            return f"{what}, later in this phase"
        return f"{what}, when it next comes"

    def stale(self, game: Game) -> bool:
        s = game.state
        return self.round is not None and (self.round, self.pick) != (s.round, s.picks)


def _still_to_come(game: Game, seat: int, kind: DecisionKind) -> bool:
    """Whether ``seat`` may still get a ``kind`` decision in the phase in progress."""
    s = game.state
    if s.phase not in _PHASES[kind]:
        return False
    if kind is DecisionKind.ROLE:
        return seat in game.deciding()
    if s.phase in (Phase.MAYOR, Phase.STORE):
        return s.waiting[seat]
    if kind is DecisionKind.STORE:
        return True  # storage follows the loading of this captain phase
    if s.phase in (Phase.SETTLER, Phase.BUILDER, Phase.TRADER):
        return (seat - s.picker) % s.n >= s.acted
    if s.phase is Phase.CRAFTSMAN:
        return seat == s.picker
    return True  # the captain: turns go round while anyone can load


def decision_key(command: Command, game: Game, seat: int) -> DecisionKey | None:
    """The decision ``command`` is for: one in the phase in progress, or the next of its
    kind. None for service and absence commands, and for "pass"/"default" with nothing
    to decide."""
    if is_service(command) or is_absence(command) or game.over:
        return None
    kind = target_kind(command)
    if kind is None:
        decision = decision_of(game, seat)
        if decision is None:
            return None
        kind = decision.kind
    if _still_to_come(game, seat, kind):
        return DecisionKey(seat, kind, game.state.round, game.state.picks)
    return DecisionKey(seat, kind)


@dataclass(frozen=True, slots=True)
class QueuedOrder:
    """An order kept for a later decision, with the text the player wrote."""

    key: DecisionKey
    command: GameCommand
    text: str

    def to_dict(self) -> dict[str, object]:
        """For the store: the key and the player's text (the command is parsed again)."""
        k = self.key
        return {
            "seat": k.seat,
            "kind": k.kind.value,
            "round": k.round,
            "pick": k.pick,
            "text": self.text,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> QueuedOrder:
        """Inverse of to_dict. Raises OrderError if the text no longer parses."""
        from .check import parse_text

        seat, round_, pick = data["seat"], data["round"], data["pick"]
        assert isinstance(seat, int)
        assert round_ is None or isinstance(round_, int)
        assert pick is None or isinstance(pick, int)
        key = DecisionKey(seat, DecisionKind(data["kind"]), round_, pick)
        text = str(data["text"])
        (command,) = parse_text(text)
        if is_service(command) or is_absence(command):
            raise OrderError(f"{text!r} is not an order for a decision")
        game_command = cast(GameCommand, command)
        if isinstance(game_command, PassCmd) and game_command.kind is None:
            game_command = PassCmd(key.kind)
        return cls(key, game_command, text)


def enqueue(queue: Sequence[QueuedOrder], item: QueuedOrder) -> list[QueuedOrder]:
    """The last order received for a decision replaces earlier ones."""
    return [q for q in queue if q.key != item.key] + [item]


def prune(queue: Sequence[QueuedOrder], game: Game) -> list[QueuedOrder]:
    """Drop orders for a phase that is over."""
    return [q for q in queue if not q.key.stale(game)]


def _matches(command: GameCommand, kind: DecisionKind) -> bool:
    return target_kind(command) in (kind, None)


def _implies(command: GameCommand, kind: DecisionKind, others: Sequence[GameCommand]) -> bool:
    """A queued settle order answers a pending hacienda question with the default,
    unless the player also said something about the hacienda."""
    wanted = target_kind(command)
    return (
        wanted is not None
        and _IMPLIED.get(wanted) is kind
        and not any(isinstance(c, HaciendaCmd) for c in others)
    )


def try_queued(game: Game, seat: int, queued: Sequence[GameCommand]) -> Action | None:
    """The action of the first kept order that fits ``seat``'s decision now and is
    legal, or None (then the player is asked). Never changes the game."""
    decision = decision_of(game, seat)
    if decision is None:
        return None
    for command in queued:
        if _matches(command, decision.kind):
            try:
                return resolve(command, game, seat)
            except OrderError:
                continue
    for command in queued:
        if _implies(command, decision.kind, queued):
            return default_action(game, seat)
    return None


def take_queued(
    game: Game, seat: int, queue: Sequence[QueuedOrder]
) -> tuple[Action | None, list[QueuedOrder]]:
    """Like try_queued over stored orders: returns the action to apply (or None) and the
    queue left afterwards (stale orders, the used one and the ones that failed removed)."""
    left = prune(queue, game)
    decision = decision_of(game, seat)
    if decision is None:
        return None, left
    for item in [q for q in left if q.key.seat == seat]:
        if item.key.kind is decision.kind:
            left.remove(item)
            try:
                return resolve(item.command, game, seat), left
            except OrderError:
                continue
    mine = [q.command for q in left if q.key.seat == seat]
    for command in mine:
        if _implies(command, decision.kind, mine):
            return default_action(game, seat), left
    return None, left


__all__ = [
    "DecisionKey",
    "QueuedOrder",
    "decision_key",
    "enqueue",
    "prune",
    "take_queued",
    "try_queued",
]
