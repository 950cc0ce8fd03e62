"""A whole mail's orders checked against the game: what is applied now, what is kept for
later, and every rejected line with the reason and the orders allowed now."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import cast

from ..engine.actions import Action, DecisionKind, PlaceColonists
from ..engine.components import GOODS, Building, Role
from ..engine.defaults import default_action
from ..engine.game import Decision, Game
from ..engine.state import Player
from .commands import (
    AbsenceCommand,
    Command,
    GameCommand,
    HaciendaCmd,
    KeepCmd,
    MayorCmd,
    PassCmd,
    RoleCmd,
    ServiceCommand,
    Share,
    ShipCmd,
    WharfCmd,
    is_absence,
    is_service,
    target_kind,
)
from .elsewhere import elsewhere
from .errors import (
    AlreadyDone,
    AmbiguousOrder,
    IllegalOrder,
    OrderError,
    OrderSyntaxError,
    Question,
    Remark,
    WouldHaveBeen,
    not_understood,
)
from .format import format_action, legal_orders
from .mentions import answer_classes, names_answer, names_of
from .parser import (
    Alternative,
    Parsed,
    Segment,
    parse_mail,
    parse_order,
    password,
    read_mail,
    whole_colonists,
)
from .questions import hesitation, question, undecided, undecided_only
from .queue import (
    DecisionKey,
    QueuedOrder,
    coming,
    decision_key,
    later_round,
    passed_this_round,
    role_kinds,
)
from .reading import (
    MENTIONS_TIER,
    actual,
    actual_only,
    any_phrase,
    as_typed,
    changing,
    condition,
    contrast_statement,
    correction,
    decided,
    ends_actual,
    ends_back,
    fallback_word,
    interjection,
    legality_lead,
    names_nothing,
    normalise,
    phrase,
    questions_back,
    reason_only,
    reasoned,
    refers,
    said_next,
    said_total,
    says_actual,
    sent_early,
    takes_back_only,
    unchecked_condition,
    unreal,
    when_blanked,
)
from .resolve import KIND_NAMES, asked_now, decision_of, never_this_phase, or_list, resolve
from .vocabulary import (
    ENGLISH,
    Vocabulary,
    close_words,
    known,
    negation,
    not_now,
    written_out,
)

_SETTLE = DecisionKind.SETTLE
# The text of the hacienda's default taken on the way to a settle order.
_HACIENDA_DEFAULT = "(the hacienda's default, before your tile)"


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
    loose: bool = False  # read by what it names (the last reading, mentions.py)

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
        errors = [e for e in self.errors if not isinstance(e, Remark)]
        remarks = [e for e in self.errors if isinstance(e, Remark)]
        for heading, listed in (("Not accepted:", errors), ("Taken as remarks:", remarks)):
            if listed:
                out.extend(["", heading] if out else [heading])
            for err in listed:
                out.append("")
                out.append(err.render(with_legal=False))
        if errors or (not self.accepted and not self.services and not absence):
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


def _conditioned(
    items: list[Parsed | OrderError], said: dict[int, str], game: Game, seat: int
) -> list[Parsed | OrderError]:
    """A condition on a phase before an order on its line ("if there's a trader phase,
    sell corn") is no order: it says when the order is for. An order of another phase
    after it is not read ("once the captain comes, sell corn": which is meant?), nor one
    after a condition the moderator cannot check ("if Bob sells corn, ...")."""
    own = _own_names(game, seat)
    out: list[Parsed | OrderError] = []
    for i, item in enumerate(items):
        after = items[i + 1] if i + 1 < len(items) else None
        if not isinstance(item, OrderError) or not isinstance(after, Parsed):
            out.append(item)
            continue
        text = said.get(id(item), "")
        if after.segment.line_no != item.line_no or text.rstrip()[-1:] in (".", "!"):
            out.append(item)  # (a sentence of its own: "If I had 8 doubloons ... Office.")
            continue
        other = _other_player(text, game, seat)
        blocked: str | None = None
        if unreal(text):
            # "If I had the money I'd build the harbor, so the factory": what would
            # have been orders nothing, and an order after it only with a word that
            # says it is done in fact ("so", "then", "instead")
            if actual(after.segment.text) is None:
                blocked = "which says what would have been; write your order on its own"
        elif unchecked_condition(text, own=own) or (other and condition(text, own=own)):
            # "if Bob sells corn, sell coffee": the moderator cannot tell if it holds
            blocked = "which the moderator cannot check; write the order without it when it holds"
        if unreal(text) or blocked is not None:
            if blocked is not None:
                why = IllegalOrder(f'this depends on "{text.strip()}", {blocked}')
                items[i + 1] = why.at(after.segment.line, after.segment.line_no)
            out.append(item)
            continue
        roles = condition(text, own=own)
        if roles is None:
            out.append(item)
            continue
        if isinstance(after.command, RoleCmd):
            # "if the captain is gone, I'll take the settler": on the role, not its phase
            out.append(item)
            continue
        kinds = {k for role in roles for k in role_kinds(role)}
        if target_kind(after.command) not in kinds:
            names = " or the ".join(sorted(r.label for r in roles))
            why = IllegalOrder(
                f"this is said to be for the {names} phase, but it is no order of it"
            )
            items[i + 1] = why.at(after.segment.line, after.segment.line_no)
    return out


def _unreal_parts(items: list[Parsed | OrderError], said: dict[int, str]) -> set[int]:
    """The parts not understood that say what would have been and cannot ("I'd have
    taken corn but it's gone.", "If I had a warehouse I'd keep everything") when the
    order right after them says it is what is done in fact ("Coffee then.", "as it is,
    the sugar"; the word alone may come between: "As it is," "keep the sugar"): no
    order, passed over (their ids); the order after them is the one. Never when that
    order stands for a thing named before it ("... Keep it then.")."""
    out: set[int] = set()
    for at, item in enumerate(items):
        if not isinstance(item, OrderError) or not unreal(said.get(id(item), item.line)):
            continue
        between = [item]
        for after in items[at + 1 :]:
            if isinstance(after, OrderError) and actual_only(said.get(id(after), after.line)):
                between.append(after)
                continue
            if isinstance(after, Parsed):
                seg = after.segment
                text = seg.text
                # (the word may be read as the joint before the order: ". Then sell corn")
                joined = len(between) > 1 or ends_actual(seg.line[: seg.column - 1])
                fact = actual(text) or ((0, len(text)) if joined or says_actual(text) else None)
                if fact is not None and not refers(text[fact[0] : fact[1]]):
                    out.update(id(i) for i in between)
            break
    return out


def _merged(a: Command, b: MayorCmd | KeepCmd) -> Command:
    if isinstance(a, MayorCmd) and isinstance(b, MayorCmd):
        return a.merged(b)
    assert isinstance(a, KeepCmd) and isinstance(b, KeepCmd)
    rest = a if a.rest is not None else b
    return KeepCmd(a.items + b.items, rest.rest, rest.rest_where, a.drop + b.drop)


def _choose(item: Parsed, game: Game, seat: int, decision: Decision | None) -> tuple[Command, str]:
    """The command of an order read otherwise than written, and the text it was read
    as. The readings are taken tier by tier (reading.Reading); those for the decision
    asked now count when they are legal now, those for another decision count as
    orders for later. The first tier with one such reading gives it; a tier with
    several is asked back: never a guess between two. A tier whose readings for the
    decision asked are all refused ends the search with the reason."""
    failed: tuple[str, OrderError] | None = None
    # Every choice of a fallback must read as an order: one that does not is never
    # passed over for the next ("tob, or sugar if tob can't be sold" had sold sugar).
    choices = [c for a in item.alternatives if (c := a.reading.choice) is not None]
    if choices and {i for i, _ in choices} != set(range(choices[0][1])):
        raise OrderSyntaxError(
            f'"{item.segment.text}": one of its choices is not an order I can read, '
            "so none of them is done"
        )
    for tier in sorted({a.reading.tier for a in item.alternatives}):
        in_tier = [a for a in item.alternatives if a.reading.tier == tier]
        if all(a.reading.why for a in in_tier):
            continue  # only the reason reads as an order: the order itself was not read
        named = [written_out(a.reading.text) for a in in_tier]
        if len(named) > 1 and any(a.reading.named for a in in_tier):
            # Several things of the kind asked named ("the builder and the captain"):
            # which one is meant is the player's to say, whatever is legal.
            raise AmbiguousOrder(
                f'"{item.segment.text}" names {or_list(named)}: write which one',
                alternatives=named,
            )
        legal: dict[Action, Alternative] = {}
        later: dict[Command, Alternative] = {}
        for a in in_tier:
            kind = target_kind(a.command)
            mine = decision is not None and kind in (None, decision.kind)
            if a.reading.fallback and decision is not None and not mine:
                continue  # (a fallback is read for the decision asked)
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
            meanings += [written_out(a.reading.text) for a in later.values()]
            raise AmbiguousOrder(
                f'"{item.segment.text}" could mean {or_list(meanings)}: write which one',
                alternatives=meanings,
            )
        if failed is not None and not all(a.reading.fallback for a in in_tier):
            break  # read for the decision asked and refused: say why, never read on
        # (a fallback's order that cannot be done: the next one is tried)
    if failed is None:  # (only a fallback's orders, none for the decision asked)
        raise IllegalOrder(f'"{item.segment.text}" names no order you may give now')
    text, error = failed
    if isinstance(error, AmbiguousOrder):
        raise error
    raise IllegalOrder(f'read as "{written_out(text)}": {error.reason}')


# A line that does not parse and starts like a greeting or a closing is not an order.
@cache
def _greeting(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    starts = "|".join(map(phrase, vocab.greetings))
    return re.compile(rf"^\s*(?:{starts})\b[\s\w,.!'-]*$", re.IGNORECASE)


def _courtesy(line: str) -> bool:
    return bool(_greeting().match(line)) and len(line) <= 40


def check_mail(
    text: str, game: Game, seat: int, done: Callable[[DecisionKind], str | None] | None = None
) -> Report:
    """Read every order of a mail body for ``seat``: the order for the decision he faces
    now is resolved to an action; orders for later decisions are kept; every bad line
    is reported (later lines are still checked). The game is not changed. ``done``: what
    the seat did this round in a kind of decision, if anything (from the game's log): an
    order for a decision of this round already taken is answered with it, not kept for
    the next round (a resent mail)."""
    text = as_typed(text)
    report = Report(seat, password=password(text))
    report.legal = legal_orders(game, seat)
    decision = decision_of(game, seat)
    # (read for the decision he gets later in this phase when he has none now)
    read_as = coming(game, seat) if decision is None else decision.kind
    read = read_mail(text, read_as, _own_names(game, seat), _other_names(game, seat))
    if decision is not None and decision.kind is DecisionKind.MAYOR:
        read = whole_colonists(read, _own_names(game, seat))
    parsed = [item for _, item in read]
    # The order each error is for, to tell a greeting or a signature that shares a line
    # with an order ("Thanks, Anna").
    said = {id(i): seg.text for seg, i in read}
    if parsed and isinstance(parsed[-1], Parsed) and _signed(parsed[-1], parsed):
        parsed = parsed[:-1]
    items = _no_wharf_then_load(_conditioned(_merge_lines(parsed), said, game, seat))
    items = _kept_to_ship(items, decision)
    unreal_parts = _unreal_parts(items, said)
    # (the writer orders something himself: a clause about another player is his)
    mine = any(
        isinstance(i, Parsed) and _other_player(i.segment.text, game, seat) is None for i in items
    )
    commands = [i.command for i in items if isinstance(i, Parsed)]
    says_hacienda = any(isinstance(c, HaciendaCmd) for c in commands)
    hesitant = undecided(text)
    addressed = _addressed(text, game, seat)  # (lines below "Chris:")
    ordered = {i.segment.line_no for i in items if isinstance(i, Parsed)}
    reasons: set[int | None] = set()  # lines with a reason not read
    now_line: int | None = None  # the line that answered (or failed) the current decision
    now_item: Accepted | None = None  # its answer, while no other answer contradicts it
    unpicked: tuple[int, RoleCmd] | None = None  # the role asked now, that failed
    unread: list[tuple[int | None, str]] = []  # the parts not read as orders: line, text
    totals: list[tuple[int | None, str, int]] = []  # counts said of a layout: line, text, n
    withdrawn: OrderError | None = None  # a line that takes back the orders before it
    for item in items:
        if isinstance(item, OrderError):
            own = said.get(id(item), item.line)
            count = said_total(own) if read_as is DecisionKind.MAYOR and ordered else None
            if count is not None:
                totals.append((item.line_no, own, count))  # ("That's 4 to place.")
                continue
            if fallback_word(own, alone=True) and any(
                isinstance(i, Parsed) for i in items[items.index(item) + 1 :]
            ):
                continue  # "Otherwise," before an order: no taking-back (_falls_back)
            if _withdraws(own, item, items, game, seat):
                withdrawn = item
                continue
            if _backs(own, item, items, game, seat):
                # The orders before it are taken back: the mail starts again after it.
                report.accepted, now_line, now_item, unpicked = [], None, None, None
                unread.clear()
                continue
            if report.accepted and _backs_unread(own):
                # "coffee" then "no wait, the blue one": the orders before it are taken
                # back, and what it orders instead is not understood (said below).
                for a in report.accepted:
                    back = IllegalOrder(f"not done: line {item.line_no} takes it back")
                    report.errors.append(back.at(a.text, a.line_no).with_legal(report.legal))
                report.accepted, now_line, now_item, unpicked = [], None, None, None
            ignored = _courtesy(own) or _heading(own) or interjection(own) or _only_back(own)
            if hesitation(own) and not ordered:
                # Only a hesitation ("Not sure yet"): nothing was decided, said so.
                report.errors.append(undecided_only(own).at(item.line, item.line_no))
                continue
            ignored = ignored or hesitation(own) or _chat(own, item, items, game, seat)
            # (a reason, on a line with an order: "since nobody wants corn, I'll ship sugar")
            if reason_only(own) and item.line_no in ordered:
                reasons.add(item.line_no)
                continue
            if id(item) in unreal_parts:
                continue  # "I'd have taken corn but it's gone." then "Coffee then."
            to = _said_to(own, game, seat, read_as)
            if to is not None:
                report.errors.append(Remark.said_to(to, own, item.line_no))
                continue
            other = _about_other(own, game, seat) if mine else None
            if other is not None:
                # "Bob keeps sugar, I keep corn": his, not the writer's; not read
                report.errors.append(Remark.said_about(other, own, item.line_no))
                continue
            if not (ignored or _signature(own, item, items, game)):
                why = _question(item, said, game, seat, hesitant, not ordered) or _explained(
                    item, own, game, seat
                )
                if isinstance(why, Question) and _self_answered(item, items, said):
                    why = Remark(own, item.line_no, why=Remark.ANSWERED)
                elif (
                    ordered
                    and decision is not None
                    and decision.kind in _WHOLE
                    and type(why) is OrderSyntaxError
                    and _aside(own, decision.kind)
                ):
                    why = Remark(own, item.line_no, why=Remark.ASIDE)
                report.errors.append(why.with_legal(report.legal))
                unread.append((item.line_no, own))
            continue
        asked = (
            _question(item, said, game, seat, hesitant)
            or _mused(item, items, said, game, seat)
            or _not_for_now(item, game, seat, addressed)
        )
        if asked is None and item.segment.line_no in reasons and refers(item.segment.text):
            asked = AmbiguousOrder(
                "this may stand for what the reason before it names: write the order whole",
                alternatives=(),
            ).at(item.segment.line, item.segment.line_no)
        if isinstance(asked, Question) and _self_answered(item, items, said):
            # ("hmm, settler or builder? ... ok settler then")
            asked = Remark(item.segment.text, item.segment.line_no, why=Remark.ANSWERED)
        if asked is not None:
            report.errors.append(asked.with_legal(report.legal))
            continue
        seg, command, reading = item.segment, item.command, item.text
        loose = False
        if item.alternatives:
            try:
                command, reading = _choose(item, game, seat, None if now_line else decision)
            except OrderError as err:
                report.errors.append(_placed(err, seg).with_legal(report.legal))
                continue
            loose = any(
                a.reading.text == reading and a.reading.tier == MENTIONS_TIER
                for a in item.alternatives
            )
        if is_service(command):
            report.services.append(command)
            continue
        if is_absence(command):
            report.absence = AbsenceOrder(seg.line_no, seg.line, seg.text, command)
            continue
        game_command = cast(GameCommand, command)
        same = next((a for a in report.accepted if a.command == game_command), None)
        if same is not None:
            # the same order twice (a pasted line): once is enough; said plainly the
            # second time, it is read as said ("the blue one. indigo.")
            if same.loose and not loose:
                at = report.accepted.index(same)
                report.accepted[at] = replace(same, loose=False, reading=reading)
                now_item = report.accepted[at] if now_item is same else now_item
            continue
        kind = target_kind(command)
        try:
            if decision is not None and now_line is None:
                if kind in (None, decision.kind):
                    now_line = seg.line_no
                    action = resolve(game_command, game, seat)
                    now_item = _answered(seg, game_command, action, game, seat, reading, loose)
                    report.accepted.append(now_item)
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
                                _HACIENDA_DEFAULT,
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
                if not _falls_back(seg, text):
                    raise IllegalOrder(
                        f"not used: line {now_line} answered {KIND_NAMES[decision.kind]} "
                        "and was rejected"
                    )
                # "Builder. If it's gone, mayor.": the fallback for the answer refused
                now_line = seg.line_no
                action = resolve(game_command, game, seat)
                now_item = _answered(seg, game_command, action, game, seat, reading, loose)
                report.accepted.append(now_item)
                continue
            elif (
                decision is not None
                and kind in (None, decision.kind)
                and now_line is not None
                # (loads come round again: a second one is for a later turn, unless it
                # takes the first back: "Indigo on the 5. Hmm, no - wharf the indigo", or
                # says the first again: "corn, wait no, sugar. Sugar on the 5-er.")
                and (
                    decision.kind is not DecisionKind.LOAD
                    or _takes_back(seg)
                    or _same_action(now_item, game_command, game, seat)
                )
            ):
                if now_item is not None:
                    # A second answer to the decision asked: the same (nothing to do),
                    # a taking-back ("corn. No wait, make that indigo": the later one),
                    # or another: asked back, never a guess between the two.
                    try:
                        again: Action | None = resolve(game_command, game, seat)
                    except OrderError:
                        again = None
                    if again == now_item.action or _falls_back(seg, text):
                        continue  # (or a fallback for when it cannot be done: it can)
                    if again is not None and _takes_back(seg):
                        report.accepted.remove(now_item)
                        now_item = _answered(seg, game_command, again, game, seat, reading, loose)
                        now_line = seg.line_no
                        report.accepted.append(now_item)
                        continue
                    first, now_item = now_item, None
                    report.accepted.remove(first)
                    if isinstance(first.command, RoleCmd):
                        unpicked = (first.line_no, first.command)
                    meanings = [
                        first.meaning,
                        seg.text if again is None else format_action(again, game, seat),
                    ]
                    raise AmbiguousOrder(
                        f'"{first.text}" and "{seg.text}" both answer '
                        f"{KIND_NAMES[decision.kind]}: {or_list(meanings)}? Write one",
                        alternatives=meanings,
                    )
                # Kept, it would only be dropped once this decision is taken.
                raise IllegalOrder(
                    f"not used: line {now_line} already answers {KIND_NAMES[decision.kind]}"
                )
            wharf = _other_wharf(report, game_command)
            if wharf is not None:
                # The wharf is used once a phase: a second use is no load for a turn to
                # come but another answer, asked back unless it takes the first back.
                report.accepted.remove(wharf)
                if not _takes_back(seg):
                    raise AmbiguousOrder(
                        f'"{wharf.text}" and "{seg.text}" both use the wharf, which is used '
                        "once a phase: write one",
                        alternatives=[wharf.meaning or wharf.reading or wharf.text, seg.text],
                    )
                if wharf.action is not None:
                    action = resolve(game_command, game, seat)
                    now_item = _answered(seg, game_command, action, game, seat, reading, loose)
                    report.accepted.append(now_item)
                    continue
            if decision is not None and decision.kind is DecisionKind.STORE:
                _storage_not_colonists(game_command)
            key = decision_key(game_command, game, seat)
            if key is None:
                raise IllegalOrder(asked_now(game, seat))
            # ("take quarry" sent ahead by one who may not: not kept; asked the hacienda
            # now, the tile is refused with it, the turn's orders done all or none)
            ahead = key.current and decision is None
            never = never_this_phase(game_command, game, seat) if ahead else None
            if never is not None:
                raise IllegalOrder(never)
            if (
                not key.current
                and done is not None
                and passed_this_round(game, seat, game_command, key.kind)
                and said_next(seg.text) is None  # ("next captain: ...": not this round's)
            ):
                what = done(key.kind)
                if what is not None:
                    raise AlreadyDone(what)
            if isinstance(game_command, PassCmd) and game_command.kind is None:
                game_command = PassCmd(key.kind)
            kept = Accepted(
                seg.line_no, seg.text, game_command, key=key, reading=reading, loose=loose
            )
            rival = next((a for a in report.accepted if a.key == key), None)
            if rival is not None and key.kind is not DecisionKind.LOAD:
                # Two orders of one mail for one later decision: the later one when it
                # takes the first back, else asked back.
                report.accepted.remove(rival)
                if not _starts_back(seg.text):
                    raise AmbiguousOrder(
                        f'"{rival.text}" and "{seg.text}" are both for {key.describe()}: write one',
                        alternatives=[rival.text, seg.text],
                    )
            report.accepted.append(kept)
        except OrderError as err:
            if now_line == seg.line_no and isinstance(game_command, RoleCmd):
                unpicked = (now_line, game_command)
            report.errors.append(_placed(err, seg).with_legal(report.legal))
    if withdrawn is not None:
        _withdrawn(report, withdrawn)
    _checked_totals(report, totals, items, game, seat)
    _whole_colonist_order(report, decision)
    _loose_alone(report, decision.kind if decision is not None else None)
    _unread_may_change(report, unread)
    _asked_over(report, decision)
    if unpicked is not None:
        _without_role(report, *unpicked)
    _complete_turn(report, game, seat, says_hacienda)
    return report


def _same_action(item: Accepted | None, command: GameCommand, game: Game, seat: int) -> bool:
    """Whether ``command`` does what the accepted ``item`` does now."""
    if item is None or item.action is None:
        return False
    try:
        return resolve(command, game, seat) == item.action
    except OrderError:
        return False


def _falls_back(seg: Segment, mail: str) -> bool:
    """Whether ``seg``, a second answer to the decision asked, is for when the first
    cannot be done ("If it's gone, mayor.", "Otherwise, the factory.", "captain... oh,
    David's got it. Trader then")."""
    return (
        legality_lead(seg.text, mail)
        or fallback_word(seg.line[: seg.column - 1])
        or _then_at_end().search(seg.line[seg.column - 1 :]) is not None
    )


@cache
def _then_at_end(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    """A "then" after the one or two words of an answer: it is chosen after what came
    before ("Trader then", "the factory then, ...")."""
    then = "|".join(map(re.escape, vocab.term("_THEN").words))
    return re.compile(rf"^\W*\w+(?:\s+\w+)?\s+(?:{then})\s*(?:[.!,;:]|$)", re.IGNORECASE)


def _answered(
    seg: Segment,
    command: GameCommand,
    action: Action,
    game: Game,
    seat: int,
    reading: str,
    loose: bool,
) -> Accepted:
    """The order of ``seg`` done now as ``action``."""
    meaning = format_action(action, game, seat)
    return Accepted(seg.line_no, seg.text, command, action, None, meaning, reading, loose)


def _other_wharf(report: Report, command: GameCommand) -> Accepted | None:
    """The mail's other use of the wharf, when ``command`` is one (another good)."""
    if not isinstance(command, WharfCmd):
        return None
    return next((a for a in report.accepted if isinstance(a.command, WharfCmd)), None)


@cache
def _wharf_words(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    return any_phrase(vocab.term("WHARF").words)


@cache
def _ship_purpose(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    aims = (*vocab.term("SHIP").words, *(w for w, r in vocab.roles.items() if r is Role.CAPTAIN))
    leads = any_phrase(vocab.keeps_for).pattern
    idle = any_phrase(vocab.fillers).pattern
    return re.compile(rf"{leads}\s+(?:{idle}\s+)*{any_phrase(aims).pattern}", re.IGNORECASE)


def _kept_to_ship(
    items: list[Parsed | OrderError], decision: Decision | None
) -> list[Parsed | OrderError]:
    """A keep said to be for shipping in a mail with an order for another decision, not
    the storage's ("Tobacco, I'm keeping the sugar for shipping"): the order's reason,
    not read."""
    if decision is None or decision.kind in (DecisionKind.LOAD, DecisionKind.STORE):
        return items  # (in the captain phase, a keep for the next one is the storage's)
    if not any(isinstance(i, Parsed) and not isinstance(i.command, KeepCmd) for i in items):
        return items
    return [
        i
        for i in items
        if not (
            isinstance(i, Parsed)
            and isinstance(i.command, KeepCmd)
            and _kept_for_ship(i.segment.text)
        )
    ]


def _kept_for_ship(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` says after its keep that the goods are kept to be shipped (not
    before: "for the captain phase: keep sugar" is when the order is for)."""
    verb = any_phrase(vocab.term("KEEP").words).search(text)
    return verb is not None and _ship_purpose(vocab).search(text, verb.end()) is not None


def _no_wharf_then_load(items: list[Parsed | OrderError]) -> list[Parsed | OrderError]:
    """A no to the wharf in a mail that loads on a cargo ship ("No wharf this time.
    Indigo on the big ship."): says which ship, not a pass; not read."""
    if not any(isinstance(i, Parsed) and isinstance(i.command, ShipCmd) for i in items):
        return items
    return [
        i
        for i in items
        if not (
            isinstance(i, Parsed)
            and i.command == PassCmd(DecisionKind.LOAD)
            and _wharf_words().search(i.segment.text)
        )
    ]


def _checked_totals(
    report: Report,
    totals: list[tuple[int | None, str, int]],
    items: list[Parsed | OrderError],
    game: Game,
    seat: int,
) -> None:
    """A count said of the layout ("That's 4 to place.", reading.said_total) checks it:
    one that agrees is quoted as a remark; one that does not (the layout done places
    another number, or, not done, its counts add up to another) is asked back, and the
    layout is not done."""
    layout = next(
        (a for a in report.accepted if isinstance(a.command, MayorCmd) and a.action), None
    )
    placed: int | None = None
    if layout is not None and isinstance(layout.action, PlaceColonists):
        placed = _newly_placed(layout.action, game.state.players[seat])
    else:
        written = [_written_count(i.command) for i in items if isinstance(i, Parsed)]
        placed = written[0] if len(written) == 1 else None
    for line_no, text, count in totals:
        if placed is None or count == placed:
            report.errors.append(Remark(text, line_no, why=Remark.TOTAL))
            continue
        what = f'"{layout.text}"' if layout is not None else "your order"
        ask = AmbiguousOrder(
            f'{what} places {placed} colonist{"s" if placed != 1 else ""}, but "{text.strip()}" '
            f"says {count}: write the order again with the colonists you mean",
            alternatives=(),
        )
        report.errors.append(ask.at(text, line_no).with_legal(report.legal))
        if layout in report.accepted:
            report.accepted.remove(layout)


def _newly_placed(action: PlaceColonists, p: Player) -> int:
    """How many colonists ``action`` puts where ``p`` has none of them now (those taken
    off and put back elsewhere counted)."""
    now = [*(p.occupied[g] for g in GOODS), p.occupied_quarries]
    then = [*action.layout.plantations, action.layout.quarries]
    now += [p.buildings[b] for b in sorted(p.buildings)]
    then += [action.layout.on(b) for b in sorted(p.buildings)]
    return sum(max(0, b - a) for a, b in zip(now, then, strict=True))


def _written_count(command: Command) -> int | None:
    """The colonists a colonist order places by the counts written, when every place
    has one; None otherwise."""
    if not isinstance(command, MayorCmd) or not command.placements:
        return None
    counts = [m.count for m in command.placements]
    return None if None in counts else sum(c for c in counts if c is not None)


_WHOLE = (DecisionKind.MAYOR, DecisionKind.STORE)


def _whole_colonist_order(report: Report, decision: Decision | None) -> None:
    """A colonist or keep order is read whole, from every line of the mail: when a line
    was not understood it may have been part of it, so none of it is applied (never a
    layout or a storage the player did not order). Not what would have been, which is no
    part of it, unless the order stands for a thing it names ("... Keep it then.")."""
    if decision is None or decision.kind not in _WHOLE:
        return
    # (the storage only: a layout is stopped by what would have been, as by any remark
    # that names a place or a count)
    passed_over = decision.kind is not DecisionKind.MAYOR and not any(
        refers(a.text) for a in report.accepted
    )
    said = [
        e
        for e in not_understood(report.errors)
        if not (passed_over and isinstance(e, WouldHaveBeen))
    ]
    unread = _changing(said, decision.kind)
    if not unread:
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


def _loose_alone(report: Report, now: DecisionKind | None) -> None:
    """An order read by what it names is done only when nothing else of the mail was
    left not understood: what the moderator could not read may change it (the factory,
    and below it a line on the university he could not read)."""
    unread = not_understood(report.errors)
    loose = [a for a in report.accepted if a.loose and _changed_by(a, unread, now)]
    if not loose:
        return
    lines = ", ".join(str(e.line_no) for e in unread if e.line_no is not None)
    for a in loose:
        err = IllegalOrder(
            f"not done: line {lines or '?'} was not understood and may change this order, "
            f'read as "{a.reading}"; send it again'
        )
        report.errors.append(err.at(a.text, a.line_no).with_legal(report.legal))
    # (with the hacienda's default taken on the way to it)
    gone = {a.line_no for a in loose}
    report.accepted = [
        a
        for a in report.accepted
        if a not in loose and not (a.text == _HACIENDA_DEFAULT and a.line_no in gone)
    ]
    report.errors.sort(key=lambda e: e.line_no or 0)


def _changed_by(item: Accepted, unread: list[OrderSyntaxError], now: DecisionKind | None) -> bool:
    """Whether a part not understood may change ``item``: any but a remark that names
    nothing answering its decision (``now``, unless it is kept for another): "I'll pass,
    I don't need any more land"."""
    return bool(_changing(unread, _kind_of(item) or now))


def _changing(unread: list[OrderSyntaxError], kind: DecisionKind | None) -> list[OrderSyntaxError]:
    """The parts not understood that may change an order for the decision of ``kind``:
    all but a remark that names nothing answering it ("I have enough discount for what
    I want to build" after colonists placed), words to or about another player, which
    are his ("Chris can fill the rest with his"), and an aside (_aside)."""
    return [
        e
        for e in unread
        if not isinstance(e, Remark)
        or (
            e.other is None
            and e.reason not in (Remark.ASIDE, Remark.TOTAL)
            and names_answer(e.line, kind)
        )
    ]


def _own_said(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether the last person ``text`` speaks of is the writer ("once you're done,
    I'll use my hut"), not the one he speaks to ("I think you should take the mayor")."""
    readable = text.lower()  # (as typed: check_mail's text)
    me = [m.start() for m in any_phrase(vocab.first_person).finditer(readable)]
    you = [m.start() for m in re.finditer(r"\byou(?:'\w+|r|rs|rself)?\b", readable)]
    return bool(me) and max(me) > max(you, default=-1)


# Classes of words that may turn a layout or a storage said elsewhere in the mail: an
# order's verb, a removal, a no, a contrast, a yes. (Not a size alone, which names a
# place only with its name: "that ship was tiny".)
_TURNS = frozenset({"verb", "remove", "not", "but", "yes", "use"})


@cache
def _order_words(kind: DecisionKind, vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    """The words of a colonist or keep order that have no class of their own in
    mentions ("leave", "as is", "empty"; "dump", "but", "most barrels", "can go", "as
    much as")."""
    if kind is DecisionKind.MAYOR:
        terms = ("EMPTY", "LEAVE", "AS_IS", "CHANGE", "COUPLE")
        words = [w for t in terms for w in vocab.term(t).words]
        return any_phrase([*words, *vocab.unchanged, *vocab.onlies])
    goods = ("KEEP", "DROP", "EXCEPT", "MOST", "WAREHOUSE", "WINDROSE")
    words = [w for t in goods for w in vocab.term(t).words]
    words += [*vocab.drops_after, *vocab.wholes, *vocab.onlies, *vocab.as_much, *vocab.as_fits]
    return any_phrase(words)


def _aside(text: str, kind: DecisionKind) -> bool:
    """Whether ``text``, a part not understood of a mail whose colonist or keep order is
    read whole, says nothing of that order ("Anna, that ship was tiny, you could have
    waited a round."; "I want to fill the little boat next round"): it names nothing
    that answers the decision nor a word that may turn an order (a verb, a no, a
    correction, a condition, an alternative, a contrast, a hesitation, a question,
    "it"), and is no question."""
    if "?" in text or changing(times=False).search(text) or refers(text):
        return False
    if _order_words(kind).search(text):
        return False
    answers = answer_classes(kind) or frozenset()
    return not names_of(normalise(text), (answers - {"size"}) | _TURNS)


_VOCATIVE = re.compile(r"^\s*(?:(?:hey|hi|dear|@)\s*)?([\w'-]+)\s*[,:!]", re.IGNORECASE)


def _signed(item: Parsed, items: list[Parsed | OrderError]) -> bool:
    """Whether ``item`` is a sign-off that reads as an order only once a letter is
    changed ("Dave" as "save"): a name alone, the last of a mail with an order before
    it."""
    if _NAME.match(item.segment.text) is None or item is not items[-1]:
        return False
    if not any(isinstance(i, Parsed) for i in items[:-1]):
        return False
    return bool(item.alternatives) and all(a.reading.tier in (2, 3) for a in item.alternatives)


def _starts_back(text: str) -> bool:
    """Whether ``text`` is an order after a taking-back ("No wait, make that indigo")."""
    back = correction(text)
    return back is not None and bool(text[back:].strip())


def _only_back(text: str) -> bool:
    """Whether ``text`` only takes back what came before it ("ignore that,", "wait no.")."""
    back = correction(text)
    return back is not None and back > 0 and not text[back:].strip()


def _takes_back(seg: Segment) -> bool:
    """Whether the order of ``seg`` takes back an earlier one: it starts with a
    taking-back ("No wait, make that indigo") or comes right after one on its line
    ("ignore that, prospector", "build harbor but no, build factory")."""
    before = re.split(r"[.;!?]", seg.line[: seg.column - 1])[-1]
    return (
        _starts_back(seg.text)
        or _only_back(before)
        or ends_back(before)
        or questions_back(seg.text)
    )


@cache
def _colonist_detail(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    """The words of a hospice's or university's colonist ("hospice", "worker", ...)."""
    words = (*vocab.term("HOSPICE").words, *vocab.term("UNIVERSITY").words)
    words += vocab.term("COLONIST").words
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, words))})\b")


def _no_colonist(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` may say no to a colonist: a no and a colonist's word ("skip the
    hospice guy"), or nobody ("I want nobody on it")."""
    if negation(vocab).search(text) and _colonist_detail(vocab).search(text):
        return True
    return _nobody(vocab).search(text) is not None


@cache
def _nobody(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    return any_phrase(vocab.nobodies)


def _kind_of(item: Accepted) -> DecisionKind | None:
    return item.key.kind if item.key is not None else target_kind(item.command)


def _unread_may_change(report: Report, unread: list[tuple[int | None, str]]) -> None:
    """An order is not done when a part of the mail that was not understood may change
    it, and the player is told what to write instead:

    - a use of the wharf, when the part names the wharf ("And the tobacco on the wharf
      too."): it may be a second use, and the wharf is used once a phase;
    - a tile or a building, when the part says no to a colonist ("Corn. Skip the
      hospice."): the hospice's or university's colonist may be declined;
    - the hacienda's default taken on the way to a tile, when the part says no ("No
      gamble on the hacienda. I'll settle corn."): it may decline the hacienda.
      The tile goes with it, since it would be taken after the hacienda's draw;
    - what is done now, when the part starts as another choice, a contrast or a
      condition turned round ("I'll build the factory. Or maybe not.", "Trader. But
      only if it's free.", "Corn. Unless Bob needs it.")."""
    default = [a for a in report.accepted if a.text == _HACIENDA_DEFAULT]
    for line_no, text in unread:
        said = text.lower()
        at_stake: list[Accepted] = []
        why = ""
        if _wharf_words().search(said):
            at_stake = [a for a in report.accepted if isinstance(a.command, WharfCmd)]
            why = "names the wharf, which is used once a phase; write the one you use"
        elif _no_colonist(said):
            at_stake = [a for a in report.accepted if _may_decline(a, report.legal)]
            why = "may say no to the colonist; write the order whole, " + " or ".join(
                f'like "{a.meaning}, no {_WITH_COLONIST[k]}"'
                if a.meaning
                else f'with "no {_WITH_COLONIST[k]}" to decline him'
                for a in at_stake
                if (k := _kind_of(a)) in _WITH_COLONIST
            )
        elif negation().search(said) and default:
            at_stake = [a for a in report.accepted if _kind_of(a) is _SETTLE]
            why = 'may say no to the hacienda; write "hacienda" or "no hacienda" first'
        elif _alternative().match(said) and not contrast_statement(text):
            at_stake = [a for a in report.accepted if a.action is not None]
            why = "may be another choice or take it back; write the order whole"
        if any(_kind_of(a) is _SETTLE for a in at_stake):
            at_stake += default  # taken only on the way to the tile
        for item in at_stake:
            if item in report.accepted:
                report.accepted.remove(item)
        shown = next((a for a in at_stake if a.text != _HACIENDA_DEFAULT), None)
        if shown is not None:
            report.errors.append(
                IllegalOrder(
                    f'not done: line {line_no} ("{text.strip()}") was not understood and {why}'
                )
                .at(shown.text, shown.line_no)
                .with_legal(report.legal)
            )
    report.errors.sort(key=lambda e: e.line_no or 0)


@cache
def _alternative(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    """The start of another choice, a contrast or a condition turned round ("or maybe
    not", "but only if", "unless Bob needs it")."""
    words = (*vocab.term("_OR").words, *vocab.contrasts, *vocab.negations)
    return re.compile(rf"^\W*{any_phrase(words).pattern}", re.IGNORECASE)


def _asked_over(report: Report, decision: Decision | None) -> None:
    """An answer is not done when the mail then asks which answer to give to the same
    decision ("Extra barrel... sugar or coffee, depends on what Bob does. Let me
    think."): its writer has not decided. An answer after the question, on a later line,
    after a decision on its line ("Not sure, sugar or coffee... ok, coffee") or after
    the question mark ("a second coffee? Nah. Sugar."), stays."""
    for asked in [e for e in report.errors if isinstance(e, Question) and e.alternatives]:
        kinds = set()
        for option in asked.alternatives:
            try:
                kinds.add(target_kind(parse_order(option)))
            except OrderError:
                continue
        line_no = asked.line_no or 0
        now = decision.kind if decision is not None else None
        for item in [a for a in report.accepted if (_kind_of(a) or now) in kinds]:
            if item.line_no > line_no or (item.line_no == line_no and decided(asked.line)):
                continue
            if item.line_no == line_no and _after_question(asked.line, item.text):
                continue  # "a second coffee? Nah. Sugar.": the writer's own answer
            report.accepted.remove(item)
            report.errors.append(
                IllegalOrder(
                    f"not done: line {line_no} asks which to choose for it; write the one "
                    "you choose"
                )
                .at(item.text, item.line_no)
                .with_legal(report.legal)
            )
    report.errors.sort(key=lambda e: e.line_no or 0)


def _after_question(line: str, order: str) -> bool:
    """Whether ``order`` is said in ``line`` after its last question mark, in a sentence
    of its own ("Oooh coffee is still there? Coffee!")."""
    asked = line.rfind("?")
    return bool(order) and asked >= 0 and line.find(order, asked + 1) > asked


def _may_decline(item: Accepted, legal: list[str]) -> bool:
    """Whether ``item`` is a tile or building whose colonist may be declined: done now,
    when the orders allowed now have it ("settle corn, no hospice"); kept for later,
    always (who knows what will be allowed then)."""
    kind = _kind_of(item)
    if kind not in _WITH_COLONIST:
        return False
    return item.key is not None or any(f", no {_WITH_COLONIST[kind]}" in o for o in legal)


# The decisions whose order takes a colonist too, and the building he comes from.
_WITH_COLONIST = {DecisionKind.SETTLE: "hospice", DecisionKind.BUILD: "university"}


_WAREHOUSES = frozenset({Building.SMALL_WAREHOUSE, Building.LARGE_WAREHOUSE})


def _storage_not_colonists(command: GameCommand) -> None:
    """Refuse a colonist order that only puts colonists in a warehouse while goods are
    stored ("put both in the warehouse", "put the guys in the warehouse"): it is about
    the goods, never kept for the next mayor phase."""
    if not isinstance(command, MayorCmd) or command.extra is not None or command.removals:
        return
    targets = [
        t for p in command.placements for t in (p.targets if isinstance(p, Share) else (p.target,))
    ]
    if targets and all(t.buildings and set(t.buildings) <= _WAREHOUSES for t in targets):
        raise IllegalOrder(
            'goods are stored now: write which goods you keep ("keep sugar in warehouse"); '
            "colonists are placed in the mayor phase"
        )


# Where a heading or the writer's words before an order may end on its line.
_HEAD_SIGNS = re.compile(r":|\s[\-\u2013\u2014]+\s|->|=>|\u2192")
# A line that only names someone, who the lines below it are for ("Chris:").
_ADDRESS = re.compile(r"^\s*(?:(?:hey|hi|dear|@)\s*)?([\w'-]+)\s*:\s*$", re.IGNORECASE)


def _addressed(text: str, game: Game, seat: int) -> dict[int, str]:
    """The lines below a line that only names another player ("Chris:"), up to a blank
    line, each with his name: what they order is addressed to him."""
    others = {p.name.lower(): p.name for i, p in enumerate(game.state.players) if i != seat}
    out: dict[int, str] = {}
    whom: str | None = None
    for line_no, line in enumerate(text.splitlines(), start=1):
        m = _ADDRESS.match(line)
        if not line.strip() or m is not None:
            whom = others.get(m.group(1).lower()) if m is not None else None
        elif whom is not None:
            out[line_no] = whom
    return out


def _not_for_now(
    item: Parsed, game: Game, seat: int, addressed: dict[int, str] | None = None
) -> OrderError | None:
    """An order that is not the sender's own for now: one addressed to another player
    ("Chris, take the mayor!"), or one said to be for a round to come ("trader next
    round"; "later" only for the decision asked now: orders for later decisions of this
    round are kept anyway). Refused with the reason, never done."""
    seg = item.segment
    # (at the start of its sentence: "Chris here. Anna, take the craftsman!", or after a
    # heading or the writer's words before it on its line: "Trader: Chris, sell corn";
    # or below a line that only names him: "Chris:")
    before = seg.line[: seg.column - 1]
    starts = [max(before.rfind(c) for c in ".!?;") + 1]
    starts += [m.end() for m in _HEAD_SIGNS.finditer(before)]
    others = {p.name.lower(): p.name for i, p in enumerate(game.state.players) if i != seat}
    whom = (addressed or {}).get(seg.line_no)
    for start in starts:
        m = _VOCATIVE.match(seg.line[start:])
        if whom is None and m is not None and m.group(1).lower() in others:
            # (not when the writer says the order is his: "Chris, once you're done, I'll
            # use my hut for a quarry")
            whom = None if _own_said(seg.text) else others[m.group(1).lower()]
    if whom is not None:
        return IllegalOrder(
            f"this is addressed to {whom}: orders are read for your own seat only"
        ).at(seg.line, seg.line_no)
    # (not in the reason given with it: "Bob took the builder, so I'll go trader", nor
    # in when it is for: "once Bob is done, sell coffee")
    why = reasoned(seg.text)
    text = seg.text if why is None else seg.text[why.start : why.end]
    # (nor in the name of the one he speaks to, the order being his own: "Chris, once
    # you're done, I'll use my hut for a quarry")
    spoken = _VOCATIVE.match(text)
    if spoken is not None and spoken.group(1).lower() in others and _own_said(text):
        text = " " * spoken.end() + text[spoken.end() :]
    named = _other_player(when_blanked(text, own=_own_names(game, seat)), game, seat)
    if named is not None:
        # "Morning Chris - sell tobacco": for him, about him? Never read for the writer.
        return IllegalOrder(
            f"this names {named}: orders are read for your own seat only; write yours "
            "without another player's name"
        ).at(seg.line, seg.line_no)
    # (not in the words of a hesitation before the decision: "decide later, but trader",
    # nor in the writer's words saying it is sent early: "away tomorrow, so in advance:")
    early = sent_early(seg.line, own=_own_names(game, seat))
    start = max(decided(seg.text) or 0, early - seg.column + 1)
    decision = decision_of(game, seat)
    now = decision is not None and target_kind(item.command) in (None, decision.kind)
    text, line = seg.text, seg.line
    if why is not None:
        # (a time in the reason is not the order's: "take the quarry, seeing as I want
        # the harbor next turn")
        text = " " * why.start + text[why.start : why.end] + " " * (len(text) - why.end)
        at = seg.column - 1
        line = line[:at] + text + line[at + len(text) :]
    ahead = said_next(text)
    if ahead is not None:
        # "next time there's a mayor", "next captain": the next such phase, never one
        # in progress; with a round, never one that may come in this round
        refused = _not_next(item, ahead, now, game, seat)
        if refused is not None:
            return refused.at(seg.line, seg.line_no)
        blank = " " * (ahead.end() - ahead.start())
        text = text[: ahead.start()] + blank + text[ahead.end() :]
        at = seg.column - 1 + ahead.start()
        line = line[:at] + blank + line[at + len(blank) :]
    later = not_now().search(text, start) or (
        not_now().search(line, early, seg.column) if ":" in line[: seg.column] else None
    )
    if later is None:
        return None
    if " ".join(later.group(0).lower().split()) in ENGLISH.soon and not now:
        return None
    return IllegalOrder(
        f'"{later.group(0)}": an order is done now, or kept for a later decision of this '
        "round; send it again when that turn comes"
    ).at(seg.line, seg.line_no)


def _not_next(
    item: Parsed, said: re.Match[str], now: bool, game: Game, seat: int
) -> OrderError | None:
    """Why an order said to be for the next phase or round of its kind (``said``: "next
    captain", "next round") is refused: it answers the decision asked now, that phase
    is in progress and still asks the writer, or (a round) this round may still ask
    him; None when it is kept for the next decision of its kind."""
    words = " ".join(said.group(0).split())
    kind = target_kind(item.command)
    if now or kind is None:
        return IllegalOrder(
            f'"{words}": not an order for the decision asked now; send it again when that '
            "turn comes"
        )
    key = decision_key(cast(GameCommand, item.command), game, seat)
    if key is None or key.current:
        return IllegalOrder(
            f'"{words}": this phase still asks you {KIND_NAMES[kind]}; an order is kept '
            "for the next decision of its kind: send it again when this phase is over"
        )
    if said["of"].lower() in ENGLISH.rounds and not later_round(game, seat, kind):
        return IllegalOrder(
            f'"{words}": {KIND_NAMES[kind]} may still come to you in this round; send it '
            "again when this round is over"
        )
    return None


def _own_names(game: Game, seat: int) -> frozenset[str]:
    """The writer's names, lower case (his name and its first word): "Anna: role
    settler", "Bob here, sell tobacco" name him, whose orders they are anyway."""
    name = game.state.players[seat].name.lower()
    return frozenset({name, name.split()[0]}) - known()


def _other_names(game: Game, seat: int) -> frozenset[str]:
    """The other players' names (each name and its first word), unless an order word."""
    names = {n for i, p in enumerate(game.state.players) if i != seat for n in _names_of(p.name)}
    return frozenset(n for n in names if n.lower() not in known())


def _names_of(name: str) -> set[str]:
    return {name, name.split()[0]}


def _about_other(text: str, game: Game, seat: int) -> str | None:
    """The other player ``text`` is about, when his name is its subject ("Bob keeps
    sugar", "and Anna can have the indigo"; not "Bob, take the mayor", said to him)."""
    m = re.match(r"^\W*(?:(?:and|but)\s+)?([\w'-]+)\s+(?=\w)", text, re.IGNORECASE)
    if m is None or _proviso().search(text) or negation().search(text):
        return None  # ("Bob permitting", "Bob won't mind"): it may bear on the order
    return _other_named(m.group(1).lower().removesuffix("'s"), game, seat)


def _other_named(word: str, game: Game, seat: int) -> str | None:
    """The other player ``word`` (in small letters) names, his name or a word of it,
    unless it is an order word."""
    players = enumerate(game.state.players)
    names = {n.lower(): p.name for i, p in players if i != seat for n in _names_of(p.name)}
    return names.get(word) if word not in known() else None


def _said_to(text: str, game: Game, seat: int, kind: DecisionKind | None) -> str | None:
    """The other player ``text`` is said to, when it starts with his name and a comma
    and names nothing that answers the writer's decision ("Bob, nice move with the
    mayor." while building); None otherwise."""
    m = re.match(r"^\W*([\w'-]+)\s*,", text)
    if m is None or names_answer(text[m.end() :], kind):
        return None
    return _other_named(m.group(1).lower(), game, seat)


@cache
def _proviso(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    return any_phrase((*vocab.conditionals, *vocab.provisos))


def _other_player(text: str, game: Game, seat: int) -> str | None:
    """The name of another player ``text`` holds (his name or its first word), unless
    that is an order word."""
    for i, p in enumerate(game.state.players):
        if i == seat:
            continue
        for name in _names_of(p.name):
            if name.lower() in known():
                continue
            if re.search(rf"(?<![\w'-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE):
                return p.name
    return None


def _backs_unread(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text``, a line not understood, starts with a taking-back ("no wait,
    the blue one"), not only with an apology ("Sorry for the delay")."""
    back = correction(text)
    if not back or not text[back:].strip():
        return False
    said = re.findall(r"[a-z']+", text[:back].lower())
    # (nor with a soft one, a no when nothing is understood after it: "nah, the
    # face-down draw isn't for me")
    idle = {
        w
        for p in (*vocab.interjections, *vocab.apologies, *vocab.soft_corrections)
        for w in p.split()
    }
    return any(w not in idle for w in said)


def _only_takes_back(
    text: str, err: OrderError, items: list[Parsed | OrderError], game: Game, seat: int
) -> tuple[bool, bool] | None:
    """Whether an order comes before and after ``text``, a line not understood that
    only takes back ("Never mind.", "Scratch that."); None when it is no such line."""
    if not (_only_back(text) or takes_back_only(text, own=_own_names(game, seat))):
        return None
    at = items.index(err)
    before = any(isinstance(i, Parsed) for i in items[:at])
    return before, any(isinstance(i, Parsed) for i in items[at + 1 :])


def _withdraws(
    text: str, err: OrderError, items: list[Parsed | OrderError], game: Game, seat: int
) -> bool:
    """Whether ``text`` only takes back the mail's orders before it, and none comes
    after ("build the harbour" then "Never mind.")."""
    return _only_takes_back(text, err, items, game, seat) == (True, False)


def _backs(
    text: str, err: OrderError, items: list[Parsed | OrderError], game: Game, seat: int
) -> bool:
    """Whether ``text`` takes back the orders before it for those after it ("build
    wharf", "Scratch that.", "build harbor"): the later ones count."""
    return _only_takes_back(text, err, items, game, seat) == (True, True)


def _withdrawn(report: Report, err: OrderError) -> None:
    """Nothing of the mail is done or kept: its last line takes its orders back."""
    if not report.accepted:
        return
    lines = ", ".join(str(n) for n in sorted({a.line_no for a in report.accepted}))
    why = IllegalOrder(f"nothing done: this takes back line {lines}; write the order you want").at(
        err.line, err.line_no
    )
    report.accepted = []
    report.errors = sorted(
        [*report.errors, why.with_legal(report.legal)], key=lambda e: e.line_no or 0
    )


def _chat(
    text: str, err: OrderError, items: list[Parsed | OrderError], game: Game, seat: int
) -> bool:
    """A line of chat in a mail with an order: it names nothing of the game, nor another
    player ("Chris here.", "Sorry, long week."), and after an order nothing that may
    take it back: no order, and nothing to say about it. (Alone in a mail it is
    answered: the writer may have meant an order.)"""
    at = items.index(err)
    return (
        any(isinstance(i, Parsed) for i in items)
        and names_nothing(
            text, any(isinstance(i, Parsed) for i in items[:at]), own=_own_names(game, seat)
        )
        and _other_player(text, game, seat) is None
    )


def _question(
    item: Parsed | OrderError,
    said: dict[int, str],
    game: Game,
    seat: int,
    hesitant: bool,
    alone: bool = False,
) -> OrderError | None:
    """The order of ``item`` if it is a question (questions.question), placed in its
    line: asked back, never done. ``hesitant``: the mail says its writer has not decided
    (questions.undecided): a choice between orders is then a question too; ``alone``:
    no order of the mail was read."""
    if isinstance(item, Parsed):
        seg = item.segment
        asked = question(seg.text, game, seat, hesitant=hesitant)
        return None if asked is None else asked.at(seg.line, seg.line_no)
    if isinstance(item, Remark):
        return None  # "..., can you remember that?": a remark asks nothing of the game
    own = said.get(id(item), item.line)
    asked = question(own, game, seat, unread=True, hesitant=hesitant, alone=alone)
    return None if asked is None else asked.at(item.line, item.line_no)


# An order that trails off ("hacienda..."), the writer thinking aloud.
# (check_mail reads the mail as typed: a phone's ellipsis is three dots by then)
_TRAILING = re.compile(r"\.\.\.\s*$")


def _mused(
    item: Parsed, items: list[Parsed | OrderError], said: dict[int, str], game: Game, seat: int
) -> OrderError | None:
    """An order that trails off with a question after it on its line, and no order
    after it in the mail ("hmm, hacienda... what are the odds there's coffee in the
    pile still?"): the writer thinks aloud, and has not decided; asked back."""
    seg = item.segment
    if _TRAILING.search(seg.text) is None:
        return None
    after = items[items.index(item) + 1 :]
    if any(isinstance(i, Parsed) for i in after):
        return None
    asks = [
        i
        for i in after
        if not isinstance(i, Parsed) and i.line_no == seg.line_no and "?" in said.get(id(i), i.line)
    ]
    if not asks or is_service(item.command):
        return None
    try:
        order = format_action(resolve(cast(GameCommand, item.command), game, seat), game, seat)
    except OrderError:
        return None
    why = f'not decided: nothing was done; to order it, write "{order}"'
    return Question(why, (order,)).at(seg.line, seg.line_no)


def _explained(err: OrderError, text: str, game: Game, seat: int) -> OrderError:
    """A line that is no order for the decision asked, but names what another decision
    orders ("quarry" while building), told so in words (elsewhere.elsewhere) instead of
    the grammar's complaint; and a line that says what would have been ("I'd have taken
    corn"), told it is no order."""
    if not isinstance(err, OrderSyntaxError):
        return err
    if unreal(text):
        return WouldHaveBeen().at(err.line, err.line_no)
    why = elsewhere(text, game, seat)
    return err if why is None else OrderSyntaxError(why).at(err.line, err.line_no)


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


def _self_answered(
    question: Parsed | OrderError, items: list[Parsed | OrderError], said: dict[int, str]
) -> bool:
    """Whether the writer answers his own question with the order after it ("Only corn
    left? Fine, corn then."; "Hmm, which ship? The 5, I guess."): an order follows it
    that is no question itself, and nothing after it says he has not decided."""
    after = items[items.index(question) + 1 :]
    texts = [i.segment.text if isinstance(i, Parsed) else said.get(id(i), i.line) for i in after]
    if undecided("\n".join(texts)):
        return False
    return any(isinstance(i, Parsed) and "?" not in i.segment.text for i in after)


# A capitalised name alone on its line; and one or two words alone, in any case.
_NAME = re.compile(r"^\s*-*\s*([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)[\s.!,]*$")
_ALONE = re.compile(r"^\s*[-~\u2013\u2014]*\s*([\w'-]+(?:\s+[\w'-]+)?)[\s.!,]*$")


def _signature(text: str, err: OrderError, items: list[Parsed | OrderError], game: Game) -> bool:
    """A line that is a name alone: a player's name in any case ("Anna", "anna"), or,
    after the last order of the mail, a player's initials ("b", "-AB") or a capitalised
    name that is no order word nor close to one ("Anna", not "Captn")."""
    m = _ALONE.match(text)
    if m is None:
        return False
    name = m.group(1)
    players = [p.name.lower() for p in game.state.players]
    if name.split()[0].lower() in players:
        return True
    after = items[items.index(err) + 1 :]
    if any(isinstance(i, Parsed) for i in after):
        return False
    lower = name.lower()
    if len(lower) <= 2 and lower.isalpha() and lower not in known():
        return any(p.startswith(lower[0]) for p in players)
    if not name[0].isupper():
        return False
    return not any(w in known() or close_words(w, cutoff=0.8) for w in lower.split())


def _without_role(report: Report, line_no: int, role: RoleCmd) -> None:
    """The role asked now cannot be taken: the mail's orders for its phase, the rest of
    that turn, are not kept for another time either."""
    kinds = {k for ref in role.roles for k in role_kinds(ref.role)}
    why = IllegalOrder(
        f"not done: line {line_no} (the role) cannot be done, and a turn's orders are "
        "done all together or not at all"
    )
    gone = [a for a in report.accepted if a.key is not None and a.key.kind in kinds]
    report.accepted = [a for a in report.accepted if a not in gone]
    errors = [why.at(a.text, a.line_no).with_legal(report.legal) for a in gone]
    report.errors = sorted([*report.errors, *errors], key=lambda e: e.line_no or 0)


def _complete_turn(report: Report, game: Game, seat: int, says_hacienda: bool) -> None:
    """The mail's orders for the decisions its turn reaches without anyone else deciding
    (a role and the first step of its phase, the hacienda and the tile) are done now,
    all or none: one that cannot be done leaves the whole turn undone and is told, and
    none of them is reported as kept. Only moves forced on someone come between (the
    service applies them the same way, see Moderator._process_inner)."""
    steps = [a for a in report.accepted if a.action is not None]
    later = [a for a in report.accepted if a.action is None and a.key is not None]
    if not steps or not later:
        return
    sim = game.copy()
    for a in steps:
        assert a.action is not None
        sim.apply(seat, a.action)
    decided = {k for a in steps if (k := target_kind(a.command)) is not None}
    first = len(steps)
    used: list[Accepted] = []
    while not sim.over:
        decision = decision_of(sim, seat)
        if decision is not None and decision.kind not in decided:
            kind = decision.kind
            item = next((a for a in later if a not in used and a.key and a.key.kind is kind), None)
            if item is None and kind is DecisionKind.HACIENDA and not says_hacienda:
                settle = next((a for a in later if a.key and a.key.kind is _SETTLE), None)
                if settle is not None:
                    # The hacienda question is answered with its default on the way.
                    default = default_action(sim, seat)
                    assert default is not None
                    step = Accepted(settle.line_no, _HACIENDA_DEFAULT, HaciendaCmd(True))
                    item = replace(step, action=default)
            if item is not None:
                decided.add(kind)
                try:
                    action = item.action or resolve(item.command, sim, seat)
                except OrderError as err:
                    cmd = item.command
                    if isinstance(cmd, MayorCmd) and not (cmd.removals or cmd.placements):
                        break  # only a word on the extra colonist: he is asked where they go
                    _undo_turn(report, steps, item, err)
                    return
                steps.append(
                    replace(item, action=action, key=None, meaning=format_action(action, sim, seat))
                )
                if item in later:
                    used.append(item)
                sim.apply(seat, action)
                continue
        forced = next((d for d in sim.decisions() if d.forced), None)
        if forced is None:
            break  # someone decides: the turn is over
        sim.apply(forced.seat, forced.actions[0])
    if len(steps) > first:
        report.accepted = steps + [a for a in report.accepted if a not in steps and a not in used]


def _undo_turn(report: Report, steps: list[Accepted], failed: Accepted, err: OrderError) -> None:
    """Nothing of the turn is done: the failing order is told with its reason, the
    others as not done because of it."""
    why = IllegalOrder(
        f"not done: line {failed.line_no} of the same turn cannot be done, and a turn's "
        "orders are done all together or not at all"
    )
    errors = [err if err.line else err.at(failed.text, failed.line_no)]
    errors += [why.at(a.text, a.line_no) for a in steps if a.text != _HACIENDA_DEFAULT]
    report.accepted = [a for a in report.accepted if a not in steps and a is not failed]
    errors = [e.with_legal(report.legal) for e in errors]
    report.errors = sorted([*report.errors, *errors], key=lambda e: e.line_no or 0)


def parse_text(text: str, kind: DecisionKind | None = None) -> list[Command]:
    """Every order of a text, colonist lines merged, errors raised (for tests and tools);
    ``kind``: the decision it answers, as for parse_mail."""
    out: list[Command] = []
    for item in _merge_lines(parse_mail(text, kind)):
        if isinstance(item, OrderError):
            raise item
        out.append(item.command)
    return out


__all__ = ["AbsenceOrder", "Accepted", "Report", "check_mail", "parse_text"]
