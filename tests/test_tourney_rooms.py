"""A room per tournament table (issue 31), through the service: a platform that opens rooms
(a thread, a forum topic) gets each table in its own; a platform that refuses, times out or
has none keeps the tables in the tournament's channel, and the tournament goes on.  The
platforms themselves: tests/test_discord_tournament.py, tests/test_telegram_tournament.py."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.service.guard import Where
from bot.service.service import Service
from bot.tournament.rooms import RoomRegistry
from tests.service_helpers import (
    CHANNEL,
    SCOPE,
    Clock,
    button,
    errors,
    play_to_the_end,
    run,
    with_service,
)
from tests.test_service_tournaments import ORGANISER, PLAYERS, open_swiss, register_all

HERE = Where(CHANNEL, SCOPE)


@dataclass
class FakeRooms:
    """A platform's rooms: "test:room<n>"; `refuse` raises as a platform without the right."""

    refuse: bool = False
    slow: bool = False
    asked: int = 0
    opened: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)

    async def open(self, channel: str, title: str, members: Sequence[str]) -> str | None:
        self.asked += 1
        if self.refuse:
            raise PermissionError("403 Missing Permissions for p1 and p2")
        if self.slow:
            await asyncio.sleep(10)
        self.opened.append((channel, title, tuple(members)))
        return f"test:room{len(self.opened)}"

    async def close(self, room: str, table: int) -> None:
        self.closed.append(room)

    def link(self, room: str) -> str:
        return f"<{room}>"


def test_each_table_opens_in_its_own_room(tmp_path: Path) -> None:
    rooms = FakeRooms()

    async def body(service: Service) -> None:
        service.rooms.register("test", rooms)
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        out = await service.press(ORGANISER, button(ann, "Start"), where=HERE)
        assert not errors(out)
        assert [(c, t) for c, t, _ in rooms.opened] == [
            (CHANNEL, f"Tournament #{tid} · round 1 · table 1"),
            (CHANNEL, f"Tournament #{tid} · round 1 · table 2")]
        assert sorted(m for _, _, ms in rooms.opened for m in ms) == sorted(
            p.id for p in PLAYERS[:4])
        announcement = out[0]
        assert announcement.channel == CHANNEL
        lines = announcement.text.splitlines()
        assert lines[1].startswith("Table #1 in <test:room1>: ")
        assert lines[2].startswith("Table #2 in <test:room2>: ")
        tables = {m.table: m.channel for m in out if m.kind == "table"}
        assert sorted(tables.values()) == ["test:room1", "test:room2"]
        # a player joins from the room; from the tournament's channel, the table is not there
        t1 = next(t for t, c in tables.items() if c == "test:room1")
        player = next(p for p in PLAYERS if p.id in rooms.opened[0][2])
        assert errors(await service.join(player, t1, where=HERE)) == [
            f"Table #{t1} is not played here."]
        joined = await service.join(player, t1, where=Where("test:room1", SCOPE))
        assert not errors(joined)
        assert {m.channel for m in joined if m.to is None} == {"test:room1"}
        assert not rooms.closed

    run(with_service(tmp_path / "db.sqlite", body, default_timer=None))


def test_a_refused_room_keeps_the_table_in_the_channel(tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    rooms = FakeRooms(refuse=True)

    async def body(service: Service) -> None:
        service.rooms.register("test", rooms)
        _, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        with caplog.at_level(logging.WARNING, "domino.service"):
            out = await service.press(ORGANISER, button(ann, "Start"), where=HERE)
        assert not errors(out)
        assert out[0].text.splitlines()[1:3] == ["Table #1: p1, p3", "Table #2: p4, p2"]
        assert {m.channel for m in out if m.to is None} == {CHANNEL}
        warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert warned == ["no room for a table (test): PermissionError"]  # no names
        assert rooms.asked == 1, "the round's other table was not asked again"

    run(with_service(tmp_path / "db.sqlite", body, default_timer=None))


def test_a_slow_platform_times_out_and_the_table_stays_in_the_channel() -> None:
    async def body() -> None:
        clock = Clock()
        registry = RoomRegistry(timeout=0.05, clock=clock)
        registry.register("test", FakeRooms(slow=True))
        assert await registry.open(CHANNEL, "Tournament #1 · round 1 · table 1") == CHANNEL
        registry.register("test", FakeRooms())
        assert await registry.open(CHANNEL, "T") == CHANNEL  # not asked again at once
        clock.now += 60
        assert await registry.open(CHANNEL, "T") == "test:room1"
        assert await registry.open("web:chan", "T") == "web:chan"  # no rooms on that platform

    run(body())


def test_the_rooms_of_a_round_are_closed_when_it_ends(tmp_path: Path) -> None:
    rooms = FakeRooms()

    async def body(service: Service) -> None:
        service.rooms.register("test", rooms)
        _, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        await register_all(service, ann, PLAYERS[:2])
        out = await service.press(ORGANISER, button(ann, "Start"), where=HERE)
        table = next(m.table for m in out if m.kind == "table")
        assert table is not None
        room = Where("test:room1", SCOPE)
        for p in PLAYERS[:2]:
            assert not errors(await service.join(p, table, where=room))
        seats = {s.seat: next(p for p in PLAYERS if p.id == s.user_id)
                 for s in service.tables[table].row.seats}
        await play_to_the_end(service, table, seats)
        assert not rooms.closed  # the round's end is the tick's
        said = await service.tick()
        assert any("final standings" in m.text for m in said)
        assert rooms.closed == ["test:room1"]

    run(with_service(tmp_path / "db.sqlite", body, default_timer=None))


def test_a_round_completed_after_a_restart_keeps_its_rooms(tmp_path: Path) -> None:
    """A process that completes a round's opening (after another stopped) opens no room
    for the tables already opened, and its announcement points at their rooms."""
    path = tmp_path / "db.sqlite"
    rooms = FakeRooms()
    saved: dict[str, int] = {}

    async def first(service: Service) -> None:
        service.rooms.register("test", rooms)
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        assert not errors(await service.press(ORGANISER, button(ann, "Start"), where=HERE))
        saved["tid"] = tid

    async def second(service: Service) -> None:
        service.rooms.register("test", rooms)
        row = await service.store.tournament(saved["tid"])
        assert row is not None
        # the first process stopped after storing the round's tables, before the transaction
        # that announces the round (outbox.py): its state does not say the round announced
        state = json.loads(row.state)
        state.pop("announced", None)
        assert await service.store.save_tournament(row.id, row.version, row.status,
                                                   json.dumps(state))
        row = await service.store.tournament(saved["tid"])
        assert row is not None
        out = await service.tournaments._open_round(row, json.loads(row.state))
        assert len(rooms.opened) == 2, "no room opened twice"
        lines = out[0].text.splitlines()
        assert lines[1].startswith("Table #1 in <test:room1>: ")
        assert lines[2].startswith("Table #2 in <test:room2>: ")

    for body in (first, second):
        run(with_service(path, body, default_timer=None))
