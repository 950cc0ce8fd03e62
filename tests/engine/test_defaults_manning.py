"""Defaults page: "Hospice and university: the new tile or building is manned by default"."""

from __future__ import annotations

from positions import COFFEE, blank, build, face_up, man, pick, ready

from moderator.engine import Build, Building, Role, TakePlantation, TakeQuarry
from moderator.engine.defaults import manned_building, manned_tile


def test_the_hospice_mans_the_new_tile_by_default() -> None:
    game = blank(4)
    build(game.state, 0, Building.HOSPICE, colonists=1)
    face_up(game.state, COFFEE)
    game = ready(game)
    pick(game, Role.SETTLER)
    legal = game.legal_actions(0)
    assert manned_tile(legal, COFFEE) == TakePlantation(COFFEE, True)
    assert manned_tile(legal, None) == TakeQuarry(True)


def test_without_a_manned_hospice_the_tile_comes_empty() -> None:
    game = blank(4)
    build(game.state, 0, Building.HOSPICE, colonists=0)
    face_up(game.state, COFFEE)
    game = ready(game)
    pick(game, Role.SETTLER)
    assert manned_tile(game.legal_actions(0), COFFEE) == TakePlantation(COFFEE, False)


def test_the_university_mans_the_new_building_by_default() -> None:
    game = blank(4, doubloons=10)
    build(game.state, 0, Building.UNIVERSITY)
    man(game.state, 0, Building.UNIVERSITY)
    game = ready(game)
    pick(game, Role.BUILDER)
    legal = game.legal_actions(0)
    assert manned_building(legal, Building.HARBOR) == Build(Building.HARBOR, True)
    assert manned_building(legal, Building.UNIVERSITY) is None  # he has one already
