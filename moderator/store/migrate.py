"""Run the Alembic migrations programmatically, from the source tree or an installed wheel."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection
from sqlalchemy.engine import URL

from ..resources import data_path
from .db import make_engine, normalise_url


def _is_migrations_dir(path: Path) -> bool:
    return (path / "env.py").is_file() and (path / "versions").is_dir()


def migrations_dir() -> Path:
    """The folder holding env.py and versions/ (migrations/, shipped with the package)."""
    path = data_path("migrations")
    if not _is_migrations_dir(path):
        raise FileNotFoundError(f"{path} is not an Alembic migrations folder")
    return path


def alembic_config(url: str | URL | None = None, *, connection: Connection | None = None) -> Config:
    """An Alembic Config that needs no alembic.ini and no particular working directory.

    env.py takes the database from ``attributes["connection"]`` when given,
    else ``attributes["url"]``.
    """
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    if connection is not None:
        config.attributes["connection"] = connection
    if url is not None:
        config.attributes["url"] = normalise_url(url)
    return config


def upgrade(url: str | URL | None = None, revision: str = "head") -> None:
    """Bring the database at ``url`` up to ``revision``."""
    command.upgrade(alembic_config(normalise_url(url)), revision)


def downgrade(url: str | URL | None, revision: str) -> None:
    """Take the database at ``url`` down to ``revision`` (``"base"`` removes every table)."""
    command.downgrade(alembic_config(normalise_url(url)), revision)


def head_revision() -> str:
    """The newest revision in the migrations folder."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError("the migrations folder has no revisions")
    return head


def current_revision(url: str | URL | None = None) -> str | None:
    """The revision the database at ``url`` is at (None when never migrated)."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
