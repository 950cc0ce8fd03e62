"""The writer's own words around an order (issue 11): his name or an opening before it,
the time it is for ("in case I'm asleep:", "if there's a trader phase,"), asides on its
line ("too", "ta", "ok so") and lines of chat that name nothing of the game. They are
passed over; another player's name, a negated condition, a condition on another phase
and a taking-back after the order are not."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from orderscorpus import load_position

from moderator.engine.actions import DecisionKind, PickRole, PlaceColonists, Sell
from moderator.engine.components import Good, Role
from moderator.orders import check_mail
from moderator.orders.commands import (
    ROLE_DECISION,
    HaciendaCmd,
    KeepCmd,
    SellCmd,
    SettleCmd,
    target_kind,
)
from moderator.orders.reading import (
    heading_of,
    lead_in,
    named_words,
    names_nothing,
    readings,
    trailing_condition,
)
from moderator.orders.vocabulary import ENGLISH

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ROLES = [Role.SETTLER, Role.MAYOR, Role.BUILDER, Role.TRADER, Role.CAPTAIN]
# What the writer puts after his name, and what ends his words before the order.
AFTER_NAME = st.sampled_from(["", " here", " again", " speaking", " writing"])
SIGN = st.sampled_from([": ", ", ", " - ", " \u2014 ", ". "])


@FAST
@given(st.sampled_from(ROLES), AFTER_NAME, SIGN, st.booleans())
def test_the_writer_s_own_name_before_an_order_is_passed_over(
    role: Role, after: str, sign: str, own_line: bool
) -> None:
    game = load_position("role")  # Anna picks a role
    text = f"Anna{after}{sign.rstrip() if own_line else sign}"
    text += "\n" if own_line else ""
    report = check_mail(f"{text}role {role.label}", game, 0)
    assert report.errors == [] and report.actions == [PickRole(role)], report.render()


@FAST
@given(st.sampled_from(["Chris", "Bob", "David"]), AFTER_NAME, st.sampled_from([": ", " - "]))
def test_another_player_s_name_before_an_order_stops_it(name: str, after: str, sign: str) -> None:
    """An order after another player's name may be his: never done for the writer."""
    game = load_position("role")
    report = check_mail(f"Morning {name}{after}{sign}role settler", game, 0)
    assert report.actions == [] and report.queued == []
    assert any(name in e.reason for e in report.errors), report.render()


@FAST
@given(
    st.sampled_from(["Morning", "Good evening", "Hi", "Hey", "Hiya"]),
    st.sampled_from(["all", "everyone", "guys", "folks", "team"]),
    st.sampled_from([", ", " - ", ": ", "! "]),
    st.sampled_from(ROLES),
    st.sampled_from(["", "I'm going ", "I'll take the ", "ok so ", "right, "]),
)
def test_a_greeting_before_an_order_on_its_line_is_passed_over(
    greeting: str, whom: str, sign: str, role: Role, verb: str
) -> None:
    game = load_position("role")
    report = check_mail(f"{greeting} {whom}{sign}{verb}{role.label}", game, 0)
    assert report.errors == [] and report.actions == [PickRole(role)], report.render()


@FAST
@given(
    st.sampled_from(["too", "as well", "ta", "then", "please ta"]),
    st.sampled_from(["", ".", "!"]),
    st.sampled_from(ROLES),
)
def test_an_aside_on_the_order_s_line_is_passed_over(aside: str, end: str, role: Role) -> None:
    game = load_position("role")
    report = check_mail(f"the {role.label} {aside}{end}", game, 0)
    assert report.errors == [] and report.actions == [PickRole(role)], report.render()


# When an order is for, in the writer's words: a time, or the trader's phase.
WHEN = st.sampled_from(
    [
        "for when my turn comes",
        "in case I'm asleep",
        "in advance",
        "heads up for later",
        "sending this early",
        "when it's my go",
        "if there's a trader phase",
        "once someone picks the trader",
        "by the time we trade",
        "should the trader come up",
    ]
)


@FAST
@given(WHEN, st.sampled_from([": ", ", ", " - "]), st.sampled_from(["", "Bob: ", "Hi all, "]))
def test_an_order_sent_ahead_after_when_it_is_for_is_kept(
    when: str, sign: str, opening: str
) -> None:
    game = load_position("settle")  # Bob has nothing to decide now
    report = check_mail(f"{opening}{when.capitalize()}{sign}sell tobacco", game, 1)
    assert report.errors == [] and report.actions == [], report.render()
    assert [q.command for q in report.queued] == [SellCmd((Good.TOBACCO,))]


@FAST
@given(st.sampled_from(["if", "when", "once", "in case"]), st.sampled_from(["", "I'll "]))
def test_a_condition_up_to_the_verb_is_passed_over(word: str, will: str) -> None:
    game = load_position("settle")
    report = check_mail(f"{word} someone takes the trader {will}sell tobacco", game, 1)
    assert [q.command for q in report.queued] == [SellCmd((Good.TOBACCO,))], report.render()


def test_a_bare_answer_after_a_phase_is_an_order_of_that_phase() -> None:
    game = load_position("settle")
    report = check_mail("For the trader: tobacco", game, 1)
    assert [q.command for q in report.queued] == [SellCmd((Good.TOBACCO,))], report.render()
    report = check_mail("once the captain comes round: my sugar in the warehouse", game, 1)
    assert [type(q.command) for q in report.queued] == [KeepCmd], report.render()


@FAST
@given(st.sampled_from(["the captain comes", "we ship", "the builder is taken", "we settle"]))
def test_an_order_for_another_phase_than_its_condition_names_is_not_read(phase: str) -> None:
    """ "When the captain comes: sell tobacco": which is meant? Not a guess."""
    game = load_position("settle")
    report = check_mail(f"When {phase}: sell tobacco", game, 1)
    assert report.queued == [] and report.errors, report.render()
    assert readings(f"If {phase}, sell tobacco", None)[0].phase


@FAST
@given(st.sampled_from(["unless", "if nobody", "if no one", "if Anna doesn't"]))
def test_a_negated_condition_is_never_passed_over(lead: str) -> None:
    game = load_position("settle")
    report = check_mail(f"{lead} takes the trader: sell tobacco", game, 1)
    assert report.queued == [] and report.actions == [], report.render()


def test_in_the_role_phase_a_role_before_its_step_is_still_picked() -> None:
    """ "For the trader: coffee" from the one picking a role: that role and a sale."""
    game = load_position("role")
    report = check_mail("For the trader: coffee", game, 0)
    assert report.actions[:1] == [PickRole(Role.TRADER)], report.render()


# Chat: a line that names nothing of the game.
CHAT = st.sampled_from(
    [
        "Apologies for the slow reply, busy week.",
        "Hope you are all well",
        "Anna here.",
        "Long day at work",
        "Here we go again!",
    ]
)
COLONISTS = "remove 1 from quarry, place 2 on coffee roaster, 1 on the university and 1 on sugar"


@FAST
@given(CHAT, st.booleans())
def test_a_line_of_chat_does_not_stop_a_colonist_order(chat: str, before: bool) -> None:
    game = load_position("mayor")  # a colonist order is read whole, from every line
    text = f"{chat}\n{COLONISTS}" if before else f"{COLONISTS}\n{chat}"
    report = check_mail(text, game, 0)
    assert report.errors == [], report.render()
    assert [type(a) for a in report.actions] == [PlaceColonists]


@FAST
@given(st.sampled_from(["Never mind.", "Cancel that please", "Hang on, wrong one", "Sorry, no"]))
def test_a_line_after_the_order_that_may_take_it_back_is_no_chat(line: str) -> None:
    game = load_position("mayor")
    report = check_mail(f"{COLONISTS}\n{line}", game, 0)
    assert report.actions == [] and report.errors, report.render()
    assert not names_nothing(line, after=True)


def test_chat_alone_in_a_mail_is_answered_and_a_word_alone_is_no_chat() -> None:
    game = load_position("role")
    # Before any order, a "sorry" takes nothing back.
    report = check_mail("Sorry for the delay, long week.\nthe mayor", game, 0)
    assert report.errors == [] and report.actions == [PickRole(Role.MAYOR)]
    assert check_mail("Sorry for the delay, long week.", game, 0).errors
    assert not names_nothing("Frobnicate", after=False)
    assert names_nothing("Bob here.", after=False, own=frozenset({"bob"}))
    assert not names_nothing("Chris and the mayor", after=False)


def test_a_word_alone_before_a_colon_is_passed_over_only_when_it_is_the_writer_s_name() -> None:
    assert lead_in("Zyx: 2 on coffee roaster") is None
    lead = lead_in("Zyx: 2 on coffee roaster", own=frozenset({"zyx"}))
    assert lead is not None and lead.end == len("Zyx: ")
    assert lead_in("Setler: sugar") is None  # a slip of an order word is the order's


def test_a_sale_kept_with_its_condition_is_done_when_the_trader_comes() -> None:
    game = load_position("trade")  # Bob, the trader
    report = check_mail("Bob here. If there's a trader phase, tobacco ta", game, 1)
    assert report.errors == [] and report.actions == [Sell(Good.TOBACCO)], report.render()


# -- sent ahead, in the phase in progress: when it is his turn --------------------------

WHEN_MINE = st.sampled_from(
    ["when it's my go", "when my turn comes", "once it gets to me", "when I get the chance"]
)


@FAST
@given(WHEN_MINE, st.booleans(), st.sampled_from(["", "sell ", "my "]))
def test_a_bare_answer_sent_ahead_is_for_the_writer_s_turn_in_this_phase(
    when: str, after: bool, verb: str
) -> None:
    """Anna sells after Bob, the trader: "coffee" is her sale, not a tile or a load."""
    game = load_position("trade")
    text = f"{verb}coffee {when}" if after else f"{when.capitalize()}: {verb}coffee"
    report = check_mail(text, game, 0)
    assert report.errors == [] and report.actions == [], report.render()
    assert [q.command for q in report.queued] == [SellCmd((Good.COFFEE,))]


@FAST
@given(
    st.sampled_from(["once Bob is done", "after Bob", "when Bob has sold", "as soon as Bob is"]),
    st.booleans(),
)
def test_another_player_named_in_when_the_order_is_for_does_not_stop_it(
    when: str, after: bool
) -> None:
    game = load_position("trade")
    text = f"sell coffee {when}" if after else f"{when.capitalize()}, sell coffee"
    report = check_mail(text, game, 0)
    assert [q.command for q in report.queued] == [SellCmd((Good.COFFEE,))], report.render()


@FAST
@given(
    st.sampled_from(["if Bob sells corn", "if I still have coffee", "when Chris takes the mayor"]),
    st.sampled_from(["sell coffee", "take the trader"]),
)
def test_an_order_after_a_condition_the_moderator_cannot_check_is_not_done(
    cond: str, order: str
) -> None:
    for position in ("trade", "role"):
        report = check_mail(f"{cond}, {order}", load_position(position), 0)
        assert report.actions == [] and report.queued == [], report.render()


def test_a_verb_said_of_someone_else_is_the_condition_s_not_the_order() -> None:
    game = load_position("trade")
    report = check_mail("after Bob sells corn, coffee", game, 0)
    assert report.queued == [] and report.errors, report.render()
    assert trailing_condition("sell coffee when it gets to me") is not None
    assert trailing_condition("take the builder for the factory") is None


@FAST
@given(
    st.sampled_from(["trader phase", "re the trader", "as for the trader", "regarding trader"]),
    st.sampled_from([": ", " - ", ", "]),
)
def test_a_phase_named_before_a_bare_answer_sent_ahead_says_what_it_answers(
    phase: str, sign: str
) -> None:
    game = load_position("settle")  # Bob sells when the trader comes
    report = check_mail(f"{phase.capitalize()}{sign}tobacco", game, 1)
    assert [q.command for q in report.queued] == [SellCmd((Good.TOBACCO,))], report.render()


@FAST
@given(
    st.sampled_from(["Never mind.", "Cancel that, sorry", "scratch that", "no wait", "undo"]),
    st.sampled_from(["build harbor", "sell coffee"]),
)
def test_a_last_line_that_only_takes_back_leaves_the_mail_undone(back: str, order: str) -> None:
    for position, seat in (("build", 0), ("trade", 0)):
        report = check_mail(f"{order}\n{back}", load_position(position), seat)
        assert report.actions == [] and report.queued == [], report.render()
        assert any("takes back" in e.reason for e in report.errors)
    # followed by an order, it takes back the one before: the later one is done
    report = check_mail(f"build wharf\n{back}\nbuild harbor", load_position("build"), 0)
    assert [a.meaning for a in report.accepted] == ["build harbor"], report.render()
    # and the one before is not done when the one after is for another decision
    report = check_mail(f"build wharf\n{back}\nsell coffee", load_position("build"), 0)
    assert report.actions == [] and [q.command for q in report.queued] == [
        SellCmd((Good.COFFEE,))
    ], report.render()


def test_an_apology_after_an_order_takes_nothing_back() -> None:
    report = check_mail("build harbor\nSorry for the delay, long week", load_position("build"), 0)
    assert [a.meaning for a in report.accepted] == ["build harbor"], report.render()


@FAST
@given(
    st.sampled_from(["Enjoy your weekend all", "Talk soon, fingers crossed", "Speak soon"]),
    st.sampled_from(["OK here goes - ", "Right then: ", "Anna's orders: ", "My orders: ", ""]),
)
def test_a_closing_and_a_heading_do_not_stop_a_colonist_order(closing: str, lead: str) -> None:
    game = load_position("mayor")
    report = check_mail(f"{lead}{COLONISTS}\n{closing}", game, 0)
    assert report.errors == [], report.render()
    assert [type(a) for a in report.actions] == [PlaceColonists]


def test_orders_heads_an_order_only_before_a_colon() -> None:
    assert lead_in("My orders: settler") is not None
    assert lead_in("My orders, settler") is None  # ("orders" asks for the orders)


@FAST
@given(
    st.sampled_from(["erm", "uh", "lol", "cool", "great", "um ok"]),
    st.sampled_from([", ", " "]),
)
def test_a_sound_or_a_nod_before_an_answer_is_passed_over(sound: str, sign: str) -> None:
    report = check_mail(f"{sound}{sign}coffee", load_position("settle"), 0)
    assert [a.meaning for a in report.accepted] == ["settle coffee"], report.render()


@FAST
@given(st.sampled_from(["no wait", "actually", "sorry, I meant", "no -"]))
def test_a_taking_back_with_an_order_not_understood_leaves_the_one_before_undone(
    back: str,
) -> None:
    report = check_mail(f"coffee\n{back} the blue one", load_position("settle"), 0)
    assert report.actions == [] and report.queued == [], report.render()
    # ... and with one understood, after a sound, the later one is done
    report = check_mail(f"coffee\n{back}, um, quarry", load_position("settle"), 0)
    assert [a.meaning for a in report.accepted] == ["take quarry"], report.render()


@FAST
@given(st.sampled_from(["when we get to loading", "come the captain phase", "during the loading"]))
def test_a_phase_named_by_what_it_does_says_what_a_bare_answer_sent_ahead_is(when: str) -> None:
    report = check_mail(f"{when}: sugar on the 5", load_position("settle"), 1)
    assert [type(q.command).__name__ for q in report.queued] == ["ShipCmd"], report.render()
    report = check_mail("keep the sugar in the warehouse at the end", load_position("load"), 1)
    assert [type(q.command) for q in report.queued] == [KeepCmd], report.render()


def test_a_role_sent_ahead_with_its_step_is_not_read_for_the_role_asked_later() -> None:
    """Bob picks later this round: "the builder for the factory" may be a plan, as for
    any order sent ahead, not the two orders it is from the player picking now."""
    report = check_mail("the builder for the factory", load_position("role"), 1)
    assert report.queued == [] and report.actions == [], report.render()
    report = check_mail("the builder for the factory", load_position("role"), 0)
    assert report.actions[:1] == [PickRole(Role.BUILDER)], report.render()


# A bare answer for the first decision of each role's phase, from Bob (who has nothing
# to decide in "settle"), and its heading words from the vocabulary.
ANSWERS = {
    DecisionKind.SETTLE: "tobacco",
    DecisionKind.MAYOR: "1 on indigo, 1 on tobacco",
    DecisionKind.BUILD: "small market",
    DecisionKind.SELL: "tobacco",
    DecisionKind.LOAD: "sugar on the 5",
    DecisionKind.STORE: "sugar in the warehouse",
}
PHASE_ROLES = [r for r, k in ROLE_DECISION.items() if k in ANSWERS]


@FAST
@given(
    st.sampled_from(PHASE_ROLES),
    st.sampled_from(["{}: ", "{} - ", "The {}'s phase: ", "{} phase \u2014 "]),
)
def test_a_role_heading_an_order_sent_ahead_names_its_phase(role: Role, heading: str) -> None:
    """ "Trader: tobacco" from a player who has nothing to decide: a sale, kept."""
    kind = ROLE_DECISION[role]
    text = heading.format(role.label.capitalize()) + ANSWERS[kind]
    report = check_mail(text, load_position("settle"), 1)
    assert [target_kind(q.command) for q in report.queued] == [kind], report.render()


def test_a_role_heading_an_order_of_another_phase_stops_it() -> None:
    for text in ("Captain: sell tobacco", "Builder - sugar on the 5"):
        report = check_mail(text, load_position("settle"), 1)
        assert report.queued == [] and report.errors, report.render()


def test_a_role_heading_the_decision_asked_now_is_read_for_it() -> None:
    report = check_mail("Trader: the sugar", load_position("trade"), 1)
    assert report.actions == [Sell(Good.SUGAR)], report.render()
    # picking a role now, it is the role and its first step, as before
    report = check_mail("Trader: coffee", load_position("role"), 0)
    assert report.actions[:1] == [PickRole(Role.TRADER)], report.render()


@pytest.mark.parametrize("word", sorted(named_words(ENGLISH)))
def test_a_heading_that_names_a_decision_reads_the_order_for_it(word: str) -> None:
    """Every heading word of the vocabulary ("Storage:", "Shipping -", "Sales:"), on the
    order's line and alone above it."""
    head = heading_of(f"{word.capitalize()}:")
    assert head is not None and head.kind is not None
    if head.kind not in ANSWERS:
        return  # (no bare answer of it here)
    for sign in (": ", " - ", ":\n"):
        text = f"{word.capitalize()}{sign}{ANSWERS[head.kind]}"
        report = check_mail(text, load_position("settle"), 1)
        assert [target_kind(q.command) for q in report.queued] == [head.kind], report.render()


def test_a_heading_that_names_a_decision_never_reads_another_s_order() -> None:
    report = check_mail("Storage: sell the tobacco", load_position("settle"), 1)
    assert report.queued == [] and report.actions == [], report.render()


@FAST
@given(
    st.sampled_from(ENGLISH.phase_leads),
    st.sampled_from(["the", "my"]),
    st.sampled_from([w for w, r in ENGLISH.role_verbs.items() if w.endswith("ing")]),
    st.sampled_from(ENGLISH.phase_words),
)
def test_a_phase_named_by_what_it_does_before_an_order_is_its_phase(
    lead: str, det: str, doing: str, word: str
) -> None:
    """ "In the trading phase I'll sell tobacco": a sale, kept; "in the shipping phase
    I'll sell tobacco": which is meant? Not read."""
    text = f"{lead.capitalize()} {det} {doing} {word} I'll sell tobacco"
    report = check_mail(text, load_position("settle"), 1)
    queued = [q.command for q in report.queued]
    if ENGLISH.role_verbs[doing] is Role.TRADER:
        assert queued == [SellCmd((Good.TOBACCO,))], report.render()
    else:
        assert queued == [] and report.actions == [], report.render()


@FAST
@given(st.sampled_from(ENGLISH.provisos))
def test_a_condition_the_moderator_cannot_check_is_never_passed_over(word: str) -> None:
    """ "unless ...", "as long as ...", "if I can afford it": the order is not kept."""
    for text in (f"{word} the captain comes first, sell tobacco", f"if {word} it, sell tobacco"):
        for position, seat in (("settle", 1), ("trade", 1)):
            report = check_mail(text, load_position(position), seat)
            assert report.queued == [] and report.actions == [], report.render()


@FAST
@given(
    st.sampled_from(["I'm away tomorrow", "Away next week", "Offline later", "busy tomorrow"]),
    st.sampled_from(ENGLISH.early),
    st.sampled_from([", so {}: ", " so {} - ", ", {}: "]),
)
def test_a_time_the_writer_is_away_sent_early_is_not_the_order_s(
    away: str, early: str, sign: str
) -> None:
    report = check_mail(f"{away}{sign.format(early)}sell tobacco", load_position("settle"), 1)
    assert [q.command for q in report.queued] == [SellCmd((Good.TOBACCO,))], report.render()


def test_a_time_to_come_before_an_order_not_sent_early_still_puts_it_off() -> None:
    report = check_mail("Tomorrow: sell tobacco", load_position("settle"), 1)
    assert report.queued == [] and report.errors, report.render()


@FAST
@given(
    st.sampled_from(["If I end up as settler", "in case someone goes settler", "if I get settler"]),
    st.sampled_from(["I'll use the hacienda", "I will draw from the hacienda", "let me use it"]),
)
def test_a_condition_runs_up_to_the_writer_s_own_words_that_start_the_order(
    cond: str, order: str
) -> None:
    report = check_mail(f"{cond} {order}", load_position("role"), 2)  # Chris picks later
    if order.endswith(" it"):  # "it" stands for what? Not read.
        assert report.queued == [], report.render()
    else:
        assert [q.command for q in report.queued] == [HaciendaCmd(True)], report.render()


def test_a_condition_after_the_order_may_end_before_more_of_it() -> None:
    report = check_mail("Quarry for me when it's my go, with the hut.", load_position("settle"), 3)
    assert [q.command for q in report.queued] == [SettleCmd(None)], report.render()
    tail = trailing_condition("quarry when it's my go, with the hut")
    assert tail is not None and tail.stop == len("quarry when it's my go")


def test_a_line_whose_only_reading_is_the_reason_it_gives_is_not_understood() -> None:
    """ "I'm away until Monday, so in advance: sell tobacco": the absence is the reason,
    and the rest was not read; it had stopped the whole mail with an error."""
    report = check_mail(
        "I'm away until Monday, so in advance: sell tobacco", load_position("settle"), 1
    )
    assert report.queued == [] and report.actions == [] and report.errors, report.render()


@FAST
@given(
    st.sampled_from(["Trader:", "The trader's phase:", "Sales:", "Trading:"]),
    st.sampled_from(["tobacco", "sell tobacco", "the tobacco please"]),
)
def test_a_heading_alone_on_its_line_heads_the_lines_below_it(head: str, order: str) -> None:
    """From a player who picks no role now, "Trader:" over "tobacco" is a sale: no role
    is kept for his next pick."""
    report = check_mail(f"{head}\n{order}", load_position("settle"), 1)
    assert [q.command for q in report.queued] == [SellCmd((Good.TOBACCO,))], report.render()


def test_a_heading_alone_reads_no_order_of_another_phase_below_it() -> None:
    for text in ("Captain:\nsell tobacco", "Storage:\nsell tobacco", "Storage:"):
        report = check_mail(text, load_position("settle"), 1)
        assert report.queued == [] and report.actions == [], report.render()
    # a blank line ends what it heads
    report = check_mail("Captain:\nkeep sugar\n\nsell tobacco", load_position("settle"), 1)
    assert [type(q.command) for q in report.queued] == [KeepCmd, SellCmd], report.render()


def test_a_role_heading_alone_from_the_player_picking_now_is_still_the_role() -> None:
    report = check_mail("Trader:\ncoffee", load_position("role"), 0)
    assert report.actions[:1] == [PickRole(Role.TRADER)], report.render()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("My role when it comes round to me again: mayor.", DecisionKind.ROLE),
        ("Role once it's my go: mayor", DecisionKind.ROLE),
        ("Sales for later: coffee", DecisionKind.SELL),
        ("Sales when it gets to me - coffee", DecisionKind.SELL),
    ],
)
def test_when_it_is_for_after_a_heading_before_the_colon_is_passed_over(
    text: str, kind: DecisionKind
) -> None:
    report = check_mail(text, load_position("trade"), 0)  # Anna sells later
    assert [target_kind(q.command) for q in report.queued] == [kind], report.render()


@FAST
@given(st.sampled_from(["provided", "as long as", "assuming", "only if", "so long as"]))
def test_a_condition_of_the_phase_said_otherwise_is_passed_over(word: str) -> None:
    report = check_mail(f"{word} someone picks the trader: tobacco", load_position("settle"), 1)
    assert [q.command for q in report.queued] == [SellCmd((Good.TOBACCO,))], report.render()
    report = check_mail(f"{word} Chris picks the trader: tobacco", load_position("settle"), 1)
    assert report.queued == [], report.render()


@pytest.mark.parametrize("arrow", ["->", "=>", "\u2192"])
def test_an_arrow_ends_a_heading_as_a_colon_does(arrow: str) -> None:
    report = check_mail(f"Builder phase {arrow} small market", load_position("settle"), 1)
    assert [target_kind(q.command) for q in report.queued] == [DecisionKind.BUILD], report.render()
    report = check_mail(f"Storage {arrow} sugar in the warehouse", load_position("settle"), 1)
    assert [type(q.command) for q in report.queued] == [KeepCmd], report.render()


def test_a_colonist_order_of_the_mayor_s_own_words_under_his_phase_sent_ahead() -> None:
    """ "indigo gets 1" is a colonist order in the mayor phase only: under "Mayor:" too."""
    for text in (
        "Mayor:\nindigo gets 1, tobacco gets 1",
        "Mayor phase: indigo gets 1, tobacco gets 1",
    ):
        report = check_mail(text, load_position("settle"), 1)
        assert [target_kind(q.command) for q in report.queued] == [DecisionKind.MAYOR], (
            report.render()
        )


@pytest.mark.parametrize(
    "text",
    ["Trader: Chris, sell tobacco", "Chris:\nsell tobacco", "Bob here - Anna, sell tobacco"],
)
def test_an_order_addressed_to_another_player_after_a_heading_or_below_his_name_stops(
    text: str,
) -> None:
    report = check_mail(text, load_position("trade"), 1)
    assert report.actions == [] and report.queued == [], report.render()
    # a blank line ends what his name heads
    report = check_mail("Chris:\nsell corn\n\nsell tobacco", load_position("trade"), 1)
    assert report.actions == [Sell(Good.TOBACCO)], report.render()


@FAST
@given(st.sampled_from(["nah", "nope", "no"]), st.sampled_from(["...", ".", ","]))
def test_a_short_no_with_a_comma_after_it_takes_back_the_sale_before_it(no: str, end: str) -> None:
    report = check_mail(f"I'd sell corn{end} {no}, coffee.", load_position("trade-market"), 0)
    assert [a.meaning for a in report.accepted] == ["sell coffee"], report.render()
    # (and, with nothing before it, it is only a no: "nah, nothing to sell")
    report = check_mail(f"{no}, nothing to sell", load_position("trade-market"), 0)
    assert [a.meaning for a in report.accepted] == ["sell nothing"], report.render()


@FAST
@given(st.sampled_from(["no actually", "no wait", "sorry", "actually"]))
def test_a_taking_back_is_read_for_the_decision_of_the_order_it_takes_back(back: str) -> None:
    """The hacienda leads to the plantation; a no after it taken back is for the
    hacienda ("Hacienda... no actually, skip it"), not for the plantation."""
    game = load_position("hacienda")
    seat = next(d.seat for d in game.decisions() if not d.forced)
    text = f"Hacienda... {back}, skip it, island's nearly full. Just sugar please."
    report = check_mail(text, game, seat)
    assert [a.meaning for a in report.accepted] == ["no hacienda", "settle sugar"], report.render()


@FAST
@given(
    st.sampled_from(["hmm, hacienda...", "hacienda\u2026", "Hacienda..."]),
    st.sampled_from(["what are the odds there's coffee left?", "is any coffee left? anyone?"]),
)
def test_an_order_that_trails_off_into_a_question_is_asked_back(order: str, asks: str) -> None:
    game = load_position("hacienda")
    seat = next(d.seat for d in game.decisions() if not d.forced)
    report = check_mail(f"{order} {asks}", game, seat)
    assert report.actions == [] and report.queued == [], report.render()
    assert any('write "hacienda"' in e.reason for e in report.errors), report.render()
    # answered after it, it is done
    report = check_mail(f"{order} {asks} Whatever, hacienda.", game, seat)
    assert [a.meaning for a in report.accepted] == ["hacienda"], report.render()


def test_a_choice_asked_and_answered_in_the_mail_is_a_remark_not_asked_back() -> None:
    text = "hmm, settler or builder? nothing worth building yet... ok settler then"
    report = check_mail(text, load_position("role"), 0)
    assert [a.meaning for a in report.accepted] == ["role settler"], report.render()
    assert "asked back" not in report.render() and "a question you answer" in report.render()


@pytest.mark.parametrize(
    ("text", "meant"), [("no actually, no.", "no hacienda"), ("sorry, yes", "hacienda")]
)
def test_a_yes_or_a_no_after_a_taking_back_is_its_answer(text: str, meant: str) -> None:
    game = load_position("hacienda")
    seat = game.deciding()[0]
    report = check_mail(f"hacienda yes... {text} Just the quarry.", game, seat)
    done = [a.meaning for a in report.accepted]
    assert done[:1] == [meant] and done[-1] == "take quarry", report.render()
    # ("wait no." alone only takes back)
    report = check_mail("hacienda. wait no.", game, seat)
    assert report.actions == [] and report.queued == [], report.render()


def test_a_decision_doubted_again_is_no_decision() -> None:
    text = "Hmm, sugar or tobacco. Tobacco pays more but sugar clears space... let me think."
    report = check_mail(text, load_position("trade"), 1)
    assert report.actions == [] and report.queued == [], report.render()
    report = check_mail("not sure, but sugar", load_position("trade"), 1)
    assert [a.meaning for a in report.accepted] == ["sell sugar"], report.render()


def test_a_question_taken_back_in_the_order_s_piece_takes_back_the_orders_before() -> None:
    text = "Tobacco... only one barrel, pointless on a ship. wharf it? no - corn on the wharf."
    report = check_mail(text, load_position("load-wharf"), 3)
    assert [a.meaning for a in report.accepted] == ["wharf corn"], report.render()
