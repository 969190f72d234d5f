"""A tournament through the Telegram adapter against the fake Bot API (issue 31): the
group's administrator opens it, players register by the button; in a forum group each table
of a round opens in its own topic (bot/telegram/rooms.py), where its players join, then
play from their private chats; a no-show forfeits at the round clock; the topics are closed
when the round ends.  In a group that is not a forum, or where the bot may not manage
topics, the tables open in the group itself.  A member who is not an administrator may not
organise."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from telegram.error import BadRequest

from tests.fake_telegram import TgUser
from tests.service_helpers import Clock
from tests.test_telegram import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GROUP,
    Rig,
    data_of,
    play_out,
    run_rig,
)


async def open_and_start(rig: Rig, players: list[TgUser], text: str) -> dict[str, Any]:
    """Alice (an administrator) opens the tournament, the players register by the button,
    Alice starts it; the announcement."""
    server = rig.server
    await rig.say(ALICE, GROUP, text)
    ann = next(m for m in server.chat(GROUP) if "Tournament #1" in m.get("text", ""))
    register, _, start = [d for d in data_of(server, ann) if d.split(":")[2] == "t"]
    for user in players:
        await rig.press(user, ann, register)
    await rig.press(ALICE, ann, start)
    return ann


def lobbies(rig: Rig) -> list[dict[str, Any]]:
    """The group's messages with a Join button."""
    return [m for m in rig.server.chat(GROUP)
            if any(d.split(":")[2] == "j" for d in data_of(rig.server, m))]


def test_a_tournament_in_a_telegram_group(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.admins[GROUP] = {ALICE.id}
        server.start_bot(BOB)
        await rig.say(BOB, GROUP, "/tournament swiss classic rounds=1 seats=2")
        assert server.chat(BOB.id)[-1]["text"] == ("Seuls les gestionnaires du serveur "
                                                   "peuvent organiser un tournoi ici.")
        await rig.say(ALICE, GROUP, "/tournament swiss classic rounds=1 seats=2")
        ann = next(m for m in server.chat(GROUP) if "Tournament #1" in m.get("text", ""))
        register, _, start = [d for d in data_of(server, ann) if d.split(":")[2] == "t"]
        assert register == "0:0:t:j1" and start == "0:0:t:s1"
        await rig.press(ALICE, ann, register)
        await rig.press(BOB, ann, register)
        assert any("(2 players)" in m.get("text", "") for m in server.chat(GROUP))
        before = {u.id: server.notifications(u.id) for u in (ALICE, BOB)}
        await rig.press(ALICE, ann, start)
        texts = [m.get("text", m.get("caption", "")) for m in server.chat(GROUP)]
        assert any(x.startswith("Tournament #1, round 1 of 1:") for x in texts)
        assert any("Table #1: Alice, Bob" in x for x in texts)  # not a forum: in the group
        rounds = [c for c in server.called("sendMessage")
                  if str(c.params.get("text", "")).startswith("Tournament #1, round 1 of 1:")]
        assert len(rounds) == 1 and rounds[0].params.get("parse_mode") == "HTML"
        # the round's line notifies its players (each once), as on Discord
        assert all(server.notifications(u.id) >= before[u.id] + 1 for u in (ALICE, BOB))
        assert [len(re.findall(rf"tg://user\?id={u.id}\b", rounds[0].params["text"]))
                for u in (ALICE, BOB)] == [1, 1]
        assert not server.called("createForumTopic")
        (lobby,) = lobbies(rig)
        assert "message_thread_id" not in lobby
        server.start_bot(BOB)
        await rig.say(BOB, GROUP, "/tournament list")
        assert server.chat(BOB.id)[-1]["text"] == (  # Bob reads French
            "Tournois ici :\n#1 : Jeu de dominos classique, système suisse · ronde 1 sur 1")

    run_rig(tmp_path, body)


def test_a_forum_without_the_right_keeps_the_tables_in_the_group(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.forums.add(GROUP)
        server.no_topic_rights.add(GROUP)
        server.admins[GROUP] = {ALICE.id}
        await open_and_start(rig, [ALICE, BOB], "/tournament swiss classic rounds=1 seats=2")
        assert len(server.called("createForumTopic")) == 1  # tried, refused: 400
        assert not server.topics.get(GROUP)
        texts = [m.get("text", "") for m in server.chat(GROUP)]
        assert any("Table #1: Alice, Bob" in x for x in texts)
        (lobby,) = lobbies(rig)  # the tournament goes on in the group
        assert "message_thread_id" not in lobby
        answer = await rig.press(BOB, lobby, next(d for d in data_of(server, lobby)
                                                  if d.split(":")[2] == "j"))
        assert not answer.get("show_alert"), answer

    run_rig(tmp_path, body)


def test_each_table_plays_in_its_own_forum_topic(tmp_path: Path) -> None:
    clock = Clock()

    async def body(rig: Rig) -> None:
        server, service = rig.server, rig.service
        assert service is not None and rig.bot is not None and rig.bot.outbox is not None
        server.forums.add(GROUP)
        server.admins[GROUP] = {ALICE.id}
        players = [ALICE, BOB, CAROL, DAVE]
        for user in players:
            server.start_bot(user)
        await open_and_start(rig, players, "/tournament swiss classic rounds=1 seats=2 "
                             "clock=60")
        topics = server.topics[GROUP]
        assert [t["name"] for t in topics.values()] == [
            "Tournament #1 · round 1 · table 1", "Tournament #1 · round 1 · table 2"]
        first, second = topics
        texts = [m.get("text", "") for m in server.chat(GROUP)]
        (round_text,) = [x for x in texts if x.startswith("Tournament #1, round 1 of 1:")]
        assert f"Table #1 in https://t.me/c/500/{first}: " in round_text
        assert f"Table #2 in https://t.me/c/500/{second}: " in round_text
        by_id = {f"telegram:{u.id}": u for u in players}
        seated = {}
        for no, thread in ((1, first), (2, second)):
            table = service.tables[no]
            assert table.row.channel == f"telegram:{GROUP}:{thread}"
            seated[thread] = [by_id[uid] for uid, _ in table.reserved.values()]
        assert {m.get("message_thread_id") for m in lobbies(rig)} == {first, second}
        # table 1: one joins by the button under its lobby, the other by /join in the topic
        lobby = next(m for m in lobbies(rig) if m["message_thread_id"] == first)
        join = next(d for d in data_of(server, lobby) if d.split(":")[2] == "j")
        answer = await rig.press(seated[first][0], lobby, join)
        assert not answer.get("show_alert"), answer
        await rig.say(seated[first][1], GROUP, "/join", thread=first)
        assert service.tables[1].row.status == "playing"
        table = next(m for m in server.chat(GROUP) if m.get("message_thread_id") == first
                     and "photo" in m and data_of(server, m))  # the lobby became the board
        calls = len(server.calls)
        await play_out(rig, seated[first], table)
        sent = [c for c in server.calls[calls:] if c.method.startswith("send")
                and int(c.params["chat_id"]) == GROUP]
        assert sent and all(c.params.get("message_thread_id") == str(first) for c in sent)
        # table 2: one player comes, the other does not; the round clock runs out
        lobby = next(m for m in lobbies(rig) if m["message_thread_id"] == second)
        join = next(d for d in data_of(server, lobby) if d.split(":")[2] == "j")
        await rig.press(seated[second][0], lobby, join)
        for step in (61, 2):
            clock.now += step
            await rig.bot.outbox.deliver(await service.tick())
            await rig.drain()
        texts = [m.get("text", m.get("caption", "")) for m in server.chat(GROUP)]
        closed = [m for m in server.chat(GROUP) if "the round clock ran out" in m.get("text", "")]
        assert closed and closed[0]["message_thread_id"] == second
        standing = next(x for x in texts if "final standings" in x)
        came, no_show = (u.first_name for u in seated[second])
        assert f"{came}: 1 point" in standing and f"{no_show}: 0 points" in standing
        assert any("Podium" in x for x in texts)
        assert all(t["closed"] for t in topics.values())

    run_rig(tmp_path, body, clock=clock)


def test_a_topic_name_is_cut_to_telegrams_limit(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server, bot = rig.server, rig.bot
        assert bot is not None
        server.forums.add(GROUP)
        with pytest.raises(BadRequest):  # what Telegram refuses
            await bot.app.bot.create_forum_topic(GROUP, "x" * 129)
        room = await bot.rooms.open(f"telegram:{GROUP}", "é" * 200, [])
        assert room is not None
        thread = int(room.split(":")[2])
        assert server.topics[GROUP][thread]["name"] == "é" * 128
        assert await bot.rooms.open(f"telegram:{ALICE.id}", "a private chat", []) is None
        await bot.app.bot.send_message(GROUP, "in the topic", message_thread_id=thread)
        with pytest.raises(BadRequest, match="thread not found"):  # no such topic
            await bot.app.bot.send_message(GROUP, "nowhere", message_thread_id=thread + 1000)
        await bot.rooms.close(room, 1)
        assert server.topics[GROUP][thread]["closed"]
        assert bot.rooms.link(room) == f"https://t.me/c/500/{thread}"

    run_rig(tmp_path, body)


def test_fixed_pairs_register_by_a_reply_in_a_telegram_group(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.admins[GROUP] = {ALICE.id}
        await rig.say(ALICE, GROUP, "/tournament swiss partnership rounds=1")
        ann = next(m for m in server.chat(GROUP) if "Tournament #1" in m.get("text", ""))
        assert "Fixed partners" in ann["text"]
        said = await server.command(BOB, GROUP, "hello")  # a message of Bob's
        before = server.notifications(BOB.id)
        await server.command(ALICE, GROUP, "/tournament join 1", reply_to=said)
        await rig.sync(ALICE)
        assert any("Alice asks Bob to be their partner in tournament #1" in m.get("text", "")
                   for m in server.chat(GROUP))
        assert server.notifications(BOB.id) == before + 1  # the ask notifies Bob
        await rig.say(BOB, GROUP, "/tournament join 1")  # Bob accepts
        assert any("Alice & Bob are registered as partners in tournament #1 (2 players)."
                   in m.get("text", "") for m in server.chat(GROUP))
        server.outsiders[GROUP] = {CAROL.id}
        gone = await server.command(CAROL, GROUP, "bye")
        server.start_bot(DAVE)
        await server.command(DAVE, GROUP, "/tournament join 1", reply_to=gone)
        await rig.sync(DAVE)
        assert "Your partner must be a member here" in server.chat(DAVE.id)[-1]["text"]
        await rig.say(DAVE, GROUP, "/tournament join 1 @carol")  # a name: not looked up
        assert "Your partner must be a member here" in server.chat(DAVE.id)[-1]["text"]

    run_rig(tmp_path, body)
