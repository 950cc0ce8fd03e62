"""The `moderator` command line, in-process and once as a real process, on a SQLite file."""

from __future__ import annotations

import email
import email.policy
import io
import json
import os
import shutil
import subprocess
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from sqlalchemy import func, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from moderator.cli import main
from moderator.engine import Game, action_from
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = [
    ("Anna", "anna@example.test", None),
    ("Bob", "bob@example.test", "Europe/Berlin"),
    ("Chris", "chris@example.test", None),
]
SECRET = "FKbNdhMDWVYwF5ALDLC9SIJtcCTxR-fNAzapm0gQgOk"
CONFIG = """\
[moderator]
address = "moderator@example.test"
secret = "FKbNdhMDWVYwF5ALDLC9SIJtcCTxR-fNAzapm0gQgOk"

[database]
url = "sqlite:///{path}"

[autopilot]
player = "heuristic"
"""


@dataclass
class Run:
    code: int
    out: str
    err: str


@dataclass
class Cli:
    config: Path
    factory: sessionmaker[Session]
    capsys: pytest.CaptureFixture[str]
    monkeypatch: pytest.MonkeyPatch

    def __call__(self, *argv: str, stdin: bytes = b"") -> Run:
        self.capsys.readouterr()
        self.monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        code = main([*argv, "--config", str(self.config), "--who", "tester"])
        got = self.capsys.readouterr()
        return Run(code, got.out, got.err)

    def new_game(self) -> tuple[str, dict[str, str]]:
        args = ["game", "new", "--seed", "7"]
        for name, address, tz in PLAYERS:
            args += ["--player", f"{name} <{address}>" + (f" tz={tz}" if tz else "")]
        run = self(*args)
        assert run.code == 0, run.err
        lines = run.out.splitlines()
        seats = [line.split() for line in lines if "password: " in line]
        passwords = {words[2]: words[-1] for words in seats}
        return lines[0], passwords

    def outbox(self) -> list[EmailMessage]:
        with self.factory.begin() as session:
            rows = session.scalars(select(m.OutboxMessage).order_by(m.OutboxMessage.id)).all()
            out = []
            for row in rows:
                parsed = email.message_from_bytes(row.raw, policy=email.policy.default)
                assert isinstance(parsed, EmailMessage)
                out.append(parsed)
            return out

    def reply_to(self, address: str) -> str:
        """The signed Reply-To of the newest mail to ``address``."""
        for mail in reversed(self.outbox()):
            if mail["To"] == address and mail["Reply-To"]:
                return str(mail["Reply-To"].addresses[0].addr_spec)
        raise AssertionError(f"no mail to {address}")

    def export(self, tag: str) -> dict[str, object]:
        run = self("game", "export", tag)
        assert run.code == 0, run.err
        record = json.loads(run.out)
        assert isinstance(record, dict)
        return record


def letter(sender: str, to: str, body: str, message_id: str | None = None) -> bytes:
    """A real RFC 5322 message, as a mail server would hand it to .forward."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = "Re: your turn"
    msg["Message-ID"] = message_id or make_msgid(domain="cli.example.test")
    msg["Date"] = "Sun, 22 Nov 2026 10:00:00 +0000"
    msg.set_content(body)
    return bytes(msg)


def text_of(mail: EmailMessage) -> str:
    part = mail.get_body(preferencelist=("plain",))
    assert part is not None
    content = part.get_content()
    assert isinstance(content, str)
    return content


def anna(cli: Cli, body: str) -> bytes:
    """Anna's reply to the newest mail she got."""
    return letter("anna@example.test", cli.reply_to("anna@example.test"), body)


def actions(record: dict[str, object]) -> list[dict[str, object]]:
    got = record["actions"]
    assert isinstance(got, list)
    return got


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file brought to head once by `moderator db upgrade`; each test copies it."""
    folder = tmp_path_factory.mktemp("template")
    config = folder / "moderator.toml"
    config.write_text(CONFIG.format(secret=SECRET, path=folder / "m.sqlite"), encoding="utf-8")
    assert main(["db", "upgrade", "--config", str(config)]) == 0
    return folder / "m.sqlite"


@pytest.fixture
def cli(
    migrated: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Cli]:
    db = tmp_path / "m.sqlite"
    shutil.copyfile(migrated, db)
    config = tmp_path / "moderator.toml"
    config.write_text(CONFIG.format(secret=SECRET, path=db), encoding="utf-8")
    monkeypatch.delenv("MODERATOR_CONFIG", raising=False)
    engine = make_engine(f"sqlite:///{db}")
    try:
        yield Cli(config, make_session_factory(engine), capsys, monkeypatch)
    finally:
        engine.dispose()


@pytest.fixture
def game(cli: Cli) -> str:
    tag, _ = cli.new_game()
    return tag


def test_db_upgrade_and_downgrade_run_the_migrations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "moderator.toml"
    config.write_text(
        CONFIG.format(secret=SECRET, path=tmp_path / "fresh.sqlite"), encoding="utf-8"
    )
    assert main(["db", "upgrade", "--config", str(config)]) == 0
    assert "(head)" in capsys.readouterr().out
    assert main(["game", "list", "--config", str(config)]) == 0
    assert capsys.readouterr().out.strip() == "no games"
    assert main(["db", "downgrade", "base", "--config", str(config)]) == 0
    assert "base (empty)" in capsys.readouterr().out
    assert main(["game", "list", "--config", str(config)]) == 2


def test_game_new_prints_the_tag_and_each_seats_password_once(cli: Cli) -> None:
    tag, passwords = cli.new_game()
    assert tag == "PR-1"
    assert list(passwords) == ["Anna", "Bob", "Chris"]
    assert len(set(passwords.values())) == 3
    # each player got his own password by mail, and only his own
    for mail in cli.outbox():
        name = next(n for n, a, _ in PLAYERS if a == mail["To"])
        text = text_of(mail)
        assert passwords[name] in text
        assert all(p not in text for n, p in passwords.items() if n != name)
    with cli.factory.begin() as session:
        seat = session.scalar(select(m.Seat).where(m.Seat.name == "Bob"))
        assert seat is not None and seat.timezone == "Europe/Berlin"
        audit = session.scalars(select(m.AuditEntry)).all()
        assert [(a.who, a.command) for a in audit] == [("tester", "game new")]


def test_game_list_and_show(cli: Cli, game: str) -> None:
    listed = cli("game", "list")
    assert listed.code == 0
    assert "PR-1" in listed.out and "active" in listed.out and "Anna, Bob, Chris" in listed.out
    shown = cli("game", "show", game)
    assert shown.code == 0
    assert shown.out.startswith("PR-1 (active, 0 actions)")
    assert "Anna" in shown.out and "Round 1" in shown.out
    assert cli("game", "show", "1").out == shown.out


def test_game_show_tells_each_deciding_seats_deadline_and_what_happens_then(
    cli: Cli, game: str
) -> None:
    shown = cli("game", "show", game).out
    assert (
        "Deadline rules: 48 h, a reminder 12 h before; then default; absences: autopilot" in shown
    )
    assert "Deadline of Anna: " in shown and ", then autopilot: role " in shown


def test_game_away_and_back_mark_a_players_absence(cli: Cli, game: str) -> None:
    run = cli("game", "away", game, "Bob", "--days", "3")
    assert run.code == 0, run.err
    assert "seat Bob: away until 20" in run.out and "the player is told" in run.out
    assert "away until 20" in cli("game", "show", game).out
    run = cli("game", "back", game, "2")
    assert run.code == 0 and "seat 2: back" in run.out
    assert "away until" not in cli("game", "show", game).out


def test_game_new_and_game_set_choose_the_deadline_rules(cli: Cli) -> None:
    players = ["--player", "A <a@example.test>", "--player", "B <b@example.test>"]
    run = cli("game", "new", *players, "--weekend-pause", "--absence", "stretch")
    assert run.code == 0, run.err
    tag = run.out.splitlines()[0]
    assert "absences: stretch; weekend pause on" in cli("game", "show", tag).out
    sent = len(cli.outbox())
    changed = cli("game", "set", tag, "--deadline-hours", "24", "--no-weekend-pause")
    assert changed.code == 0, changed.err
    assert changed.out.splitlines() == ["deadline hours: 48 -> 24", "weekend pause: on -> off"]
    told = cli.outbox()[sent:]
    assert len(told) == 2  # each player told, with his new deadline
    body = told[0].get_body(preferencelist=("plain",))
    assert body is not None and "changed the deadline rules" in body.get_content()
    assert "Deadline rules: 24 h" in cli("game", "show", tag).out
    assert cli("game", "set", tag, "--deadline-hours", "24").out.strip() == "nothing changed"


def test_ingest_from_stdin_records_then_processes_a_reply_to_the_signed_address(
    cli: Cli, game: str
) -> None:
    raw = letter("anna@example.test", cli.reply_to("anna@example.test"), "role settler")
    run = cli("ingest", "--process", stdin=raw)
    assert run.code == 0, run.err
    assert "recorded" in run.out and "processed 1 message(s)" in run.out
    first = actions(cli.export(game))[0]
    assert first["action"] == {"type": "role", "role": "settler"}
    assert first["actor"] == "player" and first["player"] == "Anna"

    before = actions(cli.export(game))
    again = cli("ingest", "--process", stdin=raw)
    assert again.code == 0
    assert "duplicate" in again.out
    assert actions(cli.export(game)) == before


def test_ingest_without_process_waits_for_moderator_process(cli: Cli, game: str) -> None:
    raw = letter("anna@example.test", cli.reply_to("anna@example.test"), "role mayor")
    assert cli("ingest", stdin=raw).code == 0
    assert actions(cli.export(game)) == []
    processed = cli("process")
    assert processed.code == 0 and "processed 1 message(s)" in processed.out
    assert actions(cli.export(game))[0]["action"] == {"type": "role", "role": "mayor"}
    assert cli("process").out.strip() == "processed 0 message(s)"
    ticked = cli("tick")
    assert ticked.code == 0 and ticked.out.strip() == "0 game(s) due"


def test_export_writes_the_documented_game_record(cli: Cli, game: str, tmp_path: Path) -> None:
    cli("ingest", "--process", stdin=anna(cli, "role builder"))
    target = tmp_path / "record.json"
    run = cli("game", "export", game, "--output", str(target))
    assert run.code == 0, run.err
    text = target.read_text(encoding="utf-8")
    assert text.startswith('{\n  "format": ')  # indent 2
    record = json.loads(text)
    assert record["format"] == "pr-moderator/game-record"
    assert record["version"] == 1
    assert set(record["game"]) == {
        "tag",
        "variant",
        "seed",
        "status",
        "created_at",
        "deadline_at",
        "turns",
        "absence_policy",
        "initial_state",
    }
    assert record["game"]["initial_state"] is None
    assert record["game"]["tag"] == game and record["game"]["seed"] == 7
    assert record["players"] == [
        {"seat": 0, "name": "Anna", "active": True, "away_until": None},
        {"seat": 1, "name": "Bob", "active": True, "away_until": None},
        {"seat": 2, "name": "Chris", "active": True, "away_until": None},
    ]
    assert [t["seat"] for t in record["game"]["turns"]] == [0]  # Anna builds first
    keys = {"seq", "round", "seat", "player", "action", "actor", "at", "message_id"}
    assert record["actions"] and all(set(a) == keys for a in record["actions"])
    assert [a["seq"] for a in record["actions"]] == list(range(1, len(record["actions"]) + 1))
    assert record["actions"][0]["round"] == 1
    assert record["actions"][0]["message_id"].endswith("@cli.example.test>")
    assert record["final"] is None


def test_a_record_replays_round_by_round_as_docs_game_record_md_shows(
    cli: Cli, tmp_path: Path
) -> None:
    position = tmp_path / "state.json"
    position.write_text(Game.new(["Dora", "Emil", "Fay"], 11).to_json(), encoding="utf-8")
    players = [
        "--player",
        "Dora <d@x.test>",
        "--player",
        "Emil <e@x.test>",
        "--player",
        "Fay <f@x.test>",
    ]
    created = cli("game", "new", *players, "--position", str(position))
    assert created.code == 0, created.err
    tag = created.out.split()[0]
    first = letter("d@x.test", cli.reply_to("d@x.test"), "role mayor")
    assert cli("ingest", "--process", stdin=first).code == 0
    record = cli.export(tag)
    game_part = record["game"]
    assert isinstance(game_part, dict) and game_part["initial_state"] is not None
    game = Game.from_json(json.dumps(game_part["initial_state"]))
    for entry in actions(record):
        game.apply(entry["seat"], action_from(entry["action"]))  # type: ignore[arg-type]
    with cli.factory.begin() as session:
        snapshot = session.scalar(select(m.Snapshot.state_json))
    assert game.to_json() == snapshot


def test_replay_exits_0_when_the_snapshot_matches_the_log_and_1_when_not(
    cli: Cli, game: str
) -> None:
    cli("ingest", "--process", stdin=anna(cli, "role mayor"))
    same = cli("game", "replay", game)
    assert same.code == 0 and "gives the snapshot" in same.out
    with cli.factory.begin() as session:
        session.execute(update(m.Snapshot).values(state_json='{"tampered": true}'))
    differs = cli("game", "replay", game)
    assert differs.code == 1 and "differs" in differs.out


def test_undo_takes_back_the_last_move_and_tells_every_seat(cli: Cli, game: str) -> None:
    cli("ingest", "--process", stdin=anna(cli, "role mayor"))
    assert actions(cli.export(game))
    run = cli("game", "undo", game, "--reason", "Anna mistyped")
    assert run.code == 0, run.err
    assert "took back" in run.out
    assert actions(cli.export(game)) == []
    told = [mail for mail in cli.outbox() if text_of(mail).startswith("Moves taken back.")]
    assert sorted(str(mail["To"]) for mail in told) == sorted(a for _, a, _ in PLAYERS)
    assert all("Anna mistyped" in text_of(mail) for mail in told)
    assert cli("game", "replay", game).code == 0
    assert cli("game", "undo", game, "--reason", "again").code == 2


def test_replace_gives_the_seat_a_new_address_and_the_old_reply_address_stops_working(
    cli: Cli, game: str
) -> None:
    old_reply = cli.reply_to("anna@example.test")
    run = cli("game", "replace", game, "1", "erin@example.test", "--tz", "Europe/Paris")
    assert run.code == 0, run.err
    assert "new password: " in run.out

    cli("ingest", "--process", stdin=letter("anna@example.test", old_reply, "role settler"))
    assert actions(cli.export(game)) == []

    new_reply = cli.reply_to("erin@example.test")
    assert new_reply != old_reply
    cli("ingest", "--process", stdin=letter("erin@example.test", new_reply, "role settler"))
    first = actions(cli.export(game))[0]
    assert first["action"] == {"type": "role", "role": "settler"} and first["seat"] == 0
    players = cli.export(game)["players"]
    assert {"seat": 0, "name": "Anna", "active": False, "away_until": None} in players  # type: ignore[operator]


def test_pause_stops_orders_and_resume_lets_them_through(cli: Cli, game: str) -> None:
    paused = cli("game", "pause", game, "--reason", "holidays")
    assert paused.code == 0 and "paused" in paused.out
    assert "paused" in cli("game", "list").out
    reply = cli.reply_to("anna@example.test")
    cli("ingest", "--process", stdin=letter("anna@example.test", reply, "role settler"))
    assert actions(cli.export(game)) == []

    resumed = cli("game", "resume", game)
    assert resumed.code == 0 and "active" in resumed.out
    cli("ingest", "--process", stdin=letter("anna@example.test", reply, "role settler"))
    assert len(actions(cli.export(game))) >= 1


@pytest.mark.parametrize(
    "argv",
    [
        ["game", "show", "PR-99"],
        ["game", "show", "nonsense"],
        ["game", "new", "--player", "Anna <anna@example.test>"],
        ["game", "new", "--player", "no address", "--player", "Bob <bob@example.test>"],
        ["game", "new", "--player", "A <a@example.test> tz=Mars/Base", "--player", "B <b@x.t>"],
        ["game", "new", "--player", "A <a@x.t>", "--player", "B <b@x.t>", "--position", "/nope"],
        ["game", "new", "--player", "A <a@x.t>", "--player", "B <b@x.t>", "--deadline-action", "x"],
        ["game", "replace", "PR-1", "7", "new@example.test"],
        ["game", "replace", "PR-1", "1", "not-an-address"],
        ["game", "replace", "PR-1", "1", "new@example.test", "--tz", "Nowhere/Else"],
        ["game", "undo", "PR-1", "--reason", "  "],
        ["game", "undo", "PR-1"],
        ["game", "set", "PR-1", "--deadline-hours", "0"],
        ["game", "away", "PR-1", "1"],
        ["game", "away", "PR-1", "1", "--until", "3 December"],
        ["game", "away", "PR-1", "9", "--days", "3"],
        ["game", "away", "PR-1", "1", "--days", "400"],
        ["game", "set", "PR-1", "--absence", "sometimes"],
        ["game", "set", "PR-99", "--deadline-hours", "5"],
        ["game", "frobnicate"],
        ["ingest"],
        ["db", "downgrade", "no-such-revision"],
    ],
)
def test_bad_input_prints_one_line_and_exits_2(cli: Cli, game: str, argv: list[str]) -> None:
    run = cli(*argv)
    assert run.code == 2
    assert len(run.err.strip().splitlines()) == 1, run.err
    assert "Traceback" not in run.err


def test_a_bad_position_file_is_one_line(cli: Cli, tmp_path: Path) -> None:
    position = tmp_path / "state.json"
    position.write_text('{"not": "a state"}', encoding="utf-8")
    players = ["--player", "A <a@x.t>", "--player", "B <b@x.t>"]
    run = cli("game", "new", *players, "--position", str(position))
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1


def test_a_missing_or_broken_config_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["game", "list", "--config", str(tmp_path / "none.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err
    short = tmp_path / "short.toml"
    short.write_text('[moderator]\nsecret = "short"\n', encoding="utf-8")
    assert main(["--config", str(short), "game", "list"]) == 2
    err = capsys.readouterr().err
    assert "secret" in err and len(err.strip().splitlines()) == 1


def test_an_unmigrated_database_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "m.toml"
    config.write_text(
        CONFIG.format(secret=SECRET, path=tmp_path / "empty.sqlite"), encoding="utf-8"
    )
    assert main(["game", "list", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "db upgrade" in err and len(err.strip().splitlines()) == 1


def test_ingest_asks_the_mail_server_to_retry_when_the_database_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "m.toml"
    config.write_text(
        CONFIG.format(secret=SECRET, path=tmp_path / "empty.sqlite"), encoding="utf-8"
    )
    raw = letter("anna@example.test", "moderator@example.test", "role mayor")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["ingest", "--config", str(config)]) == 75  # EX_TEMPFAIL
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_outbox_lists_unsent_mail_by_default_and_sends_failed_mail_again(
    cli: Cli, game: str
) -> None:
    with cli.factory.begin() as session:
        rows = session.scalars(select(m.OutboxMessage).order_by(m.OutboxMessage.id)).all()
        rows[0].status = m.OutboxStatus.FAILED
        rows[0].last_error = "550 5.1.1 no such user"
        rows[1].status = m.OutboxStatus.SENDING
        rows[2].last_error = "cannot connect: Connection refused"
        failed, interrupted = rows[0].id, rows[1].id
    listed = cli("outbox", "list")
    assert listed.code == 0
    # Pending mail too: a daemon that cannot reach its server must not look like "0 mail(s)".
    lines = listed.out.splitlines()
    assert "550 5.1.1 no such user" in lines[0] and "sending" in lines[1]
    assert "pending" in lines[2] and "next try" in lines[2] and "Connection refused" in lines[2]
    assert lines[-1] == "3 mail(s)"
    stuck = cli("outbox", "list", "--status", "failed", "--status", "sending")
    assert stuck.out.splitlines()[-1] == "2 mail(s)"
    assert cli("outbox", "retry", str(failed)).code == 0
    assert cli("outbox", "retry", str(interrupted)).code == 0
    with cli.factory.begin() as session:
        for mail_id in (failed, interrupted):
            row = session.get(m.OutboxMessage, mail_id)
            assert row is not None and row.status is m.OutboxStatus.PENDING
        assert (
            session.scalar(
                select(func.count(m.AuditEntry.id)).where(m.AuditEntry.command == "outbox retry")
            )
            == 2
        )
    again = cli("outbox", "retry", str(failed))  # pending now: nothing to retry
    assert again.code == 2 and len(again.err.strip().splitlines()) == 1
    assert "0 mail(s)" in cli("outbox", "list", "--status", "failed").out


def test_run_hands_the_config_to_the_daemon(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[object, bool]] = []

    def run_daemon(config: object, *, poll: bool) -> int:
        seen.append((config, poll))
        return 0

    fake = types.ModuleType("moderator.daemon")
    fake.run_daemon = run_daemon  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "moderator.daemon", fake)
    assert cli("run").code == 0
    assert cli("run", "--no-poll").code == 0
    assert [(getattr(c, "secret", None), poll) for c, poll in seen] == [
        (SECRET.encode(), True),
        (SECRET.encode(), False),
    ]


def test_config_init_writes_a_config_the_other_commands_accept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config.toml"
    assert main(["config", "init", str(path)]) == 0
    assert "fresh secret" in capsys.readouterr().out
    text = path.read_text().replace(
        'url = "sqlite:///var/moderator.sqlite"', f'url = "sqlite:///{tmp_path}/m.sqlite"'
    )
    path.write_text(text)
    assert main(["db", "upgrade", "--config", str(path)]) == 0
    assert main(["game", "list", "--config", str(path)]) == 0
    assert "no games" in capsys.readouterr().out
    assert main(["config", "init", str(path)]) == 2  # never overwritten
    assert "exists already" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["game", "list"], ["process"], ["tick"], ["run"]])
def test_a_command_that_signs_refuses_to_start_without_a_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    config = tmp_path / "m.toml"
    config.write_text(f'[database]\nurl = "sqlite:///{tmp_path}/m.sqlite"\n')
    assert main(["db", "upgrade", "--config", str(config)]) == 0  # signs nothing
    capsys.readouterr()
    assert main([*command, "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "secret is not set" in err and "moderator config init" in err
    assert len(err.strip().splitlines()) == 1


def test_demo_still_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3", "--players", "Anna,Bob"]) == 0
    assert "Anna" in capsys.readouterr().out


def test_a_real_process_reads_the_message_from_a_pipe(cli: Cli, game: str) -> None:
    raw = anna(cli, "role craftsman")
    env = {**os.environ, "MODERATOR_CONFIG": str(cli.config)}
    piped = subprocess.run(
        [sys.executable, "-m", "moderator", "ingest", "--process"],
        input=raw,
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert piped.returncode == 0, piped.stderr.decode()
    assert b"processed 1 message(s)" in piped.stdout
    replay = subprocess.run(
        [sys.executable, "-m", "moderator", "game", "replay", game],
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert replay.returncode == 0, replay.stderr.decode()
    assert actions(cli.export(game))[0]["action"] == {"type": "role", "role": "craftsman"}
    bad = subprocess.run(
        [sys.executable, "-m", "moderator", "game", "show", "PR-42"],
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.decode().strip() == "moderator: no game 'PR-42'"


# -- an operator's first day: one database, clear refusals, answers like a tool -------------


def test_every_command_but_demo_needs_a_config(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("MODERATOR_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    for argv in (["game", "list"], ["db", "upgrade"], ["run"], ["process"], ["outbox", "list"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "--config" in err and "MODERATOR_CONFIG" in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # no database made on the way


def test_a_command_from_another_directory_finds_the_same_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "srv"
    home.mkdir()
    (home / "config.toml").write_text(CONFIG.format(path="var/m.sqlite"), encoding="utf-8")
    monkeypatch.chdir(home)
    assert main(["db", "upgrade", "--config", "config.toml"]) == 0
    assert str(home / "var" / "m.sqlite") in capsys.readouterr().out
    players = ["--player", "Anna <anna@example.test>", "--player", "Bob <bob@example.test>"]
    assert main(["game", "new", *players, "--config", "config.toml"]) == 0
    capsys.readouterr()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("MODERATOR_CONFIG", "../srv/config.toml")
    assert main(["game", "list"]) == 0
    assert "PR-1" in capsys.readouterr().out
    assert list(elsewhere.iterdir()) == []


def test_a_missing_database_is_refused_by_name_and_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "m.toml"
    missing = tmp_path / "var" / "m.sqlite"
    config.write_text(CONFIG.format(path=missing), encoding="utf-8")
    for argv in (["game", "list"], ["process"], ["tick"], ["outbox", "list"]):
        assert main([*argv, "--config", str(config)]) == 2
        err = capsys.readouterr().err
        assert str(missing) in err and "db upgrade" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "var").exists()


def test_moderator_run_refuses_a_missing_database_and_creates_nothing(tmp_path: Path) -> None:
    config = tmp_path / "m.toml"
    config.write_text(CONFIG.format(path="var/m.sqlite"), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "moderator", "run", "--config", str(config)],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert str(tmp_path / "var" / "m.sqlite").encode() in proc.stderr
    assert b"Traceback" not in proc.stderr
    assert not (tmp_path / "var").exists()


def test_a_database_behind_the_code_names_both_revisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "m.toml"
    config.write_text(CONFIG.format(path=tmp_path / "m.sqlite"), encoding="utf-8")
    assert main(["db", "upgrade", "--config", str(config)]) == 0
    assert main(["db", "downgrade", "0001", "--config", str(config)]) == 0
    capsys.readouterr()
    assert main(["game", "list", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "at revision 0001" in err and "needs" in err and "db upgrade" in err


def test_a_postgresql_password_is_never_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "m.toml"
    config.write_text(
        f'[moderator]\nsecret = "{SECRET}"\n[database]\n'
        'url = "postgresql+psycopg://moderator:hunter22@127.0.0.1:1/moderator"\n',
        encoding="utf-8",
    )
    assert main(["game", "list", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "hunter22" not in err and "moderator:***@127.0.0.1:1/moderator" in err
    assert len(err.splitlines()) == 1


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another user")
def test_a_database_the_user_cannot_write_says_whose_it_is(request: pytest.FixtureRequest) -> None:
    """`db upgrade` run as root, the service and its commands as their own user."""
    import pwd
    import tempfile

    from moderator.config import load_config
    from moderator.store.migrate import DatabaseNotReady, open_database

    # Not under tmp_path: pytest's own folders are closed to other users.
    base = Path(tempfile.mkdtemp(prefix="pr-perm-"))
    base.chmod(0o755)
    request.addfinalizer(lambda: shutil.rmtree(base))
    closed = base / "closed"
    home = base / "open"
    for folder, mode in ((closed, 0o700), (home, 0o755)):
        folder.mkdir(mode=mode)
        folder.chmod(mode)
        config = folder / "config.toml"
        config.write_text(CONFIG.format(path="m.sqlite"), encoding="utf-8")
        assert main(["db", "upgrade", "--config", str(config)]) == 0  # as root
        (folder / "m.sqlite").chmod(0o644)
    messages = []
    for folder in (closed, home):
        url = load_config(folder / "config.toml").database.url
        os.seteuid(pwd.getpwnam("nobody").pw_uid)
        try:
            with pytest.raises(DatabaseNotReady) as refused:
                open_database(url)
        finally:
            os.seteuid(0)
        messages.append(str(refused.value))
    assert messages[0].startswith(f"cannot reach {closed / 'm.sqlite'} through {closed}")
    assert messages[1].startswith(f"cannot write {home / 'm.sqlite'}")
    for message in messages:
        assert "permission denied" in message and "belongs to root" in message
        assert "runs as nobody" in message and "sudo -u root" in message


def test_version_is_the_packages(capsys: pytest.CaptureFixture[str]) -> None:
    from moderator import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"moderator {__version__}"


def test_game_show_into_a_closed_pipe_is_no_error(cli: Cli, game: str) -> None:
    piped = subprocess.run(
        f"{shlex_quote(sys.executable)} -m moderator game show {game} "
        f"--config {shlex_quote(str(cli.config))} | head -n 1",
        shell=True,
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert piped.stdout.decode().startswith(game)
    assert piped.stderr == b""


def shlex_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def test_pausing_a_paused_game_says_so_and_mails_no_one(cli: Cli, game: str) -> None:
    assert cli("game", "resume", game).out.strip() == (
        f"{game} is active already: nothing changed, no mail sent"
    )
    assert "every seat is told" in cli("game", "pause", game).out
    mails = len(cli.outbox())
    again = cli("game", "pause", game)
    assert again.code == 0
    assert again.out.strip() == f"{game} is paused already: nothing changed, no mail sent"
    assert len(cli.outbox()) == mails


def test_game_new_refuses_a_negative_deadline_in_one_line(cli: Cli) -> None:
    players = ["--player", "A <a@example.test>", "--player", "B <b@example.test>"]
    for flag, value in (("--deadline-hours", "-5"), ("--reminder-hours", "-1")):
        run = cli("game", "new", *players, flag, value)
        assert run.code == 2 and "must be at least" in run.err, run.err
        assert len(run.err.splitlines()) == 1
    run = cli("game", "new", *players, "--deadline-hours", "6", "--reminder-hours", "6")
    assert run.code == 2 and "less than the deadline" in run.err
    assert cli("game", "list").out.strip() == "no games"


def test_game_new_says_the_mails_go_out_when_the_daemon_runs(cli: Cli) -> None:
    players = ["--player", "A <a@example.test>", "--player", "B <b@example.test>"]
    run = cli("game", "new", *players)
    assert "go out when the daemon runs (moderator run)" in run.out


def test_the_undo_mail_names_the_moderator_not_the_login(cli: Cli, game: str) -> None:
    cli("ingest", "--process", stdin=anna(cli, "role mayor"))
    assert cli("game", "undo", game, "--reason", "Anna mistyped").code == 0
    told = [mail for mail in cli.outbox() if text_of(mail).startswith("Moves taken back.")]
    assert told and all(
        "the moderator took moves back" in " ".join(text_of(m).split()) for m in told
    )
    assert not any("tester" in text_of(m) for m in told)


def test_replace_can_give_the_new_players_name(cli: Cli, game: str) -> None:
    cli("ingest", "--process", stdin=anna(cli, "role mayor"))
    run = cli("game", "replace", game, "Anna", "erin@example.test", "--name", "Erin")
    assert run.code == 0, run.err
    assert "Erin" in cli("game", "list").out and "Anna" not in cli("game", "list").out
    welcome = [m for m in cli.outbox() if m["To"] == "erin@example.test"]
    assert welcome and "Erin" in text_of(welcome[-1])
    assert cli("game", "replay", game).code == 0  # the snapshot and the log agree
    taken = cli("game", "replace", game, "2", "x@example.test", "--name", "Erin")
    assert taken.code == 2 and "already plays" in taken.err


def test_inbox_list_says_what_became_of_each_message(cli: Cli, game: str) -> None:
    cli("ingest", "--process", stdin=anna(cli, "role settler"))
    cli("ingest", "--process", stdin=letter("eve@example.test", "moderator@example.test", "hi"))
    listed = cli("inbox", "list")
    assert listed.code == 0, listed.err
    lines = listed.out.splitlines()
    assert lines[0].split()[3:7] == ["done", "applied", game, "1"]
    assert "anna@example.test" in lines[0] and "Re: your turn" in lines[0]
    assert "ignored" in lines[1] and "no-game" in lines[1] and "eve@example.test" in lines[1]
    assert lines[2].strip() == "no game"  # why it was ignored
    assert lines[-1] == "2 message(s)"
    only = cli("inbox", "list", "--status", "ignored")
    assert only.out.splitlines()[-1] == "1 message(s)" and "eve@" in only.out
    assert cli("inbox", "list", "--game", game).out.splitlines()[-1] == "1 message(s)"
    assert cli("inbox", "list", "--limit", "1").out.splitlines()[0].startswith("     2")


def maildir_config(tmp_path: Path, extra: str = "") -> Path:
    config = tmp_path / "config.toml"
    config.write_text(
        f'source = "maildir"\noutgoing = "smtp"\n[moderator]\nsecret = "{SECRET}"\n'
        f'operator = "ops@example.test"\n[database]\nurl = "sqlite:///m.sqlite"\n'
        f'[maildir]\npath = "mail"\n{extra}',
        encoding="utf-8",
    )
    return config


def closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_check_prints_one_line_per_check_and_names_what_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = closed_port()
    config = maildir_config(tmp_path, f'[smtp]\nport = {port}\nsecurity = "plain"\n')
    assert main(["check", "--config", str(config)]) == 2  # no database yet
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in out] == [
        ["ok", "config"],
        ["ok", "secret"],
        ["FAIL", "database"],
        ["ok", "operator"],
        ["ok", "maildir"],
        ["FAIL", "smtp"],
    ]
    assert "db upgrade" in out[2] and "connection refused" in out[5]
    assert main(["db", "upgrade", "--config", str(config)]) == 0
    capsys.readouterr()
    # Only the server fails now: a service manager may try again later.
    assert main(["check", "--config", str(config)]) == 75
    out = capsys.readouterr().out
    assert "ok    database" in out
    assert "ok    daemons   running: none; mailbox read by none" in out


def test_check_refuses_a_remote_smtp_host_unless_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = maildir_config(tmp_path, '[smtp]\nhost = "192.0.2.1"\n')
    main(["db", "upgrade", "--config", str(config)])
    capsys.readouterr()
    assert main(["check", "--config", str(config)]) == 2
    smtp = [line for line in capsys.readouterr().out.splitlines() if "smtp" in line]
    assert smtp[0].startswith("FAIL  smtp") and "allow_remote" in smtp[0]


def test_check_of_a_broken_config_is_one_failing_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[imap]\nport = 99999\n", encoding="utf-8")
    assert main(["check", "--config", str(config)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("FAIL  config") and "65535" in out[0]


def test_run_does_not_start_when_its_smtp_server_does_not_answer(tmp_path: Path) -> None:
    port = closed_port()
    config = maildir_config(tmp_path, f'[smtp]\nport = {port}\nsecurity = "plain"\n')
    assert main(["db", "upgrade", "--config", str(config)]) == 0
    proc = subprocess.run(
        [sys.executable, "-m", "moderator", "run", "--config", str(config)],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    err = proc.stderr.decode()
    assert proc.returncode == 75, err
    assert "check smtp FAIL" in err and "connection refused" in err and "not started" in err
    assert "Traceback" not in err


def test_game_show_says_whom_it_waits_for_until_when_and_what_is_kept(cli: Cli, game: str) -> None:
    cli("ingest", "--process", stdin=anna(cli, "role settler"))
    shown = cli("game", "show", game).out.splitlines()
    assert shown[0] == f"{game} (active, 1 actions)" or shown[0].startswith(f"{game} (active")
    facts = "\n".join(shown[1:14])
    assert "Waiting for: Anna (seat 1)" in facts
    assert "Deadline of Anna: 20" in facts and "UTC (in 48 h), then autopilot: " in facts
    assert "Last activity: 20" in facts
    assert "1  Anna <anna@example.test>  last mail: 20" in facts
    assert "2  Bob <bob@example.test>  last mail: never" in facts
    assert "Kept orders: none" in facts


def test_an_unexpected_database_error_in_an_admin_command_says_what_failed_in_one_line(
    cli: Cli, game: str
) -> None:
    # A table gone behind the migrations' back: the command cannot know it in advance.
    with cli.factory.begin() as session:
        session.execute(text("DROP TABLE outbox"))
    run = cli("outbox", "list")
    assert run.code == 2
    assert run.err.strip().splitlines() == [
        f"moderator: the database sqlite:///{cli.config.parent / 'm.sqlite'} has no such table "
        "(is it migrated?): no such table: outbox"
    ]


def test_a_database_on_a_read_only_file_system_is_a_temporary_failure_said_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A disk remounted read-only (after errors, for a snapshot) is no setting a person must
    # fix: `check` says what it is and exits 75, so the unit starts the daemon again later
    # (bench/soak.py found exit 2 and "it belongs to root, this command runs as root").
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "--bind", str(disk), str(disk)]).returncode:
        pytest.skip("needs root to mount")
    try:
        config = tmp_path / "m.toml"
        config.write_text(CONFIG.format(secret=SECRET, path=disk / "m.sqlite"), encoding="utf-8")
        assert main(["db", "upgrade", "--config", str(config)]) == 0
        subprocess.run(["mount", "-o", "remount,bind,ro", str(disk)], check=True)
        capsys.readouterr()
        assert main(["check", "--config", str(config)]) == 75
        lines = [x.split(maxsplit=2) for x in capsys.readouterr().out.splitlines()]
        status, _, words = next(x for x in lines if x[1] == "database")
        assert status == "FAIL" and "read-only file system" in words
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
