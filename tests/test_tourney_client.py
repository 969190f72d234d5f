"""Tournaments as a client of the table service (issue 38), built alone from real parts.

No facade: the table service's parts made by hand, each given what it uses (the state on a
throwaway SQLite file, the results, the play, the clock, the lobby), and a `Tournaments`
made on a `Desk` of them and subscribed to the state's events.  The tournament
opens its tables through the desk, hears of their ends and leavers by events, and its tick
runs after the tables' tick: a Swiss of one round, played out by the computers after both
players leave, ends with its standings and podium."""

from __future__ import annotations

import json
from pathlib import Path

from bot.service.clock import Clock as TableClock
from bot.service.desk import Desk
from bot.service.lobby import Lobby
from bot.service.play import Play
from bot.service.results import Results
from bot.service.state import State, User
from bot.storage import open_store
from bot.tournament import Tournament
from bot.tournament.commands import Tournaments
from tests.service_helpers import CHANNEL, SCOPE, Clock, errors, run

ANN, BEA = User("test:ann", "ann"), User("test:bea", "bea")


def test_a_tournament_runs_on_the_table_service_through_its_desk(tmp_path: Path) -> None:
    async def body() -> None:
        store = await open_store(tmp_path / "db.sqlite")
        try:
            clock = Clock()
            tables = State(store, ai_delay=1, seed=2, default_timer=None, clock=clock)
            results = Results(tables)
            play = Play(tables, results)
            ticks, lobby = TableClock(tables, play, results), Lobby(tables, play, results)
            tours = Tournaments(Desk(tables, results))
            tours.subscribe()
            assert await ticks.start() == []
            out = await tours.open_tournament(ANN, CHANNEL, SCOPE, "swiss rounds=1 seats=2 "
                                              "classic", is_admin=True)
            assert not errors(out) and "#1" in out[0].text
            for u in (ANN, BEA):
                assert not errors(await tours.register(u, 1))
            out = await tours.start_tournament(ANN, 1)
            assert not errors(out) and "round 1 of 1" in out[0].text
            tid = next(m.table for m in out if m.table is not None)
            opened = tables.tables[tid]  # opened through the desk: a lobby the tables serve
            assert sorted(uid for uid, _ in opened.reserved.values()) == [ANN.id, BEA.id]
            for u in (ANN, BEA):
                assert not errors(await lobby.join(u, tid))
            assert tables.tables[tid].row.status == "playing"
            for u in (ANN, BEA):  # the tables' leave: the tournament hears it (SeatLeft)
                out = await lobby.leave(u, tid)
                assert any("dropped from tournament #1" in m.text for m in out), out
            said: list[str] = []
            for _ in range(300):
                clock.now += 2
                said += [m.text for m in await ticks.tick()]
                if any("Podium" in s for s in said):
                    break
            assert tid not in tables.tables
            assert any("final standings" in s for s in said), said
            row = await store.tournament(1)
            assert row is not None and row.status == "finished"
            tour = Tournament.from_dict(json.loads(row.state)["t"])
            assert tour.rounds[0].tables[0].done  # its end recorded (GameFinished)
            assert await store.table_tournament(tid) == (1, 1, 1)
        finally:
            await store.close()

    run(body())
