"""The bots: every choice legal, the same seed the same game, and the search player
blind to what its seat cannot see."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from moderator.bots import Budget, HeuristicBot, RandomBot, SearchBot, search
from moderator.bots.search import think
from moderator.engine import DecisionKind, Game, PickRole, PlaceColonists
from moderator.engine.defaults import default_action

NAMES = ["Anna", "Bob", "Chris", "David"]


def play_out(game: Game, bots: list[RandomBot] | list[HeuristicBot]) -> Game:
    """Every seat by its bot to the end; Game.apply refuses any illegal choice."""
    while not game.over:
        d = game.decisions()[0]
        game.apply(d.seat, bots[d.seat].choose(game, d.seat))
    return game


def heuristic_game(seed: int, stop: int) -> Game:
    """A game played by heuristic bots for ``stop`` decisions."""
    game = Game.new(NAMES, seed)
    bots = [HeuristicBot(seed + i) for i in range(4)]
    for _ in range(stop):
        d = game.decisions()[0]
        game.apply(d.seat, bots[d.seat].choose(game, d.seat))
    return game


def until(game: Game, kind: DecisionKind) -> Game:
    """Play on with heuristic bots until a decision of ``kind`` with a choice is due."""
    bots = [HeuristicBot(i) for i in range(4)]
    while True:
        decisions = game.decisions()
        d = decisions[0]
        if d.kind is kind and not d.forced:
            return game
        game.apply(d.seat, bots[d.seat].choose(game, d.seat))


@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot])
def test_a_bot_plays_a_whole_game_and_the_same_seed_plays_the_same_game(bot: type) -> None:
    first = play_out(Game.new(NAMES, 7), [bot(i) for i in range(4)])
    again = play_out(Game.new(NAMES, 7), [bot(i) for i in range(4)])
    assert first.over
    assert first.to_json() == again.to_json()


@pytest.mark.parametrize(
    "bot", [RandomBot(1), HeuristicBot(1), SearchBot(1, Budget.of_playouts(2))]
)
def test_a_bot_asked_for_a_seat_with_no_decision_refuses(bot: RandomBot) -> None:
    game = Game.new(NAMES, 3)
    (waiting,) = game.deciding()
    with pytest.raises(ValueError, match="no decision"):
        bot.choose(game, (waiting + 1) % 4)


def test_the_heuristic_takes_the_published_default_for_the_mayor() -> None:
    game = until(Game.new(NAMES, 5), DecisionKind.MAYOR)
    seat = game.decisions()[0].seat
    assert HeuristicBot(0).choose(game, seat) == default_action(game, seat)


def test_the_search_player_returns_a_legal_action_and_changes_nothing() -> None:
    game = heuristic_game(11, 40)
    seat = game.decisions()[0].seat
    before = game.to_json()
    action = search(game, seat, seed=3, budget=Budget.of_playouts(12))
    assert action in game.legal_actions(seat)
    assert game.to_json() == before


def test_with_a_playout_budget_the_search_is_a_function_of_position_seat_and_seed() -> None:
    game = heuristic_game(12, 25)
    seat = game.decisions()[0].seat
    budget = Budget.of_playouts(10)
    first = think(game, seat, 99, budget)
    again = think(Game.from_json(game.to_json()), seat, 99, budget)
    assert first == again
    assert first.playouts == 10


def test_the_search_does_not_see_the_face_down_plantations() -> None:
    """Two positions that differ only in what no seat can see (the order of the
    face-down pile and the generator that will reshuffle the discards) are the same
    position to the search player: it samples those anew, it does not read them."""
    game = heuristic_game(13, 30)
    seat = game.decisions()[0].seat
    other = game.copy()
    other.state.pile.reverse()
    other.state.rng ^= 0x5DEECE66D
    assert game.state.pile != other.state.pile
    budget = Budget.of_playouts(12)
    assert think(game, seat, 5, budget) == think(other, seat, 5, budget)


def test_the_search_spends_nothing_on_a_decision_without_choice() -> None:
    game = Game.new(NAMES, 4)
    bots = [HeuristicBot(i) for i in range(4)]
    while not any(d.forced for d in game.decisions()):
        d = game.decisions()[0]
        game.apply(d.seat, bots[d.seat].choose(game, d.seat))
    forced = next(d for d in game.decisions() if d.forced)
    thought = think(game, forced.seat, 1, Budget.of_playouts(50))
    assert thought.action == forced.actions[0]
    assert thought.playouts == 0


def test_a_time_budget_makes_at_least_one_playout() -> None:
    game = Game.new(NAMES, 8)
    thought = think(game, 0, 1, Budget(seconds=1e-9))
    assert thought.playouts >= 1
    assert isinstance(thought.action, PickRole)


def test_the_mayor_search_tries_the_published_default_layout_first() -> None:
    """With a single playout the search plays its first candidate: for the mayor, the
    moderator's default layout (with the privilege colonist when there is one)."""
    game = until(Game.new(NAMES, 9), DecisionKind.MAYOR)
    seat = game.decisions()[0].seat
    default = default_action(game, seat)
    assert isinstance(default, PlaceColonists)
    assert think(game, seat, 2, Budget.of_playouts(1)).action == default
    assert think(game, seat, 2, Budget.of_playouts(8)).action in game.legal_actions(seat)


@pytest.mark.parametrize(
    ("seconds", "playouts"), [(None, None), (0.0, None), (-1.0, None), (None, 0), (1.0, -3)]
)
def test_a_budget_without_time_or_playouts_is_refused(
    seconds: float | None, playouts: int | None
) -> None:
    with pytest.raises(ValueError):
        Budget(seconds=seconds, playouts=playouts)


def test_the_search_bot_plays_a_whole_game_against_heuristics() -> None:
    game = Game.new(NAMES, 21)
    bots = [SearchBot(1, Budget.of_playouts(2)), HeuristicBot(2), HeuristicBot(3), HeuristicBot(4)]
    while not game.over:
        d = game.decisions()[0]
        game.apply(d.seat, bots[d.seat].choose(game, d.seat))
    assert game.over


def test_the_search_runs_in_another_process_with_the_same_result() -> None:
    """The service can think off the mail path: the position goes to a worker process
    and the action comes back, the same as when searched in place."""
    game = heuristic_game(14, 20)
    seat = game.decisions()[0].seat
    budget = Budget.of_playouts(6)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        remote = pool.submit(search, game, seat, 77, budget).result(timeout=120)
    assert remote == search(game, seat, 77, budget)
