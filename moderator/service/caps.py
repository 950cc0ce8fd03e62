"""Bounded work per mail: how much of a mail is read for orders and answered, and what
the player is told was left unread ([caps] in the config)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..config import CapsSection
from ..orders.commands import ServiceCommand
from ..orders.parser import segments


@dataclass(frozen=True, slots=True)
class Bounded:
    """A mail's text as far as it is read, and what was not read, in the player's words."""

    text: str
    ignored: tuple[str, ...] = ()


def bound_text(text: str, caps: CapsSection, *, cut: bool = False) -> Bounded:
    """``text`` (the player's own, quotes and signature dropped) within the caps: at most
    ``text_chars`` characters, lines of at most ``line_chars``, ``orders_per_mail`` orders
    (counted as the order reader splits them: a line each, or ";" between them). ``cut``:
    the mail itself was longer than ``mail_bytes`` and only its beginning was read."""
    ignored: list[str] = []
    if cut:
        ignored.append(
            f"Your mail was longer than {caps.mail_bytes // 1024:,} KB: only its beginning "
            "was read (a large attachment, perhaps)."
        )
    if len(text) > caps.text_chars:
        head = text[: caps.text_chars]
        line_end = head.rfind("\n")
        text = head[:line_end] if line_end > 0 else head
        ignored.append(
            f"Only the first {caps.text_chars:,} characters of your text were read; the rest "
            "was not."
        )
    lines = text.split("\n")
    long = [n for n, line in enumerate(lines, 1) if len(line) > caps.line_chars]
    if long:
        lines = [line[: caps.line_chars] for line in lines]
        text = "\n".join(lines)
        where = ", ".join(str(n) for n in long[:5]) + (", ..." if len(long) > 5 else "")
        ignored.append(f"Lines longer than {caps.line_chars:,} characters were cut (line {where}).")
    for count, seg in enumerate(segments(text), 1):
        if count > caps.orders_per_mail:
            lines = text.split("\n")
            kept = [*lines[: seg.line_no - 1], lines[seg.line_no - 1][: seg.column - 1]]
            text = "\n".join(kept)
            ignored.append(
                f"Only the first {caps.orders_per_mail:,} orders of your mail were read; the "
                f"rest, from line {seg.line_no} on, was not."
            )
            break
    return Bounded(text, tuple(ignored))


def bound_services(
    services: Sequence[ServiceCommand], caps: CapsSection
) -> tuple[list[ServiceCommand], list[str]]:
    """The service requests answered (each one once, at most ``services_per_mail`` of
    them) and, when some were left out, what the player is told."""
    unique = list(dict.fromkeys(services))
    answered = unique[: caps.services_per_mail]
    ignored = []
    if len(unique) > len(answered):
        ignored.append(
            f"Only {caps.services_per_mail} different requests (help, history, board, ...) "
            f"are answered per mail; {len(unique) - len(answered)} more were not."
        )
    return answered, ignored


def ignored_notice(ignored: Sequence[str]) -> list[str]:
    """The paragraphs of the short reply that says what of a mail was not read."""
    return [
        "Part of your mail was not read, so that one mail cannot hold up the others' games:",
        *ignored,
        "What was read is answered as usual. Send the rest in another mail if you meant it.",
    ]
