"""Benchmark: the cost of one order mail through Moderator.ingest + process_next, alone.

A quiet SQLite database, one game played by a seeded bot from its start, 40 order mails
(bench/store.py's mails and positions). Prints milliseconds per order (best of
``--runs``). Under callgrind it also gives a repeatable count of instructions per order,
whatever else the machine is doing:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \\
        .venv/bin/python bench/process_cost.py --callgrind

(callgrind collects only around the 40 orders; divide "Collected" by 40).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import store

from moderator.service.admin import Admin
from moderator.service.auth import reply_address
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade

ORDERS = 40


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="timed runs (best counts)")
    parser.add_argument(
        "--callgrind", action="store_true", help="switch callgrind on around one run"
    )
    args = parser.parse_args()
    line = store.play(store.SEED)
    with tempfile.TemporaryDirectory(prefix="pr-cost-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'cost.sqlite'}"
        upgrade(url)
        moderator = Moderator(store.config(), make_session_factory(make_engine(url)))
        admin = Admin(moderator)
        store.timed_run(moderator, admin, line, 0, ORDERS, "warm")  # imports, caches
        if args.callgrind:
            tag, addresses = store.position_game(admin, line, 0, "cg")
            secret = moderator.config.secret
            mails = [
                store.mail(
                    addresses[step.seat],
                    reply_address(store.ADDRESS, secret, tag, step.seat, 0),
                    step.order,
                    f"Re: [{tag}] your turn",
                    f"<cg.{k}@p>",
                )
                for k, step in enumerate(line.steps[:ORDERS])
            ]
            toggle = ["callgrind_control", "-i"]
            subprocess.run([*toggle, "on", str(os.getpid())], check=True, capture_output=True)
            for raw in mails:
                moderator.ingest(raw, source=m.MessageSource.PIPE)
                assert moderator.process_next("cost")
            subprocess.run([*toggle, "off", str(os.getpid())], check=True, capture_output=True)
            print(f"{ORDERS} orders under callgrind: divide its 'Collected' by {ORDERS}")
            return 0
        best = min(
            1 / store.timed_run(moderator, admin, line, 0, ORDERS, f"r{r}")
            for r in range(args.runs)
        )
        started = time.strftime("%Y-%m-%d")
        print(
            f"{started}: {1000 * best:.2f} ms per order (ingest + process_next, best of "
            f"{args.runs} runs of {ORDERS})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
