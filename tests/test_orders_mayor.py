"""Colonist orders as mayors write them (docs/orders.md, Mayor): every legal layout of
the mayor positions of the order corpus, said in words drawn from the vocabulary table
(verbs or none, counts as digits, words or "x2", colonist nouns, removals written as
"take ... off", moves named by the worker, the extra colonist declined), must be done
exactly; orders that do not fit the board are refused or asked back, never changed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from orderscorpus import load_position

from moderator.engine import Game
from moderator.engine.actions import Action, PlaceColonists
from moderator.engine.components import GOODS
from moderator.engine.roles import mayor
from moderator.orders import AmbiguousOrder, check_mail, format_action
from moderator.orders.commands import MayorCmd, Move, Share, Target, TargetKind
from moderator.orders.parser import parse_order
from moderator.orders.resolve import decision_of, readings_of
from moderator.orders.vocabulary import ENGLISH as V

POSITIONS = ("mayor", "mayor-chris")


def _words(term: str) -> list[str]:
    return list(V.term(term).words)


def _numbers(n: int) -> list[str]:
    return [str(n), *(w for w, v in V.numbers.items() if v == n)]


def _changes(action: PlaceColonists, game: Game, seat: int) -> tuple[list[tuple[int, str]], ...]:
    """What a layout takes off and puts on, place by place, from the board as it is."""
    p = game.state.players[seat]
    off: list[tuple[int, str]] = []
    on: list[tuple[int, str]] = []

    def diff(name: str, now: int, then: int) -> None:
        if then < now:
            off.append((now - then, name))
        elif then > now:
            on.append((then - now, name))

    for g in GOODS:
        diff(g.label, p.occupied[g], action.layout.plantations[g])
    diff("quarry", p.occupied_quarries, action.layout.quarries)
    for b in sorted(p.buildings):
        diff(b.label, p.buildings[b], action.layout.on(b))
    return off, on


@st.composite
def _count(draw: st.DrawFn, n: int) -> str:
    return draw(st.sampled_from(_numbers(n)))


@st.composite
def _noun(draw: st.DrawFn, n: int) -> str:
    plural = [w for w in _words("COLONIST") if w.endswith("s") or w in ("men", "people")]
    single = [w for w in _words("COLONIST") if w not in plural and w != "man"]
    return draw(st.sampled_from(["", *(plural if n > 1 else single)]))


@st.composite
def _placed(draw: st.DrawFn, n: int, place: str) -> str:
    the = draw(st.sampled_from(["", "the "]))
    count = draw(_count(n))
    return draw(
        st.sampled_from(
            [
                f"{count} {draw(_noun(n))} {draw(st.sampled_from(['on', 'to', 'onto']))} "
                f"{the}{place}",
                f"{the}{place} x{n}",
                f"{n}x {place}",
                f"{place}: {count}",
                f"{place} +{n}",
                f"+{n} {place}",
            ]
        )
    )


@st.composite
def _taken(draw: st.DrawFn, n: int, place: str) -> str:
    count = draw(_count(n))
    off = draw(st.sampled_from(["from", "off"]))
    return draw(
        st.sampled_from(
            [
                f"{draw(st.sampled_from(_words('REMOVE')))} {count} from {place}",
                f"take {count} {draw(_noun(n))} {off} the {place}",
                f"remove {count} {place} {draw(st.sampled_from(['worker', 'colonist', 'guy']))}"
                + ("s" if n > 1 else ""),
            ]
        )
    )


@st.composite
def _moved(draw: st.DrawFn, n: int, source: str, place: str) -> str:
    """``n`` colonists moved from ``source`` to ``place``, said as one."""
    count = draw(_count(n))
    verb = draw(st.sampled_from([w for w in _words("MOVE") if w != "goes"]))
    forms = [
        f"{verb} {count} from {source} to {place}",
        f"{count} {draw(_noun(n))} from the {source} to the {place}",
    ]
    if n == 1:
        forms += [
            f"move the {source} worker to the {place}",
            f"the {source} guy goes to the {place}",
            f"{source} -> {place}",
            f"{source} \u2192 {place}",
        ]
    return draw(st.sampled_from(forms))


@st.composite
def colonist_mail(draw: st.DrawFn, action: PlaceColonists, game: Game, seat: int) -> str:
    """One way a mayor writes ``action``: removals first, then placements, with or without
    verbs, on one line or several."""
    off, on = _changes(action, game, seat)
    lines: list[str] = []
    s = game.state
    if not action.extra and True in mayor.extras(s, seat):
        lines.append(
            draw(
                st.sampled_from(
                    [
                        "no extra colonist",
                        "I decline the extra colonist",
                        "no extra",
                        "without the extra colonist",
                        "I'll pass on the extra colonist",
                        "I don't want the extra colonist",
                    ]
                )
            )
        )
    if off and on and draw(st.booleans()):
        # the first removal and the first placement said as a move
        (n_off, source), (n_on, place) = off[0], on[0]
        k = min(n_off, n_on)
        lines.append(draw(_moved(k, source, place)))
        off = ([(n_off - k, source)] if n_off > k else []) + off[1:]
        on = ([(n_on - k, place)] if n_on > k else []) + on[1:]
    if off and draw(st.booleans()):
        signed = draw(st.sampled_from(["{place} -{n}", "-{n} {place}", "{n} from {place}"]))
        lines.append(", ".join(signed.format(n=n, place=place) for n, place in off))
    elif off:
        lines.append(", ".join(draw(_taken(n, place)) for n, place in off))
    if on:
        items = [draw(_placed(n, place)) for n, place in on]
        verb = draw(st.sampled_from(["", "place", "put", "add", "assign"]))
        if verb and draw(st.booleans()):
            lines.append(f"{verb} " + ", ".join(items))
        else:
            lines.append(", ".join(items) if not verb else "; ".join(f"{verb} {i}" for i in items))
    if not lines:
        lines.append(
            draw(st.sampled_from(["no change", "leave everything as it is", "no changes"]))
        )
    joint = draw(st.sampled_from(["\n", ". ", "\n\n"]))
    return joint.join(lines)


@st.composite
def layouts(draw: st.DrawFn) -> tuple[str, int, Action, str]:
    name = draw(st.sampled_from(POSITIONS))
    game = load_position(name)
    seats = [d.seat for d in game.decisions() if not d.forced]
    seat = draw(st.sampled_from(seats))
    decision = decision_of(game, seat)
    assert decision is not None
    action = draw(st.sampled_from(decision.actions))
    assert isinstance(action, PlaceColonists)
    return name, seat, action, draw(colonist_mail(action, game, seat))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layouts())
def test_every_layout_said_as_mayors_write_it_is_done_exactly(
    case: tuple[str, int, Action, str],
) -> None:
    name, seat, action, text = case
    game = load_position(name)
    report = check_mail(text, game, seat)
    assert report.errors == [], (text, report.render())
    assert report.actions == [action], (
        text,
        [format_action(a, game, seat) for a in report.actions],
    )


# -- what does not fit the board is refused or asked, never changed -------------------


@pytest.mark.parametrize(
    ("seat", "text"),
    [
        (0, "place 1 on sugar, 1 on sugar mill, 1 on university, 1 on coffee roaster"),
        (0, "3 to the coffee roaster"),
        (0, "fill the coffee roaster and the sugar mill, 1 on sugar, 1 on university"),
        (1, "both on indigo"),
        (1, "place 2 each on indigo and tobacco"),
        (1, "1 on indigo, rest in San Juan"),
        (1, "keep 1 in San Juan, 1 on indigo"),
        (1, "1 on coffee roaster, 1 on indigo"),
        (1, "take 1 off indigo, put 2 on the sugar mill"),
        (0, "leave everything as it is"),
        (0, "1 on university, the rest on the sugar mill"),
        (1, "sugar -1"),
        (1, "tobacco +2"),
        (1, "put the extra colonist on indigo, 1 on tobacco"),
    ],
)
def test_an_order_that_does_not_fit_is_refused_with_its_reason(seat: int, text: str) -> None:
    report = check_mail(text, load_position("mayor"), seat)
    assert report.actions == [] and report.queued == []
    assert report.errors and all(e.reason for e in report.errors)


@pytest.mark.parametrize(
    ("seat", "text", "options"),
    [
        (1, "put one on the plantation and one on the sugar mill", "indigo"),
        (0, "place 1 on the plantation, 2 on the coffee roaster", "sugar plantation"),
        (1, "place 1 on indigo", "Where do they go?"),
    ],
)
def test_an_order_with_two_readings_is_asked_back_naming_them(
    seat: int, text: str, options: str
) -> None:
    report = check_mail(text, load_position("mayor"), seat)
    assert report.actions == []
    (err,) = report.errors
    assert isinstance(err, AmbiguousOrder) and options in err.render()


@pytest.mark.parametrize(
    ("position", "text"),
    [
        ("craftsman", "take the extra one"),  # the craftsman's barrel: no kind named
        ("store", "keep as is"),
        ("build", "both"),
    ],
)
def test_the_mayor_s_words_without_a_verb_are_nothing_elsewhere(position: str, text: str) -> None:
    game = load_position(position)
    seat = next(d.seat for d in game.decisions() if not d.forced)
    report = check_mail(text, game, seat)
    assert report.actions == [] and report.queued == []


def test_no_extra_is_the_craftsman_s_barrel_unless_the_mayor_phase_asks() -> None:
    craftsman = load_position("craftsman")
    report = check_mail("no extra", craftsman, craftsman.state.picker)
    assert [format_action(a, craftsman, craftsman.state.picker) for a in report.actions] == [
        "no extra"
    ]
    chris = load_position("mayor-chris")
    report = check_mail("no extra", chris, 2)
    assert [format_action(a, chris, 2) for a in report.actions] == [
        "no extra colonist; place 1 on hacienda"
    ]


# -- the readings of a count before a list ---------------------------------------------


def _place(text: str) -> Target:
    command = parse_order(f"place 1 on {text}")
    assert isinstance(command, MayorCmd) and isinstance(command.placements[0], Move)
    return command.placements[0].target


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("place 2 each on corn and sugar", [[(2, "corn"), (2, "sugar")]]),
        (
            "place one on each of corn, sugar and quarry",
            [[(1, "corn"), (1, "sugar"), (1, "quarry")]],
        ),
        ("put both on corn and sugar", [[(1, "corn"), (1, "sugar")]]),
        ("put both on the sugar mill", [[(2, "sugar mill")]]),
        ("place 1 on corn, sugar", [[(1, "corn"), (1, "sugar")]]),
        (
            "place 3 on corn, sugar",
            [[(3, "corn"), (1, "sugar")], [(1, "corn"), (2, "sugar")], [(2, "corn"), (1, "sugar")]],
        ),
    ],
)
def test_a_count_before_a_list_is_read_as_written_and_shared(
    text: str, expected: list[list[tuple[int, str]]]
) -> None:
    command = parse_order(text)
    assert isinstance(command, MayorCmd)
    got = [[(m.count, m.target.text) for m in way] for way in readings_of(command)]
    assert got == expected


def test_fill_and_the_rest_are_said_in_the_command() -> None:
    command = parse_order("fill the coffee roaster and the university, 1 on corn, rest in san juan")
    assert command == MayorCmd(
        placements=(
            Move(None, _place("coffee roaster")),
            Move(None, _place("university")),
            Move(1, _place("corn")),
        ),
        stay=True,
    )
    shared = parse_order("place all three on corn, sugar and quarry")
    assert isinstance(shared, MayorCmd)
    (share,) = shared.placements
    assert isinstance(share, Share) and share.as_written and share.count == 3
    assert _place("the plantation") == Target(TargetKind.PLANTATION, "plantation")


# -- a role and the first step of its phase on one line ------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Mayor: 2 on coffee roaster, 1 on university",
            "place 2 on coffee roaster, 1 on university",
        ),
        ("mayor, corn -1, university +1, coffee roaster +2, sugar +1", None),
        ("Mayor - no extra colonist, 2 to the coffee roaster", "no extra colonist; place 2 on"),
    ],
)
def test_the_mayor_picked_with_his_layout_behind_a_colon_is_both(
    text: str, expected: str | None
) -> None:
    game = load_position("role")
    report = check_mail(text, game, 0)
    assert report.errors == []
    meanings = [a.meaning for a in report.accepted]
    assert meanings[0] == "role mayor" and len(meanings) == 2
    assert expected is None or meanings[1].startswith(expected)


@pytest.mark.parametrize(
    "text",
    ["Captain, trader or builder", "Captain - I know it's early", "Mayor: 5 on coffee roaster"],
)
def test_a_role_list_or_a_role_with_no_step_after_it_is_not_split(text: str) -> None:
    report = check_mail(text, load_position("role"), 0)
    # a preference list stays one order; a role with what is no order stays unread
    assert len(report.accepted) <= 1
    assert all(a.meaning.startswith("role ") for a in report.accepted if a.meaning)


@pytest.mark.parametrize(
    ("seat", "text", "meaning"),
    [
        (0, "the corn guy goes to the univrsity; 2 on coffee roaster; 1 on sugar", None),
        (0, "corn -1, univercity +1, cofee roaster +2, sugar +1", None),
        (0, "OK, 1 from corn, 2 to coffee roaster, 1 to university, 1 to sugar", None),
        (0, "empty the corn\nfill the coffee roaster\n1 on university, 1 on sugar", None),
        (1, "clear the small warehouse; 1 on indigo, 1 on tobacco, 1 on sugar mill", "remove 1"),
        (0, "2 on coffee roaster, 1 on sugar mill, no extra colonist", "reject"),
    ],
)
def test_slips_empty_and_a_late_word_on_the_extra_colonist(
    seat: int, text: str, meaning: str | None
) -> None:
    game = load_position("mayor")
    report = check_mail(text, game, seat)
    if meaning == "reject":
        assert report.actions == [] and report.errors
        return
    assert report.errors == [], report.render()
    (done,) = report.accepted
    assert done.meaning.startswith(
        meaning or "remove 1 from corn; place 1 on sugar, 2 on coffee roaster, 1 on university"
    )


def test_the_board_as_it_is_is_refused_while_a_circle_is_empty() -> None:
    game = load_position("mayor-chris")
    for text in (
        "same as last round",
        "no change to my colonists",
        "keep my colonists as they are",
    ):
        report = check_mail(text, game, 2)
        assert report.actions == [] and "would stay in San Juan" in report.render()


@pytest.mark.parametrize(
    ("position", "seat", "text", "meaning"),
    [
        ("mayor", 0, "University gets the corn worker; coffee roaster gets 2; sugar gets 1", None),
        (
            "mayor",
            0,
            "My 3 colonists: 1 from corn, 2 to coffee roaster, 1 to university, 1 to sugar",
            None,
        ),
        ("mayor", 0, "place all four: corn -1, roaster +2, university +1, sugar +1", None),
        ("mayor", 0, "With the extra colonist: 2 on coffee roaster, 1 on university", "place 2 on"),
        ("mayor", 0, "No extra colonist: 2 on coffee roaster", "no extra colonist; place 2 on"),
        ("mayor-chris", 2, "hacienda, the other stays in San Juan", "place 1 on hacienda"),
        ("mayor-chris", 2, "Extra colonist: no.\nhacienda", "no extra colonist; place 1 on"),
        ("mayor-chris", 2, "extra: yes\nhacienda", "place 1 on hacienda"),
    ],
)
def test_a_heading_gets_and_stays(position: str, seat: int, text: str, meaning: str | None) -> None:
    game = load_position(position)
    report = check_mail(text, game, seat)
    assert report.errors == [], report.render()
    (done,) = report.accepted
    assert done.meaning.startswith(
        meaning or "remove 1 from corn; place 1 on sugar, 2 on coffee roaster, 1 on university"
    )


@pytest.mark.parametrize(
    ("seat", "text", "meaning"),
    [
        (0, "a couple on the roaster, one on the sugar field.", "place 1 on sugar, 2 on coffee"),
        (0, "a couple of guys on the roaster and one on the sugar mill", "place 1 on sugar mill"),
        (0, "the roaster gets a couple, the uni one", "place 2 on coffee roaster, 1 on uni"),
        (1, "tobacco storage gets a couple. cheers", "place 2 on tobacco storage"),
    ],
)
def test_a_couple_is_two_colonists(seat: int, text: str, meaning: str) -> None:
    report = check_mail(text, load_position("mayor"), seat)
    (done,) = report.accepted
    assert done.meaning is not None and done.meaning.startswith(meaning), report.render()


@pytest.mark.parametrize("position", ["mayor", "store", "role", "build"])
def test_a_couple_alone_is_no_order(position: str) -> None:
    # (a word of the colonist orders only: never a number the reading by mentions looks up)
    game = load_position(position)
    seat = next(d.seat for d in game.decisions() if not d.forced)
    assert check_mail("A COUPLE", game, seat).actions == []


@pytest.mark.parametrize(
    "text",
    [
        "Bob's colonists: 2 to coffee roaster, 1 to university",  # a heading that says more
        "My 3 colonists: 2 to coffee roaster, 1 to the university, 1 to sugar",  # one too many
        "coffee roaster gets 3, university gets 1",
    ],
)
def test_a_heading_or_gets_that_does_not_fit_is_not_done(text: str) -> None:
    report = check_mail(text, load_position("mayor"), 0)
    assert report.actions == [] and report.errors
