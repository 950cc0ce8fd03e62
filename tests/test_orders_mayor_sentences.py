"""The mayor's colonists written in sentences: "them", "him", "he" for the colonists,
a remark that the board is full (a remark the rules check: it stops nothing), no change
in words, and a layout left to the moderator (asked back). Phrasings made from the
vocabulary table on the corpus positions (tests/data/orders/)."""

from __future__ import annotations

import pytest
from orderscorpus import load_position

from moderator.orders import check_mail
from moderator.orders.errors import AmbiguousOrder, Question, Remark
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


@pytest.mark.parametrize("as_is", ["where it is", "where they are", "as it is", "as it was"])
def test_everything_stays_as_it_is_then_the_places(as_is: str) -> None:
    assert _done("mayor-chris", DAVID, f"Everything stays {as_is} for me.") == ["mayor: no change"]
    text = f"Everything stays {as_is}. The 3 go: sugar plantation, sugar mill, university."
    assert _done("mayor", ANNA, text) == ["place 1 on sugar, 1 on sugar mill, 1 on university"]


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


@pytest.mark.parametrize("manned", V.manned)
@pytest.mark.parametrize("field", ["indigo plantation", "indigo field", "indigo"])
def test_a_plantation_said_to_be_manned_gets_one(manned: str, field: str) -> None:
    text = f"I want my {field} {manned}, and one more on the tobacco storage."
    assert _done("mayor", BOB, text) == ["place 1 on indigo, 1 on tobacco storage"]


@pytest.mark.parametrize("manned", V.manned)
def test_a_building_of_several_circles_said_to_be_manned_is_not_guessed(manned: str) -> None:
    report = check_mail(f"I want the sugar mill {manned}", load_position("mayor"), BOB)
    assert report.actions == [] and report.queued == []


@pytest.mark.parametrize("verb", ["staff", "man", "fill"])
def test_a_place_manned_with_a_count_gets_that_many(verb: str) -> None:
    text = f"{verb} the roaster with 2 colonists and the university with one"
    assert _done("mayor", ANNA, text) == ["place 2 on coffee roaster, 1 on university"]


@pytest.mark.parametrize("others", ["the two others", "the other two", "the remaining two"])
def test_the_extra_taken_and_put_somewhere_then_the_others(others: str) -> None:
    text = f"I'll take the extra one and put it on the university; {others} go to the roaster."
    assert _done("mayor", ANNA, text) == ["place 2 on coffee roaster, 1 on university"]


@pytest.mark.parametrize(
    ("group", "done"),
    [
        ("the 2 new ones and the extra", True),
        ("both colonists plus the bonus one", True),
        ("my two colonists and the extra one", True),
        ("the 3 new ones and the extra", False),  # (four counted, three placed)
    ],
)
def test_the_extra_counted_with_the_colonists_before_their_places(group: str, done: bool) -> None:
    text = f"{group}: two to the roaster and one to the university"
    report = check_mail(text, load_position("mayor"), ANNA)
    expected = ["place 2 on coffee roaster, 1 on university"] if done else []
    assert [a.meaning for a in report.accepted] == expected, report.render()


@pytest.mark.parametrize(
    ("group", "done"),
    [("The three go", True), ("the 3 new ones", True), ("The four go", False)],
)
def test_a_count_of_the_colonists_before_their_places_without_a_colon(
    group: str, done: bool
) -> None:
    text = f"{group} two to the roaster and one to the university"
    report = check_mail(text, load_position("mayor"), ANNA)
    expected = ["place 2 on coffee roaster, 1 on university"] if done else []
    assert [a.meaning for a in report.accepted] == expected, report.render()


@pytest.mark.parametrize(("total", "done"), [("3 in total", True), ("4 in total", False)])
def test_a_total_after_the_places_must_add_up(total: str, done: bool) -> None:
    text = f"2 on the roaster and 1 on the university, {total}"
    report = check_mail(text, load_position("mayor"), ANNA)
    expected = ["place 2 on coffee roaster, 1 on university"] if done else []
    assert [a.meaning for a in report.accepted] == expected, report.render()


@pytest.mark.parametrize(
    ("total", "done"),
    [
        ("That's 3 to place.", True),
        ("that's three with the extra", True),
        ("So 3 colonists in all.", True),
        ("That's 4 to place.", False),
        ("that's two", False),
    ],
)
def test_a_total_said_in_a_sentence_of_its_own_must_agree(total: str, done: bool) -> None:
    text = f"2 on the roaster and 1 on the university. {total}"
    report = check_mail(text, load_position("mayor"), ANNA)
    expected = ["place 2 on coffee roaster, 1 on university"] if done else []
    assert [a.meaning for a in report.accepted] == expected, report.render()
    assert done or any(isinstance(e, AmbiguousOrder) for e in report.errors)


def test_a_total_that_disagrees_with_an_order_that_cannot_be_done_is_asked() -> None:
    text = "2 on the roaster, 1 on the uni, 1 on the sugar mill, that's 3."
    report = check_mail(text, load_position("mayor"), ANNA)
    assert report.actions == [] and any(isinstance(e, AmbiguousOrder) for e in report.errors)


@pytest.mark.parametrize("keep", [*V.term("KEEP").words[:2], *V.term("STAY").words[:1]])
def test_the_extra_kept_in_san_juan_where_the_board_is_full(keep: str) -> None:
    text = f"{keep} the extra one in San Juan, the hacienda gets my other guy."
    if keep in V.term("STAY").words:
        text = f"the extra one can {keep} in San Juan, the hacienda gets my other guy."
    assert _done("mayor-chris", CHRIS, text) == ["place 1 on hacienda"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'll put the extra guy in the sugar mill and two others in the roaster",
            "place 1 on sugar mill, 2 on coffee roaster",
        ),
        ("no extra and two on the roaster", "no extra colonist; place 2 on coffee roaster"),
    ],
)
def test_the_extra_colonist_and_then_the_others(text: str, expected: str) -> None:
    assert _done("mayor", ANNA, text) == [expected]
