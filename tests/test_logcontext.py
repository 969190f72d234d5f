"""The table and platform of a JSON log line come from the work under way (bot/logcontext.py),
not from each log call: a move made through the web table's socket, the computer's answer
made by the tick, and a Telegram press through the real adapter and the fake Bot API each
log lines naming their table (and platform), never another table, and nothing private (the
link's token, the hand) in any line. A real service on a real SQLite file, the real web server
on loopback, python-telegram-bot against tests/fake_telegram.py."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.logcontext import current, detached, table_context
from bot.logs import setup_logging
from bot.service.pictures import NoPictures
from bot.service.service import Service
from bot.storage import Store
from tests.service_helpers import ALICE, CHANNEL, SCOPE, table_id
from tests.web_helpers import Env, serving, state

TILE = re.compile(r"(?<![\d-])\d{1,2}-\d{1,2}(?![\d-])")
COMMITTED = "move committed"  # bot/metrics.py's debug line, for every committed move


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    stream = io.StringIO()
    setup_logging(Settings(log_level="debug", log_format="json"), stream)
    try:
        yield stream
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def committed(stream: io.StringIO) -> list[dict[str, Any]]:
    return [g for g in lines(stream) if COMMITTED in str(g["message"])]


def test_a_web_move_and_the_ticks_answer_name_their_table(tmp_path: Path,
                                                         json_log: io.StringIO) -> None:
    async def body(env: Env) -> tuple[int, int, str, list[str]]:
        tid = table_id(await env.service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                    options="players=2 ai=1"))
        other = table_id(await env.service.open_table(ALICE, "test:elsewhere", SCOPE,
                                                      "classic", options="players=2 ai=1"))
        token = env.links.token(tid, ALICE.id)
        ws = await env.socket(token)
        mine = await state(ws)
        for _ in range(20):  # the computer may lead: the tick plays until it is Alice's turn
            if mine["state"]["to_move"] == mine["state"]["seat"]:
                break
            await asyncio.sleep(0.06)
            await env.service.tick()
            mine = await state(ws)
        move = next(m["move"] for m in mine["state"]["moves"])
        ticked_before = len(committed(json_log))
        await ws.send_json({"type": "move", "move": move, "version": mine["version"]})
        await state(ws)
        web_lines = committed(json_log)[ticked_before:]
        assert web_lines, "the web move logged no committed move"
        assert all(g["table"] == tid and g["platform"] == "web" for g in web_lines), web_lines
        before = len(committed(json_log))
        for _ in range(20):  # the computer's answer comes with a tick (ai_delay 0.05 s)
            await asyncio.sleep(0.06)
            await env.service.tick()
            if len(committed(json_log)) > before:
                break
        await ws.close()
        game = env.service.tables[tid].game
        hands = {x for seat in (0, 1) for x in game.view(seat)["hand"]}
        return tid, other, token, hands

    tid, other, token, hands = asyncio.run(serving(tmp_path, body, ai_delay=0.05))
    got = lines(json_log)
    ticked = [g for g in committed(json_log) if g["platform"] != "web"]
    assert ticked, "the tick logged no committed move"
    # the tick's work names its table, and the platform of the table's channel ("test:chan")
    assert all(g["table"] == tid and g["platform"] == "test" for g in ticked), ticked
    assert not any(g["table"] == other for g in got)  # the table nobody played: never named
    text = json_log.getvalue()
    assert token not in text  # scrubbed: the link's token (the access log's /ws?token=...)
    assert hands and not any(TILE.search(str(g["message"])) for g in got  # no hand's tile
                             if any(tile in str(g["message"]) for tile in hands))


def test_a_context_is_undone_and_a_detached_task_names_no_table() -> None:
    async def body() -> list[tuple[int | None, str | None]]:
        seen: list[tuple[int | None, str | None]] = []

        async def later() -> None:
            seen.append(current())

        with table_context(7, "telegram"):
            seen.append(current())
            inherited = asyncio.get_running_loop().create_task(later())
            alone = detached(later())
            await asyncio.gather(inherited, alone)
            with table_context(None):  # work about no table inside a table's
                seen.append(current())
        seen.append(current())
        return seen

    assert asyncio.run(body()) == [(7, "telegram"), (7, "telegram"), (None, None),
                                   (None, "telegram"), (None, None)]


def test_a_telegram_press_names_its_table(tmp_path: Path, json_log: io.StringIO) -> None:
    """A press through python-telegram-bot's Application and the adapter: its committed move
    names the pressed table and the platform."""
    from bot.app import Router
    from bot.telegram.adapter import TelegramBot
    from tests.fake_telegram import TOKEN, FakeBotApi, TgUser

    setup_logging(Settings(log_level="debug", log_format="json", telegram_token=TOKEN),
                  json_log)  # the token scrubbed as the bot's own settings have it
    async def body() -> int:
        server = FakeBotApi()
        await server.start()
        store = await Store.open(tmp_path / "tg.sqlite")
        service = Service(store, pictures=NoPictures(), ai_delay=0, seed=1,
                          default_timer=None)
        bot = TelegramBot(service, TOKEN, server.base_url, poll_timeout=1)
        router = Router(expect=("telegram",))
        stop = asyncio.Event()
        task = asyncio.create_task(bot.run(router, stop))
        try:
            await asyncio.wait_for(bot.ready.wait(), 15)
            user = TgUser(4242, "Ann")
            server.start_bot(user)
            await server.command(user, -100555, "/domino classic players=2 ai=1")
            await server.wait_until(lambda: len(service.tables) == 1, 15)
            tid = next(iter(service.tables))
            found = None
            for _ in range(100):
                for m in reversed(server.chat(user.id)):
                    buttons = [b for b in server.buttons(m) if b.get("callback_data", "")
                               .startswith(f"{tid}:") and b["text"].startswith("✅")]
                    if buttons:
                        found = m, buttons[0]["callback_data"]
                        break
                if found:
                    break
                await asyncio.sleep(0.05)
            assert found, "no playable tile in the hand message"
            before = len(committed(json_log))
            query = await server.press(user, found[0], found[1])
            await server.answered(query)
            pressed = committed(json_log)[before:]
            assert pressed and all(g["table"] == tid and g["platform"] == "telegram"
                                   for g in pressed), pressed
            return tid
        finally:
            await server.release()
            stop.set()
            await asyncio.wait_for(task, 30)
            await store.close()
            await server.close()

    asyncio.run(body())
    assert TOKEN not in json_log.getvalue() and "[token]" in json_log.getvalue()
