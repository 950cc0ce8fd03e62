"""The settler (rules-reference, "Roles": Settler)."""

from __future__ import annotations

from positions import (
    COFFEE,
    CORN,
    INDIGO,
    SUGAR,
    TOBACCO,
    blank,
    face_up,
    pick,
    plant,
    quarry,
    ready,
)

from moderator.engine import PASS, Phase, Role, TakePlantation, TakeQuarry
from moderator.engine.events import PlantationsRevealed, Skipped


def test_each_player_in_order_may_take_one_face_up_plantation() -> None:
    """ "in order, each player may take one face-up plantation" — from the settler on."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    game.state.governor = game.state.turn = 2
    game = ready(game)
    pick(game, Role.SETTLER)
    order = []
    for good in (COFFEE, TOBACCO, SUGAR, INDIGO):
        (seat,) = game.deciding()
        order.append(seat)
        game.apply(seat, TakePlantation(good))
    assert order == [2, 3, 0, 1]
    boards = [p.plantations for p in game.state.players]
    assert boards[2][COFFEE] == boards[3][TOBACCO] == boards[0][SUGAR] == boards[1][INDIGO] == 1


def test_a_plantation_is_taken_unoccupied() -> None:
    """A new plantation arrives without a colonist (only the hospice mans it)."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    game = ready(game)
    pick(game, Role.SETTLER)
    game.apply(0, TakePlantation(COFFEE))
    p = game.state.players[0]
    assert p.plantations[COFFEE] == 1 and p.occupied[COFFEE] == 0


def test_only_face_up_plantations_may_be_taken() -> None:
    """ "each player may take one face-up plantation" — not a kind that is not showing."""
    game = blank(4)
    face_up(game.state, CORN, CORN, INDIGO, INDIGO, SUGAR)
    game = ready(game)
    pick(game, Role.SETTLER)
    goods = {a.good for a in game.legal_actions(0) if isinstance(a, TakePlantation)}
    assert goods == {CORN, INDIGO, SUGAR}


def test_a_player_may_take_nothing() -> None:
    """ "each player may take one face-up plantation" — may, so he may pass."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    game = ready(game)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    assert game.state.players[0].island_tiles == 0
    assert game.deciding() == (1,)


def test_settler_may_take_a_quarry_as_his_privilege() -> None:
    """ "The settler (privilege) … may take a quarry instead (while quarries remain)"."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    game = ready(game)
    pick(game, Role.SETTLER)
    assert TakeQuarry() in game.legal_actions(0)
    game.apply(0, TakeQuarry())
    assert game.state.players[0].quarries == 1
    assert game.state.quarries == 7


def test_other_players_may_not_take_a_quarry() -> None:
    """Only "the settler (privilege), and any player with an occupied construction hut,
    may take a quarry"."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    game = ready(game)
    pick(game, Role.SETTLER)
    game.apply(0, PASS)
    assert TakeQuarry() not in game.legal_actions(1)


def test_no_quarry_when_none_remain() -> None:
    """ "may take a quarry instead (while quarries remain)"."""
    game = blank(4)
    face_up(game.state, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    quarry(game.state, 1, tiles=8)
    game = ready(game)
    pick(game, Role.SETTLER)
    assert game.state.quarries == 0
    assert TakeQuarry() not in game.legal_actions(0)


def test_a_full_island_takes_nothing() -> None:
    """ "A full island takes nothing" (12 island spaces)."""
    game = blank(4)
    s = game.state
    face_up(s, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    plant(s, 0, CORN, tiles=4)
    quarry(s, 0, tiles=8)
    game = ready(game)
    events = pick(game, Role.SETTLER)
    assert Skipped(0, Role.SETTLER) in events
    assert game.deciding() == (1,)


def test_face_up_tiles_left_are_discarded_and_n_plus_one_turned_up() -> None:
    """ "At the end the face-up tiles left are discarded and N+1 new ones turned up"."""
    game = blank(4)
    s = game.state
    face_up(s, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    pile_before = len(s.pile)
    game = ready(game)
    pick(game, Role.SETTLER)
    game.apply(0, TakePlantation(COFFEE))
    for seat in (1, 2):
        game.apply(seat, PASS)
    events = game.apply(3, TakePlantation(CORN))
    s = game.state
    assert sorted(s.discards) == [INDIGO, SUGAR, TOBACCO]
    assert len(s.face_up) == 5
    assert len(s.pile) == pile_before - 5
    assert PlantationsRevealed(tuple(s.face_up), False) in events
    assert s.phase is Phase.ROLE


def test_discards_are_reshuffled_when_the_pile_runs_out() -> None:
    """ "when the draw pile runs out, the discards are shuffled into a new pile"."""
    game = blank(4)
    s = game.state
    face_up(s, CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
    # Move all but two face-down tiles to the discards.
    s.discards = s.pile[2:]
    s.pile = s.pile[:2]
    game = ready(game)
    pick(game, Role.SETTLER)
    for seat in range(4):
        game.apply(seat, PASS)
    s = game.state
    assert len(s.face_up) == 5
    total = len(s.face_up) + len(s.pile) + len(s.discards)
    assert s.discards == []  # the old discards and the last face-up five became the pile
    assert total == 8 + 9 + 10 + 11 + 12


def test_settler_phase_needs_no_decision_from_a_player_who_can_take_nothing() -> None:
    """ "A full island takes nothing" — and no face-up tile nor quarry left means nothing
    to take for anyone but a player who may take a quarry."""
    game = blank(4)
    s = game.state
    face_up(s)
    game = ready(game)
    pick(game, Role.SETTLER)
    assert game.legal_actions(0) == [TakeQuarry(), PASS]
    game.apply(0, PASS)
    assert game.state.phase is Phase.ROLE  # the others had nothing to take
