"""The short crash-and-fault soak (bench/soak.py --short, issue 13 item 7): orders by real
mail through Postfix and Dovecot while the daemon is SIGKILLed, Postfix stopped, Dovecot
restarted, the SQLite disk filled and made read-only, PostgreSQL refusing connections;
the hostile corpus through the same servers. Nothing lost, nothing applied twice, every
fault recovered from, no hostile mail failing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def test_the_short_soak_loses_nothing_and_applies_nothing_twice(tmp_path: Path) -> None:
    books = tmp_path / "books.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "soak.py"),
            "--short",
            "--report",
            str(tmp_path / "reliability.md"),
            "--json",
            str(books),
            "--logs",
            str(tmp_path / "logs"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode == 2 and "cannot run here" in proc.stderr:
        pytest.skip(proc.stderr.strip())
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    legs = json.loads(books.read_text())
    assert legs, "no leg ran"
    for leg in legs:
        name = leg["backend"]
        assert leg["orders"] >= 20, name
        assert leg["kills"] >= 3, name
        assert leg["lost"] == [] and leg["twice"] == [], name
        assert leg["mails_lost"] == [], name
        assert leg["not_applied"] == {}, name
        # 75: a start on a read-only database says "try again later" (systemd does).
        assert set(leg["exits"]) <= {75} and leg["stop_status"] == 0, name
        assert leg["tracebacks"] == 0, name  # outages are logged in words, once
        assert leg["faults"], name
        for fault in leg["faults"]:
            assert fault["recovered"] is not None, f"{name}: {fault}"
        for case, _, observed in leg["hostile"]:
            assert "failed" not in observed, f"{name}: {case}: {observed}"
