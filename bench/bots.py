"""Bot benchmark: win rates over seeded 4-player games, with 95 % confidence intervals.

Usage: python bench/bots.py [--games 500] [--playouts 12 | --seconds 1.0]
                            [--processes 2] [--only heuristic|search]

Two match-ups, each over --games seeded games; the bot under test sits in seat
``seed % 4`` so that it plays every seat equally often:

  heuristic  the heuristic player against three random players (target: wins >= 80 %)
  search     the search player against three heuristic players (target: >= 40 %;
             an equal share is 25 %)

A win shared by k tied winners counts 1/k. The interval is Wilson's score interval at
95 %. The search player thinks with --playouts playouts per decision (deterministic:
the same figures on every run) or --seconds of wall-clock time per decision; the games
are spread over --processes processes, and the seconds it spent per decision are
printed with the time 500 games would take at 1 s per decision.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import platform
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from moderator.bots import Bot, Budget, HeuristicBot, RandomBot
from moderator.bots.search import think
from moderator.engine import Game

PLAYERS = 4
EQUAL_SHARE = 1 / PLAYERS
TARGETS = {"heuristic": 0.80, "search": 0.40}


@dataclass(frozen=True)
class Result:
    share: float  # of the win: 1, 1/k for a k-way tie, 0
    score: int
    decisions: int  # the tested seat's decisions, forced ones included
    searched: int  # of which the search player thought about
    playouts: int
    seconds: float  # spent choosing, over all the seat's decisions


def play(matchup: str, seed: int, budget: Budget) -> Result:
    game = Game.new([f"P{i}" for i in range(PLAYERS)], seed)
    tested = seed % PLAYERS
    others: dict[int, Bot] = {}
    for seat in range(PLAYERS):
        if seat != tested:
            bot_seed = seed * 10 + seat
            others[seat] = RandomBot(bot_seed) if matchup == "heuristic" else HeuristicBot(bot_seed)
    heuristic = HeuristicBot(seed * 10 + tested)
    decisions = searched = playouts = 0
    seconds = 0.0
    while not game.over:
        d = game.decisions()[0]
        if d.seat != tested:
            game.apply(d.seat, others[d.seat].choose(game, d.seat))
            continue
        start = time.perf_counter()
        if matchup == "heuristic":
            action = heuristic.choose(game, d.seat)
        else:
            thought = think(game, d.seat, seed * 1_000_003 + decisions, budget)
            action = thought.action
            searched += thought.playouts > 0
            playouts += thought.playouts
        seconds += time.perf_counter() - start
        decisions += 1
        game.apply(d.seat, action)
    winners = game.winners()
    share = 1 / len(winners) if tested in winners else 0.0
    return Result(share, game.scores()[tested].total, decisions, searched, playouts, seconds)


def play_many(job: tuple[str, list[int], Budget]) -> list[Result]:
    matchup, seeds, budget = job
    return [play(matchup, seed, budget) for seed in seeds]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def run(matchup: str, games: int, budget: Budget, processes: int) -> list[Result]:
    seeds = list(range(games))
    # Small interleaved chunks keep both processes busy to the end.
    chunks = [seeds[i : i + 5] for i in range(0, games, 5)]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        parts = pool.map(play_many, [(matchup, chunk, budget) for chunk in chunks])
        return [r for part in parts for r in part]


def report(matchup: str, results: list[Result], wall: float, processes: int) -> None:
    n = len(results)
    wins = sum(r.share for r in results)
    low, high = wilson(wins, n)
    rate = wins / n
    target = TARGETS[matchup]
    verdict = "met" if low >= target else ("likely" if rate >= target else "NOT met")
    against = "3 random players" if matchup == "heuristic" else "3 heuristic players"
    print(
        f"{matchup:>9} vs {against}: {n} games, wins {wins:.1f}, "
        f"win rate {100 * rate:.1f} % (95 % CI {100 * low:.1f}-{100 * high:.1f} %); "
        f"target {100 * target:.0f} % {verdict}; equal share {100 * EQUAL_SHARE:.0f} %"
    )
    score = sum(r.score for r in results) / n
    print(f"{'':>9}   average score {score:.1f}; {wall:.0f} s wall on {processes} processes")
    if matchup == "search":
        decisions = sum(r.decisions for r in results)
        searched = sum(r.searched for r in results)
        seconds = sum(r.seconds for r in results)
        playouts = sum(r.playouts for r in results)
        print(
            f"{'':>9}   {decisions / n:.1f} decisions a game, {searched / n:.1f} searched "
            f"(the rest forced or with one candidate); {playouts / max(searched, 1):.1f} "
            f"playouts and {seconds / max(searched, 1):.3f} s per searched decision, "
            f"{seconds / decisions:.3f} s per decision overall"
        )
        hours = 500 * searched / n / 3600
        print(
            f"{'':>9}   at 1 s per searched decision, 500 games would take "
            f"{hours:.1f} h of thinking ({hours / processes:.1f} h on {processes} processes)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--playouts", type=int, default=12, help="per search decision")
    parser.add_argument("--seconds", type=float, help="per search decision, instead of playouts")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--only", choices=sorted(TARGETS), help="run one match-up")
    args = parser.parse_args()
    budget = Budget(seconds=args.seconds) if args.seconds else Budget.of_playouts(args.playouts)
    thinking = (
        f"{args.seconds} s per decision"
        if args.seconds
        else f"{args.playouts} playouts per decision"
    )
    print(
        f"python {platform.python_version()} on {platform.machine()}; {args.games} seeded "
        f"{PLAYERS}-player games per match-up (seeds 0-{args.games - 1}, the tested bot in "
        f"seat seed % {PLAYERS}); {args.processes} processes; search player: {thinking}"
    )
    for matchup in [args.only] if args.only else ["heuristic", "search"]:
        start = time.perf_counter()
        results = run(matchup, args.games, budget, args.processes)
        report(matchup, results, time.perf_counter() - start, args.processes)


if __name__ == "__main__":
    main()
