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

from moderator.engine.actions import Sell
from moderator.engine.game import Game
from moderator.engine.roles import trader
from moderator.orders import AmbiguousOrder, check_mail
from moderator.orders.reading import actual, unreal
from moderator.orders.vocabulary import ENGLISH, negation


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
        f"I'd {first} if it were cheaper",
        f"I'd {first} if it was cheaper",
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


# -- a role and what the player does with it in one sentence -------------------------


def _role_position() -> tuple[Game, int]:
    game = load_position("role")
    return game, game.deciding()[0]


def test_a_role_and_its_step_joined_by_an_arrow_or_a_bracket_are_both_done() -> None:
    game, seat = _role_position()
    arrows = [w for w in ENGLISH.term("TO").words if not w.isalpha()]
    for text in [f"Settler {a} coffee" for a in arrows] + ["Settler (coffee)"]:
        report = check_mail(text, game, seat)
        assert [a.meaning for a in report.accepted] == ["role settler", "settle coffee"], (
            text,
            report.render(),
        )
    report = check_mail("Craftsman (bonus: sugar)", game, seat)
    assert [a.meaning for a in report.accepted] == ["role craftsman", "extra sugar"]


@pytest.mark.parametrize("joint", [j for j in ENGLISH.step_joints if " " in j])
def test_a_joint_that_names_the_role_ties_its_step(joint: str) -> None:
    game, seat = _role_position()
    for text in (
        f"I should like to select the Settler role and, {joint}, take a quarry",
        f"Settler, and {joint} take a quarry",
    ):
        report = check_mail(text, game, seat)
        assert [a.meaning for a in report.accepted] == ["role settler", "take quarry"], (
            text,
            report.render(),
        )


def test_a_price_said_is_checked_never_another_order() -> None:
    """ "sell coffee for 6": done when the sale gives 6, asked back when it does not;
    with the role, the whole turn is asked back."""
    game = load_position("trade-market")
    seat = game.deciding()[0]
    for action in game.legal_actions(seat):
        if not isinstance(action, Sell):
            continue
        g, paid = action.good.label, trader.price(game.state, seat, action.good)
        for said in (f"for {paid}", f"at {paid}", *(f"for {paid} {w}" for w in _DOUBLOONS)):
            report = check_mail(f"sell {g} {said}", game, seat)
            assert report.actions == [action], (said, report.render())
        for wrong in (paid - 1, paid + 1):
            report = check_mail(f"sell {g} for {wrong}", game, seat)
            assert report.actions == [] and report.queued == [], report.render()
            assert any(isinstance(e, AmbiguousOrder) for e in report.errors), report.render()
    game, seat = _role_position()
    report = check_mail("I'll take the trader role and sell coffee for 2", game, seat)
    assert report.actions == [] and report.queued == [], report.render()
    # (a number word alone after the good is no price: "the coffee one")
    assert check_mail("sell the coffee one", game, seat).queued == []


_DOUBLOONS = ENGLISH.term("DOUBLOON").words


# -- clauses about other players ------------------------------------------------------


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_a_clause_about_another_player_is_his_not_the_writers(position: str) -> None:
    """ "Bob keeps sugar, I keep corn": the writer's own clause is the order, the one
    whose subject is another player is not read (never done for the writer); with a
    word that may make it a condition ("unless", "if"), nothing is done."""
    game, seat, first, second = _two_answers(position)
    other = next(p.name for i, p in enumerate(game.state.players) if i != seat)
    for text in (
        f"{first}, {other} wants {second}",
        f"{first} and {other} will go for {second}",
        f"{other} goes for {second}. {first}",
        f"{other} wants {second}; {first}",
    ):
        meanings, _ = _meanings(text, position)
        if negation().search(second):
            continue  # (a no in his clause may bear on it: "hacienda, Anna wants no hacienda")
        assert meanings == [first], (text, meanings)
    for text in (
        f"{first}, {other} takes {second} unless he changes his mind",
        f"{first}, {other} gets {second} if he likes",
        f"{other} takes {second}",
    ):
        meanings, _ = _meanings(text, position)
        assert meanings == [], (text, meanings)


# -- fallbacks ------------------------------------------------------------------------


def test_a_fallback_whose_condition_is_legality_takes_the_first_that_can_be_done() -> None:
    """ "the trader, or the captain if it's gone": the first role still free; with the
    first taken, the next one."""
    game = load_position("role-late")  # (the builder and the captain are taken)
    seat = game.deciding()[0]
    for free in ("trader", "craftsman"):
        for taken in ("builder", "captain"):
            for text in (
                f"the {taken}, or the {free} if it's gone",
                f"{taken}, or {free} in case it's taken",
                f"{taken}, or the {free} should the {taken} be gone",
                f"If {taken}'s free I'll take it, otherwise {free}",
                f"If the {taken} is still available I will take it, else the {free}",
                f"{taken} or {free}, whichever is still there",
            ):
                report = check_mail(text, game, seat)
                assert [a.meaning for a in report.accepted] == [f"role {free}"], (
                    text,
                    report.render(),
                )
            report = check_mail(f"{free}, or {taken} if it's gone", game, seat)
            assert [a.meaning for a in report.accepted] == [f"role {free}"]


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_a_choice_that_legality_does_not_decide_is_asked_back(position: str) -> None:
    """ "sugar or tobacco, whichever's left" when both are left, or a condition the
    moderator cannot weigh ("if it's cheaper"): which one? Asked back, nothing done."""
    game, seat, first, second = _two_answers(position)
    for text in (
        f"{first} or {second}, whichever is left",
        f"{first} or {second} if it's cheaper",
        f"{first} or {second}, whichever you fancy",
    ):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [], (text, report.render())


def test_a_fallback_is_read_for_the_decision_asked() -> None:
    """An order of the list is read as an answer to the decision asked ("the hacienda"
    while building is the building), and a list of orders that share a number or a
    place is no fallback ("ship sugar on 5 or 7, whichever")."""
    game = load_position("build-other")  # (Anna built the last hacienda)
    seat = game.deciding()[0]
    report = check_mail(
        "If the hacienda is still there I'll take it, otherwise the office", game, seat
    )
    assert [a.meaning for a in report.accepted] == ["build office"], report.render()
    game = load_position("load")
    seat = game.deciding()[0]
    report = check_mail("ship sugar on 5 or 7, whichever", game, seat)
    assert report.actions == [] and report.queued == [], report.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_an_answer_then_one_for_when_it_cannot_be_done(position: str) -> None:
    """ "Corn please. If it's gone, sugar.": the first answer when it can be done, the
    second (said to be for when it cannot) otherwise; a second answer with another
    condition is asked back."""
    game, seat, first, second = _two_answers(position)
    for text in (
        f"{first}. If it's gone, {second}.",
        f"{first}.\nIf that's not possible, {second}",
        *(f"{first}. {w.capitalize()}, {second}." for w in ENGLISH.fallbacks),
        # (a line that starts with one is no taking-back: once "role settler" and
        # "Otherwise, role mayor" had been the mayor)
        *(f"{first}\n{w.capitalize()}, {second}" for w in ENGLISH.fallbacks),
    ):
        meanings, _ = _meanings(text, position)
        assert meanings == [first], (text, meanings)
    report = check_mail(f"{first}. If it's cheaper, {second}.", game, seat)
    assert report.actions == [] and report.queued == [], report.render()


def test_a_fallback_word_orders_the_list_for_every_decision() -> None:
    """ "the harbour, failing that the factory": the first that can be done, also where
    the grammar has no list ("or" alone there is asked back)."""
    game = load_position("build-other")  # (Bob cannot build the harbor)
    seat = game.deciding()[0]
    for w in ENGLISH.fallbacks:
        report = check_mail(f"the harbor, {w} the office", game, seat)
        assert [a.meaning for a in report.accepted] == ["build office"], (w, report.render())
        report = check_mail(f"the office, {w} the hospice", game, seat)
        assert [a.meaning for a in report.accepted] == ["build office"], (w, report.render())


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_a_choice_not_read_is_never_passed_over_for_the_next(position: str) -> None:
    """ "tob, or sugar if tob can't be sold" (a word the moderator cannot read first):
    the preference is the player's, so the choice after it is never made in its
    place; nothing is done, and the reply says a choice was not read."""
    game, seat, first, second = _two_answers(position)
    for text in (
        f"frobnitz, or {second} if frobnitz can't be done",
        f"frobnitz, or {second} if frobnitz cant be done",
        f"frobnitz, failing that {second}",
        f"{first} or frobnitz, whichever is left",
    ):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [], (text, report.render())
        assert "choices is not an order I can read" in report.render(), text
    # ("cant" without its apostrophe says the same as "can't")
    report = check_mail(f"{first}, or {second} if it cant be taken", game, seat)
    assert len(report.actions) == 1 and not report.errors, report.render()


def test_what_would_have_been_is_told_as_no_order() -> None:
    game, seat = _role_position()
    report = check_mail("I'd have taken the trader", game, seat)
    (err,) = report.errors
    assert "what would have been" in err.reason and report.actions == []


def test_a_condition_on_the_whole_list_keeps_it_a_preference_list() -> None:
    """ "sell tobacco or sugar if I'm asleep" says when, not which: the first that can
    be sold (only a condition that speaks of the orders may choose between them)."""
    game = load_position("trade")
    seat = game.deciding()[0]
    report = check_mail("sell tobacco or sugar if I'm asleep", game, seat)
    assert [a.meaning for a in report.accepted] == ["sell tobacco"], report.render()
    report = check_mail("sell tobacco or sugar if it's cheaper", game, seat)
    assert report.actions == [] and report.queued == [], report.render()
