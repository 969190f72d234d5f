"""Two bot processes on one PostgreSQL database (tests/multiprocess_driver.py): the same
presses sent to both apply each move once, as one process would; computer moves and timers
fire once; a process killed mid-game leaves the other serving, and comes back without loss."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
from service_helpers import ALICE, BOB, CHANNEL, SCOPE, errors, hand_message, table_id

from bot.service.pictures import NoPictures
from bot.service.service import Service
from bot.storage import PostgresStore

ROOT = Path(__file__).resolve().parent.parent
DRIVER = str(ROOT / "tests" / "multiprocess_driver.py")
TABLES = 6


def _env(part: int = 0) -> dict[str, str]:
    """The drivers' environment; `part`: which process this is (see the driver's presses)."""
    return {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}",
            "DOMINO_TEST_PART": str(part)}


async def _open_tables(url: str, options: str, ai_delay: float = 0.0) -> list[int]:
    """alice and bob (and a computer) at TABLES classic tables, started."""
    store = await PostgresStore.open(url)
    try:
        service = Service(store, pictures=NoPictures(), ai_delay=ai_delay, seed=5)
        ids = []
        for _ in range(TABLES):
            tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                    options=options))
            await service.join(BOB, tid)
            await service.begin(ALICE, tid)
            ids.append(tid)
        return ids
    finally:
        await store.close()


async def _reference(url: str, presses_per_table: int) -> tuple[dict[str, list[list[str]]],
                                                                dict[int, list[str]]]:
    """One process plays the tables: the presses it made, per table, and the move logs."""
    ids = await _open_tables(url, "players=3 ai=1")
    store = await PostgresStore.open(url)
    try:
        service = Service(store, pictures=NoPictures(), ai_delay=0, seed=5)
        await service.start()
        users = {ALICE.id: ALICE, BOB.id: BOB}
        streams: dict[str, list[list[str]]] = {str(t): [] for t in ids}
        for _ in range(presses_per_table):
            for tid in ids:
                table = service.tables.get(tid)
                if table is None:
                    continue
                user = users[table.row.seats[table.game.to_move].user_id or ""]
                hand = hand_message(await service.hand(user, tid), user)
                assert hand is not None
                data = next(a.data for a in hand.actions if a.enabled)
                replies = await service.press(user, data)
                streams[str(tid)].append([user.id, data])
                if ":e:" in data:
                    data = replies[0].actions[0].data
                    replies = await service.press(user, data)
                    streams[str(tid)].append([user.id, data])
                assert not [m for m in replies if m.kind == "error"]
        return streams, {t: await store.moves(t) for t in ids}
    finally:
        await store.close()


async def _logs(url: str) -> dict[int, list[tuple[int, int, str]]]:
    con = await asyncpg.connect(url)
    try:
        rows = await con.fetch("SELECT table_id, turn, seat, move FROM moves "
                               "ORDER BY table_id, turn")
    finally:
        await con.close()
    out: dict[int, list[tuple[int, int, str]]] = {}
    for t, turn, seat, move in rows:
        out.setdefault(t, []).append((turn, seat, move))
    return out


def _summary(stdout: str) -> tuple[dict[str, Any], list[tuple[int, int, int]]]:
    lines = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    moves = [tuple(x["move"]) for x in lines if "move" in x]
    summaries = [x["summary"] for x in lines if "summary" in x]
    return (summaries[0] if summaries else {}), moves  # type: ignore[return-value]


def test_two_processes_apply_the_same_presses_once(pg_url: str, tmp_path: Path) -> None:
    from tests.pg_cluster import fresh_database

    reference_url = fresh_database(pg_url)
    streams, expected = asyncio.run(_reference(reference_url, 25))
    assert sum(len(s) for s in streams.values()) > 60
    asyncio.run(_open_tables(pg_url, "players=3 ai=1"))
    before = asyncio.run(_logs(pg_url))  # the computers' moves when the games began
    path = tmp_path / "presses.json"
    path.write_text(json.dumps(streams))
    procs = _started(pg_url, 2, "presses", str(path))  # both start pressing at once
    results = [p.communicate(timeout=240) for p in procs]
    for p, (out, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, out + err
    summaries = [_summary(out) for out, _ in results]
    assert all(s["exceptions"] == [] for s, _ in summaries)
    committed = [m for _, moves in summaries for m in moves]
    assert len(committed) == len(set(committed))  # no move committed by both
    logs = asyncio.run(_logs(pg_url))
    assert {t: [m for _, _, m in log] for t, log in logs.items()} == expected
    assert len(committed) == sum(map(len, logs.values())) - sum(map(len, before.values()))
    # both processes were busy: each applied some of the moves, and refused presses
    # the other had applied first
    assert all(moves for _, moves in summaries)
    assert all(s["errors"] > 0 for s, _ in summaries)


def _start_tickers(url: str, seconds: float, n: int = 2) -> list[subprocess.Popen[str]]:
    return _started(url, n, "ticks", str(seconds), "0.2")


def _started(url: str, n: int, *args: str) -> list[subprocess.Popen[str]]:
    """`n` driver processes, each told to go once every one of them is ready."""
    procs = [subprocess.Popen([sys.executable, DRIVER, url, *args],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=_env(k))
             for k in range(n)]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    return procs


def test_computer_moves_and_timers_fire_once(pg_url: str) -> None:
    asyncio.run(_open_tables(pg_url, "players=3 ai=1 timer=1", ai_delay=0.2))
    before = asyncio.run(_logs(pg_url))
    procs = _start_tickers(pg_url, 4.0)
    results = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, out + err
    summaries = [_summary(out) for out, _ in results]
    committed = [m for _, moves in summaries for m in moves]
    assert len(committed) == len(set(committed))
    logs = asyncio.run(_logs(pg_url))
    new = {(t, turn, seat) for t, log in logs.items() for turn, seat, _ in log
           if turn >= len(before.get(t, []))}
    assert new == set(committed)  # every move logged was made by one process, once
    said: Counter[str] = Counter()
    for s, _ in summaries:
        said.update(s["said"])
    for t, log in logs.items():
        played_for_humans = sum(1 for turn, seat, _ in log
                                if turn >= len(before.get(t, [])) and seat in (0, 1))
        assert played_for_humans >= 1  # the timers did fire
        assert said[f"{t}:ran out of time"] == played_for_humans
        # each warning said once, whichever process ticks: at most one per timer that ran
        # out, and one more for the turn under way; a tick that comes only after the deadline
        # (a loaded machine: the timer is 1 s) plays at once without a warning first
        warned = said[f"{t}:seconds left to play"]
        assert 1 <= warned <= played_for_humans + 1
    assert sum(1 for *_, seat in committed if seat == 2) >= TABLES  # computer moves too


def test_a_killed_process_leaves_the_other_serving_and_resumes(pg_url: str) -> None:
    asyncio.run(_open_tables(pg_url, "players=3 ai=1 timer=1", ai_delay=0.2))
    first, second = _start_tickers(pg_url, 6.0)
    time.sleep(1.5)
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert first.stdout is not None
    _, acknowledged = _summary(first.stdout.read())
    at_kill = asyncio.run(_logs(pg_url))
    time.sleep(2.0)
    later = asyncio.run(_logs(pg_url))
    assert sum(map(len, later.values())) > sum(map(len, at_kill.values()))  # still served
    # the restarted process outlives the other, so it serves alone at the end (beside it,
    # it is quiet and may lose every race for the due tables)
    [again] = _start_tickers(pg_url, 4.0, n=1)
    out_again, err_again = again.communicate(timeout=120)
    out_second, err_second = second.communicate(timeout=120)
    assert again.returncode == 0 and second.returncode == 0, err_again + err_second
    _, resumed = _summary(out_again)
    _, served = _summary(out_second)
    logs = asyncio.run(_logs(pg_url))
    logged = {(t, turn, seat) for t, log in logs.items() for turn, seat, _ in log}
    assert set(acknowledged) <= logged  # nothing the killed process committed was lost
    assert resumed  # the restarted process plays again
    assert len(set(acknowledged) | set(resumed) | set(served)) == (
        len(acknowledged) + len(resumed) + len(served))
    for log in logs.values():
        assert [turn for turn, _, _ in log] == list(range(len(log)))


@asynccontextmanager
async def _two_services(url: str) -> AsyncIterator[tuple[Service, Service]]:
    """Two services with their own connections to one database, as two processes."""
    one, two = await PostgresStore.open(url), await PostgresStore.open(url)
    try:
        yield (Service(one, pictures=NoPictures(), ai_delay=0, seed=5, default_timer=None),
               Service(two, pictures=NoPictures(), ai_delay=0, seed=6, default_timer=None))
    finally:
        await one.close()
        await two.close()


def test_a_table_opened_in_one_process_is_served_by_another(pg_url: str) -> None:
    """Two services with their own connections (as two processes): B seats bob at A's
    lobby, shows his hand and plays his turn; a button B showed is refused after A moved."""
    from service_helpers import errors

    async def main() -> None:
        async with _two_services(pg_url) as (a, b):
            tid = table_id(await a.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                              options="players=2"))
            assert not errors(await b.join(BOB, tid))  # B never saw the table
            assert not errors(await a.begin(ALICE, tid))  # A learns bob sat down
            users = {0: ALICE, 1: BOB}
            for _ in range(6):  # each player moves through the process that did not
                game = a.tables[tid].game if tid in a.tables else None
                assert game is not None
                mover = users[game.to_move]
                other = b if mover is ALICE else a
                hand = hand_message(await other.hand(mover, tid), mover)
                assert hand is not None
                data = next(x.data for x in hand.actions if x.enabled)
                replies = await other.press(mover, data)
                if ":e:" in data:
                    replies = await other.press(mover, replies[0].actions[0].data)
                assert not errors(replies)
                stale = await (a if other is b else b).press(mover, data)  # the same button
                assert errors(stale)
                await a.hand(ALICE, tid)  # A reads the table afresh
            assert len(await a.store.moves(tid)) == 6 == a.tables[tid].game.turn
    asyncio.run(main())


def test_stop_votes_taken_by_two_processes_add_up(pg_url: str) -> None:
    """bob asks A to stop the game, carol asks B: B counts both, and with alice's (the host,
    through A) the table stops."""
    from service_helpers import CAROL

    async def main() -> None:
        async with _two_services(pg_url) as (a, b):
            tid = table_id(await a.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                              options="players=3"))
            await b.join(BOB, tid)
            await b.join(CAROL, tid)
            await a.begin(ALICE, tid)
            said = [m.text for m in await a.stop(BOB, tid)]
            assert any("1 of 3" in text for text in said), said
            said = [m.text for m in await b.stop(CAROL, tid)]
            assert any("2 of 3" in text for text in said), said  # bob's vote, taken by A
            assert (await b.store.get_table(tid)).status == "playing"  # type: ignore[union-attr]
    asyncio.run(main())


def test_a_lobbys_notes_hold_in_another_process(pg_url: str) -> None:
    """A lobby for invited players only, and a rematch's seat kept for bob, both opened in A:
    B refuses dave and seats carol elsewhere than bob's seat."""
    from service_helpers import CAROL

    from bot.service import seats as seating
    from bot.service.service import User

    dave = User("test:dave", "dave")

    async def main() -> None:
        async with _two_services(pg_url) as (a, b):
            tid = table_id(await a.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                              options="players=3", invite="test:bob"))
            assert errors(await b.join(dave, tid))  # not invited
            assert not errors(await b.join(BOB, tid))
            tid = table_id(await a.open_table(CAROL, CHANNEL, SCOPE, "classic",
                                              options="players=3"))
            async with a._lock(tid):
                a.tables[tid].reserved = {1: [BOB.id, BOB.name]}  # as a rematch keeps it
                await seating.save(a.store, a.tables[tid])
                await a.store.update_table(tid, warned=False)  # written with the table
            assert not errors(await b.join(ALICE, tid))
            row = await b.store.get_table(tid)
            assert row is not None and row.seats[2].user_id == ALICE.id  # seat 1 is bob's
            assert row.seats[1].user_id is None
    asyncio.run(main())


async def _restarts(url: str) -> tuple[int, int, int, int]:
    """Messages of start() for: the first process, a second one while the first runs, a third
    while the second runs, and a fourth alone; and the second's answer to a press."""
    await _open_tables(url, "players=2")
    counts = []
    a = await PostgresStore.open(url)
    first = await Service(a, pictures=NoPictures(), seed=5).start()
    counts.append(len(first))
    b = await PostgresStore.open(url)
    second = Service(b, pictures=NoPictures(), seed=5)
    counts.append(len(await second.start()))
    assert await b.peers() == 1
    await a.close()
    c = await PostgresStore.open(url)
    counts.append(len(await Service(c, pictures=NoPictures(), seed=5).start()))
    await c.close()
    tid = next(iter(second.tables))
    answer = await second.hand(ALICE, tid)  # the quiet process serves the table all the same
    assert not errors(answer)
    await b.close()
    d = await PostgresStore.open(url)
    try:
        for _ in range(50):  # a closed connection's backend leaves the activity view soon
            if await d.peers() == 0:
                break
            await asyncio.sleep(0.1)
        counts.append(len(await Service(d, pictures=NoPictures(), seed=5).start()))
    finally:
        await d.close()
    return counts[0], counts[1], counts[2], counts[3]


def test_a_process_started_beside_another_prompts_nobody_again(pg_url: str) -> None:
    first, beside, third, alone = asyncio.run(_restarts(pg_url))
    assert first >= TABLES  # alone: every table's player is prompted again
    assert beside == 0 and third == 0  # another process serves them: no second prompt
    assert alone == first  # alone again: prompted as the first was
