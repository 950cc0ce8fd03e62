"""IMAP poller: fetch new mail by UID (IDLE or polling), store it durably, move it once committed.

The daemon's contract with this module is "store → process → commit → move":

1. each new message's raw bytes go to ``store(raw, mailbox, uidvalidity, uid)``, which must
   record them durably (and idempotently: the same message may come again after a crash or a
   UIDVALIDITY change, so dedupe on Message-ID / (uidvalidity, uid) downstream);
2. only then is the mailbox position (uidvalidity, last_uid) advanced in the ``MailboxState``;
3. ``process(mailbox, uidvalidity, uid)`` (optional) runs the message and returns True once its
   effects are committed; a processor living elsewhere calls ``mark_committed`` instead;
4. committed messages are moved to the processed folder (UID MOVE, else COPY + \\Deleted +
   EXPUNGE). Anything not committed stays in the mailbox; after a reconnect, such leftovers
   (UID <= last_uid still present) are offered to ``process`` again, which covers a crash
   between commit and move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import ssl
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import aioimaplib

log = logging.getLogger(__name__)

TlsMode = Literal["imaps", "plain"]
StoreCallback = Callable[[bytes, str, int, int], Awaitable[None]]
"""``store(raw, mailbox, uidvalidity, uid)``: record the raw message durably; raise if you can't."""
ProcessCallback = Callable[[str, int, int], Awaitable[bool]]
"""``process(mailbox, uidvalidity, uid) -> committed``: True once the message may be moved."""
StoreBatchCallback = Callable[[str, int, list[tuple[int, bytes]]], Awaitable[None]]
"""``store_batch(mailbox, uidvalidity, [(uid, raw), ...])`` in UID order: record every message
and the mailbox position after the last one durably, in one transaction (then the poller
does not call ``MailboxState.set`` for them)."""


@dataclass(frozen=True)
class ImapConfig:
    """Where and how to read incoming orders."""

    host: str
    port: int
    user: str
    password: str
    tls: TlsMode = "imaps"
    mailbox: str = "INBOX"
    processed_folder: str = "Processed"
    ca_file: str | None = None
    use_idle: bool = True
    # RFC 2177: servers may drop an IDLE after 30 minutes; re-issue it well before that.
    idle_timeout: float = 25 * 60.0
    poll_interval: float = 60.0
    # Dovecot (and others) announce new mail to an IDLE client only after a fixed delay
    # (0.5 s). While mail keeps coming, a quick look some milliseconds after the last
    # batch finds the next one sooner: for ``linger`` seconds after mail arrived, search
    # again every ``linger_interval`` seconds before going back to IDLE. 0 turns it off.
    linger: float = 0.5
    linger_interval: float = 0.05
    command_timeout: float = 30.0
    fetch_batch: int = 100
    reconnect_min: float = 1.0
    reconnect_max: float = 300.0
    retry_leftovers: bool = True

    def __post_init__(self) -> None:
        if self.tls not in ("imaps", "plain"):
            raise ValueError(f"tls must be 'imaps' or 'plain', not {self.tls!r}")
        for name in (self.mailbox, self.processed_folder):
            # Non-ASCII names would need modified UTF-7 (RFC 3501 §5.1.3); we don't do that.
            if not name or not name.isascii() or any(c in name for c in '\r\n"\\'):
                raise ValueError(f"unsupported mailbox name {name!r}")
        if self.mailbox == self.processed_folder:
            raise ValueError("mailbox and processed_folder must differ")
        if (
            self.fetch_batch < 1
            or self.reconnect_min <= 0
            or self.reconnect_max < self.reconnect_min
        ):
            raise ValueError("fetch_batch >= 1 and 0 < reconnect_min <= reconnect_max required")
        if self.linger < 0 or self.linger_interval <= 0:
            raise ValueError("linger >= 0 and linger_interval > 0 required")


@dataclass(frozen=True)
class MailboxPosition:
    """How far a mailbox has been read: messages with UID <= last_uid have been stored."""

    uidvalidity: int
    last_uid: int


class MailboxState(Protocol):
    """Durable record of the read position per mailbox (the store implements this)."""

    async def get(self, mailbox: str) -> MailboxPosition | None: ...

    async def set(self, mailbox: str, position: MailboxPosition) -> None: ...


class MemoryMailboxState:
    """A MailboxState in memory, for tests and one-shot runs."""

    def __init__(self, positions: dict[str, MailboxPosition] | None = None) -> None:
        self.positions: dict[str, MailboxPosition] = dict(positions or {})

    async def get(self, mailbox: str) -> MailboxPosition | None:
        return self.positions.get(mailbox)

    async def set(self, mailbox: str, position: MailboxPosition) -> None:
        self.positions[mailbox] = position


class ImapError(Exception):
    """The server refused a command we needed."""


class ConnectionLost(Exception):
    """The connection dropped, timed out, or the server said BYE."""


def backoff_delay(attempt: int, low: float, high: float, rng: random.Random | None = None) -> float:
    """Capped exponential backoff with jitter: attempt 1 waits about `low`, doubling up to `high`.

    The jitter (50–100 % of the step) keeps several clients from reconnecting in lockstep.
    """
    step = min(high, low * 2.0 ** max(0, attempt - 1))
    return step * (0.5 + 0.5 * (rng or random).random())


@dataclass(frozen=True)
class _Reply:
    result: str
    lines: list[bytes]


def _quote(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9._/-]+", name) else f'"{name}"'


def _uid_set(uids: Iterable[int]) -> str:
    """Compact UID set, e.g. 1:3,7 (RFC 3501 sequence-set)."""
    ordered = sorted(set(uids))
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}:{ordered[j]}")
        i = j + 1
    return ",".join(parts)


# Seconds at most between tries while the store (not the server) fails: the database's
# outage, waited out like the daemon's other tasks wait it (daemon.RETRY_CAP).
STORE_RETRY_CAP = 15.0
_UIDVALIDITY_RE = re.compile(rb"\[UIDVALIDITY (\d+)\]")
_FETCH_RE = re.compile(rb"^\d+ FETCH \(")
_UID_RE = re.compile(rb"\bUID (\d+)")
_EXISTS_RE = re.compile(rb"^\d+ EXISTS$")


def _parse_fetch(lines: Sequence[bytes]) -> list[tuple[int, bytes]]:
    """(uid, raw) pairs from an aioimaplib FETCH response (header line, literal, trailer)."""
    found: list[tuple[int, bytes]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if isinstance(line, bytes) and _FETCH_RE.match(line):
            literal = lines[i + 1] if i + 1 < len(lines) else None
            if isinstance(literal, bytearray):
                trailer = lines[i + 2] if i + 2 < len(lines) else b""
                match = _UID_RE.search(line) or _UID_RE.search(bytes(trailer))
                if match:
                    found.append((int(match.group(1)), bytes(literal)))
                i += 3
                continue
        i += 1
    return found


class _Connection:
    """Typed adapter over one aioimaplib connection; every call fails fast when the link drops."""

    def __init__(self, config: ImapConfig) -> None:
        self._config = config
        self._lost = asyncio.Event()
        self.selected = False
        # RFC 3501 §7.3.1: the server reports new mail once, in whatever response comes next
        # (a MOVE's, a SEARCH's); IDLE will not repeat it, so remember it and search again.
        self.news = False
        ssl_context: ssl.SSLContext | None = None
        if config.tls == "imaps":
            ssl_context = ssl.create_default_context(cafile=config.ca_file)
        # The plain IMAP4 class with an ssl_context does implicit TLS and, unlike IMAP4_SSL,
        # passes our connection-lost callback through.
        self._imap: Any = aioimaplib.IMAP4(
            host=config.host,
            port=config.port,
            timeout=config.command_timeout,
            conn_lost_cb=self._on_lost,
            ssl_context=ssl_context,
        )

    def _on_lost(self, exc: Exception | None) -> None:
        self._lost.set()

    @property
    def lost(self) -> bool:
        return self._lost.is_set()

    def has_capability(self, name: str) -> bool:
        return bool(self._imap.has_capability(name))

    async def _call(self, awaitable: Awaitable[Any], what: str) -> Any:
        task: asyncio.Future[Any] = asyncio.ensure_future(awaitable)
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            done, _ = await asyncio.wait(
                {task, lost},
                timeout=self._config.command_timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            lost.cancel()
        if task in done:
            try:
                return task.result()
            except (aioimaplib.AioImapException, TimeoutError) as exc:
                raise ConnectionLost(f"{what}: {exc!r}") from exc
        task.cancel()
        raise ConnectionLost(f"{what}: {'connection lost' if self.lost else 'timed out'}")

    async def _command(self, awaitable: Awaitable[Any], what: str, ok: bool = True) -> _Reply:
        response = await self._call(awaitable, what)
        reply = _Reply(str(response.result), list(response.lines))
        if any(isinstance(x, bytes) and _EXISTS_RE.match(x) for x in reply.lines):
            self.news = True
        if ok and reply.result != "OK":
            if any(b"BYE" in line for line in reply.lines if isinstance(line, bytes)):
                raise ConnectionLost(f"{what}: server said BYE")
            raise ImapError(f"{what} failed: {reply.result} {reply.lines[-1:]!r}")
        return reply

    async def connect(self) -> None:
        try:
            await self._call(self._imap.wait_hello_from_server(), "connect")
        except ConnectionLost as exc:
            cause = exc.__cause__
            if isinstance(cause, OSError):
                raise cause from None
            raise

    async def login(self) -> None:
        await self._command(self._imap.login(self._config.user, self._config.password), "LOGIN")
        # Post-login capabilities differ (Dovecot adds MOVE, IDLE ... only after login).
        await self._call(self._imap.protocol.capability(), "CAPABILITY")

    async def create(self, mailbox: str) -> None:
        await self._command(self._imap.create(_quote(mailbox)), "CREATE", ok=False)

    async def select(self, mailbox: str) -> int:
        reply = await self._command(self._imap.select(_quote(mailbox)), "SELECT")
        for line in reply.lines:
            match = _UIDVALIDITY_RE.search(bytes(line))
            if match:
                return int(match.group(1))
        raise ImapError(f"SELECT {mailbox}: no UIDVALIDITY in the response")

    async def uid_search(self, criteria: str) -> list[int]:
        reply = await self._command(
            self._imap.uid_search(*criteria.split(), charset=None), f"UID SEARCH {criteria}"
        )
        # aioimaplib strips the "* SEARCH" prefix: untagged lines hold bare numbers, and the
        # last line is the tagged completion text.
        uids: list[int] = []
        for line in reply.lines[:-1]:
            if isinstance(line, bytes) and not _EXISTS_RE.match(line):
                uids.extend(int(n) for n in line.split() if n.isdigit())
        return sorted(set(uids))

    async def uid_fetch(self, uids: Sequence[int]) -> list[tuple[int, bytes]]:
        # BODY.PEEK[] leaves \Seen alone, so a human looking at the mailbox sees what is new.
        reply = await self._command(
            self._imap.uid("fetch", _uid_set(uids), "(UID BODY.PEEK[])"), "UID FETCH"
        )
        return _parse_fetch(reply.lines)

    async def move(self, uids: Sequence[int], folder: str) -> None:
        uid_set = _uid_set(uids)
        if self.has_capability("MOVE"):  # RFC 6851
            await self._command(self._imap.uid("move", uid_set, _quote(folder)), "UID MOVE")
            return
        await self._command(self._imap.uid("copy", uid_set, _quote(folder)), "UID COPY")
        await self._command(
            self._imap.uid("store", uid_set, "+FLAGS.SILENT", r"(\Deleted)"), "UID STORE"
        )
        if self.has_capability("UIDPLUS"):  # RFC 4315: expunge only these UIDs
            await self._command(self._imap.uid("expunge", uid_set), "UID EXPUNGE")
        else:  # plain EXPUNGE also removes anything else marked \Deleted in this mailbox
            await self._command(self._imap.expunge(), "EXPUNGE")

    async def noop(self) -> None:
        await self._command(self._imap.noop(), "NOOP")

    async def idle_start(self) -> asyncio.Future[Any]:
        idle: asyncio.Future[Any] = await self._call(
            self._imap.idle_start(timeout=self._config.idle_timeout + 60.0), "IDLE"
        )
        return idle

    async def wait_push(self) -> list[bytes]:
        lines = await self._imap.wait_server_push(timeout=None)
        return [bytes(x) for x in lines if isinstance(x, (bytes, bytearray))]

    async def idle_done(self, idle: asyncio.Future[Any]) -> None:
        self._imap.idle_done()
        await self._call(idle, "IDLE DONE")
        queue: asyncio.Queue[Any] = self._imap.protocol.idle_queue
        while not queue.empty():  # pushes that arrived while leaving IDLE: we fetch anyway
            queue.get_nowait()

    async def wait_lost(self) -> None:
        await self._lost.wait()

    async def logout(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._imap.logout(), 2.0)

    def close(self) -> None:
        waiter = getattr(self._imap, "_idle_waiter", None)
        if waiter is not None:
            waiter.cancel()
        for task in list(getattr(self._imap, "tasks", ())):
            task.cancel()
        transport = getattr(self._imap.protocol, "transport", None)
        if transport is not None:
            transport.close()
        client_task = getattr(self._imap, "_client_task", None)
        if client_task is not None and not client_task.done():
            client_task.cancel()


class ImapPoller:
    """Reads one mailbox for ever: IDLE where offered, else polling; reconnects on failure."""

    def __init__(
        self,
        config: ImapConfig,
        state: MailboxState,
        store: StoreCallback,
        process: ProcessCallback | None = None,
        *,
        rng: random.Random | None = None,
        store_batch: StoreBatchCallback | None = None,
        tolerate: Callable[[BaseException], bool] | None = None,
    ) -> None:
        """``tolerate(exc)``: whether a failure other than the server's (the store
        callbacks' database, say) is waited out like a lost connection; when it says no,
        `run` raises it. None: every failure is waited out."""
        self.config = config
        self._tolerate = tolerate
        self._state = state
        self._store = store
        self._store_batch = store_batch
        self._process = process
        self._rng = rng or random.Random()
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self._waiting = asyncio.Event()  # set while idling / sleeping between polls
        self._pending_moves: set[tuple[int, int]] = set()
        self._last_uid = 0
        self.connects = 0
        """Successful logins so far (a reconnect shows up as 2, 3, ...)."""
        self.using_idle = False
        # When the sessions started failing (None: the last one worked).
        self._failing_since: float | None = None

    # -- public API ------------------------------------------------------------------------------

    def stop(self) -> None:
        """Ask `run` to finish the message in hand, apply pending moves, log out and return."""
        self._stop.set()
        self._wake.set()

    def mark_committed(self, uidvalidity: int, uid: int) -> None:
        """Tell the poller a stored message is committed; it gets moved to the processed folder."""
        self._pending_moves.add((uidvalidity, uid))
        self._wake.set()

    async def wait_until_waiting(self, timeout: float | None = None) -> None:
        """Wait until the poller sits in IDLE (or between polls) with nothing left to do."""
        await asyncio.wait_for(self._waiting.wait(), timeout)

    async def run(self) -> None:
        """Connect, read, wait for mail; reconnect with capped jittered backoff until `stop()`."""
        attempt = 0
        while not self._stop.is_set():
            conn = _Connection(self.config)
            try:
                await self._session(conn)
                break
            except Exception as exc:
                expected = isinstance(exc, ConnectionLost | OSError | ImapError | TimeoutError)
                # A session that got as far as SELECT was healthy: start the backoff afresh;
                # but not when the store failed (a database outage): the server was fine and
                # reconnecting every second would not help (found by bench/soak.py, disk full).
                attempt = 1 if conn.selected and expected else attempt + 1
                if self._stop.is_set():
                    break
                # The store's outage is waited out as the daemon's tasks wait theirs (at most
                # STORE_RETRY_CAP between tries): the mail is read soon after it ends.
                cap = self.config.reconnect_max if expected else STORE_RETRY_CAP
                delay = backoff_delay(attempt, self.config.reconnect_min, cap, self._rng)
                tolerated = self._tolerate is not None and self._tolerate(exc)
                if not expected and self._tolerate is not None and not tolerated:
                    raise
                # Anything else is most likely the store callback failing: the message stays
                # on the server and is fetched again after the delay. Logged once an outage
                # (then at debug level until a session works again).
                first = self._failing_since is None
                if first:
                    self._failing_since = asyncio.get_running_loop().time()
                log.log(
                    logging.WARNING if first else logging.DEBUG,
                    "imap session failed host=%s port=%d user=%s attempt=%d retry_in=%.2fs "
                    "error=%r",
                    self.config.host,
                    self.config.port,
                    self.config.user,
                    attempt,
                    delay,
                    exc,
                    exc_info=not expected and not tolerated,  # an outage: its words suffice
                )
            finally:
                self._waiting.clear()
                self.using_idle = False
                conn.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), delay)
        log.info("imap poller stopped user=%s mailbox=%s", self.config.user, self.config.mailbox)

    # -- internals -------------------------------------------------------------------------------

    async def _session(self, conn: _Connection) -> None:
        cfg = self.config
        await conn.connect()
        await conn.login()
        await conn.create(cfg.processed_folder)  # NO [ALREADYEXISTS] is fine
        uidvalidity = await conn.select(cfg.mailbox)
        conn.selected = True
        self.connects += 1
        self.using_idle = cfg.use_idle and conn.has_capability("IDLE")
        position = await self._state.get(cfg.mailbox)
        if position is not None and position.uidvalidity != uidvalidity:
            # RFC 3501 §2.3.1.1: old UIDs mean nothing now. Read everything again; the store
            # dedupes on Message-ID, so mail already handled is not handled twice.
            log.warning(
                "imap uidvalidity changed mailbox=%s old=%d new=%d action=rescan",
                cfg.mailbox,
                position.uidvalidity,
                uidvalidity,
            )
            position = None
        if position is None:
            position = MailboxPosition(uidvalidity, 0)
            await self._state.set(cfg.mailbox, position)
        self._last_uid = position.last_uid
        self._pending_moves = {m for m in self._pending_moves if m[0] == uidvalidity}
        log.info(
            "imap connected host=%s port=%d tls=%s user=%s mailbox=%s uidvalidity=%d "
            "last_uid=%d idle=%s move=%s",
            cfg.host,
            cfg.port,
            cfg.tls,
            cfg.user,
            cfg.mailbox,
            uidvalidity,
            position.last_uid,
            self.using_idle,
            conn.has_capability("MOVE"),
        )
        if cfg.retry_leftovers and self._process is not None and position.last_uid > 0:
            leftovers = await conn.uid_search(f"UID 1:{position.last_uid}")
            for uid in leftovers:
                if self._stop.is_set():
                    break
                if uid <= position.last_uid and (uidvalidity, uid) not in self._pending_moves:
                    log.info("imap retry leftover mailbox=%s uid=%d", cfg.mailbox, uid)
                    await self._run_process(uidvalidity, uid)
        loop = asyncio.get_running_loop()
        linger_until = 0.0
        while True:
            # Cleared before the work, not after: a mark_committed() arriving meanwhile must
            # cut the next wait short.
            self._wake.clear()
            if await self._sync(conn, uidvalidity):
                linger_until = loop.time() + cfg.linger
            moved = await self._apply_moves(conn, uidvalidity)
            if self._stop.is_set():
                await conn.logout()
                return
            # Mail may have arrived while we were busy. Dovecot announces it once, in
            # whatever comes next; an EXISTS just after a command's completion is dropped
            # by aioimaplib ("ignored untagged response") and IDLE will not repeat it.
            # So after a MOVE, search once more before waiting.
            if conn.news or moved:
                continue
            if self.using_idle and loop.time() < linger_until:
                await self._pause(cfg.linger_interval)
            elif self.using_idle:
                await self._idle(conn)
            else:
                await self._sleep(conn)

    async def _pause(self, seconds: float) -> None:
        """A short wait between two searches while mail is coming in."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)

    async def _sync(self, conn: _Connection, uidvalidity: int) -> int:
        """Fetch and hand over every message above last_uid, in UID order; how many."""
        mailbox = self.config.mailbox
        count = 0
        while not self._stop.is_set():
            conn.news = False
            last_uid = self._last_uid  # this session read it; only we advance it
            # "n:*" always matches the highest UID even when it is below n (RFC 3501 §6.4.8).
            uids = [u for u in await conn.uid_search(f"UID {last_uid + 1}:*") if u > last_uid]
            if not uids:
                return count
            # The whole batch is stored first (durably, with the position after it: in one
            # commit with store_batch, else one message at a time), then processed.
            fetched = sorted(
                (
                    (uid, raw)
                    for uid, raw in await conn.uid_fetch(uids[: self.config.fetch_batch])
                    if uid > last_uid
                ),
                key=lambda item: item[0],
            )
            if fetched and self._store_batch is not None:
                await self._store_batch(mailbox, uidvalidity, fetched)
                self._last_uid = last_uid = fetched[-1][0]
            else:
                for uid, raw in fetched:
                    await self._store(raw, mailbox, uidvalidity, uid)
                    await self._state.set(mailbox, MailboxPosition(uidvalidity, uid))
                    self._last_uid = last_uid = uid
            for uid, raw in fetched:
                log.debug(
                    "imap stored mailbox=%s uidvalidity=%d uid=%d bytes=%d",
                    mailbox,
                    uidvalidity,
                    uid,
                    len(raw),
                )
            stored = [uid for uid, _ in fetched]
            count += len(stored)
            for uid in stored:
                await self._run_process(uidvalidity, uid)
                if self._stop.is_set():
                    return count
            if len(uids) <= self.config.fetch_batch:
                return count
        return count

    async def _run_process(self, uidvalidity: int, uid: int) -> None:
        if self._process is None:
            return
        try:
            committed = await self._process(self.config.mailbox, uidvalidity, uid)
        except Exception:
            log.exception("imap process failed mailbox=%s uid=%d", self.config.mailbox, uid)
            return
        if committed:
            self._pending_moves.add((uidvalidity, uid))
        else:  # moved when the owner calls mark_committed(), or by a later session
            log.debug(
                "imap not committed yet, left in place mailbox=%s uid=%d", self.config.mailbox, uid
            )

    async def _apply_moves(self, conn: _Connection, uidvalidity: int) -> bool:
        """Move the committed messages; True if any were moved."""
        uids = sorted(uid for v, uid in self._pending_moves if v == uidvalidity)
        self._pending_moves = {m for m in self._pending_moves if m[0] == uidvalidity}
        if not uids:
            return False
        await conn.move(uids, self.config.processed_folder)
        self._pending_moves.difference_update((uidvalidity, uid) for uid in uids)
        log.debug(
            "imap moved mailbox=%s folder=%s uids=%s",
            self.config.mailbox,
            self.config.processed_folder,
            _uid_set(uids),
        )
        return True

    async def _idle(self, conn: _Connection) -> None:
        """One IDLE round (RFC 2177): return on news, a wake-up, or the re-IDLE timeout."""
        idle = await conn.idle_start()
        wake = asyncio.ensure_future(self._wake.wait())
        lost = asyncio.ensure_future(conn.wait_lost())
        deadline = asyncio.get_running_loop().time() + self.config.idle_timeout
        self._caught_up()
        try:
            while True:
                push = asyncio.ensure_future(conn.wait_push())
                try:
                    done, _ = await asyncio.wait(
                        {push, wake, lost, idle},
                        timeout=max(0.0, deadline - asyncio.get_running_loop().time()),
                        return_when=asyncio.FIRST_COMPLETED,
                    )
                finally:
                    push.cancel()
                if lost in done or conn.lost:
                    raise ConnectionLost("connection lost while idling")
                if idle in done:
                    raise ConnectionLost("server ended IDLE")
                if push in done and push.exception() is None:
                    lines = push.result()
                    if any(line.startswith(b"BYE") for line in lines):
                        raise ConnectionLost(f"server said {lines[0]!r}")
                    # Keep-alives ("* OK Still here") are no news: stay in IDLE.
                    if all(line.startswith(b"OK") for line in lines):
                        continue
                break  # news, a wake-up, or time to re-IDLE
        finally:
            self._waiting.clear()
            wake.cancel()
            lost.cancel()
        await conn.idle_done(idle)

    def _caught_up(self) -> None:
        """Everything read is stored: the poller waits for mail (and an outage is over)."""
        self._waiting.set()
        if self._failing_since is not None:
            log.warning(
                "imap session resumed host=%s after=%.1fs",
                self.config.host,
                asyncio.get_running_loop().time() - self._failing_since,
            )
            self._failing_since = None

    async def _sleep(self, conn: _Connection) -> None:
        """Polling fallback for servers without IDLE."""
        self._caught_up()
        try:
            wake = asyncio.ensure_future(self._wake.wait())
            lost = asyncio.ensure_future(conn.wait_lost())
            try:
                done, _ = await asyncio.wait(
                    {wake, lost},
                    timeout=self.config.poll_interval,
                    return_when=asyncio.FIRST_COMPLETED,
                )
            finally:
                wake.cancel()
                lost.cancel()
        finally:
            self._waiting.clear()
        if lost in done:
            raise ConnectionLost("connection lost while waiting to poll")
        await conn.noop()


async def probe(config: ImapConfig) -> str:
    """Log in, open the mailbox and make sure the processed folder exists, then log out:
    what `moderator check` says of the mailbox. Raises ConnectionLost, ImapError or
    OSError on the first step that fails."""
    conn = _Connection(config)
    try:
        await conn.connect()
        await conn.login()
        await conn.create(config.processed_folder)  # NO [ALREADYEXISTS] is fine
        await conn.select(config.processed_folder)
        await conn.select(config.mailbox)
        waiting = len(await conn.uid_search("ALL"))
        await conn.logout()
    finally:
        conn.close()
    return (
        f"{config.user} at {config.host}:{config.port} ({config.tls}): {config.mailbox} holds "
        f"{waiting} message(s), {config.processed_folder} is there, "
        f"IDLE {'offered' if conn.has_capability('IDLE') else 'not offered (polling)'}"
    )
