"""Tests for moderator.mail.envelope: raw RFC 5322 bytes in, a frozen Envelope out."""

from __future__ import annotations

import dataclasses
import unicodedata
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator.mail.envelope import (
    OWN_MAIL_HEADER,
    SIGNATURE_MAX_LINES,
    Envelope,
    html_to_text,
    is_own_mail,
    order_lines,
    order_text,
    parse_envelope,
    safe_header_value,
)

MAIL_DIR = Path(__file__).parent / "data" / "mail"
SAMPLES = sorted(MAIL_DIR.glob("*.eml"))


def sample(name: str) -> Envelope:
    return parse_envelope((MAIL_DIR / name).read_bytes())


def mail(headers: str, body: str, *, charset: str = "utf-8") -> bytes:
    """A minimal message; headers are given one per line, without the blank separator."""
    text = f"{headers.strip()}\n\n{body}"
    return text.encode(charset)


# --------------------------------------------------------------------------
# Headers


def test_plain_mail_yields_sender_ids_and_threading() -> None:
    env = sample("plain.eml")
    assert env.from_address == "alice@example.net"
    assert env.from_name == "Alice Player"
    assert env.message_id == "<20240312101500.GA1234@example.net>"
    assert env.in_reply_to == "<pr12.r4.captain.s3@pr.example.org>"
    assert env.references == (
        "<pr12.r3.mayor.s3@pr.example.org>",
        "<pr12.r4.captain.s3@pr.example.org>",
    )
    assert env.subject == "Re: [PR-12] Round 4 · Captain · your turn"
    assert env.date == datetime(2024, 3, 12, 10, 15, tzinfo=timezone(timedelta(hours=1)))
    assert env.return_path == "alice@example.net"
    assert not env.is_automatic
    assert env.automatic_reason is None
    assert env.defects == ()


def test_from_address_is_lower_cased_addr_spec() -> None:
    env = parse_envelope(mail("From: Alice <Alice@Example.NET>", "pass\n"))
    assert env.from_address == "alice@example.net"


def test_signed_plus_address_is_found_among_recipients() -> None:
    env = sample("plain.eml")
    assert env.delivered_to == ("moderator+pr12.s3.a1b2c3@pr.example.org",)
    assert env.to == ("moderator+pr12.s3.a1b2c3@pr.example.org",)
    assert env.recipients == ("moderator+pr12.s3.a1b2c3@pr.example.org",)


def test_recipients_put_delivery_headers_before_to_and_cc() -> None:
    env = parse_envelope(
        mail(
            "From: a@example.org\n"
            "To: Someone <someone@example.org>\n"
            "Cc: B@Example.org, c@example.org\n"
            "X-Original-To: moderator+pr1.s1.x@pr.example.org\n"
            "Delivered-To: moderator@pr.example.org",
            "pass\n",
        )
    )
    assert env.delivered_to == ("moderator@pr.example.org", "moderator+pr1.s1.x@pr.example.org")
    assert env.cc == ("b@example.org", "c@example.org")
    assert env.recipients == (
        "moderator@pr.example.org",
        "moderator+pr1.s1.x@pr.example.org",
        "someone@example.org",
        "b@example.org",
        "c@example.org",
    )


def test_reply_to_is_kept_separately_from_from() -> None:
    env = parse_envelope(
        mail("From: a@example.org\nReply-To: Team <Team@Example.org>, x@example.org", "pass")
    )
    assert env.from_address == "a@example.org"
    assert env.reply_to == ("team@example.org", "x@example.org")


def test_missing_message_id_is_none_and_cc_is_parsed() -> None:
    env = sample("no_message_id.eml")
    assert env.message_id is None
    assert env.cc == ("friend@example.org", "watcher@example.org")
    assert env.text == "status"


def test_message_id_without_brackets_is_normalised() -> None:
    assert sample("broken_mime.eml").message_id == "<broken-no-brackets@example.org>"


def test_message_id_folded_over_lines_loses_its_whitespace() -> None:
    env = parse_envelope(mail("From: a@example.org\nMessage-ID: <abc.\n def@example.org>", "x"))
    assert env.message_id == "<abc.def@example.org>"


def test_in_reply_to_ignores_the_phrase_old_clients_add() -> None:
    # RFC 5322 §3.6.4: only msg-ids count; RFC 822 allowed phrases here.
    env = parse_envelope(
        mail("From: a@example.org\nIn-Reply-To: Your message of Monday <id1@example.org>", "x")
    )
    assert env.in_reply_to == "<id1@example.org>"


def test_rfc2047_subject_and_display_name_are_decoded() -> None:
    env = sample("rfc2047_subject.eml")
    # RFC 2047 §6.2: whitespace between adjacent encoded-words is not text.
    assert env.subject == "Re: [PR-11] Runde 3 · Bürgermeister · dein Zug"
    assert env.from_name == "Jürgen Müller"


def test_iso_8859_1_encoded_words_are_decoded() -> None:
    env = sample("iso_8859_1.eml")
    assert env.subject == "Très bien"
    assert env.from_name == "Renée François"


def test_one_broken_encoded_word_does_not_spoil_the_others() -> None:
    env = sample("broken_mime.eml")
    assert env.subject.startswith("café and ")
    assert "=?utf-8?B?!!!not-base64!!!?=" in env.subject


def test_raw_utf8_header_is_read_as_utf8() -> None:
    # RFC 6532 allows UTF-8 in header fields without encoded-words.
    raw = "From: Zoë <zoe@example.org>\nSubject: Grüße\n\nx".encode()
    env = parse_envelope(raw)
    assert env.subject == "Grüße"
    assert env.from_name == "Zoë"


def test_unparseable_date_is_none_and_a_defect() -> None:
    env = sample("broken_mime.eml")
    assert env.date is None
    assert "unparseable Date header" in env.defects


def test_date_with_unknown_zone_is_read_as_utc() -> None:
    # RFC 5322 §3.3: "-0000" says the local zone is unknown.
    env = parse_envelope(mail("From: a@example.org\nDate: Mon, 1 Apr 2024 10:00:00 -0000", "x"))
    assert env.date == datetime(2024, 4, 1, 10, 0, tzinfo=UTC)


def test_encoded_crlf_in_subject_and_name_cannot_inject_headers() -> None:
    env = sample("header_injection.eml")
    assert env.subject == "hi Bcc: victim@example.org"
    assert env.from_name == "Mallory Bcc: victim@example.org"
    assert env.from_address == "mallory@example.org"


def test_encoded_word_cannot_smuggle_an_address() -> None:
    # RFC 2047 §5: encoded-words never appear inside an addr-spec.
    env = parse_envelope(mail("From: =?utf-8?q?=3Cevil=40x.org=3E?= <good@example.org>", "x"))
    assert env.from_address == "good@example.org"


@pytest.mark.parametrize(
    "name",
    [
        "=?utf-8?q?Evil=0D=0ABcc:_victim@evil.test?=",  # a line break and an address
        "=?utf-8?q?victim@evil.test?=",
        "=?utf-8?b?dmljdGltQGV2aWwudGVzdA==?=",  # the same, base64
        "=?utf-8?q?Evil_<victim@evil.test>,?=",
        '"victim@evil.test"',
    ],
)
def test_an_encoded_or_quoted_display_name_is_never_taken_for_an_address(name: str) -> None:
    env = parse_envelope(mail(f"From: {name} <anna@players.test>\nTo: m@example.test", "x"))
    assert env.from_address == "anna@players.test"
    assert "\n" not in env.from_name and "\r" not in env.from_name
    assert "victim@evil.test" not in (env.to + env.cc + env.reply_to + env.delivered_to)


def test_an_internationalised_domain_is_read_as_its_idna_form() -> None:
    env = parse_envelope(mail("From: Anna <anna@Müller.de>\nTo: m@bücher.example", "x"))
    assert env.from_address == "anna@xn--mller-kva.de"
    assert env.to == ("m@xn--bcher-kva.example",)


@pytest.mark.parametrize(
    "address", ["jürgen@example.de", '"john doe"@example.org', "nobody", "a@b@@"]
)
def test_a_from_address_the_moderator_cannot_answer_is_none_and_a_defect(address: str) -> None:
    env = parse_envelope(mail(f"From: X <{address}>", "role mayor"))
    assert env.from_address is None
    assert "no usable From address" in env.defects


def test_envelope_is_frozen() -> None:
    env = sample("plain.eml")
    with pytest.raises(dataclasses.FrozenInstanceError):
        env.subject = "changed"  # type: ignore[misc]


# --------------------------------------------------------------------------
# Body: parts, transfer encodings, charsets


def test_plain_body_keeps_orders_and_their_comments() -> None:
    env = sample("plain.eml")
    assert env.text == "ship 6 sugar on 7\nkeep coffee   # the rest can rot"
    assert order_lines(env.text) == ["ship 6 sugar on 7", "keep coffee"]


def test_crlf_line_ends_are_normalised() -> None:
    env = sample("plain.eml")
    assert "\r" not in env.body
    assert "\r" not in env.text


def test_quoted_printable_body_is_decoded_and_soft_breaks_joined() -> None:
    env = sample("quoted_printable.eml")
    lines = env.text.split("\n")
    assert lines[:3] == [
        "settle coffee",
        "build small market — not the large one",
        "smörgåsbord = tasty",
    ]
    assert lines[3].endswith("with a soft line break somewhere")


def test_base64_body_is_decoded() -> None:
    assert sample("base64.eml").text == "take quarry\nhacienda\nGrüße aus Köln"


def test_iso_8859_1_body_is_decoded() -> None:
    assert sample("iso_8859_1.eml").text == "build café # c'est à moi\nsell tobacco"


def test_windows_1252_body_is_decoded() -> None:
    env = sample("windows_1252.eml")
    assert env.text.startswith("role mayor – I’ll take the “extra” colonist")
    assert env.defects == ()


def test_iso_8859_1_label_on_windows_1252_text_reads_as_windows_1252() -> None:
    # WHATWG Encoding Standard: the label iso-8859-1 means windows-1252.
    assert sample("latin1_labelled_cp1252.eml").text == "pass – I don’t need anything"


def test_ascii_label_on_8bit_text_falls_back_and_notes_a_defect() -> None:
    env = sample("reply_outlook.eml")
    assert any("us-ascii" in d for d in env.defects)


def test_undeclared_charset_utf8_body_is_read_as_utf8() -> None:
    env = parse_envelope("From: a@example.org\n\nbuild café\n".encode())
    assert env.text == "build café"
    assert env.defects == ()


def test_undecodable_bytes_fall_back_to_latin_1() -> None:
    raw = b"From: a@example.org\nContent-Type: text/plain; charset=utf-8\n\nbuild caf\xe9\n"
    env = parse_envelope(raw)
    assert env.text == "build café"
    assert any("latin-1" in d or "cp1252" in d for d in env.defects)


def test_unknown_charset_falls_back_to_utf8_with_a_defect() -> None:
    env = sample("broken_mime.eml")
    assert "unknown charset 'x-made-up'; decoded as utf-8" in env.defects


def test_escape_codecs_are_not_accepted_as_charsets() -> None:
    raw = b"From: a@example.org\nContent-Type: text/plain; charset=unicode_escape\n\nx\\u0041\n"
    assert parse_envelope(raw).text == "x\\u0041"


def test_utf8_bom_is_stripped() -> None:
    env = sample("utf8_bom.eml")
    assert env.text == "role builder\nbuild hacienda"
    assert not env.body.startswith("\ufeff")


def test_bom_wins_over_a_wrong_declared_charset() -> None:
    head = b"From: a@example.org\nContent-Type: text/plain; charset=iso-8859-1\n\n"
    raw = head + b"\xef\xbb\xbfcaf\xc3\xa9"
    assert parse_envelope(raw).text == "café"


def test_utf16_body_with_bom_is_decoded() -> None:
    body = "role settler\n".encode("utf-16")
    raw = b"From: a@example.org\nContent-Type: text/plain; charset=utf-16\n\n" + body
    assert parse_envelope(raw).text == "role settler"


def test_html_only_mail_is_rendered_as_text() -> None:
    env = sample("html_only.eml")
    assert env.text.split("\n") == [
        "role captain",
        "build harbour & nothing else",
        "sell tobacco",
        "extra corn",
        "place 2 on coffee roaster",
        "remove 1 from corn",
        "Café <3 — Bob",
    ]


def test_html_rendering_drops_script_style_and_title() -> None:
    text = sample("html_only.eml").body
    assert "role trader" not in text
    assert "color" not in text
    assert "ignored title" not in text


def test_html_rendering_drops_blockquoted_reply_and_gmail_attribution() -> None:
    env = sample("html_gmail_reply.eml")
    assert env.text == "ship corn\nwharf coffee"


def test_html_br_and_blocks_make_lines_and_entities_are_unescaped() -> None:
    html = "<div><div>a&amp;b</div></div><div>c<br>d<br/><br>e</div><p>f&nbsp;g &lt;h&gt;</p>"
    assert html_to_text(html) == "a&b\nc\nd\n\ne\nf g <h>"


def test_html_pre_keeps_its_line_breaks() -> None:
    assert html_to_text("<pre>role  captain\nsettle corn</pre>") == "role  captain\nsettle corn"


def test_html_that_never_closes_still_yields_text() -> None:
    assert (
        html_to_text("<div>role mayor<p>pass <b>now<table><tr><td>x") == "role mayor\npass now\nx"
    )


def test_multipart_alternative_prefers_the_plain_part() -> None:
    assert sample("multipart_alternative.eml").text == "extra tobacco"


def test_empty_plain_part_falls_back_to_the_html_part() -> None:
    assert sample("html_gmail_reply.eml").text.startswith("ship corn")


def test_multipart_mixed_skips_attachments_and_attached_messages() -> None:
    env = sample("multipart_mixed_attachment.eml")
    assert env.text == "role builder\nbuild large market"
    assert "role prospector" not in env.body
    assert "role trader" not in env.body
    assert "PDF" not in env.body


def test_dsn_body_is_the_human_readable_part_only() -> None:
    env = sample("dsn_bounce.eml")
    assert "could not" in env.text
    assert "role captain" not in env.body  # the returned original is not read


def test_empty_body_gives_empty_text() -> None:
    env = sample("empty_body.eml")
    assert env.text == ""
    assert order_lines(env.text) == []


def test_format_flowed_is_unwrapped_and_unstuffed() -> None:
    # RFC 3676 §4.2 soft breaks, §4.4 space-stuffing, §4.3 the signature.
    env = sample("format_flowed.eml")
    assert env.text == (
        "remove 1 from corn, 1 from san juan, 1 from quarry\nplace 2 on coffee roaster"
    )


def test_control_characters_are_removed_from_the_body() -> None:
    env = parse_envelope(b"From: a@example.org\n\nrole\x00 cap\x1btain\x7f\tnow\n")
    assert env.text == "role captain\tnow"


# --------------------------------------------------------------------------
# Order text: quotes, attributions, separators, signatures


def test_top_posted_reply_drops_wrapped_attribution_and_quotes() -> None:
    assert sample("reply_top_posted.eml").text == "build harbour"


def test_outlook_reply_drops_everything_from_the_header_block() -> None:
    env = sample("reply_outlook.eml")
    assert env.text == "sell indigo\n\nKind regards,\nOla"
    assert "sell nothing" not in env.text


def test_outlook_header_block_without_rule_line_is_cut_too() -> None:
    assert sample("reply_outlook_no_rule.eml").text == "role craftsman\nextra sugar"


def test_gmail_forward_drops_the_forwarded_message() -> None:
    assert sample("forwarded.eml").text == "settle indigo\nPlease also tell me the score."


def test_thunderbird_forward_drops_the_forwarded_message() -> None:
    assert sample("forwarded_thunderbird.eml").text == "take quarry"


def test_german_attribution_over_two_lines_is_dropped() -> None:
    assert sample("rfc2047_subject.eml").text == "place 2 on coffee roaster, 1 on quarry"


def test_french_attribution_is_dropped() -> None:
    assert sample("reply_french.eml").text == "role trader\nsell coffee"


def test_rfc3676_signature_is_dropped() -> None:
    env = sample("signature.eml")
    assert env.text == "role settler\nsettle coffee"
    assert "role captain" in env.body


def test_bare_dashes_near_the_end_and_phone_signature_are_dropped() -> None:
    assert sample("signature_no_space.eml").text == "build factory"


def test_bare_dashes_followed_by_a_long_tail_are_kept() -> None:
    tail = "\n".join(f"line {i}" for i in range(SIGNATURE_MAX_LINES + 1))
    assert order_text(f"pass\n--\n{tail}") == f"pass\n--\n{tail}"


@pytest.mark.parametrize(
    "quoted",
    [
        "> role captain",
        ">> role captain",
        "> > role captain",
        "   > role captain",
        ">role captain",
    ],
)
def test_quoted_lines_of_any_depth_are_dropped(quoted: str) -> None:
    assert order_text(f"pass\n{quoted}\nbuild harbour") == "pass\nbuild harbour"


@pytest.mark.parametrize(
    "attribution",
    [
        "On Tue, Mar 19, 2024 at 9:00 PM Moderator <m@pr.example.org> wrote:",
        "On 19/03/2024 21:00, Moderator wrote:",
        "Am 19.03.2024 um 21:00 schrieb Moderator <m@pr.example.org>:",
        "Le mar. 19 mars 2024 à 21:00, Moderator <m@pr.example.org> a écrit :",
        "El mar, 19 mar 2024 a las 21:00, Moderator (<m@pr.example.org>) escribió:",
        "Il giorno mar 19 mar 2024 alle ore 21:00 Moderator ha scritto:",
        "Op di 19 mrt 2024 om 21:00 schreef Moderator <m@pr.example.org>:",
        "Em ter., 19 de mar. de 2024 às 21:00, Moderator escreveu:",
    ],
)
def test_attribution_lines_are_dropped(attribution: str) -> None:
    assert order_text(f"role mayor\n\n{attribution}\n> It is your turn.") == "role mayor"


def test_attribution_wrapped_over_two_lines_is_dropped() -> None:
    body = (
        "pass\nOn Tue, Mar 19, 2024 at 9:00 PM Puerto Rico moderator <\nm@pr.example.org> wrote:\n"
    )
    assert order_text(body) == "pass"


def test_bare_wrote_line_counts_only_when_quotes_follow() -> None:
    assert order_text("pass\nJane <j@example.org> wrote:\n\n> x") == "pass"
    assert order_text("pass\nthe rulebook wrote:\nsell corn") == (
        "pass\nthe rulebook wrote:\nsell corn"
    )


@pytest.mark.parametrize(
    "separator",
    [
        "-----Original Message-----",
        "-----Ursprüngliche Nachricht-----",
        "-------- Forwarded Message --------",
        "---------- Forwarded message ---------",
        "Begin forwarded message:",
        "________________________________",
    ],
)
def test_everything_after_a_separator_is_dropped(separator: str) -> None:
    assert order_text(f"ship corn\n{separator}\nrole captain\n") == "ship corn"


def test_german_outlook_header_block_is_cut() -> None:
    body = (
        "pass\n\nVon: Moderator <m@pr.example.org>\nGesendet: Montag, 18. März 2024\nAn: x\n\nrole"
    )
    assert order_text(body) == "pass"


def test_an_order_line_starting_with_on_is_not_an_attribution() -> None:
    assert order_text("on second thought\nship 6 sugar on 7") == (
        "on second thought\nship 6 sugar on 7"
    )


# --------------------------------------------------------------------------
# order_lines


def test_order_lines_drop_blank_lines_comments_and_trim() -> None:
    text = "  role captain  \n\n# a whole-line comment\nship corn # trailing\n\t\u00a0\n  #\n"
    assert order_lines(text) == ["role captain", "ship corn"]


def test_order_lines_keep_semicolons_for_the_parser() -> None:
    assert order_lines("build harbour; ship corn") == ["build harbour; ship corn"]


# --------------------------------------------------------------------------
# Automatic mail (RFC 3834) and our own mail


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("auto_reply.eml", "Auto-Submitted: auto-replied (vacation)"),
        ("vacation_bulk.eml", "Precedence: bulk"),
        ("dsn_bounce.eml", "Auto-Submitted: auto-replied"),
        ("list_mail.eml", "List-Id present"),
        ("own_mail_looped.eml", f"{OWN_MAIL_HEADER} present (our own mail)"),
    ],
)
def test_automatic_sample_mails_are_recognised(name: str, reason: str) -> None:
    env = sample(name)
    assert env.is_automatic
    assert env.automatic_reason == reason


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        ("Auto-Submitted: auto-generated", "Auto-Submitted: auto-generated"),
        ("Auto-Submitted: Auto-Replied; owner-email=x@example.org", "Auto-Submitted: auto-replied"),
        ("Precedence: junk", "Precedence: junk"),
        ("Precedence: list", "Precedence: list"),
        ("List-Unsubscribe: <mailto:leave@example.org>", "List-Unsubscribe present"),
        ("Return-Path: <>", "empty Return-Path"),
        ("X-Autoreply: yes", "X-Autoreply present"),
        ("X-Autorespond: vacation", "X-Autorespond present"),
        (f"{OWN_MAIL_HEADER}: instance-1", f"{OWN_MAIL_HEADER} present (our own mail)"),
    ],
)
def test_each_automatic_signal_alone_is_enough(header: str, reason: str) -> None:
    env = parse_envelope(mail(f"From: a@example.org\n{header}", "pass\n"))
    assert env.is_automatic
    assert env.automatic_reason == reason


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@mx.example.org", "postmaster@example.org"])
def test_daemon_senders_are_automatic(sender: str) -> None:
    env = parse_envelope(mail(f"From: {sender}", "x"))
    assert env.automatic_reason == f"sender is {sender.split('@')[0].lower()}"


def test_multipart_report_is_automatic_even_without_other_signals() -> None:
    raw = (
        "From: mx@example.org\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n'
        "--b\nContent-Type: text/plain\n\nfailed\n--b--\n"
    )
    env = parse_envelope(raw.encode())
    assert env.automatic_reason == "multipart/report"


def test_dsn_bounce_has_null_return_path() -> None:
    env = sample("dsn_bounce.eml")
    assert env.return_path == ""
    assert env.from_address == "mailer-daemon@pr.example.org"


@pytest.mark.parametrize("value", ["no", "No", "no; comment"])
def test_auto_submitted_no_is_a_person(value: str) -> None:
    # RFC 3834 §5.1: "no" means the message was not automatic.
    env = parse_envelope(mail(f"From: a@example.org\nAuto-Submitted: {value}", "pass"))
    assert not env.is_automatic


def test_precedence_first_class_is_a_person() -> None:
    env = parse_envelope(mail("From: a@example.org\nPrecedence: first-class", "pass"))
    assert not env.is_automatic


def test_own_mail_is_recognised_by_header() -> None:
    assert is_own_mail(sample("own_mail_looped.eml"), [])


def test_own_mail_is_recognised_by_address_without_plus_detail() -> None:
    env = parse_envelope(mail("From: Moderator+PR12.s1.abc@PR.example.org", "x"))
    assert is_own_mail(env, ["moderator@pr.example.org"])
    assert not is_own_mail(env, ["other@pr.example.org"])
    assert not is_own_mail(sample("plain.eml"), ["moderator@pr.example.org"])


# --------------------------------------------------------------------------
# safe_header_value


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("hi\r\nBcc: x@example.org", "hi Bcc: x@example.org"),
        ("a\nb\rc", "a b c"),
        ("tab\there", "tab here"),
        ("nul\x00del\x7fnel\x85end", "nul del nel end"),
        ("line\u2028sep\u2029", "line sep"),
        ("evil\u202egnp.exe", "evilgnp.exe"),
        ("  padded \r\n", "padded"),
        ("Grüße · 🎲", "Grüße · 🎲"),
        ("bad\udcff", "bad\ufffd"),
        ("", ""),
    ],
)
def test_safe_header_value_removes_line_breaks_and_controls(raw: str, safe: str) -> None:
    assert safe_header_value(raw) == safe


@given(st.text())
def test_safe_header_value_never_leaves_controls(s: str) -> None:
    out = safe_header_value(s)
    assert not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in out)
    assert "\u2028" not in out and "\u2029" not in out


# --------------------------------------------------------------------------
# Never raises


def test_garbage_yields_an_envelope_with_defects() -> None:
    env = sample("garbage.eml")
    assert env.from_address is None
    assert env.defects


def test_broken_mime_keeps_what_can_be_read() -> None:
    env = sample("broken_mime.eml")
    assert env.from_address == "broken@example.org"
    assert env.text.startswith("role builder")
    assert "invalid base64 in body" in env.defects
    assert "MIME: CloseBoundaryNotFoundDefect" in env.defects


@pytest.mark.parametrize("raw", [b"", b"\n", b"\r\n\r\n", b"\x00" * 50, b"\xff\xfe\x00"])
def test_empty_and_tiny_inputs_do_not_raise(raw: bytes) -> None:
    env = parse_envelope(raw)
    assert env.from_address is None
    assert env.text == "" or isinstance(env.text, str)


def test_deeply_nested_multipart_does_not_raise() -> None:
    depth = 300
    head = "".join(
        f'Content-Type: multipart/mixed; boundary="b{i}"\n\n--b{i}\n' for i in range(depth)
    )
    raw = f"From: a@example.org\n{head}Content-Type: text/plain\n\nrole captain\n".encode()
    env = parse_envelope(raw)
    assert isinstance(env, Envelope)


def test_every_sample_parses() -> None:
    assert len(SAMPLES) >= 20
    for path in SAMPLES:
        env = parse_envelope(path.read_bytes())
        assert isinstance(env, Envelope), path.name


def _check_invariants(env: Envelope) -> None:
    assert isinstance(env, Envelope)
    assert "\r" not in env.body and "\r" not in env.text
    for value in (env.subject, env.from_name, env.automatic_reason or ""):
        assert "\n" not in value and "\r" not in value
    for address in (*env.recipients, *env.reply_to, env.from_address or ""):
        assert address == address.lower()
        assert "\n" not in address
    assert env.is_automatic == (env.automatic_reason is not None)
    order_lines(env.text)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=4000))
def test_arbitrary_bytes_never_raise(raw: bytes) -> None:
    _check_invariants(parse_envelope(raw))


@st.composite
def mutated_samples(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SAMPLES)).read_bytes())
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "splice"]))
        pos = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[pos] = draw(st.integers(0, 255))
        elif kind == "insert":
            chunk = draw(
                st.sampled_from([b"\r\n", b"\n--", b"=?", b"?=", b"<", b">", b"\x00", b"\xff"])
                | st.binary(max_size=16)
            )
            data[pos:pos] = chunk
        elif kind == "delete":
            del data[pos : pos + draw(st.integers(1, 64))]
        elif kind == "truncate":
            del data[pos:]
        else:
            other = draw(st.sampled_from(SAMPLES)).read_bytes()
            start = draw(st.integers(0, len(other)))
            data[pos:pos] = other[start : start + draw(st.integers(0, 400))]
    return bytes(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_samples())
def test_mutated_samples_never_raise(raw: bytes) -> None:
    _check_invariants(parse_envelope(raw))


@given(st.text(max_size=2000))
def test_order_text_and_html_to_text_never_raise(text: str) -> None:
    order_lines(order_text(text))
    html_to_text(text)
