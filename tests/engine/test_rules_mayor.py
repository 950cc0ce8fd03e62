"""The mayor (seed 002 and rules-reference, "Roles": Mayor)."""

from __future__ import annotations

import itertools

import pytest
from positions import (
    CORN,
    INDIGO,
    SUGAR,
    blank,
    build,
    empty_colonist_supply,
    pick,
    plant,
    quarry,
    ready,
    san_juan,
)

from moderator.engine import Building, Game, IllegalAction, Layout, Phase, PlaceColonists, Role
from moderator.engine.events import ColonistsArrived, ShipRefilled

NOTHING = Layout((0, 0, 0, 0, 0), 0, ())


def corn(n: int) -> Layout:
    return Layout((n, 0, 0, 0, 0), 0, ())


def mayor_game(players: int = 4, ship: int | None = None, mayor: int = 0) -> Game:
    game = blank(players)
    s = game.state
    if ship is not None:
        s.colonist_supply += s.colonist_ship - ship
        s.colonist_ship = ship
    s.governor = s.turn = mayor
    return game


def test_seed_002_six_colonists_four_players_dealt_once_round_the_table() -> None:
    """Seed 002: "Example for 4 players with 6 colonists on the ship: … The mayor takes 3
    colonists (including one for the privilege), the second player 2, and players 3 and
    4 take 1 each." The moderator deals "once-round-the-table"."""
    game = mayor_game(ship=6, mayor=1)
    game = ready(game)
    events = pick(game, Role.MAYOR)
    # Bob is mayor: Bob, Chris, David, Anna in that order.
    assert ColonistsArrived(1, (1, 2, 2, 1)) in events
    assert [p.san_juan for p in game.state.players] == [1, 2, 2, 1]
    assert game.state.colonist_ship == 0
    # Bob's privilege makes his three.
    game.apply(1, PlaceColonists(NOTHING, extra=True))
    assert game.state.players[1].san_juan == 3


def test_mayor_privilege_colonist_comes_from_the_supply_not_the_ship() -> None:
    """Seed 002: "may first take one colonist from the colonist supply (not from the
    colonist ship!) as his privilege"."""
    game = ready(mayor_game(ship=4))
    supply = game.state.colonist_supply
    pick(game, Role.MAYOR)
    game.apply(0, PlaceColonists(NOTHING, extra=True))
    assert game.state.colonist_supply == supply - 1
    assert game.state.players[0].san_juan == 2  # one from the ship, one from the supply


def test_mayor_may_decline_his_extra_colonist() -> None:
    """Seed 002: "The extra colonist for the Mayor will be taken unless the player says
    they do not want it" — so he may decline it."""
    game = ready(mayor_game(ship=4))
    supply = game.state.colonist_supply
    pick(game, Role.MAYOR)
    game.apply(0, PlaceColonists(NOTHING, extra=False))
    assert game.state.players[0].san_juan == 1
    assert game.state.colonist_supply == supply


def test_only_the_mayor_gets_an_extra_colonist() -> None:
    """Seed 002: "The mayor may take one additional colonist" — nobody else."""
    game = ready(mayor_game(ship=4))
    pick(game, Role.MAYOR)
    assert all(not a.extra for a in game.legal_actions(1))  # type: ignore[union-attr]
    with pytest.raises(IllegalAction):
        game.apply(1, PlaceColonists(NOTHING, extra=True))


def test_no_privilege_colonist_when_the_supply_is_empty() -> None:
    """Seed 002: "When the colonist supply runs out, the mayor may not use his privilege"."""
    game = mayor_game(ship=4)
    empty_colonist_supply(game.state)
    game = ready(game)
    pick(game, Role.MAYOR)
    assert all(not a.extra for a in game.legal_actions(0))  # type: ignore[union-attr]


def test_no_colonist_in_san_juan_while_a_circle_is_empty() -> None:
    """Seed 002: "No player may choose to place colonists in San Juan if he has empty
    circles available on his player board. All empty circles must be filled, if
    possible." """
    game = mayor_game(ship=4)
    plant(game.state, 0, CORN, tiles=2)
    game = ready(game)
    pick(game, Role.MAYOR)
    # Anna has 1 from the ship + 1 privilege and two corn circles: both must be filled.
    with pytest.raises(IllegalAction):
        game.apply(0, PlaceColonists(corn(1), extra=True))
    with pytest.raises(IllegalAction):
        game.apply(0, PlaceColonists(NOTHING, extra=True))
    game.apply(0, PlaceColonists(corn(2), extra=True))
    assert game.state.players[0].occupied[CORN] == 2
    assert game.state.players[0].san_juan == 0


def test_colonists_without_a_circle_wait_in_san_juan() -> None:
    """Seed 002: "If a player cannot place all his colonists, he may "store" them on the
    small city of San Juan"."""
    game = mayor_game(ship=4)
    s = game.state
    plant(s, 0, CORN)
    san_juan(s, 0, 2)
    game = ready(game)
    pick(game, Role.MAYOR)
    game.apply(0, PlaceColonists(corn(1), extra=True))
    p = game.state.players[0]
    assert p.occupied[CORN] == 1 and p.san_juan == 3


def test_a_player_may_move_colonists_placed_earlier() -> None:
    """Seed 002: "A player may place his new colonist(s), together with all the
    colonists he acquired from earlier rounds, on any empty circles … Thus, a player may
    move a colonist placed on a circle or San Juan in an earlier round." """
    game = mayor_game(ship=4)
    s = game.state
    plant(s, 1, CORN, manned=1)
    plant(s, 1, INDIGO)
    build(s, 1, Building.SMALL_INDIGO_PLANT)
    game = ready(game)
    pick(game, Role.MAYOR)
    # Bob has 2 colonists (1 on corn, 1 new) and 3 circles; he moves the corn one.
    game.apply(1, PlaceColonists(Layout((0, 1, 0, 0, 0), 0, ((Building.SMALL_INDIGO_PLANT, 1),))))
    p = game.state.players[1]
    assert p.occupied == [0, 1, 0, 0, 0]
    assert p.buildings[Building.SMALL_INDIGO_PLANT] == 1


def test_the_mayor_phase_takes_one_layout_from_each_player_in_any_order() -> None:
    """Seed 002: "Usually, all players place / move their colonists at the same time" —
    the moderator takes every player's layout, in whatever order they arrive."""
    game = mayor_game(ship=4)
    s = game.state
    for seat in range(4):
        plant(s, seat, CORN)
    game = ready(game)
    pick(game, Role.MAYOR)
    assert game.deciding() == (0, 1, 2, 3)
    for seat in (3, 1, 2):
        game.apply(seat, PlaceColonists(corn(1)))
        assert seat not in game.deciding()
    assert game.deciding() == (0,)
    game.apply(0, PlaceColonists(corn(1), extra=False))
    assert game.state.phase is Phase.ROLE
    assert [p.occupied[CORN] for p in game.state.players] == [1, 1, 1, 1]


def test_a_player_cannot_lay_out_twice() -> None:
    """Each player gives one layout per mayor phase."""
    game = mayor_game(ship=4)
    for seat in range(4):
        plant(game.state, seat, CORN)
    game = ready(game)
    pick(game, Role.MAYOR)
    game.apply(2, PlaceColonists(corn(1)))
    with pytest.raises(IllegalAction):
        game.apply(2, PlaceColonists(corn(1)))


def test_refill_one_colonist_per_empty_building_circle() -> None:
    """Seed 002: "For each empty circles on the buildings on the player boards of all
    players (empty circles on plantations and quarries do not count!), the mayor takes
    one colonist from the colonist supply and places it on the colonist ship"."""
    game = mayor_game(ship=4)
    s = game.state
    build(s, 0, Building.INDIGO_PLANT)  # 3 circles
    build(s, 1, Building.COFFEE_ROASTER)  # 2 circles
    build(s, 2, Building.TOBACCO_STORAGE)  # 3 circles
    plant(s, 3, SUGAR, tiles=3)  # plantation circles do not count
    quarry(s, 3, tiles=2)
    game = ready(game)
    pick(game, Role.MAYOR)
    supply = game.state.colonist_supply
    events = []
    # Everyone fills what he can: Anna 2 on the indigo plant, the others 1 each.
    events += game.apply(
        0, PlaceColonists(Layout((0, 0, 0, 0, 0), 0, ((Building.INDIGO_PLANT, 2),)), True)
    )
    events += game.apply(
        1, PlaceColonists(Layout((0, 0, 0, 0, 0), 0, ((Building.COFFEE_ROASTER, 1),)))
    )
    events += game.apply(
        2, PlaceColonists(Layout((0, 0, 0, 0, 0), 0, ((Building.TOBACCO_STORAGE, 1),)))
    )
    events += game.apply(3, PlaceColonists(Layout((0, 0, 1, 0, 0), 0, ())))
    # Empty building circles: 1 + 1 + 2 = 4 ... plus none on plantations.
    assert ShipRefilled(4, False) in events
    assert game.state.colonist_ship == 4
    assert game.state.colonist_supply == supply - 1 - 4


def test_refill_counts_every_empty_building_circle_above_the_minimum() -> None:
    """Seed 002: "For each empty circles on the buildings … one colonist"."""
    game = mayor_game(ship=4)
    s = game.state
    build(s, 0, Building.INDIGO_PLANT)
    build(s, 1, Building.SUGAR_MILL)
    build(s, 2, Building.TOBACCO_STORAGE)
    game = ready(game)
    pick(game, Role.MAYOR)
    events = []
    for seat in range(4):
        for action in game.legal_actions(seat):
            if not getattr(action, "extra", False):
                events += game.apply(seat, action)
                break
    # Nine circles, three colonists placed (David has no circle): six empty.
    assert ShipRefilled(6, False) in events


def test_refill_at_least_one_colonist_per_player() -> None:
    """Seed 002: "as a minimum, the mayor should always place at least as many colonists
    on the ship as there are players in the game"."""
    game = ready(mayor_game(players=3, ship=3))
    events = pick(game, Role.MAYOR)
    for seat in game.deciding():
        events += game.apply(seat, PlaceColonists(NOTHING, extra=False))
    assert ShipRefilled(3, False) in events
    assert game.state.colonist_ship == 3


def test_refill_short_when_the_supply_cannot_fill_the_ship() -> None:
    """Rules-reference, end of the game: "the mayor could not refill the colonist ship as
    required" — the ship gets what is left and the game will end."""
    game = mayor_game(ship=4)
    empty_colonist_supply(game.state, keep=3)
    game = ready(game)
    events = pick(game, Role.MAYOR)
    for seat in game.deciding():
        events += game.apply(
            seat, PlaceColonists(NOTHING, extra=False) if seat else game.legal_actions(0)[-1]
        )
    assert ShipRefilled(3, True) in events
    assert game.state.end_reason is not None


def test_the_layouts_offered_are_exactly_every_way_to_fill_the_circles() -> None:
    """Every layout of the colonists over the plantations, quarries and building circles
    is offered once (the lazy sequence counts and unranks them), and nothing else is."""
    game = mayor_game(ship=4)
    s = game.state
    plant(s, 0, CORN, 2)
    plant(s, 0, INDIGO, 3)
    quarry(s, 0, 2)
    build(s, 0, Building.INDIGO_PLANT)
    build(s, 0, Building.HACIENDA)
    build(s, 0, Building.COFFEE_ROASTER)
    san_juan(s, 0, 6)
    game = ready(game)
    pick(game, Role.MAYOR)
    legal = game.legal_actions(0)
    p = game.state.players[0]
    caps = [2, 3, 0, 0, 0, 2, 3, 2, 1]  # corn, indigo, ..., quarries, then the buildings
    built = sorted(p.buildings)
    expected = set()
    for extra, placed in ((True, 8), (False, 7)):  # 1 from the ship + 6 (+ the privilege)
        for counts in itertools.product(*(range(c + 1) for c in caps)):
            if sum(counts) == placed:
                buildings = tuple((b, n) for b, n in zip(built, counts[6:], strict=True) if n)
                layout = Layout(counts[:5], counts[5], buildings)  # type: ignore[arg-type]
                expected.add(PlaceColonists(layout, extra))
    offered = list(legal)
    assert len(offered) == len(legal) == len(expected) == len(set(offered))
    assert set(offered) == expected
    assert all(a in legal for a in expected)
    assert PlaceColonists(Layout((3, 0, 0, 0, 0), 0, ()), False) not in legal
