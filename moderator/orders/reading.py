"""Reading orders as people write them: the text made ready for the grammar (politeness
dropped, apostrophes straightened, columns kept), a line cut into its orders, and the
other readings of an order that does not parse as written (a bare answer, a slip)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

from ..engine.actions import DecisionKind
from .mentions import by_mentions
from .vocabulary import ENGLISH, Term, Vocabulary, known, suggestions, verb_words

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


def phrase(words: str) -> str:
    """A phrase of the table as a pattern: its words with any blanks between."""
    return r"\s+".join(map(re.escape, words.split()))


@cache
def _courtesy(vocab: Vocabulary) -> re.Pattern[str]:
    phrases = sorted(vocab.courtesies, key=len, reverse=True)
    alternatives = "|".join(map(phrase, phrases))
    # A phrase takes the comma or "and" before it and the punctuation after it along.
    return re.compile(rf"(?:,\s*|\band\s+)?\b(?:{alternatives})\b[\s,.!]*", re.IGNORECASE)


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group(0))


# A question mark after words asks nothing of the moderator ("what are my options?");
# alone it asks for help.
# "coffee roaster x2": a count written as a multiplication, the same length as "  2".
_TIMES = re.compile(r"(?<=\s)[x\u00d7](\d)\b", re.IGNORECASE)
# "2x coffee roaster": the count before, as "2  coffee roaster".
_TIMES_BEFORE = re.compile(r"\b(\d)[x\u00d7](?=\s)", re.IGNORECASE)
# "Settler," : a comma that ends the order.
_TRAILING = re.compile(r"[,;]+(?=[\s.!]*$)")
_QUESTION = re.compile(r"(?<=\w)\s*\?+")


def normalise(text: str, vocab: Vocabulary = ENGLISH) -> str:
    """``text`` as the grammar reads it, the same length (columns stay true): curly
    apostrophes straightened, politeness ("please", "I'd like to", ", thanks.")
    and a question mark after words blanked out."""
    text = _courtesy(vocab).sub(_blank, text.translate(_APOSTROPHES))
    text = _TIMES.sub(lambda m: " " + m.group(1), text)
    text = _TIMES_BEFORE.sub(lambda m: m.group(1) + " ", text)
    text = _TRAILING.sub(_blank, text)
    return _QUESTION.sub(_blank, text)


# -- one line, several orders ---------------------------------------------------------


@cache
def _clause_break(vocab: Vocabulary) -> re.Pattern[str]:
    verbs = "|".join(sorted(map(re.escape, verb_words(vocab)), key=len, reverse=True))
    fillers = "|".join(sorted(map(re.escape, vocab.fillers), key=len, reverse=True))
    joints = "|".join(map(re.escape, (*vocab.term("_AND").words, *vocab.term("_THEN").words)))
    # A sentence's end (unless the next takes it back: "captain. Actually trader"), or
    # a comma, "and" or "then" before a verb ("..., add 1 to hut") or before the words
    # a new request starts with ("..., and I'd like the coffee plantation").
    # (nor before a contrast: "Not sure. But trader" is one order, the decision)
    takeback = "|".join(
        [rf"{phrase(m)}\b" for m in (*vocab.corrections, *vocab.contrasts)]
        + [rf"{phrase(m)}\s*[,!:\-\u2013\u2014]" for m in vocab.short_corrections]
    )
    leads = "|".join(phrase(lead) for lead in vocab.clause_leads) or r"(?!)"
    return re.compile(
        rf"(?<=[.!])\s+(?=\S)(?!(?:{takeback}))"
        rf"|\s*(?:,|\b(?:{joints})\b)(?:\s|,|\b(?:{joints})\b)*"
        rf"(?=(?:\b(?:{fillers})\b\s*)*\b(?:{verbs})\b|\b(?:{leads})\b)",
        re.IGNORECASE,
    )


def clauses(text: str, vocab: Vocabulary = ENGLISH) -> list[tuple[int, str]]:
    """The orders of one piece of a line, each with its offset: split at a sentence's
    end and where a comma, "and" or "then" comes before a verb."""
    readable = text.translate(_APOSTROPHES)
    out: list[tuple[int, str]] = []
    start = 0
    for m in _clause_break(vocab).finditer(readable):
        if m.start() > start:
            out.append((start, text[start : m.start()]))
        start = m.end()
    if text[start:].strip():
        out.append((start, text[start:]))
    return [(at + len(part) - len(part.lstrip()), part.strip()) for at, part in out if part.strip()]


# -- the readings of an order ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """A way to read an order that does not parse as written. ``tier`` orders them:
    without a leading "and"/"then" (0), a bare answer completed by the decision asked
    (1), a slip corrected (2), both (3), by what it names (4, mentions.py); the first
    tier with a legal reading is taken. ``named``: the readings of the tier are things
    the player named, several of one kind: asked back, legal or not."""

    text: str
    tier: int
    named: bool = False


_LABEL = re.compile(r"^\s*([a-z]+(?:\s+[a-z]+)?)\s*[:\-\u2013\u2014]", re.IGNORECASE)
# "OK, I'll be trader", "Hmm, let me take the trader": a word that starts the reply.
_INTERJECTIONS = r"(?:ok|okay|hmm+|well|so|right|alright|sure|yes|yeah)"
_INTERJECTION = re.compile(rf"^\s*{_INTERJECTIONS}\b[\s,!.:]+(?=\w)", re.IGNORECASE)
_INTERJECTION_ALONE = re.compile(rf"^\s*{_INTERJECTIONS}[\s,!.:]*$", re.IGNORECASE)


@cache
def _correction_start(vocab: Vocabulary) -> re.Pattern[str]:
    """Words that take back the order before them, at the start of a text ("No wait,
    make that indigo", "Hmm, no - harbor", "EDIT: sell coffee"), after any interjection."""
    long_ = "|".join(map(phrase, vocab.corrections))
    short = "|".join(map(phrase, vocab.short_corrections))
    # "no" and "wait" take back only with punctuation or another taking-back after them
    # ("no - harbor", "no wait, indigo"), never "no hospice".
    punct = r"[,!.:\-\u2013\u2014]"
    marker = rf"(?:(?:{long_})\b|(?:{short})\b(?:\s*{punct}|\s+(?=(?:{short}|{long_})\b)))"
    lead = rf"(?:(?:{_INTERJECTIONS}|oh|ah+|um+|uh+|er+)\b[\s,!.:\-\u2013\u2014]*)*"
    return re.compile(rf"^\s*{lead}(?:{marker}[\s,!.:\-\u2013\u2014]*)+", re.IGNORECASE)


# "EDIT: sell coffee instead": a trailing "instead" takes back too.
_INSTEAD = re.compile(r"\binstead\W*$", re.IGNORECASE)


def correction(text: str, vocab: Vocabulary = ENGLISH) -> int | None:
    """Where the order after a taking-back at the start of ``text`` begins ("no wait,
    make that indigo": at "indigo"); None when ``text`` does not start with one. A
    trailing "instead" also takes back ("EDIT: sell coffee instead")."""
    m = _correction_start(vocab).match(text.translate(_APOSTROPHES))
    if m is not None:
        return m.end()
    return 0 if _INSTEAD.search(text) else None


@cache
def _decided(vocab: Vocabulary) -> re.Pattern[str]:
    """A hesitation, then a contrast before the decision ("Not sure, but trader")."""
    waver = "|".join(map(phrase, vocab.undecided)) or r"(?!)"
    but = "|".join(map(phrase, vocab.contrasts)) or r"(?!)"
    return re.compile(
        rf"^.*\b(?:{waver})\b.*?\b(?:{but})\b[\s,;:!.\-\u2013\u2014]*(?=\w)", re.IGNORECASE
    )


def decided(text: str, vocab: Vocabulary = ENGLISH) -> int | None:
    """Where the decision after a hesitation begins ("Not sure, but trader": at
    "trader"; "I was thinking captain but no, trader": at "no"); None when ``text``
    says no hesitation, or none with a decision after it."""
    m = _decided(vocab).match(text.translate(_APOSTROPHES))
    return None if m is None else m.end()


def interjection(text: str) -> bool:
    """Whether ``text`` is only a word that starts a reply ("OK,", "Hmm"): cut off the
    order after it ("OK, I'll take the settler"), it is no order."""
    return _INTERJECTION_ALONE.match(text) is not None


_LEAD = re.compile(r"^[\s,]*(?:(?:and|then|also)\b[\s,]*)+", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z']*", re.IGNORECASE)
MENTIONS_TIER = 4  # the last reading: by what the order names (mentions.py)
MAX_SLIPS = 3  # words corrected in one order at the most; keeps a strange mail cheap
MAX_READINGS = 12


def _one_apart(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter changed, added, dropped, or two
    letters swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


@cache
def slips_of(word: str, vocab: Vocabulary = ENGLISH) -> tuple[str, ...]:
    """The order words ``word`` may be a slip of (one letter off); none for a word the
    table knows, a short word, or a common English word."""
    w = word.lower()
    if len(w) < 4 or w in known(vocab):
        return ()
    return tuple(s for s in suggestions(vocab) if len(s) >= 4 and _one_apart(w, s))


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
    marker = (
        rf"(?:(?:{alternatives(vocab.corrections)})\b[\s,!:\-\u2013\u2014]*"
        rf"|(?:{alternatives(vocab.short_corrections)})\s*[,!:\-\u2013\u2014]+\s*)"
    )
    # The last correction counts; markers may follow one another ("sorry, I mean"), and
    # come after punctuation or a contrast ("captain but no, trader").
    but = "|".join(map(phrase, vocab.contrasts)) or r"(?!)"
    return re.compile(rf"\w.*(?:[?!.,;:\-\u2013\u2014]|\b(?:{but})\b)\s*{marker}+", re.IGNORECASE)


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
def _when(vocab: Vocabulary) -> re.Pattern[str]:
    verbs = "|".join(sorted(map(re.escape, verb_words(vocab)), key=len, reverse=True))
    return re.compile(
        r"^\s*(?:later\b[\s,]*)?(?:when|once|after|during|(?:at|for|by)\s+the\s+end\s+of"
        r"|later|(?:just\s+)?in\s+case)\b"
        rf"(?:[^:,;]*?[:,]|.*(?=\b(?:i'll\s+|i\s+will\s+)?(?:{verbs})\b))\s*",
        re.IGNORECASE,
    )


def has_verb(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether an order starts with a verb ("take", "build"), not a bare word."""
    return _first_verb(normalise(text, vocab), vocab) is not None


@cache
def _naming_words(vocab: Vocabulary) -> frozenset[str]:
    """The order words that name something: all but the fillers, articles and numbers."""
    idle = {*vocab.fillers, *vocab.term("ART").words, *vocab.term("NUMWORD").words}
    return frozenset(w for t in vocab.terms for w in t.words for w in w.split()) - idle


def says_something(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` has a word that names something of an order (not a filler)."""
    return any(m.group(0).lower() in _naming_words(vocab) for m in _WORD.finditer(text))


def _term_of(word: str, vocab: Vocabulary) -> Term:
    return next(t for t in vocab.terms if word in t.words)


def _generic_verbs(vocab: Vocabulary) -> frozenset[str]:
    return frozenset((*vocab.term("PLACE").words, *vocab.term("TAKE").words))


def readings(text: str, kind: DecisionKind | None, vocab: Vocabulary = ENGLISH) -> list[Reading]:
    """The other ways to read an order that does not parse as written, for the decision
    of ``kind`` the player is asked now (None: none): as a bare answer to it ("sugar"
    -> "take sugar"), with a one-letter slip corrected ("suger" -> "sugar"), or both."""
    base = normalise(text, vocab)
    # A decision after a hesitation ("Not sure, but trader"): the order is what follows
    # (read on, as "I was thinking captain but no, trader" takes back).
    base = " " * (decided(text, vocab) or 0) + base[decided(text, vocab) or 0 :]
    base = _LEAD.sub(_blank, base)
    base = _INTERJECTION.sub(_blank, base)
    # When the order is for goes without saying: its kind says it ("Later, when someone
    # takes the captain: ship sugar on the 5"; "At the end of the captain phase keep ...").
    base = _when(vocab).sub(_blank, base)
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
    if base.strip() != normalise(text, vocab).strip():
        out.append(Reading(base.strip(), 0))
    # A correction: what follows "no", "sorry", "I mean" after punctuation is the order
    # ("Captain? no - trader").
    fix = _correction(vocab).search(text.translate(_APOSTROPHES))
    if fix and base[fix.end() :].strip():
        out.append(Reading(base[fix.end() :].strip(), 0))
        if (a := answer(base[fix.end() :])) is not None:
            out.append(Reading(a, 1))
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
    # A heading of order words ("Colonists: 2 on coffee roaster") names the decision.
    label = _LABEL.match(base)
    if verb is not None and label and all(w.lower() in _heading(vocab) for w in label[1].split()):
        rest = base[label.end() :]
        out.append(Reading(answer(rest) or rest.strip(), 1))
    for fixed in _corrected(base, vocab):
        out.append(Reading(fixed.strip(), 2))
        if (a := answer(fixed)) is not None:
            out.append(Reading(a, 3))
    out = out[: 2 * MAX_READINGS]
    found = by_mentions(base, kind, vocab) if "?" not in text else None
    if found is not None:
        seen = {r.text for r in out}
        out.extend(Reading(t, MENTIONS_TIER, found.named) for t in found.texts if t not in seen)
    return out


__all__ = [
    "MENTIONS_TIER",
    "Reading",
    "clauses",
    "correction",
    "decided",
    "ends_back",
    "has_verb",
    "interjection",
    "normalise",
    "phrase",
    "readings",
    "says_something",
    "slips_of",
]
