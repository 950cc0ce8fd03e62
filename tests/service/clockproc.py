"""A moderator process for the clock race tests: one tick, or the planner, at a given time.

Usage: ``python clockproc.py DATABASE_URL SECRET NOW MODE`` with NOW an ISO 8601 time
and MODE ``tick`` (Moderator.tick once) or ``plan`` (Moderator.plan_all, the autopilot
deciding off the mail path). It prints ``ready``, waits for a line on stdin (so that
the processes start together), does its work and prints ``{"done": N}`` as JSON.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from datetime import datetime

from moderator.config import Config, ModeratorSection
from moderator.service.autopilot import PLAYERS, Player
from moderator.service.core import Moderator
from moderator.store.db import make_engine, make_session_factory

MODERATOR_ADDRESS = "moderator@example.test"


def main(argv: list[str]) -> int:
    url, secret, now_text, mode = argv
    now = datetime.fromisoformat(now_text)
    engine = make_engine(url)
    config = Config(moderator=ModeratorSection(address=MODERATOR_ADDRESS, secret=secret))
    # The autopilot decides off the mail path, as a search player does: the clock leaves
    # the next turns to the planner.
    autopilot = replace(PLAYERS[Player.HEURISTIC], inline=False)
    moderator = Moderator(
        config, make_session_factory(engine), clock=lambda: now, autopilot=autopilot
    )
    print("ready", flush=True)
    sys.stdin.readline()
    done = moderator.tick() if mode == "tick" else moderator.plan_all()
    engine.dispose()
    print(json.dumps({"done": done}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
