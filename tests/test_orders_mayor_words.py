"""The mayor's colonists written loosely: read by what they name (mentions._mayor), the
board as it is to end (MayorCmd.board) and everyone shared among places (Share with no
count). Phrasings made from the vocabulary table on the corpus positions
(tests/data/orders/), each with the one layout a careful moderator applies, or nothing."""

from __future__ import annotations

import pytest
from orderscorpus import load_position

from moderator.engine.actions import DecisionKind
from moderator.orders import AmbiguousOrder, check_mail
from moderator.orders.check import Report
from moderator.orders.commands import MayorCmd, Move, Share
from moderator.orders.mentions import by_mentions
from moderator.orders.parser import colonist_order, parse_order
from moderator.orders.resolve import readings_of
from moderator.orders.vocabulary import ENGLISH as V

MAYOR = DecisionKind.MAYOR
ANNA_ALL = "remove 1 from corn; place 1 on sugar, 2 on coffee roaster, 1 on university"


def _done(position: str, seat: int, text: str) -> list[str]:
    report = check_mail(text, load_position(position), seat)
    assert report.errors == [], report.render()
    return [a.meaning for a in report.accepted]


def _nothing(position: str, seat: int, text: str) -> Report:
    report = check_mail(text, load_position(position), seat)
    assert report.actions == [] and report.queued == [], report.render()
    assert report.errors
    return report


def _read(text: str) -> tuple[str, ...] | None:
    found = by_mentions(text, MAYOR)
    return None if found is None else found.texts


# -- what the words make, as the moderator's order ------------------------------------


@pytest.mark.parametrize("verb", V.term("REMOVE").words)
def test_every_word_that_takes_off_removes_one_colonist(verb: str) -> None:
    assert _read(f"{verb} the guy off the small market") == ("remove 1 from small market",)


@pytest.mark.parametrize("no", [*V.term("NO").words, *V.term("DONT").words, "skip", "decline"])
@pytest.mark.parametrize("extra", V.term("EXTRA").words)
def test_a_no_to_the_extra_colonist_in_words_declines_it(no: str, extra: str) -> None:
    text = f"{no} the {extra} colonist, roaster 2 uni 1"
    assert _read(text) == ("no extra colonist then place 2 on roaster, 1 on uni",)


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("2 roaster 1 uni", "place 2 on roaster, 1 on uni"),
        ("roaster 2 uni 1", "roaster 2, uni 1"),  # (may be the board as it is to end)
        ("University and sugar mill, one each", "place 1 on university, 1 on sugar mill"),
        ("one on each: sugar, uni", "place 1 on sugar, 1 on uni"),
        ("the hacienda gets a worker", "place 1 on hacienda"),
        ("roaster gets two and sugar one", "place 2 on roaster, 1 on sugar"),
        ("take my corn worker off", "remove 1 from corn"),
        (
            "move one from the market to the university",
            "remove 1 from market then place 1 on university",
        ),
        ("I don't need the extra one", "no extra colonist"),
        ("extra colonist: no", "no extra colonist"),
        (
            "the extra colonist can stay in San Juan",
            "take the extra colonist then place rest in san juan",
        ),
        ("both the indigo and the tobacco", "place both on indigo, tobacco"),
        ("fill up the roaster and the uni", "fill roaster, uni"),
        (
            "the roaster gets 2 and the university gets the last one",
            "place 2 on roaster, 1 on university",
        ),
        ("the uni gets the rest", "place everyone on uni"),
        (
            "the hacienda gets the extra guy, the other one stays in San Juan",
            "take the extra colonist then place 1 on hacienda, 1 stays in san juan",
        ),
        (
            "both on the roaster, the extra one on the uni",
            "take the extra colonist then place 1 on uni, both on roaster",
        ),
    ],
)
def test_the_words_make_the_moderator_s_order(text: str, reading: str) -> None:
    assert _read(text) == (reading,)


@pytest.mark.parametrize(
    "text",
    [
        "don't touch the corn worker, 2 roaster 1 uni",  # a negation on no extra colonist
        "not the roaster, 2 uni",
        "roaster 2 or uni 1",  # a choice
        "roaster 2, uni 1, roaster 1",  # a place named twice
        "2 roaster uni",  # a count without its place
        "roaster 2 1 uni",
        "sell the roaster",  # a verb of another decision
        "roaster, uni",  # places without counts
        "one each",  # a count without places
        "no, yes, the extra colonist",
        "no extra colonist, no extra colonist",
        "the extra colonist on the roaster and no extra",
        "take 2 off the mill and put 1 on the uni",  # two counts of one move
    ],
)
def test_what_the_reading_cannot_tell_it_gives_up(text: str) -> None:
    assert _read(text) is None


def test_the_mayor_s_reading_is_for_the_mayor_phase_only() -> None:
    assert by_mentions("2 roaster 1 uni", DecisionKind.BUILD) is None
    assert by_mentions("2 roaster 1 uni", None) is None
    assert by_mentions("fill up the roaster", DecisionKind.SETTLE) is None


# -- done on the board -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "seat", "text", "meaning"),
    [
        ("mayor", 0, "2 roaster 1 uni", "place 2 on coffee roaster, 1 on university"),
        ("mayor", 0, "uni x1 roaster x2", "place 2 on coffee roaster, 1 on university"),
        ("mayor", 0, "everyone to the roaster and the uni", "place 2 on coffee roaster, 1 on"),
        ("mayor", 0, "the rest on the uni and the roaster", "place 2 on coffee roaster, 1 on"),
        ("mayor", 1, "everybody on indigo and tobacco", "place 1 on indigo, 1 on tobacco"),
        ("mayor", 0, "take my corn worker off\nroaster x2, sugar x1, uni x1", ANNA_ALL),
        ("mayor", 0, "corn 0, sugar 2, sugar mill 2, roaster 2, university 1", ANNA_ALL),
        ("mayor", 0, "sugar mill 3, roaster 2", "place 1 on sugar mill, 2 on coffee roaster"),
        ("mayor", 1, "indigo 1 tobacco 2", "place 1 on indigo, 1 on tobacco"),
        ("mayor-chris", 2, "skip the bonus guy, hacienda gets mine", "no extra colonist; place"),
        ("mayor-chris", 2, "Hacienda. The extra colonist can stay in San Juan.", "place 1 on"),
    ],
)
def test_loose_colonist_orders_are_done_exactly(
    position: str, seat: int, text: str, meaning: str
) -> None:
    (done,) = _done(position, seat, text)
    assert done.startswith(meaning)


def test_everyone_shared_two_ways_is_asked_back_naming_them() -> None:
    report = check_mail(
        "take my sugar worker off, then everyone on the sugar mill and the tobacco storage",
        load_position("mayor"),
        1,
    )
    assert report.actions == []
    (err,) = report.errors
    assert isinstance(err, AmbiguousOrder) and len(err.alternatives) == 2
    assert all("remove 1 from sugar" in a for a in err.alternatives)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("sugar 2, sugar mill 3, roaster 2, university 1", "as the board at the end"),
        ("sugar mill 3, sugar mill 2, roaster 2", "named twice"),
        ("corn 0, roaster 2, uni 1", "would stay in San Juan"),
        ("everyone on the roaster", "only 2 empty circles"),
        ("the uni gets the extra guy, two stay in San Juan", "would stay in San Juan"),
        ("everyone on the roaster, uni, sugar and sugar mill", "fewer than the places named"),
    ],
)
def test_a_board_or_everyone_that_cannot_be_is_refused_saying_why(text: str, why: str) -> None:
    report = _nothing("mayor", 0, text)
    assert why in report.render()


# -- the commands ----------------------------------------------------------------------


def test_counts_after_places_alone_may_be_the_board_as_it_is_to_end() -> None:
    board = colonist_order("corn 1, sugar 0, roaster 2")
    assert isinstance(board, MayorCmd) and board.board
    assert [m.count for m in board.placements if isinstance(m, Move)] == [1, 0, 2]
    no_extra = parse_order("no extra colonist")
    assert isinstance(no_extra, MayorCmd) and no_extra.merged(board).board
    for text in ("place 1 on corn, sugar 2", "2 roaster, 1 uni", "corn -1, roaster 2"):
        said = colonist_order(text)
        assert isinstance(said, MayorCmd) and not said.board, text
    assert colonist_order("1 on corn, sugar 0") is None  # a 0 only in a board


def test_everyone_on_places_is_shared_however_many_there_are() -> None:
    command = parse_order("put everyone on corn and sugar")
    assert isinstance(command, MayorCmd)
    (share,) = command.placements
    assert isinstance(share, Share) and share.count is None
    got = [[m.count for m in way] for way in readings_of(command, 3)]
    assert got == [[1, 1], [1, 2], [2, 1]]
    alone = colonist_order("1 on sugar, the rest on the roaster")
    assert isinstance(alone, MayorCmd) and alone.placements[-1] == Move(
        None, alone.placements[-1].target, rest=True
    )
