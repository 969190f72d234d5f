"""One message per state on Discord: a trick of forty-two with three computer seats, their
moves from the tick loop as in the bot, posts at most one new message in the channel and
one for the player; the table message and the hand are edited in place."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord.views import PRESS_PREFIX
from bot.service.messages import parse_action
from tests.discord_helpers import running_bot
from tests.fake_discord import FakeDiscord
from tests.service_helpers import Clock
from tests.test_discord import enabled, last_ephemeral, play, table_message, turn_messages


def new_messages(fake: FakeDiscord, since: int) -> tuple[int, int]:
    """(messages posted in the channel, messages posted for a user: interaction responses
    and followups, direct messages)."""
    calls = [c for c in fake.calls[since:] if c.method == "POST"]
    channel = [c for c in calls if c.path == f"/channels/{fake.channel_id}/messages"]
    private = [c for c in calls if c not in channel and (
        (c.path.startswith("/webhooks/") and c.path.count("/") == 3)
        or (c.path.startswith("/channels/") and c.path.endswith("/messages"))
        or (c.path.endswith("/callback") and (c.json or {}).get("type") in (4, 5)))]
    return len(channel), len(private)


def test_a_42_trick_with_three_computers_posts_one_message_per_chat(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice = fake.add_user("alice")
        clock = Clock()
        async with running_bot(fake, db, ai_delay=5, clock=clock) as bot:
            await bot.slash(alice, "start", variant="forty-two", players=4, ai=3,
                            options="target=42")
            table = max(bot.service.tables)
            await table_message(bot, table)
            game = bot.service.tables[table].game
            hand: int | None = None
            tricks = 0
            for _ in range(60):
                if game.over or tricks >= 3:
                    break
                if game.to_move != 0:  # a computer: the tick loop plays it
                    clock.now += 5
                    await bot.router.deliver(await bot.service.tick())
                    await bot.settle()
                    continue
                if hand is None:
                    await bot.click(alice, int(turn_messages(fake)[-1]["id"]), "My hand")
                    hand = int(last_ephemeral(fake, alice)["id"])
                moves = [b for b in enabled(fake, hand) if b["custom_id"].startswith(
                    PRESS_PREFIX) and parse_action(b["custom_id"][len(PRESS_PREFIX):])[2] == "p"]
                assert moves, fake.buttons(hand)
                playing = game.view(None).get("phase") == "playing"
                round_no = game.view(None)["round"]
                since = len(fake.calls)
                await fake.click(alice, hand, moves[0]["custom_id"])
                await bot.settle()
                while not game.over and game.to_move != 0:
                    clock.now += 5
                    await bot.router.deliver(await bot.service.tick())
                    await bot.settle()
                if not playing or game.view(None)["round"] != round_no:
                    continue  # the bidding, or a round's end (its score sheet)
                tricks += 1
                channel, private = new_messages(fake, since)
                assert channel <= 1 and private <= 1, (channel, private, [
                    (c.method, c.path) for c in fake.calls[since:]])
                assert enabled(fake, hand), "her hand was edited in place for her turn"
            assert tricks >= 2
            assert len(turn_messages(fake)) <= 1
    play(monkeypatch, tmp_path, body)
