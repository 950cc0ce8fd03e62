"""SMTP sender: deliver outbox mail with aiosmtplib and say whether to retry, give up, or mark sent.

Outcomes (``SendStatus``):

- ``ACCEPTED``: the server took the message (for at least one recipient; any recipients it
  refused are listed in ``SendResult.refused``). Never send it again.
- ``TEMPORARY``: nothing was accepted, try again later (``next_try``): connection refused or
  dropped, timeouts, TLS or authentication trouble (our configuration, not the message), and
  every 4xx reply (RFC 5321 §4.2.1: transient negative completion).
- ``PERMANENT``: the server refused this message with a 5xx to MAIL FROM, RCPT TO or DATA, or an
  address is unusable; mark the outbox row failed with ``SendResult.reason``.

Safety: unless ``SmtpConfig.allow_remote`` is set, the sender refuses to talk to a host that
does not resolve only to loopback addresses, so tests and the demo can never mail the world.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import ssl
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from enum import Enum
from types import TracebackType
from typing import Literal

import aiosmtplib

log = logging.getLogger(__name__)

Security = Literal["starttls", "tls", "plain"]

# A connection idle for longer than this is checked with NOOP before reuse: servers drop idle
# clients (Postfix after smtpd_timeout), and a drop noticed at MAIL FROM is cheaper than a retry.
_REUSE_CHECK_AFTER = 2.0


@dataclass(frozen=True)
class SmtpConfig:
    """Where and how to hand outgoing mail over."""

    host: str
    port: int
    security: Security = "starttls"
    user: str | None = None
    password: str | None = None
    ca_file: str | None = None
    timeout: float = 30.0
    local_hostname: str | None = None
    allow_remote: bool = False

    def __post_init__(self) -> None:
        if self.security not in ("starttls", "tls", "plain"):
            raise ValueError(f"security must be starttls, tls or plain, not {self.security!r}")
        if (self.user is None) != (self.password is None):
            raise ValueError("set both user and password, or neither")


class SendStatus(Enum):
    ACCEPTED = "accepted"
    TEMPORARY = "temporary"
    PERMANENT = "permanent"


@dataclass(frozen=True)
class SendResult:
    """What became of one message."""

    status: SendStatus
    reason: str = ""
    code: int | None = None
    refused: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    """Recipients the server refused (code, text), when others were accepted or all failed."""

    @property
    def accepted(self) -> bool:
        return self.status is SendStatus.ACCEPTED

    @property
    def temporary(self) -> bool:
        return self.status is SendStatus.TEMPORARY

    @property
    def permanent(self) -> bool:
        return self.status is SendStatus.PERMANENT

    @property
    def unreachable(self) -> bool:
        """The server could not be reached, dropped us or is closing (421): no verdict on
        this message, which waits for the server rather than counting an attempt."""
        return self.temporary and self.code in (None, 421)


class RemoteHostRefused(ValueError):
    """The configured SMTP host is not loopback and allow_remote is off."""


def next_try(
    attempts: int,
    *,
    first: timedelta = timedelta(seconds=30),
    cap: timedelta = timedelta(hours=1),
) -> timedelta:
    """Delay before the next attempt after `attempts` failed ones: 30 s, 1 min, 2 min … 1 h."""
    if attempts <= 0:
        return timedelta(0)
    # Beyond 2**20 the cap has long been reached; keep the float small.
    return min(cap, first * (1 << min(attempts - 1, 20)))


async def check_loopback(host: str, port: int = 25) -> None:
    """Raise RemoteHostRefused unless every address `host` resolves to is a loopback address."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses = {str(info[4][0]) for info in infos}
    remote = sorted(a for a in addresses if not ipaddress.ip_address(a.split("%")[0]).is_loopback)
    if remote or not addresses:
        raise RemoteHostRefused(
            f"SMTP host {host!r} resolves to {', '.join(remote) or 'nothing'}: not loopback; "
            "set allow_remote = true to send mail off this machine"
        )


def _reply_text(exc: aiosmtplib.SMTPResponseException) -> str:
    return " ".join(exc.message.split())


class SmtpSender:
    """Sends messages over one reused connection; `close()` (or `async with`) when done."""

    def __init__(self, config: SmtpConfig) -> None:
        self.config = config
        self._smtp: aiosmtplib.SMTP | None = None
        self._last_used = 0.0
        self._lock = asyncio.Lock()
        self.connections = 0
        """Connections opened so far (to check reuse)."""

    async def __aenter__(self) -> SmtpSender:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """QUIT politely (bounded by a short timeout) and drop the connection."""
        smtp, self._smtp = self._smtp, None
        if smtp is None:
            return
        if smtp.is_connected:
            with contextlib.suppress(aiosmtplib.SMTPException, OSError, TimeoutError):
                await smtp.quit(timeout=2.0)
        smtp.close()

    def _tls_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.config.ca_file)

    async def _connect(self) -> aiosmtplib.SMTP:
        cfg = self.config
        if not cfg.allow_remote:
            await check_loopback(cfg.host, cfg.port)
        smtp = aiosmtplib.SMTP(
            hostname=cfg.host,
            port=cfg.port,
            username=cfg.user,
            password=cfg.password,
            # Explicit: getfqdn() can stall on a machine with slow DNS.
            local_hostname=cfg.local_hostname or "localhost",
            timeout=cfg.timeout,
            use_tls=cfg.security == "tls",
            # False on "plain": aiosmtplib would otherwise upgrade whenever STARTTLS is offered.
            start_tls=cfg.security == "starttls",
            tls_context=None if cfg.security == "plain" else self._tls_context(),
        )
        await smtp.connect()
        if smtp.is_ehlo_or_helo_needed:  # plain and unauthenticated: no EHLO yet
            try:
                await smtp.ehlo()  # the extensions (SIZE) are known before the first mail
            except aiosmtplib.SMTPHeloError:
                await smtp.helo()
        self.connections += 1
        log.debug(
            "smtp connected host=%s port=%d security=%s auth=%s",
            cfg.host,
            cfg.port,
            cfg.security,
            cfg.user is not None,
        )
        return smtp

    async def _connection(self) -> aiosmtplib.SMTP:
        smtp = self._smtp
        if smtp is not None and smtp.is_connected:
            if time.monotonic() - self._last_used < _REUSE_CHECK_AFTER:
                return smtp
            try:
                await smtp.noop(timeout=min(5.0, self.config.timeout))
                return smtp
            except (aiosmtplib.SMTPException, OSError, TimeoutError):
                log.info("smtp connection went stale; reconnecting host=%s", self.config.host)
        if smtp is not None:
            smtp.close()
        self._smtp = None
        self._smtp = await self._connect()
        return self._smtp

    async def send(self, raw: bytes, mail_from: str, rcpt_to: Sequence[str]) -> SendResult:
        """Send one message; never raises for delivery trouble (RemoteHostRefused aside)."""
        if not rcpt_to:
            return SendResult(SendStatus.PERMANENT, "no recipients")
        async with self._lock:
            result = await self._send(raw, mail_from, list(rcpt_to))
        log.debug(
            "smtp result status=%s code=%s from=%s rcpt=%s bytes=%d reason=%r",
            result.status.value,
            result.code,
            mail_from,
            ",".join(rcpt_to),
            len(raw),
            result.reason,
        )
        return result

    async def _send(self, raw: bytes, mail_from: str, rcpt_to: list[str]) -> SendResult:
        temporary = SendStatus.TEMPORARY
        try:
            smtp = await self._connection()
        except RemoteHostRefused:
            raise
        except aiosmtplib.SMTPAuthenticationError as exc:
            await self.close()
            return SendResult(temporary, f"authentication failed: {_reply_text(exc)}", exc.code)
        except aiosmtplib.SMTPResponseException as exc:  # greeting or EHLO refused
            await self.close()
            return SendResult(temporary, f"server refused session: {_reply_text(exc)}", exc.code)
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            await self.close()
            return SendResult(temporary, f"cannot connect: {exc}")
        try:
            errors, message = await _transaction(smtp, mail_from, rcpt_to, raw)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            refused = {r.recipient: (r.code, _reply_text(r)) for r in exc.recipients}
            first = exc.recipients[0]
            status = (
                SendStatus.PERMANENT
                if all(r.code >= 500 for r in exc.recipients)
                else SendStatus.TEMPORARY
            )
            reason = f"recipient refused: {first.recipient}: {first.code} {_reply_text(first)}"
            return SendResult(status, reason, first.code, refused)
        except aiosmtplib.SMTPResponseException as exc:  # MAIL FROM or DATA refused
            status = SendStatus.PERMANENT if exc.code >= 500 else SendStatus.TEMPORARY
            if exc.code == 421 or not smtp.is_connected:  # 421: the server is closing on us
                await self.close()
            return SendResult(status, f"{exc.code} {_reply_text(exc)}", exc.code)
        except ValueError as exc:  # an address aiosmtplib will not put on the wire
            return SendResult(SendStatus.PERMANENT, f"bad address: {exc}")
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            await self.close()
            return SendResult(temporary, f"connection failed: {exc!r}")
        self._last_used = time.monotonic()
        refused_some = {
            rcpt: (resp.code, " ".join(resp.message.split())) for rcpt, resp in errors.items()
        }
        return SendResult(SendStatus.ACCEPTED, message, 250, refused_some)


async def _transaction(
    smtp: aiosmtplib.SMTP, mail_from: str, rcpt_to: list[str], raw: bytes
) -> tuple[dict[str, aiosmtplib.SMTPResponse], str]:
    """One mail transaction: what SMTP.sendmail does (MAIL with SIZE, RCPT for each
    recipient, DATA; RSET after a refusal; all recipients refused raises
    SMTPRecipientsRefused), without the work sendmail repeats for every mail: it
    rewrites the whole message's line ends once more only to count its SIZE, and parses
    every address twice. Our mails have CRLF line ends already; SIZE counts a bare LF as
    the two octets it is sent as (RFC 1870)."""
    options = []
    if smtp.supports_extension("size"):
        size = len(raw) + raw.count(b"\n") - raw.count(b"\r\n")
        options.append(f"SIZE={size}")
    try:
        await smtp.mail(mail_from, options=options)
        refused: list[aiosmtplib.SMTPRecipientRefused] = []
        for rcpt in rcpt_to:
            try:
                await smtp.rcpt(rcpt)
            except aiosmtplib.SMTPRecipientRefused as exc:
                refused.append(exc)
        if len(refused) == len(rcpt_to):
            raise aiosmtplib.SMTPRecipientsRefused(refused)
        response = await smtp.data(raw)
    except (aiosmtplib.SMTPResponseException, aiosmtplib.SMTPRecipientsRefused):
        # Reset the envelope for the next mail on this connection.
        with contextlib.suppress(aiosmtplib.SMTPException, OSError, TimeoutError):
            await smtp.rset()
        raise
    errors = {r.recipient: aiosmtplib.SMTPResponse(r.code, r.message) for r in refused}
    return errors, response.message


async def probe(config: SmtpConfig) -> str:
    """Connect as the sender does (the loopback rule, TLS, AUTH), then QUIT: what
    `moderator check` says of the SMTP server. Raises RemoteHostRefused, OSError or an
    aiosmtplib error on the step that fails."""
    sender = SmtpSender(config)
    try:
        smtp = await sender._connection()
        size = smtp.esmtp_extensions.get("size")
    finally:
        await sender.close()
    auth = f", logged in as {config.user}" if config.user else ""
    limit = f", takes mails up to {int(size) // 1_000_000} MB" if size and size.isdigit() else ""
    return f"{config.host}:{config.port} ({config.security}) answers{auth}{limit}"
