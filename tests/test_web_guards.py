"""The web table's guards (issue 37, items 8 to 11), through the real aiohttp server on
loopback, a real SQLite file and the real Service: the Content-Security-Policy and the
socket's Origin check take nothing from the request's Host; no link, signature or launch
data reaches the log, whatever the request looks like (a malformed request line sent over a
raw socket, logged by aiohttp itself, through the app's own logging setup); the sockets of
one link and of one user are bounded; a socket closes when its link expires."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.config import Settings
from bot.logs import setup_logging
from bot.web import guards
from tests.service_helpers import ALICE, BOB, CHANNEL, SCOPE, run, table_id
from tests.web_helpers import SECRET, Env, encode, init_data, serving, state


async def two_player_table(env: Env) -> int:
    tid = table_id(await env.service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                options="players=2"))
    await env.service.join(BOB, tid)
    await env.service.begin(ALICE, tid)
    return tid


async def raw(port: int, data: bytes) -> bytes:
    """Send `data` as it is to the server and read its answer (the connection closes)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(65536), 5)
    finally:
        writer.close()


async def closed(ws: Any) -> tuple[list[str], int | None]:
    """The error texts a socket receives until it closes, and its close code."""
    texts = []
    while True:
        msg = await asyncio.wait_for(ws.receive(), 5)
        if msg.type != aiohttp.WSMsgType.TEXT:
            return texts, ws.close_code
        data = msg.json()
        if data["type"] == "error":
            texts.append(data["text"])


# -- 8. nothing from the Host header -------------------------------------------------------


def test_a_forged_host_adds_nothing_to_the_content_security_policy(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        port = env.web.port
        forged = b"evil.example; frame-ancestors *; script-src *"
        answer = await raw(port, b"GET /healthz HTTP/1.1\r\nHost: " + forged
                           + b"\r\nConnection: close\r\n\r\n")
        head = answer.split(b"\r\n\r\n")[0].decode("latin-1")
        assert head.startswith("HTTP/1.1 200"), head
        policy = next(line.split(":", 1)[1] for line in head.split("\r\n")
                      if line.lower().startswith("content-security-policy:"))
        directives = [d.strip().split()[0] for d in policy.split(";") if d.strip()]
        assert len(directives) == len(set(directives)), policy  # no directive added
        assert "evil.example" not in policy and " * " not in f"{policy} "
        assert f"wss://127.0.0.1:{port}" in policy  # the configured address
        env.web.public_host = "domino.example.org"  # DOMINO_WEB_URL's host
        async with env.http.get(f"{env.base}/healthz", headers={"Host": "evil.example"}) as r:
            policy = r.headers["Content-Security-Policy"]
        assert "wss://domino.example.org " in policy and "evil" not in policy
    run(serving(tmp_path, body))


def test_the_socket_origin_is_checked_against_the_configured_address(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        token = env.links.token(tid, ALICE.id)
        port = env.web.port
        # a page of evil.example (a rebound DNS name for the loopback) names its own host
        for origin, host in (("http://evil.example", "evil.example"),
                             (f"http://evil.example:{port}", f"evil.example:{port}")):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await env.http.ws_connect(f"{env.base}/ws?token={token}",
                                          headers={"Origin": origin, "Host": host})
            assert refused.value.status == 403
        # the local mode: the listening address, by any of its loopback names
        for origin in (env.base, f"http://localhost:{port}"):
            ws = await env.socket(token, origin=origin)
            assert (await state(ws))["type"] == "state"
            await ws.close()
        env.web.public_host = "domino.example.org"  # behind a proxy: DOMINO_WEB_URL's host
        ws = await env.socket(token, origin="https://domino.example.org")
        assert (await state(ws))["type"] == "state"
        await ws.close()
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await env.socket(token, origin=env.base)
    run(serving(tmp_path, body))


def test_origins_and_hosts_in_one_spelling() -> None:
    assert guards.origin_ok("https://Domino.Example.org:443", "domino.example.org")
    assert guards.origin_ok("http://[::1]:8080", "127.0.0.1:8080")
    for origin in ("null", "https://domino.example.org.evil", "https://x@domino.example.org",
                   "javascript://domino.example.org", "https://domino.example.org/path",
                   "http://localhost:8081"):
        assert not guards.origin_ok(origin, "localhost:8080"), origin
        assert not guards.origin_ok(origin, "domino.example.org"), origin
    assert guards.policy("a;b", miniapp=False).count(";") == guards.policy(
        "", miniapp=False).count(";")


# -- 9. nothing private in the log ------------------------------------------------------------


@pytest.fixture
def app_log() -> Iterator[io.StringIO]:
    """The app's own logging setup (bot/app.py), at debug level, into a string."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    levels = {name: logging.getLogger(name).level for name in ("aiohttp", "aiosqlite")}
    stream = io.StringIO()
    setup_logging(Settings.from_env({"DOMINO_LOG": "debug", "DOMINO_WEB_SECRET": SECRET},
                                    cwd=Path("/nonexistent")), stream)
    try:
        yield stream
    finally:
        for handler in root.handlers[:]:
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def test_no_link_signature_or_launch_data_reaches_the_log(tmp_path: Path,
                                                          app_log: io.StringIO) -> None:
    async def body(env: Env) -> list[str]:
        tid = await two_player_table(env)
        token = env.links.token(tid, ALICE.id)
        payload, signature = token.split(".")
        game = env.links.game_path(tid)  # /g/TABLE.SIGNATURE: it never expires
        game_signature = game.rsplit(".", 1)[1]
        launch = encode(init_data(user_id=42, start_param=env.links.compact(token)))
        launch_hash = launch.rsplit("hash=", 1)[1]
        port = env.web.port
        # the server accepts a link whose dot is written %2E
        async with env.http.get(f"{env.base}/t/{payload}%2E{signature}") as r:
            assert r.status == 200
        requests = [  # each malformed: aiohttp logs the request line at ERROR
            f"GET /t/{payload}%2E{signature} HTTP/1.x\r\nHost: a\r\n\r\n",
            f"GET /t/{payload}%2e{signature}\x01 HTTP/1.1\r\nHost: a\r\n\r\n",
            f"GET /g/{tid}.{game_signature}\x01 HTTP/1.1\r\nHost: a\r\n\r\n",
            f"GET /g/{tid}%2E{game_signature} HTTP/1.x\r\nHost: a\r\n\r\n",
            f"GET /ws?tok%65n={payload}%2E{signature} HTTP/1.x\r\nHost: a\r\n\r\n",
            f"GET /tg?tgWebAppData={launch.replace('&', '%26')} HTTP/1.x\r\nHost: a\r\n\r\n",
            f"GET /tg?{launch} HTTP/1.x\r\nHost: a\r\n\r\n",
        ]
        for request in requests:
            assert (await raw(port, request.encode("latin-1"))).startswith(b"HTTP/1.0 400")
        return [signature, payload, game_signature, launch_hash, token]

    secrets = run(serving(tmp_path, body))
    text = app_log.getvalue()
    assert text.count("ERROR aiohttp.server") >= 7, text  # the request lines were logged
    for secret in secrets:
        assert secret not in text, (secret, text)
    assert "[token]" in text


# -- 10. sockets per link and per user ----------------------------------------------------------


def test_the_sockets_of_one_link_and_of_one_user_are_bounded(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        token = env.links.token(tid, ALICE.id)
        open_ = [await env.socket(token) for _ in range(guards.PER_LINK)]
        for ws in open_:
            assert (await state(ws))["type"] == "state"
        refused = await env.socket(token)
        texts, code = await closed(refused)
        assert code == guards.LIMIT_CODE
        assert texts == ["Too many pages are open with this link: close one and try again."]
        await open_.pop().close()  # one closed: another may open
        await asyncio.sleep(0.05)
        again = await env.socket(token)
        assert (await state(again))["type"] == "state"
        open_.append(again)
        # one user's other links (each /web answers a new one) count together
        others = [env.links.token(tid, ALICE.id, ttl=3601 + i)
                  for i in range(guards.PER_USER)]
        for link in others[:guards.PER_USER - guards.PER_LINK]:
            ws = await env.socket(link)
            assert (await state(ws))["type"] == "state"
            open_.append(ws)
        texts, code = await closed(await env.socket(others[-1]))
        assert code == guards.LIMIT_CODE
        assert texts == ["Too many pages are open for you: close one and try again."]
        bob = await env.socket(env.links.token(tid, BOB.id))  # another user is not counted
        assert (await state(bob))["type"] == "state"
        for ws in [*open_, bob]:
            await ws.close()
        await asyncio.sleep(0.05)
        assert env.web.sockets._links == {} and env.web.sockets._users == {}
    run(serving(tmp_path, body))


# -- 11. a link's expiry on an open socket -----------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def test_a_move_after_the_link_expired_is_refused_and_closes_the_socket(
        tmp_path: Path) -> None:
    clock = Clock()

    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        mover = (ALICE, BOB)[env.service.tables[tid].game.to_move]
        ws = await env.socket(env.links.token(tid, mover.id, ttl=60))
        s = await state(ws)
        clock.now += 61  # the link expired while the page was open
        move = s["state"]["moves"][0]["move"] if s["state"]["moves"] else s["state"][
            "buttons"][0]["move"]
        await ws.send_json({"type": "move", "move": move, "version": s["version"]})
        texts, code = await closed(ws)
        assert code == guards.EXPIRED_CODE
        assert texts == ["This link has expired: ask the bot for a new one (the /web "
                         "command)."]
        assert env.service.tables[tid].game.turn == 0  # not played
        assert env.delivered == []
    run(serving(tmp_path, body, clock=clock))


def test_an_idle_socket_closes_when_its_link_expires(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guards, "EXPIRY_CHECK", 0.05)
    clock = Clock()

    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        ws = await env.socket(env.links.token(tid, ALICE.id, ttl=60))
        await state(ws)
        clock.now += 30
        await asyncio.sleep(0.2)
        assert not ws.closed  # still valid
        clock.now += 31
        texts, code = await closed(ws)
        assert code == guards.EXPIRED_CODE and len(texts) == 1
    run(serving(tmp_path, body, clock=clock))
