"""Configuration: the example file is complete and commented; bad files are clear errors."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from moderator import resources
from moderator.config import (
    Config,
    ConfigError,
    ModeratorSection,
    initial_config,
    load_config,
    new_secret,
    secret_problem,
    write_initial_config,
)

EXAMPLE = Path(__file__).resolve().parents[1] / "config.example.toml"


def test_the_example_config_loads() -> None:
    config = load_config(EXAMPLE)
    assert config.source == "imap" and config.smtp.allow_remote is False


def test_the_example_sets_no_secret_and_whatever_signs_says_how_to_make_one() -> None:
    config = load_config(EXAMPLE)
    with pytest.raises(ConfigError, match=r"not set.*moderator config init"):
        config.require_secret()


def test_there_is_no_built_in_secret() -> None:
    with pytest.raises(ConfigError, match=r"\[moderator\] secret is not set"):
        _ = Config().secret


def test_every_key_of_the_example_has_a_comment_and_every_setting_is_in_it() -> None:
    lines = EXAMPLE.read_text().splitlines()
    seen: set[str] = set()
    section = ""
    for i, line in enumerate(lines):
        if m := re.match(r"^\[(\w+)\]$", line):
            section = m[1]
        elif m := re.match(r"^(\w+) = ", line):
            assert lines[i - 1].startswith("#"), f"{line!r} has no comment above it"
            seen.add(f"{section}.{m[1]}" if section else m[1])
    expected = set()
    for f in fields(Config):
        default = getattr(Config(), f.name)
        if hasattr(default, "__dataclass_fields__"):
            expected |= {f"{f.name}.{g.name}" for g in fields(default)}
        else:
            expected.add(f.name)
    assert seen == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("source = 'pigeon'", "source must be"),
        ("[imap]\nport = 'x'", "port should be int"),
        ("[imap]\nsecurity = 'starttls'", "security must be one of"),
        ("[moderator]\nsecret = 'short'", "too short"),
        ("[moderator]\naddress = 'nobody'", "e-mail address"),
        ("[nonsense]\nx = 1", "unknown top-level key"),
        ("[smtp]\nhostname = 'x'", "unknown key 'hostname'"),
        ("[imap]\nlinger_seconds = -1.0", "linger_seconds must be"),
        ("this is not toml", "not valid TOML"),
        ("[deadlines]\nabsence = 'sometimes'", "absence must be one of"),
        ("[deadlines]\nmissed_before_operator = 0", "missed_before_operator must be"),
        ("[deadlines]\nlongest_absence_days = 1000", "longest_absence_days must be"),
        ("[deadlines]\nweekend_pause = 'yes'", "weekend_pause should be bool"),
        ("[autopilot]\nplayer = 'deep blue'", "player must be one of"),
        ("[autopilot]\nseconds = 0", "seconds must be"),
    ],
)
def test_a_bad_config_names_the_problem(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "none.toml")


@pytest.mark.parametrize(
    ("secret", "problem"),
    [
        ("demo-secret-change-me", "published"),
        ("change-me-to-a-long-random-string", "published"),
        ("REPLACE-ME-" + "x" * 60, "placeholder"),
        ("my-example-" + new_secret(), "placeholder"),
        ("0123456789abcdef" * 3, "too short"),  # 48 hex digits: 24 bytes
        ("Q" * 43, "not random"),
        ("abab" * 20, "not random"),
        ("correct horse battery staple", "too short"),
    ],
)
def test_a_secret_that_is_not_32_random_bytes_is_refused_saying_how_to_make_one(
    secret: str, problem: str
) -> None:
    reason = secret_problem(secret)
    assert reason is not None and problem in reason
    with pytest.raises(ConfigError, match=rf"{problem}.*moderator config init.*token_urlsafe"):
        ModeratorSection(secret=secret)


@pytest.mark.parametrize(
    "secret",
    [
        "uhF59MfZiCBZVjz1OKoInjGfZxObQ7LjfY7XSPa8RKY",  # secrets.token_urlsafe(32)
        "3q2+7wAAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRo=",  # openssl rand -base64 32
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",  # rand -hex 32
    ],
)
def test_a_random_secret_of_32_bytes_is_accepted(secret: str) -> None:
    assert secret_problem(secret) is None
    assert ModeratorSection(secret=secret).secret == secret


def test_fresh_secrets_are_accepted_and_never_repeat() -> None:
    made = {new_secret() for _ in range(200)}
    assert len(made) == 200
    assert all(secret_problem(s) is None for s in made)


def test_config_init_is_the_example_with_a_fresh_secret(tmp_path: Path) -> None:
    example = resources.data_text("config.example.toml")
    first = write_initial_config(tmp_path / "a.toml", example)
    second = write_initial_config(tmp_path / "b.toml", example)
    a, b = load_config(first), load_config(second)
    assert secret_problem(a.moderator.secret) is None
    assert a.moderator.secret != b.moderator.secret
    assert a.require_secret() == a.moderator.secret.encode()
    # Everything but the secret line is the documented example, comments included.
    differ = [
        (x, y)
        for x, y in zip(example.splitlines(), first.read_text().splitlines(), strict=True)
        if x != y
    ]
    assert differ == [('secret = ""', f'secret = "{a.moderator.secret}"')]
    assert first.stat().st_mode & 0o777 == 0o600  # it holds the secret


def test_config_init_never_overwrites_a_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# mine\n")
    with pytest.raises(ConfigError, match="exists already"):
        write_initial_config(path, resources.data_text("config.example.toml"))
    assert path.read_text() == "# mine\n"


def test_config_init_needs_the_examples_secret_line() -> None:
    with pytest.raises(ConfigError, match="single `secret"):
        initial_config("[moderator]\n", new_secret())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[imap]\nport = 99999", r"\[imap\] port must be at most 65535, not 99999"),
        ("[smtp]\nport = 0", r"\[smtp\] port must be at least 1"),
        ("[imap]\npoll_seconds = 0", r"poll_seconds must be more than 0"),
        ("[deadlines]\nhours = -5", r"\[deadlines\] hours must be at least 1, not -5"),
        ("[deadlines]\nreminder_hours = -1", r"reminder_hours must be at least 0"),
        ("[deadlines]\nhours = 10\nreminder_hours = 10", "reminder_hours must be less than"),
        ("[deadlines]\ntick_seconds = 0.0", "tick_seconds must be more than 0"),
        ("[smtp]\ntimeout = -1.0", "timeout must be more than 0"),
        ("[smtp]\nconnections = 0", "connections must be at least 1"),
        ("[limits]\nauth_failures_per_seat_per_hour = 0", "must be at least 1"),
        ("[moderator]\noperator = 'ops'", "operator must be one e-mail address"),
        ("[moderator]\noperator = 'a@x.t, b@x.t'", "operator must be one e-mail address"),
        ("[database]\nurl = 'not a url'", "not a database URL"),
    ],
)
def test_a_value_out_of_its_range_fails_when_the_config_is_read(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_relative_paths_resolve_against_the_config_files_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "srv"
    home.mkdir()
    (home / "c.toml").write_text(
        '[database]\nurl = "sqlite:///var/m.sqlite"\n'
        '[maildir]\npath = "var/maildir"\n'
        '[imap]\nca_file = "tls/ca.pem"\n'
        '[smtp]\nca_file = "/etc/ssl/ca.pem"\n'
        '[archive]\ndir = "public/games"\n'
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # a command started from another directory
    config = load_config("../srv/c.toml")
    assert config.database.url == f"sqlite:///{home}/var/m.sqlite"
    assert config.maildir.path == str(home / "var" / "maildir")
    assert config.imap.ca_file == str(home / "tls" / "ca.pem")
    assert config.smtp.ca_file == "/etc/ssl/ca.pem"  # absolute: as written
    assert config.archive.dir == str(home / "public" / "games")
    assert config.imap.ca_file == load_config(home / "c.toml").imap.ca_file


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:////var/lib/moderator/m.sqlite",
        "sqlite://",
        "sqlite:///:memory:",
        "postgresql+psycopg://moderator:pw@127.0.0.1:5432/moderator",
    ],
)
def test_absolute_and_server_database_urls_are_kept_as_written(tmp_path: Path, url: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(f'[database]\nurl = "{url}"\n')
    assert load_config(path).database.url == url
