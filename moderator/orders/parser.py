"""Text to commands: the Lark grammar (grammars/orders.lark) and its transformer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from functools import cache, lru_cache
from typing import cast

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from ..engine.actions import DecisionKind
from ..engine.components import Building, Good, Role
from ..resources import data_text
from .commands import (
    ROLE_DECISION,
    AwayCmd,
    BackCmd,
    BoardCmd,
    BuildCmd,
    Command,
    DefaultCmd,
    Dropped,
    ExtraCmd,
    HaciendaCmd,
    HelpCmd,
    HistoryCmd,
    KeepCmd,
    KeepItem,
    KeptRest,
    MailCmd,
    MayorCmd,
    Move,
    OrdersCmd,
    PassCmd,
    ResendCmd,
    Rest,
    RoleCmd,
    RoleRef,
    SellCmd,
    SettleCmd,
    Share,
    ShipCmd,
    StatusCmd,
    Target,
    TargetKind,
    WharfCmd,
    Where,
    is_service,
    target_kind,
)
from .errors import OrderError, OrderSyntaxError, Remark
from .mentions import by_mentions, mentions_of, says_full, words_of
from .queue import role_kinds
from .reading import (
    CLAUSE_CUT,
    MENTIONS_TIER,
    Heading,
    Reading,
    as_typed,
    clauses,
    conditioned,
    correction,
    detail_said,
    detail_tail,
    has_verb,
    heading_of,
    lead_in,
    normalise,
    phase_named,
    phrase,
    readings,
    remark,
    reminder,
    says_something,
    slips_of,
)
from .vocabulary import ENGLISH, Vocabulary, close_words, terminals, verb_words

GRAMMAR_NAME = "orders.lark"
# Longer orders are not orders; the cap also keeps a hostile mail cheap to reject.
MAX_ORDER_LENGTH = 300


# -- loading the grammar --------------------------------------------------------------


def grammar_text() -> str:
    """The grammar (grammars/orders.lark, shipped with the package)."""
    return data_text("grammars", GRAMMAR_NAME)


def full_grammar() -> str:
    """The grammar with its word terminals made from the vocabulary table."""
    return grammar_text() + terminals()


@cache
def lark_parser() -> Lark:
    """The LALR parser with the transformer applied while parsing (no tree is built)."""
    return Lark(
        full_grammar(),
        parser="lalr",
        lexer="contextual",
        start=["mail", "order", "colonists"],
        maybe_placeholders=True,
        transformer=_ToCommand(),
    )


# -- words (their meanings come from the vocabulary table) -----------------------------

_KEEP_S = {"customs", "fortress", "harbors", "plus"}


def fold(word: str, vocab: Vocabulary = ENGLISH) -> str:
    """One word as the tables spell it: lower case, singular, the building table's
    spelling (``harbours`` -> ``harbor``)."""
    w = " ".join(word.lower().split())
    w = vocab.spellings.get(w, w)
    if w.endswith("ies") and w[:-3] + "y" in _SINGULAR_Y:
        w = w[:-3] + "y"
    elif w.endswith("es") and w[:-2] in _SINGULAR_ES:
        w = w[:-2]
    elif w.endswith("s") and w not in _KEEP_S and not w.endswith("ss"):
        w = w[:-1]
    w = vocab.spellings.get(w, w)
    if w == "harbors":
        w = "harbor"
    return w


_SINGULAR_Y = {"factory", "university", "quarry"}
_SINGULAR_ES = {"fortress"}


def good_of(word: str, vocab: Vocabulary = ENGLISH) -> Good:
    return vocab.goods[word.lower()]


# Each building's words, plus "large" for the big production buildings that have a
# small sibling ("large indigo plant").
_BUILDING_WORDS: dict[Building, frozenset[str]] = {}
for _b in Building:
    _words = set(_b.label.split())
    if _b in (Building.INDIGO_PLANT, Building.SUGAR_MILL):
        _words.add("large")
    _BUILDING_WORDS[_b] = frozenset(_words)


def match_building(words: list[str]) -> tuple[Building, ...]:
    """Every building the words fit, in table order; an exact name wins outright."""
    return _match_building(tuple(w.lower() for w in words))


@lru_cache(maxsize=1024)
def _match_building(words: tuple[str, ...]) -> tuple[Building, ...]:
    folded: list[str] = []
    for w in words:
        folded.extend(fold(w).split())
    wanted = frozenset(folded)
    for b in Building:
        if wanted == frozenset(b.label.split()):
            return (b,)
    return tuple(b for b in Building if wanted <= _BUILDING_WORDS[b])


# -- the transformer ---------------------------------------------------------------


def _count(token: Token | None) -> int | None:
    """A ``number`` rule's value (already checked), or None when left out."""
    return None if token is None else int(token)


@dataclass(frozen=True, slots=True)
class _Placed:
    """One place of a colonist list as written: ``count`` None when not written; ``each``:
    the count goes on every place after it too ("2 each on corn and sugar"); ``shared``:
    it is shared among them ("both on corn and sugar"); ``source``: a move from there;
    ``fill``: every empty circle of it and of the places after it ("fill the roaster");
    ``everyone``: every colonist not placed otherwise, shared among it and the places
    after it ("everyone to the roaster and the university", "the rest on corn");
    ``after``: the count was written after the place ("corn 1, roaster 2"), and may be
    0 there; ``many``: no count, and the colonists said in the plural ("put them on the
    roaster", "the new ones to the roaster and the university"); ``bare``: no count nor
    colonist said ("University and coffee roaster", or after a verb: "put it on ...")."""

    target: Target
    count: int | None = None
    each: bool = False
    shared: bool = False
    source: Target | None = None
    fill: bool = False
    everyone: bool = False
    after: bool = False
    many: bool = False
    bare: bool = False


def _signed(signed: Token, target: Target) -> MayorCmd:
    """A count with its sign: "-1" off the place, "+1" onto it."""
    n = int(str(signed)[1:])
    if n < 1:
        raise OrderSyntaxError("a count must be at least 1", column=signed.column)
    if str(signed).startswith("-"):
        return MayorCmd(removals=(Move(n, target),))
    return MayorCmd(placements=(Move(n, target),))


def _placements(items: tuple[_Placed | MayorCmd, ...], verb: bool = True) -> MayorCmd:
    """A colonist list as a command. A place without a count belongs to the counted place
    before it: it takes one colonist, or the same count after "each", or a share of a
    count written before the list ("both on corn and sugar", "move two from the corn to
    the mill and the roaster"). Places with no count, the colonists said in the plural
    or (no ``verb``: "University and coffee roaster") not at all, take as many as the
    board takes there (Share.loose); "put it on the mill" is one."""
    out = MayorCmd()
    groups: list[list[_Placed]] = []
    for item in items:
        if isinstance(item, MayorCmd):
            out = out.merged(item)
        elif (
            groups
            and item.count is None
            and item.source is None
            and not item.everyone
            and not groups[-1][0].after  # ("roaster 2, university": the 2 is the roaster's)
        ):
            groups[-1].append(item)
        else:
            groups.append([item])
    removals: list[Move] = []
    placements: list[Move | Share] = []
    for head, *rest in groups:
        n = 1 if head.count is None else head.count
        if head.source is not None:
            removals.append(Move(n, head.source))
        targets = (head.target, *(p.target for p in rest))
        if head.source is None and (head.many or (head.bare and not verb)):
            placements.append(Share(None, targets, loose=True))
        elif head.everyone and rest:
            placements.append(Share(None, targets))
        elif head.everyone:
            placements.append(Move(None, head.target, rest=True))
        elif head.fill:
            placements.extend(Move(None, t) for t in targets)
        elif head.each:
            placements.extend(Move(n, t) for t in targets)
        elif rest and (head.shared or n > 1):
            placements.append(Share(n, targets, as_written=not head.shared))
        else:
            placements.append(Move(n, head.target))
            placements.extend(Move(1, t) for t in targets[1:])
    # "corn 1, sugar 2, roaster 2, university 0": counts after their places and nothing
    # else may be the board as it is to end (a count of 0 is only that)
    board = bool(groups) and all(not rest and head.after for head, *rest in groups)
    if not board and any(head.after and head.count == 0 for head, *_ in groups):
        raise OrderSyntaxError("a count must be at least 1")
    said = MayorCmd(removals=tuple(removals), placements=tuple(placements), board=board)
    return out.merged(said)


# A ship order's place: a cargo ship by its capacity, or by its size, or the wharf.
WHARF = "wharf"


@dataclass(frozen=True, slots=True)
class SizedShip:
    """A cargo ship named by its size: its rank among the ships (0 the smallest)."""

    rank: int


@v_args(inline=True)
class _ToCommand(Transformer[Token, Command]):
    """Builds Commands, each rule's children as typed arguments (the grammar's optional
    parts are bracketed, so each rule has a fixed arity; None: left out). Checks that
    need the words' meaning (an unknown building, a count of zero) raise
    OrderSyntaxError with the column of the offending word."""

    # -- small pieces

    def number(self, tok: Token) -> Token:
        text = str(tok).lower()
        if tok.type == "ART":
            value = 1
        elif tok.type == "NUMWORD":
            value = ENGLISH.numbers[text]
        else:
            if len(text) > 3:
                raise OrderSyntaxError(f"{text} is too large a number", column=tok.column)
            value = int(text)
        if value < 1:
            raise OrderSyntaxError("a count must be at least 1", column=tok.column)
        # (an article keeps its type: "on a boat" names no ship's room)
        kind = "ART" if tok.type == "ART" else "INT"
        return Token(kind, str(value), tok.start_pos, tok.line, tok.column)

    def role_name(
        self, tok: Token, num: Token | None = None, _role: Token | None = None
    ) -> RoleRef:
        # ("captain role": the second child is the word "role", not a number)
        role = ENGLISH.roles[str(tok).lower()]
        if role is not Role.PROSPECTOR:
            return RoleRef(role)
        if num is None:
            return RoleRef(Role.PROSPECTOR, exact=False)
        if int(num) == 1:
            return RoleRef(Role.PROSPECTOR)
        if int(num) == 2:
            return RoleRef(Role.PROSPECTOR2)
        raise OrderSyntaxError("there are only prospectors 1 and 2", column=num.column)

    def tile(self, *tokens: Token | None) -> Good | None:
        for tok in tokens:
            if tok is not None and tok.type == "GOOD":
                return good_of(str(tok))
        return None  # a quarry

    def building(self, *tokens: Token) -> tuple[str, tuple[Building, ...]]:
        words = [str(t) for t in tokens]
        name = " ".join(w.lower() for w in words)
        found = match_building(words)
        if not found:
            raise OrderSyntaxError(f'there is no building called "{name}"', column=tokens[0].column)
        return name, found

    def target(self, *tokens: Token) -> Target:
        words = [str(t) for t in tokens]
        text = " ".join(" ".join(w.lower().split()) for w in words)
        column = tokens[0].column
        types = [t.type for t in tokens]
        if types == ["SAN_JUAN"]:
            return Target(TargetKind.SAN_JUAN, "san juan")
        if "QUARRY" in types:
            if set(types) != {"QUARRY"}:
                raise OrderSyntaxError(f'"{text}": a quarry is just "quarry"', column=column)
            return Target(TargetKind.QUARRY, "quarry")
        goods = [t for t in tokens if t.type == "GOOD"]
        if "PLANTATION" in types or types == ["GOOD"]:
            rest = [t for t in tokens if t.type not in ("GOOD", "PLANTATION")]
            if not goods and not rest:
                # "the plantation": the player's board says which, or he is asked
                return Target(TargetKind.PLANTATION, "plantation")
            if len(goods) != 1 or rest:
                raise OrderSyntaxError(
                    f'"{text}": name one plantation, like "corn" or "coffee plantation"',
                    column=column,
                )
            good = good_of(str(goods[0]))
            return Target(TargetKind.PLANTATION, good.label, good=good)
        found = match_building(words)
        if not found:
            raise OrderSyntaxError(f'there is no building called "{text}"', column=column)
        return Target(TargetKind.BUILDING, text, buildings=found)

    # -- orders

    def role_order(self, _verb: Token | None, *roles: RoleRef) -> RoleCmd:
        return RoleCmd(roles)

    def settle_order(
        self,
        _verb: Token,
        _on: Token | None,
        count: Token | None,
        good: Good | None,
        hospice: bool | None,
        hut: Token | None,
    ) -> SettleCmd:
        if count is not None and int(count) != 1:
            raise OrderSyntaxError("the settler takes one tile", column=count.column)
        if hut is not None and good is not None:
            raise OrderSyntaxError(
                "the construction hut gives a quarry, not a plantation", column=hut.column
            )
        return SettleCmd(good, hospice)

    def hut(self, use: Token, *words: Token) -> Token:
        """The construction hut a quarry is taken with (it says nothing more)."""
        if match_building([str(w) for w in words]) != (Building.CONSTRUCTION_HUT,):
            name = " ".join(str(w).lower() for w in words)
            raise OrderSyntaxError(f'"{name}" is no construction hut', column=words[0].column)
        return use

    def no_hospice(self, *_: Token) -> bool:
        return False

    def with_hospice(self, *_: Token) -> bool:
        return True

    def use_hacienda(self, *_: Token) -> HaciendaCmd:
        return HaciendaCmd(True)

    def no_hacienda(self, *_: Token) -> HaciendaCmd:
        return HaciendaCmd(False)

    def build_order(
        self,
        _verb: Token,
        _art: Token | None,
        building: tuple[str, tuple[Building, ...]],
        price: int | None,
        university: bool | None,
    ) -> BuildCmd:
        name, found = building
        return BuildCmd(name, found, university, price)

    def no_university(self, *_: Token) -> bool:
        return False

    def with_university(self, *_: Token) -> bool:
        return True

    def sell_order(
        self,
        _verb: Token,
        count: Token | None,
        _barrel: Token | None,
        first: Token,
        _barrel_after: Token | None,
        *rest: Token | int | None,
    ) -> SellCmd:
        *others, price = rest
        tokens = (first, *(t for t in others if isinstance(t, Token)))
        if count is not None and int(count) != 1:
            raise OrderSyntaxError(
                "the trader sells one barrel: name its kind", column=count.column
            )
        goods: list[Good] = []
        for tok in tokens:
            good = good_of(str(tok))
            if good not in goods:
                goods.append(good)
        return SellCmd(tuple(goods), price if isinstance(price, int) else None)

    def price(self, *tokens: Token | None) -> int:
        (count,) = (t for t in tokens if t is not None and str(t).isdigit())
        return int(count)

    def on_ship(
        self, _on: Token, _ship: Token | None, capacity: Token, _ship2: Token | None
    ) -> int | None:
        if capacity.type == "ART" and _ship is None and _ship2 is not None:
            return None  # "on a boat": any ship (the default chooses)
        return int(capacity)

    def on_any_ship(self, *_: Token) -> None:
        return None  # "on whichever ship": any ship (the default chooses)

    def on_wharf(self, *_: Token) -> str:
        return WHARF

    def on_sized_ship(self, _on: Token, size: Token, _ship: Token) -> SizedShip:
        return SizedShip(ENGLISH.ship_sizes[" ".join(str(size).lower().split())])

    def ship_order(
        self,
        _verb: Token,
        count: Token | None,
        _barrel: Token | None,
        good_tok: Token | None,
        where: int | str | SizedShip | None,
    ) -> ShipCmd | WharfCmd:
        good = None if good_tok is None else good_of(str(good_tok))
        if where == WHARF:
            if count is not None:
                raise OrderSyntaxError(
                    "the wharf takes all barrels of a kind: leave out the count",
                    column=count.column,
                )
            return WharfCmd(good)
        if isinstance(where, SizedShip):
            return ShipCmd(good, _count(count), rank=where.rank)
        return ShipCmd(good, _count(count), where if isinstance(where, int) else None)

    def wharf_order(self, _use: Token | None, _wharf: Token, good: Token | None) -> WharfCmd:
        return WharfCmd(None if good is None else good_of(str(good)))

    def keep_item(self, count: Token | None, good: Token, where: Where | None) -> KeepItem:
        return KeepItem(good_of(str(good)), _count(count), where)

    def placed_keep_item(self, where: Where, count: Token | None, good: Token) -> KeepItem:
        return KeepItem(good_of(str(good)), _count(count), where, heads=True)

    def in_warehouse(self, *_: Token) -> Where:
        return Where.WAREHOUSE

    def on_windrose(self, *_: Token) -> Where:
        return Where.WINDROSE

    def placed_rest(self, where: Where, _rest: Token) -> KeptRest:
        return self.kept_rest(_rest, where)

    def kept_rest(self, _rest: Token, where: Where | None) -> KeptRest:
        return KeptRest(Rest.KEPT, where)

    def dropped_goods(self, *tokens: Token | None) -> Dropped:
        return Dropped(tuple(good_of(str(t)) for t in tokens if t is not None and t.type == "GOOD"))

    def dropped_rest(self, *_: Token | None) -> KeptRest:
        return KeptRest(Rest.DROPPED)

    def keep_order(self, _verb: Token, *parts: KeepItem | KeptRest | Dropped) -> KeepCmd:
        items = tuple(p for p in parts if isinstance(p, KeepItem))
        if items and items[0].heads and all(i.where is None for i in items[1:]):
            # "warehouse: corn and sugar": the place at the head of the list is for all
            items = tuple(replace(i, where=items[0].where) for i in items)
        rests = [p for p in parts if isinstance(p, KeptRest)]
        drop = tuple(g for p in parts if isinstance(p, Dropped) for g in p.goods)
        if len(rests) > 1:
            raise OrderSyntaxError("say once what becomes of the rest")
        rest = rests[0] if rests else None
        if rest is None:
            return KeepCmd(items, drop=drop)
        return KeepCmd(items, rest.rest, rest.where, drop)

    def keep_default(self, _verb: Token) -> KeepCmd:
        return KeepCmd(())

    def keep_most(self, *_: Token | None) -> KeepCmd:
        return KeepCmd((), most=True)

    def extra_order(
        self,
        _take: Token | None,
        _art: Token | None,
        _extra: Token,
        _barrel: Token | None,
        good: Token,
        _barrel_after: Token | None,
    ) -> ExtraCmd:
        return ExtraCmd(good_of(str(good)))

    def no_extra(self, *_: Token) -> PassCmd:
        return PassCmd(DecisionKind.CRAFTSMAN_EXTRA)

    # -- mayor

    def no_extra_colonist(self, *_: Token) -> MayorCmd:
        return MayorCmd(extra=False)

    def no_change(self, *_: Token | None) -> MayorCmd:
        return MayorCmd()

    def take_extra_colonist(self, *_: Token | None) -> MayorCmd:
        return MayorCmd(extra=True)

    def no_extra_short(self, *_: Token | None) -> MayorCmd:
        # "no extra" in the mayor phase: the extra colonist (colonists start only)
        return MayorCmd(extra=False)

    def take_extra_one(self, *tokens: Token | None) -> MayorCmd:
        # "I'll take the extra (one)" (colonists start only)
        word = next((t for t in tokens if t is not None and t.type == "NUMWORD"), None)
        if word is not None and ENGLISH.numbers[str(word).lower()] != 1:
            raise OrderSyntaxError("the mayor takes one extra colonist", column=word.column)
        return MayorCmd(extra=True)

    def taken(
        self, count: Token | None, _colonist: Token | None, _from: Token | None, target: Target
    ) -> Move:
        return Move(_count(count) or 1, target)

    def taken_worker(self, count: Token | None, target: Target, _colonist: Token) -> Move:
        # "remove the corn worker"
        return Move(_count(count) or 1, target)

    def taken_each(
        self,
        count: Token | None,
        _colonist: Token | None,
        _from: Token,
        _each: Token,
        target: Target,
    ) -> Move:
        # "remove one from each of corn and quarry"
        return Move(_count(count) or 1, target)

    def taken_both(
        self, _both: Token, _colonist: Token | None, _from: Token | None, target: Target
    ) -> Move:
        return Move(2, target)

    def taken_from(
        self, count: Token, _colonist: Token | None, _from: Token, target: Target
    ) -> MayorCmd:
        # "1 from quarry, 1 to university" (the mayor phase): taken off
        return MayorCmd(removals=(Move(int(count), target),))

    def removal(self, _verb: Token, *moves: Move) -> MayorCmd:
        return MayorCmd(removals=moves)

    def emptied(self, _verb: Token, *targets: Target) -> MayorCmd:
        # "empty the quarry": every colonist off it
        return MayorCmd(removals=tuple(Move(None, t) for t in targets))

    def amount_on(
        self, count: Token | None, colonist: Token | None, _on: Token | None, target: Target
    ) -> _Placed:
        many = colonist is not None and str(colonist).lower() in ENGLISH.many_colonists
        bare = count is None and colonist is None
        return _Placed(target, _count(count), many=many and count is None, bare=bare)

    def colonist_goes(
        self, count: Token | None, colonist: Token, _goes: Token, on: Token, target: Target
    ) -> _Placed:
        # "the new colonist goes onto the corn field", "my guys move to the mill"
        return self.amount_on(count, colonist, on, target)

    def count_goes(self, count: Token, _goes: Token, on: Token, target: Target) -> _Placed:
        # "the new one goes onto the corn field", "two go to the roaster"
        return self.amount_on(count, None, on, target)

    def counted_after(
        self, _colonist: Token | None, _on: Token | None, target: Target, count: Token
    ) -> _Placed:
        # "sugar 1, roaster 2": the count after the place (0 only in a board as it is to
        # end, see _placements)
        text = str(count).lower()
        n = int(text) if text.isdigit() else ENGLISH.numbers[text]
        if n > 12:
            raise OrderSyntaxError(f"{text} is too large a number", column=count.column)
        return _Placed(target, n, after=True)

    def rest_counted(
        self,
        _rest: Token,
        count: Token,
        _colonist: Token | None,
        _goes: Token | None,
        _on: Token | None,
        target: Target,
    ) -> _Placed:
        # "the remaining 2 on the roaster", "the last one goes to the university"
        return _Placed(target, int(count))

    def both_on(
        self, _both: Token, _colonist: Token | None, _on: Token | None, target: Target
    ) -> _Placed:
        return _Placed(target, 2, shared=True)

    def couple_on(
        self, _couple: Token, _colonist: Token | None, _on: Token | None, target: Target
    ) -> _Placed:
        # "a couple on the roaster" (the mayor phase): two
        return _Placed(target, 2)

    def everyone_on(
        self, _all: Token, _colonist: Token | None, _goes: Token | None, _on: Token, target: Target
    ) -> _Placed:
        # "everyone to the roaster and the university": every colonist, shared
        return _Placed(target, everyone=True)

    def each_on(
        self,
        count: Token,
        _colonist: Token | None,
        _each: Token,
        _on: Token | None,
        target: Target,
    ) -> _Placed:
        # "2 each on corn and sugar"
        return _Placed(target, int(count), each=True)

    def on_each(
        self,
        count: Token | None,
        _colonist: Token | None,
        _on: Token,
        _each: Token,
        target: Target,
    ) -> _Placed:
        # "one on each of corn, sugar and the mill"
        return _Placed(target, _count(count) or 1, each=True)

    def moved(
        self,
        count: Token | None,
        _colonist: Token | None,
        _from: Token | None,
        src: Target,
        _to: Token,
        dst: Target,
    ) -> _Placed:
        return _Placed(dst, _count(count) or 1, source=src)

    def colonist_moved(
        self, _colonist: Token, _from: Token, src: Target, _to: Token, dst: Target
    ) -> _Placed:
        return _Placed(dst, 1, source=src)

    def moved_worker(
        self,
        count: Token | None,
        src: Target,
        _colonist: Token,
        _move: Token | None,
        _to: Token,
        dst: Target,
    ) -> _Placed:
        # "the corn worker (goes) to the university"
        return _Placed(dst, _count(count) or 1, source=src)

    def moved_place(self, count: Token | None, src: Target, _to: Token, dst: Target) -> _Placed:
        # "quarry -> university", "corn to the roaster"
        return _Placed(dst, _count(count) or 1, source=src)

    def kept_in(
        self,
        verb: Token,
        count: Token | None,
        _colonist: Token | None,
        _on: Token,
        target: Target,
    ) -> _Placed:
        # "keep 1 in San Juan": only San Juan keeps colonists this way ("leave 1 on corn"
        # says nothing of what to do).
        if target.kind is not TargetKind.SAN_JUAN:
            raise OrderSyntaxError(
                f'"{verb} ... {target.text}": write what to remove or place', column=verb.column
            )
        return _Placed(target, _count(count) or 1)

    def stays_in(
        self, count: Token | None, _colonist: Token | None, stay: Token, _on: Token, target: Target
    ) -> _Placed:
        # "1 stays in San Juan"
        return self.kept_in(stay, count, _colonist, _on, target)

    def rest(
        self,
        _verb: Token | None,
        word: Token,
        _colonist: Token | None,
        _stay: Token | None,
        _as_is: Token | None,
        _on: Token | None,
        target: Target | None,
    ) -> _Placed | MayorCmd:
        # "rest in San Juan", "everyone else stays": they stay where the rules keep them;
        # "the rest on the coffee roaster": every colonist not placed yet goes there
        if target is None or target.kind is TargetKind.SAN_JUAN:
            return MayorCmd(stay=True)
        if _verb is not None or _stay is not None or _as_is is not None:
            raise OrderSyntaxError(
                f'"{word} ... {target.text}": write how many go there', column=word.column
            )
        return _Placed(target, everyone=True)  # (shared with the places after it)

    def signed_before(
        self, signed: Token, _colonist: Token | None, _on: Token | None, target: Target
    ) -> MayorCmd:
        # "-1 corn, +1 university": taken off, put on
        return _signed(signed, target)

    def signed_after(self, target: Target, signed: Token) -> MayorCmd:
        # "corn -1, university +1"
        return _signed(signed, target)

    def extra_on(
        self, _art: Token | None, _extra: Token, _colonist: Token, _on: Token, target: Target
    ) -> MayorCmd:
        # "put the extra colonist on the university": taken, and placed there
        return MayorCmd(extra=True, placements=(Move(1, target),))

    def gets_count(self, target: Target, _gets: Token, count: Token) -> _Placed:
        # "coffee roaster gets 2"
        return _Placed(target, int(count))

    def gets_couple(
        self, target: Target, _gets: Token, _couple: Token, _colonist: Token | None
    ) -> _Placed:
        # "the tobacco storage gets a couple"
        return _Placed(target, 2)

    def gets_worker(self, dst: Target, _gets: Token, src: Target, _colonist: Token) -> _Placed:
        # "the university gets the corn worker"
        return _Placed(dst, 1, source=src)

    def placement(
        self, _verb: Token, _from: Token | None, _san_juan: Token | None, *items: _Placed | MayorCmd
    ) -> MayorCmd:
        return _placements(items)

    def verbless(
        self,
        _mayor: Token | None,
        extra: MayorCmd | None,
        _from: Token | None,
        _san_juan: Token | None,
        *items: _Placed | MayorCmd,
    ) -> MayorCmd:
        return (extra or MayorCmd()).merged(_placements(items, verb=False))

    def move(self, _verb: Token, *items: _Placed | MayorCmd) -> MayorCmd:
        return _placements(items)

    def move_from(
        self,
        _verb: Token,
        _from: Token,
        src: Target,
        _to: Token,
        dst: Target,
        *items: _Placed | MayorCmd,
    ) -> MayorCmd:
        # "move from corn to the university, ..."
        return _placements((_Placed(dst, 1, source=src), *items))

    def fill(self, _verb: Token, target: Target, *items: _Placed | MayorCmd) -> MayorCmd:
        # "fill the roaster and the university, 1 on sugar": the places after "fill"
        # without a count of their own are filled too
        return _placements((_Placed(target, fill=True), *items))

    def mayor_order(self, _mayor: Token | None, *clauses: MayorCmd) -> MayorCmd:
        out = MayorCmd()
        for clause in clauses:
            out = out.merged(clause)
        return out

    def colonists(self, order: MayorCmd) -> MayorCmd:
        return order

    # -- declining and service

    def pass_order(self, *tokens: Token) -> PassCmd:
        types = {t.type for t in tokens}
        for word, kind in (
            ("SETTLE", DecisionKind.SETTLE),
            ("TAKE", DecisionKind.SETTLE),
            ("PLANTATION", DecisionKind.SETTLE),
            ("BUILD", DecisionKind.BUILD),
            ("SELL", DecisionKind.SELL),
            ("SHIP", DecisionKind.LOAD),
            ("WHARF", DecisionKind.LOAD),
        ):
            if word in types:
                return PassCmd(kind)
        return PassCmd(None)

    # -- absences

    def day_of_month(self, tok: Token) -> Token:
        return tok

    def day_month(self, day: Token, month: Token, year: Token | None) -> AwayCmd:
        return _calendar(_day(day), ENGLISH.months[str(month).lower()], _count(year), day)

    def month_day(self, month: Token, day: Token, year: Token | None) -> AwayCmd:
        return self.day_month(day, month, year)

    def iso_day(self, tok: Token) -> AwayCmd:
        y, mo, d = (int(part) for part in str(tok).split("-"))
        return _calendar(d, mo, y, tok)

    def weekday(self, tok: Token) -> AwayCmd:
        return AwayCmd(weekday=ENGLISH.weekdays[str(tok).lower()])

    def away_until(self, _away: Token, _until: Token, day: AwayCmd) -> AwayCmd:
        return day

    def away_for(self, _away: Token, count: Token, period: Token) -> AwayCmd:
        return AwayCmd(days=int(count) * ENGLISH.periods[str(period).lower()])

    def back(self, _: Token) -> BackCmd:
        return BackCmd()

    def help(self, _help: Token, *words: Token | None) -> HelpCmd:
        topic = " ".join(str(w).lower() for w in words if w is not None)
        return HelpCmd(topic or None)

    def status(self, _: Token) -> StatusCmd:
        return StatusCmd()

    def board(self, _: Token) -> BoardCmd:
        return BoardCmd()

    def orders(self, _: Token) -> OrdersCmd:
        return OrdersCmd()

    def history(self, _: Token) -> HistoryCmd:
        return HistoryCmd()

    def resend(self, _: Token) -> ResendCmd:
        return ResendCmd()

    def mail_every(self, *_: Token) -> MailCmd:
        return MailCmd(every=True)

    def mail_turns(self, *_: Token) -> MailCmd:
        return MailCmd(every=False)

    def default(self, *_: Token | None) -> DefaultCmd:
        return DefaultCmd()

    def mail(self, *orders: Command | None) -> list[Command]:
        return [c for c in orders if c is not None]


def _day(token: Token) -> int:
    """A day of the month, from "3" or "3rd"."""
    return int(re.sub(r"\D", "", str(token)))


def _calendar(day: int, month: int, year: int | None, token: Token) -> AwayCmd:
    """A day of the calendar, checked: it exists (in ``year``, or in some year)."""
    try:
        date(2000 if year is None else year, month, day)  # 2000: a leap year
    except ValueError:
        if not 1 <= month <= 12:
            reason = f'there is no month {month} in "{token}"'
            raise OrderSyntaxError(reason, column=token.column) from None
        name = next(n for n, i in ENGLISH.months.items() if i == month).capitalize()
        when = f"{day} {name}" + ("" if year is None else f" {year}")
        raise OrderSyntaxError(f"there is no {when}", column=token.column) from None
    return AwayCmd(month=month, day=day, year=year)


# -- syntax errors in plain words ----------------------------------------------------

_EXPECTED = {
    "GOOD": "a good (corn, indigo, sugar, tobacco, coffee)",
    "ROLE_NAME": "a role",
    "MAYOR": "a role",
    "PROSPECTOR": "a role",
    "NUMBER": "a number",
    "NUMWORD": "a number",
    "BWORD": "a building",
    "QUARRY": '"quarry"',
    "PLANTATION": '"plantation"',
    "SAN_JUAN": '"san juan"',
    "SIGNED": "a number",
    "WAREHOUSE": "a building",
    "WINDROSE": '"wind rose"',
    "ON": '"on"',
    "TO": '"to"',
    "FROM": '"from"',
    "COLONIST": '"colonist"',
    "HOSPICE": "a building",
    "UNIVERSITY": "a building",
    "HACIENDA": "a building",
    "WHARF": '"wharf"',
    "EXTRA": '"extra"',
    "PASS": '"nothing"',
    "SHIP": '"ship"',
    "_COMMA": '","',
    "AWAY": '"away"',
    "UNTIL": '"until"',
    "MONTH": "a month",
    "WEEKDAY": "a day of the week",
    "PERIOD": '"days" or "weeks"',
    "ORDINAL": "a day of the month",
    "ISO_DATE": "a date",
    "_OR": '"or"',
    "_SEP": "the end of the order",
    "$END": "the end of the order",
}


def _word_at(text: str, index: int) -> str:
    m = re.match(r"[\w'’-]+|\S", text[index:])
    return m.group(0) if m else ""


# Words that only join the things of an order: worth naming when nothing else fits.
_JOINING = {
    *("ART", "ON", "TO", "FROM", "COLONIST", "PLANTATION", "PASS", "_COMMA", "_OR"),
    *("$END", "_SEP"),
}


def _describe_expected(expected: set[str], then: str) -> str:
    """What may come at the place of a syntax error, in words ("a role should come
    there"): only when it is a few things, which help the player; a longer list of the
    grammar's possibilities would not."""
    things = expected - _JOINING or expected
    if "BWORD" in things and "PLANTATION" not in expected:
        things -= {"GOOD"}  # "build coffee": a good names its building
    names: list[str] = []
    for term in sorted(things):
        desc = _EXPECTED.get(term)
        if desc and desc not in names:
            names.append(desc)
    if not names or len(names) > 5:
        return ""
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f": {listed} should {then}"


def _said(text: str, limit: int = 40) -> str:
    """A part of the order, quoted for the reply (cut when long)."""
    words = " ".join(text.split())
    return f'"{words}"' if len(words) <= limit else f'"{words[: limit - 1]}…"'


def syntax_error(exc: UnexpectedInput, text: str) -> OrderSyntaxError:
    """A Lark error as an OrderSyntaxError in plain words: the word, where (the column,
    for the caret) and, when it helps, what would fit there."""
    if isinstance(exc, UnexpectedCharacters):
        index = exc.pos_in_stream or 0
        word = _word_at(text, index)
        # (never the word itself: it is known, only not there)
        close = [w for w in close_words(word) if w != word.lower()]
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        if index == 0 or not text[:index].strip():
            reason = f'"{word}" is not an order I know{hint}'
        else:
            reason = f'I do not understand "{word}" here{hint}'
        return OrderSyntaxError(reason, column=index + 1)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = set(exc.expected)
        if tok.type in ("$END", "_SEP"):
            before = _said(text)
            return OrderSyntaxError(
                f"{before} stops too early" + _describe_expected(expected, "follow"),
                column=len(text.rstrip()) + 1,
            )
        start = tok.start_pos if tok.start_pos is not None else 0
        if not text[:start].strip():
            return OrderSyntaxError(
                f'"{tok}" cannot start an order; an order starts with a word like '
                + ", ".join(f'"{w}"' for w in ("role", "take", "build", "sell", "ship")),
                column=start + 1,
            )
        before = _said(text[:start])
        return OrderSyntaxError(
            f'"{tok}" does not fit after {before}' + _describe_expected(expected, "come there"),
            column=start + 1,
        )
    if isinstance(exc, UnexpectedEOF):
        return OrderSyntaxError(f"{_said(text)} stops too early", column=len(text) + 1)
    return OrderSyntaxError("I cannot read this order")  # pragma: no cover


# -- public parsing API --------------------------------------------------------------


def parse_order(text: str, start: str = "order") -> Command:
    """One order (no ";" or line break). Raises OrderSyntaxError; columns are 1-based
    within ``text``. ``start``: "colonists" reads it as a colonist order of the mayor
    phase, where it needs no verb (grammars/orders.lark)."""
    if len(text) > MAX_ORDER_LENGTH:
        raise OrderSyntaxError(
            f"this order is too long ({len(text)} characters); write one order per line",
            line=text[:80] + "…",
        )
    if not text.strip():
        raise OrderSyntaxError("the order is empty", column=1)
    readable = normalise(text)
    if not readable.strip():
        raise OrderSyntaxError("there is no order here, only politeness", column=1)
    return _parse_order(readable, start)


@lru_cache(maxsize=4096)
def _parse_order(text: str, start: str) -> Command:
    # Commands are immutable, so a repeated order (a bot's, a resent mail) is parsed once.
    try:
        # The transformer runs while parsing: the result is its Command, not a tree.
        command = cast(Command, lark_parser().parse(text, start=start))
    except UnexpectedInput as exc:
        raise syntax_error(exc, text) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, OrderError):
            raise exc.orig_exc from None
        raise
    except LarkError as exc:  # pragma: no cover - any other Lark failure is a bad order
        raise OrderSyntaxError(f"I cannot read this order ({exc})") from None
    if command == KeepCmd(()) and _words_of(ENGLISH.wholes).search(text):
        return KeepCmd((), Rest.KEPT)  # "keep it all": not the default, everything
    keeps = isinstance(command, KeepCmd) and command.items and command.rest is None
    if keeps and _words_of(ENGLISH.onlies).search(text):
        return replace(cast(KeepCmd, command), rest=Rest.DROPPED)  # "just the coffee"
    if isinstance(command, KeepCmd) and command.items and _words_of(ENGLISH.wholes).search(text):
        return replace(command, whole=True)  # "keep all the sugar and coffee"
    return command


@lru_cache(maxsize=8)
def _words_of(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, words)) or '(?!)'})\b", re.I)


def parse_orders(text: str) -> list[Command]:
    """Every order of a text with the whole-mail grammar rule; stops at the first error
    (check_mail reads line by line and reports every bad line instead)."""
    try:
        commands = cast(list[Command], lark_parser().parse(text, start="mail"))
    except UnexpectedInput as exc:
        raise syntax_error(exc, text) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, OrderError):
            raise exc.orig_exc from None
        raise
    return commands


@dataclass(frozen=True, slots=True)
class Segment:
    """One order's text in a mail: its line (1-based), the whole line, and the column
    where the order starts (1-based)."""

    line_no: int
    line: str
    column: int
    text: str


_PASSWORD = re.compile(r"^\s*password\b", re.IGNORECASE)
# Between two orders on a line: a semicolon, or a slash between blanks ("tob wh / sugar
# rose"; not "w/", nor "sugar/coffee", which may say or).
_BETWEEN_ORDERS = re.compile(r";|(?<=\s)/(?=\s)")


def segments(
    text: str, own: frozenset[str] = frozenset(), others: frozenset[str] = frozenset()
) -> Iterator[Segment]:
    """Split a mail body into orders: a line each, separated by ";", or cut where a
    sentence ends or a comma, "and" or "then" comes before a verb (reading.clauses).
    Blank lines, "#" comments and password lines (read by the service) are skipped.
    ``others``: the other players' names, before which a clause of theirs starts.
    A piece that only answers the colonist of a hospice or university belongs to the
    order before it, or after it when it comes first ("Coffee. No hospice.", "Coffee"
    and "no hospice" on two lines): one order, "Coffee, no hospice"."""
    held: Segment | None = None  # the order a detail may still join
    early: list[tuple[Segment, str]] = []  # details met before any order, and what they say
    for seg in _pieces(text, own, others):
        tail = detail_tail(seg.text)
        said = detail_said(seg.text) if tail is None else None
        if tail is not None:
            # answers after the order on its line ("coffee, and yes put the hospice guy
            # on it"): the order with them
            seg = _joined(replace(seg, text=seg.text[: tail[0]]), tail[1])
        if said is not None:
            if held is not None and says_something(held.text) and not _role_only(held.text):
                held = _joined(held, [said])
            else:
                early.append((seg, said))
            continue
        if held is not None:
            yield held
        held = seg
        if early and says_something(seg.text):
            held, early = _joined(held, [d for _, d in early]), []
    if held is not None:
        yield held
    yield from (d for d, _ in early)  # details alone: read as they are


def _role_only(text: str) -> bool:
    """Whether ``text`` names roles and nothing else ("builder"): a colonist's answer
    after it is for the tile or building that follows."""
    found = words_of(text)
    things = mentions_of(found) if found is not None else None
    return bool(things) and all(m.cls == "role" for m in things or ())


def _joined(order: Segment, details: list[str]) -> Segment:
    said = [d for d in details if d]
    if not said:
        return order
    return replace(order, text=", ".join([order.text.rstrip(".!"), *said]))


def _pieces(text: str, own: frozenset[str], others: frozenset[str]) -> Iterator[Segment]:
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        cut = line.find("#")
        body = line if cut < 0 else line[:cut]
        if not body.strip() or _PASSWORD.match(body):
            continue
        start = 0
        for part in _BETWEEN_ORDERS.split(body):
            for at, clause in clauses(part, own=own, others=others):
                yield Segment(line_no, line, start + at + 1, clause)
            start += len(part) + 1


def password(text: str) -> str | None:
    """The last "password <secret>" line of a body, if any."""
    found: str | None = None
    for raw in text.splitlines():
        m = re.match(r"^\s*password\s*[:=]?\s*(\S+)", raw, re.IGNORECASE)
        if m:
            found = m.group(1)
    return found


@dataclass(frozen=True, slots=True)
class Alternative:
    """An order as read otherwise than written (reading.readings), parsed."""

    reading: Reading
    command: Command


@dataclass(frozen=True, slots=True)
class Parsed:
    """An order of a mail and its command. ``reading`` is a text that parses to it as
    written (the segment's own text, unless the order was read otherwise: then
    ``alternatives`` holds every reading that parses, best first, and ``command`` is
    the first one's until the game chooses among them)."""

    segment: Segment
    command: Command
    reading: str = ""
    alternatives: tuple[Alternative, ...] = ()

    @property
    def text(self) -> str:
        return self.reading or self.segment.text


def parse_mail(text: str, kind: DecisionKind | None = None) -> list[Parsed | OrderError]:
    """Every order of a mail body, each parsed on its own so one bad line does not hide
    the others. An order that does not parse as written is read otherwise when it can
    be (as an answer to a decision of ``kind``, the one the player is asked now, or the
    one an earlier order of the mail leads to: "Settler" then "quarry"; with a slip
    corrected). A bare word that is an order for another decision ("wharf" while
    building) is read first as an answer to the decision asked. Errors are placed in
    their mail line (line number and column)."""
    return [item for _, item in read_mail(text, kind)]


def read_mail(
    text: str,
    kind: DecisionKind | None = None,
    own: frozenset[str] = frozenset(),
    others: frozenset[str] = frozenset(),
) -> list[tuple[Segment, Parsed | OrderError]]:
    """parse_mail's orders, each with the segment of the mail it was read from. A role
    or the hacienda with the first step it leads to behind a colon, comma, dash, "and",
    "then" ("Mayor: 2 on coffee roaster, 1 on university", "settler - sugar",
    "Hacienda, then the quarry") is two orders (_two_steps). ``own``, ``others``: the
    writer's names and the other players' (segments)."""
    text = as_typed(text)
    out: list[tuple[Segment, Parsed | OrderError]] = []
    # A heading alone on its line ("Trader:", "Storage:") from a player who picks no role
    # now: the lines below it, up to a blank line or another heading, are orders of its
    # phase ("Trader:" then "tobacco"), not a role and a sale.
    heading: Heading | None = None
    last = 0
    taken_back = kind  # the decision the last order read was for
    for seg in segments(text, own, others):
        if heading is not None and seg.line_no > last + 1:
            heading = None
        last = seg.line_no
        if correction(seg.text):
            # ("Hacienda... no actually, skip it": for what the order before it was for)
            kind = taken_back
        head = heading_of(seg.text, own=own) if kind is not DecisionKind.ROLE else None
        if head is not None:
            heading = head
            continue
        phase = heading.roles if heading is not None else frozenset()
        under = heading.kind if heading is not None and heading.kind is not None else kind
        item = _parse_segment(seg, under, own, phase)
        split = _two_steps(seg, kind, own) if _may_split(item, kind) else None
        if isinstance(item, OrderError) and split is None:
            split = _remarked(seg, kind, own)
        # (a clause of its own after the order on its line: "I don't want anything extra,
        # I have nowhere to store it")
        before = out[-1][1] if out else None
        if (
            isinstance(item, OrderError)
            and split is None
            and isinstance(before, Parsed)
            and before.segment.line_no == seg.line_no
            and _remarks(seg.text, before.command, kind)
        ):
            split = [(seg, Remark(seg.text, seg.line_no))]
        for part, parsed in split or [(seg, item)]:
            out.append((part, parsed))
            if isinstance(parsed, Parsed):
                taken_back, kind = kind, _leads_to(parsed.command, kind)
    return out


def whole_colonists(
    read: list[tuple[Segment, Parsed | OrderError]], own: frozenset[str] = frozenset()
) -> list[tuple[Segment, Parsed | OrderError]]:
    """A mayor's mail whose lines are one colonist order read whole when some of them
    cannot be read alone ("Yes please to the extra colonist." / "It goes on my empty
    sugar field." / "The other two both to the coffee roaster."): the sentences joined,
    made ready as every reading of a colonist order is (reading.normalise, clauses
    kept), and read by what they name (mentions._mayor), as one order. ``read`` as it was when
    no line is left unread, a line is no colonist order, or the whole says nothing."""
    if not any(isinstance(item, OrderSyntaxError) for _, item in read):
        return read
    names = re.compile(
        r"\b(?:" + "|".join(re.escape(n) for n in sorted(own, key=len, reverse=True)) + r")\b",
        re.IGNORECASE,
    )
    said: list[Segment] = []
    for seg, _ in read:
        text = names.sub(" ", seg.text) if own else seg.text
        words = words_of(text)
        if words is not None and all(w.cls in ("filler", "stop") for w in words):
            continue  # a greeting or the signature ("Hi all,", "Thanks, Anna")
        said.append(seg)
    if len(said) < 2:
        return read
    joined = " ".join(
        s.text.strip() if s.text.strip()[-1:] in ".;:!," else f"{s.text.strip()}." for s in said
    )
    found = by_mentions(normalise(joined, clauses=True), DecisionKind.MAYOR)
    if found is None or len(found.texts) != 1:
        return read
    try:
        command = parse_order(found.texts[0])
    except OrderError:
        return read
    if not isinstance(command, MayorCmd):
        return read
    first = said[0]
    seg = Segment(first.line_no, first.line, first.column, joined)
    return [(seg, Parsed(seg, command, found.texts[0]))]


def colonist_order(text: str) -> MayorCmd | None:
    """``text`` as a colonist order of the mayor phase, where the decision asked says
    what it is for and it needs no verb ("1 to sugar, 2 to coffee roaster", "the corn
    worker goes to the university", "no extra"), or None when it is not one."""
    if len(text) > MAX_ORDER_LENGTH:
        return None
    try:
        command = parse_order(text, start="colonists")
    except OrderError:
        return None
    return command if isinstance(command, MayorCmd) else None


def _colonists_read(seg: Segment, otherwise: bool, own: frozenset[str]) -> Parsed | None:
    """A segment as a colonist order of the mayor phase: as written, or (``otherwise``:
    it is no other order as written) with a slip corrected or a leading "OK,"/"then"
    dropped; several such readings are left to the game to choose among."""
    colonists = colonist_order(seg.text) or _headed(seg.text)
    if colonists is not None:
        return Parsed(seg, colonists)
    if not otherwise:
        return None
    found: list[Alternative] = []
    for reading in readings(seg.text, DecisionKind.MAYOR, own=own):
        if reading.tier not in (0, 2):
            continue  # (the verb-completed ones are read as written by the grammar)
        command = colonist_order(reading.text)
        if command is not None and not _in_phase(reading, command):
            continue
        if command is not None and all(a.command != command for a in found):
            found.append(Alternative(reading, command))
    if not found:
        return None
    if len(found) == 1:
        return Parsed(seg, found[0].command, found[0].reading.text)
    return Parsed(seg, found[0].command, found[0].reading.text, tuple(found))


# Where one order may end and the next begin within a segment: a comma, a colon, a dash,
# "and", "then" (the words of the vocabulary's _AND and _THEN), and (``ties``) a word that
# ties a role to what it is for ("the builder for the factory", "trader with my sugar").
@cache
def _joint(ties: bool, vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    joins = [w for t in ("_AND", "_THEN") for w in vocab.term(t).words]
    joins += vocab.step_joints if ties else ()
    words = "|".join(phrase(w) for w in sorted(joins, key=len, reverse=True))
    # (and an arrow, "Settler -> coffee", or a bracket, "Craftsman (bonus: sugar)")
    arrows = "|".join(re.escape(w) for w in vocab.term("TO").words if not w.isalpha())
    signs = rf"(?:{arrows}|[,:(\-\u2013\u2014])"
    said = rf"(?<!\w)(?:{words})(?!\w)"  # (whole words, and signs: "&", "+", "w/")
    return re.compile(rf"\s*(?:{signs}|{said})(?:\s|{signs}|{said})*", re.I)


def _part(seg: Segment, start: int, end: int) -> Segment:
    raw = seg.text[start:end]
    lead = len(raw) - len(raw.lstrip())
    return Segment(seg.line_no, seg.line, seg.column + start + lead, raw.strip())


def _two_steps(
    seg: Segment, kind: DecisionKind | None, own: frozenset[str] = frozenset()
) -> list[tuple[Segment, Parsed | OrderError]] | None:
    """The segment as two orders: the first a role or the hacienda read on its own, the
    second for the decision it leads to, read as an order of that decision and no
    other. None when no cut gives that, or two cuts give different orders ("hacienda:
    no and then corn" is never "hacienda" and "no ... corn"); after the hacienda the
    second never starts with a yes or a no, which answers it. "settler, nothing"
    declines the tile."""
    found: list[list[tuple[Segment, Parsed | OrderError]]] = []
    # (a role tied to what it is for, only when the player picks one now: sent ahead,
    # "... the builder for the university" may be advice or a plan, not two orders)
    for m in _joint(kind is DecisionKind.ROLE).finditer(seg.text):
        if m.start() == 0 or m.end() >= len(seg.text.rstrip()):
            continue
        first, second = _part(seg, 0, m.start()), _part(seg, m.end(), len(seg.text))
        head = _parse_segment(first, kind, own)
        if not isinstance(head, Parsed) or len(head.alternatives) > 1:
            continue
        if kind is DecisionKind.HACIENDA and head.command == PassCmd(None):
            # "no thanks, just the coffee": the hacienda declined, then the tile
            head = replace(head, command=HaciendaCmd(False), alternatives=())
        if not isinstance(head.command, RoleCmd | HaciendaCmd):
            continue
        if (
            isinstance(head.command, HaciendaCmd)
            and _answer_words().match(second.text)
            and _names_only(first.text)
        ):
            # "hacienda: no ...": the no answers the hacienda (not after an answer of its
            # own: "no to the extra plantation, yes to coffee")
            continue
        then = _leads_to(head.command, kind)
        if then is None or then is kind:
            continue
        step = _parse_segment(second, then, own)
        if not isinstance(step, Parsed):
            continue
        if isinstance(step.command, PassCmd) and any(
            a.reading.tier >= MENTIONS_TIER for a in step.alternatives
        ):
            continue  # "craftsman I guess, nothing better left": a remark, not a pass
        if isinstance(step.command, PassCmd) and step.command.kind is None:
            # "settler, nothing": the step's decision declined, not the role's
            step = replace(step, command=PassCmd(then), alternatives=())
        if target_kind(step.command) is then:
            found.append([(first, head), (second, step)])
    readings = {(_command(pair[0][1]), _command(pair[1][1])) for pair in found}
    return found[0] if len(readings) == 1 else None


def _remarked(
    seg: Segment, kind: DecisionKind | None, own: frozenset[str] = frozenset()
) -> list[tuple[Segment, Parsed | OrderError]] | None:
    """The segment as an order and a remark after a comma or a dash ("Quarry please,
    I'm going to be building a lot"): the order as if the remark were a sentence of its
    own (read and reported as not understood, so that what the mail does not say
    clearly still stops what it may change). The last cut whose head is one order (or a
    role and its first step, _two_steps) and whose tail is only a remark
    (reading.remark) and no order."""
    for m in reversed(list(CLAUSE_CUT.finditer(seg.text))):
        if m.start() == 0 or m.end() >= len(seg.text.rstrip()):
            continue
        first, second = _part(seg, 0, m.start()), _part(seg, m.end(), len(seg.text))
        # (a remark that the mayor's board is full: "no change, all my stuff is full")
        checked = kind is DecisionKind.MAYOR and says_full(second.text)
        if conditioned(first.text, own=own) or not (
            checked or remark(second.text, kind=kind, passed=True, loose=True)
        ):
            continue  # (no remark for any order: not read for the order before it)
        # (the order read as a segment is: "Settler -> quarry, I'm going to build")
        item = _parse_segment(first, kind, own)
        heads = _two_steps(first, kind, own) if isinstance(item, OrderError) else None
        heads = heads or [(first, item)]
        read = [p for _, p in heads if isinstance(p, Parsed) and len(p.alternatives) <= 1]
        if len(read) < len(heads):
            continue
        if not (
            checked or _remarks(second.text, read[-1].command, kind if len(heads) == 1 else None)
        ):
            continue
        # ("..., please note" is no order, whatever its words read as)
        tail = (
            None
            if reminder(second.text)
            else _parse_segment(second, _leads_to(read[-1].command, kind), own)
        )
        # (after a pass, a statement read only by what it names is its reason: "nothing,
        # I'm hoarding for the coffee roaster")
        mused = isinstance(read[-1].command, PassCmd) and _by_mentions_only(tail)
        if isinstance(tail, Parsed) and not _slipped_elsewhere(tail, kind) and not mused:
            return None  # two orders: read as written
        # (not "did you mean" on a remark: "love the smell of it" is no "move the small
        # of it" while the craftsman)
        return [*heads, (second, Remark(second.text, second.line_no, checked))]
    return None


def _by_mentions_only(item: Parsed | OrderError | None) -> bool:
    """Whether ``item`` is read only by what it names (mentions.py), no other way."""
    if not isinstance(item, Parsed) or not item.alternatives:
        return False
    return all(a.reading.tier >= MENTIONS_TIER for a in item.alternatives)


def _verb_said(text: str) -> bool:
    """Whether ``text`` says a verb of an order anywhere, or a slip of one ("I'll shipp
    my corn"); not a noun after an article or "my" ("need people on my buildings")."""
    verbs = frozenset(verb_words())
    said = re.findall(r"[a-z']+", text.lower())
    nouns = {*ENGLISH.term("ART").words, "my", "his", "her", "your", "our", "their"}
    return has_verb(text) or any(
        (w in verbs or verbs & set(slips_of(w))) and (i == 0 or said[i - 1] not in nouns)
        for i, w in enumerate(said)
    )


def _same_order(one: Command, other: Command, kind: DecisionKind | None) -> bool:
    """Whether two readings order the same: a pass of the decision asked is the pass
    ("nah, nothing" read as "nothing" and as "build nothing" while building)."""
    passes = {PassCmd(None), PassCmd(kind)}
    return one == other or (one in passes and other in passes)


def _remarks(text: str, order: Command, kind: DecisionKind | None) -> bool:
    """Whether ``text``, after ``order`` on its line, can only be a remark on it
    (reading.remark, for the decision the order answers: its own, or ``kind``, the one
    asked). After a role, only one that names nothing: "Captain - I'll load ..." may be
    its first step, not understood; one that names things without a verb of an order
    is not ("mayor pls, need people on my buildings")."""
    if isinstance(order, RoleCmd) and says_something(text) and _verb_said(text):
        return False
    answers = target_kind(order) or kind
    return remark(text, kind=answers, passed=isinstance(order, PassCmd))


def _same_decision(command: Command, kind: DecisionKind | None) -> bool:
    """Whether ``command`` is for the decision of ``kind`` (or the tile after the
    hacienda's); any, with none asked."""
    target = target_kind(command)
    after = DecisionKind.SETTLE if kind is DecisionKind.HACIENDA else kind
    return kind is None or target in (None, kind, after)


def _slipped_elsewhere(parsed: Parsed, kind: DecisionKind | None) -> bool:
    """Whether ``parsed`` is an order only with slips corrected, and for another
    decision than the one asked."""
    tiers = [a.reading.tier for a in parsed.alternatives]
    slipped = parsed.reading and tiers and min(tiers) >= 2
    return bool(slipped) and kind is not None and target_kind(parsed.command) not in (None, kind)


def _command(item: Parsed | OrderError) -> Command | None:
    return item.command if isinstance(item, Parsed) else None


@cache
def _answer_words(vocab: Vocabulary = ENGLISH) -> re.Pattern[str]:
    words = [w for t in ("YES", "NO", "DONT", "WITHOUT") for w in vocab.term(t).words]
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(rf"^(?:{alternatives})\b", re.IGNORECASE)


def _may_split(item: Parsed | OrderError, kind: DecisionKind | None) -> bool:
    """Whether ``item`` may be read as two steps instead (_two_steps): not read, or,
    while the hacienda is asked, read as an order for a later phase only ("no thanks,
    just the coffee" is the hacienda declined and a tile, not a storage)."""
    if isinstance(item, OrderError):
        return True
    later = target_kind(item.command)
    return kind is DecisionKind.HACIENDA and later not in (None, kind, DecisionKind.SETTLE)


def _names_only(text: str, vocab: Vocabulary = ENGLISH) -> bool:
    """Whether ``text`` only names the hacienda ("Hacienda:", "my hacienda -"): no
    answer to it."""
    said = {w.lower() for w in re.findall(r"[\w'-]+", text)}
    return said <= {*vocab.term("HACIENDA").words, *vocab.fillers}


_HEAD = re.compile(r"^([^:]{1,60}):\s*(?=\S)")


@cache
def _heading_words() -> frozenset[str]:
    """The words of a heading that counts or places the colonists listed after it ("My 3
    colonists:", "place all three:")."""
    names = ("COLONIST", "NUMWORD", "PLACE", "ART", "FILLER", "_AND")
    return frozenset(w for n in names for w in ENGLISH.term(n).words)


def _headed(text: str) -> MayorCmd | None:
    """A colonist list after a heading that says nothing more than the count, a verb or
    the extra colonist ("My 3 colonists: 2 to the roaster, 1 to the university", "With
    the extra colonist: ..."); a count's heading may end without a colon ("The three go
    two to the roaster and one to the sugar mill")."""
    m = _HEAD.match(text)
    if m is None:
        at = _counted_head(text)
        body = colonist_order(text[at:]) if at is not None else None
        if at is None or body is None:
            return None
        return body if _adds_up(re.findall(r"[\w']+", text[:at].lower()), body) else None
    answer = normalise(text[m.end() :]).strip().lower().rstrip(".!")
    if answer in (*ENGLISH.term("YES").words, *ENGLISH.term("NO").words):
        # "Extra colonist: no", "extra: yes": the answer said after the heading
        verb = "take" if answer in ENGLISH.term("YES").words else "no"
        command = colonist_order(f"{verb} {m.group(1)}")
        extra = command is not None and not (command.removals or command.placements)
        return command if extra else None
    body = colonist_order(text[m.end() :])
    if body is None:
        return None
    said = colonist_order(m.group(1))
    if said is not None and not said.removals and not said.placements and not said.stay:
        return said.merged(body)
    words = re.findall(r"[\w']+", m.group(1).lower())
    if words and all(w.isdigit() or w in _heading_words() for w in words):
        return body if _adds_up(words, body) else None
    return None


def _counted_head(text: str) -> int | None:
    """Where the list starts after a heading that counts the colonists without a colon
    ("The three go two to the roaster and one to the sugar mill"): at the count after
    the heading's own, when the heading has only heading words; None otherwise."""
    counted = False
    for m in re.finditer(r"[\w']+", text):
        word = m[0].lower()
        count = word.isdigit() or word in ENGLISH.numbers
        if count and counted:
            return m.start()
        if not (count or word in _heading_words()):
            return None
        counted = counted or count
    return None


def _adds_up(heading: list[str], body: MayorCmd) -> bool:
    """Whether the count a heading says ("My 3 colonists:") is the number the list after
    it places, when it says one and the list counts them all ("the four new ones: two
    on the roaster, one on the university" is no layout of three)."""
    said = [int(w) if w.isdigit() else ENGLISH.numbers.get(w) for w in heading]
    counts = [n for n in said if n is not None]
    if not counts:
        return True
    placed = [p.count if isinstance(p, Move) and not p.rest else None for p in body.placements]
    if len(counts) > 1 or None in placed:
        return False  # two counts, or a share the count may not fit: never guessed
    total = sum(n for n in placed if n is not None)
    # (the colonists taken off are placed again besides the count: "My 3 colonists: 1
    # from corn, 2 to the roaster, 1 to the university, 1 to sugar")
    removed = [r.count for r in body.removals]
    sums = {total} | ({total - sum(n for n in removed if n is not None)} if removed else set())
    if None in removed:
        sums = {total}
    return any(counts[0] >= n if body.stay else counts[0] == n for n in sums)


def _leads_to(command: Command, kind: DecisionKind | None) -> DecisionKind | None:
    """The decision the player faces after ``command`` (a role's, the tile after the
    hacienda), for reading bare answers on later lines."""
    if isinstance(command, RoleCmd) and len(command.roles) == 1 and command.roles[0].exact:
        return ROLE_DECISION.get(command.roles[0].role, kind)
    if isinstance(command, HaciendaCmd):
        return DecisionKind.SETTLE
    return kind


def _in_phase(reading: Reading, command: Command) -> bool:
    """Whether ``command`` is for the phase the words before it named, if any ("when the
    captain comes: keep sugar"; not "when the captain comes: sell sugar")."""
    if not reading.phase:
        return True
    kinds = {k for role in reading.phase for k in role_kinds(role)}
    if reading.decision is not None:
        kinds &= {reading.decision}  # "at storage: corn on the 5" is no storage
    return target_kind(command) in kinds


def _parse_segment(
    seg: Segment,
    kind: DecisionKind | None,
    own: frozenset[str] = frozenset(),
    heading: frozenset[Role] = frozenset(),
) -> Parsed | OrderError:
    literal: Command | None = None
    try:
        literal = parse_order(seg.text)
    except OrderError as err:
        error = err.at(seg.line, seg.line_no, seg.column - 1)
    phase = heading | phase_named(seg.text)
    if literal is not None and not _in_phase(Reading(seg.text, 0, phase=phase), literal):
        # "When the captain comes: sell tobacco": which of the two is meant?
        roles = " or the ".join(sorted(r.label for r in phase))
        why = f"this is said to be for the {roles} phase, but it is no order of it"
        error = OrderSyntaxError(why).at(seg.line, seg.line_no)
        literal = None
    # (and for the mayor's phase named before it: "Mayor: indigo and tobacco get one each")
    lead = lead_in(seg.text, ties=kind is DecisionKind.ROLE, own=own)
    mayor = Role.MAYOR in heading | (lead.roles if lead is not None else frozenset())
    if (kind is DecisionKind.MAYOR or mayor) and not isinstance(literal, MayorCmd):
        colonists = _colonists_read(seg, literal is None, own)
        if colonists is not None:
            return colonists
    if literal is not None:
        other = target_kind(literal) not in (None, kind) and not is_service(literal)
        if kind is None or not other or has_verb(seg.text):
            return Parsed(seg, literal)
    found: list[Alternative] = []
    if len(seg.text) <= MAX_ORDER_LENGTH:
        for reading in readings(seg.text, kind, own=own, phase=heading):
            if literal is not None and reading.tier != 1:
                continue  # a bare word read as an answer, or else as written
            try:
                command = parse_order(reading.text)
            except OrderError:
                # (read by what it names in the mayor phase: it may need no verb)
                mayor = kind is DecisionKind.MAYOR and reading.tier == MENTIONS_TIER
                said = colonist_order(reading.text) if mayor else None
                if said is None:
                    continue
                command = said
            if not _in_phase(reading, command):
                continue  # "when the trader comes: ..." and no sale
            if reading.instead and not _same_decision(command, kind):
                continue  # "no sale, I'd rather ship": no sale's correction
            if all(not _same_order(a.command, command, kind) for a in found):
                tier = 0 if literal is not None else reading.tier
                found.append(Alternative(replace(reading, tier=tier), command))
    if any(a.reading.tier < MENTIONS_TIER for a in found):
        # By what it names is the last reading: only when no other one parses.
        found = [a for a in found if a.reading.tier < MENTIONS_TIER]
    if literal is not None:
        if not found:
            return Parsed(seg, literal)
        found.append(Alternative(Reading(seg.text, 1), literal))
    if found and not all(a.reading.why for a in found):
        return Parsed(seg, found[0].command, found[0].reading.text, tuple(found))
    # (nothing read, or only the reason given: "I'm away until Monday, so in advance: ...")
    return error
