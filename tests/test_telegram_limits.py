"""Telegram's limits, enforced by the fake Bot API as the real server does (400 with its
descriptions): text, caption, callback data and keyboard sizes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from tests.fake_telegram import FakeBotApi, TgUser


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
