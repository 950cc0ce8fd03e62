"""Debian packages the tests need, installed with apt-get when missing (root only)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

# Root's programs live in sbin, which a non-login PATH may lack.
SEARCH_PATH = os.pathsep.join(
    [os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"]
)


class PackagesUnavailable(Exception):
    """The programs are missing and cannot be installed here."""


def missing(programs: Sequence[str]) -> list[str]:
    return [p for p in programs if shutil.which(p, path=SEARCH_PATH) is None]


def ensure_programs(programs: Sequence[str], packages: Sequence[str]) -> None:
    """Install ``packages`` when any of ``programs`` is missing; raise PackagesUnavailable
    if that is impossible (not root, no apt-get) or did not help.

    A lock file keeps concurrent test runs from fighting over dpkg.
    """
    if not missing(programs):
        return
    if os.geteuid() != 0:
        raise PackagesUnavailable(
            f"missing {', '.join(missing(programs))}; installing {' '.join(packages)} needs root"
        )
    if shutil.which("apt-get", path=SEARCH_PATH) is None:
        raise PackagesUnavailable(f"missing {', '.join(missing(programs))} and no apt-get")
    lock_path = Path(tempfile.gettempdir()) / "tests-apt.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not missing(programs):
            return
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", "PATH": SEARCH_PATH}
        install = ["apt-get", "install", "-y", "--no-install-recommends", *packages]
        # Try without refreshing the lists first: it is faster and works offline.
        for cmds in ([install], [["apt-get", "update"], install]):
            failure = ""
            for cmd in cmds:
                proc = subprocess.run(
                    [*cmd[:1], "-o", "DPkg::Lock::Timeout=300", *cmd[1:]],
                    env=env,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    text=True,
                    timeout=900,
                    check=False,
                )
                if proc.returncode != 0:
                    failure = f"{' '.join(cmd)} failed: {proc.stderr[-2000:]}"
                    break
            if not failure:
                break
        else:
            raise PackagesUnavailable(failure)
    if missing(programs):
        raise PackagesUnavailable(f"still missing after install: {', '.join(missing(programs))}")
