"""The wheel carries the grammar, templates, migrations and the players' guide, and an
installed copy finds them outside the source tree."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        timeout=300,
    )
    if proc.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {proc.stderr.decode()[-300:]}")
    (found,) = out.glob("*.whl")
    return found


def test_the_wheel_ships_the_data_files(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "moderator/_data/grammars/orders.lark",
        "moderator/_data/docs/orders.md",
        "moderator/_data/migrations/env.py",
        "moderator/_data/migrations/versions/0001_initial.py",
        "moderator/_data/templates/board.txt.j2",
        "moderator/_data/config.example.toml",
        "moderator/py.typed",
    ):
        assert needed in names, needed


def test_an_installed_copy_finds_its_files_outside_the_source_tree(
    wheel: Path, tmp_path: Path
) -> None:
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    code = (
        "from moderator.resources import data_path;"
        "from moderator.orders import help_text, parse_text;"
        "from moderator.store.migrate import migrations_dir;"
        "print(data_path('grammars', 'orders.lark'));"
        "print(migrations_dir());"
        "assert parse_text('ship 6 sugar on 7') and help_text('mayor')"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert all(str(target) in line for line in proc.stdout.decode().splitlines())
