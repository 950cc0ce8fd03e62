"""Actions back to order text: for the "you may order now" lists and the defaults."""

from __future__ import annotations

from ..engine.actions import (
    Action,
    Build,
    DecisionKind,
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
from ..engine.components import BUILDINGS, GOODS, Role
from ..engine.defaults import default_action
from ..engine.events import circles
from ..engine.game import Game
from ..engine.roles import mayor
from .resolve import decision_of

EXAMPLE_REMOVE = "remove 1 from corn, 1 from san juan"
EXAMPLE_PLACE = "place 2 on coffee roaster, 1 on quarry"


def format_action(action: Action, game: Game, seat: int) -> str:
    """An order text that parses and resolves back to exactly ``action`` for ``seat`` in
    the current position (it names whatever the defaults would otherwise decide)."""
    s = game.state
    legal = game.legal_actions(seat)
    match action:
        case PickRole(role=role):
            if role.is_prospector:
                if int(Role.PROSPECTOR2) in s.role_doubloons:
                    return f"role prospector {1 if role is Role.PROSPECTOR else 2}"
                return "role prospector"
            return f"role {role.label}"
        case UseHacienda(use=use):
            return "hacienda" if use else "no hacienda"
        case TakePlantation(good=good, hospice=h):
            declined = not h and TakePlantation(good, True) in legal
            return f"settle {good.label}" + (", no hospice" if declined else "")
        case TakeQuarry(hospice=h):
            declined = not h and TakeQuarry(True) in legal
            return "take quarry" + (", no hospice" if declined else "")
        case Build(building=b, university=u):
            declined = not u and Build(b, True) in legal
            return f"build {b.label}" + (", no university" if declined else "")
        case ExtraGood(good=good):
            return f"extra {good.label}"
        case Sell(good=good):
            return f"sell {good.label}"
        case Load(good=good, ship=index):
            return f"ship {good.label} on {s.ships[index].capacity}"
        case LoadWharf(good=good):
            return f"wharf {good.label}"
        case Store(warehouse=kept, windrose=rose):
            parts = [f"{g.label} in warehouse" for g in kept]
            if rose is not None:
                parts.append(f"1 {rose.label} on wind rose")
            return "keep " + ", ".join(parts) if parts else "keep"
        case Pass():
            kind = game.kind()
            return (
                {
                    DecisionKind.BUILD: "build nothing",
                    DecisionKind.SELL: "sell nothing",
                    DecisionKind.CRAFTSMAN_EXTRA: "no extra",
                    DecisionKind.LOAD: "no wharf",
                    DecisionKind.SETTLE: "take nothing",
                }.get(kind, "pass")
                if kind is not None
                else "pass"
            )
        case PlaceColonists():
            return format_colonists(action, game, seat)
    raise AssertionError(f"unknown action {action!r}")  # pragma: no cover


def format_colonists(action: PlaceColonists, game: Game, seat: int) -> str:
    """A colonist order: every removal, then every placement, as seed 002 asks."""
    s = game.state
    p = s.players[seat]
    layout = action.layout
    removals: list[str] = []
    placements: list[str] = []

    def diff(name: str, now: int, then: int) -> None:
        if then < now:
            removals.append(f"{now - then} from {name}")
        elif then > now:
            placements.append(f"{then - now} on {name}")

    for g in GOODS:
        diff(g.label, p.occupied[g], layout.plantations[g])
    diff("quarry", p.occupied_quarries, layout.quarries)
    for b in sorted(p.buildings):
        diff(b.label, p.buildings[b], layout.on(b))
    orders: list[str] = []
    if not action.extra and True in mayor.extras(s, seat):
        orders.append("no extra colonist")
    if removals:
        orders.append("remove " + ", ".join(removals))
    if placements:
        orders.append("place " + ", ".join(placements))
    if not orders:
        return "mayor: no change"
    return "; ".join(orders)


def default_order(game: Game, seat: int) -> str | None:
    """The published default for ``seat``'s decision now, in order syntax (None: no
    default, as for a role pick, a tile, a building or a sale)."""
    action = default_action(game, seat)
    return None if action is None else format_action(action, game, seat)


def legal_orders(game: Game, seat: int) -> list[str]:
    """What ``seat`` may order now, in order syntax, made from the legal actions (the
    mayor's layouts are too many to list: his board and the syntax instead)."""
    decision = decision_of(game, seat)
    if decision is None:
        return []
    if decision.kind is DecisionKind.MAYOR:
        return describe_mayor(game, seat)
    out: list[str] = []
    for action in decision.actions:
        text = format_action(action, game, seat)
        if text not in out:
            out.append(text)
    return out


def describe_mayor(game: Game, seat: int) -> list[str]:
    """The mayor decision for an error mail: the board's circles, the syntax, the default."""
    s = game.state
    p = s.players[seat]
    tiles: list[str] = []
    for g in GOODS:
        if p.plantations[g]:
            tiles.append(f"{g.label} {p.occupied[g]} of {p.plantations[g]}")
    if p.quarries:
        tiles.append(f"quarry {p.occupied_quarries} of {p.quarries}")
    for b in sorted(p.buildings):
        tiles.append(f"{b.label} {p.buildings[b]} of {BUILDINGS[b].circles}")
    lines = [
        "Your colonists: " + (", ".join(tiles) or "no tiles yet") + f"; San Juan {p.san_juan}.",
    ]
    if True in mayor.extras(s, seat):
        lines.append(
            'As mayor you also take one colonist from the supply, unless you write "no extra '
            'colonist".'
        )
    legal = game.legal_actions(seat)
    # Orders he could send as they are, with his own tiles; else the general forms.
    own = [f'"{e}"' for e in mayor_examples(game, seat)[:2]]
    like = " or ".join(own) or f'"{EXAMPLE_REMOVE}" then "{EXAMPLE_PLACE}"'
    lines.append(
        f"Write every removal first, then every placement ({len(legal)} layouts are possible), "
        f"like {like}. No colonist may stay in San Juan while an empty circle remains."
    )
    default = default_action(game, seat)
    if default is not None:
        lines.append("The default, if you send nothing: " + format_action(default, game, seat))
    return lines


def _distance(a: PlaceColonists, b: PlaceColonists) -> tuple[int, int]:
    """How far two layouts are apart: colonists placed differently, then the extra
    colonist taken or not (a layout that also keeps it comes first)."""
    ca, cb = circles(a.layout), circles(b.layout)
    moved = sum(abs(ca.get(k, 0) - cb.get(k, 0)) for k in {*ca, *cb})
    return moved, int(a.extra != b.extra)


def mayor_examples(game: Game, seat: int) -> tuple[str, ...]:
    """Orders for ``seat``'s mayor decision that he could send as they are, written with
    his own tiles and buildings: a building manned, a colonist removed, each with as few
    changes as the rules allow, and "no change" when keeping the layout is allowed.
    Never the default, which the deadline line shows."""
    s = game.state
    p = s.players[seat]
    legal = game.legal_actions(seat)
    default = default_action(game, seat)
    extra = isinstance(default, PlaceColonists) and default.extra
    built = sorted(p.buildings)
    # The groups of circles: the five plantations, the quarries, then the buildings.
    caps = [*(p.plantations[g] for g in GOODS), p.quarries, *(BUILDINGS[b].circles for b in built)]
    now = [*(p.occupied[g] for g in GOODS), p.occupied_quarries, *(p.buildings[b] for b in built)]
    # Colonists to place beyond the layout now: San Juan's (and the privilege colonist).
    more = min(p.san_juan + extra, sum(caps) - sum(now))
    buildings = range(len(GOODS) + 1, len(caps))

    def layout_of(counts: list[int]) -> PlaceColonists:
        return PlaceColonists(
            Layout(
                (counts[0], counts[1], counts[2], counts[3], counts[4]),
                counts[5],
                tuple((b, n) for b, n in zip(built, counts[6:], strict=True) if n),
            ),
            extra,
        )

    def filled(counts: list[int], n: int, first: int, skip: int = -1) -> PlaceColonists | None:
        """``n`` more colonists on ``first`` while it has room, then on the buildings and
        the tiles in turn (not on ``skip``); None: not a legal layout, or the default."""
        counts = list(counts)
        for i in (first, *buildings, *range(len(GOODS) + 1)):
            if i != skip:
                room = min(n, caps[i] - counts[i])
                counts[i] += room
                n -= room
        action = layout_of(counts)
        return action if n == 0 and action in legal and action != default else None

    found: list[PlaceColonists] = []
    for b in buildings:
        if now[b] >= caps[b]:
            continue
        if more:
            example = filled(now, more, b)
        else:  # everyone placed already: one moves from a tile or building onto b
            donor = next((i for i in range(len(caps)) if now[i] and i != b), None)
            counts = list(now)
            if donor is not None:
                counts[donor] -= 1
            example = None if donor is None else filled(counts, 1, b, skip=donor)
        if example is not None:
            found.append(example)
            break
    for donor in range(len(caps)):
        if now[donor]:
            counts = list(now)
            counts[donor] -= 1
            example = filled(counts, more + 1, buildings[0] if buildings else 0, skip=donor)
            if example is not None and example not in found:
                found.append(example)
                break
    if not found:
        # No building to man and nobody to move (the first round): another layout the
        # rules allow, the fewest colonists away from the default's (declining the extra
        # colonist, or the other tile).
        others = [a for a in legal if isinstance(a, PlaceColonists) and a != default]
        if others and isinstance(default, PlaceColonists):
            found.append(min(others, key=lambda a: _distance(a, default)))
    out = [format_action(action, game, seat) for action in found]
    if layout_of(now) in legal:
        out.append("mayor: no change")
    return tuple(out)


__all__ = [
    "default_order",
    "describe_mayor",
    "format_action",
    "format_colonists",
    "legal_orders",
    "mayor_examples",
]
