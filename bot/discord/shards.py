"""The Discord client of a process that runs some of the bot's shards (DISCORD_SHARDS,
DISCORD_SHARD_IDS: bot/scaling.py): `DominoClient` on discord.py's `AutoShardedClient`."""

from __future__ import annotations

import discord

from .client import DominoClient


class ShardedDominoClient(DominoClient, discord.AutoShardedClient):
    """`DominoClient` connected to the shards `shard_ids` of `shard_count` (options)."""


def client_class(options: dict[str, object]) -> type[DominoClient]:
    """The client for these options: sharded when they name shards."""
    if "shard_count" in options or "shard_ids" in options:
        return ShardedDominoClient
    return DominoClient
