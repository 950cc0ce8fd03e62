"""A whole mail's orders checked against the game: what is applied now, what is kept for
later, and every rejected line with the reason and the orders allowed now."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import cast

from ..engine.actions import Action, DecisionKind
from ..engine.defaults import default_action
from ..engine.game import Game
from .commands import (
    AbsenceCommand,
    Command,
    GameCommand,
    HaciendaCmd,
    MayorCmd,
    PassCmd,
    ServiceCommand,
    is_absence,
    is_service,
    target_kind,
)
from .errors import IllegalOrder, OrderError
from .format import format_action, legal_orders
from .parser import Parsed, Segment, parse_mail, password
from .queue import DecisionKey, QueuedOrder, decision_key
from .resolve import KIND_NAMES, decision_of, resolve


@dataclass(frozen=True, slots=True)
class Accepted:
    """An order taken: ``action`` is applied now, or it is kept for ``key``'s decision.
    ``meaning`` is the action in full order syntax (what the defaults filled in)."""

    line_no: int
    text: str
    command: GameCommand
    action: Action | None = None
    key: DecisionKey | None = None
    meaning: str = ""

    @property
    def queued(self) -> QueuedOrder | None:
        if self.key is None:
            return None
        return QueuedOrder(self.key, self.command, self.text)


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


def _merge_mayor(items: list[Parsed | OrderError]) -> list[Parsed | OrderError]:
    """All colonist lines of a mail form one colonist order (removals, then placements)."""
    out: list[Parsed | OrderError] = []
    first: int | None = None
    for item in items:
        if isinstance(item, Parsed) and isinstance(item.command, MayorCmd):
            if first is None:
                first = len(out)
                out.append(item)
            else:
                head = out[first]
                assert isinstance(head, Parsed) and isinstance(head.command, MayorCmd)
                seg = head.segment
                merged = Segment(
                    seg.line_no, seg.line, seg.column, f"{seg.text}; {item.segment.text}"
                )
                out[first] = Parsed(merged, head.command.merged(item.command))
            continue
        out.append(item)
    return out


# A line that does not parse and starts like a greeting or a closing is not an order.
_COURTESY = re.compile(
    r"^\s*(hi|hello|hey|dear|thanks|thank you|many thanks|cheers|regards|kind regards|"
    r"best|best wishes|greetings|sincerely|yours|bye|ciao)\b[\s\w,.!'-]*$",
    re.IGNORECASE,
)


def _courtesy(line: str) -> bool:
    return bool(_COURTESY.match(line)) and len(line) <= 40


def check_mail(text: str, game: Game, seat: int) -> Report:
    """Read every order of a mail body for ``seat``: the order for the decision he faces
    now is resolved to an action; orders for later decisions are kept; every bad line
    is reported (later lines are still checked). The game is not changed."""
    report = Report(seat, password=password(text))
    report.legal = legal_orders(game, seat)
    decision = decision_of(game, seat)
    items = _merge_mayor(parse_mail(text))
    commands = [i.command for i in items if isinstance(i, Parsed)]
    says_hacienda = any(isinstance(c, HaciendaCmd) for c in commands)
    now_line: int | None = None  # the line that answered (or failed) the current decision
    for item in items:
        if isinstance(item, OrderError):
            if not _courtesy(item.line):
                report.errors.append(item.with_legal(report.legal))
            continue
        seg, command = item.segment, item.command
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
            report.accepted.append(Accepted(seg.line_no, seg.text, game_command, key=key))
        except OrderError as err:
            if err.line:
                placed = err
            else:
                # Point at the order when the line holds several.
                several = seg.column > 1 or ";" in seg.line
                placed = err.at(seg.line, seg.line_no)
                placed.column = seg.column if several else None
            report.errors.append(placed.with_legal(report.legal))
    return report


def parse_text(text: str) -> list[Command]:
    """Every order of a text, colonist lines merged, errors raised (for tests and tools)."""
    out: list[Command] = []
    for item in _merge_mayor(parse_mail(text)):
        if isinstance(item, OrderError):
            raise item
        out.append(item.command)
    return out


__all__ = ["AbsenceOrder", "Accepted", "Report", "check_mail", "parse_text"]
