"""A question between orders ("Trader? Or captain?", "Should I take corn or sugar?",
"Which is better, the harbor or the wharf?") is asked back naming the orders it asks
between, never applied; a preference list written as an order ("role captain, trader
or builder") stays an order. The words that start a question are the vocabulary's."""

from __future__ import annotations

import re
from functools import cache
from typing import cast

from ..engine.actions import DecisionKind
from ..engine.game import Game
from .commands import Command, GameCommand, RoleCmd, is_absence, is_service, target_kind
from .errors import OrderError, Question
from .format import format_action, legal_orders
from .parser import Parsed, parse_mail
from .reading import (
    any_phrase,
    decided,
    has_verb,
    phrase,
    reminded,
    request,
    says_something,
    wavering,
)
from .resolve import decision_of, or_list, resolve
from .vocabulary import ENGLISH, Vocabulary, negation

# The words of a question before an order that it names, at the most.
_ASIDE = 3
# A question mark that ends the text (what follows it is no more than punctuation).
_ASKS = re.compile(r"\?[\s?!.)]*$")


@cache
def _lead(vocab: Vocabulary) -> re.Pattern[str]:
    """A question's first words, after at most two others ("Hmm, should I ...")."""
    leads = "|".join(phrase(q) for q in sorted(vocab.questions, key=len, reverse=True))
    return re.compile(rf"^\W*(?:[\w']+\W+){{0,2}}?(?:{leads})\b", re.IGNORECASE)


@cache
def _between(vocab: Vocabulary, joined: bool = False) -> re.Pattern[str]:
    """Where the options of a question part: a comma, "or" and its like, a "?"; and
    "and" in a choice headed by ``between`` ("torn between X and Y")."""
    words = (*vocab.term("_OR").words, *(vocab.term("_AND").words if joined else ()))
    words += tuple(w for w in vocab.choices if w not in words and joined)  # "X vs Y"
    ors = "|".join(phrase(w) for w in words)
    return re.compile(rf"\s*(?:[,?;]|\b(?:{ors})\b)\s*", re.IGNORECASE)


@cache
def _choice(vocab: Vocabulary, heading: bool = False) -> re.Pattern[str]:
    """A choice between orders: "or" and its like, or a word that heads one ("between");
    ``heading``: only the latter."""
    words = (*(() if heading else vocab.term("_OR").words), *vocab.choices)
    return any_phrase(words)


def _options(text: str, game: Game, seat: int, vocab: Vocabulary) -> list[str]:
    """The orders a question names, each as the reply words it ("role trader"): its
    parts between commas, "or" and question marks, each read as an order for the
    decision asked (a later part without a verb takes the first part's). A "yes" or
    "no" alone answers the question; it names no order."""
    decision = decision_of(game, seat)
    kind = None if decision is None else decision.kind
    # Neither the question's first words nor words of not having decided are options.
    body = _undecided(vocab).sub(" ", _lead(vocab).sub(" ", text, count=1))
    joined = _choice(vocab, heading=True).search(text) is not None
    parts = [p for p in _between(vocab, joined).split(body) if p and p.strip()]
    verb = ""
    out: list[str] = []
    seen: list[Command] = []
    for whole in parts:
        words = whole.split()
        if len(words) == 1 and _answer(vocab).fullmatch(words[0]):
            continue
        found: Parsed | None = None
        # The question's own words before the order ("is better: build ...") are not
        # part of it: the part is read from each of its first words on.
        for start in range(min(len(words), _ASIDE + 1)):
            if start and negation(vocab).search(" ".join(words[:start])):
                break  # "not the mayor" names no option
            part = " ".join(words[start:])
            found = _read(part, kind) or (_read(f"{verb} {part}", kind) if verb else None)
            if found is not None:
                break
        if found is None:
            continue
        if not verb and has_verb(found.text, vocab):
            verb = found.text.split()[0]
        said = _said(found, game, seat)
        if said not in out and found.command not in seen:
            out.append(said)
            seen.append(found.command)
    return out


@cache
def _answer(vocab: Vocabulary) -> re.Pattern[str]:
    """A word that answers a question ("yes", "no") and is no order of itself."""
    words = (*vocab.term("YES").words, *vocab.term("NO").words, *vocab.short_corrections)
    return re.compile(rf"(?:{'|'.join(map(re.escape, words))})\W*", re.IGNORECASE)


def _read(text: str, kind: DecisionKind | None) -> Parsed | None:
    """The order ``text`` says on its own (as an answer to ``kind``), if one."""
    items = parse_mail(text, kind)
    if len(items) != 1 or not isinstance(items[0], Parsed):
        return None
    command = items[0].command
    return None if is_service(command) or is_absence(command) else items[0]


def _said(found: Parsed, game: Game, seat: int) -> str:
    """An option as the moderator words it: the order it resolves to now, else the
    words it was read as."""
    command = found.command
    decision = decision_of(game, seat)
    if decision is not None and target_kind(command) in (None, decision.kind):
        try:
            return format_action(resolve(_game_command(command), game, seat), game, seat)
        except OrderError:
            pass
    if isinstance(command, RoleCmd) and len(command.roles) == 1:
        return f"role {command.roles[0].role.label}"  # the role order's own words
    return " ".join(found.text.lower().split()).rstrip(".!,;:")


def _game_command(command: Command) -> GameCommand:
    assert not (is_service(command) or is_absence(command))
    return cast(GameCommand, command)


@cache
def _undecided(vocab: Vocabulary) -> re.Pattern[str]:
    return re.compile(rf"\b{wavering(vocab)}\b", re.IGNORECASE)


def undecided(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether a line of ``text`` says its writer has not decided yet ("Let me think"),
    and no decision follows ("Not sure, but trader" is decided) that he does not
    doubt again ("Hmm, tobacco pays more but sugar clears space... let me think")."""

    def wavers(line: str) -> bool:
        at = decided(line, vocab)
        return _undecided(vocab).search(line, at or 0) is not None

    return any(wavers(line) for line in text.splitlines())


def hesitation(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` only says its writer has not decided ("Not sure yet, will write
    again."): it names nothing of an order, and is no order."""
    found = _undecided(vocab).search(text) is not None
    return found and not says_something(_undecided(vocab).sub(" ", text), vocab)


def question(
    text: str,
    game: Game,
    seat: int,
    unread: bool = False,
    vocab: Vocabulary = ENGLISH,
    hesitant: bool = False,
    alone: bool = False,
) -> Question | None:
    """The question ``text`` asks, to be asked back (nothing of it is done): a text
    that starts like a question ("should I", "which"), or ends with a question mark and
    names two orders or more ("Trader? Or captain?"); ``unread`` (the text is no order
    as written): any text with a question mark. None: no question (an order with a
    question mark, "Captain?", is an order). ``hesitant``: the mail says its writer has
    not decided yet; an order with a question mark, and two orders or more named, are
    then a question too.
    ``alone``: no order of the mail was read; an unread text that says its writer has
    not decided ("anything but mayor") is then asked back too."""
    text = reminded(text, vocab)  # ("..., can you remember that?" asks nothing)
    # (in a mail that says its writer has not decided, an order with a question mark is
    # a question: "Use the hacienda? Not sure yet, I'll get back to you.")
    led = _lead(vocab).match(text) is not None or (hesitant and _ASKS.search(text) is not None)
    requested = request(text, vocab) is not None
    # Undecided, a choice is a question ("trader or mayor. Let me think"); a list
    # without "or" ("not sure about it: 1 on corn, 1 on sugar") stays an order.
    hesitant = hesitant and _choice(vocab).search(text) is not None
    if alone and unread and not (led or hesitant or "?" in text) and undecided(text, vocab):
        return _left_to_us(text, game, seat, vocab)
    if not (led or requested or hesitant or _ASKS.search(text) or (unread and "?" in text)):
        return None
    options = _options(text, game, seat, vocab)
    if len(options) >= 2:
        listed = or_list([f'"{o}"' for o in options], "and")
        return Question(
            f"a question, between {listed}: nothing was done; write the one you choose",
            options,
        )
    # (never with a no in the question, which the order written out could turn round:
    # "No colonist from the hospice, ok?"; a no after it answers it: "corn? no")
    asked = text.rpartition("?")[0] or text
    if requested and not (led or unread) and negation().search(asked) is not None:
        # ("Can I not take the hospice colonist?": a question on the rules, maybe)
        return Question("a question: nothing was done; write the order you give", options)
    if (led or unread) and options and negation().search(asked) is None:
        return Question(f'a question: nothing was done; to order it, write "{options[0]}"', options)
    if unread:
        return Question(
            'a question: nothing was done; the moderator reads orders, not questions ("help" '
            "returns the guide to them)",
            (),
        )
    return None


@cache
def _except(vocab: Vocabulary) -> re.Pattern[str]:
    """Where the orders a choice left to the moderator excludes start ("anything but")."""
    words = (*vocab.term("EXCEPT").words, *vocab.exclusions)
    return any_phrase(words)


def _left_to_us(text: str, game: Game, seat: int, vocab: Vocabulary) -> Question:
    """A text not read as an order that leaves the choice to the moderator ("anything
    but mayor", "put them somewhere useful, you decide"): he never chooses for a
    player; asked back naming the orders not excluded."""
    cut = _except(vocab).search(text)
    excluded = _options(text[cut.end() :], game, seat, vocab) if cut else []
    left = [o for o in legal_orders(game, seat) if o not in excluded]
    if excluded and left:
        listed = or_list([f'"{o}"' for o in left], "and")
        return Question(f"not decided: nothing was done; write one of {listed}", left)
    return undecided_only(text)


def undecided_only(text: str) -> Question:
    """A text that only says its writer has not decided, asked back."""
    return Question("not decided: nothing was done; write the order you choose", ())


__all__ = ["hesitation", "question", "undecided", "undecided_only"]
