"""Words the table does not know in an order read by what it names (mentions.py): chat
passed over only when it can change nothing, the word classes that may change what
the things named mean (vocabulary ``qualifiers`` and the classes reused with them),
slips of order words, and the words added for such mails ("skip", "don't bother with",
"via", "free colonist", "pile", "lets"). Phrasings are made from the vocabulary table."""

from __future__ import annotations

import pytest
from orderscorpus import load_position

from moderator.engine.actions import (
    Action,
    Build,
    DecisionKind,
    Pass,
    PickRole,
    PlaceColonists,
    Sell,
    TakePlantation,
    TakeQuarry,
    UseHacienda,
)
from moderator.engine.components import Building, Good, Role
from moderator.orders import check_mail
from moderator.orders.mentions import Word, by_mentions, words_of
from moderator.orders.reading import slips_of
from moderator.orders.resolve import decision_of
from moderator.orders.vocabulary import ENGLISH as V
from moderator.orders.vocabulary import qualifying, slip_kind, words

SETTLE = DecisionKind.SETTLE
# An order with chat in it that is read: the things named, and a word the table does
# not know after them.
CHATTY = "the coffee plantation would be lovely"


def _applied(text: str, position: str, seat: int | None = None) -> list[Action]:
    game = load_position(position)
    if seat is None:
        seat = next(s for s in range(len(game.state.players)) if decision_of(game, s) is not None)
    return check_mail(text, game, seat).actions


def _texts(text: str, kind: DecisionKind | None = SETTLE) -> tuple[str, ...] | None:
    found = by_mentions(text, kind)
    return None if found is None else found.texts


def test_chat_that_changes_nothing_is_passed_over() -> None:
    assert _texts(CHATTY) == ("take coffee",)
    assert _texts("Mark me down for captain", DecisionKind.ROLE) == ("role captain",)
    assert _texts("the quarry seems handy") == ("take quarry",)
    # without the chat flag, as the grammar's other callers read: any unknown word ends it
    assert words_of(CHATTY) is None


def _read_by_the_table(phrase: str) -> bool:
    """Whether the table reads ``phrase`` as it is (a word of a term: "for", "never")."""
    return words_of(phrase) is not None and phrase not in V.qualifiers


@pytest.mark.parametrize(
    "phrase", sorted(" ".join(p) for p in qualifying(V) if not _read_by_the_table(" ".join(p)))
)
def test_every_word_that_may_change_the_meaning_ends_the_reading(phrase: str) -> None:
    before = f"{phrase} the coffee plantation, lovely"
    after = f"the coffee plantation {phrase}, lovely"
    assert by_mentions(before, SETTLE) is None, before
    assert by_mentions(after, SETTLE) is None, after


@pytest.mark.parametrize(
    "word", sorted(w for w in V.qualifiers if words_of(w) is not None and " " not in w)
)
def test_a_word_of_the_table_that_may_change_the_meaning_ends_a_chatty_reading(
    word: str,
) -> None:
    text = f"the coffee plantation {word} would be lovely"
    assert by_mentions(text, SETTLE) is None, text


def test_a_word_of_the_table_that_may_change_the_meaning_keeps_it_without_chat() -> None:
    found = by_mentions("the coffee or the sugar", SETTLE)
    assert found is not None and found.named  # asked back, as before
    assert by_mentions("the coffee or the sugar, lovely", SETTLE) is None


@pytest.mark.parametrize(
    "text",
    [
        "my own boat for the corn",  # the wharf, not a ship
        "I would have taken coffee",
        "thinking coffee, lovely",
        "coffee, I don't mind really",
        "I know it's early but coffee",
        "coffee isn't my thing",
        "coffee, as Maria says",  # a name, maybe
        "coffee xq lovely",  # too short to tell
        "coffee is overrated",
        "hacienda, I'll give it a miss",
    ],
)
def test_words_that_may_change_what_is_meant_are_no_chat(text: str) -> None:
    for kind in (SETTLE, DecisionKind.HACIENDA, DecisionKind.LOAD, None):
        assert by_mentions(text, kind) is None, (text, kind)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("bin the corn, lovely", DecisionKind.STORE),
        ("hang onto my sugar", DecisionKind.SELL),
        ("hoard the sugar", DecisionKind.SELL),
        ("corn on the emptier ship", DecisionKind.LOAD),
        ("a lovely coffee", SETTLE),
        ("sugar in the warehouse, bin the tobacco", DecisionKind.STORE),
    ],
)
def test_chat_before_a_thing_may_act_on_it(text: str, kind: DecisionKind) -> None:
    assert by_mentions(text, kind) is None, text


# Order words a slip is read for, and another form of which gives up.
SLIPPED = sorted(
    {
        *(g.label for g in Good),
        *(r.label for r in Role if r is not Role.PROSPECTOR2),
        *(w for b in Building for w in b.label.split() if len(w) >= 6),
        *("settle", "build", "sell", "ship", "take"),
    }
)


ORDER_WORDS = {*words(V), *V.role_verbs}


def _slips(word: str) -> set[str]:
    dropped = {word[:i] + word[i + 1 :] for i in range(len(word))}
    doubled = {word[:i] + word[i] + word[i:] for i in range(len(word))}
    swapped = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
    return (dropped | doubled | swapped) - {word}


@pytest.mark.parametrize("word", SLIPPED)
def test_a_common_slip_of_an_order_word_is_read_as_it(word: str) -> None:
    for slip in _slips(word):
        rivals = [w for w in ORDER_WORDS if w != word and slip_kind(slip, w) not in (None, "added")]
        if len(slip) < 4 or slips_of(slip) != (word,) or rivals:
            continue  # a word of English, or near two order words
        found = words_of(f"{slip} lovely", chat=True)
        assert found is not None and found[0].text == word, slip


@pytest.mark.parametrize("word", SLIPPED)
def test_another_form_of_an_order_word_is_no_chat(word: str) -> None:
    for other in (word + "ing", "un" + word, word + "ed", "re" + word):
        if other in V.role_verbs or words_of(other) is not None or slips_of(other):
            continue  # ("settling" is the table's, "shiping" a slip of "shipping")
        assert words_of(f"coffee {other} lovely", chat=True) is None, other


def test_the_slips_of_the_issue() -> None:
    assert slip_kind("tobbaco", "tobacco") == "moved"
    assert slip_kind("sel", "sell") == "dropped"
    assert slip_kind("shipp", "ship") == "doubled"
    assert slips_of("tobbaco") == ("tobacco",)
    assert slips_of("sel") == ("sell",)
    assert slips_of("lets") == ()  # a word of the table now ("ok lets do craftsman")
    assert _applied("tobbaco pls", "settle") == [TakePlantation(Good.TOBACCO, False)]
    assert _applied("sel sugar", "trade-market") == [Sell(Good.SUGAR)]
    # a letter changed in an order verb may be a word of its own ("built", "kept")
    assert words_of("coffee built lovely", chat=True) is None
    assert words_of("suger lovely", chat=True) == [Word("good", "sugar"), Word("chat", "lovely")]


# -- the words added for such mails ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Skip the hacienda draw",
        "no hacienda draw",
        "Don't bother with the hacienda",
        "decline the hacienda tile",
    ],
)
def test_a_no_to_the_hacienda_draw(text: str) -> None:
    assert _applied(text, "hacienda") == [UseHacienda(False)], text


def test_a_no_to_a_no_is_not_read() -> None:
    # (it had been read as the hacienda: the second no took the first back)
    assert by_mentions("hacienda: no, no", DecisionKind.HACIENDA) is None
    assert by_mentions("no extra, or not", DecisionKind.CRAFTSMAN_EXTRA) is None


def test_a_no_to_the_hacienda_and_a_tile_on_one_line() -> None:
    for text in (
        "Don't bother with the hacienda, I'll take tobacco",
        "The random tile thing - nope. I'll settle tobacco.",
    ):
        assert _applied(text, "hacienda") == [
            UseHacienda(False),
            TakePlantation(Good.TOBACCO, True),
        ], text


@pytest.mark.parametrize("text", ["go ahead with the hacienda tile", "draw from the pile"])
def test_the_tile_and_the_pile_are_the_hacienda_draw(text: str) -> None:
    assert _applied(text, "hacienda") == [UseHacienda(True)], text


@pytest.mark.parametrize("no", ["skip", "decline", "don't bother with"])
def test_a_no_to_the_extra_barrel_and_the_extra_colonist(no: str) -> None:
    assert _applied(f"{no} the extra barrel", "craftsman") == [Pass()]
    applied = _applied(f"{no} the extra colonist, 1 on the hacienda", "mayor-chris", seat=2)
    assert len(applied) == 1 and isinstance(applied[0], PlaceColonists), no
    assert not applied[0].extra


@pytest.mark.parametrize("extra", ["free", "bonus", "privilege", "extra"])
def test_a_free_colonist_is_the_hospice_s_or_the_university_s(extra: str) -> None:
    taken = _applied(f"tobacco, no {extra} colonist", "settle-hospice")
    assert taken == [TakePlantation(Good.TOBACCO, False)]
    built = _applied(f"large market with a {extra} colonist :)", "build-university")
    assert built == [Build(Building.LARGE_MARKET, True)]


def test_via_using_and_lets() -> None:
    assert _applied("quarry via the construction hut", "settle-hut") == [TakeQuarry(False)]
    assert _applied("ok lets do craftsman", "role") == [PickRole(Role.CRAFTSMAN)]
    assert _applied("trading it is", "role") == [PickRole(Role.TRADER)]


@pytest.mark.parametrize(
    ("no", "tile"),
    [
        ("no to the extra plantation", "yes to tobacco"),
        ("no extra tile thanks", "tobacco"),
        ("no thanks", "just the tobacco"),
        ("nope", "tobacco please"),
    ],
)
def test_the_hacienda_declined_in_its_own_words_then_the_tile(no: str, tile: str) -> None:
    """The hacienda's extra plantation said no to ("no extra tile", "no thanks"), then
    the tile after a comma, even when it starts with a yes: the no answered the hacienda."""
    assert _applied(f"{no}, {tile}", "hacienda") == [
        UseHacienda(False),
        TakePlantation(Good.TOBACCO, True),
    ], no


@pytest.mark.parametrize(
    "text", ["nah, don't bother with the hacienda", "no, no hacienda", "No - skip the hacienda"]
)
def test_a_no_said_twice_is_one_no(text: str) -> None:
    assert _applied(text, "hacienda") == [UseHacienda(False)], text


def test_a_no_after_the_hacienda_named_alone_answers_it() -> None:
    # (the hacienda named alone: the no after it answers it, not the tile)
    assert _applied("hacienda: no, corn", "hacienda") == [
        UseHacienda(False),
        TakePlantation(Good.CORN, True),
    ]


def _meant(text: str, position: str, seat: int | None = None) -> list[str]:
    game = load_position(position)
    if seat is None:
        seat = next(s for s in range(len(game.state.players)) if decision_of(game, s) is not None)
    return [a.meaning for a in check_mail(text, game, seat).accepted]


def test_a_time_in_the_reason_given_is_not_the_order_s() -> None:
    text = "I'll take the quarry, seeing as I want the harbor next turn."
    assert _meant(text, "settle") == ["take quarry"]
    assert _meant("take the quarry next turn", "settle") == []


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("nothing, I'm hoarding for the coffee roaster", ["build nothing"]),
        ("nothing, I'm building the coffee roaster", []),  # two answers: asked back
    ],
)
def test_after_a_pass_a_statement_read_only_by_what_it_names_is_its_reason(
    text: str, meant: list[str]
) -> None:
    assert _meant(text, "build-other") == meant


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("no hacienda. Corn again - boring, but it feeds the boats.", ["settle corn"]),
        ("no hacienda. corn, but that's fine", ["settle corn"]),
        ("no hacienda. corn, but it's coffee I want", []),
        ("no hacienda. corn. But only if it's free.", []),
    ],
)
def test_a_contrast_that_starts_a_statement_about_something_else_is_a_remark(
    text: str, meant: list[str]
) -> None:
    assert _meant(text, "hacienda")[1:] == meant


def test_a_correction_of_a_part_of_the_order_mends_that_part() -> None:
    assert _meant("Load coffee onto the 7, no, the 5.", "load", 0) == ["ship coffee on 5"]


def test_an_answer_chosen_then_after_one_that_cannot_be_done_is_done() -> None:
    text = "captain... oh, David's got it. Trader then, I'll sell my one lonely coffee."
    assert _meant(text, "role-late") == ["role trader", "sell coffee"]
    assert _meant("captain. trader", "role-late") == []  # (no "then": which one?)


def test_words_about_another_player_are_a_remark_that_changes_no_order_of_the_writer() -> None:
    game = load_position("load")
    report = check_mail("Corn on the small one, Chris can fill the rest with his.", game, 0)
    assert [a.meaning for a in report.accepted] == ["ship corn on 5"], report.render()
    assert "Taken as remarks" in report.render() and "about Chris" in report.render()


def test_while_i_m_at_it_and_a_lonely_good_are_passed_over() -> None:
    text = "I was going to go builder, nah, trader. And sell the coffee while I'm at it."
    assert _meant(text, "role") == ["role trader", "sell coffee"]
    assert _meant("I'll sell my single indigo", "trade") == ["sell indigo"]


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("Settler? yeah, settler.", ["role settler"]),
        ("Trader or captain? yes, captain", ["role captain"]),
        ("Trader or captain? yes", []),  # (a yes to two: which?)
    ],
)
def test_a_yes_with_an_order_after_the_writer_s_question_is_his_answer(
    text: str, meant: list[str]
) -> None:
    assert _meant(text, "role") == meant


def test_an_order_in_the_first_person_said_to_another_player_is_the_writer_s() -> None:
    game = load_position("hacienda")
    report = check_mail("Chris, once you\u2019re done, I\u2019ll use my hut for a quarry.", game, 3)
    assert [type(q.command).__name__ for q in report.queued] == ["SettleCmd"], report.render()
    # (what he tells the other to do is never read for him)
    for text in ("Chris, take the mayor!", "Chris, I think you should take the mayor"):
        report = check_mail(text, load_position("role"), 1)
        assert report.actions == [] and report.queued == [], report.render()


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("mayor pls, need people on my buildings", ["role mayor"]),
        ("Captain - I'll load the corn", ["role captain", "ship corn on 5"]),
    ],
)
def test_words_after_a_role_without_a_verb_of_an_order_are_a_remark(
    text: str, meant: list[str]
) -> None:
    assert _meant(text, "role") == meant


@pytest.mark.parametrize(
    ("text", "position", "meant"),
    [
        ("white please", "settle", ["settle sugar"]),
        ("the yellow barrels on the 5", "load", ["ship corn on 5"]),
        ("small blue plant", "build", ["build small indigo plant"]),
        ("the brown one", "settle", []),  # tobacco's or coffee's: never a guess
    ],
)
def test_a_good_named_by_the_colour_of_its_barrels(
    text: str, position: str, meant: list[str]
) -> None:
    assert _meant(text, position, 0) == meant


def test_an_answer_read_by_what_it_names_then_said_plainly_is_done() -> None:
    text = "the blue one. indigo. 2 doubloons is better than nothing"
    assert _meant(text, "trade", 1) == ["sell indigo"]


def test_a_stone_is_a_quarry() -> None:
    assert _meant("A stone, obviously. Settler's privilege.", "settle", 0) == ["take quarry"]


def test_wait_no_in_a_line_takes_back_and_a_load_said_again_is_one_load() -> None:
    report = check_mail("corn, wait no, sugar. Sugar on the 5-er.", load_position("load"), 0)
    assert [a.meaning for a in report.accepted] == ["ship sugar on 5"], report.render()
    assert report.queued == [], report.render()
    # (another load is for the next turn of loading)
    report = check_mail("corn on the 5. sugar on the 7", load_position("load"), 0)
    assert [a.meaning for a in report.accepted if a.action] == ["ship corn on 5"]
    assert len(report.queued) == 1, report.render()


def test_wait_no_alone_only_takes_back() -> None:
    game = load_position("settle-hospice")
    report = check_mail(
        "sugar. no hospice thanks, I'm saving... wait no, saving it for what", game, 2
    )
    assert report.actions == [] and report.queued == [], report.render()
    assert _meant("no", "settle-hospice", 2) == ["take nothing"]


def test_a_no_alone_after_a_taking_back_turns_round_a_part_not_the_decision() -> None:
    text = "office, without the university colonist, nothing to sell twice anyway... actually no"
    report = check_mail(text, load_position("build-university"), 0)
    assert report.actions == [], report.render()
    # (the hacienda's own question is a yes or a no)
    assert _meant("hacienda, since it's free. Actually no.", "hacienda", 2) == ["no hacienda"]


@pytest.mark.parametrize(
    "wait", ["let me see what Chris does first", "I'm overthinking, give me a sec"]
)
def test_a_choice_with_more_thought_to_come_is_asked_back(wait: str) -> None:
    report = check_mail(f"sugar or tobacco... {wait}", load_position("trade"), 1)
    assert report.actions == [] and report.queued == [], report.render()


def test_a_remark_with_where_in_it_does_not_stop_a_layout() -> None:
    text = "2 on the roaster, 1 on the uni. that's where the money is"
    assert _meant(text, "mayor", 0) == ["place 2 on coffee roaster, 1 on university"]
