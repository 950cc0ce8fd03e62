"""The mayor's colonists put on places with no count: "them", "the new ones", "my guys"
or no colonist word at all before the places take as many as the board takes there
(commands.Share.loose), never a guess between two layouts; "put it on ..." and a
colonist said in the singular are one. A count before a move's places is shared among
them as a count before a list is. Phrasings made from the vocabulary table on the corpus
positions (tests/data/orders/)."""

from __future__ import annotations

import pytest
from orderscorpus import load_position

from moderator.orders import check_mail
from moderator.orders.commands import MayorCmd, Move, Share
from moderator.orders.errors import AmbiguousOrder, Remark
from moderator.orders.parser import colonist_order, parse_order
from moderator.orders.vocabulary import ENGLISH as V

ANNA, BOB, CHRIS, DAVID = range(4)


def _done(position: str, seat: int, text: str) -> list[str]:
    report = check_mail(text, load_position(position), seat)
    assert not [e for e in report.errors if not isinstance(e, Remark)], report.render()
    return [a.meaning for a in report.accepted]


def _asked(position: str, seat: int, text: str) -> bool:
    report = check_mail(text, load_position(position), seat)
    return not report.accepted and any(isinstance(e, AmbiguousOrder) for e in report.errors)


def test_the_plural_words_are_colonist_words() -> None:
    assert set(V.many_colonists) <= set(V.term("COLONIST").words)
    assert not {"him", "guy", "colonist", "he"} & set(V.many_colonists)


@pytest.mark.parametrize("them", ["", "the new ones ", "my colonists ", "the guys "])
def test_places_with_no_count_take_what_the_board_takes_there(them: str) -> None:
    # (Anna: two in San Juan and the extra; the roaster has two circles, the uni one)
    text = f"{them}to the roaster and the university please".strip()
    assert _done("mayor", ANNA, text) == ["place 2 on coffee roaster, 1 on university"]


@pytest.mark.parametrize("text", ["University and coffee roaster.", "roaster, uni"])
def test_bare_places_take_what_the_board_takes_there(text: str) -> None:
    assert _done("mayor", ANNA, text) == ["place 2 on coffee roaster, 1 on university"]


@pytest.mark.parametrize("verb", [w for w in V.term("PLACE").words if w in ("put", "place")])
def test_them_on_one_place_is_all_of_them(verb: str) -> None:
    # (Bob: two in San Juan, two empty circles in the sugar mill)
    assert _done("mayor", BOB, f"{verb} them on the sugar mill") == ["place 2 on sugar mill"]


@pytest.mark.parametrize("it", ["it", "him", "one guy", "the colonist"])
def test_one_colonist_said_is_one(it: str) -> None:
    # (one on the mill, one left while circles are empty: asked where it goes)
    assert _asked("mayor", BOB, f"put {it} on the sugar mill")


def test_more_places_than_colonists_is_not_done() -> None:
    report = check_mail(
        "the new ones to the indigo, the tobacco and the sugar mill", load_position("mayor"), BOB
    )
    assert not report.accepted


def test_places_said_loose_that_leave_colonists_are_asked_back() -> None:
    # (three colonists, two circles in the roaster: where does the third go?)
    assert _asked("mayor", ANNA, "the new ones go to the roaster")


def test_the_loose_reading_is_a_share() -> None:
    cmd = colonist_order("them to the roaster and the university")
    assert isinstance(cmd, MayorCmd)
    assert [type(p) for p in cmd.placements] == [Share]
    assert all(isinstance(p, Share) and p.loose and p.count is None for p in cmd.placements)
    # (after a verb, no colonist word is one: "put it on ...")
    said = parse_order("put on the roaster and the university")
    assert isinstance(said, MayorCmd)
    assert all(isinstance(p, Move) and p.count == 1 for p in said.placements)


def test_a_count_moved_to_two_places_is_shared() -> None:
    text = "The two from San Juan go on the indigo and the tobacco plantation"
    assert _done("mayor", BOB, text) == ["place 1 on indigo, 1 on tobacco"]
    cmd = parse_order("move 2 from sugar to indigo and tobacco")
    assert isinstance(cmd, MayorCmd)
    assert cmd.removals and isinstance(cmd.placements[0], Share)
