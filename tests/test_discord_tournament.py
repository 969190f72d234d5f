"""A tournament through the Discord client against the fake Discord (issue 31): a server
manager opens it with /domino tournament, players register by the button, the round's
table opens in the channel; a member who does not manage the server may not organise."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_discord import FakeDiscord
from tests.test_discord import Bot, last_ephemeral, play, running_bot


def test_a_tournament_on_a_discord_server(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, boss = fake.add_user("alice"), fake.add_user("boss", manager=True)
        async with running_bot(fake, db) as bot:
            assert isinstance(bot, Bot)
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
