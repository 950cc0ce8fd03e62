"""Orders to actions with the moderator's defaults, on the seeds' own examples."""

from __future__ import annotations

import pytest
from engine.positions import (
    COFFEE,
    CORN,
    INDIGO,
    SUGAR,
    TOBACCO,
    blank,
    build,
    face_up,
    goods,
    pick,
    plant,
    quarry,
    ready,
    ship,
    trading_house,
)

from moderator.engine import Game
from moderator.engine.actions import (
    PASS,
    Action,
    Build,
    ExtraGood,
    Layout,
    Load,
    LoadWharf,
    PickRole,
    PlaceColonists,
    Sell,
    Store,
    TakePlantation,
    TakeQuarry,
    UseHacienda,
)
from moderator.engine.components import Building, Role
from moderator.engine.defaults import default_action
from moderator.orders import (
    AmbiguousOrder,
    IllegalOrder,
    OrderError,
    check_mail,
    format_action,
    is_service,
    legal_orders,
    parse_text,
    resolve,
)


def order(text: str, game: Game, seat: int) -> Action:
    (command,) = parse_text(text)
    assert not is_service(command)
    return resolve(command, game, seat)


def rejected(text: str, game: Game, seat: int) -> OrderError:
    with pytest.raises(OrderError) as info:
        order(text, game, seat)
    return info.value


# -- the captain: seed 000's example ------------------------------------------------


def seed_000() -> Game:
    """Seed 000: "Anna is captain … She has 2 corn and 6 sugar. The 5 space ship and the
    7 space ship are empty, and there are 3 corn on the 6 space ship." Bob has 2 sugar
    and 3 tobacco, Chris 2 corn and 1 tobacco, David 1 corn and 5 indigo."""
    game = blank(4)
    s = game.state
    goods(s, 0, corn=2, sugar=6)
    goods(s, 1, sugar=2, tobacco=3)
    goods(s, 2, corn=2, tobacco=1)
    goods(s, 3, corn=1, indigo=5)
    ship(s, 1, CORN, 3)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    return game


def test_seed_000_anna_ships_her_sugar_on_the_7_ship() -> None:
    """ "She chooses the sugar and loads her 6 sugar barrels on the 7 space ship (she may
    not choose the 5 space ship as she could not load all 6 sugar)." """
    game = seed_000()
    assert order("ship 6 sugar on 7", game, 0) == Load(SUGAR, 2)
    assert order("ship sugar", game, 0) == Load(SUGAR, 2)
    err = rejected("ship sugar on 5", game, 0)
    assert "ship of 5" in err.reason
    err = rejected("ship 5 sugar", game, 0)
    assert "would load 6 sugar, not 5" in err.reason


def test_seed_000_no_goods_named_ships_the_greatest_quantity() -> None:
    """ "If no goods are specified, the greatest quantity will be shipped first" — Anna's
    6 sugar before her 2 corn; Bob's 3 tobacco before the 1 sugar that still fits."""
    game = seed_000()
    assert order("ship", game, 0) == Load(SUGAR, 2)
    assert order("ship", game, 0) == default_action(game, 0)
    game.apply(0, Load(SUGAR, 2))
    assert order("ship sugar", game, 1) == Load(SUGAR, 2)  # one barrel fills the 7 ship
    assert order("ship", game, 1) == Load(TOBACCO, 0)
    assert order("ship tobacco on 5", game, 1) == Load(TOBACCO, 0)


def test_seed_000_david_has_no_place_for_his_indigo() -> None:
    """ "He must load the corn on the 6 space ship as he has no place for his indigo." """
    game = seed_000()
    game.apply(0, Load(SUGAR, 2))
    game.apply(1, Load(SUGAR, 2))
    game.apply(2, Load(TOBACCO, 0))
    err = rejected("ship indigo", game, 3)
    assert "no cargo ship can take your indigo" in err.reason
    assert isinstance(err, IllegalOrder)
    assert order("ship corn", game, 3) == Load(CORN, 1)
    assert legal_orders(game, 3) == ["ship corn on 6"]


def test_ties_go_to_the_lowest_value_and_the_smallest_ship() -> None:
    game = blank(4)
    s = game.state
    goods(s, 0, coffee=3, corn=3)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert order("ship", game, 0) == Load(CORN, 0)
    assert order("ship coffee", game, 0) == Load(COFFEE, 0)
    assert order("ship coffee on 7", game, 0) == Load(COFFEE, 2)


def test_orders_for_another_players_turn_are_refused_by_resolve() -> None:
    game = seed_000()
    err = rejected("ship corn", game, 1)
    assert "nothing to decide" in err.reason


def test_the_wharf_only_when_ordered() -> None:
    game = blank(4)
    s = game.state
    build(s, 0, Building.WHARF, 1)
    goods(s, 0, coffee=2, indigo=4)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert order("ship", game, 0) == Load(INDIGO, 0)
    assert order("wharf coffee", game, 0) == LoadWharf(COFFEE)
    assert order("ship coffee on wharf", game, 0) == LoadWharf(COFFEE)
    assert order("wharf", game, 0) == LoadWharf(INDIGO)


def test_keep_in_order_of_preference() -> None:
    game = blank(4)
    s = game.state
    build(s, 1, Building.SMALL_WAREHOUSE, 1)
    goods(s, 0, corn=1)
    goods(s, 1, coffee=1, sugar=3, indigo=2)
    for i in range(3):
        ship(s, i, (TOBACCO, CORN, INDIGO)[i], 1)
    s.ships[0].count = s.ships[0].capacity  # no room anywhere for Bob
    s.ships[1].count = s.ships[1].capacity
    s.ships[2].count = s.ships[2].capacity
    s.goods_supply[TOBACCO] -= s.ships[0].capacity - 1
    s.goods_supply[CORN] -= s.ships[1].capacity - 1
    s.goods_supply[INDIGO] -= s.ships[2].capacity - 1
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.kind() is not None and game.kind().value == "store"
    assert order("keep", game, 1) == Store((COFFEE,), SUGAR)  # highest value
    assert order("keep sugar", game, 1) == Store((SUGAR,), COFFEE)
    assert order("keep indigo, sugar", game, 1) == Store((INDIGO,), SUGAR)
    assert order("keep 1 indigo on wind rose", game, 1) == Store((COFFEE,), INDIGO)
    assert order("keep sugar in warehouse, 1 indigo on wind rose", game, 1) == Store(
        (SUGAR,), INDIGO
    )
    assert "no tobacco" in rejected("keep tobacco", game, 1).reason
    # Not as written: asked back with the ways to keep both, never something close.
    err = rejected("keep sugar in warehouse, coffee in warehouse", game, 1)
    assert isinstance(err, AmbiguousOrder) and "1 kind in warehouses" in err.reason
    assert set(err.alternatives) == {
        "keep sugar in warehouse, 1 coffee on wind rose",
        "keep coffee in warehouse, 1 sugar on wind rose",
    }
    # More goods than fit: asked back with the ways to keep as many of them as fit.
    err = rejected("keep sugar, coffee and indigo", game, 1)
    assert isinstance(err, AmbiguousOrder)
    assert "you cannot keep sugar, coffee and indigo" in err.reason
    assert err.alternatives and all(
        sum(g in way for g in ("sugar", "coffee", "indigo")) == 2 for way in err.alternatives
    )


# -- the trader: seed 001 -------------------------------------------------------------


def trader_game() -> Game:
    """Seed 001's picture: the trading house holds indigo and sugar."""
    game = blank(4)
    s = game.state
    trading_house(s, INDIGO, SUGAR)
    goods(s, 0, coffee=1, sugar=2)
    goods(s, 1, tobacco=1, indigo=1)
    game = ready(game)
    pick(game, Role.TRADER)
    return game


def test_seed_001_the_trading_house_buys_only_different_kinds() -> None:
    """ "The trading house buys only different kinds of goods (exception: office)." """
    game = trader_game()
    err = rejected("sell sugar", game, 0)
    assert "already has sugar" in err.reason
    assert order("sell coffee", game, 0) == Sell(COFFEE)
    assert order("sell sugar or coffee", game, 0) == Sell(COFFEE)
    assert order("sell tobacco or coffee", game, 0) == Sell(COFFEE)  # Anna has no tobacco
    assert order("sell nothing", game, 0) == PASS
    assert order("pass", game, 0) == PASS
    err = rejected("sell tobacco", game, 0)
    assert "you have no tobacco" in err.reason
    assert legal_orders(game, 0) == ["sell coffee", "sell nothing"]


def test_an_order_for_another_decision_says_which_is_open() -> None:
    game = trader_game()
    err = rejected("ship corn", game, 0)
    assert "what to load" in err.reason and "what to sell" in err.reason


# -- the mayor: seed 002 --------------------------------------------------------------


def mayor_game() -> Game:
    """Anna is mayor: a manned corn plantation, an empty quarry, an empty coffee roaster;
    one colonist from the ship in San Juan after the deal."""
    game = blank(4)
    s = game.state
    plant(s, 0, CORN, 1, manned=1)
    quarry(s, 0, 1)
    build(s, 0, Building.COFFEE_ROASTER)
    s.colonist_supply += s.colonist_ship - 4
    s.colonist_ship = 4
    game = ready(game)
    pick(game, Role.MAYOR)
    assert game.state.players[0].san_juan == 1
    return game


SEED_002 = "remove 1 from corn, 1 from san juan\nplace 2 on coffee roaster, 1 on quarry"
AFTER = Layout((0, 0, 0, 0, 0), 1, ((Building.COFFEE_ROASTER, 2),))


def test_seed_002_removals_first_then_assignments() -> None:
    """Seed 002: "please list all colonist being removed, and then list all new
    assignments." With the mayor's extra colonist (taken unless declined) Anna has three
    to place: the corn's, the ship's and the privilege one."""
    game = mayor_game()
    (command,) = parse_text(SEED_002)
    assert resolve(command, game, 0) == PlaceColonists(AFTER, extra=True)  # type: ignore[arg-type]


def test_seed_002_declining_the_extra_colonist_leaves_one_short() -> None:
    game = mayor_game()
    (command,) = parse_text("mayor: no extra colonist\n" + SEED_002)
    # (what only the extra colonist allows, with the extra declined: asked which is meant)
    with pytest.raises(AmbiguousOrder) as info:
        resolve(command, game, 0)
    assert "only 0 colonist(s) left to place" in info.value.reason
    assert "with the extra colonist, which you decline" in info.value.reason
    (command,) = parse_text(
        "no extra colonist; move 1 from corn to coffee roaster; place 1 on coffee roaster"
    )
    assert resolve(command, game, 0) == PlaceColonists(
        Layout((0, 0, 0, 0, 0), 0, ((Building.COFFEE_ROASTER, 2),)), extra=False
    )


def test_mayor_errors_name_the_tile() -> None:
    game = mayor_game()
    err = rejected("remove 1 from quarry", game, 0)
    assert err.reason == "you cannot remove 1 from quarry: it has no colonist"
    err = rejected("remove 2 from corn", game, 0)
    assert err.reason == "you cannot remove 2 from corn plantation: it has only 1 colonist"
    err = rejected("place 3 on coffee roaster", game, 0)
    assert "only 2 empty circles" in err.reason
    err = rejected("place 1 on small market", game, 0)
    assert "you have no small market" in err.reason
    err = rejected("place 1 on indigo", game, 0)
    assert "no indigo plantation" in err.reason
    err = rejected("place 1 on coffee roaster", game, 0)
    assert "would stay in San Juan" in err.reason and "extra colonist" in err.reason


def test_mayor_order_round_trip_and_description() -> None:
    game = mayor_game()
    action = PlaceColonists(AFTER, extra=True)
    text = format_action(action, game, 0)
    assert text == "remove 1 from corn; place 1 on quarry, 2 on coffee roaster"
    lines = legal_orders(game, 0)
    assert lines[0].startswith("Your colonists: corn 1 of 1, quarry 0 of 1, coffee roaster 0 of 2")
    assert any("no extra colonist" in line for line in lines)
    assert any(line.startswith("The default") for line in lines)


# -- other roles ------------------------------------------------------------------------


def test_roles_and_prospector_defaults() -> None:
    game = ready(blank(5))
    assert order("role captain", game, 0) == PickRole(Role.CAPTAIN)
    game.state.role_doubloons[Role.PROSPECTOR2] = 2
    assert order("role prospector", game, 0) == PickRole(Role.PROSPECTOR2)
    assert order("role prospector 1", game, 0) == PickRole(Role.PROSPECTOR)
    err = rejected("role prospector 2", ready(blank(4)), 0)
    assert "no prospector 2 in this game" in err.reason


def test_a_taken_role_is_refused_and_a_preference_list_takes_the_first_free() -> None:
    game = ready(blank(3))
    game.apply(0, PickRole(Role.SETTLER))
    while game.kind() is not None and game.kind().value != "role":
        d = game.decisions()[0]
        game.apply(d.seat, PASS if PASS in d.actions else d.actions[0])
    seat = game.decisions()[0].seat
    err = rejected("role settler", game, seat)
    assert "has been taken this round (by Anna)" in err.reason
    assert order("role settler, mayor", game, seat) == PickRole(Role.MAYOR)
    assert "no prospector" in rejected("role prospector", game, seat).reason


def test_settler_hospice_and_quarry() -> None:
    game = blank(4)
    s = game.state
    build(s, 0, Building.HOSPICE, 1)
    face_up(s, CORN, COFFEE, SUGAR, INDIGO, INDIGO)
    game = ready(game)
    pick(game, Role.SETTLER)
    assert order("settle coffee", game, 0) == TakePlantation(COFFEE, True)
    assert order("settle coffee, no hospice", game, 0) == TakePlantation(COFFEE, False)
    assert order("take quarry", game, 0) == TakeQuarry(True)
    err = rejected("settle tobacco", game, 0)
    assert "no tobacco plantation face up" in err.reason
    assert "corn, indigo, sugar, coffee" in err.reason


def test_hacienda_then_settle_in_one_mail() -> None:
    game = blank(4)
    s = game.state
    build(s, 0, Building.HACIENDA, 1)
    face_up(s, CORN, COFFEE, SUGAR, INDIGO, INDIGO)
    game = ready(game)
    pick(game, Role.SETTLER)
    assert order("no hacienda", game, 0) == UseHacienda(False)
    assert order("no", game, 0) == UseHacienda(False)
    assert order("hacienda", game, 0) == UseHacienda(True)
    # One turn: the hacienda's default on the way, then the tile, both done now.
    report = check_mail("settle coffee", game, 0)
    assert report.actions == [UseHacienda(True), TakePlantation(COFFEE, False)]
    assert report.queued == []
    # A tile that cannot be taken leaves the hacienda undone too.
    report = check_mail("settle tobacco", game, 0)
    assert report.actions == [] and report.queued == []
    (err,) = report.errors
    assert "no tobacco plantation face up" in err.reason


def test_builder_ambiguity_names_the_alternatives() -> None:
    game = blank(4, doubloons=10)
    game = ready(game)
    pick(game, Role.BUILDER)
    with pytest.raises(AmbiguousOrder) as info:
        order("build market", game, 0)
    assert info.value.alternatives == ("build small market", "build large market")
    assert "small market or large market" in info.value.reason
    assert order("build large market", game, 0) == Build(Building.LARGE_MARKET)
    err = rejected("build guild hall", game, 1)
    assert "nothing to decide" in err.reason


def test_builder_cannot_afford() -> None:
    game = ready(blank(4, doubloons=2))
    pick(game, Role.BUILDER)
    err = rejected("build harbor", game, 0)
    assert "costs you 7 doubloons; you have 2" in err.reason


def test_craftsman_extra_defaults_to_the_best_kind_produced() -> None:
    game = blank(4)
    s = game.state
    plant(s, 0, CORN, 1, manned=1)
    plant(s, 0, INDIGO, 1, manned=1)
    build(s, 0, Building.SMALL_INDIGO_PLANT, 1)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert order("extra corn", game, 0) == ExtraGood(CORN)
    assert order("default", game, 0) == ExtraGood(INDIGO)
    assert "corn, indigo" in rejected("extra coffee", game, 0).reason
