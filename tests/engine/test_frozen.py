"""quick_init: the engine's values keep every dataclass behaviour with a faster constructor."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from moderator.engine import Build, Building, Good, Layout, PlaceColonists, TakeQuarry
from moderator.engine.events import Loaded, Sold
from moderator.engine.frozen import quick_init
from moderator.engine.game import Decision


def test_events_and_actions_stay_frozen_values() -> None:
    sold = Sold(2, Good.COFFEE, 5)
    assert sold == Sold(seat=2, good=Good.COFFEE, price=5)
    assert hash(sold) == hash(Sold(2, Good.COFFEE, 5))
    assert repr(sold) == "Sold(seat=2, good=<Good.COFFEE: 4>, price=5)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        sold.price = 6  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(sold)) == sold
    assert Loaded(1, Good.CORN, 3, None, 4).ship is None


def test_defaults_and_keywords_work_as_the_dataclass_declares() -> None:
    assert Build(Building.HACIENDA) == Build(Building.HACIENDA, university=False)
    assert TakeQuarry().hospice is False
    layout = Layout((1, 0, 0, 0, 0), 0, ())
    assert PlaceColonists(layout).extra is False
    assert PlaceColonists(layout=layout, extra=True).extra is True
    with pytest.raises(TypeError):
        Sold(1, Good.CORN)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Build(Building.HACIENDA, True, False)  # type: ignore[call-arg]
    assert Decision.__init__.__qualname__ == "Decision.__init__"


def test_only_frozen_slotted_dataclasses_are_accepted() -> None:
    @dataclasses.dataclass(slots=True)
    class Mutable:
        x: int

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Listed:
        xs: list[int] = dataclasses.field(default_factory=list)

    for cls in (Mutable, NoSlots, Listed):
        with pytest.raises(TypeError):
            quick_init(cls)
