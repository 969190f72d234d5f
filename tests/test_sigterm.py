"""A clean stop (bot/app.py's `_stop`): SIGTERM in the middle of a game, through the console
process (with a web page open) and through the Telegram adapter's process, exits 0 within
10 s, keeps every move played before it, and tells the web page that the server restarts
(close code 1012). The gate itself (bot/health.py): refused while stopping, in-flight calls
waited for."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp

from bot import health
from bot.service.service import Service, User
from tests.console_helpers import ConsoleBot, play_first_legal, plays
from tests.fake_telegram import TOKEN, FakeBotApi, TgUser
from tests.fast_bot import spawn
from tests.service_helpers import errors, run, with_service
from tests.test_telegram import data_of, hand_of, playable, table_message
from tests.web_helpers import state

STOP_WITHIN = 10.0
GROUP = -100777
ALICE, BOB = TgUser(3001, "Alice"), TgUser(3002, "Bob")


def test_sigterm_in_the_console_with_a_web_page_open(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path)
    try:
        bot.start()
        lines = bot.send("/start classic players=2 ai=1", "/web")
        url = next(u for line in lines for u in re.findall(r"http://127\.0\.0\.1:\d+/t/\S+",
                                                            line))
        base, token = url.split("/t/")
        with urllib.request.urlopen(f"{base}/readyz", timeout=10) as ready:
            assert ready.status == 200 and ready.read() == b"ready\n"
        out = bot.send("/hand")
        for _ in range(3):
            out = play_first_legal(bot, "alice", out)

        async def watch_then_stop() -> tuple[int | None, float]:
            async with aiohttp.ClientSession() as http, http.ws_connect(
                    f"{base}/ws?token={token}", headers={"Origin": base}) as ws:
                assert (await state(ws))["state"]["hand"]
                began = time.monotonic()
                bot.proc.send_signal(signal.SIGTERM)
                msg = await asyncio.wait_for(ws.receive(), STOP_WITHIN)
                assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), msg
                return ws.close_code, began

        code, began = run(watch_then_stop())
        assert code == 1012  # "service restart": the page reconnects
        assert bot.proc.wait(timeout=STOP_WITHIN) == 0
        assert time.monotonic() - began < STOP_WITHIN
    finally:
        if bot.proc.poll() is None:
            bot.kill()
    with sqlite3.connect(tmp_path / "domino.sqlite") as db:
        (count,) = db.execute("SELECT count(*) FROM moves").fetchone()
    assert count == len(plays(bot.output)) > 3  # every move shown is stored


async def _press(server: FakeBotApi, user: TgUser, message: dict[str, Any], data: str
                 ) -> dict[str, Any]:
    query = await server.press(user, message, data)
    return (await server.answered(query, 30)).params


async def _moves(server: FakeBotApi, n: int) -> int:
    """Alice and Bob press a playable button of their hands until `n` moves were made."""
    made, pressed = 0, {}
    deadline = time.monotonic() + 60
    while made < n:
        assert time.monotonic() < deadline, "the game did not go on"
        for u in (ALICE, BOB):
            hand = hand_of(server, u)
            data = playable(server, hand) if hand else None
            if hand is None or data is None:
                continue
            seen = json.dumps(hand, sort_keys=True)
            if pressed.get(u.id) == seen:
                continue
            pressed[u.id] = seen
            answer = await _press(server, u, hand, data)
            if answer.get("show_alert"):
                continue
            if data.split(":")[2] == "e":  # a tile that fits both ends: the first end
                mid = hand["message_id"]
                now = await server.wait_until(lambda u=u, mid=mid, seen=seen: (
                    m := server.messages[u.id].get(mid)) and json.dumps(
                        m, sort_keys=True) != seen and m, 30)
                ends = [d for d in data_of(server, now) if d.split(":")[2] == "p"]
                if (await _press(server, u, now, ends[0])).get("show_alert"):
                    continue
            made += 1
        await asyncio.sleep(0.05)
    return made


def _lobby(server: FakeBotApi) -> dict[str, Any] | None:
    found = [m for m in server.chat(GROUP) if any(
        d.split(":")[2] == "j" for d in data_of(server, m))]
    return found[-1] if found else None


def test_sigterm_through_the_telegram_adapter(tmp_path: Path) -> None:
    async def main() -> tuple[int | None, float, int]:
        server = FakeBotApi()
        await server.start()
        proc = await spawn(tmp_path, tmp_path / "bot.log", TELEGRAM_TOKEN=TOKEN,
                           TELEGRAM_API_URL=server.base_url)
        try:
            server.start_bot(ALICE)
            server.start_bot(BOB)
            await server.wait_until(lambda: server.called("setMyCommands"), 30)
            await server.command(ALICE, GROUP, "/domino classic players=2")
            lobby = await server.wait_until(lambda: _lobby(server), 30)
            assert not (await _press(server, BOB, lobby, next(
                d for d in data_of(server, lobby) if d.split(":")[2] == "j"))).get("show_alert")
            lobby = table_message(server, GROUP)
            await _press(server, ALICE, lobby, next(
                d for d in data_of(server, lobby) if d.split(":")[2] == "s"))
            made = await _moves(server, 4)
            began = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(proc.wait(), STOP_WITHIN + 5)
            return code, time.monotonic() - began, made
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            await server.close()

    code, took, made = asyncio.run(main())
    log = (tmp_path / "bot.log").read_text()
    assert code == 0, log
    assert took < STOP_WITHIN, took
    assert "Traceback" not in log, log[-3000:]
    with sqlite3.connect(tmp_path / "bot.sqlite") as db:
        (count,) = db.execute("SELECT count(*) FROM moves").fetchone()
    assert count == made  # every move answered before the signal is stored


def test_the_gate_refuses_new_commands_and_waits_for_those_under_way(tmp_path: Path) -> None:
    ann = User("console:ann", "ann")

    async def body(service: Service) -> None:
        gate = health.gate(service)
        release = asyncio.Event()

        async def under_way() -> None:  # a command that takes its time (its own task)
            entry = health.enter(service)
            assert entry is not None
            await release.wait()
            health.leave(service, ann.id, entry)

        command = asyncio.ensure_future(under_way())
        await asyncio.sleep(0.01)
        assert gate.under_way == 1
        closing = asyncio.ensure_future(health.close(service, 5))
        await asyncio.sleep(0.05)
        assert not closing.done()  # waits for the command under way
        refused = await service.open_table(ann, "console:main", "console", "classic")
        assert errors(refused) == ["The bot is restarting; nothing was changed. Please try "
                                   "again in a minute."]
        assert await service.store.tables(("lobby", "playing")) == []  # nothing changed
        assert "stopping" in await health.problems(service)
        release.set()
        await command
        assert await closing is True

    run(with_service(tmp_path / "bot.sqlite", body))


def test_sigterm_through_the_discord_adapter(tmp_path: Path) -> None:
    from tests.fake_discord import FakeDiscord
    from tests.test_discord_sigkill import _play, _until, _with_button

    db = tmp_path / "bot.sqlite"

    def stored() -> int:
        with sqlite3.connect(db) as c:
            return int(c.execute("SELECT count(*) FROM moves").fetchone()[0])

    async def main() -> tuple[int | None, float, int]:
        async with FakeDiscord() as fake:
            boss, bob = fake.add_user("boss"), fake.add_user("bob")
            proc = await spawn(tmp_path, tmp_path / "bot.log", DISCORD_TOKEN="fake-token",
                               DOMINO_TEST_DISCORD=f"http://127.0.0.1:{fake.port}",
                               DOMINO_LOG="info")
            try:
                await _until(lambda: fake.logins == 1 and fake.commands, "the login")
                await fake.slash(boss, "start", variant="classic", players=2)
                lobby = int((await _until(lambda: _with_button(fake, "Join", 1),
                                          "the lobby"))[-1]["id"])
                await fake.click(bob, lobby, fake.button(lobby, "Join"))
                await fake.click(boss, lobby, fake.button(lobby, "Start"))
                await _play(fake, lambda: stored() >= 4, "four moves")
                before = stored()
                began = time.monotonic()
                proc.send_signal(signal.SIGTERM)
                code = await asyncio.wait_for(proc.wait(), STOP_WITHIN + 5)
                return code, time.monotonic() - began, before
            finally:
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()

    code, took, before = asyncio.run(main())
    log = (tmp_path / "bot.log").read_text()
    assert code == 0, log
    assert took < STOP_WITHIN, took
    assert "Traceback" not in log, log[-3000:]
    assert stored() == before >= 4  # every move kept, the game intact
