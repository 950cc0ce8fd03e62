"""Kept orders brought in line with the position (orders.queue.in_line) and advanced
(orders.queue.advance): the one path of the service (Moderator._advance) and of the
corpus harness (tests/orderscorpus.py), so the corpus measures what the service does."""

from __future__ import annotations

from test_orders_resolve import seed_000, trader_game

from moderator.engine.actions import PASS, Load, Sell
from moderator.engine.components import Good
from moderator.orders import check_mail
from moderator.orders.queue import Decided, Step, advance, in_line, take_queued

TOBACCO, SUGAR, COFFEE = Good.TOBACCO, Good.SUGAR, Good.COFFEE


def test_an_order_whose_decision_was_taken_otherwise_is_dropped_with_what_was_done() -> None:
    game = seed_000()  # the captain phase: Anna loads, then Bob
    (order,) = check_mail("ship tobacco", game, 1).queued
    game.apply(0, Load(SUGAR, 2))
    taken = Decided.of(game, 1, Load(TOBACCO, 0))
    game.apply(1, Load(TOBACCO, 0))
    line = in_line([("row", order)], game, [taken])
    # Loads come round again in a captain phase: kept for his next one.
    assert [t for t, _ in line.kept] == ["row"] and line.dropped == []
    trader = trader_game()
    (sale,) = check_mail("sell tobacco", trader, 1).queued
    trader.apply(0, Sell(COFFEE))
    sold = Decided.of(trader, 1, PASS)
    trader.apply(1, PASS)
    line = in_line([(7, sale)], trader, [sold])
    assert line.kept == []
    ((tag, dropped, reason),) = line.dropped
    assert tag == 7 and dropped.text == "sell tobacco"
    assert reason == f"that decision was taken ({sold.echo})"


def test_a_later_order_replaces_the_earlier_and_an_ended_phase_drops_it() -> None:
    game = trader_game()
    first = check_mail("sell indigo", game, 1).queued[0]
    second = check_mail("sell tobacco", game, 1).queued[0]
    line = in_line([(1, first), (2, second)], game)
    assert [t for t, _ in line.kept] == [2]
    assert line.dropped == [(1, first, "replaced by “sell tobacco”")]
    game.apply(0, PASS)
    game.apply(1, PASS)
    line = in_line([(2, second)], game)
    assert line.kept == []
    assert line.dropped == [(2, second, "the phase it was for ended before it could be used")]
    # take_queued (the one-seat step) goes the same way: the later order is the one used.
    fresh = trader_game()
    fresh.apply(0, Sell(COFFEE))
    action, left = take_queued(fresh, 1, [first, second])
    assert action == Sell(TOBACCO) and left == []


def test_advance_applies_kept_orders_and_forced_moves_until_someone_is_asked() -> None:
    game = trader_game()
    queue = [(i, q) for i, q in enumerate(check_mail("sell tobacco", game, 1).queued)]
    steps: list[Step[int]] = []

    def act(step: Step[int]) -> None:
        steps.append(step)
        game.apply(step.seat, step.action)

    line = advance(game, queue, (), act)
    assert steps == [] and [t for t, _ in line.kept] == [0]  # Anna is still to sell
    first = Decided.of(game, 0, Sell(COFFEE))
    game.apply(0, Sell(COFFEE))
    line = advance(game, line.kept, [first], act)
    (step,) = [s for s in steps if s.used is not None]
    assert step.seat == 1 and step.action == Sell(TOBACCO) and step.used == queue[0]
    assert step.decided.echo == "sell tobacco" and line.kept == [] and line.dropped == []
    assert all(s.forced for s in steps if s.used is None)
