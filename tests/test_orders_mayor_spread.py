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
from moderator.orders.reading import normalise
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


@pytest.mark.parametrize(
    "remark",
    [
        "I have enough money for what I want to build anyway.",
        "Let's see how that goes!",
        "That's what I'd do anyway.",
    ],
)
def test_a_remark_that_names_nothing_colonists_are_made_of_stops_nothing(remark: str) -> None:
    text = f"2 on the roaster, 1 on the university. {remark}"
    assert _done("mayor", ANNA, text) == ["place 2 on coffee roaster, 1 on university"]


@pytest.mark.parametrize("remark", ["The sugar mill can wait.", "I wanted the sugar mill."])
def test_a_remark_that_names_a_place_or_a_count_still_stops_the_layout(remark: str) -> None:
    report = check_mail(
        f"2 on the roaster, 1 on the university. {remark}", load_position("mayor"), ANNA
    )
    assert not report.accepted


@pytest.mark.parametrize("colonist", ["one", "colonist", "guy"])
def test_an_ordinal_before_a_colonist_is_one(colonist: str) -> None:
    text = f"Two on the coffee roaster and the third {colonist} on the university."
    assert _done("mayor", ANNA, text) == ["place 2 on coffee roaster, 1 on university"]


@pytest.mark.parametrize("goes", [w for w in V.term("MOVE").words if w in ("goes", "moves")])
def test_a_colonist_that_goes_somewhere_is_put_there(goes: str) -> None:
    said = parse_order(f"the new colonist {goes} onto the hacienda", start="colonists")
    assert isinstance(said, MayorCmd)
    assert [(p.count, p.target.text) for p in said.placements if isinstance(p, Move)] == [
        (1, "hacienda")
    ]


def test_a_farm_is_a_plantation_and_a_farmer_a_colonist() -> None:
    assert "farm" in V.term("PLANTATION").words
    assert "farmer" in V.term("COLONIST").words and "farmers" in V.many_colonists
    text = (
        "Take my corn farmer off and put him on the hacienda, the new one goes onto the corn farm."
    )
    assert _done("mayor-chris", CHRIS, text) == ["place 1 on hacienda"]


def test_politeness_before_a_comma_keeps_the_clauses_apart() -> None:
    # (the mayor's colonists are read clause by clause: "too" is dropped, its comma kept)
    said = normalise("I'll take the extra one too, it can wait in San Juan.", clauses=True)
    assert said == "I'll take the extra one    , it can wait in San Juan."
    assert normalise("Everything else stays as it is", clauses=True).endswith("as it is")
    assert "," not in normalise("Settler, please, coffee")[7:]


def test_a_sentence_of_thanks_between_colonist_sentences_is_read_whole() -> None:
    text = "Hacienda gets the new guy. And sure, I'll take the extra too, he can wait in San Juan."
    assert _done("mayor-chris", CHRIS, text) == ["place 1 on hacienda"]


@pytest.mark.parametrize("no", ["no extra", "no extra colonist"])
def test_declining_the_extra_and_placing_one_more_is_asked(no: str) -> None:
    # (Anna: two in San Juan; with the extra three: one too many without it)
    for text in (f"{no}. 2 on roaster, 1 on uni.", f"roaster 2, university, {no}"):
        assert _asked("mayor", ANNA, text), text


def test_a_count_after_its_place_is_that_place_s_alone() -> None:
    cmd = colonist_order("roaster 2, university")
    assert isinstance(cmd, MayorCmd)
    assert [type(p) for p in cmd.placements] == [Move, Share]
    assert cmd.placements[0] == Move(2, cmd.placements[0].target)


def test_nothing_is_no_change_where_the_board_is_full() -> None:
    # (David: one colonist and no empty circle; Chris's hacienda is empty)
    assert _done("mayor-chris", DAVID, "nothing for me, all full.") == ["mayor: no change"]
    report = check_mail("nothing for me", load_position("mayor-chris"), CHRIS)
    assert not report.accepted and "hacienda" in report.render()


@pytest.mark.parametrize(
    ("said", "extra"),
    [
        ("no extra", False),
        ("and skip the extra", False),
        ("and yes to the extra one", True),
        ("and I take the extra", True),
    ],
)
def test_the_extra_answered_after_the_places(said: str, extra: bool) -> None:
    cmd = colonist_order(f"2 roaster, 1 uni, {said}")
    assert isinstance(cmd, MayorCmd) and cmd.extra is extra


def test_mine_are_the_writer_s_colonists() -> None:
    assert "mine" in V.many_colonists
    text = "Mine go on the sugar plantation and the coffee roaster."
    assert _done("mayor-chris", ANNA, text) == ["place 1 on sugar, 1 on coffee roaster"]
