"""The table service's events (issue 38): subscribers hear what happened at the tables, and a
subscriber that raises is logged without stopping the others or losing the messages made.

Real parts: a real SQLite file, the real service and its tournaments; the failing subscriber
is the only thing added."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from bot.service.events import (
    EventBus,
    GameFinished,
    MovePlayed,
    SeatLeft,
    TableOpened,
    TickRan,
)
from bot.service.guard import Where
from bot.service.messages import Message
from bot.service.service import Service, User
from tests.service_helpers import (
    CHANNEL,
    SCOPE,
    Clock,
    button,
    errors,
    run,
    table_id,
    with_service,
)

HERE = Where(CHANNEL, SCOPE)
ANN, BEA = User("test:ann", "ann"), User("test:bea", "bea")
SECRET = "tiles [6|6] of somebody"


async def _raise(event: Any) -> list[Message]:
    raise RuntimeError(SECRET)


def test_a_raising_subscriber_is_logged_and_the_others_still_run(caplog: Any) -> None:
    bus = EventBus()
    heard: list[str] = []

    async def one(event: TickRan) -> list[Message]:
        heard.append("one")
        return [Message("c", "one")]

    async def three(event: TickRan) -> None:
        heard.append("three")

    bus.subscribe(TickRan, one)
    bus.subscribe(TickRan, _raise)
    bus.subscribe(TickRan, three)
    bus.subscribe(TickRan, lambda e: asyncio.sleep(0, [Message("c", "zero")]), first=True)
    with caplog.at_level(logging.ERROR):
        out = asyncio.run(bus.publish(TickRan(1.0)))
    assert [m.text for m in out] == ["zero", "one"]
    assert heard == ["one", "three"]
    failed = [r.getMessage() for r in caplog.records if "subscriber" in r.getMessage()]
    assert len(failed) == 1 and "RuntimeError" in failed[0] and "_raise" in failed[0]
    assert SECRET not in caplog.text  # the exception's words may be private: never logged
    assert asyncio.run(bus.publish(GameFinished(None))) == []  # type: ignore[arg-type]
    bus.unsubscribe(TickRan, _raise)
    assert asyncio.run(bus.publish(TickRan(2.0))) and heard[-1] == "three"


def test_the_tables_say_what_happened(tmp_path: Path) -> None:
    """A table opened, its moves, a seat left, its end: each event once, in order."""
    heard: list[tuple[str, int]] = []

    async def body(service: Service) -> None:
        for kind in (TableOpened, MovePlayed, SeatLeft, GameFinished):
            async def note(event: Any, kind: type = kind) -> None:
                heard.append((kind.__name__, event.table.id))
            service.events.subscribe(kind, note)
        tid = table_id(await service.open_table(ANN, CHANNEL, SCOPE, "classic",
                                                options="players=2 ai=1"))
        assert heard[0] == ("TableOpened", tid)
        await service.leave(ANN, tid)  # the computer plays her seat: the game plays out
        # (here inside the call: computers answer at once; her leaving is told after)
        for _ in range(200):
            if tid not in service.tables:
                break
            await service.tick()
        assert tid not in service.tables
        names = [name for name, t in heard if t == tid]
        assert names.count("TableOpened") == 1 and names.count("SeatLeft") == 1
        # the last move is committed with the result: the end is heard, then that move
        assert [n for n in names if n != "SeatLeft"][-2:] == ["GameFinished", "MovePlayed"]
        assert names.count("MovePlayed") >= 2

    run(with_service(tmp_path / "db.sqlite", body, default_timer=None))


def test_a_raising_subscriber_loses_no_message_of_a_tournaments_tick(tmp_path: Path,
                                                                      caplog: Any) -> None:
    """A one-round tournament whose players both leave their game: the computers play it on
    the ticks.  A subscriber that raises on every event, subscribed before the tournaments,
    takes nothing away: each tick's computer moves are said, the tournament records the
    game's end and says its standings and podium, and a subscriber after it is told too."""
    clock = Clock()
    ticks: list[float] = []

    async def after(event: TickRan) -> list[Message]:
        ticks.append(event.now)
        return [Message(CHANNEL, "after the raiser", kind="info")]

    async def body(service: Service) -> None:
        for kind in (TickRan, GameFinished, SeatLeft, MovePlayed):
            service.events.subscribe(kind, _raise, first=True)
        service.events.subscribe(TickRan, after)
        out = await service.open_tournament(ANN, CHANNEL, SCOPE, "swiss rounds=1 seats=2 "
                                            "classic", is_admin=True, where=HERE)
        ann = out[0]
        for u in (ANN, BEA):
            assert not errors(await service.press(u, button(ann, "Register"), where=HERE))
        out = await service.start_tournament(ANN, 1, where=HERE)
        assert not errors(out) and "round 1 of 1" in out[0].text
        tid = next(m.table for m in out if m.table is not None)
        for u in (ANN, BEA):
            assert not errors(await service.join(u, tid, where=HERE))
        for u in (ANN, BEA):
            out = await service.leave(u, tid, where=HERE)
            assert not errors(out) and any("dropped" in m.text for m in out), out
        said: list[str] = []
        for _ in range(300):
            clock.now += 2
            out = await service.tick()
            texts = [m.text for m in out]
            assert texts[-1] == "after the raiser"
            if tid in service.tables or any(m.table == tid for m in out):
                assert any(m.table == tid for m in out), texts  # the computers' moves
            said += texts
            if any("Podium" in s for s in said):
                break
        assert tid not in service.tables
        assert any("final standings" in s for s in said), said
        assert any("Podium" in s for s in said), said
        row = await service.store.tournament(1)
        assert row is not None and row.status == "finished"

    with caplog.at_level(logging.ERROR):
        run(with_service(tmp_path / "db.sqlite", body, clock=clock, ai_delay=1,
                         default_timer=None))
    assert len(ticks) >= 2
    failed = [r.getMessage() for r in caplog.records if "subscriber" in r.getMessage()]
    assert any(f.startswith("event TickRan") for f in failed)
    assert any(f.startswith("event GameFinished") for f in failed)
    assert SECRET not in caplog.text
