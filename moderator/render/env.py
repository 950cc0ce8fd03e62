"""The Jinja environment for the mails, and rendering a view-model to text and HTML."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FunctionLoader, StrictUndefined, TemplateNotFound

from ..resources import data_path
from .views import BoardView, MailView, RoleView, ScoreRow, SupplyBuilding, plural

WIDTH = 72


@dataclass(frozen=True, slots=True)
class Rendered:
    """One mail, ready for build_message: subject, plain text and HTML."""

    kind: str
    subject: str
    text: str
    html: str


def template_root() -> Path:
    """The templates (templates/, shipped with the package)."""
    return data_path("templates")


def _autoescape(name: str | None) -> bool:
    """HTML templates escape everything; plain-text ones nothing."""
    return name is not None and name.endswith(".html.j2")


def wrap(text: object, width: int = WIDTH, indent: str = "", subsequent: str | None = None) -> str:
    """Fill prose to ``width`` columns; words longer than a line stay whole."""
    line = str(text)
    if (
        len(indent) + len(line) <= width
        and line
        and not line[-1].isspace()
        and not _BREAKS.search(line)
    ):
        # What textwrap.fill gives for text that fits on one line and does not end in
        # blanks (it drops those), without its cost: most lines of a mail are short.
        return indent + line.replace(_GLUE, " ")
    rest = indent if subsequent is None else subsequent
    filled = textwrap.fill(
        line,
        width=width,
        initial_indent=indent,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return filled.replace(_GLUE, " ")


# Whitespace textwrap turns into spaces (and so may break at): not for the short cut.
_BREAKS = re.compile(r"[\t\n\v\f\r]")

# Marks a space the wrap filter must not break at. A control character, so it cannot
# come from a player: views.printable turns those into spaces.
_GLUE = "\x00"


def glue(text: object) -> str:
    """``text`` kept on one line by the wrap filter ("0 free", "indigo plant 2/3")."""
    return str(text).replace(" ", _GLUE)


# A space inside an item of a list ("corn 1/2, indigo 0/1; 9 free"): not after a comma
# or a semicolon.
_INNER_SPACE = re.compile(r"(?<![,;]) ")


def glue_items(text: object) -> str:
    """A list written as text, breakable by the wrap filter only between its items."""
    return _INNER_SPACE.sub(_GLUE, str(text))


def column(rows: list[list[str]], sep: str = "  ", right: tuple[int, ...] = ()) -> list[str]:
    """Align a table: every column padded to its widest cell (``right``: the columns
    aligned right, for numbers); trailing spaces removed."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))] if rows else []
    out = []
    for row in rows:
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        out.append(sep.join(cells).rstrip())
    return out


def role_row(role: RoleView) -> list[str]:
    """A role card as table cells: name, doubloons on it, who took it."""
    return [role.name, str(role.doubloons) if role.doubloons else "", role.taken_by or ""]


def building_row(b: SupplyBuilding) -> list[str]:
    """A building for sale as table cells: name, cost, VP, circles, copies left."""
    return [b.name, str(b.price), str(b.vp), str(b.circles), str(b.left)]


def score_row(row: ScoreRow) -> list[str]:
    """A final score as table cells: rank, name (a star for a winner), the breakdown."""
    return [
        f"{row.rank}.",
        row.name + (" *" if row.winner else ""),
        str(row.chips),
        str(row.buildings),
        str(row.bonus),
        str(row.total),
        str(row.tiebreak),
    ]


def _load(name: str) -> tuple[str, str | None, Any]:
    if "/" in name or "\\" in name or name.startswith("."):
        raise TemplateNotFound(name)
    path = template_root().joinpath(name)
    if not path.is_file():
        raise TemplateNotFound(name)
    return path.read_text(encoding="utf-8"), None, lambda: True


@cache
def environment() -> Environment:
    """Autoescape on for ``*.html.j2``, off for ``*.txt.j2``; undefined names fail."""
    env = Environment(
        loader=FunctionLoader(_load),
        autoescape=_autoescape,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["wrap"] = wrap
    env.filters["plural"] = plural
    env.filters["glue"] = glue
    env.filters["glue_items"] = glue_items
    env.filters["role_row"] = role_row
    env.filters["building_row"] = building_row
    env.filters["score_row"] = score_row
    env.globals["board_block"] = board_block
    env.globals["column"] = column
    env.globals["plural"] = plural
    env.globals["WIDTH"] = WIDTH
    return env


# Recently rendered parts of boards by (id of the view, format, part, reader), with the
# view itself: an identity check, because hashing a whole BoardView costs a good part of
# rendering it.
_BLOCKS: dict[tuple[int, str, str, int], tuple[BoardView, str]] = {}
_BLOCKS_KEPT = 48


def _part(board: BoardView, kind: str, part: str, me: int = -1) -> str:
    key = (id(board), kind, part, me)
    hit = _BLOCKS.get(key)
    if hit is not None and hit[0] is board:
        return hit[1]
    module: Any = environment().get_template(f"_macros.{kind}.j2").module
    block: str = module.players(board, me) if part == "players" else getattr(module, part)(board)
    if len(_BLOCKS) >= _BLOCKS_KEPT:
        _BLOCKS.pop(next(iter(_BLOCKS)), None)  # the oldest
    _BLOCKS[key] = (board, block)
    return block


def board_block(board: BoardView, kind: str, me: int = -1) -> str:
    """The board in ``kind`` ("txt" or "html"): the table, the players (``me``, the
    reader's seat, marked; -1 for an observer), the buildings for sale. Every seat's mail
    after a change shares one BoardView (views.public_view): its parts but the players
    are rendered once per change and format, not once per seat."""
    return (
        _part(board, kind, "board")
        + _part(board, kind, "players", me)
        + _part(board, kind, "buildings")
    )


_BLANKS = re.compile(r"\n{3,}")


def tidy_text(text: str) -> str:
    """Trailing spaces off every line, at most one blank line in a row, one final
    newline."""
    lines = [line.rstrip() for line in text.splitlines()]
    return _BLANKS.sub("\n\n", "\n".join(lines)).strip("\n") + "\n"


def render(view: MailView) -> Rendered:
    """Render one mail's view-model with its ``<kind>.txt.j2`` and ``<kind>.html.j2``."""
    env = environment()
    text = env.get_template(f"{view.kind}.txt.j2").render(v=view)
    html = env.get_template(f"{view.kind}.html.j2").render(v=view)
    return Rendered(view.kind, view.subject, tidy_text(text), html)


__all__ = [
    "WIDTH",
    "Rendered",
    "board_block",
    "column",
    "environment",
    "render",
    "template_root",
    "wrap",
]
