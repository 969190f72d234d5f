"""The Discord Activity in Debian's chromium (issue 39): the /discord page inside an outer
page that plays the Discord client's part of the Embedded App SDK's postMessage exchange
(the handshake answered with READY, AUTHORIZE answered with a code the fake Discord's OAuth2
endpoint knows, AUTHENTICATE answered with the user), on the real server and Service, with
the fake Discord (tests/fake_discord.py) for the bot's calls to OAuth2, users and
instances.

The outer page is served as https://discord.com/... through Playwright's routing: the
SDK's own origin check (it listens to discord.com only) and the page's
`frame-ancestors` both apply unchanged.  Two Discord users play a whole 2-player classic by
touch from their iframes, a third watches; every socket frame of the three is checked (no
other seat's tile).  Screenshots at Discord's desktop and phone sizes; the time from the
SDK's READY to the first board drawn is measured (target: under 1.5 s)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from bot.service.service import User
from bot.service.tables import rebuild
from bot.web.settings import Activity
from tests.browser_helpers import CHROMIUM, READY, Watched, click_move
from tests.fake_discord import FakeDiscord
from tests.prerequisites import require_browser
from tests.service_helpers import run, table_id
from tests.test_web_e2e import assert_private, first_entry
from tests.web_helpers import Env, serving

playwright_api = require_browser(CHROMIUM)

from tests.browser_helpers import ARGS  # noqa: E402

SHOTS = Path(os.environ.get("DOMINO_SHOTS", "/tmp/e2e-shots"))
GUILD, CHANNEL = 9001, 9002
DESKTOP = {"width": 1024, "height": 640}  # a desktop client's Activity panel
PHONE = {"width": 390, "height": 780}  # a phone's Activity, full screen under Discord's bar
OUTER = "https://discord.com/activities/domino"
# The outer page is "public" (discord.com) and the Activity's server is on 127.0.0.1: chromium
# refuses a public page's frame on a loopback address (Local Network Access); Discord's
# proxy serves the real page from a public address, so the test lifts that check only.
LOCAL = ("--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessForNavigations,"
         "PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests")

# The Discord client's part of the SDK's protocol (opcodes 0 HANDSHAKE, 1 FRAME, 2 CLOSE):
# the handshake is answered with the READY event; AUTHORIZE with the code the test gave;
# AUTHENTICATE with the user (the access token it got is kept for the test to check); any
# other command with an empty answer.  Frames are only taken from the iframe's window.
DISCORD_CLIENT = """
window.sdkFrames = []; window.authenticated = null;
const config = JSON.parse(document.getElementById('launch').textContent);
window.addEventListener('message', (event) => {
  const frame = document.getElementById('activity');
  if (!frame || event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [op, data] = event.data;
  window.sdkFrames.push([op, data && data.cmd || null]);
  const reply = (message) => frame.contentWindow.postMessage(message, '*');
  if (op === 0) {
    if (data.client_id !== config.client_id || data.frame_id !== config.frame_id) return;
    reply([1, {cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {v: 1, config: {
      cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api',
      environment: 'production'}}}]);
    return;
  }
  if (op !== 1) return;
  const answer = (payload) => reply([1, {cmd: data.cmd, evt: null, nonce: data.nonce,
                                         data: payload}]);
  if (data.cmd === 'AUTHORIZE') {
    if (data.args.client_id !== config.client_id || data.args.response_type !== 'code') {
      reply([1, {cmd: data.cmd, evt: 'ERROR', nonce: data.nonce,
                 data: {code: 4000, message: 'bad authorize'}}]);
      return;
    }
    answer({code: config.code});
  } else if (data.cmd === 'AUTHENTICATE') {
    window.authenticated = data.args.access_token;
    answer({access_token: data.args.access_token, scopes: ['identify', 'guilds'],
            expires: '2030-01-01T00:00:00.000Z',
            user: {id: config.user_id, username: config.name, discriminator: '0',
                   public_flags: 0, global_name: config.name},
            application: {id: config.client_id, name: 'Domino', description: ''}});
  } else {
    answer(null);
  }
});
"""


def outer_page(app_url: str, launch: dict[str, str]) -> str:
    return ("<!doctype html><html><head><meta charset='utf-8'><style>html,body{margin:0;"
            "height:100%;background:#313338}iframe{border:0;width:100%;height:100%;"
            "display:block}</style></head><body>"
            f"<script type='application/json' id='launch'>{json.dumps(launch)}</script>"
            f"<script>{DISCORD_CLIENT}</script>"
            f"<iframe id='activity' src='{app_url}' allow='autoplay'></iframe></body></html>")


class Player:
    """One Discord user's Discord tab: the outer page, the Activity's frame, its frames."""

    def __init__(self, page: Any, watched: Watched, frame: Any, user: int) -> None:
        self.page, self.watched, self.frame, self.user = page, watched, frame, user


async def open_activity(browser: Any, env: Env, fake: FakeDiscord, user: int, name: str,
                        viewport: dict[str, int] = PHONE, platform: str = "mobile") -> Player:
    inst = fake.activity.launch(CHANNEL, GUILD, user)
    launch = {"client_id": fake.activity.client_id, "frame_id": f"frame-{user}",
              "code": fake.activity.grant(user), "user_id": str(user), "name": name}
    # the URL mapping's root, as Discord opens it: /?instance_id=...&frame_id=...
    app_url = (f"{env.base}/?instance_id={inst.id}&frame_id={launch['frame_id']}"
               f"&platform={platform}&guild_id={GUILD}&channel_id={CHANNEL}")
    page = await browser.new_page(viewport=viewport, locale="en-US")
    watched = Watched(page)

    async def serve(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/html",
                            body=outer_page(app_url, launch))
    await page.route(OUTER, serve)
    await page.goto(OUTER)
    frame = None
    for _ in range(100):
        frame = next((f for f in page.frames if "instance_id=" in f.url), None)
        if frame is not None:
            break
        await page.wait_for_timeout(50)
    assert frame is not None, [f.url for f in page.frames]
    await frame.wait_for_function("() => window.dominoState !== undefined", timeout=10_000)
    return Player(page, watched, frame, user)


async def first_board_ms(frame: Any) -> float:
    """From the SDK's READY (the launcher's mark) to the first board shown (table.js's)."""
    return await frame.evaluate("""() => {
        const ready = performance.getEntriesByName('domino-sdk-ready')[0];
        const shown = performance.getEntriesByName('domino:shown')[0];
        return shown.startTime - ready.startTime; }""")  # type: ignore[no-any-return]


def test_two_discord_users_play_a_whole_game_in_the_activity_and_a_third_watches(
        tmp_path: Path) -> None:
    from playwright import async_api

    async def body(env: Env, fake: FakeDiscord) -> None:
        ann, bob, cat = (fake.add_user(n) for n in ("Ann", "Bob", "Cat"))
        fake.locales[cat] = "fr"  # Discord's locale picks the language
        tid = table_id(await env.service.open_table(
            User(f"discord:{ann}", "Ann"), f"discord:{CHANNEL}", f"discord:{GUILD}",
            "classic", options="players=2"))
        async with async_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, LOCAL])
            try:
                a = await open_activity(browser, env, fake, ann, "Ann")
                b = await open_activity(browser, env, fake, bob, "Bob")  # takes the free seat
                row = env.service.tables[tid].row
                assert [s.user_id for s in row.seats] == [f"discord:{ann}", f"discord:{bob}"]
                if env.service.tables[tid].game is None:  # the chat's Start
                    await env.service.begin(User(f"discord:{ann}", "Ann"), tid)
                for player in (a, b):
                    token = await player.page.evaluate("window.authenticated")
                    assert fake.activity.tokens[token] == player.user  # authenticate's token
                    frames = await player.page.evaluate("window.sdkFrames")
                    assert [0, None] in frames and [1, "AUTHORIZE"] in frames
                    assert [1, "AUTHENTICATE"] in frames
                c = await open_activity(browser, env, fake, cat, "Cat", DESKTOP, "desktop")
                assert await c.frame.evaluate("window.dominoState.seat") is None
                assert await c.frame.evaluate("document.documentElement.lang") == "fr"
                await c.frame.wait_for_function(
                    "() => document.getElementById('spectator').textContent.includes('regardez')")
                await a.frame.wait_for_function("() => window.dominoState.to_move !== null")
                timing = [await first_board_ms(x.frame) for x in (a, b, c)]
                for x in (a, b, c):  # the page fits Discord's frame: nothing off its sides
                    assert await x.frame.evaluate(
                        "document.documentElement.scrollWidth <= window.innerWidth")
                SHOTS.mkdir(parents=True, exist_ok=True)
                await c.page.screenshot(path=str(SHOTS / "activity-desktop.png"))
                await a.page.screenshot(path=str(SHOTS / "activity-phone.png"))
                made = await play_two(env, tid, {0: a.frame, 1: b.frame})
                assert made > 0
                row = await env.service.store.get_table(tid)
                game = rebuild(row, await env.service.store.moves(tid))
                assert row.status == "finished" and game.over
                await c.frame.wait_for_function("v => window.dominoVersion >= v",
                                                arg=game.turn)
                await a.page.screenshot(path=str(SHOTS / "activity-phone-over.png"))
                await assert_private(env, tid, a.watched, 0)
                await assert_private(env, tid, b.watched, 1)
                await assert_private(env, tid, c.watched, None)
                assert len(c.watched.states) > 1
                print(f"Activity: SDK ready -> first board (ms): "
                      f"{', '.join(f'{x:.0f}' for x in timing)}; {made} moves by touch")
                assert max(timing) < 1500, timing
            finally:
                await browser.close()

    run(with_fake(tmp_path, body))


async def play_two(env: Env, tid: int, frames: dict[int, Any], limit: int = 200) -> int:
    """The seat to move touches its first legal move, until the game is over."""
    for made in range(limit):
        held = env.service.tables.get(tid)  # a finished table leaves the memory
        game = held.game if held is not None else None
        if game is None or game.over:
            return made
        frame = frames[game.to_move]
        await frame.wait_for_function(READY)
        await frame.wait_for_function("v => window.dominoVersion >= v", arg=game.turn)
        state = await frame.evaluate("window.dominoState")
        if state["over"]:
            return made
        before = game.turn
        await click_move(frame, first_entry(env, tid, state))
        for other in frames.values():
            await other.wait_for_function("v => window.dominoVersion > v", arg=before)
    raise AssertionError(f"table {tid}: not over after {limit} moves")


def test_the_activity_page_outside_discord_says_so(tmp_path: Path) -> None:
    from playwright import async_api

    async def body(env: Env, fake: FakeDiscord) -> None:
        async with async_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = await browser.new_page(locale="fr-FR")
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                await page.goto(f"{env.base}/discord")
                alert = page.locator(".launch-note")
                await alert.wait_for()
                assert "depuis Discord" in await alert.text_content()
                assert not errors
                assert fake.activity.exchanges == 0
            finally:
                await browser.close()

    run(with_fake(tmp_path, body))


async def with_fake(tmp_path: Path, body: Any) -> None:
    async with FakeDiscord() as fake:
        activity = Activity(fake.activity.client_id, fake.activity.secret,
                            f"http://127.0.0.1:{fake.port}/api/v10")

        async def inner(env: Env) -> None:
            await body(env, fake)
        await serving(tmp_path, inner, web_options={"activity": activity,
                                                    "discord_token": "bot-token"})
