"""Configuration: a TOML file read into frozen dataclasses, passed explicitly."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A configuration file that cannot be used; says which key and why."""


@dataclass(frozen=True, slots=True)
class ModeratorSection:
    address: str = "moderator@example.test"
    name: str = "Puerto Rico moderator"
    secret: str = "demo-secret-change-me"
    instance: str = "pr-moderator"
    operator: str = ""


@dataclass(frozen=True, slots=True)
class DatabaseSection:
    url: str = "sqlite:///var/moderator.sqlite"


@dataclass(frozen=True, slots=True)
class MaildirSection:
    path: str = "var/maildir"


@dataclass(frozen=True, slots=True)
class ImapSection:
    host: str = "127.0.0.1"
    port: int = 993
    security: str = "imaps"  # imaps | plain
    user: str = ""
    password: str = ""
    mailbox: str = "INBOX"
    processed_folder: str = "Processed"
    ca_file: str = ""
    idle: bool = True
    poll_seconds: float = 60.0
    linger_seconds: float = 0.5


@dataclass(frozen=True, slots=True)
class SmtpSection:
    host: str = "127.0.0.1"
    port: int = 25
    security: str = "starttls"  # starttls | tls | plain
    user: str = ""
    password: str = ""
    ca_file: str = ""
    allow_remote: bool = False
    timeout: float = 30.0
    connections: int = 4


@dataclass(frozen=True, slots=True)
class LimitsSection:
    replies_per_sender_per_hour: int = 30
    auth_failures_per_sender_per_hour: int = 5
    auth_failures_per_seat_per_hour: int = 10
    unknown_sender_replies_per_day: int = 1


@dataclass(frozen=True, slots=True)
class DeadlinesSection:
    hours: int = 48
    reminder_hours: int = 12
    action: str = "default"  # default | autopilot | wait
    tick_seconds: float = 60.0


@dataclass(frozen=True, slots=True)
class Config:
    source: str = "maildir"  # maildir | imap
    outgoing: str = "smtp"  # smtp | maildir (local delivery, for trials and tests)
    moderator: ModeratorSection = field(default_factory=ModeratorSection)
    database: DatabaseSection = field(default_factory=DatabaseSection)
    maildir: MaildirSection = field(default_factory=MaildirSection)
    imap: ImapSection = field(default_factory=ImapSection)
    smtp: SmtpSection = field(default_factory=SmtpSection)
    limits: LimitsSection = field(default_factory=LimitsSection)
    deadlines: DeadlinesSection = field(default_factory=DeadlinesSection)
    log_level: str = "INFO"

    @property
    def secret(self) -> bytes:
        return self.moderator.secret.encode("utf-8")


_SECTIONS: dict[str, type[Any]] = {
    "moderator": ModeratorSection,
    "database": DatabaseSection,
    "maildir": MaildirSection,
    "imap": ImapSection,
    "smtp": SmtpSection,
    "limits": LimitsSection,
    "deadlines": DeadlinesSection,
}
_CHOICES = {
    ("imap", "security"): ("imaps", "plain"),
    ("smtp", "security"): ("starttls", "tls", "plain"),
    ("deadlines", "action"): ("default", "autopilot", "wait"),
}


def _section(name: str, cls: type[Any], data: object) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"[{name}] must be a table")
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise ConfigError(f"[{name}] has an unknown key {key!r}")
        default = getattr(cls(), key)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, float):
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            value = float(value) if ok else value
        elif isinstance(default, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, str)
        if not ok:
            raise ConfigError(f"[{name}] {key} should be {type(default).__name__}, got {value!r}")
        allowed = _CHOICES.get((name, key))
        if allowed and value not in allowed:
            raise ConfigError(f"[{name}] {key} must be one of {', '.join(allowed)}")
        values[key] = value
    return cls(**values)


def parse_config(data: dict[str, Any]) -> Config:
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key in _SECTIONS:
            values[key] = _section(key, _SECTIONS[key], value)
        elif key == "source":
            if value not in ("maildir", "imap"):
                raise ConfigError("source must be 'maildir' or 'imap'")
            values[key] = value
        elif key == "outgoing":
            if value not in ("smtp", "maildir"):
                raise ConfigError("outgoing must be 'smtp' or 'maildir'")
            values[key] = value
        elif key == "log_level":
            if value not in ("DEBUG", "INFO", "WARNING", "ERROR"):
                raise ConfigError("log_level must be DEBUG, INFO, WARNING or ERROR")
            values[key] = value
        else:
            raise ConfigError(f"unknown top-level key {key!r}")
    config = Config(**values)
    if not 1 <= config.smtp.connections <= 32:
        raise ConfigError("[smtp] connections must be between 1 and 32")
    if not 0 <= config.imap.linger_seconds <= 60:
        raise ConfigError("[imap] linger_seconds must be between 0 and 60")
    if "@" not in config.moderator.address:
        raise ConfigError("[moderator] address must be an e-mail address")
    if len(config.moderator.secret) < 16:
        raise ConfigError("[moderator] secret must be at least 16 characters")
    return config


def load_config(path: str | Path | None) -> Config:
    """Read a TOML file; None gives the embedded defaults (the demo's)."""
    if path is None:
        return Config()
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    return parse_config(data)
