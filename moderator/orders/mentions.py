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

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from ..engine.actions import DecisionKind
from ..engine.components import BUILDINGS, Building, Good, Role
from .vocabulary import (
    ENGLISH,
    SLASHED,
    Vocabulary,
    known,
    not_now,
    qualifying,
    slip_kind,
    spelled_out,
)

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
    "REMOVE": "remove",
    "FILL": "fill",
    "REST": "all",
    "EVERYTHING": "all",
    "EVERYONE": "all",
    "BOTH": "all",
    "EVERY": "each",
    "SAN_JUAN": "name",
    "_AND": "joint",
    "_OR": "joint",
    "_THEN": "joint",
    "ART": "filler",
    "ANY": "any",
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
    "any",
    "remove",
    "fill",
    "all",
    "each",
    "not",
    "yes",
    "use",
    "with",
    "on",
    "verb",
    "joint",
    "filler",
)
_TOKEN = re.compile(
    rf"\d+|{SLASHED}|[a-z]+(?:['\-][a-z]+)*|[,:;.!()&+]|(?<!\S)-(?!\S)", re.IGNORECASE
)
_MAX_PHRASE = 3
# Words that end a negation's reach: it excludes what follows it up to here.
# (a dash between blanks too: "No wharf this time - indigo on the big ship")
_STOPS = frozenset({",", ";", ".", "!", ":", "(", ")", "-"})


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
        # (the mayor's reading only: to every other one they are words it does not read)
        *((w, "asis") for w in vocab.unchanged),
        *((w, "mark") for w in vocab.field_marks),
        *((w, "manned") for w in vocab.manned),
    ):
        out[tuple(words.split())] = cls
    # A word that names a role by what it does ("I'd like to trade") keeps its class
    # (a verb) and is looked up in ``role_verbs`` when a role is asked.
    return out


# Classes of the words a slip or another form of may stand for (goods, buildings, roles,
# order verbs, ...): never passed over as chat. A slip of a word of the other classes (a
# month, "status") is chat; a filler's needs no reading.
_IDLE = frozenset({"other", "filler", "joint", "stop", "on", "with"})
# A word in which one of theirs stands with this many letters more at the most, before or
# after ("wharfing", "unload", "shipment"), is another form of it: the reading gives up.
_MAX_AFFIX = 4
# The endings of a word's plural: a thing's plural names that thing ("markets").
_PLURALS = ("s", "es")
# The slips read as the word meant (vocabulary.slip_kind): common ones; a letter
# changed only in a long name of a thing ("suger", not "built" for "build").
_SLIPS = frozenset({"doubled", "dropped", "swapped", "moved"})
_CHANGED_MIN = 5
# A word of this many letters at the most that starts a word of the table is that word
# cut short ("tob via wharf"): the reading gives up (a longer one may be a word of its own:
# "mark me down").
_CUT_SHORT = 3
# Endings of a contraction: the word before them is read ("you're" is "you").
_CONTRACTION = re.compile(r"'(?:s|re|ll|d|ve|m)$")


@cache
def _targets(vocab: Vocabulary) -> dict[str, str]:
    """The single words a slip may stand for, with their classes (no abbreviation)."""
    return {
        k[0]: cls
        for k, cls in _lexicon(vocab).items()
        if len(k) == 1
        and cls not in _IDLE
        and len(k[0]) >= 3
        and k[0].isalpha()
        and k[0] not in vocab.abbreviations  # (never slips: "fat" is no "fact")
    }


def _slip(token: str, vocab: Vocabulary) -> Word | None:
    """What ``token``, a word the table does not know, stands for: chat (class "chat")
    when it names nothing and may change nothing, the word meant when it is a clear slip
    of a word of the table ("tobbaco", "sel") or a thing's plural; None when the reading
    gives up (a word that may change the meaning, another form of a table word, a word
    too short)."""
    qualifying_ = qualifying(vocab)
    spelled = spelled_out(token, vocab)  # ("wouldnt": "wouldn't")
    if spelled is None:
        return None  # "stor": the storage, or store
    token = spelled
    base = _CONTRACTION.sub("", token)
    parts = tuple(p for p in re.split(r"[-']", base) if p)
    if token.endswith("n't") or (len(token) <= 2 and token not in known(vocab)):
        return None  # "isn't"; "u", "ur"
    if (base,) in qualifying_ or any((p,) in qualifying_ for p in parts):
        return None  # "you're", "he'll"
    if len(parts) > 1 and any((p,) in _lexicon(vocab) for p in parts):
        return None  # "coffee-ish", "non-coffee"
    if token in known(vocab):
        return Word("chat", token)  # a common word ("sure", "well", "going")
    if not re.search(r"[aeiouy]", token):
        return None  # "whf", "nxt": maybe a short form of a word of the table, not chat
    targets = _targets(vocab)
    slips = {w: kind for w in targets if len(w) >= 4 and (kind := slip_kind(token, w)) is not None}
    common = {w for w, kind in slips.items() if kind in _SLIPS}
    if len(common) == 1:  # (a letter added to another word is no rival: "prospectr")
        (meant,) = common
        rivals = {w for w, kind in slips.items() if kind != "added"}
        return Word(targets[meant], meant) if rivals == common else None
    if len(token) <= _CUT_SHORT and any(
        len(w) > len(token) and w.startswith(token) for w in targets
    ):
        return None  # "tob", "cof": a word of the table cut short, maybe another thing
    for w, cls in targets.items():
        extra = len(token) - len(w)
        if 0 < extra <= _MAX_AFFIX and (token.startswith(w) or token.endswith(w)):
            if cls in _THINGS and token.startswith(w) and token[len(w) :] in _PLURALS:
                return Word(cls, w)  # "wharfs": the thing
            return None  # "wharfing", "unload", "shipment", "builded"
    if len(slips) == 1:
        ((meant, kind),) = slips.items()
        thing = targets[meant] in _THINGS
        if kind == "changed" and thing and len(token) >= _CHANGED_MIN:
            return Word(targets[meant], meant)  # "suger"
    if slips:
        return None  # "built", "kept", "shipt": a word of the table, changed
    return Word("chat", token)


def words_of(text: str, vocab: Vocabulary = ENGLISH, chat: bool = False) -> list[Word] | None:
    """The words of ``text`` with their classes, the table's phrases joined ("wind
    rose", "instead of"); None when a word is not in the table. ``chat``: words the table
    does not know are passed over when they may change nothing (``qualifiers`` in the
    vocabulary; ``_slip``), and read as the word meant when clear slips; a word written
    with a capital after the start of its sentence may be a name, and gives up."""
    cased = _TOKEN.findall(text)
    tokens = [t.lower() for t in cased]
    if len(tokens) != len(text.split()) and not tokens:
        return None
    if re.sub(r"[\s\w'\-,:;.!()&+]", "", re.sub(SLASHED, "", text, flags=re.IGNORECASE)):
        return None  # a sign the reading does not model ("?", "/", "+", a quote)
    lexicon = _lexicon(vocab)
    qualifying_ = qualifying(vocab)
    longest = max(map(len, qualifying_))
    out: list[Word] = []
    chatted = False
    qualified = False  # a word of the table that may change what is meant ("or", "all")
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
        size, cls = 0, None
        for n in range(min(_MAX_PHRASE, len(tokens) - i), 0, -1):
            if (found := lexicon.get(tuple(tokens[i : i + n]))) is not None:
                size, cls = n, found
                break
        if chat:
            said = next(
                (
                    n
                    for n in range(min(longest, len(tokens) - i), 0, -1)
                    if tuple(tokens[i : i + n]) in qualifying_
                ),
                0,
            )
            if said > size:
                return None  # "would have", "don't mind", "either", "i mean"
            if said and said == size and tuple(tokens[i : i + said]) in _qualifiers(vocab):
                qualified = True
        if cls is not None:
            # (an abbreviation as the word it stands for: "lg wh" is "large warehouse")
            spelled = (spelled_out(t, vocab) or t for t in tokens[i : i + size])
            out.append(Word(cls, " ".join(spelled)))
            i += size
            continue
        if not chat:
            return None
        read = _slip(tok, vocab)
        if read is None:
            return None
        if read.cls == "chat" and cased[i][0].isupper() and i > 0 and tokens[i - 1] not in ".!":
            return None  # "Hi Mark,", "like Ed said": a name, maybe
        out.append(read)
        chatted = True
        i += 1
    if chatted and qualified:
        return None  # "sugar, or whatever you think": "or" is read only in a plain order
    return out


@cache
def _qualifiers(vocab: Vocabulary) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(p.split()) for p in vocab.qualifiers)


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
        *("barrel", "colonist", "number", "size", "draw", "yes", "room", "any"),
        *("remove", "fill", "all", "each"),  # (the mayor's: no other decision reads them)
    }
)
# What an extra may be of as one thing with it ("no extra colonist", "a free colonist").
_EXTRA_OF = frozenset({"colonist"})
# Classes of words no reading by mentions reads (the mayor's reads "asis" and "mark"
# words before it looks at the mentions, _mayor_words, and "manned" words apart).
_UNREAD = frozenset({"other", "asis", "mark", "manned"})
# Words a negation passes over to the thing after them ("don't use the university"),
# and that it says no to when nothing follows ("don't use it").
_THROUGH = frozenset({"use", "verb"})


def _negated(m: Mention) -> Mention:
    return Mention(m.cls, m.words, True)


def _acts_on(words: Sequence[Word], vocab: Vocabulary = ENGLISH) -> bool:
    """Whether chat comes before a thing in the same clause with no ``chat_joints`` and
    no order verb between ("bin the corn", "hang onto my sugar", "a lovely coffee"): it
    may be a verb or a word said of it."""
    joints = set(vocab.chat_joints)
    after_chat = False
    for w in words:
        if w.cls in _THINGS and after_chat:
            return True
        if w.cls in ("stop", "verb") or w.text in joints:
            after_chat = False  # (a joint may be chat itself: "my extra barrel is sugar")
        elif w.cls == "chat":
            after_chat = True
    return False


def mentions_of(words: Sequence[Word], vocab: Vocabulary = ENGLISH) -> list[Mention] | None:
    """The things named, in order, with their negations; None when a word names
    something outside orders ("status", "away") or a negation or a "but" excludes
    nothing the reading can tell."""
    if any(w.cls in _UNREAD for w in words) or _acts_on(words, vocab):
        return None
    words = [w for w in words if w.cls != "chat"]
    hacienda = set(vocab.term("HACIENDA").words)
    runs: list[tuple[str, list[Word]]] = []
    for w in words:
        last = runs[-1][0] if runs else ""
        pair = {w.cls, last}
        if pair <= {"name", "good", "size"} and pair & {"name", "size"} and pair != {"size"}:
            runs[-1] = ("name", [*runs[-1][1], w])  # "coffee roaster"; not "corn sugar"
        elif last == "extra" and w.cls in _EXTRA_OF:
            runs[-1] = (w.cls, [*runs[-1][1], w])  # "extra colonist", "bonus colonist"
        elif last == "name" and (
            w.cls == "draw" or (w.cls == "plantation" and {x.text for x in runs[-1][1]} <= hacienda)
        ):
            runs[-1] = ("draw", [*runs[-1][1], w])  # "the hacienda draw", "hacienda tile"
        elif last in ("draw", "extra") and w.cls == "plantation":
            # "the random tile", "face down plantation"; "the extra plantation" (the
            # hacienda's: the extra of a tile taken, its colonist, is "extra colonist")
            runs[-1] = ("draw", [*runs[-1][1], w])
        else:
            runs.append((w.cls, [w]))
    out: list[Mention] = []
    pending = False  # a negation waiting for its thing
    after_but = False
    for at, (cls, run) in enumerate(runs):
        if cls == "but":
            after_but = True
        elif cls == "not":
            pending, after_but = True, False
        elif cls == "joint" and pending:
            return None  # "no and then corn": a no to nothing named
        elif cls == "stop":
            if pending and not out and _says_no_next(runs[at + 1 :]):
                pending = False  # "nah, don't bother with it": the no said again
            elif pending:
                if not out or out[-1].negated:
                    return None  # "No, ...": a no to what came before; "no X, no": to a no
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
        if not out or out[-1].negated:
            return None  # "no extra, or not": a no to a no
        out[-1] = _negated(out[-1])
    return out


def _says_no_next(runs: Sequence[tuple[str, list[Word]]]) -> bool:
    """Whether the first word after a stop that reads (no filler, stop or "on") is a
    negation: a no before it says the same ("Nah, don't bother with the hacienda")."""
    said = [cls for cls, _ in runs if cls not in ("filler", "stop", "on", "joint")]
    return bool(said) and said[0] == "not"


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
    """A load: the goods, their count and the ship or the wharf ("Use my wharf to ship
    the corn", "sugar on any boat": the ship the default chooses). A no to the wharf
    alone is read ("No wharf this time - indigo on the big ship": a cargo ship, which a
    load without the wharf is anyway); any other negation gives up."""
    allowed = {"good", "ship", "size", "number", "room", "barrel", "name", "verb", "use", "any"}
    wharf = set(vocab.term("WHARF").words)
    if any(m.negated and not (m.cls == "name" and _words_in(m, wharf)) for m in ms):
        return None
    said_no = any(m.negated for m in ms)
    ms = [m for m in ms if not m.negated]
    if not _only(ms, allowed) or (said_no and any(_words_in(m, wharf) for m in ms)):
        return None  # (a no to the wharf and the wharf: which?)
    ships = [*(m.cls == "ship" for m in ms[1:]), False][: len(ms)]
    if any(m.cls == "any" and not ship for m, ship in zip(ms, ships, strict=True)):
        return None  # "any" names a ship only: "any ship", not "any sugar"
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
    DecisionKind.MAYOR: ("TAKE", "PLACE", "MOVE", "STAY", "KEEP"),  # "keep the extra in SJ"
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
    tail: list[list[str]] = []  # goods named since the last comma
    heading = ""
    placed = False
    count = ""
    for i, w in enumerate(words):
        if w.cls == "number":
            count = w.text if w.text.isdigit() else str(vocab.numbers[w.text])
        elif w.cls == "good":
            item = [count, vocab.goods[w.text].label, heading]
            items.append(item)
            tail.append(item)
            if not heading:
                open_.append(item)
            count = ""
        elif w.cls == "windrose" or (w.cls == "name" and w.text in warehouse):
            place = "on wind rose" if w.cls == "windrose" else "in warehouse"
            placed = True
            rest = [x for x in words[i + 1 :] if x.cls not in ("filler", "on")]
            heads = bool(rest and rest[0].text == ":")
            # (goods after a comma under a heading take a place said after them: "the
            # warehouse gets indigo and sugar, tobacco on the wind rose")
            after = open_ or (tail if heading and not heads else [])
            if after and not heads:
                for item in after:
                    item[2] = place
                open_, heading = [], ""
            else:
                heading = place
            tail = []
        elif w.cls == "size" and w.text in sizes:
            continue  # "the small warehouse"
        elif w.cls == "stop":
            tail = []
            if w.text in ".;":
                heading = ""
        elif w.cls not in ("filler", "on", "verb", "joint", "stop"):
            return None  # chat too: "sugar in the warehouse, bin the corn"
        if count and w.cls != "number":
            return None  # a number before anything but a good
    if not placed or not items or count:
        return None
    texts = [" ".join(x for x in item if x) for item in items]
    return Proposal((f"keep {', '.join(texts)}",))


# -- the mayor's colonists -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tok:
    """A word of a colonist order as the mayor's reading sees it: ``kind`` one of
    number, place, colonist, extra, not, yes, from, on, gets, take, put, remove, fill,
    all, each, and; ``text`` the place's or the number's words."""

    kind: str
    text: str = ""


# The classes of words the mayor's reading keeps as they are.
_READ = frozenset({"colonist", "extra", "not", "yes", "remove", "fill", "all", "each", "on"})


@cache
def _verb_words(vocab: Vocabulary) -> dict[str, str]:
    """What each verb word does in a colonist order: ``gets`` (after a place: it gets
    colonists), ``take`` (the extra colonist, or off a place), ``put`` (onto one)."""
    out = {w: "put" for name in ("PLACE", "MOVE") for w in vocab.term(name).words}
    out.update({w: "stay" for w in (*vocab.term("STAY").words, *vocab.term("KEEP").words)})
    out.update({w: "take" for w in vocab.term("TAKE").words})
    out.update({w: "gets" for w in vocab.term("TAKE").words if w.startswith("get")})
    return out


def _one_building(words: Sequence[str], vocab: Vocabulary) -> Building | None:
    """The first building whose name the words are of, in its order ("coffee roaster",
    "small market", "indigo plant"; not "roaster uni"); None when they are of none."""
    said = [vocab.spellings.get(w, w) for w in words]
    said = [w for s in said for w in s.split()]
    for b in Building:
        label = b.label.split()
        at = 0
        for w in said:
            found = [i for i, x in enumerate(label[at:], at) if x == w or x + "s" == w]
            if not found:
                break
            at = found[0] + 1
        else:
            return b
    return None


def _one_circle(place: str, vocab: Vocabulary) -> bool:
    """Whether the place named holds one colonist: a plantation, a quarry, a building of
    one circle (the university; not "the sugar", which may be the sugar mill's name cut
    short, nor the coffee roaster)."""
    said = place.split()
    kinds = {*vocab.term("PLANTATION").words, *vocab.term("QUARRY").words}
    if said[-1] in kinds:
        return True  # "my indigo plantation", "the quarry"
    if said[-1] in vocab.goods:
        return len(said) == 1  # "indigo" (a plantation, as the orders read it)
    building = _one_building(said, vocab)
    return building is not None and BUILDINGS[building].circles == 1


def _mayor_tokens(words: Sequence[Word], vocab: Vocabulary) -> list[list[_Tok]] | None:
    """The words as the mayor's reading sees them, in clauses (cut at punctuation and
    "then"); None on a word it does not read (a verb of another decision, a "but")."""
    verbs = _verb_words(vocab)
    froms = set(vocab.term("FROM").words)
    clauses: list[list[_Tok]] = [[]]
    place: list[str] = []  # the words of a place being read ("coffee roaster")
    kinds: list[str] = []
    chat: set[int] = set()  # the clauses with words the table does not know

    def end_place() -> None:
        if place:
            if "size" in kinds and "name" not in kinds:
                raise ValueError("a size alone names no place")
            said = [t.kind for t in clauses[-1] if t.kind != "colonist"][-2:]
            if kinds == ["plantation"] and said == ["place", "from"]:
                worker = next(t for t in reversed(clauses[-1]) if t.kind == "place")
                if worker.text in vocab.goods:
                    place.clear()  # "my corn guy off the field": the corn field
                    kinds.clear()
                    return
            clauses[-1].append(_Tok("place", " ".join(place)))
            place.clear()
            kinds.clear()

    try:
        for w in words:
            if w.cls in ("name", "good", "size", "plantation", "quarry"):
                # "coffee roaster", "small market", "sugar plantation", "small indigo
                # plant"; not "corn sugar", "quarry corn"
                last = kinds[-1] if kinds else ""
                joins = (
                    (w.cls in ("name", "size") and last in ("name", "size", "good"))
                    or (w.cls == "plantation" and last == "good")
                    or (w.cls == "good" and last == "size")
                ) and (w.cls == "plantation" or _one_building((*place, w.text), vocab) is not None)
                if not joins:
                    end_place()
                place.append(w.text)
                kinds.append(w.cls)
                continue
            end_place()
            if w.cls == "chat":
                chat.add(len(clauses) - 1)  # ("... working finally"; mentions_of: not before)
            elif w.cls == "stop" or (w.cls == "joint" and w.text in vocab.term("_THEN").words):
                clauses.append([])
            elif w.cls == "joint" and w.text in vocab.term("_OR").words:
                return None  # a choice: asked by the grammar's readings, never guessed
            elif w.cls == "joint":
                if clauses[-1]:  # (not "And sure, ...": a sentence that goes on)
                    clauses[-1].append(_Tok("and"))
            elif w.cls == "manned":
                # "my indigo plantation working", "the university manned": one on it
                clause = clauses[-1]
                if (
                    not clause
                    or clause[-1].kind != "place"
                    or not _one_circle(clause[-1].text, vocab)
                ):
                    return None  # ("the roaster manned": by how many?)
                where = clause.pop()
                while clause and clause[-1].kind in ("take", "put", "gets"):
                    clause.pop()  # ("I want my indigo plantation working")
                clause += [_Tok("number", "1"), _Tok("on"), where]
            elif w.cls == "number" or w.text == "one":
                n = _number(Mention("number", (w.text,)), vocab)
                clauses[-1].append(_Tok("number", str(1 if n is None else n)))
            elif w.cls in _READ or w.cls == "with":
                clauses[-1].append(_Tok(w.cls, w.text))
            elif w.cls == "verb" and w.text in verbs:
                clauses[-1].append(_Tok(verbs[w.text], w.text))
            elif w.cls == "filler" and w.text in froms:
                clauses[-1].append(_Tok("from", w.text))
            elif w.cls != "filler":
                return None
        end_place()
    except ValueError:
        return None
    if any(not clauses[i] for i in chat):
        return None  # chat alone in its clause: a heading ("Zyx: 2 on the roaster"), a remark
    out = [_with_count(c) for c in clauses if c]
    return None if any(c is None for c in out) else [c for c in out if c is not None]


def _with_count(clause: list[_Tok]) -> list[_Tok] | None:
    """The clause with a place manned "with" a count read as the count on it ("staff the
    roaster with two colonists", "fill the university with one"); None when "with" stands
    elsewhere."""
    out: list[_Tok] = []
    i = 0
    while i < len(clause):
        t = clause[i]
        if t.kind != "with":
            out.append(t)
            i += 1
            continue
        count = clause[i + 1 : i + 2]
        if not out or out[-1].kind != "place" or [c.kind for c in count] != ["number"]:
            return None
        where = out.pop()
        if out and out[-1].kind in ("put", "fill"):
            out.pop()  # ("fill the roaster with two")
        out += [count[0], _Tok("on"), where]
        i += 2
        while i < len(clause) and clause[i].kind == "colonist":
            i += 1  # ("with two colonists")
    return out


# Classes that name what a colonist order is about: a clause with one says more than
# that the board stays as it is.
_NAMING = frozenset({"name", "good", "plantation", "quarry", "number", "extra", "colonist"})


def _unchanged(part: Sequence[Word], vocab: Vocabulary) -> bool:
    """Whether the words say only that the rest of the board stays as it is ("everything
    else stays where it is", "don't touch anything else", "same as now"): a word of the
    table's ``unchanged`` or AS_IS's, no place, count or colonist, and a no only before
    a word of ``unchanged`` ("touch")."""
    as_is = {*vocab.term("AS_IS").words, *vocab.term("LEAVE").words}
    everything = {*vocab.term("EVERYTHING").words, "everything else"}
    said = [w for w in part if w.cls != "filler" and w.text not in everything]
    if not any(w.cls == "asis" or w.text in as_is for w in said):
        return False
    if any(w.cls in _NAMING or w.cls == "all" for w in said):
        return False  # "the rest stay where they are": the colonists not placed
    nos = [i for i, w in enumerate(said) if w.cls == "not"]
    if any(i + 1 >= len(said) or said[i + 1].cls != "asis" for i in nos):
        return False
    stay = set(vocab.term("STAY").words)
    return all(w.cls in ("asis", "not") or w.text in as_is or w.text in stay for w in said)


# The terms whose words a clause that says the board is full may have besides its own
# (says_full): words that name no place, count or answer ("all my buildings are full").
_FULL_WITH = ("FILLER", "ART", "COLONIST", "EVERYTHING", "EVERYONE", "PLANTATION", "BOARD", "BUILD")


@cache
def _full(vocab: Vocabulary) -> tuple[re.Pattern[str], frozenset[str]]:
    """The words of ``full`` (longest first), and the table's words a clause of them may
    have besides."""
    phrases = sorted(vocab.full, key=len, reverse=True)
    pattern = re.compile(
        r"\b(?:" + "|".join(r"\s+".join(map(re.escape, p.split())) for p in phrases) + r")\b",
        re.IGNORECASE,
    )
    allowed = {w for name in _FULL_WITH for t in vocab.term(name).words for w in t.split()}
    return pattern, frozenset(allowed | set(vocab.first_person))


def says_full(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` only says the writer's board has no room ("all my stuff is full",
    "there's no room for him anyway"): a word of the table's ``full``, and besides it
    only words that name nothing (``_FULL_WITH``'s, the writer's, words the table does
    not know and that may change nothing). A remark the rules check: it orders nothing."""
    if not vocab.full or "?" in text:
        return False
    pattern, allowed = _full(vocab)
    if pattern.search(text) is None:
        return False
    table = {w for t in vocab.terms for w in t.words if " " not in w}
    qualifying_ = qualifying(vocab)
    for tok in _TOKEN.findall(pattern.sub(" ", text.lower())):
        if tok in _STOPS or tok in allowed:
            continue
        if (
            tok in table
            or tok.isdigit()
            or (tok,) in qualifying_
            or (_CONTRACTION.sub("", tok),) in qualifying_
        ):
            return False
    return True


def _mayor_text(text: str, vocab: Vocabulary) -> str:
    """``text`` as the mayor's reading reads it, the same length: its clauses that only
    say the board is full (says_full) blanked out, the punctuation kept. (Politeness is
    dropped before, by reading.normalise with its clauses kept.)"""
    return re.sub(r"[^,;:.!]+", lambda m: " " * len(m[0]) if says_full(m[0], vocab) else m[0], text)


def ends_phrase(before: str, said: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether the words ``said`` end a phrase of the table with the words ``before``
    them ("as" and "it is": "stays as it is")."""
    lexicon = _lexicon(vocab)
    words = tuple(said.lower().split())
    ahead = tuple(t.lower() for t in _TOKEN.findall(before))
    return any(
        (*ahead[-n:], *words) in lexicon for n in range(1, min(len(ahead), _MAX_PHRASE - 1) + 1)
    )


def _mayor_words(words: Sequence[Word], vocab: Vocabulary) -> list[Word] | None:
    """The words of a colonist order without the clauses that keep the rest of the board
    as it is, and without the words that pick a plantation of a kind ("my second sugar
    field": a colonist on sugar) or count a colonist ("the third one", "the third guy":
    one); None when such a word stands elsewhere ("empty the quarry")."""
    parts: list[list[Word]] = [[]]
    for w in words:
        if w.cls in ("stop", "joint"):
            parts.append([w])
        else:
            parts[-1].append(w)
    out: list[Word] = []
    for part in parts:
        body = part[1:] if part and part[0].cls in ("stop", "joint") else part
        if body and _unchanged(body, vocab):
            if part[0].cls == "stop":
                out.append(part[0])
            continue
        out += part
    kept: list[Word] = []
    for i, w in enumerate(out):
        if w.cls == "mark" and [x.text for x in out[i + 1 : i + 2]] == ["one"]:
            continue  # "the third one on the university": one colonist
        if w.cls == "mark" and [x.cls for x in out[i + 1 : i + 2]] == ["colonist"]:
            kept.append(Word("number", "one"))  # "the third guy to the sugar mill"
            continue
        if w.cls == "mark":
            before = out[i - 1] if i else None
            after = out[i + 1 : i + 3]
            if (
                before is None
                or before.cls != "filler"
                or not after
                or not (
                    after[0].cls == "quarry" or [x.cls for x in after] == ["good", "plantation"]
                )
            ):
                return None  # "empty the quarry", "the second sugar": not a field picked
            continue
        if w.cls == "asis":
            return None
        kept.append(w)
    while kept and kept[0].cls in ("stop", "joint"):
        kept.pop(0)
    return kept


def _from_san_juan(clause: Sequence[_Tok], vocab: Vocabulary) -> list[_Tok]:
    """The clause with San Juan named for the colonists in it read as colonists ("the two
    in San Juan go to the tobacco storage", "my San Juan guys both to the sugar mill"):
    before another place, and not after "stay"; and with the colonists before "both" or
    "everyone" dropped ("the new colonists both go to ...")."""
    san_juan = set(vocab.term("SAN_JUAN").words)
    out: list[_Tok] = []
    for i, t in enumerate(clause):
        later = [x for x in clause[i + 1 :] if x.kind == "place" and x.text not in san_juan]
        stayed = any(x.kind == "stay" for x in clause[:i])
        if t.kind == "place" and t.text in san_juan and later and not stayed:
            while out and out[-1].kind in ("on", "from"):
                out.pop()
            t = _Tok("colonist")
        out.append(t)
    while len(out) > 1 and out[0].kind == "colonist" and out[1].kind in ("colonist", "all"):
        out.pop(0)  # "the new colonists both ...", "my San Juan guys both ..."
    if len(out) > 1 and [t.kind for t in out[:2]] == ["number", "all"] and out[1].text == "both":
        if out[0].text != "2":
            return [_Tok("number", "0")]  # "three both": no count of one place
        out.pop(1)  # "the other two both to the roaster"
    rest = set(vocab.term("REST").words)
    pair = out[:2] if len(out) > 1 else []
    if {t.kind for t in pair} == {"number", "all"} and any(t.text in rest for t in pair):
        out.pop(0 if out[0].kind == "all" else 1)  # "the two others", "the last one"
    return out


def _one_more(clause: list[_Tok], vocab: Vocabulary) -> list[_Tok]:
    """The clause with a word of the extra colonist that is a count ("one more") read as
    that count when it is put somewhere and nothing is said of taking it ("one more on
    the tobacco storage": another colonist, the extra or not)."""
    kinds = {t.kind for t in clause}
    if kinds & {"not", "yes", "take"} or "on" not in kinds:
        return clause
    out: list[_Tok] = []
    for t in clause:
        count = t.text.split()[0] if t.kind == "extra" else ""
        if count in vocab.numbers:
            t = _Tok("number", str(vocab.numbers[count]))
        out.append(t)
    return out


def _extra_apart(clause: list[_Tok]) -> list[list[_Tok]]:
    """A clause on the extra colonist and, after "and", one that does not name it, as two
    ("I'll take the extra one and put it on the university", "the extra guy in the sugar
    mill and two in the roaster"; not "the two new ones and the extra")."""
    kinds = [t.kind for t in clause]
    for i, kind in enumerate(kinds):
        if kind == "and" and "extra" in kinds[:i] and "extra" not in kinds[i:] and kinds[i + 1 :]:
            return [clause[:i], clause[i + 1 :]]
    return [clause]


def _group(clause: Sequence[_Tok], vocab: Vocabulary) -> int | None:
    """The count of a clause that only names the colonists being placed ("the three new
    ones:", "both my new guys:", "my two in San Juan:"); 0 when it names them without a
    count; None when the clause says more."""
    san_juan = set(vocab.term("SAN_JUAN").words)
    clause = [t for t in clause if not (t.kind == "place" and t.text in san_juan)]
    if len(clause) > 1 and clause[-1].kind == "on":
        clause = clause[:-1]  # "the two in San Juan"
        if not any(t.kind == "number" for t in clause):
            return None
        clause = [*clause, _Tok("colonist")]
    kinds = [t.kind for t in clause]
    if "colonist" not in kinds or not set(kinds) <= {"number", "colonist", "all"}:
        return None
    counts = [int(t.text) for t in clause if t.kind == "number"]
    counts += [2 for t in clause if t.kind == "all" and t.text == "both"]
    if any(t.kind == "all" and t.text != "both" for t in clause) or len(counts) > 1:
        return None
    return counts[0] if counts else 0


def _and_extra(clause: list[_Tok]) -> tuple[list[_Tok], bool]:
    """The clause without the extra colonist named after "and" at its end ("the two new
    ones and the extra", "both plus the bonus guy"), and whether it was."""
    kinds = [t.kind for t in clause]
    while (
        kinds
        and "extra" in kinds
        and (
            kinds[-1] == "colonist"
            or (kinds[-1] == "number" and clause[len(kinds) - 1].text == "1")
        )
    ):
        kinds.pop()  # ("and the extra one", "and the extra colonist")
    if len(kinds) > 2 and kinds[-2:] == ["and", "extra"]:
        return clause[: len(kinds) - 2], True
    return clause, False


def _total(clause: Sequence[_Tok]) -> int | None:
    """The count of a clause after the places that only counts the colonists placed
    ("that's all three", "3 in total"): they must add up to it."""
    kinds = [t.kind for t in clause]
    if kinds.count("number") != 1 or not set(kinds) <= {"number", "colonist", "on"}:
        return None
    return next(int(t.text) for t in clause if t.kind == "number")


def _stays(clause: Sequence[_Tok], vocab: Vocabulary) -> bool:
    """Whether the clause keeps the colonists not placed in San Juan ("the other one
    stays in San Juan", "the rest stay in San Juan")."""
    san_juan = set(vocab.term("SAN_JUAN").words)
    kinds = [t.kind for t in clause]
    return (
        set(kinds) <= {"number", "colonist", "all", "stay", "on", "place"}
        and kinds.count("place") == 1
        and all(t.text in san_juan for t in clause if t.kind == "place")
        and kinds.index("stay") < kinds.index("place")
    )


def _extra_stays(clause: Sequence[_Tok], vocab: Vocabulary) -> bool:
    """Whether the clause keeps the extra colonist in San Juan, taken and not placed
    ("the extra colonist can stay in San Juan", "keep the extra one in San Juan")."""
    san_juan = set(vocab.term("SAN_JUAN").words)
    kinds = [t.kind for t in clause]
    allowed = {"extra", "colonist", "number", "stay", "on", "place"}
    return (
        "stay" in kinds
        and set(kinds) <= allowed
        and all(t.text in san_juan for t in clause if t.kind == "place")
        and all(t.text == "1" for t in clause if t.kind == "number")
        # ("the extra one stays", "keep the extra one in San Juan")
        and [*kinds, "on"].index("on") > max(kinds.index("extra"), kinds.index("stay"))
    )


def _extra_placed(clause: Sequence[_Tok]) -> str | None:
    """The place the extra colonist is put on, taken ("the extra one on the uni", "put
    the bonus guy on the university"); None: the clause says something else."""
    kinds = [t.kind for t in clause]
    if kinds[:2] == ["place", "gets"] and set(kinds[2:]) <= {"extra", "colonist", "number"}:
        kinds = [*kinds[2:], "on", "place"]  # "the hacienda gets the extra guy"
        clause = [*clause[2:], _Tok("on"), clause[0]]
    if kinds.count("place") != 1 or "on" not in kinds or kinds.index("on") > kinds.index("place"):
        return None
    if kinds.index("extra") > kinds.index("on") or not set(kinds) <= {
        *("extra", "colonist", "number", "on", "place", "put")
    }:
        return None
    if any(t.text != "1" for t in clause if t.kind == "number"):
        return None
    return next(t.text for t in clause if t.kind == "place")


def _extra_said(clause: Sequence[_Tok]) -> bool | None:
    """The answer on the extra colonist of a clause that names it ("I don't need the
    extra one", "no thanks to the extra colonist", "take the bonus colonist"): True
    taken, False declined; None: the clause says more, or says no twice."""
    allowed = {"extra", "colonist", "not", "yes", "take", "number", "on"}
    if any(t.kind not in allowed for t in clause) or any(
        t.kind == "number" and t.text != "1" for t in clause
    ):
        return None
    nos = sum(t.kind == "not" for t in clause)
    if nos > 1 or (nos and any(t.kind == "yes" for t in clause)):
        return None
    return nos == 0


def _pairs(clause: Sequence[_Tok]) -> list[tuple[int, str]] | None:
    """Counts and places alone ("2 roaster 1 uni", "roaster 2 uni 1", "2 to the roaster
    and 1 to the uni"), each count with its place; None unless they pair up one way."""
    # (a verb before "to" only says they go there: "the two new ones go into the mill")
    items = [
        t
        for i, t in enumerate(clause)
        if t.kind not in ("colonist", "and", "on")
        and not (t.kind == "put" and [x.kind for x in clause[i + 1 : i + 2]] == ["on"])
    ]
    if len(items) < 2 or len(items) % 2 or any(t.kind not in ("number", "place") for t in items):
        return None
    first = items[0].kind
    out: list[tuple[int, str]] = []
    for i in range(0, len(items), 2):
        a, b = items[i], items[i + 1]
        if a.kind != first or b.kind == first:
            return None
        count, where = (a, b) if first == "number" else (b, a)
        out.append((int(count.text), where.text))
    if first == "place" and any(t.kind == "on" for t in clause):
        return None  # "roaster 2 on uni": which count is whose?
    return out


_Placement = tuple[str, str]  # (how many: a number, "fill" or "all"; the place)


def _colonist_clause(
    clause: Sequence[_Tok],
) -> tuple[list[tuple[int, str]], list[_Placement], bool] | None:
    """A clause of colonists: (removals, placements, whether the counts came after their
    places and nothing else was said: a board as it is to end, or colonists added)."""
    kinds = [t.kind for t in clause]
    places = [t.text for t in clause if t.kind == "place"]
    counts = [int(t.text) for t in clause if t.kind == "number"]
    if not places or "extra" in kinds or "not" in kinds:
        return None
    if "remove" in kinds or ("from" in kinds and {"take", "put"} & set(kinds)):
        # "take my corn worker off", "pull the guy off the small market", "move one from
        # the market to the university": off one place, maybe onto another
        verbs = [i for i, k in enumerate(kinds) if k in ("remove", "take", "put")]
        if len(counts) > 1 or not verbs:
            return None
        n = counts[0] if counts else 1
        head = verbs[0]
        off = [i for i, k in enumerate(kinds) if k == "place"]
        if any(i < head for i in off) or len(off) > 2:
            return None
        frm = kinds.index("from") if "from" in kinds else head
        if len(off) == 1:
            return [(n, places[0])], [], False
        # a second place after "to"/"on": where the colonist goes
        if not (off[0] < off[1] and "on" in kinds[off[0] : off[1]] and frm < off[1]):
            return None
        return [(n, places[0])], [(str(n), places[1])], False
    if "gets" in kinds:
        # "the hacienda gets a worker", "roaster gets two and sugar one", "the roaster
        # gets 2 and the university gets the last one"
        if kinds[0] != "place" or kinds[1] != "gets":
            return None
        cuts = [
            i
            for i in range(1, len(kinds) - 1)
            if kinds[i] == "and" and kinds[i + 2 : i + 3] == ["gets"]
        ]
        if cuts:
            ends = [0, *cuts, len(clause)]
            parts = [_colonist_clause(clause[a + (a > 0) : b]) for a, b in itertools.pairwise(ends)]
            if any(p is None or p[0] for p in parts):
                return None
            return [], [x for p in parts if p is not None for x in p[1]], False
        rest = [t for t in clause[2:] if t.kind != "colonist"]
        how = "1"
        if rest and rest[0].kind == "all":
            # "gets the rest", "gets the last one", "gets the other two"
            how = "all" if rest[0].text != "both" else "2"
            rest = rest[1:]
            if rest and rest[0].kind == "number":
                how = rest[0].text
                rest = rest[1:]
            if rest:
                return None
        elif rest and rest[0].kind == "number":
            how = rest[0].text
            rest = rest[1:]
        more = _pairs(rest) if rest else []
        if more is None or (more and rest[0].kind != "and" and rest[0].kind != "place"):
            return None
        return [], [(how, places[0]), *((str(c), w) for c, w in more)], False
    if kinds[0] in ("fill", "all"):
        # "fill up the roaster and the university", "everyone on the roaster and uni"
        word = clause[0]
        if any(k not in ("place", "and", "on", "colonist") for k in kinds[1:]):
            return None
        how = "fill" if word.kind == "fill" else ("both" if word.text == "both" else "all")
        return [], [(how, w) for w in places], False
    pairs = _pairs(clause[1:] if kinds[0] == "put" else clause)  # ("put two on the mill")
    if pairs is not None:
        return [], [(str(c), w) for c, w in pairs], clause[0].kind == "place"
    return None


def _mayor(words: Sequence[Word], vocab: Vocabulary) -> Proposal | None:
    """The colonist order of the words: the extra colonist taken or declined in words,
    counts and places without the order's words ("2 roaster 1 uni", "roaster x2, uni
    x1"), "one each" after or before a list of places, a place that gets colonists,
    "fill" and "everyone" onto places, a colonist taken off a place in words ("take my
    corn worker off"). Written as the moderator's order ("no extra colonist then
    remove 1 from corn then place 2 on roaster, 1 on uni"), which the board then checks.
    None on anything else: a number that is not a count, a place named twice with two
    counts, a negation not on the extra colonist."""
    clauses = _mayor_tokens(words, vocab)
    if not clauses:
        return None
    clauses = [_one_more(part, vocab) for clause in clauses for part in _extra_apart(clause)]
    extra: bool | None = None
    removals: list[tuple[int, str]] = []
    placements: list[_Placement] = []
    board = True
    listed: list[str] = []  # places named without a count, waiting for "one each"
    each: int | None = None  # "one each" said before its places
    asked_extra = False  # a clause on the extra colonist with no answer yet
    stay = False  # the colonists not placed stay in San Juan, said so
    kept = ""  # how many stay there, when said
    each_used = False  # the places after "one on each:" were named
    group: int | None = None  # the count of the colonists named before their places
    taken = False  # the clause before took the extra colonist: "it" may be placed next
    for at, clause in enumerate(clauses):
        clause = _from_san_juan(clause, vocab)
        kinds = {t.kind for t in clause}
        plus = _and_extra(clause)
        if at + 1 < len(clauses) and group is None and (n := _group(plus[0], vocab)) is not None:
            # "the three new ones: two on the roaster, one on the university"; "the two new
            # ones and the extra one: ..." (three, the extra taken)
            if plus[1] and extra is not None:
                return None
            group = n + 1 if plus[1] and n else n
            extra = True if plus[1] else extra
            continue
        if at and at + 1 == len(clauses) and group is None and _total(clause) is not None:
            group = _total(clause)  # "..., that's all three", "..., 3 in total"
            continue
        if "stay" in kinds and "extra" not in kinds and _stays(clause, vocab):
            # "the other one stays in San Juan": that many, and no more
            stays = [t.text for t in clause if t.kind == "number"]
            if stay or len(stays) > 1:
                return None
            stay, board = True, False
            kept = stays[0] if stays else ""
            continue
        if "extra" in kinds and _extra_stays(clause, vocab):
            if extra is not None:
                return None
            if stay:
                return None
            extra, stay, board = True, True, False
            continue
        if "extra" in kinds and (where := _extra_placed(clause)) is not None:
            if extra is not None:
                return None
            extra, board = True, False
            placements.append(("1", where))
            continue
        if "extra" in kinds:
            said = _extra_said(clause)
            if said is None or extra is not None:
                return None
            extra = said
            asked_extra = "not" not in kinds and "yes" not in kinds and "take" not in kinds
            board = False
            taken = said and not asked_extra
            continue
        if (
            taken
            and kinds <= {"put", "on", "place"}
            and [t.kind for t in clause][-2:]
            == [
                "on",
                "place",
            ]
        ):
            # "Yes to the extra colonist. It goes on my empty sugar field."
            if sum(t.kind == "place" for t in clause) != 1:
                return None
            placements.append(("1", clause[-1].text))
            taken = False
            continue
        taken = False
        if kinds <= {"not", "yes"}:
            # "Extra colonist: no thanks": the answer of the clause before; "Sure, I'll
            # take the extra one": the same answer as the clause after
            coming = clauses[at + 1] if at + 1 < len(clauses) else []
            takes = {"extra", "take"} <= {t.kind for t in coming} and not any(
                t.kind == "not" for t in coming
            )
            if not asked_extra and len(clause) == 1 and kinds == {"yes"} and takes:
                continue
            if not asked_extra or len(clause) != 1:
                return None
            extra = clause[0].kind == "yes"
            asked_extra = False
            continue
        asked_extra = False
        if kinds <= {"place", "and"}:
            if each is not None:
                # "one on each: sugar, uni" (its places may run on after a comma)
                placements += [(str(each), t.text) for t in clause if t.kind == "place"]
                each_used = True
            else:
                listed += [t.text for t in clause if t.kind == "place"]
            board = False
            continue
        if "each" in kinds and kinds <= {"each", "number", "colonist", "on", "place", "and"}:
            # "one each", "a worker each", "one on each: ...", "one each on X and Y"
            counts = [int(t.text) for t in clause if t.kind == "number"]
            n = counts[0] if len(counts) == 1 else 1 if not counts else 0
            here = [t.text for t in clause if t.kind == "place"]
            first = next(t.kind for t in clause if t.kind in ("place", "number", "each"))
            if not n or (listed and here and first != "place"):
                return None  # ("roaster, one each on uni": which places are meant?)
            if here or listed:
                # "sugar, the sugar mill and the university, one each"
                placements += [(str(n), w) for w in (*listed, *here)]
                listed = []
            else:
                each = n
            board = False
            continue
        read = _colonist_clause(clause)
        if read is None or listed or (each is not None and not each_used):
            return None
        each = None  # (its places were named: this clause says something else)
        off, on, after = read
        removals += off
        placements += on
        board = board and after
    if listed or (each is not None and not each_used):
        return None
    if not (removals or placements or extra is not None):
        return None
    places = [w for _, w in (*removals, *placements)]
    if len(set(places)) != len(places):
        return None  # a place named twice: which count is meant?
    if group:
        # the colonists counted before their places: the places take that many
        counted = [int(n) for n, _ in placements if n.isdigit()]
        total = sum(counted)
        if removals or len(counted) != len(placements):
            return None  # ("him and the two new ones": not modelled)
        if group != total and not (stay and group > total):
            return None
    if board and placements and not removals:
        # counts after their places only: the board as it is to end, or colonists added
        return Proposal((", ".join(f"{w} {n}" for n, w in placements),))
    parts: list[str] = []
    if extra is not None:
        parts.append("take the extra colonist" if extra else "no extra colonist")
    if removals:
        parts.append("remove " + ", ".join(f"{n} from {w}" for n, w in removals))
    fills = [w for how, w in placements if how == "fill"]
    if fills:
        parts.append("fill " + ", ".join(fills))
    items: list[str] = []
    items += [f"{how} on {w}" for how, w in placements if how not in ("fill", "all", "both")]
    for word, share in (("everyone", "all"), ("both", "both")):
        shared = [w for how, w in placements if how == share]
        if shared:
            items.append(f"{word} on " + ", ".join(shared))
    if stay:
        items.append(f"{kept} stays in san juan" if kept else "rest in san juan")
    if items:
        parts.append("place " + ", ".join(items))
    return Proposal((" then ".join(parts),))


# The classes of the words that answer each decision or choose within its answer (a
# good, a building, a ship, a count, "the first", "the rest"): words after an order that
# name none of them cannot change it (reading.remark).
_ANSWERS: dict[DecisionKind, frozenset[str]] = {
    DecisionKind.ROLE: frozenset({"role"}),
    DecisionKind.HACIENDA: frozenset({"name", "good", "plantation", "quarry", "draw", "colonist"}),
    DecisionKind.SETTLE: frozenset(
        {"good", "plantation", "quarry", "name", "colonist", "number", "mark", "size"}
    ),
    DecisionKind.BUILD: frozenset(
        {"name", "good", "plantation", "quarry", "colonist", "number", "mark", "size"}
    ),
    DecisionKind.CRAFTSMAN_EXTRA: frozenset({"good", "number", "mark", "all", "size"}),
    DecisionKind.SELL: frozenset({"good", "number", "mark", "all", "size"}),
    DecisionKind.LOAD: frozenset(
        {"good", "ship", "size", "room", "number", "name", "mark", "all", "windrose"}
    ),
    # (a place, a count, the colonists, the extra; not a verb alone: "I'm not selling")
    DecisionKind.MAYOR: frozenset(
        {"name", "good", "plantation", "quarry", "size", "number", "colonist", "extra"}
        | {"all", "each", "any", "remove", "fill", "mark", "manned", "asis"}
    ),
    # (a good, where it goes, a count, every barrel; its words of no class of their own,
    # "dump", "but", "most barrels", are looked for by check._aside)
    DecisionKind.STORE: frozenset(
        {"good", "windrose", "name", "barrel", "number", "all", "each", "any", "mark"}
    ),
}


@cache
def _answer_targets(vocab: Vocabulary, chosen: frozenset[str]) -> tuple[str, ...]:
    """The single words a slip or a word cut short may stand for, of the classes
    ``chosen``."""
    return tuple(w for w, cls in _targets(vocab).items() if cls in chosen)


def answer_classes(kind: DecisionKind | None) -> frozenset[str] | None:
    """The classes of the words that answer the decision of ``kind`` (names_answer);
    None for a decision without such a list, or none."""
    return _ANSWERS.get(kind) if kind is not None else None


def names_answer(text: str, kind: DecisionKind | None, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` names a thing that answers the decision of ``kind`` or chooses
    within its answer (for a sale: a good, a count, "the first"; for a building: a
    building, a good, the colonist, a size), by a word of the table, a clear slip of one
    ("bigest") or one cut short ("tob"). Always, for a decision without such a list
    or none."""
    chosen = answer_classes(kind)
    return chosen is None or names_of(text, chosen, vocab)


def names_of(text: str, chosen: frozenset[str], vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` has a word of the classes ``chosen``, a clear slip of one or one
    cut short (names_answer)."""
    lexicon = _lexicon(vocab)
    targets = _answer_targets(vocab, chosen)
    tokens = [t.lower() for t in _TOKEN.findall(text)]
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        size, cls = 1, "number" if tok.isdigit() else None
        for n in range(min(_MAX_PHRASE, len(tokens) - i), 0, -1):
            if cls is None and (found := lexicon.get(tuple(tokens[i : i + n]))) is not None:
                size, cls = n, found
        if cls is None and tok.isalpha():
            read = _slip(tok, vocab)
            if read is not None and read.cls in chosen:
                return True  # "bigest"
            if read is None and len(tok) <= _CUT_SHORT and any(w.startswith(tok) for w in targets):
                return True  # "tob"
        elif cls in chosen:
            return True
        i += size
    return False


def by_mentions(
    text: str, kind: DecisionKind | None, vocab: Vocabulary = ENGLISH
) -> Proposal | None:
    """The orders ``text`` makes by what it names, for the decision of ``kind`` asked now
    (None: any decision, the order is kept for later); None when it makes none or the
    reading gives up (see the module's doc)."""
    if "?" in text:
        return None  # a question, not an order
    if kind is DecisionKind.MAYOR:
        text = _mayor_text(text, vocab)
    words = words_of(text, vocab, chat=True)
    if words is None:
        return None
    if kind is not None and not_now(vocab).search(text):
        return None  # "the quarry next time": not the decision asked now
    ms = mentions_of(words)
    if kind is DecisionKind.MAYOR:
        # (its own reading of the words: negations and lists are read there)
        said = _mayor_words(words, vocab)
        # (the words that a place is manned are read by _mayor alone)
        ms = mentions_of([w for w in said if w.cls != "manned"]) if said else None
        return (
            _mayor(said, vocab) if said and ms is not None and _verbs_fit(ms, kind, vocab) else None
        )
    if not ms or any(m.negated for m in ms if m.cls == "yes"):
        return None  # "not sure, coffee"
    kinds = _FOLLOWS.get(kind, (kind,)) if kind is not None else _ALL

    def proposal(k: DecisionKind) -> Proposal | None:
        if k is DecisionKind.MAYOR:
            return _mayor(words, vocab)
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


__all__ = [
    "Mention",
    "Proposal",
    "Word",
    "answer_classes",
    "by_mentions",
    "ends_phrase",
    "mentions_of",
    "names_answer",
    "names_of",
    "words_of",
]
