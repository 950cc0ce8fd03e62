"""A game's pages from its record: every step of the board, the scores, the log, the
index; names escaped; written all at once or not at all (moderator.archive.pages)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

import moderator.archive.pages as pages_module
from moderator.archive.pages import (
    GamePages,
    PageBuilder,
    board_data,
    build_game,
    patch,
    publish,
    read_summary,
    replay_steps,
)
from moderator.archive.record import RecordError, load_record, read_record
from moderator.cli import main
from moderator.engine import Game

RECORDS = Path(__file__).resolve().parent / "data" / "records"
HOSTILE = "<script>window.pwned=1</script>&\"Zoë'</script>"


def four() -> dict[str, Any]:
    data = json.loads((RECORDS / "four-players.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def pages_of(name: str) -> GamePages:
    return build_game(load_record(RECORDS / f"{name}.json"))


def renamed(data: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The record with a player renamed everywhere (names come from mail)."""
    data = copy.deepcopy(data)
    for part in ("players", "actions", "final"):
        for entry in data[part] or ():
            for key in ("name", "player"):
                if entry.get(key) == old:
                    entry[key] = new
    return data


def embedded(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found[1])
    assert isinstance(data, dict)
    return data


def apply_patch(base: Any, p: Any) -> Any:
    """What the page's applyPatch() does (templates/archive/archive.js)."""
    if not isinstance(p, dict):
        return p
    if isinstance(base, list):
        out = list(base)
        for k, v in p["@"].items():
            out[int(k)] = apply_patch(base[int(k)], v)
        return out
    if not isinstance(base, dict):
        return p
    return {**base, **{k: apply_patch(base.get(k), v) for k, v in p.items()}}


def test_every_step_of_the_page_gives_the_board_after_that_action() -> None:
    record = load_record(RECORDS / "four-players.json")
    steps = replay_steps(record).steps
    assert len(steps) == len(record.actions) + 1
    game = Game.new(list(record.names), record.seed)
    board = steps[0]["p"]
    assert board == board_data(game)
    for entry, step in zip(record.actions, steps[1:], strict=True):
        game.apply(entry.seat, entry.action)
        board = apply_patch(board, step["p"])
        assert board == board_data(game), step["id"]
        assert step["s"] == tuple(sc.total for sc in game.scores())


def test_a_patch_holds_only_what_changed() -> None:
    old = {"a": 1, "b": [{"x": 1}, {"x": 2}], "c": ["corn"], "d": None}
    new = {"a": 1, "b": [{"x": 1}, {"x": 3}], "c": ["corn", "sugar"], "d": "Anna"}
    assert patch(old, new) == {"b": {"@": {"1": {"x": 3}}}, "c": ["corn", "sugar"], "d": "Anna"}
    assert apply_patch(old, patch(old, new)) == new


def test_steps_are_named_by_round_and_role_for_links() -> None:
    pages = build_game(load_record(RECORDS / "four-players.json"))
    data = embedded(pages.html)
    ids = [s["id"] for s in data["steps"]]
    assert ids[0] == "start" and "r7-captain" in ids and "r7-captain-1" in ids
    assert len(ids) == len(set(ids))
    assert data["rounds"]["r1"] == 0 and data["rounds"]["r16"] > data["rounds"]["r15"]
    assert 'href="#r7-captain"' in pages.html and 'href="#r7"' in pages.html


def test_the_page_shows_the_final_scores_with_their_breakdown() -> None:
    record = load_record(RECORDS / "four-players.json")
    page = build_game(record).html
    assert "<strong>Anna wins with 53 VP.</strong>" in page
    table = page[
        page.index('<table class="final">') : page.index(
            "</table>", page.index('<table class="final">')
        )
    ]
    rows = re.findall(r"<tr.*?</tr>", table, re.S)[1:]
    cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row) for row in rows]
    assert [c[1].split(" <")[0] for c in cells] == ["Anna", "David", "Chris", "Bob"]
    assert record.final is not None
    anna = next(f for f in record.final if f.player == "Anna")
    assert cells[0][2:] == [
        str(anna.chips),
        str(anna.buildings),
        str(anna.bonus),
        str(anna.total),
        str(anna.tiebreak),
    ]


def test_a_whole_game_is_well_under_two_megabytes() -> None:
    pages = build_game(load_record(RECORDS / "five-players.json"))
    size = len(pages.html.encode()) + len(pages.record.encode())
    assert size < 2_000_000, size


def test_player_names_are_escaped_everywhere(tmp_path: Path) -> None:
    data = renamed(four(), "Bob", HOSTILE)
    page = build_game(read_record(data)).html
    assert "<script>window.pwned" not in page
    assert page.count("<script") == 2  # the data and the page's own script
    assert str(escape(HOSTILE)) in page
    assert embedded(page)["names"][1] == HOSTILE


def test_publish_writes_the_page_the_record_the_summary_and_the_index(tmp_path: Path) -> None:
    publish(tmp_path, [pages_of("four-players"), pages_of("two-players")])
    folder = tmp_path / "PR-1"
    assert sorted(p.name for p in folder.iterdir()) == ["PR-1.json", "index.html", "summary.json"]
    assert json.loads((folder / "PR-1.json").read_text(encoding="utf-8")) == four()
    summary = read_summary(folder)
    assert summary is not None and summary.status == "finished" and summary.winners == ("Anna",)
    assert summary.rounds == 16 and summary.actions == 259
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert 'href="PR-1/index.html"' in index and 'href="PR-1/PR-1.json"' in index
    assert 'href="PR-2/index.html"' in index and "two-player" in index
    assert "No game is being played." in index


def test_a_running_game_is_listed_with_its_deadline_and_whose_turn(tmp_path: Path) -> None:
    data = four()
    data["actions"] = data["actions"][:93]
    data["final"] = None
    data["game"]["status"] = "active"
    data["game"]["deadline_at"] = "2026-11-25T18:00:00+00:00"
    page = build_game(read_record(data)).html
    assert "Being played: round 7" in page
    # a record without the seats' turns: the one deciding seat, by the game's deadline
    assert "Now deciding:</p>" in page
    assert (
        '<li><strong>David</strong> by <time datetime="2026-11-25T18:00:00+00:00">'
        "Wed 25 Nov 2026 18:00 UTC</time>" in page
    )
    assert "Scores if the game ended now" in page
    publish(tmp_path, [build_game(read_record(data))])
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert index.index("Being played") < index.index("PR-1/index.html") < index.index("Finished")


def test_a_bad_record_changes_nothing_on_disk(tmp_path: Path) -> None:
    data = four()
    data["game"]["tag"] = "PR-9"
    data["actions"][40]["action"] = {"type": "role", "role": "settler"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    good = str(RECORDS / "four-players.json")
    site = tmp_path / "site"
    assert main(["archive", "--record", good, "--record", str(bad), "--out", str(site)]) == 2
    assert not site.exists()


def test_a_summary_that_is_not_ours_is_ignored(tmp_path: Path) -> None:
    publish(tmp_path, [pages_of("two-players")])
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "summary.json").write_text('{"tag": "<b>"}', encoding="utf-8")
    (tmp_path / "PR-2" / "summary.json").write_text("not json", encoding="utf-8")
    assert read_summary(tmp_path / "junk") is None and read_summary(tmp_path / "PR-2") is None
    publish(tmp_path, [pages_of("four-players")])
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert (
        "PR-1/index.html" in index and "PR-2/index.html" not in index and "&lt;b&gt;" not in index
    )


def test_no_temporary_file_is_left_behind(tmp_path: Path) -> None:
    publish(tmp_path, [pages_of("two-players")])
    publish(tmp_path, [pages_of("two-players")])
    names = [p.name for p in tmp_path.rglob("*")]
    assert not [n for n in names if n.startswith(".")]


def test_moderator_archive_from_a_record_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site"
    code = main(["archive", "--record", str(RECORDS / "two-players.json"), "--out", str(out)])
    printed = capsys.readouterr().out.splitlines()
    assert code == 0
    assert printed == [
        (out / "PR-2" / "index.html").as_uri(),
        f"index: {(out / 'index.html').as_uri()}",
    ]
    assert (out / "PR-2" / "index.html").is_file()


def test_moderator_archive_refuses_a_bad_record_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**four(), "version": 7}), encoding="utf-8")
    code = main(["archive", "--record", str(bad), "--out", str(tmp_path / "site")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "bad.json" in err and "version: 7 is not a version this reads" in err
    assert not (tmp_path / "site").exists()


def test_moderator_archive_needs_a_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["archive", "--record", str(RECORDS / "two-players.json")]) == 2
    assert "--out DIR, or [archive] dir" in capsys.readouterr().err


def test_a_game_started_from_a_position_has_its_pages() -> None:
    """`game new --position`: the record starts from a state in the middle of a phase."""
    data = four()
    record = read_record(data)
    game = record.start()
    for entry in record.actions[:95]:  # into the captain phase of round 7
        game.apply(entry.seat, entry.action)
    assert game.state.role >= 0
    data["game"]["initial_state"] = json.loads(game.to_json())
    data["actions"] = [{**a, "seq": i + 1} for i, a in enumerate(data["actions"][95:])]
    pages = build_game(read_record(data))
    steps = embedded(pages.html)["steps"]
    assert len(steps) == len(data["actions"]) + 1
    assert steps[1]["id"] == "r7-captain-1"
    assert "<strong>Anna wins with 53 VP.</strong>" in pages.html


def truncated(data: dict[str, Any], n: int) -> dict[str, Any]:
    """The record as it was after ``n`` actions, while the game ran."""
    data = copy.deepcopy(data)
    data["actions"] = data["actions"][:n]
    data["final"] = None
    data["game"]["status"] = "active"
    return data


def test_the_page_builder_replays_only_new_actions_and_builds_the_same_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    builder = PageBuilder()
    full = four()
    starts = []
    real_start = pages_module.start_game
    monkeypatch.setattr(pages_module, "start_game", lambda r: starts.append(r) or real_start(r))
    for n in (0, 40, 41, 120, 259):
        part = full if n == 259 else truncated(full, n)
        built = builder.build(read_record(part))
        assert len(starts) == 1  # replayed from the start once only
        assert built == build_game(read_record(part)), n
        starts.pop()  # build_game's own


def test_the_page_builder_starts_again_when_moves_were_taken_back() -> None:
    builder = PageBuilder()
    full = four()
    builder.build(read_record(truncated(full, 41)))
    other = truncated(full, 40)
    other["actions"].append({**full["actions"][40], "action": {"type": "pass"}})
    assert builder.build(read_record(other)) == build_game(read_record(other))


def test_the_page_builder_keeps_nothing_of_a_record_that_fails() -> None:
    builder = PageBuilder()
    full = four()
    builder.build(read_record(truncated(full, 40)))
    bad = truncated(full, 42)
    bad["actions"][41]["action"] = {"type": "role", "role": "settler"}
    with pytest.raises(RecordError):
        builder.build(read_record(bad))
    good = truncated(full, 60)
    assert builder.build(read_record(good)) == build_game(read_record(good))
