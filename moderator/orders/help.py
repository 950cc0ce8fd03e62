"""The `help` reply's content: the players' guide to the order language (docs/orders.md),
read into sections of paragraphs, example orders and lists for the help templates."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..resources import data_text

GUIDE = "orders.md"


@cache
def guide() -> str:
    """The players' guide, docs/orders.md (shipped with the package)."""
    return data_text("docs", GUIDE)


@dataclass(frozen=True, slots=True)
class Example:
    """An example order, and what it does when that needs saying."""

    order: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph (``text``, with Markdown's `code` spans), a run of example orders
    (``examples``) or a bulleted list (``items``, each with `code` spans)."""

    text: str | None = None
    examples: tuple[Example, ...] = ()
    items: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GuideSection:
    """A section of the guide: its title (None: the introduction) and its blocks."""

    title: str | None
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Guide:
    """What `help` or `help <topic>` answers: the sections, and the topic when nothing
    in the guide mentions it (then the whole guide is given)."""

    sections: tuple[GuideSection, ...]
    unknown_topic: str | None = None


# "    role captain, trader or builder      (first one still free is taken)"
_EXAMPLE = re.compile(r"^(?P<order>.*?\S)(?:\s{2,}\((?P<note>.*)\))?\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def _blocks(body: str) -> tuple[Block, ...]:
    """The blocks of a section's Markdown: paragraphs (lines joined), indented example
    lines, "- " list items (continued by indented lines)."""
    blocks: list[Block] = []
    paragraph: list[str] = []
    examples: list[Example] = []
    items: list[str] = []

    def flush() -> None:
        if paragraph:
            blocks.append(Block(text=" ".join(paragraph)))
        if examples:
            blocks.append(Block(examples=tuple(examples)))
        if items:
            blocks.append(Block(items=tuple(items)))
        paragraph.clear()
        examples.clear()
        items.clear()

    for raw in body.splitlines():
        line = raw.rstrip()
        if not line.strip():
            flush()
        elif line.startswith("    ") and not items:
            if paragraph:
                flush()
            match = _EXAMPLE.match(line.strip())
            if match is not None:
                examples.append(Example(match["order"], match["note"]))
        elif line.startswith(("- ", "* ")):
            if paragraph or examples:
                flush()
            items.append(line[2:].strip())
        elif items and line.startswith(" "):
            items[-1] += " " + line.strip()
        else:
            if examples or items:
                flush()
            paragraph.append(line.strip())
    flush()
    return tuple(blocks)


def sections() -> dict[str, str]:
    """The guide's "## " sections by lower-case title, each as Markdown."""
    out: dict[str, str] = {}
    for block in re.split(r"^## ", guide(), flags=re.MULTILINE)[1:]:
        title, _, body = block.partition("\n")
        out[title.strip().lower()] = f"## {title.strip()}\n{body.rstrip()}"
    return out


def _topic(topic: str) -> list[str]:
    """The titles of the sections on ``topic``: those whose title mentions every word of
    it, else those whose example orders do ("help ship": the captain's, not the mayor's
    "the ship's colonists"), else those whose text does (none: nothing does)."""
    words = topic.lower().split()

    def has(text: str) -> bool:
        return all(w in text for w in words)

    found = [title for title in sections() if has(title)]
    found = found or [t for t, body in sections().items() if has(_examples(body))]
    # The words section names every word: it is asked for by its title only.
    return found or [t for t, body in sections().items() if t != "words" and has(body.lower())]


def _examples(markdown: str) -> str:
    """The example orders of a section's Markdown (its indented lines), in lower case."""
    return "\n".join(line for line in markdown.lower().splitlines() if line.startswith("    "))


def help_text(topic: str | None = None) -> str:
    """The whole guide, or its sections on ``topic``, as Markdown."""
    if not topic:
        return guide()
    found = _topic(topic)
    if not found:
        return f'Nothing in the guide mentions "{topic}". Here is all of it.\n\n' + guide()
    return "\n\n".join(sections()[title] for title in found)


def _section(markdown: str) -> GuideSection:
    """One section of the guide's Markdown ("## Title" and its body; no title: the
    introduction, after the page's "# " heading)."""
    text = _COMMENT.sub("", markdown)
    if text.startswith("## "):
        title, _, body = text[3:].partition("\n")
        return GuideSection(title.strip(), _blocks(body))
    return GuideSection(None, _blocks(re.sub(r"^# .*\n", "", text, count=1)))


# The guide's reference sections: given when asked for ("help reading", "help words"),
# not in the plain `help` reply, whose introduction names them.
REFERENCE = ("reading your mail", "words")


@cache
def _whole() -> tuple[GuideSection, ...]:
    intro = re.split(r"^## ", guide(), flags=re.MULTILINE)[0]
    rest = (_section(body) for title, body in sections().items() if title not in REFERENCE)
    return (_section(intro), *rest)


def help_guide(topic: str | None = None) -> Guide:
    """What `help` answers, in sections of paragraphs, examples and lists: the guide
    but its reference sections (REFERENCE), or its sections on ``topic`` (the guide,
    saying so, when nothing in it mentions the topic)."""
    if not topic:
        return Guide(_whole())
    found = _topic(topic)
    if not found:
        return Guide(_whole(), unknown_topic=topic)
    return Guide(tuple(_section(sections()[title]) for title in found))


__all__ = [
    "Block",
    "Example",
    "Guide",
    "GuideSection",
    "guide",
    "help_guide",
    "help_text",
    "sections",
]
