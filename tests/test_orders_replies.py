"""What a player is told when his order is not done: an order for another decision in
words (what it names is ordered in another phase, what he is asked now, how to order it
ahead), an order already done apart from those not understood, syntax errors without
the grammar's terms. Generated over the corpus positions and the game's own names."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markupsafe import escape
from orderscorpus import POSITIONS, load_position

from moderator.engine.actions import DecisionKind
from moderator.engine.components import Building, Good, Role
from moderator.orders import check_mail, format_action, parse_order, target_kind
from moderator.orders.elsewhere import DONE_IN
from moderator.orders.errors import AlreadyDone, OrderError, OrderSyntaxError, Question
from moderator.orders.resolve import KIND_NAMES, decision_of
from moderator.orders.vocabulary import ENGLISH
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


def test_shorthand_for_another_phase_is_told_in_full_words() -> None:
    """ "lg wh" while roles are picked: the reply names the large warehouse and how to
    order it ahead in full words, never in the player's shorthand."""
    game = load_position("role")
    (err,) = check_mail("lg wh", game, 0).errors
    assert err.reason.startswith('"large warehouse" is built in the builder phase; ')
    assert err.reason.endswith('write it whole: "build large warehouse".')


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
    report = check_mail("build warehouse\nfrobnicate\nbuild small market", game, 0)
    headings = [e.heading for e in reply_view(report).errors]
    assert headings == [NotDone.ASKED, NotDone.UNREAD, NotDone.REFUSED]
    mail = render(update_mail(game, "PR-1", 0, board=None, reply=report))
    for heading in headings:
        assert f"{heading.value}: line" in mail.text
        assert f"{heading.value}: line" in mail.html
    assert first_line(seat_view(game, 0), reply_view(report)).endswith(
        "(1 line asked back, 1 not understood, 1 not allowed)"
    )


def test_a_remark_after_an_order_done_is_told_apart_from_lines_not_understood() -> None:
    """ "Quarry please, I'm going to be building a lot": the order is done and the
    remark quoted under its own heading, with no "did you mean" and no warning; the
    first line (the preview) asks nothing more of the player."""
    game = load_position("settle")
    report = check_mail("Quarry please, I'm going to be building a lot.\nfrobnicate", game, 0)
    reply = reply_view(report)
    assert [e.heading for e in reply.errors] == [NotDone.REMARK, NotDone.UNREAD]
    assert reply.errors[0].line == "I'm going to be building a lot."
    assert first_line(seat_view(game, 0), reply).endswith("(1 line not understood)")
    alone = reply_view(check_mail("Quarry please, I'm going to be building a lot.", game, 0))
    assert first_line(seat_view(game, 0), alone) == seat_view(game, 0).asked
    mail = render(update_mail(game, "PR-1", 0, board=None, reply=report))
    assert "taken as a remark: line 1" in mail.text
    assert "did you mean" not in mail.text
    assert "<li>taken as a remark: line 1" in mail.html
    assert '<li class="warn">not understood: line 2' in mail.html


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
    "text", ["build the big market on 5 doubloons", "role coffee", "settle", "and sugar"]
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


# -- questions: asked back naming the orders, never done ----------------------------

# How players ask between two orders (a, b), made of a lead and a join: every pair is
# tried with every form.
LEADS = ("", "Hmm, ", "Should I ", "should I ", "Which is better: ", "What about ")
JOINS = ("{a}? Or {b}?", "{a} or {b}?", "{a}, or {b}?", "{a}? {b}?")


def _asking_positions() -> list[tuple[str, int, list[str]]]:
    """Each corpus position's deciding seats with two or more orders that are one
    order each (no comma in them)."""
    out = []
    for name in POSITION_NAMES:
        game = load_position(name)
        for d in game.decisions():
            if d.forced or d.kind in (DecisionKind.MAYOR, DecisionKind.STORE):
                continue  # colonist and keep orders are lists of their own
            texts = [format_action(a, game, d.seat) for a in d.actions]
            texts = [t for t in texts if "," not in t and ";" not in t]
            if len(texts) >= 2:
                out.append((name, d.seat, texts))
    return out


@pytest.mark.parametrize(("position", "seat", "orders"), _asking_positions())
def test_a_question_between_orders_is_asked_back_naming_them(
    position: str, seat: int, orders: list[str]
) -> None:
    pairs = [*list(itertools.pairwise(orders))[:3], (orders[-1], orders[0])]
    for a, b in pairs:
        for lead in LEADS:
            for join in JOINS:
                text = lead + join.format(a=a, b=b)
                game = load_position(position)
                report = check_mail(text, game, seat)
                assert report.actions == [] and report.queued == [], text
                (err,) = report.errors
                assert isinstance(err, Question), (text, err.reason)
                assert {a, b} <= set(err.alternatives), (text, err.alternatives)
                assert "nothing was done" in err.reason


def test_a_bare_answer_asked_between_is_named_as_the_order() -> None:
    game = load_position("settle")
    for a, b in (("corn", "sugar"), ("quarry", "coffee")):
        (err,) = check_mail(f"{a} or {b}?", game, 0).errors
        assert isinstance(err, Question)
        assert set(err.alternatives) == {
            format_action(x, game, 0)
            for x in game.legal_actions(0)
            if a in format_action(x, game, 0) or b in format_action(x, game, 0)
        } - {"take nothing"}


@pytest.mark.parametrize("position", ["role", "role-late", "trade", "trade-market"])
def test_a_preference_list_written_as_an_order_is_no_question(position: str) -> None:
    """docs/orders.md: "role captain, trader or builder" takes the first one legal."""
    game = load_position(position)
    d = next(d for d in game.decisions() if not d.forced)
    orders = [format_action(a, game, d.seat) for a in d.actions]
    verb = orders[0].split()[0]
    words = [o.split(None, 1)[1] for o in orders if o.startswith(verb + " ")][:3]
    report = check_mail(f"{verb} {', '.join(words[:-1])} or {words[-1]}", game, d.seat)
    assert not report.errors
    assert [format_action(a, game, d.seat) for a in report.actions] == [f"{verb} {words[0]}"]
    single = check_mail(f"{words[0].capitalize()}?", game, d.seat)  # an order, asked so
    assert not any(isinstance(e, Question) for e in single.errors)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(
        st.sampled_from((*NAMES, "can", "I", "afford", "enough", "hmm", "if", "not")),
        min_size=1,
        max_size=6,
    ),
    which=st.sampled_from(POSITION_NAMES),
)
@example(words=["hmm"], which="build")
def test_a_line_not_understood_that_asks_is_answered_as_a_question(
    words: list[str], which: str
) -> None:
    """Whatever it names, a line with a question mark is read as an order, refused
    with the reason, or asked back as a question (naming what it names when it names
    orders), or, when it only hesitates ("hmm?"), answered as not decided: never left
    "not understood"; and nothing of a question is done."""
    game = load_position(which)
    seat = next((d.seat for d in game.decisions() if not d.forced), 0)
    text = " ".join(words) + "?"
    report = check_mail(text, game, seat)
    assert not any(isinstance(e, OrderSyntaxError) for e in report.errors), report.errors
    for err in report.errors:
        if isinstance(err, Question):
            asked = err.reason.startswith(("a question", "not decided"))
            assert asked and "nothing was done" in err.reason
            assert report.actions == [] and report.queued == []


def test_a_question_names_its_orders_once_in_the_reply() -> None:
    game = load_position("role")
    report = check_mail("Trader? Or captain?", game, 0)
    (line,) = reply_view(report).errors
    assert line.heading is NotDone.ASKED and line.alternatives == ()
    assert '"role trader" and "role captain"' in line.reason


# -- a role and its first step with a comma between ---------------------------------


def _role_then_step(position: str) -> list[tuple[str, list[str]]]:
    """For each role the writer may pick in ``position``: "<role>, <bare answer>" for
    every first step of its phase whose bare answer alone is that step, with the
    orders it makes (the role, the step)."""
    game = load_position(position)
    seat = next(d.seat for d in game.decisions() if not d.forced)
    out = []
    for pick in game.legal_actions(seat):
        role_text = format_action(pick, game, seat)
        sim = game.copy()
        sim.apply(seat, pick)
        while (d := decision_of(sim, seat)) is not None and d.forced:
            sim.apply(seat, d.actions[0])
        d = decision_of(sim, seat)
        if d is None or d.kind is DecisionKind.MAYOR:
            continue  # (colonist orders are lists of their own)
        for action in d.actions:
            step = format_action(action, sim, seat)
            verb, _, bare = step.partition(" ")
            if not bare or "," in bare or verb != ENGLISH.context_verbs[d.kind]:
                continue
            if check_mail(bare, sim.copy(), seat).actions != [action]:
                continue  # the bare answer alone is not this step
            out.append((f"{role_text.removeprefix('role ')}, {bare}", [role_text, step]))
    return out


@pytest.mark.parametrize("position", ["role", "role-late"])
def test_a_role_and_its_first_step_after_a_comma_are_both_done(position: str) -> None:
    cases = _role_then_step(position)
    assert cases
    for text, orders in cases:
        game = load_position(position)
        seat = next(d.seat for d in game.decisions() if not d.forced)
        report = check_mail(text, game, seat)
        assert report.errors == [], (text, [e.reason for e in report.errors])
        assert [a.meaning for a in report.accepted] == orders, text


@pytest.mark.parametrize("position", ["role", "role-late"])
def test_two_answers_after_a_comma_are_never_read_as_a_role_and_its_step(position: str) -> None:
    """Two roles, or two answers to one decision, with a comma between: a preference
    list or not understood, never a role with a step of its phase."""
    game = load_position(position)
    seat = next(d.seat for d in game.decisions() if not d.forced)
    roles = [format_action(a, game, seat).removeprefix("role ") for a in game.legal_actions(seat)]
    for a, b in itertools.pairwise(roles):
        report = check_mail(f"{a}, {b}", game, seat)
        assert [x.meaning for x in report.accepted if x.action is not None] == [f"role {a}"]
    for a, b in itertools.pairwise(g.label for g in Good):
        report = check_mail(f"{a}, {b}", load_position(position), seat)
        assert report.actions == []


@pytest.mark.parametrize("position", ["build", "trade", "load"])
def test_a_question_between_roles_asked_ahead_names_the_role_orders(position: str) -> None:
    game = load_position(position)
    seat = next(d.seat for d in game.decisions() if not d.forced)
    roles = [r.label for r in Role if r is not Role.PROSPECTOR2]
    for a, b in itertools.pairwise(roles):
        for join in JOINS:
            (err,) = check_mail(join.format(a=a, b=b), game, seat).errors
            assert isinstance(err, Question)
            assert list(err.alternatives) == [f"role {a}", f"role {b}"]


def test_a_yes_or_no_after_a_question_names_no_order() -> None:
    game = load_position("settle")
    orders = [format_action(a, game, 0) for a in game.legal_actions(0)]
    for order in (o for o in orders if o.startswith("settle ")):
        good = order.removeprefix("settle ")
        for answer in ("yes", "no", "Yes!", "no."):
            report = check_mail(f"{good}? {answer}", game, 0)
            assert report.actions == []
            (err,) = report.errors
            assert isinstance(err, Question) and list(err.alternatives) == [order]


@pytest.mark.parametrize("position", POSITION_NAMES)
def test_the_first_line_says_the_lines_not_done_in_one_parenthesis(position: str) -> None:
    game = load_position(position)
    for seat in range(game.state.n):
        reply = reply_view(check_mail("frobnicate", game, seat))
        line = first_line(seat_view(game, seat), reply)
        assert line.endswith("1 line not understood)") and ") (" not in line, line
