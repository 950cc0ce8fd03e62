"""Orders sent ahead for a later decision (issue 11): the writer's words around them.
Words saying the order holds whatever happens, a reason before when it is for, a remark
after it, a condition on the writer himself with a no in it, and the storage named as
when it is for are passed over; a no on the game, a condition the moderator cannot check
and an order of another decision than the one named are not."""

from __future__ import annotations

import pytest
from orderscorpus import load_position

from moderator.engine.actions import DecisionKind
from moderator.engine.components import Good
from moderator.orders import check_mail
from moderator.orders.commands import KeepCmd, SellCmd, target_kind
from moderator.orders.vocabulary import ENGLISH

SELL_TOBACCO = [SellCmd((Good.TOBACCO,))]


def _kept(text: str, position: str = "role", seat: int = 1) -> list[object]:
    """What a mail from ``seat`` (Bob: nothing to decide in "role") keeps."""
    report = check_mail(text, load_position(position), seat)
    assert report.actions == [], report.render()
    return [q.command for q in report.queued]


@pytest.mark.parametrize("lead", ENGLISH.regardless)
@pytest.mark.parametrize("when", ["when the trader comes, ", "in the trader phase: ", ""])
def test_words_saying_the_order_holds_whatever_happens_are_passed_over(
    lead: str, when: str
) -> None:
    assert (
        _kept(f"{lead.capitalize()} else, {when}sell tobacco") == SELL_TOBACCO
        or _kept(f"{lead.capitalize()}, {when}sell tobacco") == SELL_TOBACCO
    )


@pytest.mark.parametrize(
    "lead",
    ["no matter what, unless Anna sells", "whatever happens, if nobody sells"],
)
def test_whatever_happens_with_a_condition_or_a_no_in_it_is_not_passed_over(lead: str) -> None:
    assert _kept(f"{lead}, sell tobacco when the trader comes") == []


@pytest.mark.parametrize("reason", ["Got nothing else", "My tobacco is worth the most"])
@pytest.mark.parametrize("when", ["for the trader later - ", "in the trader phase: "])
def test_a_reason_before_when_the_order_is_for_is_passed_over(reason: str, when: str) -> None:
    assert _kept(f"{reason}, so {when}sell tobacco") == SELL_TOBACCO


@pytest.mark.parametrize(
    "order", ["When the trader comes I'll sell tobacco", "sell tobacco once it gets to me"]
)
@pytest.mark.parametrize(
    "aside", [", just so you know", ", I could use the money", " - fingers crossed"]
)
def test_a_remark_after_an_order_whose_condition_only_says_when(order: str, aside: str) -> None:
    report = check_mail(order + aside, load_position("role"), 1)
    assert [q.command for q in report.queued] == SELL_TOBACCO, report.render()


@pytest.mark.parametrize(
    "condition",
    ["in case I can't answer in time", "if I don't reply", "in case I'm not around"],
)
def test_a_no_in_a_condition_on_the_writer_himself_is_passed_over(condition: str) -> None:
    assert _kept(f"{condition}: when the trader comes, sell tobacco") == SELL_TOBACCO


@pytest.mark.parametrize(
    "condition",
    [
        "if I'm not the trader",
        "if I don't take the trader",
        "if Anna doesn't sell",
        "if nobody sells",
    ],
)
def test_a_no_on_the_game_in_a_condition_stops_the_order(condition: str) -> None:
    assert _kept(f"{condition}, sell tobacco") == []


@pytest.mark.parametrize(
    "when", ["at storage", "At storage time:", "come storage,", "for storage:"]
)
def test_the_storage_named_as_when_the_order_is_for_reads_it_as_a_storage(when: str) -> None:
    kept = _kept(f"{when} I keep indigo and coffee in my warehouse", "craftsman", 3)
    assert [type(c) for c in kept] == [KeepCmd]
    kept = _kept(f"{when.rstrip(':,')}: tobacco in the warehouse", "craftsman", 3)
    assert [target_kind(c) for c in kept] == [DecisionKind.STORE]


def test_an_order_of_another_decision_than_the_one_named_is_not_read() -> None:
    assert _kept("at storage: corn on the 5", "craftsman", 3) == []
    assert _kept("when we ship, keep tobacco in the warehouse", "craftsman", 3) != []


@pytest.mark.parametrize(
    "when",
    [
        "next time there's a trader,",
        "the next time someone picks the trader,",
        "next trader phase:",
        "In the next trading phase",
        "For the next trader:",
        "next time:",
    ],
)
def test_an_order_for_the_next_phase_is_kept_for_its_next_decision(when: str) -> None:
    """Bob, in the settler phase, sells when the trader next comes."""
    assert _kept(f"{when} sell tobacco", "settle") == SELL_TOBACCO


@pytest.mark.parametrize(("position", "seat"), [("trade", 1), ("trade-market", 1)])
@pytest.mark.parametrize("when", ["next trader phase:", "next time,", "in the next trading phase"])
def test_an_order_for_the_next_phase_is_never_used_in_the_one_in_progress(
    position: str, seat: int, when: str
) -> None:
    """The trader now, or Bob's sale still to come in this phase: refused with the
    reason, never done nor kept (it would be used in this phase)."""
    report = check_mail(f"{when} sell sugar", load_position(position), seat)
    assert report.actions == [] and report.queued == [], report.render()
    assert report.errors, report.render()


def test_an_order_for_the_next_round_is_kept_only_when_this_round_asks_it_no_more() -> None:
    # Bob still picks a role this round; David loaded in this round's captain phase.
    assert _kept("next round I'll be the mayor", "role") == []
    report = check_mail("next round: wharf my corn", load_position("store"), 3)
    assert [type(q.command).__name__ for q in report.queued] == ["WharfCmd"], report.render()


def test_an_order_for_the_next_phase_is_not_answered_already_done() -> None:
    """An order for a decision taken this round is answered "already done"; one said
    to be for the next such phase is kept for it."""
    game = load_position("store")  # David has loaded in this captain phase
    report = check_mail("next captain: wharf my corn", game, 3, done=lambda kind: "ship corn on 5")
    assert [type(q.command).__name__ for q in report.queued] == ["WharfCmd"], report.render()
    report = check_mail("captain: wharf my corn", game, 3, done=lambda kind: "ship corn on 5")
    assert report.queued == [] and report.errors, report.render()


@pytest.mark.parametrize(
    "reminder", [", can you remember that?", " - please note", ". Please remember!", ", fyi"]
)
def test_a_remark_asking_to_keep_the_order_in_mind_leaves_it(reminder: str) -> None:
    assert _kept(f"when the trader comes, sell tobacco{reminder}") == SELL_TOBACCO


def test_but_before_a_condition_starts_it() -> None:
    text = "Nothing for me now. But next captain I'm going to wharf my corn."
    report = check_mail(text, load_position("store"), 3)
    assert [type(q.command).__name__ for q in report.queued] == ["WharfCmd"], report.render()
    assert _kept("But when the trader comes, sell tobacco") == SELL_TOBACCO
    assert _kept("But unless Anna sells, sell tobacco") == []


@pytest.mark.parametrize(
    "head", ["the big warehouse gets", "Warehouse:", "my large warehouse takes"]
)
@pytest.mark.parametrize("good", ["tobacco", "coffee"])
@pytest.mark.parametrize("joint", [", ", ", and the ", ", and "])
def test_goods_after_a_comma_under_a_heading_take_the_place_said_after_them(
    head: str, good: str, joint: str
) -> None:
    """The storage: "the warehouse gets indigo and sugar, tobacco on the wind rose" keeps
    the tobacco on the wind rose, not in the warehouse."""
    text = f"{head} the indigo and the sugar{joint}{good} on the wind rose"
    report = check_mail(text, load_position("store-large"), 3)
    meaning = [a.meaning for a in report.accepted]
    wanted = f"keep indigo in warehouse, sugar in warehouse, 1 {good} on wind rose"
    assert meaning == [wanted], report.render()
