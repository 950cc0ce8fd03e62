"""Run the Alembic migrations programmatically, from the source tree or an installed wheel."""

from __future__ import annotations

import os
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from ..resources import data_path
from .db import make_engine, normalise_url, shown, sqlite_file


class DatabaseNotReady(RuntimeError):
    """The configured database is missing, unmigrated or not writable: every command but
    `moderator db upgrade` refuses it (the message names it, without its password)."""


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


def open_database(url: str | URL) -> Engine:
    """An engine on an existing database at the newest schema; DatabaseNotReady otherwise.

    Only `moderator db upgrade` (and the demo) create or migrate a database: a daemon or
    an admin command started with another directory or config must not make a second,
    empty one and answer players from it."""
    parsed = normalise_url(url)
    file = sqlite_file(parsed)
    upgrade_hint = "`moderator db upgrade` with this config"
    if file is not None:
        closed = _closed_folder(file)
        if closed is not None:
            raise DatabaseNotReady(f"cannot reach {file} through {closed}: {_owner_hint(closed)}")
        if not file.exists():
            raise DatabaseNotReady(
                f"no database at {file} ({shown(parsed)}): create it with {upgrade_hint}, "
                "or check [database] url"
            )
        if _read_only_file_system(file):
            # Not a person's fix like a file's owner: a disk remounted read-only after
            # errors, or a snapshot being taken; the daemon tries again later (exit 75).
            raise DatabaseNotReady(f"cannot write {file}: {READ_ONLY_FS}")
        # WAL: every reader also writes (the -wal and -shm files beside the database).
        for needed in (file, file.parent):
            if not os.access(needed, os.W_OK, effective_ids=_EFFECTIVE):
                raise DatabaseNotReady(f"cannot write {needed}: {_owner_hint(needed)}")
    engine = make_engine(parsed)
    try:
        with engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
    except SQLAlchemyError as exc:
        engine.dispose()
        cause = getattr(exc, "orig", None) or exc  # the driver's own words, without the SQL
        first = str(cause).strip().splitlines()
        raise DatabaseNotReady(
            f"cannot open the database {shown(parsed)}: {first[0] if first else type(exc)}"
        ) from None
    head = head_revision()
    if current != head:
        engine.dispose()
        if current is None:
            state = "is empty (never migrated)"
        elif current in _known_revisions():
            state = f"is at revision {current}, this version needs {head}"
        else:
            raise DatabaseNotReady(
                f"the database {shown(parsed)} is at revision {current}, which this version "
                "does not know: a newer version of the moderator migrated it"
            )
        raise DatabaseNotReady(f"the database {shown(parsed)} {state}: run {upgrade_hint}")
    return engine


READ_ONLY_FS = "it is on a read-only file system"


def _read_only_file_system(file: Path) -> bool:
    try:
        return bool(os.statvfs(file).f_flag & os.ST_RDONLY)
    except OSError:
        return False


# The user the command runs as (sudo -u, a unit's User=) is the one that must write.
_EFFECTIVE = os.access in os.supports_effective_ids


def _closed_folder(file: Path) -> Path | None:
    """The first folder on the way to ``file`` that this user may not enter."""
    for folder in reversed(file.parents):
        if not folder.is_dir():
            return None  # missing: the file is missing too, which is said next
        if not os.access(folder, os.X_OK, effective_ids=_EFFECTIVE):
            return folder
    return None


def _known_revisions() -> set[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return {rev.revision for rev in script.walk_revisions()}


def _owner_hint(path: Path) -> str:
    """Who owns ``path`` and who we are: the usual cause is a database made by root for a
    service that runs as its own user (docs/deploy.md)."""
    try:
        import pwd

        owner = pwd.getpwuid(path.stat().st_uid).pw_name
        me = pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError, OSError):
        return "permission denied"
    return (
        f"permission denied (it belongs to {owner}, this command runs as {me}); run the "
        f"moderator's commands as {owner} (e.g. sudo -u {owner} moderator ...)"
    )
