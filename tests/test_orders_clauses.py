"""Mails of more than one clause, where a human picks out which clause is the order
(issue 11): what would have been and what is done in fact ("I'd have taken corn but
it's gone. Coffee then."), fallbacks whose condition is legality ("the trader, or the
captain if it's gone"), a role and what the player does with it in one sentence
("Settler -> coffee"), and clauses about other players ("Bob keeps sugar, I keep
corn"). A clause about what would have been, about another player or a question is
never applied."""

from __future__ import annotations

import pytest
from orderscorpus import load_position
from test_orders_understanding import ONE_ANSWER, _two_answers

from moderator.orders import check_mail
from moderator.orders.reading import actual, unreal
from moderator.orders.vocabulary import ENGLISH


def _subject(modal: str) -> str:
    return f"I{modal}" if modal.startswith("'") else f"I {modal}"


def _meanings(text: str, position: str) -> tuple[list[str], list[str]]:
    game, seat, _, _ = _two_answers(position)
    report = check_mail(text, game, seat)
    return [a.meaning for a in report.accepted], [e.reason for e in report.errors]


# -- what would have been, then what is done in fact ----------------------------------


def test_the_words_of_what_would_have_been_are_read_so() -> None:
    for u in ENGLISH.unreal:
        assert unreal(f"well {u} the corn"), u
    for m in ENGLISH.modal_perfects:
        for p in ENGLISH.participles:
            assert unreal(f"{_subject(m)} {p} the corn"), (m, p)
    # ("I'd have the coffee" is an order: no participle after it)
    assert not unreal("I'd have the coffee")
    assert not unreal("I would have the trader please")


def test_a_word_of_fact_marks_where_the_order_is() -> None:
    for a in ENGLISH.actuals:
        text = f"{a}, the sugar"
        at = actual(text)
        assert at is not None and text[at[0] : at[1]].strip(" ,") == "the sugar", a
    assert actual("the sugar") is None
    assert actual("then") is None  # no order after it


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_the_order_after_what_would_have_been_is_done(position: str) -> None:
    """What would have been ("I'd have taken X but it's gone", "if I had ..., I'd ...")
    is no order; the order after it with a word that says it is done in fact is."""
    _, _, first, second = _two_answers(position)
    unreals = [
        f"{_subject(m)} {p} {second} but it's gone"
        for m in ENGLISH.modal_perfects
        for p in ("taken", "picked", "wanted")
    ]
    unreals += [f"{u} more money I'd {second}" for u in ("if i had", "had i", "if only i had")]
    unreals += [f"I wanted {second}, sadly"]
    texts: list[str] = []
    for said in unreals:
        texts += [f"{said}. {a} {first}" for a in ENGLISH.actuals]
        texts += [f"{said}.\n{first} {a}." for a in ("then", "instead")]
        texts += [f"{said}; {first} then"]
    for text in texts:
        meanings, errors = _meanings(text, position)
        assert meanings == [first] and errors == [], (text, meanings, errors)


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_what_would_have_been_alone_is_never_done(position: str) -> None:
    """A hypothetical names a legal order, but orders nothing: nothing is done, and an
    order after it that does not say it is done in fact is not done either."""
    _, _, first, second = _two_answers(position)
    texts = [
        f"{_subject(m)} {p} {first}" for m in ENGLISH.modal_perfects for p in ("taken", "gone for")
    ]
    texts += [
        f"If I had the money I'd {first}",
        f"If I had the money, I'd {first}",
        f"I'd {first} if I had the money",
        f"I would {first} if I were you",
        f"If I had more money I'd {first}, I'll {second}",
        f"Had I known, I'd {first}",
    ]
    for text in texts:
        meanings, _ = _meanings(text, position)
        assert first not in meanings, (text, meanings)


@pytest.mark.parametrize(("position", "name"), [("store", "Bob"), ("store-large", "Chris")])
def test_an_order_after_what_would_have_been_that_stands_for_it_is_not_done(
    position: str, name: str
) -> None:
    game = load_position(position)
    seat = game.names.index(name)
    for text in (
        "If I had a bigger warehouse I'd keep everything. Keep it then.",
        "I'd have kept the lot; as it is, keep them",
    ):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [], (text, report.render())
