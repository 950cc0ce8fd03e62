"""The full state to JSON and back, validated on load (format: docs/state-format.md)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .actions import (
    PASS,
    Action,
    Build,
    ExtraGood,
    Layout,
    Load,
    LoadWharf,
    Pass,
    PickRole,
    PlaceColonists,
    Sell,
    Store,
    TakePlantation,
    TakeQuarry,
    UseHacienda,
)
from .components import (
    BUILDINGS,
    CITY_SPACES,
    GOODS_BARRELS,
    ISLAND_SPACES,
    PLANTATION_TILES,
    QUARRIES,
    SETUPS,
    TWO_PLAYER_GOODS_REMOVED,
    TWO_PLAYER_PLANTATIONS_REMOVED,
    TWO_PLAYER_QUARRIES_REMOVED,
    Building,
    Good,
    Role,
    building_copies,
)
from .state import Phase, Player, Ship, State

FORMAT = "pr-moderator/state"
VERSION = 1
_STANDARD, _TWO = "standard", "two-player"
E = TypeVar("E", Good, Role, Building)


class StateError(ValueError):
    """A state file that cannot be loaded: says where and why."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


# -- names ---------------------------------------------------------------------


def role_name(r: Role) -> str:
    return r.name.lower()


_GOOD_BY_NAME = {g.label: g for g in Good}
_GOOD_KEYS = tuple(g.label for g in Good)  # precomputed: enum properties are slow
_ISLAND_KEYS = (*_GOOD_KEYS, "quarry")
_BUILDING_KEYS = tuple(b.label for b in Building)
_ROLE_KEYS = tuple(role_name(r) for r in Role)
_ROLE_BY_NAME = {r.name.lower(): r for r in Role}
_BUILDING_BY_NAME = {b.label: b for b in Building}


def _enum(table: Mapping[str, E], value: object, path: str, what: str) -> E:
    if not isinstance(value, str) or value not in table:
        raise StateError(path, f"expected {what} ({', '.join(table)}), got {value!r}")
    return table[value]


def _good(value: object, path: str) -> Good:
    return _enum(_GOOD_BY_NAME, value, path, "a good")


def _int(value: object, path: str, lo: int | None = 0, hi: int | None = None) -> int:
    if type(value) is not int:  # bool is an int subclass, and not a count
        raise StateError(path, f"expected a whole number, got {value!r}")
    if lo is not None and value < lo:
        raise StateError(path, f"must be at least {lo}, got {value}")
    if hi is not None and value > hi:
        raise StateError(path, f"must be at most {hi}, got {value}")
    return value


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise StateError(path, f"expected true or false, got {value!r}")
    return value


def _str(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise StateError(path, f"expected a string, got {value!r}")
    return value


def _obj(value: object, path: str, keys: tuple[str, ...] | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise StateError(path, f"expected an object, got {type(value).__name__}")
    if keys is not None:
        missing = [k for k in keys if k not in value]
        if missing:
            raise StateError(path, f"missing {', '.join(missing)}")
        extra = [k for k in value if k not in keys]
        if extra:
            raise StateError(path, f"unknown key(s) {', '.join(map(str, extra))}")
    return value


def _list(value: object, path: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise StateError(path, f"expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise StateError(path, f"expected {length} entries, got {len(value)}")
    return value


def _goods_map(value: object, path: str) -> list[int]:
    obj = _obj(value, path, _GOOD_KEYS)
    return [_int(obj[key], f"{path}.{key}") for key in _GOOD_KEYS]


def _goods_dict(counts: list[int]) -> dict[str, int]:
    return dict(zip(_GOOD_KEYS, counts, strict=True))


# -- to JSON -------------------------------------------------------------------


def _player_to(p: Player) -> dict[str, Any]:
    island: dict[str, list[int]] = {
        key: [p.plantations[i], p.occupied[i]] for i, key in enumerate(_GOOD_KEYS)
    }
    island["quarry"] = [p.quarries, p.occupied_quarries]
    return {
        "name": p.name,
        "doubloons": p.doubloons,
        "vp": p.vp,
        "goods": _goods_dict(p.goods),
        "island": island,
        "city": {_BUILDING_KEYS[b]: n for b, n in p.buildings.items()},
        "san_juan": p.san_juan,
    }


def to_dict(s: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": s.variant,
        "seed": s.seed,
        "rng": s.rng,
        "round": s.round,
        "governor": s.governor,
        "phase": s.phase.value,
        "role": None if s.role < 0 else _ROLE_KEYS[s.role],
        "picker": s.picker,
        "turn": s.turn,
        "picks": s.picks,
        "acted": s.acted,
        "step": s.step,
        "waiting": s.waiting[:],
        "wharf_used": s.wharf_used[:],
        "declined_wharf": s.declined_wharf[:],
        "captain_privilege_used": s.captain_privilege_used,
        "produced": [g.label for g in Good if s.produced[g]],
        "roles": {
            _ROLE_KEYS[r]: {"doubloons": d, "taken_by": s.role_taken.get(r)}
            for r, d in s.role_doubloons.items()
        },
        "colonists": {"supply": s.colonist_supply, "ship": s.colonist_ship},
        "vp_chips": s.vp_chips,
        "goods_supply": _goods_dict(s.goods_supply),
        "trading_house": [_GOOD_KEYS[g] for g in s.trading_house],
        "ships": [
            {
                "capacity": ship.capacity,
                "good": None if ship.good is None else ship.good.label,
                "count": ship.count,
            }
            for ship in s.ships
        ],
        "plantations": {
            "pile": [_GOOD_KEYS[g] for g in s.pile],
            "face_up": [_GOOD_KEYS[g] for g in s.face_up],
            "discards": [_GOOD_KEYS[g] for g in s.discards],
        },
        "quarries": s.quarries,
        "building_supply": {_BUILDING_KEYS[b]: n for b, n in s.supply_buildings.items()},
        "end_reason": s.end_reason,
        "players": [_player_to(p) for p in s.players],
    }


def dumps(s: State) -> str:
    return json.dumps(to_dict(s), separators=(",", ":"))


# -- from JSON -----------------------------------------------------------------

_KEYS = (
    "format",
    "version",
    "variant",
    "seed",
    "rng",
    "round",
    "governor",
    "phase",
    "role",
    "picker",
    "turn",
    "picks",
    "acted",
    "step",
    "waiting",
    "wharf_used",
    "declined_wharf",
    "captain_privilege_used",
    "produced",
    "roles",
    "colonists",
    "vp_chips",
    "goods_supply",
    "trading_house",
    "ships",
    "plantations",
    "quarries",
    "building_supply",
    "end_reason",
    "players",
)
_PLAYER_KEYS = ("name", "doubloons", "vp", "goods", "island", "city", "san_juan")


def _player_from(value: object, path: str) -> Player:
    obj = _obj(value, path, _PLAYER_KEYS)
    p = Player(_str(obj["name"], f"{path}.name"), _int(obj["doubloons"], f"{path}.doubloons"))
    if not p.name.strip():
        raise StateError(f"{path}.name", "a player needs a name")
    p.vp = _int(obj["vp"], f"{path}.vp")
    p.goods = _goods_map(obj["goods"], f"{path}.goods")
    island = _obj(obj["island"], f"{path}.island", _ISLAND_KEYS)
    for key, entry in island.items():
        where = f"{path}.island.{key}"
        pair = _list(entry, where, 2)
        tiles, occupied = _int(pair[0], where), _int(pair[1], where)
        if occupied > tiles:
            raise StateError(where, f"{occupied} occupied but only {tiles} tile(s)")
        if key == "quarry":
            p.quarries, p.occupied_quarries = tiles, occupied
        else:
            g = _GOOD_BY_NAME[key]
            p.plantations[g], p.occupied[g] = tiles, occupied
    if p.island_tiles > ISLAND_SPACES:
        raise StateError(f"{path}.island", f"{p.island_tiles} tiles on {ISLAND_SPACES} spaces")
    city = _obj(obj["city"], f"{path}.city")
    buildings: dict[Building, int] = {}
    for key, n in city.items():
        where = f"{path}.city.{key}"
        b = _enum(_BUILDING_BY_NAME, key, where, "a building")
        buildings[b] = _int(n, where, 0, BUILDINGS[b].circles)
    p.buildings = dict(sorted(buildings.items()))
    if p.city_used > CITY_SPACES:
        raise StateError(f"{path}.city", f"{p.city_used} spaces used of {CITY_SPACES}")
    p.san_juan = _int(obj["san_juan"], f"{path}.san_juan")
    return p


def from_dict(data: object) -> State:
    """Build a State from its JSON form, or raise StateError saying what is wrong."""
    d = _obj(data, "", _KEYS)
    if d["format"] != FORMAT:
        raise StateError("format", f"expected {FORMAT!r}, got {d['format']!r}")
    if d["version"] != VERSION:
        raise StateError("version", f"this moderator reads version {VERSION}, got {d['version']!r}")
    s = State()
    s.variant = _str(d["variant"], "variant")
    if s.variant not in (_STANDARD, _TWO):
        raise StateError("variant", f"expected 'standard' or 'two-player', got {s.variant!r}")
    s.seed = _int(d["seed"], "seed", None)
    s.rng = _int(d["rng"], "rng", 0, (1 << 64) - 1)
    players = _list(d["players"], "players")
    s.players = [_player_from(v, f"players[{i}]") for i, v in enumerate(players)]
    n = len(s.players)
    if n not in SETUPS or (n == 2) != (s.variant == _TWO):
        raise StateError("players", f"{n} players do not fit the {s.variant} game")
    if len({p.name for p in s.players}) != n:
        raise StateError("players", "player names must be distinct")
    s.round = _int(d["round"], "round", 1)
    s.governor = _int(d["governor"], "governor", 0, n - 1)
    try:
        s.phase = Phase(d["phase"])
    except ValueError:
        raise StateError("phase", f"unknown phase {d['phase']!r}") from None
    role = d["role"]
    s.role = -1 if role is None else int(_enum(_ROLE_BY_NAME, role, "role", "a role"))
    s.picker = _int(d["picker"], "picker", 0, n - 1)
    s.turn = _int(d["turn"], "turn", 0, n - 1)
    s.acted = _int(d["acted"], "acted", 0, n)
    s.step = _int(d["step"], "step", 0, 1)
    for key in ("waiting", "wharf_used", "declined_wharf"):
        flags = _list(d[key], key, n)
        setattr(s, key, [_bool(v, f"{key}[{i}]") for i, v in enumerate(flags)])
    s.captain_privilege_used = _bool(d["captain_privilege_used"], "captain_privilege_used")
    produced = {_good(v, "produced") for v in _list(d["produced"], "produced")}
    s.produced = [g in produced for g in Good]
    setup = SETUPS[n]
    roles = _obj(d["roles"], "roles")
    expected_roles = {role_name(r) for r in setup.roles}
    if set(roles) != expected_roles:
        raise StateError("roles", f"expected exactly {', '.join(sorted(expected_roles))}")
    for key, entry in roles.items():
        r = _ROLE_BY_NAME[key]
        e = _obj(entry, f"roles.{key}", ("doubloons", "taken_by"))
        s.role_doubloons[int(r)] = _int(e["doubloons"], f"roles.{key}.doubloons")
        if e["taken_by"] is not None:
            s.role_taken[int(r)] = _int(e["taken_by"], f"roles.{key}.taken_by", 0, n - 1)
    s.role_doubloons = dict(sorted(s.role_doubloons.items()))
    s.picks = _int(d["picks"], "picks", 0)
    # The role being carried out is taken but its phase is not finished yet.
    in_phase = 0 if s.phase in (Phase.ROLE, Phase.OVER) else 1
    if s.picks + in_phase != len(s.role_taken):
        raise StateError(
            "picks", f"{s.picks} finished picks do not fit {len(s.role_taken)} roles taken"
        )
    colonists = _obj(d["colonists"], "colonists", ("supply", "ship"))
    s.colonist_supply = _int(colonists["supply"], "colonists.supply")
    s.colonist_ship = _int(colonists["ship"], "colonists.ship")
    s.vp_chips = _int(d["vp_chips"], "vp_chips", None)
    s.goods_supply = _goods_map(d["goods_supply"], "goods_supply")
    s.trading_house = [
        _good(v, "trading_house") for v in _list(d["trading_house"], "trading_house")
    ]
    if len(s.trading_house) > 4:
        raise StateError("trading_house", "holds at most 4 goods")
    ships = _list(d["ships"], "ships", len(setup.ships))
    for i, v in enumerate(ships):
        where = f"ships[{i}]"
        e = _obj(v, where, ("capacity", "good", "count"))
        cap = _int(e["capacity"], f"{where}.capacity", setup.ships[i], setup.ships[i])
        good = None if e["good"] is None else _good(e["good"], f"{where}.good")
        count = _int(e["count"], f"{where}.count", 0, cap)
        if (good is None) != (count == 0):
            raise StateError(where, "a ship has a kind of goods exactly when it has cargo")
        s.ships.append(Ship(cap, good, count))
    kinds = [ship.good for ship in s.ships if ship.good is not None]
    if len(kinds) != len(set(kinds)):
        raise StateError("ships", "two ships carry the same kind of goods")
    plantations = _obj(d["plantations"], "plantations", ("pile", "face_up", "discards"))
    for key in ("pile", "face_up", "discards"):
        where = f"plantations.{key}"
        setattr(s, key, [_good(v, where) for v in _list(plantations[key], where)])
    s.quarries = _int(d["quarries"], "quarries")
    supply = _obj(d["building_supply"], "building_supply")
    for key, count in supply.items():
        b = _enum(_BUILDING_BY_NAME, key, f"building_supply.{key}", "a building")
        s.supply_buildings[b] = _int(count, f"building_supply.{key}")
    s.supply_buildings = dict(sorted(s.supply_buildings.items()))
    end = d["end_reason"]
    s.end_reason = None if end is None else _str(end, "end_reason")
    _check_totals(s)
    _check_phase(s)
    return s


def _check_totals(s: State) -> None:
    """Components are conserved: every colonist, barrel, tile and building is somewhere."""
    n = s.n
    setup = SETUPS[n]
    two = setup.two_player
    colonists = s.colonist_supply + s.colonist_ship + sum(p.colonists for p in s.players)
    if colonists != setup.colonist_supply + setup.colonist_ship:
        raise StateError(
            "colonists",
            f"{colonists} colonists in play, the box for {n} has "
            f"{setup.colonist_supply + setup.colonist_ship}",
        )
    chips = s.vp_chips + sum(p.vp for p in s.players)
    if chips != setup.vp_chips:
        raise StateError("vp_chips", f"chips left plus chips won is {chips}, not {setup.vp_chips}")
    for g in Good:
        total = (
            s.goods_supply[g]
            + sum(p.goods[g] for p in s.players)
            + sum(ship.count for ship in s.ships if ship.good is g)
            + s.trading_house.count(g)
        )
        box = GOODS_BARRELS[g] - (TWO_PLAYER_GOODS_REMOVED if two else 0)
        if total != box:
            raise StateError(f"goods_supply.{g.label}", f"{total} barrels in play, box has {box}")
        tiles = (
            s.pile.count(g)
            + s.face_up.count(g)
            + s.discards.count(g)
            + sum(p.plantations[g] for p in s.players)
        )
        box = PLANTATION_TILES[g] - (TWO_PLAYER_PLANTATIONS_REMOVED if two else 0)
        if tiles != box:
            raise StateError(f"plantations.{g.label}", f"{tiles} tiles in play, box has {box}")
    quarries = s.quarries + sum(p.quarries for p in s.players)
    box = QUARRIES - (TWO_PLAYER_QUARRIES_REMOVED if two else 0)
    if quarries != box:
        raise StateError("quarries", f"{quarries} quarries in play, box has {box}")
    copies = building_copies(n)
    for b in Building:
        total = s.supply_buildings.get(b, 0) + sum(1 for p in s.players if b in p.buildings)
        if total != copies[b]:
            raise StateError(
                f"building_supply.{b.label}", f"{total} in play, the game has {copies[b]}"
            )


def _check_phase(s: State) -> None:
    if s.phase is Phase.ROLE or s.phase is Phase.OVER:
        if s.role != -1:
            raise StateError("role", f"no role is carried out in the {s.phase.value} phase")
        return
    if s.role < 0:
        raise StateError("role", f"the {s.phase.value} phase needs its role")
    if s.role_taken.get(s.role) != s.picker:
        raise StateError("picker", "the picker must be the seat that took the role")


def loads(text: str | bytes) -> State:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise StateError("", f"not valid JSON: {exc}") from None
    return from_dict(data)


# -- actions ---------------------------------------------------------------------


def action_to(action: Action) -> dict[str, Any]:
    """An action as JSON (the action log's format)."""
    match action:
        case PickRole(role=r):
            return {"type": "role", "role": role_name(r)}
        case UseHacienda(use=u):
            return {"type": "hacienda", "use": u}
        case TakePlantation(good=g, hospice=h):
            return {"type": "plantation", "good": g.label, "hospice": h}
        case TakeQuarry(hospice=h):
            return {"type": "quarry", "hospice": h}
        case PlaceColonists(layout=layout, extra=x):
            return {
                "type": "colonists",
                "extra": x,
                "plantations": _goods_dict(list(layout.plantations)),
                "quarries": layout.quarries,
                "buildings": {b.label: k for b, k in layout.buildings},
            }
        case Build(building=b, university=u):
            return {"type": "build", "building": b.label, "university": u}
        case ExtraGood(good=g):
            return {"type": "extra", "good": g.label}
        case Sell(good=g):
            return {"type": "sell", "good": g.label}
        case Load(good=g, ship=i):
            return {"type": "load", "good": g.label, "ship": i}
        case LoadWharf(good=g):
            return {"type": "wharf", "good": g.label}
        case Store(warehouse=w, windrose=r):
            return {
                "type": "store",
                "warehouse": [g.label for g in w],
                "windrose": None if r is None else r.label,
            }
        case Pass():
            return {"type": "pass"}
    raise TypeError(f"not an action: {action!r}")


def _reader(obj: dict[str, Any]) -> Callable[[str], Any]:
    def get(key: str) -> Any:
        if key not in obj:
            raise StateError(f"action.{key}", "missing")
        return obj[key]

    return get


def action_from(data: object) -> Action:
    obj = _obj(data, "action")
    get = _reader(obj)
    kind = get("type")
    if kind == "role":
        return PickRole(_enum(_ROLE_BY_NAME, get("role"), "action.role", "a role"))
    if kind == "hacienda":
        return UseHacienda(_bool(get("use"), "action.use"))
    if kind == "plantation":
        return TakePlantation(_good(get("good"), "action.good"), _bool(get("hospice"), "action"))
    if kind == "quarry":
        return TakeQuarry(_bool(get("hospice"), "action.hospice"))
    if kind == "colonists":
        pl = _goods_map(get("plantations"), "action.plantations")
        blds = _obj(get("buildings"), "action.buildings")
        buildings = tuple(
            sorted(
                (
                    _enum(_BUILDING_BY_NAME, k, "action.buildings", "a building"),
                    _int(v, f"action.buildings.{k}", 1),
                )
                for k, v in blds.items()
            )
        )
        layout = Layout(
            (pl[0], pl[1], pl[2], pl[3], pl[4]), _int(get("quarries"), "action.quarries"), buildings
        )
        return PlaceColonists(layout, _bool(get("extra"), "action.extra"))
    if kind == "build":
        b = _enum(_BUILDING_BY_NAME, get("building"), "action.building", "a building")
        return Build(b, _bool(get("university"), "action.university"))
    if kind == "extra":
        return ExtraGood(_good(get("good"), "action.good"))
    if kind == "sell":
        return Sell(_good(get("good"), "action.good"))
    if kind == "load":
        return Load(_good(get("good"), "action.good"), _int(get("ship"), "action.ship", 0, 2))
    if kind == "wharf":
        return LoadWharf(_good(get("good"), "action.good"))
    if kind == "store":
        w = tuple(_good(v, "action.warehouse") for v in _list(get("warehouse"), "action"))
        r = get("windrose")
        return Store(w, None if r is None else _good(r, "action.windrose"))
    if kind == "pass":
        return PASS
    raise StateError("action.type", f"unknown action type {kind!r}")
