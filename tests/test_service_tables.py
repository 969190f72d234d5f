"""Which table a command without a table number means (`Service.find_table`), and ticks
that play the due tables concurrently, on a real SQLite file."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from bot.console.chat import ConsoleChat
from bot.service.service import Service
from tests.service_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    Clock,
    open_classic,
    play_to_the_end,
    press_a_legal_tile,
    run,
    started_table,
    with_service,
)


def test_find_table_for_commands_typed_without_a_number(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        find = service.find_table
        lobby = await open_classic(service, "players=2")
        game = await started_table(service, ALICE, (BOB,))
        elsewhere = await started_table(service, ALICE, (CAROL,), channel="test:other")
        assert await find(CHANNEL, CAROL.id, "join") == lobby  # anyone may join
        assert await find(CHANNEL, CAROL.id, "leave") is None  # she sits nowhere here
        assert await find(CHANNEL, BOB.id, "hand") == game
        assert await find(CHANNEL, CAROL.id, "play") is None
        assert await find(CHANNEL, ALICE.id, "stop") == game  # the newest of hers here
        assert await find("test:other", ALICE.id, "play") == elsewhere
        # a private chat with the bot and no table in it: the newest one the user sits at
        assert await find("test:dm", ALICE.id, "play") is None
        # the newest one the user sits at, or the one where they are to move (issue 13)
        to_move = [t for t in (game, elsewhere) if service.tables[t].game.to_move
                   == service.tables[t].seat_of(ALICE.id)]
        want = to_move[0] if len(to_move) == 1 else elsewhere
        assert await find("test:dm", ALICE.id, "play", private=True) == want
        assert await find("test:dm", BOB.id, "hand", private=True) == game
        assert await find("test:dm", BOB.id, "begin", private=True) is None  # no lobby of his
        assert await find(CHANNEL, ALICE.id, "rematch") is None  # nothing finished yet
        await play_to_the_end(service, game, {0: ALICE, 1: BOB})
        assert await find(CHANNEL, BOB.id, "rematch") == game
        assert await find(CHANNEL, CAROL.id, "rematch") is None
        assert await find("test:dm", BOB.id, "rematch", private=True) == game
        assert await find(CHANNEL, ALICE.id, "stop") == lobby  # the finished one is out
        assert await find(CHANNEL, BOB.id, "hand") is None
    run(with_service(tmp_path / "db.sqlite", body))


async def computers_due(service: Service, clock: Clock, count: int) -> list[int]:
    """`count` tables of alice against a computer, each waiting for the computer's move."""
    tables = []
    for _ in range(count):
        tid = await open_classic(service, "players=2 ai=1")
        if not service.tables[tid].is_ai(service.tables[tid].game.to_move):
            await press_a_legal_tile(service, tid, ALICE)
        tables.append(tid)
    clock.now += 10
    return tables


async def moves(service: Service, tid: int) -> int:
    return len(await service.store.moves(tid))


def test_a_tick_plays_the_due_tables_concurrently(tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        first, *others = await computers_due(service, clock, 3)
        before = {tid: await moves(service, tid) for tid in (first, *others)}
        lock = service._lock(first)
        await lock.acquire()  # as if a player's press were being handled at the first table
        tick = asyncio.create_task(service.tick())

        async def others_played() -> None:
            while [tid for tid in others if await moves(service, tid) == before[tid]]:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(others_played(), 20)  # not stuck behind the first table
        assert await moves(service, first) == before[first] and not tick.done()
        lock.release()
        out = await tick
        for tid in (first, *others):
            assert await moves(service, tid) == before[tid] + 1
            kinds = [m.kind for m in out if m.table == tid]
            assert kinds == ["table", "turn", "hand"], kinds  # each table's order kept
    run(with_service(tmp_path / "db.sqlite", body, ai_delay=5, clock=clock))


class Broken:
    """A computer player whose move fails (a bug, a broken record...)."""

    def choose(self, game: Any) -> Any:
        raise RuntimeError("broken computer player")


def test_a_failing_table_does_not_stop_the_others(tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tables = await computers_due(service, clock, 3)
        broken = tables[1]
        table = service.tables[broken]
        table.bots[table.game.to_move] = Broken()  # type: ignore[assignment]
        before = {tid: await moves(service, tid) for tid in tables}
        turn = table.game.turn
        out = await service.tick()
        assert not [m for m in out if m.table == broken]
        assert await moves(service, broken) == before[broken] and table.game.turn == turn
        for tid in (tables[0], tables[2]):
            assert await moves(service, tid) == before[tid] + 1
            assert any(m.kind == "table" and m.table == tid for m in out)
        del table.bots[table.game.to_move]  # mended: the next tick plays it
        await service.tick()
        assert await moves(service, broken) == before[broken] + 1
    run(with_service(tmp_path / "db.sqlite", body, ai_delay=5, clock=clock))


def test_the_console_finds_the_table_a_command_without_a_number_means(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        out = io.StringIO()
        chat = ConsoleChat(service, out, None)
        chat.user = ALICE
        await chat.handle("/start classic players=2 ai=1")  # table 1, playing at once
        await chat.handle("/start classic players=3")  # table 2, a lobby: the last one shown
        assert chat.last_table == 2
        await chat.handle("/hand")  # the game, not the lobby
        assert "Your hand at table #1." in out.getvalue()
        await chat.handle("/begin")  # the lobby
        assert service.tables[2].row.status == "playing"

    run(with_service(tmp_path / "db.sqlite", body))
