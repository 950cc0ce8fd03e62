"""A game's web pages and the index of games, built from a game record alone.

The board at every step is the mails' own view-model (``render.views.board_view``),
embedded as JSON (each step a patch of the one before) and drawn by the page's inline
script; the sentences are the engine's. A page fetches nothing: it opens from a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader
from markupsafe import Markup

from ..engine import BUILDINGS, Game
from ..render.env import environment
from ..render.views import (
    Absence,
    ScoresView,
    absence_text,
    board_view,
    format_deadline,
    printable,
    scores_view,
)
from ..resources import data_path, data_text
from ..store.models import AbsencePolicy
from .log import ACTOR_NOTES, GameLog, LogRound
from .record import Record, RecordAction, replay, start_game

# The players' colours (Okabe and Ito's palette, told apart with any colour vision).
SEAT_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00")
SUMMARY = "summary.json"
INDEX = "index.html"


@dataclass(frozen=True, slots=True)
class Summary:
    """One game as the index lists it (kept beside its pages as summary.json)."""

    tag: str
    status: str
    variant: str
    players: tuple[str, ...]
    rounds: int
    actions: int
    winners: tuple[str, ...]
    scores: tuple[int, ...]  # in seat order; current ones while the game runs
    created_at: str
    updated_at: str | None  # the time of the last action
    deciding: tuple[str, ...]  # who must decide now
    deadline: str | None  # the earliest of their deadlines, as text in UTC
    # The database row's last change, when the pages were made from the database: how
    # the daemon knows they are current.
    stamp: str | None = None
    # Each of them with his own deadline: "Anna by Wed 25 Nov 2026 18:00 UTC".
    waiting: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GamePages:
    """What is written for one game: its page, its record and its summary."""

    tag: str
    html: str
    record: str
    summary: Summary


# -- the steps --------------------------------------------------------------------------


def patch(old: Any, new: Any) -> Any:
    """What turns ``old`` into ``new`` for the page's applyPatch(): for objects, the
    changed keys with their patches; for lists of objects of the same length,
    ``{"@": {index: patch}}``; anything else is replaced whole."""
    if isinstance(old, dict) and isinstance(new, dict):
        return {k: patch(old.get(k), v) for k, v in new.items() if old.get(k) != v}
    if (
        isinstance(old, list)
        and isinstance(new, list)
        and len(old) == len(new)
        and all(isinstance(x, dict) for x in new)
    ):
        return {
            "@": {
                str(i): patch(a, b) for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b
            }
        }
    return new


_SHOWN: dict[type, tuple[str, ...]] = {}


def _shown(cls: type) -> tuple[str, ...]:
    """A view-model's fields, and its ``text`` (the mails' wording of it) if it has one."""
    names = _SHOWN.get(cls)
    if names is None:
        names = tuple(f.name for f in fields(cls))
        if isinstance(getattr(cls, "text", None), property):
            names = (*names, "text")
        _SHOWN[cls] = names
    return names


def _plain(value: Any) -> Any:
    """A view-model as JSON data (tuples as lists, so that patches compare alike);
    faster than dataclasses.asdict, which deep-copies every leaf."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return {name: _plain(getattr(value, name)) for name in _shown(type(value))}


def board_data(game: Game) -> dict[str, Any]:
    """The public board now, as the page's script draws it."""
    data: dict[str, Any] = _plain(board_view(game))
    return data


def _phase_label(log: GameLog) -> str:
    """Where the game is, for the step's heading: "Round 7 · captain"."""
    rnd = log.rounds[-1]
    phase = rnd.phases[-1] if rnd.phases else None
    if phase is None or phase.role is None:
        return f"Round {rnd.round}"
    return f"Round {rnd.round} · {phase.role.label}"


@dataclass(slots=True)
class Replayed:
    """A record replayed: the page's steps, the log, the game at the end, and every
    player's score after every step. Extended in place when the game goes on."""

    start: tuple[object, ...]  # what the game began from
    entries: list[RecordAction]  # the actions replayed
    steps: list[dict[str, Any]]
    log: GameLog
    game: Game
    totals: list[tuple[int, ...]]
    board: dict[str, Any]  # the board after the last step

    def continues(self, record: Record) -> bool:
        """Whether ``record`` is this game with (perhaps) more actions."""
        n = len(self.entries)
        return (
            self.start == _start_of(record)
            and len(record.actions) >= n
            and list(record.actions[:n]) == self.entries
        )


def _start_of(record: Record) -> tuple[object, ...]:
    return (record.variant, record.seed, record.names, record.initial_state)


def replay_steps(record: Record, resume: Replayed | None = None) -> Replayed:
    """Every step of the game, checked (raises RecordError): step 0 the start, step k
    the board after action k, with its sentences and the scores. ``resume``: the same
    game replayed before, taken over and extended by the actions since (it must not
    be used again: on an error it is left half extended)."""
    if resume is not None and resume.continues(record):
        done = resume
    else:
        game = start_game(record)
        log = GameLog(game)
        board = board_data(game)
        totals = [tuple(sc.total for sc in game.scores())]
        first = {"id": "start", "label": _phase_label(log), "e": [], "p": board, "s": totals[0]}
        done = Replayed(_start_of(record), [], [first], log, game, totals, board)
    for step in replay(record, done.game, len(done.entries)):
        entry = step.entry
        logged = done.log.add(entry.seq, step.events, entry.actor)
        after = board_data(step.game)
        done.totals.append(tuple(sc.total for sc in step.game.scores()))
        done.steps.append(
            {
                "id": logged.anchor,
                "label": _phase_label(done.log),
                "e": [line.text for line in logged.lines],
                "n": ACTOR_NOTES.get(entry.actor),
                "t": entry.at,
                "p": patch(done.board, after),
                "s": done.totals[-1],
            }
        )
        done.entries.append(entry)
        done.board = after
    return done


# -- the score chart ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChartLine:
    name: str
    colour: str
    points: str  # SVG polyline points in the chart's own units (steps, points)
    last: int


@dataclass(frozen=True, slots=True)
class Tick:
    at: float  # percent of the width or the height
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    """Every player's score after every step: lines in a box of ``width`` steps by
    ``height`` points, stretched to the page by CSS; labels placed in percent."""

    width: int
    height: int
    lines: tuple[ChartLine, ...]
    rounds: tuple[Tick, ...]
    values: tuple[Tick, ...]
    by_round: tuple[tuple[str, tuple[int, ...]], ...]  # the text alternative


def score_chart(
    names: Sequence[str], totals: Sequence[tuple[int, ...]], rounds: Sequence[LogRound]
) -> Chart:
    width = max(1, len(totals) - 1)
    top = max((max(t) for t in totals), default=0)
    scale = 10 if top <= 60 else 20
    height = max(scale, -(-top // scale) * scale)
    lines = []
    for seat, name in enumerate(names):
        points = " ".join(f"{x},{height - t[seat]}" for x, t in enumerate(totals))
        lines.append(ChartLine(name, SEAT_COLOURS[seat], points, totals[-1][seat]))
    # A line at every round; a number under every one, or every other past 10 rounds
    # (the numbers of a long game would run into each other on a phone).
    every = 1 + (len(rounds) - 1) // 10
    ticks = tuple(
        Tick(100 * r.step / width, str(r.round) if i % every == 0 else "")
        for i, r in enumerate(rounds)
    )
    values = tuple(Tick(100 * (1 - v / height), str(v)) for v in range(0, height + 1, scale))
    ends = [r.step for r in rounds[1:]] + [len(totals) - 1]
    by_round = tuple((str(r.round), totals[end]) for r, end in zip(rounds, ends, strict=True))
    return Chart(width, height, tuple(lines), ticks, values, by_round)


# -- the pages ----------------------------------------------------------------------------


@cache
def _environment() -> Environment:
    """The mails' environment (filters, the text board) with templates/archive/ first."""
    base = environment()
    return base.overlay(
        loader=ChoiceLoader([FileSystemLoader(data_path("templates", "archive")), base.loader])  # type: ignore[list-item]
    )


@cache
def _static(name: str) -> Markup:
    """A style sheet or script inlined into every page (nothing is fetched)."""
    return Markup(data_text("templates", "archive", name))


def _script_json(data: object) -> Markup:
    """JSON to embed in <script type="application/json">: nothing in it can close the
    element or start markup, whatever the players' names hold."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, esc)
    return Markup(text)


def _when(iso: str | None) -> datetime | None:
    """A time of the record (ISO 8601; UTC when it names no zone); None if unreadable."""
    if iso is None:
        return None
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


def _deadline(iso: str | None) -> tuple[str, str] | None:
    """A deadline as text in UTC and as an ISO time (the page shows it in the reader's
    own zone too)."""
    when = _when(iso)
    return None if when is None else (format_deadline(when, "UTC")[0], when.isoformat())


_AWAY = "away: the autopilot decides for him"
_NO_DEADLINE = "no deadline: the game waits for him"


@dataclass(frozen=True, slots=True)
class Waiting:
    """A seat that must decide now, as the page of a running game says it: each has a
    deadline of his own (his turn's), none, or is away with the autopilot deciding."""

    seat: int
    name: str
    deadline: tuple[str, str] | None  # as text in UTC, and as an ISO time
    note: str | None  # "no deadline: the game waits for him", ...

    @property
    def text(self) -> str:
        """ "Anna by Wed 25 Nov 2026 18:00 UTC", "Bob (away: the autopilot decides ...)"."""
        return self.name + self._when

    @property
    def card(self) -> str:
        """What his part of the board says: "To decide by Wed 25 Nov 2026 18:00 UTC."."""
        return f"To decide{self._when}."

    @property
    def _when(self) -> str:
        by = f" by {self.deadline[0]}" if self.deadline is not None else ""
        return by + (f" ({self.note})" if self.note else "")


def waiting(record: Record, names: Sequence[str], deciding: Sequence[int]) -> tuple[Waiting, ...]:
    """Who must decide now in a running game, each with his deadline. A record without
    the seats' turns (written before they existed) gives everyone the game's deadline."""
    if record.status.value != "active":
        return ()
    if not record.turns:
        deadline = _deadline(record.deadline_at)
        return tuple(Waiting(seat, names[seat], deadline, None) for seat in deciding)
    out = []
    for turn in record.turns:
        if turn.absent:
            out.append(Waiting(turn.seat, names[turn.seat], None, _AWAY))
        elif turn.deadline_at is None:
            out.append(Waiting(turn.seat, names[turn.seat], None, _NO_DEADLINE))
        else:
            out.append(Waiting(turn.seat, names[turn.seat], _deadline(turn.deadline_at), None))
    return tuple(out)


def absences(record: Record) -> dict[int, Absence]:
    """The players away while the game runs, by seat, as every board shows them (in
    UTC: the page does not know their time zones)."""
    if record.status.value != "active":
        return {}
    autopilot = record.absence_policy is AbsencePolicy.AUTOPILOT
    out = {}
    for p in record.players:
        until = _when(p.away_until) if p.active else None
        if until is not None:
            out[p.seat] = Absence(until, "UTC", autopilot)
    return out


def build_game(record: Record) -> GamePages:
    """A game's page, its record and its summary, from the record alone (raises
    RecordError when the record does not replay)."""
    return render_game(record, replay_steps(record))


class PageBuilder:
    """Builds games' pages again and again (the daemon's page builder): the replays of
    the last ``keep`` games are kept, so that a game's next build replays only the
    actions since its last."""

    def __init__(self, keep: int = 16) -> None:
        self.keep = keep
        self._replays: dict[str, Replayed] = {}

    def build(self, record: Record) -> GamePages:
        # Taken out first: a replay that fails half way is not kept.
        done = replay_steps(record, self._replays.pop(record.tag, None))
        self._replays[record.tag] = done
        while len(self._replays) > self.keep:
            del self._replays[next(iter(self._replays))]  # the least recently built
        return render_game(record, done)


def render_game(record: Record, done: Replayed) -> GamePages:
    """The pages of a game replayed."""
    game = done.game
    names = tuple(printable(n) for n in record.names)
    scores: ScoresView = scores_view(game)
    away = absences(record)
    board = board_view(game, away)
    running = record.status.value == "active"
    deadline = _deadline(record.deadline_at) if running else None
    turns = waiting(record, names, game.deciding() if running else ())
    away_text = {seat: f"Away {absence_text(a)}." for seat, a in away.items()}
    winners = tuple(names[w] for w in game.winners()) if game.over else ()
    summary = Summary(
        tag=record.tag,
        status=record.status.value,
        variant=record.variant.value,
        players=names,
        rounds=game.state.round,
        actions=len(record.actions),
        winners=winners,
        scores=done.totals[-1],
        created_at=record.created_at,
        updated_at=record.actions[-1].at if record.actions else None,
        deciding=board.deciding if running else (),
        deadline=None if deadline is None else deadline[0],
        waiting=tuple(w.text for w in turns),
    )
    data = {
        "tag": record.tag,
        "names": names,
        "colours": SEAT_COLOURS[: len(names)],
        "produces": {
            b.label: (i.produces.label if i.produces is not None else None)
            for b, i in BUILDINGS.items()
        },
        "steps": done.steps,
        "rounds": {f"r{r.round}": r.step for r in done.log.rounds},
        # A running game's present, on the players' parts of the board at the last step:
        # each deciding seat's deadline, who is away.
        "now": {
            str(seat): [w.card for w in turns if w.seat == seat]
            + ([away_text[seat]] if seat in away_text else [])
            for seat in range(len(names))
            if seat in away_text or any(w.seat == seat for w in turns)
        },
    }
    html = (
        _environment()
        .get_template("game.html.j2")
        .render(
            record=record,
            summary=summary,
            names=names,
            colours=SEAT_COLOURS,
            board=board,
            scores=scores,
            over=game.over,
            waiting=turns,
            away=[(names[seat], absence_text(a)) for seat, a in sorted(away.items())],
            chart=score_chart(names, done.totals, done.log.rounds),
            rounds=done.log.rounds,
            steps=len(done.steps) - 1,
            anchors=[step["id"] for step in done.steps],
            last=done.steps[-1],
            data=_script_json(data),
            css=_static("archive.css"),
            js=_static("archive.js"),
        )
    )
    text = json.dumps(record.data, indent=2, ensure_ascii=False) + "\n"
    return GamePages(record.tag, html, text, summary)


def build_index(summaries: Iterable[Summary], title: str = "Puerto Rico games") -> str:
    """The index of games, the running ones first, the newest first."""
    order = sorted(summaries, key=lambda s: s.created_at, reverse=True)
    running = [s for s in order if s.status in ("active", "paused")]
    ended = [s for s in order if s.status not in ("active", "paused")]
    return (
        _environment()
        .get_template("index.html.j2")
        .render(title=title, running=running, ended=ended, css=_static("archive.css"))
    )


# -- writing --------------------------------------------------------------------------


def write_file(path: Path, text: str) -> None:
    """Replace ``path`` at once: a reader (or a web server) sees the old file or the
    new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_game(out: Path, pages: GamePages) -> Path:
    """Write a game's files under ``out/<tag>/``; returns its page."""
    folder = out / pages.tag
    write_file(folder / f"{pages.tag}.json", pages.record)
    page = folder / INDEX
    write_file(page, pages.html)
    # Last: the index and the daemon read it as "these pages are up to date".
    write_file(
        folder / SUMMARY, json.dumps(asdict(pages.summary), ensure_ascii=False, indent=1) + "\n"
    )
    return page


def read_summary(folder: Path) -> Summary | None:
    """A game folder's summary.json; None when it is missing or not one of ours."""
    try:
        data = json.loads((folder / SUMMARY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    if not isinstance(data.get("waiting", []), list):
        return None
    try:
        summary = Summary(
            tag=data["tag"],
            status=data["status"],
            variant=data["variant"],
            players=tuple(data["players"]),
            rounds=data["rounds"],
            actions=data["actions"],
            winners=tuple(data["winners"]),
            scores=tuple(data["scores"]),
            created_at=data["created_at"],
            updated_at=data["updated_at"],
            deciding=tuple(data["deciding"]),
            deadline=data["deadline"],
            stamp=data.get("stamp"),
            waiting=tuple(data.get("waiting", ())),
        )
    except (KeyError, TypeError):
        return None
    texts = (summary.tag, summary.status, summary.variant, summary.created_at)
    numbers = (summary.rounds, summary.actions, *summary.scores)
    if (
        summary.tag != folder.name
        or not all(
            isinstance(x, str)
            for x in (
                *texts,
                *summary.players,
                *summary.winners,
                *summary.deciding,
                *summary.waiting,
            )
        )
        or not all(isinstance(x, int) for x in numbers)
        or not isinstance(summary.updated_at, str | None)
        or not isinstance(summary.deadline, str | None)
        or not isinstance(summary.stamp, str | None)
    ):
        return None
    return summary


def write_index(out: Path) -> Path:
    """Write ``out/index.html`` from the summaries of the games under ``out``."""
    summaries = []
    if out.is_dir():
        for folder in sorted(out.iterdir()):
            if folder.is_dir():
                found = read_summary(folder)
                if found is not None:
                    summaries.append(found)
    path = out / INDEX
    write_file(path, build_index(summaries))
    return path


def publish(out: Path, games: Iterable[GamePages]) -> list[Path]:
    """Write games' pages and the index; returns the games' pages. (Build them all
    first: a record that does not replay then changes nothing.)"""
    pages = [write_game(out, p) for p in games]
    write_index(out)
    return pages


__all__ = [
    "SEAT_COLOURS",
    "GamePages",
    "PageBuilder",
    "Summary",
    "Waiting",
    "board_data",
    "build_game",
    "build_index",
    "patch",
    "publish",
    "read_summary",
    "replay_steps",
    "score_chart",
    "waiting",
    "write_file",
    "write_game",
    "write_index",
]
