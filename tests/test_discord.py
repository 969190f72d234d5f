"""The Discord adapter with the real discord.py client, offline, against the fake Discord of
tests/fake_discord.py, on a real SQLite file and a real service (computer seats play at once).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.discord.adapter import run_discord
from bot.discord.delivery import PLATFORM
from core import variants
from tests.discord_helpers import Bot, running_bot
from tests.fake_discord import EPHEMERAL, FakeDiscord

Body = Callable[[FakeDiscord, Path], Awaitable[Any]]
RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"


def play(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, body: Body) -> Any:
    async def main() -> Any:
        async with FakeDiscord() as fake:
            fake.patch(monkeypatch)
            return await body(fake, tmp_path / "domino.sqlite")
    return asyncio.run(main())


def labels(fake: FakeDiscord, mid: int) -> list[str]:
    return [b["label"] for b in fake.buttons(mid)]


def enabled(fake: FakeDiscord, mid: int) -> list[dict[str, Any]]:
    return [b for b in fake.buttons(mid) if not b.get("disabled")]


def png(fake: FakeDiscord, mid: int) -> Image.Image:
    """The message's picture, opened (it must be a real PNG)."""
    name, content = fake.files[mid][0]
    assert name.endswith(".png")
    image = Image.open(io.BytesIO(content))
    image.load()
    return image


async def table_message(bot: Bot, table: int) -> int:
    stored = await bot.store.adapter_get(table, PLATFORM, "table")
    assert stored, "no table message was recorded"
    return int(stored.split(":")[1])


def turn_messages(fake: FakeDiscord) -> list[dict[str, Any]]:
    return [m for m in fake.channel_messages() if m["mentions"]]


def last_ephemeral(fake: FakeDiscord, user: int) -> dict[str, Any]:
    mine = fake.ephemerals(user)
    assert mine, "no ephemeral message for the user"
    return mine[-1]


async def open_two_player_table(bot: Bot, alice: int, bob: int, **options: Any) -> int:
    """alice opens a table for two humans, bob joins with the button, alice starts."""
    await bot.slash(alice, "start", variant="classic", players=2, **options)
    table = max(bot.service.tables)
    lobby = await table_message(bot, table)
    await bot.click(bob, lobby, "Join")
    await bot.click(alice, lobby, "Start")
    return table


def player_to_move(fake: FakeDiscord) -> int:
    """Whom the newest turn message mentions."""
    turns = turn_messages(fake)
    assert len(turns) == 1, "the previous turn message should have been replaced"
    return int(turns[0]["mentions"][0]["id"])


async def play_one_tile(bot: Bot, user: int, hand: int) -> str:
    """Press a playable button of the user's hand, one that asks for the end if there is one
    (then press the first end offered)."""
    fake = bot.fake
    playable = enabled(fake, hand)
    button = next((b for b in playable if ":e:" in b["custom_id"]), playable[0])
    await fake.click(user, hand, button["custom_id"])
    await bot.settle()
    if ":e:" in button["custom_id"]:  # the tile fits both ends: the hand now asks which
        assert [b["label"].split()[-1] for b in fake.buttons(hand)] == ["left", "right"]
        await bot.click(user, hand, fake.buttons(hand)[0]["label"])
    return str(button["custom_id"])


def acknowledged_first(bot: Bot) -> None:
    """Every interaction was answered, before the service was asked and before any other
    request of the bot."""
    assert not bot.early, f"service calls before the interaction's ack: {bot.early}"
    for record in bot.fake.interactions.values():
        assert record.callback is not None, f"interaction {record.id} was never answered"
        assert record.calls_before_callback == 0, "requests were made before the ack"


# -- tests -------------------------------------------------------------------------------


def test_logs_in_syncs_localized_commands_and_completes_variants(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice = fake.add_user("alice")
        async with running_bot(fake, db) as bot:
            (group,) = fake.commands["global"]
            subs = {o["name"]: o for o in group["options"]}
            assert set(subs) == {"start", "join", "leave", "hand", "play", "stop", "rematch",
                                 "rules", "leaderboard", "stats", "history", "settings",
                                 "add-ai", "review", "web", "pings",
                                 "tournament"}
            assert subs["add-ai"]["name_localizations"]["fr"] == "ajout-ordi"
            assert subs["start"]["name_localizations"]["fr"] == "nouvelle"
            assert subs["rules"]["description_localizations"]["fr"] == "Comment jouer une variante"
            variant = subs["start"]["options"][0]
            assert variant["autocomplete"] and variant["name_localizations"]["fr"] == "variante"
            choices = await fake.autocomplete(alice, "start", "variant", "tête")
            assert [c["value"] for c in choices] == ["tete-a-tete"]
            everything = await fake.autocomplete(alice, "rules", "variant", "")
            assert [c["value"] for c in everything] == variants.names()[:25]
            await bot.slash(alice, "rules", variant="classic")
            (summary,) = [m["content"] for m in fake.ephemerals(alice)]  # short
            assert "Classic" in summary and len(summary) <= 2000
    play(monkeypatch, tmp_path, body)


def test_full_game_two_humans_and_a_computer(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        async with running_bot(fake, db, seed=6) as bot:
            await bot.slash(alice, "start", variant="classic", players=3, ai=1)
            table = max(bot.service.tables)
            lobby = await table_message(bot, table)
            assert labels(fake, lobby)[:3] == ["Join", "Start", "Add computer"]
            assert "Leave" in labels(fake, lobby)
            await bot.slash(bob, "join")  # the command finds the table waiting here
            assert "bob" in fake.messages[lobby]["content"]
            await bot.click(alice, lobby, "Start")
            assert await table_message(bot, table) == lobby, "one table message, edited"
            assert labels(fake, lobby) == ["My hand", "Stop"]
            assert png(fake, lobby).size[0] > 100
            hands: dict[int, int] = {}
            shown: dict[int, int] = {}  # how many ephemeral messages each player had then
            pressed: list[str] = []
            moves = 0
            while "Rematch" not in labels(fake, lobby):
                player = player_to_move(fake)
                if player not in hands:  # "My hand" under the mention; later edits in place
                    turn = turn_messages(fake)[0]
                    await bot.click(player, int(turn["id"]), "My hand")
                    hand = last_ephemeral(fake, player)
                    assert hand["flags"] & EPHEMERAL and "Your turn" in hand["content"]
                    assert png(fake, int(hand["id"])).size[0] > 50
                    hands[player] = int(hand["id"])
                    shown[player] = len(fake.ephemerals(player))
                calls, played = len(fake.calls), len(await bot.store.moves(table))
                pressed.append(await play_one_tile(bot, player, hands[player]))
                played = len(await bot.store.moves(table)) - played  # with computer moves
                uploads = [name for c in fake.calls[calls:] for name, _ in c.files]
                boards = [n for n in uploads if n.startswith(("table-", "result-"))]
                assert len(boards) == played, "the board picture: once per move, no more"
                assert not [n for n in uploads if n.startswith("turn-")]
                moves += 1
                assert moves < 100
            assert moves > 3
            assert any(":e:" in p for p in pressed), "(with this seed) a tile fit both ends"
            final = fake.messages[lobby]["content"]
            assert "alice" in final and "bob" in final and "CPU" in final
            assert {p: len(fake.ephemerals(p)) for p in shown} == shown, \
                "hands were edited in place, never sent again"
            assert not turn_messages(fake), "the last turn message went with the end"
            turns = [c for c in fake.calls if c.method == "POST" and c.json
                     and "<@" in str(c.json.get("content"))]
            assert len(turns) >= moves // 2 and not [c for c in turns if c.files], \
                "turn messages are text and a mention: the picture is in the table message"
            assert all(c.json["content"].startswith("<@") and "alice" not in c.json["content"]
                       and "bob" not in c.json["content"] for c in turns), \
                "the mention names the player, once"
            played = await bot.store.moves(table)
            assert len(played) >= moves
            await bot.slash(alice, "leaderboard")
            board = fake.channel_messages()[-1]["content"]
            assert board.startswith("Leaderboard") and "alice" in board and "bob" in board
            await bot.slash(bob, "leaderboard", scope="global")
            assert "everywhere" in fake.channel_messages()[-1]["content"]
            await bot.slash(bob, "history")
            assert f"#{table}" in last_ephemeral(fake, bob)["content"]
            await bot.slash(bob, "stats", user=alice)
            assert last_ephemeral(fake, bob)["content"].startswith("Statistics of alice")
            await bot.slash(bob, "rematch")  # the same seats, each player confirms
            await bot.slash(alice, "join")  # alice's seat was kept: the game starts
            again = await table_message(bot, max(bot.service.tables))
            assert again != lobby and labels(fake, again) == ["My hand", "Stop"]
            acknowledged_first(bot)
    play(monkeypatch, tmp_path, body)


def test_strangers_and_stale_buttons_are_refused(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
        async with running_bot(fake, db) as bot:
            table = await open_two_player_table(bot, alice, bob)
            lobby = await table_message(bot, table)
            before = dict(fake.messages[lobby])
            await bot.click(carol, lobby, "My hand")
            assert "not playing at this table" in last_ephemeral(fake, carol)["content"]
            await bot.click(carol, lobby, "Stop")
            assert fake.messages[lobby]["content"] == before["content"]
            await bot.slash(carol, "play", move="6-6")
            assert "no table for that here" in last_ephemeral(fake, carol)["content"]
            player = player_to_move(fake)
            await bot.slash(player, "play", move="9-9 left")
            assert "9-9" in last_ephemeral(fake, player)["content"]
            assert not await bot.store.moves(table)
            await bot.click(player, lobby, "My hand")
            hand = int(last_ephemeral(fake, player)["id"])
            seen = dict(fake.messages[hand])  # what the player's screen still shows
            stale = enabled(fake, hand)[0]["custom_id"]
            await play_one_tile(bot, player, hand)
            moves = await bot.store.moves(table)
            await fake.click(player, hand, stale, seen=seen)  # pressed before the edit arrived
            await bot.settle()
            assert await bot.store.moves(table) == moves, "the stale press changed nothing"
            errors = [m["content"] for m in fake.ephemerals(player)]
            assert any("turn, not yours" in e for e in errors)  # they wait: whose turn it is
            assert not enabled(fake, hand), "the hand shown again has nothing to play"
            acknowledged_first(bot)
    play(monkeypatch, tmp_path, body)


def test_hand_by_dm_and_a_refused_dm(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        fake.refuse_dm.add(bob)
        async with running_bot(fake, db) as bot:
            await bot.slash(alice, "hand", where="here")  # no game yet: only the choice
            assert "From now on" in last_ephemeral(fake, alice)["content"]
            assert await bot.store.user_pref_get(f"discord:{alice}", PLATFORM, "hand") == "here"
            table = await open_two_player_table(bot, alice, bob)
            await bot.slash(bob, "hand", where="dm")
            notes = [m["content"] for m in fake.ephemerals(bob)]
            assert any("cannot send you direct messages" in n for n in notes)
            assert any(fake.buttons(int(m["id"])) for m in fake.ephemerals(bob)), \
                "the hand is still shown to bob, privately"
            assert await bot.store.user_pref_get(f"discord:{bob}", PLATFORM, "hand") == "here"
            assert any(c.path.startswith("/channels/") and c.method == "POST" and
                       int(c.path.split("/")[2]) in fake.dm_channels for c in fake.calls)
            await bot.slash(alice, "hand", where="dm")
            assert "direct messages" in last_ephemeral(fake, alice)["content"]
            (dm,) = fake.dms(alice)
            assert fake.buttons(int(dm["id"])) and png(fake, int(dm["id"]))
            if player_to_move(fake) != alice:  # bob plays first, from his ephemeral hand
                await play_one_tile(bot, bob, int(fake.ephemerals(bob)[-1]["id"]))
            assert enabled(fake, int(dm["id"])), "alice's DM hand shows her playable tiles"
            await play_one_tile(bot, alice, int(dm["id"]))  # a click in the DM
            assert len(fake.dms(alice)) == 1, "the DM hand is edited, not sent again"
            assert await bot.store.moves(table)
            acknowledged_first(bot)
    play(monkeypatch, tmp_path, body)


def test_restart_in_the_middle_of_a_game_keeps_old_buttons_working(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        async with running_bot(fake, db) as bot:
            table = await open_two_player_table(bot, alice, bob)
            lobby = await table_message(bot, table)
            hands = {}
            for user in (alice, bob):
                await bot.click(user, lobby, "My hand")
                hands[user] = int(last_ephemeral(fake, user)["id"])
            first = player_to_move(fake)
            await play_one_tile(bot, first, hands[first])
            moves = await bot.store.moves(table)
        async with running_bot(fake, db) as bot:  # a new process on the same database
            assert fake.logins == 2
            assert await table_message(bot, table) == lobby, "the same table message is edited"
            player = player_to_move(fake)  # a new turn message, after the restart
            assert player != first
            assert enabled(fake, hands[player]), "the old hand shows the playable tiles"
            await play_one_tile(bot, player, hands[player])  # a button from the old process
            assert len(await bot.store.moves(table)) > len(moves)
            other = player_to_move(fake)
            await bot.click(other, lobby, "My hand")  # the old table message's button
            assert "Your hand" in last_ephemeral(fake, other)["content"]
            acknowledged_first(bot)
    play(monkeypatch, tmp_path, body)


def test_big_hands_page_and_settings_need_a_manager(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, boss = fake.add_user("alice"), fake.add_user("boss", manager=True)
        async with running_bot(fake, db) as bot:
            await bot.slash(alice, "settings", lang="fr")
            assert "Only server managers" in last_ephemeral(fake, alice)["content"]
            await bot.slash(boss, "settings", timer=120)
            assert "Saved" in last_ephemeral(fake, boss)["content"]
            scope = f"discord:{fake.guild_id}"
            assert await bot.store.get_setting(scope, "timer") == "120"
            assert await bot.store.get_setting(scope, "lang") is None
            await bot.slash(alice, "start", variant="classic", players=2, ai=1,
                            options="set=9 hand=22")
            await bot.slash(alice, "hand")
            hand = int(last_ephemeral(fake, alice)["id"])
            rows = fake.messages[hand]["components"]
            assert len(rows) == 5 and sum(len(r["components"]) for r in rows) <= 25
            assert labels(fake, hand)[-1] == "2/2 ▶"
            first_page = labels(fake, hand)[:20]
            await bot.click(alice, hand, "2/2 ▶")
            second = labels(fake, hand)
            assert second[-1] == "◀ 1/2" and len(second) == 2 + 1
            assert not set(second[:2]) & set(first_page)
    play(monkeypatch, tmp_path, body)


def test_run_discord_syncs_to_the_test_guild_and_takes_router_messages(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bot.app import Router
    from bot.service.messages import Message
    from bot.service.service import Service
    from bot.storage import Store

    async def body(fake: FakeDiscord, db: Path) -> None:
        store = await Store.open(db)
        router = Router(expect=("discord",))
        task = asyncio.create_task(run_discord(Service(store), router, "fake-token",
                                               test_guild=fake.guild_id,
                                               guild_ready_timeout=0.05))
        try:
            await fake.wait_connected()
            await router.deliver([Message(f"discord:{fake.channel_id}", "from a timer")])
            for _ in range(500):
                if fake.channel_messages() or task.done():
                    break
                await asyncio.sleep(0.01)
            assert not task.done(), task
            assert [m["content"] for m in fake.channel_messages()] == ["from a timer"]
            assert list(fake.commands) == [str(fake.guild_id)]
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await store.close()
    play(monkeypatch, tmp_path, body)


def test_a_delayed_computer_move_arrives_through_the_router(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    from tests.service_helpers import Clock

    async def body(fake: FakeDiscord, db: Path) -> None:
        alice = fake.add_user("alice")
        clock = Clock()
        async with running_bot(fake, db, ai_delay=5, clock=clock) as bot:
            await bot.slash(alice, "start", variant="classic", players=2, ai=1)
            table = max(bot.service.tables)
            lobby = await table_message(bot, table)
            for _ in range(2):  # the computer may lead; then it is alice's turn
                await bot.router.deliver(await bot.service.tick())
                await bot.settle()
                if turn_messages(fake):
                    break
                clock.now += 5
            await bot.click(alice, int(turn_messages(fake)[0]["id"]), "My hand")
            hand = int(last_ephemeral(fake, alice)["id"])
            await play_one_tile(bot, alice, hand)
            assert not enabled(fake, hand) and not turn_messages(fake), "the computer thinks"
            moves = len(await bot.store.moves(table))
            clock.now += 5
            await bot.router.deliver(await bot.service.tick())  # as bot/app.py's tick loop
            await bot.settle()
            assert len(await bot.store.moves(table)) == moves + 1
            assert "CPU" in fake.messages[lobby]["content"].split("\n")[1]
            assert player_to_move(fake) == alice
            assert enabled(fake, hand), "alice's hand was edited in place for her turn"
    play(monkeypatch, tmp_path, body)


def test_rules_are_a_summary_with_a_button_per_section(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    page = max(RULES.glob("*.md"), key=lambda p: len(p.read_text(encoding="utf-8")))

    async def body(fake: FakeDiscord, db: Path) -> None:
        alice = fake.add_user("alice")
        async with running_bot(fake, db) as bot:
            await bot.slash(alice, "rules", variant=page.stem)
            (summary,) = fake.ephemerals(alice)
            assert len(summary["content"]) < 1200
            labels = [b["label"] for b in fake.buttons(int(summary["id"]))]
            english = page.read_text(encoding="utf-8").split("\n## ")[1]
            headings = [h.split("\n", 1)[0] for h in english.split("\n### ")[1:]]
            assert labels[0] == "How to play" and "Sources" not in labels
            assert labels[1:3] == [h for h in headings if h != "Sources"][:2]
            for label in labels:
                seen = len(fake.ephemerals(alice))
                await bot.click(alice, int(summary["id"]), label)
                pieces = [m["content"] for m in fake.ephemerals(alice)[seen:]]
                assert pieces and all(len(p) <= 2000 for p in pieces)
                text = "\n".join(pieces)
                assert "|---" not in text and "shared/" not in text and "domino play" not in text
    play(monkeypatch, tmp_path, body)
