"""View-models of every mail: pure functions from the engine to frozen dataclasses.

Nothing here knows Jinja, SQL or mail. The plain-text and the HTML template of a mail
render the same view-model, and every fact a mail shows is worded here once, so both
say the same thing in the same words ("indigo; 3 free"). The models are plain data
(strings, numbers, tuples): ``dataclasses.asdict`` of a board is JSON for an archive.

Player-supplied strings (names, order lines) are made printable here (controls become
spaces, one for one so a caret still lines up) but are never escaped: that is the HTML
template's job.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..engine.actions import Action, DecisionKind
from ..engine.components import BUILDINGS, GOODS, ISLAND_SPACES, Role
from ..engine.defaults import default_action
from ..engine.events import Event, describe_all
from ..engine.game import Game
from ..engine.roles import mayor
from ..engine.state import Phase
from ..orders.check import Report
from ..orders.errors import (
    AlreadyDone,
    AmbiguousOrder,
    OrderError,
    OrderSyntaxError,
    Question,
    Remark,
)
from ..orders.format import format_action, mayor_examples
from ..orders.help import Block, Example, help_guide
from ..orders.queue import QueuedOrder

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


def plural(n: int, word: str, words: str | None = None) -> str:
    """``3 doubloons``, ``1 doubloon``."""
    return f"{n} {word}" if n == 1 else f"{n} {words or word + 's'}"


def and_list(items: Sequence[str]) -> str:
    """``Anna``, ``Anna and Bob``, ``Anna, Bob and Chris``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# -- the public board ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fact:
    """One line of a board, worded once for text and HTML: a label and its value, or
    several values shown one under the other (the cargo ships)."""

    label: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GoodCount:
    good: str
    count: int
    text: str  # "3 corn"


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
    """Plantations of one kind (or the quarries) on an island: tiles and manned ones;
    ``text`` reads "corn 1/2" (manned of all)."""

    name: str
    tiles: int
    manned: int
    text: str


@dataclass(frozen=True, slots=True)
class BuildingView:
    """A building in a city; ``text`` reads "indigo plant 2/3" (colonists of circles)."""

    name: str
    colonists: int
    circles: int
    vp: int
    large: bool
    text: str


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
    """One player's part of the board. ``summary`` is the line beside his name ("3 VP ·
    3 doubloons · governor"), ``facts`` his goods, island, city and San Juan."""

    seat: int
    name: str
    governor: bool
    roles: tuple[str, ...]  # roles taken this round
    deciding: bool
    doubloons: int
    vp: int
    goods: tuple[GoodCount, ...]  # only kinds held
    island: tuple[TileView, ...]
    island_free: int
    city: tuple[BuildingView, ...]
    city_free: int
    san_juan: int
    colonists: int
    summary: str
    facts: tuple[Fact, ...]
    # He said he is away: "until Thu 3 Dec 2026 00:00 CET: the autopilot plays for him".
    away: str | None = None


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything every player may see: the facts (``title``, ``notices``, ``facts``,
    ``roles``, ``buildings``, ``players``) and the numbers behind them."""

    round: int
    governor: str
    phase: str
    role: str | None  # the role being carried out
    role_holder: str | None  # who chose it
    deciding: tuple[str, ...]
    title: str  # "Round 4 · Captain (chosen by Anna) · governor Bob"
    notices: tuple[str, ...]  # "Now deciding: Bob.", "This is the last round: …"
    facts: tuple[Fact, ...]  # colonists, VP chips, quarries, goods, plantations, …
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


def _spaces(items: Sequence[str], free: int) -> str:
    """An island's or a city's contents and its free spaces: "corn 1/2; 9 free"."""
    return f"{', '.join(items) or 'nothing'}; {free} free"


def _player_summary(vp: int, doubloons: int, governor: bool, roles: Sequence[str]) -> str:
    parts = [f"{vp} VP", plural(doubloons, "doubloon")]
    if governor:
        parts.append("governor")
    if roles:
        parts.append("took the " + ", the ".join(roles))
    return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class Absence:
    """A player who said he is away: until when (shown in his own time zone), and whether
    the autopilot plays for him meanwhile (else his deadlines wait for his return)."""

    until: datetime
    time_zone: str
    autopilot: bool


def absence_parts(absence: Absence, *, own: bool = False) -> tuple[str, str]:
    """An absence as every board shows it: until when (in the absent player's own time
    zone), and what is done meanwhile (``own``: as told to the absent player)."""
    when, _ = format_deadline(absence.until, absence.time_zone)
    if absence.autopilot:
        meanwhile = "the autopilot plays for " + ("you" if own else "him")
    else:
        meanwhile = ("your" if own else "his") + " deadlines wait"
    return f"until {when}", meanwhile


def absence_text(absence: Absence, *, own: bool = False) -> str:
    """An absence in one line: "until Thu 3 Dec 2026 00:00 CET: the autopilot plays for
    him" (``own``: "for you")."""
    until, meanwhile = absence_parts(absence, own=own)
    return f"{until}: {meanwhile}"


def standing_lines(absence: Absence | None, missed: int, limit: int) -> tuple[str, ...]:
    """Where a player stands with the clock, in his own mails: his ``absence`` (None: he
    is here), and the deadlines he ``missed`` in a row (the operator is told at
    ``limit``)."""
    out = []
    if absence is not None:
        out.append(
            f"You are away {absence_text(absence, own=True)}. "
            'Any order from you ends your absence, and so does "back".'
        )
    if missed:
        line = f"You have missed {plural(missed, 'deadline')} in a row."
        if missed >= limit:
            line += " The moderator has been told, and may give your seat to another player."
        else:
            line += f" After {limit} the moderator is told, and may give your seat to another."
        out.append(line)
    return tuple(out)


def board_view(game: Game, absences: Mapping[int, Absence] | None = None) -> BoardView:
    """The public board of ``game`` now; ``absences``: the players away, by seat."""
    absences = absences or {}
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
            TileView(g.label, p.plantations[g], p.occupied[g], f"{g.label} {p.occupied[g]}/{n}")
            for g in GOODS
            if (n := p.plantations[g])
        ]
        if p.quarries:
            island.append(
                TileView(
                    "quarry",
                    p.quarries,
                    p.occupied_quarries,
                    f"quarry {p.occupied_quarries}/{p.quarries}",
                )
            )
        city = tuple(
            BuildingView(
                b.label,
                n,
                BUILDINGS[b].circles,
                BUILDINGS[b].vp,
                BUILDINGS[b].large,
                f"{b.label} {n}/{BUILDINGS[b].circles}",
            )
            for b, n in p.buildings.items()
        )
        goods = tuple(
            GoodCount(g.label, p.goods[g], f"{p.goods[g]} {g.label}") for g in GOODS if p.goods[g]
        )
        taken = tuple(Role(r).label for r, who in s.role_taken.items() if who == seat)
        island_free = ISLAND_SPACES - p.island_tiles
        city_free = CITY_SPACES - p.city_used
        away = absence_parts(absences[seat]) if seat in absences else None
        players.append(
            PlayerView(
                seat=seat,
                name=names[seat],
                governor=seat == s.governor,
                roles=taken,
                deciding=seat in deciding,
                doubloons=p.doubloons,
                vp=p.vp,
                goods=goods,
                island=tuple(island),
                island_free=island_free,
                city=city,
                city_free=city_free,
                san_juan=p.san_juan,
                colonists=p.colonists,
                summary=_player_summary(p.vp, p.doubloons, seat == s.governor, taken),
                facts=(
                    Fact("Goods", (goods_text(p.goods),)),
                    Fact("Island", (_spaces([t.text for t in island], island_free),)),
                    Fact("City", (_spaces([b.text for b in city], city_free),)),
                    Fact("San Juan", (plural(p.san_juan, "colonist"),)),
                    *((Fact("Away", away),) if away is not None else ()),
                ),
                away=None if away is None else ": ".join(away),
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
    holder = names[s.picker] if role is not None else None
    phase = PHASE_LABELS[s.phase]
    chosen = f" (chosen by {holder})" if holder is not None else ""
    deciding_names = tuple(names[i] for i in deciding)
    last_round = s.end_reason is not None and not game.over
    notices: list[str] = []
    if deciding_names:
        notices.append(f"Now deciding: {and_list(deciding_names)}.")
    if last_round:
        notices.append(f"This is the last round: {s.end_reason}.")
    goods_supply = tuple(
        GoodCount(g.label, s.goods_supply[g], f"{s.goods_supply[g]} {g.label}") for g in GOODS
    )
    house = [g.label for g in s.trading_house]
    house_free = 4 - len(house)
    facts = (
        Fact("Colonists", (f"{s.colonist_supply} in the supply, {s.colonist_ship} on the ship",)),
        Fact("VP chips", (f"{s.vp_chips} left",)),
        Fact("Quarries", (f"{s.quarries} left",)),
        Fact("Goods", (", ".join(g.text for g in goods_supply),)),
        Fact(
            "Plantations",
            (
                f"{', '.join(g.label for g in s.face_up) or 'none'} face up; "
                f"{len(s.pile)} in the pile",
            ),
        ),
        Fact("Trading house", (f"{', '.join(house) or 'empty'}; {house_free} free",)),
        Fact("Cargo ships", tuple(ship.label for ship in ships)),
    )
    return BoardView(
        round=s.round,
        governor=names[s.governor],
        phase=phase,
        role=role,
        role_holder=holder,
        deciding=deciding_names,
        title=f"Round {s.round} · {phase}{chosen} · governor {names[s.governor]}",
        notices=tuple(notices),
        facts=facts,
        roles=roles,
        colonist_supply=s.colonist_supply,
        colonist_ship=s.colonist_ship,
        vp_chips=s.vp_chips,
        goods_supply=goods_supply,
        trading_house=tuple(house),
        trading_house_free=house_free,
        ships=ships,
        face_up=tuple(g.label for g in s.face_up),
        quarries=s.quarries,
        pile=len(s.pile),
        buildings=supply,
        sold_out=sold_out,
        players=tuple(players),
        last_round=last_round,
        end_reason=s.end_reason,
        over=game.over,
    )


# -- what is asked of a seat: the one place that words "whose turn" ----------------


class Ask(enum.Enum):
    """What a mail asks of its reader now."""

    DECIDE = "decide"  # his decision, now
    AHEAD = "ahead"  # his turn later in this phase: he may order now (trader, captain)
    WAIT = "wait"  # others decide
    OVER = "over"  # the game is over


@dataclass(frozen=True, slots=True)
class Prompt:
    """A decision as a mail's first line names it: the role carried out (None: the
    role choice itself) and what is to be done."""

    role: str | None
    task: str

    @property
    def text(self) -> str:
        return self.task if self.role is None else f"{self.role} — {self.task}"


PROMPTS: dict[DecisionKind, Prompt] = {
    DecisionKind.ROLE: Prompt(None, "choose a role"),
    DecisionKind.HACIENDA: Prompt("settler", "use the hacienda?"),
    DecisionKind.SETTLE: Prompt("settler", "take a plantation"),
    DecisionKind.MAYOR: Prompt("mayor", "place colonists"),
    DecisionKind.BUILD: Prompt("builder", "build"),
    DecisionKind.CRAFTSMAN_EXTRA: Prompt("craftsman", "take an extra barrel"),
    DecisionKind.SELL: Prompt("trader", "sell"),
    DecisionKind.LOAD: Prompt("captain", "load goods"),
    DecisionKind.STORE: Prompt("captain", "store goods"),
}


@dataclass(frozen=True, slots=True)
class LayoutTile:
    name: str
    colonists: int
    circles: int
    text: str  # "corn 1/1"


@dataclass(frozen=True, slots=True)
class MayorView:
    """The mayor decision: the current layout and examples of the order written with
    the player's own tiles (never the layouts, which can number thousands)."""

    tiles: tuple[LayoutTile, ...]
    san_juan: int
    extra_offered: bool
    layouts: int
    examples: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player's own part of a mail: what is asked of him now (``ask``, worded in
    ``asked``, the mail's first line), the orders he may give, what happens if he sends
    nothing by the deadline, and his kept orders."""

    seat: int
    name: str
    ask: Ask
    asked: str  # "Your turn: captain — load goods"
    orders: tuple[str, ...]  # what he may order now (or already, for his later turn)
    mayor: MayorView | None
    # What is applied if no order comes by the deadline: the one slot for it, filled by
    # the caller (service.compose.deadline_outcome), else the published default.
    at_deadline: str | None
    deadline: str | None
    time_zone: str
    waiting_for: tuple[str, ...]  # the others who must decide now
    kept: tuple[str, ...]  # orders kept for later, with the decision they are for
    # Where he stands with the clock: his absence, the deadlines he missed in a row.
    standing: tuple[str, ...] = ()


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
        LayoutTile(g.label, p.occupied[g], n, f"{g.label} {p.occupied[g]}/{n}")
        for g in GOODS
        if (n := p.plantations[g])
    ]
    if p.quarries:
        tiles.append(
            LayoutTile(
                "quarry",
                p.occupied_quarries,
                p.quarries,
                f"quarry {p.occupied_quarries}/{p.quarries}",
            )
        )
    for b in sorted(p.buildings):
        circles = BUILDINGS[b].circles
        tiles.append(
            LayoutTile(b.label, p.buildings[b], circles, f"{b.label} {p.buildings[b]}/{circles}")
        )
    extra = True in mayor.extras(s, seat)
    legal = game.legal_actions(seat)
    return MayorView(
        tiles=tuple(tiles),
        san_juan=p.san_juan,
        extra_offered=extra,
        layouts=len(legal),
        examples=mayor_examples(game, seat),
    )


def outcome_text(order: str | None, *, default: bool, absent: bool = False) -> str:
    """What is done for a seat if no order comes by his deadline, as every mail that
    asks him says it (the one place that words it): ``order`` the order applied then
    (None: the autopilot decides at the time), ``default`` the published default's
    (else the autopilot's), ``absent`` at once, for he is away."""
    if order is None:
        return "the autopilot decides for you"
    if absent:
        return f"you are away, so the autopilot orders for you at once: {order}"
    if default:
        return f"the default is applied for you: {order}"
    return f"the autopilot orders for you: {order}"


# The game waits for a seat whose deadline applies nothing (a reminder only).
WAITS_FOR_YOU = "nothing: the game waits for you (you get a reminder)"


def published_outcome(game: Game, seat: int) -> str:
    """What the moderator's published defaults do for ``seat``'s decision now, as the
    deadline line says it: the default order, or the autopilot where there is none."""
    action = default_action(game, seat)
    order = None if action is None else format_action(action, game, seat)
    return outcome_text(order, default=True)


def ask_of(game: Game, seat: int) -> Ask:
    """What the game asks of ``seat`` now, from the engine's decisions: the one place
    that decides whose turn a mail announces."""
    if game.over:
        return Ask.OVER
    if seat in game.deciding():
        return Ask.DECIDE
    return Ask.AHEAD if game.upcoming(seat) else Ask.WAIT


def asked_line(ask: Ask, prompt: Prompt | None, waiting_for: Sequence[str]) -> str:
    """The first line of a player's mail: what it asks of him."""
    if ask is Ask.OVER:
        return "The game is over"
    what = "" if prompt is None else prompt.text
    if ask is Ask.DECIDE:
        return f"Your turn: {what}"
    if ask is Ask.AHEAD:
        return f"Your turn is coming: {what} (you may order now)"
    if waiting_for:
        return f"Waiting for {and_list(waiting_for)}: {what}"
    return f"Nothing to do now: {what}"


def seat_view(
    game: Game,
    seat: int,
    *,
    deadline: datetime | None = None,
    time_zone: str = "UTC",
    kept: Sequence[QueuedOrder] = (),
    at_deadline: str | None = None,
    standing: Sequence[str] = (),
) -> SeatView:
    """``seat``'s own part now. Whose turn it is comes from the engine's decisions
    (``Game.decisions``) and ``Game.upcoming``, here and nowhere else. ``at_deadline``:
    what is applied if no order comes by the deadline (default: the published
    default)."""
    names = names_of(game)
    ask = ask_of(game, seat)
    kind = game.kind()
    orders: tuple[str, ...] = ()
    mayor_part: MayorView | None = None
    if kind is DecisionKind.MAYOR and ask is Ask.DECIDE:
        mayor_part = _mayor_view(game, seat)
    elif ask is Ask.DECIDE or ask is Ask.AHEAD:
        orders = _orders(game, seat, game.upcoming(seat))
    when: str | None = None
    outcome: str | None = None
    if ask is Ask.DECIDE:
        outcome = at_deadline if at_deadline is not None else published_outcome(game, seat)
        if deadline is not None:
            when, time_zone = format_deadline(deadline, time_zone)
    waiting = tuple(names[i] for i in game.deciding() if i != seat)
    return SeatView(
        seat=seat,
        name=names[seat],
        ask=ask,
        asked=asked_line(ask, PROMPTS.get(kind) if kind is not None else None, waiting),
        orders=orders,
        mayor=mayor_part,
        at_deadline=outcome,
        deadline=when,
        time_zone=time_zone,
        waiting_for=waiting,
        kept=tuple(
            f"{printable(q.text)} (for {q.key.describe()})" for q in kept if q.key.seat == seat
        ),
        standing=tuple(standing),
    )


def _orders(game: Game, seat: int, actions: Sequence[Action]) -> tuple[str, ...]:
    """The actions as orders, each text once (several actions may read alike)."""
    out: list[str] = []
    for action in actions:
        text = format_action(action, game, seat)
        if text not in out:
            out.append(text)
    return tuple(out)


# -- events, scores ------------------------------------------------------------------


def events_view(
    events: Sequence[Event], names: Sequence[str], ships: Sequence[int]
) -> tuple[str, ...]:
    """The events as English sentences."""
    shown = [printable(n) for n in names]
    return tuple(describe_all(events, shown, ships))


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
    verdict: str  # "Anna wins with 53 VP." / "Anna and Bob share the victory with 50 VP."


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
    won = tuple(names[w] for w in winners)
    best = rows[0].total if rows else 0
    if len(won) == 1:
        verdict = f"{won[0]} wins with {best} VP."
    else:
        verdict = f"{and_list(won)} share the victory with {best} VP."
    return ScoresView(tuple(rows), won, game.state.end_reason, verdict)


# -- a player's orders: what was done, kept, not understood --------------------------


@dataclass(frozen=True, slots=True)
class OrderLine:
    """An order taken: the player's words and what they were understood as (applied
    now), or the decision they are kept for."""

    line_no: int
    text: str
    meaning: str


class NotDone(enum.Enum):
    """Why a line of a player's mail was not done, as the reply heads it."""

    UNREAD = "not understood"  # the words form no order
    ASKED = "asked back"  # two readings, or a question: he is to say which
    REFUSED = "not allowed"  # understood, but not allowed now
    REMARK = "taken as a remark"  # words after an order that can only be a remark on it


@dataclass(frozen=True, slots=True)
class ErrorLine:
    """A line not done: quoted, a caret under the place (``caret`` spaces before the
    ``^``; None: the whole line), the reason, the readings when asked back, and why it
    was not done (``heading``)."""

    line_no: int | None
    line: str
    caret: int | None
    reason: str
    alternatives: tuple[str, ...]
    heading: NotDone = NotDone.UNREAD


@dataclass(frozen=True, slots=True)
class ReplyView:
    """ "Your orders: done …, kept …, already done …, not understood …" — what a
    player's mail came to. ``already``: orders for a decision of this round he had
    already taken (a mail sent again), each with what was done then."""

    done: tuple[OrderLine, ...]
    kept: tuple[OrderLine, ...]
    errors: tuple[ErrorLine, ...]
    already: tuple[OrderLine, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.done or self.kept or self.errors or self.already)


def error_line(err: OrderError) -> ErrorLine:
    line = printable(err.line)
    caret: int | None = None
    # A caret under the first word says nothing the quoted line does not.
    if line and err.column is not None and 0 < err.column <= len(line) + 1:
        caret = err.column - 1 if line[: err.column - 1].strip() else None
    if isinstance(err, AmbiguousOrder):
        heading = NotDone.ASKED
    elif isinstance(err, Remark):
        heading = NotDone.REMARK
    elif isinstance(err, OrderSyntaxError):
        heading = NotDone.UNREAD
    else:
        heading = NotDone.REFUSED
    return ErrorLine(
        line_no=err.line_no,
        line=line,
        caret=caret,
        reason=printable(err.reason),
        # (a question names its orders in its reason)
        alternatives=tuple(
            printable(a)
            for a in (
                err.alternatives
                if isinstance(err, AmbiguousOrder) and not isinstance(err, Question)
                else ()
            )
        ),
        heading=heading,
    )


def reply_view(report: Report | Sequence[OrderError]) -> ReplyView:
    """What a mail's orders came to (see orders.check.check_mail)."""
    if not isinstance(report, Report):
        return ReplyView((), (), tuple(error_line(e) for e in report))
    done = tuple(
        OrderLine(a.line_no, printable(a.text), a.meaning)
        for a in report.accepted
        if a.action is not None
    )
    absence = report.absence
    if absence is not None and absence.meaning:
        # "away until 3 December": done at once, in its place among the mail's lines.
        line = OrderLine(absence.line_no, printable(absence.text), absence.meaning)
        done = tuple(sorted((*done, line), key=lambda o: o.line_no))
    kept = tuple(
        OrderLine(a.line_no, printable(a.text), a.key.describe())
        for a in report.accepted
        if a.action is None and a.key is not None
    )
    already = tuple(
        OrderLine(e.line_no or 0, printable(e.line), printable(e.done))
        for e in report.errors
        if isinstance(e, AlreadyDone)
    )
    errors = tuple(error_line(e) for e in report.errors if not isinstance(e, AlreadyDone))
    return ReplyView(done, kept, errors, already)


# -- the mails -----------------------------------------------------------------------


def subject(tag: str, game: Game | None) -> str:
    """ "[PR-12] round 4": the same for every mail of a round, so that clients which
    thread by subject as well as by References (Gmail) keep a round together; what a
    mail asks is its first line."""
    if game is None:
        return f"[{printable(tag)}]"
    return f"[{printable(tag)}] round {game.state.round}"


def mail_preference_note(every: bool) -> str:
    """What a player is told when he chooses how much mail he wants."""
    if every:
        return (
            "From now on you get a mail at every change of the game "
            '("mail my turns": only your own turns and a summary of each round).'
        )
    return (
        "From now on you get a mail only when it is your turn, and a summary at the end "
        'of each round ("mail every change": a mail at every change again).'
    )


def first_line(seat: SeatView, reply: ReplyView | None = None) -> str:
    """A player's mail's first line (clients show it as the preview): what is asked of
    him, and whether any of his lines was not understood."""
    line = seat.asked
    # (a remark after an order done asks nothing of him)
    errors = [e for e in reply.errors if e.heading is not NotDone.REMARK] if reply else []
    if errors:
        # "(1 line not understood)", "(2 lines not done, 1 asked back)"
        counts = Counter(e.heading for e in errors).items()
        said = [
            f"{plural(n, 'line') if i == 0 else n} {why.value}" for i, (why, n) in enumerate(counts)
        ]
        # ("... (you may order now; 1 line not understood)")
        line = (
            f"{line[:-1]}; {', '.join(said)})"
            if line.endswith(")")
            else f"{line} ({', '.join(said)})"
        )
    return line


class NoteKind(enum.Enum):
    """What was done for a player without an order of his in the mail answered."""

    FORCED = "forced"  # his only choice, made for him
    DEFAULT = "default"  # the published default, at his deadline
    AUTOPILOT = "autopilot"  # the autopilot, at his deadline
    ABSENT = "absent"  # the autopilot, while he is away
    KEPT = "kept"  # an order he kept for later, applied
    DROPPED = "dropped"  # an order he kept for later, dropped
    SAID = "said"  # a sentence worded elsewhere (and notes stored before these kinds)


@dataclass(frozen=True, slots=True)
class Note:
    """One line of a player's mail on what was done for him, worded by note_text:
    ``orders`` the moves as orders; for a kept order applied ``texts`` his words for
    each; for one dropped ``texts`` his words and ``reason`` why; for SAID ``reason`` is
    the whole sentence."""

    kind: NoteKind
    orders: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()
    reason: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "orders": list(self.orders),
            "texts": list(self.texts),
            "reason": self.reason,
        }

    @classmethod
    def from_stored(cls, data: object) -> Note:
        """Inverse of to_dict; a plain string (stored before notes had kinds) is said."""
        if not isinstance(data, dict):
            return cls(NoteKind.SAID, reason=str(data))
        return cls(
            NoteKind(data["kind"]),
            tuple(str(o) for o in data.get("orders", ())),
            tuple(str(t) for t in data.get("texts", ())),
            str(data.get("reason", "")),
        )


_NOTE_HEADS = {
    NoteKind.FORCED: "Your only choice was made for you",
    NoteKind.DEFAULT: "No order came by the deadline, so the default was applied",
    NoteKind.AUTOPILOT: "No order came by the deadline, so the autopilot played",
    NoteKind.ABSENT: "You are away, so the autopilot played for you",
    NoteKind.KEPT: "Your kept order was applied",
}


def note_text(note: Note) -> str:
    """A note as the one line the player reads."""
    texts = [printable(t) for t in note.texts]
    if note.kind is NoteKind.SAID:
        return printable(note.reason)
    if note.kind is NoteKind.DROPPED:
        return f"Your kept order “{''.join(texts)}” was dropped: {printable(note.reason)}."
    items = list(note.orders)
    if note.kind is NoteKind.KEPT:
        items = [f"“{t}” as {o}" for t, o in zip(texts, note.orders, strict=True)]
    return f"{_NOTE_HEADS[note.kind]}: {'; '.join(items)}."


@dataclass(frozen=True, slots=True)
class UpdateMail:
    """A player's mail after a change, or the answer to his mail: his orders (a reply),
    what was done for him (``notes``), what is asked of him now, what happened since his
    last mail, and the board (None: nothing changed). ``copied_from``: the address the
    orders came from, when this is the copy for the seat's own address."""

    kind: ClassVar[str] = "update"
    subject: str
    headline: str
    tag: str
    seat: SeatView
    reply: ReplyView | None
    notes: tuple[str, ...]
    events: tuple[str, ...]
    board: BoardView | None
    copied_from: str | None = None


@dataclass(frozen=True, slots=True)
class BoardMail:
    """The board for an observer (``moderator game show``)."""

    kind: ClassVar[str] = "board"
    subject: str
    tag: str
    board: BoardView
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameStartMail:
    kind: ClassVar[str] = "game_start"
    subject: str
    headline: str
    tag: str
    password: str
    reply_to: str | None
    players: tuple[str, ...]  # in seat order, the first being the governor
    variant: str
    board: BoardView
    seat: SeatView


@dataclass(frozen=True, slots=True)
class GameEndMail:
    """The final scores, with the reader's last orders and news when he has any."""

    kind: ClassVar[str] = "game_end"
    subject: str
    headline: str
    tag: str
    scores: ScoresView
    board: BoardView
    events: tuple[str, ...]
    name: str | None  # the recipient, None: an observer
    seat: int | None
    reply: ReplyView | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReminderMail:
    kind: ClassVar[str] = "reminder"
    subject: str
    headline: str
    tag: str
    left: str  # e.g. "about 6 hours"
    seat: SeatView


@dataclass(frozen=True, slots=True)
class UndoMail:
    kind: ClassVar[str] = "undo"
    subject: str
    headline: str
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
    headline: str
    moderator: str  # the address to write to
    games: tuple[str, ...]  # tags of the active games the sender's address has a seat in


class Refusal(enum.Enum):
    """Why a mail to a game was not accepted as a seat's orders."""

    NO_CREDENTIALS = "neither a signed reply address nor a password"
    BAD_PASSWORD = "a password that is not this seat's"
    OLD_ADDRESS = "a reply address that is no longer valid"


@dataclass(frozen=True, slots=True)
class RefusedMail:
    """A mail to a game that was not accepted. ``signed``: this mail carries the
    seat's signed reply address (it went to the seat's registered address), so a
    plain reply gets in."""

    kind: ClassVar[str] = "refused"
    subject: str
    headline: str
    tag: str
    reason: str
    had_password: bool
    signed: bool


@dataclass(frozen=True, slots=True)
class NoticeMail:
    """A short notice from the moderator: the game is paused, an announcement; with the
    reader's part and the board when the game goes on (``seat``/``board`` None: not)."""

    kind: ClassVar[str] = "notice"
    subject: str
    headline: str
    tag: str
    paragraphs: tuple[str, ...]
    seat: SeatView | None = None
    board: BoardView | None = None


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and the lines under it (a round of the game's history)."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HistoryMail:
    """The answer to "history": the game so far, round by round, one line per event."""

    kind: ClassVar[str] = "history"
    subject: str
    headline: str
    tag: str
    sections: tuple[Section, ...]


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of guide text: words, or an order written as the player writes it."""

    text: str
    code: bool


@dataclass(frozen=True, slots=True)
class HelpBlock:
    """A block of the guide as a mail shows it: a paragraph (``text`` for the plain
    mail, orders in quotes; ``spans`` for HTML), example orders, or a list."""

    text: str = ""
    spans: tuple[Span, ...] = ()
    examples: tuple[Example, ...] = ()
    items: tuple[tuple[str, tuple[Span, ...]], ...] = ()  # (text, spans) per item


@dataclass(frozen=True, slots=True)
class HelpSection:
    title: str | None  # None: the guide's introduction
    blocks: tuple[HelpBlock, ...]


@dataclass(frozen=True, slots=True)
class HelpMail:
    """The answer to "help": the guide to the orders, or its sections on a topic, with
    the mayor's examples written with the reader's own tiles and buildings."""

    kind: ClassVar[str] = "help"
    subject: str
    headline: str
    tag: str
    unknown_topic: str | None  # nothing in the guide mentions it: the whole guide
    sections: tuple[HelpSection, ...]


_CODE = re.compile(r"`([^`]*)`")


def spans(text: str) -> tuple[tuple[Span, ...], str]:
    """Markdown's `code` spans of ``text``, and the text as a plain mail says it (the
    orders in double quotes, as the guide quotes words)."""
    out: list[Span] = []
    pos = 0
    for match in _CODE.finditer(text):
        if match.start() > pos:
            out.append(Span(text[pos : match.start()], False))
        out.append(Span(match[1], True))
        pos = match.end()
    if pos < len(text):
        out.append(Span(text[pos:], False))
    plain = "".join(f'"{s.text}"' if s.code else s.text for s in out)
    return tuple(out), plain


def _help_block(block: Block) -> HelpBlock:
    if block.text is not None:
        parts, plain = spans(block.text)
        return HelpBlock(text=plain, spans=parts)
    if block.examples:
        return HelpBlock(examples=block.examples)
    return HelpBlock(
        items=tuple((plain, parts) for parts, plain in (spans(item) for item in block.items))
    )


def own_mayor_examples(game: Game, seat: int) -> tuple[str, ...]:
    """Colonist orders written with ``seat``'s own tiles and buildings: the orders he
    could send as they are when he is placing colonists now (mayor_examples), else the
    forms of the order with his names."""
    if game.kind() is DecisionKind.MAYOR and ask_of(game, seat) is Ask.DECIDE:
        found = mayor_examples(game, seat)
        if found:
            return found
    p = game.state.players[seat]
    tile = next((g.label for g in GOODS if p.occupied[g]), None)
    tile = tile or next((g.label for g in GOODS if p.plantations[g]), None)
    building = next((b.label for b in sorted(p.buildings)), None)
    if tile is not None and building is not None:
        return (
            f"remove 1 from {tile}",
            f"place 1 on {building}",
            f"move 1 from {tile} to {building}",
        )
    spot = building or tile
    return () if spot is None else (f"place 1 on {spot}",)


def help_mail(game: Game | None, tag: str, topic: str | None, seat: int | None) -> HelpMail:
    """The guide to the orders (``topic``: its sections on it); for a seat of a game,
    the mayor's section also has examples with his own tiles and buildings."""
    guide = help_guide(topic)
    own = () if game is None or seat is None else own_mayor_examples(game, seat)
    sections: list[HelpSection] = []
    for section in guide.sections:
        blocks = [_help_block(b) for b in section.blocks]
        if own and section.title is not None and section.title.lower() == "mayor":
            intro, plain = spans("With your own tiles and buildings, for example:")
            blocks.append(HelpBlock(text=plain, spans=intro))
            blocks.append(HelpBlock(examples=tuple(Example(order) for order in own)))
        sections.append(HelpSection(section.title, tuple(blocks)))
    about = f' on "{printable(topic)}"' if topic and guide.unknown_topic is None else ""
    return HelpMail(
        subject=subject(tag, game),
        headline=f"The guide to the orders{about}.",
        tag=printable(tag),
        unknown_topic=None if guide.unknown_topic is None else printable(guide.unknown_topic),
        sections=tuple(sections),
    )


MailView = (
    UpdateMail
    | BoardMail
    | GameStartMail
    | GameEndMail
    | ReminderMail
    | UndoMail
    | UnknownSenderMail
    | RefusedMail
    | NoticeMail
    | HistoryMail
    | HelpMail
)


@dataclass(frozen=True, slots=True)
class PublicView:
    """What every seat's mail after a change shows alike: the board and what happened.
    Built once per change and shared by the seats' mails (`public_view`)."""

    board: BoardView
    events: tuple[str, ...]


def public_view(
    game: Game, events: Sequence[Event] = (), absences: Mapping[int, Absence] | None = None
) -> PublicView:
    """The board of ``game`` now and ``events`` as sentences (``absences``: the players
    away, by seat)."""
    return PublicView(
        board_view(game, absences), events_view(events, game.names, game.ship_capacities)
    )


def update_mail(
    game: Game,
    tag: str,
    seat: int,
    *,
    board: BoardView | None,
    events: Sequence[str] = (),
    reply: Report | ReplyView | None = None,
    notes: Sequence[Note] = (),
    deadline: datetime | None = None,
    time_zone: str = "UTC",
    kept: Sequence[QueuedOrder] = (),
    at_deadline: str | None = None,
    standing: Sequence[str] = (),
    copied_from: str | None = None,
    summary: int | None = None,
) -> UpdateMail:
    """``seat``'s mail now (call it after applying): ``reply`` when it answers his mail,
    ``events`` what happened since his last mail (sentences, see public_view),
    ``board`` the board when it changed (None: a short answer without it); ``summary``:
    the round this mail sums up, for a seat that wants only its turns and summaries."""
    view = seat_view(
        game,
        seat,
        deadline=deadline,
        time_zone=time_zone,
        kept=kept,
        at_deadline=at_deadline,
        standing=standing,
    )
    answer = reply if reply is None or isinstance(reply, ReplyView) else reply_view(reply)
    return UpdateMail(
        subject=subject(tag, game),
        headline=("" if summary is None else f"Round {summary} is over. ")
        + first_line(view, answer),
        tag=printable(tag),
        seat=view,
        reply=answer,
        notes=tuple(note_text(n) for n in notes),
        events=tuple(events),
        board=board,
        copied_from=None if copied_from is None else printable(copied_from),
    )


def board_mail(game: Game, tag: str, events: Sequence[Event] = ()) -> BoardMail:
    """The board for an observer, with what happened."""
    shared = public_view(game, events)
    return BoardMail(subject(tag, game), printable(tag), shared.board, shared.events)


def game_start_mail(
    game: Game,
    tag: str,
    seat: int,
    password: str,
    *,
    reply_to: str | None = None,
    deadline: datetime | None = None,
    time_zone: str = "UTC",
    at_deadline: str | None = None,
    standing: Sequence[str] = (),
) -> GameStartMail:
    """The first mail to a seat: the players, his password, how to order and reply."""
    view = seat_view(
        game,
        seat,
        deadline=deadline,
        time_zone=time_zone,
        at_deadline=at_deadline,
        standing=standing,
    )
    return GameStartMail(
        subject=subject(tag, game),
        headline=f"{printable(tag)} begins. {first_line(view)}",
        tag=printable(tag),
        password=printable(password),
        reply_to=printable(reply_to) if reply_to is not None else None,
        players=names_of(game),
        variant=game.state.variant,
        board=board_view(game),
        seat=view,
    )


def game_end_mail(
    game: Game,
    tag: str,
    seat: int | None,
    events: Sequence[str] = (),
    *,
    board: BoardView | None = None,
    reply: Report | ReplyView | None = None,
    notes: Sequence[Note] = (),
) -> GameEndMail:
    """The final scores with the breakdown, and the final board."""
    scores = scores_view(game)
    answer = reply if reply is None or isinstance(reply, ReplyView) else reply_view(reply)
    return GameEndMail(
        subject=subject(tag, game),
        headline=f"Game over: {scores.verdict}",
        tag=printable(tag),
        scores=scores,
        board=board or board_view(game),
        events=tuple(events),
        name=names_of(game)[seat] if seat is not None else None,
        seat=seat,
        reply=answer,
        notes=tuple(note_text(n) for n in notes),
    )


def time_left(now: datetime, deadline: datetime) -> str:
    """Roughly how long until ``deadline``: "about 6 hours", "less than an hour"."""
    left = deadline - now
    if left <= timedelta(0):
        return "no time"
    hours = left.total_seconds() / 3600
    if hours < 1:
        minutes = max(1, round(left.total_seconds() / 60))
        return f"about {plural(minutes, 'minute')}"
    if hours < 48:
        return f"about {plural(round(hours), 'hour')}"
    return f"about {plural(round(hours / 24), 'day')}"


def reminder_mail(
    game: Game,
    tag: str,
    seat: int,
    *,
    now: datetime,
    deadline: datetime,
    time_zone: str = "UTC",
    kept: Sequence[QueuedOrder] = (),
    at_deadline: str | None = None,
    standing: Sequence[str] = (),
) -> ReminderMail:
    """The deadline is near and ``seat`` has not decided."""
    view = seat_view(
        game,
        seat,
        deadline=deadline,
        time_zone=time_zone,
        kept=kept,
        at_deadline=at_deadline,
        standing=standing,
    )
    left = time_left(now, deadline)
    return ReminderMail(
        subject=subject(tag, game),
        headline=f"Reminder, {left} left. {first_line(view)}",
        tag=printable(tag),
        left=left,
        seat=view,
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
    at_deadline: str | None = None,
    standing: Sequence[str] = (),
) -> UndoMail:
    """A moderator took moves back: the reason, what was undone, the board now. Call it
    with the game after the undo; ``undone`` are the events of the moves taken back."""
    view = (
        None
        if seat is None
        else seat_view(
            game,
            seat,
            deadline=deadline,
            time_zone=time_zone,
            at_deadline=at_deadline,
            standing=standing,
        )
    )
    return UndoMail(
        subject=subject(tag, game),
        headline="Moves taken back." + ("" if view is None else f" {first_line(view)}"),
        tag=printable(tag),
        reason=printable(reason),
        by=printable(by),
        undone=events_view(undone, game.names, game.ship_capacities),
        board=board_view(game),
        seat=view,
    )


def unknown_sender_mail(moderator: str, games: Sequence[str] = ()) -> UnknownSenderMail:
    """One short explanation to a sender whose mail names no game (at most one a day);
    ``games``: the games his address plays in, if any."""
    return UnknownSenderMail(
        subject="Puerto Rico moderator: your mail was not read",
        headline="Your mail was not read: it named no game.",
        moderator=printable(moderator),
        games=tuple(printable(g) for g in games),
    )


def refused_mail(
    game: Game | None, tag: str, refusal: Refusal, *, had_password: bool, signed: bool
) -> RefusedMail:
    """The answer to a mail that did not prove its seat: what was missing, and how to
    get in (a plain reply, when ``signed``)."""
    how = "reply to this mail" if signed else "add your password"
    return RefusedMail(
        subject=subject(tag, game),
        headline=f"Your mail to {printable(tag)} was not accepted: {how}.",
        tag=printable(tag),
        reason=refusal.value,
        had_password=had_password,
        signed=signed,
    )


def notice_mail(
    game: Game | None,
    tag: str,
    title: str,
    paragraphs: Sequence[str],
    *,
    seat: int | None = None,
    deadline: datetime | None = None,
    time_zone: str = "UTC",
    at_deadline: str | None = None,
    standing: Sequence[str] = (),
    with_board: bool = False,
) -> NoticeMail:
    """A notice (``title`` is its first line), with the reader's part and the board
    when ``seat`` is given and ``with_board``."""
    view = (
        None
        if seat is None or game is None
        else seat_view(
            game,
            seat,
            deadline=deadline,
            time_zone=time_zone,
            at_deadline=at_deadline,
            standing=standing,
        )
    )
    return NoticeMail(
        subject=subject(tag, game),
        headline=printable(title) + ("" if view is None else f" {first_line(view)}"),
        tag=printable(tag),
        paragraphs=tuple(printable(p) for p in paragraphs),
        seat=view,
        board=board_view(game) if with_board and game is not None else None,
    )


def history_mail(game: Game | None, tag: str, lines: Sequence[str]) -> HistoryMail:
    """The game's log (``Moderator.history``: a heading for each round at the margin,
    what happened in it indented under it) as sections."""
    sections: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith(" ") and sections:
            sections[-1][1].append(printable(line.strip()))
        elif line.strip():
            sections.append((printable(line.strip()), []))
    events = sum(len(items) for _, items in sections)
    return HistoryMail(
        subject=subject(tag, game),
        headline=f"The game so far: {plural(events, 'event')}.",
        tag=printable(tag),
        sections=tuple(Section(title, tuple(items)) for title, items in sections),
    )


__all__ = [
    "PHASE_LABELS",
    "PROMPTS",
    "WAITS_FOR_YOU",
    "Absence",
    "Ask",
    "BoardMail",
    "BoardView",
    "BuildingView",
    "ErrorLine",
    "Fact",
    "GameEndMail",
    "GameStartMail",
    "GoodCount",
    "HelpBlock",
    "HelpMail",
    "HelpSection",
    "HistoryMail",
    "LayoutTile",
    "MailView",
    "MayorView",
    "Note",
    "NoteKind",
    "NoticeMail",
    "OrderLine",
    "PlayerView",
    "Prompt",
    "PublicView",
    "Refusal",
    "RefusedMail",
    "ReminderMail",
    "ReplyView",
    "RoleView",
    "ScoreRow",
    "ScoresView",
    "SeatView",
    "Section",
    "ShipView",
    "Span",
    "SupplyBuilding",
    "TileView",
    "UndoMail",
    "UnknownSenderMail",
    "UpdateMail",
    "absence_parts",
    "absence_text",
    "and_list",
    "ask_of",
    "asked_line",
    "board_mail",
    "board_view",
    "error_line",
    "events_view",
    "first_line",
    "format_deadline",
    "game_end_mail",
    "game_start_mail",
    "goods_text",
    "help_mail",
    "history_mail",
    "mail_preference_note",
    "note_text",
    "notice_mail",
    "outcome_text",
    "own_mayor_examples",
    "plural",
    "printable",
    "public_view",
    "published_outcome",
    "refused_mail",
    "reminder_mail",
    "reply_view",
    "scores_view",
    "seat_view",
    "ship_label",
    "spans",
    "standing_lines",
    "subject",
    "time_left",
    "undo_mail",
    "unknown_sender_mail",
    "update_mail",
]
