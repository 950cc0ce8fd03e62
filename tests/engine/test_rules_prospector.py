"""The prospector (rules-reference, "Roles": Prospector)."""

from __future__ import annotations

from positions import new, pick, pick_and_finish, ready

from moderator.engine import Phase, PickRole, Role
from moderator.engine.events import PhaseEnded, ProspectorPaid


def test_prospector_takes_one_doubloon_and_nobody_else_acts() -> None:
    """ "Prospector — the picker takes one doubloon; nobody else acts"."""
    game = new(4)
    events = pick(game, Role.PROSPECTOR)
    assert ProspectorPaid(0) in events and PhaseEnded(Role.PROSPECTOR) in events
    assert [p.doubloons for p in game.state.players] == [4, 3, 3, 3]
    assert game.state.phase is Phase.ROLE
    assert game.deciding() == (1,)


def test_prospector_also_takes_the_doubloons_lying_on_it() -> None:
    """ "(and takes the doubloons lying on it)" — then one more as prospector."""
    game = new(4)
    game.state.role_doubloons[Role.PROSPECTOR] = 2
    game = ready(game)
    pick(game, Role.PROSPECTOR)
    assert game.state.players[0].doubloons == 3 + 2 + 1


def test_no_prospector_at_three_players() -> None:
    """ "roles | … | 6 (no prospector)" at three players."""
    game = new(3)
    assert PickRole(Role.PROSPECTOR) not in game.legal_actions(0)


def test_both_prospectors_may_be_picked_in_one_round_at_five_players() -> None:
    """ "8 (two prospectors)" at five players: each pays its picker."""
    game = new(5)
    pick_and_finish(game, Role.PROSPECTOR)
    assert PickRole(Role.PROSPECTOR2) in game.legal_actions(1)
    pick_and_finish(game, Role.PROSPECTOR2)
    assert [p.doubloons for p in game.state.players] == [5, 5, 4, 4, 4]


def test_an_unpicked_prospector_gains_a_doubloon_like_any_role() -> None:
    """ "one doubloon is added to each role left unpicked"."""
    game = new(4)
    pick_and_finish(game, Role.CRAFTSMAN, Role.TRADER, Role.CAPTAIN, Role.BUILDER)
    assert game.state.role_doubloons[Role.PROSPECTOR] == 1
