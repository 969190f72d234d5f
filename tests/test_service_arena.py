"""An arena through the service (issue 31): free players paired again while other tables
play on, the wait before an immediate rematch, each wave's round clock, the end at its time
(no new game, the games under way count), standings, a restart and two processes."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.service.messages import Message
from bot.service.service import Service
from bot.storage.backends import open_store
from bot.tournament import Tournament
from bot.tournament.arena import WAIT
from tests.service_helpers import Clock, RecordingPictures, button, errors, run, with_service
from tests.test_service_tournaments import (
    HERE,
    ORGANISER,
    PLAYERS,
    final,
    open_swiss,
    play_table,
    register_all,
    seat_all,
)


async def open_arena(service: Service, text: str, players: int) -> int:
    tid, ann = await open_swiss(service, f"arena seats=2 classic {text}")
    await register_all(service, ann, PLAYERS[:players])
    assert not errors(await service.press(ORGANISER, button(ann, "Start"), where=HERE))
    return tid


async def state(service: Service, tid: int) -> tuple[str, Tournament]:
    row = await service.store.tournament(tid)
    assert row is not None
    return row.status, Tournament.from_dict(json.loads(row.state)["t"])


async def wave(service: Service, tid: int, k: int) -> dict[frozenset[str], int]:
    """Wave k's tables: their players (as "p1", ...) -> the table's id."""
    _, tour = await state(service, tid)
    opened = await service.store.tournament_tables(tid, k)
    return {frozenset(e.removeprefix("test:") for e in tb.entrants()): opened[no]
            for no, tb in enumerate(tour.rounds[k - 1].tables, 1)}


def said(out: list[Message], text: str) -> bool:
    return any(text in m.text for m in out)


def points(tour: Tournament) -> dict[str, float]:
    return {s.entrant.removeprefix("test:"): s.points for s in tour.standings()}


def pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def test_an_arena_repairs_the_free_players_while_a_slow_table_plays(db_target: str | Path) -> None:
    clock = Clock()
    start = clock.now

    async def body(service: Service) -> None:
        tid = await open_arena(service, "minutes=10", 6)
        first = await wave(service, tid, 1)
        assert set(first) == {pair("p1", "p2"), pair("p3", "p4"), pair("p5", "p6")}
        slow = first[pair("p5", "p6")]
        await seat_all(service, slow)  # a slow game: under way all along
        await play_table(service, first[pair("p1", "p2")])  # p1 wins
        await play_table(service, first[pair("p3", "p4")])  # p3 wins
        out = await service.tick()
        assert said(out, f"Tournament #{tid}, round 2:")
        second = await wave(service, tid, 2)  # the free ones, by score, no rematch
        assert set(second) == {pair("p1", "p3"), pair("p2", "p4")}
        assert service.tables[slow].row.status == "playing"

        await play_table(service, second[pair("p1", "p3")])  # p1 wins again
        await seat_all(service, second[pair("p2", "p4")])
        assert not said(await service.tick(), "round 3")  # p1 and p3 just met: they wait
        clock.now += WAIT / 2
        assert not said(await service.tick(), "round 3")
        clock.now += WAIT / 2 + 1  # nobody else came free: they meet again
        assert said(await service.tick(), f"Tournament #{tid}, round 3:")
        (late,) = (await wave(service, tid, 3)).values()

        clock.now = start + 600  # the time is up: no new game, the lobby is called off
        out = await service.tick()
        assert said(out, "time is up") and said(out, f"Table #{late} is closed")
        assert late not in service.tables
        await play_table(service, slow)  # a game under way at the end still counts: p5 wins
        out = await service.tick()
        assert not said(out, "round 4") and not said(out, "Podium")
        await play_table(service, second[pair("p2", "p4")])  # the last game: p2 wins
        out = await service.tick()
        assert said(out, "final standings") and said(out, "Podium:\n🥇 p1")
        tour = await final(service, tid)
        assert len(tour.rounds) == 3
        assert points(tour) == {"p1": 2, "p2": 1, "p3": 1, "p5": 1, "p4": 0, "p6": 0}
        called_off = tour.rounds[2].tables[0]
        assert sorted(called_off.no_shows) == ["test:p1", "test:p3"]
        row = await service.store.get_table(late)
        assert row is not None and row.status == "stopped"
        assert not said(await service.tick(), "round")

    run(with_service(db_target, body, clock=clock, default_timer=None))


def test_an_arena_says_how_long_it_lasts_and_how_long_is_left(db_target: str | Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        _, ann = await open_swiss(service, "arena seats=2 classic minutes=30")
        assert "Lasts 30 minutes: players are paired again as soon as they are free." in ann.text
        tid = await open_arena(service, "minutes=30", 4)
        clock.now += 5 * 60 + 1
        (asked,) = await service.tournament_standings(PLAYERS[1], tid, where=HERE)
        assert asked.text.startswith(f"Tournament #{tid}: standings, 25 minutes left\n")

    run(with_service(db_target, body, clock=clock, default_timer=None))


def test_an_arena_posts_its_standings_every_ten_minutes(db_target: str | Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid = await open_arena(service, "minutes=30", 4)
        for table in (await wave(service, tid, 1)).values():
            await play_table(service, table)
        out = await service.tick()
        assert said(out, "round 2:") and not said(out, "standings")
        for table in (await wave(service, tid, 2)).values():
            await play_table(service, table)
        clock.now += 601
        out = await service.tick()
        assert said(out, f"Tournament #{tid}: standings, 20 minutes left\n1. p1: 2 points")
        assert said(out, "round 3:")

    run(with_service(db_target, body, clock=clock, default_timer=None))


def test_each_wave_has_its_round_clock_and_a_no_show_is_not_paired_again(
        tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid = await open_arena(service, "minutes=30 clock=60", 4)
        first = await wave(service, tid, 1)
        await play_table(service, first[pair("p1", "p2")])  # p1 wins
        assert not errors(await service.join(PLAYERS[2], first[pair("p3", "p4")], where=HERE))
        clock.now += 61  # p4 never came: forfeits, and is not paired again
        out = await service.tick()
        assert said(out, "p4 did not come to their table and is no longer paired")
        assert said(out, "round 2:")
        (second,) = (await wave(service, tid, 2)).values()
        assert set(await wave(service, tid, 2)) == {pair("p1", "p3")}
        _, tour = await state(service, tid)
        assert points(tour)["p3"] == 1 and tour.entrants["test:p4"].dropped is not None
        clock.now += 61  # wave 2's own clock: nobody came
        out = await service.tick()
        assert said(out, f"Table #{second} is closed") and said(out, "p1, p3 did not come")
        out = await service.tick()  # p2 is left alone: the arena is over
        assert said(out, "Podium")
        tour = await final(service, tid)
        assert points(tour) == {"p1": 1, "p3": 1, "p2": 0, "p4": 0}

    run(with_service(tmp_path / "db.sqlite", body, clock=clock, default_timer=None))


async def on_backend(target: Path | str, body: Callable[[Service], Awaitable[Any]],
                     clock: Clock) -> None:
    """`with_service` on either backend (a SQLite file or a PostgreSQL URL)."""
    store = await open_store(target)
    try:
        service = Service(store, pictures=RecordingPictures(), ai_delay=0, seed=1, clock=clock,
                          default_timer=None)
        await service.start()
        await body(service)
    finally:
        await store.close()


def test_an_arena_restarted_in_its_middle_loses_nothing_and_pairs_once(
        db_target: Path | str) -> None:
    clock = Clock()
    start = clock.now
    saved: dict[str, Any] = {}

    async def first(service: Service) -> None:
        tid = await open_arena(service, "minutes=10", 4)
        tables = await wave(service, tid, 1)
        await seat_all(service, tables[pair("p3", "p4")])
        await play_table(service, tables[pair("p1", "p2")])  # p1 wins; p1 and p2 wait
        assert not said(await service.tick(), "round 2")
        saved.update(tid=tid, slow=tables[pair("p3", "p4")])

    async def second(service: Service) -> None:
        tid = saved["tid"]
        assert service.tables[saved["slow"]].row.status == "playing"
        other = Service(service.store, pictures=RecordingPictures(), ai_delay=0, seed=2,
                        clock=clock, default_timer=None)  # a second process
        await other.start()
        assert not said(await service.tick() + await other.tick(), "round 2")
        clock.now += WAIT + 1  # the wait began before the restart
        out = await other.tick() + await service.tick() + await other.tick()
        assert [m.text.splitlines()[0] for m in out if "round 2" in m.text] == [
            f"Tournament #{tid}, round 2:"]
        assert set(await wave(service, tid, 2)) == {pair("p1", "p2")}

    async def third(service: Service) -> None:  # restarted with wave 2's lobby open
        tid = saved["tid"]
        (rematch,) = (await wave(service, tid, 2)).values()
        assert not said(await service.tick(), "round")
        await seat_all(service, rematch)
        clock.now = start + 600
        assert said(await service.tick(), "time is up")
        await play_table(service, saved["slow"])  # p3 wins
        await play_table(service, rematch)  # p1 wins
        assert said(await service.tick(), "Podium")
        tour = await final(service, tid)
        assert points(tour) == {"p1": 2, "p3": 1, "p2": 0, "p4": 0}

    for body in (first, second, third):
        run(on_backend(db_target, body, clock))
