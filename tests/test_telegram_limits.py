"""Telegram's limits, enforced by the fake Bot API as the real server does (400 with its
descriptions): text, caption, callback data and keyboard sizes."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from core import variants
from tests.fake_telegram import FakeBotApi, TgUser
from tests.test_telegram import ALICE, GROUP, Rig, run_rig


def keyboard(*rows: list[tuple[str, str]]) -> str:
    return json.dumps({"inline_keyboard": [[{"text": label, "callback_data": data}
                                            for label, data in row] for row in rows]})


def test_the_fake_refuses_what_telegram_refuses() -> None:
    async def main() -> list[tuple[int, str]]:
        server = FakeBotApi()
        await server.start()
        user = TgUser(5, "ann")
        server.start_bot(user)
        out = []
        try:
            async with aiohttp.ClientSession() as http:
                async def call(method: str, **params: Any) -> tuple[int, str]:
                    async with http.post(f"{server.base_url}{server.token}/{method}",
                                         data=params) as r:
                        answer = await r.json()
                        return r.status, answer.get("description", "")

                out.append(await call("sendMessage", chat_id=5, text="x" * 4097))
                out.append(await call("sendMessage", chat_id=5, text=" "))
                out.append(await call("sendMessage", chat_id=5, text="ok",
                                      reply_markup=keyboard([("b", "1:2:p:" + "x" * 60)])))
                out.append(await call("sendMessage", chat_id=5, text="ok",
                                      reply_markup=keyboard([(str(i), str(i))
                                                             for i in range(9)])))
                out.append(await call("sendMessage", chat_id=5, text="ok",
                                      reply_markup=keyboard(*[[(str(i), str(i))]
                                                              for i in range(101)])))
                out.append(await call("sendMessage", chat_id=5, text="ok",
                                      reply_markup=keyboard([("", "1")])))
                out.append(await call("sendMessage", chat_id=5, text="<b>" + "x" * 4096
                                      + "</b>", parse_mode="HTML"))  # tags do not count
                out.append(await call("sendMessage", chat_id=5, text="ok",
                                      reply_markup=keyboard([("b", "1:2:p:" + "x" * 58)])))
                out.append(await call("sendPhoto", chat_id=5, photo="photo1",
                                      caption="x" * 1025))
                sent = len(server.chat(5))
        finally:
            await server.close()
        return [*out, (sent, "")]

    answers = asyncio.run(main())
    assert answers == [(400, "Bad Request: message is too long"),
                       (400, "Bad Request: message text is empty"),
                       (400, "Bad Request: BUTTON_DATA_INVALID"),
                       (400, "Bad Request: too many buttons in a row"),
                       (400, "Bad Request: reply markup is too long"),
                       (400, "Bad Request: BUTTON_TEXT_EMPTY"),
                       (200, ""), (200, ""),
                       (400, "Bad Request: message caption is too long"), (2, "")]


@pytest.mark.parametrize("slug", [s for s in variants.names()
                                  if variants.get(s).family != "line"])
def test_every_family_plays_on_telegram_within_its_limits(tmp_path: Path, slug: str) -> None:
    """A few random presses of the private hand's buttons in every family, through
    python-telegram-bot: Telegram refuses none of the messages (the fake enforces its
    limits)."""
    async def body(rig: Rig) -> None:
        server = rig.server
        server.start_bot(ALICE)
        rng = random.Random(slug)
        n = variants.get(slug).default_players
        extra = {"forty-two": " target=42", "texas-42": " target=2"}.get(slug, "")
        await rig.say(ALICE, GROUP, f"/domino {slug} players={n} ai={n - 1}{extra}")
        assert not server.over_limits, [c.params for c in server.over_limits]
        for _ in range(12):
            hands = [m for m in server.chat(ALICE.id) if server.buttons(m)]
            if not hands:
                break
            hand = hands[-1]
            data = [b["callback_data"] for b in server.buttons(hand) if "callback_data" in b]
            await rig.press(ALICE, hand, rng.choice(data))
            assert not server.over_limits, [c.params for c in server.over_limits]
        assert server.chat(ALICE.id), "no private message reached the player"

    run_rig(tmp_path, body)
