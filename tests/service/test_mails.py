"""What each player is mailed, through the path that sends it: one mail per change per
player, whose turn said from the engine's decisions, nothing lost, said once."""

from __future__ import annotations

import email
import email.policy
import json
import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest
from conftest import PLAYERS, Table, start_at
from letters import first_line, latest_reply_to, letter, outbox, text_of
from positions import CORN, INDIGO, SUGAR, plant, ready
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from moderator.bots import HeuristicBot
from moderator.config import Config
from moderator.engine import Game, action_from
from moderator.orders import format_action
from moderator.render.views import own_mayor_examples
from moderator.service.admin import Admin
from moderator.service.core import Moderator
from moderator.store import models as m

ADDRESSES = [p.address for p in PLAYERS]


def send(moderator: Moderator, raw: bytes) -> None:
    moderator.ingest(raw, source=m.MessageSource.PIPE)
    moderator.process_all()


def order(factory: sessionmaker[Session], seat: int, body: str, **kw: str) -> bytes:
    address = ADDRESSES[seat]
    return letter(address, latest_reply_to(factory, address), body, **kw)


def game_of(factory: sessionmaker[Session], tag: str) -> Game:
    with factory.begin() as session:
        row = session.scalar(select(m.Game).where(m.Game.tag == tag))
        assert row is not None and row.snapshot is not None
        return Game.from_json(row.snapshot.state_json)


# "Anna, Bob and Chris have nothing to do in the trader phase.": one event each.
_NOTHING_TO_DO = re.compile(r"^(.+) have nothing to do in the (\w+) phase\.$")


def each_event(lines: list[str]) -> list[str]:
    """The sentences of a mail with the players told together that they had nothing to
    do in a phase told apart, one sentence per event as the log has them."""
    out: list[str] = []
    for line in lines:
        m = _NOTHING_TO_DO.match(line)
        if m is None:
            out.append(line)
            continue
        for name in re.split(r", | and ", m.group(1)):
            out.append(f"{name} has nothing to do in the {m.group(2)} phase.")
    return out


def news_of(text: str) -> list[str]:
    """The "What happened" sentences of a mail's plain text, unwrapped."""
    lines = text.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    if "What happened" not in lines:
        return out
    for line in lines[lines.index("What happened") + 1 :]:
        if line.startswith("  * "):
            out.append(line[4:])
        elif line.startswith("    ") and out:
            out[-1] += " " + line.strip()
        else:
            break
    return out


def to(mail: EmailMessage) -> str:
    return str(mail["To"])


def test_an_order_brings_one_mail_to_its_sender_and_one_to_every_other_seat(
    table: Table,
) -> None:
    before = len(outbox(table.factory))
    send(table.moderator, order(table.factory, 0, "role settler"))
    mails = outbox(table.factory)[before:]
    assert sorted(to(mail) for mail in mails) == sorted(ADDRESSES)
    (reply,) = [mail for mail in mails if to(mail) == ADDRESSES[0]]
    text = text_of(reply)
    assert reply["In-Reply-To"] and reply["Auto-Submitted"] == "auto-replied"
    assert "Your orders:" in text and "done: role settler" in text
    assert "Buildings for sale" in text  # the board is in the same mail
    assert first_line(reply) == "Your turn: settler — take a plantation"
    for mail in mails:
        assert str(mail["Subject"]) == f"[{table.tag}] round 1"


def test_orders_kept_for_later_change_nothing_and_bring_only_the_answer(table: Table) -> None:
    before = len(outbox(table.factory))
    send(table.moderator, order(table.factory, 2, "build small market"))
    mails = outbox(table.factory)[before:]
    assert [to(mail) for mail in mails] == [ADDRESSES[2]]
    text = text_of(mails[0])
    assert "kept: build small market" in text
    assert "Buildings for sale" not in text  # nothing changed: a short answer
    assert first_line(mails[0]) == "Waiting for Anna: choose a role"


def mayor_game(factory: sessionmaker[Session], config: Config) -> tuple[Moderator, str]:
    game = Game.new([p.name for p in PLAYERS], 5)
    # A second plantation each, so every player has a real choice to send.
    for seat, good in enumerate([CORN, CORN, SUGAR, INDIGO]):
        plant(game.state, seat, good)
    return start_at(factory, config, ready(game).to_json())


def test_a_player_still_placing_colonists_gets_no_mail_for_the_others_layouts(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator, tag = mayor_game(session_factory, config)
    send(moderator, order(session_factory, 0, "role mayor\nplace 1 on indigo, 1 on corn"))
    start = len(outbox(session_factory))
    send(moderator, order(session_factory, 1, "place 1 on indigo"))
    send(moderator, order(session_factory, 2, "place 1 on corn"))
    quiet = outbox(session_factory)[start:]
    # Bob and Chris get the answers to their own mails; nobody else hears of them yet.
    assert [to(mail) for mail in quiet] == [ADDRESSES[1], ADDRESSES[2]]
    send(moderator, order(session_factory, 3, "place 1 on corn"))
    last = outbox(session_factory)[start + 2 :]
    assert sorted(to(mail) for mail in last) == sorted(ADDRESSES)
    anna = next(text_of(mail) for mail in last if to(mail) == ADDRESSES[0])
    news = news_of(anna)
    # Where everyone's colonists went, told once the step is over, in the log's words.
    game = game_of(session_factory, tag)
    placed = [
        line.strip()
        for line in history(moderator, session_factory, tag)
        if line.strip().startswith(("Bob ", "Chris ", "David ")) and " on " in line
    ]
    assert len(placed) == 3 and all(line in news for line in placed), (placed, news)
    assert game.state.phase.value == "role"


def play_by_mail(
    factory: sessionmaker[Session], moderator: Moderator, tag: str, orders: int, seed: int = 3
) -> dict[str, list[EmailMessage]]:
    """Players answer every mail that asks them, with a bot's choice, until ``orders``
    were sent or the game is over. Checks, after every order, that each mail's first
    line asks "Your turn" exactly when the engine says that seat decides, and that every
    seat that decides was told so in its latest mail. Returns each address's mails."""
    bots = [HeuristicBot(seed + i) for i in range(len(ADDRESSES))]
    by_address: dict[str, list[EmailMessage]] = {a: [] for a in ADDRESSES}
    last = 0

    def new_mails() -> list[EmailMessage]:
        nonlocal last
        with factory.begin() as session:
            rows = session.scalars(
                select(m.OutboxMessage)
                .where(m.OutboxMessage.id > last)
                .order_by(m.OutboxMessage.id)
            ).all()
            if rows:
                last = rows[-1].id
            raws = [row.raw for row in rows]
        out = []
        for raw in raws:
            parsed = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(parsed, EmailMessage)
            by_address[to(parsed)].append(parsed)
            out.append(parsed)
        return out

    new_mails()
    for _ in range(orders):
        game = game_of(factory, tag)
        if game.over:
            break
        seat = game.deciding()[0]
        text = format_action(bots[seat].choose(game, seat), game, seat)
        address = ADDRESSES[seat]
        reply_to = by_address[address][-1]["Reply-To"].addresses[0].addr_spec
        send(moderator, letter(address, reply_to, text))
        game = game_of(factory, tag)
        new = new_mails()
        assert len(new) <= len(ADDRESSES), [to(mail) for mail in new]
        assert len({to(mail) for mail in new}) == len(new)  # one mail per seat
        for mail in new:
            index = ADDRESSES.index(to(mail))
            line = first_line(mail)
            assert "None" not in line
            asks = line.startswith("Your turn:") or line.startswith("Game over")
            assert asks == (index in game.deciding() or game.over), (line, game.deciding())
        for index in game.deciding():
            assert first_line(by_address[ADDRESSES[index]][-1]).startswith("Your turn:"), index
    return by_address


def all_events(factory: sessionmaker[Session], tag: str) -> list[str]:
    """Every event of the game so far as the mails word them, replayed from the log."""
    with factory.begin() as session:
        row = session.scalar(select(m.Game).where(m.Game.tag == tag))
        assert row is not None
        game = Moderator.start(row)
        out: list[str] = []
        for action in session.scalars(
            select(m.Action).where(m.Action.game_id == row.id).order_by(m.Action.seq)
        ):
            seat = -1 if action.seat_index is None else action.seat_index
            out.extend(
                map(game.describe, game.apply(seat, action_from(json.loads(action.action_json))))
            )
        return out


def history(moderator: Moderator, factory: sessionmaker[Session], tag: str) -> list[str]:
    with factory.begin() as session:
        row = session.scalar(select(m.Game).where(m.Game.tag == tag))
        assert row is not None
        return moderator.history(session, row)


def test_every_mail_says_whose_turn_it_is_and_no_seat_misses_any_news(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    moderator = Moderator(config, session_factory)
    admin = Admin(moderator)
    tag, _ = admin.new_game(PLAYERS, seed=11)
    # David wants only his turns and summaries, and says so in an order.
    send(moderator, order(session_factory, 3, "mail my turns"))
    mails = play_by_mail(session_factory, moderator, tag, 64)
    events = all_events(session_factory, tag)
    game = game_of(session_factory, tag)
    pending = {}
    with session_factory.begin() as session:
        for seat in session.scalars(select(m.Seat).order_by(m.Seat.seat_index)):
            data = json.loads(seat.unmailed) if seat.unmailed else {"events": []}
            pending[seat.address] = data["events"]
    for address in ADDRESSES:
        told = [line for mail in mails[address] for line in news_of(text_of(mail))]
        # Every event, once, in order: told in a mail or still to be told in the next.
        assert each_event(told + pending[address]) == events, address
    assert game.state.round >= 3
    every = len(mails[ADDRESSES[0]])
    turns = mails[ADDRESSES[3]]
    # In a game of four everyone decides in almost every phase: David still gets about
    # one mail for each of his decisions and one answer to each of his orders.
    assert len(turns) < 0.7 * every
    summaries = 0
    for mail in turns[1:]:
        line = first_line(mail)
        text = text_of(mail)
        own = mail["Auto-Submitted"] == "auto-replied"  # the answer to his own orders
        summary = any(re.fullmatch(r"Round \d+ ends\.", e) for e in news_of(text))
        if not (own or line.startswith(("Your turn", "Round "))):
            raise AssertionError(f"neither his turn nor a summary: {line}")
        if not own and not line.startswith("Your turn"):  # a summary says so first
            assert summary and re.match(r"Round \d+ is over\. Waiting for ", line), line
            summaries += 1
    assert summaries  # a round that ended between his turns


def test_a_player_chooses_in_an_order_how_much_mail_he_wants(table: Table) -> None:
    def preference() -> m.MailPreference:
        with table.factory.begin() as session:
            seat = session.scalar(select(m.Seat).where(m.Seat.address == ADDRESSES[3]))
            assert seat is not None
            return seat.mail_preference

    assert preference() is m.MailPreference.EVERY  # the default
    before = len(outbox(table.factory))
    send(table.moderator, order(table.factory, 3, "Mail: only my turns"))
    (answer,) = outbox(table.factory)[before:]  # his answer, with his board
    assert preference() is m.MailPreference.TURNS
    text = " ".join(text_of(answer).split())
    assert "From now on you get a mail only when it is your turn, and a summary" in text
    assert "Players (tiles: manned/all" in text
    # Anna's role is news to Bob, Chris (every change) and Anna, not to David: his turn
    # has not come.
    before = len(outbox(table.factory))
    send(table.moderator, order(table.factory, 0, "role builder"))
    told = {to(mail) for mail in outbox(table.factory)[before:]}
    assert ADDRESSES[3] not in told and ADDRESSES[1] in told
    send(table.moderator, order(table.factory, 3, "mail every change"))
    assert preference() is m.MailPreference.EVERY
    assert "From now on you get a mail at every change" in " ".join(
        text_of(outbox(table.factory)[-1]).split()
    )


def said(mail: EmailMessage, start: str) -> list[str]:
    """The paragraphs of a mail's text that start with ``start``, unwrapped."""
    paragraphs = text_of(mail).replace("\r\n", "\n").split("\n\n")
    return [" ".join(p.split()) for p in paragraphs if p.startswith(start)]


def test_what_was_done_for_a_player_is_said_once_in_his_next_mail(
    session_factory: sessionmaker[Session], config: Config
) -> None:
    now = [datetime(2026, 11, 22, 12, 0, tzinfo=UTC)]
    moderator = Moderator(config, session_factory, clock=lambda: now[0])
    Admin(moderator).new_game(PLAYERS, seed=7)  # face up: corn corn sugar sugar coffee
    # Bob keeps an order for the settler phase; Anna takes the settler and the coffee.
    send(moderator, order(session_factory, 1, "settle sugar"))
    send(moderator, order(session_factory, 0, "role settler\nsettle coffee"))
    bob = [mail for mail in outbox(session_factory) if to(mail) == ADDRESSES[1]][-1]
    assert said(bob, "Your kept order") == [
        "Your kept order was applied: “settle sugar” as settle sugar."
    ]
    # Nobody answers Chris's turn: at the deadline the default is applied (take the
    # first tile... or the autopilot, where there is no default), said in one line.
    now[0] += timedelta(hours=49)
    moderator.tick()
    chris = [mail for mail in outbox(session_factory) if to(mail) == ADDRESSES[2]][-1]
    (line,) = said(chris, "No order came by the deadline")
    assert re.fullmatch(
        r"No order came by the deadline, so the (default was applied|autopilot played): "
        r"(settle \w+|take nothing)\.",
        line,
    ), line
    # Said once: the next mail does not repeat it.
    send(moderator, order(session_factory, 3, "settle corn"))
    again = [mail for mail in outbox(session_factory) if to(mail) == ADDRESSES[2]][-1]
    assert again is not chris and said(again, "No order came") == []


def test_a_refused_mail_from_a_seats_address_is_answered_there_and_the_answer_gets_in(
    table: Table,
) -> None:
    before = len(outbox(table.factory))
    # A new mail, not a reply, no password: the tag without brackets.
    send(
        table.moderator,
        letter(ADDRESSES[0], "moderator@example.test", "role settler", subject="PR-1 my role"),
    )
    (refusal,) = outbox(table.factory)[before:]
    assert to(refusal) == ADDRESSES[0]
    text = " ".join(text_of(refusal).split())
    assert "neither a signed reply address nor a password" in text
    assert first_line(refusal).startswith("Your mail to PR-1 was not accepted: reply to this")
    reply_to = refusal["Reply-To"].addresses[0].addr_spec
    assert reply_to.startswith("moderator+pr-1.s0.")
    send(table.moderator, letter(ADDRESSES[0], reply_to, "role settler", subject="Re: PR-1"))
    assert game_of(table.factory, table.tag).state.phase.value == "settler"


def test_a_refusal_says_truly_what_was_missing(table: Table) -> None:
    before = len(outbox(table.factory))
    send(
        table.moderator,
        letter(
            "stranger@example.test",
            "moderator@example.test",
            "role settler\npassword not-the-password",
            subject="[PR-1] orders",
        ),
    )
    (refusal,) = outbox(table.factory)[before:]
    assert to(refusal) == "stranger@example.test"
    assert refusal["Reply-To"] is None  # nothing signed for a stranger
    text = " ".join(text_of(refusal).split())
    assert "a password that is not this seat's" in text
    assert "no game tag" not in text


def test_a_player_of_one_game_may_write_without_the_tag(table: Table) -> None:
    before = len(outbox(table.factory))
    send(
        table.moderator,
        letter(
            ADDRESSES[0],
            "moderator@example.test",
            f"role settler\npassword {table.passwords[0]}",
            subject="my orders",
        ),
    )
    assert game_of(table.factory, table.tag).state.phase.value == "settler"
    assert len(outbox(table.factory)) == before + 4


def test_the_games_thread_names_nothing_internal(table: Table) -> None:
    root = str(outbox(table.factory)[0]["References"]).split()[0]
    assert re.fullmatch(r"<pr-1\.[a-z2-7]{16}@example\.test>", root)


@pytest.mark.parametrize("body", ["help", "history"])
def test_help_and_history_are_answered_alone(table: Table, body: str) -> None:
    before = len(outbox(table.factory))
    send(table.moderator, order(table.factory, 2, body))
    (answer,) = outbox(table.factory)[before:]
    assert to(answer) == ADDRESSES[2]
    assert answer["In-Reply-To"]


def test_help_is_the_guide_with_the_mayor_examples_in_the_players_own_words(
    table: Table,
) -> None:
    before = len(outbox(table.factory))
    send(table.moderator, order(table.factory, 2, "help mayor"))
    (answer,) = outbox(table.factory)[before:]
    text = text_of(answer).replace("\r\n", "\n")
    assert first_line(answer) == 'The guide to the orders on "mayor".'
    own = own_mayor_examples(game_of(table.factory, table.tag), 2)
    assert own  # Chris's own plantation at least
    block = "\n".join(f"    {example}" for example in own)
    assert f"With your own tiles and buildings, for example:\n\n{block}\n" in text
    html = answer.get_body(("html",))
    assert html is not None and "<pre" not in str(html.get_content())
