"""A whole mail checked for one seat (issue 3, items 3 and 5): what is done now, what is
kept for later, and every rejected line with a caret, the reason and the legal orders."""

from __future__ import annotations

from engine.positions import blank, build, face_up, ready
from orderscorpus import load_position
from test_orders_resolve import mayor_game, seed_000, trader_game

from moderator.engine.actions import (
    PASS,
    DecisionKind,
    Load,
    PickRole,
    Sell,
    TakePlantation,
    UseHacienda,
)
from moderator.engine.components import Building, Good, Role
from moderator.orders import (
    DecisionKey,
    IllegalOrder,
    OrderSyntaxError,
    QueuedOrder,
    check_mail,
    decision_key,
    enqueue,
    parse_order,
    prune,
    take_queued,
    try_queued,
)
from moderator.orders.commands import HelpCmd, RoleCmd, RoleRef, SellCmd

SUGAR, TOBACCO, COFFEE = Good.SUGAR, Good.TOBACCO, Good.COFFEE


def test_every_rejected_line_is_quoted_with_a_reason_and_later_lines_are_checked() -> None:
    game = seed_000()
    report = check_mail("ship sugar on 5\nbuild hrbr; ship corn\nhelp\nrole captain", game, 0)
    assert report.actions == []
    assert report.services == [HelpCmd()]
    assert [type(e) for e in report.errors] == [IllegalOrder, OrderSyntaxError, IllegalOrder]
    first, syntax, unused = report.errors
    assert first.line_no == 1 and "ship of 5" in first.reason
    assert (syntax.line_no, syntax.column) == (2, 7)
    assert unused.column == 13 and "line 1" in unused.reason
    assert first.legal == ("ship corn on 6", "ship sugar on 7")
    text = report.render()
    assert "> build hrbr; ship corn\n        ^\nline 2: I do not understand" in text
    assert text.endswith("You may order now:\n    ship corn on 6\n    ship sugar on 7")
    # The role order is for later: kept, not an error.
    (queued,) = report.queued
    assert queued.command == RoleCmd((RoleRef(Role.CAPTAIN),))
    assert queued.key.kind is DecisionKind.ROLE and not queued.key.current


def test_an_accepted_order_says_what_the_defaults_made_of_it() -> None:
    game = seed_000()
    report = check_mail("ship", game, 0)
    assert report.ok and report.actions == [Load(SUGAR, 2)]
    assert report.render() == 'Accepted:\n  line 1: "ship" -> ship sugar on 7'


def test_the_colonist_order_may_span_lines() -> None:
    game = mayor_game()
    text = "Mayor:\nremove 1 from corn, 1 from san juan\nplace 2 on coffee roaster, 1 on quarry"
    report = check_mail(text.replace("Mayor:\n", ""), game, 0)
    assert report.ok and len(report.actions) == 1


def test_the_mayor_error_describes_the_board_instead_of_listing_layouts() -> None:
    game = mayor_game()
    report = check_mail("place 1 on coffee roaster", game, 0)
    (err,) = report.errors
    assert "would stay in San Juan" in err.reason
    assert err.legal[0].startswith("Your colonists:")
    assert len(err.legal) == 4


def test_orders_ahead_of_time_are_kept_and_used_when_their_turn_comes() -> None:
    """Item 3: Bob sends his loading while Anna is still to load."""
    game = seed_000()
    report = check_mail("ship tobacco", game, 1)
    assert report.actions == []
    (queued,) = report.queued
    assert queued.key.current and queued.key.kind is DecisionKind.LOAD
    assert "later in this phase" in report.render()
    assert take_queued(game, 1, report.queued) == (None, report.queued)  # not his turn yet
    game.apply(0, Load(SUGAR, 2))
    action, left = take_queued(game, 1, report.queued)
    assert action == Load(TOBACCO, 0) and left == []
    assert try_queued(game, 1, [queued.command]) == Load(TOBACCO, 0)


def test_a_kept_order_no_longer_legal_is_dropped_and_the_player_asked() -> None:
    game = seed_000()
    report = check_mail("ship indigo", game, 1)  # Bob has no indigo
    game.apply(0, Load(SUGAR, 2))
    action, left = take_queued(game, 1, report.queued)
    assert action is None and left == []


def test_a_quarry_kept_for_later_in_the_phase_is_refused_when_it_can_never_be_taken() -> None:
    """A quarry ordered ahead in the settler phase by one who is not the settler and
    has no manned construction hut is refused at once, with the reason, never kept to
    be dropped later; a plantation from him is kept."""
    game = load_position("hacienda")
    bob = game.names.index("Bob")
    assert game.state.picker != bob
    assert not game.state.players[bob].active(Building.CONSTRUCTION_HUT)
    for text in ("take quarry", "I'll take a quarry when it's my turn."):
        report = check_mail(text, game, bob)
        assert report.queued == [] and report.actions == [], report.render()
        assert "only the settler, or a player with a manned construction hut" in report.render()
    assert len(check_mail("settle corn", game, bob).queued) == 1


def test_the_last_order_for_a_decision_replaces_earlier_ones() -> None:
    game = trader_game()
    first = check_mail("sell tobacco", game, 1).queued[0]
    second = check_mail("sell indigo or tobacco", game, 1).queued[0]
    assert first.key == second.key
    queue = enqueue(enqueue([], first), second)
    assert queue == [second]
    assert second.command == SellCmd((Good.INDIGO, TOBACCO))
    game.apply(0, Sell(COFFEE))
    action, _ = take_queued(game, 1, queue)
    assert action == Sell(TOBACCO)  # the trading house has indigo already


def test_orders_for_a_phase_that_ended_are_dropped() -> None:
    game = trader_game()
    queue = check_mail("sell tobacco", game, 1).queued
    game.apply(0, PASS)
    game.apply(1, PASS)
    assert game.state.phase.value == "role"
    assert prune(queue, game) == []


def test_a_role_preference_list_waits_for_the_next_pick() -> None:
    game = trader_game()
    key = decision_key(parse_order("role captain, builder"), game, 1)
    assert key is not None and key.kind is DecisionKind.ROLE and not key.current
    queue = check_mail("role trader, captain", game, 1).queued
    while game.kind() is not DecisionKind.ROLE:
        d = game.decisions()[0]
        game.apply(d.seat, PASS if PASS in d.actions else d.actions[0])
    assert game.decisions()[0].seat == 1
    action, left = take_queued(game, 1, queue)
    assert action == PickRole(Role.CAPTAIN) and left == []


def test_pass_with_nothing_to_decide_is_an_error() -> None:
    game = seed_000()
    report = check_mail("pass", game, 2)
    (err,) = report.errors
    assert "nothing to decide" in err.reason
    assert "You have nothing to decide now" in report.render()


def test_a_mail_changes_nothing() -> None:
    game = seed_000()
    before = game.to_json()
    check_mail("ship; ship corn; keep coffee; role captain; remove 1 from corn", game, 0)
    assert game.to_json() == before


def test_a_kept_order_survives_the_store_as_text() -> None:
    game = seed_000()
    texts = ("ship tobacco", "remove 1 from corn; place 1 on quarry", "sell coffee", "role mayor")
    queued = [q for text in texts for q in check_mail(text, game, 1).queued]
    assert len(queued) == 4
    for item in queued:
        assert QueuedOrder.from_dict(item.to_dict()) == item


def test_a_kept_settle_order_answers_the_hacienda_question_with_its_default() -> None:
    game = blank(4)
    s = game.state
    build(s, 0, Building.HACIENDA, 1)
    face_up(s, Good.CORN, COFFEE, SUGAR, Good.INDIGO, Good.INDIGO)
    game = ready(game)
    queue = check_mail("settle coffee", game, 0).queued  # sent before the settler is picked
    assert queue[0].key == DecisionKey(0, DecisionKind.SETTLE)
    game.apply(0, PickRole(Role.SETTLER))
    assert game.kind() is DecisionKind.HACIENDA
    action, left = take_queued(game, 0, queue)
    # Kept now for this settler phase: used in it, or dropped when it ends.
    assert action == UseHacienda(True) and [q.text for q in left] == ["settle coffee"]
    assert left[0].key == DecisionKey(0, DecisionKind.SETTLE, 1, 0)
    game.apply(0, action)
    action, left = take_queued(game, 0, left)
    assert action == TakePlantation(COFFEE) and left == []


def test_greetings_and_closings_are_not_reported_as_bad_orders() -> None:
    game = seed_000()
    report = check_mail("Hi all,\nship corn\nThanks!\nKind regards,\nAnna", game, 0)
    assert report.errors == []  # issue 11: a mail signed with a bare name
    assert report.actions == [Load(Good.CORN, 1)]


def test_a_name_alone_is_a_signature_only_at_the_end_or_when_it_is_a_player_s() -> None:
    game = seed_000()
    names = [p.name for p in game.state.players]
    report = check_mail(f"ship corn\nCheers, Bob\n{names[1]}", game, 0)
    assert report.errors == [] and report.actions == [Load(Good.CORN, 1)]
    # Not at the end, it is a line not understood; nor is a slip of an order word.
    report = check_mail("Frobnicate\nship corn", game, 0)
    assert [e.line for e in report.errors] == ["Frobnicate"]
    report = check_mail("ship corn\nCaptn", game, 0)
    assert [e.line for e in report.errors] == ["Captn"]


def test_the_same_order_twice_counts_once() -> None:
    report = check_mail("ship corn\nship corn", seed_000(), 3)
    assert report.ok and len(report.accepted) == 1
