"""Commands to engine actions, filling in what the player left out with the moderator's
published defaults; an order that could mean two things is an error, never a guess."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NoReturn

from ..engine.actions import (
    PASS,
    Action,
    Build,
    DecisionKind,
    ExtraGood,
    Layout,
    Load,
    LoadWharf,
    PickRole,
    PlaceColonists,
    Sell,
    Store,
    TakePlantation,
    TakeQuarry,
    UseHacienda,
)
from ..engine.components import BUILDINGS, GOODS, ISLAND_SPACES, Building, Good, Role
from ..engine.defaults import (
    default_action,
    default_store,
    manned_building,
    manned_tile,
    richest_prospector,
)
from ..engine.game import Decision, Game
from ..engine.roles import builder, captain, mayor, trader
from ..engine.state import Player, State
from .commands import (
    BuildCmd,
    DefaultCmd,
    ExtraCmd,
    GameCommand,
    HaciendaCmd,
    KeepCmd,
    KeepItem,
    MayorCmd,
    Move,
    PassCmd,
    Rest,
    RoleCmd,
    SellCmd,
    SettleCmd,
    Share,
    ShipCmd,
    Target,
    TargetKind,
    WharfCmd,
    Where,
    target_kind,
)
from .errors import AmbiguousOrder, IllegalOrder

KIND_NAMES = {
    DecisionKind.ROLE: "which role to pick",
    DecisionKind.HACIENDA: "whether to use your hacienda",
    DecisionKind.SETTLE: "which plantation to take",
    DecisionKind.MAYOR: "where your colonists go",
    DecisionKind.BUILD: "what to build",
    DecisionKind.CRAFTSMAN_EXTRA: "which extra barrel to take",
    DecisionKind.SELL: "what to sell",
    DecisionKind.LOAD: "what to load",
    DecisionKind.STORE: "which goods to keep",
}


def decision_of(game: Game, seat: int) -> Decision | None:
    """The decision ``seat`` must take now, if any."""
    for d in game.decisions():
        if d.seat == seat:
            return d
    return None


def asked_now(game: Game, seat: int) -> str:
    """What ``seat`` is asked now, as the end of a sentence."""
    decision = decision_of(game, seat)
    if decision is None:
        return "the game is over" if game.over else "you have nothing to decide now"
    return f"you are asked now {KIND_NAMES[decision.kind]}"


def _goods_list(goods: Sequence[Good]) -> str:
    return ", ".join(g.label for g in goods) or "none"


def resolve(command: GameCommand, game: Game, seat: int) -> Action:
    """The engine action an order means for ``seat`` now. Raises IllegalOrder (not his
    decision, or not allowed) or AmbiguousOrder; the game is never changed."""
    decision = decision_of(game, seat)
    if decision is None:
        raise IllegalOrder(asked_now(game, seat))
    kind = target_kind(command)
    if kind is not None and kind is not decision.kind:
        raise IllegalOrder(f"that order is for {KIND_NAMES[kind]}; {asked_now(game, seat)}")
    legal = decision.actions
    s = game.state
    if isinstance(command, (RoleCmd, SellCmd)) and not (
        command.roles if isinstance(command, RoleCmd) else command.goods
    ):
        raise IllegalOrder("the order names nothing")
    if isinstance(command, BuildCmd) and not command.candidates:
        raise IllegalOrder(f'there is no building called "{command.name}"')
    match command:
        case DefaultCmd():
            action = default_action(game, seat)
            if action is None:
                raise IllegalOrder(f"there is no default for {KIND_NAMES[decision.kind]}")
            return action
        case PassCmd():
            if PASS in legal:
                return PASS
            if decision.kind is DecisionKind.HACIENDA and UseHacienda(False) in legal:
                return UseHacienda(False)  # "no" to the hacienda question
            if decision.kind is DecisionKind.MAYOR:
                return _mayor_pass(game, seat, legal)
            raise IllegalOrder(_no_pass_reason(decision.kind))
        case RoleCmd():
            return _role(command, s, legal)
        case HaciendaCmd(use=use):
            return _require(UseHacienda(use), legal, "you cannot use the hacienda now")
        case SettleCmd():
            return _settle(command, s, seat, legal)
        case BuildCmd():
            return _build(command, s, seat, legal)
        case SellCmd():
            return _sell(command, s, seat, legal)
        case ShipCmd():
            return _ship(command, s, seat, legal)
        case WharfCmd():
            return _wharf(command, s, seat, legal)
        case ExtraCmd(good=good):
            if ExtraGood(good) in legal:
                return ExtraGood(good)
            produced = [g for g in GOODS if ExtraGood(g) in legal]
            raise IllegalOrder(
                f"you cannot take an extra {good.label}: the kinds you may take are "
                f"{_goods_list(produced)}"
            )
        case KeepCmd():
            return _keep(command, game, seat, legal)
        case MayorCmd():
            return resolve_mayor(command, game, seat, legal)
    raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover


def _require(action: Action, legal: Sequence[Action], reason: str) -> Action:
    if action in legal:
        return action
    raise IllegalOrder(reason)


def _no_pass_reason(kind: DecisionKind) -> str:
    return {
        DecisionKind.ROLE: "you must pick a role",
        DecisionKind.LOAD: "you must load goods when you can (seed 000)",
        DecisionKind.STORE: "say which goods to keep",
        DecisionKind.MAYOR: "say where your colonists go",
        DecisionKind.HACIENDA: 'answer "hacienda" or "no hacienda"',
    }.get(kind, "you may not pass now")


# -- role ----------------------------------------------------------------------------


def _role(cmd: RoleCmd, s: State, legal: Sequence[Action]) -> Action:
    for ref in cmd.roles:
        if ref.exact:
            if PickRole(ref.role) in legal:
                return PickRole(ref.role)
        else:
            best = richest_prospector(s)
            if best is not None and PickRole(best) in legal:
                return PickRole(best)
    first = cmd.roles[0].role
    label = "prospector 2" if first is Role.PROSPECTOR2 else first.label
    if int(first) not in s.role_doubloons:
        reason = f"there is no {label} in this game"
    elif int(first) in s.role_taken:
        who = s.players[s.role_taken[int(first)]].name
        reason = f"the {label} has been taken this round (by {who})"
    else:  # pragma: no cover - a role on the table is always legal in role selection
        reason = f"you cannot take the {label} now"
    if len(cmd.roles) > 1:
        reason = "none of those roles is free: " + reason
    raise IllegalOrder(reason)


# -- settler -------------------------------------------------------------------------


def _settle(cmd: SettleCmd, s: State, seat: int, legal: Sequence[Action]) -> Action:
    def tile(h: bool) -> Action:
        return TakeQuarry(h) if cmd.good is None else TakePlantation(cmd.good, h)

    if cmd.hospice is None:
        chosen = manned_tile(legal, cmd.good)
        if chosen is not None:
            return chosen
    elif tile(cmd.hospice) in legal:
        return tile(cmd.hospice)
    p = s.players[seat]
    if p.island_free <= 0:
        raise IllegalOrder(f"your island is full ({ISLAND_SPACES} tiles)")
    if cmd.hospice and tile(False) in legal:
        raise IllegalOrder(
            "your hospice cannot man the new tile (it is unmanned, or no colonist is left)"
        )
    if cmd.good is None:
        raise IllegalOrder(no_quarry(s, seat) or "you cannot take a quarry now")
    face_up = sorted(set(s.face_up))
    raise IllegalOrder(
        f"there is no {cmd.good.label} plantation face up (face up: {_goods_list(face_up)})"
    )


def no_quarry(s: State, seat: int) -> str | None:
    """Why ``seat`` may take no quarry in this settler phase, whatever comes before his
    turn (none left, or neither the settler nor a manned construction hut); None: he
    may, as far as is known now."""
    if s.quarries <= 0:
        return "no quarries are left"
    if seat != s.picker and not s.players[seat].active(Building.CONSTRUCTION_HUT):
        return "only the settler, or a player with a manned construction hut, may take a quarry"
    return None


def never_this_phase(command: GameCommand, game: Game, seat: int) -> str | None:
    """Why ``command``, kept for ``seat``'s decision later in this phase, can never be
    done there (what decides it cannot change before his turn); None: it may be."""
    if isinstance(command, SettleCmd) and command.good is None:
        return no_quarry(game.state, seat)
    return None


# -- builder -------------------------------------------------------------------------


def _build(cmd: BuildCmd, s: State, seat: int, legal: Sequence[Action]) -> Action:
    owned = s.players[seat].buildings
    if len(cmd.candidates) > 1 and sum(b not in owned for b in cmd.candidates) == 1:
        # "build market" with a small market in town: the large one (none has two)
        cmd = replace(cmd, candidates=tuple(b for b in cmd.candidates if b not in owned))
    if len(cmd.candidates) > 1:
        names = [b.label for b in cmd.candidates]
        raise AmbiguousOrder(
            f'"{cmd.name}" could be {or_list(names)}: name one',
            alternatives=[f"build {n}" for n in names],
        )
    (b,) = cmd.candidates
    built = manned_building(legal, b) if cmd.university is None else Build(b, cmd.university)
    if built is not None and built in legal:
        cost = builder.cost(s, seat, b)
        if cmd.price is not None and cmd.price not in (cost, BUILDINGS[b].price):
            # "buy the small warehouse for 3 doubloons": the price said is a detail, checked
            # (what it costs him, or its price on the board)
            order = f"build {b.label}" + (", no university" if cmd.university is False else "")
            raise AmbiguousOrder(
                f"a {b.label} costs you {cost} doubloons, not {cmd.price}: to build it for "
                f'{cost}, write "{order}"',
                alternatives=[order],
            )
        return built
    p = s.players[seat]
    if cmd.university and Build(b, False) in legal:
        raise IllegalOrder("your university cannot man the new building now")
    if b in p.buildings:
        raise IllegalOrder(f"you already have a {b.label}")
    if s.supply_buildings.get(b, 0) <= 0:
        raise IllegalOrder(f"no {b.label} is left")
    free = 12 - p.city_used
    if BUILDINGS[b].spaces > free:
        raise IllegalOrder(f"a {b.label} needs {BUILDINGS[b].spaces} city spaces; you have {free}")
    price = builder.cost(s, seat, b)
    if price > p.doubloons:
        raise IllegalOrder(f"a {b.label} costs you {price} doubloons; you have {p.doubloons}")
    raise IllegalOrder(f"you cannot build a {b.label} now")  # pragma: no cover


def or_list(items: Sequence[str], word: str = "or") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _and_list(items: Sequence[str]) -> str:
    return or_list(items, "and")


# -- trader --------------------------------------------------------------------------


def _sell(cmd: SellCmd, s: State, seat: int, legal: Sequence[Action]) -> Action:
    for g in cmd.goods:
        if Sell(g) in legal:
            paid = trader.price(s, seat, g)
            if cmd.price is not None and cmd.price != paid:
                # "sell coffee for 6": the price said is a detail, checked
                raise AmbiguousOrder(
                    f"selling {g.label} gives {paid} doubloons, not {cmd.price}: to sell "
                    f'it for {paid}, write "sell {g.label}"',
                    alternatives=[f"sell {g.label}"],
                )
            return Sell(g)
    g = cmd.goods[0]
    p = s.players[seat]
    if p.goods[g] <= 0:
        reason = f"you have no {g.label}"
    elif g in s.trading_house:
        reason = f"the trading house already has {g.label} (only an office buys a kind twice)"
    else:  # pragma: no cover - a full house means no decision at all
        reason = f"you cannot sell {g.label} now"
    if len(cmd.goods) > 1:
        reason = "none of those goods can be sold: " + reason
    raise IllegalOrder(reason)


# -- captain -------------------------------------------------------------------------


def shipped(s: State, seat: int, load: Load) -> int:
    ship = s.ships[load.ship]
    return min(s.players[seat].goods[load.good], ship.capacity - ship.count)


def _ships_text(s: State) -> str:
    return ", ".join(str(ship.capacity) for ship in s.ships)


def _ship(cmd: ShipCmd, s: State, seat: int, legal: Sequence[Action]) -> Action:
    p = s.players[seat]
    loads = [a for a in legal if isinstance(a, Load)]
    if not loads:
        if any(isinstance(a, LoadWharf) for a in legal):
            raise IllegalOrder(
                'no cargo ship can take your goods; you may use your wharf ("wharf <good>") or pass'
            )
        raise IllegalOrder("you cannot load anything now")  # pragma: no cover
    if cmd.good is not None:
        if p.goods[cmd.good] <= 0:
            raise IllegalOrder(f"you have no {cmd.good.label}")
        loads = [a for a in loads if a.good is cmd.good]
        if not loads:
            raise IllegalOrder(f"no cargo ship can take your {cmd.good.label} now")
    if cmd.rank is not None:
        sizes = sorted({ship.capacity for ship in s.ships})
        if cmd.rank == 1 and len(sizes) != 3:
            raise IllegalOrder(f"there is no middle ship (the ships hold {_ships_text(s)})")
        cmd = replace(cmd, ship=sizes[cmd.rank], rank=None)
    if cmd.ship is not None:
        index = [i for i, ship in enumerate(s.ships) if ship.capacity == cmd.ship]
        if not index:
            raise IllegalOrder(f"there is no ship of {cmd.ship} (the ships hold {_ships_text(s)})")
        at = [a for a in loads if a.ship == index[0]]
        if not at:
            what = cmd.good.label if cmd.good is not None else "your goods"
            raise IllegalOrder(
                f"{what} cannot go on the ship of {cmd.ship} now" + _why_not(s, index[0])
            )
        loads = at
    if cmd.count is not None:
        counted = [a for a in loads if shipped(s, seat, a) == cmd.count]
        if not counted:
            best = max(loads, key=lambda a: shipped(s, seat, a))
            raise IllegalOrder(
                f"that would load {shipped(s, seat, best)} {best.good.label}, not {cmd.count}"
            )
        loads = counted
    # Greatest quantity, ties to the lowest value, then the smallest ship (seed 000).
    return min(loads, key=lambda a: (-shipped(s, seat, a), int(a.good), s.ships[a.ship].capacity))


def _why_not(s: State, index: int) -> str:
    ship = s.ships[index]
    if ship.count >= ship.capacity:
        return " (it is full)"
    if ship.good is not None:
        return f" (it carries {ship.good.label})"
    return " (the rules require the empty ship that takes the most of it)"


def _wharf(cmd: WharfCmd, s: State, seat: int, legal: Sequence[Action]) -> Action:
    options = [a for a in legal if isinstance(a, LoadWharf)]
    p = s.players[seat]
    if not options:
        if not p.active(Building.WHARF):
            raise IllegalOrder("you have no manned wharf")
        raise IllegalOrder("you cannot use your wharf now (once per captain phase)")
    if cmd.good is None:
        return min(options, key=lambda a: (-p.goods[a.good], int(a.good)))
    if LoadWharf(cmd.good) in options:
        return LoadWharf(cmd.good)
    raise IllegalOrder(f"you have no {cmd.good.label}")


def _keep(cmd: KeepCmd, game: Game, seat: int, legal: Sequence[Action]) -> Action:
    s = game.state
    p = s.players[seat]
    stores = [a for a in legal if isinstance(a, Store)]

    def kept(a: Store, g: Good) -> int:
        return (p.goods[g] if g in a.warehouse else 0) + (1 if a.windrose is g else 0)

    def by_default(a: Store) -> tuple[object, ...]:
        # The published default: the highest-value kinds in the warehouses, then the best
        # kind left on the wind rose.
        return (sorted(a.warehouse, reverse=True), -1 if a.windrose is None else a.windrose)

    if cmd.most:
        # "keep as much as I can": the most barrels; among as many, the default's way.
        return max(stores, key=lambda a: (sum(kept(a, g) for g in Good), by_default(a)))
    if not (cmd.items or cmd.rest or cmd.drop):
        default = default_store(s, seat)
        assert default is not None
        return default
    # "1 tobacco on the wind rose, the other tobacco goes back": a good kept by a count
    # and not kept is kept by the count, the other barrels not.
    by_count = {i.good for i in cmd.items if i.count is not None and i.count < p.goods[i.good]}
    cmd = replace(cmd, drop=tuple(g for g in cmd.drop if g not in by_count))
    both = [i.good for i in cmd.items if i.good in cmd.drop]
    if both:
        raise AmbiguousOrder(
            f"{both[0].label} is both kept and not kept: write which", alternatives=()
        )
    if cmd.rest is Rest.DROPPED and not cmd.items:
        _ask_which(stores, "nothing is named to keep, and the space must be used", game, seat)
    cap = captain.warehouse_kinds(p)
    items = cmd.items
    last = items[-1].where if items else None
    if last is Where.WAREHOUSE and all(i.where is None for i in items[:-1]):
        # "keep corn and sugar in the warehouse": the place is said once for all.
        items = tuple(replace(i, where=last) for i in items)
    for good in (*(i.good for i in items), *cmd.drop):
        if p.goods[good] <= 0:
            raise IllegalOrder(f"you have no {good.label}")
    said_counts = {i.good for i in items if i.count is not None}
    if cmd.whole:
        # "keep all the sugar and coffee": every barrel of each (the wind rose's one)
        items = tuple(
            i if i.count is not None or i.where is Where.WINDROSE else replace(i, count=n)
            for i in items
            for n in (p.goods[i.good],)
        )
    for item in items:
        if item.where is Where.WINDROSE and item.count not in (None, 1):
            raise IllegalOrder("the wind rose holds one barrel")
        if item.where is Where.WAREHOUSE and cap == 0:
            raise IllegalOrder("you have no manned warehouse")
    # The goods not named: kept ("the rest in the warehouse", "everything") are named
    # too, with no order among them. Dropped ("keep the coffee, dump the rest") they are
    # not asked for, and the space the goods named leave, which the rules always use, is
    # filled by the published default: the player chose nothing among them.
    others = [g for g in Good if p.goods[g] > 0 and g not in {i.good for i in items}]
    others = [g for g in others if g not in cmd.drop]
    drop = set(cmd.drop)
    rest = [KeepItem(g, None, cmd.rest_where) for g in others] if cmd.rest is Rest.KEPT else []
    items = (*items, *rest)
    in_house = [i.good for i in items if i.where is Where.WAREHOUSE]
    on_rose = [i.good for i in items if i.where is Where.WINDROSE]
    plain = [i.good for i in items if i.where is None and i not in rest]

    # Every good named is kept, where and as many barrels as said: an order that cannot
    # be done as written is asked back (naming the ways to keep every good it names),
    # never replaced by one that keeps something else.
    close = [a for a in stores if all(kept(a, i.good) >= 1 for i in items)]
    fits = [
        a
        for a in close
        if all(g in a.warehouse for g in in_house)
        and all(a.windrose is g for g in on_rose)
        and all(i.count in (None, kept(a, i.good)) for i in items)
    ]
    if not items:
        fits = list(stores)  # only goods not kept named ("dump the corn")
    all_of = all(i.where is None and i.count in (None, p.goods[i.good]) for i in items)
    if not fits and len(close) == 1 and all_of and not rest:
        # "keep the 2 corn", "all my corn" with room for one: every barrel of the goods
        # named cannot be kept, and one way only keeps some of each of them: that one.
        return close[0]
    if not fits:
        room = f"{cap} kind{'s' if cap != 1 else ''} in warehouses and 1 barrel on the wind rose"
        counted = [i for i in items if i.good in said_counts]
        if counted:
            g = counted[0].good
            reason = (
                f"you cannot keep exactly {counted[0].count} {g.label}: a warehouse keeps all "
                f"{p.goods[g]} barrels of a kind, the wind rose 1"
            )
        elif rest and not cmd.items:
            reason = "you cannot keep everything"
        else:
            where = " as you wrote" if in_house or on_rose else ""
            every = "every barrel of " if cmd.whole else ""
            reason = f"you cannot keep {every}{_and_list([i.good.label for i in items])}{where}"
        if not close:
            # Not all of them fit: the ways to keep as many of them as fit are asked.
            most = max((sum(kept(a, i.good) >= 1 for i in items) for a in stores), default=0)
            close = [a for a in stores if most and sum(kept(a, i.good) >= 1 for i in items) == most]
            if not close or counted:
                raise IllegalOrder(f"{reason}: you may keep {room}")
        _ask_which(close, f"{reason} ({room})", game, seat)

    if drop:
        # As few barrels kept of the goods not to keep as the space allows; when every
        # way keeps some of them, which is the player's to say.
        least = min(sum(kept(a, g) for g in drop) for a in fits)
        fits = [a for a in fits if sum(kept(a, g) for g in drop) == least]
        if least and len(fits) > 1:
            _ask_which(fits, "every way keeps some of what you do not keep", game, seat)
    if rest and len(fits) > 1:
        # The rest kept, with no order among them: the player says which way.
        whole = "all of the rest" if cmd.items else "everything"
        _ask_which(fits, f"you cannot keep {whole}", game, seat)

    def preference(a: Store) -> tuple[object, ...]:
        # Named goods in order: most barrels kept, warehouse before wind rose; then the
        # published default (highest-value kinds in the warehouses, then on the wind rose).
        named = tuple((kept(a, g), g in a.warehouse) for g in plain)
        return (named, *by_default(a))

    return max(fits, key=preference)


def _ask_which(stores: Sequence[Store], reason: str, game: Game, seat: int) -> NoReturn:
    from .format import format_action  # (format reads decisions from this module)

    ways = [format_action(a, game, seat) for a in stores]
    raise AmbiguousOrder(f"{reason}: write which", alternatives=ways)


# -- mayor ---------------------------------------------------------------------------

# The readings of one colonist order looked at, at the most (shares, "the plantation").
MAX_LAYOUT_READINGS = 64


@dataclass
class _Board:
    """A player's colonists while a colonist order is worked through. ``kept``: colonists
    the order keeps in San Juan ("1 stays in San Juan"), which no later placement takes."""

    occupied: list[int]
    quarries: int
    on: dict[Building, int]
    san_juan: int
    pool: int = 0
    kept: int = 0


def _tile_name(t: Target) -> str:
    if t.kind is TargetKind.PLANTATION:
        return "plantation" if t.good is None else f"{t.good.label} plantation"
    return t.text


def _own_building(t: Target, p: Player) -> Building:
    owned = [b for b in t.buildings if b in p.buildings]
    if not owned:
        if len(t.buildings) == 1:
            raise IllegalOrder(f"you have no {t.buildings[0].label}")
        raise IllegalOrder(f'you have no building called "{t.text}"')
    if len(owned) > 1:
        names = [b.label for b in owned]
        raise AmbiguousOrder(
            f'"{t.text}" could be your {or_list(names)}: name one', alternatives=names
        )
    return owned[0]


def _plantation(t: Target, p: Player) -> Good:
    """The kind of plantation a target names: the one written, or, for "the plantation",
    the player's only kind; with two kinds he is asked which."""
    if t.good is not None:
        return t.good
    kinds = [g for g in GOODS if p.plantations[g]]
    if not kinds:
        raise IllegalOrder("you have no plantation")
    if len(kinds) > 1:
        names = [f"{g.label} plantation" for g in kinds]
        raise AmbiguousOrder(
            f'"{t.text}" could be your {or_list(names)}: name one', alternatives=names
        )
    return kinds[0]


def _remove(board: _Board, p: Player, move: Move) -> None:
    t, count = move.target, move.count
    good: Good | None = None
    building: Building | None = None
    if t.kind is TargetKind.SAN_JUAN:
        have, where = board.san_juan, "San Juan"
    elif t.kind is TargetKind.PLANTATION:
        good = _plantation(t, p)
        have, where = board.occupied[good], f"{good.label} plantation"
    elif t.kind is TargetKind.QUARRY:
        have, where = board.quarries, "quarry"
    else:
        building = _own_building(t, p)
        have, where = board.on[building], building.label
    n = have if count is None else count  # None: every colonist on it ("empty the quarry")
    if have < n or n == 0:
        raise IllegalOrder(f"you cannot remove {n or 'any'} from {where}: {_has(have)}")
    if t.kind is TargetKind.SAN_JUAN:
        board.san_juan -= n
    elif good is not None:
        board.occupied[good] -= n
    elif building is not None:
        board.on[building] -= n
    else:
        board.quarries -= n
    board.pool += n


def _place(board: _Board, p: Player, move: Move) -> None:
    t, count = move.target, move.count
    free = board.pool + board.san_juan - board.kept  # colonists not yet placed or kept
    if t.kind is TargetKind.SAN_JUAN:
        # "1 stays in San Juan": kept there, so no later placement takes it.
        n = 1 if count is None else count
        if free < n:
            raise IllegalOrder(f"you cannot keep {n} in San Juan: you have only {free} left")
        board.san_juan += board.pool
        board.pool = 0
        board.kept += n
        return
    good: Good | None = None
    building: Building | None = None
    if t.kind is TargetKind.PLANTATION:
        good = _plantation(t, p)
        room, tiles = p.plantations[good] - board.occupied[good], p.plantations[good]
        where = f"{good.label} plantation"
        if tiles == 0:
            raise IllegalOrder(f"you have no {where}")
    elif t.kind is TargetKind.QUARRY:
        room, tiles, where = p.quarries - board.quarries, p.quarries, "quarry"
        if tiles == 0:
            raise IllegalOrder("you have no quarry")
    else:
        building = _own_building(t, p)
        room, where = BUILDINGS[building].circles - board.on[building], building.label
    if move.rest and free == 0:
        return  # "the rest on ...": none is left
    n = (free if move.rest else room) if count is None else count  # None: fill it, or all left
    if room < n or n == 0:
        full = "it is full" if room == 0 else f"only {room} empty circle{'s' if room != 1 else ''}"
        raise IllegalOrder(f"you cannot place {n or ''} on {where}: {full}".replace("  ", " "))
    if free < n:
        raise IllegalOrder(
            f"you cannot place {n} on {where}: you have only {free} colonist(s) left to place"
        )
    from_pool = min(board.pool, n)
    board.pool -= from_pool
    board.san_juan -= n - from_pool
    if good is not None:
        board.occupied[good] += n
    elif building is not None:
        board.on[building] += n
    else:
        board.quarries += n


def _has(n: int, who: str = "it") -> str:
    if n == 0:
        return f"{who} has no colonist"
    return f"{who} has only {n} colonist{'s' if n != 1 else ''}"


def empty_circles(p: Player, layout: Layout) -> list[str]:
    """The tiles of a layout with room left, as "2 on coffee roaster"."""
    out: list[str] = []
    for g in GOODS:
        room = p.plantations[g] - layout.plantations[g]
        if room:
            out.append(f"{room} on {g.label}")
    if p.quarries - layout.quarries:
        out.append(f"{p.quarries - layout.quarries} on quarry")
    for b in sorted(p.buildings):
        room = BUILDINGS[b].circles - layout.on(b)
        if room:
            out.append(f"{room} on {b.label}")
    return out


def _shares(count: int, places: int) -> list[tuple[int, ...]]:
    """Every way to share ``count`` colonists among ``places``, at least one each."""
    if places == 1:
        return [(count,)] if count >= 1 else []
    return [
        (first, *rest) for first in range(1, count) for rest in _shares(count - first, places - 1)
    ]


def readings_of(cmd: MayorCmd, free: int = 0) -> list[tuple[Move, ...]]:
    """The placements a colonist order may mean, as written first: a count before a
    list ("place 2 on corn, sugar") as that many on the first place and one on each
    other, and as shared among the places; "both on corn and sugar" only shared;
    "everyone to corn and sugar" shared, any number up to ``free`` (the colonists the
    order has to place)."""
    out: list[tuple[Move, ...]] = [()]
    for item in cmd.placements:
        ways: list[tuple[Move, ...]] = []
        if isinstance(item, Move):
            ways.append((item,))
        else:
            if item.as_written and item.count is not None:
                first, *others = item.targets
                ways.append((Move(item.count, first), *(Move(1, t) for t in others)))
            places = len(item.targets)
            counts = [item.count] if item.count is not None else range(places, free + 1)
            for shares in (c for n in counts for c in _shares(n, places)):
                way = tuple(Move(n, t) for n, t in zip(shares, item.targets, strict=True))
                if way not in ways:
                    ways.append(way)
        out = [(*done, *way) for done in out for way in ways][:MAX_LAYOUT_READINGS]
    return out


def layout_after(
    cmd: MayorCmd, p: Player, san_juan: int, placements: tuple[Move, ...] | None = None
) -> tuple[Layout, int]:
    """Apply a colonist order to the player's current layout: every removal, then every
    placement (``placements``: one reading of the order's, by default its first).
    Returns the new layout and how many colonists are left in San Juan."""
    board = _Board(list(p.occupied), p.occupied_quarries, dict(p.buildings), san_juan)
    for move in cmd.removals:
        _remove(board, p, move)
    moves = readings_of(cmd)[0] if placements is None else placements
    # "the rest on the roaster" takes what the other placements leave, wherever written
    for move in sorted(moves, key=lambda m: m.rest):
        _place(board, p, move)
    o = board.occupied
    layout = Layout(
        (o[0], o[1], o[2], o[3], o[4]),
        board.quarries,
        tuple((b, n) for b, n in sorted(board.on.items()) if n),
    )
    return layout, board.san_juan + board.pool


def _now_on(t: Target, p: Player) -> int:
    """The colonists on a place now (San Juan's are not counted here)."""
    if t.kind is TargetKind.SAN_JUAN:
        return 0
    if t.kind is TargetKind.PLANTATION:
        return p.occupied[_plantation(t, p)]
    if t.kind is TargetKind.QUARRY:
        return p.occupied_quarries
    return p.buildings[_own_building(t, p)]


def _place_name(t: Target, p: Player) -> str:
    if t.kind is TargetKind.PLANTATION:
        return f"{_plantation(t, p).label} plantation"
    if t.kind is TargetKind.BUILDING:
        return _own_building(t, p).label
    return "San Juan" if t.kind is TargetKind.SAN_JUAN else "quarry"


def _as_board(cmd: MayorCmd, p: Player) -> MayorCmd:
    """A board as it is to end ("corn 1, sugar 2, roaster 2, university 0") as the
    removals and placements that make it from the board now; the places it does not
    name keep their colonists. A place named twice with two counts is refused."""
    ends: dict[str, int] = {}
    removals: list[Move] = []
    placements: list[Move] = []
    stays: Move | None = None
    for m in cmd.placements:
        assert isinstance(m, Move) and m.count is not None
        name = _place_name(m.target, p)
        if ends.setdefault(name, m.count) != m.count:
            raise IllegalOrder(f"{name} is named twice, with {ends[name]} and {m.count}")
        if m.target.kind is TargetKind.SAN_JUAN:
            stays = m
            continue
        now = _now_on(m.target, p)
        if m.count < now:
            removals.append(Move(now - m.count, m.target))
        elif m.count > now:
            placements.append(Move(m.count - now, m.target))
    # (what is to stay in San Juan is kept last: the placements take theirs first)
    kept = (stays,) if stays is not None and stays.count else ()
    return MayorCmd(cmd.extra, tuple(removals), (*placements, *kept), cmd.stay or stays is not None)


def _stay_reason(p: Player, layout: Layout, left: int, note: str) -> str:
    return (
        f"{left} colonist{'s' if left != 1 else ''} would stay in San Juan{note} "
        "while there is room: "
        + ", ".join(empty_circles(p, layout))
        + "; every empty circle must be filled while colonists remain"
    )


def _free(cmd: MayorCmd, p: Player, san_juan: int) -> int:
    """The colonists an order has to place: San Juan's and those it removes."""
    board = _Board(list(p.occupied), p.occupied_quarries, dict(p.buildings), san_juan)
    try:
        for move in cmd.removals:
            _remove(board, p, move)
    except (IllegalOrder, AmbiguousOrder):
        pass  # (said when the order is worked through)
    return board.san_juan + board.pool


def _board_action(
    cmd: MayorCmd, game: Game, seat: int, legal: Sequence[Action], extra: bool
) -> Action:
    """A colonist order that names the board as it is to end and may be colonists added
    too, some place it names holding colonists now: the one of the two that may be
    done; when both may be done and differ, asked which (never a guess between them).
    Neither: refused with the reason the board at the end cannot be."""
    from .format import format_action  # (format reads decisions from this module)

    s = game.state
    p = s.players[seat]
    note = ""
    if extra and cmd.extra is None:
        note = ' (with the mayor\'s extra colonist, taken unless you write "no extra colonist")'
    end: Action | None = None
    why = ""
    try:
        layout, left = layout_after(_as_board(cmd, p), p, p.san_juan + int(extra))
        end = PlaceColonists(layout, extra)
        if end not in legal:
            why = _stay_reason(p, layout, left, note) if left else "it is no layout you may have"
            end = None
    except (IllegalOrder, AmbiguousOrder) as err:
        if isinstance(err, AmbiguousOrder):
            raise
        why = err.reason
    added: Action | None = None
    if all(m.count for m in cmd.placements if isinstance(m, Move)):
        plain = replace(cmd, board=False)
        try:
            layout, left = layout_after(plain, p, p.san_juan + int(extra))
            added = PlaceColonists(layout, extra)
        except (IllegalOrder, AmbiguousOrder):
            pass
        if added not in legal:
            added = None
    if end is not None and (added is None or added == end):
        return end
    if end is not None and added is not None:
        meanings = [format_action(a, game, seat) for a in (end, added)]
        raise AmbiguousOrder(
            f"the order could mean the board as it is to end, {meanings[0]}, or colonists "
            f"added, {meanings[1]}: write which",
            alternatives=meanings,
        )
    if added is not None:
        return added  # (counts after places are most often colonists added: "mill: 1")
    raise IllegalOrder(f"as the board at the end: {why}")


def _mayor_pass(game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """A pass ("nothing for me") where colonists are placed: no change, where the rules
    allow it (a full board), the mayor's extra colonist taken as it is unless declined;
    otherwise refused with the reason."""
    p = game.state.players[seat]
    extra = True in mayor.extras(game.state, seat)
    layout, left = layout_after(MayorCmd(), p, p.san_juan + int(extra))
    if PlaceColonists(layout, extra) in legal:
        return PlaceColonists(layout, extra)
    why = _stay_reason(p, layout, left, "") if left else "it is no layout you may have"
    raise IllegalOrder(f"{_no_pass_reason(DecisionKind.MAYOR)}: {why}")


def resolve_mayor(cmd: MayorCmd, game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """A colonist order as the layout it makes. Several readings (a count before a list)
    count when they can be done as written; one such is the order, several are asked
    back. An order that places too few is completed only when one way fills the empty
    circles and the order did not keep colonists in San Juan on purpose. An order that
    declines the extra colonist and places one more than that leaves, which it could
    place with it, is asked back ("No extra colonist. 2 on roaster, 1 on uni.")."""
    try:
        return _resolve_mayor(cmd, game, seat, legal)
    except IllegalOrder as err:
        if cmd.extra is not False or True not in mayor.extras(game.state, seat):
            raise
        try:
            taken = _resolve_mayor(replace(cmd, extra=True), game, seat, legal)
        except (IllegalOrder, AmbiguousOrder):
            raise err from None
        from .format import format_action  # (format reads decisions from this module)

        meaning = format_action(taken, game, seat)
        raise AmbiguousOrder(
            f"{err.reason}; with the extra colonist, which you decline, it would be "
            f"{meaning}: write which",
            alternatives=(meaning,),
        ) from None


def _resolve_mayor(cmd: MayorCmd, game: Game, seat: int, legal: Sequence[Action]) -> Action:
    from .format import format_action  # (format reads decisions from this module)

    s = game.state
    p = s.players[seat]
    can_extra = True in mayor.extras(s, seat)
    if cmd.extra and not can_extra:
        if seat != s.picker:
            raise IllegalOrder("only the mayor takes an extra colonist")
        raise IllegalOrder("the colonist supply is empty: there is no extra colonist")
    # Unless declined, the mayor takes his extra colonist (seed 002); an order that only
    # works without it is an error, not a silent refusal of the privilege.
    extra = can_extra if cmd.extra is None else bool(cmd.extra)
    if cmd.board:
        moves = [m for m in cmd.placements if isinstance(m, Move)]
        if any(_now_on(m.target, p) for m in moves):
            return _board_action(cmd, game, seat, legal, extra)
        # (every place it names is empty now: the counts are placed, a 0 places none)
        cmd = replace(cmd, placements=tuple(m for m in moves if m.count), board=False)
    if any(m.count is not None and m.count < 1 for m in (*cmd.removals, *cmd.placements)):
        raise IllegalOrder("a count must be at least 1")
    done: dict[Action, None] = {}
    short: list[tuple[Layout, int]] = []
    failed: IllegalOrder | AmbiguousOrder | None = None
    free = _free(cmd, p, p.san_juan + int(extra))
    readings = readings_of(cmd, free)
    if not readings:
        raise IllegalOrder(f"you have {free} colonist(s) to place, fewer than the places named")
    for placements in readings:
        try:
            layout, left = layout_after(cmd, p, p.san_juan + int(extra), placements)
        except (IllegalOrder, AmbiguousOrder) as err:
            failed = failed or err
            continue
        action = PlaceColonists(layout, extra)
        if action in legal:
            done[action] = None
        else:
            short.append((layout, left))
    if len(done) == 1:
        return next(iter(done))
    if done:
        meanings = [format_action(a, game, seat) for a in done]
        raise AmbiguousOrder(
            f"the order could mean {or_list(meanings)}: write which", alternatives=meanings
        )
    if not short:
        assert failed is not None
        raise failed
    layout, left = short[0]
    note = ""
    if extra and cmd.extra is None:
        note = ' (with the mayor\'s extra colonist, taken unless you write "no extra colonist")'
    reason = _stay_reason(p, layout, left, note)
    kept = cmd.stay or any(
        m.count is None and not m.loose
        if isinstance(m, Share)
        else m.target.kind is TargetKind.SAN_JUAN or m.rest
        for m in cmd.placements
    )
    if kept or cmd == MayorCmd():
        raise IllegalOrder(reason)  # never "no change", nor San Juan kept on purpose
    # An order that places too few is incomplete, not wrong: when one way only fills
    # the empty circles, that is the order; when several do, ask where the rest go.
    completions = {
        a: more
        for before, _ in short
        for a in legal
        if isinstance(a, PlaceColonists) and a.extra is extra
        for more in [_added(p, before, a.layout)]
        if more is not None
    }
    if len(completions) == 1:
        return next(iter(completions))
    rest = list(completions.values())
    if rest:
        options = sorted(set(rest))[:4]
        raise AmbiguousOrder(
            f"{reason}. Where do they go? Add to your order, for example: {or_list(options)}",
            alternatives=options,
        )
    raise IllegalOrder(reason)


def _added(p: Player, before: Layout, after: Layout) -> str | None:
    """``after`` as placements added to ``before`` ("place 1 on corn, 1 on hut"), or
    None when it also takes a colonist away."""
    more: list[str] = []
    for g in GOODS:
        if after.plantations[g] < before.plantations[g]:
            return None
        if after.plantations[g] > before.plantations[g]:
            more.append(f"{after.plantations[g] - before.plantations[g]} on {g.label}")
    if after.quarries < before.quarries:
        return None
    if after.quarries > before.quarries:
        more.append(f"{after.quarries - before.quarries} on quarry")
    for b in sorted(p.buildings):
        if after.on(b) < before.on(b):
            return None
        if after.on(b) > before.on(b):
            more.append(f"{after.on(b) - before.on(b)} on {b.label}")
    return "place " + ", ".join(more) if more else None


__all__ = [
    "KIND_NAMES",
    "decision_of",
    "empty_circles",
    "layout_after",
    "or_list",
    "resolve",
    "resolve_mayor",
    "shipped",
]
