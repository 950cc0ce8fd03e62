"""Phases run all at once, as the seeds describe: orders may arrive in any order."""

from __future__ import annotations

import itertools
import json

import pytest
from conftest import PLAYERS
from letters import latest_reply_to, letter, outbox, text_of
from positions import CORN, INDIGO, SUGAR, blank, goods, plant, ready, ship
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.config import Config
from moderator.engine import Game
from moderator.service.admin import Admin
from moderator.service.core import Moderator
from moderator.store import models as m

FIVE, SIX, SEVEN = 0, 1, 2


def seed_000_position() -> str:
    """Seed 000's captain example: Anna (captain) 2 corn 6 sugar, Bob 2 sugar 3 tobacco,
    Chris 2 corn 1 tobacco, David 1 corn 5 indigo; 3 corn on the 6-ship."""
    game = blank(4)
    s = game.state
    for seat, barrels in enumerate(
        [
            {"corn": 2, "sugar": 6},
            {"sugar": 2, "tobacco": 3},
            {"corn": 2, "tobacco": 1},
            {"corn": 1, "indigo": 5},
        ]
    ):
        goods(s, seat, **barrels)
    ship(s, SIX, CORN, 3)
    return ready(game).to_json()


def trader_position() -> str:
    """Four players with something to sell; Anna is about to pick."""
    game = blank(4)
    s = game.state
    for seat, barrels in enumerate(
        [{"coffee": 1}, {"coffee": 1, "sugar": 1}, {"corn": 1}, {"indigo": 1}]
    ):
        goods(s, seat, **barrels)
    return ready(game).to_json()


def play(
    factory: sessionmaker[Session], config: Config, position: str, orders: list[tuple[int, str]]
) -> tuple[dict[str, object], list[str]]:
    """Start a game at ``position``, deliver the orders in the given sequence; return the
    final state and the log."""
    moderator = Moderator(config, factory)
    tag, _ = Admin(moderator).new_game(PLAYERS, seed=1, position=position)
    for seat, body in orders:
        address = PLAYERS[seat].address
        raw = letter(address, latest_reply_to(factory, address), body)
        moderator.ingest(raw, source=m.MessageSource.PIPE)
        moderator.process_all()
    with factory.begin() as session:
        row = session.scalar(select(m.Game).where(m.Game.tag == tag))
        assert row is not None and row.snapshot is not None
        log = [
            a.action_json
            for a in session.scalars(
                select(m.Action).where(m.Action.game_id == row.id).order_by(m.Action.seq)
            )
        ]
        data = json.loads(row.snapshot.state_json)
        assert isinstance(data, dict)
        return data, log


CAPTAIN_ORDERS = [(0, "role captain\nship sugar"), (1, "ship sugar"), (2, "ship tobacco")]


@pytest.mark.parametrize("arrival", list(itertools.permutations(range(3)))[:4])
def test_seed_000_loading_in_any_arrival_order(
    session_factory: sessionmaker[Session], config: Config, arrival: tuple[int, ...]
) -> None:
    """Seed 000: "Goods will be shipped automatically if players have no options" and
    everyone may send loading orders at once; the result is the example's."""
    orders = [CAPTAIN_ORDERS[i] for i in arrival]
    final, log = play(session_factory, config, seed_000_position(), orders)
    players = final["players"]
    assert isinstance(players, list)
    assert [p["vp"] for p in players] == [9, 4, 1, 1]
    assert final["phase"] == "role"  # the phase finished by itself (loading and storage)
    expected, expected_log = play(session_factory, config, seed_000_position(), CAPTAIN_ORDERS)
    assert final["players"] == expected["players"] and log == expected_log


def test_seed_000_a_player_passed_over_when_his_options_vanish(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    """Only Anna and Bob write; Chris's and David's loads are forced and applied."""
    final, _ = play(session_factory, config, seed_000_position(), CAPTAIN_ORDERS[:1])
    # Without orders from Bob the game waits for him (he has a real choice).
    assert final["phase"] == "captain" and final["turn"] == 1


TRADER_ORDERS = [
    (0, "role trader\nsell coffee"),
    (1, "sell coffee or sugar"),
    (2, "sell corn"),
    (3, "sell indigo"),
]


@pytest.mark.parametrize("arrival", [(0, 1, 2, 3), (3, 2, 1, 0), (2, 0, 3, 1)])
def test_trader_orders_resolve_in_seat_order_whatever_the_arrival(
    session_factory: sessionmaker[Session], config: Config, arrival: tuple[int, ...]
) -> None:
    """Seed 001: "All players who might be able to trade goods will be given the
    opportunity to submit orders"; sales resolve in seat order from the trader."""
    orders = [TRADER_ORDERS[i] for i in arrival]
    final, log = play(session_factory, config, trader_position(), orders)
    expected, expected_log = play(session_factory, config, trader_position(), TRADER_ORDERS)
    assert log == expected_log
    assert final["players"] == expected["players"]
    players = final["players"]
    assert isinstance(players, list)
    # Anna coffee 4+1, Bob sugar 2 (coffee was taken), Chris corn 0, David indigo 1.
    assert [p["doubloons"] for p in players] == [3 + 5, 3 + 2, 3, 3 + 1]
    assert final["phase"] == "role"  # the house filled: the game moved on


def test_everyone_who_might_sell_is_asked_in_the_same_round_of_mails(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator = Moderator(config, session_factory)
    Admin(moderator).new_game(PLAYERS, seed=1, position=trader_position())
    raw = letter(
        "anna@example.test", latest_reply_to(session_factory, "anna@example.test"), "role trader"
    )
    moderator.ingest(raw, source=m.MessageSource.PIPE)
    moderator.process_all()
    boards = [mail for mail in outbox(session_factory)[4:] if "board" not in str(mail["Subject"])]
    asked = {str(mail["To"]) for mail in boards if "sell" in text_of(mail)}
    assert asked == {p.address for p in PLAYERS}


def test_mayor_layouts_accepted_in_any_order(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    """Seed 002: every player places at the same time."""
    game = Game.new([p.name for p in PLAYERS], 5)
    # A second plantation each, so every player has a real choice to send.
    for seat, good in enumerate([CORN, CORN, SUGAR, INDIGO]):
        plant(game.state, seat, good)
    position = ready(game).to_json()
    orders = [
        (0, "role mayor\nplace 1 on indigo, 1 on corn"),  # with the extra colonist
        (1, "place 1 on indigo"),
        (2, "place 1 on corn"),
        (3, "place 1 on corn"),
    ]
    final_a, log_a = play(session_factory, config, position, orders)
    final_b, log_b = play(session_factory, config, position, [orders[0], *reversed(orders[1:])])
    assert final_a["players"] == final_b["players"]
    assert sorted(log_a) == sorted(log_b) and log_a != log_b  # applied as they came
    assert final_a["phase"] == "role"
    players = final_a["players"]
    assert isinstance(players, list)
    assert [p["san_juan"] for p in players] == [0, 0, 0, 0]
    assert players[0]["island"]["corn"] == [1, 1] and players[0]["island"]["indigo"] == [1, 1]
