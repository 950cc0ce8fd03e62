"""Orders read by what they name (moderator/orders/mentions.py), the last reading of an
order that does not parse: phrasings made from the vocabulary table and the corpus
positions (tests/data/orders/), each with the one action a careful moderator takes, or
nothing (a negation, a question, an unknown word, two things of the kind asked)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from orderscorpus import load_position

from moderator.engine import Game
from moderator.engine.actions import (
    Action,
    Build,
    DecisionKind,
    ExtraGood,
    Load,
    LoadWharf,
    PickRole,
    Sell,
    TakePlantation,
    TakeQuarry,
    UseHacienda,
)
from moderator.engine.components import Building, Good, Role
from moderator.orders import AmbiguousOrder, check_mail, format_action
from moderator.orders.commands import SellCmd
from moderator.orders.mentions import by_mentions, mentions_of, words_of
from moderator.orders.reading import normalise
from moderator.orders.resolve import decision_of
from moderator.orders.vocabulary import ENGLISH as V

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POLITE = st.sampled_from(["", "Hi, ", "OK, ", "hmm, "])
AFTER = st.sampled_from(["", " please", ", thanks", " for me", "."])


def _game(position: str) -> tuple[Game, int]:
    game = load_position(position)
    seat = next(s for s in range(len(game.state.players)) if decision_of(game, s) is not None)
    return game, seat


def _applied(text: str, position: str) -> list[Action]:
    game, seat = _game(position)
    return check_mail(text, game, seat).actions


def _asked(text: str, position: str) -> bool:
    game, seat = _game(position)
    report = check_mail(text, game, seat)
    return report.actions == [] and any(isinstance(e, AmbiguousOrder) for e in report.errors)


def _legal(position: str) -> list[Action]:
    game, seat = _game(position)
    return list(game.legal_actions(seat))


def _words(mapping: dict[str, object] | object, value: object) -> list[str]:
    assert isinstance(mapping, dict)
    return [w for w, v in mapping.items() if v is value]


ROLES = [
    a.role for a in _legal("role") if isinstance(a, PickRole) and a.role is not Role.PROSPECTOR
]
GOODS_UP = [a.good for a in _legal("settle") if isinstance(a, TakePlantation)]


def _role_word(draw: st.DrawFn, role: Role) -> str:
    return draw(st.sampled_from(_words(dict(V.roles), role)))


def _good_word(draw: st.DrawFn, good: Good) -> str:
    return draw(st.sampled_from(_words(dict(V.goods), good)))


# -- roles ---------------------------------------------------------------------------

ROLE_FORMS = (
    "the {r} one",
    "I'll take the {r} and the doubloon",
    "{r} as my role",
    "the {r}, not the {o}",
    "not the {o}, the {r} one",
    "the {r} instead of the {o}",
)


@FAST
@given(st.data())
def test_a_role_named_in_own_words_is_taken(data: st.DataObject) -> None:
    role, other = data.draw(st.permutations(ROLES))[:2]
    form = data.draw(st.sampled_from(ROLE_FORMS))
    word = _role_word(data.draw, role)
    text = form.format(r=word, o=_role_word(data.draw, other))
    text = data.draw(POLITE) + text + data.draw(AFTER)
    assert _applied(text, "role") == [PickRole(role)], text


@FAST
@given(st.data())
def test_a_verb_of_a_role_names_it(data: st.DataObject) -> None:
    # ("I'd like to ship" is the order "ship" as written: a loading, kept for later)
    verbs = [(w, r) for w, r in V.role_verbs.items() if w not in V.term("SHIP").words]
    verb, role = data.draw(st.sampled_from(verbs))
    lead = data.draw(st.sampled_from(["I'd like to ", "I want to ", "let me ", "I'll "]))
    text = lead + verb + data.draw(AFTER)
    applied = _applied(text, "role")
    if role is Role.PROSPECTOR:
        assert len(applied) == 1 and isinstance(applied[0], PickRole), text
        assert applied[0].role in (Role.PROSPECTOR, Role.PROSPECTOR2), text
    else:
        assert applied == [PickRole(role)], text


@FAST
@given(st.data())
def test_two_roles_named_are_asked_back_even_when_one_is_taken(data: st.DataObject) -> None:
    taken = data.draw(st.sampled_from([Role.BUILDER, Role.CAPTAIN]))
    free = data.draw(st.sampled_from([Role.SETTLER, Role.TRADER, Role.CRAFTSMAN]))
    a, b = data.draw(st.permutations([taken, free]))
    forms = ["the {a} and the {b} one", "{a} as my role, and the {b} one"]
    form = data.draw(st.sampled_from(forms))
    text = form.format(a=_role_word(data.draw, a), b=_role_word(data.draw, b))
    assert _asked(text, "role-late"), text


NEVER = (
    "not the {r} one",
    "I don't want the {r} one",
    "the {r} one?",
    "is the {r} one free",
    "the {r} one unless someone minds",
    "maybe the {r} one",
    "the doubloon but the {r}",
    "no {r} as my role",
)


@FAST
@given(st.data())
def test_a_role_said_no_to_asked_about_or_hedged_is_not_taken(data: st.DataObject) -> None:
    role = data.draw(st.sampled_from(ROLES))
    text = data.draw(st.sampled_from(NEVER)).format(r=_role_word(data.draw, role))
    assert _applied(text, "role") == [], text


# -- the settler ---------------------------------------------------------------------


@FAST
@given(st.data())
def test_a_plantation_named_in_own_words_is_taken(data: st.DataObject) -> None:
    good = data.draw(st.sampled_from(GOODS_UP))
    form = data.draw(
        st.sampled_from(
            [
                "the {g} one",
                "{g} plantation instead of a quarry",
                "the {g} one, not the {o} one",
                "{g} as my plantation",
            ]
        )
    )
    other = data.draw(st.sampled_from([g for g in Good if g is not good]))
    text = form.format(g=_good_word(data.draw, good), o=_good_word(data.draw, other))
    assert _applied(data.draw(POLITE) + text + data.draw(AFTER), "settle") == [
        TakePlantation(good, False)
    ], text


@FAST
@given(st.data())
def test_a_quarry_instead_of_a_plantation_is_the_quarry(data: st.DataObject) -> None:
    good = data.draw(st.sampled_from(GOODS_UP))
    plantation = data.draw(st.sampled_from(["a plantation", f"the {good.label} plantation"]))
    form = data.draw(st.sampled_from(["a quarry instead of {p}", "not {p}, a quarry"]))
    position = data.draw(st.sampled_from(["settle", "settle-hut"]))
    hut = " with my hut" if position == "settle-hut" else ""
    assert _applied(form.format(p=plantation) + hut, position) == [TakeQuarry(False)]


@FAST
@given(st.data())
def test_the_hospice_named_with_a_yes_or_a_no(data: st.DataObject) -> None:
    good = data.draw(st.sampled_from(GOODS_UP))
    yes = data.draw(st.booleans())
    said = data.draw(
        st.sampled_from(
            ["with a colonist from the hospice", "with my hospice", "from the hospice"]
            if yes
            else ["without a colonist", "but not with the hospice", "without the hospice"]
        )
    )
    text = f"{_good_word(data.draw, good)} plantation {said}"
    assert _applied(text, "settle-hospice") == [TakePlantation(good, yes)], text


@FAST
@given(st.data())
def test_two_tiles_a_bare_plantation_or_a_question_are_not_taken(data: st.DataObject) -> None:
    good, other = data.draw(st.permutations(GOODS_UP))[:2]
    g, o = _good_word(data.draw, good), _good_word(data.draw, other)
    asked = data.draw(
        st.sampled_from(
            [f"the {g} one and the {o} one", f"the {g} one or a quarry", "a plantation"]
        )
    )
    assert _asked(asked, "settle"), asked
    never = data.draw(
        st.sampled_from(
            [
                f"the {g} one?",
                f"not the {g} one",
                f"the {g} one if nobody minds",
                f"no {g} as my tile",
            ]
        )
    )
    assert _applied(never, "settle") == [], never


# -- builder, craftsman, trader, captain, hacienda ------------------------------------

BUILDABLE = [a.building for a in _legal("build-university") if isinstance(a, Build)]


@FAST
@given(st.data())
def test_the_university_said_no_to_or_asked_for_in_own_words(data: st.DataObject) -> None:
    building = data.draw(st.sampled_from(BUILDABLE))
    yes = data.draw(st.booleans())
    said = data.draw(
        st.sampled_from(
            ["with a colonist", "with a colonist from the university"]
            if yes
            else ["but don't use the university", "without a colonist", "not with the university"]
        )
    )
    text = f"the {building.label} {said}"
    assert _applied(text, "build-university") == [Build(building, yes)], text


def test_a_size_after_a_building_tells_which() -> None:
    assert _applied("the indigo plant (the big one)", "build-other") == [
        Build(Building.INDIGO_PLANT, False)
    ]
    assert _asked("the small market and the large market", "build-other")


@FAST
@given(st.data())
def test_a_good_named_for_the_extra_and_for_the_sale(data: st.DataObject) -> None:
    extra = data.draw(st.sampled_from([Good.SUGAR, Good.COFFEE]))
    form = data.draw(st.sampled_from(["{g} as my extra", "the {g} one", "{g} as the extra barrel"]))
    assert _applied(form.format(g=_good_word(data.draw, extra)), "craftsman") == [ExtraGood(extra)]
    sale = data.draw(st.sampled_from([Good.INDIGO, Good.SUGAR, Good.TOBACCO]))
    form = data.draw(st.sampled_from(["the {g} one", "one barrel of {g} as my sale"]))
    text = form.format(g=_good_word(data.draw, sale))
    assert _applied(text, "trade") == [Sell(sale)], text


@FAST
@given(st.data())
def test_a_ship_named_by_its_size(data: st.DataObject) -> None:
    game, _ = _game("load-wharf")
    ranks = sorted(range(len(game.state.ships)), key=lambda i: game.state.ships[i].capacity)
    good = data.draw(st.sampled_from([Good.CORN, Good.INDIGO, Good.TOBACCO]))
    size, index = data.draw(
        st.sampled_from([(w, ranks[r]) for w, r in V.ship_sizes.items() if r != 1])
    )
    boat = data.draw(st.sampled_from(["ship", "boat"]))
    form = data.draw(st.sampled_from(["load {g} on the {s} {b}", "the {g} on the {s} {b} please"]))
    text = form.format(g=good.label, s=size, b=boat)
    assert _applied(text, "load-wharf") == [Load(good, index)], text
    room = game.state.ships[index].capacity
    assert _applied(f"{good.label} on the ship with room for {room}", "load-wharf") == [
        Load(good, index)
    ]


@FAST
@given(st.data())
def test_the_hacienda_in_own_words(data: st.DataObject) -> None:
    yes = data.draw(
        st.sampled_from(
            ["use it", "draw a plantation with my hacienda", "I'll draw the hidden one"]
        )
    )
    assert _applied(yes, "hacienda") == [UseHacienda(True)], yes
    no = data.draw(st.sampled_from(["don't use it", "I won't draw", "not drawing"]))
    applied = _applied(no, "hacienda")
    assert applied in ([], [UseHacienda(False)]), no


# -- the reading itself ----------------------------------------------------------------


def test_words_the_table_does_not_know_end_the_reading() -> None:
    assert words_of("the coffee one please") is not None
    assert words_of("the coffee one, whatever") is None
    assert by_mentions("coffee / corn", DecisionKind.SETTLE) is None


def test_a_negation_excludes_the_next_thing_or_answers_the_one_before() -> None:
    words = words_of("quarry instead of a plantation")
    assert words is not None
    assert [(m.cls, m.negated) for m in mentions_of(words) or []] == [
        ("quarry", False),
        ("plantation", True),
    ]
    words = words_of("hacienda: no")
    assert words is not None
    assert [(m.cls, m.negated) for m in mentions_of(words) or []] == [("name", True)]
    words = words_of("no, the quarry")
    assert words is not None and mentions_of(words) is None  # no to what came before


def test_an_order_sent_ahead_is_kept_by_what_it_names() -> None:
    found = by_mentions("For later: the hospice please", None)
    assert found is not None and found.texts == ("build hospice",)
    found = by_mentions("the coffee one", None)  # a tile, an extra, a sale or a load
    assert found is not None and found.named and len(found.texts) > 1


@FAST
@given(st.data())
def test_no_colonist_from_the_building_is_a_no(data: st.DataObject) -> None:
    good = data.draw(st.sampled_from(GOODS_UP))
    said = data.draw(
        st.sampled_from(["no colonist from the hospice", "a colonist but not from the hospice"])
    )
    text = f"the {good.label} one, {said}"
    assert _applied(text, "settle-hospice") == [TakePlantation(good, False)], text
    building = data.draw(st.sampled_from(BUILDABLE))
    said = data.draw(st.sampled_from(["no colonist from the university", "without the university"]))
    text = f"the {building.label}, {said}"
    assert _applied(text, "build-university") == [Build(building, False)], text


def test_an_order_put_off_or_hedged_is_not_done_now() -> None:
    assert _applied("the quarry one next time", "settle") == []
    assert _applied("not sure, the coffee one", "settle") == []


def test_an_order_read_by_its_names_waits_for_the_rest_of_the_mail() -> None:
    game, seat = _game("build-university")
    report = check_mail("the factory one\nand the colonist thing", game, seat)
    assert report.actions == []
    assert any("may change this order" in e.reason for e in report.errors)
    assert _applied("the factory one\nCheers, Anna", "build-university") == [
        Build(Building.FACTORY, True)
    ]


# -- a role (or the hacienda) and the first step it leads to, on one line ----------------

JOINTS = st.sampled_from([": ", ", then ", " and then ", " and ", ", ", " then "])


@FAST
@given(st.data())
def test_a_role_and_its_first_step_on_one_line(data: st.DataObject) -> None:
    good = data.draw(st.sampled_from(list(Good)))
    settler = _role_word(data.draw, Role.SETTLER)
    step = data.draw(st.sampled_from(["{g}", "the {g} plantation", "a {g} one", "{g} please"]))
    lead = data.draw(st.sampled_from(["", "I'll take the ", "the "]))
    text = lead + settler + data.draw(JOINTS) + step.format(g=_good_word(data.draw, good))
    assert _applied(text, "role") == [PickRole(Role.SETTLER), TakePlantation(good, False)], text


@FAST
@given(st.data())
def test_the_hacienda_and_the_tile_on_one_line(data: st.DataObject) -> None:
    yes = data.draw(st.booleans())
    head = data.draw(
        st.sampled_from(
            ["Hacienda", "hacienda yes", "use the hacienda"]
            if yes
            else ["no hacienda", "hacienda: no"]
        )
    )
    tile = data.draw(st.sampled_from([*GOODS_UP, None]))
    said = "the quarry" if tile is None else f"the {tile.label} plantation"
    joint = data.draw(JOINTS.filter(lambda j: not (head.endswith("no") and j.startswith(":"))))
    applied = _applied(head + joint + said, "hacienda")
    assert applied[0] == UseHacienda(yes), head + joint + said
    # (Chris's hospice mans the tile; the draw may fill his island: then he is asked)
    tiles = [TakeQuarry(True)] if tile is None else [TakePlantation(tile, True)]
    assert applied[1:] in ([], tiles), head + joint + said


def test_two_roles_on_one_line_are_not_two_steps() -> None:
    assert _asked("captain and trader", "role")
    assert _applied("settler: builder", "role") == []


# -- storage, the extra barrel, a building's short name --------------------------------


@FAST
@given(st.data())
def test_a_warehouse_named_by_its_size(data: st.DataObject) -> None:
    good = data.draw(st.sampled_from([Good.SUGAR, Good.TOBACCO]))
    other = Good.TOBACCO if good is Good.SUGAR else Good.SUGAR
    size = data.draw(st.sampled_from(["small", "large", "big", ""]))
    form = data.draw(st.sampled_from(["keep {g} in the {s} warehouse", "{g} in my {s} warehouse"]))
    text = " ".join(form.format(g=good.label, s=size).split())
    game, _ = _game("store")
    bob = 1
    report = check_mail(text, game, bob)
    assert [format_action(a, game, bob) for a in report.actions] == [
        f"keep {good.label} in warehouse, 1 {other.label} on wind rose"
    ], text


def test_more_goods_than_fit_are_asked_back_with_the_ways_to_keep_some() -> None:
    game, seat = _game("store")  # Anna: corn and sugar, the wind rose only
    report = check_mail("keep corn and sugar", game, seat)
    assert report.actions == []
    (err,) = report.errors
    assert isinstance(err, AmbiguousOrder)
    assert sorted(err.alternatives) == ["keep 1 corn on wind rose", "keep 1 sugar on wind rose"]


def test_the_extra_barrel_asked_for_without_a_good_is_the_default() -> None:
    game, seat = _game("craftsman")
    for text in ("extra barrel please", "yes, the bonus barrel", "my privilege barrel"):
        report = check_mail(text, game, seat)
        assert report.actions == [ExtraGood(Good.COFFEE)], text  # the highest value
        assert report.accepted[0].meaning == "extra coffee"
    assert _applied("no extra barrel", "craftsman") != [ExtraGood(Good.COFFEE)]
    assert _applied("take the extra one", "craftsman") == []  # which one?


def test_a_short_name_that_fits_one_building_not_owned_is_it() -> None:
    game, seat = _game("build")  # Anna has a small market
    assert check_mail("build market", game, seat).actions == [Build(Building.LARGE_MARKET, False)]
    assert _asked("build warehouse", "build")  # she has neither warehouse


@FAST
@given(st.data())
def test_goods_kept_where_each_is_said_to_go(data: st.DataObject) -> None:
    # David: indigo, sugar, tobacco, coffee; a large warehouse (two kinds) and the rose
    rose, *house = data.draw(st.permutations([Good.INDIGO, Good.SUGAR, Good.TOBACCO, Good.COFFEE]))
    house = sorted(house[:2])
    kept = f"{house[0].label} and {house[1].label}"
    form = data.draw(
        st.sampled_from(
            [
                "{r} on the wind rose, {h} in the warehouse",
                "{h} in the large warehouse and {r} on the rose",
                "warehouse: {h}. wind rose: {r}",
                "rose: {r}; warehouse: {h}",
            ]
        )
    )
    text = form.format(r=rose.label, h=kept)
    game, david = load_position("store-large"), 3
    report = check_mail(text, game, david)
    expected = ", ".join(f"{g.label} in warehouse" for g in house)
    assert [format_action(a, game, david) for a in report.actions] == [
        f"keep {expected}, 1 {rose.label} on wind rose"
    ], text
    # Said no to, it is not read at all.
    assert check_mail(f"not {rose.label} on the wind rose", game, david).actions == []


@FAST
@given(st.data())
def test_a_role_tied_to_what_it_is_for(data: st.DataObject) -> None:
    joint = data.draw(st.sampled_from(V.step_joints))
    role, step, action = data.draw(
        st.sampled_from(
            [
                (Role.BUILDER, "the factory", Build(Building.FACTORY, False)),
                (Role.SETTLER, "the quarry", TakeQuarry(False)),
                (Role.SETTLER, "a coffee plantation", TakePlantation(Good.COFFEE, False)),
            ]
        )
    )
    text = f"I'll take the {_role_word(data.draw, role)} {joint} {step}"
    assert _applied(text, "role") == [PickRole(role), action], text


@FAST
@given(st.data())
def test_an_order_sent_in_case_of_lateness_is_kept(data: st.DataObject) -> None:
    good = data.draw(st.sampled_from([Good.SUGAR, Good.TOBACCO, Good.INDIGO]))
    lead = data.draw(
        st.sampled_from(["in case I'm late: ", "in case I am away: ", "Just in case: "])
    )
    game, bob = load_position("settle"), 1  # Bob has nothing to decide now
    report = check_mail(f"{lead}I'll sell {good.label}.", game, bob)
    assert report.errors == [] and report.actions == []
    assert [q.command for q in report.queued] == [SellCmd((good,))]


@FAST
@given(st.data())
def test_the_wharf_by_any_word_of_with_or_use(data: st.DataObject) -> None:
    good = data.draw(st.sampled_from([Good.CORN, Good.INDIGO, Good.TOBACCO]))
    via = data.draw(st.sampled_from([*V.term("WITH").words, *V.term("USE").words]))
    wharf = data.draw(st.sampled_from(["wharf", "wharves"][:1]))
    form = data.draw(
        st.sampled_from(["{g} {v} the {w}", "ship my {g} {v} the {w}", "the {g}, {v} my {w}"])
    )
    text = data.draw(POLITE) + form.format(g=good.label, v=via, w=wharf) + data.draw(AFTER)
    assert _applied(text, "load-wharf") == [LoadWharf(good)], text


@FAST
@given(st.data())
def test_any_ship_is_the_ship_the_default_chooses(data: st.DataObject) -> None:
    good = data.draw(st.sampled_from([Good.CORN, Good.SUGAR, Good.COFFEE]))
    anyone = data.draw(st.sampled_from(V.term("ANY").words))
    boat = data.draw(st.sampled_from(["ship", "boat"]))
    form = data.draw(st.sampled_from(["load {g} on {a} {b}", "{g} on {a} {b}", "{g} onto {a} {b}"]))
    text = form.format(g=good.label, a=anyone, b=boat) + data.draw(AFTER)
    assert _applied(text, "load") == _applied(f"ship {good.label}", "load"), text
    # "any" names a ship, nothing else; a no to it is no order
    assert _applied(f"{anyone} {good.label}", "load") == []
    assert _applied(f"{good.label}, not on {anyone} {boat}", "load") == []


def test_a_no_to_the_wharf_then_a_load_on_a_cargo_ship() -> None:
    game, _ = _game("load-wharf")
    biggest = max(range(len(game.state.ships)), key=lambda i: game.state.ships[i].capacity)
    for text in (
        "No wharf this round - tobacco on the largest ship",
        "not the wharf, tobacco on the largest boat",
        "No wharf.\nTobacco on the largest ship.",
    ):
        assert _applied(text, "load-wharf") == [Load(Good.TOBACCO, biggest)], text
    # a no to the wharf and the wharf, or a no to the good: nothing done
    assert _applied("no wharf - tobacco on the wharf", "load-wharf") == []
    assert _applied("not tobacco - corn on the largest ship", "load-wharf") == []
    # (a dash between blanks ends a negation's reach, as a comma does)
    said = words_of("no wharf - corn")
    assert said is not None and [w.cls for w in said] == ["not", "name", "stop", "good"]


def test_a_drop_word_before_a_place_or_a_way_is_no_drop() -> None:
    for way in (*V.term("ON").words[:1], *V.term("WITH").words):
        assert "dump" not in normalise(f"the tobacco goes {way} the wharf")
    for drop in V.drops_after:
        if drop.startswith(("go", "can go")):
            assert normalise(f"sugar on the rose, the rest {drop}").startswith("sugar on the rose")
            assert "dump the rest" in normalise(f"sugar on the rose, the rest {drop}"), drop


def test_goods_overboard_are_not_kept() -> None:
    sugar = _applied("keep 1 sugar on wind rose", "store")
    overboard = [d for d in V.drops_after if "overboard" in d]
    assert overboard
    for drop in overboard:
        text = f"Sugar on my compass rose. the corn {drop}."
        assert _applied(text, "store") == sugar, text


def test_the_default_accepted_in_words_of_approvals() -> None:
    default = _applied("default", "store")
    assert default
    for fine in V.approvals:
        assert _applied(f"The default {fine}.", "store") == default, fine
    assert _applied("the wind rose is fine", "store") != default


@FAST
@given(st.data())
def test_a_question_on_what_a_sale_gives_is_its_price_checked(data: st.DataObject) -> None:
    game, seat = _game("trade")
    sale = _applied("sell tobacco", "trade")
    assert sale and isinstance(sale[0], Sell)
    paid = game.state.players[seat].doubloons
    claim = data.draw(st.sampled_from(V.claims))
    check = data.draw(st.sampled_from(["", *V.checks]))
    coin = data.draw(st.sampled_from(V.term("DOUBLOON").words))
    price = 4  # (tobacco 3, and 1 for the trader's privilege)
    text = f"sell tobacco, {claim} {price} {coin} {check}?"
    assert _applied(text, "trade") == sale, text
    assert paid == game.state.players[seat].doubloons
    assert _asked(f"sell tobacco, {claim} {price + 1} {coin} {check}?", "trade")
    # a question between orders stays one
    assert _applied(f"sell tobacco, {claim} {price} {coin}, or indigo?", "trade") == []


def test_a_keep_for_shipping_is_the_reason_of_another_order() -> None:
    for text in (
        "Tobacco, I'm keeping the sugar for shipping.",
        "sell tobacco, and keep the sugar for the captain",
    ):
        game, seat = _game("trade")
        report = check_mail(text, game, seat)
        assert len(report.actions) == 1 and isinstance(report.actions[0], Sell), text
        assert report.queued == [], text
    # alone, or in the captain phase, a keep is the storage's
    game, seat = _game("load")
    assert check_mail("sugar on the 5, keep the corn for shipping", game, seat).queued
