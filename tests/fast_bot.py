"""`python -m bot.cli` for the tests that run the real bot process against the fake servers
(tests/fake_telegram.py, tests/fake_discord.py): the same entry point, with Telegram's flood
limits kept by the outbox (bot/telegram/pacing.py's `Pace`) and by python-telegram-bot's
rate limiter scaled down, since the fake server enforces none here and a tournament's group
writes would otherwise take a minute (one every 3 s); with DOMINO_TEST_DISCORD (the fake
Discord's http://host:port), discord.py talks to that server instead of Discord's; with
DOMINO_TEST_KILL_AFTER_OUTBOX, it dies right after an outbox write (`kill_after_outbox`).

    python tests/fast_bot.py [bot.cli's arguments]

`spawn` starts it from a test (asyncio), its output in a log file.  Importing this module
changes nothing: the changes are made in the bot's process only.
"""

from __future__ import annotations

import asyncio
import os
import runpy
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def fast() -> None:
    """Scale Telegram's limits down (a hundred times); point discord.py at the fake."""
    from dataclasses import dataclass

    from telegram.ext import AIORateLimiter

    from bot.telegram import adapter, out, pacing

    @dataclass
    class FastPace(pacing.Pace):
        window: float = 0.6
        gap: float = 0.01
        second: float = 0.01

    def fast_limiter(**kw: Any) -> AIORateLimiter:
        return AIORateLimiter(**{**kw, "overall_max_rate": 0, "group_max_rate": 0})

    out.Pace = FastPace  # type: ignore[misc]
    adapter.AIORateLimiter = fast_limiter  # type: ignore[assignment,misc]
    base = os.environ.get("DOMINO_TEST_DISCORD")
    if base:
        import discord
        import yarl

        from tests.fake_discord import API

        discord.http.Route.BASE = base + API  # type: ignore[misc]
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
            base.replace("http", "ws") + "/gateway")


def kill_after_outbox(prefix: str) -> None:
    """DOMINO_TEST_KILL_AFTER_OUTBOX=PREFIX: the process kills itself (SIGKILL) right after
    it has committed an outbox row whose key begins with PREFIX ("t1:r2": round 2's
    announcement of tournament #1; "end:": a game's end), before it hands the message to
    its platform (bot/service/outbox.py)."""
    import functools
    import signal

    from bot.storage import PostgresStore, Store

    def killing(method: Any) -> Any:
        @functools.wraps(method)
        async def write(self: Any, *args: Any, **kw: Any) -> Any:
            done = await method(self, *args, **kw)
            if any(key.startswith(prefix) for key, *_ in kw.get("outbox", ())):
                os.kill(os.getpid(), signal.SIGKILL)
            return done
        return write

    for store in (Store, PostgresStore):
        store.save_tournament = killing(store.save_tournament)  # type: ignore[method-assign]
        store.finish_game = killing(store.finish_game)  # type: ignore[method-assign]


async def spawn(folder: Path, log: Path, **env: str) -> asyncio.subprocess.Process:
    """The bot process in `folder` (its database: folder/bot.sqlite), with `env` added to a
    clean environment (no DOMINO_, DISCORD_ or TELEGRAM_ variable of the test's own)."""
    full = {k: v for k, v in os.environ.items()
            if not k.startswith(("DOMINO_", "DISCORD_", "TELEGRAM_"))}
    full.update({"PYTHONPATH": str(ROOT), "DOMINO_DB": str(folder / "bot.sqlite"),
                 "DOMINO_AI_DELAY": "0", "DOMINO_LOG": "warning"}, **env)
    with open(log, "w") as out:
        return await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), cwd=folder, env=full,
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    fast()
    if os.environ.get("DOMINO_TEST_KILL_AFTER_OUTBOX"):
        kill_after_outbox(os.environ["DOMINO_TEST_KILL_AFTER_OUTBOX"])
    runpy.run_module("bot.cli", run_name="__main__", alter_sys=True)
