"""Game pages benchmark: the size of a whole game's pages and the time to build them.

Usage: python bench/archive.py [--runs 5] [RECORD.json ...]

Builds each finished game's pages from its record (default: the demo's games under
tests/data/records/, made by `make demo` with 2, 4 and 5 players) as `moderator archive
--record` does — replay, the board of every step, the page — and writes them into a
temporary folder. Reported per game: the bytes written (page + record) and the build
time, the median over the runs with min–max as the machine's noise, and the ratios to
the targets of issue 14: under 2 MB and under 2 s for a whole game; beside the time on
the clock, the CPU time the build took, which a loaded machine (the clock time counts
the other processes' turns too) changes much less. Also the daemon's
case: the pages built again after one more action by the same PageBuilder, which
replays only that action.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from moderator.archive.pages import PageBuilder, build_game, publish
from moderator.archive.record import load_record, read_record

RECORDS = Path(__file__).resolve().parents[1] / "tests" / "data" / "records"
MAX_BYTES = 2_000_000
MAX_SECONDS = 2.0


def measure(path: Path, runs: int) -> None:
    times = []
    cpu = []
    size = 0
    with tempfile.TemporaryDirectory() as out:
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            record = load_record(path)
            (page,) = publish(Path(out), [build_game(record)])
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            size = page.stat().st_size + (page.parent / f"{record.tag}.json").stat().st_size
    median = statistics.median(times)
    print(
        f"{path.name:<20} {len(record.actions):>4} actions  {size / 1e6:5.2f} MB "
        f"({size / MAX_BYTES:.2f} of 2 MB)  built in {median:.2f} s "
        f"[{min(times):.2f}-{max(times):.2f}] ({median / MAX_SECONDS:.2f} of 2 s), "
        f"CPU {statistics.median(cpu):.2f} s"
    )
    before = dict(record.data)
    before["actions"] = list(record.data["actions"])[:-1]
    before["final"] = None
    again = []
    for _ in range(runs):
        builder = PageBuilder()
        builder.build(read_record(before))
        start = time.perf_counter()
        builder.build(record)
        again.append(time.perf_counter() - start)
    print(
        f"{'':<20} after one more action, by the daemon's builder: "
        f"{statistics.median(again):.3f} s [{min(again):.3f}-{max(again):.3f}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("records", nargs="*", type=Path)
    args = parser.parse_args()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"python {platform.python_version()}, {args.runs} runs each, load average {load}")
    for path in args.records or sorted(RECORDS.glob("*.json")):
        measure(path, args.runs)


if __name__ == "__main__":
    main()
