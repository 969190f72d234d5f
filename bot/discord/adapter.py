"""The Discord adapter's entry point: `run_discord` starts the client (bot/discord/client.py),
sharded when the options name shards (bot/discord/shards.py)."""

from __future__ import annotations

from typing import Any

from ..service.service import Service
from .client import DominoClient
from .delivery import discord_id
from .shards import client_class


async def run_discord(service: Service, router: Any, token: str, *,
                      test_guild: int | None = None, **options: Any) -> None:
    """Run the Discord client until it is closed.  Commands are synced at start: to the
    guild `test_guild` (bot.config: DISCORD_TEST_GUILD) at once for development, else
    globally.  `shard_count`/`shard_ids` (DISCORD_SHARDS/DISCORD_SHARD_IDS) run those
    shards of an AutoShardedClient."""
    client = client_class(options)(service, router, test_guild=test_guild, **options)
    async with client:
        await client.start(token)


__all__ = ["DominoClient", "discord_id", "run_discord"]
