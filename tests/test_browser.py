"""The browser used by the mail and archive tests measures what a reader would see."""

from __future__ import annotations

import pytest
from browser import Browser


@pytest.mark.parametrize("width", [400, 800])
def test_a_page_that_fits_has_no_overflow(browser: Browser, width: int) -> None:
    with browser.show(html="<p style='max-width:100%'>A short line.</p>", width=width) as shown:
        assert shown.overflow() == 0
        assert shown.console_errors == []


def test_a_wide_table_overflows_a_phone_and_is_named(browser: Browser) -> None:
    html = "<table class='wide'><tr><td>" + "x" * 200 + "</td></tr></table>"
    with browser.show(html=html, width=400) as shown:
        assert shown.overflow() > 400
        assert any(found.startswith("table.wide") for found in shown.overflowing())
        assert shown.screenshot("selftest", "wide-table").stat().st_size > 0


def test_console_errors_and_outside_requests_are_reported(browser: Browser) -> None:
    html = (
        "<img src='http://127.0.0.1:9/x.png' alt='x'>"
        "<script>console.error('boom'); undefined_function();</script>"
    )
    with browser.show(html=html, width=400) as shown:
        shown.page.wait_for_timeout(100)
        text = " | ".join(shown.console_errors)
        assert "boom" in text
        assert "undefined_function" in text
        assert "request failed: http://127.0.0.1:9/x.png" in text
