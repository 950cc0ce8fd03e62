"""Sample mails of every kind a player can receive, from fixed seeded positions.

Shared by the render tests (golden files, 72 columns, escaping) and the browser test
(tests/test_mail_browser.py). The policy that plays the positions depends only on the
legal actions and the published defaults, not on the bots, which may be retuned.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from moderator.engine import Build, Game, Phase, PickRole, Role, Sell, TakePlantation
from moderator.engine.actions import Action, DecisionKind
from moderator.engine.defaults import default_action
from moderator.engine.events import Event
from moderator.orders import check_mail
from moderator.render import (
    Ask,
    Refusal,
    board_mail,
    board_view,
    events_view,
    game_end_mail,
    game_start_mail,
    help_mail,
    history_mail,
    notice_mail,
    public_view,
    refused_mail,
    reminder_mail,
    undo_mail,
    unknown_sender_mail,
    update_mail,
)
from moderator.render.views import MailView, Note, NoteKind, ask_of

NAMES = ("Anna", "Bob", "Chris", "David")
SEED = 2026
TAG = "PR-12"
DEADLINE = datetime(2026, 4, 14, 16, 0, tzinfo=UTC)
NOW = datetime(2026, 4, 14, 10, 0, tzinfo=UTC)
ROLE_PREFERENCE = (
    Role.CAPTAIN,
    Role.BUILDER,
    Role.TRADER,
    Role.CRAFTSMAN,
    Role.SETTLER,
    Role.MAYOR,
    Role.PROSPECTOR,
    Role.PROSPECTOR2,
)


def choose(game: Game, seat: int) -> Action:
    """A fixed, simple policy that depends only on the legal actions and the published
    defaults (not on the bots, which may be retuned): roles in a turning order, the
    dearest building, the dearest sale, the first tile, otherwise the default."""
    legal = list(game.legal_actions(seat))
    kind = game.kind()
    if kind is DecisionKind.ROLE:
        picks = [a for a in legal if isinstance(a, PickRole)]
        turn = game.state.round + seat
        return min(picks, key=lambda a: (ROLE_PREFERENCE.index(a.role) - turn) % 8)
    if kind is DecisionKind.BUILD:
        builds = [a for a in legal if isinstance(a, Build)]
        if builds:
            return max(builds, key=lambda a: (a.building.info.price, -int(a.building)))
    if kind is DecisionKind.SELL:
        sales = [a for a in legal if isinstance(a, Sell)]
        if sales:
            return max(sales, key=lambda a: int(a.good))
    if kind is DecisionKind.SETTLE:
        tiles = [a for a in legal if isinstance(a, TakePlantation)]
        if tiles:
            return tiles[0]
    return default_action(game, seat) or legal[0]


def play_until(game: Game, stop: Callable[[Game], bool]) -> list[Event]:
    """Play the policy until ``stop``; returns the events of the last move."""
    events: list[Event] = []
    for _ in range(20_000):
        if game.over or stop(game):
            return events
        seat = game.deciding()[0]
        events = game.apply(seat, choose(game, seat))
    raise AssertionError("the sample game does not end")


def captain_position() -> tuple[Game, list[Event]]:
    game = Game.new(NAMES, SEED)
    events = play_until(
        game,
        lambda g: (
            g.state.round >= 4
            and g.state.phase is Phase.CAPTAIN
            and any(ship.count for ship in g.state.ships)
        ),
    )
    return game, events


def mayor_position() -> Game:
    game = Game.new(NAMES, SEED)
    play_until(game, lambda g: g.state.round >= 3 and g.state.phase is Phase.MAYOR)
    return game


def sample_mails() -> dict[str, MailView]:
    """One view-model per mail a player can receive (and per variant worth a look), from
    fixed seeded positions."""
    mails: dict[str, MailView] = {}
    game, events = captain_position()
    public = public_view(game, events)
    seat = game.deciding()[0]
    mails["update_your_turn"] = update_mail(
        game,
        TAG,
        seat,
        board=public.board,
        events=public.events,
        notes=[Note(NoteKind.FORCED, ("ship 2 corn on 6",))],
        deadline=DEADLINE,
        time_zone="Europe/Berlin",
    )
    builder = Game.new(NAMES, SEED)
    built = play_until(builder, lambda g: g.state.round >= 2 and g.state.phase is Phase.BUILDER)
    waiting = next(i for i in range(builder.state.n) if ask_of(builder, i) is Ask.WAIT)
    mails["update_waiting"] = update_mail(
        builder,
        TAG,
        waiting,
        board=board_view(builder),
        events=events_view(built, builder.names, builder.ship_capacities),
        deadline=DEADLINE,
        time_zone="America/New_York",
    )
    bad = check_mail("ship banana on 9\nbuild market\nship 12 corn", game, seat)
    mails["update_not_understood"] = update_mail(
        game, TAG, seat, board=None, reply=bad, deadline=DEADLINE, time_zone="Asia/Tokyo"
    )
    undo_game = game.copy()
    report = check_mail("ship\nsell coffee\nrole builder", game, seat)
    after = [e for action in report.actions for e in game.apply(seat, action)]
    shown = public_view(game, after)
    mails["update_reply"] = update_mail(
        game,
        TAG,
        seat,
        board=shown.board,
        events=shown.events,
        reply=report,
        deadline=DEADLINE,
        time_zone="Europe/Berlin",
    )
    ahead = next(i for i in range(game.state.n) if ask_of(game, i) is Ask.AHEAD)
    mails["update_ahead"] = update_mail(game, TAG, ahead, board=shown.board, events=shown.events)
    mails["undo"] = undo_mail(
        undo_game,
        TAG,
        seat,
        reason="Chris's mail was read twice after a server restart.",
        by="the moderator",
        undone=events,
        deadline=DEADLINE,
        time_zone="Europe/London",
    )
    mayor = mayor_position()
    mseat = mayor.deciding()[0]
    mails["update_mayor"] = update_mail(
        mayor, TAG, mseat, board=board_view(mayor), deadline=DEADLINE, time_zone="Europe/Paris"
    )
    mails["reminder"] = reminder_mail(
        mayor, TAG, mseat, now=NOW, deadline=DEADLINE, time_zone="Australia/Sydney"
    )
    fresh = Game.new(NAMES, SEED)
    mails["game_start"] = game_start_mail(
        fresh,
        TAG,
        0,
        "tapir-lemon-42",
        reply_to="moderator+pr12.s0.x7k2@example.org",
        deadline=DEADLINE,
        time_zone="Europe/Paris",
    )
    end = Game.new(NAMES, SEED)
    last = play_until(end, lambda g: False)
    mails["game_end"] = game_end_mail(
        end, TAG, 1, events_view(last, end.names, end.ship_capacities)
    )
    mails["board"] = board_mail(game, TAG, after)
    mails["unknown_sender"] = unknown_sender_mail("moderator@example.org", ["PR-3", "PR-12"])
    mails["refused_signed"] = refused_mail(
        game, TAG, Refusal.NO_CREDENTIALS, had_password=False, signed=True
    )
    mails["refused_unsigned"] = refused_mail(
        game, TAG, Refusal.BAD_PASSWORD, had_password=True, signed=False
    )
    mails["notice_paused"] = notice_mail(
        game, TAG, f"{TAG} is paused by the moderator.", ["Reason: a player is ill."]
    )
    mails["notice_resumed"] = notice_mail(
        game,
        TAG,
        f"{TAG} is resumed by the moderator.",
        [],
        seat=seat,
        deadline=DEADLINE,
        with_board=True,
    )
    log = [
        f"Round {game.state.round}",
        *(f"  {e}" for e in events_view(events, game.names, game.ship_capacities)),
    ]
    mails["history"] = history_mail(game, TAG, log)
    mails["help"] = help_mail(mayor, TAG, None, mseat)
    mails["help_topic"] = help_mail(game, TAG, "ship", seat)
    return mails


KINDS = (
    "update_your_turn",
    "update_waiting",
    "update_not_understood",
    "update_reply",
    "update_ahead",
    "update_mayor",
    "board",
    "game_start",
    "game_end",
    "reminder",
    "undo",
    "unknown_sender",
    "refused_signed",
    "refused_unsigned",
    "notice_paused",
    "notice_resumed",
    "history",
    "help",
    "help_topic",
)
