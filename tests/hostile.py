"""The hostile mail corpus (tests/data/mail/hostile/): loading, filling in, and judging.

Each ``NAME.eml`` is a raw message as an attacker or a broken mailer would write it,
with placeholders for what only the running game knows (``{TAG}``, ``{REPLY_ANNA}``:
Anna's signed reply address, ``{PASSWORD_ANNA}``, ``{MODERATOR}``, ``{FORGED_ANNA}``:
her address with a wrong signature, ``{UNIQUE}``: a fresh number per sending, ...).
``expected.toml`` says what must become of each: its status and outcome, how many
orders it applies, who is answered. Used by tests/service/test_hostile_mail.py (through
the ingest path) and bench/soak.py (through real Postfix and Dovecot).

Whatever the mail, the answers must be safe: every header of every mail the moderator
writes in answer is one it means to write, no recipient is one the attacker chose
through a header, and no script of the attacker's reaches an HTML part.
"""

from __future__ import annotations

import email
import email.policy
import itertools
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from moderator.service.auth import reply_address

CORPUS = Path(__file__).parent / "data" / "mail" / "hostile"

# The game every hostile mail is aimed at: Anna (seat 0) decides first; Bob's domain is
# internationalised (issue 13: IDNA addresses work).
PLAYERS = (
    ("Anna", "anna@example.test"),
    ("Bob", "bob@bücher.example"),
    ("Chris", "chris@example.test"),
    ("David", "david@example.test"),
)
SEAT_ADDRESSES = (
    "anna@example.test",
    "bob@xn--bcher-kva.example",
    "chris@example.test",
    "david@example.test",
)

# The headers the moderator writes (render/message.py); anything else in an answer was
# smuggled in.
OWN_HEADERS = frozenset(
    {
        "from",
        "to",
        "reply-to",
        "subject",
        "date",
        "message-id",
        "in-reply-to",
        "references",
        "auto-submitted",
        "x-pr-moderator",
        "mime-version",
        "content-type",
        "content-transfer-encoding",
        "content-language",
        "precedence",
        "x-auto-response-suppress",
        "list-id",
    }
)

_unique = itertools.count(1)


@dataclass(frozen=True)
class Expected:
    """What must become of one hostile mail (a table of expected.toml)."""

    name: str
    why: str
    status: str  # the inbound row's status; "duplicate": not even recorded again
    outcome: str | None
    applied: int = 0
    orders: tuple[str, ...] = ()  # the order texts applied, as the player wrote them
    # Who gets a mail caused by it: addresses, "seats" (every seat's address on record).
    answered: tuple[str, ...] = ()
    before: tuple[str, ...] = ()  # corpus mails sent first (a replay, guesses)
    routed: bool = True  # ingest routes it to the game

    def recipients(self) -> set[str]:
        out: set[str] = set()
        for who in self.answered:
            out.update(SEAT_ADDRESSES if who == "seats" else (who,))
        return out


@dataclass
class Game:
    """The values the placeholders stand for."""

    tag: str
    moderator: str
    secret: bytes
    key_ids: Mapping[int, int]
    passwords: Mapping[int, str]
    extra: dict[str, str] = field(default_factory=dict)

    def values(self) -> dict[str, str]:
        def signed(seat: int, tag: str | None = None, mac: str | None = None) -> str:
            address = reply_address(
                self.moderator, self.secret, tag or self.tag, seat, self.key_ids.get(seat, 1)
            )
            if mac is None:
                return address
            local, _, domain = address.partition("@")
            return local.rsplit(".", 1)[0] + "." + mac + "@" + domain

        good = signed(0).partition("@")[0].rsplit(".", 1)[1]
        wrong = ("0" if good[0] != "0" else "1") * len(good)
        return {
            "TAG": self.tag,
            "MODERATOR": self.moderator,
            "REPLY_ANNA": signed(0),
            "REPLY_BOB": signed(1),
            "PASSWORD_ANNA": self.passwords[0],
            "PASSWORD_BOB": self.passwords[1],
            "FORGED_ANNA": signed(0, mac=wrong),
            "FORGED_OTHER_GAME": signed(0, tag="PR-99999", mac=wrong),
            "FORGED_SEAT9": signed(9, mac=wrong),
            **self.extra,
        }


def corpus() -> list[Path]:
    return sorted(CORPUS.glob("*.eml"))


def expectations() -> dict[str, Expected]:
    data = tomllib.loads((CORPUS / "expected.toml").read_text(encoding="utf-8"))
    out = {}
    for name, table in data.items():
        out[name] = Expected(
            name=name,
            why=table["why"],
            status=table["status"],
            outcome=table.get("outcome"),
            applied=table.get("applied", 0),
            orders=tuple(table.get("orders", ())),
            answered=tuple(table.get("answered", ())),
            before=tuple(table.get("before", ())),
            routed=table.get("routed", True),
        )
    return out


def fill(raw: bytes, values: Mapping[str, str]) -> bytes:
    """The mail as sent: placeholders replaced (``{UNIQUE}`` by a fresh number)."""
    out = raw.replace(b"{UNIQUE}", str(next(_unique)).encode())
    for key, value in values.items():
        out = out.replace(b"{" + key.encode() + b"}", value.encode("utf-8"))
    return out


def header_section(raw: bytes) -> bytes:
    end = raw.find(b"\r\n\r\n")
    return raw if end < 0 else raw[:end]


def answer_problems(raw: bytes, allowed_recipients: Iterable[str]) -> list[str]:
    """What is wrong with one mail the moderator wrote in answer (empty when nothing)."""
    problems = []
    allowed = {a.lower() for a in allowed_recipients}
    head = header_section(raw)
    if b"\x00" in raw:
        problems.append("a NUL byte")
    if re.search(rb"(?<!\r)\n|\r(?!\n)", head):
        problems.append("a bare CR or LF in the headers")
    for line in head.split(b"\r\n"):
        if line[:1] in (b" ", b"\t"):
            continue
        name = line.partition(b":")[0].decode("ascii", "replace").strip().lower()
        if name not in OWN_HEADERS:
            problems.append(f"a header the moderator does not write: {name!r}")
    if b"victim" in head.lower():
        problems.append("the attacker's address in the headers")
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    for header in ("To", "Cc", "Bcc"):
        value = msg.get(header)
        if value is None:
            continue
        for address in value.addresses:
            if address.addr_spec.lower() not in allowed:
                problems.append(f"{header}: {address.addr_spec} is not an expected recipient")
    for part in msg.walk():
        if part.get_content_type() == "text/html":
            html = str(part.get_content()).lower()
            for bad in ("<script>alert", "<img src=x", "onerror=alert"):
                if bad in html:
                    problems.append(f"the attacker's markup {bad!r} in the HTML part")
    return problems
