"""Telegram's group and private chats under its flood limits (tests/fake_telegram.py enforces
them): one message per state, edited in place; the group written when a human must act or
a round ends, never behind by more than one write; every move in the players' private chat.

The computers play from the service's tick loop (`Rig.ai_delay`), as in the bot."""

from __future__ import annotations

import asyncio
import itertools
import re
from typing import Any

from bot.service.messages import Message, parse_action
from bot.telegram.out import Pace
from tests.fake_telegram import Call, FakeBotApi, Limits
from tests.test_telegram import ALICE, GROUP, Rig, button, data_of, run_rig, table_message

SENDS = ("sendMessage", "sendPhoto", "sendDocument")
CELL = re.compile(r"\b[A-H][1-9]\b")
TILE = re.compile(r"\b\d-\d\b")


def chat_of(call: Call) -> int | None:
    try:
        return int(call.params.get("chat_id"))
    except (TypeError, ValueError):
        return None


def writes(calls: list[Call], chat: int) -> list[Call]:
    return [c for c in calls if chat_of(c) == chat and c.method.startswith(
        ("send", "edit", "delete"))]


def sent(calls: list[Call], chat: int) -> list[Call]:
    return [c for c in writes(calls, chat) if c.method in SENDS]


def shown(message: dict[str, Any]) -> str:
    return str(message.get("caption") or message.get("text") or "")


async def start_solo(rig: Rig, variant: str, options: str) -> int:
    """Alice opens a table in the group with computer seats (it starts at once); its id."""
    server = rig.server
    server.start_bot(ALICE)
    await rig.say(ALICE, GROUP, f"/domino {variant} {options}")
    lobby = table_message(server)
    if any(d.split(":")[2] == "s" for d in data_of(server, lobby)):
        await rig.press(ALICE, lobby, button(server, lobby, "s"))
    assert rig.service is not None
    return max(rig.service.tables)


async def her_turn(rig: Rig, tid: int, timeout: float = 20) -> dict[str, Any] | None:
    """Wait until Alice must act and her private hand message offers this turn's moves; that
    message, or None when the game is over."""
    assert rig.service is not None
    server = rig.server

    def ready() -> dict[str, Any] | bool | None:
        table = rig.service.tables.get(tid) if rig.service else None
        if table is None or table.game.over:
            return True
        game = table.game
        if table.seat_of(f"telegram:{ALICE.id}") != game.to_move:
            return None
        for m in reversed(server.chat(ALICE.id)):
            if any(parse_action(d)[1] == game.turn and parse_action(d)[2] == "p"
                   for d in data_of(server, m)):
                return m
        return None

    found = await server.wait_until(ready, timeout)
    return None if found is True else found


def first_move(server: FakeBotApi, hand: dict[str, Any]) -> str:
    return next(d for d in data_of(server, hand) if parse_action(d)[2] == "p")


# -- collapsing ---------------------------------------------------------------------------------

def test_queued_edits_of_one_message_collapse_into_the_newest(tmp_path: Any) -> None:
    """States of a table made while the group waits for its limit: the next write shows the
    newest of them, and the older ones are never written (one write behind at most)."""
    limits = Limits(group=3, scale=0.05)  # 3 writes per 3 s in a group

    async def body(rig: Rig) -> None:
        server = rig.server
        server.start_bot(ALICE)
        await rig.say(ALICE, GROUP, "/domino classic")
        assert rig.bot is not None and rig.bot.outbox is not None and rig.service is not None
        outbox = rig.bot.outbox
        tid = max(rig.service.tables)
        channel = f"telegram:{GROUP}"
        await outbox.deliver([Message(channel, f"news {i}") for i in range(2)])
        await rig.drain()  # the group is at its limit now
        before = len(server.calls)
        for i in range(5):
            await outbox.deliver([Message(channel, f"state {i}", kind="table", table=tid)])
            await asyncio.sleep(0.1)
        await rig.drain()
        group = writes(server.calls[before:], GROUP)
        assert [c.params.get("text") for c in group] == ["state 4"], group
        assert not server.refused

    run_rig(tmp_path, body, limits)


# -- a trick of forty-two with three computer seats ------------------------------------------

def test_a_42_trick_with_three_computers_posts_one_message_per_chat_at_most(
        tmp_path: Any) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        tid = await start_solo(rig, "forty-two", "players=4 ai=3 target=42")
        tricks = 0
        mark = 0  # the moves up to her last one
        while tricks < 5:
            hand = await her_turn(rig, tid)
            assert hand is not None, "the game ended before five tricks"
            assert rig.service is not None
            game = rig.service.tables[tid].game
            if game.view(None)["round"] == 1:  # every tile the computers played since hers
                tiles = set(TILE.findall(" ".join(game.record()["moves"][mark:])))
                assert tiles <= set(TILE.findall(shown(hand))), (tiles, shown(hand))
            playing = game.view(None).get("phase") == "playing"
            round_no = game.view(None)["round"]
            before = len(server.calls)
            await rig.press(ALICE, hand, first_move(server, hand))
            mark = len(game.record()["moves"])
            if await her_turn(rig, tid) is None:
                break
            await rig.drain()
            if not playing or game.view(None)["round"] != round_no:
                continue  # the bidding, or a round's end (its score sheet is a new message)
            tricks += 1
            calls = server.calls[before:]
            assert len(sent(calls, GROUP)) <= 1, [c.method for c in writes(calls, GROUP)]
            assert len(sent(calls, ALICE.id)) <= 1, [c.method for c in writes(calls, ALICE.id)]
            # the group: the table message when Alice must act again, not per computer move
            assert len([c for c in writes(calls, GROUP) if c.method.startswith("edit")]) <= 1
        assert tricks >= 3
        turn_lines = [m for m in server.chat(GROUP) if "your turn" in shown(m)]
        assert len(turn_lines) <= 1, [shown(m) for m in turn_lines]  # one per table
        # her hand: one message, or two while she must act (the one that asks her, and the
        # one it replaced, which goes once she has played: issue 37)
        hands = [m for m in server.chat(ALICE.id) if "photo" in m]
        assert len(hands) <= 2, [shown(m) for m in hands]
        await rig.press(ALICE, hands[-1], first_move(server, hands[-1]))
        await rig.drain()
        assert hands[0]["message_id"] not in server.messages[ALICE.id] or len(hands) == 1

    run_rig(tmp_path, body, ai_delay=0.05)


# -- memory: the computer's turned tiles ----------------------------------------------------

def test_memory_every_tile_a_computer_turned_up_is_in_the_private_chat_before_she_chooses(
        tmp_path: Any) -> None:
    limits = Limits(group=4, scale=0.05)  # a group far behind: 4 writes per 3 s

    async def body(rig: Rig) -> None:
        server = rig.server
        tid = await start_solo(rig, "memory", "players=2 ai=1")
        assert rig.service is not None
        game = rig.service.tables[tid].game
        mark = 0  # the moves made before her last one, and hers
        checked = 0
        for _ in range(16):
            hand = await her_turn(rig, tid)
            if hand is None:
                break
            cells = set(game.record()["moves"][mark:])  # the computer's, since her last move
            caption = shown(hand)
            missing = {c for c in cells if c not in set(CELL.findall(caption))}
            assert not missing, (cells, caption)
            checked += len(cells)
            await rig.press(ALICE, hand, first_move(server, hand))
            mark = len(game.record()["moves"])
        assert checked >= 4
        assert not server.refused

    run_rig(tmp_path, body, limits, ai_delay=0.05)


def test_a_groups_writes_are_spread_over_the_minute() -> None:
    """Twenty writes a minute in a group, spread: never twenty in a row and then forty
    seconds of silence (the group would show nothing meanwhile)."""
    pace = Pace()  # Telegram's limits
    now, times = 0.0, []
    for _ in range(60):
        now += pace.wait(GROUP, now)
        pace.note(GROUP, now)
        times.append(now)
        now += 0.01  # the write's round trip
    assert all(sum(1 for x in times if t <= x < t + 60) <= 20 for t in times)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert max(gaps) < 10, gaps
    assert len(times) / (times[-1] / 60) > 18  # and the group still has its twenty a minute


def test_writes_in_flight_to_many_chats_keep_the_overall_limit() -> None:
    """Forty private chats written at once through one paced bot: the writes under way count
    in the 30 a "second" as soon as they leave (counted only once answered, all forty would
    pass the check together and the fake server would refuse ten)."""
    from telegram import Bot
    from telegram.request import HTTPXRequest

    from bot.telegram.pacing import PacedBot
    from tests.fake_telegram import TOKEN, TgUser

    limits = Limits(scale=0.5)  # 30 writes in 0.5 s in all

    async def body() -> FakeBotApi:
        server = FakeBotApi(limits=limits)
        await server.start()
        bot = Bot(TOKEN, base_url=server.base_url, request=HTTPXRequest(
            connection_pool_size=64))
        await bot.initialize()
        paced = PacedBot(bot, Pace(limits.group, limits.window, limits.gap, limits.overall,
                                   limits.gap))
        users = [TgUser(6000 + i, f"user{i}") for i in range(40)]
        for user in users:
            server.start_bot(user)
        try:
            await asyncio.gather(*(paced.send_message(chat_id=u.id, text="hello")
                                   for u in users), return_exceptions=True)
        finally:
            await bot.shutdown()
            await server.close()
        return server

    server = asyncio.run(body())
    assert not server.refused
    assert len([c for c in server.calls if c.method == "sendMessage"]) == 40
