"""Telegram through the real python-telegram-bot against the fake Bot API server (issue 37,
items 13 to 16): an edit that changes nothing is not made; the group notice telling a player
to open the private chat is taken down once they have their hand or the game is over; a
press's own hand is written at once when its private chat has room (Telegram's one write a
second per chat kept); the group's writes go round its tables."""

from __future__ import annotations

import asyncio
import functools
import statistics
import time
from pathlib import Path
from typing import Any

from bot.service.messages import Message
from bot.telegram.pacing import Pace
from bot.telegram.queues import ChatQueues, Job
from tests.fake_telegram import Limits
from tests.test_telegram import (
    ALICE,
    BOB,
    GROUP,
    Rig,
    button,
    data_of,
    hand_of,
    hand_of_any,
    playable,
    run_rig,
    table_message,
)


def table_of(rig: Rig, message: dict[str, Any]) -> int:
    return int(data_of(rig.server, message)[0].split(":")[0])


def notices(rig: Rig, name: str) -> list[dict[str, Any]]:
    """The group's notices telling `name` to open the private chat, still there."""
    return [m for m in rig.server.chat(GROUP) if m.get("text", "").startswith(name)
            and "private chat" in m.get("text", "")]


# -- 13. an edit that changes nothing is not made -----------------------------------------------


def test_my_hand_when_the_hand_shown_is_current_costs_no_call(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.start_bot(ALICE)
        await rig.say(ALICE, GROUP, "/domino classic players=2 ai=1")
        tid = table_of(rig, table_message(server))  # one human: the game begins at once
        shown = dict(hand_of_any(server, ALICE))
        calls = len(server.calls)
        for _ in range(3):  # the turn line's "My hand" link: /start t<table>, privately
            await rig.say(ALICE, ALICE.id, f"/start t{tid}")
        writes = [c for c in server.calls[calls:] if c.method.startswith(("edit", "send"))
                  and str(c.params.get("chat_id")) == str(ALICE.id)]
        assert writes == [], [(c.method, c.params.get("caption")) for c in writes]
        assert not [why for _, why in server.failed if "not modified" in why]
        assert hand_of_any(server, ALICE)["caption"] == shown["caption"]
        # a hand that changed is still written: Alice plays, her hand shows it
        hand = hand_of(server, ALICE)
        assert hand is not None
        await rig.play(ALICE, hand, playable(server, hand) or "")
        assert hand_of_any(server, ALICE)["caption"] != shown["caption"]
        assert not [why for _, why in server.failed if "not modified" in why]

    run_rig(tmp_path, body)


# -- 14. the notice "open our private chat" goes -------------------------------------------------


async def bob_told(rig: Rig) -> int:
    """Alice opens a table for two, Bob joins without having opened the private chat, the
    game starts: the group tells Bob to open it. The table."""
    server = rig.server
    server.start_bot(ALICE)
    await rig.say(ALICE, GROUP, "/domino classic players=2")
    lobby = table_message(server)
    await rig.press(BOB, lobby, button(server, lobby, "j"))
    await rig.press(ALICE, lobby, button(server, lobby, "s"))
    await server.wait_until(lambda: notices(rig, "Bob"))
    await rig.drain()
    assert len(notices(rig, "Bob")) == 1
    return table_of(rig, lobby)


def test_the_notice_goes_once_the_player_has_their_hand(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        tid = await bob_told(rig)
        rig.server.start_bot(BOB)  # Bob opens the chat with the notice's button
        await rig.say(BOB, BOB.id, f"/start t{tid}")
        await rig.drain()
        assert hand_of_any(rig.server, BOB)  # his hand reached him...
        assert notices(rig, "Bob") == []  # ...and the notice is gone
        assert any(c.method == "deleteMessage" and int(c.params["chat_id"]) == GROUP
                   for c in rig.server.calls)

    run_rig(tmp_path, body)


def test_the_notice_goes_when_the_game_is_over(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        await bob_told(rig)
        await rig.say(ALICE, GROUP, "/stop")  # the host stops the game: it is over
        await rig.drain()
        assert "stopped" in rig.server.chat(GROUP)[-1].get("text", "").lower() or any(
            "stopped" in (m.get("text") or m.get("caption") or "").lower()
            for m in rig.server.chat(GROUP))
        assert notices(rig, "Bob") == []

    run_rig(tmp_path, body)


# -- 15. a press's own hand, the press's answer --------------------------------------------


def test_a_press_is_written_at_once_to_a_private_chat_with_room(tmp_path: Path) -> None:
    """Telegram's limits as they are (one write a second in a chat): Alice's turn comes (a
    new hand message, which notifies her); she presses 1.3 s after her chat's last write (it
    has room): her hand shows her move at once, and the press is answered at once."""
    async def body(rig: Rig) -> None:
        server = rig.server
        server.start_bot(ALICE)
        await rig.say(ALICE, GROUP, "/domino classic players=2 ai=1")
        waits: list[float] = []
        answers: list[float] = []
        used: set[int] = set()  # the turns she played

        def turn_came() -> Any:  # her hand asks her to act, at a turn she did not play
            hand = hand_of(server, ALICE)
            data = playable(server, hand) if hand is not None else None
            return data is not None and int(data.split(":")[1]) not in used

        for _ in range(3):
            await server.wait_until(turn_came, 15)
            shown = [c.at for c in server.calls if str(c.params.get("chat_id")) == str(
                ALICE.id) and c.method.startswith(("edit", "send"))][-1]
            await asyncio.sleep(max(0.0, shown + 1.3 - time.monotonic()))
            hand = hand_of(server, ALICE)
            assert hand is not None
            data = playable(server, hand) or ""
            used.add(int(data.split(":")[1]))
            before = len(server.calls)
            pressed = time.monotonic()
            answered = await server.answered(await server.press(ALICE, hand, data))
            written = await server.wait_until(functools.partial(first_write, server, before))
            waits.append(written.at - pressed)
            answers.append(answered.at - pressed)
            if data.split(":")[2] == "e":  # a tile that fits both ends: the first end
                asked = server.messages[ALICE.id][hand["message_id"]]
                ends = [d for d in data_of(server, asked) if d.split(":")[2] == "p"]
                await server.answered(await server.press(ALICE, asked, ends[0]))
            if any(d.split(":")[2] == "m" for d in data_of(server, table_message(server))):
                break  # the game is over
        assert not server.refused  # Telegram's limits kept
        assert statistics.median(waits) < 0.3 and max(waits) < 0.6, waits
        assert max(answers) < 0.5, answers
        await rig.drain()  # the hands her new ones replaced went once she had played
        assert len([m for m in server.chat(ALICE.id) if "photo" in m]) <= 2

    run_rig(tmp_path, body, limits=Limits(), ai_delay=0.3)


def first_write(server: Any, since: int) -> Any:
    """The first write in Alice's private chat among the server's calls from `since`."""
    return next((c for c in server.calls[since:] if str(c.params.get("chat_id")) == str(
        ALICE.id) and c.method.startswith(("edit", "send"))), None)


# -- 16. the group's writes go round its tables ----------------------------------------------------


def test_the_group_writes_go_round_its_tables() -> None:
    """Table 1 has three writes waiting (its table message, turn line and score sheet),
    tables 2 and 3 one each: each table gets one before any gets a second (table 1's score
    sheet rides its table message's write while the others wait: tests/
    test_telegram_group_share.py)."""
    async def main() -> list[tuple[int | None, str]]:
        written: list[tuple[int | None, str]] = []

        async def write(job: Job) -> None:
            written.append((job.m.table, job.m.kind + ("+sheet" if job.sheet else "")))
            await asyncio.sleep(0.001)

        queues = ChatQueues(Pace(group=10**6, gap=0, smooth=0), write)
        group = f"telegram:{GROUP}"
        for m in (Message(group, "a", kind="table", table=1),
                  Message(group, "1, your turn", kind="turn", table=1),
                  Message(group, "sheet", kind="board", table=1),
                  Message(group, "b", kind="table", table=2),
                  Message(group, "c", kind="table", table=3)):
            queues.put(Job(m))
        queues.start()
        await queues.drain()
        return written

    written = asyncio.run(main())
    assert [table for table, _ in written[:3]] == [1, 2, 3], written
    assert written[0] == (1, "table+sheet") and written[3:] == [(1, "turn")], written
