"""Several services on one PostgreSQL database, each with its own store (its own connections,
as a process has) and its own web table on a real socket: a change made through A reaches
B's pages through LISTEN/NOTIFY (bot/storage/pg_notify.py, bot/service/notify.py), not
through the one-second re-read, which runs only while B's listening connection is lost; a
killed listening connection is opened again and the page catches up. Tests named with
`listen_notify` (pick them out with -k listen_notify)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import asyncpg
import pytest
from service_helpers import ALICE, BOB, CHANNEL, SCOPE, press_a_legal_tile, run, started_table

from bot.service import live
from bot.service.pictures import NoPictures
from bot.service.service import Service
from bot.storage import PostgresStore, pg_notify
from bot.storage.pg_notify import CHANNEL as NOTIFY_CHANNEL
from bot.web import server
from bot.web.links import Links, publish
from bot.web.server import WebTable

SECRET = "a test link key of 32 characters"
USERS = {ALICE.id: ALICE, BOB.id: BOB}


@dataclass
class Process:
    """What a bot process holds: a store, a service, a web table listening on loopback."""

    store: PostgresStore
    service: Service
    web: WebTable
    links: Links

    @property
    def base(self) -> str:
        return self.links.base_url


@asynccontextmanager
async def process(url: str) -> AsyncIterator[Process]:
    store = await PostgresStore.open(url, pool_size=5)
    service = Service(store, pictures=NoPictures(), ai_delay=0, seed=1, default_timer=None)
    await service.start()
    links = Links(SECRET, "", ttl=3600)
    web = WebTable(service, links, _nothing)
    port = await web.start("127.0.0.1", 0)
    links.base_url = f"http://127.0.0.1:{port}"
    web.public_host = f"127.0.0.1:{port}"
    publish(service, links)
    try:
        yield Process(store, service, web, links)
    finally:
        await web.stop()
        await store.close()


async def _nothing(_messages: Any) -> None:
    return None


async def _until(check: Any, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.02)


async def _state(ws: Any, timeout: float) -> dict[str, Any]:
    """The next state message of a socket (errors fail the test)."""
    msg = await asyncio.wait_for(ws.receive(), timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    data = json.loads(msg.data)
    assert data["type"] == "state", data
    return data  # type: ignore[no-any-return]


async def _move_through(a: Process, tid: int) -> int:
    """Whoever is to move at `tid` plays a legal tile through process A; the new turn."""
    table = a.service.tables[tid]
    await press_a_legal_tile(a.service, tid, USERS[table.row.seats[table.game.to_move].user_id])
    return a.service.tables[tid].game.turn


def test_listen_notify_move_through_a_reaches_b_page(pg_url: str) -> None:
    async def body() -> None:
        async with process(pg_url) as a, process(pg_url) as b, aiohttp.ClientSession() as http:
            await _until(lambda: live.listening(b.service))
            tid = await started_table(a.service, ALICE, (BOB,))
            token = b.links.token(tid, BOB.id)
            ws = await http.ws_connect(f"{b.base}/ws?token={token}",
                                       headers={"Origin": b.base})
            first = await _state(ws, 5)
            assert first["version"] == a.service.tables[tid].game.turn
            for _ in range(3):
                started = time.monotonic()
                turn = await _move_through(a, tid)
                got = await _state(ws, 0.9)  # the fallback re-read is off: heard, not polled
                assert got["version"] == turn
                assert time.monotonic() - started < 0.9
            assert not b.web._dirty
            await ws.close()

    run(body())


def test_listen_notify_payload_names_table_and_version_only(pg_url: str) -> None:
    """What another process hears: the table, its version and status, the sender; no tile."""
    async def body() -> None:
        async with process(pg_url) as a:
            heard: list[str] = []
            con = await asyncpg.connect(pg_url)
            try:
                await con.add_listener(NOTIFY_CHANNEL, lambda *args: heard.append(args[3]))
                tid = await started_table(a.service, ALICE, (BOB,))
                await _move_through(a, tid)
                await _until(lambda: any(json.loads(p).get("table") == tid and
                                         json.loads(p)["version"] > 1 for p in heard))
            finally:
                await con.close()
            for payload in heard:  # these fields only: nothing of a hand can ride along
                notice = json.loads(payload)
                assert set(notice) == {"table", "version", "status", "from"}, notice
                assert isinstance(notice["version"], int) and notice["table"] == tid
                assert notice["status"] in ("lobby", "playing")
                assert notice["from"] == a.store._token

    run(body())


def test_listen_notify_killed_listener_comes_back_and_page_catches_up(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """B's listening connection killed (pg_terminate_backend): a move made meanwhile is not
    heard; B listens again after its backoff (1 s here) on a new connection and sends its
    pages the states they missed (the fallback re-read set to 30 s here, so that only the
    catch-up can bring it), then hears the next moves again."""
    monkeypatch.setattr(pg_notify, "BACKOFF", (1.0, 5.0))
    monkeypatch.setattr(server, "POLL", 30.0)

    async def body() -> None:
        async with process(pg_url) as a, process(pg_url) as b, aiohttp.ClientSession() as http:
            await _until(lambda: live.listening(b.service))
            tid = await started_table(a.service, ALICE, (BOB,))
            ws = await http.ws_connect(f"{b.base}/ws?token={b.links.token(tid, ALICE.id)}",
                                       headers={"Origin": b.base})
            await _state(ws, 5)
            old = b.store.listener_pid
            con = await asyncpg.connect(pg_url)
            try:
                assert await con.fetchval("SELECT pg_terminate_backend($1)", old)
            finally:
                await con.close()
            await _until(lambda: not live.listening(b.service), 5)
            turn = await _move_through(a, tid)  # while B does not listen
            with pytest.raises(TimeoutError):  # not heard
                await asyncio.wait_for(ws.receive(), 0.5)
            got = await _state(ws, 5)  # caught up once B listens again
            assert got["version"] == turn
            assert live.listening(b.service)
            assert b.store.listener_pid not in (None, old)
            turn = await _move_through(a, tid)  # heard again
            got = await _state(ws, 0.9)
            assert got["version"] == turn

    run(body())


def test_listen_notify_lobby_joined_elsewhere_is_read_again_at_once(pg_url: str) -> None:
    """A lobby B holds, joined through A: B's copy shows the new seat without any action."""
    async def body() -> None:
        async with process(pg_url) as a, process(pg_url) as b:
            await _until(lambda: live.listening(b.service))
            out = await b.service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                             options="players=3")
            tid = next(m.table for m in out if m.table)
            assert not any(s.user_id == BOB.id for s in b.service.tables[tid].row.seats)
            await a.service.join(BOB, tid)
            await _until(lambda: tid in b.service.tables and any(
                s.user_id == BOB.id for s in b.service.tables[tid].row.seats), 2)

    run(body())


def test_listen_notify_tournament_round_opened_elsewhere_is_looked_at_once(pg_url: str
                                                                          ) -> None:
    """A tournament's round opened through A: B's next tick looks at the tournaments (not
    within its one-second period), and the round's tables are in the database for B."""
    from test_service_tournaments import ORGANISER, PLAYERS, open_swiss, register_all

    async def body() -> None:
        async with process(pg_url) as a, process(pg_url) as b:
            await _until(lambda: live.listening(b.service))
            tid, ann = await open_swiss(a.service)
            await register_all(a.service, ann, PLAYERS[:4])
            await asyncio.sleep(0.5)  # the registrations heard
            b.service.tournaments._tourney_due = False
            out = await a.service.start_tournament(ORGANISER, tid)
            assert not [m for m in out if m.kind == "error"], out
            assert len(await b.store.tournament_tables(tid, 1)) == 2
            await _until(lambda: b.service.tournaments._tourney_due, 2)

    run(body())


def test_listen_notify_game_started_elsewhere_is_taken_up_at_once(pg_url: str) -> None:
    """A game started through A is in B's memory (its computer moves and timers B's to fire
    too if A goes) without B's 5-second look for the others' games."""
    async def body() -> None:
        async with process(pg_url) as a, process(pg_url) as b:
            await _until(lambda: live.listening(b.service))
            tid = await started_table(a.service, ALICE, (BOB,))
            await _until(lambda: tid in b.service.tables, 2)
            assert b.service.tables[tid].game is not None
            assert b.service.tables[tid].game.turn == a.service.tables[tid].game.turn

    run(body())
