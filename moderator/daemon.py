"""The daemon: poller, processor, sender and clock in one asyncio process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sqlalchemy import or_, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from .archive.publish import Publisher
from .config import Config
from .mail.imap import ImapConfig, ImapPoller, MailboxPosition
from .mail.maildir import MaildirInbox, MaildirSink
from .mail.smtp import SendResult, SendStatus, SmtpConfig, SmtpSender, next_try
from .service.core import Moderator
from .service.mails import REPLY_KINDS
from .service.operator import notify_operator, queue_digest
from .store import models as m
from .store.db import make_session_factory
from .store.migrate import open_database, shown
from .store.queries import DueMail, release_lease, take_due_outbox, take_lease

log = logging.getLogger("moderator.daemon")
T = TypeVar("T")
# How long the processor keeps the database thread per hand-over when mail is waiting.
PROCESS_SLICE = 0.025
# One daemon at a time reads the mailbox: the one holding this lease. It renews the
# lease every HEARTBEAT seconds; if it dies, another takes over once LEASE_SECONDS pass
# (a clean stop hands it over at once). Two pollers on one mailbox fight over every
# message (one moves it, the other's MOVE fails).
POLL_LEASE = "imap-poller"
LEASE_SECONDS = 30.0
HEARTBEAT = 10.0
# A mail deferred this many times (30 s, 1, 2 and 4 minutes of trying) is reported to
# the operator, once: a server that stays unreachable needs a person.
STUCK_AFTER = 4
INTERRUPTED = "interrupted while being handed to the server: it may or may not have gone out"


class Transport(Protocol):
    async def send(self, raw: bytes, mail_from: str, rcpt_to: list[str]) -> SendResult: ...

    async def close(self) -> None: ...


@dataclass
class Counters:
    stored: int = 0
    processed: int = 0
    sent: int = 0
    failed: int = 0
    retried: int = 0


class DbMailboxState:
    """The IMAP position (UIDVALIDITY, last UID) kept in the database."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon

    async def get(self, mailbox: str) -> MailboxPosition | None:
        def read(session: Session) -> MailboxPosition | None:
            row = session.get(m.MailboxState, mailbox)
            return None if row is None else MailboxPosition(row.uidvalidity, row.last_seen_uid)

        position: MailboxPosition | None = await self.daemon.db(read)
        return position

    async def set(self, mailbox: str, position: MailboxPosition) -> None:
        await self.daemon.db(write_position, mailbox, position)


def still_waiting(session: Session, keys: list[tuple[str, int, int]]) -> set[tuple[str, int, int]]:
    """Which of these IMAP messages (mailbox, uidvalidity, uid) are recorded and not yet
    processed. One not found counts as handled: a duplicate of a message recorded under
    another UID."""
    rows = session.execute(
        select(m.InboundMessage.mailbox, m.InboundMessage.uidvalidity, m.InboundMessage.uid).where(
            m.InboundMessage.uid.in_([uid for _, _, uid in keys]),
            m.InboundMessage.status == m.MessageStatus.NEW,
        )
    )
    return set(keys) & {tuple(row) for row in rows}


def write_position(session: Session, mailbox: str, position: MailboxPosition) -> None:
    row = session.get(m.MailboxState, mailbox)
    if row is None:
        session.add(
            m.MailboxState(
                mailbox=mailbox,
                uidvalidity=position.uidvalidity,
                last_seen_uid=position.last_uid,
            )
        )
    else:
        row.uidvalidity = position.uidvalidity
        row.last_seen_uid = position.last_uid


class Daemon:
    """Runs until stop(): every database call goes through one worker thread, so the
    event loop never blocks and SQLite sees one writer."""

    def __init__(
        self,
        config: Config,
        factory: sessionmaker[Session],
        transport: Transport | Sequence[Transport],
        *,
        maildir: Path | None = None,
        poll_seconds: float = 1.0,
    ) -> None:
        self.config = config
        self.factory = factory
        self.moderator = Moderator(config, factory)
        # Several connections send a batch side by side: one connection spends most of
        # its time waiting for the server's answers.
        self.transports = [transport] if not isinstance(transport, Sequence) else list(transport)
        self.maildir = maildir
        self.poll_seconds = poll_seconds
        self.stopping = asyncio.Event()
        self.work = asyncio.Event()  # something was stored: process
        self.mail = asyncio.Event()  # something was processed: send
        self.changed = asyncio.Event()  # a game may have changed: its pages are due
        # The games' pages ([archive] dir), written by a process of their own.
        self.publisher = (
            Publisher(config.database.url, Path(config.archive.dir)) if config.archive.dir else None
        )
        self.counters = Counters()
        self.poller: ImapPoller | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db")
        # IMAP messages (mailbox, uidvalidity, uid) stored and waiting for the processor,
        # to be moved to the processed folder once handled.
        self._awaiting: set[tuple[str, int, int]] = set()
        # The inbound row of each IMAP message store_batch stored as new, until the
        # processor reports it handled: so the poller learns without a query that it is
        # waiting (committed()) and then that it is done (_handled()).
        self._row_of: dict[tuple[str, int, int], int] = {}
        self._key_of: dict[int, tuple[str, int, int]] = {}
        # This run, as the database knows it (daemon_runs, the mailbox lease).
        self.host = socket.gethostname()
        self.holder = f"{self.host}:{os.getpid()}:{id(self):x}"
        self.run_id: int | None = None

    async def db(self, fn: Any, *args: Any) -> Any:
        def run() -> Any:
            with self.factory.begin() as session:
                return fn(session, *args)

        return await asyncio.get_running_loop().run_in_executor(self._pool, run)

    async def call(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def stop(self) -> None:
        log.info("stopping: finishing the message in hand")
        self.stopping.set()
        self.work.set()
        self.mail.set()
        self.changed.set()
        if self.poller is not None:
            self.poller.stop()

    # -- intake ------------------------------------------------------------------------

    async def store(self, raw: bytes, mailbox: str, uidvalidity: int, uid: int) -> None:
        """IMAP: record the raw bytes before anything else (dedupes on Message-ID/UID)."""
        await self.store_batch(mailbox, uidvalidity, [(uid, raw)])

    async def store_batch(
        self, mailbox: str, uidvalidity: int, items: list[tuple[int, bytes]]
    ) -> None:
        """IMAP: record a fetched batch and the mailbox position after it, in one commit
        (before anything else; each message dedupes on Message-ID/bytes/UID)."""

        def run(session: Session) -> list[tuple[tuple[str, int, int], int]]:
            fresh = []
            for uid, raw in items:
                got = self.moderator.ingest_in(
                    session,
                    raw,
                    source=m.MessageSource.IMAP,
                    mailbox=mailbox,
                    uidvalidity=uidvalidity,
                    uid=uid,
                )
                log.debug("stored mailbox=%s uid=%d inbound=%s", mailbox, uid, got)
                if got is not None:
                    fresh.append(((mailbox, uidvalidity, uid), got))
            write_position(session, mailbox, MailboxPosition(uidvalidity, items[-1][0]))
            return fresh

        fresh: list[tuple[tuple[str, int, int], int]] = await self.db(run)
        # Only after the commit: a message counts as waiting once it is durably stored.
        for key, row_id in fresh:
            self._row_of[key] = row_id
            self._key_of[row_id] = key
        self.counters.stored += len(items)

    async def committed(self, mailbox: str, uidvalidity: int, uid: int) -> bool:
        """IMAP: True once this message's row is handled, so the poller may move it to
        the processed folder; else the processor is woken for it, and the poller goes on
        reading meanwhile (its IMAP round trips overlap the processing) and moves it when
        _handled() or _report_committed() says it is done."""
        key = (mailbox, uidvalidity, uid)
        if key in self._row_of:
            # Stored as new by store_batch: waiting, unless the processor has reported it.
            if self._row_of[key] not in self._key_of:
                del self._row_of[key]
                return True
        elif key not in await self.db(still_waiting, [key]):
            return True  # processed with an earlier message, or a duplicate
        self._awaiting.add(key)
        self.work.set()
        return False

    def _handled(self, row_ids: list[int | None]) -> None:
        """The processor handled these inbound rows: the poller may move their messages."""
        for row_id in row_ids:
            key = None if row_id is None else self._key_of.pop(row_id, None)
            if key is None or key not in self._awaiting:
                continue  # not from IMAP, or committed() has not asked yet (it will see)
            self._awaiting.discard(key)
            self._row_of.pop(key, None)
            if self.poller is not None:
                self.poller.mark_committed(key[1], key[2])

    async def _report_committed(self) -> None:
        """Tell the poller which of the messages it stored are handled now."""
        if not self._awaiting or self.poller is None:
            return
        awaiting = list(self._awaiting)
        waiting: set[tuple[str, int, int]] = await self.db(still_waiting, awaiting)
        for key in awaiting:
            if key not in waiting:
                self._awaiting.discard(key)
                self._key_of.pop(self._row_of.pop(key, -1), None)
                self.poller.mark_committed(key[1], key[2])

    async def read_maildir(self) -> None:
        assert self.maildir is not None
        inbox = MaildirInbox(self.maildir)
        while not self.stopping.is_set():
            for key, raw in await self.call(inbox.waiting):
                await self.call(
                    lambda r=raw: self.moderator.ingest(r, source=m.MessageSource.MAILDIR)
                )
                await self.call(inbox.done, key)
                self.counters.stored += 1
                self.work.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), self.poll_seconds / 5)

    # -- processing ----------------------------------------------------------------------

    def _process_some(self) -> list[int | None]:
        """On the database thread: process waiting messages, one transaction each, for up
        to PROCESS_SLICE seconds (so that one hand-over to the thread serves several
        orders under load, and the poller and sender still get their turns); the rows
        handled. Stops after the message in hand once the daemon is stopping."""
        handled: list[int | None] = []
        until = time.monotonic() + PROCESS_SLICE
        while not self.stopping.is_set():
            done, row_id = self.moderator.process_one("daemon")
            if not done:
                break
            handled.append(row_id)
            if time.monotonic() >= until:
                break
        return handled

    async def process_waiting(self) -> int:
        done = 0
        loop = asyncio.get_running_loop()
        reported = loop.time()
        while not self.stopping.is_set():
            handled: list[int | None] = await self.call(self._process_some)
            if not handled:
                break
            done += len(handled)
            self.counters.processed += len(handled)
            self.mail.set()
            self.changed.set()
            self._handled(handled)
            if all(row_id is None for row_id in handled):
                break  # failing before it could take a message: retry after a pause
            # Messages handled elsewhere (another worker, `moderator process`) are found
            # by asking the database, now and then.
            if self._awaiting and loop.time() - reported > 1.0:
                await self._report_committed()
                reported = loop.time()
        await self._report_committed()
        return done

    async def processor(self) -> None:
        while not self.stopping.is_set():
            self.work.clear()
            await self.process_waiting()
            # Woken by the poller; the timeout picks up mail recorded by `moderator ingest`.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.work.wait(), self.poll_seconds)

    # -- sending -------------------------------------------------------------------------

    def _claim(self, session: Session) -> list[DueMail]:
        # At most once: a mail handed to the server is never handed over again, even if
        # we die before recording that it was accepted (they are `sending` from here on;
        # see docs/architecture.md).
        return take_due_outbox(session, now=m.utcnow(), limit=50)

    def _record(self, session: Session, row_id: int, result: SendResult) -> None:
        row = session.get(m.OutboxMessage, row_id)
        assert row is not None
        if result.accepted:
            row.status = m.OutboxStatus.SENT
            row.sent_at = m.utcnow()
            row.last_error = None
        elif result.temporary:
            row.status = m.OutboxStatus.PENDING
            row.next_try_at = m.utcnow() + next_try(row.attempts)
            row.last_error = result.reason
            if row.attempts == STUCK_AFTER:
                notify_operator(
                    session,
                    m.NoteKind.MAIL_STUCK,
                    f"mail {row.id} ({row.kind}) to {row.recipient}: not sent after "
                    f"{row.attempts} tries since {row.created_at:%H:%M} UTC: {result.reason}",
                    game_id=row.game_id,
                )
        else:
            row.status = m.OutboxStatus.FAILED
            row.last_error = result.reason
            notify_operator(
                session,
                m.NoteKind.MAIL_REFUSED,
                f"mail {row.id} ({row.kind}) to {row.recipient}: {result.reason}",
                game_id=row.game_id,
            )

    def _record_all(self, session: Session, results: list[tuple[int, SendResult]]) -> None:
        # The usual case, accepted, in one statement (loading each row would read its
        # whole mail back); refusals one by one.
        accepted = [row_id for row_id, result in results if result.accepted]
        if accepted:
            session.execute(
                update(m.OutboxMessage)
                .where(m.OutboxMessage.id.in_(accepted))
                .values(status=m.OutboxStatus.SENT, sent_at=m.utcnow(), last_error=None)
            )
        for row_id, result in results:
            if not result.accepted:
                self._record(session, row_id, result)

    async def send_due(self) -> int:
        batch: list[DueMail] = await self.db(self._claim)
        if not batch:
            return 0
        started = time.perf_counter()
        results: list[tuple[int, SendResult]] = []

        async def send_share(transport: Transport, share: list[DueMail]) -> None:
            for row_id, raw, to, kind in share:
                # RFC 3834 §3.3: automatic responses go out with a null return path.
                mail_from = "" if kind in REPLY_KINDS else self.config.moderator.address
                try:
                    result = await transport.send(raw, mail_from, to)
                except Exception as exc:  # an unexpected transport failure: retry later
                    log.exception("send failed outbox=%d", row_id)
                    result = SendResult(SendStatus.TEMPORARY, reason=repr(exc))
                results.append((row_id, result))

        n = len(self.transports)
        await asyncio.gather(
            *(send_share(t, batch[i::n]) for i, t in enumerate(self.transports) if batch[i::n])
        )
        # One transaction for the batch: a commit per mail queued every send behind the
        # processor on the single database thread. The rows stay SENDING until then, so
        # a crash in between still sends nothing twice.
        if results:
            await self.db(self._record_all, results)
        deferred = [(row_id, r) for row_id, r in results if r.temporary]
        for row_id, result in results:
            if result.permanent:
                log.error("send refused outbox=%d reason=%s", row_id, result.reason)
        if deferred:
            # One line for the batch: a server that is down defers every mail alike.
            log.warning(
                "send deferred mails=%d outbox=%s reason=%s",
                len(deferred),
                ",".join(str(row_id) for row_id, _ in deferred),
                deferred[0][1].reason,
            )
        accepted = sum(1 for _, r in results if r.accepted)
        self.counters.sent += accepted
        self.counters.retried += len(deferred)
        self.counters.failed += len(results) - accepted - len(deferred)
        log.info(
            "sent batch mails=%d accepted=%d deferred=%d refused=%d ms=%.0f",
            len(results),
            accepted,
            len(deferred),
            len(results) - accepted - len(deferred),
            (time.perf_counter() - started) * 1000,
        )
        return len(batch)

    async def sender(self) -> None:
        while not self.stopping.is_set():
            self.mail.clear()
            while await self.send_due():
                pass
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.mail.wait(), self.poll_seconds)
        # Whatever was processed before the stop still goes out.
        while await self.send_due():
            pass

    # -- the clock -----------------------------------------------------------------------

    async def clock(self) -> None:
        interval = self.config.deadlines.tick_seconds
        while not self.stopping.is_set():
            touched = await self.call(self.moderator.tick)
            if await self.db(queue_digest, self.config, m.utcnow()):
                touched += 1
            if touched:
                self.mail.set()
                self.changed.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), interval)

    # -- this daemon among others ----------------------------------------------------------

    def _register(self, session: Session) -> None:
        """Record this run; a run that ended without a clean stop is reported to the
        operator, and so is mail it left half-sent (when no other daemon is alive)."""
        now = m.utcnow()
        alive = False
        for run in session.scalars(select(m.DaemonRun).where(m.DaemonRun.stopped_at.is_(None))):
            if not self._is_dead(run, now):
                alive = True
                continue
            run.stopped_at = now
            run.clean = False
            notify_operator(
                session,
                m.NoteKind.DAEMON_RESTARTED,
                f"the daemon on {run.host} (pid {run.pid}, started "
                f"{run.started_at:%Y-%m-%d %H:%M} UTC) stopped without a clean shutdown, "
                f"last seen {run.seen_at:%H:%M:%S} UTC; a daemon started on {self.host} "
                f"(pid {os.getpid()})",
            )
        if not alive:
            interrupted = session.scalars(
                select(m.OutboxMessage).where(
                    m.OutboxMessage.status == m.OutboxStatus.SENDING,
                    or_(
                        m.OutboxMessage.last_error.is_(None),
                        m.OutboxMessage.last_error != INTERRUPTED,
                    ),
                )
            ).all()
            for mail in interrupted:
                mail.last_error = INTERRUPTED
                notify_operator(
                    session,
                    m.NoteKind.MAIL_STUCK,
                    f"mail {mail.id} ({mail.kind}) to {mail.recipient}: {INTERRUPTED}; "
                    f"`moderator outbox retry {mail.id}` sends it again",
                    game_id=mail.game_id,
                )
        row = m.DaemonRun(host=self.host, pid=os.getpid(), started_at=now, seen_at=now)
        session.add(row)
        session.flush()
        self.run_id = row.id

    def _is_dead(self, run: m.DaemonRun, now: datetime) -> bool:
        if run.host == self.host:  # ask the system: a restart comes within seconds
            if run.pid == os.getpid():
                return True  # our own pid, but not this run: an earlier process's
            try:
                os.kill(run.pid, 0)
            except ProcessLookupError:
                return True
            except PermissionError:
                return False
            return False
        return (now - run.seen_at).total_seconds() > 3 * HEARTBEAT

    def _seen(self, session: Session, stopped: bool = False) -> None:
        run = None if self.run_id is None else session.get(m.DaemonRun, self.run_id)
        if run is None:
            return
        run.seen_at = m.utcnow()
        if stopped:
            run.stopped_at = run.seen_at
            run.clean = True
            release_lease(session, POLL_LEASE, self.holder)

    async def heartbeat(self) -> None:
        """Tell the other daemons (and the next to start) that this one is alive."""
        while not self.stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), HEARTBEAT)
            try:
                await self.db(self._seen)
            except SQLAlchemyError as exc:
                log.warning("heartbeat failed error=%s", str(exc).splitlines()[0])

    async def _lease(self) -> str | None:
        """Take or renew the mailbox lease: None when this daemon holds it, else who does
        (or why it cannot be had)."""
        try:
            holder: str | None = await self.db(
                lambda session: take_lease(
                    session, POLL_LEASE, self.holder, now=m.utcnow(), seconds=LEASE_SECONDS
                )
            )
        except SQLAlchemyError as exc:
            return f"nobody (the database failed: {str(exc).splitlines()[0]})"
        return holder

    async def poll_mailbox(self, imap: ImapConfig) -> None:
        """Read the mailbox while this daemon holds the lease; else process and send only,
        and take over when the holder stops or dies."""
        told: str | None = None
        loop = asyncio.get_running_loop()
        while not self.stopping.is_set():
            holder = await self._lease()
            if holder is not None:
                if holder != told:
                    log.info("mailbox read by %s; this daemon processes and sends", holder)
                    told = holder
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), HEARTBEAT)
                continue
            told = None
            log.info("mailbox lease taken: this daemon reads %s", imap.mailbox)
            poller = self.poller = ImapPoller(
                imap, DbMailboxState(self), self.store, self.committed, store_batch=self.store_batch
            )
            task = asyncio.create_task(poller.run(), name="imap-session")
            renewed = loop.time()
            try:
                while not self.stopping.is_set() and not task.done():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(asyncio.shield(task), HEARTBEAT)
                    if self.stopping.is_set() or task.done():
                        break
                    if await self._lease() is None:
                        renewed = loop.time()
                    elif loop.time() - renewed > LEASE_SECONDS - HEARTBEAT:
                        # Another may take the lease now: stop before two pollers fight.
                        log.warning("mailbox lease lost: this daemon stops reading the mailbox")
                        break
            finally:
                poller.stop()
                with contextlib.suppress(Exception):
                    await task
                self.poller = None

    # -- all together --------------------------------------------------------------------

    async def run(self, imap: ImapConfig | None = None, *, poll: bool = True) -> Counters:
        """Until stop(). ``poll`` False: no mailbox reading at all (`run --no-poll`, a
        processor beside another daemon that polls)."""
        await self.db(self._register)
        tasks = [
            asyncio.create_task(self.processor(), name="processor"),
            asyncio.create_task(self.sender(), name="sender"),
            asyncio.create_task(self.clock(), name="clock"),
            asyncio.create_task(self.heartbeat(), name="heartbeat"),
        ]
        if self.publisher is not None and poll:
            # Pages from the daemon that reads the mail; `run --no-poll` helpers leave
            # them to it (two writers would only build the same pages twice).
            tasks.append(asyncio.create_task(self.publisher.run(self), name="archive"))
        if imap is not None and poll:
            tasks.append(asyncio.create_task(self.poll_mailbox(imap), name="imap"))
        elif self.maildir is not None and poll:
            tasks.append(asyncio.create_task(self.read_maildir(), name="maildir"))
        try:
            await self.stopping.wait()
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            for transport in self.transports:
                await transport.close()
            with contextlib.suppress(SQLAlchemyError):
                await self.db(self._seen, True)
            self._pool.shutdown(wait=True)
        return self.counters


def imap_config(config: Config) -> ImapConfig:
    c = config.imap
    return ImapConfig(
        host=c.host,
        port=c.port,
        user=c.user,
        password=c.password,
        tls="imaps" if c.security == "imaps" else "plain",
        mailbox=c.mailbox,
        processed_folder=c.processed_folder,
        ca_file=c.ca_file or None,
        use_idle=c.idle,
        poll_interval=c.poll_seconds,
        linger=c.linger_seconds,
    )


def smtp_config(config: Config) -> SmtpConfig:
    c = config.smtp
    security = c.security if c.security in ("starttls", "tls", "plain") else "starttls"
    return SmtpConfig(
        host=c.host,
        port=c.port,
        security=security,  # type: ignore[arg-type]
        user=c.user or None,
        password=c.password or None,
        ca_file=c.ca_file or None,
        timeout=c.timeout,
        allow_remote=c.allow_remote,
    )


# RFC 5424's severities of Python's levels.
_SYSLOG_PRIORITY = {"DEBUG": 7, "INFO": 6, "WARNING": 4, "ERROR": 3, "CRITICAL": 2}


class JournalFormatter(logging.Formatter):
    """Under systemd: no timestamp (the journal adds its own) and the syslog priority
    as a "<N>" prefix, which journald reads (`journalctl -p warning` then finds our
    warnings)."""

    def format(self, record: logging.LogRecord) -> str:
        return f"<{_SYSLOG_PRIORITY.get(record.levelname, 6)}>{super().format(record)}"


def setup_logging(level: str) -> None:
    """key=value lines on stderr; journald-friendly when systemd collects them (it sets
    JOURNAL_STREAM for a service whose output goes to the journal)."""
    handler = logging.StreamHandler()
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(JournalFormatter("level=%(levelname)s logger=%(name)s %(message)s"))
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s level=%(levelname)s logger=%(name)s %(message)s")
        )
    logging.basicConfig(level=getattr(logging, level, logging.INFO), handlers=[handler])
    # aioimaplib logs every untagged response it ignores (new mail announced after a
    # command) at INFO, Alembic its backend when the checks read the schema's revision:
    # protocol detail, not news for an operator.
    for chatty in ("aioimaplib", "alembic"):
        logging.getLogger(chatty).setLevel(max(logging.WARNING, logging.getLogger().level))


def startup_checks(config: Config) -> int:
    """`moderator check`'s checks, logged; the exit code when one failed, else 0."""
    from .checks import Status, exit_code, run_checks

    checks = run_checks(config)
    for check in checks:
        level = {Status.OK: logging.INFO, Status.WARN: logging.WARNING}.get(
            check.status, logging.ERROR
        )
        log.log(level, "check %s %s: %s", check.name, check.status.value, check.text)
    return exit_code(checks)


def run_daemon(config: Config, *, poll: bool = True) -> int:
    """`moderator run`: until SIGTERM or SIGINT; the message in hand is finished first.
    It starts only when the checks pass (exit 2: a setting or the database needs a
    person; 75: a server did not answer, try again later)."""
    config.require_secret()  # refuse to start without one, before anything else
    setup_logging(config.log_level)
    failed = startup_checks(config)
    if failed:
        log.error("not started: a check failed (moderator check tells the same)")
        return failed
    # The processor's CPU-bound work runs on the database thread; with the default 5 ms
    # switch interval every socket call of the event loop (IMAP, SMTP) waits up to that
    # long for the GIL to come back (measured with bench/pipeline.py --profile).
    sys.setswitchinterval(0.0005)
    # Never migrate here: a daemon started with the wrong config or directory must refuse,
    # not create an empty database and answer the players' orders from it.
    factory = make_session_factory(open_database(config.database.url))

    async def main() -> Counters:
        root = Path(config.maildir.path)
        transport: list[Transport] = (
            [MaildirSink(root / "mailboxes")]
            if config.outgoing == "maildir"
            else [SmtpSender(smtp_config(config)) for _ in range(config.smtp.connections)]
        )
        maildir = root / "inbox" if config.source == "maildir" else None
        daemon = Daemon(config, factory, transport, maildir=maildir)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, daemon.stop)
        imap = imap_config(config) if config.source == "imap" else None
        log.info(
            "daemon started source=%s%s database=%s",
            config.source,
            "" if poll else " (not polled here)",
            shown(config.database.url),
        )
        return await daemon.run(imap, poll=poll)

    counters = asyncio.run(main())
    log.info(
        "daemon stopped stored=%d processed=%d sent=%d failed=%d",
        counters.stored,
        counters.processed,
        counters.sent,
        counters.failed,
    )
    return 0
