"""Tournaments through the service (issue 31): open, register by button, rounds opened by
themselves, results from the tables' ends, standings, podium, restart, scope, no-shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.service.guard import Where
from bot.service.messages import Message
from bot.service.service import Service, User
from bot.tournament import Tournament
from tests.service_helpers import (
    CHANNEL,
    SCOPE,
    Clock,
    button,
    errors,
    press_a_legal_tile,
    run,
    with_service,
)

HERE = Where(CHANNEL, SCOPE)
PLAYERS = [User(f"test:p{i}", f"p{i}") for i in range(1, 9)]
ORGANISER = PLAYERS[0]


async def open_swiss(service: Service, text: str = "swiss rounds=3 seats=2 classic fill=on"
                     ) -> tuple[int, Message]:
    out = await service.open_tournament(ORGANISER, CHANNEL, SCOPE, text, is_admin=True,
                                        where=HERE)
    assert not errors(out), errors(out)
    ann = out[0]
    tid = int(ann.text.split("#", 1)[1].split(":", 1)[0])
    return tid, ann


async def register_all(service: Service, ann: Message, users: list[User]) -> None:
    for u in users:
        out = await service.press(u, button(ann, "Register"), where=HERE)
        assert not errors(out), errors(out)


def state(service: Service, tid: int) -> Any:
    async def read() -> Any:
        return await service.store.tournament(tid)
    return read()


async def round_tables(service: Service, tid: int) -> dict[int, int]:
    row = await service.store.tournament(tid)
    assert row is not None
    import json
    n = len(json.loads(row.state)["t"]["rounds"])
    return await service.store.tournament_tables(tid, n)


async def play_round(service: Service, tid: int, clock: Clock) -> None:
    """Every player joins their table; at each, the player registered later leaves the game
    at once (and so loses it); the other plays it to its end against the computer."""
    by_id = {u.id: u for u in PLAYERS}
    tables = await round_tables(service, tid)
    for table_id in tables.values():
        table = service.tables[table_id]
        seated = [uid for uid, _ in table.reserved.values()]
        for uid in seated:
            assert not errors(await service.join(by_id[uid], table_id, where=HERE))
        assert service.tables[table_id].row.status == "playing"
        loser = max(seated, key=lambda u: int(u.removeprefix("test:p")))
        await service.leave(by_id[loser], table_id, where=HERE)
        for _ in range(500):
            live = service.tables.get(table_id)
            if live is None:
                break
            seat = live.game.to_move
            if live.is_ai(seat):
                await service.tick()
            else:
                await press_a_legal_tile(service, table_id, by_id[live.row.seats[seat].user_id])
        assert table_id not in service.tables


def test_a_swiss_of_eight_finishes_with_correct_standings(tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service)
        await register_all(service, ann, PLAYERS)
        out = await service.press(ORGANISER, button(ann, "Start"), where=HERE)
        assert not errors(out)
        assert "round 1 of 3" in out[0].text
        said: list[str] = []
        for _ in range(3):
            await play_round(service, tid, clock)
            said += [m.text for m in await service.tick()]
        row = await service.store.tournament(tid)
        assert row is not None and row.status == "finished"
        import json
        tour = Tournament.from_dict(json.loads(row.state)["t"])
        points = sorted((s.points for s in tour.standings()), reverse=True)
        assert points == [3, 2, 2, 2, 1, 1, 1, 0]  # the earlier registered always won
        assert tour.standings()[0].entrant == "test:p1"
        assert tour.standings()[-1].entrant == "test:p8"
        final = next(s for s in said if "final standings" in s)
        assert final.splitlines()[1].startswith("1. p1: 3 pts (Buchholz")
        assert any("Podium" in s and "🥇 p1" in s for s in said)

    run(with_service(tmp_path / "db.sqlite", body, clock=clock, default_timer=None))
