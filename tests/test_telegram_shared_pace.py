"""Telegram's write budget shared by two bot processes on one PostgreSQL database
(bot/storage/pg_pace.py, bot/telegram/pacing.py): two stores (each its own connections, as a
process has) and two python-telegram-bot `Bot`s of one token, each paced by its own
adapter's outbox (`Outbox.bot`, a `PacedBot`), write to one group of the fake Bot API, which
counts the group's writes across both (one token) and answers 429 past 20 a "minute" (scaled
down): with the shared budget no write is refused; with each process's pacing alone, some
are."""

from __future__ import annotations

import asyncio
import itertools

from telegram import Bot
from telegram.error import RetryAfter
from telegram.request import HTTPXRequest

from bot.storage import PostgresStore
from bot.telegram.out import Outbox
from bot.telegram.pacing import Pace, PacedBot
from tests.fake_telegram import TOKEN, FakeBotApi, Limits, TgUser
from tests.service_helpers import run

GROUP = -100700
LIMITS = Limits(scale=0.05)  # 20 writes in 3 s in a group, 0.05 s between two in a chat
WRITES = 14  # per process: 28 in all, more than a window's 20


async def _two_processes(url: str, shared: bool) -> tuple[FakeBotApi, list[BaseException]]:
    server = FakeBotApi(limits=LIMITS)
    await server.start()
    stores = [await PostgresStore.open(url, pool_size=2) for _ in range(2)]
    refused: list[BaseException] = []
    try:
        async def process(n: int, store: PostgresStore) -> None:
            pace = Pace(LIMITS.group, LIMITS.window, LIMITS.gap, LIMITS.overall, LIMITS.gap)
            bot = Bot(TOKEN, base_url=server.base_url)
            await bot.initialize()
            # the adapter's outbox (its PacedBot takes the store's shared budget), or a
            # PacedBot with this process's pacing only
            paced = Outbox(bot, store, "bot", pace).bot if shared else PacedBot(bot, pace)
            try:
                for i in range(WRITES):
                    try:
                        await paced.send_message(chat_id=GROUP, text=f"process {n}: {i}")
                    except RetryAfter as exc:
                        refused.append(exc)
            finally:
                await bot.shutdown()

        await asyncio.gather(*(process(n, s) for n, s in enumerate(stores)))
    finally:
        for store in stores:
            await store.close()
        await server.close()
    return server, refused


def test_two_processes_share_a_group_budget_without_429(pg_url: str) -> None:
    server, refused = run(_two_processes(pg_url, shared=True))
    assert not refused and not server.refused
    assert len(server.chat(GROUP)) == 2 * WRITES


def test_each_process_pacing_alone_is_refused(pg_url: str) -> None:
    """The check above can fail: without the shared budget the same writes get 429s."""
    server, refused = run(_two_processes(pg_url, shared=False))
    assert refused and server.refused


def test_shared_budget_spaces_slots_across_stores(pg_url: str) -> None:
    """Slots taken at once by two stores are a step apart, in the database's one clock."""
    async def body() -> list[float]:
        a = await PostgresStore.open(pg_url, pool_size=2)
        b = await PostgresStore.open(pg_url, pool_size=2)
        try:
            return list(await asyncio.gather(*(s.pace_reserve("7:-1", 0.5)
                                               for s in (a, b, a, b))))
        finally:
            await a.close()
            await b.close()

    waits = sorted(run(body()))
    assert waits[0] < 0.1
    for before, after in itertools.pairwise(waits):
        assert 0.4 < after - before < 0.6, waits


OVERALL = Limits(scale=0.5)  # 30 writes in 0.5 s for the whole bot
CHATS = 30  # private chats per process: 60 writes at once, twice the bot's budget


async def _many_chats(url: str) -> FakeBotApi:
    server = FakeBotApi(limits=OVERALL)
    await server.start()
    stores = [await PostgresStore.open(url, pool_size=4) for _ in range(2)]
    users = [TgUser(7000 + i, f"user{i}") for i in range(2 * CHATS)]
    for user in users:
        server.start_bot(user)
    try:
        async def process(n: int, store: PostgresStore) -> None:
            pace = Pace(OVERALL.group, OVERALL.window, OVERALL.gap, OVERALL.overall,
                        OVERALL.gap)
            bot = Bot(TOKEN, base_url=server.base_url,
                      request=HTTPXRequest(connection_pool_size=64))
            await bot.initialize()
            paced = Outbox(bot, store, "bot", pace).bot
            try:
                await asyncio.gather(*(paced.send_message(chat_id=u.id, text=f"process {n}")
                                       for u in users[n * CHATS:(n + 1) * CHATS]),
                                     return_exceptions=True)
            finally:
                await bot.shutdown()

        await asyncio.gather(*(process(n, s) for n, s in enumerate(stores)))
    finally:
        for store in stores:
            await store.close()
        await server.close()
    return server


def test_two_processes_share_the_bots_overall_budget(pg_url: str) -> None:
    """Thirty private chats written at once by each of two processes: each process's own
    pacing allows 30 a "second", the bot has 30 in all; the shared budget spaces the
    sixty writes so that the fake server refuses none."""
    server = run(_many_chats(pg_url))
    assert not server.refused
    assert len([c for c in server.calls if c.method == "sendMessage"]) == 2 * CHATS
