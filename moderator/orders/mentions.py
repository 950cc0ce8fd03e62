"""The last reading of an order: by what it names.

An order that neither parses as written nor in any other reading (reading.readings) is
read the way a patient human moderator reads it: he picks out the things it names (a
role, a good or a plantation, the quarry, a building, a ship, a number, the hacienda,
the hospice or the university with a yes or a no, the wind rose, a warehouse) and
writes the order they make for the decision asked ("the coffee one please" in the
settler phase: ``take coffee``). Every word must be one the vocabulary table knows; the
table's ``mention_fillers`` are words that name nothing ("one", "cane", "doubloon").

It gives up rather than guess: on a question, on a word it does not know, on a word
that names something outside the decision asked, and on a negation it does not model.
A negation ("no", "not", "don't", "without", "instead of") excludes the one thing it
comes before ("a quarry instead of a plantation": the quarry), or says no to the
hospice, the university, the hacienda or the extra. Things of the kind asked named
several times are asked back (``Mention.named``), never chosen among by what is legal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from ..engine.actions import DecisionKind
from ..engine.components import Building, Good, Role
from .vocabulary import ENGLISH, Vocabulary, not_now

# What a word of the table is, for this reading (the table's term names, grouped).
_CLASSES = {
    "ROLE_NAME": "role",
    "MAYOR": "role",
    "PROSPECTOR": "role",
    "GOOD": "good",
    "PLANTATION": "plantation",
    "QUARRY": "quarry",
    "HACIENDA": "name",
    "HOSPICE": "name",
    "UNIVERSITY": "name",
    "WHARF": "name",
    "WAREHOUSE": "name",
    "BWORD": "name",
    "WINDROSE": "windrose",
    "SHIP": "ship",
    "EXTRA": "extra",
    "BARREL": "barrel",
    "COLONIST": "colonist",
    "NUMWORD": "number",
    "NO": "not",
    "DONT": "not",
    "WITHOUT": "not",
    "PASS": "not",
    "YES": "yes",
    "USE": "use",
    "ON": "on",
    "TO": "on",
    "WITH": "with",
    "ROLE": "verb",
    "TAKE": "verb",
    "SETTLE": "verb",
    "BUILD": "verb",
    "SELL": "verb",
    "KEEP": "verb",
    "PLACE": "verb",
    "STAY": "verb",
    "MOVE": "verb",
    "FROM": "filler",
    "_AND": "joint",
    "_OR": "joint",
    "_THEN": "joint",
    "ART": "filler",
    "FILLER": "filler",
}
# Which class wins when a word belongs to several terms ("man": a colonist or a verb).
_PRIORITY = (
    "role",
    "good",
    "quarry",
    "plantation",
    "windrose",
    "ship",
    "extra",
    "colonist",
    "barrel",
    "name",
    "number",
    "not",
    "yes",
    "use",
    "with",
    "on",
    "verb",
    "joint",
    "filler",
)
_TOKEN = re.compile(r"\d+|[a-z]+(?:['\-][a-z]+)*|[,:;.!()&+]")
_MAX_PHRASE = 3
# Words that end a negation's reach: it excludes what follows it up to here.
_STOPS = frozenset({",", ";", ".", "!", ":", "(", ")"})


@dataclass(frozen=True, slots=True)
class Word:
    """One word (or phrase of the table) of the order: its class and its text."""

    cls: str
    text: str


@cache
def _lexicon(vocab: Vocabulary) -> dict[tuple[str, ...], str]:
    classes: dict[tuple[str, ...], set[str]] = {}
    for term in vocab.terms:
        cls = _CLASSES.get(term.name, "other")
        for w in term.words:
            classes.setdefault(tuple(w.lower().split()), set()).add(cls)
    out = {
        k: min(v, key=lambda c: _PRIORITY.index(c) if c in _PRIORITY else -1)
        for k, v in classes.items()
    }
    for words, cls in (
        *((w, "filler") for w in vocab.mention_fillers),
        *((w, "filler") for g in vocab.greetings for w in g.split()),
        *((w, "not") for w in vocab.exclusions),
        *((w, "but") for w in vocab.contrasts),
        *((w, "size") for w in vocab.ship_sizes),
        *((w, "room") for w in vocab.ship_room),
        *((w, "draw") for w in vocab.draw_words),
        *((w, "verb") for w in vocab.role_verbs if tuple(w.split()) not in out),
    ):
        out[tuple(words.split())] = cls
    # A word that names a role by what it does ("I'd like to trade") keeps its class
    # (a verb) and is looked up in ``role_verbs`` when a role is asked.
    return out


def words_of(text: str, vocab: Vocabulary = ENGLISH) -> list[Word] | None:
    """The words of ``text`` with their classes, the table's phrases joined ("wind
    rose", "instead of"); None when a word is not in the table."""
    tokens = _TOKEN.findall(text.lower())
    if len(tokens) != len(text.split()) and not tokens:
        return None
    if re.sub(r"[\s\w'\-,:;.!()&+]", "", text):
        return None  # a sign the reading does not model ("?", "/", "+", a quote)
    lexicon = _lexicon(vocab)
    out: list[Word] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in _STOPS or tok in ("&", "+"):
            out.append(Word("stop" if tok in _STOPS else "joint", tok))
            i += 1
            continue
        if tok.isdigit():
            out.append(Word("number", tok))
            i += 1
            continue
        for n in range(min(_MAX_PHRASE, len(tokens) - i), 0, -1):
            cls = lexicon.get(tuple(tokens[i : i + n]))
            if cls is not None:
                out.append(Word(cls, " ".join(tokens[i : i + n])))
                i += n
                break
        else:
            return None
    return out


@dataclass(frozen=True, slots=True)
class Mention:
    """A thing the order names: its class, its words, and whether a negation excludes
    it. A run of building words is one mention ("large warehouse", "coffee roaster")."""

    cls: str
    words: tuple[str, ...]
    negated: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.words)


# Classes that name a thing: a negation before one excludes it.
_THINGS = frozenset(
    {
        *("role", "good", "plantation", "quarry", "name", "windrose", "ship", "extra"),
        *("barrel", "colonist", "number", "size", "draw", "yes", "room"),
    }
)
# Words a negation passes over to the thing after them ("don't use the university"),
# and that it says no to when nothing follows ("don't use it").
_THROUGH = frozenset({"use", "verb"})


def _negated(m: Mention) -> Mention:
    return Mention(m.cls, m.words, not m.negated)


def mentions_of(words: Sequence[Word]) -> list[Mention] | None:
    """The things named, in order, with their negations; None when a word names
    something outside orders ("status", "away") or a negation or a "but" excludes
    nothing the reading can tell."""
    if any(w.cls == "other" for w in words):
        return None
    runs: list[list[Word]] = []
    for w in words:
        last = runs[-1][-1].cls if runs else ""
        pair = {w.cls, last}
        if pair <= {"name", "good", "size"} and pair & {"name", "size"} and pair != {"size"}:
            runs[-1].append(w)  # "coffee roaster", "small market"; not "corn sugar"
        else:
            runs.append([w])
    out: list[Mention] = []
    pending = False  # a negation waiting for its thing
    after_but = False
    for run in runs:
        cls = "name" if len(run) > 1 else run[0].cls
        if cls == "but":
            after_but = True
        elif cls == "not":
            pending, after_but = True, False
        elif cls == "joint" and pending:
            return None  # "no and then corn": a no to nothing named
        elif cls == "stop":
            if pending:
                if not out:
                    return None  # "No, ...": says no to what came before the order
                out[-1] = _negated(out[-1])  # "hacienda: no", "quarry no,"
            pending = False
        elif cls in _THINGS:
            if after_but:
                return None  # "..., but the trader": a contrast not modelled
            out.append(Mention(cls, tuple(w.text for w in run), pending))
            pending = False
        elif cls in _THROUGH:
            out.append(Mention(cls, tuple(w.text for w in run)))
    if after_but:
        return None
    if pending:
        if not out:
            return None
        out[-1] = _negated(out[-1])
    return out


# -- the orders the things named make, per decision ---------------------------------


@dataclass(frozen=True, slots=True)
class Proposal:
    """The order texts the things named make for one decision. ``named``: the player
    named several things of the kind asked (ask him which), not one thing that any of
    the texts may be (a bare "plantation": the legal ones are the choice)."""

    texts: tuple[str, ...]
    named: bool = False


def _only(ms: Sequence[Mention], allowed: set[str]) -> bool:
    return all(m.cls in allowed for m in ms)


def _distinct(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _ones(ms: Sequence[Mention], vocab: Vocabulary) -> bool:
    """Every number named is one ("one quarry", "1 barrel of coffee")."""
    return all(_number(m, vocab) == 1 for m in ms if m.cls == "number")


def _number(m: Mention, vocab: Vocabulary) -> int | None:
    word = m.text
    return int(word) if word.isdigit() else vocab.numbers.get(word)


def _proposal(texts: Sequence[str], named: bool = True) -> Proposal | None:
    texts = _distinct(texts)
    if not texts:
        return None
    return Proposal(tuple(texts), named and len(texts) > 1)


def _roles(ms: Sequence[Mention], vocab: Vocabulary) -> Proposal | None:
    # "I'd like to ship": a verb of a role ("ship" is a word of ships too)
    ms = [Mention("verb", m.words, m.negated) if m.cls == "ship" else m for m in ms]
    if not _only(ms, {"role", "verb", "number", "yes"}) or any(
        m.negated for m in ms if m.cls == "yes"
    ):
        return None
    texts: list[str] = []
    for i, m in enumerate(ms):
        if m.cls == "number":
            # "prospector 2": the number of a prospector card, nothing else
            if i == 0 or vocab.roles.get(ms[i - 1].text) is not Role.PROSPECTOR:
                return None
            continue
        if m.cls == "role" and not m.negated:
            after = ms[i + 1] if i + 1 < len(ms) else None
            card = f" {after.text}" if after is not None and after.cls == "number" else ""
            texts.append(f"role {vocab.roles[m.text].label}{card}")
    named = {vocab.roles[m.text] for m in ms if m.cls == "role"}
    verbs = {vocab.role_verbs[m.text] for m in ms if m.cls == "verb" if m.text in vocab.role_verbs}
    if any(m.negated for m in ms if m.cls == "verb") or not verbs <= (named or verbs):
        return None  # "settler to build": two roles, or a verb said no to
    if not named:
        texts = [f"role {r.label}" for r in verbs]
    return _proposal(texts)


def _hacienda(ms: Sequence[Mention], vocab: Vocabulary) -> Proposal | None:
    hacienda = set(vocab.term("HACIENDA").words)
    signs = [m for m in ms if m.cls in ("use", "draw", "yes", "extra", "plantation")]
    signs += [m for m in ms if m.cls == "name" and m.text in hacienda]
    others = [m for m in ms if m.cls not in ("use", "draw", "yes", "extra", "plantation", "verb")]
    if not signs or any(m not in signs for m in others) or not _ones(ms, vocab):
        return None
    if all(not m.negated for m in signs):
        return Proposal(("hacienda",))
    if all(m.negated for m in signs if m.cls != "yes"):
        return Proposal(("no hacienda",))
    return None


def _manned(said: Sequence[Mention], named: bool) -> bool | None:
    """The yes or no to the colonist of the hospice or the university: no when any of
    the words for it is said no to ("no colonist from the hospice", "without the
    university"), yes when the building is named; None: the default."""
    if any(m.negated for m in said):
        return False
    return True if named else None


def _words_in(m: Mention, words: set[str] | frozenset[str]) -> bool:
    return set(m.words) <= words


# The construction hut, which a quarry is taken with ("a quarry with my hut").
_HUT = frozenset(w + s for w in Building.CONSTRUCTION_HUT.label.split() for s in ("", "s"))


def _settle(ms: Sequence[Mention], vocab: Vocabulary) -> Proposal | None:
    allowed = {"good", "plantation", "quarry", "name", "colonist", "yes", "verb", "use", "number"}
    if not _only(ms, allowed) or not _ones(ms, vocab):
        return None
    hospice_words = set(vocab.term("HOSPICE").words)
    manned = [m for m in ms if m.cls == "colonist" or _words_in(m, hospice_words)]
    hospice = _manned(manned, any(m.cls == "name" for m in manned))
    for m in ms:
        if m.cls == "name" and _words_in(m, hospice_words):
            continue
        elif m.cls == "name" and _words_in(m, _HUT):
            if m.negated:
                return None  # "not with my hut": what would it be taken with?
        elif m.cls == "name":
            return None  # a building: not a tile
        elif m.cls == "use" and m.negated:
            return None
    goods = _distinct([vocab.goods[m.text].label for m in ms if m.cls == "good" and not m.negated])
    refused = {vocab.goods[m.text].label for m in ms if m.cls == "good" and m.negated}
    quarry = [m for m in ms if m.cls == "quarry"]
    plantation = [m for m in ms if m.cls == "plantation"]
    tiles = goods + ["quarry" for m in quarry[:1] if not m.negated]
    if any(m.negated for m in plantation):
        if goods:
            return None  # "coffee, not a plantation"
    elif plantation and not tiles:
        # "a plantation": any face-up one that is not refused (the legal ones choose)
        tiles = [g.label for g in Good if g.label not in refused]
        suffix = {None: "", True: ", with hospice", False: ", no hospice"}[hospice]
        return _proposal([f"take {t}{suffix}" for t in tiles], named=False)
    if (any(m.negated for m in quarry) and "quarry" in tiles) or len(quarry) > 1:
        return None
    suffix = {None: "", True: ", with hospice", False: ", no hospice"}[hospice]
    return _proposal([f"take {t}{suffix}" for t in tiles])


def _build(ms: Sequence[Mention], vocab: Vocabulary) -> Proposal | None:
    allowed = {"name", "size", "colonist", "yes", "verb", "use", "number"}
    if not _only(ms, allowed) or not _ones(ms, vocab):
        return None
    university_words = set(vocab.term("UNIVERSITY").words)
    sizes = set(vocab.ship_sizes)
    names = [m for m in ms if m.cls in ("name", "size")]
    buildings = [m for m in names if not _words_in(m, sizes | university_words)]
    if not buildings:
        buildings = [m for m in names if _words_in(m, university_words)][:1]
    flag = [m for m in ms if m.cls == "colonist" or (m in names and m not in buildings)]
    flag = [m for m in flag if m.cls == "colonist" or _words_in(m, university_words)]
    university = _manned(flag, any(m.cls == "name" for m in flag))
    if any(m.cls == "use" and m.negated for m in ms) and not flag:
        return None
    # A size alone ("the big one") tells which of the building named before it.
    for m in names:
        if m.cls == "size" or _words_in(m, sizes):
            if len(buildings) != 1 or buildings[0].negated != m.negated:
                return None
            buildings[0] = Mention("name", (*m.words, *buildings[0].words), m.negated)
    wanted = [m.text for m in buildings if not m.negated]
    suffix = {None: "", True: ", with university", False: ", no university"}[university]
    return _proposal([f"build {w}{suffix}" for w in wanted])


def _extra(ms: Sequence[Mention], vocab: Vocabulary) -> Proposal | None:
    if not _only(ms, {"good", "extra", "barrel", "yes", "verb", "number"}) or not _ones(ms, vocab):
        return None
    goods = _distinct([vocab.goods[m.text].label for m in ms if m.cls == "good" and not m.negated])
    if goods and any(m.negated for m in ms if m.cls in ("extra", "barrel")):
        return None  # "except extra sugar", "no extra barrel of coffee": the good is said no to
    if goods:
        return _proposal([f"extra {g}" for g in goods])
    said = [m for m in ms if m.cls in ("extra", "barrel")]
    if said and all(m.negated for m in said):
        return Proposal(("no extra",))
    return None


def _yes_to_extra(ms: Sequence[Mention]) -> bool:
    """The extra barrel asked for in so many words, no good named ("extra barrel
    please"; not "take the extra one")."""
    said = [m for m in ms if m.cls in ("extra", "barrel", "yes")]
    return (
        {"extra", "barrel"} <= {m.cls for m in said}
        and all(not m.negated for m in said)
        and all(m.cls in ("extra", "barrel", "yes", "verb") for m in ms)
    )


def _sell(ms: Sequence[Mention], vocab: Vocabulary) -> Proposal | None:
    if not _only(ms, {"good", "barrel", "yes", "verb", "number"}) or not _ones(ms, vocab):
        return None
    if any(m.negated for m in ms if m.cls != "good"):
        return None
    goods = _distinct([vocab.goods[m.text].label for m in ms if m.cls == "good" and not m.negated])
    return _proposal([f"sell {g}" for g in goods])


def _load(ms: Sequence[Mention], vocab: Vocabulary) -> Proposal | None:
    allowed = {"good", "ship", "size", "number", "room", "barrel", "name", "verb"}
    if not _only(ms, allowed) or any(m.negated for m in ms):
        return None
    wharf = set(vocab.term("WHARF").words)
    sizes = set(vocab.ship_sizes)
    places: list[str] = []
    count: int | None = None
    for i, m in enumerate(ms):
        after = ms[i + 1].cls if i + 1 < len(ms) else ""
        if m.cls == "number":
            n = _number(m, vocab)
            if after in ("good", "barrel") and count is None:
                count = n
            else:
                places.append(f"{n}")
        elif m.cls == "size" or (m.cls == "name" and _words_in(m, sizes)):
            if len(m.words) > 1:
                return None
            places.append(f"{m.text} ship")
        elif m.cls == "name":
            if not _words_in(m, wharf):
                return None
            places.append("wharf")
    if len(places) > 1:
        return None
    goods = _distinct([vocab.goods[m.text].label for m in ms if m.cls == "good"])
    if not (goods or places or count):
        return None  # "the boat": nothing said of what goes where
    where = f" on {places[0]}" if places else ""
    what = f" {count}" if count is not None else ""
    return _proposal([f"ship{what} {g}{where}" for g in goods] or [f"ship{what}{where}"])


Builder = Callable[[Sequence[Mention], Vocabulary], Proposal | None]
_BUILDERS: dict[DecisionKind, Builder] = {
    DecisionKind.ROLE: _roles,
    DecisionKind.HACIENDA: _hacienda,
    DecisionKind.SETTLE: _settle,
    DecisionKind.BUILD: _build,
    DecisionKind.CRAFTSMAN_EXTRA: _extra,
    DecisionKind.SELL: _sell,
    DecisionKind.LOAD: _load,
}
# The verbs of each decision ("sell the coffee one" is no settler's order). "take" and
# its kin fit any; a role is named by the verbs of its phase too (``role_verbs``).
_VERBS: dict[DecisionKind, tuple[str, ...]] = {
    DecisionKind.ROLE: ("TAKE", "ROLE"),
    DecisionKind.HACIENDA: ("TAKE",),
    DecisionKind.SETTLE: ("TAKE", "SETTLE"),
    DecisionKind.BUILD: ("TAKE", "BUILD"),
    DecisionKind.CRAFTSMAN_EXTRA: ("TAKE",),
    DecisionKind.SELL: ("TAKE", "SELL"),
    DecisionKind.LOAD: ("TAKE", "SHIP"),
    DecisionKind.STORE: ("TAKE", "KEEP", "PLACE", "STAY", "MOVE"),  # "sugar stays in ..."
}


def _verbs_fit(ms: Sequence[Mention], kind: DecisionKind, vocab: Vocabulary) -> bool:
    fit = {w for name in _VERBS[kind] for w in vocab.term(name).words}
    if kind is DecisionKind.ROLE:
        fit |= set(vocab.role_verbs)
    return all(m.text in fit for m in ms if m.cls == "verb")


# The decisions an order may be for, given the one asked: the hacienda's leads to the
# tile; with none asked (an order sent ahead), any of them.
_FOLLOWS = {
    DecisionKind.HACIENDA: (DecisionKind.HACIENDA, DecisionKind.SETTLE),
    DecisionKind.LOAD: (DecisionKind.LOAD, DecisionKind.STORE),  # "wind rose: corn"
}
_ALL = (*_BUILDERS, DecisionKind.STORE)


def _store(words: Sequence[Word], vocab: Vocabulary) -> Proposal | None:
    """The goods kept, each where it is said to go: a place after goods takes the goods
    named since the last place ("tobacco on the wind rose, sugar in the warehouse"), a
    place before them heads them ("large warehouse: indigo, sugar"). None unless a
    place is named, or on any word that is no good, place, number or filler."""
    warehouse = set(vocab.term("WAREHOUSE").words)
    sizes = set(vocab.ship_sizes)
    items: list[list[str]] = []  # [count, good, place]
    open_: list[list[str]] = []  # goods named since the last place, not under a heading
    heading = ""
    placed = False
    count = ""
    for i, w in enumerate(words):
        if w.cls == "number":
            count = w.text if w.text.isdigit() else str(vocab.numbers[w.text])
        elif w.cls == "good":
            item = [count, vocab.goods[w.text].label, heading]
            items.append(item)
            if not heading:
                open_.append(item)
            count = ""
        elif w.cls == "windrose" or (w.cls == "name" and w.text in warehouse):
            place = "on wind rose" if w.cls == "windrose" else "in warehouse"
            placed = True
            rest = [x for x in words[i + 1 :] if x.cls not in ("filler", "on")]
            if open_ and not (rest and rest[0].text == ":"):
                for item in open_:
                    item[2] = place
                open_, heading = [], ""
            else:
                heading = place
        elif w.cls == "size" and w.text in sizes:
            continue  # "the small warehouse"
        elif w.cls == "stop" and w.text in ".;":
            heading = ""
        elif w.cls not in ("filler", "on", "verb", "joint", "stop"):
            return None
        if count and w.cls != "number":
            return None  # a number before anything but a good
    if not placed or not items or count:
        return None
    texts = [" ".join(x for x in item if x) for item in items]
    return Proposal((f"keep {', '.join(texts)}",))


def by_mentions(
    text: str, kind: DecisionKind | None, vocab: Vocabulary = ENGLISH
) -> Proposal | None:
    """The orders ``text`` makes by what it names, for the decision of ``kind`` asked now
    (None: any decision, the order is kept for later); None when it makes none or the
    reading gives up (see the module's doc)."""
    if "?" in text:
        return None  # a question, not an order
    words = words_of(text, vocab)
    if words is None:
        return None
    if kind is not None and not_now(vocab).search(text):
        return None  # "the quarry next time": not the decision asked now
    ms = mentions_of(words)
    if not ms or any(m.negated for m in ms if m.cls == "yes"):
        return None  # "not sure, coffee"
    kinds = _FOLLOWS.get(kind, (kind,)) if kind is not None else _ALL

    def proposal(k: DecisionKind) -> Proposal | None:
        if any(m.negated for m in ms) and k is DecisionKind.STORE:
            return None
        return _store(words, vocab) if k is DecisionKind.STORE else _BUILDERS[k](ms, vocab)

    found = [
        p
        for k in kinds
        if k in _VERBS and _verbs_fit(ms, k, vocab)
        if (p := proposal(k)) is not None
    ]
    if not found and kind is DecisionKind.CRAFTSMAN_EXTRA and _yes_to_extra(ms):
        return Proposal(("default",))  # "the extra barrel please": the published default
    if len(found) == 1:
        return found[0]
    if not found:
        return None
    return Proposal(tuple(t for p in found for t in p.texts), named=True)


__all__ = ["Mention", "Proposal", "Word", "by_mentions", "mentions_of", "words_of"]
