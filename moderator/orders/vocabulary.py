"""The words of orders, one table per language: the grammar's word terminals, the "did
you mean" suggestions, the fuzz tests' words and the players' guide (docs/orders.md,
the `help` reply) are all made from it."""

from __future__ import annotations

import difflib
import itertools
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache, lru_cache
from pathlib import Path

from ..engine.actions import DecisionKind
from ..engine.components import Building, Good, Role


@dataclass(frozen=True, slots=True)
class Term:
    """One word terminal of grammars/orders.lark: its name, every word (or words, a
    space standing for any blanks) it accepts, and what it is for, for the guide."""

    name: str
    words: tuple[str, ...]
    doc: str


@dataclass(frozen=True, slots=True, eq=False)
class Vocabulary:
    """The order words of one language.

    ``terms`` become the grammar's terminals. ``goods``, ``roles`` and ``numbers`` give
    the meaning of the words of their terminals. ``spellings`` fold a variant to the
    building table's spelling. ``courtesies`` are phrases dropped before an order is
    read ("I'd like to", "please"); ``fillers`` are words the grammar ignores;
    ``greetings`` start lines that are not orders ("Cheers, Bob"). ``context_verbs``
    make a bare answer an order for the decision asked ("sugar" in the settler phase
    reads "take sugar"). ``plain`` are common words that are never corrected as a slip.
    ``corrections`` take back what came before them ("captain, sorry, trader"), and so
    do ``short_corrections`` with punctuation after them ("captain? no - trader"), and
    ``soft_corrections`` so ("sell corn... nah, coffee"), but a line they start that is
    not understood is a no, not a taking-back ("nah, the face-down draw isn't for me").
    ``months`` (1-12), ``weekdays`` (0 = Monday) and ``periods`` (in days) are the
    words of absences ("away until 3 Dec", "away for two weeks").
    ``questions`` start a question ("should I", "which"): it is asked back naming the
    orders it asks between, never done; so is a text that ends with a question mark and
    names two orders or more ("Trader? Or captain?").
    ``verbs`` and ``clause_verbs`` name the terms that start an order: after a comma,
    "and" or "then" they start a new one ("remove 2 from mill, add 1 to hut"), and so
    do ``clause_leads``, the words a new request starts with ("..., and I'd like the
    coffee plantation").

    The last reading of an order, by what it names (mentions.py), reads these too:
    ``role_verbs`` name a role by what it does ("I'd like to trade": the trader);
    ``mention_fillers`` name nothing ("the coffee one", "sugar cane", "the doubloon");
    ``exclusions`` exclude the thing after them ("a quarry instead of a plantation"),
    as "no" and "not" do; ``contrasts`` ("but") may only come before a negation;
    ``ship_sizes`` name a cargo ship by its rank (0 the smallest, 1 the middle one,
    -1 the largest: "the big boat"), ``ship_room`` words say a number is a ship's
    capacity ("the ship with room for 5"); ``draw_words`` draw the hacienda's tile;
    ``not_now`` put an order off ("the quarry next time", "trader tomorrow"), and so
    does a word of ``rounds`` with its number ("in round 5"): not read for the decision
    asked now; of them, ``soon`` may mean later in this round (an order for a decision to
    come is kept anyway). ``step_joints`` tie a role picked now to the first step of its phase on
    one line ("the builder for the factory"), as a comma, "and" or "then" do; those of two
    words ("with it") join any two orders, as "and" does.
    """

    language: str
    terms: tuple[Term, ...]
    goods: Mapping[str, Good]
    roles: Mapping[str, Role]
    numbers: Mapping[str, int]
    spellings: Mapping[str, str]
    courtesies: tuple[str, ...]
    greetings: tuple[str, ...]
    context_verbs: Mapping[DecisionKind, str]
    plain: tuple[str, ...]
    months: Mapping[str, int]
    weekdays: Mapping[str, int]
    periods: Mapping[str, int]
    corrections: tuple[str, ...] = ()
    short_corrections: tuple[str, ...] = ()
    soft_corrections: tuple[str, ...] = ()
    role_verbs: Mapping[str, Role] = field(default_factory=dict)
    mention_fillers: tuple[str, ...] = ()
    exclusions: tuple[str, ...] = ()
    contrasts: tuple[str, ...] = ()
    ship_sizes: Mapping[str, int] = field(default_factory=dict)
    ship_room: tuple[str, ...] = ()
    draw_words: tuple[str, ...] = ()
    not_now: tuple[str, ...] = ()
    rounds: tuple[str, ...] = ()
    soon: tuple[str, ...] = ()
    step_joints: tuple[str, ...] = ()
    verbs: tuple[str, ...] = ("ROLE", "TAKE", "SETTLE", "BUILD", "SELL", "SHIP", "KEEP")
    clause_verbs: tuple[str, ...] = ("REMOVE", "PLACE", "MOVE", "FILL", "LEAVE", "EMPTY")
    clause_leads: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()
    # Words that ask for an order politely ("Can I take the tobacco one?"): a question
    # so led that names one order is that order; naming several, it is asked back.
    requests: tuple[str, ...] = ()
    # Words of a player who has not decided yet ("trader or mayor. Let me think"): a
    # choice between orders on their line is asked back, not read as a preference list.
    undecided: tuple[str, ...] = ()
    # And a word of ``unable`` before a word of ``choosing``, maybe with one of
    # ``intensifiers`` between ("can't pick", "haven't really decided", "not 100% sure").
    unable: tuple[str, ...] = ()
    choosing: tuple[str, ...] = ()
    intensifiers: tuple[str, ...] = ()
    # Words that head a choice whose options "and" joins ("torn between X and Y").
    choices: tuple[str, ...] = ()
    # The writer's own words before an order (reading.lead_in): ``interjections`` start a
    # reply ("OK so", "Right,"); ``addressees`` are whom a greeting greets ("Morning
    # all -"); ``conditions`` start the time an order is for ("when", "if", "in case");
    # ``negations`` turn a condition round or take back ("unless", "nobody", "cancel"):
    # words before an order that hold one are never dropped, nor a line of chat.
    interjections: tuple[str, ...] = ()
    addressees: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    negations: tuple[str, ...] = ()
    # Nobody, as a colonist said no to ("Corn, I want nobody on it"): with a no, it
    # may decline the hospice's or the university's colonist.
    nobodies: tuple[str, ...] = ()
    # Ignored words that make a keep order naming nothing keep everything ("keep it all").
    wholes: tuple[str, ...] = ()
    # Ignored words that make a keep order keep the goods it names and no more ("just the
    # coffee": the rest is not kept, as far as the space allows).
    onlies: tuple[str, ...] = ()
    # A quantity asked as the most that fits ("as much tobacco as I can", "as many barrels
    # as possible"): words before it (``as_much``) and after it (``as_fits``). With goods
    # it is those goods, each kept as much as it fits, as a keep order always does; with
    # none, a word of MOST: the most barrels.
    as_much: tuple[str, ...] = ()
    as_fits: tuple[str, ...] = ()
    # Words after goods that say they are not kept ("the corn can go"), and the words
    # around goods that do ("let the corn go"): read as a word of DROP before them (their
    # own words are ignored ones, which the grammar would read as keeping the goods).
    drops_after: tuple[str, ...] = ()
    drops_around: tuple[tuple[str, str], ...] = ()
    # A reason given with an order ("Bob took the builder, so I'll go trader", "trader,
    # since the settler is gone"): ``reasons`` start a reason, ``consequences`` (and the
    # contrasts) the order after one, which starts with a word of ``first_person``; the
    # reason is not read. A reason word that is an order word too ("as") only leads.
    reasons: tuple[str, ...] = ()
    consequences: tuple[str, ...] = ()
    first_person: tuple[str, ...] = ()
    # Words that stand for a thing named elsewhere ("since sugar is worth more, keep it"):
    # an order with one is never read apart from the reason that names the thing.
    pronouns: tuple[str, ...] = ()
    # Words that start a statement about something else after a contrast ("boring, but
    # it feeds the boats", "corn, but that's fine"): a remark, which changes no order.
    subjects: tuple[str, ...] = ()
    # After ``first_person``, words that make no new order of what follows: a purpose
    # ("so I can ship"), a refusal ("but I won't take the university"; and NO, DONT).
    purposes: tuple[str, ...] = ()
    # Corrections that may only apologise ("Sorry for the delay."): alone they take
    # nothing back that the line does not replace.
    apologies: tuple[str, ...] = ()
    # Words that make a role named before them its phase ("trader phase: tobacco"), as
    # a condition does.
    phase_words: tuple[str, ...] = ()
    # Words before a role, or what it does, and a word of ``phase_words`` that name the
    # phase an order is for ("in the trading phase", "during my captain turn").
    phase_leads: tuple[str, ...] = ()
    # The conditions that only say when in the turn ("once Bob is done", "after Anna"):
    # another player may be named in them.
    times: tuple[str, ...] = ()
    # Words saying a new tile or building gets no colonist ("leave it unmanned", "the
    # hospice colonist stays in the supply"): a no to the hospice's or university's.
    unmanned: tuple[str, ...] = ()
    # Words asking for the most valuable kind ("whichever's worth most", "the priciest"):
    # a sale of the most valuable good the trading house takes, the craftsman's and the
    # storage's published defaults (which keep the most valuable).
    best: tuple[str, ...] = ()
    # The mayor's colonists: words that say the rest of the board stays as it is, with
    # AS_IS's and "everything else" ("everything else stays where it is", "don't touch
    # anything else", "same as now, plus ..."): the clause orders nothing more.
    unchanged: tuple[str, ...] = ()
    # The mayor's colonists: words that say the writer's board has no room ("all my stuff
    # is full", "there's no room for him anyway"): a clause of them and of words that name
    # nothing is a remark the rules check (a layout that leaves a circle empty is refused
    # anyway), which orders nothing and stops nothing.
    full: tuple[str, ...] = ()
    # The mayor's colonists: words after a plantation, a quarry or a building of one
    # circle that say it is to be manned ("my indigo plantation working", "the university
    # manned"): one colonist on it.
    manned: tuple[str, ...] = ()
    # The mayor's colonists: words of COLONIST that say several ("them", "the new ones",
    # "my guys"): with no count, as many as the places named take.
    many_colonists: tuple[str, ...] = ()
    # The mayor's colonists: words that say a count is how many the layout places
    # ("That's 4 to place.", "that's three with the extra"): a count alone with them, in
    # a mail with a layout, checks it; agreed, it is passed over, else asked back.
    totals: tuple[str, ...] = ()
    # Words before a plantation or a quarry that pick one of its kind by its place or
    # state ("my second sugar field", "my empty tobacco field"): a colonist on that kind,
    # which the board gives only where one of them has room.
    field_marks: tuple[str, ...] = ()
    # What would have been and cannot be (reading.unreal): a clause with a word of
    # ``unreal`` ("if I had", "I wanted") or a ``modal_perfects`` phrase before one of
    # ``participles`` ("I'd have taken corn") orders nothing. The order is the clause
    # after it that says what is done in fact, with a word of ``actuals`` at its start
    # or end ("Coffee then.", "so 1 on sugar", "as it is, the sugar").
    unreal: tuple[str, ...] = ()
    modal_perfects: tuple[str, ...] = ()
    participles: tuple[str, ...] = ()
    actuals: tuple[str, ...] = ()
    # Words besides TAKE's that say a role is taken, in a condition ("in case someone goes
    # captain").
    role_takes: tuple[str, ...] = ()
    # Words that say an order is sent before its time ("in advance", "ahead of time"):
    # the writer's words before it that hold one may say when and how long he is away
    # ("I'm away tomorrow, so in advance: sell corn"), about him, not the order.
    early: tuple[str, ...] = ()
    # Words that start the writer's words before an order saying it holds whatever happens
    # ("Whatever happens with the ships, keep my sugar", "No matter what, sell corn"): the
    # order is what follows them, for no phase in particular; never with a word in them
    # that may change an order (a no, a condition, a question, "or").
    regardless: tuple[str, ...] = ()
    # Words before a word that names one decision ("storage", "storing") that make them
    # when the order is for, as a condition does ("at storage I want indigo in the
    # warehouse", "come storage time: sugar"): the order is of that decision.
    decision_leads: tuple[str, ...] = ()
    # Words before a role, what it does or a word of ``next_of`` that say the order is
    # for the next such phase or round, not one in progress ("next time there's a mayor",
    # "next captain I wharf my corn", "my role for the next round: mayor"): kept for the
    # next decision of its kind when the phase in progress (with a round, the round)
    # asks the writer no more of it; otherwise refused, never done now.
    nexts: tuple[str, ...] = ()
    # A remark after an order that only asks the moderator to keep it in mind, a question
    # too ("..., can you remember that?", "- just so you know"): the order is read without
    # it.
    reminders: tuple[str, ...] = ()
    next_of: tuple[str, ...] = ()
    # Words that make the words around an order a condition on the game, which the
    # moderator cannot check ("unless Bob sells corn", "as long as I can afford it", "if
    # I have enough money"): never passed over as only saying when; the order is refused.
    provisos: tuple[str, ...] = ()
    # Words that head an order and name the decision it is for, besides the words of the
    # decisions' own verbs ("Storage: sugar in the warehouse", "Cargo - corn on the 5").
    heading_words: Mapping[str, DecisionKind] = field(default_factory=dict)
    # A clause whose subject is another player ("Bob keeps sugar, I keep corn") is his,
    # not read; unless it holds one of ``conditionals`` or ``provisos`` or a negation,
    # which may make it a condition on the writer's order ("..., Bob permitting").
    conditionals: tuple[str, ...] = ()
    # A fallback: orders joined by "or" with a condition that says whether the first can
    # be done (reading.fallback), in words of ``legality`` ("the trader, or the captain
    # if it's gone", "tobacco, or sugar if tobacco can't be sold"): the first that can be
    # done is. After ``whichevers`` ("trader or craftsman, whichever is still there"), or
    # with another condition ("sugar or tobacco if it's cheaper"), the list says no
    # order: the one that can be done is, and when several can, it is asked back.
    legality: tuple[str, ...] = ()
    whichevers: tuple[str, ...] = ()
    # The last reading of an order, by what it names (mentions.py), passes over words the
    # table does not know as chat ("a coffee plantation would be lovely", "Mark me down
    # for captain"), but only when none of them may change what the things named mean.
    # ``qualifiers`` may: alternatives ("whichever"), refusals ("won't", "bother"), times
    # ("last", "yesterday"), thinking and hypotheses ("would have", "tempted"), a
    # possession that picks another thing ("my own boat" is the wharf), persons other
    # than the writer ("he", "you"), quantities and comparisons ("both", "half", "than").
    # Those words, and the phrases of ``conditions``, ``negations``, ``undecided``,
    # ``times``, ``questions``, ``corrections`` (``apologies`` aside), ``unreal``,
    # ``modal_perfects``, ``participles``, ``provisos``, ``conditionals``, ``whichevers``
    # and ``fallbacks`` that the table does not read otherwise, make that reading give up;
    # a word of the table among the qualifiers ("or", "next", "all") keeps its meaning
    # only in an order without chat.
    qualifiers: tuple[str, ...] = ()
    # Words after chat that say the thing after them is what the order wants ("Mark me
    # down for captain", "go ahead with the hacienda tile", "my extra barrel is sugar"),
    # as an order verb of the table does ("happy to take the captain"). Chat before a
    # thing in the same clause with neither between may be a verb or a word said of it
    # ("bin the corn", "hang onto my sugar", "a lovely coffee"): that reading gives up.
    chat_joints: tuple[str, ...] = ()
    # Words of "or" that say the order after them is for when the one before cannot be
    # done ("the harbour, failing that the factory"): a fallback with no condition said.
    fallbacks: tuple[str, ...] = ()
    # Words after the word of DEFAULT that accept it ("the default is fine", "default will
    # do"): the published default, as "default" alone.
    approvals: tuple[str, ...] = ()
    # Words after a keep that say what the goods are kept for ("Tobacco, I'm keeping the
    # sugar for shipping"): with a word of SHIP or the captain after them, in a mail with
    # an order for another decision, the keep is that order's reason, not a storage order.
    keeps_for: tuple[str, ...] = ()
    # A question on what the order gives, after it ("Sell one coffee, that's 6 doubloons
    # right?"): a word of ``claims``, a number and a word of DOUBLOON, then words of
    # ``checks``: the order with its price, which is checked ("sell coffee for 6").
    claims: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()
    # Short forms players write on a phone ("tob", "lg wh", "capt", "sj", "w/", "cant"),
    # each with the words it may stand for. One that stands for one word (or phrase) is
    # a word of the table as that one is: of every term and list that holds it, and of
    # the phrases that hold it, meaning what it means (a good, a role, a ship's size, a
    # word of a building's name: "lg wh" names the large warehouse, and "mkt" both
    # markets, as "market" does, asked back where both can be built). One that may stand
    # for several words of different meanings ("stor": the storage, or store) is read as
    # each of them, as a slip is (reading.slips_of): where more than one makes an order
    # that can be given, it is asked back. None is taken for a slip of another word, nor
    # offered as a suggestion.
    abbreviations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        short = {a: meant[0] for a, meant in self.abbreviations.items() if len(meant) == 1}
        if not short:
            return
        terms = tuple(Term(t.name, _abbreviated(t.words, short), t.doc) for t in self.terms)
        object.__setattr__(self, "terms", terms)
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("terms", "verbs", "clause_verbs", "abbreviations"):
                continue
            if isinstance(value, tuple) and all(isinstance(w, str) for w in value):
                object.__setattr__(self, f.name, _abbreviated(value, short))
            elif isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
                meant = {a: value[m] for a, m in short.items() if m in value}
                if f.name == "spellings":  # (each is a spelling of its word: parser.fold)
                    meant = {a: value.get(m, m) for a, m in short.items()}
                object.__setattr__(self, f.name, {**meant, **value})

    def term(self, name: str) -> Term:
        for t in self.terms:
            if t.name == name:
                return t
        raise KeyError(name)

    @property
    def fillers(self) -> tuple[str, ...]:
        return self.term("FILLER").words


# A word of the table with a slash: a letter and a slash, and maybe a letter ("w/", "w/o"):
# one word where words are found, never the slash between two words ("sugar/coffee").
SLASHED = r"(?<![a-z/])[a-z]/[a-z]?(?![a-z/])"


def _abbreviated(words: tuple[str, ...], short: Mapping[str, str]) -> tuple[str, ...]:
    """``words`` with, after them, each abbreviation of one of them, and each phrase of
    them with abbreviations for some of its words ("can't decide": "cant decide", "next
    round": "nxt rnd")."""
    out = list(words)
    for w in words:
        out += [a for a, meant in short.items() if w == meant]
        parts = w.split()
        if len(parts) > 1:
            ways = [[p, *(a for a, meant in short.items() if meant == p)] for p in parts]
            out += [" ".join(said) for said in itertools.product(*ways)]
    return tuple(dict.fromkeys(out))


def _s(*words: str) -> tuple[str, ...]:
    """Each word and its plural or third person in s ("ditches", "tosses")."""
    return tuple(
        w
        for word in words
        for w in (word, word + ("es" if word.endswith(("s", "sh", "ch", "x", "z")) else "s"))
    )


# The words of COLONIST that say several colonists (Vocabulary.many_colonists).
_EN_MANY_COLONISTS = (
    *("colonists", "workers", "guys", "persons", "meeples", "labourers", "laborers"),
    "farmers",
    *("men", "people", "ones", "folks", "them", "they", "newcomers", "newbies", "mine"),
)


# A short verb whose last consonant doubles before -ing ("ship", "drop", "scrap").
_DOUBLES = re.compile(r"[^aeiou]*[aeiou][^aeiouwxy]")


def _ing(*verbs: str) -> tuple[str, ...]:
    """Each verb's -ing form ("taking", "putting", "shipping", "dropping")."""
    out: list[str] = []
    for v in verbs:
        if v.endswith("e") and not v.endswith("ee"):
            out.append(v[:-1] + "ing")
        elif _DOUBLES.fullmatch(v):
            out.append(v + v[-1] + "ing")
        else:
            out.append(v + "ing")
    return tuple(out)


def _plural(word: str) -> str:
    if word.endswith(("s", "x")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


# -- English -------------------------------------------------------------------------

_EN_GOODS = {w: g for g in Good for w in (g.label, g.label + "s")}
_EN_ROLES = {
    **{w: r for r in Role if r is not Role.PROSPECTOR2 for w in (r.label, r.label + "s")},
    "craftsmen": Role.CRAFTSMAN,
}
del _EN_ROLES["craftsmans"]
_EN_NUMBERS = {
    w: i + 1
    for i, w in enumerate(
        (
            *("one", "two", "three", "four", "five", "six"),
            *("seven", "eight", "nine", "ten", "eleven", "twelve"),
        )
    )
}


def _role_words(*roles: Role) -> tuple[str, ...]:
    return tuple(w for w, r in _EN_ROLES.items() if r in roles)


# A cargo ship by its rank among the ships (0 the smallest, -1 the largest).
_EN_SHIP_SIZES = {
    **dict.fromkeys(("small", "smaller", "smallest", "little", "tiny"), 0),
    **dict.fromkeys(("middle", "medium", "mid", "mid-sized", "middle-sized"), 1),
    **dict.fromkeys(("large", "larger", "largest", "big", "bigger", "biggest"), -1),
}

_EN_MONTH_NAMES = (
    *("january", "february", "march", "april", "may", "june", "july", "august"),
    *("september", "october", "november", "december"),
)
_EN_MONTHS = {
    **{name: i + 1 for i, name in enumerate(_EN_MONTH_NAMES)},
    **{name[:3]: i + 1 for i, name in enumerate(_EN_MONTH_NAMES) if name != "may"},
    "sept": 9,
}
_EN_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_EN_WEEKDAYS = {
    **{name: i for i, name in enumerate(_EN_WEEKDAY_NAMES)},
    **{name[:3]: i for i, name in enumerate(_EN_WEEKDAY_NAMES)},
    **{"tues": 1, "thur": 3, "thurs": 3},
}
_EN_PERIODS = {"day": 1, "days": 1, "week": 7, "weeks": 7}

# Words players write without their apostrophe ("cant", "wouldnt", "im").
_EN_CONTRACTIONS = (
    *("can't", "won't", "don't", "isn't", "aren't", "wasn't", "weren't", "doesn't"),
    *("didn't", "hasn't", "haven't", "hadn't", "wouldn't", "couldn't", "shouldn't"),
    *("mustn't", "needn't", "i'm", "i've", "i'll", "i'd", "that's", "what's", "there's"),
    *("it's", "you're", "they're", "he's", "she's", "you've", "they've", "you'll"),
    *("they'll", "it'll"),
)

_EN_SPELLINGS = {
    "harbour": "harbor",
    "big": "large",
    "guildhall": "guild hall",
    "cityhall": "city hall",
    "custom": "customs",
    "windrose": "wind rose",
    "craftsmen": "craftsman",
    "sanjuan": "san juan",
    "wharves": "wharf",
    "uni": "university",
}

# Words of a building's name that no other terminal holds, with plurals and spellings.
_OWNED_ELSEWHERE = {g.label for g in Good} | {
    "hacienda",
    "hospice",
    "university",
    "wharf",
    "warehouse",
}


def _building_words() -> tuple[str, ...]:
    words: list[str] = []
    for b in Building:
        for w in b.label.split():
            if w not in _OWNED_ELSEWHERE and w not in words:
                words.append(w)
    plurals = [_plural(w) for w in words if w not in ("customs", "small", "large", "city")]
    # Spellings of these words ("harbour", "big", "guildhall"), and their plurals.
    extra = [k for k, v in _EN_SPELLINGS.items() if set(v.split()) <= set(words)]
    extra += [_plural(k) for k in extra if k not in ("big", "custom")]
    return (*words, *plurals, *extra)


ENGLISH = Vocabulary(
    language="en",
    terms=(
        Term(
            "ROLE_NAME",
            _role_words(Role.SETTLER, Role.BUILDER, Role.CRAFTSMAN, Role.TRADER, Role.CAPTAIN),
            "a role",
        ),
        Term(
            "MAYOR",
            _role_words(Role.MAYOR),
            "the mayor (a role, and the start of a colonist order)",
        ),
        Term("PROSPECTOR", _role_words(Role.PROSPECTOR), "a prospector (a role)"),
        Term("ROLE", ("role",), "pick a role"),
        Term(
            "TAKE",
            (
                *_s("take", "choose", "pick", "select", "want", "get", "grab", "accept"),
                *_ing("take", "choose", "pick", "select", "get", "grab"),
                "have",
            ),
            "take a role or a tile",
        ),
        Term("SETTLE", (*_s("settle", "plant"), *_ing("settle")), "take a plantation"),
        Term("PLANTATION", _s("plantation", "field", "tile", "farm"), "a plantation"),
        Term("QUARRY", ("quarry", "quarries", "stone", "stones"), "a quarry"),
        Term("GOOD", tuple(_EN_GOODS), "a good"),
        Term("HACIENDA", _s("hacienda"), "the hacienda"),
        Term("HOSPICE", _s("hospice"), "the hospice"),
        Term("UNIVERSITY", ("university", "universities", "uni"), "the university"),
        Term("WHARF", ("wharf", "wharfs", "wharves", "wharfing"), "the wharf; ship on it"),
        Term("WAREHOUSE", _s("warehouse"), "a warehouse"),
        Term("BWORD", _building_words(), "a word of a building's name"),
        Term(
            "BUILD",
            (*_s("build", "buy", "construct", "building"), *_ing("buy", "construct"), "purchase"),
            "build",
        ),
        Term(
            "SELL",
            (*_s("sell", "trade", "flog"), *_ing("sell", "trade", "flog"), "sale", "cash in"),
            "sell",
        ),
        Term(
            "DOUBLOON",
            (*_s("doubloon", "coin", "dbl"), "gold", "db"),
            "doubloons: what a sale gives (`sell coffee for 6`), checked when it is done",
        ),
        Term("SHIP", (*_s("ship", "load", "boat"), *_ing("ship", "load")), "ship, load; a ship"),
        Term("SHIPSIZE", tuple(_EN_SHIP_SIZES), "a cargo ship by its size (the small ship)"),
        Term(
            "KEEP",
            (
                *_s("keep", "store", "save"),
                *_ing("keep", "store", "save"),
                *(
                    f"{v} on {to}"
                    for v in (*_s("hang", "hold"), *_ing("hang", "hold"))
                    for to in ("to", "onto")
                ),
            ),
            "keep goods at the end of the captain phase",
        ),
        Term(
            "DROP",
            (
                *_s("dump", "discard", "ditch", "drop", "scrap", "toss"),
                *_ing("dump", "discard", "ditch", "drop", "scrap", "toss", "lose"),
                *("lose", "loses", "throw away", "throw out"),
            ),
            "goods not kept at the end of the captain phase",
        ),
        Term("EXCEPT", ("except", "but", "apart from"), "except (a good not kept)"),
        Term(
            "MOST",
            ("most barrels", "most goods"),
            "the most barrels kept (`keep the most barrels`, `keep as much as I can`)",
        ),
        Term(
            "WINDROSE",
            ("wind rose", "windrose", "compass", "rose", "top"),
            "the wind rose (`a tobacco on top`)",
        ),
        Term(
            "EXTRA",
            (*_s("extra"), "bonus", "bonuses", "privilege", "free", "one more"),
            "the craftsman's extra barrel, the mayor's extra colonist (with a tile or a "
            "building: the hospice's or the university's colonist)",
        ),
        Term("BARREL", _s("barrel", "good"), "a barrel"),
        Term(
            "COLONIST",
            (
                *_s("colonist", "worker", "guy", "person", "meeple", "labourer", "laborer"),
                *_s("farmer"),
                *("man", "men", "people", "ones", "folks", "him", "her", "them", "mine"),
                *("he", "she", "they"),
                *_s("newcomer", "newbie"),
            ),
            "a colonist",
        ),
        Term(
            "REMOVE",
            (*_s("remove", "unman", "withdraw", "pull"), *_ing("remove", "withdraw", "pull")),
            "take colonists off",
        ),
        Term(
            "PLACE",
            (
                *_s("place", "put", "assign", "man", "add", "staff"),
                *_ing("place", "put", "assign", "add", "staff"),
            ),
            "put colonists on",
        ),
        Term(
            "MOVE",
            (
                *_s("move", "shift", "transfer", "relocate", "reassign"),
                *_ing("move", "shift"),
                "goes",
            ),
            "move colonists",
        ),
        Term("FILL", (*_s("fill"), *_ing("fill"), "fill up", "max out"), "every empty circle of"),
        Term("BOTH", ("both",), "both (two colonists)"),
        Term("COUPLE", ("a couple", "a pair"), "two (colonists: `a couple on the roaster`)"),
        Term(
            "EMPTY",
            (*_s("empty", "clear", "vacate"), *_ing("clear", "vacate"), "empties", "emptying"),
            "take every colonist off",
        ),
        Term(
            "REST",
            (
                *("rest", "remaining", "remainder", "leftover", "leftovers", "others", "last"),
                *("everyone else", "everybody else", "anyone else", "everything else"),
            ),
            "the colonists not placed (they stay in San Juan)",
        ),
        Term(
            "STAY",
            (*_s("stay", "remain", "wait", "sit"), *_ing("stay", "wait"), "sitting"),
            "stay (in San Juan)",
        ),
        Term("LEAVE", ("leave", "leaves", "leaving"), "leave (colonists as they are)"),
        Term("EVERYTHING", ("everything",), "everything (no change)"),
        Term(
            "EVERYONE",
            ("everyone", "everybody"),
            "every colonist (no change; everyone to the roaster and the university)",
        ),
        Term(
            "AS_IS",
            (
                *("as is", "as they are", "as before", "as they were"),
                *("as", "unchanged", "where they are", "where it is", "where they were"),
                *("where it was", "as it is", "as it was", "same", "as last"),
            ),
            "as it is (no change)",
        ),
        Term("CHANGE", _s("change"), "no change"),
        Term("SAN_JUAN", ("san juan", "sanjuan"), "San Juan"),
        Term(
            "PASS",
            (
                *("pass", "nothing", "none", "skip", "decline", "declines", "refuse", "refuses"),
                *("don't bother with", "dont bother with", "do not bother with"),
                *("don't bother", "dont bother", "do not bother"),
            ),
            "decline",
        ),
        Term("NO", ("no", "not", "nope", "nah"), "no"),
        Term("DONT", ("don't", "dont", "do not"), "do not"),
        Term("USE", ("use", "using"), "use"),
        Term("WITH", ("with", "via", "through", "thru"), "with, via (`tobacco via the wharf`)"),
        Term("WITHOUT", ("without",), "without"),
        Term("YES", ("yes", "y", "ok", "okay", "yep", "yeah", "sure"), "yes"),
        Term("ON", ("on", "onto", "in", "into", "at", "aboard"), "on"),
        Term("TO", ("to", "->", "=>", "\u2192"), "to"),
        Term("FROM", ("from", "off"), "from"),
        Term("_AND", ("and", "&", "+", "plus"), "and"),
        Term("ART", ("a", "an"), "a (one)"),
        Term(
            "ANY",
            ("any", "whichever", "any old"),
            "any (ship): the ship the default chooses, as `ship sugar` alone",
        ),
        Term("NUMWORD", tuple(_EN_NUMBERS), "a number"),
        Term("HELP", ("help", "?"), "the guide"),
        Term(
            "GUIDE_PART",
            ("reading", "words"),
            "a part of the guide, after help (`help reading`, `help words`)",
        ),
        Term("STATUS", ("status",), "the state of the game"),
        Term("BOARD", ("board",), "the board"),
        Term("ORDERS", (*_s("order", "option"), "legal"), "what you may order now"),
        Term("HISTORY", ("history", "log"), "what happened"),
        Term("RESEND", ("resend", "repeat"), "the last mail again"),
        Term("DEFAULT", ("default",), "apply the default now"),
        Term("AWAY", ("away",), "away (an absence)"),
        Term("BACK", ("back",), "back from an absence"),
        Term("UNTIL", ("until", "till", "til"), "until"),
        Term("MONTH", tuple(_EN_MONTHS), "a month"),
        Term("WEEKDAY", tuple(_EN_WEEKDAYS), "a day of the week"),
        Term("PERIOD", tuple(_EN_PERIODS), "days or weeks"),
        Term("MAIL", ("mail", "mails", "email", "emails", "e-mail", "e-mails"), "how much mail"),
        Term("EVERY", ("every", "each"), "every (change)"),
        Term("ONLY", ("only",), "only (my turns)"),
        Term("TURN", ("turn", "turns"), "(my) turns"),
        Term("_OR", ("or", "otherwise", "else"), "or (a preference list)"),
        Term("_THEN", ("then",), "then"),
        Term(
            "FILLER",
            (
                *("the", "my", "i", "i'll", "i'd", "i'm", "of", "for", "it", "its", "me"),
                *("please", "pls", "plz", "kindly", "just", "also", "instead", "now"),
                *("this", "that", "time", "round", "new", "all", "be", "like"),
                *("would", "will", "shall", "can", "could", "let", "let's", "lets", "we", "am"),
                *("go", "another", "other", "later", "afterwards", "afterward", "next"),
                *("anything", "do", "single", "lone", "lonely", "measly"),
                *("card", "cards"),
            ),
            "ignored",
        ),
    ),
    goods=_EN_GOODS,
    roles=_EN_ROLES,
    numbers=_EN_NUMBERS,
    spellings=_EN_SPELLINGS,
    courtesies=(
        "i would like to",
        "i'd like to",
        "i should like to",
        "should like to",
        "i want to",
        "i wish to",
        "i'm going to",
        "i am going to",
        "i'm going",
        "i am going",
        "like to",
        "want to",
        "going to",
        "i'm gonna",
        "i am gonna",
        "gonna",
        "i wanna",
        "wanna",
        "to be",
        "if you please",
        "may i",
        "if possible",
        # A condition a preference list says already ("settler (if free), or mayor").
        "if still free",
        "if still available",
        "if it's free",
        "if it is free",
        "if free",
        "if available",
        "if you can",
        "if it's still there",
        "if it is still there",
        "if still there",
        "obviously",
        "while i'm at it",
        "while i am at it",
        "while we're at it",
        "definitely",
        "of course",
        "naturally",
        "again",
        "face-up",
        "face up",
        "if i can",
        "if that's ok",
        "if that is ok",
        "if ok",
        "i'll go with",
        "i will go with",
        "i'll go for",
        "going with",
        "going for",
        "give me",
        "gimme",
        "go with",
        "go for",
        "let's say",
        "let us say",
        "let's go with",
        "let's go for",
        "let's do",
        # Not "what is": "what is the captain?" is a question, not an order.
        "what are",
        "it is",
        "i think",
        "i guess",
        "i suppose",
        # When an order is for: its phase says so already.
        *(f"in the {r.label} phase" for r in Role if r is not Role.PROSPECTOR2),
        *(f"for the {r.label} phase" for r in Role if r is not Role.PROSPECTOR2),
        *(f"when the {r.label} comes" for r in Role if r is not Role.PROSPECTOR2),
        # Where a sale goes is the trading house, always.
        "to the trading house",
        "at the trading house",
        "for me",
        "on my side",
        "from my side",
        "for my part",
        "for now",
        "this time",
        "this round",
        "this turn",
        "next turn",
        # The end of a list of orders: nothing more.
        "that's it",
        "that is it",
        "that's all",
        "that is all",
        "thank you",
        "thanks",
        "thx",
        "ta",
        "very much",
        "cheers",
        # The rest left to the default, which fills what an order does not say.
        *("whatever else fits", "whatever fits", "whatever else there is room for"),
        *("the rest as the rules say", "rest as the rules say", "the rest by default"),
        *("rest by default", "default for the rest", "the default for the rest"),
        *("the rest as default", "rest as default"),
        # Asides on the order's line ("the quarry too", "sell corn as well"; not the wind
        # rose, "on top").
        "on top of that",
        "on top of this",
        "on top of it",
        "as well",
        "too",
        "please",
        "pls",
        "plz",
    ),
    greetings=(
        "hi",
        "hello",
        "hey",
        "dear",
        "thanks",
        "thank you",
        "many thanks",
        "thx",
        "cheers",
        "regards",
        "kind regards",
        "best",
        "best wishes",
        "greetings",
        "sincerely",
        "yours",
        "bye",
        "ciao",
        "good luck",
        "have fun",
        *("enjoy your", "speak soon", "talk soon", "see you"),
        *("morning", "good morning", "afternoon", "good afternoon", "evening", "good evening"),
        *("howdy", "hiya", "yo"),
    ),
    context_verbs={
        DecisionKind.ROLE: "role",
        DecisionKind.HACIENDA: "hacienda",
        DecisionKind.SETTLE: "take",
        DecisionKind.MAYOR: "place",
        DecisionKind.BUILD: "build",
        DecisionKind.CRAFTSMAN_EXTRA: "extra",
        DecisionKind.SELL: "sell",
        DecisionKind.LOAD: "ship",
        DecisionKind.STORE: "keep",
    },
    months=_EN_MONTHS,
    weekdays=_EN_WEEKDAYS,
    periods=_EN_PERIODS,
    corrections=(
        *("sorry", "i mean", "i meant", "actually", "rather", "make that", "make it"),
        *("edit", "ignore that", "scratch that", "forget that", "correction", "oops"),
        *("on second thought", "on second thoughts", "change that to", "change of plan"),
        *("changed my mind", "change my mind", "on reflection", "thinking about it more"),
    ),
    short_corrections=("no", "wait"),
    soft_corrections=("nah", "nope"),
    role_verbs={
        **dict.fromkeys((*_s("settle"), *_ing("settle")), Role.SETTLER),
        **dict.fromkeys((*_s("build"), *_ing("build")), Role.BUILDER),
        **dict.fromkeys((*_s("trade", "sell"), *_ing("trade", "sell")), Role.TRADER),
        **dict.fromkeys((*_s("ship", "load"), *_ing("ship", "load")), Role.CAPTAIN),
        **dict.fromkeys((*_s("produce", "craft"), *_ing("produce", "craft")), Role.CRAFTSMAN),
        **dict.fromkeys((*_s("prospect"), *_ing("prospect")), Role.PROSPECTOR),
    },
    mention_fillers=(
        *("one", "cane", "as", "kind", "type", "sort", "piece"),
        *_s("doubloon", "coin"),
        *("mine", "need", "needs", "should be"),
    ),
    exclusions=(
        *("instead of", "rather than", "other than", "except", "apart from", "but not"),
        "never",
    ),
    contrasts=("but",),
    ship_sizes=_EN_SHIP_SIZES,
    ship_room=("room", "space", "capacity", "size", "holds", "hold", "holding", "seats"),
    draw_words=(
        *_s("draw", "flip", "pile", "stack"),
        *("drawing", "flipping", "face-down", "face down", "facedown", "hidden", "random"),
        *("blind", "unknown"),
    ),
    not_now=(
        "later",
        "afterwards",
        "afterward",
        "tomorrow",
        *(f"next {w}" for w in ("round", "time", "turn", "go")),
    ),
    rounds=("round",),
    soon=("later", "afterwards", "afterward"),
    step_joints=("for", "with", "to", "so", "with it", "with that", "using it"),
    clause_leads=("i'd like", "i would like", "i'll have", "i will have", "i want"),
    questions=(
        *("should i", "shall i", "should we", "which", "what about", "how about"),
        *("is it better", "would it be better", "do you think", "any advice", "thoughts on"),
    ),
    requests=(
        *("can i", "could i", "may i", "might i", "can we", "could we", "may we"),
        *("can you", "could you", "would you", "will you", "would you mind"),
        *("is it ok if i", "is it okay if i", "is it possible to", "would it be possible to"),
    ),
    undecided=(
        *("let me think", "get back to you", "not sure", "undecided", "can't decide"),
        *("cannot decide", "haven't decided", "have not decided", "still deciding"),
        *("decide later", "i'll decide", "thinking about it", "will confirm", "tbc"),
        *("think it over", "think about it", "have a think", "need to think"),
        *("give me a bit", "give me a moment", "give me a minute"),
        *("give me a sec", "give me a second", "gimme a sec", "let me see", "overthinking"),
        *("haven't made up my mind", "have not made up my mind", "not made up my mind"),
        *("decide for me", "choose for me", "pick for me", "your choice", "pick one"),
        *("unsure", "no idea", "dunno", "don't know", "do not know", "not decided"),
        *("torn between", "can't choose", "cannot choose", "on the fence", "in two minds"),
        *("either is fine", "either way", "either one", "up to you", "you choose"),
        *("you decide", "your call", "don't mind", "i was thinking", "was going to"),
        *("thought about", "was tempted", "not certain", "hesitating", "wavering"),
        *("either works", "both are fine", "both fine", "doesn't matter", "does not matter"),
        *("whichever you like", "whichever you prefer"),
        *("anything but", "anything except", "anything apart from", "whatever you think"),
        *("surprise me", "you pick", "dealer's choice", "don't care"),
        *("let you know", "back and forth", "i'm torn", "make up my mind", "not decided yet"),
        *("either", "maybe", "perhaps", "fine by me", "fine with me"),
        *("wherever", "as you see fit", "you know best", "however you like"),
        # (a choice said with a hesitation after it: "sell the corn or the sugar, hmm")
        *("hmm", "hmmm", "hm"),
    ),
    unable=(
        *("can't", "cannot", "can not", "couldn't", "could not", "haven't", "have not"),
        *("hasn't", "not", "still not", "not yet"),
    ),
    choosing=(
        *("decide", "decided", "pick", "picked", "choose", "chosen", "sure", "certain"),
        *("make up my mind", "made up my mind", "make my mind up", "settle on", "settled on"),
    ),
    intensifiers=(
        *("really", "quite", "totally", "fully", "entirely", "completely", "100%", "yet"),
        *("genuinely", "honestly", "truly", "even", "exactly", "so", "too", "that"),
    ),
    choices=("between", "vs", "versus"),
    interjections=(
        *("ok", "okay", "hmm", "hmmm", "hm", "well", "so", "right", "alright", "sure"),
        *("yes", "yeah", "anyway", "anyhow", "righto", "okey dokey", "here goes"),
        *("here we go", "go on then", "right then", "well then", "so then"),
        *("oh", "ah", "ahh", "um", "umm", "uh", "er", "erm", "lol", "cool", "great"),
        *("fine", "nice", "perfect", "excellent", "phew", "ugh", "meh", "argh", "welp", "oof"),
    ),
    addressees=(
        *("all", "everyone", "everybody", "guys", "folks", "people", "team", "gang"),
        *("y'all", "you all", "chaps", "friends"),
    ),
    conditions=(
        *("when", "whenever", "once", "if", "in case", "just in case", "after", "during"),
        *("next time", "the next time"),
        *("for", "by the time", "as soon as", "should", "at the end of", "by the end of"),
        *("for the end of", "in the event of", "in the event that", "if and when"),
        *("at the end", "in the end", "come", "during the"),
        # what the order is about: its phase ("re the trader:", "as for the captain,")
        *("re", "regarding", "as for", "as to", "concerning"),
        *("provided", "providing", "as long as", "so long as", "only if", "assuming"),
    ),
    phase_words=("phase", "turn", "round"),
    phase_leads=("in", "for", "during"),
    role_takes=("goes", "going", "went", "becomes", "become"),
    early=("in advance", "advance", "ahead of time", "ahead", "early", "beforehand"),
    decision_leads=("at", "come", "for", "during", "by"),
    nexts=("next",),
    reminders=(
        *("can you remember that", "could you remember that", "please remember that"),
        *("remember that", "remember", "can you note that", "could you note that"),
        *("please note that", "note that", "please note", "noted", "make a note of that"),
        *("can you make a note of that", "could you make a note of that", "keep that in mind"),
        *("keep it in mind", "bear that in mind", "just so you know", "so you know", "fyi"),
        *("for your info", "for your information", "heads up", "just a heads up"),
    ),
    next_of=("time", "round"),
    regardless=(
        *("whatever happens", "whatever else happens", "no matter what", "no matter how"),
        *("regardless", "in any case", "in any event", "come what may"),
        *("whatever the", "however the"),
    ),
    provisos=(
        *("unless", "afford", "enough", "money", "cash", "cheap", "expensive", "worth"),
        *("price", "prices", "cost", "costs", "profit", "profitable"),
    ),
    heading_words={
        "storage": DecisionKind.STORE,
        **dict.fromkeys(("colonists", "workers"), DecisionKind.MAYOR),
        "sales": DecisionKind.SELL,
        **dict.fromkeys(("cargo", "shipment", "shipments"), DecisionKind.LOAD),
    },
    apologies=("sorry",),
    times=("when", "whenever", "once", "after", "by the time", "as soon as"),
    unmanned=("unmanned", "vacant", "unoccupied", "unstaffed", "supply"),
    unchanged=(
        *("where it is", "where it was", "where they were", "as it is", "as it was"),
        *("as now", "touch", "touches", "anything else", "nothing else", "same as now"),
    ),
    full=(
        *("full", "no room", "no space", "no more room", "no more space", "nowhere"),
        *("fully manned", "fully staffed", "fully occupied", "all manned", "all occupied"),
        *("no empty circles", "no empty circle", "no vacancies", "no vacancy"),
    ),
    many_colonists=_EN_MANY_COLONISTS,
    totals=(
        *("that's", "that is", "thats", "that makes", "which makes", "makes", "so"),
        *("in all", "in total", "total", "altogether", "all told", "overall", "to place"),
        *("placed", "with the extra", "with the extra one", "with the extra colonist"),
        *("including the extra", "incl the extra", "counting the extra", "right"),
    ),
    manned=(
        *("manned", "staffed", "occupied", "working", "running", "operating"),
        *("in use", "in action", "active"),
    ),
    field_marks=(
        *("empty", "unmanned", "vacant", "unoccupied", "unstaffed", "unused", "idle"),
        *("spare", "first", "second", "third"),
    ),
    best=(
        *("most valuable", "worth most", "worth the most", "pays most", "pays the most"),
        *("priciest", "most expensive", "highest value", "highest-value", "best value"),
        *("most money", "the best one", "the best kind"),
        *("valuable stuff", "valuable ones", "pricey stuff"),
        *("best stuff", "best ones"),
    ),
    unreal=(
        *("if i had", "if i'd", "if i were", "if i was", "if only", "had i", "were i"),
        *("i wish", "wanted", "had wanted", "was hoping", "had hoped", "was planning"),
        *("had planned", "meant to", "was going to", "was gonna", "were it not"),
        *("if it weren't", "if it wasn't", "if not for", "if it were", "if it was"),
        *("if they were", "were it"),
    ),
    modal_perfects=(
        *("would have", "would've", "'d have", "'d've", "could have", "could've"),
        *("should have", "should've", "might have", "might've", "would of", "could of"),
    ),
    participles=(
        *("taken", "took", "picked", "chosen", "chose", "gone", "went", "liked", "loved"),
        *("preferred", "wanted", "built", "bought", "sold", "traded", "shipped", "loaded"),
        *("settled", "planted", "placed", "put", "kept", "stored", "saved", "grabbed"),
        *("got", "gotten", "selected", "had", "done", "made", "produced", "been", "used"),
        *("moved", "filled"),
    ),
    legality=(
        *("gone", "taken", "free", "left", "available", "unavailable", "there", "open"),
        *("possible", "impossible", "allowed", "legal", "sold", "full", "afford", "fits"),
        *("works", "room", "space", "still", "already", "any", "longer", "is", "are"),
        *("be", "been", "can", "cannot", "get", "have", "take", "sell", "ship", "build"),
        *("settle", "not", "no", "out", "remains", "doesn't", "won't", "isn't", "can't"),
        *("doesnt", "wont", "isnt", "cant", "arent", "aren't"),
    ),
    whichevers=("whichever", "which ever", "whatever", "whichever one"),
    fallbacks=("otherwise", "or else", "failing that"),
    claims=(
        *("that's", "thats", "that is", "that'll be", "that will be", "it's", "it is"),
        *("which is", "which gives", "gives", "giving", "makes", "for", "="),
    ),
    checks=(
        *("right", "correct", "yes", "yeah", "isn't it", "is that right", "ok"),
        *("am i right", "i think", "i believe", "if i'm not mistaken", "innit"),
    ),
    keeps_for=("for", "to", "so i can", "so that i can", "so i could"),
    approvals=(
        *("is fine", "is ok", "is okay", "is good", "is best", "will do", "works"),
        *("suits me", "sounds good", "is fine by me", "is fine with me", "please"),
        *("fine by me", "fine with me", "fine", "ok by me", "ok with me", "works for me"),
    ),
    conditionals=(
        *("if", "unless", "provided", "providing", "as long as", "so long as", "in case"),
        *("permitting", "willing", "depending", "depends", "whether", "once", "when"),
    ),
    actuals=(
        *("then", "so", "instead", "so instead", "as it is", "as things are"),
        *("as things stand", "so then", "in that case"),
    ),
    nobodies=("nobody", "no one", "noone", "no-one", "no body"),
    negations=(
        *("unless", "nobody", "no one", "noone", "never", "neither", "nor", "cannot"),
        *("except", "otherwise", "instead", "cancel", "cancelled", "canceled", "undo"),
        *("disregard", "never mind", "nevermind", "hang on", "hold on", "wrong"),
        *("nvm", "jk", "just kidding", "kidding", "joking", "just joking"),
    ),
    wholes=("all",),
    onlies=("just", "only", "nothing else", "nothing more"),
    as_much=("as much", "as many"),
    as_fits=(
        *("as possible", "as i can", "as i may", "as you can", "as fits", "as will fit"),
        *("as can fit", "as can be kept", "as i can keep", "as you can keep", "as allowed"),
        *("as the space allows", "as my space allows", "as there is room for"),
        *("as there's room for", "as i have room for", "as i've room for"),
    ),
    drops_after=(
        *("can go", "may go", "could go", "can be lost", "may be lost", "can be dumped"),
        *("is not needed", "are not needed", "goes away", "can go away", "goes"),
        *("goes back", "go back", "can go back", "may go back", "can go back to the supply"),
        *("goes back to the supply", "go back to the supply", "returns", "can return"),
        *("overboard", "goes overboard", "can go overboard", "over board"),
    ),
    drops_around=(("let", "go"),),
    reasons=(
        *("since", "because", "cause", "cos", "coz", "as", "now that"),
        *("given that", "seeing as", "seeing that", "considering"),
    ),
    consequences=("so", "therefore", "hence", "thus", "that's why", "which is why"),
    first_person=(
        *("i", "i'll", "i will", "i'm", "i am", "i'd", "i would", "i shall", "let me"),
        *("let's", "we'll", "we will", "me"),
    ),
    pronouns=("it", "its", "them", "those", "these", "there", "one"),
    subjects=("it", "that", "this", "they", "there", "he", "she"),
    purposes=(
        *("can", "could", "may", "might", "get to", "have to", "need", "that"),
        *("won't", "will not", "wouldn't", "would not", "never"),
    ),
    qualifiers=(
        # alternatives
        *("or", "whichever", "whatever", "either", "else", "alternatively", "otherwise"),
        # refusals and negations in other words ("n't" anywhere is one too)
        *("won't", "wont", "rather not", "prefer not", "bother", "avoid", "hate", "dislike"),
        *("hold off", "holding off", "held off"),
        *("against", "hardly", "barely", "forget", "ignore", "reject", "stop", "neither"),
        *("miss", "fine", "out", "naw", "nay", "negative", "interested", "chance", "dead"),
        # times
        *("last", "next", "again", "yesterday", "today", "tonight", "earlier", "early"),
        *("late", "soon", "before", "previous", "previously", "already", "still", "yet"),
        *("anymore", "ago", "first", "future", "eventually", "end", "start", "begin"),
        *("was", "were", "had", "did", "took", "taken", "picked", "chose", "chosen"),
        *("bought", "sold", "built", "shipped", "loaded", "traded", "settled", "went"),
        *("gone", "left", "kept", "got", "used", "round", "turn", "game"),
        # thinking and hypotheses
        *("would have", "could have", "should have", "would've", "could've", "should've"),
        *("thinking", "think", "thought", "considering", "consider", "wondering", "wonder"),
        *("tempted", "tempting", "maybe", "might", "mind", "probably", "possibly"),
        *("likely", "hope", "hoping", "wish", "plan", "planning", "idea", "suppose"),
        *("guess", "assume", "expect", "imagine", "unless", "if", "whether", "depends"),
        # possession that picks another thing ("my own boat" is the wharf)
        *("own", "private", "personal"),
        # persons other than the writer
        *("he", "she", "they", "them", "him", "her", "his", "hers", "their", "theirs"),
        *("you", "your", "yours", "someone", "somebody", "anyone", "anybody", "nobody"),
        *("player", "players", "opponent", "opponents", "everyone", "everybody", "us"),
        # quantities and comparisons
        *("both", "all", "rest", "most", "more", "less", "than", "half", "second"),
        *("third", "same", "few", "many", "several", "some", "any", "every", "each"),
        *("another", "other", "others", "twice", "double", "lots", "lot", "much"),
        *("enough", "least", "fewer", "couple", "pair", "whole", "entire", "only"),
        *("too", "very", "better", "best", "worse", "worst", "cheaper", "cheapest"),
        *("full", "fuller", "fullest", "emptier", "emptiest", "right", "top", "bottom"),
        *("different", "exclude", "excluding", "besides", "minus", "rid", "wait"),
        # questions
        *("who", "whom", "whose", "whoever", "what", "where", "why", "how", "while"),
        # a thing judged bad
        *("useless", "pointless", "overrated", "waste", "bad", "terrible", "awful"),
        *("sucks", "meh", "boring", "hopeless", "wasted", "stupid", "silly", "dumb"),
    ),
    chat_joints=("for", "with", "via", "is", "are"),
    abbreviations={
        # roles
        # the colours of the goods' barrels (tobacco's light brown, coffee's dark brown)
        "yellow": ("corn",),
        "blue": ("indigo",),
        "white": ("sugar",),
        "black": ("coffee",),
        "brown": ("tobacco", "coffee"),
        **dict.fromkeys(("cap", "capt", "cpt"), ("captain",)),
        "bldr": ("builder",),
        **dict.fromkeys(("craft", "crafts"), ("craftsman",)),
        **dict.fromkeys(("pros", "prosp"), ("prospector",)),
        **dict.fromkeys(("trad", "trdr"), ("trader",)),
        **dict.fromkeys(("sett", "sttlr"), ("settler",)),
        # goods
        **dict.fromkeys(("tob", "tobac", "tabac"), ("tobacco",)),
        **dict.fromkeys(("ind", "indi"), ("indigo",)),
        **dict.fromkeys(("cof", "coff"), ("coffee",)),
        "sug": ("sugar",),
        # buildings and the words of their names
        **dict.fromkeys(("hac", "haci", "hacie"), ("hacienda",)),
        **dict.fromkeys(("wh", "whs", "whse", "w/h"), ("warehouse",)),
        **dict.fromkeys(("fact", "fac"), ("factory",)),
        **dict.fromkeys(("mkt", "mkts", "mrkt"), ("market",)),
        **dict.fromkeys(("harb", "hbr"), ("harbor",)),
        **dict.fromkeys(("const", "constr"), ("construction",)),
        **dict.fromkeys(("lg", "lrg", "lge"), ("large",)),
        **dict.fromkeys(("sm", "sml"), ("small",)),
        "hosp": ("hospice",),
        "univ": ("university",),
        "whf": ("wharf",),
        "fort": ("fortress",),
        "res": ("residence",),
        "cust": ("customs",),
        "qry": ("quarry",),
        **dict.fromkeys(("col", "colo"), ("colonist",)),
        "cols": ("colonists",),
        "med": ("medium",),
        "stor": ("storage", "store"),  # (a word of a building, or the verb: read as each)
        # places, the privilege, the words of orders
        "sj": ("san juan",),
        "priv": ("privilege",),
        "w/": ("with",),
        "w/o": ("without",),
        **dict.fromkeys(("tmrw", "tmw", "tmr", "tomoz"), ("tomorrow",)),
        "idk": ("don't know",),
        **dict.fromkeys(("bc", "b/c"), ("because",)),
        "nxt": ("next",),
        "rnd": ("round",),
        "ty": ("thank you",),
        # words without their apostrophe
        **{w.replace("'", ""): (w,) for w in _EN_CONTRACTIONS},
    },
    plain=(
        "some",
        "more",
        "here",
        "there",
        "were",
        "want",
        "went",
        "mine",
        "your",
        "yours",
        "with",
        "what",
        "when",
        "which",
        "hill",
        "sure",
        "name",
        "same",
        "than",
        "then",
        # chat of a phone without a vowel (mentions: another word without one may be a
        # short form of an order word, and is never passed over)
        *("tbh", "btw", "ngl", "fwiw", "smh", "np", "hmm", "hmmm", "grr"),
    ),
)

VOCABULARIES: dict[str, Vocabulary] = {"en": ENGLISH}


# -- what is made from the table ----------------------------------------------------


def _alternative(word: str) -> str:
    # ("/" escaped: it ends the grammar's regular expressions: "w/", "w/o")
    pattern = r"[ \t]+".join(re.escape(part).replace("/", r"\/") for part in word.split())
    return pattern + r"\b" if re.search(r"\w$", word) else pattern


def terminal_pattern(term: Term) -> str:
    """The Lark regular expression of a term: its words, longest first, whole words."""
    words = sorted(set(term.words), key=lambda w: (-len(w), w))
    return "/(?:" + "|".join(_alternative(w) for w in words) + ")/i"


@cache
def terminals(vocab: Vocabulary = ENGLISH) -> str:
    """The grammar lines that define the word terminals, appended to orders.lark."""
    lines = ["", "// ---- words, made from moderator/orders/vocabulary.py"]
    lines += [f"{t.name}: {terminal_pattern(t)}" for t in vocab.terms]
    return "\n".join(lines) + "\n"


def words(vocab: Vocabulary = ENGLISH) -> tuple[str, ...]:
    """Every word the grammar accepts (each word of a several-word term too)."""
    out: set[str] = set()
    for t in vocab.terms:
        for w in t.words:
            out.add(w)
            out.update(w.split())
    return tuple(sorted(out))


@cache
def suggestions(vocab: Vocabulary = ENGLISH) -> tuple[str, ...]:
    """The words offered by "did you mean": every order word but the ignored ones and
    the abbreviations."""
    parts = {p for t in vocab.terms if t.name != "FILLER" for w in t.words for p in w.split()}
    ignored = set(vocab.fillers) - parts  # ("do" is ignored, and part of "do not")
    ignored |= set(vocab.abbreviations)  # (the word meant is offered)
    return tuple(w for w in words(vocab) if w not in ignored and re.fullmatch(r"[\w' ]+", w))


@lru_cache(maxsize=4096)
def close_words(word: str, cutoff: float = 0.7, vocab: Vocabulary = ENGLISH) -> tuple[str, ...]:
    """The two order words nearest ``word`` at ``cutoff`` or closer, best first: "did you
    mean". Remembered, since a line no decision reads is tried against each of them and
    a search costs a millisecond or two."""
    return tuple(difflib.get_close_matches(word.lower(), suggestions(vocab), n=2, cutoff=cutoff))


@cache
def not_now(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    """Words that put an order off to a time to come ("next round", "later", "in round
    5"): ``not_now``, and a word of ``rounds`` with its number."""
    words = "|".join(_alternative(w) for w in sorted(vocab.not_now, key=len, reverse=True))
    rounds = "|".join(_alternative(w) for w in vocab.rounds) or r"(?!)"
    return re.compile(rf"\b(?:{words or '(?!)'}|(?:in\s+)?(?:{rounds})\s+\d+\b)", re.IGNORECASE)


@cache
def negation(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    """A word that says no ("no", "don't", "without", "skip", "except", "never", "isn't")."""
    said = (*vocab.term("NO").words, *vocab.term("DONT").words, *vocab.term("WITHOUT").words)
    said += (*vocab.term("PASS").words, *vocab.exclusions)
    words = "|".join(_alternative(w) for w in sorted(set(said), key=len, reverse=True))
    # and any verb with "n't" ("isn't", "won't", "doesn't"), with its apostrophe or not
    bare = "|".join(a for a, meant in vocab.abbreviations.items() if meant == (f"{a[:-2]}n't",))
    return re.compile(rf"\b(?:{words}|\w+n['’]t\b|(?:{bare or '(?!)'})\b)", re.IGNORECASE)


def abbreviated(word: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``word``, a word or phrase of the table, is an abbreviation or holds one
    ("tob", "cant decide")."""
    return any(w in vocab.abbreviations for w in word.lower().split())


def written_out(text: str, vocab: Vocabulary = ENGLISH) -> str:
    """``text`` with each abbreviation of one word written as that word ("build harb":
    "build harbor"), to say what an order was read as."""

    def word(m: re.Match[str]) -> str:
        return spelled_out(m.group(0), vocab) or m.group(0)

    return re.sub(rf"{SLASHED}|[\w']+", word, text, flags=re.IGNORECASE)


def spelled_out(word: str, vocab: Vocabulary = ENGLISH) -> str | None:
    """The word an abbreviation stands for ("wouldnt": "wouldn't"); any other word as it
    is; None for an abbreviation that may stand for several ("stor")."""
    meant = vocab.abbreviations.get(word.lower(), (word,))
    return meant[0] if len(meant) == 1 else None


def slip_kind(word: str, meant: str) -> str | None:
    """How ``word`` is a slip of ``meant``, if it is one: "doubled" (a letter written
    twice: "shipp"), "dropped" ("sel", "cofee"), "swapped" (two letters side by side:
    "captian"), "moved" (the wrong letter doubled: "tobbaco"), "added" (another letter
    more) or "changed" (one letter for another: "suger"); None when it is none."""
    if word == meant or abs(len(word) - len(meant)) > 1:
        return None
    if len(word) == len(meant):
        diff = [i for i in range(len(word)) if word[i] != meant[i]]
        if len(diff) == 1:
            return "changed"
        i = diff[0]
        if len(diff) == 2 and diff[1] == i + 1 and word[i] == meant[i + 1]:
            return "swapped" if word[i + 1] == meant[i] else None
        undoubled = re.compile(r"(.)\1")
        if undoubled.sub(r"\1", word) == undoubled.sub(r"\1", meant):
            return "moved"
        return None
    short, long_ = (word, meant) if len(word) < len(meant) else (meant, word)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    if short[i:] != long_[i + 1 :]:
        return None
    if short is meant:
        twice = long_[i] in (long_[i - 1 : i], long_[i + 1 : i + 2])
        return "doubled" if twice else "added"
    return "dropped"


@cache
def qualifying(vocab: Vocabulary = ENGLISH) -> frozenset[tuple[str, ...]]:
    """The phrases that may change what the things an order names mean, as tuples of
    lower-case words: the ``qualifiers``, and the words of the conditions, negations,
    hesitations, times, questions, corrections, provisos, conditionals, "whichever"s,
    fallbacks and what would have been (and the participles after it), but those that only
    apologise."""
    said = (*vocab.qualifiers, *vocab.conditions, *vocab.negations, *vocab.undecided)
    said += (*vocab.times, *vocab.questions, *vocab.corrections, *vocab.unreal)
    said += (*vocab.modal_perfects, *vocab.participles, *vocab.provisos, *vocab.conditionals)
    said += (*vocab.whichevers, *vocab.fallbacks)
    # (not the ending of a contraction alone, "'d have": "I'd have coffee" is an order)
    return frozenset(
        tuple(p.lower().split()) for p in said if p not in vocab.apologies and p[0] != "'"
    )


def verb_words(vocab: Vocabulary = ENGLISH) -> tuple[str, ...]:
    """The words that start an order ("take", "build", "put", ...)."""
    return tuple(w for name in (*vocab.verbs, *vocab.clause_verbs) for w in vocab.term(name).words)


@cache
def known(vocab: Vocabulary = ENGLISH) -> frozenset[str]:
    """Words that are never taken for a slip of another word."""
    out = set(words(vocab)) | set(vocab.plain)
    for phrase in (*vocab.courtesies, *vocab.greetings, *vocab.interjections):
        out.update(phrase.split())
    for phrase in (*vocab.addressees, *vocab.conditions, *vocab.negations, *vocab.undecided):
        out.update(phrase.split())
    for phrase in vocab.requests:
        out.update(phrase.split())
    for phrase in (*vocab.unreal, *vocab.participles, *vocab.actuals, *vocab.whichevers):
        out.update(phrase.split())
    for phrase in (*vocab.provisos, *vocab.role_takes, *vocab.early, *vocab.regardless):
        out.update(phrase.split())
    return frozenset(out)


# -- the players' guide -------------------------------------------------------------

BEGIN = "<!-- words: made from moderator/orders/vocabulary.py; do not edit by hand -->"
END = "<!-- end of words -->"


def _short_forms(b: Building) -> list[str]:
    """The words of a building's name that name it alone (``build roaster``)."""
    out: list[str] = []
    for w in b.label.split():
        if w in ("small", "large") or w in _OWNED_ELSEWHERE:
            continue
        if [x for x in Building if w in x.label.split()] == [b] and w != b.label:
            out.append(w)
    return out


def guide_section(vocab: Vocabulary = ENGLISH) -> str:
    """docs/orders.md's section "Words": every word an order may use, from the table."""

    def codes(items: Iterable[str]) -> str:
        # (the abbreviations and the phrases with one have their own line)
        return ", ".join(f"`{w}`" for w in items if not abbreviated(w, vocab))

    lines = [BEGIN, "## Words", ""]
    lines.append(
        "Every word the moderator reads in an order, and what it is for. Capitals do not matter."
    )
    lines.append("")
    skip = {"FILLER", "BWORD"}
    for t in vocab.terms:
        if t.name in skip:
            continue
        lines.append(f"- {t.doc}: {codes(t.words)}")
    lines.append("")
    lines.append("Buildings (and the short forms that name one alone):")
    lines.append("")
    for b in Building:
        short = _short_forms(b)
        lines.append(f"- `{b.label}`" + (f" ({codes(short)})" if short else ""))
    lines.append("")
    lines.append(f"Other words in building names: {codes(vocab.term('BWORD').words)}.")
    spelled = (f"`{k}` = `{v}`" for k, v in vocab.spellings.items() if not abbreviated(k, vocab))
    lines.append(f"Spellings: {', '.join(spelled)}.")
    lines.append("")
    by_meaning: dict[tuple[str, ...], list[str]] = {}
    for a, meant in vocab.abbreviations.items():
        by_meaning.setdefault(meant, []).append(a)
    shorts = (
        f"{', '.join(f'`{a}`' for a in said)} = {' or '.join(f'`{m}`' for m in meant)}"
        for meant, said in by_meaning.items()
    )
    lines.append(
        f"Short forms, each read as the words it stands for: {'; '.join(shorts)}; and so "
        "in the phrases of this guide (`cant decide`, `fine w/ me`). Where one stands for "
        "several words, it is read as each: if that leaves two orders you may give now, "
        "you are asked which one you meant. The reply says what your order was read as."
    )
    lines.append("")
    lines.append(f"Ignored anywhere in an order: {codes(vocab.fillers)}.")
    lines.append(f"Politeness and asides dropped before reading: {codes(vocab.courtesies)}.")
    lines.append(
        f"Lines that start with {codes(vocab.greetings)} are greetings, and a name alone "
        "at the end of a mail is a signature: neither is an order."
    )
    answers = (f"{k.value} `{v} …`" for k, v in vocab.context_verbs.items())
    lines.append(
        "A bare answer is read as an order for the decision you are asked: "
        + ", ".join(answers)
        + " (so `sugar` in the settler phase is `take sugar`)."
    )
    roles = (
        f"`{w}` = {r.label}"
        for w, r in vocab.role_verbs.items()
        if w.isalpha() and not w.endswith(("s", "ing"))
    )
    lines.append(
        "An order in your own words is read by what it names. There, a verb may name "
        f"its role ({', '.join(roles)}; so do their forms in -s and -ing: "
        f"{codes(w for w in vocab.role_verbs if w.endswith('ing'))}), "
        f"{codes(vocab.mention_fillers)} name nothing, "
        f"{codes(vocab.exclusions)} exclude the thing after them as `no` and `not` do, "
        f"{codes(vocab.contrasts)} may only come before a negation, and "
        f"{codes(vocab.ship_room)} with a number name a ship by its room (`the ship with "
        f"room for 5`); {codes(vocab.draw_words)} draw the hacienda's plantation; with "
        f"{codes(vocab.not_now)} it is not read as an order for now. "
        f"{codes(vocab.nexts)} before a role, what it does or {codes(vocab.next_of)} "
        "(`next time there's a mayor`, `next captain`, `for the next round`) keep it for "
        "the next such phase or round, when the one in progress asks you no more of it; "
        "otherwise it is refused. A remark after an order that only asks to keep it in "
        f"mind ({codes(vocab.reminders)}, a question too) leaves it."
    )
    lines.append(
        "There, words the moderator does not know are passed over as chat (`a coffee "
        "plantation would be lovely`, `Mark me down for captain`), unless they may change "
        "what the things named mean: then the order is not read so. Such are "
        f"{codes(vocab.qualifiers)}, and the words of conditions, hesitations, times, "
        "questions, corrections, negations, provisos, conditions on another player's "
        "clause, `whichever` and what would have been (with its participles) "
        "below; a word with "
        "`n't`; another player's "
        "name, or a word with a capital in the middle of a sentence; a word of one or two "
        "letters; a word of this guide with a letter wrong that is no clear slip, or with "
        "letters more before or after it (`wharfing`, `unload`). Chat before a thing named "
        f"must be followed by {codes(vocab.chat_joints)} or an order word before it (`go "
        "ahead with the hacienda tile`, not `hang onto my sugar`)."
    )
    lines.append(
        "A role and the first step of its phase may share a line, joined by a comma, a dash, a "
        f"colon, `and`, `then`, and when you pick the role now {codes(vocab.step_joints)} "
        "(`settler: sugar`, `the builder for the factory`)."
    )
    lines.append(
        f"After punctuation, {codes(vocab.corrections)}, and "
        f"{codes((*vocab.short_corrections, *vocab.soft_corrections))} followed by "
        "punctuation, take back what came before (`captain? no - trader` is `trader`); "
        f"{codes(vocab.soft_corrections)} only when an order follows them (`sell corn... "
        "nah, coffee`)."
    )
    lines.append(
        f"A question is asked back, naming the orders it asks between, and nothing of it "
        f"is done: one that starts with {codes(vocab.questions)}, or ends with a question "
        "mark and names two orders or more (`Trader? Or captain?`). A preference list "
        "written as an order (`role captain, trader or builder`) is an order, and so is "
        f"a question that starts with {codes(vocab.requests)} and names one order, with no "
        "no in it (`Can I take the tobacco one?`)."
    )
    lines.append(
        f"A choice between orders (`or`, or {codes(vocab.choices)} with `and`) is asked back too "
        f"in a mail that says you have not decided: {codes(vocab.undecided)}, or "
        f"{codes(vocab.unable)} before {codes(vocab.choosing)}, maybe with "
        f"{codes(vocab.intensifiers)} between (`can't really pick`). A decision after "
        f"that and {codes(vocab.contrasts)} is the order (`Not sure, but trader`). A choice "
        "left to the moderator is asked back naming the orders it leaves (`anything but the "
        "mayor`): he never chooses for you."
    )
    lines.append(
        "Your own words before an order are passed over when they name nothing of the "
        "game: your name (`Bob here,`), an opening that starts with "
        f"{codes(vocab.interjections)} or a greeting to {codes(vocab.addressees)} "
        "(`Morning all -`), or when the order is for, up to a colon, a comma, a dash or an arrow "
        f"or up to its verb: starting with {codes(vocab.conditions)} it may name the "
        "role whose phase the order is for (`if there's a trader phase, sell corn`), "
        f"or someone taking it ({codes(vocab.role_takes)}: `in case someone goes captain`), "
        "up to your words that start the order too (`if I end up settler I'll use the "
        f"hacienda`); and so may a role before {codes(vocab.phase_words)} (`trader phase: "
        "corn`), a role alone before a colon or a dash (`Captain: sugar on the 7`), and a "
        f"role or what it does after {codes(vocab.phase_leads)} and before "
        f"{codes(vocab.phase_words)} (`in the trading phase I'll sell corn`). A heading "
        f"of {codes(vocab.heading_words)} or a verb of one decision names it (`Storage: "
        "sugar in the warehouse`, `Shipping - corn on the 5`), and so does such a word "
        f"after {codes(vocab.decision_leads)} (`at storage I want indigo in the "
        "warehouse`): only an order of that decision is read so. A condition on you "
        "alone may say no (`in case I can't answer in time:`, `if I'm not around,`), but "
        "names nothing of the game. Words that start with "
        f"{codes(vocab.regardless)} say the order holds whatever happens (`Whatever "
        "happens with the ships, keep my sugar`): what they name is passed over, up to "
        "a condition after them, but never a no, `or` or a question in them. Said with "
        f"{codes(vocab.early)}, your words may say when you are away (`Away tomorrow, so "
        f"in advance: sell corn`). Words with {codes(vocab.negations)} are never passed "
        f"over, nor a condition with {codes(vocab.provisos)} (`as long as I can afford "
        "it`: the moderator cannot check it, and the order is not done), nor another "
        "player's name: an order after it is not read as yours, unless the name is in "
        f"words that only say when, starting with {codes(vocab.times)} (`once Bob is "
        "done, sell corn`). The same words after the order are passed over too (`sell "
        "corn when it gets to me`). A line of chat that names nothing of the game is "
        "passed over in a mail with an order. A last line that only takes back (`Never "
        "mind.`) leaves the orders before it undone, and so does one that takes back and "
        f"is not understood (`no wait, the blue one`); {codes(vocab.apologies)} alone "
        "may only apologise (`Sorry for the delay`)."
    )
    lines.append(
        f"A reason given with an order is not read: one that starts with {codes(vocab.reasons)} "
        f"(`since nobody wants corn, I'll ship sugar`, `trader, since the settler is gone`), "
        f"or comes before {codes(vocab.consequences)} or {codes(vocab.contrasts)} and an "
        f"order in the first person ({codes(vocab.first_person)}: `Bob took the builder, so "
        "I'll go trader`), or a comma and `so` and an order (`no money for the harbor, so "
        "the factory`). When the reason reads as an order too, you are asked which; it is "
        "read with the order when it goes on to another choice (`..., or maybe the mayor`) or "
        f"the order stands for what it names ({codes(vocab.pronouns)}: `since sugar is worth "
        "more, keep it`)."
    )
    lines.append(
        "What would have been is no order: words with "
        f"{codes(vocab.unreal)}, or {codes(vocab.modal_perfects)} before "
        f"{codes(vocab.participles)} (`I'd have taken corn but it's gone`, `If I had a "
        "warehouse I'd keep everything`). The order after it is read when it says it is "
        f"what you do in fact, with {codes(vocab.actuals)} at its start, or a word of them "
        "at its end (`Coffee then.`, `as it is, the sugar`); without one, or when it stands "
        "for what it names (`... Keep it then.`), nothing is done."
    )
    lines.append(
        "Orders joined by `or` with a condition that only says whether the first can be "
        f"done, in words of {codes(vocab.legality)} (`the trader, or the captain if it's "
        "gone`, `tobacco, or sugar if tobacco can't be sold`, `If builder's free I'll take "
        "it, otherwise mayor`), give the first that can be done, and so do orders joined "
        f"by {codes(vocab.fallbacks)} (`the harbour, failing that the factory`). After "
        f"{codes(vocab.whichevers)} (`sugar or tobacco, whichever's left`) or with another "
        "condition (`if it's cheaper`), the one that can be done is, and when several "
        "can you are asked which."
    )
    lines.append(
        f"A question on what a sale gives, after it, with {codes(vocab.claims)} and "
        f"{codes(vocab.checks)} (`Sell one coffee, that's 6 doubloons right?`), is "
        "checked as `sell coffee for 6`: done when it gives that, asked back when not."
    )
    lines.append(
        f"Goods you keep {codes(vocab.keeps_for)} ship (`Tobacco, I'm keeping the sugar for "
        "shipping`), with an order for another decision, are its reason: no storage order."
    )
    if vocab.as_much:
        lines.append(
            f"Goods kept {codes(vocab.as_much)} ... {codes(vocab.as_fits)} (`as much tobacco "
            "as I can`) are kept as a keep order keeps them, each as much as fits; naming no "
            "good (`keep as many barrels as possible`), the way that keeps the most barrels "
            "is, the default's among as many."
        )
    lines.append(
        f"`default` followed by {codes(vocab.approvals)} (`the default is fine`), or after "
        f"{codes(vocab.whichevers)} (`whatever the default is`), is the published default, "
        "as `default` alone."
    )
    lines.append(
        "A clause whose subject is another player, after a comma, `and` or `but` or at the "
        "start of a sentence (`Bob keeps sugar, I keep corn`), is his: it is never done for "
        "you; with a no or one of "
        f"{codes((*vocab.conditionals, *vocab.provisos))} in it, it may be a condition on "
        "your order, and nothing "
        "is done."
    )
    lines.append(
        "A remark after the order on its line, after a comma or a dash, that starts with "
        "your own words or a word that is no order word, is read as a sentence of its own "
        "(`Quarry please, I'm going to be building a lot`): the order is done unless the "
        "remark has a word that may change it (a no, a condition, `or`, `but`, a "
        "correction, a time to come). After a tile or a building, an answer to its "
        f"colonist may follow on its line ({codes(vocab.unmanned)} say no: `tobacco, "
        f"but leave it unmanned`). {codes(vocab.best)} ask for the most valuable kind: "
        "a sale of the most valuable good the trading house takes, and the craftsman's "
        "barrel or the storage by their defaults (`sell whichever is worth most`)."
    )
    lines.append(
        f"In a colonist order, {codes(vocab.unchanged)} and the words of `as it is` say "
        "the rest of the board stays as it is (`everything else stays where it is`, `don't "
        f"touch anything else`): nothing more is ordered. {codes(vocab.field_marks)} before "
        "a plantation pick one of its kind (`my empty tobacco field`): a colonist goes on "
        f"one of that kind with room. {codes(vocab.manned)} after a plantation, a quarry or "
        "a building of one circle put one colonist on it (`my indigo plantation working`). "
        "A clause that only says your board is full, with "
        f"{codes(vocab.full)} (`there's no room for him anyway`, `all my stuff is full`), "
        "is a remark the rules check: it orders nothing and stops nothing. A sentence "
        f"that only counts the colonists placed, with {codes(vocab.totals)} (`That's 4 to "
        "place.`), checks the layout: a count that agrees is a remark, another is asked "
        "back."
    )
    lines.append(
        "A word with one letter wrong, added, missing or two letters swapped, or the "
        "wrong letter doubled, is read as the order word it is close to (`cofee`, "
        "`captian`, `tobbaco`), and a word of three letters with one missing (`sel`). If "
        "that leaves two orders you may give now, you are asked which one you meant."
    )
    lines.append(END)
    return "\n".join(lines)


def with_guide_section(doc: str, vocab: Vocabulary = ENGLISH) -> str:
    """``doc`` (docs/orders.md's text) with its words section made afresh."""
    start, end = doc.find(BEGIN), doc.find(END)
    if start < 0 or end < start:
        raise ValueError("docs/orders.md has no words section markers")
    return doc[:start] + guide_section(vocab) + doc[end + len(END) :]


def main(argv: list[str]) -> int:
    """``python -m moderator.orders.vocabulary [docs/orders.md]``: rewrite the guide's
    words section from the table."""
    path = Path(argv[1] if len(argv) > 1 else "docs/orders.md")
    text = path.read_text(encoding="utf-8")
    path.write_text(with_guide_section(text), encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv))


__all__ = [
    "ENGLISH",
    "SLASHED",
    "VOCABULARIES",
    "Term",
    "Vocabulary",
    "abbreviated",
    "close_words",
    "guide_section",
    "known",
    "negation",
    "not_now",
    "qualifying",
    "slip_kind",
    "spelled_out",
    "suggestions",
    "terminal_pattern",
    "terminals",
    "verb_words",
    "with_guide_section",
    "words",
    "written_out",
]
