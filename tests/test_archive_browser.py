"""A finished game's archive in headless Chromium, opened from file:// as a reader would:
no console error, nothing fetched, stepped through with the keyboard to the end where
the scores are the record's, readable at a phone's width; screenshots kept.

(No asyncio test in this module: see tests/browser/fixture.py.)
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import Browser, Shown

from moderator.archive.pages import build_game, publish
from moderator.archive.record import load_record, read_record

RECORDS = Path(__file__).resolve().parent / "data" / "records"
ARTIFACTS = "archive"
HOSTILE = '<img src=x onerror="window.pwned=1">Bob\'s & <b>Co</b>'
# A name of 200 characters without a space: it wraps instead of widening the page.
LONG = "W" * 120 + "<script>window.pwned=2</script>" + "x" * 49


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The archive of three finished games (2, 4 and 5 players), and one with a
    hostile player name and a very long one."""
    out = tmp_path_factory.mktemp("site")
    games = [
        build_game(load_record(RECORDS / f"{n}.json"))
        for n in ("two-players", "four-players", "five-players")
    ]
    data = json.loads((RECORDS / "four-players.json").read_text(encoding="utf-8"))
    games.append(build_game(read_record(hostile(data))))
    publish(out, games)
    return out


def hostile(data: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    data["game"]["tag"] = "PR-66"
    for part in ("players", "actions", "final"):
        for entry in data[part]:
            for key in ("name", "player"):
                if entry.get(key) == "Bob":
                    entry[key] = HOSTILE
                elif entry.get(key) == "Chris":
                    entry[key] = LONG
    return data


def final_totals(name: str) -> list[int]:
    record = load_record(RECORDS / f"{name}.json")
    assert record.final is not None
    return [f.total for f in sorted(record.final, key=lambda f: f.seat)]


@pytest.fixture
def four(browser: Browser, site: Path, request: pytest.FixtureRequest) -> Iterator[Shown]:
    width = getattr(request, "param", 1200)
    with browser.show(url=(site / "PR-1" / "index.html").as_uri(), width=width) as shown:
        yield shown


def title(shown: Shown) -> str:
    text: str = shown.page.locator("#step-title").inner_text()
    return text


def shown_scores(shown: Shown) -> list[int]:
    cells = shown.page.locator(".player-score").all()
    return [
        int(c.inner_text())
        for c in sorted(cells, key=lambda c: int(c.get_attribute("data-seat") or 0))
    ]


@pytest.mark.parametrize("width", [400, 1200])
def test_a_finished_game_steps_to_the_end_with_the_keyboard(
    browser: Browser, site: Path, width: int
) -> None:
    with browser.show(url=(site / "PR-1" / "index.html").as_uri(), width=width) as shown:
        page = shown.page
        assert shown.console_errors == []
        assert shown.overflow() == 0, shown.overflowing()
        shown.screenshot(ARTIFACTS, "four-players-end")
        page.keyboard.press("Home")
        assert title(shown) == "Round 1 · the start"
        assert page.url.endswith("#start")
        assert shown_scores(shown) == [0, 0, 0, 0]
        page.keyboard.press("ArrowRight")
        assert title(shown) == "Round 1 · settler · step 1 of 259"
        assert page.locator("#step-events li").all_inner_texts() == ["Anna chooses the settler."]
        page.keyboard.press("Shift+ArrowRight")
        assert title(shown).startswith("Round 1 · builder · step ")
        assert page.url.endswith("#r1-builder")
        page.keyboard.press("Shift+ArrowLeft")
        assert page.url.endswith("#r1-settler")
        shown.screenshot(ARTIFACTS, "four-players-round-1")
        for _ in range(30):
            page.keyboard.press("PageDown")
        assert page.url.split("#")[1].startswith("r")
        page.keyboard.press("End")
        assert title(shown) == "Round 16 · step 259 of 259"
        assert shown_scores(shown) == final_totals("four-players")
        legend = [int(x) for x in page.locator(".now-score").all_inner_texts()]
        assert legend == final_totals("four-players")
        assert shown.overflow() == 0, shown.overflowing()
        assert shown.console_errors == []


def test_every_step_can_be_reached_with_the_arrow_key(four: Shown) -> None:
    page = four.page
    page.keyboard.press("Home")
    for _ in range(259):
        page.keyboard.press("ArrowRight")
    assert title(four) == "Round 16 · step 259 of 259"
    assert shown_scores(four) == final_totals("four-players")
    page.keyboard.press("ArrowRight")  # at the end: stays
    assert title(four) == "Round 16 · step 259 of 259"
    assert four.console_errors == []


def test_a_step_is_linked_by_its_round_and_role(browser: Browser, site: Path) -> None:
    url = (site / "PR-1" / "index.html").as_uri() + "#r7-captain"
    with browser.show(url=url, width=1200) as shown:
        assert title(shown).startswith("Round 7 · captain · step ")
        assert shown.page.locator("#step-events li").all_inner_texts() == [
            "David chooses the captain."
        ]
        current = shown.page.locator("#board .role.current")
        assert current.inner_text().lower().startswith("captain")
        assert shown.page.locator(".log li.current").count() == 1
        shown.screenshot(ARTIFACTS, "four-players-round-7-captain")
        shown.page.locator('.log a[href="#r3"]').click()
        # (the page follows the new address on its hashchange event, after the click)
        shown.page.wait_for_function(
            "document.querySelector('#step-title').textContent.startsWith('Round 3')"
        )
        assert title(shown).startswith("Round 3")
        assert shown.console_errors == []


def test_on_a_wide_screen_the_log_follows_the_steps_and_the_page_stays(
    browser: Browser, site: Path
) -> None:
    url = (site / "PR-1" / "index.html").as_uri() + "#r7-captain"
    with browser.show(url=url, width=1200, height=900) as shown:
        for _ in range(3):
            shown.page.keyboard.press("ArrowRight")
        seen = shown.page.evaluate(
            """() => {
              const r = document.querySelector('.log li.current').getBoundingClientRect();
              return [r.top >= 0 && r.bottom <= window.innerHeight, window.scrollY];
            }"""
        )
        assert seen == [True, 0]


def test_the_buttons_and_the_slider_step_too(four: Shown) -> None:
    page = four.page
    page.get_by_role("button", name="The start").click()
    assert title(four) == "Round 1 · the start"
    page.get_by_role("button", name="The next action").click()
    page.get_by_role("button", name="The next action").click()
    assert title(four).endswith("step 2 of 259")
    page.get_by_role("button", name="The next role").click()
    assert "builder" in title(four)
    slider = page.locator("#step")
    slider.fill("100")
    assert title(four).endswith("step 100 of 259")
    page.get_by_role("button", name="The end").click()
    assert shown_scores(four) == final_totals("four-players")


def test_pictures_have_text_alternatives(four: Shown) -> None:
    page = four.page
    page.keyboard.press("End")
    for picture in page.locator("#board [role=img]").all():
        assert (picture.get_attribute("aria-label") or "").strip()
    ships = page.locator("#board .hull").all()
    assert (ships[0].get_attribute("aria-label") or "").startswith("5-ship")
    islands = [i.get_attribute("aria-label") or "" for i in page.locator("#board .island").all()]
    assert islands[0].startswith("Island (manned/tiles): ") and "undefined" not in " ".join(islands)


@pytest.mark.parametrize("name", ["two-players", "five-players"])
def test_two_and_five_players_fit_a_phone(browser: Browser, site: Path, name: str) -> None:
    tag = {"two-players": "PR-2", "five-players": "PR-5"}[name]
    for width in (400, 1200):
        with browser.show(url=(site / tag / "index.html").as_uri(), width=width) as shown:
            assert shown.console_errors == []
            assert shown.overflow() == 0, shown.overflowing()
            assert shown_scores(shown) == final_totals(name)
            shown.screenshot(ARTIFACTS, f"{name}-end")


@pytest.mark.parametrize("width", [400, 1200])
def test_a_hostile_name_is_shown_as_text_and_runs_nothing(
    browser: Browser, site: Path, width: int
) -> None:
    with browser.show(url=(site / "PR-66" / "index.html").as_uri(), width=width) as shown:
        page = shown.page
        page.keyboard.press("Home")
        page.keyboard.press("End")
        page.wait_for_timeout(200)
        assert page.evaluate("window.pwned") is None
        assert HOSTILE in page.locator("#board .player h3").all_inner_texts()
        assert LONG in page.locator("#board .player h3").all_inner_texts()
        assert len(LONG) == 200
        assert page.locator("#board img, .log img, header img").count() == 0
        assert shown.overflow() == 0, shown.overflowing()
        assert shown.console_errors == []


def test_the_index_lists_the_games_and_links_them(browser: Browser, site: Path) -> None:
    with browser.show(url=(site / "index.html").as_uri(), width=400) as shown:
        page = shown.page
        assert shown.console_errors == []
        assert shown.overflow() == 0, shown.overflowing()
        shown.screenshot(ARTIFACTS, "index")
        assert page.locator(".games .game-card").count() == 4
        page.locator('a[href="PR-1/index.html"]').click()
        page.wait_for_load_state("load")
        assert title(shown) == "Round 16 · step 259 of 259"
        assert shown.console_errors == []


@pytest.mark.parametrize("width", [400, 1200])
def test_a_running_game_shows_each_deciding_seat_with_his_deadline(
    browser: Browser, tmp_path: Path, width: int
) -> None:
    # Round 1's mayor of the four-player game: every seat places colonists at once.
    data = json.loads((RECORDS / "four-players.json").read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:12]
    data["final"] = None
    data["game"].update(
        status="active",
        deadline_at="2026-11-26T09:00:00+00:00",
        turns=[
            {"seat": 0, "deadline_at": "2026-11-26T09:00:00+00:00", "absent": False},
            {"seat": 1, "deadline_at": "2026-11-26T12:00:00+00:00", "absent": False},
            {"seat": 2, "deadline_at": "2026-11-24T12:00:00+00:00", "absent": True},
            {"seat": 3, "deadline_at": None, "absent": False},
        ],
    )
    data["players"][2]["away_until"] = "2026-11-26T12:00:00+00:00"
    publish(tmp_path, [build_game(read_record(data))])
    with browser.show(url=(tmp_path / "PR-1" / "index.html").as_uri(), width=width) as shown:
        page = shown.page
        turns = page.locator(".status .turns li").all_inner_texts()
        assert "(your time: " in turns[0]  # in the reader's zone, whatever it is
        assert [t.split(" (your time: ")[0] for t in turns] == [
            "Anna by Thu 26 Nov 2026 09:00 UTC",
            "Bob by Thu 26 Nov 2026 12:00 UTC",
            "Chris (away: the autopilot decides for him)",
            "David (no deadline: the game waits for him)",
            "Chris is away until Thu 26 Nov 2026 12:00 UTC: the autopilot plays for him.",
        ]
        cards = [p.inner_text() for p in page.locator("#board .player").all()]
        assert "To decide by Thu 26 Nov 2026 12:00 UTC." in cards[1]
        assert "Away until Thu 26 Nov 2026 12:00 UTC: the autopilot plays for him." in cards[2]
        shown.screenshot(ARTIFACTS, "running-mayor")
        assert shown.overflow() == 0, shown.overflowing()
        page.keyboard.press("ArrowLeft")  # the past: no deadlines on the board
        assert page.locator("#board .player .now").count() == 0
        page.keyboard.press("End")
        assert page.locator("#board .player .now").count() == 5
        assert shown.console_errors == []
