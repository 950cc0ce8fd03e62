"""Shared pytest fixtures; each section is imported from its own module beside this file."""

# tests/ is not a package: pytest puts this folder on sys.path, so import by module name.

# --- A browser: headless Debian Chromium through Playwright (tests/browser/) ---
from browser.fixture import browser

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

# --- Mail: real Dovecot + Postfix on loopback, one stack per session (tests/mailstack/) ---
from mailstack.fixture import mailstack, mailstack_extra_users

__all__ = [
    "browser",
    "db_engine",
    "empty_db_url",
    "mailstack",
    "mailstack_extra_users",
    "migrated_engine",
    "pg_scratch_url",
    "pg_server",
    "session",
    "session_factory",
]
