"""Mails made from the vocabulary table (moderator/orders/vocabulary.py) for the legal
moves of the corpus positions (tests/data/orders/): any verb, good, role or number word
of the table, spelling variants, politeness, a greeting and a signature. Each such mail
says one move plainly, so it may be understood or refused but never applied as another
move (issue 11: nothing is applied that the player did not clearly order)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from orderscorpus import POSITIONS, Case, Outcome, load_position, run_case

from moderator.engine import Game
from moderator.engine.actions import (
    Action,
    Build,
    ExtraGood,
    Load,
    LoadWharf,
    PickRole,
    Sell,
    TakePlantation,
    TakeQuarry,
    UseHacienda,
)
from moderator.engine.components import Good, Role
from moderator.orders import format_action
from moderator.orders.resolve import decision_of
from moderator.orders.vocabulary import ENGLISH as V

NAMES = sorted(p.stem for p in POSITIONS.glob("*.json"))


def _words(term: str) -> list[str]:
    return list(V.term(term).words)


def _goods(good: Good) -> list[str]:
    return [w for w, g in V.goods.items() if g is good]


def _roles(role: Role) -> list[str]:
    return [w for w, r in V.roles.items() if r is role]


def _numbers(n: int) -> list[str]:
    return [str(n), *(w for w, v in V.numbers.items() if v == n)]


def _spelled(label: str) -> list[str]:
    """A building's name as the table spells it, and with each spelling variant."""
    out = [label]
    for variant, spelled in V.spellings.items():
        if f" {spelled} " in f" {label} ":
            out.append(f" {label} ".replace(f" {spelled} ", f" {variant} ").strip())
    return out


@st.composite
def saying(draw: st.DrawFn, action: Action, game: Game, seat: int) -> str | None:
    """One plain way of ordering ``action`` with the table's words (None: no plain way
    drawn here for that kind of move)."""
    pick = lambda items: draw(st.sampled_from(items))  # noqa: E731
    the = pick(["", "the "])
    match action:
        case PickRole(role=role):
            return f"{pick(['', *_words('TAKE'), 'role'])} {the}{pick(_roles(role))}"
        case UseHacienda(use=use):
            return f"{'' if use else 'no '}{pick(_words('HACIENDA'))}"
        case TakePlantation(good=good):
            verb = pick(["", *_words("SETTLE"), *_words("TAKE")])
            return f"{verb} {the}{pick(_goods(good))} {pick(['', *_words('PLANTATION')])}"
        case TakeQuarry():
            return f"{pick(['', *_words('TAKE')])} {pick(['', 'a ', 'the '])}quarry"
        case Build(building=b):
            return f"{pick(_words('BUILD'))} {pick(['', 'a ', 'the '])}{pick(_spelled(b.label))}"
        case ExtraGood(good=good):
            return f"{pick(_words('EXTRA'))} {pick(_goods(good))}"
        case Sell(good=good):
            return f"{pick(_words('SELL'))} {pick(['', '1 ', 'one ', 'my '])}{pick(_goods(good))}"
        case Load(good=good, ship=index):
            count = game.state.players[seat].goods[good]
            loaded = min(count, game.state.ships[index].capacity - game.state.ships[index].count)
            amount = pick(["", *(f"{w} " for w in _numbers(loaded))])
            capacity = pick(_numbers(game.state.ships[index].capacity))
            ship = pick(["", " ship", "-ship", " boat"])
            return f"{pick(_words('SHIP'))} {amount}{pick(_goods(good))} on {the}{capacity}{ship}"
        case LoadWharf(good=good):
            return f"{pick(_words('WHARF'))} {pick(_goods(good))}"
    return None


@st.composite
def mails(draw: st.DrawFn) -> Case:
    name = draw(st.sampled_from(NAMES))
    game = load_position(name)
    seat = draw(st.sampled_from([d.seat for d in game.decisions() if not d.forced]))
    decision = decision_of(game, seat)
    assert decision is not None
    action = draw(st.sampled_from(decision.actions))
    canonical = format_action(action, game, seat)
    said = draw(saying(action, game, seat))
    if said is None or ", no " in canonical:  # declining a building's help: said apart
        said = canonical
    polite = draw(st.sampled_from(["", "please", "thanks", "pls", "for me"]))
    order = " ".join(f"{said} {polite}".split())
    if draw(st.booleans()):
        order = order.upper() if draw(st.booleans()) else order.capitalize() + "."
    greeting = draw(st.sampled_from(["", *V.greetings]))
    signed = draw(st.booleans())
    text = "\n\n".join(
        part
        for part in (
            greeting.capitalize() + "," if greeting else "",
            order,
            game.names[seat] if signed else "",
        )
        if part
    )
    return Case(f"fuzz at {name}", name, text, seat, (canonical,))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mails())
def test_a_move_said_with_the_table_s_words_is_never_applied_as_another(case: Case) -> None:
    result = run_case(case)
    assert result.outcome is not Outcome.WRONG, (case.text, result.got, case.expect)


def test_the_positions_offer_every_kind_of_move_the_mails_are_made_for() -> None:
    kinds: set[type] = set()
    for name in NAMES:
        game = load_position(name)
        for d in game.decisions():
            kinds.update(type(a) for a in d.actions)
    assert {
        PickRole,
        UseHacienda,
        TakePlantation,
        TakeQuarry,
        Build,
        ExtraGood,
        Sell,
        Load,
        LoadWharf,
    } <= kinds
