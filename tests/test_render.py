"""The mails: golden files per mail type, escaping, 72 columns, and safe MIME messages."""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mailsamples import DEADLINE, KINDS, NOW, SEED, TAG, choose, play_until, sample_mails
from markupsafe import escape

from moderator.engine import Game, Phase
from moderator.engine.components import BUILDINGS, GOODS, Role
from moderator.engine.defaults import default_action
from moderator.engine.events import PhaseEnded, RolePicked, Skipped
from moderator.mail.envelope import OWN_MAIL_HEADER
from moderator.orders import check_mail, format_action, help_guide, parse_order
from moderator.orders.format import legal_orders, mayor_examples
from moderator.render import (
    AddressError,
    Refusal,
    Rendered,
    board_mail,
    build_message,
    events_view,
    game_end_mail,
    game_start_mail,
    help_mail,
    history_mail,
    make_message_id,
    notice_mail,
    public_view,
    refused_mail,
    render,
    undo_mail,
    unknown_sender_mail,
    update_mail,
)
from moderator.render.env import environment, template_root, wrap
from moderator.render.views import (
    MailView,
    Note,
    NoteKind,
    UpdateMail,
    format_deadline,
    own_mayor_examples,
    printable,
)

GOLDEN = Path(__file__).parent / "data" / "golden"
UPDATE = os.environ.get("PR_UPDATE_GOLDEN") == "1"


@pytest.fixture(scope="module")
def rendered() -> dict[str, Rendered]:
    return {kind: render(view) for kind, view in sample_mails().items()}


def test_every_mail_type_has_a_sample() -> None:
    samples = sample_mails()
    assert set(samples) == set(KINDS)
    templates = {p.name.split(".")[0] for p in template_root().glob("*.j2")}
    # The operator's notification (templates/operator.*) is not a player's mail.
    assert {view.kind for view in samples.values()} == templates - {"_macros", "operator"}


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
    """Lines over 72 columns that could have been broken (more than one word; not an
    indented example of the guide's, which keeps its columns)."""
    return [
        line
        for line in text.splitlines()
        if len(line) > 72 and len(line.split()) > 1 and not line.startswith("    ")
    ]


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


def test_the_mayor_decision_shows_the_layout_and_examples_of_his_own_tiles(
    rendered: dict[str, Rendered],
) -> None:
    text = rendered["update_mayor"].text
    assert text.startswith("Your turn: mayor — place colonists\n")
    assert "Your colonists now" in text
    assert "layouts possible" in text
    assert "You may order now" not in text
    view = sample_mails()["update_mayor"]
    assert isinstance(view, UpdateMail) and view.seat.mayor is not None
    own = {t.name for t in view.seat.mayor.tiles}
    for example in view.seat.mayor.examples:
        named = re.findall(r"(?:from|on) ([a-z ]+?)(?:,|$)", example)
        assert set(named) <= own, example  # only his own tiles and buildings


def test_every_mayor_example_is_an_order_the_player_could_send_as_it_is() -> None:
    """The examples in a mayor's mail fit his colonists as well as his tiles: each one
    resolves to one of his legal layouts (a "place 2 on ..." with one colonist in San
    Juan would be refused), and one of them or the default mans a building when he may."""
    examples = cases = manning = 0
    for seed in range(6):
        game = Game.new(("Anna", "Bob", "Chris", "David"), seed)
        while not game.over and game.state.round <= 12:
            if game.state.phase is Phase.MAYOR:
                for seat in game.deciding():
                    for example in mayor_examples(game, seat):
                        report = check_mail(example, game, seat)
                        assert not report.errors, (seed, seat, example, report.errors)
                        assert [a in game.legal_actions(seat) for a in report.actions] == [True]
                        examples += 1
                    p = game.state.players[seat]
                    room = any(n < BUILDINGS[b].circles for b, n in p.buildings.items())
                    if room and p.san_juan:
                        # The default (the deadline line) counts: it is shown too.
                        default = default_action(game, seat)
                        assert default is not None
                        own = " ".join(
                            (*mayor_examples(game, seat), format_action(default, game, seat))
                        )
                        cases += 1
                        manning += any(f" on {b.label}" in own for b in p.buildings)
            seat = game.deciding()[0]
            game.apply(seat, choose(game, seat))
    assert examples > 50 and manning == cases > 10


def test_a_mayor_whose_order_fails_is_shown_the_examples_of_his_own_mail() -> None:
    """The lines an error lists for the mayor's decision give the same examples as his
    mail, written with his own tiles, not the guide's corn and coffee roaster."""
    game = Game.new(("Anna", "Bob", "Chris", "David"), SEED)
    play_until(game, lambda g: g.state.round >= 3 and g.state.phase is Phase.MAYOR)
    seat = game.deciding()[0]
    own = mayor_examples(game, seat)
    assert own
    report = check_mail("place 1 on guild hall", game, seat)
    assert report.errors and report.legal == legal_orders(game, seat)
    syntax = next(line for line in report.legal if line.startswith("Write every removal"))
    assert f'like "{own[0]}"' in syntax and "coffee roaster, 1 on quarry" not in syntax


def test_the_decision_comes_first_and_the_board_after(rendered: dict[str, Rendered]) -> None:
    for kind in ("update_your_turn", "update_not_understood", "update_mayor", "reminder"):
        text = rendered[kind].text
        assert text.startswith("Your turn: ") or text.startswith("Reminder"), kind
        deadline = text.index("No order by ")
        board = text.index("Buildings for sale") if "Buildings for sale" in text else len(text)
        assert deadline < board, kind
    text = rendered["update_your_turn"].text
    assert text.index("You may order now:") < text.index("No order by") < text.index("Round ")
    assert "No order by Tue 14 Apr 2026 18:00 CEST (Europe/Berlin) →" in text


def test_the_first_line_says_what_the_mail_asks(rendered: dict[str, Rendered]) -> None:
    first = {kind: mail.text.partition("\n")[0] for kind, mail in rendered.items()}
    assert first["update_your_turn"] == "Your turn: captain — load goods"
    assert first["update_waiting"].startswith("Waiting for ")
    assert first["update_waiting"].endswith(": builder — build")
    assert first["update_reply"].startswith("Waiting for ")
    assert first["update_ahead"].startswith("Your turn is coming: ")
    assert first["update_not_understood"].endswith("(1 line not understood, 1 not allowed)")
    assert first["game_end"].startswith("Game over: ")
    for kind, line in first.items():
        assert "None" not in line, kind
        assert line, kind


def test_help_is_the_guide_by_paragraph_not_markdown(rendered: dict[str, Rendered]) -> None:
    """The guide in words a mail reader reads: paragraphs filled to the width, example
    orders one per line, no Markdown marks (headings, backticks) and no <pre> block."""
    guide = help_guide()
    mail = rendered["help"]
    assert mail.text.startswith("The guide to the orders.\n")
    for body in (mail.text, mail.html):
        assert "`" not in body and "## " not in body and "<pre" not in body
    lines = mail.text.splitlines()
    assert max(len(line) for line in lines) <= 72
    flowing = " ".join(mail.text.split())
    for section in guide.sections:
        if section.title is not None:
            assert section.title.upper() in lines
            assert f"<h2>{escape(section.title)}</h2>" in mail.html
        for block in section.blocks:
            for example in block.examples:
                assert f"    {example.order}" in lines or any(
                    line.startswith(f"    {example.order}  (") for line in lines
                ), example
                assert f"<code>{escape(example.order)}</code>" in mail.html
            if block.text:  # a paragraph: its words in order, filled, not cut
                words = " ".join(block.text.replace("`", '"').split())
                assert words in flowing, words


def test_help_shows_the_mayor_examples_with_the_readers_own_tiles() -> None:
    game = Game.new(("Anna", "Bob", "Chris", "David"), SEED)
    play_until(game, lambda g: g.state.round >= 4 and g.state.phase is not Phase.MAYOR)
    # Placing colonists now (the sample), and later in the game on "help mayor".
    for mail in (sample_mails()["help"], help_mail(game, TAG, "mayor", 1)):
        text = render(mail).text
        mayor = text.split("\nMAYOR\n", 1)[1]
        own = mayor.split("With your own tiles and buildings, for example:\n\n", 1)[1]
        examples = [line.strip() for line in own.split("\n\n", 1)[0].splitlines()]
        assert examples, text
        for example in examples:
            for order in example.split(";"):
                parse_order(order)  # the syntax of an order
    # In the mayor's decision they are orders he may send now (see the test above); at
    # any other time they name his own tiles and buildings.
    for seat in range(4):
        p = game.state.players[seat]
        names = {g.label for g in GOODS if p.plantations[g]} | {b.label for b in p.buildings}
        for example in own_mayor_examples(game, seat):
            parse_order(example)
            named = re.findall(r"(?:from|on|to) ([a-z ]+?)(?: to |,|$)", example)
            assert named and set(named) <= names, (example, names)


def test_help_on_a_topic_gives_its_sections_or_says_it_found_none() -> None:
    game = Game.new(("Anna", "Bob", "Chris", "David"), SEED)
    ship = render(help_mail(game, TAG, "ship", 0)).text
    assert ship.startswith('The guide to the orders on "ship".')
    assert "CAPTAIN" in ship and "MAYOR" not in ship and "ROLES" not in ship
    odd = render(help_mail(game, TAG, "zeppelin", 0)).text
    assert 'Nothing in the guide mentions "zeppelin". Here is the guide.' in odd
    assert "CAPTAIN" in odd and "ROLES" in odd


def test_every_mail_of_a_round_has_the_same_subject(rendered: dict[str, Rendered]) -> None:
    subjects = {mail.subject for kind, mail in rendered.items() if kind.startswith("update_")}
    for other in ("update_mayor", "update_waiting"):  # other positions
        subjects.discard(rendered[other].subject)
    assert subjects == {"[PR-12] round 4"}


def test_no_mail_names_internal_references(rendered: dict[str, Rendered]) -> None:
    for kind, mail in rendered.items():
        for body in (mail.subject, mail.text, mail.html):
            assert not re.search(r"\bseeds?\b", body, re.IGNORECASE), kind
            assert "None" not in body.replace("none", ""), kind


def test_the_readers_own_row_is_marked(rendered: dict[str, Rendered]) -> None:
    view = sample_mails()["update_your_turn"]
    assert isinstance(view, UpdateMail)
    me = view.seat.name
    text = rendered["update_your_turn"].text
    assert f"\n{me} (you) · " in text
    assert text.count("(you)") == 1
    html = rendered["update_your_turn"].html
    assert html.count('class="player me"') == 1
    assert f"<b><bdi>{me}</bdi></b> (you)" in html


def test_text_and_html_show_the_same_facts(rendered: dict[str, Rendered]) -> None:
    view = sample_mails()["update_your_turn"]
    assert isinstance(view, UpdateMail) and view.board is not None
    mail = rendered["update_your_turn"]
    text = " ".join(mail.text.split())
    html = " ".join(str(escape(mail.html)).split())
    facts = [v for f in view.board.facts for v in f.values]
    facts += [v for p in view.board.players for f in p.facts for v in f.values]
    for value in facts:
        assert value in text, value
        assert str(escape(value)) in mail.html, value
    assert html  # the HTML is escaped consistently
    assert "Trading house" in text


def test_the_board_model_is_plain_data() -> None:
    view = sample_mails()["update_your_turn"]
    assert isinstance(view, UpdateMail) and view.board is not None
    data = json.loads(json.dumps(asdict(view.board)))
    assert data["players"][0]["facts"][0]["label"] == "Goods"
    assert data["facts"][-1]["label"] == "Cargo ships"


def test_a_not_understood_line_is_quoted_with_a_caret(rendered: dict[str, Rendered]) -> None:
    text = rendered["update_not_understood"].text
    assert "> ship banana on 9" in text
    assert re.search(r"^ +\^$", text, re.MULTILINE)
    assert "You may order now:" in text
    assert "Your orders:" in text


def test_the_reply_says_done_kept_and_not_understood(rendered: dict[str, Rendered]) -> None:
    text = rendered["update_reply"].text
    orders = text[text.index("Your orders:") :]
    assert "done: ship" in orders
    assert "kept: sell coffee" in orders


def test_the_refusal_says_what_was_missing(rendered: dict[str, Rendered]) -> None:
    signed = " ".join(rendered["refused_signed"].text.split())
    assert "neither a signed reply address nor a password" in signed
    assert "simply reply to it" in signed
    unsigned = " ".join(rendered["refused_unsigned"].text.split())
    assert "a password that is not this seat's" in unsigned
    assert "simply reply" not in unsigned


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
    public = public_view(game, events)
    seat = 1
    report = check_mail('<img src=x onerror=alert(1)> & "quoted"\nship', game, seat)
    lines = events_view(events, names, game.ship_capacities)
    return [
        board_mail(game, TAG, events),
        update_mail(game, TAG, seat, board=public.board, events=public.events),
        update_mail(game, TAG, seat, board=public.board, reply=report, copied_from=EVIL),
        update_mail(
            game, TAG, 0, board=public.board, notes=[Note(NoteKind.DROPPED, (), (EVIL,), EVIL)]
        ),
        undo_mail(game, TAG, seat, reason=EVIL, by=EVIL),
        game_start_mail(game, TAG, seat, EVIL, reply_to=EVIL),
        game_end_mail(game, TAG, seat, lines),
        unknown_sender_mail(EVIL, [EVIL]),
        refused_mail(game, EVIL, Refusal.NO_CREDENTIALS, had_password=False, signed=True),
        notice_mail(game, TAG, EVIL, [EVIL], seat=seat, with_board=True),
        history_mail(game, TAG, [EVIL, f"  {EVIL}"]),
    ]


def test_player_supplied_text_is_escaped_in_html() -> None:
    for view in evil_mails():
        mail = render(view)
        assert "<script" not in mail.html
        assert "<img" not in mail.html
        assert str(escape(EVIL)) in mail.html, view.kind
        assert EVIL in mail.text, view.kind


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
    raw = message(rendered["update_your_turn"])
    assert b"\r\n" in raw
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    assert msg.get_content_type() == "multipart/alternative"
    parts = list(msg.iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    assert parts[0].get_content_charset() == "utf-8"
    assert parts[0].get_content().replace("\r\n", "\n") == rendered["update_your_turn"].text
    assert parts[1].get_content().replace("\r\n", "\n") == rendered["update_your_turn"].html
    assert msg["Subject"] == rendered["update_your_turn"].subject
    assert b"Subject: [PR-12] round 4\r\n" in raw  # plain ASCII, no encoded word
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
    mail = rendered["update_waiting"]
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
    public = public_view(game, events)
    views: list[MailView] = [
        board_mail(game, TAG, events),
        update_mail(game, TAG, seat, board=public.board, events=public.events, reply=report),
        update_mail(game, TAG, 0, board=public.board, events=public.events),
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


def test_every_mayor_with_a_choice_is_shown_an_example() -> None:
    """A mayor who may lay out his colonists more than one way is shown at least one
    order he could send, even in the first round with no building to man and nobody to
    move (declining the extra colonist is then the other way)."""
    shown = 0
    for seed in range(4):
        game = Game.new(("Anna", "Bob", "Chris", "David"), seed)
        while not game.over and game.state.round <= 6:
            if game.state.phase is Phase.MAYOR:
                for seat in game.deciding():
                    if len(game.legal_actions(seat)) > 1:
                        examples = mayor_examples(game, seat)
                        assert examples, (seed, game.state.round, seat)
                        for example in examples:
                            report = check_mail(example, game, seat)
                            assert not report.errors and report.actions, (seed, example)
                        shown += 1
            seat = game.deciding()[0]
            game.apply(seat, choose(game, seat))
    assert shown > 10


def test_players_with_nothing_to_do_in_a_phase_are_told_in_one_sentence() -> None:
    """A trader phase nobody can sell in reads as one line, not one per player; every
    other event keeps its own sentence and the order of the events is kept."""
    names = ("Anna", "Bob", "Chris", "David")
    events = [
        RolePicked(2, Role.TRADER, 1),
        *(Skipped(s, Role.TRADER) for s in (2, 3, 0)),
        PhaseEnded(Role.TRADER),
        Skipped(1, Role.CAPTAIN),
    ]
    assert events_view(events, names, (5, 6, 7)) == (
        "Chris chooses the trader and takes 1 doubloon.",
        "Chris, David and Anna have nothing to do in the trader phase.",
        "The trader phase ends.",
        "Bob has nothing to do in the captain phase.",
    )
