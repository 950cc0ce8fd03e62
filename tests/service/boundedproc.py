"""One hostile mail through ingest and processing in a process of its own, measured.

Usage: ``python boundedproc.py JSON`` with the database URL, the moderator's address and
secret, the case
(``big``, ``help`` or ``bad``), the hostile mail's sender and signed address, and an
order of another game (sender, address, text). It warms up on the other game, builds the
hostile mail, then measures its ingest + processing (wall and CPU seconds, and how far
the peak resident memory grew), processes the other game's order after it, and prints
the figures and outcomes as JSON.
"""

from __future__ import annotations

import gc
import json
import resource
import sys
import time

from sqlalchemy import select

from moderator.config import Config, ModeratorSection
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory


def letter(sender: str, to: str, body: str, message_id: str) -> bytes:
    return (
        f"From: {sender}\r\nTo: {to}\r\nSubject: Re: orders\r\nMessage-ID: <{message_id}>\r\n"
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        f"{body}\r\n"
    ).encode()


# The three mails: a 10 MB mail of orders, 100,000 "help;", 50,000 bad lines.
BODIES = {
    "big": lambda: "ship corn\r\n" * 1_000_000,
    "help": lambda: "help;" * 100_000,
    "bad": lambda: "".join(f"frobnicate {i} widgets at once\r\n" for i in range(50_000)),
}


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main(arg: str) -> int:
    job = json.loads(arg)
    factory = make_session_factory(make_engine(job["url"]))
    config = Config(moderator=ModeratorSection(address=job["address"], secret=job["secret"]))
    moderator = Moderator(config, factory)
    sender, to = job["hostile"]
    other_sender, other_to, other_order = job["other"]
    # Warm up (templates, grammar, caches) on the other game, as a running daemon is.
    moderator.ingest(
        letter(other_sender, other_to, "status", "warm@x"), source=m.MessageSource.PIPE
    )
    moderator.process_all()
    raw = letter(sender, to, BODIES[job["case"]](), "hostile@x")
    gc.collect()
    base = peak_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    hostile = moderator.ingest(raw, source=m.MessageSource.PIPE)
    moderator.process_all()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    grown = peak_mb() - base
    other = moderator.ingest(
        letter(other_sender, other_to, other_order, "other@x"), source=m.MessageSource.PIPE
    )
    moderator.process_all()
    with factory.begin() as session:

        def outcome(row_id: int | None) -> dict[str, object]:
            row = session.get(m.InboundMessage, row_id)
            assert row is not None
            kinds = session.scalars(
                select(m.OutboxMessage.kind).where(m.OutboxMessage.inbound_message_id == row_id)
            ).all()
            sizes = session.scalars(
                select(m.OutboxMessage.raw).where(m.OutboxMessage.inbound_message_id == row_id)
            ).all()
            return {
                "status": row.status.value,
                "replies": sorted(kinds),
                "largest": max((len(r) for r in sizes), default=0),
            }

        print(
            json.dumps(
                {
                    "bytes": len(raw),
                    "wall": wall,
                    "cpu": cpu,
                    "grown_mb": grown,
                    "hostile": outcome(hostile),
                    "other": outcome(other),
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
