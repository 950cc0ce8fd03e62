"""Pytest plugin: the session-scoped `mailstack` fixture (real Dovecot + Postfix on loopback)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from . import MailStack, MailStackUnavailable, start, stop


@pytest.fixture(scope="session")
def mailstack_extra_users() -> tuple[str, ...]:
    """Users beyond moderator, alice, bob, carol and dave; override this fixture to add some."""
    return ()


@pytest.fixture(scope="session")
def mailstack(mailstack_extra_users: tuple[str, ...]) -> Iterator[MailStack]:
    """One Dovecot + Postfix for the whole test session, torn down at the end.

    Installs the Debian packages when missing (as root); skips when that is impossible.
    """
    try:
        stack = start(mailstack_extra_users)
    except MailStackUnavailable as exc:
        pytest.skip(f"mail stack unavailable: {exc}")
    try:
        yield stack
    finally:
        stop(stack, keep_directory=os.environ.get("MAILSTACK_KEEP") == "1")
