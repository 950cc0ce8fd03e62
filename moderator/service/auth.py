"""Seat authentication: signed reply addresses (a keyed MAC of game and seat)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from functools import lru_cache

# moderator+pr-12.s3.k0.abcdefghijklmnop@host: tag, seat, key generation, MAC.
_TOKEN = re.compile(
    r"^(?P<tag>[a-z0-9-]+)\.s(?P<seat>\d{1,2})\.k(?P<key>\d{1,6})\.(?P<mac>[a-z2-7]{16})$"
)
MAC_CHARS = 16  # 80 bits of HMAC-SHA256, base32


@dataclass(frozen=True, slots=True)
class SeatToken:
    tag: str  # the game tag, upper case (PR-12)
    seat: int
    key_id: int


@lru_cache(maxsize=4096)  # every order's mails sign and check the same few seats
def _mac(secret: bytes, tag: str, seat: int, key_id: int) -> str:
    msg = f"{tag.lower()}.s{seat}.k{key_id}".encode()
    digest = hmac.new(secret, msg, hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:MAC_CHARS]


def reply_address(address: str, secret: bytes, tag: str, seat: int, key_id: int) -> str:
    """The plus-address a seat replies to; only the holder of ``secret`` can mint it."""
    local, _, domain = address.partition("@")
    token = f"{tag.lower()}.s{seat}.k{key_id}.{_mac(secret, tag, seat, key_id)}"
    return f"{local}+{token}@{domain}"


def read_reply_address(address: str, moderator: str, secret: bytes) -> SeatToken | None:
    """The seat a recipient address proves, or None if it is not a valid signed address
    of this moderator (wrong local part or domain, malformed, or a bad MAC)."""
    local, _, domain = address.lower().partition("@")
    own_local, _, own_domain = moderator.lower().partition("@")
    base, plus, token = local.partition("+")
    if not plus or base != own_local or domain != own_domain:
        return None
    m = _TOKEN.match(token)
    if m is None:
        return None
    tag, seat, key_id = m["tag"], int(m["seat"]), int(m["key"])
    if not hmac.compare_digest(m["mac"], _mac(secret, tag, seat, key_id)):
        return None
    return SeatToken(tag.upper(), seat, key_id)


def forged_reply_address(address: str, moderator: str) -> bool:
    """True when ``address`` has the form of this moderator's signed reply addresses
    (call it after read_reply_address refused it: then its signature is wrong)."""
    local, _, domain = address.lower().partition("@")
    own_local, _, own_domain = moderator.lower().partition("@")
    base, plus, token = local.partition("+")
    return bool(plus) and base == own_local and domain == own_domain and bool(_TOKEN.match(token))


# "[PR-12]", and as players write it by hand: "PR-12", "pr12", "PR 12" (not inside a
# longer word or number).
_SUBJECT_TAG = re.compile(r"(?<![\w-])PR[-_ ]?(\d{1,9})(?![\w-])", re.IGNORECASE)


def subject_tag(subject: str) -> str | None:
    """The game tag in a subject such as "Re: [PR-12] round 4" or "PR-1 my settler
    choice", as "PR-12"."""
    m = _SUBJECT_TAG.search(subject)
    return f"PR-{int(m[1])}" if m else None
