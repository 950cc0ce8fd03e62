"""An order for another decision than the one asked, told in words: what the words name
is ordered in another phase ("a quarry is taken in the settler phase"), what the player
is asked now, and how to write it whole to order it ahead. The one wording of this case
for every decision (check_mail uses it for a line that is no order for the decision
asked; resolve for an order of another kind)."""

from __future__ import annotations

from ..engine.actions import DecisionKind
from ..engine.game import Game
from .commands import target_kind
from .errors import OrderError
from .parser import parse_order
from .reading import readings
from .resolve import asked_now, decision_of, or_list
from .vocabulary import written_out

# What is done with a thing in the decision that orders it, in the turn's order.
DONE_IN: dict[DecisionKind, str] = {
    DecisionKind.ROLE: "picked as a role",
    DecisionKind.SETTLE: "taken in the settler phase",
    DecisionKind.BUILD: "built in the builder phase",
    DecisionKind.CRAFTSMAN_EXTRA: "taken as the craftsman's extra barrel",
    DecisionKind.SELL: "sold in the trader phase",
    DecisionKind.LOAD: "shipped in the captain phase",
    DecisionKind.STORE: "kept after the captain phase",
    DecisionKind.MAYOR: "manned in the mayor phase",
}


def other_decisions(text: str, now: DecisionKind | None) -> dict[DecisionKind, str]:
    """The decisions other than ``now`` that ``text`` answers when read as a bare answer
    to them ("quarry" -> the settler's "take quarry"), each with the order it makes. The
    mayor's placements count only when nothing else does: any place name is one."""
    found: dict[DecisionKind, str] = {}
    for kind in DONE_IN:
        if kind is now:
            continue
        for reading in readings(text, kind):
            if reading.tier != 1 or not reading.text.partition(" ")[2].strip():
                continue  # a bare answer as written (never a slip corrected) naming a thing
            try:
                command = parse_order(reading.text)
            except OrderError:
                continue
            if target_kind(command) is kind:
                found[kind] = reading.text
                break
    if len(found) > 1:
        found.pop(DecisionKind.MAYOR, None)
    return found


def elsewhere(text: str, game: Game, seat: int) -> str | None:
    """Why ``text``, which is no order for ``seat``'s decision now, names what other
    decisions order ('"quarry" is taken in the settler phase; you are asked now what
    to build. To order it ahead, write it whole: "take quarry".'); None when
    it answers no other decision either."""
    decision = decision_of(game, seat)
    found = other_decisions(text, None if decision is None else decision.kind)
    if not found:
        return None
    how = or_list([DONE_IN[k] for k in found])
    # (in full words: "lg wh" is to be ordered ahead as "build large warehouse")
    found = {k: written_out(order) for k, order in found.items()}
    orders = [f'"{order}"' for order in found.values()]
    ahead = ": " + or_list(orders) if len(orders) <= 2 else ", like " + or_list(orders[:2])
    order = next(iter(found.values()))
    named = order.partition(" ")[2].strip()  # the words after the verb
    return f'"{named}" is {how}; {asked_now(game, seat)}. To order it ahead, write it whole{ahead}.'


__all__ = ["DONE_IN", "elsewhere", "other_decisions"]
