"""The `help` reply, made from the players' guide to the order language (docs/orders.md)."""

from __future__ import annotations

import re
from functools import cache

from ..resources import data_text

GUIDE = "orders.md"


@cache
def guide() -> str:
    """The players' guide, docs/orders.md (shipped with the package)."""
    return data_text("docs", GUIDE)


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
