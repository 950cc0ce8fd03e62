"""The caps of one mail: text, line and order counts cut where the reader would split,
each cut said in words; services answered once each, up to the cap."""

from __future__ import annotations

from moderator.config import CapsSection
from moderator.mail.envelope import parse_envelope
from moderator.orders.commands import BoardCmd, HelpCmd, HistoryCmd
from moderator.service.caps import Bounded, bound_services, bound_text, ignored_notice

CAPS = CapsSection(text_chars=200, line_chars=80, orders_per_mail=3, services_per_mail=2)


def test_text_within_the_caps_is_read_whole() -> None:
    text = "role settler\ntake corn # the plantation\n\nhello"
    assert bound_text(text, CAPS) == Bounded(text, ())


def test_orders_beyond_the_cap_are_cut_where_the_reader_splits_them() -> None:
    bounded = bound_text("role mayor\n# a comment\nhelp; board; history; status\nsell", CAPS)
    assert bounded.text == "role mayor\n# a comment\nhelp; board; "
    assert bounded.ignored == (
        "Only the first 3 orders of your mail were read; the rest, from line 3 on, was not.",
    )


def test_long_text_and_long_lines_are_cut_and_said() -> None:
    bounded = bound_text(("x" * 100 + "\n") * 5, CAPS)
    # 200 characters end in the second line: the text ends with the first, cut to 80.
    assert bounded.text == "x" * 80
    assert bounded.ignored == (
        "Only the first 200 characters of your text were read; the rest was not.",
        "Lines longer than 80 characters were cut (line 1).",
    )


def test_a_cut_mail_is_said_even_when_its_text_is_short() -> None:
    (note,) = bound_text("role mayor", CAPS, cut=True).ignored
    assert "longer than 256 KB" in note


def test_services_are_answered_once_each_up_to_the_cap() -> None:
    asked = [HelpCmd(), HelpCmd(), HistoryCmd(), HelpCmd(), BoardCmd(), HelpCmd("mayor")]
    answered, ignored = bound_services(asked, CAPS)
    assert answered == [HelpCmd(), HistoryCmd()]
    assert ignored == [
        "Only 2 different requests (help, history, board, ...) are answered per mail; "
        "2 more were not."
    ]
    assert bound_services([HelpCmd()] * 1000, CAPS) == ([HelpCmd()], [])


def test_the_notice_lists_what_was_not_read() -> None:
    paragraphs = ignored_notice(["a.", "b."])
    assert paragraphs[1:3] == ["a.", "b."]
    assert paragraphs[0].startswith("Part of your mail was not read")


def test_the_envelope_reads_only_the_first_bytes_of_a_huge_mail() -> None:
    raw = b"From: a@example.org\r\nSubject: s\r\n\r\n" + b"role mayor\r\n" * 100_000
    env = parse_envelope(raw, max_bytes=64 * 1024)
    assert env.cut and env.from_address == "a@example.org"
    assert env.text.startswith("role mayor\n") and len(env.body) < 64 * 1024
    assert any(d.startswith("message cut") for d in env.defects)
    # One huge line is read in part rather than not at all.
    one_line = b"From: a@example.org\r\n\r\n" + b"help;" * 100_000
    assert parse_envelope(one_line, max_bytes=64 * 1024).text.startswith("help;help;")
    assert not parse_envelope(raw[:1000], max_bytes=64 * 1024).cut
