"""The web table's server (issue 30): links, the Mini App's session, the socket, live states,
moves through the Service, and what a seat's socket may receive.  A real aiohttp server on
loopback, a real SQLite file, the real Service."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.config import ConfigError, Settings
from bot.service.service import User
from bot.service.tables import rebuild
from bot.web.reply import web_reply
from tests.service_helpers import ALICE, BOB, CHANNEL, SCOPE, run, table_id
from tests.web_helpers import (
    BOT_TOKEN,
    Env,
    encode,
    init_data,
    play_through_service,
    serving,
    state,
    whole_logs,
)

TILE = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")


async def two_player_table(env: Env, variant: str = "classic", options: str = "players=2"
                           ) -> int:
    tid = table_id(await env.service.open_table(ALICE, CHANNEL, SCOPE, variant,
                                                options=options))
    await env.service.join(BOB, tid)
    await env.service.begin(ALICE, tid)
    return tid


def user_to_move(env: Env, tid: int) -> User:
    game = env.service.tables[tid].game
    return {0: ALICE, 1: BOB}[game.to_move]


def legal_of(payload: dict[str, Any]) -> list[str]:
    s = payload["state"]
    return [m["move"] for m in s["moves"]] + [b["move"] for b in s["buttons"]]


def test_healthz_answers_200(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        async with env.http.get(f"{env.base}/healthz") as r:
            assert r.status == 200
            assert "default-src 'none'" in r.headers["Content-Security-Policy"]
            assert r.headers["X-Content-Type-Options"] == "nosniff"
    run(serving(tmp_path, body))


def test_a_link_changed_by_one_character_is_refused(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        url = env.links.url(tid, ALICE.id)
        async with env.http.get(url) as r:
            assert r.status == 200
            page = await r.text()
            assert 'id="domino-config"' in page and "/ws?token=" in page
            assert "script-src 'self';" in r.headers["Content-Security-Policy"]
        token = url.rsplit("/", 1)[1]
        for i in (0, len(token) // 2, token.index(".") - 1, token.index(".") + 1,
                  len(token) - 1):
            bad = token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1:]
            async with env.http.get(f"{env.base}/t/{bad}",
                                    headers={"Accept-Language": "fr-FR"}) as r:
                assert r.status == 403, i
                assert "pas valable : il a expiré" in await r.text()
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await env.socket(bad)
            assert refused.value.status == 403
    run(serving(tmp_path, body))


def test_an_expired_link_is_refused(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        token = env.links.token(tid, ALICE.id, ttl=-1)
        async with env.http.get(f"{env.base}/t/{token}") as r:
            assert r.status == 403
            assert "expired" in await r.text()
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await env.socket(token)
    run(serving(tmp_path, body))


def test_a_link_acts_on_its_own_table_only(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        first = await two_player_table(env)
        second = await two_player_table(env)
        before = env.service.tables[second].game.turn
        user = user_to_move(env, first)
        ws = await env.socket(env.links.token(first, user.id))
        s = await state(ws)
        assert s["table"] == first
        await ws.send_json({"type": "move", "move": legal_of(s)[0], "version": s["version"]})
        s = await state(ws)
        assert s["table"] == first and s["version"] == 1
        assert env.service.tables[second].game.turn == before
        # a token for the first table does not open the second one's page as anyone else
        other = env.links.token(second, user.id)
        assert env.links.check(other).table == second
        assert env.links.check(other.replace(other[0], "x", 1)) is None
        await ws.close()
    run(serving(tmp_path, body))


def test_a_mini_app_session_needs_valid_fresh_launch_data(tmp_path: Path) -> None:
    async def post(env: Env, data: str) -> tuple[int, dict[str, Any]]:
        async with env.http.post(f"{env.base}/api/telegram/session",
                                 json={"init_data": data}) as r:
            return r.status, await r.json()

    async def body(env: Env) -> None:
        ann = User("telegram:42", "Ann")
        tid = table_id(await env.service.open_table(ann, "telegram:-100", "telegram:-100",
                                                    "classic", options="players=2 ai=1"))
        good = init_data(start_param=str(tid))
        status, session = await post(env, encode(good))
        assert status == 200
        assert session["user"] == "telegram:42" and session["table"] == tid
        grant = env.links.check(session["token"])
        assert grant is not None and (grant.table, grant.user) == (tid, "telegram:42")
        ws = await env.socket(session["token"])
        assert (await state(ws))["state"]["seat"] == 0  # her own seat's view
        await ws.close()
        changed = dict(good, user=good["user"].replace("42", "43"))
        assert (await post(env, encode(changed)))[0] == 401
        wrong = dict(good, hash="0" * 64)
        assert (await post(env, encode(wrong)))[0] == 401
        other_bot = init_data("999:another-bot", start_param="7")
        assert (await post(env, encode(other_bot)))[0] == 401
        old = init_data(auth_date=int(time.time()) - 3600 - 60)
        assert (await post(env, encode(old)))[0] == 401
        assert (await post(env, ""))[0] == 401
        # a table number alone grants nothing to who does not sit there (anyone can write
        # one); the table message's signed startapp grant gives the spectators' view
        stranger = init_data(user_id=77, start_param=str(tid))
        status, session = await post(env, encode(stranger))
        assert status == 200 and session["table"] is None and session["ws"] is None
        signed = env.links.compact(env.links.token(tid))
        status, session = await post(env, encode(init_data(user_id=77, start_param=signed)))
        assert status == 200 and session["table"] == tid
        ws = await env.socket(session["token"])
        s = await state(ws)
        assert s["state"]["seat"] is None and s["state"]["hand"] == []
        await ws.close()
        forged = signed[:-1] + ("A" if signed[-1] != "A" else "B")
        status, session = await post(env, encode(init_data(user_id=77, start_param=forged)))
        assert session["table"] is None
        async with env.http.post(f"{env.base}/api/telegram/session", data="x" * 100_000) as r:
            assert r.status in (401, 413)
    run(serving(tmp_path, body))


def test_the_socket_refuses_a_foreign_or_missing_origin(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        token = env.links.token(tid, ALICE.id)
        for origin in ("https://evil.example", "http://127.0.0.1.evil.example", ""):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await env.socket(token, origin=origin)
            assert refused.value.status == 403
        ws = await env.socket(token)  # the page's own origin
        assert (await state(ws))["type"] == "state"
        await ws.close()
    run(serving(tmp_path, body))


def test_an_oversized_message_or_a_flood_closes_the_socket(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        token = env.links.token(tid, ALICE.id)
        ws = await env.socket(token)
        await state(ws)
        await ws.send_str(json.dumps({"type": "hello", "version": 0, "pad": "x" * 10_000}))
        msg = await asyncio.wait_for(ws.receive(), 5)
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert ws.close_code == 1009
        ws = await env.socket(token)
        await state(ws)
        env.web.max_sockets = 1  # the open sockets are bounded too
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await env.socket(token)
        assert refused.value.status == 503
        env.web.max_sockets = 100
        for _ in range(60):
            await ws.send_str('{"type": "nonsense"}')
        texts = []
        while True:
            msg = await asyncio.wait_for(ws.receive(), 5)
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            texts.append(json.loads(msg.data)["text"])
        assert "Too many messages; slow down." in texts
        assert ws.close_code == 1008
    run(serving(tmp_path, body))


def test_a_move_by_socket_reaches_a_spectator_within_200_ms(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        user = user_to_move(env, tid)
        player = await env.socket(env.links.token(tid, user.id))
        watcher = await env.socket(env.links.token(tid))
        mine, public = await state(player), await state(watcher)
        assert public["state"]["seat"] is None and public["state"]["hand"] == []
        assert mine["state"]["seat"] == env.service.tables[tid].game.to_move
        move = legal_of(mine)[0]
        start = time.perf_counter()
        await player.send_json({"type": "move", "move": move, "version": mine["version"]})
        seen = await state(watcher)
        elapsed = time.perf_counter() - start
        assert seen["version"] == mine["version"] + 1, seen
        assert elapsed < 0.2, elapsed
        assert str(env.service.tables[tid].game.moves[-1]) == move
        assert any(m.kind == "table" and m.table == tid for m in env.delivered)  # the chat's
        await player.close()
        await watcher.close()
    run(serving(tmp_path, body))


def test_the_service_refuses_web_moves_as_it_refuses_the_chat(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        mover = user_to_move(env, tid)
        waiting = BOB if mover == ALICE else ALICE
        ws = await env.socket(env.links.token(tid, waiting.id))
        s = await state(ws)
        await ws.send_json({"type": "move", "move": "6-6", "version": s["version"]})
        error = await state(ws)
        assert error["type"] == "error" and "turn, not yours" in error["text"]
        spectator = await env.socket(env.links.token(tid, "test:nobody"))
        s = await state(spectator)
        await spectator.send_json({"type": "move", "move": "6-6", "version": s["version"]})
        assert (await state(spectator))["type"] == "error"
        player = await env.socket(env.links.token(tid, mover.id))
        s = await state(player)
        await player.send_json({"type": "move", "move": legal_of(s)[0], "version": 99})
        error = await state(player)
        assert error["type"] == "error" and "earlier turn" in error["text"]
        assert env.service.tables[tid].game.turn == 0
        assert env.delivered == []  # nothing changed: nothing sent to the chat
    run(serving(tmp_path, body))


def test_a_reconnect_with_an_old_version_gets_the_current_state(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        for _ in range(3):
            user = user_to_move(env, tid)
            game = env.service.tables[tid].game
            out = await env.service.play(user, tid, str(game.legal_moves()[0]))
            assert not [m for m in out if m.kind == "error"]
        ws = await env.socket(env.links.token(tid, ALICE.id))
        first = await state(ws)
        await ws.send_json({"type": "hello", "version": 0})
        again = await state(ws)
        assert first["version"] == again["version"] == 3
        assert again["state"]["hand"] == first["state"]["hand"]
    run(serving(tmp_path, body))


def test_a_chat_move_reaches_the_socket(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        ws = await env.socket(env.links.token(tid))
        assert (await state(ws))["version"] == 0
        user = user_to_move(env, tid)
        game = env.service.tables[tid].game
        await env.service.play(user, tid, str(game.legal_moves()[0]))
        assert (await state(ws, timeout=0.2))["version"] == 1
    run(serving(tmp_path, body))


GAMES = [("classic", "players=3 ai=2"), ("matador", "players=2 ai=1"),
         ("forty-two", "ai=3 target=1"), ("tower", "players=2 ai=1"),
         ("vingt", "players=2 ai=1"), ("memory", "players=2 ai=1"),
         ("texas-42", "ai=3 target=2")]


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_a_seat_socket_never_receives_another_seat_tile(tmp_path: Path, variant: str,
                                                        options: str) -> None:
    """Every payload of a whole game played by socket names no tile of another seat's hand
    that the public view of that moment does not name; its move log (the whole game's, so
    it may name a tile played in an earlier hand and dealt again since) says only what the
    chat said in public."""
    async def body(env: Env) -> None:
        opened = await env.service.open_table(ALICE, CHANNEL, SCOPE, variant, options=options)
        tid = table_id(opened)
        table = env.service.tables.get(tid)
        if table is not None and table.game is None:
            opened += await env.service.begin(ALICE, tid)
        ws = await env.socket(env.links.token(tid, ALICE.id))
        spectator = await env.socket(env.links.token(tid))
        seen: list[dict[str, Any]] = []
        public: list[dict[str, Any]] = []
        played = -1  # the version last answered with a move (a state may come twice)
        for _ in range(400):
            s = await state(ws)
            assert s["type"] == "state", s
            seen.append(s)
            if s["state"]["over"]:
                break
            if s["state"]["to_move"] == 0 and legal_of(s) and s["version"] != played:
                played = s["version"]
                await ws.send_json({"type": "move", "move": legal_of(s)[-1],
                                    "version": s["version"]})
        else:
            raise AssertionError("the game did not end")
        await asyncio.sleep(0.1)
        while True:
            try:
                public.append(await state(spectator, timeout=0.2))
            except TimeoutError:
                break
        row = await env.service.store.get_table(tid)
        moves = await env.service.store.moves(tid)
        assert row.status == "finished" and len(seen) > 3
        checks = [(s, 0) for s in whole_logs(seen)] + [(s, None) for s in whole_logs(public)]
        said_in_public = {line for m in opened + env.delivered if m.to is None
                          for line in m.said}
        for payload, seat in checks:
            log = payload["state"].pop("log")
            assert {e["text"] for e in log} <= said_in_public, payload["version"]
            assert [e["n"] for e in log] == list(range(len(log), 0, -1))  # latest first
            game = rebuild(row, moves[:payload["version"]])
            shown = json.dumps(game.view(None))
            allowed = {tuple(sorted(map(int, m))) for m in TILE.findall(shown)}
            if seat is not None:
                allowed |= {tuple(sorted(map(int, x.split("-"))))
                            for x in game.view(seat)["hand"]}
            hidden = set()
            for other in range(game.players if isinstance(game.players, int)
                               else len(row.seats)):
                if other != seat:
                    hidden |= {tuple(sorted(map(int, x.split("-"))))
                               for x in game.view(other)["hand"]}
            named = {tuple(sorted(map(int, m))) for m in TILE.findall(json.dumps(payload))}
            assert not (named & (hidden - allowed)), (payload["version"], named & hidden)
            if seat is None:
                assert payload["state"]["hand"] == [] and payload["state"]["moves"] == []
    run(serving(tmp_path, body))


def test_console_web_answers_a_link_that_works(tmp_path: Path) -> None:
    import io

    from bot.console.chat import ConsoleChat

    async def body(env: Env) -> None:
        out = io.StringIO()
        chat = ConsoleChat(env.service, out, None)
        chat.user = User("console:alice", "alice")
        await chat.handle("/start classic players=2 ai=1")
        await chat.handle("/web")
        found = re.findall(r"(http://127\.0\.0\.1:\d+/t/\S+)", out.getvalue())
        assert found, out.getvalue()
        async with env.http.get(found[-1]) as r:
            assert r.status == 200
        ws = await env.socket(found[-1].rsplit("/", 1)[1])
        s = await state(ws)
        assert s["state"]["seat"] == 0 and s["state"]["hand"]
        await ws.close()
    run(serving(tmp_path, body))


def test_the_web_settings() -> None:
    console = Settings.from_env({}, cwd=Path("/nonexistent"))
    assert console.web is not None and (console.web.host, console.web.port) == ("127.0.0.1", 0)
    assert Settings.from_env({"TELEGRAM_TOKEN": BOT_TOKEN}, cwd=Path("/nonexistent")).web is None
    assert Settings.from_env({"DOMINO_WEB": "off"}, cwd=Path("/nonexistent")).web is None
    web = Settings.from_env({"TELEGRAM_TOKEN": BOT_TOKEN, "DOMINO_WEB": "0.0.0.0:8080",
                             "DOMINO_WEB_URL": "https://domino.example/",
                             "DOMINO_WEB_SECRET": "s" * 32}, cwd=Path("/nonexistent")).web
    assert web is not None and web.port == 8080 and web.https
    assert web.url == "https://domino.example" and "s" * 32 not in repr(web)
    for bad in ({"DOMINO_WEB": "8080"}, {"DOMINO_WEB": "a:b"},
                {"DOMINO_WEB_URL": "ftp://x"}, {"DOMINO_WEB_SECRET": "short"},
                {"DOMINO_WEB_TELEGRAM_APP": "a b"}):
        with pytest.raises(ConfigError):
            Settings.from_env(bad, cwd=Path("/nonexistent"))


def test_a_finished_game_page_replays_it_step_by_step(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = table_id(await env.service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                    options="players=2 ai=1"))
        await play_through_service(env, tid)
        moves = await env.service.store.moves(tid)
        game = env.links.game_path(tid)
        async with env.http.get(f"{env.base}{game}") as r:
            assert r.status == 200
            page = await r.text()
            assert f"move {len(moves)} of {len(moves)}" in page and "Score sheet" in page
            assert "<script" not in page
        async with env.http.get(f"{env.base}{game}?step=1") as r:
            page = await r.text()
            assert "move 1 of" in page and moves[0] in page and f"{game}?step=2" in page
        opened = table_id(await env.service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                       options="players=2"))
        # a game under way, or no such table, with a signature made here: not shown
        for missing in (opened, 999):
            async with env.http.get(f"{env.base}{env.links.game_path(missing)}") as r:
                assert r.status == 404
        # a number alone, another table's signature, a changed one: refused
        other = env.links.game_path(opened).split(".")[1]
        sig = game.split(".")[1]
        changed = sig[:-1] + ("A" if sig[-1] != "A" else "B")
        for forged in (f"{tid}", f"{tid}.{other}", f"{tid}.{changed}", f"0{tid}.{sig}", "x"):
            async with env.http.get(f"{env.base}/g/{forged}") as r:
                assert r.status == 403, forged
        # /web on the finished game answers its page, privately
        said = await web_reply(env.service, ALICE, tid, "en", CHANNEL)
        assert said[0].to == ALICE.id and game in said[0].text
        elsewhere = await web_reply(env.service, BOB, tid, "en", "console:other")
        assert game not in elsewhere[0].text  # not seated, another channel: no link
    run(serving(tmp_path, body))


def test_the_domino_command_serves_the_web_table_and_web_prints_a_working_link(
        tmp_path: Path) -> None:
    """`domino` with no token, as a new user runs it: the web table on 127.0.0.1, its address
    printed; /web answers a link whose page and socket work."""
    import urllib.request

    from tests.console_helpers import ConsoleBot

    bot = ConsoleBot(tmp_path)
    try:
        started = bot.start()
        address = re.compile(r"^\(Play in your browser: (http://127\.0\.0\.1:\d+)/ ")
        first = next(m for line in started if (m := address.search(line)))  # the greeting
        with urllib.request.urlopen(first[1] + "/", timeout=10) as r:  # the local home page
            assert r.status == 200 and 'data-variant="classic"' in r.read().decode()
        lines = bot.send("/start classic players=2 ai=1", "/web")
        urls = [u for line in lines for u in re.findall(r"http://127\.0\.0\.1:\d+/t/\S+", line)]
        assert urls, lines
        with urllib.request.urlopen(urls[-1], timeout=10) as r:
            assert r.status == 200 and 'id="domino-config"' in r.read().decode()
        base, token = urls[-1].split("/t/")

        async def socket() -> dict[str, Any]:
            async with aiohttp.ClientSession() as http, http.ws_connect(
                    f"{base}/ws?token={token}", headers={"Origin": base}) as ws:
                return await state(ws)
        got = run(socket())
        assert got["state"]["seat"] == 0 and got["state"]["hand"]
    finally:
        code, _ = bot.close()
    assert code == 0
    assert token not in bot.stderr()  # a link is never logged
    assert "DOMINO_WEB_SECRET" not in bot.stderr()  # the local mode: no warning


def test_links_and_launch_data_are_cleaned_from_log_records() -> None:
    from bot.logs import Redact

    links_key = "a link key that must not be logged"
    clean = Redact(["bot-token", links_key]).clean
    token = "MTJ8MTc2NDIwMDAwMHx0ZXN0OmFsaWNl.q3VuX2VnR0pZb3Vfc2lnbmVk"
    for line in (f"GET /t/{token} 200", f"GET /ws?token={token}&x=1",
                 "POST init_data=query_id%3DAAH&hash=ab", f"key {links_key}"):
        cleaned = clean(line)
        assert token not in cleaned and links_key not in cleaned and "AAH" not in cleaned
        assert "[token]" in cleaned


def test_web_reply_keeps_the_chat_scope(tmp_path: Path) -> None:
    """/web: a seated user's own link from anywhere; the spectators' link only from the
    table's channel; nothing for a table of another channel."""
    from bot.web.reply import web_reply

    async def body(env: Env) -> None:
        tid = await two_player_table(env)
        carol = User("test:carol", "carol")
        mine = await web_reply(env.service, BOB, tid, "en", "test:elsewhere")
        grant = env.links.check(mine[0].text.split("/t/")[1])
        assert mine[0].to == BOB.id and grant is not None and grant.user == BOB.id
        here = await web_reply(env.service, carol, tid, "en", CHANNEL)
        assert env.links.check(here[0].text.split("/t/")[1]).user == ""
        there = await web_reply(env.service, carol, tid, "en", "test:elsewhere")
        assert there[0].kind == "error" and "/t/" not in there[0].text
        assert "not played here" in there[0].text
        none = await web_reply(env.service, carol, 999, "fr", CHANNEL)
        assert none[0].kind == "error"
    run(serving(tmp_path, body))


def test_the_ticks_messages_tell_the_web_table(tmp_path: Path) -> None:
    """What the tick loop delivers (an idle table closed, a timer's warning) also reaches the
    listeners of bot/service/live.py, before the chat adapters get it."""
    from bot.app import _heard
    from bot.service import live
    from bot.service.messages import Message

    heard: list[set[int]] = []
    order: list[str] = []

    async def body(env: Env) -> None:
        live.listen(env.service, lambda ids: (heard.append(ids), order.append("web")))

        async def deliver(messages: list[Message]) -> None:
            order.append("chat")

        await _heard(env.service, deliver)([Message("test:chan", "closed", table=5),
                                            Message("", "x", to="test:a")])
    run(serving(tmp_path, body))
    assert heard == [{5}] and order == ["web", "chat"]


def test_a_player_reviews_the_finished_game_from_the_page_a_spectator_cannot(
        tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = table_id(await env.service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                    options="players=2 ai=1 hand=4"))
        await play_through_service(env, tid)
        mine = await env.socket(env.links.token(tid, ALICE.id))
        shown = await state(mine)
        assert shown["state"]["over"] and shown["state"]["seat"] == 0
        await mine.send_json({"type": "review"})
        review = await state(mine, timeout=60)
        assert review["type"] == "review" and f"game #{tid}" in review["text"], review
        spectator = await env.socket(env.links.token(tid))
        assert (await state(spectator))["state"]["seat"] is None
        await spectator.send_json({"type": "review"})
        refused = await state(spectator)
        assert refused["type"] == "error" and "players" in refused["text"]
    run(serving(tmp_path, body))
