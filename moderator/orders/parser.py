"""Text to commands: the Lark grammar (grammars/orders.lark) and its transformer."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import cache, lru_cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from ..engine.actions import DecisionKind
from ..engine.components import Building, Good, Role
from ..resources import data_text
from .commands import (
    AwayCmd,
    BackCmd,
    BoardCmd,
    BuildCmd,
    Command,
    DefaultCmd,
    ExtraCmd,
    HaciendaCmd,
    HelpCmd,
    HistoryCmd,
    KeepCmd,
    KeepItem,
    MailCmd,
    MayorCmd,
    Move,
    OrdersCmd,
    PassCmd,
    ResendCmd,
    RoleCmd,
    RoleRef,
    SellCmd,
    SettleCmd,
    ShipCmd,
    StatusCmd,
    Target,
    TargetKind,
    WharfCmd,
    Where,
)
from .errors import OrderError, OrderSyntaxError

GRAMMAR_NAME = "orders.lark"
# Longer orders are not orders; the cap also keeps a hostile mail cheap to reject.
MAX_ORDER_LENGTH = 300


# -- loading the grammar --------------------------------------------------------------


def grammar_text() -> str:
    """The grammar (grammars/orders.lark, shipped with the package)."""
    return data_text("grammars", GRAMMAR_NAME)


@cache
def lark_parser() -> Lark:
    """The LALR parser with the transformer applied while parsing (no tree is built)."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        start=["mail", "order"],
        maybe_placeholders=True,
        transformer=_ToCommand(),
    )


# -- words --------------------------------------------------------------------------

_NUMBER_WORDS = {
    w: i + 1
    for i, w in enumerate(
        "one two three four five six seven eight nine ten eleven twelve".split()  # noqa: SIM905
    )
}

_ROLE_WORDS = {
    "settler": Role.SETTLER,
    "mayor": Role.MAYOR,
    "builder": Role.BUILDER,
    "craftsman": Role.CRAFTSMAN,
    "craftsmen": Role.CRAFTSMAN,
    "trader": Role.TRADER,
    "captain": Role.CAPTAIN,
    "prospector": Role.PROSPECTOR,
}

# Spelling variants and plurals, folded to the words of the building table.
_FOLD = {
    "harbour": "harbor",
    "big": "large",
    "factories": "factory",
    "universities": "university",
    "wharfs": "wharf",
    "wharves": "wharf",
    "fortresses": "fortress",
    "custom": "customs",
    "guildhall": "guild hall",
    "cityhall": "city hall",
    "windrose": "wind rose",
    "craftsmen": "craftsman",
}
_KEEP_S = {"customs", "fortress", "harbors", "plus"}


def fold(word: str) -> str:
    """One word as the tables spell it: lower case, singular, American spelling."""
    w = " ".join(word.lower().split())
    w = _FOLD.get(w, w)
    if w.endswith("s") and w not in _KEEP_S and not w.endswith("ss"):
        w = w[:-1]
    w = _FOLD.get(w, w)
    if w == "harbors":
        w = "harbor"
    return w


_MONTHS = {
    name: i + 1
    for i, name in enumerate(
        (
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        )
    )
}
_WEEKDAYS = {
    name: i
    for i, name in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    )
}


def _by_prefix(table: dict[str, int], word: str) -> int:
    """A month's or weekday's number from its name or its short form ("dec", "thurs")."""
    word = word.lower()
    return next(n for name, n in table.items() if name.startswith(word[:3]))


def good_of(word: str) -> Good:
    return Good[fold(word).upper()]


# Each building's words, plus "large" for the big production buildings that have a
# small sibling ("large indigo plant").
_BUILDING_WORDS: dict[Building, frozenset[str]] = {}
for _b in Building:
    _words = set(_b.label.split())
    if _b in (Building.INDIGO_PLANT, Building.SUGAR_MILL):
        _words.add("large")
    _BUILDING_WORDS[_b] = frozenset(_words)


def match_building(words: list[str]) -> tuple[Building, ...]:
    """Every building the words fit, in table order; an exact name wins outright."""
    return _match_building(tuple(w.lower() for w in words))


@lru_cache(maxsize=1024)
def _match_building(words: tuple[str, ...]) -> tuple[Building, ...]:
    folded: list[str] = []
    for w in words:
        folded.extend(fold(w).split())
    wanted = frozenset(folded)
    for b in Building:
        if wanted == frozenset(b.label.split()):
            return (b,)
    return tuple(b for b in Building if wanted <= _BUILDING_WORDS[b])


# -- the transformer ---------------------------------------------------------------


def _tokens(children: list[Any]) -> list[Token]:
    return [c for c in children if isinstance(c, Token)]


def _types(children: list[Any]) -> set[str]:
    return {t.type for t in _tokens(children)}


def _number(token: Token | None) -> int | None:
    if token is None:
        return None
    return int(token)


def _col(token: Token | None) -> int | None:
    return None if token is None else token.column


class _ToCommand(Transformer[Token, Command]):
    """Builds Commands. Checks that need the words' meaning (an unknown building, a
    count of zero) raise OrderSyntaxError with the column of the offending word."""

    # -- small pieces

    def number(self, children: list[Token]) -> Token:
        (tok,) = children
        text = str(tok).lower()
        if tok.type == "ART":
            value = 1
        elif tok.type == "NUMWORD":
            value = _NUMBER_WORDS[text]
        else:
            if len(text) > 3:
                raise OrderSyntaxError(f"{text} is too large a number", column=tok.column)
            value = int(text)
        if value < 1:
            raise OrderSyntaxError("a count must be at least 1", column=tok.column)
        return Token("INT", str(value), tok.start_pos, tok.line, tok.column)

    def role_name(self, children: list[Token | None]) -> RoleRef:
        tok = children[0]
        assert tok is not None
        word = fold(str(tok))
        role = _ROLE_WORDS[word]
        if role is not Role.PROSPECTOR:
            return RoleRef(role)
        num = children[1] if len(children) > 1 else None
        if num is None:
            return RoleRef(Role.PROSPECTOR, exact=False)
        if int(num) == 1:
            return RoleRef(Role.PROSPECTOR)
        if int(num) == 2:
            return RoleRef(Role.PROSPECTOR2)
        raise OrderSyntaxError("there are only prospectors 1 and 2", column=num.column)

    def tile(self, children: list[Token | None]) -> Good | None:
        for tok in children:
            if tok is not None and tok.type == "GOOD":
                return good_of(str(tok))
        return None  # a quarry

    def building(self, children: list[Token]) -> tuple[str, tuple[Building, ...], int]:
        words = [str(t) for t in children]
        name = " ".join(w.lower() for w in words)
        found = match_building(words)
        if not found:
            raise OrderSyntaxError(
                f'there is no building called "{name}"', column=children[0].column
            )
        return name, found, children[0].column or 1

    def target(self, children: list[Token]) -> Target:
        words = [str(t) for t in children]
        text = " ".join(" ".join(w.lower().split()) for w in words)
        column = children[0].column
        types = [t.type for t in children]
        if types == ["SAN_JUAN"]:
            return Target(TargetKind.SAN_JUAN, "san juan")
        if "QUARRY" in types:
            if set(types) != {"QUARRY"}:
                raise OrderSyntaxError(f'"{text}": a quarry is just "quarry"', column=column)
            return Target(TargetKind.QUARRY, "quarry")
        goods = [t for t in children if t.type == "GOOD"]
        if "PLANTATION" in types or types == ["GOOD"]:
            rest = [t for t in children if t.type not in ("GOOD", "PLANTATION")]
            if len(goods) != 1 or rest:
                raise OrderSyntaxError(
                    f'"{text}": name one plantation, like "corn" or "coffee plantation"',
                    column=column,
                )
            good = good_of(str(goods[0]))
            return Target(TargetKind.PLANTATION, good.label, good=good)
        found = match_building(words)
        if not found:
            raise OrderSyntaxError(f'there is no building called "{text}"', column=column)
        return Target(TargetKind.BUILDING, text, buildings=found)

    # -- orders

    def role_order(self, children: list[Any]) -> RoleCmd:
        return RoleCmd(tuple(c for c in children if isinstance(c, RoleRef)))

    def settle_order(self, children: list[Any]) -> SettleCmd:
        good, hospice = children[-2:]
        return SettleCmd(good, hospice)

    def no_hospice(self, _: list[Any]) -> bool:
        return False

    def with_hospice(self, _: list[Any]) -> bool:
        return True

    def use_hacienda(self, _: list[Any]) -> HaciendaCmd:
        return HaciendaCmd(True)

    def no_hacienda(self, _: list[Any]) -> HaciendaCmd:
        return HaciendaCmd(False)

    def build_order(self, children: list[Any]) -> BuildCmd:
        (name, found, _column), university = children[-2:]
        return BuildCmd(name, found, university)

    def no_university(self, _: list[Any]) -> bool:
        return False

    def with_university(self, _: list[Any]) -> bool:
        return True

    def sell_order(self, children: list[Any]) -> SellCmd:
        goods: list[Good] = []
        for tok in _tokens(children):
            if tok.type == "GOOD":
                good = good_of(str(tok))
                if good not in goods:
                    goods.append(good)
        return SellCmd(tuple(goods))

    def on_ship(self, children: list[Any]) -> int:
        for tok in _tokens(children):
            if tok.type == "INT":
                return int(tok)
        raise AssertionError("on_ship without a number")  # pragma: no cover

    def on_wharf(self, _: list[Any]) -> str:
        return "wharf"

    def ship_order(self, children: list[Any]) -> ShipCmd | WharfCmd:
        _verb, count, good_tok, where = children
        good = None if good_tok is None else good_of(str(good_tok))
        if where == "wharf":
            if count is not None:
                raise OrderSyntaxError(
                    "the wharf takes all barrels of a kind: leave out the count",
                    column=_col(count),
                )
            return WharfCmd(good)
        return ShipCmd(good, _number(count), where)

    def wharf_order(self, children: list[Any]) -> WharfCmd:
        good_tok = children[-1]
        if good_tok is None or good_tok.type != "GOOD":
            return WharfCmd(None)
        return WharfCmd(good_of(str(good_tok)))

    def keep_item(self, children: list[Any]) -> KeepItem:
        count, good_tok, where = children
        return KeepItem(good_of(str(good_tok)), _number(count), where)

    def in_warehouse(self, _: list[Any]) -> Where:
        return Where.WAREHOUSE

    def on_windrose(self, _: list[Any]) -> Where:
        return Where.WINDROSE

    def keep_order(self, children: list[Any]) -> KeepCmd:
        return KeepCmd(tuple(c for c in children if isinstance(c, KeepItem)))

    def keep_default(self, _: list[Any]) -> KeepCmd:
        return KeepCmd(())

    def extra_order(self, children: list[Any]) -> ExtraCmd:
        good = next(t for t in _tokens(children) if t.type == "GOOD")
        return ExtraCmd(good_of(str(good)))

    def no_extra(self, _: list[Any]) -> PassCmd:
        return PassCmd(DecisionKind.CRAFTSMAN_EXTRA)

    # -- mayor

    def no_extra_colonist(self, _: list[Any]) -> MayorCmd:
        return MayorCmd(extra=False)

    def no_change(self, _: list[Any]) -> MayorCmd:
        return MayorCmd()

    def take_extra_colonist(self, _: list[Any]) -> MayorCmd:
        return MayorCmd(extra=True)

    def amount_from(self, children: list[Any]) -> Move:
        count = children[0]
        target = children[-1]
        return Move(1 if count is None else int(count), target)

    amount_on = amount_from

    def removal(self, children: list[Any]) -> MayorCmd:
        return MayorCmd(removals=tuple(c for c in children if isinstance(c, Move)))

    def placement(self, children: list[Any]) -> MayorCmd:
        return MayorCmd(placements=tuple(c for c in children if isinstance(c, Move)))

    def move(self, children: list[Any]) -> MayorCmd:
        count = children[1]
        n = 1 if count is None else int(count)
        src, dst = (c for c in children if isinstance(c, Target))
        return MayorCmd(removals=(Move(n, src),), placements=(Move(n, dst),))

    def mayor_order(self, children: list[Any]) -> MayorCmd:
        out = MayorCmd()
        for c in children:
            if isinstance(c, MayorCmd):
                out = out.merged(c)
        return out

    # -- declining and service

    def pass_order(self, children: list[Any]) -> PassCmd:
        types = _types(children)
        for word, kind in (
            ("SETTLE", DecisionKind.SETTLE),
            ("TAKE", DecisionKind.SETTLE),
            ("PLANTATION", DecisionKind.SETTLE),
            ("BUILD", DecisionKind.BUILD),
            ("SELL", DecisionKind.SELL),
            ("SHIP", DecisionKind.LOAD),
            ("WHARF", DecisionKind.LOAD),
        ):
            if word in types:
                return PassCmd(kind)
        return PassCmd(None)

    # -- absences

    def day_of_month(self, children: list[Token]) -> Token:
        (tok,) = children
        return tok

    def calendar_day(self, children: list[Token | None]) -> AwayCmd:
        tokens = [t for t in children if t is not None]
        first = tokens[0]
        if first.type == "ISO_DATE":
            y, mo, d = (int(part) for part in str(first).split("-"))
            return _calendar(d, mo, y, first)
        if first.type == "WEEKDAY":
            return AwayCmd(weekday=_by_prefix(_WEEKDAYS, str(first)))
        month = next(t for t in tokens if t.type == "MONTH")
        day, *year = (t for t in tokens if t.type != "MONTH")
        number = int(re.sub(r"\D", "", str(day)))
        return _calendar(
            number, _by_prefix(_MONTHS, str(month)), _number(year[0]) if year else None, day
        )

    def away_until(self, children: list[Any]) -> AwayCmd:
        command: AwayCmd = children[-1]
        return command

    def away_for(self, children: list[Any]) -> AwayCmd:
        count, period = children[-2:]
        days = int(count) * (7 if str(period).lower().startswith("week") else 1)
        return AwayCmd(days=days)

    def back(self, _: list[Any]) -> BackCmd:
        return BackCmd()

    def help(self, children: list[Any]) -> HelpCmd:
        words = [str(t).lower() for t in _tokens(children)[1:]]
        return HelpCmd(" ".join(words) or None)

    def status(self, _: list[Any]) -> StatusCmd:
        return StatusCmd()

    def board(self, _: list[Any]) -> BoardCmd:
        return BoardCmd()

    def orders(self, _: list[Any]) -> OrdersCmd:
        return OrdersCmd()

    def history(self, _: list[Any]) -> HistoryCmd:
        return HistoryCmd()

    def resend(self, _: list[Any]) -> ResendCmd:
        return ResendCmd()

    def mail_every(self, _: list[Any]) -> MailCmd:
        return MailCmd(every=True)

    def mail_turns(self, _: list[Any]) -> MailCmd:
        return MailCmd(every=False)

    def default(self, _: list[Any]) -> DefaultCmd:
        return DefaultCmd()

    def mail(self, children: list[Any]) -> list[Command]:
        return [c for c in children if c is not None]


def _calendar(day: int, month: int, year: int | None, token: Token) -> AwayCmd:
    """A day of the calendar, checked: it exists (in ``year``, or in some year)."""
    try:
        date(2000 if year is None else year, month, day)  # 2000: a leap year
    except ValueError:
        if not 1 <= month <= len(_MONTHS):
            reason = f'there is no month {month} in "{token}"'
            raise OrderSyntaxError(reason, column=token.column) from None
        name = list(_MONTHS)[month - 1].capitalize()
        when = f"{day} {name}" + ("" if year is None else f" {year}")
        raise OrderSyntaxError(f"there is no {when}", column=token.column) from None
    return AwayCmd(month=month, day=day, year=year)


# -- syntax errors in plain words ----------------------------------------------------

_EXPECTED = {
    "GOOD": "a good (corn, indigo, sugar, tobacco, coffee)",
    "ROLE_NAME": "a role",
    "MAYOR": "a role",
    "PROSPECTOR": "a role",
    "NUMBER": "a number",
    "NUMWORD": "a number",
    "BWORD": "a building",
    "QUARRY": '"quarry"',
    "PLANTATION": '"plantation"',
    "SAN_JUAN": '"san juan"',
    "WAREHOUSE": '"warehouse"',
    "WINDROSE": '"wind rose"',
    "ON": '"on"',
    "TO": '"to"',
    "FROM": '"from"',
    "COLONIST": '"colonist"',
    "HOSPICE": '"hospice"',
    "UNIVERSITY": '"university"',
    "HACIENDA": '"hacienda"',
    "WHARF": '"wharf"',
    "EXTRA": '"extra"',
    "PASS": '"nothing"',
    "SHIP": '"ship"',
    "_COMMA": '","',
    "AWAY": '"away"',
    "UNTIL": '"until"',
    "MONTH": "a month",
    "WEEKDAY": "a day of the week",
    "PERIOD": '"days" or "weeks"',
    "ORDINAL": "a day of the month",
    "ISO_DATE": "a date",
    "_OR": '"or"',
    "_SEP": "the end of the order",
    "$END": "the end of the order",
}
_ORDER_WORDS = (
    "role",
    "settle",
    "take",
    "hacienda",
    "build",
    "sell",
    "ship",
    "load",
    "wharf",
    "keep",
    "extra",
    "mayor",
    "remove",
    "place",
    "move",
    "pass",
    "help",
    "status",
    "board",
    "orders",
    "history",
    "resend",
    "default",
    "away",
    "back",
    "mail",
)


@cache
def vocabulary() -> tuple[str, ...]:
    """Every word the grammar knows, for "did you mean" suggestions."""
    words = set(_ORDER_WORDS) | set(_NUMBER_WORDS) | set(_ROLE_WORDS)
    words |= {g.label for g in Good} | {"quarry", "plantation", "colonist", "nothing"}
    words |= {"warehouse", "windrose", "san", "juan", "extra", "barrel", "from", "on"}
    for b in Building:
        words |= set(b.label.split())
    words |= {"harbour", "trade", "choose", "pick", "no", "yes", "with", "without", "and", "or"}
    words |= {"until", "days", "weeks"} | set(_MONTHS) | set(_WEEKDAYS)
    return tuple(sorted(words))


def _word_at(text: str, index: int) -> str:
    m = re.match(r"[\w'’-]+|\S", text[index:])
    return m.group(0) if m else ""


def _describe_expected(expected: set[str]) -> str:
    names: list[str] = []
    for term in sorted(expected):
        desc = _EXPECTED.get(term)
        if desc and desc not in names:
            names.append(desc)
    if not names:
        return ""
    if len(names) > 6:
        names = [*names[:6], "…"]
    return "; expected " + ", ".join(names)


def syntax_error(exc: UnexpectedInput, text: str) -> OrderSyntaxError:
    """A Lark error as an OrderSyntaxError: the word, where, and what would fit."""
    if isinstance(exc, UnexpectedCharacters):
        index = exc.pos_in_stream or 0
        word = _word_at(text, index)
        close = difflib.get_close_matches(word.lower(), vocabulary(), n=2, cutoff=0.7)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        if index == 0 or not text[:index].strip():
            reason = f'"{word}" is not an order I know{hint}'
        else:
            reason = f'I do not understand "{word}" here{hint}'
        return OrderSyntaxError(reason, column=index + 1)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = set(exc.expected)
        if tok.type in ("$END", "_SEP"):
            return OrderSyntaxError(
                "the order stops too early" + _describe_expected(expected),
                column=len(text.rstrip()) + 1,
            )
        start = tok.start_pos if tok.start_pos is not None else 0
        if not text[:start].strip():
            return OrderSyntaxError(
                f'an order cannot start with "{tok}"; it starts with a word like '
                + ", ".join(f'"{w}"' for w in ("role", "settle", "build", "sell", "ship")),
                column=start + 1,
            )
        return OrderSyntaxError(
            f'"{tok}" does not fit here' + _describe_expected(expected),
            column=start + 1,
        )
    if isinstance(exc, UnexpectedEOF):
        return OrderSyntaxError("the order stops too early", column=len(text) + 1)
    return OrderSyntaxError("I cannot read this order")  # pragma: no cover


# -- public parsing API --------------------------------------------------------------


def parse_order(text: str) -> Command:
    """One order (no ";" or line break). Raises OrderSyntaxError; columns are 1-based
    within ``text``."""
    if len(text) > MAX_ORDER_LENGTH:
        raise OrderSyntaxError(
            f"this order is too long ({len(text)} characters); write one order per line",
            line=text[:80] + "…",
        )
    if not text.strip():
        raise OrderSyntaxError("the order is empty", column=1)
    return _parse_order(text)


@lru_cache(maxsize=4096)
def _parse_order(text: str) -> Command:
    # Commands are immutable, so a repeated order (a bot's, a resent mail) is parsed once.
    try:
        result: Any = lark_parser().parse(text, start="order")
    except UnexpectedInput as exc:
        raise syntax_error(exc, text) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, OrderError):
            raise exc.orig_exc from None
        raise
    except LarkError as exc:  # pragma: no cover - any other Lark failure is a bad order
        raise OrderSyntaxError(f"I cannot read this order ({exc})") from None
    command: Command = result
    return command


def parse_orders(text: str) -> list[Command]:
    """Every order of a text with the whole-mail grammar rule; stops at the first error
    (check_mail reads line by line and reports every bad line instead)."""
    try:
        result: Any = lark_parser().parse(text, start="mail")
    except UnexpectedInput as exc:
        raise syntax_error(exc, text) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, OrderError):
            raise exc.orig_exc from None
        raise
    commands: list[Command] = result
    return commands


@dataclass(frozen=True, slots=True)
class Segment:
    """One order's text in a mail: its line (1-based), the whole line, and the column
    where the order starts (1-based)."""

    line_no: int
    line: str
    column: int
    text: str


_PASSWORD = re.compile(r"^\s*password\b", re.IGNORECASE)


def segments(text: str) -> Iterator[Segment]:
    """Split a mail body into orders: a line each or separated by ";". Blank lines,
    "#" comments and password lines (read by the service) are skipped."""
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        cut = line.find("#")
        body = line if cut < 0 else line[:cut]
        if not body.strip() or _PASSWORD.match(body):
            continue
        start = 0
        for part in body.split(";"):
            stripped = part.strip()
            if stripped:
                lead = len(part) - len(part.lstrip())
                yield Segment(line_no, line, start + lead + 1, stripped)
            start += len(part) + 1


def password(text: str) -> str | None:
    """The last "password <secret>" line of a body, if any."""
    found: str | None = None
    for raw in text.splitlines():
        m = re.match(r"^\s*password\s*[:=]?\s*(\S+)", raw, re.IGNORECASE)
        if m:
            found = m.group(1)
    return found


@dataclass(frozen=True, slots=True)
class Parsed:
    segment: Segment
    command: Command


def parse_mail(text: str) -> list[Parsed | OrderError]:
    """Every order of a mail body, each parsed on its own so one bad line does not hide
    the others. Errors are placed in their mail line (line number and column)."""
    out: list[Parsed | OrderError] = []
    for seg in segments(text):
        try:
            out.append(Parsed(seg, parse_order(seg.text)))
        except OrderError as err:
            out.append(err.at(seg.line, seg.line_no, seg.column - 1))
    return out
