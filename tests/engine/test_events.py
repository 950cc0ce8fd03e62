"""Event sentences: ships named as the board and the orders name them ("the 5-ship"),
where colonists went, what a player who passes did not do, plain English."""

from __future__ import annotations

import pytest

from moderator.engine import PASS, Building, Game, Good, Layout, PickRole, Role
from moderator.engine.events import (
    Built,
    ColonistsPlaced,
    GameEnded,
    HaciendaDrawn,
    Loaded,
    Passed,
    PlantationTaken,
    ShipsUnloaded,
)

NAMES = ["Anna", "Bob", "Chris", "David"]


def test_loading_names_the_ship_by_its_capacity() -> None:
    game = Game.new(NAMES, 1)
    assert game.ship_capacities == (5, 6, 7)
    assert (
        game.describe(Loaded(0, Good.SUGAR, 6, 2, 7))
        == "Anna ships 6 sugar on the 7-ship for 7 VP."
    )
    assert (
        game.describe(Loaded(1, Good.CORN, 3, None, 4)) == "Bob ships 3 corn on the wharf for 4 VP."
    )
    assert (
        game.describe(ShipsUnloaded((1, 2)))
        == "Full ships are unloaded: the 6-ship and the 7-ship."
    )


def test_a_two_player_game_names_its_own_ships() -> None:
    game = Game.new(["Anna", "Bob"], 1)
    assert (
        game.describe(Loaded(0, Good.CORN, 4, 0, 4)) == "Anna ships 4 corn on the 4-ship for 4 VP."
    )


def test_tiles_and_buildings_take_the_right_article() -> None:
    game = Game.new(NAMES, 1)
    assert game.describe(PlantationTaken(0, Good.INDIGO, False)) == (
        "Anna takes an indigo plantation."
    )
    assert game.describe(PlantationTaken(0, Good.CORN, True)) == (
        "Anna takes a corn plantation (manned by the hospice)."
    )
    assert game.describe(PlantationTaken(0, None, False)) == "Anna takes a quarry."
    assert game.describe(HaciendaDrawn(1, Good.INDIGO)) == (
        "Bob uses the hacienda and draws an indigo plantation."
    )
    assert game.describe(Built(2, Building.OFFICE, 4, False)) == "Chris builds an office for 4."


def _layout(
    plantations: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0),
    quarries: int = 0,
    buildings: tuple[tuple[Building, int], ...] = (),
) -> Layout:
    return Layout(plantations, quarries, buildings)


@pytest.mark.parametrize(
    ("event", "sentence"),
    [
        (
            ColonistsPlaced(
                0,
                True,
                1,
                _layout((1, 1, 0, 0, 0)),
                _layout((1, 0, 0, 0, 0), 1, ((Building.COFFEE_ROASTER, 2),)),
            ),
            "Anna takes the mayor's extra colonist, removes 1 from indigo, then places 1 on a "
            "quarry and 2 on the coffee roaster; 1 stays in San Juan.",
        ),
        (
            ColonistsPlaced(1, False, 0, _layout((1, 0, 0, 0, 0)), _layout((2, 0, 0, 0, 0), 2)),
            "Bob places 1 on corn and 2 on quarries.",
        ),
        (
            ColonistsPlaced(
                2,
                False,
                2,
                _layout((0, 0, 0, 0, 0), 2, ((Building.HACIENDA, 1),)),
                _layout((0, 0, 0, 0, 0), 0, ((Building.HACIENDA, 1),)),
            ),
            "Chris removes 2 from quarries; 2 stay in San Juan.",
        ),
        (
            ColonistsPlaced(3, False, 0, _layout((1, 0, 0, 0, 0)), _layout((1, 0, 0, 0, 0))),
            "David leaves the colonists where they were.",
        ),
    ],
)
def test_colonists_placed_says_where_they_went(event: ColonistsPlaced, sentence: str) -> None:
    assert Game.new(NAMES, 1).describe(event) == sentence


def test_the_mayor_phase_reports_each_players_new_layout() -> None:
    game = Game.new(NAMES, 3)
    game.apply(0, PickRole(Role.MAYOR))
    placed = []
    for seat in game.deciding():
        action = game.legal_actions(seat)[0]
        placed += [e for e in game.apply(seat, action) if isinstance(e, ColonistsPlaced)]
    assert [e.seat for e in placed] == [0, 1, 2, 3]
    for event in placed:
        assert event.after.placed + event.san_juan >= event.before.placed
        assert game.describe(event).startswith(NAMES[event.seat] + " ")


@pytest.mark.parametrize(
    ("role", "sentence"),
    [
        (Role.SETTLER, "Bob takes no plantation."),
        (Role.BUILDER, "Bob builds nothing."),
        (Role.CRAFTSMAN, "Bob takes no extra barrel."),
        (Role.TRADER, "Bob sells nothing."),
        (Role.CAPTAIN, "Bob does not use the wharf."),
    ],
)
def test_a_pass_says_what_the_player_did_not_do(role: Role, sentence: str) -> None:
    assert Game.new(NAMES, 1).describe(Passed(1, role)) == sentence


def test_passing_in_the_builder_phase_is_an_event() -> None:
    game = Game.new(NAMES, 1)
    game.apply(0, PickRole(Role.BUILDER))
    assert Passed(0, Role.BUILDER) in game.apply(0, PASS)


def test_a_shared_win_names_every_winner() -> None:
    sentence = Game.new(NAMES, 1).describe(GameEnded((40, 40, 30, 20), (0, 1)))
    assert (
        sentence == "The game is over: Anna 40, Bob 40, Chris 30, David 20. Winners: Anna and Bob."
    )
