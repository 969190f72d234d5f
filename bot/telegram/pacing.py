"""Telegram's flood limits kept by the bot itself: `Pace` counts the writes of each chat
(about 20 a minute in a group, one a second in a chat, 30 a second in all) and says how
long the next one must wait; `PacedBot` is the `Bot` whose writes wait their turn."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot


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
        if self.overall and len(self._all) >= self.overall:
            wait = max(wait, self.second - (now - self._all[-self.overall]))
        return max(0.0, wait)

    def note(self, chat: int, now: float) -> None:
        self._times.setdefault(chat, deque()).append(now)
        self._all.append(now)


class PacedBot:
    """The `Bot`, with every write (``send_*``, ``edit_*``, ``delete_*``) kept within
    `Pace`: it waits its turn in its chat, one write at a time per chat."""

    def __init__(self, bot: Bot, pace: Pace) -> None:
        self._bot = bot
        self._pace = pace
        self._locks: dict[int, asyncio.Lock] = {}

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._bot, name)
        if not name.startswith(("send_", "edit_", "delete_")):
            return call

        async def paced(*args: Any, **kw: Any) -> Any:
            chat = int(kw.get("chat_id", args[0] if args else 0))
            async with self._locks.setdefault(chat, asyncio.Lock()):
                while (wait := self._pace.wait(chat, now())) > 0:
                    await asyncio.sleep(wait)
                try:
                    return await call(*args, **kw)
                finally:
                    self._pace.note(chat, now())  # done: the server has seen it

        return paced


def now() -> float:
    """The event loop's clock (the one `Pace` counts in)."""
    return asyncio.get_running_loop().time()
