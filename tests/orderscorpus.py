"""The order corpus (tests/data/orders/): natural order mails, each with the position
it is written for and what a careful human moderator would do with it.

Used by bench/orders.py (the figures) and tests/test_orders_corpus.py (no order applied
wrongly, no figure below its floor). Every mail goes through the service's own path:
``check_mail`` (text -> parser -> readings -> resolved against the writer's decision),
the actions it accepts applied in order, then the service's own ``orders.queue.advance``:
forced moves and kept orders, the queue brought in line with the position before each
step (orders dropped when their decision is taken otherwise, their phase is over or
went by, or a later order replaces them), until someone must be asked.

What a case expects is written as order text in the canonical form of
``moderator.orders.format_action``; each expected step is looked up among the legal
actions of the position it is applied in (never parsed), so the corpus cannot agree
with a wrong parse. See tests/data/orders/README.md for the file format.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from pathlib import Path

from moderator.engine import Game
from moderator.engine.actions import Action
from moderator.mail.envelope import order_text
from moderator.orders import AmbiguousOrder, QueuedOrder, check_mail, format_action
from moderator.orders.queue import Decided, Step, advance
from moderator.orders.resolve import decision_of

DATA = Path(__file__).resolve().parent / "data" / "orders"
CORPUS = DATA / "corpus.toml"
HELD_OUT = DATA / "held-out.toml"
FLOORS = DATA / "floors.toml"
POSITIONS = DATA / "positions"

ASK = "ask"
REJECT = "reject"


class Outcome(Enum):
    """What became of one mail, judged against the case."""

    UNDERSTOOD = "understood"  # done exactly as the case says (asked back / refused when it should)
    WRONG = "wrong"  # something applied or kept that the case does not say
    ASKED = "asked"  # nothing wrong done, but asked back where the order was clear
    REJECTED = "rejected"  # nothing wrong done, but (part of) a clear order refused


OUTCOMES = tuple(Outcome)


class CorpusError(Exception):
    """A case that cannot be checked as written (unknown position, an expected order
    that is not legal where it is applied): a fault of the corpus, not of the parser."""


@dataclass(frozen=True, slots=True)
class Case:
    source: str  # file name and case number, for messages
    position: str
    text: str
    seat: int | None  # None: the picker if he decides there, else the first seat deciding
    expect: tuple[str, ...] | str  # canonical orders applied by this mail, or ASK / REJECT
    kept_for: str | None = None  # a later position where the mail's kept orders are tried
    then: tuple[str, ...] = ()  # what a kept order does there
    note: str = ""


@dataclass(slots=True)
class Result:
    case: Case
    kind: str  # the writer's decision kind in the position ("ahead": he has none now)
    outcome: Outcome
    got: list[str] = field(default_factory=list)  # what was applied, canonical text
    later: str | None = None  # what the kept orders did at ``kept_for``
    reply: str = ""


# -- loading -------------------------------------------------------------------------


@cache
def _position(name: str) -> Game:
    path = POSITIONS / f"{name}.json"
    if not path.is_file():
        raise CorpusError(f"no position {name!r} ({path.name} is missing)")
    return Game.from_json(path.read_text(encoding="utf-8"))


def load_position(name: str) -> Game:
    """A fresh copy of the named position (the file is read and checked once)."""
    return _position(name).copy()


def _seat(value: object, game: Game, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value in game.names:
        return game.names.index(value)
    raise CorpusError(f"{where}: seat {value!r} is neither a seat number nor a player's name")


def _orders(value: object, where: str) -> tuple[str, ...] | str:
    if value in (ASK, REJECT):
        assert isinstance(value, str)
        return value
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(str(v) for v in value)
    raise CorpusError(f"{where}: expect must be an order, a list of orders, 'ask' or 'reject'")


def load_cases(path: Path) -> list[Case]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    games: dict[str, Game] = {}
    out: list[Case] = []
    for i, raw in enumerate(data.get("case", []), 1):
        where = f"{path.name} case {i}"
        unknown = set(raw) - {"at", "text", "seat", "expect", "kept_for", "then", "note"}
        if unknown:
            raise CorpusError(f"{where}: unknown key(s) {sorted(unknown)}")
        if "at" not in raw or "text" not in raw or "expect" not in raw:
            raise CorpusError(f"{where}: 'at', 'text' and 'expect' are required")
        name = str(raw["at"])
        game = games.get(name) or games.setdefault(name, load_position(name))
        then = raw.get("then", ())
        out.append(
            Case(
                source=where,
                position=name,
                text=str(raw["text"]),
                seat=_seat(raw.get("seat"), game, where),
                expect=_orders(raw["expect"], where),
                kept_for=raw.get("kept_for"),
                then=(then,) if isinstance(then, str) else tuple(then),
                note=str(raw.get("note", "")),
            )
        )
        if (out[-1].kept_for is None) != (not out[-1].then):
            raise CorpusError(f"{where}: 'kept_for' and 'then' go together")
    return out


# -- running ---------------------------------------------------------------------------


def _writer(case: Case, game: Game) -> int:
    if case.seat is not None:
        return case.seat
    undecided = [d.seat for d in game.decisions() if not d.forced]
    if game.state.picker in undecided and game.state.phase.value != "role":
        return game.state.picker  # the role's picker, when he has something to decide
    if not undecided:
        raise CorpusError(f"{case.source}: nobody has a decision in {case.position!r}")
    return undecided[0]


def _canonical(text: str) -> str:
    """Case, spacing and the order of the items of a colonist or keep order do not
    matter."""
    clauses: list[str] = []
    for clause in text.lower().split(";"):
        words = " ".join(clause.split())
        verb, _, rest = words.partition(" ")
        if verb in ("remove", "place", "keep") and rest:
            items = sorted(" ".join(i.split()) for i in rest.split(","))
            words = verb + " " + ", ".join(items)
        clauses.append(words)
    return "; ".join(clauses)


def _find(game: Game, seat: int, order: str, where: str) -> Action:
    """The legal action of ``seat`` whose canonical text is ``order`` (never parsed)."""
    decision = decision_of(game, seat)
    if decision is None:
        raise CorpusError(f"{where}: {game.names[seat]} has nothing to decide for {order!r}")
    wanted = _canonical(order)
    texts: list[str] = []
    for action in decision.actions:
        text = format_action(action, game, seat)
        if _canonical(text) == wanted:
            return action
        texts.append(text)
    shown = "; ".join(texts[:12]) + (" ..." if len(texts) > 12 else "")
    raise CorpusError(f"{where}: {order!r} is not a legal order there (legal: {shown})")


def _forced(game: Game, decided: list[Decided] | None = None) -> bool:
    for d in game.decisions():
        if d.forced:
            if decided is not None:
                decided.append(Decided.of(game, d.seat, d.actions[0]))
            game.apply(d.seat, d.actions[0])
            return True
    return False


def expected_actions(case: Case, game: Game, seat: int) -> list[Action]:
    """Replay the expected orders from the position (forced moves between them, as the
    service applies them), each looked up among the legal actions of its step."""
    assert not isinstance(case.expect, str)
    out: list[Action] = []
    for order in case.expect:
        while decision_of(game, seat) is None and _forced(game):
            pass
        action = _find(game, seat, order, case.source)
        game.apply(seat, action)
        out.append(action)
    return out


def _kind(game: Game, seat: int) -> str:
    decision = decision_of(game, seat)
    return "ahead" if decision is None else decision.kind.value


def run_case(case: Case) -> Result:
    game = load_position(case.position)
    seat = _writer(case, game)
    kind = _kind(game, seat)
    expected = None if isinstance(case.expect, str) else expected_actions(case, game.copy(), seat)
    # The text as the service reads it: quoted replies, attributions and signatures cut
    # (mail.envelope.order_text).
    report = check_mail(order_text(case.text), game, seat)
    reply = report.render()
    asked = any(isinstance(e, AmbiguousOrder) for e in report.errors)
    got: list[Action] = []
    got_text: list[str] = []
    decided: list[Decided] = []
    for action in report.actions:
        # The steps of one turn, with only forced moves between (as the service applies
        # them).
        while action not in game.legal_actions(seat) and _forced(game, decided):
            pass
        decided.append(Decided.of(game, seat, action))
        got_text.append(decided[-1].echo)
        game.apply(seat, action)
        got.append(action)

    def act(step: Step[None]) -> None:
        if step.seat == seat and not step.forced:
            got_text.append(step.decided.echo)
            got.append(step.action)
        game.apply(step.seat, step.action)

    # The service's own path (Moderator._advance): forced moves and the kept orders,
    # until someone must be asked.
    queue = advance(game, [(None, q) for q in report.queued], decided, act).kept
    later: Action | None = None
    later_text: str | None = None
    if case.kept_for is not None and queue:
        there = load_position(case.kept_for)
        later, later_text = _first_kept(there, seat, queue)
    outcome = _judge(case, expected, got, later, asked, bool(queue))
    return Result(case, kind, outcome, got_text, later_text, reply)


def _first_kept(
    game: Game, seat: int, queue: list[tuple[None, QueuedOrder]]
) -> tuple[Action | None, str | None]:
    """What the kept orders of ``seat`` do first when they are brought to ``game``, a
    later position, by the service's path: his first step from a kept order."""
    first: list[Step[None]] = []

    def act(step: Step[None]) -> None:
        if step.seat == seat and step.used is not None and not first:
            first.append(step)
        game.apply(step.seat, step.action)

    advance(game, queue, (), act)
    if not first:
        return None, None
    return first[0].action, first[0].decided.echo


def _expected_later(case: Case, seat: int) -> Action | None:
    if case.kept_for is None:
        return None
    there = load_position(case.kept_for)
    (order,) = case.then
    return _find(there, seat, order, case.source)


def _judge(
    case: Case,
    expected: list[Action] | None,
    got: list[Action],
    later: Action | None,
    asked: bool,
    kept: bool,
) -> Outcome:
    if expected is None:  # ask back, or not an order at all
        if got or kept:
            return Outcome.WRONG
        if case.expect == ASK:
            return Outcome.UNDERSTOOD if asked else Outcome.REJECTED
        return Outcome.UNDERSTOOD
    if got != expected[: len(got)]:
        return Outcome.WRONG
    want_later = _expected_later(case, _seat_of(case))
    if later is not None and later != want_later:
        return Outcome.WRONG
    if got == expected and later == want_later:
        return Outcome.UNDERSTOOD
    return Outcome.ASKED if asked else Outcome.REJECTED


def _seat_of(case: Case) -> int:
    return _writer(case, load_position(case.position))


def dressed(case: Case) -> list[Case]:
    """The same mail as players also write it: with a greeting and the writer's name
    around it, and in capitals. It means what the case says, so it must never be applied
    wrongly."""
    game = load_position(case.position)
    writer = game.names[_writer(case, game)]
    forms = (
        f"Hi all,\n\n{case.text}\n\nCheers,\n{writer}",
        case.text.upper(),
    )
    return [
        replace(case, source=f"{case.source} (dressed {i})", text=text)
        for i, text in enumerate(forms, 1)
    ]


def run(cases: Iterable[Case]) -> list[Result]:
    return [run_case(c) for c in cases]


# -- figures ---------------------------------------------------------------------------


def shares(results: Sequence[Result]) -> dict[str, dict[Outcome, float]]:
    """Per decision kind and in total ("all"): the share of each outcome."""
    groups: dict[str, list[Result]] = {}
    for r in results:
        groups.setdefault(r.kind, []).append(r)
    if results:
        groups["all"] = list(results)
    out: dict[str, dict[Outcome, float]] = {}
    for kind, rs in groups.items():
        out[kind] = {o: sum(r.outcome is o for r in rs) / len(rs) for o in OUTCOMES}
    return out


def counts(results: Sequence[Result]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in results:
        out[r.kind] = out.get(r.kind, 0) + 1
    out["all"] = len(results)
    return out


def load_floors() -> dict[str, dict[str, float]]:
    """The stored floors: per set ("corpus", "held-out") and kind, the least share
    understood."""
    data = tomllib.loads(FLOORS.read_text(encoding="utf-8"))
    return {
        name: {kind: float(v) for kind, v in data.get(name, {}).items()}
        for name in ("corpus", "held-out")
    }


def wrong_at_most() -> dict[str, int]:
    """The stored ceiling of mails applied wrongly, per set (the target is 0)."""
    data = tomllib.loads(FLOORS.read_text(encoding="utf-8"))
    return {name: int(n) for name, n in data["wrong-at-most"].items()}
