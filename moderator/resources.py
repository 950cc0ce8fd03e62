"""Files shipped beside the code: grammars/, templates/, migrations/, docs/orders.md and
config.example.toml.

In a source checkout they stand at the top level; an installed wheel carries them
under ``moderator/_data/`` (the force-include table in pyproject.toml). One lookup
serves every caller, so the two layouts cannot drift apart.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_SOURCE_ROOT = _PACKAGE.parent


def data_path(*parts: str) -> Path:
    """The shipped file or folder ``parts`` (e.g. ``"grammars", "orders.lark"``): the
    installed copy when there is one, else the source tree's."""
    packaged = _PACKAGE.joinpath("_data", *parts)
    if packaged.exists():
        return packaged
    source = _SOURCE_ROOT.joinpath(*parts)
    if source.exists():
        return source
    raise FileNotFoundError(f"{'/'.join(parts)} is neither in {packaged} nor in {source}")


def data_text(*parts: str) -> str:
    return data_path(*parts).read_text(encoding="utf-8")
