"""Run the bot: the chat platforms whose tokens are set (one process, one database), else the
console chat; and the router that delivers messages produced outside a user's interaction.

Computer moves after the delay, timer warnings and the re-prompts after a restart come from
`Service.run(send)` and `Service.start()`, not from a platform event, so they go through the
`Router`: each adapter registers itself for its id prefix ("discord", "telegram", "console")
and each message goes to the adapter named by the prefix of its `to` (private) or its
`channel` (public).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, Protocol, TextIO

from . import health
from .config import ConfigError, Settings
from .logs import setup_logging
from .service import outbox
from .service.messages import Message
from .service.pictures import NoPictures, Pictures
from .service.service import Service
from .storage import StoreError, open_store

log = logging.getLogger("domino")

Deliver = Callable[[list[Message]], Awaitable[None]]
MAX_HELD = 10_000  # messages kept for an expected adapter that has not registered yet
STOP_WITHIN = 10.0  # seconds from SIGTERM to the exit (docker stop's default grace period)
DRAIN = 3.0  # seconds the presses under way have to finish when the bot stops
ANSWERS = 1.0  # then seconds their answers have to be sent, before the platforms close


class Adapter(Protocol):
    async def deliver(self, messages: list[Message]) -> None: ...


def prefix_of(message: Message) -> str:
    """The platform a message goes to: the prefix of its user (private) or channel."""
    return (message.to or message.channel).split(":", 1)[0]


class Router:
    """Dispatches messages to the adapter registered for their platform prefix.

    Messages for a prefix given in `expect` are held until its adapter registers (a platform
    adapter registers once connected, after `Service.start()` has made its re-prompts).
    Messages for any other unregistered prefix are dropped with a warning. A failing adapter
    is logged and does not stop the others or the tick loop.  `handed` hears each group of
    messages as it is handed to its adapter (the service's outbox marks them sent then:
    bot/service/outbox.py; a message held here is not, so that a restart says it).
    """

    def __init__(self, expect: tuple[str, ...] = (), handed: Deliver | None = None) -> None:
        self._handed = handed
        self._adapters: dict[str, Deliver] = {}
        self._held: dict[str, list[Message]] = {p: [] for p in expect}
        self._warned: set[str] = set()

    @property
    def prefixes(self) -> list[str]:
        return sorted(self._adapters)

    async def register(self, prefix: str, adapter: Adapter | Deliver) -> None:
        """Register `adapter` (an object with `deliver`, or the coroutine function itself)
        for `prefix`, and give it the messages held for it."""
        deliver = adapter.deliver if hasattr(adapter, "deliver") else adapter
        self._adapters[prefix] = deliver  # type: ignore[assignment]
        held = self._held.pop(prefix, [])
        if held:
            await self._send(prefix, held)

    def unregister(self, prefix: str) -> None:
        self._adapters.pop(prefix, None)

    async def deliver(self, messages: list[Message]) -> None:
        """Send each message to its adapter, keeping their order within each platform."""
        groups: dict[str, list[Message]] = {}
        for m in messages:
            groups.setdefault(prefix_of(m), []).append(m)
        for prefix, group in groups.items():
            if prefix in self._adapters:
                await self._send(prefix, group)
            elif prefix in self._held:
                held = self._held[prefix]
                held += group
                del held[:-MAX_HELD]
            elif prefix not in self._warned:
                self._warned.add(prefix)
                log.warning("no adapter for %r: its messages are dropped", prefix)

    async def _send(self, prefix: str, messages: list[Message]) -> None:
        try:
            if self._handed is not None:
                await self._handed(messages)
            await self._adapters[prefix](messages)
        except Exception:
            log.exception("the %s adapter failed to deliver %d messages", prefix, len(messages))


PLATFORMS = {  # platform -> (module, runner function)
    "discord": ("bot.discord.adapter", "run_discord"),
    "telegram": ("bot.telegram.adapter", "run_telegram"),
}


def platform_runner(name: str) -> Callable[..., Coroutine[Any, Any, None]]:
    """The adapter's `run_<name>` function, imported only when its token is set."""
    module, function = PLATFORMS[name]
    try:
        return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]
    except ModuleNotFoundError as exc:
        raise ConfigError(f"{name} is configured but cannot be loaded ({exc}); install it "
                          f"with: pip install -e '.[{name}]'") from None
    except AttributeError:
        raise ConfigError(f"{module} has no {function}()") from None


async def serve(settings: Settings, stdin: TextIO | None = None,
                out: TextIO | None = None) -> None:
    """Open the database and the service, and run the adapters (or the console) and the tick
    loop until the adapters end or SIGINT/SIGTERM arrives; then stop them and close the
    database (which first writes the moves still queued)."""
    runners = {name: platform_runner(name) for name in settings.platforms}
    await _serve(settings, runners, stdin, out)


@contextlib.contextmanager
def _running(database: Path | str) -> Iterator[None]:
    """Say, for `domino restore`, that a bot uses this SQLite database (a flock held until
    the process ends: bot/storage/backup.py)."""
    from .storage.backup import BackupError, running_lock

    try:
        lock = running_lock(database)
        lock.__enter__()
    except BackupError as exc:
        raise StoreError(str(exc)) from None
    except OSError as exc:
        raise StoreError(f"{database}: cannot take its lock file ({exc.strerror or exc})"
                         ) from None
    try:
        yield
    finally:
        lock.__exit__(None, None, None)


async def _serve(settings: Settings, runners: dict[str, Callable[..., Coroutine[Any, Any, None]]],
                 stdin: TextIO | None, out: TextIO | None) -> None:
    stop = asyncio.Event()
    signals = _on_signals(stop.set)
    store = await open_store(settings.database)
    tasks: list[asyncio.Task[None]] = []
    web_table: Any = None
    service: Service | None = None
    exporter: Any = None
    running = contextlib.ExitStack()
    try:
        running.enter_context(_running(settings.database))  # the store checked the folder
        pictures: Pictures = Pictures() if settings.pictures or runners else NoPictures()
        service = Service(store, pictures=pictures, ai_delay=settings.ai_delay,
                          default_lang=settings.lang, limits=settings.limits)
        router = Router(expect=tuple(runners),
                        handed=functools.partial(outbox.handed, service))
        health.expect(service, list(runners), router)
        main: Callable[[], Coroutine[Any, Any, None]]
        if runners:
            main = functools.partial(_platforms, service, router, settings, runners)
        else:
            from .console.chat import ConsoleChat

            chat = ConsoleChat(service, out or sys.stdout, settings.pictures)
            await router.register("console", chat)
            main = functools.partial(chat.run, stdin or _text_stdin())
        if settings.web is not None:  # the console's user plays on the local home page
            web_table = await _start_web(service, router.deliver, settings,
                                         None if runners else lambda: chat.user)
        if settings.metrics is not None:
            exporter = _start_metrics(service, web_table, settings.metrics)
        if not runners:
            chat.hello(settings.database, web_table.links.base_url if web_table else None)
        await router.deliver(await service.start())
        tasks = [asyncio.create_task(main(), name="adapters"),
                 asyncio.create_task(service.run(_heard(service, router.deliver)),
                                     name="ticks"),
                 asyncio.create_task(_wait(stop), name="signals")]
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if not task.cancelled() and task.exception():
                raise task.exception()  # type: ignore[misc]
    finally:
        await _stop(service, tasks, web_table, exporter, store, signalled=stop.is_set(),
                    platforms=bool(runners))
        running.close()
        loop = asyncio.get_running_loop()
        for sig in signals:
            loop.remove_signal_handler(sig)


async def _stop(service: Service | None, tasks: list[asyncio.Task[None]], web_table: Any,
                exporter: Any, store: Any, signalled: bool, platforms: bool) -> None:
    """The clean stop (SIGTERM, SIGINT, the console's end of input), within `STOP_WITHIN`
    seconds: refuse new presses, let those under way finish (`DRAIN` seconds at most) and
    send their answers (`ANSWERS`), stop the ticks (their moves under way finish:
    Service.run) and the platforms (their connections closed, their queued writes given the
    time left), tell each web page that the server restarts (close code 1012), and close the
    store, which writes the moves still queued."""
    began = time.monotonic()
    if signalled:
        log.info("stopping: a signal came")
    if service is not None:
        if not await health.close(service, DRAIN):
            log.warning("stopping: commands were still under way after %.0f s", DRAIN)
        # their answers sent (a platform may have handed over a press just before: a quiet
        # moment lets it come; the console's commands come from its own task, stopped)
        await health.answered(service, tasks, ANSWERS, quiet=health.QUIET if platforms else 0)
    for task in tasks:
        task.cancel()
    if tasks:
        left = max(1.0, STOP_WITHIN - 2.0 - (time.monotonic() - began))
        _, late = await asyncio.wait(tasks, timeout=left)
        if late:
            log.warning("stopping: %s did not end in time", ", ".join(t.get_name() for t in late))
    if web_table is not None:
        await web_table.stop()
    if exporter is not None:
        exporter.stop()
    await store.close()
    log.info("stopped in %.1f s", time.monotonic() - began)


def _heard(service: Service, deliver: Deliver) -> Deliver:
    """`deliver`, telling the web table first of the tables the ticks' messages are about
    (an idle table closed, a timer's warning: changes that are not moves)."""
    from .service import live

    async def heard(messages: list[Message]) -> None:
        live.heard(service, messages)
        await deliver(messages)

    return heard


async def _start_web(service: Service, deliver: Deliver, settings: Settings,
                     local_user: Callable[[], Any] | None = None) -> Any:
    """Start the web table (bot/web/) on the service; its links are published for the
    adapters' /web commands.  `local_user`: the console's user, whose home page `/` is on a
    loopback address (the local mode: links need not survive a restart, so no warning)."""
    from .web.home import loopback
    from .web.links import Links, publish
    from .web.server import WebTable

    web = settings.web
    assert web is not None
    links = Links(web.secret, web.url, ttl=web.ttl)
    links.telegram_app = web.telegram_app
    if not web.secret and not (local_user is not None and loopback(web.host)):
        log.warning("DOMINO_WEB_SECRET is not set: web links stop working when the bot "
                    "restarts")
    table = WebTable(service, links, deliver, telegram_token=settings.telegram_token,
                     auth_age=web.auth_age, public_url=web.url, local_user=local_user,
                     activity=web.activity, discord_token=settings.discord_token)
    try:
        port = await table.start(web.host, web.port)
    except OSError as exc:
        raise ConfigError(f"DOMINO_WEB: cannot listen on {web.host}:{web.port} "
                          f"({exc.strerror or exc})") from None
    if not web.url:
        host = "127.0.0.1" if web.host in ("0.0.0.0", "::", "") else web.host
        host = f"[{host}]" if ":" in host else host
        links.base_url = f"http://{host}:{port}"
        table.public_host = f"{host}:{port}"
    publish(service, links)
    return table


def _start_metrics(service: Service, web_table: Any, where: tuple[str, int]) -> Any:
    """Serve /metrics at `where` (DOMINO_METRICS) on its own small server (bot/metrics.py)."""
    from . import metrics
    from .tournament.rounds import OPEN

    host, port = where
    try:
        server = metrics.Server(metrics.install(service, OPEN, web_table), host, port)
    except OSError as exc:
        raise ConfigError(f"DOMINO_METRICS: cannot listen on {host}:{port} "
                          f"({exc.strerror or exc})") from None
    log.info("metrics on http://%s:%d/metrics", host, server.port)
    return server


async def _wait(event: asyncio.Event) -> None:
    await event.wait()


class PlatformError(RuntimeError):
    """Every configured platform stopped (each one's reason is logged)."""


async def _platforms(service: Service, router: Router, settings: Settings,
                     runners: dict[str, Callable[..., Coroutine[Any, Any, None]]]) -> None:
    """Run the platforms side by side; one that fails is logged and the others go on."""
    calls = []
    for name, run in runners.items():
        if name == "discord":
            shards = settings.discord_shards.client_options() if settings.discord_shards else {}
            calls.append(_platform(name, run(service, router, settings.discord_token,
                                             test_guild=settings.discord_test_guild,
                                             **shards)))
        else:
            hook = {"webhook": settings.telegram_webhook} if settings.telegram_webhook else {}
            calls.append(_platform(name, run(service, router, settings.telegram_token,
                                             base_url=settings.telegram_api_url, **hook)))
    failed = [name for name, ok in zip(runners, await asyncio.gather(*calls), strict=True)
              if not ok]
    if failed:
        raise PlatformError(f"{' and '.join(failed)} stopped (see the log above); "
                            "check the token and the network")


async def _platform(name: str, running: Coroutine[Any, Any, None]) -> bool:
    """False when the platform's adapter failed (logged with its reason)."""
    try:
        await running
    except Exception as exc:
        log.error("%s stopped: %s: %s", name, type(exc).__name__, exc)
        log.debug("%s traceback", name, exc_info=True)
        return False
    return True


def _text_stdin() -> TextIO:
    """Standard input that never fails on bytes that are not UTF-8."""
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    return sys.stdin


def _on_signals(callback: Callable[[], None]) -> list[signal.Signals]:
    """Call `callback` on SIGINT and SIGTERM (in the main thread, where possible)."""
    loop = asyncio.get_running_loop()
    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, callback)
            installed.append(sig)
    return installed


def main() -> int:
    """The `domino` command with no sub-command (or `domino bot`)."""
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"domino: error: {exc}", file=sys.stderr)
        return 2
    if settings.console_refused(_isatty(sys.stdin)):
        print("domino: error: no chat platform to run: set DISCORD_TOKEN and/or TELEGRAM_TOKEN "
              "(docker run -e TELEGRAM_TOKEN=...), or give a terminal (docker run -it) for the "
              "console chat", file=sys.stderr)
        return 2
    setup_logging(settings)
    log.info("settings: %r; platforms: %s", settings, settings.platforms or ["console"])
    try:
        asyncio.run(serve(settings))
    except (ConfigError, StoreError) as exc:
        print(f"domino: error: {exc}", file=sys.stderr)
        return 2
    except PlatformError as exc:
        print(f"domino: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
