"""Prometheus metrics (bot/metrics.py) read over HTTP after a game played through the
service, the platforms' refusals counted from real HTTP answers, and the DOMINO_METRICS
setting."""

from __future__ import annotations

import asyncio
import urllib.request
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import health, metrics
from bot.config import ConfigError, Settings
from bot.service.service import Service, User
from bot.tournament.rounds import OPEN
from tests.fake_telegram import FakeBotApi, Limits, TgUser
from tests.service_helpers import play_to_the_end, run, started_table, with_service

ANN = User("telegram:11", "ann")
BEN = User("discord:22", "ben")


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics: (name, labels) -> value."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = answer.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_a_scrape_after_a_game_counts_it(db_target: str | Path) -> None:
    """On SQLite and on PostgreSQL (the store counts are read with the same query)."""

    async def body(service: Service) -> None:
        assert await health.problems(service) == []  # /readyz: the database answers
        server = metrics.Server(metrics.install(service, OPEN), "127.0.0.1", 0)
        try:
            before = await asyncio.to_thread(scrape, server.port)
            done = await started_table(service, ANN, (BEN,))
            await play_to_the_end(service, done, {0: ANN, 1: BEN})
            await started_table(service, BEN, (ANN,))  # a second game, under way
            await service.tick()
            after = await asyncio.to_thread(scrape, server.port)
            moves = len(await service.store.moves(done))
        finally:
            server.stop()
        assert moves > 0
        assert value(after, "domino_moves_total", family="line") - value(
            before, "domino_moves_total", family="line") == moves
        assert value(after, "domino_tables", family="line", status="finished") == 1
        assert value(after, "domino_tables", family="line", status="playing") == 1
        assert value(after, "domino_tables_loaded", family="line", status="playing") == 1
        assert value(after, "domino_tournaments_running") == 0
        for platform in ("telegram", "discord"):
            assert value(after, "domino_press_seconds_count", platform=platform) > value(
                before, "domino_press_seconds_count", platform=platform)
        assert value(after, "domino_db_call_seconds_count", method="append_move") >= moves - 1
        assert value(after, "domino_tick_seconds_count") > value(
            before, "domino_tick_seconds_count")
        assert ("domino_telegram_queued_writes", ()) in after
        names = {name for name, _ in after}
        assert all(not n.startswith("domino") or n.startswith("domino_") for n in names)
        labels = {k for _, ls in after for k, _ in ls}
        assert not labels & {"user", "user_id", "name", "channel", "table"}  # no person

    run(with_service(db_target, body))


def test_the_platforms_refusals_are_counted_from_their_answers() -> None:
    from telegram.error import Forbidden
    from telegram.ext import AIORateLimiter, ApplicationBuilder

    async def main() -> None:
        server = FakeBotApi(limits=Limits(group=2, scale=0.02))
        await server.start()
        limited = metrics.LIMITED.labels("telegram")._value.get()
        refused = metrics.REFUSED.labels("telegram", "403")._value.get()
        discord = metrics.REFUSED.labels("discord", "400")._value.get()
        try:
            limiter = metrics.counted_limiter(AIORateLimiter(
                max_retries=5, overall_max_rate=0, group_max_rate=0))
            app = (ApplicationBuilder().token(server.token).base_url(server.base_url)
                   .rate_limiter(limiter).build())
            async with app:
                for i in range(4):  # over the group's 2 writes a "minute": 429, retried
                    await app.bot.send_message(-100, f"write {i}")
                with pytest.raises(Forbidden):  # a user who never opened the private chat
                    await app.bot.send_message(TgUser(5, "x").id, "hello")
            trace = metrics.http_trace("discord")
            async with aiohttp.ClientSession(trace_configs=[trace]) as http:
                url = f"{server.base_url}{server.token}/noSuchMethod"
                async with http.post(url) as answer:
                    assert answer.status == 400
        finally:
            await server.close()
        assert server.refused  # the fake did answer 429
        assert metrics.LIMITED.labels("telegram")._value.get() - limited == len(server.refused)
        assert metrics.REFUSED.labels("telegram", "403")._value.get() - refused == 1
        assert metrics.REFUSED.labels("discord", "400")._value.get() - discord == 1

    asyncio.run(main())


def test_the_setting(tmp_path: Path) -> None:
    assert Settings.from_env({}, tmp_path).metrics is None
    assert Settings.from_env({"DOMINO_METRICS": "off"}, tmp_path).metrics is None
    assert Settings.from_env({"DOMINO_METRICS": "127.0.0.1:9100"}, tmp_path).metrics == (
        "127.0.0.1", 9100)
    assert Settings.from_env({"DOMINO_METRICS": "[::1]:9100"}, tmp_path).metrics == ("::1", 9100)
    for bad in ("9100", "host:", "host:99999", "host:x"):
        with pytest.raises(ConfigError, match="DOMINO_METRICS must be off or HOST:PORT"):
            Settings.from_env({"DOMINO_METRICS": bad}, tmp_path)


def test_the_dockerfiles_healthcheck_asks_the_running_bot(tmp_path: Path) -> None:
    """The HEALTHCHECK's command, as Docker runs it, against a real bot's /healthz."""
    import json
    import os
    import socket
    import subprocess
    import sys

    from tests.console_helpers import ConsoleBot
    from tests.test_dockerfile import instructions

    args = next(a for w, a in instructions() if w == "HEALTHCHECK")
    command = json.loads(args[args.index("CMD") + 3:].strip())
    assert command[0] == "python"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    def check(web: str) -> int:
        env = {**os.environ, "DOMINO_WEB": web}
        return subprocess.run([sys.executable, *command[1:]], env=env, timeout=30,
                              capture_output=True).returncode

    assert check(f"0.0.0.0:{port}") != 0  # nothing answers yet
    assert check("off") == 0  # no web table: the process itself is the check
    bot = ConsoleBot(tmp_path, DOMINO_WEB=f"127.0.0.1:{port}")
    try:
        bot.start()
        assert check(f"0.0.0.0:{port}") == 0
    finally:
        code, _ = bot.close()
    assert code == 0


def test_compose_prometheus_is_off_by_default_and_its_alerts_name_real_metrics() -> None:
    import re

    import yaml

    root = Path(__file__).resolve().parent.parent
    services = yaml.safe_load((root / "docker-compose.yml").read_text())["services"]
    assert services["prometheus"]["profiles"] == ["monitoring"]
    bots = [name for name in services if name.startswith("bot-")]
    for name in bots:
        assert services[name]["environment"]["DOMINO_METRICS"] == "${DOMINO_METRICS:-off}"
    config = yaml.safe_load((root / "deploy" / "prometheus.yml").read_text())
    targets = config["scrape_configs"][0]["static_configs"][0]["targets"]
    assert sorted(targets) == sorted(f"{name}:9100" for name in bots)
    known = {c._name for c in (metrics.MOVES, metrics.PRESS, metrics.REFUSED, metrics.LIMITED,
                               metrics.DB_CALLS, metrics.DB_ERRORS, metrics.TICK)}
    alerts = yaml.safe_load((root / "deploy" / "alerts.yml").read_text())
    used = {re.sub(r"_(bucket|total)$", "", name) for rule in alerts["groups"][0]["rules"]
            for name in re.findall(r"domino_\w+", rule["expr"])}
    assert used and used <= known


def test_the_running_bot_serves_metrics_with_its_web_sockets(tmp_path: Path) -> None:
    """DOMINO_METRICS in the real process: a scrape over HTTP after moves through the console
    counts them, and the open web socket."""
    import re
    import socket

    from tests.console_helpers import ConsoleBot, play_first_legal, plays
    from tests.web_helpers import state

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    bot = ConsoleBot(tmp_path, DOMINO_METRICS=f"127.0.0.1:{port}")
    try:
        bot.start()
        lines = bot.send("/start classic players=2 ai=1", "/web")
        url = next(u for line in lines for u in re.findall(r"http://127\.0\.0\.1:\d+/t/\S+",
                                                            line))
        base, token = url.split("/t/")
        out = bot.send("/hand")
        for _ in range(2):
            out = play_first_legal(bot, "alice", out)

        async def with_socket() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
            async with aiohttp.ClientSession() as http, http.ws_connect(
                    f"{base}/ws?token={token}", headers={"Origin": base}) as ws:
                await state(ws)
                return await asyncio.to_thread(scrape, port)

        got = asyncio.run(with_socket())
    finally:
        code, _ = bot.close()
    assert code == 0
    assert value(got, "domino_web_sockets") == 1
    assert value(got, "domino_moves_total", family="line") == len(plays(bot.output)) > 2
    assert value(got, "domino_tables", family="line", status="playing") == 1
    assert value(got, "domino_press_seconds_count", platform="console") > 2


def test_readiness_names_what_is_missing(tmp_path: Path) -> None:
    from bot.app import Router

    async def body(service: Service) -> None:
        router = Router(expect=("telegram",))
        health.expect(service, ["telegram"], router)
        assert await health.problems(service) == ["telegram: not connected"]

        async def deliver(messages: object) -> None:
            return None

        await router.register("telegram", deliver)
        assert await health.problems(service) == []
        await service.store.close()  # the database no longer answers
        assert [p.split(":")[0] for p in await health.problems(service)] == ["database"]

    run(with_service(tmp_path / "bot.sqlite", body))
