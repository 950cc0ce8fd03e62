"""The game record read back: checked field by field, replayed action by action, told
round by round (moderator.archive.record and .log)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from moderator.archive.log import GameLog, game_log, record_log
from moderator.archive.record import RecordError, load_record, read_record, replay
from moderator.engine import Game, PickRole, Role
from moderator.store.models import ActorKind

RECORDS = Path(__file__).resolve().parent / "data" / "records"


def four() -> dict[str, Any]:
    data = json.loads((RECORDS / "four-players.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_a_finished_record_replays_to_its_final_scores() -> None:
    record = load_record(RECORDS / "four-players.json")
    assert record.names == ("Anna", "Bob", "Chris", "David")
    steps = list(replay(record))
    assert len(steps) == len(record.actions) == 259
    game = steps[-1].game
    assert game.over
    assert record.final is not None
    assert [sc.total for sc in game.scores()] == [f.total for f in record.final]


def _break(path: str, value: object) -> dict[str, Any]:
    """The four-player record with one value changed (``path`` like "actions.3.seat")."""
    data = copy.deepcopy(four())
    *parents, last = path.split(".")
    node: Any = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    elif value is _DROP:
        del node[last]
    else:
        node[last] = value
    return data


_DROP = object()


@pytest.mark.parametrize(
    ("path", "value", "where", "message"),
    [
        ("format", "something/else", "format", "not a game record"),
        ("version", 2, "version", "not a version this reads"),
        ("game.tag", "../../etc", "game.tag", "not a game tag"),
        ("game.tag", "PR 1<script>", "game.tag", "not a game tag"),
        ("game.seed", "7", "game.seed", "a whole number"),
        ("game.seed", True, "game.seed", "a whole number"),
        ("game.status", "won", "game.status", "not one of"),
        ("game.variant", _DROP, "game.variant", "not one of"),
        ("players.1.name", "  ", "players[1].name", "empty"),
        ("players.1.seat", 7, "players", "one active player for each seat"),
        ("actions.5.seq", 9, "actions[5].seq", "no gaps"),
        ("actions.5.seat", 4, "actions[5].seat", "no seat 4"),
        ("actions.5.actor", "cheater", "actions[5].actor", "not one of"),
        ("actions.5.action", {"type": "teleport"}, "actions[5]", "unknown action type"),
        ("actions.5", "role settler", "actions[5]", "expected an object"),
        ("final.0.total", "many", "final[0].total", "a whole number"),
    ],
)
def test_a_bad_record_is_refused_saying_where(
    path: str, value: object, where: str, message: str
) -> None:
    with pytest.raises(RecordError, match=message) as caught:
        read_record(_break(path, value))
    assert caught.value.where == where


def test_an_illegal_action_is_refused_when_replayed() -> None:
    data = four()
    data["actions"][1]["action"] = {"type": "role", "role": "settler"}  # picked already
    with pytest.raises(RecordError, match=r"actions\[1\]: .* is not legal"):
        list(replay(read_record(data)))


def test_an_action_in_the_wrong_round_is_refused() -> None:
    data = four()
    data["actions"][3]["round"] = 5
    with pytest.raises(RecordError, match=r"actions\[3\]\.round"):
        list(replay(read_record(data)))


def test_final_scores_that_the_actions_do_not_give_are_refused() -> None:
    data = four()
    data["final"][0]["total"] += 1
    with pytest.raises(RecordError, match="final: the scores differ"):
        list(replay(read_record(data)))


@pytest.mark.parametrize(
    ("text", "message"),
    [("not json", "not JSON"), ("[1, 2]", "a JSON object"), ("", "not JSON")],
)
def test_a_file_that_is_no_record_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError, match=message):
        load_record(path)
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")


def test_the_log_has_a_heading_per_round_and_every_sentence_under_it() -> None:
    log = record_log(load_record(RECORDS / "four-players.json"))
    assert [r.round for r in log.rounds] == list(range(1, 17))
    text = log.text()
    assert text[0] == "Round 1 · governor Anna"
    assert text[1] == "  Anna chooses the settler."
    assert "Round 2 · governor Bob" in text
    assert text[-1].startswith("  The game is over: Anna 53")
    # every sentence is indented under a heading; headings are never indented
    headings = [line for line in text if not line.startswith("  ")]
    assert headings == [f"Round {r.round} · governor {r.governor}" for r in log.rounds]
    assert "ship 1" not in "\n".join(text) and "the 7-ship" in "\n".join(text)


def test_the_log_says_where_colonists_went() -> None:
    text = "\n".join(record_log(load_record(RECORDS / "four-players.json")).text())
    assert "David takes the mayor's extra colonist and places 2 on corn." in text
    assert "Anna places 1 on indigo and 1 on the indigo plant." in text


def test_each_phase_of_the_log_is_named_for_its_round_and_role() -> None:
    log = record_log(load_record(RECORDS / "four-players.json"))
    phases = [p for r in log.rounds for p in r.phases]
    assert phases[0].anchor == "r1-settler" and phases[0].title == "Settler · chosen by Anna"
    assert phases[-1].anchor == "end" and phases[-1].lines[0].text.startswith("The game is over")
    anchors = [p.anchor for p in phases]
    assert len(anchors) == len(set(anchors))


def test_a_decision_not_taken_by_the_player_is_marked() -> None:
    game = Game.new(["Anna", "Bob", "Chris"], 3)
    log = game_log(game, [(0, PickRole(Role.BUILDER), ActorKind.DEFAULT)])
    line = log.rounds[0].phases[0].lines[0]
    assert line.note == "the default, at the deadline"
    assert log.text()[1] == "  Anna chooses the builder. (the default, at the deadline)"


def test_names_in_the_log_are_made_printable() -> None:
    game = Game.new(["Anna\u202e", "Bob\x07", "Chris"], 3)
    log = GameLog(game)
    logged = log.add(1, game.apply(0, PickRole(Role.BUILDER)))
    assert logged.anchor == "r1-builder"
    assert logged.lines[0].text == "Anna  chooses the builder."


def test_the_reader_in_docs_game_record_md_prints_what_it_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "game-record.md").read_text()
    section = doc[doc.index("## Reviewing a game round by round") :]
    blocks = re.findall(r"```(\w*)\n(.*?)```", section, re.S)
    code = "\n".join(body for lang, body in blocks if lang == "python")
    shown = next(body for lang, body in blocks if lang == "")
    path = str(RECORDS / "four-players.json")
    exec(code.replace('"PR-1.json"', repr(path)), {})  # the documented snippets, in order
    printed = capsys.readouterr().out.splitlines()
    for line in shown.splitlines():
        if line.strip() != "...":
            assert line in printed
