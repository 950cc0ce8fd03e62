"""The text of a player's mail that may hold orders: the plain body without quoted reply
text, forwarded messages and the signature (pure functions, no I/O)."""

from __future__ import annotations

import re
from email import message_from_bytes, policy
from email.message import Message
from html.parser import HTMLParser

# "On Mon, 3 Jan 2026 at 10:00, Moderator <pr@example.org> wrote:" (and its translations
# often keep "wrote:"); some clients wrap the attribution over two lines.
_SAID = r"(wrote|schrieb|a écrit|escribió|ha scritto|schreef)"
_WROTE = re.compile(rf"^\s*(on|le|am|el|il|op)\b.*\b{_SAID}\s*:\s*$", re.I)
_WROTE_END = re.compile(rf"^.*\b{_SAID}\s*:\s*$", re.I)
# Everything below these lines is someone else's text.
_QUOTE_START = re.compile(
    r"^\s*(-{2,}\s*original message\s*-{2,}"
    r"|-{2,}\s*forwarded message\s*-{2,}"
    r"|begin forwarded message:"
    r"|_{10,})\s*$",
    re.I,
)
# Outlook's unmarked quote header: "From: …" followed by "Sent: …" or "Date: …".
_FROM = re.compile(r"^\s*\*?from:\*?\s", re.I)
_SENT = re.compile(r"^\s*\*?(sent|date):\*?\s", re.I)
# RFC 3676 §4.3: the signature separator is "-- " (the space is often lost on the way).
_SIGNATURE = re.compile(r"^--\s?$")


def strip_reply(text: str) -> str:
    """The player's own text: quoted lines ("> "), "On … wrote:" attributions, an
    original or forwarded message and what follows, and a signature dropped; a
    byte-order mark removed. Line breaks are kept, so line numbers still point
    somewhere sensible in the player's text."""
    lines = text.lstrip("\ufeff").splitlines()
    out: list[str] = []
    skip = False
    for i, line in enumerate(lines):
        if skip:  # the second half of a wrapped attribution
            out.append("")
            skip = False
            continue
        if _SIGNATURE.match(line) or _QUOTE_START.match(line):
            break
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if _FROM.match(line) and _SENT.match(nxt):
            break
        if line.lstrip().startswith(">") or _WROTE.match(line):
            out.append("")
            continue
        if nxt and _WROTE_END.match(nxt) and _WROTE.match(f"{line} {nxt}"):
            out.append("")
            skip = True
            continue
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


class _HtmlText(HTMLParser):
    """A plain-text rendering of an HTML body: block elements become line breaks,
    quoted blocks and scripts are left out."""

    _BLOCKS = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "pre", "table"})
    _SKIP = frozenset({"script", "style", "head", "blockquote", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self.skipping += 1
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(re.sub(r"\s+", " ", data))


def html_text(html: str) -> str:
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    lines = [line.strip() for line in "".join(parser.parts).splitlines()]
    return "\n".join(line for line in lines if line)


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:  # an unknown charset name
        return payload.decode("utf-8", errors="replace")


def body_text(message: bytes | Message) -> str:
    """The order text of an RFC 5322 message: its text/plain part (else a rendering of
    its HTML), transfer encoding and charset decoded, reply quotes and signature gone.
    Attachments are never read."""
    msg = (
        message_from_bytes(message, policy=policy.default)
        if isinstance(message, bytes)
        else message
    )
    plain: str | None = None
    html: str | None = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
        if disposition == "attachment":
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain = _part_text(part)
        elif ctype == "text/html" and html is None:
            html = _part_text(part)
    if plain is None or (not plain.strip() and html):
        plain = html_text(html) if html else ""
    return strip_reply(plain.replace("\r\n", "\n"))


__all__ = ["body_text", "html_text", "strip_reply"]
