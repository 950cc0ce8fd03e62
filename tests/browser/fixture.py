"""Pytest plugin: the module-scoped `browser` fixture (headless Debian Chromium)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from . import Browser, BrowserUnavailable


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for a test module; installed with apt-get when missing (as
    root); the test is skipped when that is impossible.

    Module scope, not session: Playwright's sync API keeps an event loop running on the
    main thread while it is started, which would break the asyncio tests of other
    modules. Keep browser tests in modules of their own (no asyncio tests beside them).
    """
    try:
        b = Browser()
    except BrowserUnavailable as exc:
        pytest.skip(f"browser unavailable: {exc}")
    try:
        yield b
    finally:
        b.close()
