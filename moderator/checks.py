"""`moderator check`, and the same checks at the start of `moderator run`: one line each."""

from __future__ import annotations

import asyncio
import enum
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select

from .config import Config, ConfigError
from .daemon import POLL_LEASE
from .mail import imap, smtp
from .store import models as m
from .store.db import normalise_url, shown, sqlite_file
from .store.migrate import READ_ONLY_FS, DatabaseNotReady, head_revision, open_database

# A server that does not answer within this long fails the check (the daemon itself
# waits longer, and retries).
PROBE_TIMEOUT = 15.0


class Status(enum.Enum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass(frozen=True, slots=True)
class Check:
    """One line of `moderator check`. ``transient``: a failure that may pass by itself
    (a server not up yet), which a service manager should retry."""

    name: str
    status: Status
    text: str
    transient: bool = False

    def line(self) -> str:
        return f"{self.status.value:<4}  {self.name:<9} {self.text}"


def check_secret(config: Config) -> Check:
    try:
        secret = config.require_secret()
    except ConfigError as exc:
        return Check("secret", Status.FAIL, str(exc))
    return Check("secret", Status.OK, f"set ({len(secret)} bytes)")


def check_operator(config: Config) -> Check:
    if not config.moderator.operator:
        return Check(
            "operator",
            Status.WARN,
            "no [moderator] operator address: failures that need a person are only logged",
        )
    return Check("operator", Status.OK, f"{config.moderator.operator} is told about failures")


def check_archive(config: Config) -> Check:
    """The games' web pages ([archive] dir set): a folder that cannot be written only
    warns, since the mail goes on without the pages."""
    root = Path(config.archive.dir)
    folder = _unwritable(root)
    if folder is not None:
        return Check(
            "archive", Status.WARN, f"cannot write {folder}: the games' pages will not be written"
        )
    return Check("archive", Status.OK, f"the games' pages are written to {root}")


def check_database(config: Config) -> list[Check]:
    """The database and its schema; then which daemons use it (none is no failure: the
    check comes before the first start)."""
    url = config.database.url
    try:
        engine = open_database(url)
    except DatabaseNotReady as exc:
        # A database server may still be starting; a missing or old schema will not mend.
        server = sqlite_file(normalise_url(url)) is None
        transient = (server and "open" in str(exc)) or READ_ONLY_FS in str(exc)
        return [Check("database", Status.FAIL, str(exc), transient=transient)]
    try:
        with engine.connect() as connection:
            runs = connection.execute(
                select(m.DaemonRun.host, m.DaemonRun.pid).where(m.DaemonRun.stopped_at.is_(None))
            ).all()
            lease = connection.execute(
                select(m.Lease.holder, m.Lease.expires_at).where(m.Lease.name == POLL_LEASE)
            ).first()
    finally:
        engine.dispose()
    reader = lease[0] if lease is not None and lease[1] > m.utcnow() else None
    running = ", ".join(f"{host}:{pid}" for host, pid in runs) or "none"
    return [
        Check("database", Status.OK, f"{shown(url)} at {head_revision()} (the newest)"),
        Check(
            "daemons",
            Status.OK,
            f"running: {running}; mailbox read by {reader or 'none'}",
        ),
    ]


def _unwritable(root: Path) -> Path | None:
    """The folder that stops ``root`` from being written (itself, or the first of its
    parents that exists), or None when it can be."""
    folder = root if root.exists() else next((p for p in root.parents if p.exists()), root)
    if folder.is_dir() and os.access(folder, os.W_OK | os.X_OK):
        return None
    return folder


def check_maildir(config: Config) -> Check:
    root = Path(config.maildir.path)
    folder = _unwritable(root)
    if folder is not None:
        return Check("maildir", Status.FAIL, f"cannot write {folder} (for {root})")
    uses = [
        w
        for w, on in (
            ("orders in", config.source == "maildir"),
            ("mail out to", config.outgoing == "maildir"),
        )
        if on
    ]
    return Check("maildir", Status.OK, f"{' and '.join(uses)} {root}")


async def _probe(name: str, probe: Callable[[], Awaitable[str]]) -> Check:
    try:
        text = await asyncio.wait_for(probe(), PROBE_TIMEOUT)
    except smtp.RemoteHostRefused as exc:
        return Check(name, Status.FAIL, str(exc))
    except imap.ImapError as exc:  # the server answered, and refused (a login, a folder)
        return Check(name, Status.FAIL, str(exc))
    except TimeoutError:
        return Check(name, Status.FAIL, f"no answer within {PROBE_TIMEOUT:g} s", transient=True)
    except (OSError, imap.ConnectionLost) as exc:
        return Check(name, Status.FAIL, _network_error(exc), transient=True)
    except Exception as exc:  # aiosmtplib's refusals: a login, TLS, the greeting
        return Check(name, Status.FAIL, f"{type(exc).__name__}: {exc}")
    return Check(name, Status.OK, text)


def _network_error(exc: BaseException) -> str:
    """What went wrong on the way to a server, in an operator's words where we know them
    (aiosmtplib wraps the refusal in its own error, with the errno in the text)."""
    causes = [exc, exc.__cause__, exc.__context__]
    if any(isinstance(c, ConnectionRefusedError) for c in causes) or "[Errno 111]" in str(exc):
        return (
            f"connection refused: nothing listens there (is the server running? host, port?): {exc}"
        )
    return str(exc) or type(exc).__name__


async def check_servers(config: Config) -> list[Check]:
    from .daemon import imap_config, smtp_config

    probes = []
    if config.source == "imap":
        settings = imap_config(config)
        probes.append(_probe("imap", lambda: imap.probe(settings)))
    if config.outgoing == "smtp":
        sending = smtp_config(config)
        probes.append(_probe("smtp", lambda: smtp.probe(sending)))
    return list(await asyncio.gather(*probes))


def run_checks(config: Config) -> list[Check]:
    """Every check of a loaded config, in the order `moderator check` prints them."""
    checks = [check_secret(config), *check_database(config), check_operator(config)]
    if "maildir" in (config.source, config.outgoing):
        checks.append(check_maildir(config))
    if config.archive.dir:
        checks.append(check_archive(config))
    checks += asyncio.run(check_servers(config))
    return checks


def exit_code(checks: list[Check]) -> int:
    """0 when nothing failed; 75 (EX_TEMPFAIL) when only servers that may come up later
    failed; 2 when a setting or the database must be fixed by a person."""
    failed = [c for c in checks if c.status is Status.FAIL]
    if not failed:
        return 0
    return 75 if all(c.transient for c in failed) else 2
