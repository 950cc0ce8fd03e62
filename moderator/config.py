"""Configuration: a TOML file read into frozen dataclasses, passed explicitly."""

from __future__ import annotations

import math
import os
import re
import secrets
import string
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError


class ConfigError(ValueError):
    """A configuration file that cannot be used; says which key and why."""


# -- the secret of the signed reply addresses -------------------------------------------------

#: Random bytes a secret must hold at least: whoever can guess it can mint a reply address
#: for any seat, so it must be as hard to guess as the HMAC-SHA256 key it is.
SECRET_BYTES = 32
SECRET_HOW = (
    f"it must be at least {SECRET_BYTES} random bytes, written as base64 (43 characters or "
    f"more) or hex ({2 * SECRET_BYTES} digits or more). Make one with "
    "`moderator config init PATH` (a new commented config with a fresh secret) or "
    "`python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`"
)
# Secrets that have been published: the old built-in default and the old example's value
# (kept here so that a config copied from an old example is refused).
_PUBLISHED_SECRETS = frozenset({"demo-secret-change-me", "change-me-to-a-long-random-string"})
# Words of a placeholder someone forgot to replace; a random secret never holds them.
_PLACEHOLDER_WORDS = ("change", "replace", "example", "secret", "placeholder", "password")
_HEX = frozenset(string.hexdigits)
_BASE64 = frozenset(string.ascii_letters + string.digits + "+/-_")


def new_secret() -> str:
    """A fresh secret: 32 random bytes as URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(SECRET_BYTES)


def secret_problem(secret: str) -> str | None:
    """Why ``secret`` cannot sign reply addresses, or None when it can.

    Randomness cannot be proved from one string, so this estimates it from the
    alphabet used (hex: 4 bits a character, base64: 6, anything else: printable
    ASCII's 6.6) and refuses what is plainly not random: a published value, a
    placeholder word, few distinct characters or one character most of the time.
    """
    if not secret:
        return "is not set"
    if secret.lower() in _PUBLISHED_SECRETS:
        return "is a published value (an old default or example)"
    lowered = secret.lower()
    word = next((w for w in _PLACEHOLDER_WORDS if w in lowered), None)
    if word is not None:
        return f"looks like a placeholder (it contains {word!r})"
    body = secret.rstrip("=")  # base64 padding carries no randomness
    chars = set(body)
    if chars <= _HEX:
        bits_each = 4.0
    elif chars <= _BASE64:
        bits_each = 6.0
    else:
        bits_each = math.log2(95)
    if len(body) * bits_each < 8 * SECRET_BYTES:
        return f"is too short ({len(secret)} characters)"
    most = max(body.count(ch) for ch in chars)
    if len(chars) < 10 or most > len(body) // 4:
        return "is not random (too few different characters)"
    return None


@dataclass(frozen=True, slots=True)
class ModeratorSection:
    address: str = "moderator@example.test"
    name: str = "Puerto Rico moderator"
    # No built-in secret: one in the source would let anyone sign for any seat.
    secret: str = ""
    instance: str = "pr-moderator"
    operator: str = ""

    def __post_init__(self) -> None:
        # Empty means "not set": refused by whatever signs (Config.secret), while the
        # commands that sign nothing (db upgrade) still run. A bad secret is always refused.
        problem = secret_problem(self.secret) if self.secret else None
        if problem is not None:
            raise ConfigError(f"[moderator] secret {problem}: {SECRET_HOW}")


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
class CapsSection:
    """Bounded work per mail: what one mail may cost, whatever is in it."""

    mail_bytes: int = 256 * 1024
    text_chars: int = 10_000
    line_chars: int = 1_000
    orders_per_mail: int = 50
    services_per_mail: int = 3
    reply_bytes: int = 256 * 1024


@dataclass(frozen=True, slots=True)
class DeadlinesSection:
    hours: int = 48
    reminder_hours: int = 12
    action: str = "default"  # default | autopilot | wait
    tick_seconds: float = 60.0
    absence: str = "autopilot"  # autopilot | stretch
    weekend_pause: bool = False
    missed_before_operator: int = 3
    longest_absence_days: int = 30


@dataclass(frozen=True, slots=True)
class AutopilotSection:
    player: str = "search"  # search | heuristic
    seconds: float = 1.0
    playouts: int = 0  # 0: think ``seconds``


@dataclass(frozen=True, slots=True)
class ArchiveSection:
    """The games' web pages (moderator.archive): where the daemon writes them."""

    dir: str = ""


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
    caps: CapsSection = field(default_factory=CapsSection)
    deadlines: DeadlinesSection = field(default_factory=DeadlinesSection)
    archive: ArchiveSection = field(default_factory=ArchiveSection)
    autopilot: AutopilotSection = field(default_factory=AutopilotSection)
    log_level: str = "INFO"

    @property
    def secret(self) -> bytes:
        """The key of the signed reply addresses; ConfigError when none is set."""
        return self.require_secret()

    def require_secret(self) -> bytes:
        """The secret, or ConfigError saying how to make one: what signs calls this
        before it starts (a bad secret never gets this far: ModeratorSection refuses it)."""
        if not self.moderator.secret:
            raise ConfigError(f"[moderator] secret is not set: {SECRET_HOW}")
        return self.moderator.secret.encode("utf-8")


_SECTIONS: dict[str, type[Any]] = {
    "moderator": ModeratorSection,
    "database": DatabaseSection,
    "maildir": MaildirSection,
    "imap": ImapSection,
    "smtp": SmtpSection,
    "limits": LimitsSection,
    "caps": CapsSection,
    "deadlines": DeadlinesSection,
    "archive": ArchiveSection,
    "autopilot": AutopilotSection,
}
_CHOICES = {
    ("imap", "security"): ("imaps", "plain"),
    ("smtp", "security"): ("starttls", "tls", "plain"),
    ("deadlines", "action"): ("default", "autopilot", "wait"),
    ("deadlines", "absence"): ("autopilot", "stretch"),
    ("autopilot", "player"): ("search", "heuristic"),
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
    if "@" not in config.moderator.address:
        raise ConfigError("[moderator] address must be an e-mail address")
    check_ranges(config)
    return config


# -- values and ranges -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bound:
    """The values a number of the config may take: ``low`` (excluded when ``above``) up to
    ``high`` (None: no upper bound)."""

    section: str
    key: str
    low: float
    high: float | None = None
    above: bool = False

    def problem(self, value: float) -> str | None:
        if self.above and value <= self.low:
            return f"must be more than {self.low:g}"
        if not self.above and value < self.low:
            return f"must be at least {self.low:g}"
        if self.high is not None and value > self.high:
            return f"must be at most {self.high:g}"
        return None


# A value outside these fails when the config is read, not hours later in the daemon.
BOUNDS = (
    Bound("imap", "port", 1, 65535),
    Bound("imap", "poll_seconds", 0, 86400, above=True),
    Bound("imap", "linger_seconds", 0, 60),
    Bound("smtp", "port", 1, 65535),
    Bound("smtp", "timeout", 0, 3600, above=True),
    Bound("smtp", "connections", 1, 32),
    Bound("limits", "replies_per_sender_per_hour", 0),
    Bound("limits", "auth_failures_per_sender_per_hour", 1),
    Bound("limits", "auth_failures_per_seat_per_hour", 1),
    Bound("limits", "unknown_sender_replies_per_day", 0),
    Bound("caps", "mail_bytes", 16 * 1024, 64 * 1024 * 1024),
    Bound("caps", "text_chars", 100, 1_000_000),
    Bound("caps", "line_chars", 80, 100_000),
    Bound("caps", "orders_per_mail", 1, 10_000),
    Bound("caps", "services_per_mail", 1, 100),
    Bound("caps", "reply_bytes", 16 * 1024, 64 * 1024 * 1024),
    Bound("deadlines", "hours", 1, 24 * 365),
    Bound("deadlines", "reminder_hours", 0, 24 * 365),
    Bound("deadlines", "tick_seconds", 0, 3600, above=True),
    Bound("deadlines", "missed_before_operator", 1, 1000),
    Bound("deadlines", "longest_absence_days", 1, 366),
    Bound("autopilot", "seconds", 0, 60, above=True),
    Bound("autopilot", "playouts", 0, 100_000),
)


def check_ranges(config: Config) -> None:
    """ConfigError for the first number out of its range (BOUNDS), or an operator address
    that is not one."""
    for bound in BOUNDS:
        value = getattr(getattr(config, bound.section), bound.key)
        problem = bound.problem(value)
        if problem is not None:
            raise ConfigError(f"[{bound.section}] {bound.key} {problem}, not {value!r}")
    if config.deadlines.reminder_hours >= config.deadlines.hours:
        raise ConfigError("[deadlines] reminder_hours must be less than hours")
    operator = config.moderator.operator
    if operator and ("@" not in operator or any(c in operator for c in "\r\n <>,")):
        raise ConfigError(f"[moderator] operator must be one e-mail address, not {operator!r}")


# -- paths ----------------------------------------------------------------------------------


def resolve_paths(config: Config, base: Path) -> Config:
    """The config with every relative path made absolute against ``base``, the config
    file's directory: a command started from another directory must find the same
    database and files, never make a second, empty one (a SQLite URL's path included)."""

    def path(value: str) -> str:
        if not value:
            return value
        expanded = Path(value).expanduser()
        return str(expanded if expanded.is_absolute() else base / expanded)

    return replace(
        config,
        database=replace(config.database, url=resolve_url(config.database.url, base)),
        maildir=replace(config.maildir, path=path(config.maildir.path)),
        imap=replace(config.imap, ca_file=path(config.imap.ca_file)),
        smtp=replace(config.smtp, ca_file=path(config.smtp.ca_file)),
        archive=replace(config.archive, dir=path(config.archive.dir)),
    )


def resolve_url(url: str, base: Path) -> str:
    """A SQLite URL's relative file made absolute against ``base``; other URLs as given."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ConfigError(f"[database] url is not a database URL: {url!r}") from None
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return url
    if database.startswith("file:"):
        return url
    file = Path(database).expanduser()
    if file.is_absolute():
        return url
    return parsed.set(database=str(base / file)).render_as_string(hide_password=False)


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
    return resolve_paths(parse_config(data), Path(path).resolve().parent)


# -- a new config ------------------------------------------------------------------------------

_SECRET_LINE = re.compile(r'^secret = ".*"$', re.MULTILINE)


def initial_config(example: str, secret: str) -> str:
    """The text of a new config: the commented example (config.example.toml, so the two
    cannot drift apart) with ``secret`` in place of its empty one. Checked by parsing it."""
    if len(_SECRET_LINE.findall(example)) != 1:
        raise ConfigError("the example config has no single `secret = ...` line to fill in")
    text = _SECRET_LINE.sub(lambda _: f'secret = "{secret}"', example, count=1)
    written = parse_config(tomllib.loads(text))
    if written.moderator.secret != secret:
        raise ConfigError("the example config's secret line is not in [moderator]")
    return text


def write_initial_config(path: str | Path, example: str) -> Path:
    """Write a new config with a fresh secret to ``path``, readable by its owner only (it
    holds the secret); an existing file is never overwritten."""
    target = Path(path)
    text = initial_config(example, new_secret())
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ConfigError(f"{target} exists already; remove it or choose another path") from None
    except OSError as exc:
        raise ConfigError(f"cannot write {target}: {exc.strerror}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    return target
