"""The `moderator` command line."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from .demo import run_demo

    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["demo"]:
        return run_demo(args[1:])
    print("usage: moderator demo", file=sys.stderr)
    return 2
