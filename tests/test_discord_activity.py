"""The Discord Activity (issue 39) without a browser: `POST /api/discord/session` against the
fake Discord's OAuth2 token endpoint, users and Activity instances (tests/fake_discord.py on
127.0.0.1), the /discord page's policy, the settings, and the bot's "Play in Discord" button
(LAUNCH_ACTIVITY) and Entry Point command through the real discord.py client.  A real
SQLite file, the real Service and web server."""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.config import ConfigError, Settings
from bot.logs import Redact
from bot.service.service import User
from bot.web.settings import Activity
from tests.discord_helpers import running_bot
from tests.fake_discord import FakeDiscord
from tests.service_helpers import run, table_id
from tests.web_helpers import Env, serving, state

GUILD, CHANNEL, OTHER_GUILD, OTHER_CHANNEL = 7001, 7002, 8001, 8002


def activity_of(fake: FakeDiscord) -> Activity:
    return Activity(fake.activity.client_id, fake.activity.secret,
                    f"http://127.0.0.1:{fake.port}/api/v10")


async def with_activity(tmp_path: Path, body: Any) -> None:
    async with FakeDiscord() as fake:
        async def inner(env: Env) -> None:
            await body(env, fake)
        await serving(tmp_path, inner, web_options={"activity": activity_of(fake),
                                                    "discord_token": "bot-token"})


async def post(env: Env, payload: Any) -> tuple[int, dict[str, Any]]:
    async with env.http.post(f"{env.base}/api/discord/session", json=payload) as r:
        return r.status, await r.json()


async def snapshot(env: Env) -> Any:
    """What the database holds (tables, seats, users), to compare before and after."""
    store = env.service.store
    return ([(r.id, r.status, [(s.user_id, s.seat) for s in r.seats])
             for r in await store.tables(("lobby", "playing", "done", "closed"))],
            await store.link.fetch_many(("SELECT * FROM users", [])))


def body_for(fake: FakeDiscord, user: int, channel: int = CHANNEL, guild: int | None = GUILD,
             **over: Any) -> dict[str, Any]:
    inst = fake.activity.launch(channel, guild, user)
    return {"code": fake.activity.grant(user), "instance_id": inst.id,
            "channel_id": str(channel), "guild_id": str(guild) if guild else None} | over


async def discord_table(env: Env, host: User, channel: int = CHANNEL, guild: int = GUILD,
                        seats: int = 2) -> int:
    return table_id(await env.service.open_table(
        host, f"discord:{channel}", f"discord:{guild}", "classic", options=f"players={seats}"))


def test_a_good_code_gives_a_session_at_the_channels_table(tmp_path: Path) -> None:
    async def body(env: Env, fake: FakeDiscord) -> None:
        ann = fake.add_user("Ann")
        fake.locales[ann] = "fr"
        host = User("discord:1", "host")
        tid = await discord_table(env, host)
        other = await discord_table(env, host, OTHER_CHANNEL, OTHER_GUILD)
        status, session = await post(env, body_for(fake, ann))
        assert status == 200, session
        assert session["user"] == f"discord:{ann}" and session["table"] == tid != other
        assert session["lang"] == "fr" and session["access_token"] in fake.activity.tokens
        grant = env.links.check(session["token"])
        assert grant is not None and grant.table == tid and grant.user == f"discord:{ann}"
        row = env.service.tables[tid].row
        assert [s.user_id for s in row.seats] == ["discord:1", f"discord:{ann}"]  # joined
        assert any(m.table == tid for m in env.delivered)  # the chat's table message too
        ws = await env.socket(session["token"])
        first = await state(ws)
        assert first["type"] == "state" and first["table"] == tid
        await ws.close()
        # the same user again: their own seat, no second join
        status, again = await post(env, body_for(fake, ann))
        assert status == 200 and again["table"] == tid
        assert len(env.service.tables[tid].row.seats) == 2
    run(with_activity(tmp_path, body))


def test_no_table_in_the_channel_gives_a_session_without_a_socket(tmp_path: Path) -> None:
    async def body(env: Env, fake: FakeDiscord) -> None:
        ann = fake.add_user("Ann")
        before = await snapshot(env)
        status, session = await post(env, body_for(fake, ann))
        assert status == 200 and session["table"] is None and session["ws"] is None
        assert (await snapshot(env))[0] == before[0]  # no table opened
    run(with_activity(tmp_path, body))


CASES = ["bad code", "reused code", "foreign application", "missing code", "missing guild",
         "missing channel", "not json", "another server", "another channel",
         "user not in the instance", "unknown instance"]


@pytest.mark.parametrize("case", CASES)
def test_a_refused_session_creates_nothing(tmp_path: Path, case: str) -> None:
    async def body(env: Env, fake: FakeDiscord) -> None:
        ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
        await discord_table(env, User("discord:1", "host"))
        await discord_table(env, User("discord:2", "other"), OTHER_CHANNEL, OTHER_GUILD)
        good = body_for(fake, ann)
        if case == "reused code":
            assert (await post(env, dict(good)))[0] == 200
            good["instance_id"] = fake.activity.launch(CHANNEL, GUILD, ann).id
        before = await snapshot(env)
        payload: Any = {
            "bad code": good | {"code": "made-up"},
            "reused code": good,
            "foreign application": good | {"code": fake.activity.grant(ann, "999")},
            "missing code": {k: v for k, v in good.items() if k != "code"},
            "missing guild": {k: v for k, v in good.items() if k != "guild_id"},
            "missing channel": {k: v for k, v in good.items() if k != "channel_id"},
            "not json": None,
            # the instance runs in CHANNEL of GUILD: naming another server's channel fails
            "another server": good | {"channel_id": str(OTHER_CHANNEL),
                                      "guild_id": str(OTHER_GUILD)},
            "another channel": good | {"channel_id": str(OTHER_CHANNEL)},
            "user not in the instance": good | {"instance_id": fake.activity.launch(
                CHANNEL, GUILD, bob).id},
            "unknown instance": good | {"instance_id": "i-nothing"},
        }[case]
        if payload is None:
            async with env.http.post(f"{env.base}/api/discord/session", data=b"{no") as r:
                status = r.status
        else:
            exchanges = fake.activity.exchanges
            status, answer = await post(env, payload)
            assert set(answer) == {"error"}  # no token, no access token
            if case not in ("missing code", "missing guild", "missing channel"):
                assert fake.activity.exchanges == exchanges + 1  # Discord said no
        placed = case.startswith(("another", "user not", "unknown"))
        assert status == (403 if placed else 401), case
        assert await snapshot(env) == before
    run(with_activity(tmp_path, body))


def test_without_a_bot_token_no_instance_is_trusted(tmp_path: Path) -> None:
    async def body(env: Env, fake: FakeDiscord) -> None:
        env.web.discord._bot_token = None  # type: ignore[union-attr]
        status, _ = await post(env, body_for(fake, fake.add_user("Ann")))
        assert status == 403
    run(with_activity(tmp_path, body))


def test_the_activity_page_is_framed_by_discord_only(tmp_path: Path) -> None:
    async def body(env: Env, fake: FakeDiscord) -> None:
        async with env.http.get(f"{env.base}/discord") as r:
            assert r.status == 200
            page = await r.text()
            csp = r.headers["Content-Security-Policy"]
        assert '/static/discord-sdk.js' in page and "/static/table.js" not in page
        assert f'data-client-id="{fake.activity.client_id}"' in page
        assert ("frame-ancestors https://discord.com https://*.discord.com "
                "https://*.discordsays.com") in csp
        assert "script-src 'self';" in csp and "connect-src 'self'" in csp
        # Discord opens the URL mapping's root with its launch parameters: the same page
        async with env.http.get(f"{env.base}/?frame_id=f&instance_id=i&platform=mobile") as r:
            assert r.status == 200 and "/static/discord-sdk.js" in await r.text()
            assert "discordsays" in r.headers["Content-Security-Policy"]
        async with env.http.get(f"{env.base}/") as r:  # else the home page's (not local: 404)
            assert r.status == 404 and "discordsays" not in r.headers["Content-Security-Policy"]
        async with env.http.get(f"{env.base}/tg") as r:  # the others keep theirs
            assert "discordsays" not in r.headers["Content-Security-Policy"]
            assert "discord-sdk" not in await r.text()
        async with env.http.get(f"{env.base}/static/discord-sdk.js") as r:
            assert r.status == 200 and len(await r.read()) > 10_000
    run(with_activity(tmp_path, body))


def test_without_the_activity_its_routes_answer_404(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        async with env.http.get(f"{env.base}/discord") as r:
            assert r.status == 404
        async with env.http.get(f"{env.base}/?frame_id=f&instance_id=i") as r:
            assert r.status == 404
        async with env.http.post(f"{env.base}/api/discord/session", json={}) as r:
            assert r.status == 404
    run(serving(tmp_path, body))


def test_the_activity_settings() -> None:
    env = {"DISCORD_CLIENT_ID": "123456789012345678", "DISCORD_CLIENT_SECRET": "s3cret-value",
           "DOMINO_WEB": "127.0.0.1:0", "DOMINO_CONSOLE": "off"}
    web = Settings.from_env(env, cwd=Path("/nonexistent")).web
    assert web is not None and web.activity is not None
    assert web.activity.api_url == "https://discord.com/api/v10"
    assert "s3cret" not in repr(web)
    assert Settings.from_env({"DOMINO_WEB": "127.0.0.1:0"}, cwd=Path("/x")).web.activity is None  # type: ignore[union-attr]
    for bad in ({"DISCORD_CLIENT_ID": "abc", "DISCORD_CLIENT_SECRET": "x"},
                {"DISCORD_CLIENT_ID": "123"},
                {**env, "DISCORD_API_URL": "ftp://x"}):
        with pytest.raises(ConfigError, match="DISCORD_"):
            Settings.from_env({"DOMINO_WEB": "127.0.0.1:0", **bad}, cwd=Path("/x"))


def test_the_log_filter_hides_the_secret_codes_and_tokens() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(Redact(["the-client-secret"]))
    logger = logging.getLogger("test.activity.redact")
    logger.addHandler(handler)
    try:
        logger.warning("POST /oauth2/token client_secret=the-client-secret&code=abcdef123")
        logger.warning('answer {"access_token": "tok987654", "token_type": "Bearer"}')
        logger.warning("GET /users/@me Authorization: Bearer tok987654")
        logger.warning("sent access_token=tok987654 and Bot bot.tok.en")
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    for secret in ("the-client-secret", "abcdef123", "tok987654", "bot.tok.en"):
        assert secret not in text


def test_play_in_discord_launches_the_activity_and_the_entry_point_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def body() -> None:
        async with FakeDiscord() as fake:
            fake.patch(monkeypatch)
            ann = fake.add_user("Ann")
            activity = activity_of(fake)
            async with running_bot(fake, tmp_path / "bot.sqlite", activity) as bot:
                entry = [c for c in fake.commands["global"] if c["type"] == 4]
                assert [(c["name"], c["handler"]) for c in entry] == [("launch", 2)]
                assert any(c["name"] == "domino" for c in fake.commands["global"])
                await bot.slash(ann, "start", variant="matador")
                table = next(m for m in fake.channel_messages() if m.get("components"))
                labels = [b["label"] for b in fake.buttons(int(table["id"]))]
                assert "Play in Discord" in labels, (labels, table["components"])
                record = await bot.click(ann, int(table["id"]), "Play in Discord")
                assert record.callback == {"type": 12}
                assert not fake.refused
            # a second start syncs again: the Entry Point command is neither lost nor doubled
            async with running_bot(fake, tmp_path / "bot.sqlite", activity):
                assert [c["type"] for c in fake.commands["global"]].count(4) == 1
                assert not fake.refused
            # the fake enforces Discord's shapes
            resp = await fake_put(fake, [c for c in fake.commands["global"] if c["type"] != 4])
            assert resp == 400
            assert await fake_put(fake, [{"name": "launch", "type": 4,
                                          "description": "x"}]) == 400
            async with aiohttp.ClientSession() as http, http.post(
                    f"http://127.0.0.1:{fake.port}/api/v10/interactions/1/tok/callback",
                    json={"type": 12, "data": {"content": "x"}}) as r:
                assert r.status == 400  # LAUNCH_ACTIVITY takes no data
        async with FakeDiscord() as fake:  # a test server: the Entry Point goes global alone
            fake.patch(monkeypatch)
            fake.commands["global"] = [{"name": "domino", "type": 1, "id": "5"}]
            async with running_bot(fake, tmp_path / "guild.sqlite", activity_of(fake),
                                   test_guild=fake.guild_id):
                assert [c["name"] for c in fake.commands[str(fake.guild_id)]] == ["domino"]
                assert sorted(c["name"] for c in fake.commands["global"]) == ["domino",
                                                                              "launch"]
                assert not fake.refused
        async with FakeDiscord() as fake:  # no Activity set up: no button, no Entry Point
            fake.patch(monkeypatch)
            ann = fake.add_user("Ann")
            async with running_bot(fake, tmp_path / "plain.sqlite") as bot:
                assert all(c["type"] != 4 for c in fake.commands["global"])
                await bot.slash(ann, "start", variant="matador")
                table = next(m for m in fake.channel_messages() if m.get("components"))
                assert "Play in Discord" not in [b["label"]
                                                 for b in fake.buttons(int(table["id"]))]
    run(body())


async def fake_put(fake: FakeDiscord, commands: list[dict[str, Any]]) -> int:
    async with aiohttp.ClientSession() as http, http.put(
            f"http://127.0.0.1:{fake.port}/api/v10/applications/{fake.app_id}/commands",
            json=commands) as r:
        return r.status
