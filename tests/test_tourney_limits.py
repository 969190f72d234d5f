"""Issue 37, item 3: a limit's check and the write it guards are one step, so requests at
once (Discord delivers interactions concurrently) cannot all pass the same count: a
server's tournaments, a user's tables, a channel's tables; on SQLite and PostgreSQL, with
`asyncio.gather` on one service and on two services (two connections, as two processes)
on one database."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.service.guard import Where
from bot.service.service import Service, User
from bot.storage import open_store
from tests.service_helpers import CHANNEL, SCOPE, RecordingPictures, errors, run, with_service

SWISS = "swiss rounds=1 seats=2 classic"
USERS = [User(f"test:u{i}", f"u{i}") for i in range(40)]


async def opened(service: Service, text: str, n: int, user: User = USERS[0]) -> list[bool]:
    """Whether each of n tournaments opened at once in the test server was opened."""
    answers = await asyncio.gather(*[
        service.open_tournament(user, CHANNEL, SCOPE, text, is_admin=True,
                                where=Where(CHANNEL, SCOPE)) for _ in range(n)])
    return [not errors(out) for out in answers]


async def lobbies(service: Service, users: list[User], channel: str = CHANNEL) -> list[bool]:
    """Whether each lobby (one per user given, at once) was opened."""
    answers = await asyncio.gather(*[
        service.open_table(u, channel, SCOPE, "classic", options="players=2")
        for u in users])
    return [not errors(out) for out in answers]


async def stored_active(service: Service, host: str | None = None,
                        channel: str | None = None) -> int:
    rows = await service.store.tables(("lobby", "playing"))
    return len([r for r in rows if (host is None or r.host == host)
                and (channel is None or r.channel == channel)])


def test_limits_hold_against_requests_at_once(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        assert sum(await opened(service, SWISS, 8)) == 3
        assert len(await service.store.tournaments(("registration", "running"), SCOPE)) == 3
        answers = await asyncio.gather(*[
            service.open_tournament(USERS[0], CHANNEL, SCOPE, SWISS, is_admin=True,
                                    where=Where(CHANNEL, SCOPE)) for _ in range(2)])
        assert [e for out in answers for e in errors(out)] == [
            "This server already has 3 tournaments under way; wait for one to end."] * 2
        assert sum(await lobbies(service, [USERS[1]] * 30, "test:a")) == 10
        assert await stored_active(service, host=USERS[1].id) == 10
        assert sum(await lobbies(service, USERS[2:], "test:b")) == 25
        assert await stored_active(service, channel="test:b") == 25
        out = await service.open_table(USERS[1], "test:c", SCOPE, "classic",
                                       options="players=2")
        assert errors(out) == ["You already have 10 open tables; finish or stop one first."]
        # a table closed frees its place
        stopped = next(tb for tb in service.tables.values() if tb.row.host == USERS[1].id)
        assert not errors(await service.stop(USERS[1], stopped.id))
        assert sum(await lobbies(service, [USERS[1]] * 3, "test:c")) == 1

    run(with_service(db_target, body, default_timer=None))


def test_two_services_on_one_database_share_the_limits(db_target: str | Path) -> None:
    """Two services (each its own connections: two processes' worth) open at once."""
    async def body(first: Service) -> None:
        store = await open_store(db_target)
        try:
            second = Service(store, pictures=RecordingPictures(), ai_delay=0, seed=2,
                             default_timer=None)
            await second.start()
            both = await asyncio.gather(opened(first, SWISS, 5), opened(second, SWISS, 5))
            assert sum(map(sum, both)) == 3
            assert len(await store.tournaments(("registration", "running"), SCOPE)) == 3
            both = await asyncio.gather(lobbies(first, [USERS[1]] * 15, "test:a"),
                                        lobbies(second, [USERS[1]] * 15, "test:a2"))
            assert sum(map(sum, both)) == 10
            assert await stored_active(first, host=USERS[1].id) == 10
            both = await asyncio.gather(lobbies(first, USERS[2:21], "test:b"),
                                        lobbies(second, USERS[21:40], "test:b"))
            assert sum(map(sum, both)) == 25
            assert await stored_active(first, channel="test:b") == 25
        finally:
            await store.close()

    run(with_service(db_target, body, default_timer=None))
