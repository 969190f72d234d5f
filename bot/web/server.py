"""The web table's server (aiohttp): the table page of a signed link, the Telegram Mini App's
session, the live socket, a finished game's page, and the static files.

Every state a socket receives is built from `game.view(seat)` of the seat the link's user
holds at that moment (a human seat only), or the public view, through the board helper's
`state_payload`; every move goes through `Service.play` with `where=` the user's own web
"chat" (private: a seated user only), so that every check is the chat's.  The service tells
this server of each change (bot/service/live.py); the states are sent within the same event
loop turn that reads them.  No token, launch data or link key is ever logged (no access log).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from telegram_webapp_auth.auth import TelegramAuthenticator, generate_secret_key
from telegram_webapp_auth.errors import BaseTWAError

from .. import health, logcontext
from ..i18n import lang_for, t
from ..service import live, notify
from ..service.guard import Where
from ..service.messages import Message
from ..service.numbers import table_number
from ..service.service import Service, User
from . import actions, finished, guards, outbox, pages
from . import activity as activity_mod
from . import state as web_state
from .home import Home, LocalUser, loopback
from .links import Grant, Links, publish
from .outbox import Sent, seat_of, waiting_state
from .settings import Activity
from .state import title_of

__all__ = ["Watcher", "WebTable", "seat_of", "waiting_state"]

log = logging.getLogger("domino.web")
Deliver = Callable[[list[Message]], Awaitable[None]]
HERE = Path(__file__).parent
MAX_BODY = 16 * 1024  # bytes of a request body
MAX_MESSAGE = 4096  # bytes of a socket message
RATE = 8.0  # socket messages per second, on average
BURST = 20  # socket messages at once
MAX_INIT_DATA = 4096
SEND_TIMEOUT = 5.0
MAX_SOCKETS = 10_000  # open sockets at once (beyond: 503)
POLL = 1.0  # seconds between reads of the watched tables when other processes share the base


@dataclass(eq=False)
class Watcher:
    """One open socket: its grant, its language, its message budget."""

    ws: web.WebSocketResponse
    grant: Grant
    lang: str
    sent: Sent = field(default_factory=Sent)  # what it has (bot/web/outbox.py)
    tokens: float = float(BURST)
    at: float = field(default_factory=time.monotonic)

    def spend(self) -> bool:
        """False when the socket sends faster than RATE (beyond a BURST)."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class WebTable:
    """The web adapter: one per service and process."""

    def __init__(self, service: Service, links: Links, deliver: Deliver, *,
                 telegram_token: str | None = None, auth_age: int = 86_400,
                 public_url: str = "", local_user: LocalUser | None = None,
                 activity: Activity | None = None, discord_token: str | None = None) -> None:
        self.service = service
        self.links = links
        self.deliver = deliver
        self.auth_age = auth_age
        self._auth = (TelegramAuthenticator(generate_secret_key(telegram_token))
                      if telegram_token else None)
        self.public_host = urlsplit(public_url or links.base_url).netloc.lower()
        self.watchers: dict[int, set[Watcher]] = {}
        self._dirty: set[int] = set()
        self._movers: dict[int, str] = {}  # table -> the user whose move is being played
        self._tasks: set[asyncio.Task[None]] = set()
        self.runner: web.AppRunner | None = None
        self.port = 0
        self.max_sockets = MAX_SOCKETS
        self.home = Home(self, local_user)  # the local mode's home page (bot/web/home.py)
        self.shared = web_state.SharedStates()
        self.activity = activity  # the Discord Activity (bot/web/activity.py)
        self.discord = activity_mod.Discord(activity, discord_token) if activity else None
        activity_mod.publish(service, activity)
        live.listen(service, self._changed)

    def __repr__(self) -> str:
        return f"WebTable({self.links.base_url!r})"

    # -- the application ---------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.on_response_prepare.append(self._headers)
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", health.readyz(self.service))  # bot/health.py
        app.router.add_get("/t/{token}", self.table_page)
        app.router.add_get("/tg", self.miniapp_page)
        app.router.add_get("/launch.js", self.launch_js)
        app.router.add_post("/api/telegram/session", self.telegram_session)
        activity_mod.add_routes(self, app)  # the Discord Activity: /discord, its session
        app.router.add_get("/ws", self.socket)
        app.router.add_get("/g/{table}", self.game_page)
        self.home.add_routes(app)
        static = HERE / "static"
        if static.is_dir():
            app.router.add_static("/static", static)
        return app

    async def start(self, host: str, port: int) -> int:
        """Listen on host:port (0: a free port); the port listened on."""
        self.runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self.runner.setup()
        self.home.local = self.home.local_user is not None and loopback(host)
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        if self.service.store.shared:  # other processes move too: hear them (LISTEN/NOTIFY)
            notify.start(self.service)
            self._spawn(self._poll())
        sockets = site._server.sockets if site._server else []  # type: ignore[union-attr]
        self.port = sockets[0].getsockname()[1] if sockets else port
        return self.port

    async def stop(self) -> None:
        live.forget(self.service, self._changed)
        publish(self.service, None)
        activity_mod.publish(self.service, None)
        for watchers in list(self.watchers.values()):
            for w in list(watchers):
                with contextlib.suppress(Exception):
                    await w.ws.close(code=1012, message=b"service restart")  # the bot stops
        for task in list(self._tasks):
            task.cancel()
        if self.runner is not None:
            await self.runner.cleanup()
        if self.discord is not None:
            await self.discord.close()

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        """Every answer: a strict Content-Security-Policy (from the configured address, never
        the request's Host: bot/web/guards.py) and no sniffing, no referrer."""
        response.headers["Content-Security-Policy"] = (
            activity_mod.policy(self.public_host) if activity_mod.framed(request)
            else guards.policy(self.public_host, miniapp=request.path == "/tg"))
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        if not request.path.startswith("/static/"):
            response.headers["Cache-Control"] = "no-store"

    # -- pages ---------------------------------------------------------------------------

    async def healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    def _lang(self, request: web.Request, user: str = "") -> str:
        known = self.service._langs.get(user) if user else None
        if known:
            return known
        accept = request.headers.get("Accept-Language", "")[:100]
        return lang_for(accept.split(",")[0].split(";")[0].strip() or None,
                        self.service.default_lang)

    def _refuse(self, request: web.Request, status: int = 403) -> web.Response:
        return web.Response(text=pages.refusal(self._lang(request), status), status=status,
                            content_type="text/html")

    async def table_page(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        grant = self.links.check(token)
        if grant is None:
            return self._refuse(request)
        lang = self._lang(request, grant.user)
        title = await live.read(self.service, grant.table, lambda row, _g: title_of(row, lang))
        if title is None:
            return self._refuse(request, 404)
        return web.Response(text=pages.table_page(lang, title, f"/ws?token={token}"),
                            content_type="text/html")

    async def miniapp_page(self, request: web.Request) -> web.Response:
        """The Mini App: /launch.js trades Telegram's launch data for a session, then loads
        the board's script."""
        table = table_number(request.query.get("table", "")) or None
        return web.Response(text=pages.table_page(self._lang(request), "Domino", None,
                                                  miniapp=True, table=table),
                            content_type="text/html")

    async def launch_js(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(HERE / "launch.js",
                                headers={"Content-Type": "text/javascript; charset=utf-8"})

    async def telegram_session(self, request: web.Request) -> web.Response:
        """`init_data` (Telegram's launch data) checked with the bot token's key and its age
        bounded: 200 with a session (a signed token for the user), else 401."""
        refused = web.json_response({"error": "invalid launch data"}, status=401)
        try:
            body = await request.json()
        except (ValueError, web.HTTPException):
            return refused
        init_data = body.get("init_data") if isinstance(body, dict) else None
        if (self._auth is None or not isinstance(init_data, str)
                or not 0 < len(init_data) <= MAX_INIT_DATA):
            return refused
        try:
            data = self._auth.validate(init_data, expr_in=timedelta(seconds=self.auth_age))
        except (BaseTWAError, ValueError, TypeError, OverflowError):
            return refused
        if data.user is None or data.auth_date > time.time() + 300:
            return refused
        user = f"telegram:{data.user.id}"
        table = await self._session_table(user, data.start_param or "", body.get("table"))
        token = self.links.token(table or 0, user)
        return web.json_response({
            "token": token, "user": user, "table": table,
            "ws": f"/ws?token={token}" if table else None,
            "lang": lang_for(data.user.language_code, self.service.default_lang)})

    async def _session_table(self, user: str, start: str, asked: Any) -> int | None:
        """The table a Mini App session may watch: the one of a signed `startapp` grant (the
        table message's button: its seat's view for a player there, else the public view),
        or a table named plainly where `user` holds a human seat; else none (a table number
        alone proves nothing: anyone can write one)."""
        grant = self.links.check_compact(start) if start else None
        if grant is not None:
            return grant.table
        table = table_number(start) or table_number(asked if asked is not None else "")
        if table is None:
            return None
        seated = await live.read(self.service, table,
                                 lambda row, _g: seat_of(row, user) is not None)
        return table if seated else None

    async def game_page(self, request: web.Request) -> web.Response:
        return await finished.game_page(self, request)

    # -- the socket ------------------------------------------------------------------------

    @functools.cached_property
    def sockets(self) -> guards.SocketCounts:
        """The sockets open per link and per user (bounded: bot/web/guards.py)."""
        return guards.SocketCounts()

    async def socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if not (guards.origin_ok(origin, self.public_host)
                or activity_mod.origin_ok(origin, self.activity)):
            return web.Response(status=403, text="origin refused")
        token = request.query.get("token", "")
        grant = self.links.check(token)
        if grant is None:
            return web.Response(status=403, text="link refused")
        if sum(len(w) for w in self.watchers.values()) >= self.max_sockets:
            return web.Response(status=503, text="too many open sockets; try again later")
        bound = self.sockets.take(token, grant.user)
        lang = self._lang(request, grant.user)
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
        try:
            await ws.prepare(request)
        except BaseException:
            if bound is None:
                self.sockets.give(token, grant.user)
            raise
        if bound is not None:  # one link, or one user, has enough sockets open
            await self._close(Watcher(ws, grant, lang), guards.LIMIT_CODE, t(
                lang, "Too many pages are open with this link: close one and try again.")
                if bound == "link" else t(lang, "Too many pages are open for you: close one "
                                                "and try again."))
            return ws
        watcher = Watcher(ws, grant, lang)
        self.watchers.setdefault(grant.table, set()).add(watcher)
        try:
            await self._send_state(grant.table, [watcher])
            async for msg in guards.received(ws, grant, self.links.clock,
                                             self.sockets.interval):
                if msg is None:  # the link expired: every move checks it, and the clock
                    await self._expired(watcher)
                    break
                if msg.type != WSMsgType.TEXT:
                    break
                if not watcher.spend():
                    await self._error(watcher, t(watcher.lang, "Too many messages; slow down."))
                    await ws.close(code=1008, message=b"rate")
                    break
                await logcontext.within(grant.table, "web", self._handle(watcher, msg.data))
        finally:
            self.sockets.give(token, grant.user)
            watchers = self.watchers.get(grant.table)
            if watchers is not None:
                watchers.discard(watcher)
                if not watchers:
                    del self.watchers[grant.table]
        return ws

    async def _expired(self, w: Watcher) -> None:
        await self._close(w, guards.EXPIRED_CODE, t(
            w.lang, "This link has expired: ask the bot for a new one (the /web command)."))

    async def _close(self, w: Watcher, code: int, text: str) -> None:
        """Close a socket with `code`, after an error message the page shows (`text`); the
        close's reason is `text` too, cut to what a close frame holds."""
        await self._error(w, text)
        reason = text.encode()[:120].decode("utf-8", "ignore").encode()
        with contextlib.suppress(Exception):
            await w.ws.close(code=code, message=reason)

    async def _error(self, w: Watcher, text: str) -> None:
        with contextlib.suppress(Exception):
            await w.ws.send_str(json.dumps({"type": "error", "text": text}))

    async def _handle(self, w: Watcher, data: str) -> None:
        try:
            msg = json.loads(data)
        except ValueError:
            msg = None
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "hello":
            w.sent = Sent()  # the page asks: the whole state, even if unchanged
            await self._send_state(w.grant.table, [w])
        elif kind == "move":
            await self._move(w, msg.get("move"), msg.get("version"))  # type: ignore[union-attr]
        elif kind == "review":
            await self._review(w)
        elif kind == "action":
            await actions.act(self, w, msg)  # type: ignore[arg-type]
        else:
            await self._error(w, t(w.lang, "This message is not understood."))

    def _acting(self, w: Watcher) -> tuple[User, Where]:
        """Who acts through this page (the link's user, by their name at the table when it
        is in memory) and from where: their own private place, as a seated player's private
        chat."""
        user_id = w.grant.user
        table = self.service.tables.get(w.grant.table)
        seat = seat_of(table.row, user_id) if table is not None else None
        name = table.row.seats[seat].name if table is not None and seat is not None else ""
        return (User(user_id, name or user_id.split(":", 1)[-1]),
                Where(f"web:{user_id}", "", private=True))

    async def _move(self, w: Watcher, move: Any, version: Any) -> None:
        """A move, played through the Service as the chat's are (every check is its)."""
        if w.grant.spectator:
            await self._error(w, t(w.lang, "Spectators cannot play. Ask the bot for your own "
                                   "link (the /web command)."))
            return
        if (not isinstance(move, str) or not move.strip() or len(move) > 200
                or not isinstance(version, int) or isinstance(version, bool)):
            await self._error(w, t(w.lang, "This message is not understood."))
            return
        user, where = self._acting(w)
        self._movers[w.grant.table] = w.grant.user  # its state leaves first (`_changed`)
        try:
            out = await self.service.play(user, w.grant.table, move, turn=version,
                                          where=where)
        finally:
            if self._movers.get(w.grant.table) == w.grant.user:
                del self._movers[w.grant.table]
        errors = [m for m in out if m.kind == "error" and m.to == user.id]
        if errors:  # nothing changed: the reason goes to the page only
            for m in errors:
                await self._error(w, m.text)
            return
        await self.deliver(out)  # the chat's table message, hands and prompts

    async def _review(self, w: Watcher) -> None:
        """A finished game reviewed for the player of this link, as the chat's /review gives
        it (bot/service/review.py: from the player's own seat only), to this page only."""
        if w.grant.spectator:
            await self._error(w, t(w.lang, "Only the players of a game can review it."))
            return
        user, where = self._acting(w)
        out = [m for m in await self.service.review(user, w.grant.table, where=where)
               if m.to == user.id]
        if any(m.kind == "error" for m in out):
            for m in out:
                await self._error(w, m.text)
            return
        with contextlib.suppress(Exception):
            await w.ws.send_str(json.dumps({"type": "review", "text": "\n\n".join(
                m.text for m in out)}, ensure_ascii=False))

    # -- live states ---------------------------------------------------------------------

    def _changed(self, table_ids: set[int]) -> None:
        """From the service (under a table's lock): send the new states soon after; a move
        made from a page here: its player's pages' states made now, sent as soon as the
        service lets the loop run (before the chat's messages, the other pages, the
        computers' moves)."""
        for table_id in table_ids:
            mover = self._movers.pop(table_id, None)
            if mover is not None and table_id in self.watchers:
                self._mover_first(table_id, mover)
            if table_id in self.watchers and table_id not in self._dirty:
                self._dirty.add(table_id)
                self._spawn(self._push(table_id))

    def _spawn(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _poll(self, interval: float | None = None) -> None:
        """Several processes on one database (docs/web.md): their changes are heard at once
        (bot/service/notify.py calls `_changed`). Only while that listening connection is
        down are the watched tables read again every `interval` seconds, and once when it is
        back (to catch up on what was not heard); a state that did not change is not sent."""
        while True:
            if live.listening(self.service):
                await live.link_changed(self.service)
                if live.listening(self.service):  # back: catch up once
                    self._changed(set(self.watchers))
                continue
            await live.link_changed(self.service, interval or POLL)  # or back: at once
            self._changed(set(self.watchers))

    async def _push(self, table_id: int) -> None:
        self._dirty.discard(table_id)
        self.shared.keep(self.watchers)
        try:
            await self._send_state(table_id, list(self.watchers.get(table_id, ())))
        except Exception:
            log.exception("table %s: the web states could not be sent", table_id)

    def _mover_first(self, table_id: int, user: str) -> None:
        """The states of `user`'s pages of the table, made now (the service holds the
        table's lock) and sent by a task of their own."""
        table = self.service.tables.get(table_id)
        mine = [w for w in self.watchers.get(table_id, ()) if w.grant.user == user]
        if table is None or table.game is None or not mine:
            return
        try:
            ready = outbox.each(self, table.row, table.game, mine)
        except Exception:
            log.exception("table %s: the mover's web state could not be made", table_id)
            return
        for w, text in ready:
            self._spawn(self._send(w, text))

    async def _send_state(self, table_id: int, watchers: list[Watcher]) -> None:
        """Each watcher's state: its seat's view (read now, under the table's lock)."""
        if not watchers:
            return
        ready = await live.read(self.service, table_id, lambda row, game: outbox.each(
            self, row, game, watchers))
        if ready is None:
            for w in watchers:
                await self._error(w, t(w.lang, "There is no such game here."))
            return
        await asyncio.gather(*(self._send(w, text) for w, text in ready))

    async def _send(self, w: Watcher, text: str) -> None:
        if w.ws.closed:
            return
        try:  # written in this task's own step (wait_for would make one more task)
            async with asyncio.timeout(SEND_TIMEOUT):
                await w.ws.send_str(text)
        except (TimeoutError, ConnectionError, RuntimeError):
            with contextlib.suppress(Exception):
                await w.ws.close()
