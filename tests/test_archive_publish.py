"""Games from the database written as pages (moderator.archive.publish): only those that
changed, including a move taken back and replaced by another; each deciding seat with
his own deadline; a replaced player's actions under his own name."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from moderator.archive.pages import build_game
from moderator.archive.publish import game_versions, publish_games
from moderator.archive.record import load_record, read_record, replay
from moderator.cli import main
from moderator.config import Config, DatabaseSection, ModeratorSection, new_secret
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade

RECORDS = Path(__file__).resolve().parent / "data" / "records"

PLAYERS = [
    NewPlayer("Anna", "anna@example.test"),
    NewPlayer("Bob", "bob@example.test"),
    NewPlayer("Chris", "chris@example.test"),
]


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class Table:
    def __init__(
        self,
        tmp_path: Path,
        players: Sequence[NewPlayer] = PLAYERS,
        position: str | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.url = f"sqlite:///{tmp_path / 'm.sqlite'}"
        upgrade(self.url)
        self.engine = make_engine(self.url)
        self.factory: sessionmaker[Session] = make_session_factory(self.engine)
        self.config = Config(
            moderator=ModeratorSection(address="moderator@example.test", secret=new_secret()),
            database=DatabaseSection(url=self.url),
        )
        self.moderator = Moderator(self.config, self.factory, clock or m.utcnow)
        self.admin = Admin(self.moderator)
        self.tag, self.passwords = self.admin.new_game(players, seed=7, position=position)
        self.out = tmp_path / "site"

    def order(self, seat: int, text: str) -> None:
        msg = EmailMessage()
        msg["From"] = PLAYERS[seat].address
        msg["To"] = "moderator@example.test"
        msg["Subject"] = f"[{self.tag}] orders"
        msg["Message-ID"] = make_msgid(domain="publish.example.test")
        msg.set_content(f"password {self.passwords[seat]}\n{text}\n")
        self.moderator.ingest(bytes(msg), source=m.MessageSource.PIPE)
        assert self.moderator.process_all() == 1

    def publish(self) -> list[tuple[str, str]]:
        # (who is away is told by the moderator's clock, the test's, never the real one:
        # an absence of 2 days from the test's 24 November had ended by the real 26th)
        with self.factory.begin() as session:
            games = game_versions(session, self.moderator.clock())
        return publish_games(self.factory, self.out, games, now=self.moderator.clock())

    def summary(self) -> dict[str, object]:
        data = json.loads((self.out / self.tag / "summary.json").read_text(encoding="utf-8"))
        assert isinstance(data, dict)
        return data


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.engine.dispose()


def test_only_changed_games_are_written_again(table: Table) -> None:
    assert table.publish() == [(table.tag, "written")]
    assert table.publish() == [(table.tag, "current")]
    table.order(0, "role builder")
    assert table.publish() == [(table.tag, "written")]
    assert table.summary()["actions"] == 1


def test_a_move_taken_back_and_replaced_is_published(table: Table) -> None:
    table.order(0, "role builder")
    table.publish()
    table.admin.undo(table.tag, "a slip of the keyboard")
    table.order(0, "role settler")  # the same number of actions as before, other ones
    assert table.publish() == [(table.tag, "written")]
    page = (table.out / table.tag / "index.html").read_text(encoding="utf-8")
    assert "Anna chooses the settler." in page and "Anna chooses the builder." not in page


def test_moderator_archive_writes_a_game_of_the_database(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    config.write_text(
        f'[database]\nurl = "{table.url}"\n[moderator]\nsecret = "{new_secret()}"\n',
        encoding="utf-8",
    )
    table.order(0, "role builder")
    out = tmp_path / "pages"
    assert main(["archive", table.tag, "--out", str(out), "--config", str(config)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == (out / table.tag / "index.html").as_uri()
    record = json.loads((out / table.tag / f"{table.tag}.json").read_text(encoding="utf-8"))
    assert record["actions"][0]["action"] == {"type": "role", "role": "builder"}
    assert main(["archive", "PR-99", "--out", str(out), "--config", str(config)]) == 2
    assert "no game 'PR-99'" in capsys.readouterr().err


def test_moderator_check_says_whether_the_pages_can_be_written(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    for folder, expected in (
        (tmp_path / "pages" / "new", "ok    archive   the games' pages are written to"),
        (blocked / "pages", f"warn  archive   cannot write {blocked}: the games' pages"),
    ):
        config = tmp_path / "c.toml"
        config.write_text(
            f'source = "maildir"\noutgoing = "maildir"\n[database]\nurl = "{table.url}"\n'
            f'[moderator]\nsecret = "{new_secret()}"\n[maildir]\npath = "{tmp_path}/mail"\n'
            f'[archive]\ndir = "{folder}"\n',
            encoding="utf-8",
        )
        assert main(["check", "--config", str(config)]) == 0  # the mail goes on without
        out = capsys.readouterr().out
        assert expected in out, out


def test_each_seat_deciding_at_once_is_shown_with_his_own_deadline(tmp_path: Path) -> None:
    # The mayor of round 2 of the four-player record: all four place colonists at once.
    record = load_record(RECORDS / "four-players.json")
    steps = replay(record)
    position = next(step.game.to_json() for step in steps if step.entry.seq == 12)
    players = [NewPlayer(n, f"{n.lower()}@example.test") for n in record.names]
    clock = Clock()
    table = Table(tmp_path, players, position, clock)
    try:
        start = clock.now
        clock.now += timedelta(hours=3)
        table.admin.replace(table.tag, "2", "dora@example.test", name="Dora")  # her own clock
        table.admin.absence(table.tag, "3", days=2)  # the autopilot decides for Chris
        assert table.publish() == [(table.tag, "written")]
    finally:
        table.engine.dispose()
    folder = table.out / table.tag
    data = json.loads((folder / f"{table.tag}.json").read_text(encoding="utf-8"))
    due, later = start + timedelta(hours=48), clock.now + timedelta(hours=48)
    assert data["game"]["turns"] == [
        {"seat": 0, "deadline_at": due.isoformat(), "absent": False},
        {"seat": 1, "deadline_at": later.isoformat(), "absent": False},
        {"seat": 2, "deadline_at": clock.now.isoformat(), "absent": True},
        {"seat": 3, "deadline_at": due.isoformat(), "absent": False},
    ]
    assert [p["away_until"] is not None for p in data["players"] if p["active"]] == [
        False,
        False,
        True,
        False,
    ]
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert (
        '<li><strong>Anna</strong> by <time datetime="2026-11-26T09:00:00+00:00">'
        "Thu 26 Nov 2026 09:00 UTC</time>" in page
    )
    assert (
        '<li><strong>Dora</strong> by <time datetime="2026-11-26T12:00:00+00:00">'
        "Thu 26 Nov 2026 12:00 UTC</time>" in page
    )
    assert (
        "<li><strong>Chris</strong> "
        '<span class="muted">(away: the autopilot decides for him)</span></li>' in page
    )
    assert "<li>Chris is away until " in page and ": the autopilot plays for him.</li>" in page
    index = (table.out / "index.html").read_text(encoding="utf-8")
    assert (
        "to decide: Anna by Thu 26 Nov 2026 09:00 UTC; Dora by Thu 26 Nov 2026 12:00 UTC; "
        "Chris (away: the autopilot decides for him); David by Thu 26 Nov 2026 09:00 UTC"
    ) in index
    # A record from before the seats' turns: everyone under the game's deadline.
    del data["game"]["turns"]
    old = build_game(read_record(data))
    assert old.summary.waiting == tuple(
        f"{n} by Thu 26 Nov 2026 09:00 UTC" for n in ("Anna", "Dora", "Chris", "David")
    )


def test_a_replaced_player_keeps_his_name_on_his_own_actions(table: Table) -> None:
    table.order(0, "role builder")
    table.admin.replace(table.tag, "1", "annika@example.test", name="Annika")
    record = table.admin.export(table.tag)
    assert [(p["name"], p["active"]) for p in record["players"] if p["seat"] == 0] == [
        ("Anna", False),
        ("Annika", True),
    ]
    assert record["actions"][0]["player"] == "Anna"
    assert read_record(record).names[0] == "Annika"


def test_an_absence_that_begins_or_ends_is_published(tmp_path: Path) -> None:
    clock = Clock()
    table = Table(tmp_path, clock=clock)
    try:
        assert table.publish() == [(table.tag, "written")]
        table.admin.absence(table.tag, "3", days=2)  # Chris, who decides nothing now
        assert table.publish() == [(table.tag, "written")]
        page = (table.out / table.tag / "index.html").read_text(encoding="utf-8")
        assert "<li>Chris is away until Thu 26 Nov 2026 " in page
        clock.now += timedelta(days=3)  # (his absence over: the pages change again)
        assert table.publish() == [(table.tag, "written")]
    finally:
        table.engine.dispose()
