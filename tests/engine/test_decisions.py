"""Decisions, illegal actions and the moderator's defaults (issue 2, items 3 and 4)."""

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
    new,
    pick,
    pick_and_finish,
    plant,
    ready,
    ship,
)

from moderator.engine import (
    PASS,
    Action,
    Build,
    Building,
    DecisionKind,
    ExtraGood,
    Game,
    IllegalAction,
    Layout,
    Load,
    LoadWharf,
    Phase,
    PickRole,
    PlaceColonists,
    Role,
    Sell,
    Store,
    UseHacienda,
    defaults,
)

# -- illegal actions ---------------------------------------------------------------------


def assert_refused(game: Game, seat: int, action: Action) -> IllegalAction:
    """The action raises IllegalAction carrying the legal actions, and changes nothing."""
    before = game.to_json()
    legal = list(game.legal_actions(seat))
    with pytest.raises(IllegalAction) as caught:
        game.apply(seat, action)
    assert game.to_json() == before
    assert list(caught.value.legal) == legal
    assert caught.value.seat == seat and caught.value.action == action
    assert str(caught.value)
    return caught.value


def test_picking_a_role_already_taken_is_refused_and_changes_nothing() -> None:
    """ "an illegal one raises an error that carries the legal actions; nothing is ever
    half-applied"."""
    game = new(4)
    pick(game, Role.PROSPECTOR)
    error = assert_refused(game, 1, PickRole(Role.PROSPECTOR))
    assert len(error.legal) == 6


def test_acting_out_of_turn_is_refused_with_no_legal_actions() -> None:
    """Only the seats that must decide now may act."""
    game = new(4)
    error = assert_refused(game, 2, PickRole(Role.SETTLER))
    assert list(error.legal) == []
    assert "not Chris's decision" in error.reason


def test_an_action_of_another_phase_is_refused() -> None:
    """A sale in the role selection is not legal."""
    assert_refused(new(4), 0, Sell(CORN))


def test_an_illegal_load_changes_nothing() -> None:
    """Seed 000: "she may not choose the 5 space ship as she could not load all 6 sugar"."""
    game = blank(4)
    goods(game.state, 0, sugar=6)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert_refused(game, 0, Load(SUGAR, 0))


def test_an_illegal_layout_changes_nothing() -> None:
    """Seed 002: "All empty circles must be filled, if possible"."""
    game = blank(4)
    plant(game.state, 0, CORN)
    game = ready(game)
    pick(game, Role.MAYOR)
    assert_refused(game, 0, PlaceColonists(Layout((0, 0, 0, 0, 0), 0, ()), extra=True))


def test_an_unaffordable_building_changes_nothing() -> None:
    """The builder pays the cost: an unaffordable building is refused."""
    game = ready(blank(4, doubloons=1))
    pick(game, Role.BUILDER)
    assert_refused(game, 0, Build(Building.CITY_HALL))


def test_nothing_may_be_done_after_the_game_is_over() -> None:
    """The game ends after the last round: no more decisions."""
    game = new(4)
    empty_colonist_supply(game.state)
    game = ready(game)
    pick(game, Role.MAYOR)
    for d in game.decisions():
        game.apply(d.seat, d.actions[0])
    pick_and_finish(game, Role.PROSPECTOR, Role.CRAFTSMAN, Role.TRADER)
    assert game.over and game.decisions() == ()
    with pytest.raises(IllegalAction):
        game.apply(0, PickRole(Role.SETTLER))


# -- decisions ----------------------------------------------------------------------------


def test_a_decision_with_one_legal_action_is_forced() -> None:
    """Seed 000: "Goods will be shipped automatically if players have no options" — the
    decision is marked forced for the moderator to apply."""
    game = blank(4)
    goods(game.state, 0, corn=2, sugar=1)
    ship(game.state, 0, SUGAR, 5)
    ship(game.state, 1, CORN, 1)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    (decision,) = game.decisions()
    assert decision.kind is DecisionKind.LOAD
    assert decision.forced and list(decision.actions) == [Load(CORN, 1)]


def test_a_decision_with_a_choice_is_not_forced() -> None:
    """Two or more legal actions: the player must choose."""
    game = new(4)
    (decision,) = game.decisions()
    assert decision.kind is DecisionKind.ROLE and not decision.forced
    assert len(decision.actions) == 7


def test_the_mayor_phase_asks_every_player_at_once() -> None:
    """Issue 2: "The mayor phase takes one decision per player — his whole new layout —
    and accepts the players' layouts in any order"."""
    game = blank(4)
    for seat in range(4):
        plant(game.state, seat, CORN)
    game = ready(game)
    pick(game, Role.MAYOR)
    decisions = game.decisions()
    assert [d.seat for d in decisions] == [0, 1, 2, 3]
    assert all(d.kind is DecisionKind.MAYOR for d in decisions)
    assert [d.forced for d in decisions] == [False, True, True, True]
    for d in reversed(decisions):
        game.apply(d.seat, d.actions[0])
    assert game.state.phase is Phase.ROLE


def test_the_settler_hacienda_question_is_its_own_decision() -> None:
    """Rules-reference: "before taking a face-up tile, the player may also take the top
    face-down tile" — asked first."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    build(game.state, 0, Building.HACIENDA, 1)
    game = ready(game)
    pick(game, Role.SETTLER)
    assert game.kind() is DecisionKind.HACIENDA
    game.apply(0, UseHacienda(False))
    assert game.kind() is DecisionKind.SETTLE


# -- the moderator's defaults ------------------------------------------------------------


def default(game: Game) -> Action | None:
    (seat,) = game.deciding()
    return defaults.default_action(game, seat)


def test_default_ship_is_the_smallest_that_holds_the_goods() -> None:
    """Seed 000: "If no ship is specified, the smallest that will hold the shipped goods
    will be used" — 5 corn, empty ships of 5, 6 and 7: the 5."""
    game = blank(4)
    goods(game.state, 0, corn=5)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert default(game) == Load(CORN, 0)
    assert defaults.smallest_ship(game.state, 0, CORN) == Load(CORN, 0)


def test_default_ship_skips_ships_too_small_to_hold_all() -> None:
    """Seed 000: "the smallest that will hold the shipped goods" — 6 corn: the 6."""
    game = blank(4)
    goods(game.state, 0, corn=6)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert default(game) == Load(CORN, 1)


def test_default_ship_when_none_holds_all_is_the_largest() -> None:
    """Seed 000: "he must choose the ship where he can load the most goods" — 9 corn."""
    game = blank(4)
    goods(game.state, 0, corn=9)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert default(game) == Load(CORN, 2)


def test_default_goods_are_the_greatest_quantity() -> None:
    """Seed 000: "If no goods are specified, the greatest quantity will be shipped
    first"."""
    game = blank(4)
    goods(game.state, 0, coffee=2, corn=3)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert default(game) == Load(CORN, 0)


def test_default_goods_ties_go_to_the_lowest_trading_value() -> None:
    """Seed 000: "resolving ties in favour of the lowest trading value"."""
    game = blank(4)
    goods(game.state, 0, coffee=3, sugar=3, tobacco=3)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert default(game) == Load(SUGAR, 0)


def test_default_quantity_is_what_can_be_shipped() -> None:
    """Seed 000: "the greatest quantity will be shipped" — counted as barrels that go
    aboard: 5 corn with one space on the corn ship ship 1; 2 indigo ship 2."""
    game = blank(4)
    goods(game.state, 0, corn=5, indigo=2)
    ship(game.state, 0, CORN, 4)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert default(game) == Load(INDIGO, 1)


def test_default_never_uses_the_wharf() -> None:
    """Defaults: "Construction hut and wharf: used only when ordered"."""
    game = blank(4)
    build(game.state, 0, Building.WHARF, 1)
    goods(game.state, 0, corn=2, coffee=2)
    ship(game.state, 0, SUGAR, 1)
    ship(game.state, 1, TOBACCO, 1)
    ship(game.state, 2, INDIGO, 1)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert set(game.legal_actions(0)) == {LoadWharf(CORN), LoadWharf(COFFEE), PASS}
    assert default(game) == PASS


def test_default_storage_keeps_the_highest_value_goods() -> None:
    """Defaults page: "If nothing is specified for discarding excess goods, the highest
    value goods will be retained" — by trading value: the wind rose keeps a coffee."""
    game = blank(4)
    goods(game.state, 1, corn=3, coffee=1)
    for i, g in enumerate((CORN, INDIGO, SUGAR)):
        ship(game.state, i, g, game.state.ships[i].capacity)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert default(game) == Store((), COFFEE)


def test_default_storage_puts_the_highest_value_kinds_in_the_warehouses() -> None:
    """Defaults page: "the highest value goods will be retained" — the large warehouse
    keeps coffee and tobacco, the wind rose a sugar (the engine's reading: trading value
    of the kinds, not the number of barrels)."""
    game = blank(4)
    build(game.state, 1, Building.LARGE_WAREHOUSE, 1)
    goods(game.state, 1, corn=4, sugar=2, tobacco=1, coffee=1)
    for i, g in enumerate((CORN, INDIGO, SUGAR)):
        ship(game.state, i, g, game.state.ships[i].capacity)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert default(game) == Store((TOBACCO, COFFEE), SUGAR)


def test_default_extra_barrel_is_the_highest_value_kind_produced() -> None:
    """Defaults page: "If no extra goods are specified, the highest trading value will be
    provided" (of the kinds he produced)."""
    game = blank(4)
    plant(game.state, 0, CORN, manned=1)
    plant(game.state, 0, INDIGO, manned=1)
    build(game.state, 0, Building.SMALL_INDIGO_PLANT, 1)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert default(game) == ExtraGood(INDIGO)


def test_default_extra_barrel_skips_a_kind_the_supply_lacks() -> None:
    """ "one extra barrel of a kind he produced this phase, if the supply has one"."""
    game = blank(4)
    plant(game.state, 0, CORN, manned=1)
    plant(game.state, 0, INDIGO, manned=1)
    build(game.state, 0, Building.SMALL_INDIGO_PLANT, 1)
    goods(game.state, 2, indigo=10)
    game = ready(game)
    pick(game, Role.CRAFTSMAN)
    assert default(game) == ExtraGood(CORN)


def test_default_prospector_is_the_one_bearing_most_doubloons() -> None:
    """Defaults page: "The Prospector bearing the most Doubloons will be used"."""
    game = new(5)
    game.state.role_doubloons[Role.PROSPECTOR2] = 2
    game.state.role_doubloons[Role.PROSPECTOR] = 1
    game = ready(game)
    assert defaults.richest_prospector(game.state) is Role.PROSPECTOR2
    game.state.role_doubloons[Role.PROSPECTOR] = 2
    assert defaults.richest_prospector(game.state) is Role.PROSPECTOR


def test_default_hacienda_takes_the_extra_plantation() -> None:
    """Defaults page: the hacienda "Will give you an extra plantation by default"."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    build(game.state, 0, Building.HACIENDA, 1)
    game = ready(game)
    pick(game, Role.SETTLER)
    assert default(game) == UseHacienda(True)


def test_default_mayor_takes_the_extra_colonist() -> None:
    """Seed 002: "The extra colonist for the Mayor will be taken unless the player says
    they do not want it"."""
    game = blank(4)
    plant(game.state, 0, CORN, tiles=2)
    plant(game.state, 1, CORN)
    game = ready(game)
    pick(game, Role.MAYOR)
    action = defaults.default_action(game, 0)
    assert action == PlaceColonists(Layout((2, 0, 0, 0, 0), 0, ()), extra=True)
    assert defaults.default_action(game, 1) == PlaceColonists(Layout((1, 0, 0, 0, 0), 0, ()))


def test_default_mayor_without_a_supply_takes_no_extra_colonist() -> None:
    """Seed 002: "When the colonist supply runs out, the mayor may not use his
    privilege"."""
    game = blank(4)
    plant(game.state, 0, CORN, tiles=2)
    empty_colonist_supply(game.state)
    game = ready(game)
    pick(game, Role.MAYOR)
    action = defaults.default_action(game, 0)
    assert isinstance(action, PlaceColonists) and not action.extra


def test_default_mayor_keeps_placed_colonists_and_mans_production_first() -> None:
    """The mayor default (defaults.py): colonists already placed stay; newcomers man a
    plantation and its production building together, best goods first."""
    game = blank(4)
    s = game.state
    plant(s, 0, CORN, manned=1)
    plant(s, 0, COFFEE)
    plant(s, 0, INDIGO)
    build(s, 0, Building.COFFEE_ROASTER)
    build(s, 0, Building.SMALL_INDIGO_PLANT)
    s.colonist_supply += s.colonist_ship - 2  # two on the ship: Anna gets 1, Bob 1
    s.colonist_ship = 2
    game = ready(game)
    pick(game, Role.MAYOR)
    action = defaults.default_action(game, 0)
    # 1 (corn) + 1 (ship) + 1 (privilege) = 3: corn stays, coffee plantation + roaster.
    assert action == PlaceColonists(
        Layout((1, 0, 0, 0, 1), 0, ((Building.COFFEE_ROASTER, 1),)), extra=True
    )


def test_default_applies_a_forced_action() -> None:
    """A decision with one legal action has that action as its default."""
    game = blank(4)
    goods(game.state, 0, corn=2)
    ship(game.state, 1, CORN, 1)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    assert default(game) == Load(CORN, 1)


@pytest.mark.parametrize("kind", ["role", "settle", "build", "sell"])
def test_no_published_default_for_roles_tiles_buildings_and_sales(kind: str) -> None:
    """Defaults page: "Items not listed either occur automatically or need to be
    ordered" — a role, a tile, a building and a sale must be ordered."""
    game = blank(4, doubloons=5)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    goods(game.state, 0, corn=1)
    game = ready(game)
    role = {"settle": Role.SETTLER, "build": Role.BUILDER, "sell": Role.TRADER}.get(kind)
    if role is not None:
        pick(game, role)
    assert len(game.legal_actions(0)) > 1
    assert defaults.default_action(game, 0) is None


def test_every_default_is_legal_through_a_played_game() -> None:
    """Every default the moderator would apply is a legal action (a game played on
    defaults alone, roles picked in order)."""
    game = new(4, seed=7)
    for _ in range(3000):
        if game.over:
            break
        decision = game.decisions()[0]
        action = defaults.default_action(game, decision.seat)
        if action is None:
            legal = decision.actions
            action = PASS if PASS in legal else legal[0]
        assert action in decision.actions
        game.apply(decision.seat, action)
    assert game.over
