"""An operator's first day, as the README tells it, from a fresh clone against the real
Dovecot and Postfix: install, `config init`, `check`, `db upgrade`, `game new`, `run`,
one order answered, SIGTERM, exit 0."""

from __future__ import annotations

import email
import email.policy
import os
import re
import signal
import smtplib
import subprocess
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from mailstack import MailStack

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme(line: str) -> str:
    """A command as the README writes it: the test runs only what the README says."""
    assert line in README, f"the README no longer says {line!r}"
    return line


def set_key(text: str, section: str, key: str, value: str | int) -> str:
    """What an operator does in an editor: change one key of one section."""
    start = text.index(f"\n[{section}]\n")
    end = text.find("\n[", start + 1)
    end = len(text) if end < 0 else end
    rendered = f'"{value}"' if isinstance(value, str) else str(value)
    part, count = re.subn(rf"(?m)^{key} = .*$", f"{key} = {rendered}", text[start:end], count=1)
    assert count == 1, f"no {key} in [{section}]"
    return text[:start] + part + text[end:]


@pytest.fixture
def mailboxes(mailstack: MailStack) -> MailStack:
    for user in ("moderator", "alice", "bob"):
        mailstack.purge(user, ["INBOX", "Processed"])
    return mailstack


def test_the_readme_takes_a_new_operator_from_a_fresh_clone_to_an_answered_order(
    mailboxes: MailStack, tmp_path: Path
) -> None:
    stack = mailboxes
    clone = tmp_path / "pr-moderator"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)

    # -- install, without the development tools -------------------------------------------
    venv = tmp_path / "venv"
    install = readme("make install PREFIX=/srv/moderator/venv").replace(
        "/srv/moderator/venv", str(venv)
    )
    made = subprocess.run(install.split(), cwd=clone, capture_output=True, timeout=900)
    if made.returncode != 0 and b"No matching distribution" in made.stdout + made.stderr:
        pytest.skip("the dependencies cannot be installed here")
    assert made.returncode == 0, (made.stdout + made.stderr).decode()[-3000:]
    assert not (venv / "bin" / "pytest").exists() and not (venv / "bin" / "mypy").exists()
    home = tmp_path / "srv"
    home.mkdir()
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
    }

    def moderator(line: str, expect: int = 0) -> str:
        proc = subprocess.run(
            readme(line).split(), cwd=home, env=env, capture_output=True, timeout=120
        )
        output = (proc.stdout + proc.stderr).decode()
        assert proc.returncode == expect, f"{line}: {output}"
        return output

    # -- configure: config init, then the editor --------------------------------------------
    moderator("moderator config init config.toml")
    assert (home / "config.toml").stat().st_mode & 0o777 == 0o600
    env["MODERATOR_CONFIG"] = str(home / "config.toml")  # export MODERATOR_CONFIG=$PWD/...
    readme("export MODERATOR_CONFIG=$PWD/config.toml")
    text = (home / "config.toml").read_text()
    for section, key, value in (
        ("moderator", "address", stack.address("moderator")),
        ("moderator", "operator", stack.address("dave")),
        ("imap", "host", stack.host),
        ("imap", "port", stack.ports.imaps),
        ("imap", "ca_file", str(stack.ca_cert)),
        ("imap", "user", stack.address("moderator")),
        ("imap", "password", stack.password),
        ("smtp", "host", stack.host),
        ("smtp", "port", stack.ports.smtp),
        ("smtp", "ca_file", str(stack.ca_cert)),
    ):
        text = set_key(text, section, key, value)
    (home / "config.toml").write_text(text)

    # -- the database, the checks, a game ----------------------------------------------------
    assert "moderator check" in README
    before = moderator("moderator check", expect=2)  # no database yet: it says so
    assert "FAIL  database" in before and "db upgrade" in before
    assert "var/moderator.sqlite" in moderator("moderator db upgrade")
    checked = moderator("moderator check")
    for name in ("config", "secret", "database", "operator", "imap", "smtp"):
        assert re.search(rf"(?m)^ok +{name} ", checked), checked
    new = subprocess.run(
        [
            "moderator",
            "game",
            "new",
            "--player",
            f"Alice <{stack.address('alice')}>",
            "--player",
            f"Bob <{stack.address('bob')}>",
        ],
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert new.returncode == 0, new.stderr
    tag = new.stdout.split()[0]
    assert "go out when the daemon runs" in new.stdout
    show = subprocess.run(
        ["moderator", "game", "show", tag], cwd=home, env=env, capture_output=True, text=True
    )
    waiting = re.search(r"Waiting for: (\w+) \(seat", show.stdout)
    assert waiting is not None, show.stdout
    player = waiting[1].lower()

    # -- the daemon; one player answers the mail he got --------------------------------------
    log_path = tmp_path / "daemon.log"
    with open(log_path, "wb") as log_file:
        daemon = subprocess.Popen(
            readme("moderator run").split(),
            cwd=home,
            env={**env, "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while not stack.folder_uids(player) and time.monotonic() < deadline:
            assert daemon.poll() is None, log_path.read_text()
            time.sleep(0.2)
        (first,) = [
            email.message_from_bytes(raw, policy=email.policy.default)
            for raw in stack.read_mailbox(player)
        ]
        order = EmailMessage()
        order["From"] = f"{player.title()} <{stack.address(player)}>"
        order["To"] = first["Reply-To"].addresses[0].addr_spec
        order["Subject"] = f"Re: {first['Subject']}"
        order["Message-ID"] = make_msgid(domain="players.example.test")
        order["In-Reply-To"] = first["Message-ID"]
        order.set_content("role settler\n\n> quoted board, ignored\n")
        with smtplib.SMTP(stack.host, stack.ports.smtp, local_hostname="localhost") as smtp:
            smtp.send_message(order)

        def answer() -> EmailMessage | None:
            for raw in stack.read_mailbox(player):
                msg = email.message_from_bytes(raw, policy=email.policy.default)
                if str(msg["In-Reply-To"]) == str(order["Message-ID"]):
                    assert isinstance(msg, EmailMessage)
                    return msg
            return None

        deadline = time.monotonic() + 30
        while answer() is None:
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.2)
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=60) == 0, log_path.read_text()
    finally:
        if daemon.poll() is None:
            os.kill(daemon.pid, signal.SIGKILL)
            daemon.wait()
    log_text = log_path.read_text()
    assert "Traceback" not in log_text and "level=ERROR" not in log_text, log_text
    assert re.search(rf"processed message=1 from=\S+ game={tag} seat=\d outcome=applied", log_text)
    assert "daemon stopped" in log_text
    listed = subprocess.run(
        ["moderator", "inbox", "list"], cwd=home, env=env, capture_output=True, text=True
    )
    assert "applied" in listed.stdout and "1 message(s)" in listed.stdout
