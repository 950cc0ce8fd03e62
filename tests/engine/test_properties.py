"""Properties of the engine over 1,000 seeded random games of 2 to 5 players."""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from moderator.engine import Game, IllegalAction, replay
from moderator.engine.actions import Action
from moderator.engine.components import (
    GOODS_BARRELS,
    PLANTATION_TILES,
    QUARRIES,
    SETUPS,
    TWO_PLAYER_GOODS_REMOVED,
    TWO_PLAYER_PLANTATIONS_REMOVED,
    TWO_PLAYER_QUARRIES_REMOVED,
    Good,
)
from moderator.engine.state import State

GAMES_PER_COUNT = 250  # x 4 player counts = 1,000 games
MAX_DECISIONS = 5_000  # a random game takes a few hundred; more means it never ends
TRY_EVERY_OFFERED = 5  # every 5th step, the offered actions are applied to copies
SAMPLE_OFFERED = 12  # ... all of them, or this many spread evenly over a long list


@dataclass
class Outcome:
    games: int = 0
    decisions: int = 0
    failures: list[str] = field(default_factory=list)


def totals(s: State) -> tuple[int, ...]:
    """Colonists, VP chips, goods per kind, plantations per kind, quarries: all in play."""
    out = [
        s.colonist_supply + s.colonist_ship + sum(p.colonists for p in s.players),
        s.vp_chips + sum(p.vp for p in s.players),
    ]
    for g in Good:
        out.append(
            s.goods_supply[g]
            + sum(p.goods[g] for p in s.players)
            + sum(ship.count for ship in s.ships if ship.good is g)
            + s.trading_house.count(g)
        )
    for g in Good:
        out.append(
            s.pile.count(g)
            + s.face_up.count(g)
            + s.discards.count(g)
            + sum(p.plantations[g] for p in s.players)
        )
    out.append(s.quarries + sum(p.quarries for p in s.players))
    return tuple(out)


def box(players: int) -> tuple[int, ...]:
    setup = SETUPS[players]
    two = setup.two_player
    out = [setup.colonist_supply + setup.colonist_ship, setup.vp_chips]
    out += [GOODS_BARRELS[g] - (TWO_PLAYER_GOODS_REMOVED if two else 0) for g in Good]
    out += [PLANTATION_TILES[g] - (TWO_PLAYER_PLANTATIONS_REMOVED if two else 0) for g in Good]
    out.append(QUARRIES - (TWO_PLAYER_QUARRIES_REMOVED if two else 0))
    return tuple(out)


def check_step(game: Game, expected: tuple[int, ...], where: str) -> list[str]:
    s = game.state
    problems = []
    if totals(s) != expected:
        problems.append(f"{where}: components not conserved {totals(s)} != {expected}")
    for p in s.players:
        if p.doubloons < 0:
            problems.append(f"{where}: {p.name} has {p.doubloons} doubloons")
        if min(p.goods) < 0 or p.san_juan < 0:
            problems.append(f"{where}: {p.name} has a negative count")
    text = game.to_json()
    again = Game.from_json(text).to_json()
    if again != text:
        problems.append(f"{where}: JSON does not round-trip")
    return problems


def pick(rng: random.Random, actions: Sequence[Action]) -> Action:
    return actions[rng.randrange(len(actions))]


def play_games(jobs: Sequence[tuple[int, int]]) -> Outcome:
    outcome = Outcome()
    for players, seed in jobs:
        names = [f"P{i}" for i in range(players)]
        game = Game.new(names, seed)
        rng = random.Random(seed)
        expected = box(players)
        log: list[tuple[int, Action]] = []
        failures = check_step(game, expected, f"{players}p seed {seed} setup")
        step = 0
        while not game.over and step < MAX_DECISIONS and not failures:
            decisions = game.decisions()
            if not decisions:
                failures.append(f"{players}p seed {seed}: no decision but not over")
                break
            if step % TRY_EVERY_OFFERED == 0:
                for d in decisions:
                    stride = max(1, len(d.actions) // SAMPLE_OFFERED)
                    offered = d.actions[::stride]
                    for a in offered:
                        try:
                            game.copy().apply(d.seat, a)
                        except IllegalAction as exc:
                            failures.append(f"{players}p seed {seed}: offered {a} refused: {exc}")
            d = decisions[rng.randrange(len(decisions))]
            action = pick(rng, d.actions)
            game.apply(d.seat, action)
            log.append((d.seat, action))
            step += 1
            failures += check_step(game, expected, f"{players}p seed {seed} step {step}")
        if not game.over and not failures:
            failures.append(f"{players}p seed {seed}: no end after {MAX_DECISIONS} decisions")
        if not failures and replay(names, seed, log).to_json() != game.to_json():
            failures.append(f"{players}p seed {seed}: replaying the log gives another state")
        outcome.games += 1
        outcome.decisions += step
        outcome.failures += failures
    return outcome


def test_one_thousand_random_games_keep_every_invariant() -> None:
    """Every offered action applies; every game ends; colonists, goods, plantations,
    quarries and VP chips are conserved; doubloons never go negative; the JSON
    round-trips at every step; replaying the log from the seed gives the same state."""
    jobs = [(players, seed) for seed in range(GAMES_PER_COUNT) for players in (2, 3, 4, 5)]
    halves = [jobs[0::2], jobs[1::2]]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        outcomes = list(pool.map(play_games, halves))
    games = sum(o.games for o in outcomes)
    failures = [f for o in outcomes for f in o.failures]
    assert games == 1_000
    assert not failures, "\n".join(failures[:20])
