"""`python -m bot.cli` for the tests that run the real bot process against the fake Telegram
server (tests/fake_telegram.py): the same entry point, with Telegram's flood limits kept by
the outbox (bot/telegram/pacing.py's `Pace`) and by python-telegram-bot's rate limiter
scaled down, since the fake server enforces none here and a tournament's group writes would
otherwise take a minute (one every 3 s).

    python tests/fast_bot.py [bot.cli's arguments]
"""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from typing import Any

from telegram.ext import AIORateLimiter

from bot.telegram import adapter, out, pacing


@dataclass
class FastPace(pacing.Pace):
    """Telegram's limits a hundred times faster."""

    window: float = 0.6
    gap: float = 0.01
    second: float = 0.01


def fast_limiter(**kw: Any) -> AIORateLimiter:
    return AIORateLimiter(**{**kw, "overall_max_rate": 0, "group_max_rate": 0})


out.Pace = FastPace  # type: ignore[misc]
adapter.AIORateLimiter = fast_limiter  # type: ignore[assignment,misc]

if __name__ == "__main__":
    runpy.run_module("bot.cli", run_name="__main__", alter_sys=True)
