"""Round structure, the end of the game and scoring (rules-reference)."""

from __future__ import annotations

from positions import (
    CORN,
    SUGAR,
    blank,
    build,
    empty_colonist_supply,
    finish_phase,
    goods,
    new,
    pick,
    pick_and_finish,
    ready,
    vp,
)

from moderator.engine import Build, Building, Load, Phase, Role
from moderator.engine.events import EndTriggered, GameEnded, RoundEnded, RoundStarted

# Roles that need no decision in a fresh game: nobody has goods, colonists or production.
QUIET = (Role.PROSPECTOR, Role.CRAFTSMAN, Role.TRADER, Role.CAPTAIN)


def test_picker_takes_the_doubloons_lying_on_the_role() -> None:
    """ "each player picks one role not yet picked this round (and takes the doubloons
    lying on it)"."""
    game = new(4)
    game.state.role_doubloons[Role.TRADER] = 2
    game = ready(game)
    pick(game, Role.TRADER)
    assert game.state.players[0].doubloons == 3 + 2
    assert game.state.role_doubloons[Role.TRADER] == 0


def test_a_role_picked_this_round_cannot_be_picked_again() -> None:
    """ "each player picks one role not yet picked this round"."""
    game = new(4)
    pick(game, Role.PROSPECTOR)
    legal = game.legal_actions(1)
    assert all(a.role is not Role.PROSPECTOR for a in legal)  # type: ignore[union-attr]
    assert len(legal) == 6


def test_players_pick_in_seat_order_from_the_governor() -> None:
    """ "Starting with the governor, each player picks one role"."""
    game = new(4)
    seats = []
    for role in QUIET:
        seats.append(game.deciding()[0])
        pick(game, role)
        finish_phase(game)
    assert seats == [0, 1, 2, 3]


def test_unpicked_roles_gain_a_doubloon_at_the_end_of_the_round() -> None:
    """ "When every player has picked, one doubloon is added to each role left unpicked,
    all roles return"."""
    game = new(4)
    pick_and_finish(game, *QUIET)
    s = game.state
    assert {Role(r): d for r, d in s.role_doubloons.items()} == {
        Role.SETTLER: 1,
        Role.MAYOR: 1,
        Role.BUILDER: 1,
        Role.CRAFTSMAN: 0,
        Role.TRADER: 0,
        Role.CAPTAIN: 0,
        Role.PROSPECTOR: 0,
    }
    assert s.role_taken == {}
    assert len(game.legal_actions(game.deciding()[0])) == 7


def test_the_governor_passes_to_the_left_after_the_round() -> None:
    """ "and the governor passes to the left"."""
    game = new(4)
    events = pick_and_finish(game, *QUIET)
    assert RoundEnded(1) in events and RoundStarted(2, 1) in events
    assert game.state.governor == 1
    assert game.deciding() == (1,)


def test_the_governor_wraps_round_to_the_first_seat() -> None:
    """ "the governor passes to the left" — from the last seat back to the first."""
    game = new(3)
    game.state.governor = game.state.turn = 2
    game = ready(game)
    pick_and_finish(game, Role.CRAFTSMAN, Role.TRADER, Role.CAPTAIN)
    assert game.state.governor == 0


def test_two_player_governor_and_other_alternate_three_roles_each() -> None:
    """Two-player variant: "each round the governor and the other player alternate picking
    roles until each has 3; one doubloon goes on the one left over"."""
    game = new(2)
    pickers = []
    for role in (
        Role.PROSPECTOR,
        Role.CRAFTSMAN,
        Role.TRADER,
        Role.CAPTAIN,
        Role.BUILDER,
        Role.SETTLER,
    ):
        assert game.state.round == 1
        pickers.append(game.deciding()[0])
        pick(game, role)
        finish_phase(game)
    assert pickers == [0, 1, 0, 1, 0, 1]  # G, O, G, O, G, O
    s = game.state
    assert s.round == 2 and s.governor == 1
    assert {Role(r): d for r, d in s.role_doubloons.items() if d} == {Role.MAYOR: 1}


def test_two_player_second_round_starts_with_the_new_governor() -> None:
    """Two-player variant: the governor passes, and the new governor picks first."""
    game = new(2)
    pick_and_finish(
        game,
        Role.PROSPECTOR,
        Role.CRAFTSMAN,
        Role.TRADER,
        Role.CAPTAIN,
        Role.BUILDER,
        Role.SETTLER,
    )
    pickers = []
    for role in (Role.PROSPECTOR, Role.CRAFTSMAN):
        pickers.append(game.deciding()[0])
        pick_and_finish(game, role)
    assert pickers == [1, 0]


# -- the end of the game -------------------------------------------------------------


def test_colonist_ship_not_refilled_ends_the_game_at_the_end_of_the_round() -> None:
    """ "The game ends at the end of the round in which any of these happened: the mayor
    could not refill the colonist ship as required"."""
    game = new(4)
    empty_colonist_supply(game.state, keep=2)  # the refill needs at least 4
    game = ready(game)
    events = pick_and_finish(game, Role.MAYOR)
    assert EndTriggered("the colonist ship could not be refilled") in events
    # The mayor took one of the two as his privilege; the ship got the last one.
    assert game.state.colonist_ship == 1 and game.state.colonist_supply == 0
    # The round is played out: three more picks.
    assert game.state.phase is Phase.ROLE and not game.over
    pick_and_finish(game, Role.PROSPECTOR, Role.CRAFTSMAN)
    assert not game.over
    events = pick_and_finish(game, Role.TRADER)
    assert game.over
    assert isinstance(events[-1], GameEnded)


def test_twelfth_city_space_ends_the_game_at_the_end_of_the_round() -> None:
    """ "a player filled his 12th city space" ends the game at the end of that round."""
    game = blank(4, doubloons=10)
    s = game.state
    for b in list(Building)[:11]:  # eleven small buildings: eleven spaces
        build(s, 0, b)
    game = ready(game)
    pick(game, Role.BUILDER)
    events = game.apply(0, Build(Building.LARGE_MARKET))
    assert EndTriggered("Anna has filled the twelfth city space") in events
    finish_phase(game)
    assert not game.over
    pick_and_finish(game, Role.PROSPECTOR, Role.CRAFTSMAN)
    assert not game.over
    pick_and_finish(game, Role.TRADER)
    assert game.over


def test_a_large_building_can_fill_the_twelfth_space() -> None:
    """ "a player filled his 12th city space" — a large building takes two spaces."""
    game = blank(4, doubloons=10)
    s = game.state
    for b in list(Building)[:10]:
        build(s, 0, b)
    game = ready(game)
    pick(game, Role.BUILDER)
    events = game.apply(0, Build(Building.GUILD_HALL))
    assert any(isinstance(e, EndTriggered) for e in events)
    assert game.state.players[0].city_used == 12


def test_victory_point_chips_running_out_ends_the_game_but_shipping_still_scores() -> None:
    """ "When the victory-point chips run out, shipping still scores (count the
    shortfall)"; the game ends at the end of that round."""
    game = blank(4)
    s = game.state
    vp(s, 3, 98)  # two chips left in the bank
    goods(s, 0, sugar=6)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    events = game.apply(0, Load(SUGAR, 2))
    assert EndTriggered("the victory-point chips have run out") in events
    assert game.state.players[0].vp == 7  # 6 barrels + the captain's privilege
    assert game.state.vp_chips == -5  # the shortfall
    finish_phase(game)
    assert not game.over
    pick_and_finish(game, Role.PROSPECTOR, Role.CRAFTSMAN, Role.TRADER)
    assert game.over


def test_shipping_after_the_chips_ran_out_still_scores() -> None:
    """ "When the victory-point chips run out, shipping still scores" — later loadings in
    the same phase score in full too."""
    game = blank(4)
    s = game.state
    vp(s, 3, 100)  # no chips left at all
    goods(s, 0, corn=2)
    goods(s, 1, sugar=3)
    game = ready(game)
    pick(game, Role.CAPTAIN)
    game.apply(0, Load(CORN, 0))
    game.apply(1, Load(SUGAR, 1))
    assert [p.vp for p in game.state.players[:2]] == [3, 3]
    assert game.state.vp_chips == -6


def test_no_end_condition_no_end() -> None:
    """The game ends only after a round in which an end condition was met."""
    game = new(4)
    pick_and_finish(game, *QUIET)
    assert not game.over and game.state.end_reason is None


# -- scoring ------------------------------------------------------------------------


def test_score_is_chips_plus_building_points_plus_large_building_bonuses() -> None:
    """ "Score = VP chips + building VP + bonuses of occupied large buildings"."""
    game = blank(4)
    s = game.state
    vp(s, 0, 10)
    build(s, 0, Building.SMALL_MARKET)  # 1 VP, even unoccupied
    build(s, 0, Building.HARBOR)  # 3 VP
    build(s, 0, Building.CITY_HALL, 1)  # 4 VP + 3 violet buildings
    game = ready(game)
    score = game.scores()[0]
    assert (score.chips, score.buildings, score.bonus) == (10, 8, 3)
    assert score.total == 21


def test_tie_goes_to_most_doubloons_plus_goods() -> None:
    """ "Ties go to the most doubloons plus goods"."""
    game = blank(4, doubloons=0)
    s = game.state
    vp(s, 0, 10)
    vp(s, 1, 10)
    s.players[0].doubloons = 3
    s.players[1].doubloons = 1
    goods(s, 1, corn=3)  # 1 + 3 = 4 beats 3
    game = ready(game)
    assert game.winners() == (1,)
    assert game.scores()[1].tiebreak == 4


def test_tie_after_doubloons_and_goods_is_shared() -> None:
    """ "a tie after that is shared"."""
    game = blank(4, doubloons=0)
    s = game.state
    vp(s, 0, 10)
    vp(s, 2, 10)
    s.players[0].doubloons = 2
    goods(s, 2, sugar=1, corn=1)
    vp(s, 1, 9)
    s.players[1].doubloons = 20
    game = ready(game)
    assert game.winners() == (0, 2)


def test_game_ended_event_carries_scores_and_winners() -> None:
    """At the end of the last round the scores are counted and the winner named."""
    game = new(4)
    s = game.state
    vp(s, 2, 5)
    empty_colonist_supply(s)
    game = ready(game)
    events = pick_and_finish(game, Role.MAYOR, *QUIET[:3])
    assert game.over
    end = events[-1]
    assert isinstance(end, GameEnded)
    assert end.scores == tuple(sc.total for sc in game.scores())
    assert end.winners == (2,)
    assert game.decisions() == ()
