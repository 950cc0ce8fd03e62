"""The mails: golden files per mail type, escaping, 72 columns, and safe MIME messages."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from moderator.engine import Build, Game, Phase, PickRole, Role, Sell, TakePlantation
from moderator.engine.actions import Action, DecisionKind
from moderator.engine.defaults import default_action
from moderator.engine.events import Event
from moderator.mail.envelope import OWN_MAIL_HEADER
from moderator.orders import check_mail
from moderator.render import (
    AddressError,
    Rendered,
    ack_mail,
    board_mail,
    build_message,
    error_mail,
    game_end_mail,
    game_start_mail,
    make_message_id,
    reminder_mail,
    render,
    undo_mail,
    unknown_sender_mail,
    your_turn_mail,
)
from moderator.render.env import environment, wrap
from moderator.render.views import MailView, format_deadline, printable

GOLDEN = Path(__file__).parent / "data" / "golden"
UPDATE = os.environ.get("PR_UPDATE_GOLDEN") == "1"
NAMES = ("Anna", "Bob", "Chris", "David")
SEED = 2026
TAG = "PR-12"
DEADLINE = datetime(2026, 4, 14, 16, 0, tzinfo=UTC)
NOW = datetime(2026, 4, 14, 10, 0, tzinfo=UTC)
ROLE_PREFERENCE = (
    Role.CAPTAIN,
    Role.BUILDER,
    Role.TRADER,
    Role.CRAFTSMAN,
    Role.SETTLER,
    Role.MAYOR,
    Role.PROSPECTOR,
    Role.PROSPECTOR2,
)


def choose(game: Game, seat: int) -> Action:
    """A fixed, simple policy that depends only on the legal actions and the published
    defaults (not on the bots, which may be retuned): roles in a turning order, the
    dearest building, the dearest sale, the first tile, otherwise the default."""
    legal = list(game.legal_actions(seat))
    kind = game.kind()
    if kind is DecisionKind.ROLE:
        picks = [a for a in legal if isinstance(a, PickRole)]
        turn = game.state.round + seat
        return min(picks, key=lambda a: (ROLE_PREFERENCE.index(a.role) - turn) % 8)
    if kind is DecisionKind.BUILD:
        builds = [a for a in legal if isinstance(a, Build)]
        if builds:
            return max(builds, key=lambda a: (a.building.info.price, -int(a.building)))
    if kind is DecisionKind.SELL:
        sales = [a for a in legal if isinstance(a, Sell)]
        if sales:
            return max(sales, key=lambda a: int(a.good))
    if kind is DecisionKind.SETTLE:
        tiles = [a for a in legal if isinstance(a, TakePlantation)]
        if tiles:
            return tiles[0]
    return default_action(game, seat) or legal[0]


def play_until(game: Game, stop: Callable[[Game], bool]) -> list[Event]:
    """Play the policy until ``stop``; returns the events of the last move."""
    events: list[Event] = []
    for _ in range(20_000):
        if game.over or stop(game):
            return events
        seat = game.deciding()[0]
        events = game.apply(seat, choose(game, seat))
    raise AssertionError("the sample game does not end")


def captain_position() -> tuple[Game, list[Event]]:
    game = Game.new(NAMES, SEED)
    events = play_until(
        game,
        lambda g: (
            g.state.round >= 4
            and g.state.phase is Phase.CAPTAIN
            and any(ship.count for ship in g.state.ships)
        ),
    )
    return game, events


def mayor_position() -> Game:
    game = Game.new(NAMES, SEED)
    play_until(game, lambda g: g.state.round >= 3 and g.state.phase is Phase.MAYOR)
    return game


def sample_mails() -> dict[str, MailView]:
    """One view-model per mail type, from fixed seeded positions."""
    mails: dict[str, MailView] = {}
    game, events = captain_position()
    seat = game.deciding()[0]
    other = (seat + 1) % game.state.n
    mails["board"] = board_mail(
        game, TAG, other, events, deadline=DEADLINE, time_zone="America/New_York"
    )
    mails["your_turn"] = your_turn_mail(
        game, TAG, seat, events, deadline=DEADLINE, time_zone="Europe/Berlin"
    )
    bad = check_mail("ship banana on 9\nbuild market\nship 12 corn", game, seat)
    mails["error"] = error_mail(game, TAG, seat, bad, deadline=DEADLINE, time_zone="Asia/Tokyo")
    undo_game = game.copy()
    report = check_mail("ship\nsell coffee\nrole builder", game, seat)
    for action in report.actions:
        game.apply(seat, action)
    mails["ack"] = ack_mail(game, TAG, seat, report, deadline=DEADLINE, time_zone="Europe/Berlin")
    mails["undo"] = undo_mail(
        undo_game,
        TAG,
        seat,
        reason="Chris's mail was read twice after a server restart.",
        by="the moderator",
        undone=events,
        deadline=DEADLINE,
        time_zone="Europe/London",
    )
    mayor = mayor_position()
    mseat = mayor.deciding()[0]
    mails["reminder"] = reminder_mail(
        mayor, TAG, mseat, now=NOW, deadline=DEADLINE, time_zone="Australia/Sydney"
    )
    fresh = Game.new(NAMES, SEED)
    mails["game_start"] = game_start_mail(
        fresh,
        TAG,
        0,
        "tapir-lemon-42",
        reply_to="moderator+pr12.s0.x7k2@example.org",
        deadline=DEADLINE,
        time_zone="Europe/Paris",
    )
    end = Game.new(NAMES, SEED)
    last = play_until(end, lambda g: False)
    mails["game_end"] = game_end_mail(end, TAG, 1, last)
    mails["unknown_sender"] = unknown_sender_mail("moderator@example.org")
    return mails


KINDS = (
    "board",
    "your_turn",
    "ack",
    "error",
    "game_start",
    "game_end",
    "reminder",
    "undo",
    "unknown_sender",
)


@pytest.fixture(scope="module")
def rendered() -> dict[str, Rendered]:
    return {kind: render(view) for kind, view in sample_mails().items()}


def test_every_mail_type_has_a_sample() -> None:
    assert set(sample_mails()) == set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_golden(kind: str, rendered: dict[str, Rendered]) -> None:
    """The mails read as committed in tests/data/golden (PR_UPDATE_GOLDEN=1 rewrites)."""
    mail = rendered[kind]
    for ext, body in (("txt", f"Subject: {mail.subject}\n\n{mail.text}"), ("html", mail.html)):
        path = GOLDEN / f"{kind}.{ext}"
        if UPDATE:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
        assert path.exists(), f"missing {path}: run with PR_UPDATE_GOLDEN=1"
        assert body == path.read_text(encoding="utf-8"), f"{path} differs"


def long_lines(text: str) -> list[str]:
    """Lines over 72 columns that could have been broken (more than one word)."""
    return [line for line in text.splitlines() if len(line) > 72 and len(line.split()) > 1]


@pytest.mark.parametrize("kind", KINDS)
def test_plain_text_fits_72_columns(kind: str, rendered: dict[str, Rendered]) -> None:
    assert long_lines(rendered[kind].text) == []


def test_wrap_keeps_unbreakable_tokens_whole() -> None:
    token = "x" * 90
    assert wrap(f"see {token} here") == f"see\n{token}\nhere"


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(alphabet=st.sampled_from(list("ab -\t\n\x00\u00a0é")), max_size=90),
    width=st.integers(min_value=8, max_value=80),
    indent=st.sampled_from(["", "  ", "  * ", "    "]),
    subsequent=st.sampled_from([None, "", "    "]),
)
def test_wrap_gives_what_textwrap_gives(
    text: str, width: int, indent: str, subsequent: str | None
) -> None:
    # The one-line short cut in wrap() must not change a single character.
    import textwrap

    filled = textwrap.fill(
        text,
        width=width,
        initial_indent=indent,
        subsequent_indent=indent if subsequent is None else subsequent,
        break_long_words=False,
        break_on_hyphens=False,
    ).replace("\x00", " ")
    assert wrap(text, width, indent, subsequent) == filled


def test_the_mayor_decision_shows_syntax_and_layout_not_every_layout(
    rendered: dict[str, Rendered],
) -> None:
    text = rendered["reminder"].text
    assert "remove 1 from corn, 1 from san juan" in text
    assert "San Juan" in text
    assert "layouts are possible" in text
    assert "You may order now" not in text


def test_the_turn_mail_ends_with_orders_default_and_deadline(
    rendered: dict[str, Rendered],
) -> None:
    text = rendered["your_turn"].text
    tail = text[text.index("Your decision") :]
    assert "You may order now:" in tail
    assert "If you send nothing, this default is applied:" in tail
    assert "Deadline: Tue 14 Apr 2026 18:00 CEST (Europe/Berlin)" in tail


def test_error_mail_quotes_the_line_with_a_caret(rendered: dict[str, Rendered]) -> None:
    text = rendered["error"].text
    assert "> ship banana on 9" in text
    assert re.search(r"^ +\^$", text, re.MULTILINE)
    assert "You may order now:" in text


def test_deadline_in_the_seats_time_zone() -> None:
    assert format_deadline(DEADLINE, "America/New_York") == (
        "Tue 14 Apr 2026 12:00 EDT (America/New_York)",
        "America/New_York",
    )
    assert format_deadline(DEADLINE, "Not/AZone") == ("Tue 14 Apr 2026 16:00 UTC", "UTC")


def test_templates_autoescape_html_only() -> None:
    env = environment()
    html = env.from_string("{{ x }}")  # a string template: no escaping, like .txt.j2
    assert html.render(x="<b>") == "<b>"
    assert env.get_template("_macros.html.j2").module is not None
    assert callable(env.autoescape) and env.autoescape("a.html.j2")
    assert not env.autoescape("a.txt.j2")


EVIL = '<script>alert(1)</script> & "Bob"'


def evil_mails() -> list[MailView]:
    names = ("Anna", EVIL, "Chris", "David")
    game = Game.new(names, SEED)
    events = play_until(game, lambda g: g.state.round >= 2 and g.state.phase is Phase.CAPTAIN)
    seat = 1
    report = check_mail('<img src=x onerror=alert(1)> & "quoted"\nship', game, seat)
    return [
        board_mail(game, TAG, seat, events),
        your_turn_mail(game, TAG, seat, events),
        error_mail(game, TAG, seat, report),
        ack_mail(game, TAG, seat, report),
        undo_mail(game, TAG, seat, reason=EVIL, by=EVIL),
        game_start_mail(game, TAG, seat, EVIL, reply_to=EVIL),
        game_end_mail(game, TAG, seat, events),
        unknown_sender_mail(EVIL),
    ]


def test_player_supplied_text_is_escaped_in_html() -> None:
    for view in evil_mails():
        mail = render(view)
        assert "<script" not in mail.html
        assert "<img" not in mail.html
        assert str(escape(EVIL)) in mail.html, view.kind
        assert EVIL in mail.text or view.kind == "error"


def message(rendered: Rendered, **overrides: object) -> bytes:
    args: dict[str, object] = {
        "from_addr": "moderator@example.org",
        "to": ["anna@example.net"],
        "reply_to": "moderator+pr12.s0.x7k2@example.org",
        "message_id": "<abc.123@example.org>",
        "in_reply_to": "<order.1@example.net>",
        "references": ["<start.0@example.org>"],
        "auto_submitted": "auto-replied",
        "instance": "test-instance",
        "date": NOW,
    }
    args.update(overrides)
    return build_message(rendered, **args)  # type: ignore[arg-type]


def test_message_parses_back_as_multipart_alternative(rendered: dict[str, Rendered]) -> None:
    raw = message(rendered["your_turn"])
    assert b"\r\n" in raw
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    assert msg.get_content_type() == "multipart/alternative"
    parts = list(msg.iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    assert parts[0].get_content_charset() == "utf-8"
    assert parts[0].get_content().replace("\r\n", "\n") == rendered["your_turn"].text
    assert parts[1].get_content().replace("\r\n", "\n") == rendered["your_turn"].html
    assert msg["Subject"] == rendered["your_turn"].subject
    assert b"=?utf-8?" in raw.split(b"\r\n\r\n", 1)[0]  # the "·" is RFC 2047 encoded
    assert msg["From"].addresses[0].addr_spec == "moderator@example.org"
    assert msg["To"].addresses[0].addr_spec == "anna@example.net"
    assert msg["Reply-To"].addresses[0].addr_spec == "moderator+pr12.s0.x7k2@example.org"
    assert msg["Message-ID"] == "<abc.123@example.org>"
    assert msg["In-Reply-To"] == "<order.1@example.net>"
    assert msg["References"] == "<start.0@example.org> <order.1@example.net>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg[OWN_MAIL_HEADER] == "test-instance"
    assert msg["MIME-Version"] == "1.0"
    assert parsedate_to_datetime(msg["Date"]) == NOW


INJECTION = "x\r\nBcc: evil@x"


def test_header_injection_is_impossible(rendered: dict[str, Rendered]) -> None:
    mail = rendered["board"]
    bad_subject = Rendered(mail.kind, mail.subject + INJECTION, mail.text, mail.html)
    for raw in (
        message(bad_subject),
        message(mail, from_name="Bob" + INJECTION),
        message(mail, instance=INJECTION),
    ):
        msg = BytesParser(policy=policy.default).parsebytes(raw)
        assert msg["Bcc"] is None
        head = raw.split(b"\r\n\r\n", 1)[0]
        assert not re.search(rb"^bcc:", head, re.IGNORECASE | re.MULTILINE)
    for field, value in (
        ("to", ["anna@example.net" + INJECTION]),
        ("to", ["anna@example.net, evil@x"]),
        ("to", ["Anna <anna@example.net>"]),
        ("to", []),
        ("from_addr", "moderator@example.org\nBcc: evil@x"),
        ("reply_to", "a@b\r\nBcc: evil@x"),
        ("message_id", "<a@b>\r\nBcc: evil@x"),
        ("in_reply_to", "<a@b> <c@d>"),
        ("references", ["<a@b>\nBcc: evil@x"]),
    ):
        with pytest.raises(AddressError):
            message(mail, **{field: value})
    with pytest.raises(ValueError):
        message(mail, auto_submitted="no")


def test_make_message_id_is_unique_and_valid() -> None:
    ids = {make_message_id("example.org") for _ in range(100)}
    assert len(ids) == 100
    assert all(re.fullmatch(r"<[0-9a-f]+\.[0-9a-f]{16}@example\.org>", i) for i in ids)
    with pytest.raises(AddressError):
        make_message_id("example.org>\r\nBcc: x")


def test_printable_keeps_columns_and_drops_controls() -> None:
    assert printable("a\tb\r\nc\u202ed\ud800") == "a b  c d\ufffd"


names_st = st.text(min_size=1, max_size=30).filter(lambda s: s.strip())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=names_st, line=st.text(max_size=80))
def test_arbitrary_names_and_orders_render_safely(name: str, line: str) -> None:
    # Sentinels around the name, so "the raw name appears nowhere" means something even
    # for a name like "<" that any HTML contains.
    name = f"Q{name}Q"
    names = ("Anna", name, "Chris")
    game = Game.new(names, 7)
    events = play_until(game, lambda g: g.state.round >= 2)
    seat = 1
    report = check_mail(line, game, seat)
    views: list[MailView] = [
        board_mail(game, TAG, seat, events),
        error_mail(game, TAG, seat, report),
        ack_mail(game, TAG, seat, report),
        undo_mail(game, TAG, seat, reason=line, by=name),
    ]
    shown = printable(name)
    for view in views:
        mail = render(view)
        assert str(escape(shown)) in mail.html
        if "<" in shown or "&" in shown or '"' in shown:
            # the raw name only appears escaped
            assert shown not in mail.html.replace(str(escape(shown)), "")
        assert shown in mail.text
        raw = message(mail)
        msg = BytesParser(policy=policy.default).parsebytes(raw)
        assert msg.get_content_type() == "multipart/alternative"
        assert msg["Bcc"] is None


@pytest.mark.parametrize("from_name", ["Puerto Rico moderator", 'Mod "the" \\ Boss', "Modérateur"])
def test_the_mime_builder_round_trips_through_the_stdlib_parser(from_name: str) -> None:
    """Non-ASCII subjects and names (RFC 2047), "=" and boundary-like lines in the body
    (quoted-printable), long lines (soft breaks): all read back exactly, no line > 78."""
    text = "Zoë's board — café\n" + "=" * 200 + "\n--==pr_abc\n" + "x" * 300 + "\nend \n.\n"
    rendered = Rendered(
        "board", "[PR-1] Runde 4 · Kapitän · dein Zug " + "ü" * 60, text, f"<p>{text}</p>"
    )
    raw = build_message(
        rendered,
        from_addr="m@example.test",
        to=["a@example.test"],
        reply_to="m+x@example.test",
        message_id="<a@b.example>",
        in_reply_to="<c@d.example>",
        references=["<e@f.example>"] * 8,
        instance="pr",
        from_name=from_name,
    )
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    plain, html = msg.get_body(("plain",)), msg.get_body(("html",))
    assert plain is not None and html is not None
    assert plain.get_content().replace("\r\n", "\n") == text
    assert html.get_content().replace("\r\n", "\n") == f"<p>{text}</p>"
    assert str(msg["Subject"]) == rendered.subject
    assert msg["From"].addresses[0].display_name == from_name
    assert msg["Reply-To"].addresses[0].addr_spec == "m+x@example.test"
    assert str(msg["In-Reply-To"]) == "<c@d.example>"
    lines = raw.split(b"\r\n")
    assert all(len(line) <= 78 for line in lines)
    assert b"\n" not in raw.replace(b"\r\n", b"")
