"""The order grammar: every example of issue 3 and docs/orders.md, the synonyms, errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moderator.engine.actions import DecisionKind
from moderator.engine.components import Building, Good, Role
from moderator.orders import help_guide, help_text, parse_order, parse_text
from moderator.orders.commands import (
    AwayCmd,
    BackCmd,
    BoardCmd,
    BuildCmd,
    Command,
    DefaultCmd,
    ExtraCmd,
    HaciendaCmd,
    HelpCmd,
    HistoryCmd,
    KeepCmd,
    KeepItem,
    MayorCmd,
    Move,
    OrdersCmd,
    PassCmd,
    ResendCmd,
    RoleCmd,
    RoleRef,
    SellCmd,
    SettleCmd,
    ShipCmd,
    StatusCmd,
    Target,
    TargetKind,
    WharfCmd,
    Where,
)
from moderator.orders.errors import OrderError, OrderSyntaxError
from moderator.orders.help import REFERENCE
from moderator.orders.parser import grammar_text, parse_mail, parse_orders, password, segments

ROOT = Path(__file__).resolve().parents[1]
CORN, INDIGO, SUGAR, TOBACCO, COFFEE = Good


def corn_target() -> Target:
    return Target(TargetKind.PLANTATION, "corn", good=CORN)


def roaster() -> Target:
    return Target(TargetKind.BUILDING, "coffee roaster", buildings=(Building.COFFEE_ROASTER,))


SAN_JUAN = Target(TargetKind.SAN_JUAN, "san juan")
QUARRY = Target(TargetKind.QUARRY, "quarry")

# Issue 3, item 2: "At least these must parse".
ISSUE_EXAMPLES: list[tuple[str, Command]] = [
    ("role captain", RoleCmd((RoleRef(Role.CAPTAIN),))),
    ("settle coffee", SettleCmd(COFFEE)),
    ("take quarry", SettleCmd(None)),
    ("hacienda", HaciendaCmd(True)),
    ("no hacienda", HaciendaCmd(False)),
    ("build harbour", BuildCmd("harbour", (Building.HARBOR,))),
    ("sell tobacco or coffee", SellCmd((TOBACCO, COFFEE))),
    ("ship 6 sugar on 7", ShipCmd(SUGAR, 6, 7)),
    ("ship corn", ShipCmd(CORN)),
    ("ship", ShipCmd()),
    ("wharf coffee", WharfCmd(COFFEE)),
    ("keep coffee, sugar", KeepCmd((KeepItem(COFFEE), KeepItem(SUGAR)))),
    ("extra tobacco", ExtraCmd(TOBACCO)),
    ("mayor: no extra colonist", MayorCmd(extra=False)),
    (
        "remove 1 from corn, 1 from san juan",
        MayorCmd(removals=(Move(1, corn_target()), Move(1, SAN_JUAN))),
    ),
    (
        "place 2 on coffee roaster, 1 on quarry",
        MayorCmd(placements=(Move(2, roaster()), Move(1, QUARRY))),
    ),
    ("pass", PassCmd()),
    ("help", HelpCmd()),
    ("status", StatusCmd()),
    ("board", BoardCmd()),
    ("orders", OrdersCmd()),
    ("history", HistoryCmd()),
    ("resend", ResendCmd()),
]


@pytest.mark.parametrize(("text", "command"), ISSUE_EXAMPLES)
def test_every_issue_example_parses(text: str, command: Command) -> None:
    assert parse_order(text) == command


@pytest.mark.parametrize(("text", "command"), ISSUE_EXAMPLES)
def test_orders_are_case_insensitive(text: str, command: Command) -> None:
    assert parse_order(text.upper()) == command
    assert parse_order(text.title()) == command


SYNONYMS: list[tuple[str, str]] = [
    ("build harbour", "build harbor"),
    ("build harbour", "Build the Harbor."),
    ("role captain", "take captain"),
    ("role captain", "choose the captain"),
    ("role captain", "pick captain"),
    ("role captain", "captain"),
    ("role captain", "I take the captain!"),
    ("ship corn", "load corn"),
    ("ship corn", "ship corns"),
    ("ship 6 sugar on 7", "load six sugars on the 7 ship"),
    ("ship 6 sugar on 7", "ship 6 sugar on ship 7"),
    ("ship 6 sugar on 7", "ship 6 sugar onto the 7-ship"),
    ("pass", "nothing"),
    ("pass", "no"),
    ("pass", "Pass."),
    ("settle coffee", "take coffee"),
    ("settle coffee", "take the coffee plantation"),
    ("settle coffee", "choose coffee"),
    ("settle coffee", "settle coffees"),
    ("take quarry", "settle quarry"),
    ("take quarry", "take a quarry"),
    ("take quarry", "take quarry, using the hut"),
    ("take quarry", "take a quarry with my construction hut"),
    ("hacienda", "use hacienda"),
    ("hacienda", "hacienda yes"),
    ("no hacienda", "hacienda no"),
    ("no hacienda", "don't use the hacienda"),
    ("sell tobacco or coffee", "trade tobacco or coffee"),
    ("sell tobacco or coffee", "sell tobacco, coffee"),
    ("keep coffee, sugar", "keep coffee and sugar"),
    ("keep coffee, sugar", "store coffees, sugars"),
    ("wharf coffee", "ship coffee on the wharf"),
    ("wharf coffee", "use wharf for coffee"),
    ("extra tobacco", "extra barrel of tobacco"),
    ("mayor: no extra colonist", "no extra colonist"),
    ("mayor: no extra colonist", "Mayor - no extra colonist."),
    ("place 2 on coffee roaster, 1 on quarry", "place two on coffee-roaster and one on quarry"),
    (
        "place 2 on coffee roaster, 1 on quarry",
        "put 2 colonists on the coffee roaster, 1 on quarry",
    ),
    ("remove 1 from corn, 1 from san juan", "remove one from corn plantation, 1 from San Juan"),
    ("remove 1 from corn, 1 from san juan", "remove 1 colonist from corn, 1 from sanjuan"),
    ("orders", "options"),
    ("history", "log"),
    ("resend", "repeat"),
]


@pytest.mark.parametrize(("canonical", "variant"), SYNONYMS)
def test_synonyms_mean_the_same_order(canonical: str, variant: str) -> None:
    assert parse_order(variant) == parse_order(canonical)


@pytest.mark.parametrize(
    ("text", "buildings"),
    [
        ("build small indigo plant", (Building.SMALL_INDIGO_PLANT,)),
        ("build small-indigo-plant", (Building.SMALL_INDIGO_PLANT,)),
        ("build indigo plant", (Building.INDIGO_PLANT,)),
        ("build large indigo plant", (Building.INDIGO_PLANT,)),
        ("build roaster", (Building.COFFEE_ROASTER,)),
        ("build construction hut", (Building.CONSTRUCTION_HUT,)),
        ("build hut", (Building.CONSTRUCTION_HUT,)),
        ("build guildhall", (Building.GUILD_HALL,)),
        ("build customs house", (Building.CUSTOMS_HOUSE,)),
        ("build city hall", (Building.CITY_HALL,)),
        ("build tobacco storage", (Building.TOBACCO_STORAGE,)),
        ("build market", (Building.SMALL_MARKET, Building.LARGE_MARKET)),
        ("build warehouse", (Building.SMALL_WAREHOUSE, Building.LARGE_WAREHOUSE)),
        ("build hall", (Building.GUILD_HALL, Building.CITY_HALL)),
    ],
)
def test_building_names_with_spaces_hyphens_and_abbreviations(
    text: str, buildings: tuple[Building, ...]
) -> None:
    command = parse_order(text)
    assert isinstance(command, BuildCmd)
    assert command.candidates == buildings


@pytest.mark.parametrize("building", list(Building))
def test_every_building_label_names_exactly_that_building(building: Building) -> None:
    command = parse_order(f"build {building.label}")
    assert isinstance(command, BuildCmd)
    assert command.candidates == (building,)


@pytest.mark.parametrize(
    "text", ["take quarry with the harbor", "settle coffee using the hut", "take quarry using"]
)
def test_only_a_quarry_is_taken_with_the_construction_hut(text: str) -> None:
    with pytest.raises(OrderError):
        parse_order(text)


def test_declining_hospice_and_university() -> None:
    assert parse_order("settle corn, no hospice") == SettleCmd(CORN, False)
    assert parse_order("take quarry without hospice") == SettleCmd(None, False)
    assert parse_order("settle corn with hospice") == SettleCmd(CORN, True)
    assert parse_order("build harbor, no university") == BuildCmd(
        "harbor", (Building.HARBOR,), False
    )


def test_passing_one_decision_by_name() -> None:
    assert parse_order("build nothing") == PassCmd(DecisionKind.BUILD)
    assert parse_order("sell nothing") == PassCmd(DecisionKind.SELL)
    assert parse_order("don't sell") == PassCmd(DecisionKind.SELL)
    assert parse_order("take nothing") == PassCmd(DecisionKind.SETTLE)
    assert parse_order("no extra") == PassCmd(DecisionKind.CRAFTSMAN_EXTRA)
    assert parse_order("no wharf") == PassCmd(DecisionKind.LOAD)
    assert parse_order("default") == DefaultCmd()


def test_role_preference_lists_and_prospectors() -> None:
    assert parse_order("role captain, trader or builder") == RoleCmd(
        (RoleRef(Role.CAPTAIN), RoleRef(Role.TRADER), RoleRef(Role.BUILDER))
    )
    assert parse_order("role prospector") == RoleCmd((RoleRef(Role.PROSPECTOR, exact=False),))
    assert parse_order("role prospector 1") == RoleCmd((RoleRef(Role.PROSPECTOR),))
    assert parse_order("role prospector two") == RoleCmd((RoleRef(Role.PROSPECTOR2),))
    assert parse_order("mayor") == RoleCmd((RoleRef(Role.MAYOR),))


def test_storage_places() -> None:
    assert parse_order("keep coffee in warehouse, 1 sugar on wind rose") == KeepCmd(
        (KeepItem(COFFEE, None, Where.WAREHOUSE), KeepItem(SUGAR, 1, Where.WINDROSE))
    )
    assert parse_order("keep") == KeepCmd(())


def test_colonist_moves() -> None:
    assert parse_order("move 1 from corn to coffee roaster") == MayorCmd(
        removals=(Move(1, corn_target()),), placements=(Move(1, roaster()),)
    )
    assert parse_order("mayor: no change") == MayorCmd()
    assert parse_order("no extra colonist remove 1 from corn place 1 on quarry") == MayorCmd(
        False, (Move(1, corn_target()),), (Move(1, QUARRY),)
    )


def test_numbers_as_words_one_to_twelve() -> None:
    words = [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
    ]
    for n, word in enumerate(words, start=1):
        assert parse_order(f"ship {word} corn") == ShipCmd(CORN, n)


def test_a_colonist_order_over_several_lines_is_one_order() -> None:
    text = "remove 1 from corn, 1 from san juan\nplace 2 on coffee roaster, 1 on quarry"
    (command,) = parse_text(text)
    assert command == MayorCmd(
        None,
        (Move(1, corn_target()), Move(1, SAN_JUAN)),
        (Move(2, roaster()), Move(1, QUARRY)),
    )


def test_several_orders_per_mail_by_line_or_semicolon() -> None:
    text = "# my orders\n\nrole captain; ship corn\n  sell coffee  \n"
    assert parse_text(text) == [
        RoleCmd((RoleRef(Role.CAPTAIN),)),
        ShipCmd(CORN),
        SellCmd((COFFEE,)),
    ]
    assert [(s.line_no, s.column) for s in segments(text)] == [(3, 1), (3, 15), (4, 3)]


def test_the_whole_mail_rule_of_the_grammar() -> None:
    assert parse_orders("role captain; ship corn\n\nsell coffee") == [
        RoleCmd((RoleRef(Role.CAPTAIN),)),
        ShipCmd(CORN),
        SellCmd((COFFEE,)),
    ]


def test_password_lines_are_read_apart() -> None:
    text = "password: hunter2\nrole captain"
    assert password(text) == "hunter2"
    assert parse_text(text) == [RoleCmd((RoleRef(Role.CAPTAIN),))]


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("build harbr", 7, ['"harbr"', 'did you mean "harbor"']),
        ("frobnicate", 1, ['"frobnicate" is not an order']),
        ("settle", 7, ["stops too early", "a good"]),
        ("role coffee", 6, ['"coffee" does not fit after "role"', "a role should come there"]),
        ("ship 0 corn", 6, ["at least 1"]),
        ("build wizard tower", 7, ['"wizard"']),
        ("ship corn on", 13, ["stops too early", "a number"]),
        ("role prospector 3", 17, ["prospectors 1 and 2"]),
    ],
)
def test_syntax_errors_say_where_and_why(text: str, column: int, words: list[str]) -> None:
    with pytest.raises(OrderSyntaxError) as info:
        parse_order(text)
    err = info.value
    assert err.column == column
    for w in words:
        assert w in err.reason


def test_errors_in_a_mail_keep_their_line_and_caret_and_later_lines_are_read() -> None:
    # "hrbr" is two letters off "harbor": a suggestion, not a reading.
    items = parse_mail("role captain\nbuild hrbr; sell coffee\nfoo")
    assert [type(i).__name__ for i in items] == [
        "Parsed",
        "OrderSyntaxError",
        "Parsed",
        "OrderSyntaxError",
    ]
    err = items[1]
    assert isinstance(err, OrderError)
    assert (err.line_no, err.column) == (2, 7)
    assert err.render().splitlines()[:2] == ["> build hrbr; sell coffee", "        ^"]
    assert 'did you mean "harbor"' in err.reason


def test_a_huge_number_or_a_long_line_is_an_error_not_a_crash() -> None:
    with pytest.raises(OrderSyntaxError):
        parse_order("ship " + "9" * 5000 + " corn")
    with pytest.raises(OrderSyntaxError):
        parse_order("ship corn " * 100)


def _guide_orders() -> list[str]:
    text = (ROOT / "docs" / "orders.md").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if line.startswith("    ") and line.strip():
            out.append(re.sub(r"\s{2,}\(.*\)$", "", line.strip()))
    return out


def _guide_commands(order: str) -> list[Command]:
    try:
        return parse_text(order)
    except OrderSyntaxError:
        pass
    try:
        # The guide's colonist orders without a verb: orders of the mayor phase only.
        commands = parse_text(order, DecisionKind.MAYOR)
        assert all(isinstance(c, MayorCmd) for c in commands)
        return commands
    except OrderSyntaxError:
        # A role with its first step behind a colon: when a role is picked.
        role, step = parse_text(order, DecisionKind.ROLE)
        assert isinstance(role, RoleCmd) and not isinstance(step, RoleCmd)
        return [role, step]


@pytest.mark.parametrize("order", _guide_orders())
def test_every_example_in_the_players_guide_parses(order: str) -> None:
    assert _guide_commands(order)


def test_the_guide_has_an_example_for_every_role_and_building_choice() -> None:
    orders = _guide_orders()
    kinds = {type(c).__name__ for o in orders for c in _guide_commands(o)}
    assert {
        "RoleCmd",
        "SettleCmd",
        "HaciendaCmd",
        "MayorCmd",
        "BuildCmd",
        "ExtraCmd",
        "SellCmd",
        "ShipCmd",
        "WharfCmd",
        "KeepCmd",
        "PassCmd",
    } <= kinds
    roles = {
        ref.role
        for o in orders
        for c in _guide_commands(o)
        if isinstance(c, RoleCmd)
        for ref in c.roles
    }
    assert roles >= {Role.CAPTAIN, Role.TRADER, Role.BUILDER, Role.PROSPECTOR}


def test_help_is_made_from_the_players_guide() -> None:
    assert help_text() == (ROOT / "docs" / "orders.md").read_text(encoding="utf-8")
    assert help_text("mayor").startswith("## Mayor")
    assert "remove 1 from corn" in help_text("mayor")


def test_plain_help_leaves_the_reference_sections_to_be_asked_for_by_name() -> None:
    """The `help` reply is the guide without its long reference sections, which its
    introduction names; each comes when asked by the word it names ("help reading")."""
    plain = [s.title for s in help_guide().sections]
    assert plain[0] is None and "Mayor" in plain and "Service" in plain
    assert not {str(t).lower() for t in plain} & set(REFERENCE)
    intro = " ".join(b.text or "" for b in help_guide().sections[0].blocks)
    for title in REFERENCE:
        word = title.split()[0]
        assert f"`help {word}`" in intro
        asked = help_guide(word)
        assert [s.title.lower() for s in asked.sections if s.title] == [title]
        assert parse_order(f"help {word}") == HelpCmd(word)


def test_the_grammar_file_is_the_top_level_one() -> None:
    assert grammar_text() == (ROOT / "grammars" / "orders.lark").read_text(encoding="utf-8")


DECEMBER_3 = AwayCmd(month=12, day=3)


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("away until 3 December", DECEMBER_3),
        ("Away until December 3", DECEMBER_3),
        ("away till the 3rd of Dec", DECEMBER_3),
        ("I'm away until Dec. 3rd", DECEMBER_3),
        ("I will be away until 3 December 2026", AwayCmd(month=12, day=3, year=2026)),
        ("away until 2026-12-03", AwayCmd(month=12, day=3, year=2026)),
        ("away until Monday", AwayCmd(weekday=0)),
        ("I'll be away until thurs", AwayCmd(weekday=3)),
        ("away until sunday", AwayCmd(weekday=6)),
        ("away 5 days", AwayCmd(days=5)),
        ("away for five days", AwayCmd(days=5)),
        ("away a week", AwayCmd(days=7)),
        ("away for 2 weeks", AwayCmd(days=14)),
        ("back", BackCmd()),
        ("I am back", BackCmd()),
        ("I'm back!", BackCmd()),
    ],
)
def test_absence_orders(text: str, command: Command) -> None:
    assert parse_order(text) == command


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("away", 'a number or "until" should follow'),
        ("away until", "a day of the week"),
        ("away until 3", "a month should follow"),
        ("away 5", '"days" or "weeks"'),
        ("away until 31 April", "there is no 31 April"),
        ("away until 29 Feb 2027", "there is no 29 February 2027"),
        ("away until 2026-13-01", "there is no"),
    ],
)
def test_an_absence_order_that_is_no_day_says_why(text: str, reason: str) -> None:
    with pytest.raises(OrderSyntaxError, match=re.escape(reason)):
        parse_order(text)


def test_absence_orders_are_for_no_decision_and_never_kept() -> None:
    from moderator.engine import Game
    from moderator.orders import check_mail

    game = Game.new(["Anna", "Bob", "Chris"], 3)
    report = check_mail("away 3 days\nrole captain\nback", game, 1)  # Bob: not his turn
    assert report.absence is not None and report.absence.command == BackCmd()
    assert [a.text for a in report.accepted] == ["role captain"]  # kept for his pick
    assert report.accepted[0].key is not None and report.errors == []
