"""A TEST FIXTURE, not the server: serves the table page and a WebSocket speaking the web
contract (issue 30), backed by a real core game, so the page can be tested in a browser
before (and apart from) `bot/web`'s server. One human seat (or a spectator: seat None);
the other seats play random legal moves at once. Every payload sent is kept in
`Harness.sent`, with the other seats' hands at that time in `Harness.secrets` (privacy).

    harness = Harness("classic", seed=3)
    with serving(harness) as url:   # an aiohttp server in a thread, on 127.0.0.1
        ...open url in a browser...
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.web.board import page_strings, state_payload
from core import variants

WEB = Path(__file__).resolve().parent.parent / "bot" / "web"
NAMES = ["Ann", "Bob", "Cyd", "Dee"]


class Harness:
    """One game, its human seat, its version counter and every payload sent."""

    def __init__(self, slug: str, *, seat: int | None = 0, seed: int = 1, lang: str = "en",
                 players: int | None = None, **options: Any) -> None:
        self.slug = slug
        self.game = variants.get(slug).new(players=players, seed=seed, **options)
        self.seat = seat
        self.lang = lang
        self.rng = random.Random(seed)
        self.version = 0
        self.sent: list[dict[str, Any]] = []
        self.secrets: list[set[str]] = []  # per payload sent: the other seats' hands then
        self.moves: list[str] = []
        self.lock = asyncio.Lock()
        self.sockets: set[web.WebSocketResponse] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.hellos: list[int] = []  # the version each hello said it had seen

    def drop(self) -> None:
        """Close every open socket (as a lost connection), from the test's thread."""
        async def close() -> None:
            for ws in list(self.sockets):
                await ws.close()
        assert self.loop is not None
        asyncio.run_coroutine_threadsafe(close(), self.loop).result(10)

    def step(self) -> None:
        """One move of the seat to move, by the first legal move (a spectator's table)."""
        g = self.game
        g.play(g.parse_move(str(g.legal_moves()[0])))
        self.version += 1

    def computers(self) -> None:
        """The other seats play until the human's turn (a spectator's table waits for
        `step`)."""
        g = self.game
        while (self.seat is not None and not g.over and g.to_move is not None
               and g.to_move != self.seat):
            move = self.rng.choice(g.legal_moves())
            g.play(g.parse_move(str(move)))
            self.version += 1

    def state(self) -> dict[str, Any]:
        seat = self.seat
        view = self.game.view(None if seat is None else seat)
        payload = state_payload(view, names=NAMES[:self.game.players], lang=self.lang)
        self.sent.append(payload)
        self.secrets.append({str(x) for s in range(self.game.players) if s != seat
                             for x in self.game.view(s).get("hand") or []})
        return {"type": "state", "version": self.version, "table": 1,
                "title": self.slug, "state": payload}

    def play(self, text: str) -> str | None:
        """Play the human's move; an error text when it is not legal."""
        g = self.game
        if g.over or self.seat is None or g.to_move != self.seat:
            return "not your turn"
        if text not in [str(m) for m in g.legal_moves()]:
            return f"not a legal move: {text}"
        g.play(g.parse_move(text))
        self.moves.append(text)
        self.version += 1
        self.computers()
        return None


def page(harness: Harness) -> str:
    config = {"ws": "/ws", "lang": harness.lang, "strings": page_strings(harness.lang)}
    text = (WEB / "templates" / "table.html").read_text(encoding="utf-8")
    return (text.replace("{{lang}}", harness.lang)
            .replace("{{title}}", html.escape(harness.slug))
            .replace("{{config}}", json.dumps(config).replace("<", "\\u003c")))


def make_app(harness: Harness) -> web.Application:
    async def index(request: web.Request) -> web.Response:
        return web.Response(text=page(harness), content_type="text/html")

    async def socket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        harness.sockets.add(ws)
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            async with harness.lock:
                if data.get("type") == "hello":
                    harness.hellos.append(int(data.get("version", -1)))
                    harness.computers()
                    await ws.send_json(harness.state())
                elif data.get("type") == "move":
                    error = harness.play(str(data.get("move")))
                    if error:
                        await ws.send_json({"type": "error", "text": error})
                    else:
                        await ws.send_json(harness.state())
        harness.sockets.discard(ws)
        return ws

    async def close_sockets(app: web.Application) -> None:
        for ws in list(harness.sockets):
            await ws.close()

    app = web.Application()
    app.on_shutdown.append(close_sockets)
    app.router.add_get("/", index)
    app.router.add_get("/ws", socket)
    app.router.add_static("/static", WEB / "static")
    return app


@contextmanager
def serving(harness: Harness) -> Iterator[str]:
    """Serve `harness` on 127.0.0.1 (a free port) in a thread; yields the page's URL."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    box: dict[str, Any] = {}

    async def start() -> None:
        harness.loop = asyncio.get_running_loop()
        runner = web.AppRunner(make_app(harness))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        box["runner"] = runner
        box["port"] = runner.addresses[0][1]
        ready.set()

    thread = threading.Thread(target=lambda: (loop.run_until_complete(start()),
                                              loop.run_forever()), daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield f"http://127.0.0.1:{box['port']}/"
    finally:
        asyncio.run_coroutine_threadsafe(box["runner"].cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
