"""The mayor's colonists written in sentences: "them", "him", "he" for the colonists,
a remark that the board is full (a remark the rules check: it stops nothing), no change
in words, and a layout left to the moderator (asked back). Phrasings made from the
vocabulary table on the corpus positions (tests/data/orders/)."""

from __future__ import annotations

import pytest
from orderscorpus import load_position

from moderator.orders import check_mail
from moderator.orders.errors import Question, Remark
from moderator.orders.mentions import says_full
from moderator.orders.vocabulary import ENGLISH as V

ANNA, BOB, CHRIS, DAVID = range(4)


def _done(position: str, seat: int, text: str) -> list[str]:
    report = check_mail(text, load_position(position), seat)
    assert not [e for e in report.errors if not isinstance(e, Remark)], report.render()
    return [a.meaning for a in report.accepted]


@pytest.mark.parametrize("them", ["them", "they", "the colonists"])
@pytest.mark.parametrize("verb", [w for w in V.term("PLACE").words if w in ("put", "place")])
def test_them_on_two_places_is_one_each(them: str, verb: str) -> None:
    text = f"{verb} {them} on the indigo plantation and the sugar mill"
    if them == "they":
        text = "they go to the indigo plantation and the sugar mill"
    assert _done("mayor", BOB, text) == ["place 1 on indigo, 1 on sugar mill"]


@pytest.mark.parametrize("field", V.term("PLANTATION").words[:2])
def test_a_worker_off_his_field_and_him_on_a_building_is_a_move(field: str) -> None:
    text = (
        f"Take my corn guy off the {field} and put him on the sugar mill. "
        "The new ones: two on the roaster, one on the university."
    )
    assert _done("mayor", ANNA, text) == [
        "remove 1 from corn; place 1 on sugar mill, 2 on coffee roaster, 1 on university"
    ]


@pytest.mark.parametrize("yes", ["Sure", "Yes", "OK", "Yes please"])
def test_a_yes_before_taking_the_extra_is_the_same_answer(yes: str) -> None:
    text = f"Hacienda gets a worker. And {yes}, I'll take the extra guy too, he can wait in SJ."
    text = text.replace("SJ", "San Juan")
    assert _done("mayor-chris", CHRIS, text) == ["place 1 on hacienda"]


def test_a_yes_before_declining_the_extra_is_not_read_as_taking_it() -> None:
    report = check_mail(
        "Hacienda gets a worker. Sure, no thanks to the extra guy, he can wait in San Juan.",
        load_position("mayor-chris"),
        CHRIS,
    )
    assert all("take the extra" not in a.meaning for a in report.accepted)


@pytest.mark.parametrize("full", V.full)
def test_a_remark_that_the_board_is_full_stops_nothing(full: str) -> None:
    remark = f"there's {full} for him" if full.startswith("no") else f"all my stuff is {full}"
    assert says_full(remark)
    text = f"The one from San Juan goes on the hacienda. No extra colonist, {remark}."
    assert _done("mayor-chris", CHRIS, text) == ["no extra colonist; place 1 on hacienda"]


@pytest.mark.parametrize(
    "text",
    [
        "the roaster is full",  # (a place named)
        "not full",
        "no room for 2",
        "full, or not",
        "no room for him if I take the roaster",
        "is it full?",
    ],
)
def test_a_remark_that_names_or_qualifies_something_is_not_a_full_board(text: str) -> None:
    assert not says_full(text)


@pytest.mark.parametrize(
    "text",
    [
        "Nothing to change on my side, all my stuff is full.",
        "nothing to change",
        "Nothing changes for me.",
        "no change, my board is full",
    ],
)
def test_no_change_in_words_where_the_board_is_full(text: str) -> None:
    assert _done("mayor-chris", DAVID, text) == ["mayor: no change"]


def test_no_change_where_circles_are_empty_is_refused_with_the_default() -> None:
    report = check_mail(
        "Nothing to change on my side, all my stuff is full.", load_position("mayor"), ANNA
    )
    assert report.actions == []
    reply = report.render()
    assert "while there is room" in reply and "The default, if you send nothing" in reply


@pytest.mark.parametrize(
    "text",
    [
        "Put them wherever you think is best, I trust you :)",
        "two on the roaster, the last one wherever",
        "place them as you see fit",
        "you know best",
    ],
)
def test_a_layout_left_to_the_moderator_is_asked_back(text: str) -> None:
    report = check_mail(text, load_position("mayor"), ANNA)
    assert report.actions == [] and report.queued == []
    assert any(isinstance(e, Question) for e in report.errors), report.render()
