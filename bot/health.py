"""Readiness (`/readyz` on the web table) and the gate that a clean stop closes.

Readiness
    `/healthz` says that the process answers; `/readyz` that it can serve: the database
    answers a query within two seconds, every configured platform has connected (its adapter
    registered with the router), and the bot is not stopping. 200 "ready", else 503 with
    one line per failing check.

The gate
    Every command and press goes through the service's door (bot/service/guard.py), which
    calls `enter` and `leave`: while the bot runs, they count the calls under way and time
    each answer (bot/metrics.py); once `close` is called (SIGTERM), a new command gets "The
    bot is restarting" and changes nothing; it waits for the calls under way, so that their
    writes are done before the store closes, and `answered` for the tasks that made them to
    send their answers before the platforms close. Calls made from inside a call (a press
    that plays) are never refused.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import metrics
from .i18n import t

if TYPE_CHECKING:
    from aiohttp import web

    from .service.host import Host
    from .service.messages import Message

DB_TIMEOUT = 2.0
QUIET = 0.3  # seconds without a new press before the platforms close
_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar("domino_door_depth", default=0)


@dataclass
class Gate:
    """A service's door calls under way, and whether new ones are refused."""

    closed: bool = False
    under_way: int = 0
    idle: asyncio.Event = field(default_factory=asyncio.Event)
    platforms: tuple[str, ...] = ()  # configured: each must connect to be ready
    # the tasks that made door calls (an adapter's handler of a press: after the door, it
    # still sends the answer)
    callers: weakref.WeakSet[asyncio.Task[Any]] = field(default_factory=weakref.WeakSet)
    calls: int = 0  # door calls begun (refused ones too), outermost only
    router: Any = None  # bot/app.py's Router: a platform is connected once registered


_gates: weakref.WeakKeyDictionary[Any, Gate] = weakref.WeakKeyDictionary()


def gate(service: Host) -> Gate:
    found = _gates.get(service)
    if found is None:
        found = _gates[service] = Gate()
        found.idle.set()
    return found


def enter(service: Host) -> tuple[contextvars.Token[int], float] | None:
    """A door call begins; None when it is refused (the bot is stopping)."""
    g = gate(service)
    depth = _DEPTH.get()
    task = asyncio.current_task() if depth == 0 else None
    if task is not None:  # its answer (a refusal too) is sent after the door
        g.callers.add(task)
        g.calls += 1
    if g.closed and depth == 0:
        return None
    g.under_way += 1
    g.idle.clear()
    return _DEPTH.set(depth + 1), time.perf_counter()


def leave(service: Host, user_id: str, entry: tuple[contextvars.Token[int], float]) -> None:
    """A door call ended: its answer timed (the outermost call's only)."""
    token, began = entry
    _DEPTH.reset(token)
    g = gate(service)
    g.under_way -= 1
    if g.under_way <= 0:
        g.under_way = 0
        g.idle.set()
    if _DEPTH.get() == 0:
        metrics.answered(user_id, time.perf_counter() - began)


def refusal(lang: str, user_id: str) -> list[Message]:
    """The answer to a command that comes while the bot stops."""
    from .service.messages import Message

    return [Message("", t(lang, "The bot is restarting; nothing was changed. Please try "
                          "again in a minute."), to=user_id, kind="error")]


async def close(service: Host, timeout: float) -> bool:
    """Refuse new commands, and wait (at most `timeout` seconds) for those under way; False
    if some were still running."""
    g = gate(service)
    g.closed = True
    try:
        await asyncio.wait_for(g.idle.wait(), timeout)
    except TimeoutError:
        return False
    return True


async def answered(service: Host, exclude: Iterable[asyncio.Task[Any]], timeout: float,
                   quiet: float = QUIET) -> None:
    """Wait (at most `timeout` seconds) for the tasks that made door calls to end: an
    adapter's handler sends its answer after the door (a long-lived task, one that handles
    every update in turn, is simply waited for until `timeout`). Then wait until no new
    caller came for `quiet` seconds: a press the platform delivered just before the stop
    reaches the door after its acknowledgement (its refusal is an answer to send too)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    skip = {*exclude, asyncio.current_task()}
    g = gate(service)
    while (left := deadline - loop.time()) > 0:
        late = [t for t in g.callers if not t.done() and t not in skip]
        if late:
            await asyncio.wait(late, timeout=left)
            continue
        seen = g.calls
        await asyncio.sleep(min(quiet, left))
        if g.calls == seen:
            return


def expect(service: Host, platforms: list[str], router: Any) -> None:
    """The platforms that must be connected for the bot to be ready."""
    g = gate(service)
    g.platforms, g.router = tuple(platforms), router


async def problems(service: Host) -> list[str]:
    """What keeps the bot from serving (empty: ready)."""
    g = gate(service)
    out = []
    if g.closed:
        out.append("stopping")
    try:
        await asyncio.wait_for(service.store.link.fetch("SELECT 1"), DB_TIMEOUT)
    except Exception as exc:
        out.append(f"database: {type(exc).__name__}")
    connected = set(g.router.prefixes) if g.router is not None else set()
    out += [f"{name}: not connected" for name in g.platforms if name not in connected]
    return out


def readyz(service: Host) -> Any:
    """The aiohttp handler of /readyz for `service` (bot/web/server.py's route)."""
    from aiohttp import web

    async def handler(request: web.Request) -> web.Response:
        found = await problems(service)
        if found:
            return web.Response(text="\n".join(found) + "\n", status=503)
        return web.Response(text="ready\n")

    return handler
