"""The trader (seed 001 and rules-reference, "Roles": Trader)."""

from __future__ import annotations

import pytest
from positions import (
    COFFEE,
    CORN,
    INDIGO,
    SUGAR,
    TOBACCO,
    blank,
    goods,
    pick,
    ready,
    trading_house,
)

from moderator.engine import PASS, Game, Good, IllegalAction, Phase, Role, Sell
from moderator.engine.events import Sold, TradingHouseEmptied


def trader_game(**barrels: int) -> Game:
    """Every player holds the given barrels; Anna is to pick."""
    game = blank(4, doubloons=0)
    for seat in range(4):
        goods(game.state, seat, **barrels)
    return ready(game)


@pytest.mark.parametrize(
    ("good", "price"), [(CORN, 0), (INDIGO, 1), (SUGAR, 2), (TOBACCO, 3), (COFFEE, 4)]
)
def test_trading_house_prices(good: Good, price: int) -> None:
    """Seed 001: "He takes from the bank the price associated with the good he sold
    (corn 0, indigo 1, sugar 2, tobacco 3, coffee 4)"."""
    game = trader_game(**{good.label: 1})
    pick(game, Role.TRADER)
    game.apply(0, PASS)
    events = game.apply(1, Sell(good))
    assert Sold(1, good, price) in events
    assert game.state.players[1].doubloons == price


def test_trader_earns_one_extra_doubloon_when_he_sells() -> None:
    """Seed 001: "plus 1 doubloon as his privilege"."""
    game = trader_game(sugar=1)
    pick(game, Role.TRADER)
    game.apply(0, Sell(SUGAR))
    assert game.state.players[0].doubloons == 2 + 1


def test_trader_who_does_not_sell_gets_no_privilege() -> None:
    """Seed 001: "If the trader does not sell, he does not collect the extra doubloon
    (privilege)"."""
    game = trader_game(sugar=1)
    pick(game, Role.TRADER)
    game.apply(0, PASS)
    assert game.state.players[0].doubloons == 0


def test_corn_may_be_sold_for_nothing() -> None:
    """Seed 001: "A player may sell corn to the trading house even though he earns no
    money for doing so" (the trader still gets his privilege doubloon)."""
    game = trader_game(corn=1)
    pick(game, Role.TRADER)
    events = game.apply(0, Sell(CORN))
    assert Sold(0, CORN, 0 + 1) in events
    assert game.state.trading_house == [CORN]


def test_each_player_sells_at_most_one_good() -> None:
    """Seed 001: "Each player may, at most, sell 1 good to the trading house"."""
    game = trader_game(sugar=1, coffee=1)
    pick(game, Role.TRADER)
    game.apply(0, Sell(COFFEE))
    assert game.deciding() == (1,)
    assert game.state.players[0].goods == [0, 0, 1, 0, 0]


def test_players_sell_in_clockwise_order_from_the_trader() -> None:
    """Seed 001: "Then, in clockwise order from the trader, each other player may sell
    one good"."""
    game = blank(4, doubloons=0)
    for seat, name in enumerate(("corn", "indigo", "sugar", "tobacco")):
        goods(game.state, seat, **{name: 1})
    game.state.governor = game.state.turn = 2
    game = ready(game)
    pick(game, Role.TRADER)
    order = []
    for good in (SUGAR, TOBACCO, CORN, INDIGO):
        (seat,) = game.deciding()
        order.append(seat)
        game.apply(seat, Sell(good))
    assert order == [2, 3, 0, 1]


def test_trading_house_buys_only_different_kinds() -> None:
    """Seed 001: "The trading house buys only different kinds of goods (exception:
    office)"."""
    game = trader_game(sugar=1, indigo=1)
    pick(game, Role.TRADER)
    game.apply(0, Sell(SUGAR))
    assert set(game.legal_actions(1)) == {Sell(INDIGO), PASS}
    with pytest.raises(IllegalAction):
        game.apply(1, Sell(SUGAR))


def test_a_kind_left_in_the_trading_house_blocks_it_in_the_next_phase() -> None:
    """Seed 001: "If there are fewer than four goods in the trading house, they remain
    there. It will be more difficult to sell goods in the next trader phase"."""
    game = trader_game(sugar=1)
    trading_house(game.state, SUGAR, CORN)
    game = ready(game)
    events = pick(game, Role.TRADER)
    assert game.state.phase is Phase.ROLE  # nobody could sell
    assert game.state.trading_house == [SUGAR, CORN]
    assert not any(isinstance(e, TradingHouseEmptied) for e in events)


def test_no_sales_once_the_trading_house_is_full() -> None:
    """Seed 001: "The trading house has room for just four goods. When it is full, no
    other players may sell goods in this trader phase"."""
    game = blank(4, doubloons=0)
    trading_house(game.state, CORN, INDIGO, SUGAR)
    goods(game.state, 0, tobacco=1)
    goods(game.state, 1, coffee=1)
    game = ready(game)
    pick(game, Role.TRADER)
    events = game.apply(0, Sell(TOBACCO))
    assert game.state.phase is Phase.ROLE  # Bob never got a turn
    assert game.state.players[1].goods[COFFEE] == 1
    assert TradingHouseEmptied((CORN, INDIGO, SUGAR, TOBACCO)) in events


def test_trader_empties_the_trading_house_only_when_full() -> None:
    """Seed 001: "As his last duty, the trader empties the trading house if it is full
    with four goods, placing them in their respective separate supply piles"."""
    game = blank(4, doubloons=0)
    for seat, name in enumerate(("corn", "indigo", "sugar", "tobacco")):
        goods(game.state, seat, **{name: 1})
    game = ready(game)
    supply = game.state.goods_supply[:]
    pick(game, Role.TRADER)
    for seat, good in enumerate((CORN, INDIGO, SUGAR, TOBACCO)):
        game.apply(seat, Sell(good))
    assert game.state.trading_house == []
    assert game.state.goods_supply == [n + 1 for n in supply[:4]] + [supply[4]]


def test_a_player_with_nothing_to_sell_is_skipped() -> None:
    """Seed 001: "All players who might be able to trade goods will be given the
    opportunity to submit orders" — only they."""
    game = blank(4, doubloons=0)
    goods(game.state, 2, sugar=1)
    game = ready(game)
    pick(game, Role.TRADER)
    assert game.deciding() == (2,)
