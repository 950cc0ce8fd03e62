"""The game record (docs/game-record.md): exported from the log, read back, replayed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..engine import Action, Event, Game, IllegalAction, StateError, action_from, action_to
from ..store import models as m

RECORD_FORMAT = "pr-moderator/game-record"
RECORD_VERSION = 1
# A tag names the game's folder in an archive: nothing a path could be made of.
_TAG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_ACTORS = frozenset(a.value for a in m.ActorKind)
_STATUSES = frozenset(s.value for s in m.GameStatus)
_VARIANTS = frozenset(v.value for v in m.GameVariant)
_POLICIES = frozenset(p.value for p in m.AbsencePolicy)


class RecordError(ValueError):
    """A record that cannot be used: says where in it and why."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where


@dataclass(frozen=True, slots=True)
class RecordPlayer:
    seat: int
    name: str
    active: bool
    away_until: str | None = None  # he said he is away until then (ISO 8601, UTC)


@dataclass(frozen=True, slots=True)
class RecordTurn:
    """One entry of ``game.turns``: a seat that must decide now, and by when."""

    seat: int
    deadline_at: str | None  # None: no deadline (the game waits for him)
    absent: bool  # he is away: the autopilot decides for him at once


@dataclass(frozen=True, slots=True)
class RecordAction:
    """One entry of ``actions[]``."""

    seq: int
    round: int
    seat: int
    player: str | None
    action: Action
    actor: m.ActorKind
    at: str
    message_id: str | None


@dataclass(frozen=True, slots=True)
class FinalScore:
    """One entry of ``final[]``."""

    seat: int
    player: str
    total: int
    chips: int
    buildings: int
    bonus: int
    tiebreak: int
    winner: bool


@dataclass(frozen=True, slots=True)
class Record:
    """A game record read and checked; ``data`` is the document it was read from."""

    tag: str
    variant: m.GameVariant
    seed: int
    status: m.GameStatus
    created_at: str
    deadline_at: str | None
    initial_state: str | None  # the state JSON the game started from, if not the seed's
    players: tuple[RecordPlayer, ...]
    actions: tuple[RecordAction, ...]
    final: tuple[FinalScore, ...] | None
    data: Mapping[str, Any]
    turns: tuple[RecordTurn, ...] = ()
    absence_policy: m.AbsencePolicy = m.AbsencePolicy.AUTOPILOT

    @property
    def names(self) -> tuple[str, ...]:
        """The current players' names in seat order."""
        return tuple(p.name for p in sorted(self.players, key=lambda p: p.seat) if p.active)

    def start(self) -> Game:
        """The game as it began: the seed's setup, or the position it started from; the
        seats named as players[] names them now (as the moderator does: a replacement may
        bring a new name)."""
        if self.initial_state is None:
            return Game.new(list(self.names), self.seed)
        game = Game.from_json(self.initial_state)
        if len(game.state.players) == len(self.names):
            for player, name in zip(game.state.players, self.names, strict=True):
                player.name = name
        return game


@dataclass(frozen=True, slots=True)
class Step:
    """One action replayed: the record's entry, what it caused, and the game after it
    (the same Game object for every step: read it before taking the next)."""

    entry: RecordAction
    events: tuple[Event, ...]
    game: Game


# -- export -----------------------------------------------------------------------------


def final_scores(game: Game, names: Sequence[str]) -> tuple[FinalScore, ...] | None:
    """``final[]`` of a record: None while the game runs."""
    if not game.over:
        return None
    winners = game.winners()
    return tuple(
        FinalScore(
            seat=sc.seat,
            player=names[sc.seat],
            total=sc.total,
            chips=sc.chips,
            buildings=sc.buildings,
            bonus=sc.bonus,
            tiebreak=sc.tiebreak,
            winner=sc.seat in winners,
        )
        for sc in game.scores()
    )


def _iso(value: Any) -> str | None:
    return None if value is None else str(value.isoformat())


def _name_then(seats: Sequence[m.Seat], seat: int, at: datetime) -> str | None:
    """The name of whoever played ``seat`` at ``at``: a player replaced since (`game
    replace --name`) keeps his own name on his actions. ``seats``: in the order they
    were taken."""
    held = [s for s in seats if s.seat_index == seat]
    for s in held:
        if s.replaced_at is None or s.replaced_at > at:
            return s.name
    return held[-1].name if held else None


def export_record(
    session: Session, game_row: m.Game, start: Game, now: datetime | None = None
) -> dict[str, Any]:
    """The record of a game from the store (``start``: the game as it began; ``now``: the
    moderator's time, which says who is away)."""
    seats = sorted(game_row.seats, key=lambda s: (s.seat_index, s.created_at))
    names = [s.name for s in sorted(game_row.active_seats(), key=lambda s: s.seat_index)]
    now = m.utcnow() if now is None else now
    game = start
    rows = session.execute(
        select(m.Action, m.InboundMessage.message_id)
        .outerjoin(m.InboundMessage, m.InboundMessage.id == m.Action.inbound_message_id)
        .where(m.Action.game_id == game_row.id)
        .order_by(m.Action.seq)
    )
    actions = []
    for a, message_id in rows:
        seat = a.seat_index if a.seat_index is not None else -1
        data = json.loads(a.action_json)
        actions.append(
            {
                "seq": a.seq,
                "round": game.state.round,
                "seat": seat,
                "player": _name_then(seats, seat, a.created_at),
                "action": data,
                "actor": a.actor.value,
                "at": a.created_at.isoformat(),
                "message_id": message_id,
            }
        )
        game.apply(seat, action_from(data))
    final = final_scores(game, names)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": {
            "tag": game_row.tag,
            "variant": game_row.variant.value,
            "seed": game_row.seed,
            "status": game_row.status.value,
            "created_at": game_row.created_at.isoformat(),
            "deadline_at": _iso(game_row.deadline_at),
            # each seat that must decide now, by when (game_row.deadline_at: the earliest)
            "turns": [
                {"seat": t.seat, "deadline_at": _iso(t.due_at), "absent": t.absent}
                for t in (game_row.turns if game_row.status is m.GameStatus.ACTIVE else ())
            ],
            "absence_policy": game_row.absence_policy.value,
            # a game created from a position cannot be replayed from the seed alone
            "initial_state": (
                None if game_row.initial_state is None else json.loads(game_row.initial_state)
            ),
        },
        "players": [
            {
                "seat": s.seat_index,
                "name": s.name,
                "active": s.active,
                "away_until": (
                    _iso(s.away_until)
                    if s.active and s.away_until is not None and s.away_until > now
                    else None
                ),
            }
            for s in seats
        ],
        "actions": actions,
        "final": None if final is None else [asdict(f) for f in final],
    }


# -- reading ----------------------------------------------------------------------------


def _field(obj: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if key not in obj:
        raise RecordError(f"{where}.{key}" if where else key, "missing")
    value = obj[key]
    # bool is an int to Python, never to a record
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
        raise RecordError(f"{where}.{key}" if where else key, f"expected {_kind_name(kind)}")
    return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    words = {
        int: "a whole number",
        str: "a string",
        bool: "true or false",
        dict: "an object",
        list: "a list",
        type(None): "null",
    }
    return " or ".join(words.get(k, k.__name__) for k in _kinds(kind))


def _choice(value: object, allowed: frozenset[str], where: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise RecordError(where, f"{value!r} is not one of {', '.join(sorted(allowed))}")
    return value


def read_record(data: object) -> Record:
    """Check a record's shape and values (not yet that its actions are legal: replay()
    does that) and return it typed; raises RecordError saying where and why."""
    if not isinstance(data, dict):
        raise RecordError("", "a game record is a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError("format", f"not a game record (expected {RECORD_FORMAT!r})")
    if data.get("version") != RECORD_VERSION:
        raise RecordError("version", f"{data.get('version')!r} is not a version this reads (1)")
    g = _field(data, "game", "", dict)
    tag = _field(g, "tag", "game", str)
    if not _TAG.match(tag):
        raise RecordError("game.tag", f"{tag!r} is not a game tag (letters, digits, - _ .)")
    initial = _field(g, "initial_state", "game", (dict, type(None)))
    deadline = g.get("deadline_at")
    if deadline is not None and not isinstance(deadline, str):
        raise RecordError("game.deadline_at", "expected a string or null")
    players = []
    for where, p in _objects(data, "players"):
        name = _field(p, "name", where, str)
        if not name.strip():
            raise RecordError(f"{where}.name", "empty")
        away = p.get("away_until")
        if away is not None and not isinstance(away, str):
            raise RecordError(f"{where}.away_until", "expected a string or null")
        players.append(
            RecordPlayer(
                _field(p, "seat", where, int), name, _field(p, "active", where, bool), away
            )
        )
    seats = sorted(p.seat for p in players if p.active)
    if seats != list(range(len(seats))) or not 2 <= len(seats) <= 5:
        raise RecordError("players", "need one active player for each seat 0..n-1, 2 to 5 seats")
    n = len(seats)
    actions = []
    for i, (where, a) in enumerate(_objects(data, "actions")):
        seq = _field(a, "seq", where, int)
        if seq != i + 1:
            raise RecordError(f"{where}.seq", f"{seq} where {i + 1} was expected (no gaps)")
        seat = _field(a, "seat", where, int)
        if not -1 <= seat < n:
            raise RecordError(f"{where}.seat", f"no seat {seat}")
        try:
            action = action_from(_field(a, "action", where, dict))
        except StateError as exc:
            raise RecordError(where, str(exc)) from None
        player = _field(a, "player", where, (str, type(None)))
        message_id = _field(a, "message_id", where, (str, type(None)))
        actor = _choice(_field(a, "actor", where, str), _ACTORS, f"{where}.actor")
        actions.append(
            RecordAction(
                seq=seq,
                round=_field(a, "round", where, int),
                seat=seat,
                player=player,
                action=action,
                actor=m.ActorKind(actor),
                at=_field(a, "at", where, str),
                message_id=message_id,
            )
        )
    # game.turns and the absences came later: a record without them has none
    turns: list[RecordTurn] = []
    for i, t in enumerate(_field(g, "turns", "game", list) if "turns" in g else []):
        where = f"game.turns[{i}]"
        if not isinstance(t, dict):
            raise RecordError(where, "expected an object")
        seat = _field(t, "seat", where, int)
        if not 0 <= seat < n or any(x.seat == seat for x in turns):
            raise RecordError(f"{where}.seat", f"no seat {seat}, or a second turn for it")
        turns.append(
            RecordTurn(
                seat,
                _field(t, "deadline_at", where, (str, type(None))),
                _field(t, "absent", where, bool),
            )
        )
    policy = g.get("absence_policy", m.AbsencePolicy.AUTOPILOT.value)
    final = None
    if _field(data, "final", "", (list, type(None))) is not None:
        final = tuple(_read_final(f, where) for where, f in _objects(data, "final"))
    return Record(
        tag=tag,
        variant=m.GameVariant(_choice(g.get("variant"), _VARIANTS, "game.variant")),
        seed=_field(g, "seed", "game", int),
        status=m.GameStatus(_choice(g.get("status"), _STATUSES, "game.status")),
        created_at=_field(g, "created_at", "game", str),
        deadline_at=deadline,
        initial_state=None if initial is None else json.dumps(initial),
        players=tuple(players),
        actions=tuple(actions),
        final=final,
        data=data,
        turns=tuple(turns),
        absence_policy=m.AbsencePolicy(_choice(policy, _POLICIES, "game.absence_policy")),
    )


def _objects(data: Mapping[str, Any], key: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The objects of the list ``data[key]``, each with where it is ("actions[3]")."""
    for i, item in enumerate(_field(data, key, "", list)):
        where = f"{key}[{i}]"
        if not isinstance(item, dict):
            raise RecordError(where, "expected an object")
        yield where, item


def _read_final(f: dict[str, Any], where: str) -> FinalScore:
    return FinalScore(
        seat=_field(f, "seat", where, int),
        player=_field(f, "player", where, str),
        total=_field(f, "total", where, int),
        chips=_field(f, "chips", where, int),
        buildings=_field(f, "buildings", where, int),
        bonus=_field(f, "bonus", where, int),
        tiebreak=_field(f, "tiebreak", where, int),
        winner=_field(f, "winner", where, bool),
    )


def load_record(path: str | Path) -> Record:
    """Read a record file; raises RecordError (unreadable, not JSON, not a record)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError("", f"cannot read it: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError("", "not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError("", f"not JSON: {exc}") from None
    return read_record(data)


# -- replaying --------------------------------------------------------------------------


def start_game(record: Record) -> Game:
    """The game as the record's first action finds it; raises RecordError."""
    try:
        game = record.start()
    except StateError as exc:
        raise RecordError("game.initial_state", str(exc)) from None
    except ValueError as exc:  # names Game.new refuses
        raise RecordError("players", str(exc)) from None
    if game.names != record.names:
        raise RecordError("game.initial_state", "its players differ from players[]")
    return game


def replay(record: Record, game: Game | None = None, start: int = 0) -> Iterator[Step]:
    """Apply the record's actions one by one from its start, checking each (legal, in
    the round it claims) and at the end the final scores; raises RecordError at the
    first one that does not hold. ``game`` and ``start``: go on from the game after the
    first ``start`` actions (replayed before)."""
    if game is None:
        game = start_game(record)
    for i, entry in enumerate(record.actions[start:], start):
        where = f"actions[{i}]"
        if entry.round != game.state.round:
            raise RecordError(
                f"{where}.round", f"{entry.round}, but the game is in round {game.state.round}"
            )
        try:
            events = game.apply(entry.seat, entry.action)
        except IllegalAction as exc:
            shown = json.dumps(action_to(entry.action), sort_keys=True)
            raise RecordError(where, f"{shown} is not legal: {exc.reason}") from None
        yield Step(entry, tuple(events), game)
    if record.final is not None and final_scores(game, record.names) != record.final:
        raise RecordError("final", "the scores differ from those of the game replayed")


__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "FinalScore",
    "Record",
    "RecordAction",
    "RecordError",
    "RecordPlayer",
    "RecordTurn",
    "Step",
    "export_record",
    "final_scores",
    "load_record",
    "read_record",
    "replay",
    "start_game",
]
