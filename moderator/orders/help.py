"""The `help` reply, made from the players' guide to the order language (docs/orders.md)."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path

GUIDE = "orders.md"


@cache
def guide() -> str:
    """The guide's text: the copy shipped in the package, else docs/orders.md in the
    source tree (a test keeps the two identical)."""
    try:
        packaged = resources.files("moderator.orders").joinpath(GUIDE)
        if packaged.is_file():
            return packaged.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        pass
    return (Path(__file__).resolve().parents[2] / "docs" / GUIDE).read_text(encoding="utf-8")


def sections() -> dict[str, str]:
    """The guide's "## " sections by lower-case title."""
    out: dict[str, str] = {}
    for block in re.split(r"^## ", guide(), flags=re.MULTILINE)[1:]:
        title, _, body = block.partition("\n")
        out[title.strip().lower()] = f"## {title.strip()}\n{body.rstrip()}"
    return out


def help_text(topic: str | None = None) -> str:
    """The whole guide, or the sections whose title or text mention ``topic``."""
    if not topic:
        return guide()
    words = topic.lower().split()
    found = [body for title, body in sections().items() if all(w in title for w in words)]
    if not found:
        found = [body for body in sections().values() if all(w in body.lower() for w in words)]
    if not found:
        return f'Nothing in the guide mentions "{topic}". Here is all of it.\n\n' + guide()
    return "\n\n".join(found)
