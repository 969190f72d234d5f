"""A tournament through the Discord client against the fake Discord (issue 31): a server
manager opens it with /domino tournament, players register by the button; each table of a
round opens in its own thread of the channel (bot/discord/rooms.py), where its players join
and play; a no-show forfeits at the round clock; the threads are archived when the round
ends.  Where the bot may not create threads, the tables open in the channel itself.  A
member who does not manage the server may not organise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord.rooms import DiscordRooms
from tests.discord_helpers import Bot
from tests.fake_discord import FakeDiscord
from tests.service_helpers import Clock
from tests.test_discord import last_ephemeral, play, play_one_tile, running_bot, table_message


async def open_and_start(bot: Bot, boss: int, players: list[int], what: str
                         ) -> dict[str, Any]:
    """The manager opens the tournament, everyone registers by the button, the manager
    starts it; the announcement."""
    fake = bot.fake
    await bot.slash(boss, "tournament", what=what)
    ann = next(m for m in fake.channel_messages() if m["content"].startswith("Tournament #1"))
    for user in players:
        await bot.click(user, int(ann["id"]), "Register")
    await bot.click(boss, int(ann["id"]), "Start")
    return ann


def lobbies(fake: FakeDiscord, channel: int | None = None) -> list[dict[str, Any]]:
    """The messages of `channel` (the server's channel by default) with a Join button."""
    return [m for m in fake.channel_messages(channel)
            if any(b.get("label") == "Join" for b in fake.buttons(int(m["id"])))]


def test_a_tournament_on_a_discord_server_without_threads(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, boss = fake.add_user("alice"), fake.add_user("boss", manager=True)
        fake.refuse_threads = True  # the bot lacks Create Public Threads
        async with running_bot(fake, db) as bot:
            await bot.slash(alice, "tournament", what="swiss classic rounds=1 seats=2")
            assert "Only server managers can organise" in last_ephemeral(fake, alice)["content"]
            await bot.slash(boss, "tournament", what="swiss classic rounds=1 seats=2")
            ann = next(m for m in fake.channel_messages()
                       if m["content"].startswith("Tournament #1"))
            await bot.click(alice, int(ann["id"]), "Register")
            await bot.click(boss, int(ann["id"]), "Register")
            await bot.slash(alice, "tournament", what="start", number=1)
            assert "Only the organiser" in last_ephemeral(fake, alice)["content"]
            await bot.click(boss, int(ann["id"]), "Start")
            texts = [m["content"] for m in fake.channel_messages()]
            assert any(x.startswith(f"<@{alice}> <@{boss}> Tournament #1, round 1 of 1:")
                       or x.startswith(f"<@{boss}> <@{alice}> Tournament #1, round 1 of 1:")
                       for x in texts)  # the players are notified
            assert any("Table #1: alice, boss" in x for x in texts)
            assert not fake.threads
            (lobby,) = lobbies(fake)  # the table is in the channel: the tournament goes on
            await bot.click(alice, int(lobby["id"]), "Join")
            await bot.click(boss, int(lobby["id"]), "Join")
            assert bot.service.tables[1].row.status == "playing"
    play(monkeypatch, tmp_path, body)


def test_each_table_plays_in_its_own_thread(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    clock = Clock()

    async def body(fake: FakeDiscord, db: Path) -> None:
        boss = fake.add_user("boss", manager=True)
        users = [boss, *(fake.add_user(n) for n in ("alice", "bob", "carol"))]
        async with running_bot(fake, db, clock=clock) as bot:
            await open_and_start(bot, boss, users, "swiss classic rounds=1 seats=2 clock=60")
            assert [t["name"] for t in fake.threads.values()] == [
                "Tournament #1 · round 1 · table 1", "Tournament #1 · round 1 · table 2"]
            threads = [int(t) for t in fake.threads]
            assert not lobbies(fake), "no table in the tournament's channel"
            (round_text,) = [m["content"] for m in fake.channel_messages()
                             if "Tournament #1, round 1 of 1:" in m["content"]]
            assert all(f"<@{u}>" in round_text for u in users), "it mentions the players"
            assert all(fake.notifications(u) == 1 for u in users), "each player, once"
            assert f"Table #1 in <#{threads[0]}>: " in round_text
            assert f"Table #2 in <#{threads[1]}>: " in round_text
            seated: dict[int, list[int]] = {}
            for no, thread in enumerate(threads, 1):
                (lobby,) = lobbies(fake, thread)
                table = bot.service.tables[no]
                assert table.row.channel == f"discord:{thread}"
                seated[thread] = [int(uid.split(":")[1]) for uid, _ in table.reserved.values()]
                assert set(seated[thread]) <= fake.thread_members[thread]
            # table 1: both join from the thread (a button, a command) and play it out there
            first, second = threads
            lobby = int(lobbies(fake, first)[0]["id"])
            await bot.click(seated[first][0], lobby, "Join")
            await bot.slash(seated[first][1], "join", channel=first)
            assert bot.service.tables[1].row.status == "playing"
            hands: dict[int, int] = {}
            for _ in range(100):
                if bot.service.tables.get(1) is None:
                    break
                turn = next(m for m in fake.channel_messages(first) if m["mentions"])
                player = int(turn["mentions"][0]["id"])
                if player not in hands:
                    await bot.click(player, int(turn["id"]), "My hand")
                    hands[player] = int(last_ephemeral(fake, player)["id"])
                await play_one_tile(bot, player, hands[player])
            assert "Rematch" in str(fake.messages[await table_message(bot, 1)]["components"])
            # the tournament's commands work from a thread of its server
            await bot.slash(seated[first][0], "tournament", what="standings", number=1,
                            channel=first)
            assert last_ephemeral(fake, seated[first][0])["content"] == (
                "Tournament #1: no round is over yet.")  # table 2 still plays round 1
            # a table is played in its own thread only, not from the other table's
            await bot.slash(seated[second][0], "join", table=2, channel=first)
            assert last_ephemeral(fake, seated[second][0])["content"] == (
                "Table #2 is not played here.")
            # table 2: one player comes, the other does not; the round clock runs out
            await bot.click(seated[second][0], int(lobbies(fake, second)[0]["id"]), "Join")
            clock.now += 61
            await bot.router.deliver(await bot.service.tick())
            await bot.settle()
            assert any("the round clock ran out" in m["content"]
                       for m in fake.channel_messages(second))
            clock.now += 2
            await bot.router.deliver(await bot.service.tick())
            await bot.settle()
            said = "\n".join(m["content"] for m in fake.channel_messages())
            assert "Tournament #1: final standings" in said and "Podium" in said
            standing = next(m["content"] for m in fake.channel_messages()
                            if "final standings" in m["content"])
            came, no_show = (fake.users[u]["username"] for u in seated[second])
            assert f"{came}: 1 point" in standing and f"{no_show}: 0 points" in standing
            assert all(t["thread_metadata"]["archived"] for t in fake.threads.values())
    play(monkeypatch, tmp_path, body)


def test_a_thread_name_is_cut_to_discords_limit(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        async with running_bot(fake, db) as bot:
            channel = f"discord:{fake.channel_id}"
            with pytest.raises(discord.HTTPException) as refused:  # what Discord refuses
                await bot.client.http.start_thread_without_message(
                    fake.channel_id, name="x" * 101, auto_archive_duration=1440, type=11)
            assert refused.value.status == 400
            room = await DiscordRooms(bot.client).open(channel, "é" * 150, [])
            assert room is not None
            assert fake.threads[int(room.split(":")[1])]["name"] == "é" * 100
            assert DiscordRooms(bot.client).link(room) == f"<#{room.split(':')[1]}>"
    play(monkeypatch, tmp_path, body)


def test_fixed_pairs_register_with_the_partner_option(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        boss, stranger = fake.add_user("boss", manager=True), fake.add_user("eve", member=False)
        async with running_bot(fake, db) as bot:
            assert isinstance(bot, Bot)
            await bot.slash(boss, "tournament", what="swiss partnership rounds=1")
            ann = next(m for m in fake.channel_messages()
                       if m["content"].startswith("Tournament #1"))
            assert "Fixed partners" in ann["content"]
            await bot.slash(alice, "tournament", what="join", number=1, partner=stranger)
            assert ("Your partner must be a member here"
                    in last_ephemeral(fake, alice)["content"])
            await bot.slash(alice, "tournament", what="join", number=1, partner=bob)
            asked = next(m for m in fake.channel_messages() if "asks" in m["content"])
            assert asked["content"].startswith(f"<@{bob}> alice asks bob")  # bob is notified
            await bot.click(bob, int(ann["id"]), "Register")
            texts = [m["content"] for m in fake.channel_messages()]
            assert ("alice & bob are registered as partners in tournament #1 (2 players)."
                    in texts)
    play(monkeypatch, tmp_path, body)
