"""The IMAP poller against a real Dovecot: IDLE, resume, UIDVALIDITY, moves, reconnects."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from email.utils import make_msgid

import aiosmtplib
import pytest
from mailstack import MailStack

from moderator.mail.imap import ImapConfig, ImapPoller, MailboxPosition, MemoryMailboxState

pytestmark = pytest.mark.integration

USER = "alice"


class Sink:
    """Stands in for the store and the processor; records what the poller handed over."""

    def __init__(self, commit: Callable[[bytes], bool] | None = None) -> None:
        self.stored: list[tuple[int, int, bytes]] = []
        self.processed: list[int] = []
        self.arrivals: list[float] = []
        self.fail_stores = 0
        self._commit = commit
        self._changed = asyncio.Condition()

    async def store(self, raw: bytes, mailbox: str, uidvalidity: int, uid: int) -> None:
        assert mailbox == "INBOX"
        if self.fail_stores:
            self.fail_stores -= 1
            raise RuntimeError("database is down")
        self.stored.append((uidvalidity, uid, raw))
        self.arrivals.append(time.monotonic())
        async with self._changed:
            self._changed.notify_all()

    async def process(self, mailbox: str, uidvalidity: int, uid: int) -> bool:
        self.processed.append(uid)
        raw = next(r for v, u, r in self.stored if (v, u) == (uidvalidity, uid))
        return self._commit(raw) if self._commit else True

    @property
    def uids(self) -> list[int]:
        return [uid for _, uid, _ in self.stored]

    async def wait_for(self, count: int, timeout: float = 5.0) -> None:
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: len(self.stored) >= count), timeout
            )


def config(stack: MailStack, **overrides: object) -> ImapConfig:
    settings: dict[str, object] = {
        "host": stack.host,
        "port": stack.ports.imaps,
        "tls": "imaps",
        "ca_file": str(stack.ca_cert),
        "user": stack.address(USER),
        "password": stack.password,
        "reconnect_min": 0.05,
        "reconnect_max": 0.3,
        "command_timeout": 5.0,
    }
    settings.update(overrides)
    return ImapConfig(**settings)  # type: ignore[arg-type]


@asynccontextmanager
async def polling(poller: ImapPoller) -> AsyncIterator[ImapPoller]:
    task = asyncio.create_task(poller.run())
    try:
        await poller.wait_until_waiting(5.0)
        yield poller
    finally:
        poller.stop()
        await asyncio.wait_for(task, 5.0)


async def send(stack: MailStack, subject: str, to: str = USER) -> float:
    """Mail `to` through Postfix; returns the moment Postfix accepted it."""
    raw = (
        f"From: bob@{stack.domain}\r\nTo: {to}@{stack.domain}\r\nSubject: {subject}\r\n"
        f"Message-ID: {make_msgid(domain=stack.domain)}\r\n\r\norder: {subject}\r\n"
    ).encode()
    await aiosmtplib.send(
        raw,
        sender=f"bob@{stack.domain}",
        recipients=[f"{to}@{stack.domain}"],
        hostname=stack.host,
        port=stack.ports.smtp,
        start_tls=False,
        local_hostname="localhost",
    )
    return time.monotonic()


async def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.02)


@pytest.fixture
def box(mailstack: MailStack) -> Iterator[MailStack]:
    """Alice's INBOX and Processed, empty at the start of each test."""
    mailstack.purge(USER, ["INBOX", "Processed"])
    yield mailstack


async def test_idle_reports_new_mail_within_two_seconds(box: MailStack) -> None:
    sink = Sink()
    poller = ImapPoller(config(box), MemoryMailboxState(), sink.store, sink.process)
    latencies = []
    async with polling(poller):
        assert poller.using_idle
        for n in range(3):
            accepted = await send(box, f"idle {n}")
            await sink.wait_for(n + 1, timeout=2.0)
            latencies.append(sink.arrivals[-1] - accepted)
            await poller.wait_until_waiting(2.0)
    print(f"IDLE wake-up latency (SMTP accepted -> stored): {[round(x, 3) for x in latencies]}")
    assert max(latencies) < 2.0
    assert [b"Subject: idle 0" in raw for _, _, raw in sink.stored] == [True, False, False]
    assert box.folder_uids(USER) == []
    assert len(box.folder_uids(USER, "Processed")) == 3


async def test_resumes_from_the_recorded_uid_without_duplicates(box: MailStack) -> None:
    state = MemoryMailboxState()
    first = Sink()
    cfg = config(box, tls="plain", port=box.ports.imap, ca_file=None)
    async with polling(ImapPoller(cfg, state, first.store)):  # no processor: nothing moves
        await send(box, "one")
        await send(box, "two")
        await first.wait_for(2)
    await send(box, "three, while the poller was down")
    await box.wait_for_mail(USER, 3)

    second = Sink()
    async with polling(ImapPoller(cfg, state, second.store)):
        await second.wait_for(1)
        await asyncio.sleep(0.1)  # room for a wrong duplicate to show up
    assert len(first.stored) == 2
    assert len(second.stored) == 1
    assert b"three" in second.stored[0][2]
    assert second.uids[0] > max(first.uids)
    assert state.positions["INBOX"].last_uid == second.uids[0]


async def test_changed_uidvalidity_rescans_the_whole_mailbox(box: MailStack) -> None:
    await send(box, "a")
    await send(box, "b")
    await box.wait_for_mail(USER, 2)
    # A position recorded under another UIDVALIDITY: its UIDs mean nothing any more.
    state = MemoryMailboxState({"INBOX": MailboxPosition(uidvalidity=7, last_uid=10**6)})
    sink = Sink()
    async with polling(ImapPoller(config(box), state, sink.store)):
        await sink.wait_for(2)
    assert len(sink.stored) == 2
    position = state.positions["INBOX"]
    assert position.uidvalidity != 7 and position.last_uid == max(sink.uids)

    # And a real change on the server (doveadm sets a new UIDVALIDITY): everything comes again.
    box.doveadm("mailbox", "update", "--uid-validity", "424242", "-u", box.address(USER), "INBOX")
    again = Sink()
    async with polling(ImapPoller(config(box), state, again.store)):
        await again.wait_for(2)
    assert {v for v, _, _ in again.stored} == {424242}
    assert sorted(raw for *_, raw in again.stored) == sorted(raw for *_, raw in sink.stored)


async def test_only_committed_messages_move_to_the_processed_folder(box: MailStack) -> None:
    sink = Sink(commit=lambda raw: b"Subject: good" in raw)
    async with polling(ImapPoller(config(box), MemoryMailboxState(), sink.store, sink.process)):
        await send(box, "good order")
        await send(box, "order whose processing fails")
        await sink.wait_for(2)
        await poller_settled(box, inbox=1, processed=1)
    inbox = box.read_mailbox(USER)
    assert len(inbox) == 1 and b"processing fails" in inbox[0]
    assert b"good order" in box.read_mailbox(USER, "Processed")[0]


async def test_mark_committed_moves_a_message_processed_elsewhere(box: MailStack) -> None:
    sink = Sink()
    poller = ImapPoller(config(box), MemoryMailboxState(), sink.store)  # no process callback
    async with polling(poller):
        await send(box, "processed by another task")
        await sink.wait_for(1)
        await poller.wait_until_waiting(2.0)
        assert len(box.folder_uids(USER)) == 1  # stored, not committed: stays
        uidvalidity, uid, _ = sink.stored[0]
        poller.mark_committed(uidvalidity, uid)
        await poller_settled(box, inbox=0, processed=1)


async def test_mail_reported_in_a_move_response_is_not_missed(box: MailStack) -> None:
    """RFC 3501 §7.3.1: new mail is announced once, in the next response (here the MOVE's);
    IDLE does not announce it again, so the poller must search before it idles."""
    sink = Sink()
    delivered_during_processing = False

    async def process(mailbox: str, uidvalidity: int, uid: int) -> bool:
        nonlocal delivered_during_processing
        if not delivered_during_processing:  # the next order lands while we work on this one
            delivered_during_processing = True
            await send(box, "second, while the first is processed")
            await box.wait_for_mail(USER, 2)
        return True

    async with polling(ImapPoller(config(box), MemoryMailboxState(), sink.store, process)):
        await send(box, "first")
        await sink.wait_for(2, timeout=5.0)
        await poller_settled(box, inbox=0, processed=2)


async def test_leftovers_are_offered_again_after_a_restart(box: MailStack) -> None:
    """A crash between commit and move, or a failed run, leaves mail in INBOX: retry it."""
    state = MemoryMailboxState()
    failing = Sink(commit=lambda raw: False)
    async with polling(ImapPoller(config(box), state, failing.store, failing.process)):
        await send(box, "fails the first time")
        await failing.wait_for(1)
    assert len(box.folder_uids(USER)) == 1

    recovered = Sink()
    seen: list[int] = []

    async def process(mailbox: str, uidvalidity: int, uid: int) -> bool:
        seen.append(uid)
        return True

    async with polling(ImapPoller(config(box), state, recovered.store, process)):
        await poller_settled(box, inbox=0, processed=1)
    assert recovered.stored == []  # not stored twice, only processed again
    assert seen == failing.uids


async def test_a_failing_store_keeps_the_message_and_retries(box: MailStack) -> None:
    sink = Sink()
    sink.fail_stores = 1
    state = MemoryMailboxState()
    async with polling(ImapPoller(config(box), state, sink.store, sink.process)):
        await send(box, "stored on the second try")
        await sink.wait_for(1)
        await poller_settled(box, inbox=0, processed=1)
    assert len(sink.stored) == 1


def retry_delays(caplog: pytest.LogCaptureFixture) -> list[float]:
    return [
        float(re.search(r"retry_in=([\d.]+)s", r.getMessage())[1])  # type: ignore[index]
        for r in caplog.records
        if "imap session failed" in r.getMessage()
    ]


async def test_a_database_outage_in_the_store_is_waited_out_with_backoff(
    box: MailStack, caplog: pytest.LogCaptureFixture
) -> None:
    # bench/soak.py (disk full): each session reached SELECT before the store failed, so
    # the backoff started afresh and the poller logged in again every second, with a
    # traceback. An outage of the store now backs off like the daemon's other tasks.
    caplog.set_level(logging.DEBUG, logger="moderator.mail.imap")
    sink = Sink()
    sink.fail_stores = 10**6
    poller = ImapPoller(
        config(box), MemoryMailboxState(), sink.store, sink.process, tolerate=lambda _: True
    )
    await send(box, "stored once the database is back")
    task = asyncio.create_task(poller.run())
    try:
        await wait_until(lambda: len(retry_delays(caplog)) >= 5, timeout=60.0)
        sink.fail_stores = 0
        await sink.wait_for(1, timeout=60.0)
    finally:
        poller.stop()
        await asyncio.wait_for(task, 10.0)
    delays = retry_delays(caplog)
    assert delays[4] > 4 * delays[0], delays  # doubling, not back to the first step
    failures = [r for r in caplog.records if "imap session failed" in r.getMessage()]
    assert not any(r.exc_info for r in failures)  # an outage is said in words, once


async def test_reconnects_after_dovecot_restarts_mid_idle(
    box: MailStack, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="moderator.mail.imap")
    sink = Sink()
    poller = ImapPoller(config(box), MemoryMailboxState(), sink.store, sink.process)
    async with polling(poller):
        await send(box, "before the restart")
        await sink.wait_for(1)
        await poller.wait_until_waiting(2.0)
        await asyncio.to_thread(box.stop_dovecot)
        try:
            await wait_until(lambda: not poller.using_idle, timeout=2.0)
        finally:
            await asyncio.to_thread(box.start_dovecot)
        await poller.wait_until_waiting(5.0)
        accepted = await send(box, "after the restart")
        await sink.wait_for(2, timeout=5.0)
        print(f"after reconnect: stored {sink.arrivals[-1] - accepted:.3f} s after SMTP")
    assert poller.connects >= 2
    assert [b"after the restart" in raw for *_, raw in sink.stored] == [False, True]
    assert "imap session failed" in caplog.text


async def test_polls_when_idle_is_not_used(box: MailStack) -> None:
    sink = Sink()
    cfg = config(box, use_idle=False, poll_interval=0.2)
    poller = ImapPoller(cfg, MemoryMailboxState(), sink.store, sink.process)
    async with polling(poller):
        assert not poller.using_idle
        await send(box, "found by polling")
        await sink.wait_for(1, timeout=3.0)
        await poller_settled(box, inbox=0, processed=1)


async def test_wrong_password_is_retried_with_backoff(box: MailStack) -> None:
    sink = Sink()
    poller = ImapPoller(config(box, password="wrong"), MemoryMailboxState(), sink.store)
    task = asyncio.create_task(poller.run())
    await asyncio.sleep(0.5)
    poller.stop()
    await asyncio.wait_for(task, 2.0)
    assert poller.connects == 0


async def poller_settled(stack: MailStack, *, inbox: int, processed: int) -> None:
    def settled() -> bool:
        return (
            len(stack.folder_uids(USER)) == inbox
            and len(stack.folder_uids(USER, "Processed")) == processed
        )

    await wait_until(settled, timeout=5.0)
