"""Headless Chromium for tests: Debian's chromium driven by Playwright, screenshots kept.

Mails and archive pages are checked the way a reader sees them: rendered at a phone's
and a desktop's width, with the page's horizontal overflow measured and its console
errors collected. Screenshots go to ``test-artifacts/`` (or ``$PR_TEST_ARTIFACTS``) so a
person can look at them after a run.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from debpackages import SEARCH_PATH, PackagesUnavailable, ensure_programs

CHROMIUM = "chromium"
PACKAGES = ("chromium",)
# Without the background-networking flags Chromium tries to reach Google's hosts at
# every start, which this machine's closed network refuses.
LAUNCH_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
ROOT = Path(__file__).resolve().parents[2]


class BrowserUnavailable(RuntimeError):
    """No Chromium here and none can be installed, or Playwright is missing."""


def artifacts_dir(kind: str) -> Path:
    """Where a test keeps what a person may want to look at afterwards."""
    base = Path(os.environ.get("PR_TEST_ARTIFACTS", ROOT / "test-artifacts"))
    out = base / kind
    out.mkdir(parents=True, exist_ok=True)
    return out


def chromium_path() -> str:
    """Debian's chromium, installed with apt-get when missing (as root)."""
    try:
        ensure_programs((CHROMIUM,), PACKAGES)
    except PackagesUnavailable as exc:
        raise BrowserUnavailable(str(exc)) from None
    found = shutil.which(CHROMIUM, path=SEARCH_PATH)
    assert found is not None
    return found


@dataclass
class Shown:
    """One page as a reader saw it at one width."""

    page: Any  # playwright.sync_api.Page
    width: int
    console_errors: list[str] = field(default_factory=list)

    def overflow(self) -> int:
        """How many pixels the page is wider than the window (0: no horizontal scroll)."""
        width: int = self.page.evaluate(
            "Math.max(document.documentElement.scrollWidth, document.body ? "
            "document.body.scrollWidth : 0) - document.documentElement.clientWidth"
        )
        return max(0, width)

    def overflowing(self) -> list[str]:
        """The elements that reach past the window's right edge, for a failure message."""
        found: list[str] = self.page.evaluate(
            """() => {
              const w = document.documentElement.clientWidth, out = [];
              for (const el of document.querySelectorAll('body *')) {
                const r = el.getBoundingClientRect();
                if (r.width > 0 && r.right > w + 1) {
                  out.push(el.tagName.toLowerCase() + (el.className ? '.' + el.className : '')
                           + ' right=' + Math.round(r.right));
                  if (out.length >= 10) break;
                }
              }
              return out;
            }"""
        )
        return found

    def screenshot(self, kind: str, name: str) -> Path:
        safe = re.sub(r"[^\w.-]+", "_", name)
        path = artifacts_dir(kind) / f"{safe}-{self.width}px.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


class Browser:
    """One headless Chromium for a test session."""

    def __init__(self) -> None:
        executable = chromium_path()
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as exc:  # pragma: no cover - a dev dependency
            raise BrowserUnavailable(f"playwright is not installed: {exc}") from None
        self._pw = sync_playwright().start()
        self._browser = self._pw.chromium.launch(executable_path=executable, args=list(LAUNCH_ARGS))

    def close(self) -> None:
        self._browser.close()
        self._pw.stop()

    @contextmanager
    def show(
        self, *, html: str | None = None, url: str | None = None, width: int, height: int = 900
    ) -> Iterator[Shown]:
        """A page at ``width`` CSS pixels showing ``html`` or loading ``url`` (file:// too).
        Network requests other than file:// and data: are refused, so a page that tries
        to fetch something from elsewhere fails its test."""
        context = self._browser.new_context(viewport={"width": width, "height": height})
        context.route(
            re.compile(r"^(?!file:|data:|about:).*"),
            lambda route: route.abort(),
        )
        page = context.new_page()
        shown = Shown(page, width)
        page.on(
            "console",
            lambda msg: shown.console_errors.append(msg.text) if msg.type == "error" else None,
        )
        page.on("pageerror", lambda exc: shown.console_errors.append(str(exc)))
        page.on(
            "requestfailed",
            lambda req: shown.console_errors.append(f"request failed: {req.url}"),
        )
        try:
            if html is not None:
                page.set_content(html, wait_until="load")
            elif url is not None:
                page.goto(url, wait_until="load")
            yield shown
        finally:
            context.close()
