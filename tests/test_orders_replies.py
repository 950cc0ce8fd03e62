"""What a player is told when his order is not done: an order for another decision in
words (what it names is ordered in another phase, what he is asked now, how to order it
ahead), an order already done apart from those not understood, syntax errors without
the grammar's terms. Generated over the corpus positions and the game's own names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import escape
from orderscorpus import POSITIONS, load_position

from moderator.engine.components import Building, Good
from moderator.orders import check_mail, parse_order, target_kind
from moderator.orders.elsewhere import DONE_IN
from moderator.orders.errors import AlreadyDone, OrderError
from moderator.orders.resolve import KIND_NAMES, decision_of
from moderator.render import render, update_mail
from moderator.render.views import NotDone, first_line, reply_view, seat_view
from moderator.service.mails import HeldReply

POSITION_NAMES = sorted(p.stem for p in Path(POSITIONS).glob("*.json"))
# Every thing the game names on its own: goods, buildings, the quarry.
NAMES = (*(g.label for g in Good), *(b.label for b in Building), "quarry")
# The grammar's words for its own workings: never in a reply.
GRAMMAR_SPEAK = re.compile(r"does not fit here|expected |cannot start with|\$END|_SEP")


@pytest.mark.parametrize("position", POSITION_NAMES)
def test_a_name_that_is_no_order_now_says_where_it_is_ordered(position: str) -> None:
    """Each name alone, from every seat: done when it answers the decision asked, else
    an error in words; when it names what another decision orders, the error says which
    phase orders it, what the player is asked now, and whole orders that say it, each
    an order for that other decision."""
    game = load_position(position)
    for seat in range(game.state.n):
        decision = decision_of(game, seat)
        for name in NAMES:
            report = check_mail(name, game, seat)
            for err in report.errors:
                assert not GRAMMAR_SPEAK.search(err.reason), (position, seat, name, err.reason)
                if " phase" not in err.reason or "write it whole" not in err.reason:
                    continue
                asked = (
                    "you have nothing to decide now"
                    if decision is None
                    else f"you are asked now {KIND_NAMES[decision.kind]}"
                )
                assert asked in err.reason, (position, seat, name, err.reason)
                assert any(DONE_IN[k] in err.reason for k in DONE_IN)
                tail = err.reason[err.reason.index("write it whole") :]
                for order in re.findall(r'"([^"]+)"', tail):
                    kind = target_kind(parse_order(order))
                    assert kind is not None and kind in DONE_IN
                    assert decision is None or kind is not decision.kind, (name, order)
                    assert DONE_IN[kind] in err.reason
            assert report.actions == [] or decision is not None


def test_a_quarry_outside_the_settler_phase_is_told_in_words() -> None:
    game = load_position("build")
    (err,) = check_mail("quarry", game, 0).errors
    assert err.reason == (
        '"quarry" is taken in the settler phase; you are asked now what to build. '
        'To order it ahead, write it whole: "take quarry".'
    )


def test_a_line_led_by_and_is_read_without_it_in_the_reply() -> None:
    game = load_position("trade")
    seat = next(s for s in range(game.state.n) if decision_of(game, s) is not None)
    (err,) = check_mail("and a small market", game, seat).errors
    assert err.reason.startswith('"a small market" is built in the builder phase; ')


def test_an_order_already_done_has_its_own_lines_not_among_the_not_understood() -> None:
    game = load_position("settle")
    (action,) = check_mail("settle sugar", game, 0).actions
    game.apply(0, action)
    report = check_mail("settle sugar\nblah", game, 0, done=lambda kind: "settle sugar")
    assert any(isinstance(e, AlreadyDone) for e in report.errors)
    reply = reply_view(report)
    assert [(a.line_no, a.text, a.meaning) for a in reply.already] == [
        (1, "settle sugar", "settle sugar")
    ]
    assert [e.line_no for e in reply.errors] == [2]
    assert first_line(seat_view(game, 0), reply).endswith("(1 line not understood)")
    mail = render(update_mail(game, "PR-1", 0, board=None, reply=report))
    orders = mail.text[mail.text.index("Your orders:") :]
    assert "already done: settle sugar" in orders
    assert "earlier this round: settle sugar; not done again" in orders
    assert orders.count("not understood") == 1  # line 2 only
    assert "already done: <code>settle sugar</code>" in mail.html


def test_the_reply_heads_each_line_by_why_it_was_not_done() -> None:
    game = load_position("build")
    report = check_mail("build market\nfrobnicate\nbuild small market", game, 0)
    headings = [e.heading for e in reply_view(report).errors]
    assert headings == [NotDone.ASKED, NotDone.UNREAD, NotDone.REFUSED]
    mail = render(update_mail(game, "PR-1", 0, board=None, reply=report))
    for heading in headings:
        assert f"{heading.value}: line" in mail.text
        assert f"{heading.value}: line" in mail.html
    assert first_line(seat_view(game, 0), reply_view(report)).endswith(
        "(1 line asked back, 1 not understood, 1 not allowed)"
    )


def test_a_held_reply_keeps_its_headings_and_orders_already_done() -> None:
    game = load_position("settle")
    (action,) = check_mail("settle sugar", game, 0).actions
    game.apply(0, action)
    report = check_mail("settle sugar\nfrobnicate", game, 0, done=lambda kind: "settle sugar")
    reply = reply_view(report)
    held = HeldReply(reply, "anna@example.org", None, (), 1, False, False)
    assert HeldReply.from_dict(held.to_dict()) == held
    # One stored before the headings: its lines are read as not understood.
    old = held.to_dict()
    old["reply"]["errors"] = [e[:5] for e in old["reply"]["errors"]]
    del old["reply"]["already"]
    back = HeldReply.from_dict(old).reply
    assert back.already == () and [e.heading for e in back.errors] == [NotDone.UNREAD]


@pytest.mark.parametrize(
    "text", ["build the big market for 5 doubloons", "role coffee", "settle", "and sugar"]
)
def test_syntax_errors_are_told_without_the_grammars_terms(text: str) -> None:
    with pytest.raises(OrderError) as info:
        parse_order(text)
    assert not GRAMMAR_SPEAK.search(info.value.reason), info.value.reason


def test_player_text_in_orders_already_done_is_escaped_in_html() -> None:
    game = load_position("settle")
    (action,) = check_mail("settle sugar", game, 0).actions
    game.apply(0, action)
    evil = "settle sugar  # <img src=x> &"
    report = check_mail(evil, game, 0, done=lambda kind: "settle sugar")
    assert reply_view(report).already
    mail = render(update_mail(game, "PR-1", 0, board=None, reply=report))
    assert "<img" not in mail.html and str(escape(evil)) in mail.html
