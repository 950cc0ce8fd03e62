"""Properties of the order language (issue 3, item 6): every legal action has an order
text that parses and resolves back to it; fuzzed orders raise only the documented errors
and an error changes nothing."""

from __future__ import annotations

import contextlib
import multiprocessing
import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator.engine import Game
from moderator.engine.actions import DecisionKind, PlaceColonists
from moderator.engine.components import Building, Good, Role
from moderator.orders import (
    OrderError,
    OrderSyntaxError,
    check_mail,
    format_action,
    is_service,
    legal_orders,
    parse_order,
    parse_text,
    resolve,
)
from moderator.orders.commands import (
    BuildCmd,
    DefaultCmd,
    ExtraCmd,
    GameCommand,
    HaciendaCmd,
    KeepCmd,
    KeepItem,
    MayorCmd,
    Move,
    PassCmd,
    RoleCmd,
    RoleRef,
    SellCmd,
    SettleCmd,
    ShipCmd,
    Target,
    TargetKind,
    WharfCmd,
    Where,
    is_absence,
)
from moderator.orders.parser import Parsed, parse_mail
from moderator.orders.vocabulary import ENGLISH, words

GAMES = 120  # seeded random games, 30 of each player count (over 100,000 actions)
MAYOR_SAMPLE = 20
NAMES = ("Anna", "Bob", "Chris", "David", "Eve")


def _round_trip_games(seeds: list[int]) -> tuple[int, list[str]]:
    """Play each seed's game at random; at every decision, every legal action (a sample
    of the mayor's layouts) must come back from its order text. Returns (checked, failures)."""
    checked = 0
    failures: list[str] = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game.new(NAMES[: 2 + seed % 4], seed)
        while not game.over:
            decision = game.decisions()[0]
            legal = decision.actions
            if decision.kind is DecisionKind.MAYOR:
                sample = [legal[rng.randrange(len(legal))] for _ in range(MAYOR_SAMPLE)]
            else:
                sample = list(legal)
            for action in sample:
                checked += 1
                text = format_action(action, game, decision.seat)
                try:
                    (command,) = parse_text(text)
                    assert not is_service(command)
                    back = resolve(command, game, decision.seat)
                except (OrderError, AssertionError, ValueError) as exc:
                    failures.append(f"seed {seed}: {text!r} for {action!r}: {exc!r}")
                    continue
                if back != action:
                    failures.append(f"seed {seed}: {text!r} gave {back!r}, not {action!r}")
            if rng.random() < 0.02:
                legal_orders(game, decision.seat)  # the error-mail list never fails
            game.apply(decision.seat, legal[rng.randrange(len(legal))])
    return checked, failures


@pytest.mark.slow
def test_every_legal_action_has_an_order_text_that_resolves_back_to_it() -> None:
    """Design, "Contracts": every legal action has at least one order text that parses
    and resolves back to exactly that action."""
    chunks = [list(range(k, GAMES, 4)) for k in range(4)]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        results = list(pool.map(_round_trip_games, chunks))
    checked = sum(n for n, _ in results)
    failures = [f for _, fs in results for f in fs]
    assert not failures, "\n".join(failures[:20])
    assert checked > 100_000


def test_round_trip_in_a_few_games_without_a_pool() -> None:
    checked, failures = _round_trip_games([0, 1, 2, 3])
    assert not failures, "\n".join(failures[:20])
    assert checked > 1000


def test_the_orders_listed_in_an_error_mail_are_legal_orders() -> None:
    """Item 5: the orders allowed now are generated from the legal actions."""
    for seed in range(8):
        rng = random.Random(seed)
        game = Game.new(NAMES[: 2 + seed % 4], seed)
        while not game.over:
            decision = game.decisions()[0]
            if decision.kind is not DecisionKind.MAYOR:
                for text in legal_orders(game, decision.seat):
                    (command,) = parse_text(text)
                    assert not is_service(command)
                    assert resolve(command, game, decision.seat) in decision.actions
            game.apply(decision.seat, decision.actions[rng.randrange(len(decision.actions))])


# -- fuzzing ------------------------------------------------------------------------------


def _positions() -> list[tuple[Game, int]]:
    """One position per decision kind and player count, from seeded random games."""
    found: dict[tuple[int, DecisionKind], tuple[Game, int]] = {}
    for seed in range(12):
        rng = random.Random(seed)
        game = Game.new(NAMES[: 2 + seed % 4], seed)
        while not game.over:
            decision = game.decisions()[0]
            key = (game.state.n, decision.kind)
            if key not in found or rng.random() < 0.05:
                found[key] = (game.copy(), decision.seat)
            game.apply(decision.seat, decision.actions[rng.randrange(len(decision.actions))])
    return list(found.values())


POSITIONS = _positions()


def _valid_texts() -> list[str]:
    out: list[str] = []
    for game, seat in POSITIONS:
        legal = game.legal_actions(seat)
        for action in list(legal)[:6] if not isinstance(legal[0], PlaceColonists) else [legal[0]]:
            out.append(format_action(action, game, seat))
    out += ["remove 1 from corn, 1 from san juan", "place 2 on coffee roaster, 1 on quarry"]
    out += ["help mayor", "status", "resend", "keep coffee in warehouse, 1 sugar on wind rose"]
    return sorted(set(out))


VALID = _valid_texts()
# Every word of the vocabulary table, its politeness and greetings, and separators.
WORDS = [*words(), *ENGLISH.courtesies, *ENGLISH.greetings, "Anna", "suger", "cofee"]
WORDS += ["0", "1", "2", "7", "99", ",", ";", "\n", ":", "-", "#", ".", "?", "!"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["delete", "insert", "replace", "swap", "word", "case"]))
        i = draw(st.integers(0, max(len(text) - 1, 0)))
        if how == "delete" and text:
            text = text[:i] + text[i + 1 :]
        elif how == "insert":
            text = text[:i] + draw(st.characters()) + text[i:]
        elif how == "replace" and text:
            text = text[:i] + draw(st.sampled_from(" ,;:-0123456789aeioust")) + text[i + 1 :]
        elif how == "swap":
            words = text.split()
            if len(words) > 1:
                j = draw(st.integers(0, len(words) - 2))
                words[j], words[j + 1] = words[j + 1], words[j]
                text = " ".join(words)
        elif how == "word":
            words = text.split()
            words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(WORDS)))
            text = " ".join(words)
        else:
            text = text.swapcase()
    return text


ORDERS = st.one_of(
    mutated(),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join),
    st.text(max_size=60),
    st.sampled_from(VALID),
)
MAILS = st.lists(ORDERS, min_size=1, max_size=5).map("\n".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=ORDERS)
def test_parsing_raises_only_the_documented_syntax_error(text: str) -> None:
    try:
        parse_order(text)
    except OrderSyntaxError as err:
        assert err.reason
        err.render()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=MAILS, which=st.integers(0, len(POSITIONS) - 1), other=st.booleans())
def test_a_mail_raises_nothing_and_changes_nothing(text: str, which: int, other: bool) -> None:
    """Item 6: nothing but the documented errors, and an error changes nothing."""
    game, seat = POSITIONS[which]
    if other:
        seat = (seat + 1) % game.state.n  # someone who may have nothing to decide
    before = game.to_json()
    report = check_mail(text, game, seat)
    assert all(isinstance(e, OrderError) for e in report.errors)
    report.render()
    for item in parse_text_lenient(text):
        with contextlib.suppress(OrderError):
            resolve(item, game, seat)
    assert game.to_json() == before


def parse_text_lenient(text: str) -> Iterator[GameCommand]:
    for item in parse_mail(text):
        if isinstance(item, Parsed) and not (is_service(item.command) or is_absence(item.command)):
            yield cast(GameCommand, item.command)


GOOD = st.sampled_from(list(Good))
COUNT = st.integers(min_value=-3, max_value=40)
TARGET = st.one_of(
    st.builds(Target, st.just(TargetKind.PLANTATION), st.just("x"), GOOD),
    st.just(Target(TargetKind.QUARRY, "quarry")),
    st.just(Target(TargetKind.SAN_JUAN, "san juan")),
    st.builds(
        Target,
        st.just(TargetKind.BUILDING),
        st.just("x"),
        st.none(),
        st.lists(st.sampled_from(list(Building)), max_size=3).map(tuple),
    ),
)
MOVES = st.lists(st.builds(Move, COUNT, TARGET), max_size=4).map(tuple)
COMMANDS: st.SearchStrategy[GameCommand] = st.one_of(
    st.builds(
        RoleCmd,
        st.lists(st.builds(RoleRef, st.sampled_from(list(Role)), st.booleans()), max_size=3).map(
            tuple
        ),
    ),
    st.builds(HaciendaCmd, st.booleans()),
    st.builds(SettleCmd, st.none() | GOOD, st.none() | st.booleans()),
    st.builds(
        BuildCmd,
        st.just("x"),
        st.lists(st.sampled_from(list(Building)), max_size=3).map(tuple),
        st.none() | st.booleans(),
    ),
    st.builds(SellCmd, st.lists(GOOD, max_size=3).map(tuple)),
    st.builds(ShipCmd, st.none() | GOOD, st.none() | COUNT, st.none() | COUNT),
    st.builds(WharfCmd, st.none() | GOOD),
    st.builds(
        KeepCmd,
        st.lists(
            st.builds(KeepItem, GOOD, st.none() | COUNT, st.none() | st.sampled_from(list(Where))),
            max_size=4,
        ).map(tuple),
    ),
    st.builds(ExtraCmd, GOOD),
    st.builds(MayorCmd, st.none() | st.booleans(), MOVES, MOVES),
    st.builds(PassCmd, st.none() | st.sampled_from(list(DecisionKind))),
    st.just(DefaultCmd()),
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command=COMMANDS, which=st.integers(0, len(POSITIONS) - 1), other=st.booleans())
def test_any_command_resolves_to_a_legal_action_or_a_documented_error(
    command: GameCommand, which: int, other: bool
) -> None:
    game, seat = POSITIONS[which]
    if other:
        seat = (seat + 1) % game.state.n
    before = game.to_json()
    try:
        action = resolve(command, game, seat)
    except OrderError as err:
        assert err.reason
    else:
        assert action in game.legal_actions(seat)
        assert format_action(action, game, seat)
    assert game.to_json() == before
