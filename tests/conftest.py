"""Shared pytest fixtures; each section is imported from its own module beside this file."""

# tests/ is not a package: pytest puts this folder on sys.path, so import by module name.

# --- Databases: SQLite and a throwaway PostgreSQL database (tests/dbfixtures.py) ---
from dbfixtures import (
    db_engine,
    empty_db_url,
    migrated_engine,
    pg_scratch_url,
    pg_server,
    session,
    session_factory,
)

__all__ = [
    "db_engine",
    "empty_db_url",
    "migrated_engine",
    "pg_scratch_url",
    "pg_server",
    "session",
    "session_factory",
]

# --- Mail: real Dovecot + Postfix on loopback, one stack per session (tests/mailstack/) ---
from mailstack.fixture import mailstack, mailstack_extra_users

__all__ += ["mailstack", "mailstack_extra_users"]
