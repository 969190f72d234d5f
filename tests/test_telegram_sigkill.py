"""A tournament through the real bot process and its Telegram adapter (`python -m bot.cli`
with TELEGRAM_TOKEN and TELEGRAM_API_URL pointing at tests/fake_telegram.py's server, run by
this test) survives a SIGKILL between rounds (issue 31).  The process is bot.cli's through
tests/fast_bot.py, which only scales Telegram's flood limits down (the fake server has none).

Four players register by the button, the organiser starts it, round 1's two games are played
by pressing the hands' buttons in the private chats; the process is killed (SIGKILL) the
moment it posts round 2's announcement (round 1 over, round 2 paired and its tables opened
in the database, their lobby messages not posted yet); a new process on the same SQLite file
and the same server goes on: the lobbies come back, round 2 is played, and the tournament
ends with nothing lost: round 1's results as they were, round 2 opened once (two tables,
one announcement), the final standings as recomputed from the stored games, the places.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.fake_telegram import TOKEN, FakeBotApi, TgUser
from tests.fast_bot import spawn
from tests.sigkill_checks import ROUND_2, nothing_lost, stored
from tests.test_telegram import data_of, hand_of, playable

GROUP = -100777
PLAYERS = [TgUser(2001, "Alice"), TgUser(2002, "Bob"), TgUser(2003, "Carol"),
           TgUser(2004, "Dave")]
ALICE = PLAYERS[0]
WAIT = 30.0  # seconds for one expected step before the test fails (a hang, not a timing)


class KillingBotApi(FakeBotApi):
    """The fake server; it kills the bot process with SIGKILL right after it has taken a
    message that starts with `kill_at` (the process never hears the answer)."""

    kill_at = ROUND_2
    victim: int | None = None
    killed: str | None = None  # the message it was killed at

    async def _m_sendMessage(self, p: dict[str, Any], f: dict[str, bytes]) -> dict[str, Any]:
        sent = await super()._m_sendMessage(p, f)
        text = str(p.get("text", ""))
        if self.victim is not None and self.killed is None and text.startswith(self.kill_at):
            os.kill(self.victim, signal.SIGKILL)
            self.killed = text
        return sent


async def _bot(tmp: Path, server: FakeBotApi, n: int) -> asyncio.subprocess.Process:
    return await spawn(tmp, tmp / f"bot{n}.log", TELEGRAM_TOKEN=TOKEN,
                       TELEGRAM_API_URL=server.base_url)


def _text(m: dict[str, Any]) -> str:
    return str(m.get("text", m.get("caption", "")))


def _sent(server: FakeBotApi, start: str) -> list[str]:
    """The texts of every message the bot sent (deleted since or not) starting with
    `start`."""
    return [str(c.params.get("text") or c.params.get("caption") or "")
            for c in server.calls if c.method in ("sendMessage", "sendPhoto")
            and str(c.params.get("text") or c.params.get("caption") or "").startswith(start)]


async def _until(server: FakeBotApi, what: Callable[[], Any], why: str) -> Any:
    try:
        return await server.wait_until(what, WAIT)
    except TimeoutError:
        raise AssertionError(f"waited {WAIT} s for {why}") from None


async def _press(server: FakeBotApi, user: TgUser, message: dict[str, Any], data: str
                 ) -> dict[str, Any]:
    query = await server.press(user, message, data)
    return (await server.answered(query, WAIT)).params


def _tables(announcement: str) -> dict[int, list[TgUser]]:
    """table id -> its players, from a round's announcement."""
    by_name = {u.first_name: u for u in PLAYERS}
    return {int(no): [by_name[n] for n in names.split(", ")]
            for no, names in re.findall(r"Table #(\d+): (.+)", announcement)}


def _lobby(server: FakeBotApi, table: int) -> dict[str, Any] | None:
    """The group's message with the Join button of `table`."""
    found = [m for m in server.chat(GROUP) if any(
        d.split(":")[0] == str(table) and d.split(":")[2] == "j" for d in data_of(server, m))]
    return found[-1] if found else None


async def _join(server: FakeBotApi, tables: dict[int, list[TgUser]]) -> None:
    for table, users in tables.items():
        for u in users:
            lobby = await _until(server, lambda t=table: _lobby(server, t),
                                 f"the lobby of table #{table}")
            join = next(d for d in data_of(server, lobby) if d.split(":")[2] == "j")
            answer = await _press(server, u, lobby, join)
            assert not answer.get("show_alert"), answer


async def _play(server: FakeBotApi, done: Callable[[], bool], why: str) -> int:
    """Press a playable button of whoever holds one (each hand's state once) until `done`;
    the presses."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    pressed: dict[tuple[int, int], str] = {}
    presses = 0
    while not done():
        assert loop.time() < deadline, f"waited {WAIT} s for {why}"
        moved = False
        for u in PLAYERS:
            hand = hand_of(server, u)
            data = playable(server, hand) if hand else None
            if hand is None or data is None:
                continue
            key, seen = (u.id, hand["message_id"]), json.dumps(hand, sort_keys=True)
            if pressed.get(key) == seen:
                continue  # this state was pressed already: its answer is on its way
            pressed[key] = seen
            answer = await _press(server, u, hand, data)
            presses, moved = presses + 1, True
            if data.split(":")[2] != "e" or answer.get("show_alert"):
                continue

            def ends(u: TgUser = u, mid: int = hand["message_id"], seen: str = seen
                     ) -> list[str]:
                now = server.messages[u.id].get(mid)
                return [] if now is None or json.dumps(now, sort_keys=True) == seen else [
                    d for d in data_of(server, now) if d.split(":")[2] == "p"]

            choice = await _until(server, lambda e=ends: len(e()) == 2 and e(),
                                  "the two ends to choose")
            await _press(server, u, server.messages[u.id][hand["message_id"]], choice[0])
        if not moved:
            await asyncio.sleep(0.05)
    return presses


def test_a_sigkill_between_rounds_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite"

    async def main() -> None:
        server = KillingBotApi()
        await server.start()
        server.admins[GROUP] = {ALICE.id}
        for u in PLAYERS:
            server.start_bot(u)
        first = await _bot(tmp_path, server, 1)
        second = None
        try:
            server.victim = first.pid
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
            await _play(server, lambda: server.killed is not None, "round 1's end")
            assert await first.wait() == -signal.SIGKILL

            status, at_kill, counts = stored(db)
            assert status == "running" and counts == {1: 2, 2: 2}
            assert [t["scores"] is not None for r in at_kill["t"]["rounds"]
                    for t in r["tables"]] == [True, True, False, False]
            second_round = server.killed
            assert second_round is not None

            second = await _bot(tmp_path, server, 2)  # the same file, the same server
            await _join(server, _tables(second_round))  # the lobbies came back
            await _play(server, lambda: bool(_sent(server, "Tournament #1 is over.")),
                        "the podium")
            server.victim = None
            await server.release()
            second.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(second.wait(), WAIT) == 0
        finally:
            for proc in (first, second):
                if proc is not None and proc.returncode is None:
                    proc.kill()
                    await proc.wait()
            await server.close()

        # nothing lost, nothing twice
        await nothing_lost(db, at_kill, lambda head: _sent(server, head),
                           [f"telegram:{u.id}" for u in PLAYERS])

    asyncio.run(main())
