"""A tournament table's room on Telegram (issue 31): a forum topic, where the group is a forum.

The adapter registers it with the service (bot/tournament/rooms.py) when it runs.  Whether a
group is a forum is learnt from its updates (`saw`: every update's chat says `is_forum`),
else asked once with getChat, and kept.  A table's channel is then
"telegram:<chat>:<topic>" (bot/telegram/ids.py), where the outbox already sends.  The bot
must be an administrator with "Manage topics": without it, or in a group that is not a
forum, the table stays in the tournament's chat.  The round's end closes the topics (the
bot, which manages them, may still write there: a rematch).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from .ids import channel_of, parse_channel

MAX_NAME = 128  # a topic's name: 1 to 128 characters
KEEP = 600.0  # seconds a getChat answer is trusted (a group may become a forum)


class TelegramRooms:
    """The service's `Rooms` on Telegram: forum topics."""

    def __init__(self, bot: Any, clock: Any = time.monotonic) -> None:
        self.bot = bot
        self.clock = clock
        self._forum: dict[int, tuple[bool, float]] = {}  # chat -> (a forum?, when learnt)

    def saw(self, chat: Any) -> None:
        """An update's chat: whether it is a forum, as it says now."""
        if chat is not None and getattr(chat, "id", 0) < 0:
            self._forum[chat.id] = (bool(getattr(chat, "is_forum", False)), self.clock())

    async def is_forum(self, chat: int) -> bool:
        known = self._forum.get(chat)
        if known is None or self.clock() - known[1] > KEEP:
            info = await self.bot.get_chat(chat)
            known = self._forum[chat] = (bool(info.is_forum), self.clock())
        return known[0]

    async def open(self, channel: str, title: str, members: Sequence[str]) -> str | None:
        where = parse_channel(channel)
        if where is None or where[0] > 0 or not await self.is_forum(where[0]):
            return None
        topic = await self.bot.create_forum_topic(where[0], title[:MAX_NAME] or "domino")
        return channel_of(where[0], topic.message_thread_id)

    async def close(self, room: str, table: int) -> None:
        where = parse_channel(room)
        if where is not None and where[1] is not None:
            await self.bot.close_forum_topic(where[0], where[1])

    def link(self, room: str) -> str:
        """The topic's link for the group's members (a supergroup's "-100..." id)."""
        where = parse_channel(room)
        if where is None or where[1] is None or not str(where[0]).startswith("-100"):
            return ""
        return f"https://t.me/c/{str(where[0])[4:]}/{where[1]}"
