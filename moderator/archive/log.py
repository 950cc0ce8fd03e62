"""A game told round by round and phase by phase, for the pages, the `history` reply
and the demo. Every sentence is the engine's own (``Game.describe``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..engine import Action, Event, Game, Role
from ..engine.events import GameEnded, PhaseEnded, RolePicked, RoundEnded, RoundStarted, describe
from ..render.views import printable
from ..store.models import ActorKind
from .record import Record, replay, start_game

# How a decision the player did not take himself is marked in the log.
ACTOR_NOTES = {
    ActorKind.DEFAULT: "the default, at the deadline",
    ActorKind.AUTOPILOT: "the autopilot, at the deadline",
    ActorKind.ADMIN: "entered by the moderator",
}


def anchor(round_: int, role: Role, index: int = 0) -> str:
    """A step's name in a page's address: "r7-captain" for the captain chosen in round
    7, "r7-captain-3" for the third action after that choice."""
    base = f"r{round_}-{role.name.lower()}"
    return base if index == 0 else f"{base}-{index}"


@dataclass(frozen=True, slots=True)
class LogLine:
    """One sentence, and the step (the action's ``seq``) that caused it."""

    step: int
    text: str
    note: str | None = None  # who decided, when not the player: "the default, ..."


@dataclass(slots=True)
class LogPhase:
    """A role chosen and carried out (``role`` None: the end of the game)."""

    round: int
    role: Role | None
    picker: str | None
    step: int  # the step of the choice
    lines: list[LogLine] = field(default_factory=list)
    actions: int = 0  # actions taken in the phase so far

    @property
    def anchor(self) -> str:
        return "end" if self.role is None else anchor(self.round, self.role)

    @property
    def title(self) -> str:
        if self.role is None:
            return "The end"
        return f"{self.role.label.capitalize()} · chosen by {self.picker}"


@dataclass(slots=True)
class LogRound:
    """A round with its governor and phases; ``step``: the last step before it."""

    round: int
    governor: str
    step: int
    phases: list[LogPhase] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"Round {self.round} · governor {self.governor}"


@dataclass(frozen=True, slots=True)
class Logged:
    """What add() logged for one action: the step's anchor and its sentences."""

    anchor: str
    lines: tuple[LogLine, ...]


class GameLog:
    """The log of a game being replayed: add() the events of each action in turn."""

    def __init__(self, game: Game) -> None:
        """``game``: as it was before the first action added."""
        self.names = tuple(printable(n) for n in game.names)
        self.ships = game.ship_capacities
        s = game.state
        self.rounds = [LogRound(s.round, self.names[s.governor], 0)]
        if s.role >= 0:  # a game started from a position in the middle of a phase
            self.rounds[0].phases.append(LogPhase(s.round, Role(s.role), self.names[s.picker], 0))

    def add(
        self, step: int, events: Sequence[Event], actor: ActorKind = ActorKind.PLAYER
    ) -> Logged:
        """Log the events of the action ``step``: its anchor and its lines."""
        note = ACTOR_NOTES.get(actor)
        lines: list[LogLine] = []
        rnd = self.rounds[-1]
        phase = rnd.phases[-1] if rnd.phases else None
        name = f"s{step}"
        if phase is not None and phase.role is not None:
            phase.actions += 1
            name = anchor(phase.round, phase.role, phase.actions)
        for event in events:
            if isinstance(event, RolePicked):
                phase = LogPhase(rnd.round, event.role, self.names[event.seat], step)
                rnd.phases.append(phase)
                name = phase.anchor
                lines.append(LogLine(step, describe(event, self.names, self.ships), note))
                phase.lines.append(lines[-1])
            elif isinstance(event, RoundStarted):
                rnd = LogRound(event.round, self.names[event.governor], step)
                self.rounds.append(rnd)
                phase = None
            elif isinstance(event, PhaseEnded | RoundEnded):
                continue
            else:
                if phase is None or isinstance(event, GameEnded):
                    phase = LogPhase(rnd.round, None, None, step)
                    rnd.phases.append(phase)
                lines.append(LogLine(step, describe(event, self.names, self.ships), note))
                phase.lines.append(lines[-1])
        return Logged(name, tuple(lines))

    def text(self) -> list[str]:
        """The log as plain-text lines: a heading for each round, its sentences indented
        (the `history` reply, the demo)."""
        out: list[str] = []
        for rnd in self.rounds:
            lines = [line for phase in rnd.phases for line in phase.lines]
            if not lines:
                continue
            out.append(rnd.title)
            out.extend(f"  {x.text}" + (f" ({x.note})" if x.note else "") for x in lines)
        return out


def game_log(game: Game, actions: Iterable[tuple[int, Action, ActorKind]]) -> GameLog:
    """Replay ``actions`` (seat, action, who decided) on ``game`` and log them."""
    log = GameLog(game)
    for step, (seat, action, actor) in enumerate(actions, 1):
        log.add(step, game.apply(seat, action), actor)
    return log


def record_log(record: Record) -> GameLog:
    """The log of a game record, replayed and checked (raises RecordError)."""
    log = GameLog(start_game(record))
    for step in replay(record):
        log.add(step.entry.seq, step.events, step.entry.actor)
    return log


__all__ = [
    "ACTOR_NOTES",
    "GameLog",
    "LogLine",
    "LogPhase",
    "LogRound",
    "Logged",
    "anchor",
    "game_log",
    "record_log",
]
