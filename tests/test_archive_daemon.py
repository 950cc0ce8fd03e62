"""The daemon keeps the games' pages current ([archive] dir), in a process of its own:
after every change, and without ever holding up or breaking the mail."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from moderator.config import load_config, new_secret
from moderator.demo import MailBot
from moderator.engine import Game
from moderator.mail.maildir import address_folder, new_messages, open_maildir
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator
from moderator.store import models as m
from moderator.store.db import make_engine, make_session_factory
from moderator.store.migrate import upgrade

ROOT = Path(__file__).resolve().parents[1]


def wait_for(what: Callable[[], bool], seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if what():
            return True
        time.sleep(0.05)
    return False


class Running:
    """`moderator run` with a game of two, its pages written to ``site``."""

    def __init__(self, tmp_path: Path, site: Path) -> None:
        self.tmp = tmp_path
        self.site = site
        self.config_path = tmp_path / "moderator.toml"
        self.config_path.write_text(
            f"""
source = "maildir"
outgoing = "maildir"
[moderator]
address = "moderator@example.test"
secret = "{new_secret()}"
[database]
url = "sqlite:///{tmp_path}/m.sqlite"
[maildir]
path = "{tmp_path}/mail"
[archive]
dir = "{site}"
"""
        )
        config = load_config(self.config_path)
        upgrade(config.database.url)
        self.factory = make_session_factory(make_engine(config.database.url))
        admin = Admin(Moderator(config, self.factory))
        self.tag, _ = admin.new_game(
            [NewPlayer("Anna", "anna@example.test"), NewPlayer("Bob", "bob@example.test")], seed=3
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "moderator", "run", "--config", str(self.config_path)],
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.mailboxes = tmp_path / "mail" / "mailboxes"
        self.anna = MailBot(self.mailboxes, 0, "Anna", "anna@example.test", seed=1)

    def summary(self) -> dict[str, object]:
        try:
            data = json.loads((self.site / self.tag / "summary.json").read_text())
        except (OSError, ValueError):
            return {}
        assert isinstance(data, dict)
        return data

    def order(self) -> None:
        """Anna answers her latest mail with an order, as a player would."""
        assert wait_for(self.anna.read), "Anna got no mail"
        with self.factory.begin() as session:
            row = session.scalar(select(m.Game).where(m.Game.tag == self.tag))
            assert row is not None and row.snapshot is not None
            game = Game.from_json(row.snapshot.state_json)
        open_maildir(self.tmp / "mail" / "inbox").add(self.anna.order(game))

    def answered(self) -> bool:
        return bool(new_messages(address_folder(self.mailboxes, "anna@example.test")))

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=60)
        assert self.proc.returncode == 0, err.decode()
        return err.decode()


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Callable[[Path], Running]]:
    started: list[Running] = []

    def start(site: Path) -> Running:
        started.append(Running(tmp_path, site))
        return started[-1]

    yield start
    for r in started:
        if r.proc.poll() is None:
            r.proc.kill()


def test_the_pages_follow_the_game_after_every_change(
    tmp_path: Path, running: Callable[[Path], Running]
) -> None:
    site = tmp_path / "site"
    daemon = running(site)
    assert wait_for(lambda: daemon.summary().get("status") == "active"), "no pages at start"
    before = daemon.summary()["actions"]
    assert wait_for((site / "index.html").is_file)
    assert (site / daemon.tag / f"{daemon.tag}.json").is_file()
    daemon.order()
    assert wait_for(daemon.answered), "the order was not answered"
    assert wait_for(lambda: daemon.summary().get("actions") != before), "the pages stayed old"
    page = (site / daemon.tag / "index.html").read_text(encoding="utf-8")
    assert "Anna chooses the" in page
    err = daemon.stop()
    assert f"pages written game={daemon.tag}" in err


def test_pages_that_cannot_be_written_never_stop_the_mail(
    tmp_path: Path, running: Callable[[Path], Running]
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the archive should be")
    daemon = running(blocked)
    daemon.order()
    assert wait_for(daemon.answered), "the order was not answered"
    err = daemon.stop()
    assert "pages not written" in err and "Traceback" not in err
    assert blocked.read_text() == "a file where the archive should be"


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_daemon_killed_outright_leaves_no_page_builder_behind(
    tmp_path: Path, running: Callable[[Path], Running]
) -> None:
    daemon = running(tmp_path / "site")
    assert wait_for(lambda: daemon.summary().get("status") == "active")
    builders = [
        pid
        for pid in children(daemon.proc.pid)
        if b"multiprocessing.spawn" in (Path("/proc") / str(pid) / "cmdline").read_bytes()
    ]
    assert builders, "no page builder process"
    daemon.proc.kill()
    daemon.proc.wait(timeout=30)
    try:
        assert wait_for(lambda: not any(alive(pid) for pid in builders), seconds=20)
    finally:
        for pid in builders:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


# The daemon's autopilot thinker (a search player's process) is a pool like the page
# builder's, made the same way: a worker of such a pool ends with the process that made it.
_POOL = """
import multiprocessing, os, time
from concurrent.futures import ProcessPoolExecutor
from moderator.archive.publish import end_with_daemon

pool = ProcessPoolExecutor(
    max_workers=1,
    mp_context=multiprocessing.get_context("spawn"),
    initializer=end_with_daemon,
    initargs=(os.getpid(),),
)
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(120)
"""


def test_a_pool_worker_made_to_end_with_the_daemon_does_when_it_is_killed_outright() -> None:
    proc = subprocess.Popen([sys.executable, "-c", _POOL], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    worker = int(proc.stdout.readline())
    assert alive(worker)
    proc.kill()
    proc.wait(timeout=30)
    try:
        assert wait_for(lambda: not alive(worker), seconds=20)
    finally:
        with contextlib.suppress(OSError):
            os.kill(worker, signal.SIGKILL)
