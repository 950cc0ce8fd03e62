"""Every mail a player can receive, as a reader sees it: headless Chromium at a phone's
and a desktop's width, no horizontal scrolling, no console errors; the screenshots are
kept in test-artifacts/mails/ for a person to look at."""

from __future__ import annotations

import pytest
from browser import Browser
from mailsamples import KINDS, SEED, TAG, play_until, sample_mails

from moderator.engine import Game, Phase
from moderator.render import Rendered, public_view, render, update_mail

WIDTHS = (400, 800)


@pytest.fixture(scope="module")
def mails() -> dict[str, Rendered]:
    return {kind: render(view) for kind, view in sample_mails().items()}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_mail_fits_the_screen(
    browser: Browser, mails: dict[str, Rendered], kind: str, width: int
) -> None:
    with browser.show(html=mails[kind].html, width=width) as shown:
        shown.screenshot("mails", kind)
        assert shown.overflow() == 0, shown.overflowing()
        assert shown.console_errors == []


# A name of any length or script: one unbroken word of 100 letters (the longest a seat
# may have), Chinese, Arabic (right to left), and emoji.
NAMES = (
    "Maximilian" * 10,
    "张伟明",
    "محمد بن عبد الله",
    "Zoë 🎲🏝️",
)


@pytest.mark.parametrize("width", WIDTHS)
def test_names_of_any_length_or_script_do_not_break_the_layout(
    browser: Browser, width: int
) -> None:
    game = Game.new(NAMES, SEED)
    events = play_until(game, lambda g: g.state.round >= 3 and g.state.phase is Phase.CAPTAIN)
    public = public_view(game, events)
    for seat in range(len(NAMES)):
        mail = render(update_mail(game, TAG, seat, board=public.board, events=public.events))
        with browser.show(html=mail.html, width=width) as shown:
            shown.screenshot("mails", f"names-seat{seat}")
            assert shown.overflow() == 0, shown.overflowing()
            assert shown.page.inner_text("body").count("(you)") == 1
