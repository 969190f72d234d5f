"""Helpers for driving the service in tests: users, a fake clock, message finders."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.service.messages import Message
from bot.service.pictures import NoPictures
from bot.service.service import Service, User
from bot.service.tables import Table
from bot.storage import open_store

ALICE = User("test:alice", "alice")
BOB = User("test:bob", "bob", "fr-FR")
CAROL = User("test:carol", "carol")
CHANNEL = "test:chan"
SCOPE = "test:server"


@dataclass
class Clock:
    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class RecordingPictures(NoPictures):
    """Draws nothing, but keeps every view a picture was asked for."""

    public_views: list[dict[str, Any]] = field(default_factory=list)
    hand_views: list[dict[str, Any]] = field(default_factory=list)

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        self.public_views.append(view)
        return super().public(view, names)

    def hand(self, view: dict[str, Any]) -> bytes | None:
        self.hand_views.append(view)
        return None


def hand_message(messages: list[Message], user: User) -> Message | None:
    """The last private hand message for `user`."""
    found = [m for m in messages if m.kind == "hand" and m.to == user.id]
    return found[-1] if found else None


def table_id(messages: list[Message]) -> int:
    return next(m.table for m in messages if m.table is not None)


def button(message: Message, label: str) -> str:
    return next(a.data for a in message.actions if a.label == label)


def errors(messages: list[Message]) -> list[str]:
    return [m.text for m in messages if m.kind == "error"]


def run(coro: Awaitable[Any]) -> Any:
    return asyncio.run(coro)  # type: ignore[arg-type]


async def with_service(path: Path | str, body: Callable[[Service], Awaitable[Any]],
                       **kw: Any) -> Any:
    """Open the store at `path` (a SQLite file, or a PostgreSQL URL: `open_store` picks the
    backend), start a service on it (no AI delay, seed 1 unless given), run `body`, close
    the store."""
    store = await open_store(path)
    try:
        service = Service(store, pictures=kw.pop("pictures", RecordingPictures()),
                          ai_delay=kw.pop("ai_delay", 0), seed=kw.pop("seed", 1), **kw)
        await service.start()
        return await body(service)
    finally:
        await store.close()


async def press_a_legal_tile(service: Service, tid: int, user: User) -> list[Message]:
    """Press the first enabled button of `user`'s hand (choosing the first end if asked)."""
    hand = hand_message(await service.hand(user, tid), user)
    assert hand is not None
    data = next(a.data for a in hand.actions if a.enabled)
    replies = await service.press(user, data)
    if ":e:" in data:  # a tile that fits both ends: choose the first one offered
        replies = await service.press(user, replies[0].actions[0].data)
    assert not errors(replies), errors(replies)
    return replies


async def play_to_the_end(service: Service, tid: int, users: dict[int, User]) -> list[Message]:
    """Press a legal tile button of whoever's turn it is until the game ends."""
    out: list[Message] = []
    for _ in range(500):
        table = service.tables.get(tid)
        if table is None:
            return out
        out += await press_a_legal_tile(service, tid, users[table.game.to_move])
    raise AssertionError("the game did not end")


async def open_classic(service: Service, options: str = "", user: User = ALICE) -> int:
    """Open a classic table in the test channel; its id."""
    return table_id(await service.open_table(user, CHANNEL, SCOPE, "classic", options=options))


async def classic_table(service: Service, options: str = "") -> Table:
    """Open a classic table for alice in the test channel (started if nobody else is
    needed); the service's table."""
    return service.tables[await open_classic(service, options)]


async def started_table(service: Service, host: User, others: tuple[User, ...],
                        options: str = "players=2", channel: str = CHANNEL) -> int:
    """Open a classic table, seat `others`, start it; its id."""
    tid = table_id(await service.open_table(host, channel, SCOPE, "classic", options=options))
    for user in others:
        await service.join(user, tid)
    await service.begin(host, tid)
    return tid
