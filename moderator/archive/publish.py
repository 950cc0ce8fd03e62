"""Games from the database written as pages: on demand (`moderator archive`) and by
the daemon after every change, in a process of its own so that building pages never
holds up an order."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ..service.core import Moderator
from ..store import models as m
from ..store.db import make_engine, make_session_factory
from .pages import PageBuilder, read_summary, write_game, write_index
from .record import RecordError, export_record, read_record

if TYPE_CHECKING:
    from ..daemon import Daemon

log = logging.getLogger("moderator.archive")
# How often the daemon looks for games changed by other processes (`moderator ingest`,
# `game undo`, another worker), besides being woken after each change of its own.
SCAN_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class GameVersion:
    """What decides whether a game's pages are current."""

    id: int
    tag: str
    version: int
    status: str
    # When the game's row last changed: an undo followed by a new move gives the same
    # version with other actions, and a new stamp. With the players away now and until
    # when: an absence that begins or ends changes the pages, not always the game's row.
    stamp: str


def game_versions(session: Session, now: datetime | None = None) -> list[GameVersion]:
    """Every game's version and stamp (``now``: the time that says who is away)."""
    now = m.utcnow() if now is None else now
    away: dict[int, list[str]] = {}
    for game_id, seat, until in session.execute(
        select(m.Seat.game_id, m.Seat.seat_index, m.Seat.away_until)
        .where(m.Seat.active, m.Seat.away_until > now)
        .order_by(m.Seat.game_id, m.Seat.seat_index)
    ):
        if until is not None:
            away.setdefault(game_id, []).append(f"{seat}:{until.isoformat()}")
    rows = session.execute(
        select(m.Game.id, m.Game.tag, m.Game.version, m.Game.status, m.Game.updated_at).order_by(
            m.Game.id
        )
    )
    return [
        GameVersion(
            i,
            tag,
            version,
            status.value,
            updated.isoformat() + "".join(f" away {x}" for x in away.get(i, ())),
        )
        for i, tag, version, status, updated in rows
    ]


def export_game(session: Session, game_id: int, now: datetime | None = None) -> dict[str, object]:
    """A game's record, read from the store (``now``: the time that says who is away)."""
    row = session.get(m.Game, game_id)
    if row is None:
        raise RecordError("", f"no game {game_id}")
    return export_record(session, row, Moderator.start(row), now)


def publish_games(
    factory: sessionmaker[Session],
    out: Path,
    games: Sequence[GameVersion],
    *,
    force: bool = False,
    builder: PageBuilder | None = None,
    now: datetime | None = None,
) -> list[tuple[str, str]]:
    """Write the pages of ``games`` whose pages under ``out`` are not current (all of
    them with ``force``), then the index; returns (tag, what happened) for each game:
    "written", "current" or the error. ``builder``: one that has built these games
    before (it replays only their new actions). ``now``: the time that says who is
    away, as for game_versions."""
    builder = builder or PageBuilder(keep=0)
    done: list[tuple[str, str]] = []
    for g in games:
        summary = read_summary(out / g.tag)
        if not force and summary is not None and summary.stamp == g.stamp:
            done.append((g.tag, "current"))
            continue
        try:
            with factory.begin() as session:
                record = read_record(export_game(session, g.id, now))
            pages = builder.build(record)
            write_game(out, replace(pages, summary=replace(pages.summary, stamp=g.stamp)))
            done.append((g.tag, "written"))
        except (RecordError, OSError) as exc:
            done.append((g.tag, f"failed: {exc}"))
    if any(what == "written" for _, what in done) or not (out / "index.html").exists():
        try:
            write_index(out)
        except OSError as exc:
            done.append(("index", f"failed: {exc}"))
    return done


# -- in the daemon --------------------------------------------------------------------------


@cache
def _factory(url: str) -> sessionmaker[Session]:
    return make_session_factory(make_engine(url))


def end_with_daemon(daemon_pid: int) -> None:
    """A worker process of the daemon's pool ends with the daemon: a daemon killed
    outright (SIGKILL, the OOM killer) leaves no worker behind, which would otherwise
    wait for work for ever (the pool's initializer, with the daemon's pid)."""

    def watch() -> None:
        while os.getppid() == daemon_pid:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-daemon", daemon=True).start()


def _worker_start(daemon_pid: int) -> None:
    """The page builder gives way to the daemon and the mail servers, and ends with the
    daemon."""
    with contextlib.suppress(OSError):
        os.nice(10)
    end_with_daemon(daemon_pid)


# The page builder's replays, kept from one change of a game to the next.
_BUILDER = PageBuilder()


def build_in_worker(url: str, out: str, games: list[GameVersion]) -> list[tuple[str, str]]:
    """Run in the page builder's process: its own connection to the database."""
    return publish_games(_factory(url), Path(out), games, builder=_BUILDER)


class Publisher:
    """The daemon's page writer: after every change (and every SCAN_SECONDS, for the
    changes of other processes) the changed games' pages are rebuilt in a separate
    process, one pass at a time, so a burst of orders costs one build."""

    def __init__(self, url: str, out: Path) -> None:
        self.url = url
        self.out = out
        self.seen: dict[int, str] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._lock = asyncio.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: the daemon has threads, which a forked child must not inherit
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def catch_up(self, daemon: Daemon) -> list[tuple[str, str]]:
        """One pass: every game changed since the last pass gets its pages rebuilt."""
        async with self._lock:
            games: list[GameVersion] = await daemon.db(game_versions)
            due = [g for g in games if self.seen.get(g.id) != g.stamp]
            if not due:
                return []
            loop = asyncio.get_running_loop()
            try:
                done = await loop.run_in_executor(
                    self._executor(), build_in_worker, self.url, str(self.out), due
                )
            except BrokenProcessPool:
                log.error("the page builder died; it is started again for the next change")
                self._pool = None
                return []
            except Exception:  # never let the pages stop the daemon
                log.exception("building pages failed")
                done = [(g.tag, "failed") for g in due]
            for g in due:
                self.seen[g.id] = g.stamp
            for tag, what in done:
                if what == "written":
                    log.info("pages written game=%s dir=%s", tag, self.out)
                elif what != "current":
                    log.error("pages not written game=%s %s", tag, what)
            return done

    async def run(self, daemon: Daemon) -> None:
        """Until the daemon stops (a build in hand is finished first)."""
        try:
            while not daemon.stopping.is_set():
                await self.catch_up(daemon)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(daemon.changed.wait(), SCAN_SECONDS)
                daemon.changed.clear()
        finally:
            if self._pool is not None:
                pool, self._pool = self._pool, None
                await asyncio.get_running_loop().run_in_executor(
                    None, lambda: pool.shutdown(wait=True, cancel_futures=True)
                )


__all__ = ["GameVersion", "Publisher", "export_game", "game_versions", "publish_games"]
