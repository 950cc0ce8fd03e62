"""`moderator demo`: a whole game by mail — SQLite, local maildirs, the real daemon, bots.

Each bot reads its own maildir, and when the moderator's latest mail asks it for
orders it writes a real RFC 5322 reply to the signed Reply-To address into the
moderator's inbox maildir. The daemon records, processes and answers exactly as it
does over IMAP and SMTP. At the end the game is printed round by round.
"""

from __future__ import annotations

import argparse
import asyncio
import email
import email.policy
import json
import tempfile
import time
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .archive.log import record_log
from .archive.record import read_record
from .bots import HeuristicBot
from .config import (
    ArchiveSection,
    AutopilotSection,
    Config,
    DatabaseSection,
    MaildirSection,
    ModeratorSection,
    new_secret,
)
from .daemon import Daemon
from .engine import Game
from .mail.maildir import MaildirSink, address_folder, mark_seen, new_messages, open_maildir
from .orders import format_action
from .service.admin import Admin, NewPlayer
from .service.autopilot import Autopilot
from .store import models as m
from .store.db import make_engine, make_session_factory
from .store.migrate import upgrade
from .store.queries import planning_games, unsent_mail, waiting_messages

MODERATOR = "moderator@example.test"
# A mail asks its reader for orders when its first line says so (render/views.py,
# asked_line): "Your turn: captain — load goods".
ASKING = "Your turn:"


def asks_for_orders(msg: EmailMessage) -> bool:
    """Whether a mail asks its reader for orders now, as a player sees it: its first
    line (the one clients show as the preview)."""
    part = msg.get_body(preferencelist=("plain",))
    text = part.get_content() if isinstance(part, EmailMessage) else ""
    first = text.lstrip().partition("\n")[0] if isinstance(text, str) else ""
    return ASKING in first


class MailBot:
    """A player who only knows what his mailbox tells him, deciding with a heuristic."""

    def __init__(self, root: Path, seat: int, name: str, address: str, seed: int) -> None:
        self.seat = seat
        self.name = name
        self.address = address
        self.folder = address_folder(root, address)
        open_maildir(self.folder)
        self.brain = HeuristicBot(seed)
        self.reply_to: str | None = None
        self.last_id: str | None = None
        self.asked = False  # the latest mail asks for orders, not yet sent
        self.received = 0
        self.sent = 0

    def read(self) -> bool:
        """Read new mail; True if the latest asks for orders (and none were sent since)."""
        for name, raw in new_messages(self.folder):
            parsed = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(parsed, EmailMessage)
            self.received += 1
            if parsed["Reply-To"]:
                self.reply_to = parsed["Reply-To"].addresses[0].addr_spec
                self.last_id = str(parsed["Message-ID"])
            self.asked = asks_for_orders(parsed)
            mark_seen(self.folder, name)
        return self.asked

    def order(self, game: Game) -> bytes:
        action = self.brain.choose(game, self.seat)
        msg = EmailMessage()
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = self.reply_to or MODERATOR
        msg["Subject"] = "Re: orders"
        msg["Message-ID"] = make_msgid(domain="players.example.test")
        msg["Date"] = format_datetime(m.utcnow())
        if self.last_id:
            msg["In-Reply-To"] = self.last_id
        msg.set_content(f"{format_action(action, game, self.seat)}\n\n-- \n{self.name}\n")
        self.sent += 1
        self.asked = False
        return bytes(msg)


async def play_by_mail(
    root: Path, names: Sequence[str], seed: int, autopilot: Autopilot | None = None
) -> tuple[str, Daemon, Admin]:
    url = f"sqlite:///{root / 'moderator.sqlite'}"
    upgrade(url)
    factory = make_session_factory(make_engine(url))
    config = Config(
        moderator=ModeratorSection(address=MODERATOR, secret=new_secret()),
        database=DatabaseSection(url=url),
        maildir=MaildirSection(path=str(root)),
        archive=ArchiveSection(dir=str(root / "archive")),
        # The demo's bots answer in milliseconds: the instant autopilot keeps pace.
        autopilot=AutopilotSection(player="heuristic"),
    )
    mailboxes = root / "mailboxes"
    inbox_path = root / "inbox"
    inbox = open_maildir(inbox_path)
    daemon = Daemon(
        config,
        factory,
        MaildirSink(mailboxes),
        maildir=root / "inbox",
        poll_seconds=0.05,
        autopilot=autopilot,
    )
    admin = Admin(daemon.moderator, who="demo")
    players = [NewPlayer(n, f"{n.lower()}@example.test") for n in names]
    tag, _ = admin.new_game(players, seed=seed)
    bots = [MailBot(mailboxes, i, p.name, p.address, seed * 31 + i) for i, p in enumerate(players)]
    runner = asyncio.create_task(daemon.run())

    # Read through the daemon's own database thread: no second SQLite writer to wait for.
    def busy(session: Session) -> int:
        return waiting_messages(session) + planning_games(session) + unsent_mail(session)

    def snapshot(session: Session) -> tuple[Game, m.GameStatus]:
        row = session.scalar(select(m.Game).where(m.Game.tag == tag))
        assert row is not None and row.snapshot is not None
        return Game.from_json(row.snapshot.state_json), row.status

    async def quiet() -> bool:
        return not new_messages(inbox_path) and not await daemon.db(busy)

    while True:
        while not await quiet():
            await asyncio.sleep(0.005)
        game, status = await daemon.db(snapshot)
        if status is not m.GameStatus.ACTIVE:
            break
        deciding = set(game.deciding())
        for bot in bots:
            asked = bot.read()
            if bot.seat in deciding and asked:
                inbox.add(bot.order(game))
            elif bot.seat in deciding:
                raise RuntimeError(f"{bot.name} must decide but was not asked by mail")
    for bot in bots:
        bot.read()
    if daemon.publisher is not None:  # the finished game's pages, before stopping
        await daemon.publisher.catch_up(daemon)
    daemon.stop()
    await runner
    return tag, daemon, admin


def print_record(record: dict[str, Any]) -> None:
    """The game round by round, replayed from the exported record (docs/game-record.md)."""
    for line in record_log(read_record(record)).text():
        print(line if line.startswith(" ") else f"\n{line}")


def run_demo(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="moderator demo", description=__doc__)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", default="Anna,Bob,Chris,David")
    parser.add_argument("--dir", help="keep the database and maildirs here (default: temp)")
    args = parser.parse_args(list(argv))
    names = [n.strip() for n in args.players.split(",")]
    root = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="pr-demo-"))
    root.mkdir(parents=True, exist_ok=True)
    print(f"Puerto Rico by mail: {', '.join(names)} (seed {args.seed}); files in {root}\n")
    started = time.perf_counter()
    tag, daemon, admin = asyncio.run(play_by_mail(root, names, args.seed))
    elapsed = time.perf_counter() - started
    record = admin.export(tag)
    print_record(record)
    print("\nFinal scores (VP chips + buildings + large-building bonus; doubloons+goods):")
    for row in sorted(record["final"] or [], key=lambda r: (-r["total"], -r["tiebreak"])):
        mark = "  winner" if row["winner"] else ""
        print(
            f"  {row['player']:<10} {row['total']:>3} = {row['chips']} + {row['buildings']}"
            f" + {row['bonus']}  ({row['tiebreak']}){mark}"
        )
    c = daemon.counters
    actions = record["actions"]
    assert isinstance(actions, list)
    by_actor: dict[str, int] = {}
    for entry in actions:
        by_actor[entry["actor"]] = by_actor.get(entry["actor"], 0) + 1
    ok, replay = admin.replay_check(tag)
    print(
        f"\n{tag}: {len(actions)} actions ({json.dumps(by_actor)}), "
        f"{c.stored} orders by mail, {c.sent} mails sent, {c.failed} failed, "
        f"in {elapsed:.1f} s.\n{replay}"
    )
    site = (root / "archive").resolve()
    page = site / tag / "index.html"
    print(f"\nThe game's pages (a replay of every move), written by the daemon: {page.as_uri()}")
    print(f"The archive: {(site / 'index.html').as_uri()}")
    return 0 if ok and c.failed == 0 and page.is_file() else 1
