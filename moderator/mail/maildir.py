"""Local maildirs: an inbox the daemon reads, and a sink that delivers outgoing mail
into each recipient's maildir (the demo's and tests' stand-in for SMTP)."""

from __future__ import annotations

import mailbox
import os
import re
from collections.abc import Sequence
from pathlib import Path

from .smtp import SendResult, SendStatus

_SAFE = re.compile(r"[^a-z0-9@._+-]")


def address_folder(root: Path, address: str) -> Path:
    """The maildir of one address under ``root`` (a safe file name)."""
    return root / _SAFE.sub("_", address.lower())


def open_maildir(path: Path) -> mailbox.Maildir:
    path.parent.mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(str(path), create=True)


def new_messages(root: Path) -> list[tuple[str, bytes]]:
    """The messages in the maildir's ``new/``, oldest first. A message another reader
    moves away meanwhile is simply not listed."""
    folder = root / "new"
    found: list[tuple[int, str, bytes]] = []
    for name in os.listdir(folder):
        if name.startswith("."):
            continue
        try:
            found.append(((folder / name).stat().st_mtime_ns, name, (folder / name).read_bytes()))
        except FileNotFoundError:
            continue
    return [(name, raw) for _, name, raw in sorted(found)]


def mark_seen(root: Path, name: str) -> None:
    """Move a message from ``new/`` to ``cur/`` with the Seen flag (maildir convention)."""
    os.rename(root / "new" / name, root / "cur" / f"{name}:2,S")


class MaildirInbox:
    """Messages waiting in ``new/``; each is moved to ``cur/`` (flag S) once recorded."""

    def __init__(self, path: Path) -> None:
        self.path = path
        open_maildir(path)

    def waiting(self) -> list[tuple[str, bytes]]:
        return new_messages(self.path)

    def done(self, key: str) -> None:
        mark_seen(self.path, key)


class MaildirSink:
    """Delivers every message to ``root/<recipient>/new`` and accepts it, like an MTA
    that delivers locally. Used by the demo and tests, never for real players."""

    def __init__(self, root: Path) -> None:
        self.root = root

    async def send(self, raw: bytes, mail_from: str, rcpt_to: Sequence[str]) -> SendResult:
        for rcpt in rcpt_to:
            box = open_maildir(address_folder(self.root, rcpt))
            box.add(raw)
        return SendResult(SendStatus.ACCEPTED)

    async def close(self) -> None:
        return None
