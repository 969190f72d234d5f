"""The web table end to end (issue 30): Debian's chromium, driven by Playwright's Python
package pointed at the system browser (never `playwright install`), on the REAL server
(`tests/web_helpers.py`'s `serving`: the aiohttp app on the real Service and SQLite file).

By clicks only, a human plays whole games against the Service's computers, choosing the
first legal move by the page's `data-tile` / `data-move` attributes (docs/web.md), while a
spectator's page watches; every WebSocket frame both pages receive is captured and checked
against the game's views; a finished game's page replays it; Mini App launches and refused
links; screenshots of each layout kind at 360x640.  Skipped, with the reason, where chromium
or Playwright is missing (CI installs both)."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from bot.service.service import User
from bot.service.tables import rebuild
from tests.browser_helpers import (
    CHROMIUM,
    HEIGHT,
    READY,
    WIDTH,
    Watched,
    click_move,
    in_browser,
    open_page,
    open_table,
    placed,
    q,
)
from tests.prerequisites import require_browser
from tests.service_helpers import ALICE
from tests.web_helpers import Env, encode, init_data, play_through_service

TILE = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")
SHOTS = Path(os.environ.get("DOMINO_SHOTS", "/tmp/e2e-shots"))

playwright_api = require_browser(CHROMIUM)

def first_entry(env: Env, tid: int, state: dict[str, Any]) -> dict[str, Any]:
    """The first legal move's entry; in a puzzle, the first that its shipped solution makes
    (so that the game ends solved)."""
    entries = state["moves"] + state["buttons"]
    puzzle = getattr(env.service.tables[tid].game, "puzzle", None)
    if puzzle is not None:
        solution = {placed(m) for m in puzzle.data.get("solution", [])}
        return next(e for e in entries if placed(e["move"]) in solution)
    return entries[0]


async def play_by_clicks(env: Env, tid: int, page: Any, limit: int = 400) -> int:
    """Click the first legal move until the page shows the game over; the moves made."""
    await page.wait_for_function(READY)
    for made in range(limit):
        state = await page.evaluate("window.dominoState")
        if state["over"]:
            return made
        before = await page.evaluate("window.dominoVersion")
        await click_move(page, first_entry(env, tid, state))
        await page.wait_for_function("v => window.dominoVersion > v", arg=before)
        await page.wait_for_function(READY)
    raise AssertionError(f"table {tid}: not over after {limit} moves")


def tileset(text: str) -> set[tuple[int, int]]:
    return {(min(int(a), int(b)), max(int(a), int(b))) for a, b in TILE.findall(text)}


async def assert_private(env: Env, tid: int, watched: Watched, seat: int | None) -> None:
    """No state frame names a tile of another seat's hand (at that frame's version) that
    the public view of then does not name; a spectator's frames hold no hand, no move."""
    row = await env.service.store.get_table(tid)
    moves = await env.service.store.moves(tid)
    assert watched.states
    for frame in watched.states:
        game = rebuild(row, moves[:frame["version"]])
        allowed = tileset(json.dumps(game.view(None)))
        if seat is not None:
            allowed |= tileset(json.dumps(game.view(seat).get("hand") or []))
        hidden: set[tuple[int, int]] = set()
        for other in range(len(row.seats)):
            if other != seat:
                hidden |= tileset(json.dumps(game.view(other).get("hand") or []))
        named = tileset(json.dumps(frame))
        assert not named & (hidden - allowed), (frame["version"], named & hidden)
        if seat is None:
            assert frame["state"]["seat"] is None
            assert frame["state"]["hand"] == [] and frame["state"]["moves"] == []
            assert frame["state"]["buttons"] == []


# the games tests/test_web_families.py does not play to the end (classic, matador, texas-42,
# tower, vingt, memory, patience and magic-squares are played there, by taps and by mouse,
# with a spectator)
GAMES = [("forty-two", "ai=3 target=1")]
PUZZLES = ["reussite", "quadrille", "magic-square", "magic-triangle", "magic-star"]
WHOLE = GAMES + [(slug, "") for slug in PUZZLES]


@pytest.mark.parametrize(("variant", "options"), WHOLE, ids=[g[0] for g in WHOLE])
def test_a_human_plays_a_whole_game_by_clicks_on_the_real_server(
        tmp_path: Path, variant: str, options: str) -> None:
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, variant, options)
        human = await open_page(browser, env.links.url(tid, ALICE.id))
        # the public link (a puzzle is a game of one: its spectator is left out for time)
        spectator = (None if variant in PUZZLES
                     else await open_page(browser, env.links.url(tid)))
        assert (await human.page.evaluate("window.dominoState.seat")) == 0
        made = await play_by_clicks(env, tid, human.page)
        assert made > 0
        row = await env.service.store.get_table(tid)
        moves = await env.service.store.moves(tid)
        assert row.status == "finished"
        game = rebuild(row, moves)
        assert game.over
        if variant in PUZZLES:
            assert game.solved
        assert await human.page.evaluate("window.dominoState.over")
        assert await human.page.locator("#hand [data-move], #buttons [data-move]").count() == 0
        last = await human.page.evaluate("window.dominoVersion")
        assert last == game.turn
        # every frame the human's page received names no other seat's tile (compared with
        # the game's views at each frame's version)
        await assert_private(env, tid, human, 0)
        if spectator is None:
            return
        # the spectator saw every move (its version reaches the last move's); it never
        # held a hand nor a move, and none of its frames holds one
        await spectator.page.wait_for_function("v => window.dominoVersion >= v", arg=last)
        shown = await spectator.page.evaluate("window.dominoState")
        assert shown["over"] and shown["hand"] == [] and shown["moves"] == []
        assert await spectator.page.locator("#hand [data-tile], [data-move]").count() == 0
        await assert_private(env, tid, spectator, None)
        assert len(spectator.states) > 1
    in_browser(tmp_path, body)


def test_a_finished_game_page_replays_it_step_by_step(tmp_path: Path) -> None:
    """/g/<id>, from its first step, by its "next" link to the end: each step names its
    move; the end shows the score sheet with every hand revealed (the public record's)."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "classic", "players=3 ai=2 hand=4")  # a short game
        await play_through_service(env, tid)
        row = await env.service.store.get_table(tid)
        moves = await env.service.store.moves(tid)
        assert row.status == "finished" and moves
        page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        game = env.links.game_path(tid)
        answer = await page.goto(f"{env.base}{game}?step=0")
        assert answer is not None and answer.status == 200
        assert "move 0 of" in await page.inner_text("nav")
        for step in range(1, len(moves) + 1):
            await page.get_by_role("link", name="next", exact=True).click()
            await page.wait_for_url(f"**{game}?step={step}")
            assert f"move {step} of {len(moves)}" in await page.inner_text("nav")
            assert moves[step - 1] in await page.inner_text("main > p")
            assert await page.locator(".board svg").count() == 1
        assert await page.get_by_role("link", name="next", exact=True).count() == 0
        text = await page.inner_text("main")
        assert "Score sheet" in text and "Hands:" in text
        last = rebuild(row, moves).view(None)["last_round"]
        held = [hand for hand in last["hands"] if hand]
        assert held  # the losers still held tiles: each is shown
        for hand in held:
            assert " ".join(hand) in text
        # the revealed hands come from the finished game only: at the step before the
        # end, no hand is shown
        await page.goto(f"{env.base}{game}?step={len(moves) - 1}")
        assert "Hands:" not in await page.inner_text("main")
        assert (await page.goto(f"{env.base}{env.links.game_path(tid + 1)}")).status == 404
        assert (await page.goto(f"{env.base}/g/{tid}")).status == 403  # a number alone
    in_browser(tmp_path, body)


TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
ANN = User("telegram:42", "Ann")  # the user of tests.web_helpers.init_data


async def mini_app(browser: Any, env: Env, tid: int, fields: dict[str, str]) -> Any:
    """The Mini App's page (/tg?table=N) as Telegram opens it: telegram.org cannot be
    reached, so its script is an empty one and `Telegram.WebApp` is set before the page
    loads, with `fields` as its signed launch data."""
    page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT}, locale="fr-FR")
    await page.route(TELEGRAM_JS, lambda route: route.fulfill(
        status=200, content_type="text/javascript", body="/* telegram-web-app.js */"))
    web_app = {"initData": encode(fields), "initDataUnsafe": {}, "themeParams": {},
               "platform": "tdesktop", "colorScheme": "light"}
    await page.add_init_script(
        f"window.Telegram = {{WebApp: Object.assign({json.dumps(web_app)}, "
        "{ready() {}, expand() {}, close() {}})};")
    page.sockets = []
    page.on("websocket", lambda ws: page.sockets.append(ws))
    async with page.expect_response("**/api/telegram/session") as session:
        answer = await page.goto(f"{env.base}/tg?table={tid}")
        assert answer is not None and answer.status == 200
    page.session_status = (await session.value).status
    return page


def changed(fields: dict[str, str], key: str, value: str) -> dict[str, str]:
    return {**fields, key: value}


def test_a_mini_app_launch_with_valid_data_opens_the_seat(tmp_path: Path) -> None:
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1", user=ANN)
        page = await mini_app(browser, env, tid, init_data(start_param=None))
        assert page.session_status == 200
        await page.wait_for_function("() => window.dominoState !== undefined")
        state = await page.evaluate("window.dominoState")
        assert state["seat"] == 0 and state["hand"]  # Ann's own seat, her hand
        assert await page.locator("#hand [data-tile]").count() == len(state["hand"])
        assert await page.evaluate("document.documentElement.lang") == "fr"
        assert len(page.sockets) == 1
    in_browser(tmp_path, body)


REFUSED = {
    "a changed field": lambda f: changed(f, "query_id", "AAH-other"),
    "another user": lambda f: changed(f, "user", f["user"].replace('"id":42', '"id":43')),
    "a wrong hash": lambda f: changed(f, "hash", "0" * 64),
    "an old date": lambda f: init_data(auth_date=int(time.time()) - 7200, start_param=None),
    "another bot": lambda f: init_data("654321:another-bot", start_param=None),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_mini_app_launch_with_bad_data_is_refused(tmp_path: Path, case: str) -> None:
    """A changed field, a wrong hash, launch data older than the allowed age (an hour
    here) or signed for another bot: the session answers 401, the page says so (in the
    browser's language) and opens no socket."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1", user=ANN)
        page = await mini_app(browser, env, tid, REFUSED[case](init_data(start_param=None)))
        assert page.session_status == 401
        alert = page.get_by_role("alert").filter(has_text="Telegram")
        await alert.wait_for()
        assert "refusées" in await alert.inner_text()
        assert await page.evaluate("window.dominoState === undefined")
        assert not page.sockets and await page.locator("#hand [data-tile]").count() == 0
    in_browser(tmp_path, body)


def test_the_mini_app_page_outside_telegram_says_so(tmp_path: Path) -> None:
    """/tg opened in a plain browser (no launch data): the page says to open it from
    Telegram, in the browser's language, and asks for no session."""
    async def body(env: Env, browser: Any) -> None:
        page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT},
                                      locale="fr-FR")
        await page.route(TELEGRAM_JS, lambda route: route.fulfill(
            status=200, content_type="text/javascript", body=""))
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
        await page.goto(f"{env.base}/tg?table=1")
        alert = page.get_by_role("alert").filter(has_text="Telegram")
        await alert.wait_for()
        assert await alert.inner_text() == "Ouvrez cette page depuis Telegram."
        assert not asked
    in_browser(tmp_path, body)


def test_a_link_for_another_table_or_expired_shows_the_refusal_page(tmp_path: Path) -> None:
    """A signed link's payload moved to another table (the signature kept), and an expired
    link: the browser gets the 403 page, in its language, and no board."""
    async def body(env: Env, browser: Any) -> None:
        mine = await open_table(env, "classic", "players=2 ai=1")
        other = await open_table(env, "classic", "players=2 ai=1", user=ANN)
        token = env.links.token(mine, ALICE.id)
        theirs = env.links.token(other, ALICE.id)
        moved = theirs.split(".")[0] + "." + token.split(".")[1]
        expired = env.links.token(mine, ALICE.id, ttl=-1)
        page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT},
                                      locale="fr-FR")
        for bad in (moved, expired):
            answer = await page.goto(f"{env.base}/t/{bad}")
            assert answer is not None and answer.status == 403
            assert "Lien refusé" in await page.inner_text("h1")
            assert "expiré" in await page.inner_text("main")
            assert await page.locator("#board, #hand, script").count() == 0
        answer = await page.goto(f"{env.base}/t/{token}")  # the link itself still works
        assert answer is not None and answer.status == 200
        await page.wait_for_function("() => window.dominoState !== undefined")
    in_browser(tmp_path, body)


LAYOUTS = [("line", "classic", "players=2 ai=1", 4), ("cross", "cross", "players=3 ai=2", 6),
           ("canton", "canton", "players=2 ai=1", 4),
           ("canton-4", "canton", "players=4 ai=3", 4), ("tricks", "forty-two", "ai=3", 6),
           ("tower", "tower", "players=2 ai=1", 2), ("quinconce", "quinconce", "players=2 ai=1", 2),
           ("grid", "vingt", "players=2 ai=1", 3), ("memory", "memory", "players=2 ai=1", 4),
           ("patience", "patience", "", 0), ("puzzle", "quadrille", "", 4)]


async def fits(page: Any, name: str) -> None:
    """A full-page screenshot, and no horizontal scrolling at 360 px."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, (name, width)
    overlaps = await page.evaluate(OVERLAPS)
    assert not overlaps, (name, overlaps)


# the board's texts (labels, names, counts) that overlap another on screen
OVERLAPS = """() => {
    const boxes = Array.from(document.querySelectorAll('#board svg text'))
        .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
        .map(t => [t.textContent, t.getBoundingClientRect()]);
    const out = [];
    boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
        const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
        const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
        if (w > 1 && h > 1) { out.push([a, b]); }
    }));
    return out;
}"""


@pytest.mark.parametrize(("kind", "variant", "options", "moves"), LAYOUTS,
                         ids=[x[0] for x in LAYOUTS])
def test_each_layout_fits_a_phone_on_the_real_server(tmp_path: Path, kind: str, variant: str,
                                                     options: str, moves: int) -> None:
    """A few moves in (the human's first legal ones, the computers' answers), the seat's
    page with a tile chosen (its targets lit), zoomed where the page offers it, and the
    spectator's page: screenshots in /tmp/e2e-shots, none wider than 360 px."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, variant, options)
        for _ in range(moves):
            table = env.service.tables.get(tid)
            game = table.game if table is not None else None
            if game is None or game.over or game.to_move != 0:
                break
            legal = [str(m) for m in game.legal_moves()]
            move = legal[-1] if legal[0] == "pass" else legal[0]
            puzzle = getattr(game, "puzzle", None)
            if puzzle is not None:  # a puzzle on its way to its solution, none broken
                solution = {placed(m) for m in puzzle.data.get("solution", [])}
                move = next(m for m in legal if placed(m) in solution)
            await env.service.play(ALICE, tid, move, turn=game.turn)
        assert env.service.tables[tid].game.to_move == 0  # still under way, the human's turn
        seat = await open_page(browser, env.links.url(tid, ALICE.id))
        page = seat.page
        await page.wait_for_function(READY)
        state = await page.evaluate("window.dominoState")
        tiles = [m["tile"] for m in state["moves"] if m.get("tile")]
        tile = next((x for x in tiles if tiles.count(x) > 1), None)
        if tile is not None:  # a tile of several places chosen: its targets lit
            await page.locator(f'#hand [data-tile="{q(tile)}"]').first.click()
            await page.locator("#board .target.lit").first.wait_for()
        await fits(page, kind)
        if await page.locator("#zoom").is_visible():  # a dense board zooms in its frame
            await page.locator("#zoom").click()
            await fits(page, f"{kind}-zoomed")
        spectator = await open_page(browser, env.links.url(tid))
        await fits(spectator.page, f"{kind}-spectator")
    in_browser(tmp_path, body)
