"""A moderator worker process for the multi-worker tests: process messages until none wait.

Usage: ``python workerproc.py DATABASE_URL WORKER_NAME SECRET``. It builds its own
engine and session factory from the URL, prints ``ready``, waits for a line on
stdin (so that all workers start together), then calls ``process_next`` until no
message is left ``new``, and prints ``{"processed": N}`` as JSON.

``process_next`` answers False both when nothing is waiting and when every game
with waiting messages is locked by another worker (SKIP LOCKED); so the worker
only stops when no message is ``new`` any more (committed state), and otherwise
retries after a short pause.
"""

from __future__ import annotations

import json
import sys
import time

from sqlalchemy import func, select

from moderator.config import AutopilotSection, Config, ModeratorSection
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory

MODERATOR_ADDRESS = "moderator@example.test"


def main(argv: list[str]) -> int:
    url, name, secret = argv
    engine = make_engine(url)
    factory = make_session_factory(engine)
    config = Config(
        moderator=ModeratorSection(address=MODERATOR_ADDRESS, secret=secret),
        autopilot=AutopilotSection(player="heuristic"),
    )
    moderator = Moderator(config, factory)
    print("ready", flush=True)
    sys.stdin.readline()
    processed = 0
    while True:
        if moderator.process_next(name):
            processed += 1
            continue
        with factory.begin() as session:
            waiting = session.scalar(
                select(func.count(m.InboundMessage.id)).where(
                    m.InboundMessage.status == m.MessageStatus.NEW
                )
            )
        if not waiting:
            break
        time.sleep(0.005)
    engine.dispose()
    print(json.dumps({"processed": processed}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
