"""A whole mail's orders checked against the game: what is applied now, what is kept for
later, and every rejected line with the reason and the orders allowed now."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from functools import cache
from typing import cast

from ..engine.actions import Action, DecisionKind
from ..engine.defaults import default_action
from ..engine.game import Decision, Game
from .commands import (
    AbsenceCommand,
    Command,
    GameCommand,
    HaciendaCmd,
    KeepCmd,
    MayorCmd,
    PassCmd,
    ServiceCommand,
    is_absence,
    is_service,
    target_kind,
)
from .errors import AmbiguousOrder, IllegalOrder, OrderError, OrderSyntaxError
from .format import format_action, legal_orders
from .parser import Alternative, Parsed, Segment, parse_mail, password, segments
from .queue import DecisionKey, QueuedOrder, decision_key
from .reading import phrase
from .resolve import KIND_NAMES, decision_of, or_list, resolve
from .vocabulary import ENGLISH, Vocabulary, known, suggestions


@dataclass(frozen=True, slots=True)
class Accepted:
    """An order taken: ``action`` is applied now, or it is kept for ``key``'s decision.
    ``meaning`` is the action in full order syntax (what the defaults filled in);
    ``reading`` the text the order was read as, when it was not read as written."""

    line_no: int
    text: str
    command: GameCommand
    action: Action | None = None
    key: DecisionKey | None = None
    meaning: str = ""
    reading: str = ""

    @property
    def queued(self) -> QueuedOrder | None:
        # Kept as the text it was read as, which parses again as written.
        if self.key is None:
            return None
        return QueuedOrder(self.key, self.command, self.reading or self.text)


@dataclass(slots=True)
class AbsenceOrder:
    """The player's absence order ("away until 3 December", "back"): the moderator, who
    knows the clock, carries it out and says what it came to in ``meaning``."""

    line_no: int
    line: str
    text: str
    command: AbsenceCommand
    meaning: str = ""  # what was done ("away until Thu 3 Dec 2026 00:00 CET"); "": refused


@dataclass(slots=True)
class Report:
    """The result of reading one mail for one seat. Nothing in it has been applied."""

    seat: int
    accepted: list[Accepted] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)
    services: list[ServiceCommand] = field(default_factory=list)
    legal: list[str] = field(default_factory=list)
    password: str | None = None
    absence: AbsenceOrder | None = None  # the last absence order of the mail

    @property
    def actions(self) -> list[Action]:
        """The actions to apply now, in order (at most the current decision and, for a
        settle order while the hacienda question is open, the hacienda default first)."""
        return [a.action for a in self.accepted if a.action is not None]

    @property
    def queued(self) -> list[QueuedOrder]:
        return [q for a in self.accepted if (q := a.queued) is not None]

    @property
    def ok(self) -> bool:
        return not self.errors

    def render(self) -> str:
        """Plain text for the reply mail."""
        out: list[str] = []
        absence = self.absence if self.absence is not None and self.absence.meaning else None
        if self.accepted or absence:
            out.append("Accepted:")
            for a in self.accepted:
                if a.action is not None:
                    out.append(f'  line {a.line_no}: "{a.text}" -> {a.meaning}')
                elif a.key is not None:
                    out.append(f'  line {a.line_no}: "{a.text}" -> kept for {a.key.describe()}')
            if absence:
                out.append(f'  line {absence.line_no}: "{absence.text}" -> {absence.meaning}')
        if self.errors:
            if out:
                out.append("")
            out.append("Not accepted:")
            for err in self.errors:
                out.append("")
                out.append(err.render(with_legal=False))
        if self.errors or (not self.accepted and not self.services and not absence):
            out.append("")
            if self.legal:
                out.append("You may order now:")
                out.extend(f"    {line}" for line in self.legal)
            else:
                out.append("You have nothing to decide now; orders for later decisions are kept.")
        return "\n".join(out).strip("\n")


def _merge_lines(items: list[Parsed | OrderError]) -> list[Parsed | OrderError]:
    """All colonist lines of a mail form one colonist order (removals, then placements),
    and all its keep lines one keep order ("warehouse: sugar; wind rose: indigo"). A line
    with several readings stays apart, for the game to choose among them."""
    out: list[Parsed | OrderError] = []
    first: dict[type, int] = {}
    for item in items:
        if not isinstance(item, Parsed) or len(item.alternatives) > 1:
            out.append(item)
            continue
        command = item.command
        if not isinstance(command, MayorCmd | KeepCmd):
            out.append(item)
            continue
        at = first.get(type(command))
        if at is None:
            first[type(command)] = len(out)
            out.append(replace(item, alternatives=()))
            continue
        head = out[at]
        assert isinstance(head, Parsed)
        seg = head.segment
        merged = Segment(seg.line_no, seg.line, seg.column, f"{seg.text}; {item.segment.text}")
        both = _merged(head.command, command)
        out[at] = Parsed(merged, both, f"{head.text}; {item.text}")
    return out


def _merged(a: Command, b: MayorCmd | KeepCmd) -> Command:
    if isinstance(a, MayorCmd) and isinstance(b, MayorCmd):
        return a.merged(b)
    assert isinstance(a, KeepCmd) and isinstance(b, KeepCmd)
    return KeepCmd(a.items + b.items)


def _choose(item: Parsed, game: Game, seat: int, decision: Decision | None) -> tuple[Command, str]:
    """The command of an order read otherwise than written, and the text it was read
    as. The readings are taken tier by tier (reading.Reading); those for the decision
    asked now count when they are legal now, those for another decision count as
    orders for later. The first tier with one such reading gives it; a tier with
    several is asked back: never a guess between two. A tier whose readings for the
    decision asked are all refused ends the search with the reason."""
    failed: tuple[str, OrderError] | None = None
    for tier in sorted({a.reading.tier for a in item.alternatives}):
        legal: dict[Action, Alternative] = {}
        later: dict[Command, Alternative] = {}
        for a in (a for a in item.alternatives if a.reading.tier == tier):
            kind = target_kind(a.command)
            mine = decision is not None and kind in (None, decision.kind)
            if not mine or is_service(a.command) or is_absence(a.command):
                later.setdefault(a.command, a)
                continue
            try:
                action = resolve(cast(GameCommand, a.command), game, seat)
            except OrderError as err:  # (a is for the decision asked: mine)
                failed = failed or (a.reading.text, err)
                continue
            legal.setdefault(action, a)
        if len(legal) + len(later) == 1:
            (chosen,) = (*legal.values(), *later.values())
            return chosen.command, chosen.reading.text
        if legal or later:
            meanings = [format_action(action, game, seat) for action in legal]
            meanings += [a.reading.text for a in later.values()]
            raise AmbiguousOrder(
                f'"{item.segment.text}" could mean {or_list(meanings)}: write which one',
                alternatives=meanings,
            )
        if failed is not None:
            break  # read for the decision asked and refused: say why, never read on
    assert failed is not None
    text, error = failed
    if isinstance(error, AmbiguousOrder):
        raise error
    raise IllegalOrder(f'read as "{text}": {error.reason}')


# A line that does not parse and starts like a greeting or a closing is not an order.
@cache
def _greeting(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    starts = "|".join(map(phrase, vocab.greetings))
    return re.compile(rf"^\s*(?:{starts})\b[\s\w,.!'-]*$", re.IGNORECASE)


def _courtesy(line: str) -> bool:
    return bool(_greeting().match(line)) and len(line) <= 40


def check_mail(text: str, game: Game, seat: int) -> Report:
    """Read every order of a mail body for ``seat``: the order for the decision he faces
    now is resolved to an action; orders for later decisions are kept; every bad line
    is reported (later lines are still checked). The game is not changed."""
    report = Report(seat, password=password(text))
    report.legal = legal_orders(game, seat)
    decision = decision_of(game, seat)
    parsed = parse_mail(text, None if decision is None else decision.kind)
    # The order each error is for (parse_mail reads one item per segment), to tell a
    # greeting or a signature that shares a line with an order ("Thanks, Anna").
    said = {id(i): seg.text for i, seg in zip(parsed, segments(text), strict=True)}
    items = _merge_lines(parsed)
    commands = [i.command for i in items if isinstance(i, Parsed)]
    says_hacienda = any(isinstance(c, HaciendaCmd) for c in commands)
    now_line: int | None = None  # the line that answered (or failed) the current decision
    for item in items:
        if isinstance(item, OrderError):
            own = said.get(id(item), item.line)
            if not (_courtesy(own) or _heading(own) or _signature(own, item, items, game)):
                report.errors.append(item.with_legal(report.legal))
            continue
        seg, command, reading = item.segment, item.command, item.text
        if item.alternatives:
            try:
                command, reading = _choose(item, game, seat, None if now_line else decision)
            except OrderError as err:
                report.errors.append(_placed(err, seg).with_legal(report.legal))
                continue
        if is_service(command):
            report.services.append(command)
            continue
        if is_absence(command):
            report.absence = AbsenceOrder(seg.line_no, seg.line, seg.text, command)
            continue
        game_command = cast(GameCommand, command)
        if any(a.command == game_command for a in report.accepted):
            continue  # the same order twice (a pasted line): once is enough
        kind = target_kind(command)
        try:
            if decision is not None and now_line is None:
                if kind in (None, decision.kind):
                    now_line = seg.line_no
                    action = resolve(game_command, game, seat)
                    report.accepted.append(
                        Accepted(
                            seg.line_no,
                            seg.text,
                            game_command,
                            action=action,
                            meaning=format_action(action, game, seat),
                            reading=reading,
                        )
                    )
                    continue
                if (
                    decision.kind is DecisionKind.HACIENDA
                    and kind is DecisionKind.SETTLE
                    and not says_hacienda
                ):
                    # The hacienda question is answered with its default on the way.
                    now_line = seg.line_no
                    default = default_action(game, seat)
                    if default is not None:
                        report.accepted.append(
                            Accepted(
                                seg.line_no,
                                "(hacienda: the default)",
                                HaciendaCmd(True),
                                action=default,
                                meaning=format_action(default, game, seat),
                            )
                        )
            elif (
                decision is not None
                and kind in (None, decision.kind)
                and now_line is not None
                and not any(a.action is not None for a in report.accepted)
            ):
                raise IllegalOrder(
                    f"not used: line {now_line} answered {KIND_NAMES[decision.kind]} "
                    "and was rejected"
                )
            key = decision_key(game_command, game, seat)
            if key is None:
                raise IllegalOrder(
                    "the game is over" if game.over else "you have nothing to decide now"
                )
            if isinstance(game_command, PassCmd) and game_command.kind is None:
                game_command = PassCmd(key.kind)
            report.accepted.append(
                Accepted(seg.line_no, seg.text, game_command, key=key, reading=reading)
            )
        except OrderError as err:
            report.errors.append(_placed(err, seg).with_legal(report.legal))
    _whole_colonist_order(report, decision)
    return report


_WHOLE = (DecisionKind.MAYOR, DecisionKind.STORE)


def _whole_colonist_order(report: Report, decision: Decision | None) -> None:
    """A colonist or keep order is read whole, from every line of the mail: when a line
    was not understood it may have been part of it, so none of it is applied (never a
    layout or a storage the player did not order)."""
    unread = [e for e in report.errors if isinstance(e, OrderSyntaxError)]
    if decision is None or decision.kind not in _WHOLE or not unread:
        return
    for i, a in enumerate(report.accepted):
        if a.action is not None and isinstance(a.command, MayorCmd | KeepCmd):
            lines = ", ".join(str(e.line_no) for e in unread if e.line_no is not None)
            err = IllegalOrder(
                f"not applied: line {lines or '?'} was not understood and may belong to "
                "this order, which is read whole; send it again"
            )
            report.errors.append(err.at(a.text, a.line_no).with_legal(report.legal))
            del report.accepted[i]
            return


def _placed(err: OrderError, seg: Segment) -> OrderError:
    if err.line:
        return err
    # Point at the order when the line holds several.
    several = seg.column > 1 or ";" in seg.line
    placed = err.at(seg.line, seg.line_no)
    placed.column = seg.column if several else None
    return placed


_HEADING = re.compile(r"^\s*([a-z' ]+):\s*$", re.IGNORECASE)


def _heading(text: str) -> bool:
    """A line that only heads the orders below it ("Colonists:", "My orders:")."""
    m = _HEADING.match(text)
    return m is not None and all(w in known() for w in m.group(1).lower().split())


_NAME = re.compile(r"^\s*-*\s*([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)[\s.!,]*$")


def _signature(text: str, err: OrderError, items: list[Parsed | OrderError], game: Game) -> bool:
    """A line that is a name alone: a player's name, or, after the last order of the
    mail, a name that is no order word nor close to one ("Anna", not "Captn")."""
    m = _NAME.match(text)
    if m is None:
        return False
    name = m.group(1).lower()
    if name.split()[0] in {p.name.lower() for p in game.state.players}:
        return True
    after = items[items.index(err) + 1 :]
    if any(isinstance(i, Parsed) for i in after):
        return False
    return not any(
        w in known() or difflib.get_close_matches(w, suggestions(), cutoff=0.8)
        for w in name.split()
    )


def parse_text(text: str) -> list[Command]:
    """Every order of a text, colonist lines merged, errors raised (for tests and tools)."""
    out: list[Command] = []
    for item in _merge_lines(parse_mail(text)):
        if isinstance(item, OrderError):
            raise item
        out.append(item.command)
    return out


__all__ = ["AbsenceOrder", "Accepted", "Report", "check_mail", "parse_text"]
