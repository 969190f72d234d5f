"""The outbox (issue 37, item 17; bot/service/outbox.py, bot/storage/outbox.py) on SQLite and
PostgreSQL: what a change must say is written in the change's transaction, said by the next
process when the one that wrote it stopped before handing it over, once, and never by a
living process's peer before GRACE seconds.  "Stopped before the hand-over" is the service
whose `outbox.handed` does nothing (the door and the router call it as they hand messages
to an adapter); the same through the real process killed by SIGKILL:
tests/test_outbox_sigkill.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.service import outbox
from bot.service.guard import Where
from bot.service.messages import Message
from bot.service.service import Service
from bot.storage import open_store
from tests.service_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    SCOPE,
    Clock,
    RecordingPictures,
    play_to_the_end,
    run,
    started_table,
)
from tests.test_service_tournaments import ORGANISER, PLAYERS, open_swiss, register_all

HERE = Where(CHANNEL, SCOPE)


def unhanded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process stops between the write and the hand-over: nothing is marked sent."""
    async def nothing(service: Any, messages: Any) -> None:
        return None
    monkeypatch.setattr(outbox, "handed", nothing)


async def service_on(target: str | Path, clock: Clock, **kw: Any) -> Service:
    store = await open_store(target)
    return Service(store, pictures=RecordingPictures(), ai_delay=0, seed=1, clock=clock, **kw)


def said(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m.outbox]


async def rows(target: str | Path) -> dict[str, float | None]:
    store = await open_store(target)
    try:
        return {key: sent for key, _, _, sent, _ in await store.outbox_rows()}
    finally:
        await store.close()


def test_rows_are_written_with_the_change_or_not_at_all(db_target: str | Path) -> None:
    async def main() -> None:
        store = await open_store(db_target)
        try:
            tid = await store.create_tournament(SCOPE, CHANNEL, "test:o", "running", "{}", 1.0)
            row = ("t:a", "me", 10.0, json.dumps({"channel": CHANNEL, "text": "a"}))
            assert await store.save_tournament(tid, 0, "running", "{}", outbox=[row])
            late = ("t:b", "me", 10.0, "{}")  # a writer that came second: nothing written
            assert not await store.save_tournament(tid, 0, "running", "{}", outbox=[late])
            assert [r[:4] for r in await store.outbox_rows()] == [("t:a", "me", 10.0, None)]
            assert await store.outbox_claim("me", 99.0, 20.0) == []  # its own process's
            assert await store.outbox_claim("peer", 10.0, 20.0) == []  # not older than 10
            assert await store.outbox_claim("peer", 11.0, 20.0) == [("t:a", row[3])]
            assert await store.outbox_claim("other", 99.0, 30.0) == []  # taken once
            assert await store.outbox_sent(["t:a"], 40.0) == 0  # marked as it was taken
            assert [r[3] for r in await store.outbox_rows()] == [20.0]
            assert await store.outbox_purge(20.0) == 0 and await store.outbox_purge(21.0) == 1
            assert await store.outbox_rows() == []
        finally:
            await store.close()
    run(main())


def test_a_game_end_left_unsaid_is_said_once_by_the_next_start(
        db_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()

    async def main() -> None:
        first = await service_on(db_target, clock)
        await first.start()
        tid = await started_table(first, ALICE, (BOB,))
        end = [m for m in await play_to_the_end(first, tid, {0: ALICE, 1: BOB})
               if m.kind == "result" and m.to is None]
        assert len(end) == 1 and end[0].table == tid
        await first.store.close()  # stopped before it handed the end over
        assert await rows(db_target) == {f"end:{tid}": None}

        clock.now += 5
        second = await service_on(db_target, clock)
        again = said(await second.start())
        await second.store.close()
        assert [(m.channel, m.text, m.kind, m.table, [a.data for a in m.actions])
                for m in again] == [(CHANNEL, end[0].text, "result", tid,
                                     [a.data for a in end[0].actions])]
        assert again[0].image is None  # words and buttons; the picture is not kept
        assert await rows(db_target) == {f"end:{tid}": clock.now}

        third = await service_on(db_target, clock)
        assert said(await third.start()) == []  # said once
        await third.store.close()

    unhanded(monkeypatch)
    run(main())


def test_a_game_end_handed_over_is_not_said_again(db_target: str | Path) -> None:
    clock = Clock()

    async def main() -> None:
        first = await service_on(db_target, clock)
        await first.start()
        tid = await started_table(first, ALICE, (BOB,))
        await play_to_the_end(first, tid, {0: ALICE, 1: BOB})  # the door hands it over
        await first.store.close()
        assert await rows(db_target) == {f"end:{tid}": clock.now}
        second = await service_on(db_target, clock)
        assert said(await second.start()) == []
        await second.store.close()
    run(main())


async def _start_swiss(service: Service) -> tuple[int, list[Message]]:
    tid, ann = await open_swiss(service, "swiss rounds=2 seats=2 classic fill=on")
    await register_all(service, ann, PLAYERS[:4])
    return tid, await service.start_tournament(ORGANISER, tid, where=HERE)


def test_a_round_announcement_left_unsaid_is_said_once_by_the_next_start(
        db_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()

    async def main() -> None:
        first = await service_on(db_target, clock)
        await first.start()
        tid, out = await _start_swiss(first)
        announcement = [m for m in out if m.outbox == f"t{tid}:r1"]
        assert len(announcement) == 1 and announcement[0].mention
        await first.store.close()
        assert await rows(db_target) == {f"t{tid}:r1": None}

        second = await service_on(db_target, clock)
        again = said(await second.start())
        assert [(m.text, m.mention, m.channel) for m in again] == [
            (announcement[0].text, announcement[0].mention, CHANNEL)]
        assert said(await second.tick()) == []  # the round is announced: not again
        await second.store.close()
        third = await service_on(db_target, clock)
        assert said(await third.start()) == []
        await third.store.close()

    unhanded(monkeypatch)
    run(main())


def test_a_round_stored_but_not_announced_is_announced_after_a_restart(
        db_target: str | Path) -> None:
    """The process stopped after the round's tables were stored and before the write of
    its announcement: the next process's tick announces it, once."""
    clock = Clock()

    async def main() -> None:
        first = await service_on(db_target, clock)
        await first.start()
        tid, out = await _start_swiss(first)
        text = next(m.text for m in out if m.outbox == f"t{tid}:r1")
        row = await first.store.tournament(tid)
        assert row is not None
        state = json.loads(row.state)
        assert state["announced"] == 1
        state["announced"] = 0  # as it was before the announcement's write
        assert await first.store.save_tournament(tid, row.version, row.status,
                                                 json.dumps(state))
        await first.store.close()

        clock.now += 1
        second = await service_on(db_target, clock)
        await second.start()
        ticked = [m for m in await second.tick() if m.text.startswith(f"Tournament #{tid},")]
        assert [m.text for m in ticked] == [text]
        clock.now += 120
        assert [m for m in await second.tick() if m.text.startswith(
            f"Tournament #{tid},")] == []
        assert len(await second.store.tournament_tables(tid, 1)) == 2  # no table again
        await second.store.close()
    run(main())


def test_a_dead_peers_messages_are_taken_after_grace_only(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Several processes on one PostgreSQL database: a peer's unsent row is left to it for
    GRACE seconds (it is handing it over); after, another process's tick takes it, once;
    a process never takes its own rows."""
    clock = Clock()

    async def main() -> None:
        writer = await service_on(pg_url, clock)
        other = await service_on(pg_url, clock)
        try:
            await writer.start()
            await other.start()
            tid = await started_table(writer, ALICE, (BOB,))
            await play_to_the_end(writer, tid, {0: ALICE, 1: BOB})
            assert await rows(pg_url) == {f"end:{tid}": None}
            clock.now += outbox.SWEEP
            assert said(await other.tick()) == []  # young: its writer is handing it over
            clock.now += outbox.GRACE
            assert said(await writer.tick()) == []  # its own
            assert [m.outbox for m in said(await other.tick())] == [f"end:{tid}"]
            clock.now += outbox.SWEEP
            assert said(await other.tick()) == [] and said(await writer.tick()) == []
        finally:
            await writer.store.close()
            await other.store.close()

    unhanded(monkeypatch)
    run(main())
