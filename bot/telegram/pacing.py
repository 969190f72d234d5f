"""Telegram's flood limits kept by the bot itself: `Pace` counts the writes of each chat
(about 20 a minute in a group, one a second in a chat, 30 a second in all) and says how
long the next one must wait; `PacedBot` is the `Bot` whose writes wait their turn.

Several processes on one bot token (the PostgreSQL store): `Pace` counts this process's
writes only, so `PacedBot` also takes each write's slot in the budget every process shares
(`shared_budget`: the store's `pace_reserve`, bot/storage/pg_pace.py): a group's writes go
at least `window / group` seconds apart (a tenth more: 18 a minute), a private chat's `gap` apart,
and then the bot's writes, whatever the chat and the process, `second / overall` apart (a tenth
more: 27 a second), so that N processes do not make N times 30 a second.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot

log = logging.getLogger("domino.telegram")
MARGIN = 1.1  # a group's shared slots a tenth wider than 20 a minute: the requests' jitter
Reserve = Callable[[int], Awaitable[float]]  # a chat's next write slot: the seconds to wait


@dataclass
class Pace:
    """Telegram's flood limits, kept by the outbox itself: at most `group` writes per
    `window` seconds in a group, `gap` seconds between two writes in any chat, and `overall`
    writes per `second` in all.  (A write over them gets 429, and python-telegram-bot's
    AIORateLimiter then holds EVERY request, the answers to presses too, while it waits: so
    the outbox never sends one; the limiter stays as the last guard.)  `spare`: the share of
    a group's writes kept for the states that must be shown.  `smooth`: a group gets at most
    that many writes in `smooth` times `window / group` seconds, so that its writes are
    spread over the minute (one every 3 s) rather than 20 in a row and 40 s of silence."""

    group: int = 20
    window: float = 60.0
    gap: float = 1.0
    overall: int = 30
    second: float = 1.0
    spare: float = 0.5
    smooth: int = 3
    _times: dict[int, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)
    _in_flight: int = 0  # writes sent and not answered yet

    def wait(self, chat: int, now: float, spare: bool = False) -> float:
        """Seconds until a write to `chat` keeps the limits (`spare`: and leaves the group
        the share of its writes kept for the states that must be shown)."""
        times = self._times.setdefault(chat, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        wait = self.gap - (now - times[-1]) if times else 0.0
        limit = self.group - (int(self.group * self.spare) if spare else 0)
        if chat < 0 and len(times) >= max(1, limit):
            wait = max(wait, self.window - (now - times[-max(1, limit)]))
        if chat < 0 and self.smooth and len(times) >= self.smooth:
            span = self.smooth * self.window / self.group
            wait = max(wait, span - (now - times[-self.smooth]))
        while self._all and now - self._all[0] >= self.second:
            self._all.popleft()
        room = self.overall - self._in_flight  # the writes under way count
        if self.overall and room <= 0:
            wait = max(wait, self.second / self.overall)  # until some are answered
        elif self.overall and len(self._all) >= room:
            wait = max(wait, self.second - (now - self._all[-room]))
        return max(0.0, wait)

    def sending(self) -> None:
        """A write leaves: the overall budget counts it at once, until `note` (counted only
        once answered, a burst of writes to many chats would all pass `wait` together and
        go over the 30 a second)."""
        self._in_flight += 1

    def note(self, chat: int, now: float) -> None:
        """A write is done (the server has seen it, at the latest now)."""
        self._times.setdefault(chat, deque()).append(now)
        self._all.append(now)
        self._in_flight = max(0, self._in_flight - 1)


class PacedBot:
    """The `Bot`, with every write (``send_*``, ``edit_*``, ``delete_*``) kept within
    `Pace`: it waits its turn in its chat, one write at a time per chat."""

    def __init__(self, bot: Bot, pace: Pace, shared: Reserve | None = None) -> None:
        self._bot = bot
        self._pace = pace
        self._shared = shared
        self._locks: dict[int, asyncio.Lock] = {}

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._bot, name)
        if not name.startswith(("send_", "edit_", "delete_")):
            return call

        async def paced(*args: Any, **kw: Any) -> Any:
            chat = int(kw.get("chat_id", args[0] if args else 0))
            async with self._locks.setdefault(chat, asyncio.Lock()):
                await self._turn(chat)
                if self._shared is not None:
                    await self._shared_slot(chat)
                    await self._turn(chat)  # this process's other writes meanwhile
                self._pace.sending()
                try:
                    return await call(*args, **kw)
                finally:
                    self._pace.note(chat, now())  # done: the server has seen it

        return paced


    async def _turn(self, chat: int) -> None:
        while (wait := self._pace.wait(chat, now())) > 0:
            await asyncio.sleep(wait)

    async def _shared_slot(self, chat: int) -> None:
        """Wait for this write's slot in the budget the processes share (a database that
        cannot answer: this process's own pacing only, logged)."""
        assert self._shared is not None
        try:
            wait = await self._shared(chat)
        except Exception as exc:
            log.warning("the shared write budget cannot be read: %s", type(exc).__name__)
            return
        if wait > 0:
            await asyncio.sleep(wait)


def shared_budget(store: Any, token: str, pace: Pace) -> Reserve | None:
    """The shared budget of `store` (None: a store of one process), for the bot of `token`
    (keyed by its id, the public part before the colon, never the secret)."""
    reserve = getattr(store, "pace_reserve", None)
    if not getattr(store, "shared", False) or reserve is None:
        return None
    bot_id = token.split(":", 1)[0]
    group_step = MARGIN * pace.window / max(1, pace.group)
    overall_step = MARGIN * pace.second / pace.overall if pace.overall else 0.0

    async def slot(chat: int) -> float:
        """The chat's slot waited for, then the bot's overall one taken (its wait returned):
        the overall slot is taken when the write is about to go, not before the chat's wait."""
        wait = await reserve(f"{bot_id}:{chat}", group_step if chat < 0 else pace.gap)
        if wait > 0:
            await asyncio.sleep(wait)
        return float(await reserve(f"{bot_id}:all", overall_step)) if overall_step else 0.0

    return slot


def now() -> float:
    """The event loop's clock (the one `Pace` counts in)."""
    return asyncio.get_running_loop().time()
