"""Helpers for the web table's tests: a real service on a real SQLite file, the real aiohttp
server on loopback, and Telegram launch data signed the way Telegram signs it."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp

from bot.service.messages import Message
from bot.service.pictures import NoPictures
from bot.service.service import Service, User
from bot.storage import Store
from bot.web.links import Links, publish
from bot.web.server import WebTable
from tests.service_helpers import ALICE

BOT_TOKEN = "123456:TEST-token-for-the-mini-app"
SECRET = "a test link key of 32 characters"


@dataclass
class Env:
    service: Service
    links: Links
    web: WebTable
    http: aiohttp.ClientSession
    base: str
    delivered: list[Message] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return self.base

    async def socket(self, token: str, origin: str | None = None) -> Any:
        headers = {"Origin": self.origin if origin is None else origin} if origin != "" else {}
        return await self.http.ws_connect(f"{self.base}/ws?token={token}", headers=headers)


async def serving(tmp_path: Path, body: Callable[[Env], Awaitable[Any]], **kw: Any) -> Any:
    """Run `body` with a service (no AI delay, no turn timer) and its web table listening on
    127.0.0.1 (a free port); `local_user=` (a callable giving a User): the local mode's home
    page, as the console serves it."""
    store = await Store.open(tmp_path / "web.sqlite")
    service = Service(store, pictures=NoPictures(), ai_delay=kw.pop("ai_delay", 0), seed=1,
                      default_timer=None)
    await service.start()
    delivered: list[Message] = []

    async def deliver(messages: list[Message]) -> None:
        delivered.extend(messages)

    links = Links(SECRET, "", ttl=3600, clock=kw.pop("clock", time.time))
    web = WebTable(service, links, deliver, telegram_token=BOT_TOKEN, auth_age=3600,
                   local_user=kw.pop("local_user", None), **kw.pop("web_options", {}))
    port = await web.start("127.0.0.1", 0)
    links.base_url = f"http://127.0.0.1:{port}"
    web.public_host = f"127.0.0.1:{port}"
    publish(service, links)
    try:
        async with aiohttp.ClientSession() as http:
            return await body(Env(service, links, web, http, links.base_url, delivered))
    finally:
        await web.stop()
        await store.close()


async def state(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of a socket, as JSON."""
    msg = await asyncio.wait_for(ws.receive(), timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    return json.loads(msg.data)  # type: ignore[no-any-return]


def whole_logs(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One socket's messages with each state's whole log put together as the page does
    (docs/web-page.md: `log_from` n > 0 brings the entries after n); every part must follow
    the log before it (its `log_from` is the `n` of the latest entry the socket has)."""
    log: list[dict[str, Any]] = []
    for msg in messages:
        s = msg.get("state") if msg.get("type") == "state" else None
        if s is None or "log" not in s:
            continue
        since = s.get("log_from", 0)
        if since:
            assert since == (log[0]["n"] if log else 0), (since, log[:1], msg["version"])
            s["log"] = s["log"] + log
        log = s["log"]
    return messages


def init_data(token: str = BOT_TOKEN, *, auth_date: int | None = None, user_id: int = 42,
              start_param: str | None = "1", **extra: str) -> dict[str, str]:
    """Launch data signed as Telegram signs it (core.telegram.org/bots/webapps, "Validating
    data received via the Mini App"): the fields sorted, "key=value" lines, HMAC-SHA256 keyed
    by HMAC-SHA256("WebAppData", bot token)."""
    fields = {"auth_date": str(int(time.time()) if auth_date is None else auth_date),
              "query_id": "AAH-test",
              "user": json.dumps({"id": user_id, "first_name": "Ann", "language_code": "fr"},
                                 separators=(",", ":")), **extra}
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return fields


def encode(fields: dict[str, str]) -> str:
    return urlencode(fields)


async def play_through_service(env: Env, tid: int, user: User = ALICE) -> None:
    """`user` plays the first legal move until the game ends (the computers answer)."""
    for _ in range(400):
        table = env.service.tables.get(tid)
        game = table.game if table is not None else None
        if game is None or game.over:
            return
        await env.service.play(user, tid, str(game.legal_moves()[0]), turn=game.turn)
    raise AssertionError(f"table {tid}: not over")
