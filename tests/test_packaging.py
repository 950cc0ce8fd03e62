"""The wheel carries the grammar, templates, migrations, the players' guide and the licence;
an installed copy finds them outside the source tree, and works from a venv of its own."""

from __future__ import annotations

import re
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
        "moderator/_data/templates/archive/archive.js",
        "moderator/py.typed",
    ):
        assert needed in names, needed
    assert any(re.fullmatch(r"pr_moderator-[^/]+\.dist-info/licenses/LICENSE", n) for n in names)


def test_the_version_is_written_once_and_the_wheel_carries_it(wheel: Path) -> None:
    from moderator import __version__

    assert wheel.name.startswith(f"pr_moderator-{__version__}-")
    assert "version =" not in (ROOT / "pyproject.toml").read_text().split("[project.")[0]


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


def test_the_wheel_runs_from_an_empty_venv_of_its_own(wheel: Path, tmp_path: Path) -> None:
    """What README, Running it for real, does: install into a new venv (no development
    tools, no source tree), then the first commands from the service's own folder."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
        capture_output=True,
        timeout=600,
    )
    if pip.returncode != 0:
        pytest.skip(f"cannot install the dependencies here: {pip.stderr.decode()[-300:]}")
    home = tmp_path / "srv"
    home.mkdir()
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "MODERATOR_CONFIG": str(home / "config.toml")}

    def moderator(*args: str) -> str:
        proc = subprocess.run(
            ["moderator", *args], cwd=tmp_path, env=env, capture_output=True, timeout=120
        )
        assert proc.returncode == 0, proc.stderr.decode()
        return proc.stdout.decode()

    frozen = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert not {"pytest", "mypy", "ruff", "hypothesis"} & {
        line.split("==")[0].lower() for line in frozen.splitlines()
    }
    assert moderator("--version").startswith("moderator ")
    moderator("config", "init", str(home / "config.toml"))  # the example the wheel carries
    assert str(home / "var" / "moderator.sqlite") in moderator("db", "upgrade")
    new = moderator("game", "new", "--player", "Anna <anna@example.test>", "--player", "B <b@x.t>")
    assert new.startswith("PR-1")
    assert "PR-1" in moderator("game", "list")
