"""A room per tournament table (issue 31): a Discord thread, a Telegram forum topic.

The service stays platform-neutral: an adapter that can open a room for a table (a thread
in the tournament's channel, a topic of the tournament's forum group) registers a `Rooms`
with the service's `RoomRegistry` at start-up, under its id prefix ("discord",
"telegram"), so that one service serving both platforms asks the right one.  A platform
with none (the console, the web), a chat with no topics, or a call that fails or takes
too long: the table stays in the tournament's channel.  A failure is logged as a warning
(the exception's type and the platform's status, no names, no text) and never fails the
round; the channel is not asked again for a minute (the round's other tables go to the
channel at once, not after one refusal or timeout each).  Stands on nothing of the
service; the rounds (rounds.py) use it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Sequence
from typing import Protocol

log = logging.getLogger("domino.service")

TIMEOUT = 10.0  # seconds a platform has to open or close a room
PAUSE = 60.0  # seconds a channel that refused a room is not asked again (the round's others)


class Rooms(Protocol):
    """What a platform's adapter offers: a room for a table, closed when its round ends."""

    async def open(self, channel: str, title: str, members: Sequence[str]) -> str | None:
        """A new room in `channel` named `title` (the adapter cuts it to its platform's
        limit), for the users `members` (ids of any platform: the adapter takes its own);
        its channel id, or None when the channel cannot have rooms."""

    async def close(self, room: str, table: int) -> None:
        """The round is over: the room of the table `table` is archived or closed (its
        messages stay), once what the adapter delivers there is delivered."""

    def link(self, room: str) -> str:
        """How a public message points at the room ("<#123>", a t.me link), or ""."""


def prefix(channel: str) -> str:
    return channel.split(":", 1)[0]


class RoomRegistry:
    """The adapters' `Rooms` by platform prefix."""

    def __init__(self, timeout: float = TIMEOUT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.timeout = timeout
        self.clock = clock
        self._by_prefix: dict[str, Rooms] = {}
        self._refused: dict[str, float] = {}  # channel -> when it last failed to open one

    def register(self, platform: str, rooms: Rooms) -> None:
        self._by_prefix[platform] = rooms

    def unregister(self, platform: str) -> None:
        self._by_prefix.pop(platform, None)

    async def open(self, channel: str, title: str, members: Sequence[str] = ()) -> str:
        """The room a table of `channel` is played in: a new one where the platform can
        open it, else `channel` itself."""
        rooms = self._by_prefix.get(prefix(channel))
        if rooms is None or self.clock() - self._refused.get(channel, -math.inf) < PAUSE:
            return channel
        try:
            room = await asyncio.wait_for(rooms.open(channel, title, members), self.timeout)
        except Exception as exc:  # no permission, rate limit, timeout: the channel will do
            log.warning("no room for a table (%s): %s", prefix(channel), _why(exc))
            self._refused[channel] = self.clock()
            while len(self._refused) > 1000:
                del self._refused[next(iter(self._refused))]
            return channel
        if room is None or prefix(room) != prefix(channel):
            return channel
        return room

    async def close(self, room: str, channel: str, table: int) -> None:
        """Close `room` (the channel of the table `table`), unless it is the tournament's
        `channel`."""
        rooms = self._by_prefix.get(prefix(room))
        if rooms is None or room in ("", channel):
            return
        try:
            await asyncio.wait_for(rooms.close(room, table), self.timeout)
        except Exception as exc:
            log.warning("a table's room (%s) was not closed: %s", prefix(room), _why(exc))

    def link(self, room: str, channel: str) -> str:
        """How the tournament's `channel` points at `room` ("" when it is the channel)."""
        rooms = self._by_prefix.get(prefix(room))
        if rooms is None or room == channel:
            return ""
        try:
            return rooms.link(room)
        except Exception as exc:
            log.warning("no link to a table's room (%s): %s", prefix(room), _why(exc))
            return ""


def _why(exc: BaseException) -> str:
    """The exception's type and the platform's status and code, never its text (which may
    quote a name)."""
    if isinstance(exc, TimeoutError):
        return "timed out"
    status = getattr(exc, "status", None)
    code = getattr(exc, "code", None)
    return type(exc).__name__ + "".join(f" {x}" for x in (status, code) if x is not None)
