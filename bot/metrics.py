"""Prometheus metrics (DOMINO_METRICS=HOST:PORT serves /metrics; off when unset): the one home
of every `domino_` metric, through the `prometheus-client` library.

Counted where it happens (a call each: play.py's commit, the door's answer, the platforms'
HTTP answers, Telegram's chat queues), or read when Prometheus scrapes (`Scrape`, run on the
bot's event loop: tables by family and status, tournaments under way, open web sockets,
Telegram's queued writes). The store's public coroutine methods and the service's tick are
timed by `install`, which wraps them on the instances (no edit in the store or the service).

No label holds a user, a channel or a table: platforms, families, statuses, store methods and
refusal kinds only, so the number of series stays small.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from .storage.rows import DuplicateMove

if TYPE_CHECKING:
    from .service.host import Host

log = logging.getLogger("domino.metrics")
REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
DB = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)

MOVES = Counter("domino_moves", "Moves committed to the store (rate() gives moves a second).",
                ["family"], registry=REGISTRY)
PRESS = Histogram("domino_press_seconds", "From a player's press or command reaching the "
                  "service to its answer being ready, per platform.", ["platform"],
                  buckets=FAST, registry=REGISTRY)
REFUSED = Counter("domino_platform_refused_calls", "Calls the platform's API refused (4xx "
                  "other than 429), per platform and status.", ["platform", "status"],
                  registry=REGISTRY)
LIMITED = Counter("domino_platform_rate_limited", "Calls the platform's API answered with "
                  "429 Too Many Requests.", ["platform"], registry=REGISTRY)
DB_CALLS = Histogram("domino_db_call_seconds", "Store calls' latency, per store method.",
                     ["method"], buckets=DB, registry=REGISTRY)
DB_ERRORS = Counter("domino_db_call_errors", "Store calls that raised, per store method.",
                    ["method"], registry=REGISTRY)
TICK = Histogram("domino_tick_seconds", "The service's tick (computer moves, timers, "
                 "tournaments).", buckets=FAST, registry=REGISTRY)
SCRAPE_TIMEOUT = 5.0
# a store call's answers, not the database's errors: not found, a turn already taken, a
# game already finished, a cancelled caller
NOT_ERRORS = (asyncio.CancelledError, LookupError, ValueError, DuplicateMove)

_queues: weakref.WeakSet[Any] = weakref.WeakSet()  # Telegram's ChatQueues alive
_families: dict[str, str] = {}


def family_of(variant: str) -> str:
    """A variant's family (a bounded label), "unknown" for a variant this code lacks."""
    if variant not in _families:
        from core import variants

        try:
            _families[variant] = str(variants.get(variant).family)
        except Exception:
            return "unknown"
    return _families[variant]


# -- the hooks: a call each where it happens ---------------------------------------------------


def moved(variant: str) -> None:
    """A move was committed (bot/service/play.py): counted, and logged at debug level (the
    JSON log names its table and platform: bot/logcontext.py)."""
    family = family_of(variant)
    MOVES.labels(family).inc()
    log.debug("a %s move committed", family)


def answered(user_id: str, seconds: float) -> None:
    """A press or command of `user_id` was answered (bot/service/guard.py's door)."""
    PRESS.labels(platform_of(user_id)).observe(seconds)


def platform_of(user_id: str) -> str:
    prefix = user_id.split(":", 1)[0] if ":" in user_id else ""
    return prefix if prefix in ("discord", "telegram", "console", "web") else "other"


def http_status(platform: str, status: int) -> None:
    """A platform's HTTP answer: 429 counts as rate limited, another 4xx as refused."""
    if status == 429:
        LIMITED.labels(platform).inc()
    elif 400 <= status < 500:
        REFUSED.labels(platform, str(status)).inc()


def http_trace(platform: str) -> Any:
    """An aiohttp TraceConfig that reports every answer's status (discord.py's `http_trace`)."""
    import aiohttp

    trace = aiohttp.TraceConfig()

    async def on_end(session: Any, context: Any, params: Any) -> None:
        http_status(platform, params.response.status)

    trace.on_request_end.append(on_end)
    return trace


def counted_limiter(limiter: Any, platform: str = "telegram") -> Any:
    """python-telegram-bot's rate limiter `limiter`, wrapped to count each call's refusal on
    the way (it sees every attempt, the 429s it retries too)."""
    from telegram.error import BadRequest, Conflict, Forbidden, InvalidToken, RetryAfter
    from telegram.ext import BaseRateLimiter

    statuses = ((RetryAfter, 429), (Forbidden, 403), (InvalidToken, 401), (Conflict, 409),
                (BadRequest, 400))

    class Counted(BaseRateLimiter[Any]):
        __slots__ = ()

        async def initialize(self) -> None:
            await limiter.initialize()

        async def shutdown(self) -> None:
            await limiter.shutdown()

        async def process_request(self, callback: Any, args: Any, kwargs: Any, endpoint: str,
                                  data: Any, rate_limit_args: Any) -> Any:
            async def counted(*a: Any, **k: Any) -> Any:
                try:
                    return await callback(*a, **k)
                except Exception as exc:
                    for kind, status in statuses:
                        if isinstance(exc, kind):
                            http_status(platform, status)
                            break
                    raise

            return await limiter.process_request(counted, args, kwargs, endpoint, data,
                                                 rate_limit_args)

    return Counted()


def telegram_queues(queues: Any) -> None:
    """Telegram's chat queues (bot/telegram/queues.py): their waiting writes are a gauge."""
    _queues.add(queues)


# -- timing the store and the tick -------------------------------------------------------------


def install(service: Host, tournaments: tuple[str, ...], web_table: Any = None) -> Scrape:
    """Time the service's store calls and its tick; the collector of what is read at scrape
    time (give it to `Server`). `tournaments`: the statuses of a tournament under way."""
    store = service.store
    for name, _ in inspect.getmembers(type(store), inspect.iscoroutinefunction):
        if name.startswith("_") or name in ("close", "peers"):
            continue
        setattr(store, name, _timed(getattr(store, name), name))
    tick = service.tick

    @functools.wraps(tick)
    async def timed_tick(*args: Any, **kw: Any) -> Any:
        began = time.perf_counter()
        try:
            return await tick(*args, **kw)
        finally:
            TICK.observe(time.perf_counter() - began)

    service.tick = timed_tick  # type: ignore[method-assign]
    return Scrape(service, asyncio.get_running_loop(), tournaments, web_table)


def _timed(call: Callable[..., Any], name: str) -> Callable[..., Any]:
    @functools.wraps(call)
    async def timed(*args: Any, **kw: Any) -> Any:
        began = time.perf_counter()
        try:
            return await call(*args, **kw)
        except BaseException as exc:
            if not isinstance(exc, NOT_ERRORS):
                DB_ERRORS.labels(name).inc()
            raise
        finally:  # a series per method called (none for the methods never called)
            DB_CALLS.labels(name).observe(time.perf_counter() - began)

    return timed


# -- read at scrape time -------------------------------------------------------------------------


class Scrape(Collector):
    """The gauges read when Prometheus scrapes, computed on the bot's event loop (the
    service's tables are not to be read from the HTTP server's thread)."""

    def __init__(self, service: Host, loop: asyncio.AbstractEventLoop,
                 tournaments: tuple[str, ...], web_table: Any = None) -> None:
        self.service = service
        self.loop = loop
        self.tournaments = tournaments
        self.web_table = web_table

    def describe(self) -> list[GaugeMetricFamily]:
        return []  # registering must not scrape (it would wait on the loop it runs in)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            values = asyncio.run_coroutine_threadsafe(self.read(), self.loop).result(
                SCRAPE_TIMEOUT)
        except Exception as exc:
            log.warning("metrics: cannot read the service's state: %s", exc)
            return
        yield from values

    async def read(self) -> list[GaugeMetricFamily]:
        loaded = GaugeMetricFamily("domino_tables_loaded", "Tables this process holds in "
                                   "memory, by family and status.", labels=["family", "status"])
        for (family, status), n in _count((family_of(t.row.variant), t.row.status)
                                          for t in list(self.service.tables.values())):
            loaded.add_metric([family, status], n)
        stored = GaugeMetricFamily("domino_tables", "Tables in the database (every process's), "
                                   "by family and status.", labels=["family", "status"])
        rows = await self.service.store.link.fetch(
            "SELECT variant, status, count(*) FROM tables GROUP BY variant, status")
        totals: dict[tuple[str, str], int] = {}
        for variant, status, n in rows:
            key = (family_of(variant), status)
            totals[key] = totals.get(key, 0) + int(n)
        for (family, status), n in sorted(totals.items()):
            stored.add_metric([family, status], n)
        tournaments = GaugeMetricFamily("domino_tournaments_running", "Tournaments registering "
                                        "or playing (every process's).")
        tournaments.add_metric([], len(await self.service.store.tournaments(self.tournaments)))
        out = [loaded, stored, tournaments]
        if self.web_table is not None:
            sockets = GaugeMetricFamily("domino_web_sockets", "Open web table sockets.")
            sockets.add_metric([], sum(len(w) for w in list(self.web_table.watchers.values())))
            out.append(sockets)
        depth = GaugeMetricFamily("domino_telegram_queued_writes", "Telegram writes waiting in "
                                  "the chats' queues (flood limits' pacing).")
        depth.add_metric([], sum(len(q) for queues in list(_queues)
                                 for q in list(queues._queues.values())))
        out.append(depth)
        return out


def _count(keys: Iterable[tuple[str, str]]) -> list[tuple[tuple[str, str], int]]:
    counts: dict[tuple[str, str], int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    return sorted(counts.items())


class Server:
    """The /metrics HTTP server (its own thread: prometheus_client's), with the scrape
    collector registered while it runs."""

    def __init__(self, scrape: Scrape, host: str, port: int) -> None:
        REGISTRY.register(scrape)
        self.scrape = scrape
        try:
            self.httpd, self.thread = start_http_server(port, host, registry=REGISTRY)
        except BaseException:
            REGISTRY.unregister(scrape)
            raise
        self.port = self.httpd.server_address[1]

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        REGISTRY.unregister(self.scrape)
