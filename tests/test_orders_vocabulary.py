"""One vocabulary (issue 11, item 3): the grammar's word terminals, the suggestions and the
players' guide are all made from moderator/orders/vocabulary.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moderator.engine.components import Building, Good, Role
from moderator.orders import help_text, parse_order
from moderator.orders.commands import BuildCmd, RoleCmd, RoleRef, SettleCmd, ShipCmd
from moderator.orders.errors import OrderSyntaxError
from moderator.orders.parser import lark_parser
from moderator.orders.reading import normalise
from moderator.orders.vocabulary import (
    ENGLISH,
    VOCABULARIES,
    abbreviated,
    close_words,
    guide_section,
    suggestions,
    terminal_pattern,
    with_guide_section,
    words,
)

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "orders.md").read_text(encoding="utf-8")
# The grammar's only terminals that are not words: digits, dates, separators, blanks.
NOT_WORDS = {"NUMBER", "SIGNED", "ORDINAL", "ISO_DATE", "_COMMA", "_SEP", "PUNCT", "WS"}


def test_every_word_terminal_of_the_grammar_is_made_from_the_table() -> None:
    table = {t.name: t for t in ENGLISH.terms}
    for terminal in lark_parser().terminals:
        if terminal.name in NOT_WORDS:
            continue
        assert terminal.name in table, f"{terminal.name} is not made from the vocabulary"
        # Without /.../i; Lark reads the escaped tab as a tab.
        expected = terminal_pattern(table[terminal.name])[1:-2].replace("\\t", "\t")
        assert terminal.pattern.value == expected
        assert "i" in terminal.pattern.flags


def test_every_table_word_is_whole_word_matched_by_its_terminal() -> None:
    for term in ENGLISH.terms:
        pattern = re.compile(terminal_pattern(term)[1:-2], re.IGNORECASE)
        for word in term.words:
            assert pattern.fullmatch(word), (term.name, word)
            assert pattern.fullmatch(word.upper()), (term.name, word)
            if word[-1].isalnum():
                assert not pattern.fullmatch(word + "x"), (term.name, word)


def test_ignored_words_are_no_other_terminal_s_words() -> None:
    """A filler that another terminal also held would be read one way or the other
    depending on the lexer's order: each word belongs to one of them only."""
    fillers = set(ENGLISH.fillers)
    for term in ENGLISH.terms:
        if term.name != "FILLER":
            assert not fillers & set(term.words), term.name


def test_every_word_the_grammar_accepts_is_suggestible_and_documented() -> None:
    section = GUIDE[GUIDE.index("## Words") :]
    documented = set(re.findall(r"`([^`]+)`", section))
    fillers = set(ENGLISH.fillers)
    for term in ENGLISH.terms:
        for word in term.words:
            if abbreviated(word):
                continue  # (on the line of short forms: below)
            assert word in documented, f"{word!r} ({term.name}) is not in docs/orders.md"
            if term.name != "FILLER" and re.fullmatch(r"[\w' ]+", word):
                for part in word.split():
                    assert part in suggestions(), f"{part!r} cannot be suggested"
    for short, meant in ENGLISH.abbreviations.items():
        assert short in documented and set(meant) <= documented, short
        assert short not in suggestions(), short  # (the word meant is offered)
    assert set(suggestions()) <= set(words())
    # ("do" and "it" are ignored alone, and parts of "do not" and "as it is")
    assert not set(suggestions()) & fillers - {"do", "it"}
    # "Did you mean" offers the table's words: each is offered for itself.
    assert all(close_words(w)[:1] == (w,) for w in suggestions())


def test_the_guide_s_words_section_is_current() -> None:
    """Remake it with: python -m moderator.orders.vocabulary docs/orders.md"""
    assert guide_section() in GUIDE
    assert with_guide_section(GUIDE) == GUIDE


def test_help_words_gives_the_section_made_from_the_table() -> None:
    assert help_text("words").startswith("## Words")
    assert "`harbour` = `harbor`" in help_text("words")


def test_the_guide_section_needs_its_markers() -> None:
    with pytest.raises(ValueError, match="markers"):
        with_guide_section("# Orders\n")


@pytest.mark.parametrize("word", list(ENGLISH.goods))
def test_each_good_word_means_its_good(word: str) -> None:
    assert parse_order(f"settle {word}") == SettleCmd(ENGLISH.goods[word])
    spelled = ENGLISH.abbreviations.get(word, (word,))[0]  # ("tob": "tobacco")
    assert ENGLISH.goods[word] is Good[spelled.rstrip("s").upper()]


@pytest.mark.parametrize("word", [w for w, r in ENGLISH.roles.items() if r is not Role.PROSPECTOR])
def test_each_role_word_means_its_role(word: str) -> None:
    assert parse_order(f"role {word}") == RoleCmd((RoleRef(ENGLISH.roles[word]),))


@pytest.mark.parametrize(("word", "value"), list(ENGLISH.numbers.items()))
def test_each_number_word_means_its_number(word: str, value: int) -> None:
    assert parse_order(f"ship {word} corn") == ShipCmd(Good.CORN, value)


@pytest.mark.parametrize("building", list(Building))
def test_each_building_is_named_by_its_label_and_its_plural(building: Building) -> None:
    assert parse_order(f"build {building.label}") == BuildCmd("", (building,))
    *head, last = building.label.split()
    if last not in ("customs",):
        plural = " ".join([*head, last + ("es" if last.endswith("s") else "s")])
        plural = plural.replace("factorys", "factories").replace("universitys", "universities")
        assert parse_order(f"build {plural}") == BuildCmd("", (building,))


@pytest.mark.parametrize(("variant", "spelled"), list(ENGLISH.spellings.items()))
def test_each_spelling_variant_folds_to_the_table_s_spelling(variant: str, spelled: str) -> None:
    names = [b for b in Building if set(spelled.split()) <= set(b.label.split())]
    if names and len(spelled.split()) > 1:
        assert parse_order(f"build {variant}") == BuildCmd("", (names[0],))
    elif variant == "harbour":
        assert parse_order("build harbour") == BuildCmd("", (Building.HARBOR,))
    elif variant == "craftsmen":
        assert parse_order("role craftsmen") == RoleCmd((RoleRef(Role.CRAFTSMAN),))


def test_politeness_is_blanked_and_columns_stay_true() -> None:
    text = "I\u2019d like to be the Settler, please."
    out = normalise(text)
    assert len(out) == len(text)
    assert out.split() == ["be", "the", "Settler"]
    assert out.index("Settler") == text.index("Settler")
    assert normalise("what are my options?").split() == ["my", "options"]
    assert normalise("?") == "?"


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("I'd like to be the Settler please.", RoleCmd((RoleRef(Role.SETTLER),))),
        ("Trader, please.", RoleCmd((RoleRef(Role.TRADER),))),
        ("Builder for me", RoleCmd((RoleRef(Role.BUILDER),))),
        ("mayor pls", RoleCmd((RoleRef(Role.MAYOR),))),
        ("I\u2019ll take the captain", RoleCmd((RoleRef(Role.CAPTAIN),))),
        ("I'll have the coffee plantation, thanks.", SettleCmd(Good.COFFEE)),
    ],
)
def test_politeness_around_an_order_is_not_read(text: str, command: RoleCmd) -> None:
    assert parse_order(text) == command


def test_politeness_alone_is_no_order() -> None:
    with pytest.raises(OrderSyntaxError, match="only politeness"):
        parse_order("thanks!")


def test_the_table_is_per_language() -> None:
    assert VOCABULARIES["en"] is ENGLISH
    assert ENGLISH.language == "en"
