"""Event sentences name ships as the board and the orders do ("the 5-ship")."""

from __future__ import annotations

from moderator.engine import Game, Good
from moderator.engine.events import Loaded, ShipsUnloaded, describe


def test_loading_names_the_ship_by_its_capacity() -> None:
    game = Game.new(["Anna", "Bob", "Chris", "David"], 1)
    assert game.ship_capacities == (5, 6, 7)
    assert (
        game.describe(Loaded(0, Good.SUGAR, 6, 2, 7))
        == "Anna ships 6 sugar on the 7-ship for 7 VP."
    )
    assert (
        game.describe(Loaded(1, Good.CORN, 3, None, 4)) == "Bob ships 3 corn on the wharf for 4 VP."
    )
    assert (
        game.describe(ShipsUnloaded((1, 2))) == "Full ships are unloaded: the 6-ship, the 7-ship."
    )


def test_without_capacities_ships_are_numbered() -> None:
    assert (
        describe(Loaded(0, Good.CORN, 1, 0, 1), ["Anna"]) == "Anna ships 1 corn on ship 1 for 1 VP."
    )
