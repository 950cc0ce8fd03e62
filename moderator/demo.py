"""`moderator demo`: one seeded game between bots, printed round by round."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .bots import HeuristicBot
from .engine import Game, describe
from .engine.events import Event, GameEnded, RoundEnded


def run_demo(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="moderator demo")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", default="Anna,Bob,Chris,David")
    args = parser.parse_args(list(argv))
    names = [n.strip() for n in args.players.split(",")]
    game = Game.new(names, args.seed)
    bots = [HeuristicBot(args.seed * 31 + i) for i in range(len(names))]
    print(f"Puerto Rico: {', '.join(names)} (seed {args.seed})\n")
    lines: list[str] = []
    while not game.over:
        d = game.decisions()[0]
        events: list[Event] = game.apply(d.seat, bots[d.seat].choose(game, d.seat))
        for event in events:
            lines.append("  " + describe(event, game.names))
            if isinstance(event, RoundEnded | GameEnded):
                print("\n".join(lines))
                print()
                lines = []
    print("Final scores (VP chips + buildings + large-building bonus; tie-break):")
    winners = game.winners()
    for sc in sorted(game.scores(), key=lambda sc: (-sc.total, -sc.tiebreak)):
        mark = "  winner" if sc.seat in winners else ""
        print(
            f"  {names[sc.seat]:<10} {sc.total:>3} = {sc.chips} + {sc.buildings} + {sc.bonus}"
            f"  ({sc.tiebreak}){mark}"
        )
    return 0
