"""Reading orders as people write them: the text made ready for the grammar (politeness
dropped, apostrophes straightened, columns kept), a line cut into its orders, and the
other readings of an order that does not parse as written (a bare answer, a slip)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache

from ..engine.actions import DecisionKind
from ..engine.components import Good, Role
from .commands import ROLE_DECISION
from .mentions import by_mentions, ends_phrase, names_answer, says_full
from .queue import role_kinds
from .vocabulary import (
    ENGLISH,
    SLASHED,
    Term,
    Vocabulary,
    known,
    negation,
    slip_kind,
    suggestions,
    verb_words,
    words,
)

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
# The signs a phone's keyboard puts in for what was typed: an ellipsis for three dots,
# curly apostrophes for straight ones.
_TYPED = str.maketrans({"\u2026": "...", "\u2019": "'", "\u2018": "'", "\u02bc": "'"})


def as_typed(text: str) -> str:
    """``text`` with the signs a phone's keyboard puts in written as they were typed
    ("hacienda\u2026" is "hacienda...", "I\u2019ll" is "I'll")."""
    return text.translate(_TYPED)


def phrase(words: str) -> str:
    """A phrase of the table as a pattern: its words with any blanks between."""
    return r"\s+".join(map(re.escape, words.split()))


def any_phrase(phrases: Iterable[str]) -> re.Pattern[str]:
    """Any of ``phrases``, whole words, in any case (none: a pattern that never matches)."""
    # (whole words; and a sign, as "&" or "w/", between blanks)
    said = "|".join(map(phrase, phrases)) or "(?!)"
    return re.compile(rf"(?<!\w)(?:{said})(?!\w)", re.IGNORECASE)


def _term_parts(vocab: Vocabulary, names: Iterable[str]) -> frozenset[str]:
    """The single words of the terms ``names`` ("do not" gives "do" and "not")."""
    return frozenset(p for n in names for w in vocab.term(n).words for p in w.split())


@cache
def _courtesy(vocab: Vocabulary) -> re.Pattern[str]:
    phrases = sorted(vocab.courtesies, key=len, reverse=True)
    alternatives = "|".join(map(phrase, phrases))
    # A phrase takes the comma or "and" before it and the punctuation after it along.
    return re.compile(rf"(?:,\s*|\band\s+)?\b(?:{alternatives})\b[\s,.!]*", re.IGNORECASE)


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group(0))


@cache
def _courtesy_words(vocab: Vocabulary) -> re.Pattern[str]:
    """A phrase of ``courtesies`` alone, without the punctuation around it."""
    return any_phrase(sorted(vocab.courtesies, key=len, reverse=True))


def _courtesies_dropped(text: str, vocab: Vocabulary, clauses: bool) -> str:
    """``text`` with its politeness blanked out, the same length: with the comma or
    "and" before a phrase and the punctuation after it; or (``clauses``) the phrase
    alone, the punctuation that ends a clause kept ("I'll take the extra one too, he
    can wait in San Juan"); never the end of a phrase of the table ("stays as it is",
    "everything stays where it is")."""

    def polite(m: re.Match[str]) -> str:
        said = _courtesy_words(vocab).search(m[0])
        at = m.start() + (said.start() if said is not None else 0)
        ends = said is not None and ends_phrase(text[:at], said[0], vocab)
        return m[0] if ends else _blank(m)

    return (_courtesy_words(vocab) if clauses else _courtesy(vocab)).sub(polite, text)


def _blank_of(text: str) -> str:
    return " " * len(text)


# A question mark after words asks nothing of the moderator ("what are my options?");
# alone it asks for help.
# "coffee roaster x2": a count written as a multiplication, the same length as "  2".
_TIMES = re.compile(r"(?<=\s)[x\u00d7](\d)\b", re.IGNORECASE)
# "2x coffee roaster": the count before, as "2  coffee roaster".
_TIMES_BEFORE = re.compile(r"\b(\d)[x\u00d7](?=\s)", re.IGNORECASE)
# "Settler," : a comma that ends the order.
_TRAILING = re.compile(r"[,;]+(?=[\s.!]*$)")
_QUESTION = re.compile(r"(?<=\w)\s*\?+")


@cache
def _drops(vocab: Vocabulary) -> tuple[re.Pattern[str], ...]:
    """Goods said not to be kept in words the grammar ignores ("the corn can go", "let
    the corn go"), the goods, at the start of a clause, as the group "what"; then those
    words left over ("keep the indigo and the corn can go": which?)."""
    names = (*vocab.goods, *vocab.term("REST").words, *vocab.term("EVERYTHING").words)
    thing = "|".join(phrase(n) for n in sorted(names, key=len, reverse=True))
    idle = rf"(?:(?:{'|'.join(phrase(f) for f in vocab.fillers)})\s+)*"
    ands = "|".join(phrase(w) for w in vocab.term("_AND").words)
    what = rf"(?P<what>{idle}(?:{thing})(?:\s+(?:{ands})\s+{idle}(?:{thing}))*)"
    # (not where something goes: "the rest can go to San Juan")
    # (nor how: "the tobacco goes via the wharf")
    places = "|".join(phrase(w) for w in _words(vocab, "ON", "TO", "WITH"))
    drops = sorted(vocab.drops_after, key=len, reverse=True)  # "goes back" before "goes"
    after = rf"(?:{'|'.join(phrase(w) for w in drops) or '(?!)'})(?!\s*(?:{places}))"
    clause = r"(?:^|(?<=[,;.:!\-\u2013\u2014])\s*)"
    out = [re.compile(rf"{clause}{what}\s+(?:{after})\b", re.IGNORECASE)]
    out += [
        re.compile(rf"{clause}{phrase(lead)}\s+{what}\s+{phrase(tail)}\b", re.IGNORECASE)
        for lead, tail in vocab.drops_around
    ]
    out.append(re.compile(rf"(?P<what>)\b(?:{after})\b", re.IGNORECASE))
    return tuple(out)


def _dropped(vocab: Vocabulary, m: re.Match[str]) -> str:
    """The goods of ``m`` after the first word of DROP, as long as ``m``."""
    said = f"{vocab.term('DROP').words[0]} {m.group('what').strip()}".strip()
    return (" " * (len(m.group(0)) - len(m.group(0).lstrip())) + said).ljust(len(m.group(0)))


@cache
def _as_much(vocab: Vocabulary) -> re.Pattern[str]:
    """A quantity asked as the most that fits: "as much tobacco as I can", "as many of
    the barrels as possible", "as much as fits" (vocabulary ``as_much``, ``as_fits``)."""
    idle = rf"(?:(?:{'|'.join(phrase(f) for f in vocab.fillers)})\s+)*"
    goods = "|".join(phrase(n) for n in sorted(vocab.goods, key=len, reverse=True))
    ands = "|".join(phrase(w) for w in (*vocab.term("_AND").words, ","))
    barrel = "|".join(phrase(w) for w in vocab.term("BARREL").words)
    lead = "|".join(phrase(w) for w in vocab.as_much)
    ends = "|".join(phrase(w) for w in sorted(vocab.as_fits, key=len, reverse=True))
    what = rf"(?P<what>{idle}(?:{goods})(?:\s*(?:{ands})\s*{idle}(?:{goods}))*)"
    return re.compile(
        rf"\b(?:{lead})\s+(?:of\s+)?{idle}(?:{what}\s+)?(?P<barrel>(?:{barrel})\s+)?"
        rf"(?:{ends})\b",
        re.IGNORECASE,
    )


def _most(vocab: Vocabulary, m: re.Match[str]) -> str:
    """The goods of ``m``, or the word of MOST when it names none, as long as ``m``."""
    said = m.group("what") or vocab.term("MOST").words[0]
    return said.strip().ljust(len(m.group(0)))


@cache
def _good_ones(vocab: Vocabulary) -> re.Pattern[str]:
    """A good named as "the X one(s)" ("keep the indigo ones", "the coffee one"): the
    "one" names nothing more (not a count: "corn one, sugar two" places colonists)."""
    goods = "|".join(phrase(n) for n in sorted(vocab.goods, key=len, reverse=True))
    return re.compile(
        rf"\b(?P<good>(?:the|my)\s+(?:{goods}))(?P<one>\s+ones?)\b(?!\s+(?:of\b|(?:{goods})\b))",
        re.IGNORECASE,
    )


def normalise(text: str, vocab: Vocabulary = ENGLISH, clauses: bool = False) -> str:
    """``text`` as the grammar reads it, the same length (columns stay true): curly
    apostrophes straightened, politeness ("please", "I'd like to", ", thanks.")
    and a question mark after words blanked out, goods said not to be kept in ignored
    words ("the corn can go") written with a word that says so ("dump the corn").
    ``clauses``: the punctuation between clauses is kept (the mayor's colonists, read
    clause by clause: _courtesies_dropped)."""
    text = text.translate(_APOSTROPHES)
    for drop in _drops(vocab):
        text = drop.sub(lambda m: _dropped(vocab, m), text)
    if vocab.as_much:
        text = _as_much(vocab).sub(lambda m: _most(vocab, m), text)
    text = _courtesies_dropped(text, vocab, clauses)
    text = _phase_phrase(vocab).sub(_blank, text)
    text = _TIMES.sub(lambda m: " " + m.group(1), text)
    text = _TIMES_BEFORE.sub(lambda m: m.group(1) + " ", text)
    text = _TRAILING.sub(_blank, text)
    return _QUESTION.sub(_blank, text)


# -- one line, several orders ---------------------------------------------------------


@cache
def _clause_break(vocab: Vocabulary) -> re.Pattern[str]:
    verbs = "|".join(sorted(map(re.escape, verb_words(vocab)), key=len, reverse=True))
    fillers = "|".join(sorted(map(re.escape, vocab.fillers), key=len, reverse=True))
    # (and a joint of a role to its step that names it: "the settler role and, with it,
    # take a quarry")
    tied = [w for w in vocab.step_joints if len(w.split()) > 1]
    # (an arrow before a verb is a "then": "2 off sugar -> fill the mill")
    arrows = [w for w in vocab.term("TO").words if not w.isalpha()]
    joins = (*vocab.term("_AND").words, *vocab.term("_THEN").words, *tied, *arrows)
    joints = "|".join(phrase(w) for w in sorted(joins, key=len, reverse=True))
    joint = rf"(?<!\w)(?:{joints})(?!\w)"  # (whole words, and signs: "&", "+")
    # A sentence's end (unless the next takes it back: "captain. Actually trader"), or
    # a comma, "and", "then" or an arrow before a verb ("..., add 1 to hut") or before the words
    # a new request starts with ("..., and I'd like the coffee plantation").
    # (nor before a contrast: "Not sure. But trader" is one order, the decision)
    # (but before an order for the next phase: "Nothing for me now. But next captain ...")
    nexts = "|".join(phrase(w) for w in vocab.nexts) or r"(?!)"
    later = rf"(?!\s+(?:(?:{fillers})\s+)?(?:{nexts})\b)"
    takeback = "|".join(
        [rf"{phrase(m)}\b" for m in vocab.corrections]
        + [rf"{phrase(m)}\b{later}" for m in vocab.contrasts]
        # nor before an alternative: "Corn on the 5. Or the coffee." is one choice
        + [rf"{phrase(m)}\b" for m in vocab.term("_OR").words]
        + [
            rf"{phrase(m)}\s*[,!:\-\u2013\u2014]"
            for m in (*vocab.short_corrections, *vocab.soft_corrections)
        ]
    )
    leads = "|".join(phrase(lead) for lead in vocab.clause_leads) or r"(?!)"
    return re.compile(
        rf"(?<=[.!])\s+(?=\S)(?!(?:{takeback}))"
        rf"|\s*(?:,|{joint})(?:\s|,|{joint})*"
        rf"(?=(?:\b(?:{fillers})\b\s*)*\b(?:{verbs})\b|\b(?:{leads})\b)",
        re.IGNORECASE,
    )


@cache
def _before_other(vocab: Vocabulary, others: frozenset[str]) -> re.Pattern[str]:
    """A comma, "and" or "but" before another player's name ("keep the corn, Anna can
    have the indigo"): a clause of his starts there."""
    joints = "|".join(phrase(w) for w in (*vocab.term("_AND").words, *vocab.contrasts))
    names = "|".join(re.escape(n) for n in sorted(others, key=len, reverse=True))
    return re.compile(rf"\s*(?:[,;]|\b(?:{joints})\b)[\s,]*(?=(?:{names})(?![\w-]))", re.IGNORECASE)


def clauses(
    text: str,
    vocab: Vocabulary = ENGLISH,
    own: frozenset[str] = frozenset(),
    others: frozenset[str] = frozenset(),
) -> list[tuple[int, str]]:
    """The orders of one piece of a line, each with its offset: split at a sentence's
    end, where a comma, "and" or "then" comes before a verb, and before another
    player's name after a comma, "and" or "but" (``others``: the other players' names;
    "Bob keeps sugar, I keep corn"). ``own``: the writer's names (lead_in)."""
    readable = text.translate(_APOSTROPHES)
    cuts = [*_before_other(vocab, others).finditer(readable)] if others else []
    # (not before a clause of his that may be a condition on the order: "sell tobacco,
    # Chris permitting", "keep corn, Anna can have the indigo unless she needs it")
    ends = [c.start() for c in cuts[1:]] + [len(text)] * bool(cuts)
    # (nor within what would have been: "I'd have bought it, Anna beat me to it - ...")
    starts = [0, *(c.end() for c in cuts)][: len(cuts)]
    cuts = [
        c
        for c, start, end in zip(cuts, starts, ends, strict=True)
        if not _may_condition(readable[c.end() : end], vocab)
        and not unreal(readable[start : c.start()], vocab)
    ]
    out: list[tuple[int, str]] = []
    start = 0
    for m in [*cuts, None]:
        end = len(text) if m is None else m.start()
        out += [(start + at, part) for at, part in _clauses(text[start:end], vocab, own)]
        start = len(text) if m is None else m.end()
    return out


def _may_condition(text: str, vocab: Vocabulary) -> bool:
    """Whether ``text`` holds a word that may make it a condition ("unless", "if",
    "permitting") or a negation."""
    words = any_phrase((*vocab.conditionals, *vocab.provisos))
    return bool(words.search(text) or negation(vocab).search(text))


def _clauses(text: str, vocab: Vocabulary, own: frozenset[str]) -> list[tuple[int, str]]:
    # A question ends its sentence at its question mark where an order follows ("Only
    # corn left? Fine, corn then."), and a polite request always does ("Could I build the
    # wharf? I think I have enough."), unless the next answers it or takes it back ("..?
    # No.", "Trader? Or captain?"). Otherwise it is one question with what follows
    # ("Corn? Sugar?", "Captain? Hmm.").
    for m in re.finditer(r"\?\s+(?=\w)", text):
        after = text[m.end() :]
        asked = request(text[: m.start() + 1], vocab) is not None
        if not asked and ("?" in after or not says_something(after, vocab)):
            continue  # (asks again, or only talks on: "full? Never remember.")
        # (nor when the next is for the case it cannot be done: "Is the quarry still
        # there? If not, corn.")
        # (but a yes with an order after it is the writer's own answer: "Settler? yeah,
        # settler.")
        answered = _answer_start(vocab).match(after) is not None
        yes = _yes_then(vocab).match(after)
        if yes is not None and "?" not in after and says_something(after[yes.end() :], vocab):
            answered = False
        if answered or legality_lead(after, text, vocab):
            continue
        rest = _clauses(after, vocab, own)
        return [*_clauses(text[: m.start() + 1], vocab, own), *((m.end() + a, p) for a, p in rest)]
    readable = text.translate(_APOSTROPHES)
    out: list[tuple[int, str]] = []
    start = 0
    # (not within the writer's words before the order that name nothing: "in case I'm
    # asleep, sell corn"; a sentence's end still ends them. A condition on a role may be
    # on its being taken, not its phase: "if the captain is gone, I'll take the settler")
    # (each sentence's own: "Builder. If it's gone, role mayor.")
    lead = lead_in(readable, vocab, own=own)
    for m in _clause_break(vocab).finditer(readable):
        ends = readable[: m.start()].rstrip()[-1:] in (".", "!", "?")
        words = lead is not None and not lead.roles and m.start() < start + lead.end
        if words and not ends:
            continue
        if m.start() > start:
            out.append((start, text[start : m.start()]))
        start = m.end()
        lead = lead_in(readable[start:], vocab, own=own)
    if text[start:].strip():
        out.append((start, text[start:]))
    return [(at + len(part) - len(part.lstrip()), part.strip()) for at, part in out if part.strip()]


# The words of a sentence that only answers the colonist of a hospice or university:
# the building (or "it", the tile or building just ordered), an answer (the colonist,
# yes or no, a placing verb, a word saying it stays unmanned) and the words that join
# them. Any other order word makes it something else. A placing verb says yes only
# with the colonist placed on "it" ("put the hospice guy on it").
_DETAIL_TERMS = ("HOSPICE", "UNIVERSITY")
_DETAIL_ANSWER = ("COLONIST", "YES", "NO", "DONT", "WITHOUT", "WITH", "PASS")
_DETAIL_JOINING = ("ON", "TO", "FROM", "_AND", "PLACE", "LEAVE", "EMPTY")


@dataclass(frozen=True, slots=True)
class _DetailWords:
    """The single words detail_said tells apart, made once per vocabulary."""

    building: frozenset[str]  # the hospice's and the university's
    hospice: frozenset[str]
    answer: frozenset[str]  # _DETAIL_ANSWER's
    allowed: frozenset[str]  # the buildings, the answers and the joining words
    away: frozenset[str]  # saying the colonist stays away: LEAVE, EMPTY, ``unmanned``
    unmanned: frozenset[str]
    leave: frozenset[str]  # LEAVE's, with EMPTY's: unmanned too ("leave it empty")
    empty: frozenset[str]
    colonist: frozenset[str]
    yes: frozenset[str]
    no: frozenset[str]  # NO and DONT: a refusal ("I don't want it")
    taking: frozenset[str]  # TAKE's ("I don't want the hospice worker")
    moving: frozenset[str]  # MOVE's ("the university colonist goes on it")
    placing: frozenset[str]  # PLACE's and MOVE's that are no word of a colonist
    source: frozenset[str]  # FROM's ("no colonist from the hospice")
    counts: frozenset[str]  # the number words

    def left_unmanned(self, found: set[str]) -> bool:
        """Whether the words say the building stays unmanned ("leave it unmanned",
        "vacant", "leave it empty"; not "empty the university", a colonist order)."""
        return bool(found & self.unmanned or (found & self.leave and found & self.empty))


@cache
def _detail_words(vocab: Vocabulary) -> _DetailWords:
    building, answer = _term_parts(vocab, _DETAIL_TERMS), _term_parts(vocab, _DETAIL_ANSWER)
    unmanned = frozenset(p for w in vocab.unmanned for p in w.split())
    colonist = frozenset(vocab.term("COLONIST").words)
    moving = _term_parts(vocab, ("MOVE",))
    return _DetailWords(
        building=building,
        hospice=frozenset(vocab.term("HOSPICE").words),
        answer=answer,
        allowed=building | answer | _term_parts(vocab, _DETAIL_JOINING),
        away=_term_parts(vocab, ("LEAVE", "EMPTY")) | unmanned,
        unmanned=unmanned,
        leave=_term_parts(vocab, ("LEAVE",)),
        empty=_term_parts(vocab, ("EMPTY",)),
        colonist=colonist,
        yes=frozenset(vocab.term("YES").words),
        no=_term_parts(vocab, ("NO", "DONT")),
        taking=_term_parts(vocab, ("TAKE",)),
        moving=moving,
        placing=(_term_parts(vocab, ("PLACE",)) | moving) - colonist,
        source=_term_parts(vocab, ("FROM",)),
        counts=_term_parts(vocab, ("NUMWORD",)),
    )


def detail_said(text: str, vocab: Vocabulary = ENGLISH) -> str | None:
    """What ``text`` says when it only answers the colonist of a hospice or university
    ("No hospice.", "Yes to the university worker", "University: yes", "and put the
    hospice guy on it", "leave it unmanned", "no colonist on it"), to be joined to its
    order: "no hospice" (or "no colonist", the building not named) for a no, "" for a
    yes (the colonist is taken unless declined), the text itself when it says both.
    None: it says something else too (of the order words it may name only one of the
    buildings, an answer and the words joining them); it places a colonist anywhere
    but on "it" ("put him in the university" is the mayor's); or, naming no building,
    it says no yes or no to a colonist ("Colonists:", "Hey folks")."""
    if says_full(text, vocab):
        return None  # "there's no room for him anyway": a remark on the board
    w = _detail_words(vocab)
    found = {m.group(0).lower() for m in _WORD.finditer(text)}
    named = found & _naming_words(vocab)
    said_no = negation(vocab).search(text) is not None
    allowed = w.allowed | (w.taking if said_no else frozenset())
    if not named & w.source:
        allowed |= w.moving
    if not named <= allowed or "?" in text or found & w.counts:
        return None
    if any(c.isdigit() for c in text):
        return None  # a count: a colonist order ("take 1 from the university")
    on_it = _on_it(vocab).search(text) is not None
    if named & w.placing and not on_it:
        return None  # "put him in the university": a placement
    yes = bool(named & w.yes) or (on_it and not said_no)
    no = said_no or bool(found & w.away)
    if not named & w.building:
        if not (named & w.colonist or w.left_unmanned(found)) or not (yes or no):
            return None  # "Colonists:", "Hey folks": no answer said
    elif not (named & w.answer or w.left_unmanned(found) or on_it):
        return None  # "the university": the building alone
    if yes == no:
        return text.strip().rstrip(".!")
    if yes:
        return ""
    university = named & (w.building - w.hospice)
    return "no " + ("hospice" if named & w.hospice else "university" if university else "colonist")


@cache
def _on_it(vocab: Vocabulary) -> re.Pattern[str]:
    """A colonist placed on the tile or building just ordered ("on it", "there")."""
    on = any_phrase((*vocab.term("ON").words, *vocab.term("TO").words)).pattern
    it = any_phrase(vocab.pronouns).pattern
    return re.compile(rf"{on}\s+{it}|\bthere\b", re.IGNORECASE)


# Where an order on a line may end and something said about it follow (a remark,
# parser._remarked; answers to its colonist, detail_tail): a comma, a semicolon or a
# dash between blanks ("Quarry please, I'm going to build", "Tobacco - no hospice
# worker"); never a colon, which ends a heading ("Shipping: corn on the 5"), nor a
# hyphen.
CLAUSE_CUT = re.compile(r"\s*(?:[,;]|\s[\-\u2013\u2014]+\s|[\u2013\u2014])\s*")


def detail_tail(text: str, vocab: Vocabulary = ENGLISH) -> tuple[int, list[str]] | None:
    """An order and, after it on the same line, only answers to its colonist ("coffee,
    and yes put the hospice guy on it", "Tobacco, but leave it unmanned - I don't want
    the hospice worker"): where the order ends, and what each answer says
    (detail_said). None: no such answers, or one of the pieces after the first answer
    says something else. The answers must agree, or the order is not cut."""
    cuts = list(CLAUSE_CUT.finditer(text))
    for i, cut in enumerate(cuts):
        head = text[: cut.start()]
        if not says_something(head, vocab):
            continue
        if detail_said(head, vocab) is not None:
            return None  # answers only ("leave it unmanned, and no hospice guy")
        ends = [c.start() for c in cuts[i + 1 :]] + [len(text)]
        starts = [cut.end()] + [c.end() for c in cuts[i + 1 :]]
        said: list[str] = []
        for start, end in zip(starts, ends, strict=True):
            piece = _detail_lead(vocab).sub("", text[start:end])
            if not piece.strip(" .!"):
                continue
            answer = detail_said(piece, vocab)
            if answer is None and said and said[-1] and _refuses_only(piece, vocab):
                continue  # "..., leave the hospice colonist in the supply, I don't want it"
            if answer is None:
                said = []
                break
            said.append(answer)
        if not said:
            continue
        if not (all(a == "" for a in said) or all(a.startswith("no ") for a in said)):
            return None  # a yes and a no: the line is not cut, nor read as one order
        named = [a for a in said if a and a != "no colonist"]
        return len(head), (named or said)[:1]
    return None


def _refuses_only(text: str, vocab: Vocabulary) -> bool:
    """Whether ``text`` only says no ("I don't want it"): a no, and of the order words
    only the words of wanting."""
    w = _detail_words(vocab)
    named = {m.group(0).lower() for m in _WORD.finditer(text)} & _naming_words(vocab)
    return bool(named & w.no) and named <= w.no | w.taking


@cache
def _detail_lead(vocab: Vocabulary) -> re.Pattern[str]:
    """The words joining an answer to its order ("..., and yes", "..., but leave")."""
    joints = (*vocab.term("_AND").words, *vocab.term("_THEN").words, *vocab.contrasts)
    return re.compile(rf"^\s*(?:{any_phrase(joints).pattern}[\s,]*)+", re.IGNORECASE)


# -- the readings of an order ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """A way to read an order that does not parse as written. ``tier`` orders them:
    without a leading "and"/"then" (0), a bare answer completed by the decision asked
    (1), a slip corrected (2), both (3), by what it names (4, mentions.py); the first
    tier with a legal reading is taken. ``named``: the readings of the tier are things
    the player named, several of one kind: asked back, legal or not. ``phase``: the
    roles the writer's words before it say it is for ("when the trader comes:"): only
    an order of their phases is read so."""

    text: str
    tier: int
    named: bool = False
    phase: frozenset[Role] = frozenset()  # the roles whose phase it is said to be for
    why: bool = False  # the reason given with the order, read to tell it is no order
    fallback: bool = False  # an order of a fallback: one that cannot be done is passed
    instead: bool = False  # what a correction puts instead: only an order of the same decision
    # the choice of a fallback it reads, and how many the fallback lists: a choice not
    # read is never passed over for another (check._choose)
    choice: tuple[int, int] | None = None
    # the one decision of the phase the words before it name ("at storage:"): only an
    # order of it is read so
    decision: DecisionKind | None = None


_LABEL = re.compile(
    r"^\s*([a-z]+(?:\s+[a-z]+){0,2})\s*(?:->|=>|[:\-\u2013\u2014\u2192])", re.IGNORECASE
)


@cache
def _interjections(vocab: Vocabulary) -> str:
    return "(?:" + "|".join(map(phrase, sorted(vocab.interjections, key=len, reverse=True))) + ")"


@cache
def _interjection(vocab: Vocabulary) -> re.Pattern[str]:
    """Words that start the reply ("OK, I'll be trader", "ok so settler", "Hmm, let me
    take the trader")."""
    return re.compile(rf"^\s*(?:{_interjections(vocab)}\b[\s,!.:]+)+(?=\w)", re.IGNORECASE)


@cache
def _interjection_alone(vocab: Vocabulary) -> re.Pattern[str]:
    return re.compile(rf"^\s*(?:{_interjections(vocab)}\b[\s,!.:]*)+$", re.IGNORECASE)


@cache
def _correction_start(vocab: Vocabulary) -> re.Pattern[str]:
    """Words that take back the order before them, at the start of a text ("No wait,
    make that indigo", "Hmm, no - harbor", "EDIT: sell coffee"), after any interjection."""
    long_ = "|".join(map(phrase, vocab.corrections))
    short = "|".join(map(phrase, (*vocab.short_corrections, *vocab.soft_corrections)))
    # "no" and "wait" take back only with punctuation or another taking-back after them
    # ("no - harbor", "no wait, indigo"), never "no hospice".
    punct = r"[,!.:\-\u2013\u2014]"
    # (two of them alone only take back: "wait no", "no wait")
    twice = rf"(?:{short})\s+(?:{short})[\s.!]*$"
    marker = rf"(?:{twice}|(?:{long_})\b|(?:{short})\b(?:\s*{punct}|\s+(?=(?:{short}|{long_})\b)))"
    sounds = rf"(?:{_interjections(vocab)}\b[\s,!.:\-\u2013\u2014]*)*"
    lead = sounds + rf"(?:{'|'.join(map(phrase, vocab.first_person))})?\s*"  # ("I'd rather ...")
    # (and sounds after it: "no wait, um, the quarry")
    return re.compile(rf"^\s*{lead}(?:{marker}[\s,!.:\-\u2013\u2014]*{sounds})+", re.IGNORECASE)


# "EDIT: sell coffee instead": a trailing "instead" takes back too.
_INSTEAD = re.compile(r"\binstead\W*$", re.IGNORECASE)


def correction(text: str, vocab: Vocabulary = ENGLISH) -> int | None:
    """Where the order after a taking-back at the start of ``text`` begins ("no wait,
    make that indigo": at "indigo"); None when ``text`` does not start with one. A
    trailing "instead" also takes back ("EDIT: sell coffee instead")."""
    readable = text.translate(_APOSTROPHES)
    m = _correction_start(vocab).match(readable)
    if m is None:
        return 0 if _INSTEAD.search(text) else None
    if not readable[m.end() :].strip():
        # A yes or a no after a taking-back is its answer ("no actually, no."; not "wait no.")
        last = re.search(r"(\w+)\W*$", readable[: m.end()])
        answers = {*vocab.term("YES").words, *vocab.term("NO").words}
        before = readable[: last.start()] if last is not None else ""
        if (
            last is not None
            and last.group(1).lower() in answers
            and _long_correction(vocab).search(before)
        ):
            return last.start()
    return m.end()


@cache
def _long_correction(vocab: Vocabulary) -> re.Pattern[str]:
    return any_phrase(vocab.corrections)


@cache
def wavering(vocab: Vocabulary = ENGLISH) -> str:
    """The words of a writer who has not decided, as a pattern: a phrase of
    ``undecided`` ("let me think"), or a word of ``unable`` before one of ``choosing``,
    maybe with one of ``intensifiers`` between ("can't pick", "haven't really decided",
    "not 100% sure"); the apostrophes of its words may be left out ("cant decide")."""

    def alternatives(phrases: Iterable[str]) -> str:
        said = sorted(phrases, key=len, reverse=True)
        return "|".join(phrase(p).replace("'", "'?") for p in said) or r"(?!)"

    waver = alternatives(vocab.undecided)
    unable, choosing = alternatives(vocab.unable), alternatives(vocab.choosing)
    more = alternatives(vocab.intensifiers)
    return rf"(?:{waver}|(?:{unable})\s+(?:(?:{more})\s+)?(?:{choosing}))"


@cache
def _decided(vocab: Vocabulary) -> re.Pattern[str]:
    """A hesitation, then a contrast before the decision ("Not sure, but trader")."""
    but = "|".join(map(phrase, vocab.contrasts)) or r"(?!)"
    return re.compile(
        rf"^.*\b{wavering(vocab)}\b.*?\b(?:{but})\b[\s,;:!.\-\u2013\u2014]*(?=\w)",
        re.IGNORECASE,
    )


def decided(text: str, vocab: Vocabulary = ENGLISH) -> int | None:
    """Where the decision after a hesitation begins ("Not sure, but trader": at
    "trader"; "I was thinking captain but no, trader": at "no"); None when ``text``
    says no hesitation, or none with a decision after it."""
    m = _decided(vocab).match(text.translate(_APOSTROPHES))
    return None if m is None else m.end()


@cache
def _reasons(vocab: Vocabulary) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """A reason before the order ("since nobody wants corn, I'll ship sugar"), a
    consequence that is the order ("Bob took the builder so I'll go trader"), and a
    reason after it ("trader, since the settler is gone"); each with the reason's words
    as the group "why"."""

    def alternatives(phrases: Iterable[str]) -> str:
        return "|".join(phrase(p) for p in sorted(phrases, key=len, reverse=True)) or r"(?!)"

    because = alternatives(vocab.reasons)
    after = alternatives(r for r in vocab.reasons if r not in words(vocab))
    then = alternatives((*vocab.consequences, *vocab.contrasts))
    # (not a purpose, "so I can ship", nor a no, "but I don't want the colonist")
    nots = alternatives((*vocab.purposes, *vocab.term("DONT").words, *vocab.term("NO").words))
    anyone = rf"(?:{alternatives(vocab.first_person)})\b"
    me = rf"{anyone}(?!\s+(?:{nots})\b)"
    so = alternatives(vocab.consequences)
    return (
        # "since X, I'll ...", "since X I'll ..." (the last first person)
        re.compile(rf"^\W*(?:{because})\b(?P<why>[^,;:]*?[,;:]|.*\s)\s*(?={me})", re.I),
        # "X so I'll ...", "X but I'll ...", "X, so <order>" (not "..., so I can")
        re.compile(
            rf"^(?P<why>\W*\w.*?)(?:[\s,;]\s*(?:{then})\b[\s,;:]*(?={me})"
            rf"|[,;]\s*(?:{so})\b[\s,;:]*(?=\w)(?!{anyone}))",
            re.I,
        ),
        # (to the end of its sentence: "hacienda, since it's free. Actually no." is no reason)
        re.compile(
            rf"(?<=\w)[\s,;:\-\u2013\u2014]*\b(?:{after})\b(?P<why>[^.!?;]*)[.!?;\s]*$", re.I
        ),
    )


@dataclass(frozen=True, slots=True)
class Reasoned:
    """A text that gives the reason of its order: where the order is (``start`` to
    ``end``), and the reason's words."""

    start: int
    end: int
    why: str


def reasoned(text: str, vocab: Vocabulary = ENGLISH) -> Reasoned | None:
    """The order of a text that gives its reason: after a reason that leads ("since
    nobody wants corn, I'll ship sugar"), a consequence in the first person ("Bob took
    the builder so I'll go trader", "the factory looks good but I'll build the harbor"),
    before a reason ("trader, since the settler is gone"), or after what would have
    been, said to be done in fact ("I'd have taken corn, coffee then": unreal_then);
    None: no reason given."""
    readable = text.translate(_APOSTROPHES)
    lead, then, trail = _reasons(vocab)
    for m in (lead.match(readable), then.match(readable)):
        if m is not None and readable[m.end() :].strip():
            found = Reasoned(m.end(), len(text), m.group("why").strip(" ,;:"))
            break
    else:
        found_unreal = unreal_then(readable, vocab)
        if found_unreal is not None:
            return found_unreal
        m = trail.search(readable)
        if m is None or not readable[: m.start()].strip():
            return None
        found = Reasoned(0, m.start(), m.group("why").strip())
        if _choosing(vocab).search(found.why):
            return None  # "trader, because ..., or maybe the mayor": a choice, no reason
    if refers(readable[found.start : found.end], vocab):
        return None  # "since sugar is worth more, I'll keep it": the reason names it
    return found


@cache
def _unreal(vocab: Vocabulary) -> re.Pattern[str]:
    words = "|".join(phrase(w) for w in sorted(vocab.unreal, key=len, reverse=True))
    modals = "|".join(phrase(w) for w in sorted(vocab.modal_perfects, key=len, reverse=True))
    done = "|".join(phrase(w) for w in vocab.participles)
    perfect = rf"(?:{modals or '(?!)'})\s+(?:{done or '(?!)'})"
    return re.compile(rf"\b(?:{words or '(?!)'}|{perfect})\b|(?<=\w){perfect}\b", re.I)


def unreal(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` says what would have been and cannot be ("I'd have taken corn
    but it's gone", "If I had a warehouse I'd keep everything", "I wanted the
    hacienda"): what it names is no order."""
    return _unreal(vocab).search(text.translate(_APOSTROPHES)) is not None


@cache
def _actuals(vocab: Vocabulary) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A word that says what is done in fact at the start of an order ("so 1 on sugar",
    "as it is, the sugar"), and one of one word at its end ("Coffee then.")."""
    said = sorted(vocab.actuals, key=len, reverse=True)
    words = "|".join(phrase(w) for w in said) or r"(?!)"
    single = "|".join(phrase(w) for w in said if " " not in w and w not in vocab.consequences)
    punct = r"[\s,;:!.\-\u2013\u2014]"
    return (
        re.compile(rf"^{punct}*(?:{words})\b{punct}*", re.I),
        re.compile(rf"{punct}*\b(?:{single or '(?!)'}){punct}*$", re.I),
    )


def actual(text: str, vocab: Vocabulary = ENGLISH) -> tuple[int, int] | None:
    """Where the order of ``text`` is, when a word says it is what is done in fact
    ("Coffee then.", "so 1 on sugar", "as it is, the sugar"): its start and end, the
    word left out; None when no such word starts or ends it."""
    readable = text.translate(_APOSTROPHES)
    lead, tail = _actuals(vocab)
    start = (m.end() if (m := lead.match(readable)) else 0) if readable.strip() else 0
    end = m.start() if (m := tail.search(readable, start)) else len(readable)
    if (start, end) == (0, len(readable)) or not readable[start:end].strip():
        return None
    return start, end


@cache
def _says_actual(vocab: Vocabulary) -> re.Pattern[str]:
    single = [w for w in vocab.actuals if " " not in w and w not in vocab.consequences]
    return re.compile(rf"\b(?:{'|'.join(map(phrase, single)) or '(?!)'})\s*[,;:]", re.I)


def says_actual(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether a word of one that says what is done in fact ends a part of ``text``
    ("Tobacco in the warehouse then, 1 sugar on the rose")."""
    return _says_actual(vocab).search(text.translate(_APOSTROPHES)) is not None


def actual_only(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` is only a word that says what follows is done in fact ("As it
    is,", "Instead:")."""
    m = _actuals(vocab)[0].match(text.translate(_APOSTROPHES))
    return m is not None and not text[m.end() :].strip()


@cache
def _ends_actual(vocab: Vocabulary) -> re.Pattern[str]:
    words = "|".join(phrase(w) for w in sorted(vocab.actuals, key=len, reverse=True))
    return re.compile(rf"\b(?:{words or '(?!)'})[\s,;:!.\-\u2013\u2014]*$", re.I)


def ends_actual(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text``, the words before an order on its line, end with a word that
    says it is what is done in fact ("... but it's gone. Then" before "sell corn")."""
    return _ends_actual(vocab).search(text.translate(_APOSTROPHES)) is not None


def unreal_then(text: str, vocab: Vocabulary = ENGLISH) -> Reasoned | None:
    """The order after what would have been, on one line: the last part after a sign
    that says it is what is done in fact ("Would have liked corn, coffee instead", "I'd
    have taken corn but it's gone - so coffee"); None when there is no such part, or
    the part is unreal too or stands for a thing named before it ("... keep it then")."""
    readable = text.translate(_APOSTROPHES)
    if not unreal(readable, vocab):
        return None
    for m in reversed(list(re.finditer(r"[,;:.!\u2013\u2014]+|\s[\-]+\s", readable))):
        rest = readable[m.end() :]
        said = actual(rest, vocab)
        if said is None:
            continue
        if unreal(rest, vocab) or not unreal(readable[: m.start()], vocab):
            return None
        order = rest[said[0] : said[1]]
        if refers(order, vocab):
            return None
        return Reasoned(m.end(), len(text), readable[: m.start()].strip())
    return None


@cache
def _choosing(vocab: Vocabulary) -> re.Pattern[str]:
    """Words of another choice, a hesitation or a taking-back ("..., maybe tobacco")."""
    words = (*vocab.term("_OR").words, *vocab.contrasts, *vocab.undecided, *vocab.corrections)
    return any_phrase(words)


@cache
def _pronoun(vocab: Vocabulary) -> re.Pattern[str]:
    return any_phrase(vocab.pronouns)


def refers(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` has a word that stands for a thing named elsewhere ("it"; not
    in politeness, "the factory it is")."""
    return _pronoun(vocab).search(normalise(text, vocab)) is not None


def reason_only(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` is a reason alone ("since nobody wants corn,"): no order."""
    because = "|".join(phrase(r) for r in vocab.reasons) or r"(?!)"
    return re.match(rf"^\W*(?:{because})\b", text.translate(_APOSTROPHES), re.I) is not None


def interjection(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` is only words that start a reply ("OK,", "Hmm", "ok so"): cut off
    the order after them ("OK, I'll take the settler"), they are no order."""
    return _interjection_alone(vocab).match(text) is not None


_LEAD = re.compile(r"^[\s,]*(?:(?:and|then|also)\b[\s,]*)+", re.IGNORECASE)
# (and a short form with a slash, as the table writes it: "w/", "w/o"; not "sugar/coffee")
_WORD = re.compile(rf"{SLASHED}|[a-z][a-z']*", re.IGNORECASE)
MENTIONS_TIER = 4  # the last reading: by what the order names (mentions.py)
MAX_SLIPS = 3  # words corrected in one order at the most; keeps a strange mail cheap
MAX_READINGS = 12


@cache
def slips_of(word: str, vocab: Vocabulary = ENGLISH) -> tuple[str, ...]:
    """The order words ``word`` may be a slip of (one letter changed, added, dropped or
    doubled, two letters swapped, the wrong letter doubled: vocabulary.slip_kind); none
    for a word the table knows, a short word, or a common English word. A word of three
    letters may only have dropped one ("sel"), and only from one order word. An
    abbreviation that may stand for several words is read as each of them ("stor")."""
    w = word.lower()
    if len(vocab.abbreviations.get(w, ())) > 1:
        return vocab.abbreviations[w]  # "stor": the storage, or store
    if len(w) < 3 or w in known(vocab):
        return ()
    found = tuple(s for s in suggestions(vocab) if len(s) >= 4 and slip_kind(w, s))
    if len(w) == 3:
        return found if len(found) == 1 and slip_kind(w, found[0]) == "dropped" else ()
    return found


def _corrected(text: str, vocab: Vocabulary) -> list[str]:
    options: list[list[tuple[int, int, str]]] = []
    for m in _WORD.finditer(text):
        fixes = slips_of(m.group(0), vocab)
        if fixes:
            options.append([(m.start(), m.end(), f) for f in fixes])
    if not options or len(options) > MAX_SLIPS:
        return []
    out: list[str] = []
    for combo in itertools.product(*options):
        fixed = text
        for start, end, word in sorted(combo, reverse=True):
            fixed = fixed[:start] + word + fixed[end:]
        out.append(fixed)
        if len(out) >= MAX_READINGS:
            break
    return out


def _first_verb(text: str, vocab: Vocabulary) -> re.Match[str] | None:
    """The verb the order starts with (after any fillers), if it starts with one."""
    fillers = set(vocab.fillers)
    for m in _WORD.finditer(text):
        word = m.group(0).lower()
        if word not in fillers:
            return m if word in verb_words(vocab) else None
    return None


@cache
def _correction(vocab: Vocabulary) -> re.Pattern[str]:
    def alternatives(phrases: tuple[str, ...]) -> str:
        return "|".join(map(phrase, phrases))

    # "no" and "wait" take back only with punctuation after them ("captain? no - trader"),
    # never "build small market, no university".
    # (or with another taking-back after them: "corn, wait no, sugar")
    long_ = alternatives(vocab.corrections)
    short = alternatives((*vocab.short_corrections, *vocab.soft_corrections))
    marker = (
        rf"(?:(?:{long_})\b[\s,!:\-\u2013\u2014]*"
        rf"|(?:{short})(?:\s*[,!:\-\u2013\u2014]+\s*|\s+(?=(?:{short}|{long_})\b)))"
    )
    # The last correction counts; markers may follow one another ("sorry, I mean"), and
    # come after punctuation or a contrast ("captain but no, trader").
    but = "|".join(map(phrase, vocab.contrasts)) or r"(?!)"
    me = "|".join(map(phrase, vocab.first_person))  # ("captain, I'd rather trader")
    return re.compile(
        rf"(?P<head>\w.*(?:[?!.,;:\-\u2013\u2014]|\b(?:{but})\b))\s*(?:(?:{me})\s+)?{marker}+",
        re.IGNORECASE,
    )


def questions_back(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` asks, then takes back what it asked for the order after it
    ("wharf it? no - corn on the wharf"): the order is the writer's answer, and takes
    back his orders before it as well (he was still deciding)."""
    m = _correction(vocab).search(text.translate(_APOSTROPHES))
    return m is not None and m.group("head").endswith("?") and bool(text[m.end() :].strip())


def _mended(head: str, said: str) -> str | None:
    """The order ``head`` with its last part replaced by ``said``, a correction of that
    part alone: from the last place of ``said``'s first word ("the 7, no, the 5"), or its
    last number ("on the 6, no wait, 7"); None when ``head`` has neither."""
    head = head.rstrip(" ,.;:!?-\u2013\u2014")
    said = said.strip()
    first = re.match(r"[a-z0-9']+", said, re.IGNORECASE)
    if first is None:
        return None
    word = first.group(0)
    at = None
    if word.isdigit():
        at = max((m.start() for m in re.finditer(r"\b\d+\b", head)), default=None)
    else:
        found = list(re.finditer(rf"\b{re.escape(word)}\b", head, re.IGNORECASE))
        at = found[-1].start() if found and found[-1].start() > 0 else None
    return None if at is None else f"{head[:at]}{said}"


def ends_back(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` ends with a taking-back of what came before it ("build harbor
    but no,"): the order after it takes that back."""
    m = _correction(vocab).search(text.translate(_APOSTROPHES))
    return m is not None and not text[m.end() :].strip()


@cache
def _heading(vocab: Vocabulary) -> frozenset[str]:
    """The words of a heading that names a decision ("Colonists:", "New workers:",
    "Extra:"), not a place that is part of the order ("wind rose: indigo")."""
    names = ("COLONIST", "EXTRA", "BARREL", "ROLE", "FILLER")
    return frozenset(verb_words(vocab)) | {w for n in names for w in vocab.term(n).words}


@cache
def _heading_verbs(vocab: Vocabulary) -> dict[str, tuple[DecisionKind, str]]:
    """The words of a heading that name one decision ("Storage:", "Shipping:",
    "Sales:"), each with it and the verb its orders get: the words of the decisions' own
    verbs (not the generic ones, "take", "put", nor the extra barrel's or colonist's,
    which two decisions share) and the table's ``heading_words``."""
    out: dict[str, tuple[DecisionKind, str]] = {}
    for kind, verb in vocab.context_verbs.items():
        term = _term_of(verb, vocab)
        if verb in _generic_verbs(vocab) or term.name == "EXTRA":
            continue
        said = (kind, term.words[0])
        out.update(dict.fromkeys((w for w in term.words if " " not in w), said))
    for word, kind in vocab.heading_words.items():
        out[word] = (kind, vocab.context_verbs[kind])
    return out


def _heading_verb(word: str, vocab: Vocabulary) -> str | None:
    said = _heading_verbs(vocab).get(word)
    return None if said is None else said[1]


def named_words(vocab: Vocabulary) -> frozenset[str]:
    """The words of a heading that name one decision (_heading_verbs)."""
    return frozenset(_heading_verbs(vocab))


# A colon or a dash between blanks with words after it: a heading's end.
_HEAD_SIGN = re.compile(r"(?::|\s[\-\u2013\u2014]+)\s*\w")
_HEADING_LINE = re.compile(r"^\s*(?P<head>[^:]{1,40}?)\s*:\s*$")


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading alone, for the orders below it: the roles whose phase they are for, and
    the decision it names ("Storage:"), or the first of the phase of the one role it
    names ("Trader:"), if any."""

    roles: frozenset[Role]
    kind: DecisionKind | None = None


def heading_of(
    text: str, vocab: Vocabulary = ENGLISH, own: frozenset[str] = frozenset()
) -> Heading | None:
    """What ``text``, a heading alone ("Trader:", "The captain's phase:", "Storage:"),
    says the orders below it are for; None when it is no such heading (no colon at its
    end, or it names something else: "Bob:", "Warehouse:")."""
    m = _HEADING_LINE.match(text.translate(_APOSTROPHES))
    if m is None:
        return None
    words = [w.lower() for w in _LEAD_TOKEN.findall(m["head"])]
    named = {k for w in words if (k := _heading_verbs(vocab).get(w)) is not None}
    if len(named) == 1 and all(w in _heading(vocab) | named_words(vocab) for w in words):
        ((kind, _verb),) = named
        return Heading(frozenset(r for r in vocab.roles.values() if kind in role_kinds(r)), kind)
    roles = _lead_words(m["head"], vocab, own=own, heading=True)
    return Heading(roles, _phase_decision(roles)) if roles else None


# -- the writer's own words before an order ------------------------------------------

# Terms whose words name nothing of the game: fillers, articles, the words that join,
# turns and the calendar ("busy week").
_IDLE_TERMS = (
    *("FILLER", "ART", "ON", "TO", "FROM", "WITH", "_AND", "_THEN", "TURN"),
    *("PERIOD", "WEEKDAY", "MONTH"),
)
# Terms that may be named in a condition on the time of an order ("when someone takes the
# captain role:"): the role, whose phase the order must be for.
_ROLE_TERMS = ("ROLE_NAME", "MAYOR", "PROSPECTOR")
_PICK_TERMS = ("TAKE", "ROLE")
_ABSENCE_TERMS = ("AWAY", "BACK", "UNTIL")
_LEAD_TOKEN = re.compile(r"\d+|[a-z]+(?:['\-][a-z]+)*", re.IGNORECASE)
# Where the writer's words may end and the order begin: a colon, a comma, a sentence's
# end, a dash or an arrow between blanks ("Morning all - builder", "Builder -> harbor").
_LEAD_END = re.compile(
    r"\s*(?:[:,.!;]|\s(?:->|=>|\u2192)|\s[\-\u2013\u2014]+|[\u2013\u2014\u2192])"
    r"[\s:,.!;\-\u2013\u2014]*"
)
_MAX_LEAD_WORDS = 12  # words in one piece of them at the most
# The signs that end a heading: a colon, a dash, an arrow.
_HEADING_ENDS = (":", "-", "\u2013", "\u2014", "=", "\u2192")


@cache
def _phrases(items: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(p.lower().split()) for p in items)


@cache
def _bearing(vocab: Vocabulary) -> frozenset[tuple[str, ...]]:
    """The phrases that bear on an order: every word of the table but the idle ones, and
    the words that hesitate, ask, exclude or turn a condition round. (Those that take
    back are for the mail's order checks to see: "Sorry, I meant: trader".)"""
    words = [w for t in vocab.terms if t.name not in _IDLE_TERMS for w in t.words]
    words += [*vocab.undecided, *vocab.questions, *vocab.exclusions, *vocab.negations]
    return _phrases((*words, *vocab.role_verbs))


@cache
def _taking_back(vocab: Vocabulary) -> re.Pattern[str]:
    words = (*vocab.corrections, *vocab.short_corrections, *vocab.negations)
    return any_phrase(words)


# Terms that name a thing of the game: a word one letter from one of theirs is taken for
# it ("Setler:"), not a verb's ("busy", "sending") nor another's ("note").
_THING_TERMS = (
    *("ROLE_NAME", "MAYOR", "PROSPECTOR", "PLANTATION", "QUARRY", "GOOD", "HACIENDA"),
    *("HOSPICE", "UNIVERSITY", "WHARF", "WAREHOUSE", "BWORD", "WINDROSE", "EXTRA"),
    *("BARREL", "COLONIST", "SAN_JUAN"),
)


@cache
def _things(vocab: Vocabulary) -> frozenset[str]:
    """The words a slip may be of and still name a thing."""
    return frozenset(w for n in _THING_TERMS for w in vocab.term(n).words)


@dataclass(frozen=True, slots=True)
class Lead:
    """The writer's own words before an order: where the order starts, and the roles
    whose phase they say it is for ("when the trader comes:"; none: any)."""

    end: int
    roles: frozenset[Role] = frozenset()
    stop: int | None = None  # (a condition after the order: where it ends; None: the end)


def _lead_words(
    text: str,
    vocab: Vocabulary,
    ties: bool = False,
    own: frozenset[str] = frozenset(),
    heading: bool = False,
    early: bool = False,
) -> frozenset[Role] | None:
    """The roles named by ``text``, words of the writer's before an order, when they say
    nothing else of the game; None when they do (a good, a building, a number, a verb,
    a no, a question) and so may be part of it. A condition ("when", "if") may name a
    role, or its phase by what it does ("when we trade"), and someone taking it.
    ``ties``: a role is picked now, and a word that ties a role to its step ("for the
    trader: coffee") starts no condition. ``own``: the writer's names ("Bob here").
    ``heading``: they end with a colon or a dash, and may say orders follow ("My
    orders:"), or name the role whose phase they are for alone ("Captain:", "The
    trader's phase -"), unless a role is picked now (``ties``: "captain: sugar on the 7"
    is the role and the load). ``early``: the writer says he sends the order early, so
    he may say he is away ("away tomorrow, so in advance:")."""
    tokens = [_role_stem(t.lower(), vocab) for t in _LEAD_TOKEN.findall(text)]
    bearing = _bearing(vocab)
    greeting = _phrases((*vocab.greetings, *vocab.interjections))
    longest = max(map(len, bearing | greeting))
    conditions = _phrases(
        tuple(c for c in vocab.conditions if not (ties and c in vocab.step_joints))
    )
    condition = mine = negated = False
    roles: set[Role] = set()
    if _proviso(tokens, vocab):
        return None  # "as long as I can afford it": a condition on the game
    # "Whatever happens with the ships,": what they name does not change the order, up
    # to a condition after them (never a no, "or", a question: "no matter what, or ...")
    regardless = next((p for p in _phrases(vocab.regardless) if tuple(tokens[: len(p)]) == p), ())
    said = (*vocab.undecided, *vocab.questions, *vocab.exclusions, *vocab.negations)
    changes = _phrases((*said, *_words(vocab, "NO", "DONT", "_OR", "PASS")))
    i = 0
    while i < len(tokens):
        size, found = 1, None
        for n in range(min(longest, len(tokens) - i), 0, -1):
            here = tuple(tokens[i : i + n])
            if here in bearing or here in greeting:
                size, found = n, here
                break
        word = tokens[i]
        cond = next((n for n in range(5, 0, -1) if tuple(tokens[i : i + n]) in conditions), 0)
        if i and cond:
            # another condition ("in case I can't answer: when the trader comes")
            if negated and roles:
                return None
            negated = False
            if regardless:
                regardless, condition, size = (), True, cond
                i += size
                continue
        if i == 0 and regardless:
            size = len(regardless)
        elif regardless and (word.isdigit() or word.endswith("n't") or found in changes):
            return None
        elif regardless:
            pass
        elif i == 0 and (cond or _decision_lead(tokens, vocab, ties) or _next_lead(tokens, vocab)):
            condition, size = True, cond or _next_lead(tokens, vocab) or 1
            # (the writer its subject: "in case I can't answer in time", "if I'm not
            # around"; a no there is of him, not of the game)
            mine = cond < len(tokens) and tokens[cond] in _myself(vocab)
        elif mine and (word.endswith("n't") or found in _phrases(_words(vocab, "NO", "DONT"))):
            negated = True
        elif word.isdigit() or word.endswith("n't"):
            return None
        elif found is None and _own(word, own):
            pass
        elif found is None:
            if word in _draw_parts(vocab):
                return None  # "flip one for me when my turn comes": the hacienda's draw
            fixes = slips_of(word, vocab)
            if any(f in _things(vocab) for f in fixes):
                return None  # "Setler:" is the order's own word, misspelled
        elif found in greeting or found in _phrases(vocab.interjections):
            pass
        elif found in _phrases(vocab.mention_fillers):
            pass  # "as I'm offline", "quick one": names nothing alone
        elif heading and found in _phrases(_words(vocab, "ORDERS")):
            pass
        elif found in _phrases(vocab.addressees) and tokens[0] in _greeting_words(vocab):
            pass  # "Morning all", "Hi everyone"
        elif (
            condition or _phase_word(tokens, i + size, vocab) or (heading and not ties)
        ) and found in _phrases(_words(vocab, *_ROLE_TERMS)):
            roles.add(vocab.roles[" ".join(found)])
        elif (condition or _phase_word(tokens, i + size, vocab)) and " ".join(
            found
        ) in vocab.role_verbs:
            roles.add(vocab.role_verbs[" ".join(found)])  # "when we trade", "trading phase"
        elif condition and " ".join(found) in _heading_verbs(vocab):
            roles |= _asking(_heading_verbs(vocab)[" ".join(found)][0])  # "at storage"
        elif condition and found in _phrases((*_words(vocab, *_PICK_TERMS), *vocab.role_takes)):
            pass  # "when someone takes the captain", "if someone goes captain"
        elif condition and found in _phrases(_words(vocab, *_ABSENCE_TERMS)):
            pass  # "in case I'm away": no absence of his, a time
        elif early and found in _phrases(_words(vocab, "AWAY")):
            pass  # "away tomorrow, so in advance:" (not "away until Monday", an absence)
        else:
            return None
        i += size
    if negated and roles:
        return None  # "if I'm not the captain": not when a phase comes
    return frozenset(roles)


@cache
def _draw_parts(vocab: Vocabulary) -> frozenset[str]:
    """The words that draw the hacienda's tile ("flip", "draw", "random"): they answer a
    decision, never the writer's own words before an order."""
    return frozenset(p for w in vocab.draw_words for p in w.split())


@cache
def _myself(vocab: Vocabulary) -> frozenset[str]:
    """The writer as the subject of a condition ("I", "I'm", "I'll")."""
    return frozenset(w for w in vocab.first_person if " " not in w and w.startswith("i"))


def _holds(tokens: list[str], phrases: tuple[str, ...], start: bool = False) -> bool:
    """Whether ``tokens`` hold (``start``: start with) one of ``phrases``."""
    for p in _phrases(phrases):
        at = range(1) if start else range(len(tokens) - len(p) + 1)
        if any(tuple(tokens[i : i + len(p)]) == p for i in at):
            return True
    return False


def _proviso(tokens: list[str], vocab: Vocabulary, start: bool = False) -> bool:
    """Whether ``tokens`` hold (``start``: start with) a word of the table's provisos."""
    return _holds(tokens, vocab.provisos, start)


def sent_early(text: str, vocab: Vocabulary = ENGLISH, own: frozenset[str] = frozenset()) -> int:
    """Where the writer's words before the order of ``text`` end when they say it is sent
    before its time ("Away tomorrow, so in advance: sell corn"; a time in them is his,
    not the order's); 0 when they do not."""
    lead = lead_in(text.translate(_APOSTROPHES), vocab, own=own)
    if lead is None:
        return 0
    tokens = [t.lower() for t in _LEAD_TOKEN.findall(text[: lead.end])]
    return lead.end if _holds(tokens, vocab.early) else 0


def _role_stem(word: str, vocab: Vocabulary) -> str:
    """A role's possessive as the role ("captain's" -> "captain": "the captain's phase")."""
    stem = word[:-2] if word.endswith("'s") else word
    return stem if stem in vocab.roles else word


def _own(word: str, own: frozenset[str]) -> bool:
    """Whether ``word`` is the writer's name ("bob", "bob's")."""
    return word in own or (word.endswith("'s") and word[:-2] in own)


def _phase_word(tokens: list[str], at: int, vocab: Vocabulary) -> bool:
    """Whether the word at ``at`` makes the role before it its phase ("trader phase")."""
    return at < len(tokens) and tokens[at] in vocab.phase_words


@cache
def _greeting_words(vocab: Vocabulary) -> frozenset[str]:
    return frozenset(w for g in (*vocab.greetings, *vocab.interjections) for w in g.split())


@cache
def _words(vocab: Vocabulary, *names: str) -> tuple[str, ...]:
    return tuple(w for n in names for w in vocab.term(n).words)


def _starts_condition(text: str, vocab: Vocabulary, ties: bool) -> bool:
    tokens = tuple(t.lower() for t in _LEAD_TOKEN.findall(text)[:5])
    said = (tuple(c.split()) for c in vocab.conditions if not (ties and c in vocab.step_joints))
    listed = list(tokens)
    return any(tokens[: len(c)] == c for c in said) or bool(
        _decision_lead(listed, vocab, ties) or _next_lead(listed, vocab)
    )


def _decision_lead(tokens: list[str], vocab: Vocabulary, ties: bool) -> bool:
    """Whether ``tokens`` start with a word of ``decision_leads`` before one that names a
    decision ("at storage", "come storage time", "during storing"); ``ties``: as for
    _lead_words (a role picked now: "for" ties it to its step)."""
    if not tokens or tokens[0] not in vocab.decision_leads:
        return False
    if ties and tokens[0] in vocab.step_joints:
        return False
    after = next((t for t in tokens[1:] if t not in vocab.fillers), None)
    return after is not None and after in _heading_verbs(vocab)


def _next_lead(tokens: list[str], vocab: Vocabulary) -> int:
    """Where a word of ``nexts`` before a role or what it does ends, at the start of
    ``tokens`` ("next captain", "the next trader phase"); 0 when there is none."""
    at = next(
        (i for i, t in enumerate(tokens) if t in vocab.nexts or t not in vocab.fillers),
        len(tokens),
    )
    if at + 1 >= len(tokens) or tokens[at] not in vocab.nexts:
        return 0
    after = _role_stem(tokens[at + 1], vocab)
    return at + 1 if after in vocab.roles or after in vocab.role_verbs else 0


@cache
def _next_words(vocab: Vocabulary) -> re.Pattern[str]:
    nexts = "|".join(phrase(w) for w in vocab.nexts) or r"(?!)"
    said = sorted((*vocab.roles, *vocab.role_verbs, *vocab.next_of), key=len, reverse=True)
    of = "|".join(phrase(w) for w in said)
    return re.compile(rf"\b(?:{nexts})\s+(?P<of>{of})(?:'s)?\b", re.IGNORECASE)


def said_next(text: str, vocab: Vocabulary = ENGLISH) -> re.Match[str] | None:
    """Where ``text`` says its order is for the next phase or round of its kind ("next
    time there's a mayor", "my role for the next round", "next captain"), with what it
    is the next of as the group "of"; None when it does not."""
    return _next_words(vocab).search(text.translate(_APOSTROPHES))


def _asking(kind: DecisionKind) -> frozenset[Role]:
    """The roles whose phase asks the decision of ``kind`` (the storage: the captain)."""
    return frozenset(r for r in Role if kind in role_kinds(r))


def named_decisions(text: str, vocab: Vocabulary = ENGLISH) -> frozenset[DecisionKind]:
    """The decisions named by the words of ``text`` that name one ("storage", "when we
    store"), the writer's words before an order; not those that name a role's phase
    ("when we ship" may head the storage too)."""
    tokens = [t.lower() for t in _LEAD_TOKEN.findall(text)]
    said = (_heading_verbs(vocab).get(t) for t in tokens if t not in vocab.role_verbs)
    return frozenset(s[0] for s in said if s is not None)


@cache
def _phase_courtesies(vocab: Vocabulary) -> tuple[tuple[re.Pattern[str], frozenset[Role]], ...]:
    out = []
    for c in vocab.courtesies:
        roles = frozenset(vocab.roles[w] for w in c.split() if w in vocab.roles)
        if roles:
            out.append((re.compile(rf"\b{phrase(c)}\b", re.IGNORECASE), roles))
    return tuple(out)


@cache
def _phase_phrase(vocab: Vocabulary) -> re.Pattern[str]:
    """A phase named with a word of ``phase_leads`` before it ("in the trader phase",
    "during my trading turn", "for the captain's phase"): the role, or what it does, as
    the group "role"."""
    leads = "|".join(phrase(w) for w in vocab.phase_leads) or r"(?!)"
    idle = "|".join(phrase(w) for w in vocab.fillers)
    named = sorted((*vocab.roles, *vocab.role_verbs), key=len, reverse=True)
    roles = "|".join(phrase(w) for w in named)
    ends = "|".join(phrase(w) for w in vocab.phase_words) or r"(?!)"
    return re.compile(
        rf"\b(?:{leads})\s+(?:(?:{idle})\s+){{0,2}}(?P<role>{roles})(?:'s)?\s+(?:{ends})\b",
        re.IGNORECASE,
    )


def _phase_of(word: str, vocab: Vocabulary) -> Role:
    word = word.lower()
    return vocab.roles[word] if word in vocab.roles else vocab.role_verbs[word]


def phase_named(text: str, vocab: Vocabulary = ENGLISH) -> frozenset[Role]:
    """The roles whose phase ``text`` says its order is for, in the words dropped before
    reading it ("sell tobacco in the trader phase", "in the trading phase I'll sell
    tobacco"): it must be an order of it."""
    said = {r for p, roles in _phase_courtesies(vocab) if p.search(text) for r in roles}
    text = text.translate(_APOSTROPHES)
    said |= {_phase_of(m["role"], vocab) for m in _phase_phrase(vocab).finditer(text)}
    return frozenset(said)


def takes_back_only(
    text: str, vocab: Vocabulary = ENGLISH, own: frozenset[str] = frozenset()
) -> bool:
    """Whether ``text`` only takes back what came before it: its other words are known
    and name nothing of the game ("Never mind.", "Cancel that, sorry", "actually,
    wait"; not "Sorry for the delay")."""
    if "?" in text or not _taking_back(vocab).search(text):
        return False
    rest = _taking_back(vocab).sub(" ", normalise(text, vocab))
    if any(w.lower() not in known(vocab) | own for w in _LEAD_TOKEN.findall(rest)):
        return False  # "Sorry for the delay": more than a taking-back
    return _lead_words(rest, vocab, own=own) == frozenset()


def names_nothing(
    text: str, after: bool, vocab: Vocabulary = ENGLISH, own: frozenset[str] = frozenset()
) -> bool:
    """Whether ``text``, a line of the writer's, names nothing of the game (the words it
    holds are no order's, no number, no question): chat ("Chris here.", "Sorry for the
    delay, busy week."). ``after`` an order, a word that may take it back ("sorry",
    "never mind") is not chat; nor is a word alone that is not known, which may be an
    order's ("Frobnicate"). ``own``: the writer's names."""
    if "?" in text or (after and _taking_back(vocab).search(text)):
        return False
    words = [w.lower() for w in _LEAD_TOKEN.findall(text)]
    if len(words) == 1 and words[0] not in known(vocab) | own:
        return False
    return _lead_words(normalise(text, vocab), vocab, own=own) == frozenset()


@cache
def _first_person(vocab: Vocabulary) -> re.Pattern[str]:
    mine = "|".join(phrase(w) for w in (*vocab.first_person, *vocab.term("_THEN").words))
    return re.compile(rf"\b(?:{mine})\s*$", re.IGNORECASE)


def _someone_picks(before: str, verb: str, vocab: Vocabulary) -> bool:
    """Whether ``verb``, a taking after a condition with no sign between, is the
    condition's own ("if someone picks the captain"), not the writer's order ("when the
    trader comes I'll take ..."): not after "I", "I'll", "we", "then"."""
    if verb.lower() not in _words(vocab, *_PICK_TERMS):
        return False
    return _first_person(vocab).search(before) is None


@cache
def _condition_starts(vocab: Vocabulary) -> re.Pattern[str]:
    words = "|".join(phrase(c) for c in sorted(vocab.conditions, key=len, reverse=True))
    return re.compile(rf"[\s,;\-\u2013\u2014]+(?=(?:{words})\b)", re.IGNORECASE)


def trailing_condition(
    text: str, vocab: Vocabulary = ENGLISH, ties: bool = False, own: frozenset[str] = frozenset()
) -> Lead | None:
    """A condition on the time of the order after it, at the end of ``text`` ("sell
    coffee when it gets to me", "the small market, once I can"): where it starts
    (``Lead.end``) and the roles it names, when it names nothing else (_lead_words);
    None when there is none. ``ties``, ``own``: as for lead_in."""
    inner: Lead | None = None
    for m in _condition_starts(vocab).finditer(text):
        tail = text[m.end() :]
        if m.start() == 0 or not _starts_condition(tail, vocab, ties):
            continue
        if not normalise(text[: m.start()], vocab).strip():
            continue  # nothing before it: no order
        if unreal(tail, vocab):
            return None  # "I'd build the harbor if I had the money": no order at all
        # (not over a colon with an order after it: "My role when it comes round: mayor")
        sign = _HEAD_SIGN.search(tail)
        over = sign is not None and says_something(tail[sign.start() :], vocab)
        said = None if over else _lead_words(tail, vocab, ties, own)
        if said is not None and len(_LEAD_TOKEN.findall(tail)) <= _MAX_LEAD_WORDS:
            return Lead(m.start(), said)
        # Else the first up to a comma or a colon, with more of the order after it
        # ("quarry when it's my go, with the hut"), when none runs to the end.
        cut = re.search(r"\s*(?:[,;:]|\s[\-\u2013\u2014]+(?=\s))", tail)
        if inner is not None or cut is None or not normalise(tail[cut.end() :], vocab).strip():
            continue
        said = _lead_words(tail[: cut.start()], vocab, ties, own)
        if said is not None and len(_LEAD_TOKEN.findall(tail[: cut.start()])) <= _MAX_LEAD_WORDS:
            inner = Lead(m.start(), said, m.end() + cut.start())
    return inner


def _starts_time(text: str, vocab: Vocabulary) -> bool:
    tokens = tuple(t.lower() for t in _LEAD_TOKEN.findall(text)[:3])
    return any(tokens[: len(t.split())] == tuple(t.split()) for t in vocab.times)


def when_blanked(text: str, vocab: Vocabulary = ENGLISH, own: frozenset[str] = frozenset()) -> str:
    """``text`` with the conditions in it that only say when in the turn blanked out,
    when they name nothing of the game ("once Bob is done, sell coffee", "sell coffee
    after Bob"): a player named there is no one the order is for."""
    out = text
    start = 0
    for m in [*_LEAD_END.finditer(text), None]:
        end = m.start() if m is not None else len(text)
        piece = text[start:end]
        if _starts_time(piece, vocab) and _lead_words(piece, vocab, own=own) == frozenset():
            out = out[:start] + " " * (end - start) + out[end:]
        start = m.end() if m is not None else len(text)
    tail = trailing_condition(text, vocab, own=own)
    if tail is not None and not tail.roles and _starts_time(text[tail.end :].lstrip(" ,;-"), vocab):
        stop = len(out) if tail.stop is None else tail.stop
        out = out[: tail.end] + " " * (stop - tail.end) + out[stop:]
    lead = lead_in(out, vocab, own=own)
    if lead is not None and not lead.roles and _starts_time(out, vocab):
        out = " " * lead.end + out[lead.end :]
    return out


def _third_person(word: str, vocab: Vocabulary) -> bool:
    """Whether ``word`` is a verb said of someone else ("sells", "takes", "goes"): in
    a condition, its own verb, no order."""
    return word.lower().endswith("s") and word.lower() in verb_words(vocab)


def _openings(text: str, vocab: Vocabulary, own: frozenset[str]) -> int:
    """Where the writer's openings before a condition end ("Bob: if ...")."""
    at = 0
    for m in _LEAD_END.finditer(text):
        piece = text[at : m.start()]
        if _starts_condition(piece, vocab, False) or _lead_words(piece, vocab, own=own) is None:
            break
        at = m.end()
    # (and a contrast with the sentence before: "But unless Anna sells, ...")
    but = _contrast_lead(vocab).match(text, at)
    if but is not None:
        rest = text[but.end() :]
        tokens = [t.lower() for t in _LEAD_TOKEN.findall(rest.translate(_APOSTROPHES))]
        if _starts_condition(rest, vocab, False) or _proviso(tokens, vocab, start=True):
            return but.end()
    return at


def unchecked_condition(
    text: str, vocab: Vocabulary = ENGLISH, own: frozenset[str] = frozenset()
) -> bool:
    """Whether ``text`` is a condition that names something of the game besides a role
    ("if I still have coffee", "if Bob sells corn"): the moderator cannot tell whether
    it holds, so the order after it is not done."""
    rest = text[_openings(text, vocab, own) :]
    tokens = [t.lower() for t in _LEAD_TOKEN.findall(rest.translate(_APOSTROPHES))]
    if _proviso(tokens, vocab, start=True):
        return True  # "unless the captain comes first", "provided nobody else does"
    if not _starts_condition(rest, vocab, False):
        return False
    return _lead_words(rest.translate(_APOSTROPHES), vocab, own=own) is None


def condition(
    text: str, vocab: Vocabulary = ENGLISH, own: frozenset[str] = frozenset()
) -> frozenset[Role] | None:
    """The roles ``text`` names when it is only a condition on the time of the order
    after it, on their phases ("if there's a trader phase", "Bob: once the captain
    comes"); None when it is not one, or names no role. ``own``: the writer's names."""
    rest = text[_openings(text, vocab, own) :]
    if not _starts_condition(rest, vocab, False):
        return None
    return _lead_words(rest.translate(_APOSTROPHES), vocab, own=own) or None


@cache
def _me_and_conditions(vocab: Vocabulary) -> frozenset[str]:
    """The writer's own words, the fillers and the words of the conditions."""
    parts = {w for c in vocab.conditions for w in c.split()}
    return frozenset({*vocab.first_person, *vocab.fillers, *parts})


def _only_me(piece: str, vocab: Vocabulary) -> bool:
    """Whether ``piece``, a condition before a verb, says nothing but its condition word
    and the writer ("If I", "in case I"): the verb after it is the condition's own."""
    idle = _me_and_conditions(vocab)
    return all(t.lower() in idle for t in _LEAD_TOKEN.findall(piece))


def lead_in(
    text: str, vocab: Vocabulary = ENGLISH, ties: bool = False, own: frozenset[str] = frozenset()
) -> Lead | None:
    """The writer's own words before the order of ``text``, when there are: an opening
    ("Morning all -", "Bob here,", "In advance:") or a condition on its time ("For when
    my turn comes:", "if there's a trader phase,", "when the trader comes round I'll
    ..."), each up to a colon, a comma, a dash or a sentence's end, or a condition up
    to the verb of the order. They must name nothing of the game but the role whose
    phase the order is for (_lead_words): then the order is what follows them.
    ``ties``: a role is picked now ("for the trader: coffee" is that role and a sale).
    ``own``: the writer's names, lower case ("Bob:", "Bob here,"); a word alone that is
    neither one nor known may be a part of the order ("Zyx: 2 on coffee roaster")."""
    # (a contrast with the sentence before it: "But next captain I'll wharf my corn")
    but = _contrast_lead(vocab).match(text)
    at = but.end() if but is not None and _starts_condition(text[but.end() :], vocab, ties) else 0
    roles: frozenset[Role] = frozenset()
    early = _holds([t.lower() for t in _LEAD_TOKEN.findall(text)], vocab.early)
    while True:
        m = _LEAD_END.search(text, at)
        piece = text[at : m.start()] if m is not None else ""
        # (an order must follow, not politeness alone: "I'd like to produce, thanks")
        end = m is not None and bool(normalise(text[m.end() :], vocab).strip())
        # (a heading may say what follows: "My orders:", "Bob's orders for now:", or the
        # role whose phase it is for: "Captain: sugar on the 7", "Builder - harbor")
        heading = m is not None and m.group(0).strip()[:1] in _HEADING_ENDS
        said = _lead_words(piece, vocab, ties, own, heading, early) if end else None
        words = _LEAD_TOKEN.findall(piece)
        if m is None or said is None or len(words) > _MAX_LEAD_WORDS or unreal(piece, vocab):
            break  # (not what would have been: "If I had the money, I'd build the harbor")
        if len(words) == 1 and not (
            words[0].lower() in known(vocab) or _own(words[0].lower(), own)
        ):
            break  # "Zyx: 2 on coffee roaster": a place we do not know, maybe
        at, roles = m.end(), roles | said
    # A condition up to the verb of the order, no sign between ("If someone picks the
    # trader I sell tobacco"): the longest that names nothing else.
    # Or up to the writer's own words that start the order ("If I end up as settler I'll
    # use the hacienda"), after more than the condition's word.
    if _starts_condition(text[at:], vocab, ties) and not unreal(text[at:], vocab):
        verbs = set(verb_words(vocab))
        mine = {m.start() for m in _will(vocab).finditer(text, at)}
        for w in reversed(list(_WORD.finditer(text, at))):
            if not text[at : w.start()].strip():
                continue
            if w.start() in mine and len(_LEAD_TOKEN.findall(text[at : w.start()])) > 1:
                said = _lead_words(text[at : w.start()], vocab, ties, own)
                if said is not None:
                    return Lead(w.start(), roles | said)
            if w.group(0).lower() not in verbs:
                continue
            if not _WORD.search(text, w.end()):
                continue  # "by the time we trade": the verb is the condition's
            if _someone_picks(text[at : w.start()], w.group(0), vocab):
                continue
            if _third_person(w.group(0), vocab):
                continue  # "after Bob sells corn": the condition's verb
            if _only_me(text[at : w.start()], vocab):
                continue  # "If I put the sugar on the 5, ...": the order is the condition
            said = _lead_words(text[at : w.start()], vocab, ties, own)
            if said is not None:
                return Lead(w.start(), roles | said)
    return Lead(at, roles) if at else None


@cache
def _contrast_lead(vocab: Vocabulary) -> re.Pattern[str]:
    words = "|".join(phrase(w) for w in vocab.contrasts) or r"(?!)"
    return re.compile(rf"\W*(?:{words})\b[\s,]*", re.IGNORECASE)


@cache
def _will(vocab: Vocabulary) -> re.Pattern[str]:
    """The writer's words that start what he will do ("I'll", "I will", "let me"): the
    first person with more than "I" or "me"."""
    said = sorted((p for p in vocab.first_person if " " in p or "'" in p), key=len, reverse=True)
    return any_phrase(said)


def has_verb(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether an order starts with a verb ("take", "build"), not a bare word."""
    return _first_verb(normalise(text, vocab), vocab) is not None


@cache
def _naming_words(vocab: Vocabulary) -> frozenset[str]:
    """The order words that name something: all but the fillers, articles, numbers and
    the words of any one ("whichever")."""
    idle = {*vocab.fillers, *vocab.term("ART").words, *vocab.term("NUMWORD").words}
    idle |= {w for phrase in vocab.term("ANY").words for w in phrase.split()}
    return frozenset(w for t in vocab.terms for w in t.words for w in w.split()) - idle


def says_something(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` has a word that names something of an order (not a filler)."""
    return any(m.group(0).lower() in _naming_words(vocab) for m in _WORD.finditer(text))


def _conditions(vocab: Vocabulary) -> tuple[str, ...]:
    """The words that start a condition, but those the grammar ignores ("for")."""
    return tuple(c for c in vocab.conditions if c not in vocab.fillers)


@cache
def _conditioned(vocab: Vocabulary) -> re.Pattern[str]:
    return any_phrase(_conditions(vocab))


def conditioned(text: str, vocab: Vocabulary = ENGLISH, own: frozenset[str] = frozenset()) -> bool:
    """Whether ``text`` holds a word of a condition ("If I were you I'd take the
    trader"), besides those that only say when its order is for, naming no more than
    the role whose phase it is ("When the settler comes I'll use my hacienda", "sell
    corn when it gets to me"; lead_in, trailing_condition): an order before a remark
    may not. ``own``: the writer's names."""
    readable = text.translate(_APOSTROPHES)
    lead = lead_in(readable, vocab, own=own)
    rest = " " * lead.end + readable[lead.end :] if lead is not None else readable
    tail = trailing_condition(rest, vocab, own=own)
    if tail is not None:
        stop = len(rest) if tail.stop is None else tail.stop
        rest = rest[: tail.end] + " " * (stop - tail.end) + rest[stop:]
    return _conditioned(vocab).search(rest) is not None


@cache
def _total_words(vocab: Vocabulary) -> re.Pattern[str]:
    return any_phrase(vocab.totals)


def said_total(text: str, vocab: Vocabulary = ENGLISH) -> int | None:
    """The count ``text`` says the mayor's layout places, when it says only that ("That's
    4 to place.", "that's three with the extra"): one number, a word of ``totals``,
    and nothing else but colonist words and fillers; None otherwise."""
    readable = text.translate(_APOSTROPHES)
    if "?" in readable or _total_words(vocab).search(readable) is None:
        return None
    rest = _total_words(vocab).sub(" ", readable)
    idle = {*vocab.fillers, *vocab.term("ART").words, *vocab.term("COLONIST").words}
    words = [w.lower() for w in _LEAD_TOKEN.findall(rest)]
    counts = [w for w in words if w.isdigit() or w in vocab.numbers]
    if len(counts) != 1 or any(w not in idle for w in words if w not in counts):
        return None
    return int(counts[0]) if counts[0].isdigit() else vocab.numbers[counts[0]]


@cache
def changing(vocab: Vocabulary = ENGLISH, times: bool = True) -> re.Pattern[str]:
    """Words that may change an order said before them: a negation, a correction, a
    condition, an alternative, a hesitation, a time to come (unless not ``times``), a
    question, a contrast."""
    phrases = (
        *vocab.corrections,
        *vocab.short_corrections,
        *_conditions(vocab),
        *vocab.undecided,
        *vocab.questions,
        *vocab.contrasts,
        *(vocab.not_now if times else ()),
        *vocab.exclusions,
        *vocab.negations,
        *vocab.term("_OR").words,
    )
    return any_phrase(phrases)


def _contrast_said(text: str, m: re.Match[str], vocab: Vocabulary) -> bool:
    """Whether the match ``m`` in ``text`` is a contrast that starts a statement about
    something else ("boring, but it feeds the boats"), which changes no order."""
    if m.group(0).lower() not in vocab.contrasts:
        return False
    subjects = "|".join(map(re.escape, vocab.subjects)) or r"(?!)"
    after = text[m.end() :].translate(_APOSTROPHES)
    return re.match(rf"\s+(?:{subjects})(?:'s|'re)?\s+\w", after, re.I) is not None


def contrast_statement(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` starts with a contrast that starts a statement about something
    else ("but that's fine"): no other choice."""
    first = _WORD.search(text)
    return (
        first is not None
        and not text[: first.start()].strip()
        and _contrast_said(text, first, vocab)
    )


def remark(
    text: str,
    vocab: Vocabulary = ENGLISH,
    kind: DecisionKind | None = None,
    passed: bool = False,
    loose: bool = False,
) -> bool:
    """Whether ``text``, after an order on its line, can only be a remark on it ("Quarry
    please, I'm going to be building a lot", "sell corn - need the cash"): it starts
    with the writer's own words or with a word that is no order word, and has no word
    that may change an order (``changing``, a negation) nor a question.

    ``kind``: the decision the order answers. A remark that names nothing answering it
    (mentions.names_answer) may also start as a clause of its own with an article or a
    pronoun ("Build a large warehouse, my goods keep spoiling", "sell corn, it's worth
    nothing on the ships") and say no to what refers to nothing of the order ("I don't
    need any more land"); a no followed by "it" or "one" may still be about the order.
    ``passed``: the order is a pass, which a no after it agrees with ("I'll pass, can't
    afford anything"). ``loose``: whether it may be a remark for some decision (as if
    it named nothing answering any)."""
    if reminder(text, vocab):
        return True  # "..., can you remember that?": only asks to keep the order in mind
    first = _WORD.search(text)
    agrees = vocab.term("NO").words if passed else ()  # ("I'll pass, no money left")
    if first is None or "?" in text:
        return False
    if any(
        m.group(0).lower() not in agrees and not _contrast_said(text, m, vocab)
        for m in changing(vocab).finditer(text)
    ):
        return False
    word = first.group(0).lower()
    own = {w for w in vocab.first_person if " " not in w}
    free = loose or (kind is not None and not names_answer(text, kind, vocab))
    opens = free and (word in vocab.fillers or word in vocab.pronouns)
    # (or a contrast that starts a statement: "corn, but that's fine")
    opens = opens or (free and _contrast_said(text, first, vocab))
    # (after a pass, any words that name nothing answering it: "nothing for me, saving
    # money"; and a no, which agrees with it)
    opens = opens or (passed and (free or negation(vocab).match(text, first.start()) is not None))
    ordered = word in words(vocab) or text[: first.start()].strip(" ,-")
    if word not in own and not opens and ordered:
        return False  # "..., the big one": more of the order
    no = negation(vocab).search(text)
    if no is None:
        return True
    # What the no is about: never the order itself ("I don't want to pass"); after any
    # other order, no thing it names or refers to ("not this", "I don't want that one").
    after = [m.group(0).lower() for m in _WORD.finditer(text[no.end() :])]
    if set(after) & _term_parts(vocab, ("PASS",)):
        return False
    if passed:
        return True
    about = {*vocab.fillers, *vocab.term("ART").words} - {*vocab.first_person, "for"}
    return free and not (after and after[0] in about) and not refers(" ".join(after), vocab)


@cache
def _reminder(vocab: Vocabulary) -> re.Pattern[str]:
    """A remark that only asks to keep the order in mind, with politeness and a question
    mark ("please remember that!", "can you remember that?")."""
    said = "|".join(phrase(w) for w in sorted(vocab.reminders, key=len, reverse=True))
    polite = r"(?:please|pls|thanks|thank you|ok|okay)"
    return re.compile(
        rf"\W*(?:{polite}\W+)?(?:{said or '(?!)'})(?:\W+{polite})?[\s?!.)]*", re.IGNORECASE
    )


def reminder(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text``, after an order, only asks to keep it in mind ("can you remember
    that?", "please note"): no order of itself, whatever its words read as."""
    return _reminder(vocab).fullmatch(text) is not None


def reminded(text: str, vocab: Vocabulary = ENGLISH) -> str:
    """``text`` without a reminder after a comma, a dash or a sentence's end at its end
    ("sell tobacco, can you remember that?" -> "sell tobacco"): its question mark asks
    nothing of the game."""
    for m in _AFTER_ORDER.finditer(text):
        if m.start() and reminder(text[m.end() :], vocab):
            return text[: m.start()]
    return text


# Where a remark after an order may start: a comma, a dash, a sentence's end.
_AFTER_ORDER = re.compile(r"\s*(?:[,;.!]|\s[\-\u2013\u2014]+|[\u2013\u2014])\s*")


# What may follow a pass and still leave it one ("Pass on the plantations this time",
# "nah, nothing for me", "pass - broke"): the kind of thing passed on (which alone
# after a no makes a pass: "no building for me"), a no, and the words that join them;
# a thing named, a yes or a "not" may change it.
_PASSED_ON = ("PLANTATION", "BARREL", "SELL", "BUILD", "SETTLE")
_PASS_JOINING = ("TAKE", "ON", "TO", "FROM", "WITH", "_AND")
# The decisions a pass said so is read for (the others have no pass, or, the mayor's,
# one that leaves his extra colonist to the default).
_PASSABLE = frozenset(
    {DecisionKind.HACIENDA, DecisionKind.SETTLE, DecisionKind.BUILD}
    | {DecisionKind.SELL, DecisionKind.CRAFTSMAN_EXTRA}
)


@cache
def _pass_words(
    vocab: Vocabulary,
) -> tuple[re.Pattern[str], frozenset[str], frozenset[str], frozenset[str]]:
    """The pass's phrases of several words ("don't bother with", read as one "pass"),
    the words that start a pass, the kinds of thing passed on, and all the words that
    may follow."""
    phrases = any_phrase([w for w in vocab.term("PASS").words if " " in w])
    leading = _term_parts(vocab, ("PASS",)) | (_term_parts(vocab, ("NO",)) - {"not"})
    passed_on = _term_parts(vocab, _PASSED_ON)
    return phrases, leading, passed_on, leading | passed_on | _term_parts(vocab, _PASS_JOINING)


@cache
def _pass_turned(vocab: Vocabulary) -> re.Pattern[str]:
    """A pass said no to in its clause ("I don't want to pass", "not passing", "pass,
    I won't pass"): a "not", a "don't", a "never" or a verb with "n't" before it, with
    no sign between (never "no": "no I'll pass" passes)."""
    nots = (*vocab.term("DONT").words, "not", "never")
    bare = [a for a, meant in vocab.abbreviations.items() if meant == (f"{a[:-2]}n't",)]
    singles = [w for w in vocab.term("PASS").words if " " not in w]
    return re.compile(
        rf"(?:{any_phrase((*nots, *bare)).pattern}|\w+n['’]t\b)[^,;:.!?\-–—]*?"
        rf"{any_phrase(singles).pattern}",
        re.IGNORECASE,
    )


def said_pass(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` passes: it starts with a pass or a no, says "pass" (or
    "nothing", ...) or names what is passed on ("no building for me"), and names
    nothing else that could change it; never with a taking-back ("no wait, the one
    next to it")."""
    phrases, leading, passed_on, allowed = _pass_words(vocab)
    text = phrases.sub("pass", text)  # ("don't bother with": one word)
    if _pass_turned(vocab).search(text):
        return False  # "I don't want to pass", "pass, I won't pass"
    found = [m.group(0).lower() for m in _WORD.finditer(text)]
    # (after the writer's own words, which the grammar ignores: "I'll pass on this one")
    found = found[next((i for i, w in enumerate(found) if w not in vocab.fillers), 0) :]
    back = correction(text, vocab)
    if back:
        # (what a taking-back leads to: "nah, nothing on that", not "no wait, the corn")
        return said_pass(text[back:], vocab)
    if not found or found[0] not in leading or "?" in text or back is not None:
        return False
    if not set(found) & (set(vocab.term("PASS").words) | passed_on):
        return False  # "no, the one next to it": a no to what came before
    rest = text[text.lower().index(found[0]) + len(found[0]) :]
    if any(m.group(0).lower() not in allowed for m in negation(vocab).finditer(rest)):
        return False  # "no, I don't want to pass", "pass, except the coffee"
    if any(m.group(0).lower() not in allowed for m in changing(vocab).finditer(rest)):
        return False  # "pass, unless Bob sells", "pass - or maybe the corn"
    return set(found[1:]) & _naming_words(vocab) <= allowed


def _term_of(word: str, vocab: Vocabulary) -> Term:
    return next(t for t in vocab.terms if word in t.words)


def _generic_verbs(vocab: Vocabulary) -> frozenset[str]:
    return frozenset((*vocab.term("PLACE").words, *vocab.term("TAKE").words))


@dataclass(frozen=True, slots=True)
class Fallback:
    """Orders joined by "or" with what decides between them (reading.fallback):
    ``listed`` the list without it, ``options`` its orders, ``ordered`` whether the
    first that can be done is meant (its condition is legality)."""

    listed: str
    options: tuple[str, ...]
    ordered: bool


@cache
def _fallback_parts(vocab: Vocabulary) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    said = sorted((*vocab.term("_OR").words, *vocab.fallbacks), key=len, reverse=True)
    ors = "|".join(phrase(w) for w in said)
    which = "|".join(phrase(w) for w in sorted(vocab.whichevers, key=len, reverse=True))
    ifs = "|".join(phrase(c) for c in ("if", "in case", "should") if c in vocab.conditions)
    legal = "|".join(phrase(w) for w in vocab.legality)
    me = "|".join(phrase(w) for w in sorted(vocab.first_person, key=len, reverse=True))
    takes = "|".join(phrase(w) for w in vocab.term("TAKE").words)
    its = "|".join(phrase(w) for w in vocab.pronouns)
    return (
        # "trader or craftsman, whichever is still there"
        re.compile(
            rf"^(?P<listed>.+?)[\s,;:(\-\u2013\u2014]+(?:{which or '(?!)'})\b(?P<cond>.*)$", re.I
        ),
        # "tobacco, or sugar if tobacco can't be sold", "corn if it's left, or sugar"
        re.compile(rf"[\s,(]+(?P<cond>(?:{ifs or '(?!)'})\b[^,;()]*)", re.I),
        # "If builder's free I'll take it, otherwise mayor"
        re.compile(
            rf"^\W*(?:{ifs or '(?!)'})\s+(?P<first>.+?)(?:'s)?\s+(?:(?:{legal})\s+)*"
            rf"(?:{legal})\b[\s,]*(?:(?:{me})\s+)?(?:{takes})\s+(?:{its})\b[\s,;.\-]*"
            rf"(?:{ors})\b[\s,:]*(?P<rest>\w.*)$",
            re.I,
        ),
    )


def _legality_only(cond: str, listed: str, vocab: Vocabulary) -> bool | None:
    """Whether ``cond``, a condition on a list of orders, only says whether they can be
    done ("if it's gone", "if tobacco can't be sold"): True; False when it says
    something else the moderator cannot weigh ("if it's cheaper"); None when it names a
    thing of the game the list does not, or another time (no fallback then)."""
    said = {_stem(w.lower()) for w in _LEAD_TOKEN.findall(listed)}
    idle = {*vocab.fillers, *vocab.term("ART").words, *vocab.pronouns, *vocab.first_person}
    legal, other = False, False
    for token in _LEAD_TOKEN.findall(cond.translate(_APOSTROPHES))[1:]:
        word = token.lower()
        for end in ("'s", "'re", "'ll"):
            word = word.removesuffix(end)
        if word in vocab.legality or word.endswith("n't"):
            legal = True
        elif _stem(word) in said or word in idle or word in vocab.whichevers:
            continue
        elif word in _things(vocab) or word.isdigit():
            return None  # "sugar, or tobacco if corn is gone": another thing
        else:
            other = True
    return legal and not other


def _about_options(cond: str, listed: str, vocab: Vocabulary) -> bool:
    """Whether ``cond`` speaks of the orders of ``listed``: it names one, or stands for
    one ("if it's cheaper"), so it may choose between them."""
    said = {_stem(w.lower()) for w in _LEAD_TOKEN.findall(listed)} - set(vocab.fillers)
    words = {_stem(w.lower().removesuffix("'s")) for w in _LEAD_TOKEN.findall(cond)}
    return bool(words & said) or refers(cond, vocab)


def _stem(word: str) -> str:
    """A word without its plural ending ("quarries", "roles")."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word.removesuffix("s")


@cache
def _legality_lead(vocab: Vocabulary) -> re.Pattern[str]:
    ifs = "|".join(phrase(c) for c in ("if", "in case", "should") if c in vocab.conditions)
    others = "|".join(phrase(w) for w in vocab.fallbacks)
    return re.compile(
        rf"^\W*(?:(?P<cond>(?:{ifs or '(?!)'})\b[^,;:.!\-\u2013\u2014]*)|(?:{others or '(?!)'})\b)"
        r"\s*[,;:\-\u2013\u2014]",
        re.I,
    )


@cache
def _fallback_word(vocab: Vocabulary) -> re.Pattern[str]:
    words = "|".join(phrase(w) for w in sorted(vocab.fallbacks, key=len, reverse=True))
    return re.compile(rf"^\W*(?:{words or '(?!)'})\b[\s,;:\-\u2013\u2014]*", re.I)


def fallback_word(text: str, vocab: Vocabulary = ENGLISH, alone: bool = False) -> bool:
    """Whether ``text`` ends with a word of ``fallbacks`` ("role settler. Otherwise, "
    before "role mayor"); ``alone``: is only one ("Otherwise,")."""
    words = "|".join(phrase(w) for w in sorted(vocab.fallbacks, key=len, reverse=True))
    start = r"^\W*" if alone else r"\b"
    found = re.search(rf"{start}(?:{words or '(?!)'})[\s,;:.\-\u2013\u2014]*$", text, re.I)
    return found is not None


def legality_lead(text: str, said: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text``, an order after another answer to the same decision, is for when
    that one cannot be done: it starts with a condition that only says so, naming
    nothing but what ``said`` (the mail) names ("If it's gone, mayor.", "If corn's
    gone, sugar."), or with a word of ``fallbacks`` ("Otherwise, the factory.")."""
    m = _legality_lead(vocab).match(text.translate(_APOSTROPHES))
    if m is None:
        return False
    return m.group("cond") is None or _legality_only(m.group("cond"), said, vocab) is True


def fallback(text: str, vocab: Vocabulary = ENGLISH) -> Fallback | None:
    """Orders joined by "or" and what decides between them: a condition on whether
    the first can be done ("the trader, or the captain if it's gone", "If builder's
    free I'll take it, otherwise mayor": ordered, the first that can be done), or
    "whichever ..." or another condition ("sugar or tobacco, whichever's left": the one
    that can be done, asked back when several can); None when there is none."""
    readable = text.translate(_APOSTROPHES)
    which, cond, lead = _fallback_parts(vocab)
    ors = any_phrase((*vocab.term("_OR").words, *vocab.fallbacks))
    # (only a list of things, each an order alone: not "ship sugar on 5 or 7", whose
    # "7" says no order without the words before it)
    if _counted(vocab).search(readable):
        return None
    if (m := lead.match(readable)) is not None:
        first = m.group("first").strip()
        return Fallback(
            f"{first} or {m.group('rest')}", _options(f"{first} or {m.group('rest')}", vocab), True
        )
    if (m := which.match(readable)) is not None and ors.search(m.group("listed")):
        listed = m.group("listed")
        if _legality_only(" " + m.group("cond"), listed, vocab) is None:
            return None
        return Fallback(listed, _options(listed, vocab), False)
    # A condition after the first order, up to a sign or the end ("corn if there is any
    # left, otherwise sugar", "corn, or if that's gone, sugar", "tobacco, or sugar if
    # tobacco can't be sold"): the list is what is left without it.
    for m in cond.finditer(readable):
        listed = " ".join((readable[: m.start()] + readable[m.end() :]).split())
        if not readable[: m.start()].strip() or not ors.search(listed):
            continue
        legal = _legality_only(m.group("cond"), listed, vocab)
        if legal is None or not (legal or _about_options(m.group("cond"), listed, vocab)):
            return None  # ("sell corn or sugar if I'm asleep": on the whole order, a time)
        return Fallback(listed, _options(listed, vocab), legal)
    # "the harbour, failing that the factory": the next is for when the first cannot be
    # (never with a proviso, which may turn it round: "I'll pass, unless ...")
    if cond.search(readable) is None and any_phrase(vocab.fallbacks).search(readable):
        if any_phrase((*vocab.conditionals, *vocab.provisos)).search(readable):
            return None
        return Fallback(readable, _options(readable, vocab), True)
    return None


@cache
def _counted(vocab: Vocabulary) -> re.Pattern[str]:
    """A number or a place in a list of orders: its parts may share them."""
    words = (*vocab.term("NUMWORD").words, *vocab.term("ON").words, *vocab.term("TO").words)
    return re.compile(rf"\d|{any_phrase(words).pattern}", re.IGNORECASE)


def _options(listed: str, vocab: Vocabulary) -> tuple[str, ...]:
    said = sorted((*vocab.term("_OR").words, *vocab.fallbacks), key=len, reverse=True)
    ors = "|".join(phrase(w) for w in said)
    parts = re.split(rf"\s*(?:[,;]|\b(?:{ors})\b)[\s,]*", listed, flags=re.I)
    return tuple(p.strip(" .!") for p in parts if p.strip(" .!"))


@cache
def _answer_start(vocab: Vocabulary) -> re.Pattern[str]:
    """Words that answer a question or take it back ("No.", "yes please", "or sugar")."""
    said = (*vocab.term("YES").words, *vocab.term("NO").words, *vocab.short_corrections)
    said += (*vocab.corrections, *vocab.contrasts, *vocab.term("_OR").words)
    return re.compile(rf"\W*{any_phrase(said).pattern}", re.IGNORECASE)


def _yes_or_no_alone(text: str, vocab: Vocabulary) -> bool:
    """Whether ``text`` is only a yes or a no ("no.", "yes!")."""
    said = any_phrase((*vocab.term("YES").words, *vocab.term("NO").words)).pattern
    return re.fullmatch(rf"\W*{said}\W*", text, re.IGNORECASE) is not None


@cache
def _yes_then(vocab: Vocabulary) -> re.Pattern[str]:
    """A yes that starts an answer, with what follows it ("yeah, settler")."""
    return re.compile(rf"\W*{any_phrase(vocab.term('YES').words).pattern}[\s,.!:\-]*", re.I)


@cache
def _request(vocab: Vocabulary) -> re.Pattern[str]:
    """A polite request's first words, after at most two others ("Hi, can I ...")."""
    asks = "|".join(phrase(r) for r in sorted(vocab.requests, key=len, reverse=True)) or "(?!)"
    return re.compile(rf"^\W*(?:[\w']+\W+){{0,2}}?(?P<ask>{asks})\b", re.IGNORECASE)


def request(text: str, vocab: Vocabulary = ENGLISH) -> str | None:
    """``text``, a question that asks for an order politely ("Can I take the tobacco
    one?", "Could I build the wharf?"), as the order it asks for: the asking words and
    the question marks blanked (columns kept); None when it is no such question. Whether
    it names one order (then it is one) is questions.question's to say."""
    found = _request(vocab).match(text)
    if found is None or "?" not in text:
        return None
    asked = text[: found.start("ask")] + " " * len(found["ask"]) + text[found.end("ask") :]
    return asked.replace("?", " ")


def readings(
    text: str,
    kind: DecisionKind | None,
    vocab: Vocabulary = ENGLISH,
    own: frozenset[str] = frozenset(),
    phase: frozenset[Role] = frozenset(),
    *,
    in_list: bool = False,
) -> list[Reading]:
    """The other ways to read an order that does not parse as written, for the decision
    of ``kind`` the player is asked now (None: none): as a bare answer to it ("sugar"
    -> "take sugar"), with a one-letter slip corrected ("suger" -> "sugar"), or both;
    without the writer's own words before it (lead_in; ``own``: his names). ``phase``:
    the roles whose phase a heading above it says it is for (heading_of). ``in_list``:
    the text is a fallback's own list, read as one (no fallback again). A polite
    request ("Can I take the tobacco one?") is read as the order it asks for."""
    text = request(text, vocab) or text
    choice = fallback(text, vocab) if "?" not in text and not in_list else None
    if choice is not None:
        listed = _fallback_readings(choice, kind, vocab, own)
        return [replace(r, phase=phase | r.phase) for r in listed] if phase else listed
    # (the mayor's colonists are read clause by clause: their punctuation is kept)
    clauses = kind is DecisionKind.MAYOR
    base = normalise(text, vocab, clauses)
    # A decision after a hesitation ("Not sure, but trader"): the order is what follows
    # (read on, as "I was thinking captain but no, trader" takes back).
    cut = decided(text, vocab) or 0
    base = " " * cut + base[cut:]
    # The order of a text that gives its reason: the reason is not read (see below).
    why = reasoned(text, vocab)
    if why is not None:
        base = " " * why.start + base[why.start : why.end] + " " * (len(base) - why.end)
    # A word that says the order is what is done in fact ("Coffee then.", "as it is, the
    # sugar"), after what would have been: not read.
    in_fact = actual(base, vocab)
    if in_fact is not None:
        base = " " * in_fact[0] + base[in_fact[0] : in_fact[1]] + " " * (len(base) - in_fact[1])
    base = _LEAD.sub(_blank, base)
    base = _interjection(vocab).sub(_blank, base)
    # (a fallback's word before it, "Otherwise, the factory": check.py reads it so)
    base = _fallback_word(vocab).sub(_blank, base)
    # The writer's own words before the order ("Bob here:", "In case I'm asleep:"), and
    # when it is for, which its kind says ("Later, when someone takes the captain: ship
    # sugar on the 5"): the order is what follows, for the phase they name if any.
    # (read in the text as written: the politeness dropped takes its commas along)
    # (after a reason given before the order: "Got my coffee, so for the trader: ...")
    start = max(cut, why.start if why is not None else 0)
    said = " " * start + text.translate(_APOSTROPHES)[start:]
    lead = lead_in(said, vocab, kind is DecisionKind.ROLE, own) if "?" not in text else None
    phase = phase | (lead.roles if lead is not None else frozenset()) | phase_named(text, vocab)
    if lead is not None:
        # (and a "then" after them: "if it's gone, then mayor")
        base = _interjection(vocab).sub(
            _blank, _LEAD.sub(_blank, " " * lead.end + base[lead.end :])
        )
    # ... and after it ("sell coffee when it gets to me").
    tail = (
        trailing_condition(said, vocab, kind is DecisionKind.ROLE, own) if "?" not in text else None
    )
    if tail is not None:
        phase |= tail.roles
        stop = len(base) if tail.stop is None else tail.stop
        base = base[: tail.end] + " " * (stop - tail.end) + base[stop:]
    decision: DecisionKind | None = None
    if phase:
        kind = _phase_decision(phase)
        # (or the one of its decisions the writer's words name: "at storage I want ...")
        named = named_decisions(said[: lead.end], vocab) if lead is not None else frozenset()
        if len(named) == 1 and named <= _phase_kinds(phase):
            (kind,) = named
            decision = kind
    if unreal(base, vocab):
        return []  # what would have been ("I'd have taken the trader"): no order
    verb = vocab.context_verbs.get(kind) if kind is not None else None

    def answer(t: str) -> str | None:
        # A bare answer gets the verb. An order whose generic verb ("put", "take") does
        # not fit the decision gets the decision's ("put my corn on the 5 ship" while
        # loading); other verbs (remove, sell, ...) are never changed.
        if verb is None or not says_something(t, vocab):
            # Nothing to answer with: politeness alone, or a letter signing the mail
            # ("-- A"), is no order; an article or a number alone names nothing.
            return None
        first = _first_verb(t, vocab)
        if first is None:
            return f"{verb} {t.strip()}"
        word = first.group(0).lower()
        if word in _term_of(verb, vocab).words or word not in _generic_verbs(vocab):
            return None
        if word in vocab.term("TAKE").words and verb in vocab.term("PLACE").words:
            return None  # "take 1 from corn" takes away: never a placement
        return f"{verb} {t[first.end() :].strip()}"

    out: list[Reading] = []
    priced = price_asked(base, vocab)
    if priced is not None:
        out.append(Reading(priced, 0))
        if (a := answer(priced)) is not None:
            out.append(Reading(a, 1))
    if approved_default(base, vocab) or approved_default(normalise(text, vocab), vocab):
        out.append(Reading(vocab.term("DEFAULT").words[0], 0))
    if base.strip() != normalise(text, vocab, clauses).strip():
        out.append(Reading(base.strip(), 0))
    if why is not None and why.why and not unreal(why.why, vocab):
        # A reason that reads as an order too ("captain, but I'll ship corn"): which of
        # the two is the order is the player's to say.
        out.append(Reading(why.why, 0, why=True))
    # A correction: what follows "no", "sorry", "I mean" after punctuation is the order
    # ("Captain? no - trader").
    fix = _correction(vocab).search(text.translate(_APOSTROPHES))
    # (not a yes or a no alone after it, which may turn round any part of what came
    # before: "office, without the colonist, ... actually no"; but the hacienda's
    # question is a yes or a no: "hacienda, since it's free. Actually no.")
    told = base[fix.end() :] if fix else ""
    alone = kind is not DecisionKind.HACIENDA and _yes_or_no_alone(told, vocab)
    if fix and told.strip() and not alone:
        # ("no sale, I'd rather ship" puts no order of the sale instead: a plan)
        out.append(Reading(base[fix.end() :].strip(), 0, instead=True))
        if (a := answer(base[fix.end() :])) is not None:
            out.append(Reading(a, 1, instead=True))
        # (or the part of the order it names again: "Load coffee onto the 7, no, the 5")
        mended = _mended(base[: fix.start("head") + len(fix.group("head"))], base[fix.end() :])
        if mended is not None:
            out.append(Reading(mended, 1, instead=True))
    # A taking-back that starts the order ("No wait, make that indigo", on a line or in
    # a sentence of its own): the order is what follows it.
    back = correction(base, vocab)
    if back:
        rest = _INSTEAD.sub("", base[back:])
        if rest.strip():
            out.append(Reading(rest.strip(), 0))
            if (a := answer(rest)) is not None:
                out.append(Reading(a, 1))
    if (a := answer(base)) is not None:
        out.append(Reading(a, 1))
    if kind is DecisionKind.STORE:
        # (the goods kept as "the indigo ones", "the coffee one")
        ones = _good_ones(vocab).sub(lambda m: m["good"] + _blank_of(m["one"]), base)
        if ones != base:
            out.append(Reading(ones.strip(), 0))
            if (a := answer(ones)) is not None:
                out.append(Reading(a, 1))
    # A heading of order words ("Colonists: 2 on coffee roaster") names the decision:
    # the one asked, or the one its words name ("Storage: sugar in the warehouse",
    # "Shipping - corn on the 5"), whose verb the order then gets, if it has none of
    # another decision.
    label = _LABEL.match(base)
    heads = label[1].lower().split() if label else []
    verbs = {v for w in heads if (v := _heading_verb(w, vocab)) is not None}
    if label and len(verbs) == 1 and all(w in _heading(vocab) | named_words(vocab) for w in heads):
        (own_verb,) = verbs
        rest = base[label.end() :]
        first = _first_verb(rest, vocab)
        if not says_something(rest, vocab):
            pass  # "Storage:" alone heads the lines below it
        elif first is None or first.group(0).lower() in _generic_verbs(vocab):
            out.append(Reading(f"{own_verb} {rest[first.end() if first else 0 :].strip()}", 1))
        elif first.group(0).lower() in _term_of(own_verb, vocab).words:
            out.append(Reading(rest.strip(), 1))
    elif verb is not None and label and all(w in _heading(vocab) for w in heads):
        rest = base[label.end() :]
        out.append(Reading(answer(rest) or rest.strip(), 1))
    for fixed in _corrected(base, vocab):
        out.append(Reading(fixed.strip(), 2))
        if (a := answer(fixed)) is not None:
            out.append(Reading(a, 3))
    if "?" not in text and (best := best_order(base, kind, vocab)) is not None:
        out.append(Reading(best, 1))
    out = out[: 2 * MAX_READINGS]
    found = by_mentions(base, kind, vocab) if "?" not in text else None
    if found is None and "?" not in text and _first_verb(base, vocab) is not None:
        # (with a generic verb, the decision's: "Put my sugar on the boat" while loading)
        verbed = answer(base)
        found = by_mentions(verbed, kind, vocab) if verbed is not None else None
    # (by what it names for the phase's other decisions too: "if I end up settler, use
    # the hacienda, draw one"; two of them that read it are asked back)
    # (when it names a thing: not "if I'm settler, use it")
    thing = any(w.lower() in _things(vocab) for w in _WORD.findall(base))
    again = found is None and "?" not in text and thing
    for other in _phase_kinds(phase) - {kind} if again else ():
        if (also := by_mentions(base, other, vocab)) is not None:
            seen = {r.text for r in out}
            out.extend(Reading(t, MENTIONS_TIER, also.named) for t in also.texts if t not in seen)
    if found is not None:
        seen = {r.text for r in out}
        out.extend(Reading(t, MENTIONS_TIER, found.named) for t in found.texts if t not in seen)
    elif kind in _PASSABLE and said_pass(base, vocab):
        out.append(Reading("pass", MENTIONS_TIER))
    return [replace(r, phase=phase, decision=decision) for r in out] if phase else out


@cache
def _price_asked(vocab: Vocabulary) -> re.Pattern[str]:
    claims = "|".join(phrase(w) for w in sorted(vocab.claims, key=len, reverse=True))
    checks = "|".join(phrase(w) for w in sorted(vocab.checks, key=len, reverse=True))
    numbers = "|".join(phrase(w) for w in vocab.term("NUMWORD").words)
    coins = "|".join(phrase(w) for w in vocab.term("DOUBLOON").words)
    return re.compile(
        rf"[\s,;:(\-]+(?:(?:{claims})\s+)?(?P<n>\d+|{numbers})\s+(?P<coin>{coins})\b"
        rf"[\s,]*(?:(?:{checks})\b[\s,]*)*[\s)!.]*$",
        re.IGNORECASE,
    )


def price_asked(text: str, vocab: Vocabulary = ENGLISH) -> str | None:
    """``text`` with its question on what the order gives ("sell coffee, that's 6
    doubloons right?") as the price said with the order ("sell coffee 6 doubloons"),
    which is checked; None when it asks no such question."""
    if not vocab.claims:
        return None
    found = _price_asked(vocab).search(text)
    if found is None or not text[: found.start()].strip():
        return None
    return f"{text[: found.start()].strip()} {found['n']} {found['coin']}"


@cache
def _approved(vocab: Vocabulary) -> re.Pattern[str]:
    idle = rf"(?:(?:{'|'.join(phrase(f) for f in vocab.fillers)})\s+)*"
    use = "|".join(phrase(w) for w in vocab.term("USE").words)
    said = "|".join(phrase(w) for w in vocab.term("DEFAULT").words)
    fine = "|".join(phrase(w) for w in sorted(vocab.approvals, key=len, reverse=True))
    # ("whatever the default is, fine by me": the default, whatever it turns out to be)
    which = "|".join(phrase(w) for w in vocab.whichevers)
    return re.compile(
        rf"^\s*{idle}(?:(?:(?:{use}|{which})\s+{idle})?(?:{said})(?:\s+is)?[\s,;:\-]+(?:{fine})"
        rf"|(?:{which})\s+{idle}(?:{said})(?:\s+is|\s+says)?)[\s.!]*$",
        re.IGNORECASE,
    )


def approved_default(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` accepts the published default in words of ``approvals`` after
    the word of DEFAULT ("The default is fine", "use the default, that will do")."""
    return bool(vocab.approvals) and _approved(vocab).match(text) is not None


def _phase_kinds(roles: frozenset[Role]) -> frozenset[DecisionKind]:
    """The decisions the phases of ``roles`` ask."""
    return frozenset(k for role in roles for k in role_kinds(role))


def _fallback_readings(
    found: Fallback, kind: DecisionKind | None, vocab: Vocabulary, own: frozenset[str]
) -> list[Reading]:
    """The readings of a fallback: ordered, the list as a preference list ("tobacco, or
    sugar": the first that can be sold), then, when it is none the grammar reads, its
    orders one tier later; not ordered, its orders in one tier (the one that can be done
    is, several are asked back)."""

    def each(text: str, tier: int, choice: int | None = None) -> list[Reading]:
        # (as written too: check.py reads only those for the decision asked, "the
        # hacienda" while building is "build the hacienda")
        read = readings(text, kind, vocab, own, in_list=True)
        said = [text] + [r.text for r in read if r.tier < MENTIONS_TIER]
        of = None if choice is None else (choice, len(found.options))
        return [Reading(t, tier, fallback=found.ordered, choice=of) for t in said]

    out: list[Reading] = []
    if found.ordered:
        out += each(found.listed, 0)
    for i, option in enumerate(found.options):
        # (ordered: one tier each, the first that can be done is; past the last tier
        # before the reading by what it names, the rest share it)
        out += each(option, min(1 + i, MENTIONS_TIER - 1) if found.ordered else 0, i)
    return out


# The decisions where the most valuable kind may be asked for, and the order it makes.
_BEST_OF = (DecisionKind.SELL, DecisionKind.CRAFTSMAN_EXTRA, DecisionKind.STORE)
_BEST_TERMS = ("SELL", "TAKE", "KEEP", "EXTRA", "BARREL", "PLANTATION")


@cache
def _best_words(vocab: Vocabulary) -> tuple[re.Pattern[str], frozenset[str]]:
    """The words asking for the most valuable kind, and the order words allowed beside."""
    return any_phrase(vocab.best), _term_parts(vocab, _BEST_TERMS)


def best_order(text: str, kind: DecisionKind | None, vocab: Vocabulary = ENGLISH) -> str | None:
    """The order of ``text`` when it asks for the most valuable kind and names no good
    ("Sell whichever's worth the most", "the extra barrel, the priciest one"): a sale
    of the goods from the most valuable down (the first the trading house takes), or
    the craftsman's or the storage's default (which keep the most valuable). None: no
    such words, a good named, a negation, a question, or another order word."""
    best, allowed = _best_words(vocab)
    if kind not in _BEST_OF or "?" in text or not best.search(text):
        return None
    rest = best.sub(" ", text)
    named = {m.group(0).lower() for m in _WORD.finditer(rest)} & _naming_words(vocab)
    if negation(vocab).search(text) or not named <= allowed:
        return None  # "not the most valuable", "the most valuable but the coffee"
    if kind is DecisionKind.SELL:
        return "sell " + " or ".join(g.label for g in sorted(Good, reverse=True))
    return vocab.term("DEFAULT").words[0]


def _phase_decision(roles: frozenset[Role]) -> DecisionKind | None:
    """The decision the phase of the one role named asks first (the trader's: a sale);
    None for several."""
    if len(roles) != 1:
        return None
    (role,) = roles
    return ROLE_DECISION.get(role)


__all__ = [
    "MENTIONS_TIER",
    "Heading",
    "Reading",
    "Reasoned",
    "actual",
    "actual_only",
    "approved_default",
    "best_order",
    "changing",
    "clauses",
    "condition",
    "conditioned",
    "correction",
    "decided",
    "detail_said",
    "detail_tail",
    "ends_actual",
    "ends_back",
    "fallback_word",
    "has_verb",
    "heading_of",
    "interjection",
    "lead_in",
    "legality_lead",
    "names_nothing",
    "normalise",
    "phase_named",
    "phrase",
    "price_asked",
    "readings",
    "reason_only",
    "reasoned",
    "refers",
    "remark",
    "reminded",
    "reminder",
    "said_next",
    "said_total",
    "says_actual",
    "says_something",
    "sent_early",
    "slips_of",
    "takes_back_only",
    "trailing_condition",
    "unchecked_condition",
    "unreal",
    "unreal_then",
    "when_blanked",
]
