"""What must be said survives a SIGKILL between the write and the send (issue 37, item 17),
through the real bot process and its Telegram adapter against tests/fake_telegram.py (as
tests/test_telegram_sigkill.py, whose steps this test reuses).

The process is started with DOMINO_TEST_KILL_AFTER_OUTBOX=t1:r2 (tests/fast_bot.py): it
kills itself the moment round 2's tables are stored and its announcement is committed to the
outbox, before anything of round 2 (nor the standings after round 1, written with the round's
pairing) reaches the chat.  Without the outbox, the new process would open no table (they
are all stored) and announce nothing: the players would never learn that round 2 began.
With it, the new process says the standings and the announcement once each, the lobbies
come back, round 2 is played and the tournament ends with nothing lost or said twice.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

from tests.fake_telegram import TOKEN, FakeBotApi
from tests.fast_bot import spawn
from tests.sigkill_checks import ROUND_2, nothing_lost, stored
from tests.test_telegram import data_of
from tests.test_telegram_sigkill import (
    ALICE,
    GROUP,
    PLAYERS,
    WAIT,
    _join,
    _play,
    _press,
    _sent,
    _tables,
    _text,
    _until,
)

STANDINGS = "Tournament #1: standings after round 1"


def _outbox(db: Path) -> dict[str, float | None]:
    """key -> sent_at of every outbox row."""
    with sqlite3.connect(db) as con:
        return dict(con.execute("SELECT key, sent_at FROM outbox").fetchall())


def test_a_sigkill_after_the_outbox_write_loses_no_announcement(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite"

    async def main() -> None:
        server = FakeBotApi()
        await server.start()
        server.admins[GROUP] = {ALICE.id}
        for u in PLAYERS:
            server.start_bot(u)
        env = {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_API_URL": server.base_url}
        first = await spawn(tmp_path, tmp_path / "bot1.log", **env,
                            DOMINO_TEST_KILL_AFTER_OUTBOX="t1:r2")
        second = None
        try:
            await server.command(ALICE, GROUP, "/tournament swiss classic rounds=2 seats=2 "
                                 "hand=4")
            ann = await _until(server, lambda: next((m for m in server.chat(GROUP) if _text(
                m).startswith("Tournament #1:")), None), "the tournament's announcement")
            register, _, start = [d for d in data_of(server, ann) if d.split(":")[2] == "t"]
            for u in PLAYERS:
                assert not (await _press(server, u, ann, register)).get("show_alert")
            await _until(server, lambda: _sent(server, "Dave is registered"), "4 players")
            assert not (await _press(server, ALICE, ann, start)).get("show_alert")
            first_round = (await _until(server, lambda: _sent(
                server, "Tournament #1, round 1 of 2:"), "round 1"))[0]
            await _join(server, _tables(first_round))
            try:
                await _play(server, lambda: first.returncode is not None, "the kill")
            except (TimeoutError, AssertionError):  # a press whose answer died with it
                assert first.returncode is not None
            assert await asyncio.wait_for(first.wait(), WAIT) == -signal.SIGKILL

            # killed between the write and the send: stored, said to nobody
            status, at_kill, counts = stored(db)
            assert status == "running" and counts == {1: 2, 2: 2}
            assert at_kill["announced"] == 2
            unsent = {k for k, sent in _outbox(db).items() if sent is None}
            assert unsent == {"t1:r2", "t1:s1"}, _outbox(db)
            assert _sent(server, ROUND_2) == [] and _sent(server, STANDINGS) == []

            second = await spawn(tmp_path, tmp_path / "bot2.log", **env)
            second_round = (await _until(server, lambda: _sent(server, ROUND_2),
                                         "round 2's announcement after the restart"))[0]
            assert all(sent is not None for sent in _outbox(db).values()), _outbox(db)
            await _join(server, _tables(second_round))  # the lobbies came back
            await _play(server, lambda: bool(_sent(server, "Tournament #1 is over.")),
                        "the podium")
            second.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(second.wait(), WAIT) == 0
        finally:
            for proc in (first, second):
                if proc is not None and proc.returncode is None:
                    proc.kill()
                    await proc.wait()
            await server.close()

        # said once each (the standings and round 2 from the outbox), nothing lost
        await nothing_lost(db, at_kill, lambda head: _sent(server, head),
                           [f"telegram:{u.id}" for u in PLAYERS])
        assert all(sent is not None for sent in _outbox(db).values()), _outbox(db)

    asyncio.run(main())
