"""Engine benchmark: complete random games per second and decisions per second.

Usage: python bench/engine.py [--runs 5] [--games 100]

Each run plays the same seeded random games (uniform choice among the decisions and
their legal actions, mayor layouts included) for 3, 4 and 5 players and the two-player
variant; every action goes through Game.apply and its legality check. Reported: the
median over the runs, and min–max as the machine's noise. The 4-player figure is the
table's median. Target (issue 15): at least 250 complete random 4-player games per
second (issue 2 asked for 100).

The machine's speed drifts with its load; for a repeatable figure, count instructions:
valgrind --tool=callgrind python bench/engine.py --runs 1 --games 20 --players 4
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from moderator.engine import Game

TARGET = 250  # complete random 4-player games per second (issue 15)


def play(players: int, seed: int) -> int:
    game = Game.new([f"P{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    decisions = 0
    while not game.over:
        pending = game.decisions()
        d = pending[rng.randrange(len(pending))] if len(pending) > 1 else pending[0]
        game.apply(d.seat, d.actions[rng.randrange(len(d.actions))])
        decisions += 1
    return decisions


def run(players: int, games: int) -> tuple[float, float]:
    start = time.perf_counter()
    decisions = sum(play(players, seed) for seed in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--players", type=int, nargs="*", default=[2, 3, 4, 5], help="player counts to run"
    )
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{args.games} games x {args.runs} runs per player count"
    )
    print(
        f"{'players':>8} {'games/s (median)':>17} {'min-max':>15} "
        f"{'decisions/s':>12} {'min-max':>17}"
    )
    medians: dict[int, float] = {}
    for players in args.players:
        results = [run(players, args.games) for _ in range(args.runs)]
        gps = [r[0] for r in results]
        dps = [r[1] for r in results]
        medians[players] = statistics.median(gps)
        print(
            f"{players:>8} {medians[players]:>17.1f} "
            f"{min(gps):>7.1f}-{max(gps):<7.1f} {statistics.median(dps):>12.0f} "
            f"{min(dps):>8.0f}-{max(dps):<8.0f}"
        )
    if 4 in medians:
        four = medians[4]
        print(f"\n4-player games/s: {four:.1f} (target {TARGET}; ratio {four / TARGET:.2f})")


if __name__ == "__main__":
    main()
