"""Several processes: the settings (Discord shards, Telegram's webhook), a Discord process
running some shards (against tests/fake_discord.py), and Telegram's webhook serving an
update posted to it (against tests/fake_telegram.py)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import discord
import pytest

from bot.config import ConfigError, Settings
from bot.discord.adapter import DominoClient, run_discord
from bot.discord.shards import ShardedDominoClient, client_class
from bot.scaling import Shards, Webhook
from bot.service.service import Service
from bot.storage import Store
from bot.telegram.adapter import TelegramBot
from tests.fake_discord import FakeDiscord
from tests.fake_telegram import TOKEN, FakeBotApi, TgUser


def settings(**env: str) -> Settings:
    return Settings.from_env(env, cwd=Path("/nonexistent"))


def test_shard_settings() -> None:
    assert settings().discord_shards is None
    assert settings(DISCORD_SHARDS="4").discord_shards == Shards(4)
    assert settings(DISCORD_SHARDS="4", DISCORD_SHARD_IDS="0-1, 3").discord_shards == Shards(
        4, (0, 1, 3))
    assert Shards(4, (2, 3)).client_options() == {"shard_count": 4, "shard_ids": [2, 3]}
    for bad, why in ((dict(DISCORD_SHARD_IDS="1"), "needs DISCORD_SHARDS"),
                     (dict(DISCORD_SHARDS="0"), "DISCORD_SHARDS must be"),
                     (dict(DISCORD_SHARDS="x"), "DISCORD_SHARDS must be"),
                     (dict(DISCORD_SHARDS="2", DISCORD_SHARD_IDS="2"), "from 0 to 1"),
                     (dict(DISCORD_SHARDS="2", DISCORD_SHARD_IDS="a"), "like 0,1 or 0-3")):
        with pytest.raises(ConfigError, match=why):
            settings(**bad)


def test_webhook_settings() -> None:
    assert settings().telegram_webhook is None
    hook = settings(TELEGRAM_WEBHOOK_URL="https://bot.example/tg/hook", TELEGRAM_PORT="9000",
                    TELEGRAM_LISTEN="127.0.0.1", TELEGRAM_WEBHOOK_SECRET="s3cret").telegram_webhook
    assert hook == Webhook("https://bot.example/tg/hook", "127.0.0.1", 9000, "s3cret")
    assert hook.path == "tg/hook" and "s3cret" not in repr(hook)
    for bad, why in ((dict(TELEGRAM_WEBHOOK_URL="bot.example"), "must be an https:// URL"),
                     (dict(TELEGRAM_WEBHOOK_URL="https://a.b", TELEGRAM_PORT="99999"), "port"),
                     (dict(TELEGRAM_WEBHOOK_URL="https://a.b", TELEGRAM_WEBHOOK_SECRET="a b"),
                      "may hold only")):
        with pytest.raises(ConfigError, match=why):
            settings(**bad)


def test_the_database_setting() -> None:
    assert settings(DOMINO_DB="postgresql://u@db/domino").database == "postgresql://u@db/domino"
    assert settings(DOMINO_DB="sqlite:bot.db").database == Path("/nonexistent/bot.db")


def test_a_process_runs_the_shards_it_is_given(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    assert client_class({}) is DominoClient
    assert client_class({"shard_count": 2}) is ShardedDominoClient
    assert issubclass(ShardedDominoClient, discord.AutoShardedClient)

    async def main() -> None:
        async with FakeDiscord() as fake:
            fake.patch(monkeypatch)
            store = await Store.open(tmp_path / "domino.sqlite")
            task = asyncio.create_task(run_discord(
                Service(store), None, "fake-token", test_guild=fake.guild_id,
                guild_ready_timeout=0.05, **Shards(3, (1,)).client_options()))
            try:
                await fake.wait_connected()
                assert fake.identified == [[1, 3]]  # shard 1 of 3, and only it
            finally:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
                await store.close()
    asyncio.run(main())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_webhook_serves_a_posted_update(tmp_path: Path) -> None:
    async def main() -> None:
        server = FakeBotApi()
        await server.start()
        store = await Store.open(tmp_path / "domino.sqlite")
        port = _free_port()
        hook = Webhook(f"http://127.0.0.1:{port}/tg/hook", "127.0.0.1", port, "s3cret")
        bot = TelegramBot(Service(store, ai_delay=0), TOKEN, server.base_url, webhook=hook)
        stop = asyncio.Event()
        task = asyncio.create_task(bot.run(None, stop))
        try:
            await asyncio.wait_for(bot.ready.wait(), 15)
            [call] = server.called("setWebhook")
            assert call.params["url"] == hook.url and call.params["secret_token"] == "s3cret"
            assert not server.called("getUpdates")
            alice = TgUser(1001, "Alice")
            message = server._new_message(1001, alice.as_dict(), text="/rules classic")
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": 6}]
            update = {"update_id": 1, "message": message}
            async with aiohttp.ClientSession() as http:
                async with http.post(hook.url, json=update) as refused:
                    assert refused.status == 403  # no secret: not from Telegram
                async with http.post(hook.url, json=update, headers={
                        "X-Telegram-Bot-Api-Secret-Token": "s3cret"}) as answer:
                    assert answer.status == 200
            sent = await server.wait_until(lambda: [c for c in server.called("sendMessage")
                                                    if "Classic" in c.params.get("text", "")])
            assert sent
        finally:
            stop.set()
            await asyncio.wait_for(task, 15)
            await store.close()
            await server.close()
    asyncio.run(main())
