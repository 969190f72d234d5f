"""A tournament table's room on Discord (issue 31): a public thread in the tournament's
channel, its players added to it (so that it shows in their list, without a ping: the round's
announcement and the turn messages mention them).  The client registers it with the service
(bot/tournament/rooms.py) when it is ready.  Buttons and commands in the thread come with the
thread's channel and the server's guild: the table's channel is the thread, its scope the
server, so the service's checks accept them as they are.

The bot needs Create Public Threads and Send Messages in Threads in the tournament's
channel; without them Discord answers 403 and the service keeps the table in the channel.
A tournament run in a thread (or a forum channel) has its tables there: no thread in a
thread.  The round's end archives the threads (once the client has delivered what it was
delivering to the table: an archived thread's messages cannot be edited); a message sent
there later (a rematch) unarchives it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from .delivery import PLATFORM, discord_id


class DominoClient(Protocol):
    """What the rooms use of the client (bot/discord/client.py), typed here rather than
    imported: the client imports this module (no circle, issue 38)."""

    http: Any

    def get_channel(self, channel_id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def table_lock(self, table: int) -> Any: ...

MAX_NAME = 100  # a thread's name: 1 to 100 characters
ARCHIVE_AFTER = 1440  # minutes without a message before Discord archives it by itself


class DiscordRooms:
    """The service's `Rooms` on Discord: threads."""

    def __init__(self, client: DominoClient) -> None:
        self.client = client

    async def open(self, channel: str, title: str, members: Sequence[str]) -> str | None:
        cid = discord_id(channel)
        if cid is None:
            return None
        parent = self.client.get_channel(cid) or await self.client.fetch_channel(cid)
        if not isinstance(parent, discord.TextChannel):
            return None  # a thread, a forum, a DM: the table stays in the channel
        thread = await parent.create_thread(name=title[:MAX_NAME] or "domino",
                                            type=discord.ChannelType.public_thread,
                                            auto_archive_duration=ARCHIVE_AFTER)
        for user in members:
            uid = discord_id(user)
            if uid is not None:
                with contextlib.suppress(discord.HTTPException):
                    await thread.add_user(discord.Object(uid))
        return f"{PLATFORM}:{thread.id}"

    async def close(self, room: str, table: int) -> None:
        tid = discord_id(room)
        if tid is None:
            return
        async with self.client.table_lock(table):  # its last result delivered first
            await self.client.http.edit_channel(tid, archived=True)

    def link(self, room: str) -> str:
        tid = discord_id(room)
        return f"<#{tid}>" if tid is not None else ""
