"""A throwaway loopback Dovecot + Postfix for the integration tests, and mailbox helpers."""

from __future__ import annotations

import asyncio
import contextlib
import imaplib
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from debpackages import SEARCH_PATH, PackagesUnavailable, ensure_programs, missing

SCRIPT = Path(__file__).with_name("mailstack.sh")
DEFAULT_USERS: tuple[str, ...] = ("moderator", "alice", "bob", "carol", "dave")
DEFAULT_PASSWORD = "secret"
DEFAULT_DOMAIN = "example.test"
PACKAGES = ("dovecot-imapd", "dovecot-lmtpd", "postfix")
# Daemons the script starts, and tools it calls; /usr/sbin is not on every PATH.
NEEDED_PROGRAMS = ("dovecot", "doveadm", "postfix", "openssl")


class MailStackUnavailable(RuntimeError):
    """The stack cannot run here (not root, packages missing); tests should skip."""


@dataclass(frozen=True)
class Ports:
    """The loopback ports of one running stack."""

    imap: int
    imaps: int
    smtp: int
    submission: int
    smtps: int
    lmtp: int


@dataclass(frozen=True)
class MailStack:
    """A running stack: where to reach it, and helpers for tests."""

    host: str
    ports: Ports
    ca_cert: Path
    domain: str
    users: tuple[str, ...]
    password: str
    directory: Path = field(repr=False)

    def address(self, user: str) -> str:
        return f"{user}@{self.domain}"

    # -- server control (for reconnect tests) --------------------------------------------------

    def stop_dovecot(self) -> None:
        """Stop Dovecot: IMAP clients get BYE and a closed socket, LMTP deliveries defer."""
        _run_script(self.directory, self._env(), "dovecot-stop")

    def start_dovecot(self) -> None:
        _run_script(self.directory, self._env(), "dovecot-start")

    def stop_postfix(self) -> None:
        """Stop Postfix: SMTP connections are refused; what it had queued stays queued."""
        _run_script(self.directory, self._env(), "postfix-stop")

    def start_postfix(self) -> None:
        _run_script(self.directory, self._env(), "postfix-start")

    def doveadm(self, *args: str) -> str:
        """Run doveadm against this stack's Dovecot; returns its stdout."""
        proc = subprocess.run(
            [_which("doveadm"), "-c", str(self.directory / "dovecot.conf"), *args],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=30,
            check=False,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"doveadm {' '.join(args)} failed: {proc.stderr.strip()}")
        return proc.stdout

    # -- mailbox helpers -------------------------------------------------------------------------

    @contextlib.contextmanager
    def imap(self, user: str) -> Iterator[imaplib.IMAP4]:
        """A logged-in stdlib IMAP client for `user` (plain IMAP on loopback)."""
        client = imaplib.IMAP4(self.host, self.ports.imap, timeout=10)
        try:
            client.login(self.address(user), self.password)
            yield client
        finally:
            with contextlib.suppress(Exception):
                client.logout()

    def read_mailbox(self, user: str, folder: str = "INBOX") -> list[bytes]:
        """All messages of one folder, raw, in UID order (without setting \\Seen)."""
        with self.imap(user) as client:
            typ, _ = client.select(_quote(folder), readonly=True)
            if typ != "OK":
                return []
            typ, data = client.uid("FETCH", "1:*", "(BODY.PEEK[])")
            if typ != "OK":
                raise RuntimeError(f"FETCH failed: {data!r}")
            return [item[1] for item in data if isinstance(item, tuple)]

    def folder_uids(self, user: str, folder: str = "INBOX") -> list[int]:
        with self.imap(user) as client:
            typ, _ = client.select(_quote(folder), readonly=True)
            if typ != "OK":
                return []
            _, data = client.uid("SEARCH", "ALL")
            return [int(n) for n in (data[0] or b"").split()]

    def purge(self, user: str, folders: Sequence[str] = ("INBOX",)) -> None:
        """Empty folders of a mailbox (missing folders are ignored)."""
        with self.imap(user) as client:
            for folder in folders:
                typ, data = client.select(_quote(folder))
                if typ != "OK" or data[0] in (b"0", None):
                    continue
                client.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
                client.expunge()
                client.close()

    async def aread_mailbox(self, user: str, folder: str = "INBOX") -> list[bytes]:
        """`read_mailbox` off the event loop, for async tests."""
        return await asyncio.to_thread(self.read_mailbox, user, folder)

    async def wait_for_mail(
        self, user: str, count: int, folder: str = "INBOX", timeout: float = 10.0
    ) -> list[bytes]:
        """Poll until `folder` holds at least `count` messages; raise TimeoutError otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            messages = await self.aread_mailbox(user, folder)
            if len(messages) >= count:
                return messages
            if time.monotonic() > deadline:
                raise TimeoutError(f"{user}/{folder}: {len(messages)} of {count} messages")
            await asyncio.sleep(0.05)

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca_cert))

    def _env(self) -> dict[str, str]:
        return _script_env(self.directory, self.ports, self.users, self.password, self.domain)


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _which(program: str) -> str:
    found = shutil.which(program, path=SEARCH_PATH)
    if found is None:
        raise MailStackUnavailable(f"{program} not found")
    return found


def ensure_packages() -> None:
    """Install Dovecot and Postfix when missing (root only), else MailStackUnavailable."""
    try:
        ensure_programs(NEEDED_PROGRAMS, (*PACKAGES, "openssl"))
    except PackagesUnavailable as exc:
        raise MailStackUnavailable(str(exc)) from None


def free_ports(count: int) -> list[int]:
    """Ports nobody listens on right now, chosen by the kernel, so parallel stacks don't collide."""
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _script_env(
    directory: Path, ports: Ports, users: Sequence[str], password: str, domain: str
) -> dict[str, str]:
    return {
        **os.environ,
        "PATH": SEARCH_PATH,
        "MAILSTACK_DIR": str(directory),
        "MAILSTACK_IMAP_PORT": str(ports.imap),
        "MAILSTACK_IMAPS_PORT": str(ports.imaps),
        "MAILSTACK_LMTP_PORT": str(ports.lmtp),
        "MAILSTACK_SMTP_PORT": str(ports.smtp),
        "MAILSTACK_SUBMISSION_PORT": str(ports.submission),
        "MAILSTACK_SMTPS_PORT": str(ports.smtps),
        "MAILSTACK_USERS": " ".join(users),
        "MAILSTACK_PASSWORD": password,
        "MAILSTACK_DOMAIN": domain,
    }


def _run_script(directory: Path, env: dict[str, str], command: str) -> str:
    # Output goes to files, never to a pipe the daemons could inherit and keep open.
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.run(
            ["bash", str(SCRIPT), command],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=120,
            check=False,
        )
        out.seek(0)
        text = out.read()
    if proc.returncode != 0:
        logs = ""
        for name in ("dovecot.log", "dovecot.stderr", "postfix.log", "postfix.stderr"):
            path = directory / "log" / name
            if path.exists():
                logs += f"\n--- {name}\n" + path.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"mailstack.sh {command} failed ({proc.returncode}):\n{text}{logs}")
    return text


def _pid_alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def reap_orphans() -> None:
    """Stop stacks whose test run died without tearing down (killed pytest, for instance).

    Only directories this module made (``.mailstack`` and an ``owner`` pid file) are touched,
    and only when that owner process is gone.
    """
    for directory in Path(tempfile.gettempdir()).glob("mailstack-*"):
        owner = directory / "owner"
        if not (directory / ".mailstack").exists() or not owner.exists():
            continue
        try:
            if _pid_alive(int(owner.read_text().strip())):
                continue
            env = dict(os.environ, PATH=SEARCH_PATH, MAILSTACK_DIR=str(directory))
            for line in (directory / "env").read_text().splitlines():
                key, _, value = line.partition("=")
                env[key] = value.strip('"')
            _run_script(directory, env, "down")
        except (OSError, ValueError, RuntimeError, subprocess.SubprocessError):
            continue
        shutil.rmtree(directory, ignore_errors=True)


def start(
    extra_users: Sequence[str] = (),
    *,
    password: str = DEFAULT_PASSWORD,
    domain: str = DEFAULT_DOMAIN,
    install: bool = True,
) -> MailStack:
    """Start a fresh stack on free loopback ports in a new temporary directory."""
    if install:
        ensure_packages()
    elif missing(NEEDED_PROGRAMS):
        raise MailStackUnavailable(f"missing {', '.join(missing(NEEDED_PROGRAMS))}")
    if os.geteuid() != 0:
        raise MailStackUnavailable("the mail stack runs Dovecot and Postfix, which needs root")
    reap_orphans()
    users = tuple(dict.fromkeys((*DEFAULT_USERS, *extra_users)))
    # Not under pytest's 0700 tmp dirs: Dovecot's mail processes run as nobody and Postfix as
    # postfix, and both must reach into this directory.
    directory = Path(tempfile.mkdtemp(prefix="mailstack-"))
    directory.chmod(0o755)
    last_error: Exception | None = None
    for _ in range(3):  # a port picked above may be taken before the daemons bind it
        imap, imaps, smtp, submission, smtps, lmtp = free_ports(6)
        ports = Ports(imap, imaps, smtp, submission, smtps, lmtp)
        env = _script_env(directory, ports, users, password, domain)
        try:
            _run_script(directory, env, "up")
            (directory / "owner").write_text(f"{os.getpid()}\n")  # for reap_orphans()
        except RuntimeError as exc:
            last_error = exc
            with contextlib.suppress(RuntimeError):
                _run_script(directory, env, "down")
            continue
        return MailStack(
            host="127.0.0.1",
            ports=ports,
            ca_cert=directory / "tls" / "cert.pem",
            domain=domain,
            users=users,
            password=password,
            directory=directory,
        )
    shutil.rmtree(directory, ignore_errors=True)
    raise RuntimeError(f"mail stack did not start: {last_error}")


def stop(stack: MailStack, *, keep_directory: bool = False) -> None:
    """Stop both daemons and remove the stack's directory (unless kept for a post-mortem)."""
    try:
        _run_script(stack.directory, stack._env(), "down")
    finally:
        if not keep_directory:
            shutil.rmtree(stack.directory, ignore_errors=True)


@contextlib.contextmanager
def running(
    extra_users: Sequence[str] = (),
    *,
    password: str = DEFAULT_PASSWORD,
    domain: str = DEFAULT_DOMAIN,
    install: bool = True,
) -> Iterator[MailStack]:
    """`with running() as stack:` start, yield, stop (keeps the directory if MAILSTACK_KEEP=1)."""
    stack = start(extra_users, password=password, domain=domain, install=install)
    try:
        yield stack
    finally:
        stop(stack, keep_directory=os.environ.get("MAILSTACK_KEEP") == "1")


__all__ = [
    "DEFAULT_USERS",
    "MailStack",
    "MailStackUnavailable",
    "Ports",
    "ensure_packages",
    "free_ports",
    "reap_orphans",
    "running",
    "start",
    "stop",
]
