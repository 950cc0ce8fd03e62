"""The order corpus (tests/data/orders/, issue 11 item 2): no mail applied wrongly, and
no share understood below the floors stored beside the corpus (floors.toml; raise them
as the understanding improves: bench/orders.py --floors). bench/orders.py prints the
figures."""

from __future__ import annotations

from functools import cache

import pytest
from orderscorpus import (
    CORPUS,
    HELD_OUT,
    POSITIONS,
    Case,
    CorpusError,
    Outcome,
    Result,
    dressed,
    load_cases,
    load_floors,
    load_position,
    run,
    shares,
    wrong_at_most,
)

SETS = {"corpus": CORPUS, "held-out": HELD_OUT}


@cache
def results(name: str) -> tuple[Result, ...]:
    return tuple(run(load_cases(SETS[name])))


def _wrong(name: str) -> list[str]:
    return [
        f"{r.case.source} at {r.case.position}: {r.case.text!r} -> {' | '.join(r.got) or '-'}"
        for r in results(name)
        if r.outcome is Outcome.WRONG
    ]


def test_the_sets_are_large_enough_and_the_corpus_covers_every_decision_kind() -> None:
    kinds = {r.kind for r in results("corpus")}
    assert kinds >= {
        "role",
        "hacienda",
        "settle",
        "mayor",
        "build",
        "extra",
        "sell",
        "load",
        "store",
    }
    assert len(results("corpus")) >= 300
    assert len(results("held-out")) >= 60


def test_every_position_loads_and_is_used() -> None:
    cases = [c for name in SETS for c in load_cases(SETS[name])]
    used = {c.position for c in cases} | {c.kept_for for c in cases if c.kept_for}
    stored = {p.stem for p in POSITIONS.glob("*.json")}
    assert used == stored
    for name in stored:
        assert load_position(name).decisions(), name


@pytest.mark.parametrize("name", SETS)
def test_no_mail_is_applied_wrongly(name: str) -> None:
    assert _wrong(name) == []


@pytest.mark.parametrize("name", SETS)
def test_a_greeting_a_signature_or_capitals_never_make_a_mail_applied_wrongly(
    name: str,
) -> None:
    cases = [d for r in results(name) if r.outcome is not Outcome.WRONG for d in dressed(r.case)]
    wrong = [
        f"{r.case.source}: {r.case.text!r} -> {' | '.join(r.got)}"
        for r in run(cases)
        if r.outcome is Outcome.WRONG
    ]
    assert wrong == []


@pytest.mark.parametrize("name", SETS)
def test_no_more_mails_applied_wrongly_than_the_stored_ceiling(name: str) -> None:
    ceiling = wrong_at_most()[name]
    assert len(_wrong(name)) <= ceiling, _wrong(name)


@pytest.mark.parametrize("name", SETS)
def test_no_share_understood_falls_below_its_floor(name: str) -> None:
    floors = load_floors()[name]
    figures = shares(results(name))
    below = {
        kind: (round(figures[kind][Outcome.UNDERSTOOD], 3), floor)
        for kind, floor in floors.items()
        if figures.get(kind, {}).get(Outcome.UNDERSTOOD, 0.0) < floor
    }
    assert below == {}, "(figure, floor) per decision kind"


def test_an_expected_order_that_is_not_legal_is_a_fault_of_the_corpus() -> None:
    """The expectation is looked up among the legal actions, never parsed: an order that
    is not legal in the position stops the run instead of counting as a miss."""
    from orderscorpus import run_case

    case = Case("made up", "settle-other", "take quarry", None, ("take quarry",))
    with pytest.raises(CorpusError, match="not a legal order"):
        run_case(case)


def test_a_mail_that_applies_what_the_case_does_not_say_is_wrong() -> None:
    from orderscorpus import run_case

    # The parser reads this exactly; the case expects another plantation.
    case = Case("made up", "settle", "settle corn", None, ("settle sugar",))
    assert run_case(case).outcome is Outcome.WRONG
    case = Case("made up", "settle", "settle corn", None, "reject")
    assert run_case(case).outcome is Outcome.WRONG
    case = Case("made up", "settle", "settle corn", None, ("settle corn",))
    assert run_case(case).outcome is Outcome.UNDERSTOOD
