"""Short forms players write on a phone (vocabulary ``abbreviations``): "tob", "lg wh",
"capt", "sj", "w/", "cant". One that stands for one word is a word of the table as that
one is (the grammar's terminals, the meanings, the readings, the guide); one that may
stand for several ("trad") is read as each, as a slip is, and asked back where two make
orders. Signs between orders: "+", "&", an arrow, a slash between blanks. Phrasings are
made from the table on the corpus positions (tests/data/orders/)."""

from __future__ import annotations

import itertools

import pytest
from orderscorpus import load_position

from moderator.engine.actions import Action
from moderator.engine.components import Building
from moderator.orders import AmbiguousOrder, check_mail
from moderator.orders.check import Report
from moderator.orders.commands import BuildCmd
from moderator.orders.mentions import words_of
from moderator.orders.parser import fold, parse_order
from moderator.orders.reading import slips_of
from moderator.orders.resolve import decision_of
from moderator.orders.vocabulary import ENGLISH as V
from moderator.orders.vocabulary import negation, suggestions

ONE = {a: meant[0] for a, meant in V.abbreviations.items() if len(meant) == 1}
SEVERAL = {a: meant for a, meant in V.abbreviations.items() if len(meant) > 1}
# the words of building names, and their abbreviations
BUILDING_SHORT = [(a, w) for a, w in ONE.items() if any(w in b.label.split() for b in Building)]


def _report(position: str, text: str, seat: int | None = None) -> Report:
    game = load_position(position)
    if seat is None:
        seat = next(s for s in range(len(game.state.players)) if decision_of(game, s) is not None)
    return check_mail(text, game, seat)


def _actions(position: str, text: str, seat: int | None = None) -> list[Action]:
    return _report(position, text, seat).actions


# -- the table -------------------------------------------------------------------------


@pytest.mark.parametrize(("short", "meant"), ONE.items())
def test_an_abbreviation_of_one_word_is_a_word_of_the_terms_that_hold_it(
    short: str, meant: str
) -> None:
    holding = {t.name for t in V.terms if meant in t.words}
    also = {t.name for t in V.terms if short in t.words} - holding
    # (and no other term's, but an ignored word's: "its" is one, and "it's" too)
    assert holding <= {t.name for t in V.terms if short in t.words} and also <= {"FILLER"}, short
    for table in (V.goods, V.roles, V.ship_sizes, V.role_verbs, V.heading_words):
        if meant in table:
            assert table[short] == table[meant], short
    # (and the building table's spelling: "lg wh" folds to "large warehouse")
    assert fold(short) == fold(meant)


@pytest.mark.parametrize(("short", "meant"), SEVERAL.items())
def test_an_abbreviation_of_several_words_is_read_as_each(
    short: str, meant: tuple[str, ...]
) -> None:
    assert not any(short in t.words for t in V.terms)
    assert slips_of(short) == meant
    assert words_of(f"the {short}", chat=True) is None  # (never chat)


@pytest.mark.parametrize("short", V.abbreviations)
def test_an_abbreviation_is_no_slip_of_another_word_nor_offered(short: str) -> None:
    assert short not in suggestions()
    if len(short) >= 4 and short.isalpha():
        for i in range(len(short)):
            dropped = short[:i] + short[i + 1 :]
            assert short not in slips_of(dropped), dropped


@pytest.mark.parametrize("building", list(Building))
def test_a_building_is_named_with_its_words_cut_short(building: Building) -> None:
    label = building.label.split()
    for i, word in enumerate(label):
        for short in (a for a, w in BUILDING_SHORT if w == word):
            said = " ".join([*label[:i], short, *label[i + 1 :]])
            assert parse_order(f"build {said}") == BuildCmd("", (building,)), said


# -- read for the decision asked, and echoed -------------------------------------------

# (position, the order written out; its words with abbreviations are cut short)
WRITTEN_OUT = [
    ("role", "role captain"),
    ("role", "settler"),
    ("role", "craftsman"),
    ("role", "builder"),
    ("settle", "tobacco"),
    ("settle", "indigo"),
    ("settle", "coffee, no hospice"),
    ("settle-hut", "quarry with the construction hut"),
    ("hacienda", "hacienda"),
    ("hacienda", "no hacienda"),
    ("build", "large warehouse"),
    ("build", "factory"),
    ("build", "harbor"),
    ("build-other", "small market"),
    ("build-university", "factory without the university colonist"),
    ("trade", "sell tobacco"),
    ("trade", "sugar"),
    ("load-wharf", "wharf indigo"),
    ("store", "sugar in warehouse, 1 tobacco on wind rose", 1),
    ("craftsman", "privilege: sugar"),
    ("mayor-chris", "2 on tobacco storage", 1),
    ("mayor", "extra on university, the 2 in san juan on the coffee roaster"),
]


def _cut_short(text: str) -> list[str]:
    """``text`` with each word that has a one-word abbreviation written as each of them."""
    out: list[str] = []
    for meant in sorted(set(ONE.values()), key=len, reverse=True):
        if f" {meant} " in f" {text} ":
            out += [
                f" {text} ".replace(f" {meant} ", f" {a} ").strip() for a in ONE if ONE[a] == meant
            ]
    return out


@pytest.mark.parametrize("case", WRITTEN_OUT)
def test_an_order_cut_short_does_what_it_does_written_out(case: tuple[str | int, ...]) -> None:
    position, text, *seat = (str(case[0]), str(case[1]), *(int(s) for s in case[2:]))
    meant = _report(position, text, *seat)
    assert meant.actions and not meant.errors, meant.render()
    shorts = _cut_short(text)
    assert shorts, text
    for short in shorts:
        report = _report(position, short, *seat)
        assert report.actions == meant.actions, (short, report.render())
        # the reply says what it was read as, in full words
        echoed = [a.meaning for a in report.accepted]
        assert echoed == [a.meaning for a in meant.accepted], short


@pytest.mark.parametrize(
    ("position", "text", "named"),
    [
        ("build-other", "mkt", ("small market", "large market")),  # both can be built
        ("build", "wh", ("small warehouse", "large warehouse")),
        ("build", "sm", ("small market", "small warehouse")),
        ("build", "ind", ("small indigo plant", "indigo plant")),
        ("build", "fact or harb", ("factory", "harbor")),
        ("settle", "ind or tob", ("indigo", "tobacco")),
    ],
)
def test_an_abbreviation_that_names_two_things_there_is_asked_back(
    position: str, text: str, named: tuple[str, ...]
) -> None:
    report = _report(position, text)
    assert report.actions == [] and report.queued == []
    (error,) = report.errors
    assert isinstance(error, AmbiguousOrder), report.render()
    for name in named:
        assert name in str(error), (name, str(error))


def test_an_abbreviation_of_several_words_gives_the_one_that_makes_an_order() -> None:
    # "stor": a word of the tobacco storage's name, or store
    assert _actions("store", "stor sugar", seat=1) == _actions("store", "keep sugar", seat=1)
    assert _actions("mayor", "2 on tob stor", seat=1) == _actions(
        "mayor", "2 on tobacco storage", seat=1
    )


# -- signs -----------------------------------------------------------------------------


@pytest.mark.parametrize("sign", ["+", "&", "->", "w/"])
def test_a_sign_joins_a_role_to_its_first_step(sign: str) -> None:
    meant = _actions("role", "builder, large warehouse")
    assert len(meant) == 2
    assert _actions("role", f"builder {sign} large warehouse") == meant
    assert _actions("role", f"bldr {sign} lg wh") == meant


def test_a_plus_and_an_ampersand_say_and() -> None:
    for a, b in itertools.combinations(("indigo", "tobacco", "sugar"), 2):
        meant = _actions("mayor-chris", f"{a} and {b}", seat=1)
        for sign in ("+", "&"):
            assert _actions("mayor-chris", f"{a} {sign} {b}", seat=1) == meant
    meant = _actions("hacienda", "use hacienda and sugar with the hospice guy")
    assert _actions("hacienda", "use hac + sug w/ the hosp guy") == meant


def test_an_arrow_before_a_verb_is_a_then() -> None:
    meant = _actions("mayor", "take 2 off sugar, fill tobacco storage and mill", seat=1)
    assert meant
    assert _actions("mayor", "2 off sugar -> fill tob storage + mill", seat=1) == meant
    assert _actions("role", "cap -> ship corn on 5") == _actions("role", "captain, ship corn on 5")


def test_a_slash_between_blanks_is_between_two_orders() -> None:
    meant = _actions("store", "tobacco in warehouse; 1 sugar on wind rose", seat=1)
    assert _actions("store", "tob wh / sugar rose", seat=1) == meant
    # two answers to one decision: asked back, never the first
    report = _report("role", "trader / captain")
    assert report.actions == [] and isinstance(report.errors[0], AmbiguousOrder)
    # a slash between two words is no separator: "sugar/coffee" may say or
    assert _actions("settle", "sugar/coffee") == []


def test_a_place_heading_a_list_is_for_every_good_of_it() -> None:
    """ "warehouse: sugar and tobacco" is "keep sugar and tobacco in the warehouse": with a
    warehouse for one kind, asked back; not one in it and the other on the wind rose."""
    for sign in ("and", "+", "&"):
        report = _report("store", f"warehouse: sugar {sign} tobacco", seat=1)
        assert report.actions == [] and isinstance(report.errors[0], AmbiguousOrder), sign
    said = _actions("store-large", "keep coffee and indigo in the warehouse", seat=3)
    assert _actions("store-large", "lg wh: coffee + ind", seat=3) == said


# -- words without their apostrophe ----------------------------------------------------

NOT = [a for a, meant in ONE.items() if meant.endswith("n't")]


@pytest.mark.parametrize("word", NOT)
def test_a_negation_without_its_apostrophe_is_a_negation(word: str) -> None:
    assert negation().search(f"i {word} take it")
    assert _actions("settle", f"i {word} take the coffee") == []
    assert _actions("settle", f"coffee? i {word} know") == []


def test_words_without_their_apostrophe_read_as_with_it() -> None:
    take = _actions("settle", "take coffee")
    for text in ("im taking coffee", "id like the coffee", "ill take coffee"):
        assert _actions("settle", text) == take, text
    # a hesitation written so is still one: asked back
    report = _report("settle", "corn or sugar, cant decide")
    assert report.actions == [] and isinstance(report.errors[0], AmbiguousOrder)
    assert _actions("craftsman", "sugar or coffee idk") == []
    # a fallback's condition ("if it's still there")
    for said in ("it's", "its"):
        assert _actions("role-late", f"builder if {said} still there, otherwise trader") == (
            _actions("role-late", "trader")
        )


@pytest.mark.parametrize("later", [w for w in V.not_now if any(p in ONE for p in w.split())])
def test_a_time_to_come_cut_short_puts_an_order_off(later: str) -> None:
    """ "tmrw", "nxt rnd": every word of the phrase may be cut short."""
    report = _report("settle", f"coffee {later}")
    assert report.actions == [] and report.queued == [], report.render()


def test_what_an_order_was_read_as_is_said_in_full_words() -> None:
    (error,) = _report("build-other", "harb").errors  # Bob has 5 doubloons
    assert 'read as "build harbor"' in str(error), str(error)
    (error,) = _report("build-other", "lg ind plant or sm mkt").errors
    assert "large indigo plant" in str(error) and "small market" in str(error), str(error)


@pytest.mark.parametrize("unknown", ["whrf", "tbcc", "hrbr", "sgr", "bldg"])
def test_a_word_without_a_vowel_the_table_does_not_know_is_never_chat(unknown: str) -> None:
    """It may be a short form of an order word ("ind on the whf" is no load on a ship):
    the reading by what an order names gives up; the chat of a phone in the table is
    passed over."""
    assert words_of(f"tobacco via the {unknown}", chat=True) is None
    assert words_of("tobacco tbh", chat=True) is not None
