"""Orders ahead of time: which decision an order is for, and applying a kept order when
that decision comes (if it is still legal; otherwise the player is asked)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from ..engine.actions import Action, DecisionKind, PickRole
from ..engine.components import Role
from ..engine.defaults import default_action
from ..engine.game import Game
from ..engine.state import Phase
from .commands import (
    Command,
    GameCommand,
    HaciendaCmd,
    PassCmd,
    RoleCmd,
    is_absence,
    is_service,
    target_kind,
)
from .errors import OrderError
from .format import format_action
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


def coming(game: Game, seat: int) -> DecisionKind | None:
    """The decision ``seat``, who has none now, gets later in the phase in progress (a
    sale after the trader's; the loading, storage after it), if any: a bare answer he
    sends ahead ("coffee, when it's my go") is read for it. Not the hacienda's, which
    only its owners get (the tile after it is the settler phase's); never a role's,
    which is his only when he picks now (a role sent ahead with what it is for, "the
    builder for the factory", may be a plan: parser._two_steps)."""
    if game.over or decision_of(game, seat) is not None:
        return None
    kinds = [k for k in _PHASES if k is not DecisionKind.HACIENDA]
    return next((k for k in kinds if _still_to_come(game, seat, k)), None)


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
        (command,) = parse_text(text, key.kind)  # (as read for that decision)
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


def bind(item: QueuedOrder, game: Game) -> QueuedOrder:
    """An order kept for the next decision of its kind, tied to the phase in progress
    once that decision is to come in it: it is used there or dropped when it ends, never
    carried on to a later round."""
    k = item.key
    if k.current or game.over or not _still_to_come(game, k.seat, k.kind):
        return item
    s = game.state
    return QueuedOrder(DecisionKey(k.seat, k.kind, s.round, s.picks), item.command, item.text)


def role_kinds(role: Role) -> frozenset[DecisionKind]:
    """The decisions the phase of ``role`` asks (none for a prospector)."""
    phase = Phase.__members__.get(role.name)
    return frozenset(k for k, phases in _PHASES.items() if phase in phases)


def passed_this_round(game: Game, seat: int, command: GameCommand, kind: DecisionKind) -> bool:
    """Whether ``command``, an order for ``seat``'s next ``kind`` decision, names one of
    this round already behind him: the phase that asks it was chosen this round and has
    no more of it for him. A role is ordered ahead for the next round, unless it names a
    role he took this round (a resent order)."""
    s = game.state
    if kind is DecisionKind.ROLE:
        return (
            isinstance(command, RoleCmd)
            and any(s.role_taken.get(int(ref.role)) == seat for ref in command.roles)
            and later_round(game, seat, kind)
        )
    return later_round(game, seat, kind)


def later_round(game: Game, seat: int, kind: DecisionKind) -> bool:
    """Whether the next ``kind`` decision of ``seat`` is in a round to come: he has
    picked his roles of this round, or the phase that asks it was chosen this round and
    has no more of it for him."""
    s = game.state
    if kind is DecisionKind.ROLE:
        mine = sum(1 for taker in s.role_taken.values() if taker == seat)
        return mine >= game.round_size // s.n
    for role, taker in s.role_taken.items():
        if kind not in role_kinds(Role(role)):
            continue
        if kind is DecisionKind.CRAFTSMAN_EXTRA and taker != seat:
            continue
        return not _still_to_come(game, seat, kind)
    return False


def passed_by(item: QueuedOrder, role: Role, picker: int, game: Game) -> bool:
    """``role`` was just picked (by ``picker``), its phase carries the decision ``item``
    was kept for, and that decision is not to come to its seat in it (he was passed over,
    or the phase is over): the order is not carried on to a later round."""
    k = item.key
    if k.current or k.kind not in role_kinds(role):
        return False
    if k.kind is DecisionKind.CRAFTSMAN_EXTRA and k.seat != picker:
        return False  # only the craftsman's own pick asks it
    return bind(item, game) is item


def taken(item: QueuedOrder, decided: DecisionKey) -> bool:
    """Whether ``decided`` (a decision just taken, by anyone) was the one ``item`` was
    kept for. Loads come round again in a captain phase: a kept load waits for the
    seat's next one, until the phase ends."""
    return item.key == decided and decided.kind is not DecisionKind.LOAD


@dataclass(frozen=True, slots=True)
class KeptStep:
    """What the kept orders do for a seat's decision now: the action (None: he is
    asked), the order used, and the ones dropped for it with the reason."""

    action: Action | None
    used: QueuedOrder | None
    dropped: tuple[tuple[QueuedOrder, str], ...] = ()


def kept_step(game: Game, seat: int, queue: Sequence[QueuedOrder]) -> KeptStep:
    """The kept order of ``seat`` for his decision now, tried in the position: the first
    that resolves is used, each that cannot be done is dropped with its reason; a kept
    settle order answers the hacienda question on the way with its default."""
    decision = decision_of(game, seat)
    if decision is None:
        return KeptStep(None, None)
    dropped: list[tuple[QueuedOrder, str]] = []
    for item in [q for q in queue if q.key.seat == seat and q.key.kind is decision.kind]:
        try:
            return KeptStep(resolve(item.command, game, seat), item, tuple(dropped))
        except OrderError as err:
            dropped.append((item, err.reason))
    gone = [q for q, _ in dropped]
    mine = [q.command for q in queue if q.key.seat == seat and q not in gone]
    for command in mine:
        if _implies(command, decision.kind, mine):
            return KeptStep(default_action(game, seat), None, tuple(dropped))
    return KeptStep(None, None, tuple(dropped))


@dataclass(frozen=True, slots=True)
class Decided:
    """A decision just taken, by anyone: which one, the action as an order (worded in
    the position it was taken in), and the role when it was a role pick."""

    key: DecisionKey
    echo: str
    role: Role | None = None

    @classmethod
    def of(cls, game: Game, seat: int, action: Action) -> Decided:
        """The decision ``action`` takes for ``seat`` (before it is applied)."""
        kind = game.kind()
        assert kind is not None
        s = game.state
        role = action.role if isinstance(action, PickRole) else None
        return cls(
            DecisionKey(seat, kind, s.round, s.picks), format_action(action, game, seat), role
        )


T = TypeVar("T")


@dataclass(slots=True)
class InLine(Generic[T]):
    """Kept orders brought in line with the position, each with what the caller tags
    it with (the service: its stored row): those still waiting, and those dropped with
    the reason ("": nothing to tell, the game is over), in the order they were dropped."""

    kept: list[tuple[T, QueuedOrder]]
    dropped: list[tuple[T, QueuedOrder, str]]


def in_line(
    queue: Sequence[tuple[T, QueuedOrder]], game: Game, decided: Sequence[Decided] = ()
) -> InLine[T]:
    """The queue (oldest first) brought in line with the position, after the decisions
    ``decided``: an order whose decision was taken, whose phase is over, or whose phase
    went by without asking it, is dropped and why is said; one for the next decision of
    its kind is tied to the phase in progress once that decision is to come in it; of
    two orders for one decision, the later replaces the earlier."""
    kept: list[tuple[T, QueuedOrder]] = []
    dropped: list[tuple[T, QueuedOrder, str]] = []
    for tag, q in queue:
        by = next((d for d in decided if taken(q, d.key)), None)
        passed = next(
            (
                d.role
                for d in decided
                if d.role is not None and passed_by(q, d.role, d.key.seat, game)
            ),
            None,
        )
        if game.over:
            reason = ""  # nothing is left to decide, nothing to tell
        elif by is not None:
            reason = f"that decision was taken ({by.echo})"
        elif q.key.stale(game):
            reason = "the phase it was for ended before it could be used"
        elif passed is not None:
            reason = f"the {passed.label} phase went by without asking you {KIND_NAMES[q.key.kind]}"
        else:
            kept.append((tag, bind(q, game)))
            continue
        dropped.append((tag, q, reason))
    latest = {q.key: i for i, (_, q) in enumerate(kept)}
    for i, (tag, q) in enumerate(kept):
        if latest[q.key] != i:
            dropped.append((tag, q, f"replaced by “{kept[latest[q.key]][1].text}”"))
    return InLine([(t, q) for i, (t, q) in enumerate(kept) if latest[q.key] == i], dropped)


@dataclass(frozen=True, slots=True)
class Step(Generic[T]):
    """One decision taken while advancing: by ``seat``, ``action``, from the kept order
    ``used`` (None: forced, his only choice, or the hacienda's default on the way to a
    kept settle order), and the decision it takes."""

    seat: int
    action: Action
    used: tuple[T, QueuedOrder] | None
    forced: bool
    decided: Decided


def advance(
    game: Game,
    queue: Sequence[tuple[T, QueuedOrder]],
    decided: Sequence[Decided],
    act: Callable[[Step[T]], None],
) -> InLine[T]:
    """Forced decisions and kept orders taken until someone must be asked, ``act``
    applying each step to ``game``; the queue is brought in line with the position
    before each step (in_line; ``decided``: the decisions taken since it last was).
    For each decision in turn a kept order that resolves comes first (one that fits a
    forced decision is said as the player's), then a forced one. Returns the orders
    still waiting and all those dropped."""
    taken_now = list(decided)
    dropped: list[tuple[T, QueuedOrder, str]] = []
    waiting = list(queue)
    while True:
        line = in_line(waiting, game, taken_now)
        waiting, taken_now = line.kept, []
        dropped += line.dropped
        if game.over:
            break
        step: Step[T] | None = None
        for decision in game.decisions():
            kept = kept_step(game, decision.seat, [q for _, q in waiting])
            gone = {id(q): reason for q, reason in kept.dropped}
            used = next(((t, q) for t, q in waiting if q is kept.used), None)
            dropped += [(t, q, gone[id(q)]) for t, q in waiting if id(q) in gone]
            waiting = [(t, q) for t, q in waiting if q is not kept.used and id(q) not in gone]
            if kept.action is not None:
                action = kept.action
                step = Step(
                    decision.seat, action, used, False, Decided.of(game, decision.seat, action)
                )
                break
            if decision.forced:
                action = decision.actions[0]
                step = Step(
                    decision.seat, action, None, True, Decided.of(game, decision.seat, action)
                )
                break
        if step is None:
            break
        taken_now.append(step.decided)
        act(step)
    return InLine(waiting, dropped)


def take_queued(
    game: Game, seat: int, queue: Sequence[QueuedOrder]
) -> tuple[Action | None, list[QueuedOrder]]:
    """kept_step over stored orders brought in line with the position (in_line): the
    action to apply for ``seat`` now (or None) and the queue left afterwards (stale
    orders, the used one and the ones that failed removed)."""
    left = [q for _, q in in_line([(None, q) for q in queue], game).kept]
    step = kept_step(game, seat, left)
    gone = [q for q, _ in step.dropped] + ([step.used] if step.used is not None else [])
    return step.action, [q for q in left if q not in gone]


__all__ = [
    "Decided",
    "DecisionKey",
    "InLine",
    "KeptStep",
    "QueuedOrder",
    "Step",
    "advance",
    "bind",
    "decision_key",
    "enqueue",
    "in_line",
    "kept_step",
    "later_round",
    "passed_by",
    "passed_this_round",
    "prune",
    "role_kinds",
    "take_queued",
    "taken",
    "try_queued",
]
