"""The daemon: poller, processor, sender and clock in one asyncio process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sqlalchemy import select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from .archive.publish import Publisher, end_with_daemon
from .config import Config
from .mail.imap import ImapConfig, ImapPoller, MailboxPosition, backoff_delay
from .mail.maildir import MaildirInbox, MaildirSink
from .mail.smtp import SendResult, SendStatus, SmtpConfig, SmtpSender, next_try
from .service.autopilot import Autopilot, decide
from .service.core import Moderator, PlanJob
from .service.mails import REPLY_KINDS
from .service.operator import notify_operator, queue_digest
from .store import models as m
from .store.db import describe_db_error, is_outage, make_session_factory, shown
from .store.migrate import open_database
from .store.queries import (
    DueMail,
    due_outbox,
    release_lease,
    requeue_interrupted,
    take_lease,
    take_mail,
)

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
# Waiting out an outage: the first retry after about this many seconds, doubling up to
# the cap (with jitter, so that several daemons do not come back in lockstep).
RETRY_FIRST = 0.25
RETRY_CAP = 15.0
# Exit status when a task failed for a reason other than an outage (EX_SOFTWARE): the
# service manager restarts the daemon rather than leave it half alive.
EXIT_TASK_FAILED = 70


def pid_gone(pid: int) -> bool:
    """True when no process ``pid`` of an earlier run exists on this host (our own pid,
    asked about an earlier run's record, was an earlier process's)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


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
    resent: int = 0  # mails left `sending` by an interrupted run, sent again at the start
    planned: int = 0  # the autopilot's decisions made off the mail path


class Outage:
    """One thing that can fail and come back (the database for one task, the SMTP server):
    the failure is logged once with its context, the repeats only at debug level, and the
    recovery once with how long it took."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.attempt = 0
        self.since = 0.0

    @property
    def down(self) -> bool:
        return self.attempt > 0

    def failed(self, context: str) -> float:
        """Note a failure; the seconds to wait before the next try."""
        self.attempt += 1
        if self.attempt == 1:
            self.since = time.monotonic()
            log.error("outage %s: %s; retrying with backoff", self.what, context)
        else:
            log.debug("outage %s: attempt=%d %s", self.what, self.attempt, context)
        return backoff_delay(self.attempt, RETRY_FIRST, RETRY_CAP)

    def ok(self) -> None:
        if self.attempt:
            log.warning(
                "recovered %s after=%.1fs attempts=%d",
                self.what,
                time.monotonic() - self.since,
                self.attempt,
            )
            self.attempt = 0


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
        autopilot: Autopilot | None = None,
    ) -> None:
        self.config = config
        self.factory = factory
        self.moderator = Moderator(config, factory, autopilot=autopilot)
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
        self.plans = asyncio.Event()  # a game changed: the autopilot may have to decide
        self.thinker: Executor | None = None  # the autopilot's own process, when it thinks
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
        # Why the daemon stopped by itself (a task failed for a reason other than an
        # outage); None when it was asked to stop.
        self.failure: str | None = None
        # The server's answers to mails handed over whose record could not be written yet
        # (the database went away): written first when it is back.
        self._unrecorded: dict[int, SendResult] = {}
        # Mails whose `sending` mark may or may not have been committed when the database
        # failed: never handed over, so pending again once the database is back. (Only
        # failed marks: a mark in flight belongs to the connection making it.)
        self._doubtful: set[int] = set()
        self._interrupted_checked = False
        self.smtp = Outage("smtp")
        # Seconds to wait before trying the SMTP server again (None: it answers).
        self._smtp_wait: float | None = None

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
        self.plans.set()
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
        """Record every message waiting in the maildir inbox, then take it out of the inbox
        (a message is taken out only once its record is committed)."""
        assert self.maildir is not None
        inbox = MaildirInbox(self.maildir)
        for key, raw in await self.call(inbox.waiting):
            if self.stopping.is_set():
                return
            await self.call(lambda r=raw: self.moderator.ingest(r, source=m.MessageSource.MAILDIR))
            await self.call(inbox.done, key)
            self.counters.stored += 1
            self.work.set()

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
            self.plans.set()
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

    async def process(self) -> None:
        self.work.clear()
        await self.process_waiting()

    async def _pause(self, event: asyncio.Event, seconds: float) -> None:
        """Until ``event`` is set, the daemon stops, or ``seconds`` have passed."""
        if event.is_set() or self.stopping.is_set():
            return
        waiter = asyncio.ensure_future(event.wait())
        stopper = asyncio.ensure_future(self.stopping.wait())
        try:
            await asyncio.wait({waiter, stopper}, timeout=seconds, return_when="FIRST_COMPLETED")
        finally:
            waiter.cancel()
            stopper.cancel()

    # -- sending -------------------------------------------------------------------------

    # At least once, duplicates bounded (docs/architecture.md, Outgoing mail): each mail is
    # marked `sending` in a commit of its own just before it is handed to the server, and
    # the server's answer is recorded in the commit that marks the next one. A crash thus
    # leaves at most one mail per connection marked without its answer; the next start
    # sends those again with the same Message-ID (_register).

    def _record(self, session: Session, row_id: int, result: SendResult) -> None:
        row = session.get(m.OutboxMessage, row_id)
        assert row is not None
        if result.accepted:
            row.status = m.OutboxStatus.SENT
            row.sent_at = m.utcnow()
            row.last_error = None
        elif result.unreachable:
            # No verdict on the mail: it waits for the server (the sender backs off as a
            # whole) without counting an attempt.
            row.status = m.OutboxStatus.PENDING
            row.attempts = max(0, row.attempts - 1)
            row.next_try_at = m.utcnow()
            row.last_error = result.reason
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
        # whole mail back); the rest one by one.
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

    def _settle(
        self, session: Session, results: list[tuple[int, SendResult]], doubtful: list[int]
    ) -> None:
        """Record answers not yet recorded, and put back mails whose mark was in doubt."""
        self._record_all(session, results)
        if doubtful:
            session.execute(
                update(m.OutboxMessage)
                .where(
                    m.OutboxMessage.id.in_(doubtful),
                    m.OutboxMessage.status == m.OutboxStatus.SENDING,
                )
                .values(status=m.OutboxStatus.PENDING, next_try_at=m.utcnow())
            )

    def _take(
        self,
        session: Session,
        row_id: int,
        results: list[tuple[int, SendResult]],
        doubtful: list[int],
    ) -> bool:
        self._settle(session, results, doubtful)
        return take_mail(session, row_id)

    def _due(
        self, session: Session, results: list[tuple[int, SendResult]], doubtful: list[int]
    ) -> list[DueMail]:
        self._settle(session, results, doubtful)
        return due_outbox(session, now=m.utcnow(), limit=50)

    async def _in_db(self, fn: Any, *args: Any, marking: int | None = None) -> Any:
        """``fn(session, *args, results, doubtful)`` in one commit, with the answers waiting
        to be recorded and the marks in doubt; they are forgotten only once that commit
        succeeded. ``marking``: a mail this commit marks `sending`, in doubt until then."""
        results = list(self._unrecorded.items())
        doubtful = list(self._doubtful)
        try:
            got = await self.db(fn, *args, results, doubtful)
        except BaseException:
            if marking is not None:  # committed or not: we cannot tell, and never sent it
                self._doubtful.add(marking)
            raise
        for row_id, _ in results:
            self._unrecorded.pop(row_id, None)
        self._doubtful.difference_update(doubtful)
        return got

    async def send_due(self) -> int:
        """Send the mails due now (up to a batch of 50), over every connection side by
        side; how many were handed over. A connection stops at the first mail the server
        did not take for being unreachable (the sender then backs off as a whole)."""
        batch: list[DueMail] = await self._in_db(self._due)
        if not batch:
            return 0
        started = time.perf_counter()
        queue = list(reversed(batch))
        results: list[tuple[int, SendResult]] = []

        async def connection(transport: Transport) -> None:
            while queue and self._smtp_wait is None:
                mail = queue.pop()
                if not await self._in_db(self._take, mail.id, marking=mail.id):
                    continue  # another sender has it
                # RFC 3834 §3.3: automatic responses go out with a null return path.
                mail_from = "" if mail.kind in REPLY_KINDS else self.config.moderator.address
                try:
                    result = await transport.send(mail.raw, mail_from, mail.to_addrs)
                except Exception as exc:  # an unexpected transport failure: retry later
                    log.exception("send failed outbox=%d", mail.id)
                    result = SendResult(SendStatus.TEMPORARY, reason=repr(exc))
                self._unrecorded[mail.id] = result
                results.append((mail.id, result))
                self._outage_of_smtp(mail.id, result)

        outcomes = await asyncio.gather(
            *(connection(t) for t in self.transports), return_exceptions=True
        )
        if self._unrecorded:
            await self._in_db(self._settle)
        self._log_batch(results, started)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        return len(results)

    def _outage_of_smtp(self, row_id: int, result: SendResult) -> None:
        if result.accepted:
            self.smtp.ok()
        elif result.unreachable and self._smtp_wait is None:
            self._smtp_wait = self.smtp.failed(f"outbox={row_id} {result.reason}")

    def _log_batch(self, results: list[tuple[int, SendResult]], started: float) -> None:
        deferred = [(row_id, r) for row_id, r in results if r.temporary]
        for row_id, result in results:
            if result.permanent:
                log.error("send refused outbox=%d reason=%s", row_id, result.reason)
        if deferred and not self.smtp.down:
            # One line for the batch: a server that is down defers every mail alike (and
            # an unreachable one is told once, by the outage).
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
        if results:
            log.info(
                "sent batch mails=%d accepted=%d deferred=%d refused=%d ms=%.0f",
                len(results),
                accepted,
                len(deferred),
                len(results) - accepted - len(deferred),
                (time.perf_counter() - started) * 1000,
            )

    async def send(self) -> None:
        """Send everything due, batch after batch (a stop lets the batch in hand finish)."""
        self.mail.clear()
        while self._smtp_wait is None:
            if not await self.send_due() or self.stopping.is_set():
                break

    async def _after_send(self) -> None:
        if self._smtp_wait is not None:  # the server is unreachable: try again later
            await self._pause(self.stopping, self._smtp_wait)
            self._smtp_wait = None
        else:
            await self._pause(self.mail, self.poll_seconds)

    # -- the clock -----------------------------------------------------------------------

    async def tick(self) -> None:
        touched = await self.call(self.moderator.tick)
        if await self.db(queue_digest, self.config, m.utcnow()):
            touched += 1
        if touched:
            self.mail.set()
            self.changed.set()
            self.plans.set()

    # -- this daemon among others ----------------------------------------------------------

    def _register(self, session: Session) -> None:
        """Record this run; a run that ended without a clean stop is reported to the
        operator, and the mail it left half-sent goes out again (when no other daemon is
        alive: the mails another one is handing over are its own)."""
        now = m.utcnow()
        alive = False
        dead = []
        for run in session.scalars(select(m.DaemonRun).where(m.DaemonRun.stopped_at.is_(None))):
            if not self._is_dead(run, now):
                alive = True
                continue
            run.stopped_at = now
            run.clean = False
            dead.append(run)
        resent = 0 if alive else self._resend_interrupted(session)
        for run in dead:
            again = f"; {resent} mail(s) it was handing over are sent again" if resent else ""
            notify_operator(
                session,
                m.NoteKind.DAEMON_RESTARTED,
                f"the daemon on {run.host} (pid {run.pid}, started "
                f"{run.started_at:%Y-%m-%d %H:%M} UTC) stopped without a clean shutdown, "
                f"last seen {run.seen_at:%H:%M:%S} UTC; a daemon started on {self.host} "
                f"(pid {os.getpid()}){again}",
            )
        row = m.DaemonRun(host=self.host, pid=os.getpid(), started_at=now, seen_at=now)
        session.add(row)
        session.flush()
        self.run_id = row.id

    def _resend_interrupted(self, session: Session) -> int:
        """Mails a previous run left `sending` (killed between handing one over and
        recording the answer) are pending again, to be sent again with their Message-ID;
        how many."""
        rows = requeue_interrupted(session)
        for row_id, message_id, recipient in rows:
            log.warning(
                "resending outbox=%d message_id=%s to=%s: a previous run stopped after "
                "handing it over and before recording the answer (the same Message-ID: a "
                "reader's client shows one mail if both arrive)",
                row_id,
                message_id,
                recipient,
            )
        self.counters.resent += len(rows)
        return len(rows)

    def _is_dead(self, run: m.DaemonRun, now: datetime) -> bool:
        if run.host == self.host:  # ask the system: a restart comes within seconds
            return pid_gone(run.pid)
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

    async def beat(self) -> None:
        """Tell the other daemons (and the next to start) that this one is alive."""
        await self.db(self._seen)

    async def _lease(self) -> str | None:
        """Take or renew the mailbox lease: None when this daemon holds it, else who does
        (or why it cannot be had)."""
        try:
            holder: str | None = await self.db(
                lambda session: take_lease(
                    session,
                    POLL_LEASE,
                    self.holder,
                    now=m.utcnow(),
                    seconds=LEASE_SECONDS,
                    dead=self._holder_gone,
                )
            )
        except SQLAlchemyError as exc:
            return f"nobody ({describe_db_error(exc, self.config.database.url)})"
        return holder

    def _holder_gone(self, holder: str) -> bool:
        """True when ``holder`` (host:pid:...) was a process of this host that no longer
        exists: a daemon killed outright (SIGKILL, OOM) and restarted would otherwise read
        no mail until its predecessor's lease ran out (LEASE_SECONDS; found by
        bench/soak.py). A pid taken again by another process only waits out the lease."""
        host, _, rest = holder.partition(":")
        pid = rest.partition(":")[0]
        if host != self.host or not pid.isdigit():
            return False
        return pid_gone(int(pid))

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
                imap,
                DbMailboxState(self),
                self.store,
                self.committed,
                store_batch=self.store_batch,
                tolerate=lambda exc: self.outage(exc) is not None,
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
            failed = task.exception() if task.done() and not task.cancelled() else None
            if failed is not None:
                raise failed  # the poller waits out outages: this is something else

    # -- the autopilot's decisions, off the mail path -----------------------------------

    def _thinker(self) -> Executor | None:
        """Where the autopilot thinks: a process of its own for a player that searches
        (seconds per decision), so that no game's orders wait for it; None: on the
        database thread, for a player that decides in milliseconds."""
        if self.moderator.autopilot.inline:
            return None
        if self.thinker is None:
            # spawn, not fork: this process runs threads. It ends with the daemon, also
            # one killed outright.
            context = multiprocessing.get_context("spawn")
            self.thinker = ProcessPoolExecutor(
                max_workers=1,
                mp_context=context,
                initializer=end_with_daemon,
                initargs=(os.getpid(),),
            )
        return self.thinker

    async def _decide(self, job: PlanJob) -> str:
        thinker = self._thinker()
        if thinker is None:
            action: str = await self.call(self.moderator.decide, job)
            return action
        autopilot = self.moderator.autopilot
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                thinker, decide, autopilot, job.state_json, job.seat, job.seed
            )
        except BrokenProcessPool:
            # The thinking process died (killed, out of memory): the next try starts another.
            self.thinker = None
            thinker.shutdown(wait=False, cancel_futures=True)
            raise

    async def plan(self) -> None:
        """One round of the planner: decide the deadline actions the autopilot has still
        to decide (the mails that announce them wait for it), which also plays for absent
        players."""
        self.plans.clear()
        jobs: list[PlanJob] = await self.call(self.moderator.undecided)
        for job in jobs:
            if self.stopping.is_set():
                return
            action = await self._decide(job)
            if await self.call(self.moderator.settle_decision, job, action):
                self.counters.planned += 1
                self.mail.set()
        if jobs:
            self.plans.set()  # a decision may have made more: look again at once

    # -- all together --------------------------------------------------------------------

    def outage(self, exc: BaseException) -> str | None:
        """What an outage is, in words for the log, or None when ``exc`` is not one (a
        bug, a missing table: the daemon stops and is restarted by its supervisor)."""
        if is_outage(exc):
            return describe_db_error(exc, self.config.database.url)
        if isinstance(exc, BrokenProcessPool):  # the autopilot's process: another is started
            return "the autopilot's process died"
        if isinstance(exc, OSError):  # the maildirs' disk: full, read-only, unmounted
            where = f" ({exc.filename})" if exc.filename else ""
            return f"{exc.strerror or exc!r}{where}"
        return None

    def _fail(self, task: str, exc: BaseException) -> None:
        what = (
            describe_db_error(exc, self.config.database.url)
            if isinstance(exc, SQLAlchemyError)
            else repr(exc)
        )
        log.critical(
            "task=%s failed; stopping the daemon (status %d) for its service manager to "
            "restart it: %s",
            task,
            EXIT_TASK_FAILED,
            what,
            exc_info=exc,
        )
        if self.failure is None:
            self.failure = f"the {task} failed: {what}"
        self.stop()

    async def supervise(
        self, name: str, step: Callable[[], Awaitable[None]], pause: Callable[[], Awaitable[None]]
    ) -> None:
        """Run one task's ``step`` again and again, ``pause`` between. An outage is logged
        once with its context, waited out with backoff, and the task resumes where it was;
        any other failure stops the whole daemon (never half alive)."""
        trouble = Outage(f"task={name}")
        while not self.stopping.is_set():
            try:
                await step()
            except Exception as exc:
                context = self.outage(exc)
                if context is None:
                    self._fail(name, exc)
                    return
                await self._pause(self.stopping, trouble.failed(context))
                continue
            trouble.ok()
            await pause()

    async def guard(self, name: str, loop: Callable[[], Awaitable[None]]) -> None:
        """A task that loops by itself: started again after an outage ends it (logged
        once), and any other failure stops the daemon."""
        trouble = Outage(f"task={name}")
        while not self.stopping.is_set():
            try:
                await loop()
                return
            except Exception as exc:
                context = self.outage(exc)
                if context is None:
                    self._fail(name, exc)
                    return
                await self._pause(self.stopping, trouble.failed(context))

    async def start(self) -> None:
        """Register this run (waiting out a database that is not there yet)."""
        trouble = Outage("task=start")
        while not self.stopping.is_set():
            try:
                await self.db(self._register)
            except Exception as exc:
                context = self.outage(exc)
                if context is None:
                    self._fail("start", exc)
                    return
                await self._pause(self.stopping, trouble.failed(context))
                continue
            trouble.ok()
            return

    async def _finish(self) -> None:
        """After the stop: what was processed still goes out, if the servers let it."""
        try:
            # Whatever was processed before the stop still goes out.
            while self._smtp_wait is None and not self.smtp.down and await self.send_due():
                pass
            if self._unrecorded or self._doubtful:
                await self._in_db(self._settle)
        except Exception as exc:
            context = self.outage(exc) or repr(exc)
            log.error("stopping with mail not sent or not recorded: %s", context)
        if self._unrecorded:
            log.warning(
                "stopped with %d mail(s) handed over whose answer is not recorded: they are "
                "sent again at the next start (outbox=%s)",
                len(self._unrecorded),
                ",".join(str(i) for i in sorted(self._unrecorded)),
            )

    async def run(self, imap: ImapConfig | None = None, *, poll: bool = True) -> Counters:
        """Until stop(), or a task fails for a reason other than an outage (then
        ``failure`` says which and why). ``poll`` False: no mailbox reading at all (`run
        --no-poll`, a processor beside another daemon that polls)."""

        async def after_tick() -> None:
            await self._pause(self.stopping, self.config.deadlines.tick_seconds)

        async def after_process() -> None:
            # Woken by the poller; the timeout picks up mail recorded by `moderator ingest`.
            await self._pause(self.work, self.poll_seconds)

        async def after_read() -> None:
            await self._pause(self.stopping, self.poll_seconds / 5)

        async def after_beat() -> None:
            await self._pause(self.stopping, HEARTBEAT)

        async def after_plan() -> None:
            # Woken by a change (processed mail, the clock); the timeout is a safety net.
            await self._pause(self.plans, self.poll_seconds)

        def task(name: str, coro: Awaitable[None]) -> asyncio.Task[None]:
            return asyncio.create_task(coro, name=name)  # type: ignore[arg-type]

        await self.start()
        tasks = (
            []
            if self.failure is not None
            else [
                task("processor", self.supervise("processor", self.process, after_process)),
                task("sender", self.supervise("sender", self.send, self._after_send)),
                task("clock", self.supervise("clock", self.tick, after_tick)),
                task("heartbeat", self.supervise("heartbeat", self.beat, after_beat)),
                task("planner", self.supervise("planner", self.plan, after_plan)),
            ]
        )
        if self.publisher is not None and poll and tasks:
            # Pages from the daemon that reads the mail; `run --no-poll` helpers leave
            # them to it (two writers would only build the same pages twice).
            publisher = self.publisher
            tasks.append(task("archive", self.guard("archive", lambda: publisher.run(self))))
        if imap is not None and poll and tasks:
            tasks.append(task("imap", self.guard("imap", lambda: self.poll_mailbox(imap))))
        elif self.maildir is not None and poll and tasks:
            tasks.append(task("maildir", self.supervise("maildir", self.read_maildir, after_read)))
        try:
            await self.stopping.wait()
            await asyncio.gather(*tasks)
            if self.failure is None or tasks:
                await self._finish()
        finally:
            for running in tasks:
                running.cancel()
            for transport in self.transports:
                await transport.close()
            with contextlib.suppress(SQLAlchemyError):
                await self.db(self._seen, True)
            self._pool.shutdown(wait=True)
            if self.thinker is not None:
                self.thinker.shutdown(wait=False, cancel_futures=True)
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
    daemon: Daemon | None = None

    async def main() -> Counters:
        nonlocal daemon
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
        "daemon stopped stored=%d processed=%d sent=%d failed=%d resent=%d",
        counters.stored,
        counters.processed,
        counters.sent,
        counters.failed,
        counters.resent,
    )
    if daemon is not None and daemon.failure is not None:
        log.critical("daemon failed: %s", daemon.failure)
        return EXIT_TASK_FAILED
    return 0
