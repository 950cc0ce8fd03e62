"""Configuration: the example file is complete and commented; bad files are clear errors."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from moderator.config import Config, ConfigError, load_config

EXAMPLE = Path(__file__).resolve().parents[1] / "config.example.toml"


def test_the_example_config_loads() -> None:
    config = load_config(EXAMPLE)
    assert config.source == "imap" and config.smtp.allow_remote is False


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
        ("[moderator]\nsecret = 'short'", "at least 16"),
        ("[moderator]\naddress = 'nobody'", "e-mail address"),
        ("[nonsense]\nx = 1", "unknown top-level key"),
        ("[smtp]\nhostname = 'x'", "unknown key 'hostname'"),
        ("[imap]\nlinger_seconds = -1.0", "linger_seconds must be"),
        ("this is not toml", "not valid TOML"),
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
