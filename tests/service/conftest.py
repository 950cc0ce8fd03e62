"""A moderator on each database backend, with four seated players."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from moderator.config import AutopilotSection, Config, ModeratorSection
from moderator.service.admin import Admin, NewPlayer
from moderator.service.core import Moderator

PLAYERS = [
    NewPlayer("Anna", "anna@example.test"),
    NewPlayer("Bob", "bob@example.test", "Europe/Berlin"),
    NewPlayer("Chris", "chris@example.test"),
    NewPlayer("David", "david@example.test", "America/New_York"),
]


@dataclass
class Table:
    moderator: Moderator
    admin: Admin
    factory: sessionmaker[Session]
    tag: str
    passwords: dict[int, str]


@pytest.fixture
def config() -> Config:
    return Config(
        moderator=ModeratorSection(
            address="moderator@example.test", secret="uhF59MfZiCBZVjz1OKoInjGfZxObQ7LjfY7XSPa8RKY"
        ),
        # The instant player: these tests look at the mails right after each order (the
        # search player's, which wait for the planner, are tested in test_turns.py).
        autopilot=AutopilotSection(player="heuristic"),
    )


def start_at(
    factory: sessionmaker[Session], config: Config, position: str, seed: int = 1
) -> tuple[Moderator, str]:
    """A moderator, and a game of the four players started from ``position`` (JSON)."""
    moderator = Moderator(config, factory)
    tag, _ = Admin(moderator).new_game(PLAYERS, seed=seed, position=position)
    return moderator, tag


@pytest.fixture
def table(session_factory: sessionmaker[Session], config: Config) -> Iterator[Table]:
    moderator = Moderator(config, session_factory)
    admin = Admin(moderator)
    tag, passwords = admin.new_game(PLAYERS, seed=7)
    yield Table(moderator, admin, session_factory, tag, passwords)


# The engine tests' position helpers (tests/ is not a package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
