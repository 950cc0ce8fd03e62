"""Setup by player count (rules-reference, "Setup by player count")."""

from __future__ import annotations

import pytest
from positions import CORN, INDIGO, new

from moderator.engine import Building, Game, Good, Role
from moderator.engine.components import BUILDINGS

# players: (doubloons, supply, ship, chips, ships, face-up, starting plantations)
TABLE = {
    2: (3, 40, 2, 65, (4, 6), 3, (INDIGO, CORN)),
    3: (2, 55, 3, 75, (4, 5, 6), 4, (INDIGO, INDIGO, CORN)),
    4: (3, 75, 4, 100, (5, 6, 7), 5, (INDIGO, INDIGO, CORN, CORN)),
    5: (4, 95, 5, 122, (6, 7, 8), 6, (INDIGO, INDIGO, INDIGO, CORN, CORN)),
}
PLAYERS = sorted(TABLE)


@pytest.mark.parametrize("n", PLAYERS)
def test_doubloons_each(n: int) -> None:
    """ "doubloons each | 3 | 2 | 3 | 4" (2 variant, 3, 4, 5 players)."""
    game = new(n)
    assert [p.doubloons for p in game.state.players] == [TABLE[n][0]] * n


@pytest.mark.parametrize("n", PLAYERS)
def test_colonists_in_supply_and_on_ship(n: int) -> None:
    """ "colonists: supply + on ship | 40 + 2 | 55 + 3 | 75 + 4 | 95 + 5"."""
    s = new(n).state
    assert (s.colonist_supply, s.colonist_ship) == TABLE[n][1:3]
    assert all(p.colonists == 0 for p in s.players)


@pytest.mark.parametrize("n", PLAYERS)
def test_victory_point_chips(n: int) -> None:
    """ "victory-point chips | 65 | 75 | 100 | 122"."""
    s = new(n).state
    assert s.vp_chips == TABLE[n][3]
    assert all(p.vp == 0 for p in s.players)


@pytest.mark.parametrize("n", PLAYERS)
def test_cargo_ships(n: int) -> None:
    """ "cargo ships (capacities) | 4, 6 | 4, 5, 6 | 5, 6, 7 | 6, 7, 8", all empty."""
    s = new(n).state
    assert tuple(ship.capacity for ship in s.ships) == TABLE[n][4]
    assert all(ship.good is None and ship.count == 0 for ship in s.ships)


@pytest.mark.parametrize(
    ("n", "roles"),
    [
        (2, {"settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"}),
        (3, {"settler", "mayor", "builder", "craftsman", "trader", "captain"}),
        (4, {"settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"}),
    ],
)
def test_role_cards(n: int, roles: set[str]) -> None:
    """ "roles | 7 (one prospector) | 6 (no prospector) | 7 (one prospector) | 8 (two
    prospectors)"; no doubloons on them at the start."""
    s = new(n).state
    assert {Role(r).label for r in s.role_doubloons} == roles
    assert set(s.role_doubloons.values()) == {0}


def test_both_prospectors_at_five_players() -> None:
    """ "roles | … | 8 (two prospectors)" at five players."""
    s = new(5).state
    assert len(s.role_doubloons) == 8
    assert Role.PROSPECTOR in s.role_doubloons and Role.PROSPECTOR2 in s.role_doubloons


@pytest.mark.parametrize("n", PLAYERS)
def test_face_up_plantations(n: int) -> None:
    """ "face-up plantations | 3 | 4 | 5 | 6" (N + 1)."""
    s = new(n).state
    assert len(s.face_up) == TABLE[n][5] == n + 1
    assert s.discards == []


@pytest.mark.parametrize("n", PLAYERS)
def test_starting_plantations_per_seat(n: int) -> None:
    """ "starting plantations (seat 1 = first governor) | 1 indigo, 2 corn | 1–2 indigo, 3
    corn | 1–2 indigo, 3–4 corn | 1–3 indigo, 4–5 corn"; one tile each, unmanned."""
    s = new(n).state
    assert s.governor == 0
    for seat, good in enumerate(TABLE[n][6]):
        p = s.players[seat]
        expected = [0] * 5
        expected[good] = 1
        assert p.plantations == expected
        assert p.occupied == [0] * 5
        assert p.quarries == 0 and p.buildings == {} and p.goods == [0] * 5


@pytest.mark.parametrize("n", [3, 4, 5])
def test_full_box_of_plantations_quarries_and_goods(n: int) -> None:
    """ "Full box, 3–5 players: plantations 8 coffee, 9 tobacco, 10 corn, 11 sugar, 12
    indigo (the starting tiles come out of these); 8 quarries; goods 9 coffee, 9 tobacco,
    10 corn, 11 sugar, 11 indigo"."""
    s = new(n).state
    box = {Good.COFFEE: 8, Good.TOBACCO: 9, Good.CORN: 10, Good.SUGAR: 11, Good.INDIGO: 12}
    for g, k in box.items():
        on_boards = sum(p.plantations[g] for p in s.players)
        assert s.pile.count(g) + s.face_up.count(g) + on_boards == k
    assert s.quarries == 8
    assert s.goods_supply == [10, 11, 11, 9, 9]  # corn, indigo, sugar, tobacco, coffee
    assert s.trading_house == []


def test_two_player_removes_three_of_each_plantation_and_three_quarries() -> None:
    """Two-player variant: "3 of each plantation kind and 3 quarries removed (5 left)"."""
    s = new(2).state
    box = {Good.COFFEE: 5, Good.TOBACCO: 6, Good.CORN: 7, Good.SUGAR: 8, Good.INDIGO: 9}
    for g, k in box.items():
        on_boards = sum(p.plantations[g] for p in s.players)
        assert s.pile.count(g) + s.face_up.count(g) + on_boards == k
    assert s.quarries == 5


def test_two_player_removes_two_of_each_good() -> None:
    """Two-player variant: "2 of each good removed"."""
    assert new(2).state.goods_supply == [8, 9, 9, 7, 7]


def test_two_player_removes_production_and_violet_buildings() -> None:
    """Two-player variant: "2 of each production building and 1 of each violet building"
    removed. The five large buildings exist once only; removing one would take them out
    of the game, so all five stay (official 2-player rules: one of each violet building
    is left in the game; docs/rules-interpretations.md)."""
    supply = new(2).state.supply_buildings
    for b, info in BUILDINGS.items():
        if info.produces is not None:
            assert supply[b] == info.copies - 2, b
        elif info.large:
            assert supply[b] == 1, b
        else:
            assert supply[b] == info.copies - 1 == 1, b
    assert supply[Building.SMALL_INDIGO_PLANT] == 2
    assert supply[Building.COFFEE_ROASTER] == 1


@pytest.mark.parametrize("n", [3, 4, 5])
def test_building_supply_full_copies(n: int) -> None:
    """Building table "copies": 4 of each small production building, 3 of each large one,
    2 of each small violet building, 1 of each large building."""
    supply = new(n).state.supply_buildings
    assert len(supply) == 23
    assert {b: supply[b] for b in Building} == {b: info.copies for b, info in BUILDINGS.items()}
    assert supply[Building.SMALL_INDIGO_PLANT] == 4
    assert supply[Building.INDIGO_PLANT] == 3
    assert supply[Building.HARBOR] == 2
    assert supply[Building.CITY_HALL] == 1


@pytest.mark.parametrize("n", PLAYERS)
def test_governor_picks_first(n: int) -> None:
    """ "Starting with the governor, each player picks one role"."""
    game = new(n)
    assert game.deciding() == (0,)
    assert game.state.round == 1


@pytest.mark.parametrize("names", [["Anna"], ["A", "B", "C", "D", "E", "F"]])
def test_only_two_to_five_players(names: list[str]) -> None:
    """Puerto Rico is for 3 to 5 players, and 2 with the official variant."""
    with pytest.raises(ValueError):
        Game.new(names, 1)
