"""A rendered mail as RFC 5322 bytes: multipart/alternative, every header checked."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime

from ..mail.envelope import OWN_MAIL_HEADER, safe_header_value
from .env import Rendered

AUTO_SUBMITTED = frozenset({"auto-replied", "auto-generated"})

# RFC 5322 §3.2.3 dot-atom local part (atext) and an RFC 1035 host name or a
# single label (loopback test servers use "localhost"); no quoted strings, no
# comments, no display names: one bare addr-spec.
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_DOMAIN = rf"{_LABEL}(?:\.{_LABEL})*"
_ADDR_SPEC = re.compile(rf"{_ATEXT}(?:\.{_ATEXT})*@{_DOMAIN}")
_DOMAIN_RE = re.compile(_DOMAIN)
# RFC 5322 §3.6.4 msg-id: "<" id-left "@" id-right ">" (dot-atom-text forms).
_MSG_ID = re.compile(rf"<{_ATEXT}(?:\.{_ATEXT})*@(?:{_ATEXT}(?:\.{_ATEXT})*|\[[!-Z^-~]*\])>")


class AddressError(ValueError):
    """An address or message id that must not go into a header."""


def check_address(addr: str) -> str:
    """``addr`` if it is one bare addr-spec (RFC 5322 §3.4.1, dot-atom forms only, at
    most 254 characters, RFC 5321 §4.5.3.1), else AddressError. CR, LF, commas, angle
    brackets, display names and second addresses are all refused."""
    if not isinstance(addr, str) or len(addr) > 254 or not _ADDR_SPEC.fullmatch(addr):
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


def make_message_id(domain: str) -> str:
    """A new, unique Message-ID ``<time.random@domain>`` (RFC 5322 §3.6.4)."""
    if not _DOMAIN_RE.fullmatch(domain) or len(domain) > 200:
        raise AddressError(f"not a domain: {domain!r}")
    return f"<{time.time_ns():x}.{secrets.token_hex(8)}@{domain}>"


def _address(addr: str, name: str | None) -> Address:
    addr = check_address(addr)
    local, _, domain = addr.rpartition("@")
    return Address(display_name=safe_header_value(name or ""), username=local, domain=domain)


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
    is RFC 2047-encoded by the library when it is not ASCII. ``auto_submitted``:
    "auto-replied" for an answer to a player's mail, "auto-generated" for the rest
    (RFC 3834 §5)."""
    if auto_submitted not in AUTO_SUBMITTED:
        raise ValueError(f"Auto-Submitted must be one of {sorted(AUTO_SUBMITTED)}")
    if not to:
        raise AddressError("a mail needs at least one recipient")
    msg = EmailMessage(policy=policy.SMTP)
    msg["Subject"] = safe_header_value(rendered.subject)
    msg["From"] = _address(from_addr, from_name)
    msg["To"] = [_address(a, None) for a in to]
    if reply_to is not None:
        msg["Reply-To"] = _address(reply_to, from_name)
    msg["Message-ID"] = check_message_id(message_id)
    if in_reply_to is not None:
        msg["In-Reply-To"] = check_message_id(in_reply_to)
    refs = [check_message_id(r) for r in references]
    if in_reply_to is not None and check_message_id(in_reply_to) not in refs:
        refs.append(check_message_id(in_reply_to))  # RFC 5322 §3.6.4: parent's id last
    if refs:
        msg["References"] = " ".join(refs)
    msg["Date"] = format_datetime(date or datetime.now(UTC))
    msg["Auto-Submitted"] = auto_submitted
    msg[OWN_MAIL_HEADER] = safe_header_value(instance) or "moderator"
    msg.set_content(rendered.text, subtype="plain", charset="utf-8", cte="quoted-printable")
    msg.add_alternative(rendered.html, subtype="html", charset="utf-8", cte="quoted-printable")
    if "MIME-Version" not in msg:
        msg["MIME-Version"] = "1.0"
    return msg.as_bytes()


__all__ = [
    "AUTO_SUBMITTED",
    "AddressError",
    "build_message",
    "check_address",
    "check_message_id",
    "make_message_id",
]
