"""View-models of every mail: pure functions from the engine to frozen dataclasses.

Nothing here knows Jinja, SQL or mail. The plain-text and the HTML template of a mail
type render the same view-model. Player-supplied strings (names, order lines) are made
printable here (controls become spaces, one for one so a caret still lines up) but are
never escaped: that is the HTML template's job.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..engine.actions import DecisionKind
from ..engine.components import BUILDINGS, GOODS, ISLAND_SPACES, Role
from ..engine.defaults import default_action
from ..engine.events import Event, describe
from ..engine.game import Game
from ..engine.roles import mayor
from ..engine.state import Phase
from ..orders.check import Report
from ..orders.errors import AmbiguousOrder, OrderError
from ..orders.format import EXAMPLE_PLACE, EXAMPLE_REMOVE, format_action, legal_orders
from ..orders.queue import QueuedOrder
from ..orders.resolve import KIND_NAMES, decision_of

CITY_SPACES = 12

PHASE_LABELS = {
    Phase.ROLE: "Role selection",
    Phase.SETTLER: "Settler",
    Phase.MAYOR: "Mayor",
    Phase.BUILDER: "Builder",
    Phase.CRAFTSMAN: "Craftsman",
    Phase.TRADER: "Trader",
    Phase.CAPTAIN: "Captain",
    Phase.STORE: "Captain (storage)",
    Phase.OVER: "Game over",
}

_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_INVISIBLE = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(s: str) -> str:
    """A player-supplied string fit to show in a mail: every control character, line
    or paragraph separator and bidirectional override becomes one space (so columns
    are kept for the caret under a quoted line); lone surrogates become U+FFFD."""
    out: list[str] = []
    for ch in s:
        cat = unicodedata.category(ch)
        if cat == "Cc" or ch in "\u2028\u2029" or ch in _INVISIBLE:
            out.append(" ")
        elif cat == "Cs":
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# -- the public board ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GoodCount:
    good: str
    count: int

    @property
    def text(self) -> str:
        return f"{self.count} {self.good}"


@dataclass(frozen=True, slots=True)
class RoleView:
    """A role card: its doubloons, and who took it this round (None: still free)."""

    name: str
    doubloons: int
    taken_by: str | None
    current: bool


@dataclass(frozen=True, slots=True)
class ShipView:
    """A cargo ship; ``label`` reads like "5-ship: 3 corn, 2 free"."""

    capacity: int
    good: str | None
    count: int
    free: int
    label: str


@dataclass(frozen=True, slots=True)
class TileView:
    """Plantations of one kind (or the quarries) on an island: tiles and manned ones."""

    name: str
    tiles: int
    manned: int

    @property
    def text(self) -> str:
        """E.g. "corn 1/2": manned tiles of all tiles."""
        return f"{self.name} {self.manned}/{self.tiles}"


@dataclass(frozen=True, slots=True)
class BuildingView:
    name: str
    colonists: int
    circles: int
    vp: int
    large: bool

    @property
    def text(self) -> str:
        """E.g. "indigo plant 2/3": colonists of circles."""
        return f"{self.name} {self.colonists}/{self.circles}"


@dataclass(frozen=True, slots=True)
class SupplyBuilding:
    """A building still for sale: base price, VP, circles, copies left, effect."""

    name: str
    price: int
    vp: int
    circles: int
    left: int
    large: bool
    effect: str


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    name: str
    governor: bool
    roles: tuple[str, ...]  # roles taken this round
    deciding: bool
    doubloons: int
    vp: int
    goods: tuple[GoodCount, ...]  # only kinds held
    goods_text: str
    island: tuple[TileView, ...]
    island_free: int
    city: tuple[BuildingView, ...]
    city_free: int
    san_juan: int
    colonists: int


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything every player may see."""

    round: int
    governor: str
    phase: str
    role: str | None  # the role being carried out
    role_holder: str | None  # who chose it
    deciding: tuple[str, ...]
    roles: tuple[RoleView, ...]
    colonist_supply: int
    colonist_ship: int
    vp_chips: int
    goods_supply: tuple[GoodCount, ...]
    trading_house: tuple[str, ...]
    trading_house_free: int
    ships: tuple[ShipView, ...]
    face_up: tuple[str, ...]
    quarries: int
    pile: int
    buildings: tuple[SupplyBuilding, ...]
    sold_out: tuple[str, ...]
    players: tuple[PlayerView, ...]
    last_round: bool
    end_reason: str | None
    over: bool


def goods_text(counts: Sequence[int]) -> str:
    parts = [f"{n} {GOODS[g].label}" for g, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "none"


def ship_label(capacity: int, good: str | None, count: int) -> str:
    free = capacity - count
    if good is None or count == 0:
        return f"{capacity}-ship: empty, {free} free"
    if free == 0:
        return f"{capacity}-ship: {count} {good}, full"
    return f"{capacity}-ship: {count} {good}, {free} free"


def names_of(game: Game) -> tuple[str, ...]:
    """The players' names, made printable."""
    return tuple(printable(n) for n in game.names)


def board_view(game: Game) -> BoardView:
    """The public board of ``game`` now."""
    s = game.state
    names = names_of(game)
    deciding = game.deciding()
    roles = tuple(
        RoleView(
            name=Role(r).label,
            doubloons=d,
            taken_by=names[s.role_taken[r]] if r in s.role_taken else None,
            current=r == s.role,
        )
        for r, d in s.role_doubloons.items()
    )
    ships = tuple(
        ShipView(
            capacity=ship.capacity,
            good=ship.good.label if ship.good is not None and ship.count else None,
            count=ship.count,
            free=ship.space,
            label=ship_label(
                ship.capacity, ship.good.label if ship.good is not None else None, ship.count
            ),
        )
        for ship in s.ships
    )
    players = []
    for seat, p in enumerate(s.players):
        island = [
            TileView(g.label, p.plantations[g], p.occupied[g]) for g in GOODS if p.plantations[g]
        ]
        if p.quarries:
            island.append(TileView("quarry", p.quarries, p.occupied_quarries))
        city = tuple(
            BuildingView(b.label, n, BUILDINGS[b].circles, BUILDINGS[b].vp, BUILDINGS[b].large)
            for b, n in p.buildings.items()
        )
        players.append(
            PlayerView(
                seat=seat,
                name=names[seat],
                governor=seat == s.governor,
                roles=tuple(Role(r).label for r, who in s.role_taken.items() if who == seat),
                deciding=seat in deciding,
                doubloons=p.doubloons,
                vp=p.vp,
                goods=tuple(GoodCount(g.label, p.goods[g]) for g in GOODS if p.goods[g]),
                goods_text=goods_text(p.goods),
                island=tuple(island),
                island_free=ISLAND_SPACES - p.island_tiles,
                city=city,
                city_free=CITY_SPACES - p.city_used,
                san_juan=p.san_juan,
                colonists=p.colonists,
            )
        )
    supply = tuple(
        SupplyBuilding(b.label, info.price, info.vp, info.circles, left, info.large, info.effect)
        for b, left in sorted(s.supply_buildings.items())
        if left > 0
        for info in (BUILDINGS[b],)
    )
    sold_out = tuple(b.label for b, left in sorted(s.supply_buildings.items()) if left <= 0)
    role = Role(s.role).label if s.role >= 0 else None
    return BoardView(
        round=s.round,
        governor=names[s.governor],
        phase=PHASE_LABELS[s.phase],
        role=role,
        role_holder=names[s.picker] if role is not None else None,
        deciding=tuple(names[i] for i in deciding),
        roles=roles,
        colonist_supply=s.colonist_supply,
        colonist_ship=s.colonist_ship,
        vp_chips=s.vp_chips,
        goods_supply=tuple(GoodCount(g.label, s.goods_supply[g]) for g in GOODS),
        trading_house=tuple(g.label for g in s.trading_house),
        trading_house_free=4 - len(s.trading_house),
        ships=ships,
        face_up=tuple(g.label for g in s.face_up),
        quarries=s.quarries,
        pile=len(s.pile),
        buildings=supply,
        sold_out=sold_out,
        players=tuple(players),
        last_round=s.end_reason is not None and not game.over,
        end_reason=s.end_reason,
        over=game.over,
    )


# -- the seat's own part ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LayoutTile:
    name: str
    colonists: int
    circles: int

    @property
    def text(self) -> str:
        return f"{self.name} {self.colonists}/{self.circles}"


@dataclass(frozen=True, slots=True)
class MayorView:
    """The mayor decision: the current layout and the order syntax (never the layouts,
    which can number thousands)."""

    tiles: tuple[LayoutTile, ...]
    san_juan: int
    extra_offered: bool
    layouts: int
    syntax: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player's own part of a mail: what he may order now, the default applied if
    he does nothing, and the deadline in his time zone."""

    seat: int
    name: str
    decision: str | None  # e.g. "what to load"; None when nothing is his to decide
    orders: tuple[str, ...]
    mayor: MayorView | None
    default: str | None  # None: no published default (the autopilot decides)
    deadline: str | None
    time_zone: str
    waiting_for: tuple[str, ...]  # the others who must decide now
    queued: tuple[str, ...]  # orders kept for later, with the decision they are for
    # Trader and captain: what he may already order for his turn later in this phase
    # (seeds 000 and 001: everyone who might sell or load is asked at once).
    ahead: tuple[str, ...] = ()


def format_deadline(deadline: datetime, time_zone: str) -> tuple[str, str]:
    """``deadline`` in ``time_zone`` (IANA name; unknown names fall back to UTC) as
    "Tue 14 Apr 2026 18:00 CEST (Europe/Berlin)", and the zone used. A naive
    ``deadline`` is taken to be UTC."""
    try:
        zone = ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        zone, time_zone = ZoneInfo("UTC"), "UTC"
    if deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=ZoneInfo("UTC"))
    local = deadline.astimezone(zone)
    abbrev = local.tzname() or ""
    text = (
        f"{_WEEKDAYS[local.weekday()]} {local.day} {_MONTHS[local.month - 1]} {local.year} "
        f"{local.hour:02d}:{local.minute:02d} {abbrev}"
    ).rstrip()
    if time_zone != abbrev:
        text += f" ({time_zone})"
    return text, time_zone


def _mayor_view(game: Game, seat: int) -> MayorView:
    s = game.state
    p = s.players[seat]
    tiles = [
        LayoutTile(g.label, p.occupied[g], p.plantations[g]) for g in GOODS if p.plantations[g]
    ]
    if p.quarries:
        tiles.append(LayoutTile("quarry", p.occupied_quarries, p.quarries))
    for b in sorted(p.buildings):
        tiles.append(LayoutTile(b.label, p.buildings[b], BUILDINGS[b].circles))
    extra = True in mayor.extras(s, seat)
    syntax = [
        EXAMPLE_REMOVE,
        EXAMPLE_PLACE,
        "move 1 from corn to coffee roaster",
        "mayor: no change",
    ]
    if extra:
        syntax.append("mayor: no extra colonist")
    return MayorView(
        tiles=tuple(tiles),
        san_juan=p.san_juan,
        extra_offered=extra,
        layouts=len(game.legal_actions(seat)),
        syntax=tuple(syntax),
    )


def seat_view(
    game: Game,
    seat: int,
    *,
    deadline: datetime | None = None,
    time_zone: str = "UTC",
    queued: Sequence[QueuedOrder] = (),
) -> SeatView:
    """``seat``'s own part: his decision now (orders in order syntax, or for the mayor
    the layout and the syntax), the default, the deadline in ``time_zone``."""
    names = names_of(game)
    decision = decision_of(game, seat)
    orders: tuple[str, ...] = ()
    mayor_part: MayorView | None = None
    default: str | None = None
    what: str | None = None
    if decision is not None:
        what = KIND_NAMES[decision.kind]
        if decision.kind is DecisionKind.MAYOR:
            mayor_part = _mayor_view(game, seat)
        else:
            orders = tuple(legal_orders(game, seat))
        action = default_action(game, seat)
        if action is not None:
            default = format_action(action, game, seat)
    when: str | None = None
    if deadline is not None and decision is not None:
        when, time_zone = format_deadline(deadline, time_zone)
    kept = tuple(
        f"{printable(q.text)} (for {q.key.describe()})" for q in queued if q.key.seat == seat
    )
    ahead: tuple[str, ...] = ()
    if decision is None:
        ahead = tuple(format_action(a, game, seat) for a in game.upcoming(seat))
    return SeatView(
        seat=seat,
        name=names[seat],
        ahead=ahead,
        decision=what,
        orders=orders,
        mayor=mayor_part,
        default=default,
        deadline=when,
        time_zone=time_zone,
        waiting_for=tuple(names[i] for i in game.deciding() if i != seat),
        queued=kept,
    )


# -- events, scores ------------------------------------------------------------------


def events_view(
    events: Sequence[Event], names: Sequence[str], ships: Sequence[int] = ()
) -> tuple[str, ...]:
    """The events as English sentences."""
    shown = [printable(n) for n in names]
    return tuple(describe(e, shown, ships) for e in events)


@dataclass(frozen=True, slots=True)
class ScoreRow:
    rank: int
    seat: int
    name: str
    chips: int
    buildings: int
    bonus: int
    total: int
    tiebreak: int  # doubloons plus goods
    winner: bool


@dataclass(frozen=True, slots=True)
class ScoresView:
    rows: tuple[ScoreRow, ...]  # best first
    winners: tuple[str, ...]
    end_reason: str | None


def scores_view(game: Game) -> ScoresView:
    """The final (or current) scores with their breakdown, best first."""
    names = names_of(game)
    winners = game.winners()
    table = sorted(game.scores(), key=lambda sc: (-sc.total, -sc.tiebreak, sc.seat))
    rows: list[ScoreRow] = []
    for i, sc in enumerate(table):
        rank = i + 1
        if rows and (rows[-1].total, rows[-1].tiebreak) == (sc.total, sc.tiebreak):
            rank = rows[-1].rank
        rows.append(
            ScoreRow(
                rank,
                sc.seat,
                names[sc.seat],
                sc.chips,
                sc.buildings,
                sc.bonus,
                sc.total,
                sc.tiebreak,
                sc.seat in winners,
            )
        )
    return ScoresView(tuple(rows), tuple(names[w] for w in winners), game.state.end_reason)


# -- orders received: acknowledgement and errors -------------------------------------


@dataclass(frozen=True, slots=True)
class AckLine:
    """An order understood: the line, and what it was taken to mean (applied now) or
    which decision it is kept for."""

    line_no: int
    text: str
    meaning: str


@dataclass(frozen=True, slots=True)
class ErrorLine:
    """A rejected line: quoted, a caret under the place (``caret`` spaces before the
    ``^``; None: the whole line), the reason, and the readings when ambiguous."""

    line_no: int | None
    line: str
    caret: int | None
    reason: str
    alternatives: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReportView:
    applied: tuple[AckLine, ...]
    queued: tuple[AckLine, ...]
    errors: tuple[ErrorLine, ...]


def error_line(err: OrderError) -> ErrorLine:
    line = printable(err.line)
    caret: int | None = None
    if line and err.column is not None and 0 < err.column <= len(line) + 1:
        caret = err.column - 1
    return ErrorLine(
        line_no=err.line_no,
        line=line,
        caret=caret,
        reason=printable(err.reason),
        alternatives=tuple(
            printable(a) for a in (err.alternatives if isinstance(err, AmbiguousOrder) else ())
        ),
    )


def report_view(report: Report | Sequence[OrderError]) -> ReportView:
    """What a mail's orders came to (see orders.check.check_mail)."""
    if not isinstance(report, Report):
        return ReportView((), (), tuple(error_line(e) for e in report))
    applied = tuple(
        AckLine(a.line_no, printable(a.text), a.meaning)
        for a in report.accepted
        if a.action is not None
    )
    queued = tuple(
        AckLine(a.line_no, printable(a.text), a.key.describe())
        for a in report.accepted
        if a.action is None and a.key is not None
    )
    return ReportView(applied, queued, tuple(error_line(e) for e in report.errors))


# -- the mails -----------------------------------------------------------------------


def subject(tag: str, game: Game | None, what: str) -> str:
    """E.g. "[PR-12] Round 4 · Captain · your turn"."""
    parts = [f"[{printable(tag)}]"]
    if game is not None:
        s = game.state
        if game.over:
            parts.append("Game over ·")
        else:
            parts.append(f"Round {s.round} · {PHASE_LABELS[s.phase]} ·")
    parts.append(what)
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class BoardMail:
    """The board after a change, to every seat (``seat`` None: an observer)."""

    kind: ClassVar[str] = "board"
    subject: str
    tag: str
    board: BoardView
    events: tuple[str, ...]
    seat: SeatView | None


@dataclass(frozen=True, slots=True)
class YourTurnMail:
    kind: ClassVar[str] = "your_turn"
    subject: str
    tag: str
    board: BoardView
    events: tuple[str, ...]
    seat: SeatView


@dataclass(frozen=True, slots=True)
class AckMail:
    kind: ClassVar[str] = "ack"
    subject: str
    tag: str
    report: ReportView
    seat: SeatView


@dataclass(frozen=True, slots=True)
class ErrorMail:
    kind: ClassVar[str] = "error"
    subject: str
    tag: str
    report: ReportView
    seat: SeatView


@dataclass(frozen=True, slots=True)
class GameStartMail:
    kind: ClassVar[str] = "game_start"
    subject: str
    tag: str
    password: str
    reply_to: str | None
    players: tuple[str, ...]  # in seat order, the first being the governor
    variant: str
    board: BoardView
    seat: SeatView


@dataclass(frozen=True, slots=True)
class GameEndMail:
    kind: ClassVar[str] = "game_end"
    subject: str
    tag: str
    scores: ScoresView
    board: BoardView
    events: tuple[str, ...]
    name: str | None  # the recipient, None: an observer


@dataclass(frozen=True, slots=True)
class ReminderMail:
    kind: ClassVar[str] = "reminder"
    subject: str
    tag: str
    left: str  # e.g. "about 6 hours"
    seat: SeatView


@dataclass(frozen=True, slots=True)
class UndoMail:
    kind: ClassVar[str] = "undo"
    subject: str
    tag: str
    reason: str
    by: str
    undone: tuple[str, ...]  # what was taken back, as sentences
    board: BoardView
    seat: SeatView | None


@dataclass(frozen=True, slots=True)
class UnknownSenderMail:
    kind: ClassVar[str] = "unknown_sender"
    subject: str
    moderator: str  # the address to write to


MailView = (
    BoardMail
    | YourTurnMail
    | AckMail
    | ErrorMail
    | GameStartMail
    | GameEndMail
    | ReminderMail
    | UndoMail
    | UnknownSenderMail
)


def _seat(
    game: Game,
    seat: int | None,
    deadline: datetime | None,
    time_zone: str,
    queued: Sequence[QueuedOrder],
) -> SeatView | None:
    if seat is None:
        return None
    return seat_view(game, seat, deadline=deadline, time_zone=time_zone, queued=queued)


@dataclass(frozen=True, slots=True)
class PublicView:
    """What every seat's mail after a change shows alike: the board and what happened.
    Built once per change and shared by the seats' mails (`public_view`)."""

    board: BoardView
    events: tuple[str, ...]


def public_view(game: Game, events: Sequence[Event] = ()) -> PublicView:
    """The board of ``game`` now and ``events`` as sentences."""
    return PublicView(board_view(game), events_view(events, game.names, game.ship_capacities))


def board_mail(
    game: Game,
    tag: str,
    seat: int | None,
    events: Sequence[Event] = (),
    *,
    deadline: datetime | None = None,
    time_zone: str = "UTC",
    queued: Sequence[QueuedOrder] = (),
    public: PublicView | None = None,
) -> BoardMail:
    """The board after a change, with what happened and the seat's own part (``public``:
    the board and events already built for another seat's mail of the same change)."""
    shared = public or public_view(game, events)
    return BoardMail(
        subject=subject(tag, game, "board"),
        tag=printable(tag),
        board=shared.board,
        events=shared.events,
        seat=_seat(game, seat, deadline, time_zone, queued),
    )


def your_turn_mail(
    game: Game,
    tag: str,
    seat: int,
    events: Sequence[Event] = (),
    *,
    deadline: datetime | None = None,
    time_zone: str = "UTC",
    queued: Sequence[QueuedOrder] = (),
    public: PublicView | None = None,
) -> YourTurnMail:
    """``seat`` must decide: the board, the exact orders possible, default, deadline."""
    shared = public or public_view(game, events)
    return YourTurnMail(
        subject=subject(tag, game, "your turn"),
        tag=printable(tag),
        board=shared.board,
        events=shared.events,
        seat=seat_view(game, seat, deadline=deadline, time_zone=time_zone, queued=queued),
    )


def ack_mail(
    game: Game,
    tag: str,
    seat: int,
    report: Report,
    *,
    deadline: datetime | None = None,
    time_zone: str = "UTC",
    queued: Sequence[QueuedOrder] = (),
) -> AckMail:
    """The reply to a mail of orders: each line understood and what it became (applied
    or kept), any rejected line, then the seat's part in the game as it is now (call
    it after applying the orders)."""
    return AckMail(
        subject=subject(tag, game, "orders received"),
        tag=printable(tag),
        report=report_view(report),
        seat=seat_view(game, seat, deadline=deadline, time_zone=time_zone, queued=queued),
    )


def error_mail(
    game: Game,
    tag: str,
    seat: int,
    report: Report | Sequence[OrderError],
    *,
    deadline: datetime | None = None,
    time_zone: str = "UTC",
    queued: Sequence[QueuedOrder] = (),
) -> ErrorMail:
    """The reply when orders were rejected: each line quoted with a caret, the reason,
    and what may be ordered now."""
    return ErrorMail(
        subject=subject(tag, game, "order not accepted"),
        tag=printable(tag),
        report=report_view(report),
        seat=seat_view(game, seat, deadline=deadline, time_zone=time_zone, queued=queued),
    )


def game_start_mail(
    game: Game,
    tag: str,
    seat: int,
    password: str,
    *,
    reply_to: str | None = None,
    deadline: datetime | None = None,
    time_zone: str = "UTC",
) -> GameStartMail:
    """The first mail to a seat: the players, his password, how to order and reply."""
    return GameStartMail(
        subject=subject(tag, game, "the game begins"),
        tag=printable(tag),
        password=printable(password),
        reply_to=printable(reply_to) if reply_to is not None else None,
        players=names_of(game),
        variant=game.state.variant,
        board=board_view(game),
        seat=seat_view(game, seat, deadline=deadline, time_zone=time_zone),
    )


def game_end_mail(
    game: Game,
    tag: str,
    seat: int | None,
    events: Sequence[Event] = (),
    *,
    public: PublicView | None = None,
) -> GameEndMail:
    """The final scores with the breakdown, and the final board."""
    shared = public or public_view(game, events)
    return GameEndMail(
        subject=subject(tag, game, "final scores"),
        tag=printable(tag),
        scores=scores_view(game),
        board=shared.board,
        events=shared.events,
        name=names_of(game)[seat] if seat is not None else None,
    )


def time_left(now: datetime, deadline: datetime) -> str:
    """Roughly how long until ``deadline``: "about 6 hours", "less than an hour"."""
    left = deadline - now
    if left <= timedelta(0):
        return "no time"
    hours = left.total_seconds() / 3600
    if hours < 1:
        minutes = max(1, round(left.total_seconds() / 60))
        return f"about {_plural(minutes, 'minute')}"
    if hours < 48:
        return f"about {_plural(round(hours), 'hour')}"
    return f"about {_plural(round(hours / 24), 'day')}"


def reminder_mail(
    game: Game,
    tag: str,
    seat: int,
    *,
    now: datetime,
    deadline: datetime,
    time_zone: str = "UTC",
    queued: Sequence[QueuedOrder] = (),
) -> ReminderMail:
    """The deadline is near and ``seat`` has not decided."""
    return ReminderMail(
        subject=subject(tag, game, "reminder: your turn"),
        tag=printable(tag),
        left=time_left(now, deadline),
        seat=seat_view(game, seat, deadline=deadline, time_zone=time_zone, queued=queued),
    )


def undo_mail(
    game: Game,
    tag: str,
    seat: int | None,
    *,
    reason: str,
    by: str,
    undone: Sequence[Event] = (),
    deadline: datetime | None = None,
    time_zone: str = "UTC",
) -> UndoMail:
    """A moderator took moves back: the reason, what was undone, the board now. Call it
    with the game after the undo; ``undone`` are the events of the moves taken back."""
    return UndoMail(
        subject=subject(tag, game, "moves taken back"),
        tag=printable(tag),
        reason=printable(reason),
        by=printable(by),
        undone=events_view(undone, game.names, game.ship_capacities),
        board=board_view(game),
        seat=_seat(game, seat, deadline, time_zone, ()),
    )


def unknown_sender_mail(moderator: str) -> UnknownSenderMail:
    """One short explanation to a sender who is in no game (at most one a day)."""
    return UnknownSenderMail(
        subject="Puerto Rico moderator: your mail was not read",
        moderator=printable(moderator),
    )


__all__ = [
    "PHASE_LABELS",
    "AckLine",
    "AckMail",
    "BoardMail",
    "BoardView",
    "BuildingView",
    "ErrorLine",
    "ErrorMail",
    "GameEndMail",
    "GameStartMail",
    "GoodCount",
    "LayoutTile",
    "MailView",
    "MayorView",
    "PlayerView",
    "PublicView",
    "ReminderMail",
    "ReportView",
    "RoleView",
    "ScoreRow",
    "ScoresView",
    "SeatView",
    "ShipView",
    "SupplyBuilding",
    "TileView",
    "UndoMail",
    "UnknownSenderMail",
    "YourTurnMail",
    "ack_mail",
    "board_mail",
    "board_view",
    "error_line",
    "error_mail",
    "events_view",
    "format_deadline",
    "game_end_mail",
    "game_start_mail",
    "goods_text",
    "printable",
    "public_view",
    "reminder_mail",
    "report_view",
    "scores_view",
    "seat_view",
    "ship_label",
    "subject",
    "time_left",
    "undo_mail",
    "unknown_sender_mail",
]
