"""Alembic environment: the database comes from the Config, never from alembic.ini or the CWD."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection
from sqlalchemy.engine import URL

from moderator.store.db import make_engine, normalise_url
from moderator.store.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> URL:
    """From Config attributes (programmatic use), then ``-x url=...``, then sqlalchemy.url."""
    given = config.attributes.get("url")
    if given is None:
        given = context.get_x_argument(as_dictionary=True).get("url")
    if given is None:
        given = config.get_main_option("sqlalchemy.url")
    if given is None:
        raise RuntimeError("no database URL: pass -x url=... or set Config.attributes['url']")
    return normalise_url(given)


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite can only rebuild tables to alter them; let autogenerate say so.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(
        url=_url(), target_metadata=target_metadata, literal_binds=True, compare_type=True
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as conn:
            _run(conn)
            conn.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
