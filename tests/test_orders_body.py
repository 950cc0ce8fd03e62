"""Body extraction (issue 3, item 1): the player's own text of a real RFC 5322 mail."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.mail.envelope import html_to_text as html_text
from moderator.mail.envelope import order_text as strip_reply
from moderator.mail.envelope import parse_envelope
from moderator.orders import parse_text


def body_text(raw: bytes) -> str:
    """The order text the service reads from a mail (one implementation serves)."""
    return parse_envelope(raw).text


MAIL = Path(__file__).parent / "data" / "mail"


def orders_of(name: str) -> list[str]:
    text = body_text((MAIL / name).read_bytes())
    return [line for line in text.splitlines() if line.strip()]


def test_top_posted_reply_loses_the_attribution_the_quote_and_the_signature() -> None:
    assert orders_of("orders_top_posted.eml") == ["ship corn", "keep coffee"]


def test_html_only_mail_is_rendered_as_text_without_its_quotes() -> None:
    assert orders_of("orders_html_only.eml") == ["sell coffee", "build harbour", "pass"]


def test_quoted_printable_latin1_and_outlook_original_message() -> None:
    assert orders_of("orders_latin1_qp.eml") == [
        "settle café? no: settle coffee",
        "build small market please",
    ]


def test_base64_with_a_byte_order_mark_and_an_outlook_quote_header() -> None:
    assert orders_of("orders_base64_bom.eml") == ["role builder"]


def test_forwarded_message_is_not_read() -> None:
    assert orders_of("orders_forwarded.eml") == ["role prospector"]


def test_empty_mail() -> None:
    assert orders_of("orders_empty.eml") == []


@pytest.mark.parametrize("path", sorted(MAIL.glob("*.eml")), ids=lambda p: p.name)
def test_every_sample_mail_gives_text_without_quotes(path: Path) -> None:
    text = body_text(path.read_bytes())
    assert isinstance(text, str)
    assert not any(line.lstrip().startswith(">") for line in text.splitlines())


def test_strip_reply_drops_wrapped_attributions() -> None:
    text = (
        "role captain\n> quoted\nOn Sun, 22 Nov 2026, Bob <b@x>\nwrote:\n> more\nsell corn\n--\nBob"
    )
    assert strip_reply(text) == "role captain\nsell corn"
    assert parse_text(strip_reply(text))


def test_html_text_breaks_blocks_into_lines() -> None:
    assert html_text("<div>role captain</div><div>ship&nbsp;corn<br/>pass</div>") == (
        "role captain\nship corn\npass"
    )
