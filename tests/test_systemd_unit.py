"""docs/moderator.service, the systemd unit the README points moderators to, starts
the daemon the way the CLI takes it, stops it with the signal it finishes cleanly on,
and gives it the CPU weight bench/pipeline.py measures."""

from __future__ import annotations

import configparser
import shlex
import signal
from pathlib import Path

from moderator.cli import build_parser

UNIT = Path(__file__).resolve().parents[1] / "docs" / "moderator.service"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys keep their case
    parser.read_string(UNIT.read_text())
    return parser


def test_it_runs_the_daemon_with_a_config_the_cli_accepts() -> None:
    service = unit()["Service"]
    program, *args = shlex.split(service["ExecStart"])
    assert Path(program).name == "moderator"
    parsed = build_parser().parse_args(args)
    assert parsed.command == "run"
    assert parsed.config.endswith("config.toml")
    assert service["WorkingDirectory"] in service["ReadWritePaths"].split()


def test_it_stops_the_daemon_with_the_signal_it_finishes_cleanly_on() -> None:
    service = unit()["Service"]
    assert getattr(signal, service["KillSignal"]) == signal.SIGTERM
    assert int(service["TimeoutStopSec"]) >= 30
    assert service["Restart"] == "on-failure"


def test_it_gives_the_daemon_more_than_the_default_cpu_weight() -> None:
    weight = int(unit()["Service"]["CPUWeight"])
    assert 100 < weight <= 10000  # systemd's default and its maximum
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_it_backs_off_and_does_not_restart_what_a_person_must_fix() -> None:
    service = unit()["Service"]
    assert int(service["RestartSec"]) >= 5 and int(service["RestartMaxDelaySec"]) >= 300
    assert int(service["RestartSteps"]) >= 1
    from moderator.cli import EXIT_ERROR

    assert service["RestartPreventExitStatus"].split() == [str(EXIT_ERROR)]


def test_it_runs_the_command_the_readme_installs() -> None:
    readme = (UNIT.parents[1] / "README.md").read_text()
    program = shlex.split(unit()["Service"]["ExecStart"])[0]
    prefix = program.removesuffix("/bin/moderator")
    assert f"make install PREFIX={prefix}" in readme
