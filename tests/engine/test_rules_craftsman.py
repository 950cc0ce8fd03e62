"""The craftsman (rules-reference, "Roles": Craftsman)."""

from __future__ import annotations

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
    plant,
    ready,
)

from moderator.engine import PASS, Building, ExtraGood, Game, Phase, Role
from moderator.engine.events import ExtraTaken, Produced


def test_corn_needs_only_occupied_corn_plantations() -> None:
    """ "corn needs only occupied corn plantations"."""
    game = blank(4)
    plant(game.state, 0, CORN, tiles=3, manned=2)
    game = ready(game)
    events = pick(game, Role.CRAFTSMAN)
    assert Produced(0, (2, 0, 0, 0, 0)) in events
    assert game.state.players[0].goods == [2, 0, 0, 0, 0]


def test_production_needs_occupied_plantations_matched_by_occupied_circles() -> None:
    """ "as many barrels as he has occupied plantations of that kind matched by occupied
    circles of that kind's production buildings"."""
    game = blank(4)
    s = game.state
    plant(s, 1, INDIGO, tiles=3, manned=3)
    build(s, 1, Building.INDIGO_PLANT, 2)  # 2 of 3 circles occupied
    plant(s, 1, SUGAR, tiles=1, manned=1)
    build(s, 1, Building.SUGAR_MILL, 3)  # more circles than plantations
    plant(s, 1, TOBACCO, tiles=2, manned=2)
    build(s, 1, Building.TOBACCO_STORAGE, 0)  # unoccupied: nothing
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert game.state.players[1].goods == [0, 2, 1, 0, 0]


def test_small_and_large_production_buildings_add_up() -> None:
    """ "matched by occupied circles of that kind's production buildings" — all of them."""
    game = blank(4)
    s = game.state
    plant(s, 0, INDIGO, tiles=4, manned=4)
    build(s, 0, Building.SMALL_INDIGO_PLANT, 1)
    build(s, 0, Building.INDIGO_PLANT, 3)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert game.state.players[0].goods[INDIGO] == 4


def test_a_production_building_without_plantations_produces_nothing() -> None:
    """Occupied circles need occupied plantations to match."""
    game = blank(4)
    s = game.state
    plant(s, 0, COFFEE, tiles=2, manned=0)
    build(s, 0, Building.COFFEE_ROASTER, 2)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert game.state.players[0].goods == [0, 0, 0, 0, 0]


def test_every_player_produces() -> None:
    """ "every player produces" — not only the craftsman."""
    game = blank(4)
    for seat in range(4):
        plant(game.state, seat, CORN, tiles=1, manned=1)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert [p.goods[CORN] for p in game.state.players] == [1, 1, 1, 1]


def test_a_short_supply_is_shared_out_in_order_from_the_craftsman() -> None:
    """ "A short supply is shared out in order from the craftsman"."""
    game = blank(4)
    s = game.state
    for seat in range(4):
        plant(s, seat, CORN, tiles=2, manned=2)
    goods(s, 1, corn=5)  # five corn left in the supply
    s.governor = s.turn = 2
    game = ready(game)
    events = pick(game, Role.CRAFTSMAN)
    # Chris (craftsman) 2, David 2, Anna the last one, Bob none.
    assert [p.goods[CORN] for p in game.state.players] == [1, 5, 2, 2]
    assert [e.seat for e in events if isinstance(e, Produced)] == [2, 3, 0]
    assert game.state.goods_supply[CORN] == 0


def test_craftsman_takes_one_extra_barrel_of_a_kind_he_produced() -> None:
    """ "Privilege: one extra barrel of a kind he produced this phase, if the supply has
    one"."""
    game = blank(4)
    s = game.state
    plant(s, 0, CORN, tiles=1, manned=1)
    plant(s, 0, SUGAR, tiles=1, manned=1)
    build(s, 0, Building.SMALL_SUGAR_MILL, 1)
    plant(s, 1, COFFEE, tiles=1, manned=1)
    build(s, 1, Building.COFFEE_ROASTER, 1)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert game.deciding() == (0,)
    assert set(game.legal_actions(0)) == {ExtraGood(CORN), ExtraGood(SUGAR), PASS}
    events = game.apply(0, ExtraGood(SUGAR))
    assert ExtraTaken(0, SUGAR) in events
    assert game.state.players[0].goods == [1, 0, 2, 0, 0]
    assert game.state.phase is Phase.ROLE


def test_no_extra_barrel_of_a_kind_the_supply_has_run_out_of() -> None:
    """ "one extra barrel of a kind he produced this phase, if the supply has one"."""
    game = blank(4)
    s = game.state
    plant(s, 0, CORN, tiles=1, manned=1)
    plant(s, 0, INDIGO, tiles=1, manned=1)
    build(s, 0, Building.SMALL_INDIGO_PLANT, 1)
    goods(s, 1, indigo=10)  # one indigo left: Anna produces it
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert set(game.legal_actions(0)) == {ExtraGood(CORN), PASS}


def test_no_extra_barrel_when_the_craftsman_produced_nothing() -> None:
    """ "one extra barrel of a kind he produced this phase" — none produced, none extra."""
    game = blank(4)
    plant(game.state, 1, CORN, tiles=1, manned=1)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert game.state.phase is Phase.ROLE
    assert game.state.players[0].goods == [0, 0, 0, 0, 0]


def test_craftsman_may_decline_the_extra_barrel() -> None:
    """The privilege is a may: he may take no extra barrel."""
    game = blank(4)
    plant(game.state, 0, CORN, tiles=1, manned=1)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    game.apply(0, PASS)
    assert game.state.players[0].goods == [1, 0, 0, 0, 0]


def test_only_the_craftsman_gets_an_extra_barrel() -> None:
    """ "only the picker gets the privilege"."""
    game = blank(4)
    plant(game.state, 1, CORN, tiles=1, manned=1)
    game.state.governor = game.state.turn = 0
    game = ready(game)
    events = pick(game, Role.CRAFTSMAN)
    assert game.state.players[1].goods == [1, 0, 0, 0, 0]
    assert not any(isinstance(e, ExtraTaken) for e in events)


def test_goods_kept_over_from_earlier_phases_add_up() -> None:
    """ "Players store goods acquired in other phases on the wind roses without limit until
    the next captain phase" (seed 000)."""
    game: Game = blank(4)
    plant(game.state, 0, CORN, tiles=3, manned=3)
    goods(game.state, 0, corn=4, sugar=2)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    game.apply(0, ExtraGood(CORN))
    assert game.state.players[0].goods == [8, 0, 2, 0, 0]
