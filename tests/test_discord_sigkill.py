"""A tournament through the real bot process and its Discord client (`python -m bot.cli` with
DISCORD_TOKEN, discord.py pointed at tests/fake_discord.py's server by tests/fast_bot.py)
survives a SIGKILL between rounds (issue 31), as tests/test_telegram_sigkill.py does on
Telegram: killed the moment it posts round 2's announcement, restarted on the same SQLite
file and server, the tournament goes on to its end with nothing lost or opened twice.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.discord.views import PRESS_PREFIX
from tests.fake_discord import EPHEMERAL, FakeDiscord
from tests.fast_bot import spawn
from tests.sigkill_checks import ROUND_2, nothing_lost, stored

WAIT = 30.0  # seconds for one expected step before the test fails (a hang, not a timing)
MENTIONS = re.compile(r"^(?:<@!?\d+>\s*)+")  # the mentions that begin a message


class KillingDiscord(FakeDiscord):
    """The fake Discord; it kills the bot process with SIGKILL right after it has taken a
    channel message that starts with `kill_at` (the process never hears the answer)."""

    kill_at = ROUND_2
    victim: int | None = None
    killed: str | None = None

    async def _rest(self, request: web.Request) -> web.Response:
        answer = await super()._rest(request)
        call = self.calls[-1]
        text = _said(call.json.get("content")) if isinstance(call.json, dict) else ""
        if (self.victim is not None and self.killed is None and call.method == "POST"
                and text.startswith(self.kill_at)):
            os.kill(self.victim, signal.SIGKILL)
            self.killed = text
        return answer


def _said(content: object) -> str:
    """A message's text after the mentions that begin it (those it notifies)."""
    return MENTIONS.sub("", str(content or ""))


def _sent(fake: FakeDiscord, start: str) -> list[str]:
    """Every channel message the bot posted (deleted since or not) whose text after its
    mentions starts with `start`."""
    return [str(c.json.get("content")) for c in fake.calls
            if c.method == "POST" and re.fullmatch(r"/channels/\d+/messages", c.path)
            and isinstance(c.json, dict) and _said(c.json.get("content")).startswith(start)]


async def _until(what: Callable[[], Any], why: str) -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not (found := what()):
        assert loop.time() < deadline, f"waited {WAIT} s for {why}"
        await asyncio.sleep(0.05)
    return found


def _data(button: dict[str, Any]) -> list[str]:
    """A button's action data, split: table, turn, verb, argument."""
    return str(button["custom_id"]).removeprefix(PRESS_PREFIX).split(":")


def _public(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The messages in the server's channel and its threads (a table's room)."""
    return [m for cid in (None, *fake.threads) for m in fake.channel_messages(cid)]


def _with_button(fake: FakeDiscord, label: str, table: int) -> list[dict[str, Any]]:
    return [m for m in _public(fake) if any(
        b.get("label") == label and _data(b)[0] == str(table)
        for b in fake.buttons(int(m["id"])))]


def _tables(announcement: str, users: dict[str, int]) -> dict[int, list[int]]:
    return {int(no): [users[n] for n in names.split(", ")]
            for no, names in re.findall(r"Table #(\d+)(?: in <#\d+>)?: (.+)", announcement)}


async def _join(fake: FakeDiscord, tables: dict[int, list[int]]) -> None:
    for table, players in tables.items():
        for user in players:
            lobby = (await _until(lambda t=table: _with_button(fake, "Join", t),
                                  f"the lobby of table #{table}"))[-1]
            record = await fake.click(user, int(lobby["id"]), fake.button(int(lobby["id"]),
                                                                          "Join"))
            assert record.callback is not None


def _hand(fake: FakeDiscord, user: int, table: int) -> dict[str, Any] | None:
    """The user's latest hand of `table` (an ephemeral message with its tiles)."""
    found = [m for m in fake.ephemerals(user) if any(
        _data(b)[0] == str(table) and len(_data(b)) > 2 and _data(b)[2] in "pedx"
        for b in fake.buttons(int(m["id"])))]
    return found[-1] if found else None


async def _play(fake: FakeDiscord, done: Callable[[], bool], why: str) -> None:
    """Whoever a turn message names opens their hand ("My hand") and presses a playable
    button (each state of a hand once), until `done`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    asked: set[int] = set()  # turn messages whose "My hand" was pressed
    pressed: dict[int, str] = {}  # hand message -> its state when pressed
    while not done():
        assert loop.time() < deadline, f"waited {WAIT} s for {why}"
        moved = False
        for turn in [m for m in _public(fake) if m["mentions"]]:
            if int(turn["id"]) not in fake.messages:  # deleted while we clicked another
                continue
            mine = [b for b in fake.buttons(int(turn["id"])) if b.get("label") == "My hand"]
            if not mine:
                continue
            user, table = int(turn["mentions"][0]["id"]), int(_data(mine[0])[0])
            hand = _hand(fake, user, table)
            if hand is None:
                if int(turn["id"]) not in asked:
                    asked.add(int(turn["id"]))
                    await fake.click(user, int(turn["id"]), str(mine[0]["custom_id"]))
                    moved = True
                continue
            mid, seen = int(hand["id"]), json.dumps(hand, sort_keys=True)
            playable = [b for b in fake.buttons(mid) if not b.get("disabled")
                        and len(_data(b)) > 2 and _data(b)[2] in "pedx"]
            if not playable or pressed.get(mid) == seen:
                continue
            pressed[mid], moved = seen, True
            button = playable[0]
            await fake.click(user, mid, str(button["custom_id"]))
            if _data(button)[2] == "e":  # the tile fits both ends: the hand asks which
                def ends(mid: int = mid, seen: str = seen) -> list[str]:
                    now = fake.messages.get(mid)
                    labels = [b["label"] for b in fake.buttons(mid)] if now else []
                    return labels if json.dumps(now, sort_keys=True) != seen and [
                        x.split()[-1] for x in labels] == ["left", "right"] else []
                first = (await _until(ends, "the two ends to choose"))[0]
                await fake.click(user, mid, fake.button(mid, first))
        if not moved:
            await asyncio.sleep(0.05)


def test_a_sigkill_between_rounds_loses_nothing_on_discord(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite"

    async def main() -> None:
        async with KillingDiscord() as fake:
            boss = fake.add_user("boss", manager=True)
            users = {"boss": boss, **{n: fake.add_user(n) for n in ("bob", "carol", "dave")}}
            env = {"DISCORD_TOKEN": "fake-token", "DOMINO_TEST_DISCORD":
                   f"http://127.0.0.1:{fake.port}"}
            first = await spawn(tmp_path, tmp_path / "bot1.log", **env)
            second = None
            try:
                fake.victim = first.pid
                await _until(lambda: fake.logins == 1 and fake.commands, "the first login")
                await fake.slash(boss, "tournament", what="swiss classic rounds=2 seats=2 "
                                 "hand=4")
                ann = (await _until(lambda: [m for m in fake.channel_messages() if m[
                    "content"].startswith("Tournament #1:")], "the announcement"))[0]
                for user in users.values():
                    await fake.click(user, int(ann["id"]), fake.button(int(ann["id"]),
                                                                       "Register"))
                await _until(lambda: _sent(fake, "dave is registered"), "4 players")
                await fake.click(boss, int(ann["id"]), fake.button(int(ann["id"]), "Start"))
                first_round = (await _until(lambda: _sent(
                    fake, "Tournament #1, round 1 of 2:"), "round 1"))[0]
                await _join(fake, _tables(first_round, users))
                await _play(fake, lambda: fake.killed is not None, "round 1's end")
                assert await first.wait() == -signal.SIGKILL

                status, at_kill, counts = stored(db)
                assert status == "running" and counts == {1: 2, 2: 2}
                second_round = fake.killed
                assert second_round is not None

                second = await spawn(tmp_path, tmp_path / "bot2.log", **env)
                await _until(lambda: fake.logins == 2, "the second login")
                await _join(fake, _tables(second_round, users))  # the lobbies came back
                await _play(fake, lambda: bool(_sent(fake, "Tournament #1 is over.")),
                            "the podium")
                fake.victim = None
                second.send_signal(signal.SIGTERM)
                assert await asyncio.wait_for(second.wait(), WAIT) == 0
            finally:
                for proc in (first, second):
                    if proc is not None and proc.returncode is None:
                        proc.kill()
                        await proc.wait()

        assert not [m for m in fake.messages.values() if m["flags"] & EPHEMERAL
                    and "error" in str(m.get("content", "")).lower()]
        with sqlite3.connect(db) as con:
            rooms = {c for (c,) in con.execute("SELECT channel FROM tables")}
        assert rooms == {f"discord:{t}" for t in fake.threads}  # each table in its thread
        await nothing_lost(db, at_kill, lambda head: _sent(fake, head),
                           [f"discord:{u}" for u in users.values()])

    asyncio.run(main())
