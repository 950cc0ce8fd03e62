"""The mayor's colonists, second pass: the colonists from San Juan named as a group
("the two in San Juan", "my San Juan guys both", "the three new ones:"), the rest of the
board said to stay as it is ("everything else stays where it is", "don't touch anything
else", "same as now, plus ..."), a plantation picked by its place or state ("my empty
tobacco field"), the extra colonist in more words ("the free colonist", "he can wait in
San Juan"); and a colonist order into a warehouse while goods are stored, never kept.
Phrasings made from the vocabulary table on the corpus positions (tests/data/orders/)."""

from __future__ import annotations

import pytest
from orderscorpus import load_position

from moderator.engine.actions import DecisionKind
from moderator.orders import check_mail
from moderator.orders.mentions import by_mentions
from moderator.orders.vocabulary import ENGLISH as V

MAYOR = DecisionKind.MAYOR
ANNA, BOB = 0, 1


def _done(position: str, seat: int, text: str) -> list[str]:
    report = check_mail(text, load_position(position), seat)
    assert report.errors == [] and report.queued == [], report.render()
    return [a.meaning for a in report.accepted]


def _nothing(position: str, seat: int, text: str) -> None:
    report = check_mail(text, load_position(position), seat)
    assert report.actions == [] and report.queued == [], report.render()
    assert report.errors


def _read(text: str) -> tuple[str, ...] | None:
    found = by_mentions(text, MAYOR)
    return None if found is None else found.texts


@pytest.mark.parametrize("san_juan", V.term("SAN_JUAN").words)
@pytest.mark.parametrize(
    "text",
    [
        "the two in {sj} go to the tobacco storage",
        "my {sj} guys both go into the tobacco storage",
        "both {sj} colonists to the tobacco storage",
        "my two in {sj}: one on the tobacco storage, one on the tobacco storage too",
    ],
)
def test_san_juan_named_for_its_colonists(san_juan: str, text: str) -> None:
    said = text.format(sj=san_juan)
    if said.endswith("too"):
        _nothing("mayor", BOB, said)  # a place named twice with its own counts
        return
    assert _done("mayor", BOB, said) == ["place 2 on tobacco storage"]


@pytest.mark.parametrize(
    ("text", "done"),
    [
        ("the three new ones: two on the roaster, one on the university", True),
        ("My 3 colonists: 2 to the roaster, 1 to the university", True),
        ("the four new ones: two on the roaster, one on the university", False),
        ("the two new ones: two on the roaster, one on the university", False),
        ("my two in San Juan. Two on the roaster, one on the university.", False),
    ],
)
def test_a_count_of_the_colonists_before_their_places_must_add_up(text: str, done: bool) -> None:
    if done:
        assert _done("mayor", ANNA, text) == ["place 2 on coffee roaster, 1 on university"]
    else:
        _nothing("mayor", ANNA, text)


@pytest.mark.parametrize("as_is", [*V.unchanged, *(w for w in V.term("AS_IS").words if " " in w)])
def test_the_rest_of_the_board_as_it_is_orders_nothing_more(as_is: str) -> None:
    said = by_mentions(f"both new guys into the sugar mill, everything else stays {as_is}", MAYOR)
    if as_is in ("touch", "touches"):
        said = by_mentions(f"both new guys into the sugar mill, don't {as_is} anything else", MAYOR)
    assert said is not None and said.texts == ("place both on sugar mill",)


@pytest.mark.parametrize(
    "text",
    [
        "Both new guys into the sugar mill, everything else stays where it is.",
        "Put the two newcomers on the sugar mill and don't touch anything else",
        "Same as now, plus the two new guys go into the sugar mill",
        "Leave everything else as it is and put my two new ones in the sugar mill.",
    ],
)
def test_the_rest_unchanged_in_a_mail(text: str) -> None:
    assert _done("mayor", BOB, text) == ["place 2 on sugar mill"]


@pytest.mark.parametrize(
    "text",
    [
        "both to the tobacco storage, don't touch the others",
        "Don't move anyone, the two new guys fill the sugar mill",
        "everything stays where it is",  # no change: circles are empty
    ],
)
def test_what_the_rest_may_mean_is_never_guessed(text: str) -> None:
    _nothing("mayor", BOB, text)


@pytest.mark.parametrize("mark", V.field_marks)
def test_a_plantation_picked_by_its_place_or_state(mark: str) -> None:
    assert _read(f"one on my {mark} tobacco field and one on the indigo") == (
        "place 1 on tobacco field, 1 on indigo",
    )
    assert _read(f"{mark} the tobacco field") is None  # not before a plantation picked


def test_an_empty_field_the_board_has_no_room_on_is_refused() -> None:
    _nothing("mayor", BOB, "one on my empty sugar field, one on the indigo")
    assert _done("mayor", BOB, "one to my empty tobacco field and one to the indigo") == [
        "place 1 on indigo, 1 on tobacco"
    ]


@pytest.mark.parametrize("stay", ["wait", "sit", "stay"])
def test_the_extra_colonist_waits_in_san_juan(stay: str) -> None:
    text = f"The free colonist can {stay} in San Juan; my new one goes to the hacienda."
    assert _done("mayor-chris", 2, text) == ["place 1 on hacienda"]


def test_places_repeated_are_counts() -> None:
    assert _done("mayor", ANNA, "Take the extra colonist; roaster, roaster, university.") == [
        "place 2 on coffee roaster, 1 on university"
    ]
    assert _done("mayor", BOB, "tobacco storage, tobacco storage") == ["place 2 on tobacco storage"]
    _nothing("mayor", BOB, "mill, mill, storage")


@pytest.mark.parametrize(
    "text", ["put both in the warehouse", "Put the guys in the warehouse please"]
)
def test_a_colonist_order_into_the_warehouse_is_no_storage_nor_kept(text: str) -> None:
    _nothing("store", BOB, text)


@pytest.mark.parametrize(
    ("position", "seat", "text", "done"),
    [
        (
            "mayor",
            ANNA,
            "Hi all,\nYes please to the extra colonist.\nIt goes on my empty sugar field.\n"
            "The other two both to the coffee roaster.\nAnna",
            ["place 1 on sugar, 2 on coffee roaster"],
        ),
        (
            "mayor",
            ANNA,
            "I take the bonus colonist. It goes on the university. "
            "My two in San Juan go to the roaster.",
            ["place 2 on coffee roaster, 1 on university"],
        ),
        (
            "mayor",
            BOB,
            "Morning!\nMy two new guys:\none to the indigo,\none to my empty tobacco field.\nBob",
            ["place 1 on indigo, 1 on tobacco"],
        ),
        (
            "mayor",
            ANNA,
            "Take the extra colonist.\nIt goes on the university.\n"
            "The other two to the roaster if Bob builds a hut.",
            None,
        ),
        (
            "mayor",
            ANNA,
            "No to the free colonist.\nIt goes on the university.\nTwo to the roaster.",
            None,
        ),
        (
            "mayor",
            ANNA,
            "Take the extra colonist.\nIt goes on the university.\n"
            "The other three both to the roaster.",
            None,
        ),
    ],
)
def test_a_mail_of_sentences_is_one_colonist_order(
    position: str, seat: int, text: str, done: list[str] | None
) -> None:
    if done is None:
        _nothing(position, seat, text)
    else:
        assert _done(position, seat, text) == done
