"""Benchmark: how well order mails written as players write them are understood.

Issue 11 item 2. Runs every case of tests/data/orders/ (corpus.toml, and held-out.toml
apart: the set nobody tunes against) through the service's own path (check_mail, the
accepted actions applied, forced moves and kept orders as the service applies them)
and prints, per decision kind and in total, the share of mails

  understood  done exactly as a careful human moderator would (asked back, or refused,
              where he would);
  wrong       something applied or kept that the player did not order (target: 0);
  asked       asked back where the order was clear;
  rejected    (part of) a clear order refused.

Target: 95 % understood, 0 wrong. Usage:

  .venv/bin/python bench/orders.py            the figures
  .venv/bin/python bench/orders.py -v         and every case not understood, with reply
  .venv/bin/python bench/orders.py --floors   floors.toml with today's figures
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the corpus runner, shared with the corpus test

from orderscorpus import (  # noqa: E402
    CORPUS,
    HELD_OUT,
    OUTCOMES,
    Outcome,
    Result,
    counts,
    load_cases,
    run,
    shares,
)

KIND_ORDER = (
    *("role", "hacienda", "settle", "mayor", "build", "extra", "sell", "load", "store"),
    "ahead",  # written by a player who has nothing to decide now: kept for later
)


def table(title: str, results: Sequence[Result]) -> list[str]:
    figures = shares(results)
    n = counts(results)
    kinds = [k for k in KIND_ORDER if k in figures] + sorted(
        k for k in figures if k not in KIND_ORDER and k != "all"
    )
    head = f"{'kind':<10}{'cases':>6}" + "".join(f"{o.value:>12}" for o in OUTCOMES)
    lines = [f"{title}: {len(results)} cases", head]
    for kind in [*kinds, "all"]:
        row = figures[kind]
        cells = "".join(f"{100 * row[o]:>11.1f}%" for o in OUTCOMES)
        lines.append(f"{kind:<10}{n[kind]:>6}{cells}")
    return lines


def failures(results: Sequence[Result]) -> list[str]:
    out: list[str] = []
    for r in results:
        if r.outcome is Outcome.UNDERSTOOD:
            continue
        c = r.case
        expect = c.expect if isinstance(c.expect, str) else " | ".join(c.expect)
        out.append(f"[{r.outcome.value}] {c.source} at {c.position}: {c.text!r}")
        out.append(
            f"    expected: {expect}" + (f"; then at {c.kept_for}: {c.then[0]}" if c.then else "")
        )
        out.append(
            f"    applied:  {' | '.join(r.got) or '-'}" + (f"; then: {r.later}" if c.then else "")
        )
        out.extend("    > " + line for line in r.reply.splitlines()[:6])
    return out


def floors_text(sets: Mapping[str, Sequence[Result]]) -> str:
    lines = [
        "# The least share of cases understood as intended, per set and decision kind",
        '# ("all": the whole set). tests/test_orders_corpus.py fails when a figure falls',
        "# below its floor. When the understanding improves, raise the floors to the new",
        "# figures:",
        "#   .venv/bin/python bench/orders.py --floors",
        "# prints this file with the current figures (rounded down); check it and save it",
        "# here. Never lower a floor to make a change pass.",
    ]
    lines.append("")
    lines.append("# The most mails applied wrongly, per set: lower it, never raise it (target 0).")
    lines.append("[wrong-at-most]")
    for name, results in sets.items():
        wrong = sum(r.outcome is Outcome.WRONG for r in results)
        lines.append(f'"{name}" = {wrong}' if "-" in name else f"{name} = {wrong}")
    for name, results in sets.items():
        lines.append("")
        lines.append(f'["{name}"]' if "-" in name else f"[{name}]")
        for kind, row in sorted(shares(results).items()):
            floor = math.floor(row[Outcome.UNDERSTOOD] * 100) / 100
            lines.append(f'"{kind}" = {floor:.2f}' if "-" in kind else f"{kind} = {floor:.2f}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list every miss")
    parser.add_argument("--floors", action="store_true", help="print floors.toml as of now")
    args = parser.parse_args(argv)
    sets = {"corpus": run(load_cases(CORPUS)), "held-out": run(load_cases(HELD_OUT))}
    if args.floors:
        print(floors_text(sets), end="")
        return 0
    for name, results in sets.items():
        if not results:
            continue
        print("\n".join(table(name, results)))
        if args.verbose:
            print("\n".join(failures(results)))
        print()
    wrong = sum(r.outcome is Outcome.WRONG for rs in sets.values() for r in rs)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
