"""Tournaments' loose ends (issue 31): the final places written even when the process that
finished the tournament died before writing them; the private standings while a round is
under way say the rounds that are over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.service.service import Service
from bot.storage import Store
from bot.storage.backends import open_store
from tests.service_helpers import Clock, run, with_service
from tests.test_service_tournaments import (
    HERE,
    ORGANISER,
    PLAYERS,
    open_swiss,
    play_round,
    register_all,
)


def test_a_finished_tournament_without_its_places_gets_them_at_the_tick(tmp_path: Path
                                                                        ) -> None:
    path = tmp_path / "db.sqlite"
    clock = Clock()
    saved: dict[str, Any] = {}

    async def dies_before_the_places(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        await play_round(service, tid)

        async def killed(*args: object) -> None:  # the process dies between the two writes
            raise RuntimeError("killed")

        store: Any = service.store
        store.save_tournament_places = killed
        await service.tick()
        row = await service.store.tournament(tid)
        assert row is not None and row.status == "finished"
        assert await service.store.tournament_places(PLAYERS[0].id) == []
        saved["tid"] = tid

    async def restarted(service: Service) -> None:
        await service.tick()
        places = {u.id: await service.store.tournament_places(u.id) for u in PLAYERS[:4]}
        assert {u: [(p.tournament_id, p.entrants) for p in got]
                for u, got in places.items()} == {u.id: [(saved["tid"], 4)]
                                                  for u in PLAYERS[:4]}
        assert sorted(got[0].place for got in places.values()) == [1, 2, 3, 4]

    run(with_service(path, dies_before_the_places, clock=clock, default_timer=None))
    run(with_service(path, restarted, clock=clock, default_timer=None))


def test_a_live_process_repairs_the_places_of_a_process_that_died(tmp_path: Path) -> None:
    """Another process, already running, finds the missing places too (within a while)."""
    path = tmp_path / "db.sqlite"
    clock = Clock()

    async def body(service: Service) -> None:
        other = Service(await Store.open(path), ai_delay=0, seed=2, clock=clock,
                        default_timer=None)
        try:
            await other.start()
            await other.tick()  # the other process is running, nothing to repair yet
            tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic")
            await register_all(service, ann, PLAYERS[:4])
            await service.start_tournament(ORGANISER, tid, where=HERE)
            await play_round(service, tid)

            async def killed(*args: object) -> None:
                raise RuntimeError("killed")

            store: Any = service.store
            store.save_tournament_places = killed
            await service.tick()
            assert await other.store.tournament_places(PLAYERS[0].id) == []
            clock.now += 3600
            await other.tick()
            assert [p.tournament_id for p in
                    await other.store.tournament_places(PLAYERS[0].id)] == [tid]
        finally:
            await other.store.close()

    run(with_service(path, body, clock=clock, default_timer=None))


def test_the_standings_asked_while_a_round_is_played_are_those_after_the_last_round_over(
        tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=2 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        asked = await service.tournament_standings(PLAYERS[1], tid, where=HERE)
        assert asked[0].text == f"Tournament #{tid}: no round is over yet."
        await service.start_tournament(ORGANISER, tid, where=HERE)
        asked = await service.tournament_standings(PLAYERS[1], tid, where=HERE)
        assert asked[0].text == f"Tournament #{tid}: no round is over yet."
        await play_round(service, tid)
        said = await service.tick()  # round 1's standings, round 2 opens
        public = next(m.text for m in said if "standings after round 1" in m.text)
        asked = await service.tournament_standings(PLAYERS[1], tid, where=HERE)
        assert asked[0].text == public  # round 2 under way: still after round 1
        await play_round(service, tid)
        said = await service.tick()
        public = next(m.text for m in said if "final standings" in m.text)
        asked = await service.tournament_standings(PLAYERS[1], tid, where=HERE)
        assert asked[0].text == public

    run(with_service(tmp_path / "db.sqlite", body, clock=clock, default_timer=None))


def test_a_round_half_opened_by_a_process_that_died_is_completed_at_the_restart(
        tmp_path: Path) -> None:
    """A process dies while it opens a round's tables; the restarted process, alone on the
    database, completes the round at once (not a minute later: the claim is a dead
    process's) and opens no table twice."""
    path = tmp_path / "db.sqlite"
    clock = Clock()
    saved: dict[str, Any] = {}

    async def dies_while_opening(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        store: Any = service.store
        real = store.create_table
        made: list[int] = []

        async def create_table(row: Any, **kw: Any) -> int:
            if made:
                raise RuntimeError("killed")  # the process dies before the second table
            made.append(await real(row, **kw))
            return made[-1]

        store.create_table = create_table
        await service.start_tournament(ORGANISER, tid, where=HERE)  # the door logs it
        assert len(await service.store.tournament_tables(tid, 1)) == 1
        saved["tid"] = tid

    async def restarted(service: Service) -> None:
        tid = saved["tid"]
        out = await service.tick()
        opened = await service.store.tournament_tables(tid, 1)
        assert len(opened) == 2
        assert [m.text.splitlines()[0] for m in out if "round 1" in m.text] == [
            f"Tournament #{tid}, round 1 of 1:"]
        assert not [m for m in await service.tick() if "round" in m.text]  # once
        assert len(await service.store.tables(("lobby", "playing"))) == 2
        await play_round(service, tid)
        assert any("Podium" in m.text for m in await service.tick())

    run(with_service(path, dies_while_opening, clock=clock, default_timer=None))
    clock.now += 1  # the restart comes later than the claim
    run(with_service(path, restarted, clock=clock, default_timer=None))


def test_the_store_names_the_finished_tournaments_without_places(db_target: str | Path
                                                                  ) -> None:
    async def main() -> None:
        store = await open_store(db_target)  # SQLite and PostgreSQL
        try:
            done = await store.create_tournament("s", "c", "u", "finished", "{}", 1.0)
            await store.create_tournament("s", "c", "u", "running", "{}", 1.0)
            placed = await store.create_tournament("s", "c", "u", "finished", "{}", 1.0)
            await store.save_tournament_places(placed, [("a", 1), ("b", 2)], 5.0)
            assert [r.id for r in await store.unplaced_tournaments()] == [done]
            await store.save_tournament_places(done, [("a", 2), ("b", 1)], 6.0)
            assert await store.unplaced_tournaments() == []
        finally:
            await store.close()

    run(main())


def test_a_round_table_and_its_link_are_written_together(db_target: str | Path) -> None:
    """A tournament's table is stored with its link to the round in one transaction: a link
    that cannot be written (here: the round's table number taken) leaves no table behind,
    which no round would know (SQLite and PostgreSQL)."""
    from bot.storage import SeatRow, TableRow

    async def main() -> None:
        store = await open_store(db_target)
        try:
            tid = await store.create_tournament("s", "c", "u", "running", "{}", 1.0)

            def lobby() -> TableRow:
                return TableRow(0, "c", "s", "", "classic", {}, 2, None, "lobby", 1, "en", 1.0,
                                seats=[SeatRow(0, None, "Open"), SeatRow(1, None, "Open")])

            first = await store.create_table(lobby(), tournament=(tid, 1, 1))
            assert await store.tournament_tables(tid, 1) == {1: first}
            assert await store.table_tournament(first) == (tid, 1, 1)
            before = len(await store.tables(("lobby",)))
            with pytest.raises(Exception):  # noqa: B017 (each backend's integrity error)
                await store.create_table(lobby(), tournament=(tid, 1, 1))
            assert len(await store.tables(("lobby",))) == before  # rolled back
            assert await store.tournament_tables(tid, 1) == {1: first}
        finally:
            await store.close()

    run(main())
