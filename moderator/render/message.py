"""A rendered mail as RFC 5322 bytes: multipart/alternative, every header checked."""

from __future__ import annotations

import binascii
import re
import secrets
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from email.header import Header
from email.utils import format_datetime
from functools import lru_cache

from ..mail.address import ADDR_SPEC as _ADDR_SPEC
from ..mail.address import ATEXT as _ATEXT
from ..mail.address import DOMAIN as _DOMAIN
from ..mail.address import MAX_ADDRESS, AddressError
from ..mail.envelope import OWN_MAIL_HEADER, safe_header_value
from .env import Rendered

AUTO_SUBMITTED = frozenset({"auto-replied", "auto-generated"})

_DOMAIN_RE = re.compile(_DOMAIN)
# RFC 5322 §3.6.4 msg-id: "<" id-left "@" id-right ">" (dot-atom-text forms).
# A display name that needs neither quotes nor encoding (RFC 5322 §3.2.5 phrase of atoms).
_PLAIN_PHRASE = re.compile(rf"{_ATEXT}(?: {_ATEXT})*")
_MSG_ID = re.compile(rf"<{_ATEXT}(?:\.{_ATEXT})*@(?:{_ATEXT}(?:\.{_ATEXT})*|\[[!-Z^-~]*\])>")


def check_address(addr: str) -> str:
    """``addr`` if it is one bare addr-spec (RFC 5322 §3.4.1, dot-atom forms only, at
    most 254 characters, RFC 5321 §4.5.3.1), else AddressError. CR, LF, commas, angle
    brackets, display names and second addresses are all refused."""
    if not isinstance(addr, str) or len(addr) > MAX_ADDRESS or not _ADDR_SPEC.fullmatch(addr):
        raise AddressError(f"not a single address: {addr!r}")
    return addr


def check_message_id(value: str) -> str:
    """``value`` as ``<id@host>`` (brackets added when missing), else AddressError."""
    if not isinstance(value, str):
        raise AddressError(f"not a message id: {value!r}")
    mid = value if value.startswith("<") else f"<{value}>"
    if len(mid) > 250 or not _MSG_ID.fullmatch(mid):
        raise AddressError(f"not a message id: {value!r}")
    return mid


def valid_message_id(value: str | None) -> str | None:
    """``value`` as check_message_id() writes it, or None when it is not one (a mail's
    own Message-ID or References may be anything; an answer threads only on real ids)."""
    if value is None:
        return None
    try:
        return check_message_id(value)
    except AddressError:
        return None


def make_message_id(domain: str) -> str:
    """A new, unique Message-ID ``<time.random@domain>`` (RFC 5322 §3.6.4)."""
    if not _DOMAIN_RE.fullmatch(domain) or len(domain) > 200:
        raise AddressError(f"not a domain: {domain!r}")
    return f"<{time.time_ns():x}.{secrets.token_hex(8)}@{domain}>"


def _phrase(text: str) -> str:
    """A display name for From/Reply-To: plain when it is safe ASCII, else RFC 2047
    (the library's own encoder)."""
    text = safe_header_value(text)
    if not text:
        return ""
    if text.isascii() and _PLAIN_PHRASE.fullmatch(text):
        return text
    if text.isascii():
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return Header(text, "utf-8", header_name="From").encode(linesep="\r\n")


# Pure functions of their text, and every order's mails repeat the same few subjects and
# addresses: cached.
@lru_cache(maxsize=1024)
def _mailbox(addr: str, name: str | None) -> str:
    addr = check_address(addr)
    phrase = _phrase(name or "")
    return f"{phrase} <{addr}>" if phrase else addr


@lru_cache(maxsize=1024)
def _unstructured(text: str) -> str:
    """Subject and the like: RFC 2047-encoded only when not plain ASCII (RFC 2047 §5),
    folded at 78 (RFC 5322 §2.1.1)."""
    text = safe_header_value(text)
    if text.isascii():
        return text
    return Header(text, "utf-8", maxlinelen=76, header_name="Subject").encode(linesep="\r\n")


def _fold(name: str, ids: Sequence[str]) -> str:
    """A list of message ids, folded before any id that would pass 78 columns."""
    lines: list[str] = []
    current = f"{name}:"
    for mid in ids:
        if len(current) + 1 + len(mid) > 78 and current != f"{name}:":
            lines.append(current)
            current = ""
        current += f" {mid}"
    lines.append(current)
    return "\r\n".join(lines)


def _qp(text: str) -> bytes:
    """UTF-8, quoted-printable (RFC 2045 §6.7), CRLF line ends. b2a_qp always encodes
    "=", so no line of the body can look like the "==" boundary."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    encoded = binascii.b2a_qp(lines.encode("utf-8"), istext=True)
    return encoded.replace(b"\n", b"\r\n")


def build_message(
    rendered: Rendered,
    *,
    from_addr: str,
    to: list[str],
    reply_to: str | None,
    message_id: str,
    in_reply_to: str | None,
    references: Sequence[str],
    auto_submitted: str = "auto-replied",
    instance: str,
    from_name: str | None = "Puerto Rico moderator",
    date: datetime | None = None,
) -> bytes:
    """The mail as bytes with CRLF line ends, ready for SMTP: multipart/alternative
    with the plain text (UTF-8) first and the HTML second (RFC 2046 §5.1.4: the
    preferred last). Every header value passes safe_header_value; every address must
    be one addr-spec and every message id one msg-id, else AddressError. The subject
    and display names are RFC 2047-encoded when they are not ASCII. ``auto_submitted``:
    "auto-replied" for an answer to a player's mail, "auto-generated" for the rest
    (RFC 3834 §5).

    Written directly rather than through email.message: this runs for every mail of
    every order, and the library's header objects cost ten times as much."""
    if auto_submitted not in AUTO_SUBMITTED:
        raise ValueError(f"Auto-Submitted must be one of {sorted(AUTO_SUBMITTED)}")
    if not to:
        raise AddressError("a mail needs at least one recipient")
    headers = [
        f"Subject: {_unstructured(rendered.subject)}",
        f"From: {_mailbox(from_addr, from_name)}",
        "To: " + ", ".join(check_address(a) for a in to),
    ]
    if reply_to is not None:
        headers.append(f"Reply-To: {_mailbox(reply_to, from_name)}")
    headers.append(f"Message-ID: {check_message_id(message_id)}")
    refs = [check_message_id(r) for r in references]
    if in_reply_to is not None:
        parent = check_message_id(in_reply_to)
        headers.append(f"In-Reply-To: {parent}")
        if parent not in refs:
            refs.append(parent)  # RFC 5322 §3.6.4: the parent's id last
    if refs:
        headers.append(_fold("References", refs))
    headers += [
        f"Date: {format_datetime(date or datetime.now(UTC))}",
        f"Auto-Submitted: {auto_submitted}",
        f"{OWN_MAIL_HEADER}: {safe_header_value(instance) or 'moderator'}",
        "MIME-Version: 1.0",
    ]
    boundary = f"==pr_{secrets.token_hex(12)}"
    headers.append(f'Content-Type: multipart/alternative; boundary="{boundary}"')
    part = 'Content-Type: text/{}; charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable'
    out = [
        "\r\n".join(headers).encode("ascii"),
        b"\r\n\r\n",
        f"--{boundary}\r\n{part.format('plain')}\r\n\r\n".encode("ascii"),
        _qp(rendered.text),
        f"\r\n--{boundary}\r\n{part.format('html')}\r\n\r\n".encode("ascii"),
        _qp(rendered.html),
        f"\r\n--{boundary}--\r\n".encode("ascii"),
    ]
    return b"".join(out)


__all__ = [
    "AUTO_SUBMITTED",
    "AddressError",
    "build_message",
    "check_address",
    "check_message_id",
    "make_message_id",
    "valid_message_id",
]
