"""The captain (seed 000 and rules-reference, "Roles": Captain)."""

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
    goods,
    pick,
    ready,
    ship,
)

from moderator.engine import PASS, Building, Game, IllegalAction, Load, Phase, Role, Store
from moderator.engine.events import GoodsStored, Loaded, ShipsUnloaded

# Four players: ships of 5, 6 and 7 (indexes 0, 1, 2).
FIVE, SIX, SEVEN = 0, 1, 2


def captain_game(*holdings: dict[str, int], captain: int = 0) -> Game:
    """Four players holding the given barrels; ``captain`` is about to pick."""
    game = blank(4)
    s = game.state
    for seat, barrels in enumerate(holdings):
        goods(s, seat, **barrels)
    s.governor = s.turn = captain
    return game


def test_seed_000_example_step_by_step() -> None:
    """Seed 000, "Example for the captain phase (with 4 players)", every step."""
    game = captain_game(
        {"corn": 2, "sugar": 6},  # Anna
        {"sugar": 2, "tobacco": 3},  # Bob
        {"corn": 2, "tobacco": 1},  # Chris
        {"corn": 1, "indigo": 5},  # David
    )
    ship(game.state, SIX, CORN, 3)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    vp = lambda: [p.vp for p in game.state.players]  # noqa: E731

    # "Anna must load either her 2 corn or 6 sugar. She chooses the sugar and loads her 6
    # sugar barrels on the 7 space ship (she may not choose the 5 space ship as she could
    # not load all 6 sugar). She earns 7 VPs (6 + 1 for the captain privilege)."
    assert game.deciding() == (0,)
    assert set(game.legal_actions(0)) == {Load(CORN, SIX), Load(SUGAR, SEVEN)}
    assert game.apply(0, Load(SUGAR, SEVEN))[0] == Loaded(0, SUGAR, 6, SEVEN, 7)
    assert vp() == [7, 0, 0, 0]

    # "Bob … chooses sugar and loads 1 barrel on the 7 space ship, filling it (he cannot
    # load his other sugar as there is no room). He could, instead, choose to load his 3
    # tobacco on the empty 5 space ship … He earns 1 VP."
    assert set(game.legal_actions(1)) == {Load(SUGAR, SEVEN), Load(TOBACCO, FIVE)}
    assert game.apply(1, Load(SUGAR, SEVEN))[0] == Loaded(1, SUGAR, 1, SEVEN, 1)
    assert game.state.ships[SEVEN].full and game.state.players[1].goods[SUGAR] == 1
    assert vp() == [7, 1, 0, 0]

    # "Chris … chooses tobacco and loads 1 tobacco on the empty 5 space ship. She earns
    # 1 VP."
    assert set(game.legal_actions(2)) == {Load(CORN, SIX), Load(TOBACCO, FIVE)}
    assert game.apply(2, Load(TOBACCO, FIVE))[0] == Loaded(2, TOBACCO, 1, FIVE, 1)
    assert vp() == [7, 1, 1, 0]

    # "David … must load the corn on the 6 space ship as he has no place for his indigo.
    # He earns 1 VP."
    (decision,) = game.decisions()
    assert decision.seat == 3 and decision.forced
    assert decision.actions == [Load(CORN, SIX)]
    assert game.apply(3, Load(CORN, SIX))[0] == Loaded(3, CORN, 1, SIX, 1)
    assert vp() == [7, 1, 1, 1]

    # "Anna now has another turn. She must now load her 2 corn on the 6 space ship. She
    # earns 2 more VP."  (No second privilege.)
    assert game.legal_actions(0) == [Load(CORN, SIX)]
    assert game.apply(0, Load(CORN, SIX))[0] == Loaded(0, CORN, 2, SIX, 2)
    assert vp() == [9, 1, 1, 1]

    # "Bob has now no choice but to load his 3 tobacco on the 5 space ship. He earns 3
    # more VP."  (His last sugar has no room: the sugar ship is full.)
    assert game.legal_actions(1) == [Load(TOBACCO, FIVE)]
    events = game.apply(1, Load(TOBACCO, FIVE))
    assert events[0] == Loaded(1, TOBACCO, 3, FIVE, 3)
    assert vp() == [9, 4, 1, 1]

    # "Chris and David have goods left, but no place to load them. Anna and Bob have no
    # goods left. Thus, the loading ends."  Bob's last sugar and Chris's corn and
    # David's indigo go to storage: one barrel each on the wind rose.
    s = game.state
    assert s.phase is Phase.STORE
    assert [p.goods for p in s.players] == [
        [0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [2, 0, 0, 0, 0],
        [0, 5, 0, 0, 0],
    ]
    # Bob keeps his one sugar without being asked; Chris and David have no choice.
    assert [(d.seat, d.forced) for d in game.decisions()] == [(2, True), (3, True)]
    game.apply(2, Store((), CORN))
    events = game.apply(3, Store((), INDIGO))
    assert [p.goods for p in s.players] == [
        [0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [1, 0, 0, 0, 0],
        [0, 1, 0, 0, 0],
    ]
    # The 6 (corn) and 7 (sugar) ships are full and unloaded; the tobacco stays.
    assert ShipsUnloaded((SIX, SEVEN)) in events
    assert [(sh.good, sh.count) for sh in s.ships] == [(TOBACCO, 4), (None, 0), (None, 0)]
    assert vp() == [9, 4, 1, 1]


def test_seed_000_example_ends_with_full_ships_unloaded() -> None:
    """Seed 000: "As his last duty, the captain unloads all full ships … Partially full
    and empty ships remain as they are until the next captain phase"."""
    game = captain_game({"corn": 2, "sugar": 6}, {"sugar": 2, "tobacco": 3}, {}, {})
    ship(game.state, SIX, CORN, 3)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    game.apply(0, Load(SUGAR, SEVEN))
    game.apply(1, Load(SUGAR, SEVEN))
    game.apply(0, Load(CORN, SIX))
    events = game.apply(1, Load(TOBACCO, FIVE))
    assert ShipsUnloaded((SEVEN,)) in events
    s = game.state
    assert s.phase is Phase.ROLE
    assert (s.ships[SEVEN].good, s.ships[SEVEN].count) == (None, 0)
    assert (s.ships[SIX].good, s.ships[SIX].count) == (CORN, 5)
    assert (s.ships[FIVE].good, s.ships[FIVE].count) == (TOBACCO, 3)


def test_each_cargo_ship_carries_only_one_kind() -> None:
    """Seed 000: "Each cargo ship will carry goods on only one kind"."""
    game = captain_game({"corn": 1}, {"sugar": 1})
    ship(game.state, SEVEN, CORN, 2)
    ship(game.state, SIX, INDIGO, 2)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    game.apply(0, Load(CORN, SEVEN))
    assert game.legal_actions(1) == [Load(SUGAR, FIVE)]


def test_a_kind_on_one_ship_may_not_go_on_another() -> None:
    """Seed 000: "Players may not load goods on a cargo ship if goods of that same kind
    are on one of the other two cargo ships"."""
    game = captain_game({"corn": 2})
    ship(game.state, SEVEN, CORN, 1)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.legal_actions(0) == [Load(CORN, SEVEN)]
    for other in (FIVE, SIX):
        with pytest.raises(IllegalAction):
            game.apply(0, Load(CORN, other))


def test_no_loading_on_a_full_ship() -> None:
    """Seed 000: "Players may not load goods on a full ship" — nor that kind anywhere."""
    game = captain_game({"corn": 2, "sugar": 1})
    ship(game.state, FIVE, CORN, 5)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert set(game.legal_actions(0)) == {Load(SUGAR, SIX), Load(SUGAR, SEVEN)}


def test_a_player_must_load_if_he_can() -> None:
    """Seed 000: "On a player's turn, he must load goods if he can" — no passing."""
    game = captain_game({"corn": 2})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert PASS not in game.legal_actions(0)
    with pytest.raises(IllegalAction):
        game.apply(0, PASS)


def test_a_player_loads_only_one_kind_on_a_turn() -> None:
    """Seed 000: "However, he may only load one kind of goods" on a turn."""
    game = captain_game({"corn": 2, "sugar": 2}, {"indigo": 1})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    game.apply(0, Load(CORN, FIVE))
    assert game.state.players[0].goods == [0, 0, 2, 0, 0]
    assert game.deciding() == (1,)


def test_a_player_loads_as_many_of_the_kind_as_he_can() -> None:
    """Seed 000: "When a players loads good of a kind, he must load as many of that kind
    as he can. A player cannot hold back goods where there is space"."""
    game = captain_game({"corn": 4})
    ship(game.state, SIX, CORN, 3)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    events = game.apply(0, Load(CORN, SIX))
    assert events[0] == Loaded(0, CORN, 3, SIX, 3 + 1)
    assert game.state.players[0].goods[CORN] == 1


def test_must_choose_the_empty_ship_that_takes_all_his_goods() -> None:
    """Seed 000: "If a player has a kind of goods that can be loaded on several empty
    ships, he must choose the ship where he can load the most goods, leaving none behind,
    if possible" — 6 sugar: the 6 and the 7 ships take them all; the 5 would leave one
    behind."""
    game = captain_game({"sugar": 6})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert set(game.legal_actions(0)) == {Load(SUGAR, SIX), Load(SUGAR, SEVEN)}


def test_any_empty_ship_that_takes_every_barrel_may_be_chosen() -> None:
    """Seed 000: "he must choose the ship where he can load the most goods, leaving none
    behind" — every ship that takes all his barrels loads the same most."""
    game = captain_game({"sugar": 3})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert set(game.legal_actions(0)) == {Load(SUGAR, FIVE), Load(SUGAR, SIX), Load(SUGAR, SEVEN)}


def test_when_no_empty_ship_takes_all_the_largest_must_be_chosen() -> None:
    """Seed 000: "he must choose the ship where he can load the most goods" — 9 coffee
    and empty ships of 5, 6 and 7: the 7."""
    game = captain_game({"coffee": 9})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.legal_actions(0) == [Load(COFFEE, SEVEN)]
    events = game.apply(0, Load(COFFEE, SEVEN))
    assert events[0] == Loaded(0, COFFEE, 7, SEVEN, 8)


def test_the_largest_empty_ship_left_when_the_others_are_taken() -> None:
    """Seed 000: "he must choose the ship where he can load the most goods" — among the
    empty ships only."""
    game = captain_game({"coffee": 9})
    ship(game.state, SEVEN, CORN, 1)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.legal_actions(0) == [Load(COFFEE, SIX)]


def test_a_player_may_choose_freely_which_kind_to_load() -> None:
    """Seed 000: "If a player has several kinds of goods that he can load, he may choose
    freely, which goods to load. He need not choose the goods that would allow him to
    load the most barrels." """
    game = captain_game({"corn": 5, "indigo": 1})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    legal = game.legal_actions(0)
    assert Load(INDIGO, FIVE) in legal and Load(CORN, FIVE) in legal
    game.apply(0, Load(INDIGO, FIVE))
    assert game.state.players[0].vp == 2


def test_loading_goes_round_the_table_while_anyone_can_load() -> None:
    """Seed 000: "The captain phase continues, clockwise around the table, as long as at
    least one player has goods he can load" — players with nothing to load are passed
    over."""
    game = captain_game({"corn": 1, "sugar": 1}, {}, {"indigo": 1, "coffee": 1}, {})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    turns = []
    for action in (Load(CORN, FIVE), Load(INDIGO, SIX), Load(SUGAR, SEVEN)):
        (seat,) = game.deciding()
        turns.append(seat)
        game.apply(seat, action)
    assert turns == [0, 2, 0]
    # Chris's coffee has no ship left (corn, indigo, sugar aboard): the loading ends.
    assert game.state.phase is Phase.ROLE
    assert game.state.players[2].goods[COFFEE] == 1


def test_one_victory_point_per_barrel_whatever_the_kind() -> None:
    """Seed 000: "For each good (each barrel, not each kind of goods) a player loads, he
    earns one victory point … all kinds of goods have the same value"."""
    game = captain_game({}, {"coffee": 3}, {"corn": 3})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    game.apply(1, Load(COFFEE, FIVE))
    game.apply(2, Load(CORN, SIX))
    assert [p.vp for p in game.state.players] == [0, 3, 3, 0]


def test_captain_privilege_one_extra_point_only_once() -> None:
    """Seed 000: "The captain earns only one extra VP as his privilege, regardless of how
    many kinds of goods he loads"."""
    game = captain_game({"corn": 1, "sugar": 1})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    first = game.apply(0, Load(CORN, FIVE))[0]
    second = game.apply(0, Load(SUGAR, SIX))[0]
    assert (first.vp, second.vp) == (2, 1)  # type: ignore[union-attr]
    assert game.state.players[0].vp == 3


def test_no_privilege_for_a_captain_who_loads_nothing() -> None:
    """Seed 000: "If he loads no goods, he does not get the extra privilege VP" — not even
    when another player loads."""
    game = captain_game({}, {"corn": 2})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.deciding() == (1,)
    game.apply(1, Load(CORN, FIVE))
    assert [p.vp for p in game.state.players[:2]] == [0, 2]


def test_only_the_captain_gets_the_privilege() -> None:
    """ "only the picker gets the privilege"."""
    game = captain_game({}, {"corn": 2}, captain=1)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    game.apply(1, Load(CORN, FIVE))
    assert game.state.players[1].vp == 3


def test_chips_leave_the_bank() -> None:
    """Seed 000: a player earns his points "in the form of value 1 victory point chips"."""
    game = captain_game({"corn": 2})
    game = ready(game)
    chips = game.state.vp_chips
    pick(game, Role.CAPTAIN)
    game.apply(0, Load(CORN, FIVE))
    assert game.state.vp_chips == chips - 3


# -- storage ---------------------------------------------------------------------------


def test_one_barrel_kept_on_the_wind_rose_the_rest_returned() -> None:
    """Seed 000: "Each players may store one good (one barrel) on his wind rose. … If a
    player does not have sufficient warehouse space, he must place all extra goods back in
    the goods supplies"."""
    game = captain_game({"corn": 1}, {"indigo": 4})
    ship(game.state, FIVE, INDIGO, 5)
    game = ready(game)
    supply = game.state.goods_supply[INDIGO]
    pick(game, Role.CAPTAIN)
    game.apply(0, Load(CORN, SIX))
    assert game.state.phase is Phase.STORE
    (decision,) = game.decisions()
    assert decision.seat == 1 and decision.forced
    assert decision.actions == [Store((), INDIGO)]
    events = game.apply(1, Store((), INDIGO))
    assert GoodsStored(1, (0, 1, 0, 0, 0), (0, 3, 0, 0, 0)) in events
    assert game.state.players[1].goods == [0, 1, 0, 0, 0]
    # Three came back from Bob, five from the full indigo ship.
    assert game.state.goods_supply[INDIGO] == supply + 3 + 5


def test_the_player_chooses_which_barrel_to_keep() -> None:
    """Seed 000: "If a player cannot store all his extra goods, he may choose which goods
    to store and which to return to the goods supply"."""
    game = captain_game({"corn": 1}, {"indigo": 2, "tobacco": 1})
    for i, g in enumerate((INDIGO, TOBACCO, SUGAR)):
        ship(game.state, i, g, game.state.ships[i].capacity)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.state.phase is Phase.STORE
    assert set(game.legal_actions(1)) == {Store((), INDIGO), Store((), TOBACCO)}
    assert game.deciding() == (1,)  # Anna's single corn is kept without asking
    game.apply(1, Store((), INDIGO))
    assert game.state.players[1].goods == [0, 1, 0, 0, 0]
    assert game.state.players[0].goods == [1, 0, 0, 0, 0]


def test_storage_is_decided_by_everyone_at_once_in_any_order() -> None:
    """Seed 000: "When no more goods can be loaded on the cargo ships, the players must
    store the goods left on their wind roses" — all of them, independently."""
    game = captain_game({"corn": 3}, {"corn": 2}, {"sugar": 1, "corn": 1})
    for i, g in enumerate((INDIGO, TOBACCO, COFFEE)):
        ship(game.state, i, g, 1)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.deciding() == (0, 1, 2)
    game.apply(2, Store((), SUGAR))
    game.apply(0, Store((), CORN))
    assert game.deciding() == (1,)
    game.apply(1, Store((), CORN))
    assert game.state.phase is Phase.ROLE
    assert [p.goods for p in game.state.players[:3]] == [
        [1, 0, 0, 0, 0],
        [1, 0, 0, 0, 0],
        [0, 0, 1, 0, 0],
    ]


def test_storage_is_checked_only_at_the_end_of_the_captain_phase() -> None:
    """Seed 000: "Players only check for goods storage at the end of the captain phase.
    Players store goods acquired in other phases on the wind roses without limit until the
    next captain phase." """
    game = captain_game({"corn": 3, "sugar": 2, "indigo": 2})
    game = ready(game)
    pick(game, Role.TRADER)
    game.apply(0, PASS)
    assert game.state.players[0].goods == [3, 2, 2, 0, 0]


def test_full_ships_are_unloaded_only_at_the_end_of_the_phase() -> None:
    """Seed 000: "As his last duty, the captain unloads all full ships" — a ship filled
    early stays full (and closed to its kind) until the loading ends."""
    game = captain_game({"corn": 5}, {"corn": 2})
    game = ready(game)
    pick(game, Role.CAPTAIN)
    game.apply(0, Load(CORN, FIVE))
    assert game.state.ships[FIVE].full
    # Bob's corn cannot go on another ship: the loading ends, he stores one.
    assert game.state.phase is Phase.STORE
    game.apply(1, Store((), CORN))
    assert game.state.ships[FIVE].count == 0


def test_captain_phase_with_nothing_to_load_ends_at_once() -> None:
    """Seed 000: "The captain phase continues … as long as at least one player has goods
    he can load" — nobody has: it ends."""
    game = ready(captain_game())
    pick(game, Role.CAPTAIN)
    assert game.state.phase is Phase.ROLE


def test_storage_asks_nothing_when_everything_fits() -> None:
    """Seed 000: "For all other remaining goods, each player must find room in one of his
    warehouses … If a player cannot store all his extra goods, he may choose which goods
    to store" — only then. With a small warehouse, 3 tobacco and 1 coffee all fit
    (tobacco in the warehouse, coffee on the wind rose): nothing may be thrown away."""
    game = captain_game({}, {"tobacco": 3, "coffee": 1})
    build(game.state, 1, Building.SMALL_WAREHOUSE, 1)
    for i, good in enumerate((CORN, INDIGO, SUGAR)):
        ship(game.state, i, good, game.state.ships[i].capacity)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert game.state.phase is Phase.ROLE
    assert game.state.players[1].goods == [0, 0, 0, 3, 1]
