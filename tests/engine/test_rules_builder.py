"""The builder (rules-reference, "Roles": Builder)."""

from __future__ import annotations

import pytest
from positions import blank, build, pick, quarry, ready

from moderator.engine import PASS, Build, Building, Game, IllegalAction, Phase, Role
from moderator.engine.components import BUILDINGS
from moderator.engine.events import Built, Skipped


def builder_game(doubloons: int = 10, quarries: int = 0, seat: int = 0) -> Game:
    game = blank(4, doubloons=doubloons)
    if quarries:
        quarry(game.state, seat, tiles=quarries, manned=quarries)
    return ready(game)


def cost_to(game: Game, seat: int, building: Building) -> int:
    before = game.state.players[seat].doubloons
    game.apply(seat, Build(building))
    return before - game.state.players[seat].doubloons


def test_builder_pays_one_doubloon_less_as_his_privilege() -> None:
    """ "Cost = price − 1 (builder's privilege) − one per occupied quarry"."""
    game = builder_game()
    pick(game, Role.BUILDER)
    assert cost_to(game, 0, Building.FACTORY) == 7 - 1


def test_other_players_pay_the_full_price() -> None:
    """Only the picker gets the privilege: the others pay the price."""
    game = builder_game()
    pick(game, Role.BUILDER)
    game.apply(0, PASS)
    assert cost_to(game, 1, Building.FACTORY) == 7


def test_each_occupied_quarry_takes_one_doubloon_off() -> None:
    """ "Cost = price − 1 (builder's privilege) − one per occupied quarry"."""
    game = builder_game(quarries=2, seat=1)
    pick(game, Role.BUILDER)
    game.apply(0, PASS)
    assert cost_to(game, 1, Building.FACTORY) == 7 - 2


def test_an_unoccupied_quarry_gives_no_discount() -> None:
    """ "one per occupied quarry" — an empty quarry does nothing."""
    game = blank(4, doubloons=10)
    quarry(game.state, 0, tiles=2, manned=1)
    game = ready(game)
    pick(game, Role.BUILDER)
    assert cost_to(game, 0, Building.FACTORY) == 7 - 1 - 1


@pytest.mark.parametrize(
    ("building", "column"),
    [
        (Building.SMALL_MARKET, 1),
        (Building.HACIENDA, 1),
        (Building.OFFICE, 2),
        (Building.LARGE_WAREHOUSE, 2),
        (Building.TOBACCO_STORAGE, 3),
        (Building.WHARF, 3),
        (Building.CITY_HALL, 4),
    ],
)
def test_quarry_discount_is_capped_by_the_building_column(building: Building, column: int) -> None:
    """ "the quarry discount capped by the building's column (1, 2, 3 or 4)"."""
    game = builder_game(quarries=4, seat=1)
    pick(game, Role.BUILDER)
    game.apply(0, PASS)
    price = BUILDINGS[building].price
    assert cost_to(game, 1, building) == max(price - column, 0)


def test_the_cost_is_never_below_zero() -> None:
    """ "never below 0" — a small market (price 1) for the builder with a quarry."""
    game = builder_game(doubloons=0, quarries=1)
    pick(game, Role.BUILDER)
    assert Build(Building.SMALL_MARKET) in game.legal_actions(0)
    assert cost_to(game, 0, Building.SMALL_MARKET) == 0
    assert game.state.players[0].doubloons == 0


def test_a_player_cannot_build_what_he_cannot_afford() -> None:
    """He pays the cost: without the doubloons, no building."""
    game = builder_game(doubloons=3)
    pick(game, Role.BUILDER)
    legal = game.legal_actions(0)
    assert Build(Building.SUGAR_MILL) in legal  # 4 - 1 = 3
    assert Build(Building.HOSPICE) in legal  # 4 - 1 = 3
    assert Build(Building.TOBACCO_STORAGE) not in legal  # 5 - 1 = 4
    with pytest.raises(IllegalAction):
        game.apply(0, Build(Building.TOBACCO_STORAGE))


def test_a_player_cannot_build_a_building_he_already_owns() -> None:
    """ "each player may build one building he does not already own"."""
    game = blank(4, doubloons=10)
    build(game.state, 0, Building.SMALL_MARKET)
    game = ready(game)
    pick(game, Role.BUILDER)
    assert Build(Building.SMALL_MARKET) not in game.legal_actions(0)


def test_a_player_needs_room_in_his_city() -> None:
    """ "and has room for" — twelve city spaces; a large building takes two."""
    game = blank(4, doubloons=20)
    for b in list(Building)[:11]:
        build(game.state, 0, b)
    game = ready(game)
    pick(game, Role.BUILDER)
    legal = game.legal_actions(0)
    assert Build(Building.OFFICE) in legal
    assert not any(isinstance(a, Build) and BUILDINGS[a.building].large for a in legal)


def test_a_building_no_longer_in_the_supply_cannot_be_built() -> None:
    """Only the copies in the supply may be built (one of each large building)."""
    game = blank(4, doubloons=20)
    build(game.state, 1, Building.CITY_HALL)
    game = ready(game)
    pick(game, Role.BUILDER)
    assert Build(Building.CITY_HALL) not in game.legal_actions(0)
    assert Build(Building.GUILD_HALL) in game.legal_actions(0)


def test_each_player_in_order_may_build_one_building() -> None:
    """ "in order, each player may build one building" — from the builder, one each."""
    game = blank(4, doubloons=10)
    game.state.governor = game.state.turn = 2
    game = ready(game)
    pick(game, Role.BUILDER)
    order = []
    for b in (Building.SMALL_MARKET, Building.HACIENDA, Building.OFFICE, Building.HOSPICE):
        (seat,) = game.deciding()
        order.append(seat)
        events = game.apply(seat, Build(b))
        assert Built(seat, b, BUILDINGS[b].price - (seat == 2), False) in events
    assert order == [2, 3, 0, 1]
    assert game.state.phase is Phase.ROLE
    assert game.state.supply_buildings[Building.SMALL_MARKET] == 1


def test_a_new_building_is_unoccupied() -> None:
    """A new building arrives empty (only the university mans it)."""
    game = builder_game()
    pick(game, Role.BUILDER)
    game.apply(0, Build(Building.SMALL_MARKET))
    assert game.state.players[0].buildings == {Building.SMALL_MARKET: 0}


def test_a_player_may_build_nothing() -> None:
    """ "each player may build" — may, so he may pass."""
    game = builder_game()
    pick(game, Role.BUILDER)
    game.apply(0, PASS)
    assert game.state.players[0].buildings == {}
    assert game.state.players[0].doubloons == 10


def test_a_player_who_can_build_nothing_is_skipped() -> None:
    """A player with no doubloons and no discount has nothing to decide."""
    game = blank(4, doubloons=0)
    game.state.players[0].doubloons = 5
    game = ready(game)
    pick(game, Role.BUILDER)
    events = game.apply(0, PASS)
    assert game.state.phase is Phase.ROLE
    assert [Skipped(seat, Role.BUILDER) for seat in (1, 2, 3)] == [
        e for e in events if isinstance(e, Skipped)
    ]
