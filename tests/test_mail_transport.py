"""The IMAP and SMTP edges without servers: parsing, UID sets, backoff, loopback safety, config."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from moderator.mail.imap import ImapConfig, _parse_fetch, _uid_set, backoff_delay
from moderator.mail.smtp import RemoteHostRefused, SmtpConfig, check_loopback, next_try


def test_fetch_response_yields_uid_and_raw_bytes() -> None:
    # The shape aioimaplib hands back for UID FETCH (UID BODY.PEEK[]): header, literal, trailer;
    # an unsolicited flag update from another session may be mixed in.
    lines = [
        b"1 FETCH (UID 7 BODY[] {5}",
        bytearray(b"hello"),
        b")",
        b"2 FETCH (FLAGS (\\Seen))",
        b"3 FETCH (BODY[] {3}",
        bytearray(b"abc"),
        b" UID 9)",
        b"Fetch completed (0.001 + 0.000 secs).",
    ]
    assert _parse_fetch(lines) == [(7, b"hello"), (9, b"abc")]


def test_uid_sets_are_compact_ranges() -> None:
    assert _uid_set([5, 1, 2, 3, 9, 10]) == "1:3,5,9:10"
    assert _uid_set([4]) == "4"


def test_reconnect_backoff_doubles_up_to_the_cap_with_jitter() -> None:
    rng = random.Random(1)
    delays = [backoff_delay(n, 1.0, 60.0, rng) for n in range(1, 12)]
    assert 0.5 <= delays[0] <= 1.0
    assert 4.0 <= delays[3] <= 8.0
    assert all(30.0 <= d <= 60.0 for d in delays[6:])


def test_outbox_retry_schedule_is_exponential_and_capped() -> None:
    assert next_try(0) == timedelta(0)
    assert [next_try(n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert next_try(8) == timedelta(hours=1)
    assert next_try(10_000) == timedelta(hours=1)


async def test_loopback_hosts_pass_the_safety_check() -> None:
    await check_loopback("127.0.0.1")
    await check_loopback("localhost")
    await check_loopback("::1")


async def test_other_hosts_are_refused() -> None:
    with pytest.raises(RemoteHostRefused, match="allow_remote"):
        await check_loopback("192.0.2.1")


def test_config_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        SmtpConfig(host="127.0.0.1", port=25, security="ssl")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SmtpConfig(host="127.0.0.1", port=25, user="only-a-user")
    with pytest.raises(ValueError):
        ImapConfig(host="h", port=1, user="u", password="p", processed_folder="INBOX")
    with pytest.raises(ValueError):
        ImapConfig(host="h", port=1, user="u", password="p", tls="starttls")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ImapConfig(host="h", port=1, user="u", password="p", linger=-1)
    with pytest.raises(ValueError):
        ImapConfig(host="h", port=1, user="u", password="p", linger_interval=0)


def test_the_mail_stack_is_skipped_not_failed_without_root(monkeypatch: pytest.MonkeyPatch) -> None:
    import mailstack

    monkeypatch.setattr(mailstack.os, "geteuid", lambda: 1000)
    with pytest.raises(mailstack.MailStackUnavailable, match="root"):
        mailstack.start()
