"""Running the real Discord client against the fake Discord server, on a real database."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import Router
from bot.discord.adapter import DominoClient
from bot.service.service import Service
from bot.storage import Store
from bot.web.activity import publish as publish_activity
from tests.fake_discord import FakeDiscord, Interaction


@dataclass
class Bot:
    """A running bot: the client, its service and database, and the fake it talks to."""

    fake: FakeDiscord
    client: DominoClient
    service: Service
    store: Store
    task: asyncio.Task[None]
    router: Router
    early: list[str] = field(default_factory=list)  # service calls made before the ack

    async def slash(self, user: int, sub: str, /, **options: Any) -> Interaction:
        """Run /domino <sub> and wait until the bot has finished answering."""
        record = await self.fake.slash(user, sub, **options)
        await self.settle()
        return record

    async def click(self, user: int, message_id: int, label: str) -> Interaction:
        """Press the button labelled `label` and wait until the bot has finished."""
        record = await self.fake.click(user, message_id, self.fake.button(message_id, label))
        await self.settle()
        return record

    async def settle(self) -> None:
        await asyncio.wait_for(self.client.idle(), 20)
        self.check()

    def check(self) -> None:
        """The client task must still be running (a bad payload kills it silently)."""
        if self.task.done():
            raise AssertionError(f"the Discord client stopped: {self.task.exception()!r}")


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, db: Path, activity: Any = None,
                      test_guild: int | None = None, **service_options: Any
                      ) -> AsyncIterator[Bot]:
    """Start a bot process on `db` (restart prompts go through the router, as in bot/app.py)
    and stop it at the end.  `activity`: the Discord Activity's settings, as its web table
    publishes them (bot/web/activity.py)."""
    store = await Store.open(db)
    service = Service(store, ai_delay=service_options.pop("ai_delay", 0),
                      seed=service_options.pop("seed", 3), **service_options)
    publish_activity(service, activity)
    router = Router(expect=("discord",))
    await router.deliver(await service.start())
    client = DominoClient(service, router, guild_ready_timeout=0.05, test_guild=test_guild)
    task = asyncio.create_task(client.start("fake-token"))
    bot = Bot(fake, client, service, store, task, router)
    _watch_acks(bot)
    try:
        ready = asyncio.create_task(client.wait_until_ready())
        await asyncio.wait({task, ready}, timeout=20, return_when=asyncio.FIRST_COMPLETED)
        bot.check()
        assert ready.done(), "the client did not become ready"
        await asyncio.wait_for(_registered(router), 10)
        await client.idle()
        yield bot
        bot.check()
    finally:
        await client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)
        await store.close()


async def _registered(router: Router) -> None:
    while "discord" not in router.prefixes:
        await asyncio.sleep(0.01)


SERVICE_CALLS = ("open_table", "join", "leave", "hand", "stop", "rematch", "press", "play",
                 "rules", "leaderboard", "stats", "history", "set_setting")


def _watch_acks(bot: Bot) -> None:
    """Note every service call made while an interaction is still unanswered: the adapter
    must acknowledge (defer) first, within Discord's 3 seconds, then do the work."""
    for name in SERVICE_CALLS:
        real = getattr(bot.service, name)

        async def call(*args: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
            if any(r.callback is None for r in bot.fake.interactions.values()):
                bot.early.append(_name)
            return await _real(*args, **kw)

        setattr(bot.service, name, call)
