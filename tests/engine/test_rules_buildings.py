"""Every building's occupied effect (rules-reference, "Buildings"), one section each.

"Only an occupied building works; the end-of-game bonuses count only when occupied."
"""

from __future__ import annotations

import pytest
from positions import (
    COFFEE,
    CORN,
    INDIGO,
    SUGAR,
    TOBACCO,
    blank,
    build,
    empty_colonist_supply,
    face_up,
    goods,
    pick,
    plant,
    quarry,
    ready,
    san_juan,
    ship,
    trading_house,
    vp,
)

from moderator.engine import (
    PASS,
    Build,
    Building,
    Game,
    Good,
    IllegalAction,
    Load,
    LoadWharf,
    Phase,
    Role,
    Sell,
    Store,
    TakePlantation,
    TakeQuarry,
    UseHacienda,
)
from moderator.engine.components import BUILDINGS
from moderator.engine.events import FactoryPaid, HaciendaDrawn, Loaded, Sold

B = Building

# -- production buildings ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("building", "good"),
    [
        (B.SMALL_INDIGO_PLANT, INDIGO),
        (B.SMALL_SUGAR_MILL, SUGAR),
        (B.INDIGO_PLANT, INDIGO),
        (B.SUGAR_MILL, SUGAR),
        (B.TOBACCO_STORAGE, TOBACCO),
        (B.COFFEE_ROASTER, COFFEE),
    ],
)
def test_production_building_produces_one_barrel_per_occupied_circle(
    building: Building, good: Good
) -> None:
    """ "small indigo plant … produces indigo", "indigo plant | 3 circles", "coffee
    roaster | 2 circles" …: one barrel per occupied circle matched by an occupied
    plantation of its kind."""
    circles = BUILDINGS[building].circles
    game = blank(4)
    plant(game.state, 0, good, tiles=3, manned=3)
    build(game.state, 0, building, circles)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert game.state.players[0].goods[good] == circles


@pytest.mark.parametrize(
    "building",
    [B.SMALL_INDIGO_PLANT, B.SMALL_SUGAR_MILL, B.INDIGO_PLANT, B.TOBACCO_STORAGE],
)
def test_unoccupied_production_building_produces_nothing(building: Building) -> None:
    """ "Only an occupied building works"."""
    good = BUILDINGS[building].produces
    assert good is not None
    game = blank(4)
    plant(game.state, 1, good, tiles=2, manned=2)
    build(game.state, 1, building, 0)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert game.state.players[1].goods == [0, 0, 0, 0, 0]


# -- small market, large market, office -------------------------------------------------


def seller(*buildings: Building) -> Game:
    game = blank(4, doubloons=0)
    for b in buildings:
        build(game.state, 1, b, 1)
    goods(game.state, 1, sugar=1)
    return ready(game)


def bob_sells(game: Game, good: Good = SUGAR) -> int:
    pick(game, Role.TRADER)
    for e in game.apply(1, Sell(good)):
        if isinstance(e, Sold):
            return e.price
    raise AssertionError("no sale")


def test_small_market_adds_one_doubloon_per_sale() -> None:
    """ "small market … +1 doubloon per sale"."""
    assert bob_sells(seller(B.SMALL_MARKET)) == 2 + 1


def test_large_market_adds_two_doubloons_per_sale() -> None:
    """ "large market … +2 doubloons per sale"."""
    assert bob_sells(seller(B.LARGE_MARKET)) == 2 + 2


def test_both_markets_and_the_privilege_add_up() -> None:
    """ "+1 trader's privilege (only if he sells), +1 occupied small market, +2 occupied
    large market"."""
    game = seller(B.SMALL_MARKET, B.LARGE_MARKET)
    game.state.governor = game.state.turn = 1
    price = bob_sells(game)
    assert price == 2 + 1 + 1 + 2
    assert game.state.players[1].doubloons == 6


def test_unoccupied_markets_add_nothing() -> None:
    """ "Only an occupied building works"."""
    game = blank(4, doubloons=0)
    build(game.state, 1, B.SMALL_MARKET, 0)
    build(game.state, 1, B.LARGE_MARKET, 0)
    goods(game.state, 1, sugar=1)
    assert bob_sells(ready(game)) == 2


def test_office_may_sell_a_kind_already_in_the_trading_house() -> None:
    """ "Occupied office: may sell a kind already in the trading house"."""
    game = seller(B.OFFICE)
    trading_house(game.state, SUGAR)
    game = ready(game)
    assert bob_sells(game) == 2
    assert game.state.trading_house == [SUGAR, SUGAR]


def test_unoccupied_office_does_not_let_a_kind_be_sold_twice() -> None:
    """ "Only an occupied building works"."""
    game = blank(4, doubloons=0)
    build(game.state, 1, B.OFFICE, 0)
    goods(game.state, 1, sugar=1)
    trading_house(game.state, SUGAR)
    game = ready(game)
    pick(game, Role.TRADER)
    assert game.state.phase is Phase.ROLE  # Bob could not sell


def test_office_does_not_open_a_full_trading_house() -> None:
    """Seed 001: "When it is full, no other players may sell goods" — office or not."""
    game = seller(B.OFFICE)
    trading_house(game.state, CORN, INDIGO, SUGAR)
    goods(game.state, 0, coffee=1)
    game = ready(game)
    pick(game, Role.TRADER)
    game.apply(0, Sell(COFFEE))
    assert game.state.phase is Phase.ROLE
    assert game.state.players[1].goods[SUGAR] == 1


# -- hacienda, construction hut, hospice --------------------------------------------------


def settler_with(*buildings: Building, seat: int = 1, colonists: int = 1) -> Game:
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    for b in buildings:
        build(game.state, seat, b, colonists)
    return ready(game)


def test_hacienda_draws_the_top_face_down_plantation_before_the_face_up_one() -> None:
    """ "Occupied hacienda: before taking a face-up tile, the player may also take the top
    face-down tile"."""
    game = settler_with(B.HACIENDA)
    top = game.state.pile[-1]
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    assert game.legal_actions(1) == [UseHacienda(True), UseHacienda(False)]
    events = game.apply(1, UseHacienda(True))
    assert HaciendaDrawn(1, top) in events
    assert game.deciding() == (1,)  # now his face-up tile
    game.apply(1, TakePlantation(COFFEE))
    p = game.state.players[1]
    assert p.island_tiles == 2 and p.plantations[COFFEE] >= 1 and p.plantations[top] >= 1


def test_hacienda_may_be_declined() -> None:
    """ "the player may also take the top face-down tile" — may."""
    game = settler_with(B.HACIENDA)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    game.apply(1, UseHacienda(False))
    game.apply(1, TakePlantation(CORN))
    assert game.state.players[1].island_tiles == 1


def test_hacienda_not_offered_to_a_full_island() -> None:
    """ "A full island takes nothing"."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    build(game.state, 1, B.HACIENDA, 1)
    quarry(game.state, 1, tiles=8)
    plant(game.state, 1, CORN, tiles=4)
    game = ready(game)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    assert game.deciding() == (2,)  # Bob was passed over


def test_unoccupied_hacienda_does_nothing() -> None:
    """ "Only an occupied building works"."""
    game = settler_with(B.HACIENDA, colonists=0)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    assert UseHacienda(True) not in game.legal_actions(1)


def test_construction_hut_lets_its_owner_take_a_quarry() -> None:
    """ "any player with an occupied construction hut, may take a quarry instead"."""
    game = settler_with(B.CONSTRUCTION_HUT)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    assert TakeQuarry() in game.legal_actions(1)
    game.apply(1, TakeQuarry())
    assert game.state.players[1].quarries == 1


def test_unoccupied_construction_hut_gives_no_quarry() -> None:
    """ "Only an occupied building works"."""
    game = settler_with(B.CONSTRUCTION_HUT, colonists=0)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    assert TakeQuarry() not in game.legal_actions(1)


def test_hospice_mans_the_new_plantation_from_the_supply() -> None:
    """ "Occupied hospice: a colonist from the supply … goes onto the tile just taken"."""
    game = settler_with(B.HOSPICE)
    supply = game.state.colonist_supply
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    assert TakePlantation(COFFEE, hospice=True) in game.legal_actions(1)
    game.apply(1, TakePlantation(COFFEE, hospice=True))
    p = game.state.players[1]
    assert p.plantations[COFFEE] == p.occupied[COFFEE] == 1
    assert game.state.colonist_supply == supply - 1


def test_hospice_mans_a_new_quarry_too() -> None:
    """ "Occupied hospice: a colonist … goes onto the tile just taken" — a quarry is an
    island tile."""
    game = settler_with(B.HOSPICE, seat=0)
    pick(game, Role.SETTLER)
    game.apply(0, TakeQuarry(hospice=True))
    assert game.state.players[0].occupied_quarries == 1


def test_hospice_takes_the_colonist_from_the_ship_when_the_supply_is_empty() -> None:
    """ "a colonist from the supply (from the ship if the supply is empty)"."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    build(game.state, 1, B.HOSPICE, 1)
    empty_colonist_supply(game.state)
    game = ready(game)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    game.apply(1, TakePlantation(SUGAR, hospice=True))
    assert game.state.players[1].occupied[SUGAR] == 1
    assert game.state.colonist_ship == 3


def test_hospice_does_nothing_when_supply_and_ship_are_empty() -> None:
    """ "a colonist from the supply (from the ship if the supply is empty)" — none left,
    none placed."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    build(game.state, 1, B.HOSPICE, 1)
    s = game.state
    san_juan(s, 2, s.colonist_supply)
    s.players[2].san_juan += s.colonist_ship
    s.colonist_ship = 0
    game = ready(game)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    assert not any(getattr(a, "hospice", False) for a in game.legal_actions(1))


def test_hospice_does_not_man_the_haciendas_tile() -> None:
    """ "Occupied hospice: a colonist … goes onto the tile just taken" — the face-up tile
    the settler phase gives, not the hacienda's extra face-down tile (official FAQ;
    docs/rules-interpretations.md, "Settler")."""
    game = settler_with(B.HACIENDA, B.HOSPICE)
    top = game.state.pile[-1]
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    game.apply(1, UseHacienda(True))
    assert game.state.players[1].occupied == [0, 0, 0, 0, 0]
    good = next(g for g in (CORN, INDIGO, SUGAR, TOBACCO, COFFEE) if g is not top)
    game.apply(1, TakePlantation(good, hospice=True))
    p = game.state.players[1]
    assert sum(p.occupied) == 1 and p.occupied[good] == 1
    assert p.plantations[top] == 1


def test_unoccupied_hospice_mans_nothing() -> None:
    """ "Only an occupied building works"."""
    game = settler_with(B.HOSPICE, colonists=0)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    with pytest.raises(IllegalAction):
        game.apply(1, TakePlantation(CORN, hospice=True))


# -- university -------------------------------------------------------------------------


def test_university_mans_the_new_building_from_the_supply() -> None:
    """ "Occupied university: a colonist from the supply … goes onto the new building"."""
    game = blank(4, doubloons=10)
    build(game.state, 0, B.UNIVERSITY, 1)
    game = ready(game)
    supply = game.state.colonist_supply
    pick(game, Role.BUILDER)
    game.apply(0, Build(B.SUGAR_MILL, university=True))
    assert game.state.players[0].buildings[B.SUGAR_MILL] == 1  # one of three circles
    assert game.state.colonist_supply == supply - 1


def test_university_takes_the_colonist_from_the_ship_when_the_supply_is_empty() -> None:
    """ "a colonist from the supply (from the ship if the supply is empty)"."""
    game = blank(4, doubloons=10)
    build(game.state, 0, B.UNIVERSITY, 1)
    empty_colonist_supply(game.state)
    game = ready(game)
    pick(game, Role.BUILDER)
    game.apply(0, Build(B.HARBOR, university=True))
    assert game.state.players[0].buildings[B.HARBOR] == 1
    assert game.state.colonist_ship == 3


def test_unoccupied_university_mans_nothing() -> None:
    """ "Only an occupied building works"."""
    game = blank(4, doubloons=10)
    build(game.state, 0, B.UNIVERSITY, 0)
    game = ready(game)
    pick(game, Role.BUILDER)
    assert Build(B.HARBOR, university=True) not in game.legal_actions(0)


# -- factory ------------------------------------------------------------------------------


@pytest.mark.parametrize(("kinds", "paid"), [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
def test_factory_pays_for_the_kinds_produced(kinds: int, paid: int) -> None:
    """ "Occupied factory: doubloons for the number of kinds produced: 2 → 1, 3 → 2,
    4 → 3, 5 → 5"."""
    game = blank(4, doubloons=0)
    s = game.state
    build(s, 1, B.FACTORY, 1)
    for good in (CORN, INDIGO, SUGAR, TOBACCO, COFFEE)[:kinds]:
        plant(s, 1, good, manned=1)
        producer = {
            INDIGO: B.SMALL_INDIGO_PLANT,
            SUGAR: B.SMALL_SUGAR_MILL,
            TOBACCO: B.TOBACCO_STORAGE,
            COFFEE: B.COFFEE_ROASTER,
        }.get(good)
        if producer is not None:
            build(s, 1, producer, 1)
    game = ready(game)
    events = pick(game, Role.CRAFTSMAN)
    assert game.state.players[1].doubloons == paid
    assert (FactoryPaid(1, paid) in events) == (paid > 0)


def test_unoccupied_factory_pays_nothing() -> None:
    """ "Only an occupied building works"."""
    game = blank(4, doubloons=0)
    s = game.state
    build(s, 1, B.FACTORY, 0)
    plant(s, 1, CORN, manned=1)
    plant(s, 1, INDIGO, manned=1)
    build(s, 1, B.SMALL_INDIGO_PLANT, 1)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert game.state.players[1].doubloons == 0


# -- harbor, wharf ------------------------------------------------------------------------


def captain_with(building: Building, colonists: int = 1, **barrels: int) -> Game:
    game = blank(4)
    build(game.state, 1, building, colonists)
    goods(game.state, 1, **barrels)
    return game


def test_harbor_scores_one_more_point_each_loading_turn() -> None:
    """ "Occupied harbor: +1 VP each time the player loads (each turn in which he
    loads)"."""
    game = ready(captain_with(B.HARBOR, corn=2, sugar=3))
    pick(game, Role.CAPTAIN)
    first = game.apply(1, Load(CORN, 0))[0]
    second = game.apply(1, Load(SUGAR, 1))[0]
    assert (first, second) == (Loaded(1, CORN, 2, 0, 3), Loaded(1, SUGAR, 3, 1, 4))
    assert game.state.players[1].vp == 7


def test_unoccupied_harbor_scores_nothing_extra() -> None:
    """ "Only an occupied building works"."""
    game = ready(captain_with(B.HARBOR, colonists=0, corn=2))
    pick(game, Role.CAPTAIN)
    game.apply(1, Load(CORN, 0))
    assert game.state.players[1].vp == 2


def test_wharf_ships_all_barrels_of_one_kind_to_the_supply() -> None:
    """ "Occupied wharf: once per captain phase, instead of a cargo ship, ship all barrels
    of one kind to the supply, scoring them as shipped"."""
    game = ready(captain_with(B.WHARF, coffee=9))
    supply = game.state.goods_supply[COFFEE]
    pick(game, Role.CAPTAIN)
    assert set(game.legal_actions(1)) == {Load(COFFEE, 2), LoadWharf(COFFEE)}
    events = game.apply(1, LoadWharf(COFFEE))
    assert Loaded(1, COFFEE, 9, None, 9) in events
    assert game.state.goods_supply[COFFEE] == supply + 9
    assert all(sh.good is None for sh in game.state.ships)


def test_wharf_only_once_per_captain_phase() -> None:
    """ "once per captain phase"."""
    game = ready(captain_with(B.WHARF, coffee=2, tobacco=2))
    pick(game, Role.CAPTAIN)
    game.apply(1, LoadWharf(COFFEE))
    assert game.legal_actions(1) == [Load(TOBACCO, 0), Load(TOBACCO, 1), Load(TOBACCO, 2)]


def test_wharf_is_optional_so_a_player_may_pass_when_no_ship_takes_his_goods() -> None:
    """Defaults: "Construction hut and wharf: used only when ordered" — the wharf is
    optional; when it is his only way to load, he may pass instead (and only then)."""
    game = captain_with(B.WHARF, indigo=2)
    for i, good in enumerate((CORN, SUGAR, TOBACCO)):
        ship(game.state, i, good, 1)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.legal_actions(1) == [LoadWharf(INDIGO), PASS]
    game.apply(1, PASS)
    assert game.state.phase is not Phase.CAPTAIN  # declined: not asked again
    assert game.state.players[1].vp == 0


def test_wharf_gives_no_pass_when_a_cargo_ship_can_be_loaded() -> None:
    """Seed 000: "he must load goods if he can" — the wharf adds a choice, never a pass."""
    game = ready(captain_with(B.WHARF, indigo=2))
    pick(game, Role.CAPTAIN)
    assert PASS not in game.legal_actions(1)


def test_unoccupied_wharf_ships_nothing() -> None:
    """ "Only an occupied building works"."""
    game = ready(captain_with(B.WHARF, colonists=0, indigo=2))
    pick(game, Role.CAPTAIN)
    assert LoadWharf(INDIGO) not in game.legal_actions(1)


def test_captain_privilege_applies_to_the_wharf() -> None:
    """Seed 000: "When loading his first kind of goods, the captain takes as his privilege
    one extra victory point" — the wharf is a loading."""
    game = captain_with(B.WHARF, corn=3)
    game.state.governor = game.state.turn = 1
    game = ready(game)
    pick(game, Role.CAPTAIN)
    events = game.apply(1, LoadWharf(CORN))
    assert Loaded(1, CORN, 3, None, 4) in events


# -- small and large warehouse -----------------------------------------------------------


def storing(*buildings: Building, **barrels: int) -> Game:
    """Bob holds ``barrels``; every ship is full of something else, so nothing loads."""
    game = blank(4)
    for b in buildings:
        build(game.state, 1, b, 1)
    goods(game.state, 1, **barrels)
    for i, good in enumerate((CORN, INDIGO, SUGAR)):
        ship(game.state, i, good, game.state.ships[i].capacity)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    return game


def test_small_warehouse_keeps_all_barrels_of_one_kind_besides_the_wind_rose() -> None:
    """ "Occupied small warehouse: keep all barrels of one kind … besides the one barrel
    on the wind rose"."""
    game = storing(B.SMALL_WAREHOUSE, tobacco=3, coffee=1)
    assert game.state.phase is Phase.ROLE  # nothing to lose: no question asked
    assert game.state.players[1].goods == [0, 0, 0, 3, 1]


def test_small_warehouse_owner_chooses_the_kind() -> None:
    """ "If a player cannot store all his extra goods, he may choose which goods to store"
    (seed 000)."""
    game = storing(B.SMALL_WAREHOUSE, tobacco=3, coffee=2, sugar=2)
    assert set(game.legal_actions(1)) == {
        Store((TOBACCO,), SUGAR),
        Store((TOBACCO,), COFFEE),
        Store((COFFEE,), SUGAR),
        Store((COFFEE,), TOBACCO),
        Store((SUGAR,), TOBACCO),
        Store((SUGAR,), COFFEE),
    }
    game.apply(1, Store((SUGAR,), COFFEE))
    assert game.state.players[1].goods == [0, 0, 2, 0, 1]


def test_large_warehouse_keeps_two_kinds() -> None:
    """ "large warehouse: of two kinds"."""
    game = storing(B.LARGE_WAREHOUSE, tobacco=3, coffee=2, sugar=2)
    assert game.state.players[1].goods == [0, 0, 2, 3, 2]
    game = storing(B.LARGE_WAREHOUSE, tobacco=3, coffee=2, sugar=2, indigo=2)
    game.apply(1, Store((TOBACCO, COFFEE), SUGAR))
    assert game.state.players[1].goods == [0, 0, 1, 3, 2]


def test_both_warehouses_keep_three_kinds() -> None:
    """ "(both: three kinds), besides the one barrel on the wind rose"."""
    game = storing(B.SMALL_WAREHOUSE, B.LARGE_WAREHOUSE, tobacco=3, coffee=2, sugar=2, indigo=1)
    assert game.state.phase is Phase.ROLE
    assert game.state.players[1].goods == [0, 1, 2, 3, 2]
    game = storing(B.SMALL_WAREHOUSE, B.LARGE_WAREHOUSE, tobacco=3, coffee=2, sugar=2, corn=2)
    game.apply(1, Store((SUGAR, TOBACCO, COFFEE), CORN))
    assert game.state.players[1].goods == [1, 0, 2, 3, 2]


def test_unoccupied_warehouse_keeps_nothing() -> None:
    """ "Only an occupied building works" — an empty warehouse leaves only the wind rose."""
    game = blank(4)
    build(game.state, 1, B.SMALL_WAREHOUSE, 0)
    build(game.state, 1, B.LARGE_WAREHOUSE, 0)
    goods(game.state, 1, tobacco=3)
    for i, good in enumerate((CORN, INDIGO, SUGAR)):
        ship(game.state, i, good, game.state.ships[i].capacity)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.legal_actions(1) == [Store((), TOBACCO)]


# -- the five large buildings ------------------------------------------------------------


def bonus(game: Game, seat: int = 0) -> int:
    return ready(game).scores()[seat].bonus


def test_guild_hall_one_per_small_two_per_large_production_building() -> None:
    """ "guild hall … end: +1 per small, +2 per large production building" (occupied or
    not: they are counted, not worked)."""
    game = blank(4)
    s = game.state
    build(s, 0, B.GUILD_HALL, 1)
    build(s, 0, B.SMALL_INDIGO_PLANT)
    build(s, 0, B.SMALL_SUGAR_MILL, 1)
    build(s, 0, B.COFFEE_ROASTER)
    build(s, 0, B.TOBACCO_STORAGE, 2)
    build(s, 0, B.HARBOR, 1)  # violet: not counted
    assert bonus(game) == 1 + 1 + 2 + 2


@pytest.mark.parametrize(("tiles", "points"), [(0, 4), (9, 4), (10, 5), (11, 6), (12, 7)])
def test_residence_points_for_filled_island_spaces(tiles: int, points: int) -> None:
    """ "residence … end: island tiles ≤9 → 4, 10 → 5, 11 → 6, 12 → 7"."""
    game = blank(4)
    s = game.state
    build(s, 0, B.RESIDENCE, 1)
    quarry(s, 0, tiles=min(tiles, 8))
    if tiles > 8:
        plant(s, 0, CORN, tiles=tiles - 8)
    assert bonus(game) == points


def test_fortress_one_per_three_colonists_on_the_board() -> None:
    """ "fortress … end: +1 per 3 colonists on his board" (San Juan is on his board)."""
    game = blank(4)
    s = game.state
    build(s, 0, B.FORTRESS, 1)
    plant(s, 0, CORN, tiles=3, manned=3)
    san_juan(s, 0, 4)  # 1 + 3 + 4 = 8 colonists
    assert bonus(game) == 2
    san_juan(s, 0, 1)
    assert bonus(game) == 3


@pytest.mark.parametrize(("chips", "points"), [(0, 0), (3, 0), (4, 1), (23, 5), (24, 6)])
def test_customs_house_one_per_four_victory_point_chips(chips: int, points: int) -> None:
    """ "customs house … end: +1 per 4 VP chips"."""
    game = blank(4)
    build(game.state, 0, B.CUSTOMS_HOUSE, 1)
    vp(game.state, 0, chips)
    assert bonus(game) == points


def test_city_hall_one_per_violet_building() -> None:
    """ "city hall … end: +1 per violet building" (the city hall itself and the other
    large buildings are violet; production buildings are not)."""
    game = blank(4)
    s = game.state
    build(s, 0, B.CITY_HALL, 1)
    build(s, 0, B.SMALL_MARKET)
    build(s, 0, B.WHARF)
    build(s, 0, B.FORTRESS)
    build(s, 0, B.INDIGO_PLANT, 3)
    assert bonus(game) == 4


@pytest.mark.parametrize(
    "building", [B.GUILD_HALL, B.RESIDENCE, B.FORTRESS, B.CUSTOMS_HOUSE, B.CITY_HALL]
)
def test_unoccupied_large_building_gives_no_bonus_but_keeps_its_points(
    building: Building,
) -> None:
    """ "the end-of-game bonuses count only when occupied" — the building's own 4 VP
    count regardless."""
    game = blank(4)
    s = game.state
    build(s, 0, building, 0)
    build(s, 0, B.INDIGO_PLANT)
    plant(s, 0, CORN, tiles=3, manned=3)
    vp(s, 0, 8)
    score = ready(game).scores()[0]
    assert score.bonus == 0
    assert score.buildings == 4 + 2


def test_large_buildings_take_two_city_spaces() -> None:
    """ "The five buildings of column 4 are large: each takes two city spaces"."""
    game = blank(4)
    for b in (B.GUILD_HALL, B.RESIDENCE, B.FORTRESS, B.CUSTOMS_HOUSE, B.CITY_HALL):
        build(game.state, 0, b)
    assert game.state.players[0].city_used == 10
