"""The `moderator` command line: database, games, the mail pipe, the clock and the daemon."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import NoReturn, TypeVar

from alembic.util.exc import CommandError
from sqlalchemy.exc import SQLAlchemyError

from . import __version__, resources
from .config import Config, ConfigError, load_config, write_initial_config
from .engine import StateError
from .service.admin import Admin, AdminError, NewPlayer, received_mail, retry_mail, stuck_mail
from .service.core import Moderator
from .store import migrate
from .store.db import describe_db_error, make_session_factory, shown
from .store.migrate import DatabaseNotReady, open_database
from .store.models import GameStatus, MessageSource, MessageStatus, OutboxStatus

T = TypeVar("T")

# Exit codes: 0 done, 1 "no" (a replay that differs), 2 unusable input or setup.
# `ingest` answers a failing database with EX_TEMPFAIL (sysexits.h), so that an MTA
# running it from .forward or procmail keeps the message and delivers it again later.
EXIT_OK = 0
EXIT_DIFFERS = 1
EXIT_ERROR = 2
EX_TEMPFAIL = 75

_PLAYER = re.compile(r"^\s*(?P<name>[^<>]+?)\s*<(?P<address>[^<>\s]+)>\s*(?:tz=(?P<tz>\S+))?\s*$")


class CliError(Exception):
    """Bad input found by the command line itself; printed as one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (and exit 2), like our own errors."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message} (see --help)\n")


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in this environment
        return "operator"


def _add_common(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """--config and --who. Accepted before or after the subcommand: the subcommand's copies
    default to SUPPRESS so that they do not overwrite a value given before it."""
    parser.add_argument(
        "--config",
        metavar="PATH",
        default=os.environ.get("MODERATOR_CONFIG") if top else argparse.SUPPRESS,
        help="the TOML configuration (default: $MODERATOR_CONFIG); every command but "
        "`demo` needs one",
    )
    parser.add_argument(
        "--who",
        default=None if top else argparse.SUPPRESS,
        help="the operator's name for the audit log (default: the login name)",
    )


def _add_rules(parser: argparse.ArgumentParser) -> None:
    """A game's deadline rules (default: [deadlines] of the configuration, for a new game;
    unchanged, for `game set`)."""
    parser.add_argument(
        "--deadline-hours",
        type=_whole(1),
        default=None,
        metavar="H",
        help="hours a player has for each decision (default: [deadlines] hours)",
    )
    parser.add_argument(
        "--reminder-hours",
        type=_whole(0),
        default=None,
        metavar="H",
        help="remind this many hours before the deadline (default: [deadlines] reminder_hours)",
    )
    parser.add_argument("--deadline-action", choices=("default", "autopilot", "wait"), default=None)
    parser.add_argument(
        "--absence",
        choices=("autopilot", "stretch"),
        default=None,
        help="while a player is away: the autopilot plays for him, or his deadlines wait",
    )
    parser.add_argument(
        "--weekend-pause",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="deadlines do not run on Saturdays and Sundays (each player's time zone)",
    )


def build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    _add_common(common, top=False)
    parser = _Parser(prog="moderator", description="A play-by-email moderator for Puerto Rico.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_common(parser, top=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    commands.add_parser(
        "demo",
        help="four bots play a whole game by mail (SQLite and local maildirs)",
        add_help=False,
    )

    config = commands.add_parser("config", help="make a configuration file")
    config_commands = config.add_subparsers(
        dest="config_command", metavar="ACTION", parser_class=_Parser
    )
    config_commands.required = True
    init = config_commands.add_parser(
        "init",
        help="write a new commented config with a fresh secret",
        description="Write config.example.toml, every key commented, with a freshly "
        "generated [moderator] secret, to PATH (readable by its owner only). An existing "
        "file is never overwritten.",
    )
    init.add_argument("path", metavar="PATH")

    db = commands.add_parser("db", help="database migrations")
    db_commands = db.add_subparsers(dest="db_command", metavar="ACTION", parser_class=_Parser)
    db_commands.required = True
    db_commands.add_parser("upgrade", parents=[common], help="migrate to the newest schema")
    down = db_commands.add_parser("downgrade", parents=[common], help="migrate down to REV")
    down.add_argument("revision", metavar="REV", help='a revision id, or "base" for empty')

    game = commands.add_parser("game", help="create and administer games")
    game_commands = game.add_subparsers(dest="game_command", metavar="ACTION", parser_class=_Parser)
    game_commands.required = True

    new = game_commands.add_parser("new", parents=[common], help="start a game")
    new.add_argument(
        "--player",
        action="append",
        required=True,
        metavar='"NAME <ADDRESS>[ tz=ZONE]"',
        help="a player, in seat order (2 to 5 times)",
    )
    new.add_argument("--seed", type=int, default=None, help="the setup's seed (default: random)")
    _add_rules(new)
    new.add_argument(
        "--position", metavar="STATE.json", help="start from this state (docs/state-format.md)"
    )

    settings = game_commands.add_parser(
        "set",
        parents=[common],
        help="change a game's deadline rules (every player is told, deadlines start afresh)",
    )
    settings.add_argument("game", metavar="ID", help="a game id (12) or tag (PR-12)")
    _add_rules(settings)

    game_commands.add_parser("list", parents=[common], help="every game and its status")
    for name, text in (
        ("show", "the board as text"),
        ("replay", "rebuild from the log and compare with the snapshot (exit 1 if different)"),
    ):
        sub = game_commands.add_parser(name, parents=[common], help=text)
        sub.add_argument("game", metavar="ID", help="a game id (12) or tag (PR-12)")

    export = game_commands.add_parser(
        "export", parents=[common], help="the JSON game record (docs/game-record.md)"
    )
    export.add_argument("game", metavar="ID")
    export.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")

    undo = game_commands.add_parser(
        "undo", parents=[common], help="take back the last move (announced to every seat)"
    )
    undo.add_argument("game", metavar="ID")
    undo.add_argument("--reason", required=True, help="why; quoted in the announcement")

    replace = game_commands.add_parser(
        "replace", parents=[common], help="a new player takes over a seat"
    )
    replace.add_argument("game", metavar="ID")
    replace.add_argument("seat", metavar="SEAT", help="seat number (1 = first) or player name")
    replace.add_argument("address", metavar="ADDRESS")
    replace.add_argument("--tz", default="UTC", help="the new player's time zone")
    replace.add_argument("--name", default=None, help="the new player's name (default: the old)")

    away = game_commands.add_parser(
        "away",
        parents=[common],
        help="a player is away (players order it themselves too: away until 3 December)",
    )
    away.add_argument("game", metavar="ID")
    away.add_argument("seat", metavar="SEAT", help="seat number (1 = first) or player name")
    until = away.add_mutually_exclusive_group(required=True)
    until.add_argument(
        "--until",
        type=_day,
        metavar="YYYY-MM-DD",
        help="back that day (from its start, in the player's time zone)",
    )
    until.add_argument("--days", type=_whole(1), metavar="N", help="back in N days")
    back = game_commands.add_parser("back", parents=[common], help="a player away is back")
    back.add_argument("game", metavar="ID")
    back.add_argument("seat", metavar="SEAT", help="seat number (1 = first) or player name")

    for name, text in (("pause", "stop the clock and orders"), ("resume", "start them again")):
        sub = game_commands.add_parser(name, parents=[common], help=text)
        sub.add_argument("game", metavar="ID")
        sub.add_argument("--reason", default=None, help="quoted in the announcement")

    ingest = commands.add_parser(
        "ingest",
        parents=[common],
        help="record one RFC 5322 message from stdin (for .forward / procmail)",
        description="Record one RFC 5322 message read from stdin. Exit 0 when recorded or "
        "already recorded; 75 (EX_TEMPFAIL) when the database fails, so that the mail "
        "server keeps the message and tries again later; 2 for an empty stdin.",
    )
    ingest.add_argument("--process", action="store_true", help="then process every waiting message")
    outbox = commands.add_parser("outbox", help="outgoing mail not sent yet")
    outbox_commands = outbox.add_subparsers(dest="outbox_command", required=True, metavar="COMMAND")
    listing = outbox_commands.add_parser(
        "list",
        parents=[common],
        help="mail waiting to go out, being sent, or refused (see --status)",
    )
    listing.add_argument(
        "--status",
        action="append",
        choices=[s.value for s in OutboxStatus],
        default=None,
        help="only these (repeatable; default: " + ", ".join(OUTBOX_UNSENT) + ")",
    )
    retry = outbox_commands.add_parser("retry", parents=[common], help="send a mail again")
    retry.add_argument("id", type=int)
    commands.add_parser("process", parents=[common], help="process every waiting message once")
    commands.add_parser("tick", parents=[common], help="send due reminders, apply deadlines once")
    run = commands.add_parser(
        "run",
        parents=[common],
        help="run the daemon (mail in, mail out, clock), after the checks of `check`",
    )
    run.add_argument(
        "--no-poll",
        action="store_true",
        help="do not read the mailbox: process, send and keep the clock beside another "
        "daemon that reads it (docs/deploy.md, Several workers)",
    )
    commands.add_parser(
        "check",
        parents=[common],
        help="check the config, the database, the mailbox, the SMTP server and the secret",
        description="One line per check. Exit 0 when nothing failed, 2 when a setting or "
        "the database needs fixing, 75 when only a server did not answer.",
    )
    inbox = commands.add_parser("inbox", help="mail received, and what became of it")
    inbox_commands = inbox.add_subparsers(dest="inbox_command", required=True, metavar="COMMAND")
    received = inbox_commands.add_parser(
        "list", parents=[common], help="the newest messages received, newest last"
    )
    received.add_argument(
        "--status",
        action="append",
        choices=[s.value for s in MessageStatus],
        default=None,
        help="only these (repeatable; default: all)",
    )
    received.add_argument("--game", metavar="ID", help="only this game's")
    received.add_argument(
        "--limit", type=_whole(1), default=50, metavar="N", help="at most N (default 50)"
    )
    _archive_parser(commands, common)
    return parser


def _archive_parser(commands: argparse._SubParsersAction[_Parser], common: _Parser) -> None:
    archive = commands.add_parser(
        "archive",
        parents=[common],
        help="write games' web pages (board, replay, scores, log) and the index",
        description="Write the web pages of games into a folder: each game's page, its "
        "record and the index of games. Games come from the database (IDs, or every game "
        "when none is named) or from exported records (--record), which need no database.",
    )
    archive.add_argument("game", nargs="*", metavar="ID", help="a game id or tag (default: all)")
    archive.add_argument(
        "--record",
        action="append",
        default=[],
        metavar="FILE",
        help="an exported game record (docs/game-record.md); may be repeated",
    )
    archive.add_argument(
        "--out", metavar="DIR", help="the folder to write (default: [archive] dir)"
    )


# -- helpers ---------------------------------------------------------------------------------

# What `outbox list` shows by default: every mail not yet in the server's hands.
OUTBOX_UNSENT = (OutboxStatus.PENDING, OutboxStatus.SENDING, OutboxStatus.FAILED)


def _day(text: str) -> date:
    """An argparse type: a day written YYYY-MM-DD."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a day (YYYY-MM-DD)") from None


def _whole(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    return parse


def _config(args: argparse.Namespace) -> Config:
    """The configuration every command but `demo` works from: one file, named by --config or
    $MODERATOR_CONFIG. No built-in fallback: defaults would point at a database of their
    own, relative to wherever the command happens to start."""
    path: str | None = args.config or None
    if path is None:
        raise CliError(
            "no configuration: give --config PATH or set MODERATOR_CONFIG "
            "(`moderator config init PATH` writes a new one)"
        )
    return load_config(path)


def _parse_player(text: str) -> tuple[str, str, str]:
    found = _PLAYER.match(text)
    if found is None:
        raise CliError(f'--player {text!r}: write it as "Name <address>" (optionally " tz=Zone")')
    return found["name"], found["address"], found["tz"] or "UTC"


@contextmanager
def _admin(args: argparse.Namespace, config: Config | None = None) -> Iterator[Admin]:
    """An Admin (and its Moderator) on the configured database; the engine is disposed after."""
    config = _config(args) if config is None else config
    engine = open_database(config.database.url)
    try:
        moderator = Moderator(config, make_session_factory(engine))
        yield Admin(moderator, who=args.who or _login_name())
    finally:
        engine.dispose()


# -- commands --------------------------------------------------------------------------------


def _config_command(args: argparse.Namespace) -> int:
    path = write_initial_config(args.path, resources.data_text("config.example.toml"))
    print(
        f"wrote {path} with a fresh secret; adjust it, then: moderator db upgrade --config {path}"
    )
    return EXIT_OK


def _db(args: argparse.Namespace) -> int:
    url = _config(args).database.url
    try:
        if args.db_command == "upgrade":
            migrate.upgrade(url)
            print(f"database {shown(url)} at {migrate.current_revision(url)} (head)")
        else:
            migrate.downgrade(url, args.revision)
            revision = migrate.current_revision(url) or "base (empty)"
            print(f"database {shown(url)} at {revision}")
    except CommandError as exc:
        raise CliError(str(exc).splitlines()[0]) from None
    return EXIT_OK


def _game_new(args: argparse.Namespace) -> int:
    config = _config(args)
    players = [NewPlayer(*_parse_player(p)) for p in args.player]
    position = None
    if args.position:
        try:
            position = Path(args.position).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CliError(f"cannot read {args.position}: {exc}") from None
    with _admin(args, config) as admin:
        tag, passwords = admin.new_game(
            players,
            seed=args.seed,
            deadline_hours=_or(args.deadline_hours, config.deadlines.hours),
            reminder_hours=_or(args.reminder_hours, config.deadlines.reminder_hours),
            deadline_action=_or(args.deadline_action, config.deadlines.action),
            position=position,
            absence=_or(args.absence, config.deadlines.absence),
            weekend_pause=_or(args.weekend_pause, config.deadlines.weekend_pause),
        )
    print(tag)
    for seat, player in enumerate(players):
        print(f"  seat {seat + 1}  {player.name} <{player.address}>  password: {passwords[seat]}")
    print("The passwords are shown only this once (each player also gets his own by mail).")
    print(
        "The players' first mails (seat, password, board) are queued: they go out when the "
        "daemon runs (moderator run)."
    )
    return EXIT_OK


def _game(args: argparse.Namespace) -> int:
    action: str = args.game_command
    if action == "new":
        return _game_new(args)
    with _admin(args) as admin:
        if action == "list":
            games = admin.list_games()
            if not games:
                print("no games")
            for g in games:
                players_text = ", ".join(g["players"])
                print(f"{g['tag']:<8} {g['status']:<9} {g['actions']:>5} actions  {players_text}")
        elif action == "show":
            print(admin.show(args.game))
        elif action in ("away", "back"):
            end = admin.absence(
                args.game,
                args.seat,
                until=getattr(args, "until", None),
                days=getattr(args, "days", None),
            )
            when = "back" if end is None else f"away until {end:%Y-%m-%d %H:%M} UTC"
            print(f"{args.game} seat {args.seat}: {when}; the player is told")
        elif action == "set":
            changes = admin.configure(
                args.game,
                deadline_hours=args.deadline_hours,
                reminder_hours=args.reminder_hours,
                deadline_action=args.deadline_action,
                absence=args.absence,
                weekend_pause=args.weekend_pause,
            )
            print("\n".join(changes) if changes else "nothing changed")
        elif action == "export":
            text = json.dumps(admin.export(args.game), indent=2, ensure_ascii=False) + "\n"
            if args.output:
                try:
                    Path(args.output).write_text(text, encoding="utf-8")
                except OSError as exc:
                    raise CliError(f"cannot write {args.output}: {exc.strerror}") from None
                print(f"wrote {args.output}")
            else:
                sys.stdout.write(text)
        elif action == "replay":
            same, message = admin.replay_check(args.game)
            print(message)
            return EXIT_OK if same else EXIT_DIFFERS
        elif action == "undo":
            removed = admin.undo(args.game, args.reason)
            print(f"took back {removed} action(s); every seat is told")
        elif action == "replace":
            password = admin.replace(args.game, args.seat, args.address, args.tz, args.name)
            print(f"seat {args.seat} now belongs to {args.address}; new password: {password}")
            print("Mail to the seat's old signed reply addresses no longer moves it.")
        elif action in ("pause", "resume"):
            status = GameStatus.PAUSED if action == "pause" else GameStatus.ACTIVE
            if admin.set_status(args.game, status, args.reason):
                print(f"{args.game}: {status.value}; every seat is told")
            else:
                print(f"{args.game} is {status.value} already: nothing changed, no mail sent")
    return EXIT_OK


def _or(value: T | None, default: T) -> T:
    return default if value is None else value


def _ingest(args: argparse.Namespace) -> int:
    raw = sys.stdin.buffer.read()
    if not raw.strip():
        raise CliError("no message on stdin")
    config = _config(args)
    try:
        open_database(config.database.url).dispose()
    except DatabaseNotReady as exc:
        print(f"moderator: cannot record the message: {exc}", file=sys.stderr)
        return EX_TEMPFAIL
    with _admin(args, config) as admin:
        moderator = admin.moderator
        try:
            recorded = moderator.ingest(raw, source=MessageSource.PIPE)
        except SQLAlchemyError as exc:
            print(f"moderator: cannot record the message: {_first_line(exc)}", file=sys.stderr)
            return EX_TEMPFAIL
        if recorded is None:
            print("duplicate: this message was recorded before; nothing to do")
        else:
            print(f"recorded as message {recorded}")
        if args.process:
            print(f"processed {moderator.process_all(worker=f'ingest-{os.getpid()}')} message(s)")
            _plan(moderator)
    return EXIT_OK


def _process(args: argparse.Namespace) -> int:
    with _admin(args) as admin:
        moderator = admin.moderator
        print(f"processed {moderator.process_all(worker=f'cli-{os.getpid()}')} message(s)")
        _plan(moderator)
    return EXIT_OK


def _tick(args: argparse.Namespace) -> int:
    with _admin(args) as admin:
        print(f"{admin.moderator.tick()} game(s) due")
        _plan(admin.moderator)
    return EXIT_OK


def _plan(moderator: Moderator) -> None:
    """Outside the daemon nobody else decides for the autopilot: here, before exiting (the
    mails that announce its decisions wait for them)."""
    decided = moderator.plan_all()
    if decided:
        print(
            f"the autopilot chose {decided} action(s) to take at a deadline, announced in "
            "the mails (nothing is done before the deadline)"
        )


def _outbox(args: argparse.Namespace) -> int:
    with _admin(args) as admin:
        if args.outbox_command == "retry":
            retry_mail(admin, args.id)
            print(f"mail {args.id} will be sent again")
            return EXIT_OK
        rows = stuck_mail(admin, args.status or OUTBOX_UNSENT)
        for row in rows:
            due = f"  next try {row['next_try_at']}" if row["status"] == "pending" else ""
            print(
                f"{row['id']:>6}  {row['status']:<8} {row['kind']:<14} {row['to']}"
                f"  attempts={row['attempts']}{due}  {row['last_error'] or ''}".rstrip()
            )
        print(f"{len(rows)} mail(s)")
    return EXIT_OK


def _archive(args: argparse.Namespace) -> int:
    """The games' web pages: from records (no configuration needed with --out) or from
    the database."""
    from .archive.pages import build_game, publish
    from .archive.publish import game_versions, publish_games
    from .archive.record import RecordError, load_record

    if args.record and args.game:
        raise CliError("give game IDs or --record files, not both")
    # A record needs no configuration: anyone with one can make its pages.
    config = _config(args) if args.config or not args.record else None
    out = args.out or (config.archive.dir if config is not None else "")
    if not out:
        raise CliError("say where to write the pages: --out DIR, or [archive] dir in the config")
    folder = Path(out)
    try:
        if args.record:
            built = []
            for path in args.record:
                try:
                    built.append(build_game(load_record(path)))
                except RecordError as exc:
                    raise CliError(f"{path}: {exc}") from None
            pages = publish(folder, built)
        else:
            with _admin(args, config) as admin:
                with admin.moderator.factory.begin() as session:
                    ids = [admin.resolve(session, ref) for ref in args.game]
                    games = [g for g in game_versions(session) if g.id in ids or not ids]
                done = publish_games(admin.moderator.factory, folder, games, force=True)
            failed = [f"{tag}: {what}" for tag, what in done if what != "written"]
            if failed:
                raise CliError("; ".join(failed))
            pages = [folder / tag / "index.html" for tag, _ in done]
    except OSError as exc:
        raise CliError(f"cannot write into {out}: {exc.strerror or exc}") from None
    for page in pages:
        print(page.resolve().as_uri())
    print(f"index: {(folder / 'index.html').resolve().as_uri()}")
    return EXIT_OK


def _run(args: argparse.Namespace) -> int:
    from .daemon import run_daemon

    return run_daemon(_config(args), poll=not args.no_poll)


def _check(args: argparse.Namespace) -> int:
    from .checks import Check, Status, exit_code, run_checks

    try:
        config = _config(args)
    except ConfigError as exc:
        print(Check("config", Status.FAIL, _first_line(exc)).line())
        return EXIT_ERROR
    place = Path(args.config).resolve()
    print(Check("config", Status.OK, f"{place}: values in range").line())
    checks = run_checks(config)
    for check in checks:
        print(check.line())
    return exit_code(checks)


def _inbox(args: argparse.Namespace) -> int:
    with _admin(args) as admin:
        rows = received_mail(admin, args.status, args.game, args.limit)
    for row in rows:
        print(
            f"{row['id']:>6}  {row['received']}  {row['status']:<7} {row['outcome']:<17} "
            f"{row['game']:<7} {row['seat']:<4} {row['sender']}  {row['subject']}"
        )
        if row["why"]:
            print(f"{'':8}{row['why']}")
    print(f"{len(rows)} message(s)")
    return EXIT_OK


def _database_error(args: argparse.Namespace, exc: SQLAlchemyError) -> str:
    """describe_db_error's line for ``exc``, naming the configured database."""
    try:
        url = _config(args).database.url
    except (CliError, ConfigError, OSError):
        return f"database error: {_first_line(getattr(exc, 'orig', None) or exc)}"
    return describe_db_error(exc, url)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "config": _config_command,
    "db": _db,
    "game": _game,
    "ingest": _ingest,
    "outbox": _outbox,
    "process": _process,
    "tick": _tick,
    "run": _run,
    "check": _check,
    "inbox": _inbox,
    "archive": _archive,
}


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["demo"]:
        from .demo import run_demo

        return run_demo(args_list[1:])
    try:
        args = build_parser().parse_args(args_list)
    except SystemExit as exc:  # --help, or a usage error already printed on one line
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    try:
        return _COMMANDS[args.command](args)
    except (CliError, AdminError, ConfigError, StateError, DatabaseNotReady) as exc:
        print(f"moderator: {_first_line(exc)}", file=sys.stderr)
    except SQLAlchemyError as exc:
        # An unexpected database error in any command: what failed and which database
        # (without its password), in one line; never a traceback nor the SQL.
        print(f"moderator: {_database_error(args, exc)}", file=sys.stderr)
    except BrokenPipeError:
        # `moderator game show 3 | head`: the reader has gone, which is no error of ours.
        # Python would complain again when it flushes stdout at exit; point it elsewhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    return EXIT_ERROR
