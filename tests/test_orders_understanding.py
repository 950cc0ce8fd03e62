"""Orders as people write them (issue 11, item 1): politeness, bare answers read in the
context of the decision asked, synonyms, several orders on a line, signatures and
one-letter slips; one legal reading is applied and echoed, several are asked back,
none is an error that says what was read."""

from __future__ import annotations

import itertools

import pytest
from engine.positions import blank, build, face_up, ready
from orderscorpus import load_position
from test_orders_resolve import AFTER, mayor_game, pick, seed_000, trader_game

from moderator.engine.actions import (
    Build,
    DecisionKind,
    ExtraGood,
    Load,
    PickRole,
    PlaceColonists,
    Store,
    TakePlantation,
    TakeQuarry,
)
from moderator.engine.components import BUILDINGS, Building, Good, Role
from moderator.engine.game import Game
from moderator.engine.roles import builder
from moderator.orders import AmbiguousOrder, IllegalOrder, QueuedOrder, check_mail
from moderator.orders.check import _choose, parse_text
from moderator.orders.commands import AwayCmd, KeepCmd, KeepItem, SettleCmd, Where
from moderator.orders.errors import Question, Remark
from moderator.orders.format import legal_orders
from moderator.orders.parser import Alternative, Parsed, Segment, parse_mail, segments
from moderator.orders.reading import (
    CLAUSE_CUT,
    MENTIONS_TIER,
    Reading,
    clauses,
    normalise,
    readings,
    slips_of,
)
from moderator.orders.resolve import decision_of
from moderator.orders.vocabulary import ENGLISH

CORN, INDIGO, SUGAR, TOBACCO, COFFEE = Good


def settler_game() -> Game:
    game = blank(4)
    face_up(game.state, CORN, COFFEE, SUGAR, INDIGO, INDIGO)
    game = ready(game)
    pick(game, Role.SETTLER)
    return game


def builder_game() -> Game:
    game = blank(4, doubloons=10)
    game = ready(game)
    pick(game, Role.BUILDER)
    return game


def role_game() -> Game:
    return ready(blank(4))


def done(text: str, game: Game, seat: int = 0) -> list[str]:
    """The meanings of the orders applied now, and nothing rejected."""
    report = check_mail(text, game, seat)
    assert report.errors == [], report.render()
    return [a.meaning for a in report.accepted if a.action is not None]


# -- politeness and synonyms ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I'd like to be the Settler please.",
        "Settler, please.",
        "settler for me",
        "settler pls",
        "I\u2019ll take the settler, thanks!",
        "settler (if still free), otherwise mayor",
    ],
)
def test_politeness_around_a_role_is_not_read(text: str) -> None:
    assert done(text, role_game()) == ["role settler"]


def test_a_ship_is_a_boat_and_barrels_are_counted() -> None:
    assert done("ship my sugar on the 7 boat", seed_000()) == ["ship sugar on 7"]
    assert done("ship 6 barrels of sugar on the 7-ship", seed_000()) == ["ship sugar on 7"]


def test_sell_one_barrel_and_no_more() -> None:
    assert done("Sell 1 coffee", trader_game()) == ["sell coffee"]
    assert done("sell a barrel of coffee", trader_game()) == ["sell coffee"]
    report = check_mail("sell 2 coffee", trader_game(), 0)
    assert report.actions == [] and "one barrel" in report.errors[0].reason


def test_yes_answers_the_hacienda_question() -> None:
    game = blank(4)
    build(game.state, 0, Building.HACIENDA, 1)
    face_up(game.state, CORN, COFFEE, SUGAR, INDIGO, INDIGO)
    game = ready(game)
    pick(game, Role.SETTLER)
    assert done("yes, use the hacienda", game) == ["hacienda"]
    assert done("yes please", game) == ["hacienda"]


# -- bare answers: read for the decision asked ---------------------------------------


def test_a_bare_good_is_the_plantation_in_the_settler_phase() -> None:
    report = check_mail("sugar", settler_game(), 0)
    assert report.actions == [TakePlantation(SUGAR)]
    assert report.accepted[0].meaning == "settle sugar"  # echoed: "understood as"
    assert done("coffee plantation please", settler_game()) == ["settle coffee"]
    assert check_mail("quarry", settler_game(), 0).actions == [TakeQuarry()]


def test_a_bare_building_is_built_in_the_builder_phase() -> None:
    report = check_mail("small market please", builder_game(), 0)
    assert report.actions == [Build(Building.SMALL_MARKET)]


def test_a_bare_answer_for_no_decision_of_its_kind_is_an_error() -> None:
    report = check_mail("sugar", role_game(), 0)
    assert report.actions == [] and len(report.errors) == 1
    assert 'read as "role sugar"' not in report.errors[0].reason  # it does not parse


def test_a_bare_answer_that_is_not_legal_says_how_it_was_read() -> None:
    report = check_mail("tobacco", settler_game(), 0)
    (err,) = report.errors
    assert isinstance(err, IllegalOrder)
    assert err.reason.startswith('read as "take tobacco": there is no tobacco plantation')
    assert err.legal  # and what may be ordered now


def test_bare_placements_in_the_mayor_phase() -> None:
    game = mayor_game()
    report = check_mail("remove 1 from corn\nthen 2 to the coffee roaster, 1 to quarry", game, 0)
    assert report.errors == []
    assert report.actions == [PlaceColonists(AFTER, True)]


# -- several orders on one line ------------------------------------------------------


def test_removals_and_assignments_on_one_line() -> None:
    text = "remove 1 from corn, add 2 to coffee roaster and 1 to the quarry"
    assert [s.text for s in segments(text)] == [
        "remove 1 from corn",
        "add 2 to coffee roaster and 1 to the quarry",
    ]
    report = check_mail(text, mayor_game(), 0)
    assert report.errors == [] and report.actions == [PlaceColonists(AFTER, True)]


def test_sentences_and_verbs_after_and_start_orders() -> None:
    assert clauses("Settle coffee. Sell coffee") == [(0, "Settle coffee."), (15, "Sell coffee")]
    assert clauses("Mayor please, and I'll take the extra colonist") == [
        (0, "Mayor please"),
        (18, "I'll take the extra colonist"),
    ]
    # "and I'd like ..." starts a new request even without a verb of its own.
    text = "Hi! I'll take the settler please, and I'd like the coffee plantation."
    assert [part for _, part in clauses(text)] == [
        "Hi!",
        "I'll take the settler please",
        "I'd like the coffee plantation.",
    ]
    assert done(text, role_game()) == ["role settler", "settle coffee"]
    # Lists of roles, goods and places are one order.
    for text in ("role captain, trader or builder", "keep coffee and sugar", "Captain? no"):
        assert clauses(text) == [(0, text)]


def test_a_role_now_and_an_order_for_later_on_one_line() -> None:
    report = check_mail("I'll take the captain. Ship 6 sugar on 7", role_game(), 0)
    assert report.errors == []
    assert report.actions == [PickRole(Role.CAPTAIN)]
    (kept,) = report.queued
    assert kept.key.kind is DecisionKind.LOAD


# -- slips ---------------------------------------------------------------------------


def test_one_letter_slips_are_read_as_the_word_they_are_close_to() -> None:
    assert slips_of("suger") == ("sugar",)
    assert slips_of("cofee") == ("coffee",)
    assert slips_of("captian") == ("captain",)  # two letters swapped
    assert slips_of("some") == ()  # a common word is never a slip
    assert slips_of("anna") == ()
    assert done("setle cofee", settler_game()) == ["settle coffee"]
    assert done("sell cofee", trader_game()) == ["sell coffee"]
    assert done("captian", role_game()) == ["role captain"]


def test_a_slip_read_for_later_is_kept_as_it_was_read() -> None:
    report = check_mail("bild hut", role_game(), 0)
    (kept,) = report.queued
    assert kept.text == "build hut"
    again = QueuedOrder.from_dict(kept.to_dict())
    assert again.command == kept.command


def read_as(*readings: tuple[str, int, SettleCmd]) -> Parsed:
    """An order with these readings (text, tier, command), best first."""
    seg = Segment(1, "cxrn", 1, "cxrn")
    alternatives = tuple(Alternative(Reading(text, tier), c) for text, tier, c in readings)
    return Parsed(seg, alternatives[0].command, readings[0][0], alternatives)


def test_several_legal_readings_are_asked_back_never_guessed() -> None:
    game = settler_game()
    decision = decision_of(game, 0)
    corn, coffee = ("settle corn", 3, SettleCmd(CORN)), ("settle coffee", 3, SettleCmd(COFFEE))
    with pytest.raises(AmbiguousOrder) as info:
        _choose(read_as(corn, coffee), game, 0, decision)
    assert info.value.alternatives == ("settle corn", "settle coffee")
    # A lower tier with one legal reading wins outright.
    sugar = ("settle sugar", 1, SettleCmd(SUGAR))
    assert _choose(read_as(sugar, corn, coffee), game, 0, decision)[1] == "settle sugar"
    # Readings that are illegal now do not count: the one legal one is taken.
    tobacco = ("settle tobacco", 3, SettleCmd(TOBACCO))
    assert _choose(read_as(tobacco, coffee), game, 0, decision)[1] == "settle coffee"


def test_the_readings_of_an_order_by_tier() -> None:
    assert readings("sugar", DecisionKind.SETTLE) == [Reading("take sugar", 1)]
    # With no decision asked, "sugar" may be for any that takes a good: asked back.
    assert {(r.tier, r.named) for r in readings("sugar", None)} == {(MENTIONS_TIER, True)}
    # "suger" names nothing until corrected: no bare answer of it as written.
    tiers = [r.tier for r in readings("suger", DecisionKind.SELL)]
    assert tiers[:2] == [2, 3] and 1 not in tiers
    assert readings("and then place 1 on corn", None) == [Reading("place 1 on corn", 0)]


def test_an_order_read_otherwise_is_parsed_for_the_decision_asked() -> None:
    (item,) = parse_mail("extra coffe", DecisionKind.CRAFTSMAN_EXTRA)
    assert isinstance(item, Parsed) and item.text == "extra coffee"
    (item,) = parse_mail("coffee", DecisionKind.CRAFTSMAN_EXTRA)
    assert isinstance(item, Parsed) and item.text == "extra coffee"


def test_a_bare_good_is_loaded_in_the_captain_phase() -> None:
    report = check_mail("sugar", seed_000(), 0)
    assert report.actions == [Load(SUGAR, 2)]
    assert report.accepted[0].meaning == "ship sugar on 7"


def test_a_generic_verb_is_read_as_the_decision_s_own() -> None:
    report = check_mail("put my corn on the 6 ship", seed_000(), 0)
    assert report.errors == [] and report.actions == [Load(CORN, 1)]
    # A verb of its own is never exchanged: a removal stays a removal.
    read = readings("remuve 1 from corn", DecisionKind.MAYOR)
    assert Reading("remove 1 from corn", 2) in read
    assert [r for r in read if r.tier > 1] == [Reading("remove 1 from corn", 2)]


def test_a_slip_for_a_later_decision_is_not_made_an_order_for_this_one() -> None:
    """'sell corm' while loading is a sale for later, never 'ship corn' now."""
    report = check_mail("sell corm", seed_000(), 0)
    assert report.actions == [] and report.errors == []
    (kept,) = report.queued
    assert kept.key.kind is DecisionKind.SELL and kept.text == "sell corn"


def test_a_heading_names_the_decision() -> None:
    game = mayor_game()
    for text in ("Colonists: 2 on coffee roaster, 1 on quarry", "colonists - 2 on coffee roaster"):
        assert readings(text, DecisionKind.MAYOR)[-1].text.startswith("place 2 on coffee roaster")
    report = check_mail("remove 1 from corn\nColonists: 2 on coffee roaster, 1 on quarry", game, 0)
    assert report.errors == [] and report.actions == [PlaceColonists(AFTER, True)]
    # A heading that is no order word is not read as one.
    assert readings("Zyx: 2 on coffee roaster", DecisionKind.MAYOR) == [
        Reading("place Zyx: 2 on coffee roaster", 1)
    ]


@pytest.mark.parametrize(
    "text", ["Captain? no - trader", "captain, sorry, I mean trader", "captain. Actually trader"]
)
def test_a_correction_takes_back_what_came_before(text: str) -> None:
    assert done(text, role_game()) == ["role trader"]


def test_no_before_a_word_is_no_correction() -> None:
    """ "no university" declines the university; it never orders one."""
    read = readings("build smal market, no university", DecisionKind.BUILD)
    assert [r.text for r in read] == ["build small market, no university"]
    report = check_mail("captain? no", role_game(), 0)
    assert report.actions == [] and report.errors


@pytest.mark.parametrize("text", ["what is the captain?", "not the captain", "who is the mayor"])
def test_a_question_or_a_refusal_is_no_order(text: str) -> None:
    report = check_mail(text, role_game(), 0)
    assert report.actions == [] and report.queued == [] and report.errors


def test_an_absence_with_a_slip_is_read_as_an_absence() -> None:
    report = check_mail("awya until monday", role_game(), 0)
    assert report.errors == [] and report.absence is not None
    assert report.absence.command == AwayCmd(weekday=0)


def test_a_colonist_order_that_places_too_few_is_asked_back_with_completions() -> None:
    report = check_mail("remove 1 from corn\nplace 1 on quarry", mayor_game(), 0)
    (err,) = report.errors
    assert isinstance(err, AmbiguousOrder) and report.actions == []
    assert err.alternatives == ("place 1 on corn, 1 on coffee roaster", "place 2 on coffee roaster")
    assert "Where do they go?" in err.reason


def test_a_colonist_order_with_one_way_to_fill_the_circles_is_that_way() -> None:
    report = check_mail("place 1 on quarry", mayor_game(), 0)
    assert report.errors == []
    (done_,) = report.accepted
    assert done_.meaning == "place 1 on quarry, 1 on coffee roaster"


def test_take_is_never_read_as_place_for_the_mayor() -> None:
    assert [r.text for r in readings("take corn", DecisionKind.MAYOR)] == []
    assert [r.text for r in readings("take my corn on 6", DecisionKind.LOAD)] == [
        "ship my corn on 6",
        "ship corn on 6",  # by what it names (the last tier)
    ]


def test_a_line_not_understood_stops_the_colonist_order_it_may_belong_to() -> None:
    game = mayor_game()
    text = "Swap the corn worker for the quarry one. New colonists: 2 on coffee roaster"
    report = check_mail(text, game, 0)
    assert report.actions == []
    assert any("read whole" in e.reason for e in report.errors)


def test_a_bare_answer_after_a_role_is_for_that_role_s_decision() -> None:
    report = check_mail("Settler\nquarry", role_game(), 0)
    # One turn: the role and the tile its phase asks of him, both done now.
    assert report.errors == [] and report.queued == []
    assert report.actions == [PickRole(Role.SETTLER), TakeQuarry(False)]
    assert [a.meaning for a in report.accepted] == ["role settler", "take quarry"]


def test_a_bare_word_of_another_order_is_first_an_answer_to_the_decision_asked() -> None:
    """ "hacienda" while building is the building, not the settler's question."""
    report = check_mail("hacienda please", builder_game(), 0)
    assert report.actions == [Build(Building.HACIENDA)] and report.queued == []
    # Written with its verb, it is what it says.
    report = check_mail("use the hacienda", builder_game(), 0)
    assert report.actions == [] and report.queued[0].key.kind is DecisionKind.HACIENDA


def test_an_order_for_a_phase_named_in_it_is_kept_for_that_phase() -> None:
    report = check_mail("sell coffee in the trader phase", role_game(), 0)
    assert report.errors == [] and report.queued[0].key.kind is DecisionKind.SELL


def test_no_change_is_never_completed() -> None:
    report = check_mail("mayor: no change", mayor_game(), 0)
    assert report.actions == [] and report.errors


def test_keep_lines_form_one_keep_order() -> None:
    (command,) = parse_text("Keep sugar in my warehouse. Keep indigo on the wind rose")
    assert command == KeepCmd(
        (KeepItem(SUGAR, where=Where.WAREHOUSE), KeepItem(INDIGO, where=Where.WINDROSE))
    )


def test_a_heading_alone_on_its_line_is_no_order() -> None:
    report = check_mail(
        "Colonists:\nremove 1 from corn\n2 on coffee roaster, 1 on quarry", mayor_game(), 0
    )
    assert report.errors == [] and report.actions == [PlaceColonists(AFTER, True)]
    assert check_mail("Frobs:\nremove 1 from corn", mayor_game(), 0).errors


@pytest.mark.parametrize("text", ["Cheers,", "thanks!", "Thank you.", "- please -"])
def test_politeness_alone_is_never_read_as_a_bare_order(text: str) -> None:
    for kind in DecisionKind:
        assert readings(text, kind) == []
    report = check_mail(f"Captain!\n\n{text}\nAnna", role_game(), 0)
    assert report.actions == [PickRole(Role.CAPTAIN)] and report.queued == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "Craftsman. Later, when someone takes the captain: ship sugar on the 5.",
            DecisionKind.LOAD,
        ),
        ("Craftsman. At the end of the captain phase keep the sugar.", DecisionKind.STORE),
        ("Craftsman. When we trade I'll sell sugar", DecisionKind.SELL),
    ],
)
def test_when_an_order_is_for_goes_without_saying(text: str, kind: DecisionKind) -> None:
    report = check_mail(text, role_game(), 0)
    assert report.errors == [] and report.actions == [PickRole(Role.CRAFTSMAN)]
    assert [q.key.kind for q in report.queued] == [kind]


@pytest.mark.parametrize(
    "text",
    ["I'm taking the settler", "Going with settler", "Give me the settler", "I'll do settler"],
)
def test_more_ways_to_pick_a_role(text: str) -> None:
    assert done(text, role_game()) == ["role settler"]


def test_counts_after_the_place() -> None:
    game = mayor_game()
    report = check_mail("remove 1 from corn\ncoffee roaster x2, quarry 1", game, 0)
    assert report.errors == [] and report.actions == [PlaceColonists(AFTER, True)]


def test_a_line_not_understood_stops_the_keep_order_it_may_belong_to() -> None:
    game = load_position("store-large")
    seat = game.decisions()[0].seat
    assert check_mail("wind rose: sugar", game, seat).actions  # alone, it is done
    report = check_mail("grand warehouse: corn\nwind rose: sugar", game, seat)
    assert report.actions == [] and any("read whole" in e.reason for e in report.errors)


@pytest.mark.parametrize(
    ("position", "seat", "text", "meaning"),
    [
        (
            "mayor",
            1,
            "Anna, that ship was tiny, you could have waited a round. "
            "Anyway: sugar mill and tobacco storage, one each.",
            "place 1 on sugar mill, 1 on tobacco storage",
        ),
        ("store", 0, "the corn, I want to fill the little boat next round", "keep 1 corn on"),
        (
            "store",
            0,
            "Corn on the rose. That ship was tiny, you could have waited a round.",
            "keep 1 corn",
        ),
    ],
)
def test_chat_that_names_nothing_of_an_order_read_whole_does_not_stop_it(
    position: str, seat: int, text: str, meaning: str
) -> None:
    report = check_mail(text, load_position(position), seat)
    (done_,) = report.accepted
    assert done_.meaning is not None and done_.meaning.startswith(meaning), report.render()
    assert any(isinstance(e, Remark) for e in report.errors)


@pytest.mark.parametrize(
    ("position", "seat", "text"),
    [
        # a verb, a no, a place, a count, a size with its name, "it", a hesitation
        ("mayor", 1, "Sugar mill and tobacco storage, one each. Then move the sugar guy."),
        ("mayor", 1, "Sugar mill and tobacco storage, one each. Scratch the mill, dunno."),
        ("mayor", 1, "Sugar mill and tobacco storage, one each. Leave that ship alone."),
        ("mayor", 1, "Sugar mill and tobacco storage, one each. Sugar mill was a mistake."),
        ("mayor", 1, "Sugar mill and tobacco storage, one each. Not that, wait."),
        ("store", 0, "Corn on the rose. Dump everything else whatever."),
        ("store", 0, "Corn on the rose. Unless that boat waits, then the sugar."),
        ("store", 0, "Corn on the rose. Hm, maybe better to throw it out."),
    ],
)
def test_a_part_not_understood_that_may_turn_an_order_read_whole_still_stops_it(
    position: str, seat: int, text: str
) -> None:
    report = check_mail(text, load_position(position), seat)
    assert report.actions == [], report.render()


@pytest.mark.parametrize(
    "text", ["OK, I'll be settler this time.", "Hmm, settler card please", "Settler, obviously."]
)
def test_a_word_that_starts_the_reply_is_not_the_order(text: str) -> None:
    assert done(text, role_game()) == ["role settler"]


def test_one_tile_and_no_more() -> None:
    assert done("One quarry for me please", settler_game()) == ["take quarry"]
    assert check_mail("take 2 quarries", settler_game(), 0).actions == []


# -- what a bare answer needs: a word that names something ---------------------------

POSITIONS = ("role", "settle", "mayor", "build", "craftsman", "trade", "load", "store")


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("sign", ["-- A", "- B.", "A", "~ C", "-- one", "an"])
def test_a_letter_or_an_article_alone_is_never_an_order(position: str, sign: str) -> None:
    """A sign-off of one letter or an article names nothing: it is never read
    as a bare answer to the decision asked (once "-- A" under a role became "ship coffee
    on 5")."""
    game = load_position(position)
    seat = game.deciding()[0]
    report = check_mail(sign, game, seat)
    assert report.actions == [] and report.queued == [], (position, sign, report.render())
    role = check_mail(f"I choose the captain role, thanks.\n{sign}", load_position("role"), 0)
    assert [a.meaning for a in role.accepted] == ["role captain"], role.render()


@pytest.mark.parametrize("word", ["extra", "Extra", "the extra"])
@pytest.mark.parametrize(
    ("lead", "then"), [("no", ""), ("I don't want the", " thanks"), ("", " please")]
)
def test_the_mayors_extra_is_his_extra_colonist(word: str, lead: str, then: str) -> None:
    """In the mayor's step "extra" is the mayor's extra colonist, never a craftsman's
    barrel kept for later (once "no extra thanks" was kept for the craftsman and the
    extra colonist taken)."""
    game = load_position("mayor-chris")
    seat = next(s for s in game.deciding() if game.state.players[s].name == "Chris")
    text = f"{lead} {word}{then}; colonist on the hacienda".strip()
    report = check_mail(text, game, seat)
    declined = lead != ""
    assert report.queued == [], report.render()
    (action,) = report.actions
    assert isinstance(action, PlaceColonists) and action.extra is not declined, report.render()


# -- two answers, a taking-back, another player's order, an order for later ----------

ONE_ANSWER = ("role", "settle", "build", "craftsman", "trade", "hacienda")


def _two_answers(position: str) -> tuple[Game, int, str, str]:
    """A position, its deciding seat and two different legal orders of his (the first
    two lines his mail would list)."""
    game = load_position(position)
    seat = game.deciding()[0]
    first, second = [o for o in legal_orders(game, seat) if "," not in o][:2]
    return game, seat, first, second


@pytest.mark.parametrize("position", ONE_ANSWER)
@pytest.mark.parametrize("join", [". ", "\n", "; "])
def test_two_different_answers_to_one_decision_are_asked_back(position: str, join: str) -> None:
    game, seat, first, second = _two_answers(position)
    report = check_mail(f"{first}{join}{second}", game, seat)
    assert report.actions == [] and report.queued == [], report.render()
    assert any(isinstance(e, AmbiguousOrder) for e in report.errors), report.render()
    same = check_mail(f"{first}{join}{first}", game, seat)
    assert [a.meaning for a in same.accepted] == [first], same.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
@pytest.mark.parametrize(
    "back", ["No wait, make that", "Hmm, no -", "EDIT:", "ignore that,", "on second thoughts,"]
)
def test_an_answer_taken_back_gives_way_to_the_next(position: str, back: str) -> None:
    game, seat, first, second = _two_answers(position)
    report = check_mail(f"{first}. {back} {second}", game, seat)
    assert [a.meaning for a in report.accepted if a.action] == [second], report.render()
    report = check_mail(f"{first}\n{back} {second}", game, seat)
    assert [a.meaning for a in report.accepted if a.action] == [second], report.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_an_order_addressed_to_another_player_is_not_done(position: str) -> None:
    game, seat, first, _ = _two_answers(position)
    for other in (p.name for i, p in enumerate(game.state.players) if i != seat):
        own = game.state.players[seat].name
        for lead in (f"{other}, ", f"Hey {other}, ", f"{other}: ", f"{own} here. {other}, "):
            report = check_mail(lead + first, game, seat)
            assert report.actions == [] and report.queued == [], report.render()
            # Said why, unless the line reads as a greeting ("Hey Bob, hacienda").
            if not lead.startswith("Hey"):
                assert any(other in e.reason for e in report.errors), report.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
@pytest.mark.parametrize("when", ["next round", "next time", "in round 9", "later"])
def test_an_order_for_a_round_to_come_is_not_done_now(position: str, when: str) -> None:
    game, seat, first, _ = _two_answers(position)
    for text in (f"{first} {when}", f"{when}: {first}"):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [], report.render()
        assert report.errors, report.render()


@pytest.mark.parametrize(
    ("position", "no"),
    [
        ("settle-hospice", "Skip the hospice."),
        ("settle-hospice", "No colonist from the hospice, ok?"),
        ("build-university", "University colonist: no thanks!"),
        *(
            (p, f"I want {n} on it")
            for p in ("settle-hospice", "build-university")
            for n in ENGLISH.nobodies
        ),
    ],
)
def test_a_no_to_the_colonist_not_understood_stops_the_answer(position: str, no: str) -> None:
    """An answer followed by a line not understood that says no to its hospice or
    university colonist is not done with the colonist; a line that says yes does not
    stop it."""
    game = load_position(position)
    seat = game.deciding()[0]
    order = next(o for o in legal_orders(game, seat) if ", no " in o).split(",")[0]
    report = check_mail(f"{order}. {no}", game, seat)
    assert all(", no" in a.meaning for a in report.accepted if a.action), report.render()


def test_a_no_to_a_colonist_the_player_cannot_have_stops_nothing() -> None:
    """Anna has no hospice: a line she writes about one, not understood, cannot change
    her tile (and the reply must not suggest "settle corn, no hospice", which she may
    not order)."""
    game = load_position("settle")
    report = check_mail("corn.\nNo hospice guy (don't have one anyway)", game, 0)
    assert [a.meaning for a in report.accepted] == ["settle corn"], report.render()


def test_a_no_to_the_colonist_not_understood_stops_a_tile_ordered_after_the_hacienda() -> None:
    """The no stops the tile also when it is a later step of the turn (Chris, with a
    hospice, answers his hacienda first); the hacienda's answer, which it does not
    touch, is done. Understood, the no declines the colonist."""
    game = load_position("hacienda")
    seat = game.deciding()[0]
    for no in (
        "Don't bother with the hospice guy.",
        "skip the colonist from the hospice",
        "and the hospice guy is not needed",
    ):
        report = check_mail(f"Hacienda yes, then sugar. {no}", game, seat)
        done = [a.meaning for a in report.accepted if a.action]
        assert done in (["hacienda"], ["hacienda", "settle sugar, no hospice"]), report.render()
        assert "hospice" in report.render()
    not_read = check_mail(
        "Hacienda yes, then sugar. No hospice fellow on that sugar plantation.", game, seat
    )
    assert [a.meaning for a in not_read.accepted] == ["hacienda"], not_read.render()


@pytest.mark.parametrize(
    "no",
    [
        "No thanks to the gamble.",
        "nah, the face-down draw isn't for me",
        "No gamble on the hacienda",
        "The random tile thing - nah, not keen.",
    ],
)
def test_a_no_not_understood_stops_the_hacienda_s_default_and_the_tile(no: str) -> None:
    """A tile ordered while the hacienda is asked takes the hacienda's default on the
    way; not when a part of the mail not understood says no, which may decline the
    hacienda: neither is done, and the player is told to answer the hacienda first."""
    game = load_position("hacienda")
    seat = game.deciding()[0]
    for text in (f"{no.rstrip('.')}. I'll settle corn.", f"settle corn\n{no}"):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [], report.render()
        assert '"no hacienda"' in report.render(), report.render()
    taken = check_mail("settle corn\nthanks all", game, seat)
    assert [a.meaning for a in taken.accepted] == ["hacienda", "settle corn"], taken.render()


@pytest.mark.parametrize("position", ["settle-hospice", "build-university"])
@pytest.mark.parametrize("join", [". ", "\n", "\n\n", "! "])
def test_a_sentence_that_only_answers_the_colonist_belongs_to_the_order(
    position: str, join: str
) -> None:
    """ "Coffee. No hospice." is one order, "settle coffee, no hospice", whether the
    answer on the colonist comes after the order or before it, in a sentence or on a
    line of its own; a yes keeps the colonist."""
    game = load_position(position)
    seat = game.deciding()[0]
    for declined in (o for o in legal_orders(game, seat) if ", no " in o):
        order, building = declined.split(", no ")
        bare = order.split(" ", 1)[1]
        for no in (f"No {building}.", f"no {building} colonist", f"{building.title()}: no thanks"):
            for text in (f"{bare}{join}{no}", f"{no}{join}{bare}"):
                report = check_mail(text, game, seat)
                assert [a.meaning for a in report.accepted] == [declined], report.render()
        for yes in (f"Yes to the {building} worker", f"{building}: yes"):
            report = check_mail(f"{bare}{join}{yes}", game, seat)
            assert [a.meaning for a in report.accepted] == [order], report.render()


@pytest.mark.parametrize("position", ["settle-hospice", "build-university"])
@pytest.mark.parametrize("joint", [", and ", ", but ", " - ", "; "])
def test_answers_to_the_colonist_after_the_order_on_its_line_belong_to_it(
    position: str, joint: str
) -> None:
    """ "coffee, and yes put the hospice guy on it", "Tobacco, but leave it unmanned - I
    don't want the hospice worker": the answers after the order on its line, in the
    words people use (a placing verb on "it", a word saying it stays empty, a no to
    the colonist named or not), are the order's detail."""
    game = load_position(position)
    seat = game.deciding()[0]
    unmanned = ENGLISH.unmanned[0]
    for declined in (o for o in legal_orders(game, seat) if ", no " in o):
        order, building = declined.split(", no ")
        bare = order.split(" ", 1)[1]
        noes = (
            f"leave it {unmanned}",
            "don't put a colonist on it",
            f"I don't want the {building} worker this time",
            f"leave the {building} colonist in the supply, I don't want it",
            f"leave it {unmanned}{joint}no {building} guy",
        )
        for no in noes:
            report = check_mail(f"{bare}{joint}{no}", game, seat)
            assert [a.meaning for a in report.accepted] == [declined], report.render()
        for yes in (f"yes put the {building} guy on it", f"the {building} colonist goes on it"):
            report = check_mail(f"{bare}{joint}{yes}", game, seat)
            assert [a.meaning for a in report.accepted] == [order], report.render()
        # a yes and a no on the order's line: not cut, never a guess
        mixed = f"{bare}{joint}leave it {unmanned}{joint}yes to the {building}"
        if ";" not in joint:  # (";" ends an order: each answer is then its own)
            assert check_mail(mixed, game, seat).actions == [], mixed


@pytest.mark.parametrize(
    "text",
    [
        "Colonists:\n2 on coffee roaster\n1 on university",
        "Remove the colonist from the corn and put him in the university\n2 on roaster\n"
        "1 on sugar mill",
        "Staff the uni and fill the roaster.",
    ],
)
def test_a_colonist_placed_on_a_building_is_never_an_answer_to_its_colonist(text: str) -> None:
    """The mayor's "put him in the university" names the university and a colonist, as
    an answer about its colonist does; but it places him there, not on "it", and stays
    an order of its own (as does a heading "Colonists:", which says no yes or no)."""
    assert all(p.text in text for p in segments(text)), [p.text for p in segments(text)]
    game = load_position("mayor")
    report = check_mail(text, game, 0)
    assert report.actions, report.render()


@pytest.mark.parametrize(("role", "step"), [("builder", "factory"), ("settler", "corn")])
def test_a_colonist_s_answer_after_a_role_is_for_the_step_after_it(role: str, step: str) -> None:
    """ "builder", "no university colonist", "factory" on three lines: the answer is for
    the building, never joined to the role (which would leave the mail undone)."""
    game = load_position("role")
    building = "university" if role == "builder" else "hospice"
    report = check_mail(f"{role}\nno {building} colonist\n{step}", game, 0)
    assert [a.meaning for a in report.accepted][:1] == [f"role {role}"], report.render()
    assert len(report.accepted) == 2 and not report.errors, report.render()


@pytest.mark.parametrize("position", ["settle", "build", "trade", "craftsman", "hacienda"])
def test_a_pass_with_words_after_it_is_a_pass_unless_they_may_change_it(position: str) -> None:
    """ "Pass on the plantations this time", "nah, nothing for me", "pass - broke": a pass
    or a no, then words that name nothing else, passes; never when what follows names a
    thing, says "not", or takes back."""
    game = load_position(position)
    seat = game.deciding()[0]
    (declined,) = [a.meaning for a in check_mail("pass", game, seat).accepted]
    for lead in ("pass", "Pass", "nothing", "nah, nothing", "Nope - nothing"):
        for tail in ("", " for me", " this time", " - broke", ", no money", " on that, thanks"):
            report = check_mail(lead + tail, game, seat)
            assert [a.meaning for a in report.accepted] == [declined], report.render()
    first = next(o for o in legal_orders(game, seat) if o != declined)
    thing = first.split(" ", 1)[-1].split(",")[0]
    for text in (
        f"pass on the {thing}" if position != "hacienda" else "pass on the hacienda's corn",
        "No, I don't want to pass",
        "no wait, the one next to it",
        "nothing, except maybe later",
    ):
        report = check_mail(text, game, seat)
        assert declined not in [a.meaning for a in report.accepted], report.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
@pytest.mark.parametrize("name", ["Dave", "Shep", "Kip", "Sell", "Bild"])
def test_a_sign_off_that_is_an_order_word_with_a_slip_is_a_name(position: str, name: str) -> None:
    """A name alone at the end of a mail with an order before it is a sign-off, even
    when a letter changed would make it an order word ("Dave": "save"); alone, a slip
    is still read ("Captian")."""
    game, seat, first, _ = _two_answers(position)
    report = check_mail(f"{first}\n\n{name}", game, seat)
    assert [a.meaning for a in report.accepted] == [first], report.render()
    alone = check_mail("Captian", load_position("role"), 0)
    assert [a.meaning for a in alone.accepted] == ["role captain"], alone.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
@pytest.mark.parametrize("initials", ["b", "-B", "AB.", "anna"])
def test_initials_or_a_name_in_small_letters_sign_a_mail(position: str, initials: str) -> None:
    """A player's initials alone on the last line ("b", "-AB") or a player's name in
    small letters sign the mail: nothing is said about them."""
    game, seat, first, _ = _two_answers(position)
    report = check_mail(f"{first}\n{initials}", game, seat)
    assert [a.meaning for a in report.accepted] == [first], report.render()
    assert report.errors == [], report.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_words_to_another_player_are_a_remark(position: str) -> None:
    """ "Bob, you owe me a beer lol." before the order: said to Bob, quoted as a remark,
    not complained about; words to him that name an answer stay unread."""
    game, seat, first, _ = _two_answers(position)
    other = game.names[(seat + 1) % len(game.names)]
    report = check_mail(f"{other}, you owe me a beer after that lol. {first}", game, seat)
    assert [a.meaning for a in report.accepted] == [first], report.render()
    assert [type(e) for e in report.errors] == [Remark], report.render()
    assert f"words to {other}" in str(report.errors[0]), report.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_a_question_the_writer_answers_himself_is_a_remark(position: str) -> None:
    """ "Only corn left? Fine, corn then.": the order after the question is done, and
    the question is quoted as a remark, not asked back; asked again, or in a mail that
    says its writer has not decided, it stays a question."""
    game, seat, first, second = _two_answers(position)
    for text in (f"hmm, {first} or {second}? fine, {second} then.", f"what now? well, {second}"):
        report = check_mail(text, game, seat)
        assert [a.meaning for a in report.accepted] == [second], report.render()
        assert [type(e) for e in report.errors] == [Remark], report.render()
    for text in (f"{first}? {second}?", f"{first}? not sure yet, will write again"):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [], report.render()
        assert any(isinstance(e, Question) for e in report.errors), report.render()


@pytest.mark.parametrize("position", ("role", "settle", "build", "trade", "craftsman"))
@pytest.mark.parametrize(
    "wait",
    [
        *("Let me think and get back to you", "not sure yet", "TBC", "need to think it over"),
        *("I genuinely can't pick", "haven't really decided", "not 100% sure", "cant decide"),
    ],
)
def test_a_choice_written_undecided_is_asked_back(position: str, wait: str) -> None:
    """ "X or Y" is a preference list, but not from a player who says he has not decided
    ("trader or mayor. Let me think"): then it is asked back and nothing is done."""
    game, seat, first, second = _two_answers(position)
    bare = [o.split(" ", 1)[1] if o.startswith("role ") else o for o in (first, second)]
    for text in (f"{first} or {second}. {wait}", f"Hmm... {bare[0]} or {bare[1]} - {wait}"):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [] and report.errors, report.render()
    asked = check_mail(f"{first} or {second}. {wait}", game, seat)
    assert any(isinstance(e, AmbiguousOrder) for e in asked.errors), asked.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_an_answer_before_a_question_on_the_same_decision_is_not_done(position: str) -> None:
    """ "Extra barrel... sugar or coffee, depends on what Bob does. Let me think.": the
    mail asks which answer to give, so the one before the question is not done either."""
    game, seat, first, second = _two_answers(position)
    for text in (
        f"{first}... {first} or {second}? Let me think.",
        f"{first}\n{first} or {second}?",
    ):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [], report.render()
        assert any(isinstance(e, Question) for e in report.errors), report.render()


def test_two_uses_of_the_wharf_in_one_mail_are_asked_back() -> None:
    """The wharf is used once a phase: two wharf loadings of one mail are two answers,
    asked back (not a load kept for a turn to come), unless the second takes the first
    back; a wharf loading and a ship's stay one now and one kept."""
    game = load_position("load-wharf")
    seat = game.deciding()[0]
    wharf = [o for o in legal_orders(game, seat) if o.startswith("wharf ")]
    for first, second in itertools.permutations(wharf, 2):
        for join in (". ", "\n", "; "):
            report = check_mail(f"{first}{join}{second}", game, seat)
            assert report.actions == [] and report.queued == [], report.render()
            assert any(isinstance(e, AmbiguousOrder) for e in report.errors), report.render()
        report = check_mail(f"{first}. No wait, {second}", game, seat)
        assert [a.meaning for a in report.accepted] == [second], report.render()
        ship = second.replace("wharf", "ship") + " on 5"
        report = check_mail(f"{first}. {ship}", game, seat)
        assert [a.meaning for a in report.accepted if a.action] == [first], report.render()
        assert len(report.queued) == 1, report.render()
        # A line not understood that names the wharf may be a second use.
        report = check_mail(f"{first}.\nand {second.split()[1]} on the wharf, mate!", game, seat)
        assert report.actions == [] and report.queued == [], report.render()
        report = check_mail(f"{first}.\nand cheers for the game, mate!", game, seat)
        assert [a.meaning for a in report.accepted] == [first], report.render()


@pytest.mark.parametrize("position", ("settle-hospice", "build-university"))
def test_any_word_of_no_to_the_colonist_not_understood_stops_the_answer(position: str) -> None:
    """Every word of the vocabulary that says no (no, don't, pass, without, except...)
    before the hospice's or university's colonist on a line not understood stops the
    answer done with the colonist: the negations are the vocabulary's, not a list of
    their own."""
    game = load_position(position)
    seat = game.deciding()[0]
    order = next(o for o in legal_orders(game, seat) if ", no " in o).split(",")[0]
    said = (*ENGLISH.term("NO").words, *ENGLISH.term("DONT").words, *ENGLISH.exclusions)
    said += (*ENGLISH.term("PASS").words, *ENGLISH.term("WITHOUT").words)
    for no in said:
        report = check_mail(f"{order}. Frankly I {no} want a worker there, mate!", game, seat)
        done = [a.meaning for a in report.accepted if a.action]
        assert all(", no" in m for m in done), (no, report.render())


@pytest.mark.parametrize("yes", [*ENGLISH.term("YES").words, *ENGLISH.term("NO").words])
def test_a_yes_or_no_in_a_question_names_no_order(yes: str) -> None:
    game = load_position("role")
    (err,) = check_mail(f"{yes}, trader or captain?", game, 0).errors
    assert isinstance(err, Question) and err.alternatives == ("role trader", "role captain"), (
        err.reason
    )


@pytest.mark.parametrize("position", ("role", "settle", "build", "trade", "craftsman"))
def test_undecided_between_orders_is_asked_back_naming_them(position: str) -> None:
    """Every way the vocabulary has of saying one has not decided, written around a
    choice between two orders (that does not read as one order), asks back naming both;
    a decision after the hesitation ("Not sure, but trader") is the order; a hesitation
    alone is no order and no error."""
    game, seat, first, second = _two_answers(position)
    bare = [o.split(" ", 1)[1] if o.startswith(("role ", "take ")) else o for o in (first, second)]
    for wait in ENGLISH.undecided:
        for text in (f"{bare[0]} or {bare[1]}, {wait}", f"{wait}: {bare[0]} or {bare[1]}"):
            report = check_mail(text, game, seat)
            assert report.actions == [] and report.queued == [], (text, report.render())
            asked = [e for e in report.errors if isinstance(e, Question)]
            assert [set(e.alternatives) for e in asked] == [{first, second}], (text, asked)
        for text in (f"{wait}, but {bare[1]}", f"{wait}. But {second}.", f"{wait}\n{second}"):
            report = check_mail(text, game, seat)
            assert [a.meaning for a in report.accepted] == [second], (text, report.render())
            assert report.errors == [], (text, report.render())
        # "captain, I'd rather trader", "I was thinking captain but no, trader"
        report = check_mail(f"{bare[0]}, I'd rather {bare[1]}", game, seat)
        assert [a.meaning for a in report.accepted] == [second], report.render()
        report = check_mail(f"{wait} {bare[0]} but no, {bare[1]}", game, seat)
        assert [a.meaning for a in report.accepted] == [second], report.render()


# -- storage: everything, the rest, goods not kept -------------------------------------

STORERS = [("store", "Anna"), ("store", "Bob"), ("store-large", "Chris"), ("store-large", "David")]


def _storer(position: str, name: str) -> tuple[Game, int, list[Store], list[Good]]:
    game = load_position(position)
    seat = next(i for i, p in enumerate(game.state.players) if p.name == name)
    stores = [a for a in game.legal_actions(seat) if isinstance(a, Store)]
    have = [g for g in Good if game.state.players[seat].goods[g] > 0]
    return game, seat, stores, have


@pytest.mark.parametrize(("position", "name"), STORERS)
@pytest.mark.parametrize("text", ["keep everything", "keep it all", "Keep all, please"])
def test_keeping_everything_is_asked_back(position: str, name: str, text: str) -> None:
    """A storage is asked only when every way loses goods: "everything" is never one
    of them, and never the published default."""
    game, seat, _, _ = _storer(position, name)
    report = check_mail(text, game, seat)
    assert report.actions == [] and report.queued == [], report.render()
    assert any(isinstance(e, AmbiguousOrder) for e in report.errors), report.render()


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_goods_not_kept_keep_as_few_as_the_space_allows(position: str, name: str) -> None:
    """ "dump the corn", "don't keep the corn", "keep everything except the corn": the
    way that keeps the fewest barrels of it, asked back when several ways keep some."""
    game, seat, stores, have = _storer(position, name)
    p = game.state.players[seat]

    def kept(a: Store, g: Good) -> int:
        return (p.goods[g] if g in a.warehouse else 0) + (a.windrose is g)

    for g in have:
        least = min(kept(a, g) for a in stores)
        best = [a for a in stores if kept(a, g) == least]
        for text in (f"dump the {g.label}", f"I don't keep my {g.label}", f"lose {g.label}"):
            report = check_mail(text, game, seat)
            if least and len(best) > 1:
                assert report.actions == [], (text, report.render())
                assert any(isinstance(e, AmbiguousOrder) for e in report.errors), text
            else:
                (action,) = report.actions
                assert action in best, (text, report.render())


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_the_rest_goes_where_it_is_said(position: str, name: str) -> None:
    """ "1 sugar on the wind rose, the rest in the warehouse": every other good in the
    warehouse, done when one way does so, else asked back; "keep X, dump the rest"."""
    game, seat, stores, have = _storer(position, name)
    for g in have:
        rest = {x for x in have if x is not g}
        ways = [a for a in stores if a.windrose is g and set(a.warehouse) == rest]
        report = check_mail(f"1 {g.label} on the wind rose, the rest in the warehouse", game, seat)
        if len(ways) == 1:
            assert report.actions == ways, report.render()
        else:
            assert report.actions == [] and report.errors, report.render()
        dumped = check_mail(f"keep the {g.label}, dump the rest", game, seat)
        for action in dumped.actions:
            assert isinstance(action, Store) and g in (*action.warehouse, action.windrose)


def _reads_as(game: Game, seat: int, said: str, *texts: str) -> None:
    """Each of ``texts`` does what ``said``, the order as the guide writes it, does."""
    meant = check_mail(said, game, seat)
    for text in texts:
        report = check_mail(text, game, seat)
        assert report.actions == meant.actions, (text, report.render(), meant.render())


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_goods_that_stay_or_go_somewhere_are_kept_there(position: str, name: str) -> None:
    """ "the sugar stays in the warehouse", "sugar goes in my warehouse", "warehouse:
    sugar + coffee" read as the keep order they say."""
    game, seat, _, have = _storer(position, name)
    for g in have:
        _reads_as(
            game,
            seat,
            f"keep {g.label} in the warehouse",
            f"the {g.label} stays in the warehouse",
            f"{g.label} goes in my warehouse",
        )
    for a, b in itertools.combinations(have, 2):
        said = check_mail(f"keep {a.label} and {b.label} in the warehouse", game, seat)
        report = check_mail(f"warehouse: {a.label} + {b.label}", game, seat)
        assert report.actions == said.actions, (report.render(), said.render())


# -- a reason given with an order ----------------------------------------------------


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_a_reason_given_with_an_order_is_not_read(position: str) -> None:
    """The order is the clause in the first person; the reason around it (which names
    another order and another player) is not read: after a reason that leads, a
    consequence ("..., so I'll ..."), before a reason ("..., since ..."). When the
    reason reads as an order too ("captain, but I'll take the trader"), it is asked."""
    game, seat, first, second = _two_answers(position)
    other = next(p.name for i, p in enumerate(game.state.players) if i != seat)
    reason = f"{other} went for {second}"
    texts = [f"{reason} {then} I'll {first}" for then in (*ENGLISH.consequences, "but")]
    texts += [f"{r} {reason}, I'll {first}" for r in ENGLISH.reasons]
    texts += [f"{r} {reason} I'll {first}" for r in ENGLISH.reasons]
    texts += [f"{reason}, {so} {first}" for so in ENGLISH.consequences]
    texts += [f"{first}, {r} {reason}" for r in ENGLISH.reasons if r not in ("as",)]
    for text in texts:
        report = check_mail(text, game, seat)
        assert [a.meaning for a in report.accepted] == [first], (text, report.render())
        assert report.errors == [], (text, report.render())
    report = check_mail(f"{second}, but I'll {first}", game, seat)
    assert report.actions == [] and report.queued == [], report.render()
    assert any(isinstance(e, AmbiguousOrder) for e in report.errors), report.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_a_choice_left_to_the_moderator_is_asked_back(position: str) -> None:
    """The moderator never chooses for a player: "anything but X" is asked back naming
    every order but X, "you decide" with nothing named asks for the order; nothing is
    done."""
    game, seat, first, _ = _two_answers(position)
    legal = legal_orders(game, seat)
    left = [o for o in legal if o != first]
    for text in (f"anything but {first}", f"anything except {first}, you pick"):
        report = check_mail(text, game, seat)
        if len(left) == 1 and report.actions:  # (one left: "anything but the hacienda")
            assert [a.meaning for a in report.accepted] == left, report.render()
            continue
        assert report.actions == [] and report.queued == [], report.render()
        (err,) = report.errors
        assert isinstance(err, Question), err.reason
        assert list(err.alternatives) == left, err.alternatives
    for text in ("surprise me", "Dealer's choice!", "whatever you think, I don't care"):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [], report.render()
        assert [type(e) for e in report.errors] == [Question], report.render()
    # From a player with nothing to decide: asked back all the same, naming nothing.
    idle = next(i for i in range(game.state.n) if decision_of(game, i) is None)
    report = check_mail(f"anything but {first}", game, idle)
    (err,) = report.errors
    assert report.queued == [] and err.alternatives == (), report.render()
    assert "write the order you choose" in err.reason, report.render()


@pytest.mark.parametrize("no", ["except", "not", "no", "without", "never"])
def test_an_extra_barrel_said_no_to_is_never_taken(no: str) -> None:
    """ "except extra sugar": the no is for the barrel of that good (once it was read by
    what it names as "extra sugar")."""
    game = load_position("craftsman")
    seat = game.deciding()[0]
    for o in legal_orders(game, seat):
        if o.startswith("extra "):
            report = check_mail(f"{no} {o} for me", game, seat)
            assert not any(isinstance(a, ExtraGood) for a in report.actions), report.render()


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_goods_that_can_go_are_not_kept(position: str, name: str) -> None:
    """ "the corn can go", "let the corn go": goods not kept, said in words the grammar
    ignores (once "tobacco can go" was read as "keep tobacco"); said where it cannot be
    told which goods go, nothing is done."""
    game, seat, _, have = _storer(position, name)
    for g in have:
        _reads_as(
            game,
            seat,
            f"dump the {g.label}",
            f"the {g.label} can go",
            f"let the {g.label} go",
            f"{g.label} may be lost",
        )
    for a, b in itertools.permutations(have, 2):
        report = check_mail(f"keep the {a.label} and the {b.label} can go", game, seat)
        assert report.actions == [], report.render()


def test_where_colonists_can_go_is_no_good_not_kept() -> None:
    for text in ("the rest can go to San Juan", "the others can go on the roaster"):
        assert normalise(text) == text


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_a_reason_that_holds_another_choice_or_the_thing_is_read_with_the_order(
    position: str,
) -> None:
    """A reason is left out only when the order stands without it: never when it goes
    on to another choice ("trader, because ..., or maybe the mayor") or when the order
    stands for what it names ("since sugar is worth more, keep it")."""
    game, seat, first, second = _two_answers(position)
    for text in (
        f"{first}, because it's cheap, or maybe {second}",
        f"{first} since it's cheap, but perhaps {second}",
    ):
        report = check_mail(text, game, seat)
        assert report.actions == [] and report.queued == [], (text, report.render())


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_an_order_that_stands_for_what_its_reason_names_is_not_done(
    position: str, name: str
) -> None:
    game, seat, _, have = _storer(position, name)
    for g in have:
        for text in (f"since {g.label} is worth more, keep it", f"as the {g.label} sells, keep it"):
            report = check_mail(text, game, seat)
            assert report.actions == [] and report.queued == [], (text, report.render())


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_a_good_both_kept_and_not_is_asked_back(position: str, name: str) -> None:
    game, seat, _, have = _storer(position, name)
    for g in have:
        for text in (f"keep {g.label}, dump {g.label}", f"dump the {g.label}, keep the {g.label}"):
            report = check_mail(text, game, seat)
            assert report.actions == [] and report.queued == [], (text, report.render())
            assert any(isinstance(e, AmbiguousOrder) for e in report.errors), report.render()


@pytest.mark.parametrize("position", ONE_ANSWER)
def test_what_follows_an_answer_as_another_choice_stops_it(position: str) -> None:
    """An answer followed by a part not understood that starts as another choice or a
    contrast ("Or maybe not.", "But only if it's free.") is not done; a reason whose
    sentence is followed by a taking-back is no reason to leave out (found by trap
    mails: "hacienda, since it's free. Actually no." was done as the hacienda)."""
    game, seat, first, _ = _two_answers(position)
    for text in (
        f"{first}. Or maybe not.",
        f"{first}.\nBut only if it's cheap.",
        f"{first}, since it's free. Actually no.",
        f"{first} since it's cheap, maybe not",
    ):
        report = check_mail(text, game, seat)
        assert first not in [a.meaning for a in report.accepted], (text, report.render())


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_the_rest_not_kept_leaves_its_space_to_the_default(position: str, name: str) -> None:
    """ "just the coffee" and "keep the coffee, dump the rest" keep the coffee; the space
    it leaves, which the rules always use, is filled by the published default, as for
    "keep the coffee": the rest named nothing to choose by (docs/orders.md)."""
    game, seat, _, have = _storer(position, name)
    for g in have:
        _reads_as(
            game,
            seat,
            f"keep the {g.label}",
            f"keep the {g.label}, dump the rest",
            f"keep the {g.label}, throw away the rest",
            f"just the {g.label}",
            f"keep just the {g.label} please",
        )


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_as_much_as_fits_keeps_the_most_barrels(position: str, name: str) -> None:
    """ "keep as much as I can", "as many barrels as possible", "keep the most barrels": the way
    that keeps the most barrels (the default's among as many); "as much tobacco as I can"
    is the tobacco, kept as much as it fits, as "keep the tobacco" does."""
    game, seat, stores, have = _storer(position, name)
    p = game.state.players[seat]

    def barrels(a: Store) -> int:
        return sum(p.goods[g] for g in a.warehouse) + (a.windrose is not None)

    most = max(barrels(a) for a in stores)
    for text in (
        "keep as much as I can",
        "Keep as many barrels as possible please",
        "keep the most barrels",
        "as much as fits",
    ):
        (action,) = check_mail(text, game, seat).actions
        assert isinstance(action, Store) and barrels(action) == most, text
    for g in have:
        _reads_as(
            game,
            seat,
            f"keep the {g.label}",
            f"keep as much {g.label} as I can",
            f"I'd like to keep as many of the {g.label} as possible",
        )


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_the_default_asked_for_in_words(position: str, name: str) -> None:
    """ "keep the valuable stuff", "whatever the default is": the published default."""
    game, seat, _, _ = _storer(position, name)
    _reads_as(
        game,
        seat,
        "keep",
        "keep the valuable stuff",
        "Keep the pricey stuff",
        "whatever the default is, fine by me",
        "whatever the default is",
    )


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_storage_in_other_words(position: str, name: str) -> None:
    """The place before "the rest" ("warehouse the rest"); the rest left to the default
    ("..., whatever else fits", "the rest by default"); a good as "the X one(s)"; a
    count kept and the other barrels of the good
    not ("1 tobacco on the rose, the other tobacco goes back")."""
    game, seat, _, have = _storer(position, name)
    for g in have:
        rest = "".join(f", {x.label} in the warehouse" for x in have if x is not g)
        _reads_as(
            game,
            seat,
            f"1 {g.label} on the wind rose{rest}",
            f"{g.label} on the rose, warehouse the rest",
            f"1 {g.label} on the rose{rest}, the other {g.label} goes back",
        )
        texts = [f"keep the {g.label}, whatever else fits", f"keep the {g.label} one"]
        texts += [f"keep the {g.label}. The rest by default."]
        texts += [f"the {g.label} ones please"]
        _reads_as(game, seat, f"keep the {g.label}", *texts)


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_every_barrel_of_a_good_that_does_not_fit(position: str, name: str) -> None:
    """ "keep the 3 corn", "all my corn" when every barrel cannot be kept: done when one
    way only keeps some of it, else asked back (never another good kept instead)."""
    game, seat, stores, have = _storer(position, name)
    p = game.state.players[seat]
    for g in have:
        ways = [a for a in stores if g in a.warehouse or a.windrose is g]
        every = [a for a in ways if g in a.warehouse or p.goods[g] == 1]
        for text in (f"keep the {p.goods[g]} {g.label}", f"keep all my {g.label}"):
            report = check_mail(text, game, seat)
            if every:
                assert len(report.actions) == 1 and report.actions[0] in every, text
            elif len(ways) == 1:
                assert report.actions == ways, (text, report.render())
            else:
                assert report.actions == [], (text, report.render())


@pytest.mark.parametrize(("position", "name"), STORERS)
def test_what_would_have_been_stops_no_storage(position: str, name: str) -> None:
    """A sentence on what would have been is no order and no part of one: the storage
    read whole is done."""
    game, seat, _, have = _storer(position, name)
    _reads_as(
        game,
        seat,
        f"keep the {have[0].label}",
        f"keep the {have[0].label}. Sigh, should have built a bigger warehouse.",
    )


def test_keep_all_of_the_goods_named_keeps_every_barrel_or_asks() -> None:
    """ "Keep all the indigo, sugar and coffee": every barrel of each, which David's
    large warehouse and wind rose cannot hold, so he is asked (never some of them kept
    and the rest lost); "keep all the sugar", which fits, is done; without "all" the
    goods are a preference list."""
    game = load_position("store-large")
    david = game.names.index("David")
    three = check_mail("Keep all the indigo, sugar and coffee please.", game, david)
    assert three.actions == [] and any(isinstance(e, AmbiguousOrder) for e in three.errors)
    assert "every barrel of indigo, sugar and coffee" in three.render()
    (sugar,) = check_mail("keep all the sugar", game, david).accepted
    assert sugar.meaning.startswith("keep sugar in warehouse"), sugar.meaning
    listed = check_mail("keep indigo, sugar and coffee", game, david)
    assert [a.meaning for a in listed.accepted] == [
        "keep indigo in warehouse, sugar in warehouse, 1 coffee on wind rose"
    ]


@pytest.mark.parametrize("ship", ["ship", "boat"])
def test_a_ship_with_an_article_names_no_room(ship: str) -> None:
    """ "ship corn on a boat" is "ship corn" (the default ship), not a ship of 1."""
    game = load_position("load")
    seat = game.deciding()[0]
    plain = [a.meaning for a in check_mail("ship corn", game, seat).accepted]
    assert [a.meaning for a in check_mail(f"ship corn on a {ship}", game, seat).accepted] == plain
    assert [a.meaning for a in check_mail(f"ship corn on an {ship}", game, seat).accepted] == plain


@pytest.mark.parametrize("alternative", ["Or the coffee.", "or sugar"])
def test_an_alternative_in_a_sentence_of_its_own_is_never_an_order_alone(alternative: str) -> None:
    """ "Put the corn on a boat. Or the coffee. Your call.": the second sentence is the
    other side of a choice, never an order of its own done beside (or instead of) the
    first."""
    game = load_position("load")
    seat = game.deciding()[0]
    for text in (f"Put the corn on a boat. {alternative} Your call.", f"Corn. {alternative}"):
        report = check_mail(text, game, seat)
        done = [a.meaning for a in report.accepted]
        assert not any(m.startswith(("ship coffee", "ship sugar")) for m in done), report.render()


@pytest.mark.parametrize("position", ["settle", "build", "trade", "load", "craftsman"])
def test_a_remark_after_the_order_on_its_line_leaves_the_order(position: str) -> None:
    """ "Quarry please, I'm going to be building a lot", "sell corn - need the cash":
    a remark after a comma or a dash, starting with the writer's own words or a word
    that is no order word, is read as a sentence of its own (not understood, said so);
    the order before it is done. A remark with a word that may change the order (a
    negation, a correction, a condition, an alternative, a time to come) stops it."""
    game = load_position(position)
    seat = game.deciding()[0]
    orders = [o for o in legal_orders(game, seat) if " " in o][:4]
    for order in orders:
        (meaning,) = [a.meaning for a in check_mail(order, game, seat).accepted]
        for remark in (", I'm hoping that pays off", " - need the cash", ", cheers"):
            report = check_mail(order + remark, game, seat)
            assert [a.meaning for a in report.accepted] == [meaning], report.render()
            assert all(isinstance(e, Remark) for e in report.errors), report.render()
        changes = (", I mean the other one", " - unless Bob needs it", ", or not")
        for changing in (*changes, ". Unless Bob needs it.", ". Except if it's gone."):
            report = check_mail(order + changing, game, seat)
            assert [a.meaning for a in report.accepted] != [meaning], report.render()


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("Quarry please, I'm building", "Quarry please"),
        ("sell corn - need the cash", "sell corn"),
        ("Tobacco \u2014 no hospice guy", "Tobacco"),
        ("corn; coffee", "corn"),
        ("Shipping: corn on the 5", None),  # (a heading, not an order and a remark)
        ("large-warehouse", None),
        ("sell corn -2", None),
    ],
)
def test_an_order_ends_at_a_comma_or_a_dash_standing_apart(text: str, cut: str | None) -> None:
    """Where an order's line may go on with a remark (parser._remarked) or with answers
    to its colonist (reading.detail_tail): one cut serves both, a comma, a semicolon or
    a dash between blanks; never a colon after a heading, nor a hyphen."""
    found = CLAUSE_CUT.search(text)
    assert (text[: found.start()] if found else None) == cut


@pytest.mark.parametrize("position", ["settle", "build", "trade", "load", "craftsman"])
def test_a_remark_naming_nothing_the_order_answers_may_open_as_a_clause(position: str) -> None:
    """ "Build a large warehouse, my goods keep spoiling", "sell corn, it's worth nothing
    on the ships anyway": a remark that names nothing answering the order's decision
    may start with an article or a pronoun and hold a no; the order is done. One that
    names such a thing ("the big one", "the other sugar") or whose no refers to it ("I
    don't want that one") stops it."""
    game = load_position(position)
    seat = game.deciding()[0]
    passes = ("nothing", "no ")  # (a pass, which a no agrees with: below)
    orders = [o for o in legal_orders(game, seat) if " " in o and not o.startswith(passes)]
    orders = [o for o in orders if not o.endswith(passes[0])][:4]
    for order in orders:
        (meaning,) = [a.meaning for a in check_mail(order, game, seat).accepted]
        for remark in (
            ", my plans depend on it :(",
            ", it's worth nothing to me anyway",
            ", the rules say so",
            " - I couldn't afford anything better",
        ):
            report = check_mail(order + remark, game, seat)
            assert [a.meaning for a in report.accepted] == [meaning], report.render()
            assert all(isinstance(e, Remark) for e in report.errors), report.render()
        for changing in (", my corn is better", ", it's not this one", ", the big one is fine"):
            report = check_mail(order + changing, game, seat)
            assert [a.meaning for a in report.accepted] != [meaning], (order, report.render())


@pytest.mark.parametrize("position", ["settle", "build-other", "trade", "craftsman"])
def test_a_pass_with_its_reason_passes(position: str) -> None:
    """ "I'll pass, can't afford anything good anyway", "pass - I don't need any more
    land": a no in the reason after a pass agrees with it; a reason that names nothing
    answering the decision is a remark, even one that starts with an order word of
    another ("saving money")."""
    game = load_position(position)
    seat = game.deciding()[0]
    (meaning,) = [a.meaning for a in check_mail("pass", game, seat).accepted]
    for text in (
        "I'll pass, can't afford anything good anyway.",
        "pass - I don't need any more right now",
        "I'll pass on this one, nothing worth it for me",
        "nothing for me this time, saving money",
        "pass, want to ship the lot",
    ):
        report = check_mail(text, game, seat)
        assert [a.meaning for a in report.accepted] == [meaning], report.render()
    for text in ("pass, no wait", "pass, unless it's cheap", "pass - or maybe the corn"):
        assert check_mail(text, game, seat).actions == [], text


@pytest.mark.parametrize("position", ["settle", "trade", "craftsman"])
def test_a_clause_of_its_own_after_an_order_read_by_what_it_names_is_a_remark(
    position: str,
) -> None:
    """ "I don't want anything extra, I have nowhere to store it": a clause cut at a
    comma before its verb ("have") that can only be a remark leaves the order before it,
    even one read by what it names."""
    game = load_position(position)
    seat = game.deciding()[0]
    (meaning,) = [a.meaning for a in check_mail("pass", game, seat).accepted]
    said = "I will pass this time"
    report = check_mail(f"{said}, I have nowhere to store it", game, seat)
    assert [a.meaning for a in report.accepted] == [meaning], report.render()
    assert all(isinstance(e, Remark) for e in report.errors), report.render()


@pytest.mark.parametrize("position", ["role", "settle", "build", "trade", "load", "craftsman"])
@pytest.mark.parametrize("ask", ENGLISH.requests)
def test_a_polite_request_naming_one_order_is_that_order(position: str, ask: str) -> None:
    """ "Can I take the tobacco one?", "Could I build the wharf? I think I have enough.":
    a question asking politely for one order is that order; asking for two ("Can I
    take corn or sugar?") it is asked back; with a no in it, nothing is done."""
    game = load_position(position)
    seat = game.deciding()[0]
    said = [o for o in legal_orders(game, seat) if " " in o and not o.startswith("no ")]
    orders = [o for o in said if "nothing" not in o][:3]
    for order in orders:
        (meaning,) = [a.meaning for a in check_mail(order, game, seat).accepted]
        for text in (f"{ask} {order}?", f"Hi, {ask} {order}? Thanks, I have enough money."):
            report = check_mail(text, game, seat)
            assert [a.meaning for a in report.accepted] == [meaning], report.render()
        assert check_mail(f"{ask} not {order}?", game, seat).actions == []
    both = check_mail(f"{ask} {orders[0]} or {orders[1]}?", game, seat)
    assert both.actions == [] and any(isinstance(e, Question | AmbiguousOrder) for e in both.errors)


@pytest.mark.parametrize("joint", ["is", "are", "should be"])
def test_what_is_chosen_is_the_thing_after_is(joint: str) -> None:
    """ "My extra barrel is sugar", "the role I'm taking is the trader": words between
    what is chosen and the thing are no verb said of it; a no after them still says no."""
    for position, chosen, thing, meaning in (
        ("craftsman", "my extra barrel", "sugar", "extra sugar"),
        ("role", "the role I take", "the trader", "role trader"),
        ("trade", "the good I sell", "the tobacco", "sell tobacco"),
    ):
        if position == "role" and joint == "should be":
            continue  # (after a verb, "should" may start a condition: "I take ... should")
        game = load_position(position)
        seat = game.deciding()[0]
        report = check_mail(f"{chosen} {joint} {thing}", game, seat)
        assert [a.meaning for a in report.accepted] == [meaning], report.render()
        assert check_mail(f"{chosen} {joint} not {thing}", game, seat).actions == []


@pytest.mark.parametrize("position", ["build", "build-other", "build-university"])
def test_a_price_said_with_a_building_is_checked(position: str) -> None:
    """ "I buy the small warehouse for 3 doubloons": done when it costs the builder that
    or that is its price on the board; asked back otherwise, nothing done."""
    game = load_position(position)
    seat = game.deciding()[0]
    for order in [o for o in legal_orders(game, seat) if o != "build nothing"][:5]:
        (done,) = check_mail(order, game, seat).accepted
        assert isinstance(done.action, Build)
        board = BUILDINGS[done.action.building].price
        cost = builder.cost(game.state, seat, done.action.building)
        name, comma, detail = order.partition(",")  # (the price before the colonist's no)
        for price in (f"for {cost}", f"for {board} doubloons"):
            report = check_mail(f"{name} {price}{comma}{detail}", game, seat)
            assert [a.meaning for a in report.accepted] == [done.meaning], report.render()
        wrong = next(n for n in range(1, 12) if n not in (cost, board))
        report = check_mail(f"{name} for {wrong}{comma}{detail}", game, seat)
        assert report.actions == [] and any(isinstance(e, AmbiguousOrder) for e in report.errors)


@pytest.mark.parametrize("drawn", ["face down", "face-down", "hidden", "random", "blind"])
def test_the_hacienda_s_tile_named_by_how_it_is_drawn(drawn: str) -> None:
    """ "Take the face down tile", "no thanks to the hidden one": the hacienda's draw,
    never a face-up tile (and no tile at all where there is no hacienda to draw)."""
    game = load_position("hacienda")
    seat = game.deciding()[0]
    for text, meaning in (
        (f"the {drawn} tile please", "hacienda"),
        (f"no {drawn} one", "no hacienda"),
    ):
        report = check_mail(text, game, seat)
        assert [a.meaning for a in report.accepted] == [meaning], report.render()
    settle = load_position("settle")
    assert check_mail(f"the {drawn} tile please", settle, settle.deciding()[0]).actions == []


@pytest.mark.parametrize("verb", ["put", "place"])
def test_a_generic_verb_read_by_what_the_order_names_takes_the_decision_s(verb: str) -> None:
    """ "Put my sugar on the boat" while loading: as "ship my sugar on the boat", read by
    what it names; "take 1 from corn" never places."""
    game = load_position("load")
    seat = game.deciding()[0]
    plain = [a.meaning for a in check_mail("my sugar on the biggest boat", game, seat).accepted]
    report = check_mail(f"{verb} my sugar on the biggest boat please", game, seat)
    assert [a.meaning for a in report.accepted] == plain == ["ship sugar on 7"], report.render()


def test_a_role_with_a_remark_naming_something_is_not_done() -> None:
    """After a role, a remark that names a thing of the game may be its first step, not
    understood: the role is not done alone. One naming nothing leaves the role."""
    game = load_position("role")
    taken = check_mail("Captain - I know it's early", game, 0)
    assert [a.meaning for a in taken.accepted] == ["role captain"], taken.render()
    unread = check_mail("Captain - I'll shipp my corn on the bigg one", game, 0)
    assert unread.actions == [], unread.render()
    # a role and its step, then a remark ("Settler -> quarry, I'm ..."): both are done
    both = check_mail("Settler -> quarry, I'm going to be building a lot.", game, 0)
    assert [a.meaning for a in both.accepted] == ["role settler", "take quarry"], both.render()


@pytest.mark.parametrize("best", ENGLISH.best)
def test_the_most_valuable_kind_asked_for_is_the_most_valuable(best: str) -> None:
    """ "Sell whichever's worth the most": a sale of the goods from the most valuable
    down, the first the trading house takes; for the craftsman's barrel and the
    storage, the published defaults, which keep the most valuable. A good named or a
    negation makes it no such order."""
    for position, plain in (("trade", None), ("craftsman", "default"), ("store", "default")):
        game = load_position(position)
        seat = game.deciding()[-1]
        if plain is None:
            goods = sorted(Good, reverse=True)
            plain = "sell " + " or ".join(g.label for g in goods)
        want = [a.meaning for a in check_mail(plain, game, seat).accepted]
        report = check_mail(f"{best} please", game, seat)
        assert [a.meaning for a in report.accepted] == want, (position, report.render())
        changes = [f"not {best}", f"{best}?"]
        if position != "store":  # (there "but not the sugar" is an order: none kept)
            changes.append(f"{best}, but not the sugar")
        for changed in changes:
            assert check_mail(changed, game, seat).actions == [], (position, changed)


@pytest.mark.parametrize("position", ["settle", "build", "trade", "craftsman"])
def test_a_pass_after_the_writer_s_own_words_and_never_with_a_condition(position: str) -> None:
    """ "I'll pass on this one" passes, as "pass" does; "pass, unless Bob sells" or "pass -
    or maybe the corn" never does (a condition or another choice the moderator cannot
    settle: nothing is done)."""
    game = load_position(position)
    seat = game.deciding()[0]
    (declined,) = [a.meaning for a in check_mail("pass", game, seat).accepted]
    for text in ("I'll pass on this one.", "I'll pass this time", "I will pass, thanks"):
        report = check_mail(text, game, seat)
        assert [a.meaning for a in report.accepted] == [declined], report.render()
    for text in ("pass, unless Bob sells", "I'll pass - or maybe not", "pass if nobody minds"):
        assert check_mail(text, game, seat).actions == [], text
    # A pass said no to is none ("I don't want to pass" had passed, read by the "don't"
    # of "don't bother"), but "no, I'll pass" and "don't bother" pass.
    for text in ("I don't want to pass", "don't pass", "pass, I won't pass", "I do not pass"):
        assert check_mail(text, game, seat).actions == [], text
    for text in ("no I'll pass", "don't bother", "no thanks, I'll pass"):
        report = check_mail(text, game, seat)
        assert [a.meaning for a in report.accepted] == [declined], report.render()


def test_an_order_after_a_question_on_its_line_answers_it() -> None:
    """ "Hmm, a second coffee? Nah. Sugar.": the writer answers his own question in a
    sentence after it; the answer is done. Before the question mark, or with the
    question left open, nothing is."""
    game = load_position("settle")
    answered = check_mail("Hmm, a second coffee? Nah. Sugar. Final answer: sugar.", game, 0)
    assert [a.meaning for a in answered.accepted] == ["settle sugar"], answered.render()
    for still in ("Sugar. Or a second coffee? Let me think.", "Sugar or coffee? Not sure yet."):
        assert check_mail(still, game, 0).actions == [], still


def test_a_correction_puts_instead_only_an_order_of_the_same_decision() -> None:
    """ "captain, I'd rather trader" takes the trader; "no sale, I'd rather ship" says
    what the player means to do later, not an order put instead of the sale: nothing
    is done or kept."""
    game = load_position("role")
    assert [a.meaning for a in check_mail("captain, I'd rather trader", game, 0).accepted] == [
        "role trader"
    ]
    trade = load_position("trade-market")
    seat = trade.deciding()[0]
    report = check_mail("no sale, I'd rather ship", trade, seat)
    assert report.actions == [] and report.queued == [], report.render()


def test_a_second_load_that_takes_the_first_back_replaces_it() -> None:
    """Loads come round again, so a second load in a mail is kept for a later turn;
    not one that takes the first back ("Indigo on the 5. Hmm, no - wharf the indigo
    instead."): it replaces the first."""
    game = load_position("load-wharf")
    seat = game.deciding()[0]
    text = "Indigo on the 5. Hmm, no - wharf the indigo instead."
    report = check_mail(text, game, seat)
    assert [a.meaning for a in report.accepted] == ["wharf indigo"], report.render()
    assert report.queued == [], report.render()


@pytest.mark.parametrize("good", list(Good))
def test_a_good_cut_short_is_never_passed_over_as_chat(good: Good) -> None:
    """ "tob via wharf": "tob" starts "tobacco"; passed over, the wharf's default kind
    would be loaded. A word of three letters that starts a word of the table gives up
    (or, a clear slip, "cor", is read as the word)."""
    game = load_position("load-wharf")
    seat = game.deciding()[0]
    report = check_mail(f"{good.label[:3]} via wharf", game, seat)
    assert [a.meaning for a in report.accepted] in ([], [f"wharf {good.label}"]), report.render()
    assert report.queued == [], report.render()


@pytest.mark.parametrize(
    "text",
    [
        "If I put the sugar on the 5, Bob tops it up with his sugar.",
        "If I ship sugar on the 5",
        "in case I load the sugar, Bob wins",
    ],
)
def test_an_order_that_is_itself_the_condition_is_no_order(text: str) -> None:
    """ "If I put the sugar on the 5, ...": the writer weighs a move; a condition that
    says nothing but "if I" before the verb is the order's own, never a time it is for
    (it had shipped the sugar). A condition with more words still heads an order."""
    game = load_position("load")
    seat = game.deciding()[0]
    report = check_mail(text, game, seat)
    assert report.actions == [] and report.queued == [], report.render()
    headed = check_mail("If someone picks the captain I ship sugar on the 5", game, seat)
    assert len(headed.actions) == 1, headed.render()


def test_a_pass_read_by_what_it_says_is_no_step_of_a_role() -> None:
    """ "craftsman I guess, nothing better left on the table": the words after the role
    are about the roles, not a no to the extra barrel; "craftsman, nothing" is."""
    game = load_position("role-late")
    report = check_mail("craftsman I guess, nothing better left on the table", game, 0)
    assert "no extra" not in [a.meaning for a in report.accepted], report.render()
    both = check_mail("craftsman, nothing", game, 0)
    assert [a.meaning for a in both.accepted] == ["role craftsman", "no extra"], both.render()


def test_holding_off_on_the_wharf_is_no_use_of_it() -> None:
    """ "I'll hold off on the wharf for now and just put the corn on a boat": the corn
    is loaded and the wharf is not used (it had wharfed the indigo)."""
    game = load_position("load-wharf")
    report = check_mail(
        "I'll hold off on the wharf for now and just put the corn on a boat.", game, 3
    )
    assert [a.meaning for a in report.accepted] == ["ship corn on 5"], report.render()
    assert check_mail("I'll hold off on the wharf", game, 3).actions == []
