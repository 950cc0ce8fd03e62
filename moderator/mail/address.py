"""Mail addresses: what an addr-spec the moderator can send to looks like, and one
normal form for every address it stores or compares (lower case, IDNA domain)."""

from __future__ import annotations

import re

# RFC 5322 §3.2.3 dot-atom local part (atext) and an RFC 1035 host name or a single
# label (loopback test servers use "localhost"); no quoted strings, no comments, no
# display names: one bare addr-spec, ASCII only (the moderator does not use SMTPUTF8).
ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
DOMAIN = rf"{LABEL}(?:\.{LABEL})*"
ADDR_SPEC = re.compile(rf"{ATEXT}(?:\.{ATEXT})*@{DOMAIN}")
# RFC 5321 §4.5.3.1: a path holds at most 256 octets, the address 254 of them.
MAX_ADDRESS = 254


class AddressError(ValueError):
    """An address or message id that must not go into a header; says why."""


def normalise_address(text: str) -> str:
    """``text`` as the moderator stores and compares it: lower case, the domain as IDNA
    A-labels (``anna@müller.de`` is ``anna@xn--mller-kva.de``, what SMTP carries), or
    AddressError saying what is wrong with it."""
    address = text.strip().lower()
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        raise AddressError(f"{text!r} is not an e-mail address (name@domain)")
    if not local.isascii():
        raise AddressError(
            f"{text!r}: the part before the @ has letters outside ASCII, which needs "
            "SMTPUTF8; the moderator sends plain SMTP, so ask for another address"
        )
    if not domain.isascii():
        try:
            domain = domain.encode("idna").decode("ascii")
        except UnicodeError:
            raise AddressError(f"{text!r}: the domain is not a valid domain name") from None
    address = f"{local}@{domain}"
    if len(address) > MAX_ADDRESS or not ADDR_SPEC.fullmatch(address):
        raise AddressError(
            f"{text!r} is not a plain address (name@domain, no spaces, quotes or brackets)"
        )
    return address
