"""The table page's own behaviour in a real browser (Debian's chromium driven by Playwright),
on the real server (tests/browser_helpers.py): a tile of several places waits for its
target, the keyboard plays, a page that lost its socket catches up, Telegram's theme, and
targets big enough for a finger.  Skipped, with the reason, where chromium or Playwright is
missing (CI installs both)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.service.service import User
from render.svg import move_parts
from tests.browser_helpers import CHROMIUM, HEIGHT, WIDTH, in_browser, open_page, open_table, q
from tests.prerequisites import require_browser
from tests.service_helpers import ALICE
from tests.web_helpers import Env

require_browser(CHROMIUM)

TWO = "players=2 ai=1"
SOLO = {"quadrille", "magic-triangle", "reussite", "patience"}


async def choosing(env: Env, slug: str, tries: int = 12) -> tuple[int, User, str | None]:
    """A table where its human (seat 0) may put one tile (or a move without one) in two
    places or more, found by playing first legal moves through the Service: the table,
    its human and that tile."""
    for n in range(tries):
        user = User(f"test:finger{n}", f"finger{n}")  # a new user: the solo tables' limit
        tid = await open_table(env, slug, "" if slug in SOLO else TWO, user=user)
        for _ in range(40):
            table = env.service.tables.get(tid)
            game = table.game if table is not None else None
            if game is None or game.over or game.to_move != 0:
                break
            view = game.view(0)
            legal = [str(m) for m in game.legal_moves()]
            parts: dict[str | None, set[str]] = {}
            for m in legal:
                tile, target = move_parts(view, m)
                if target:
                    parts.setdefault(tile, set()).add(target.split()[0])
            tile = next((t for t, v in parts.items() if len(v) > 1), "")
            if tile != "":
                return tid, user, tile
            await env.service.play(user, tid, legal[-1] if legal[0] == "pass" else legal[0],
                                   turn=game.turn)
    raise AssertionError(f"{slug}: no position with a choice of targets")


def test_a_tile_with_several_places_waits_for_its_target(tmp_path: Path) -> None:
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "tower", TWO)
        for _ in range(10):  # on until a tile may go to several places
            game = env.service.tables[tid].game
            legal = [str(m) for m in game.legal_moves()]
            if len({m.split()[0] for m in legal}) < len(legal):
                break
            await env.service.play(ALICE, tid, legal[0], turn=game.turn)
        page = (await open_page(browser, env.links.url(tid, ALICE.id))).page
        state = await page.evaluate("window.dominoState")
        by_tile: dict[str, list[str]] = {}
        for m in state["moves"]:
            by_tile.setdefault(m["tile"], []).append(m["move"])
        for tile, moves in by_tile.items():
            hand = page.locator(f'#hand [data-tile="{q(tile)}"]')
            if len(moves) == 1:
                assert await hand.get_attribute("data-move") == moves[0]
            else:
                assert await hand.get_attribute("data-move") is None
        several = next(t for t, ms in by_tile.items() if len(ms) > 1)
        await page.locator(f'#hand [data-tile="{q(several)}"]').click()
        assert await page.locator("#board .target.lit").count() >= 1
        offered = page.locator("#board .target.lit[data-move], #choices [data-move]")
        assert set(await offered.evaluate_all("ns => ns.map(n => n.dataset.move)")) <= set(
            by_tile[several])
        await page.locator("#board .target.lit").first.click()  # then its direction
        chosen = page.locator("#choices [data-move]")
        assert set(await chosen.evaluate_all("ns => ns.map(n => n.dataset.move)")) <= set(
            by_tile[several])
    in_browser(tmp_path, body)


def test_the_keyboard_plays_too(tmp_path: Path) -> None:
    """Memory: a face-down cell is a focusable button; Enter turns it up."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "memory", TWO)
        page = (await open_page(browser, env.links.url(tid, ALICE.id))).page
        move = await page.evaluate("window.dominoState.moves[0].move")
        cell = page.locator(f'#board [data-move="{q(move)}"]')
        assert await cell.get_attribute("tabindex") == "0"
        assert await cell.get_attribute("role") == "button"
        before = await page.evaluate("window.dominoVersion")
        await cell.focus()
        await page.keyboard.press("Enter")
        await page.wait_for_function("v => window.dominoVersion > v", arg=before)
        assert (await env.service.store.moves(tid))[before] == move
    in_browser(tmp_path, body)


def test_a_page_that_lost_its_connection_catches_up(tmp_path: Path) -> None:
    """A spectator's socket closed by the server; a move made meanwhile: the page
    reconnects, says which version it had, and shows the move."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "classic", TWO)
        page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        said: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda p: said.append(p)))
        await page.goto(env.links.url(tid))
        await page.wait_for_function("() => window.dominoState !== undefined")
        seen = await page.evaluate("window.dominoVersion")
        for watcher in list(env.web.watchers.get(tid, ())):
            await watcher.ws.close()  # the connection is lost
        game = env.service.tables[tid].game
        move = str(game.legal_moves()[0])
        await env.service.play(ALICE, tid, move, turn=game.turn)
        await page.wait_for_function("v => window.dominoVersion > v", arg=seen)
        assert said[0] == '{"type":"hello","version":-1}'
        assert said[-1] == f'{{"type":"hello","version":{seen}}}'
        a, b = move.split()[0].split("-")
        board = await page.evaluate("window.dominoState.board_svg")
        assert f'data-tile="{a}-{b}"' in board or f'data-tile="{b}-{a}"' in board
    in_browser(tmp_path, body)


def test_inside_telegram_the_page_takes_its_theme(tmp_path: Path) -> None:
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "classic", TWO)
        page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        await page.add_init_script("window.Telegram = {WebApp: {themeParams: "
                                   "{bg_color: '#102030', text_color: '#fafafa'}, ready() {}}};")
        await page.goto(env.links.url(tid, ALICE.id))
        await page.wait_for_function("() => window.dominoState !== undefined")
        colour = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert colour == "rgb(16, 32, 48)"
    in_browser(tmp_path, body)


FINGER = [("classic", 40), ("cross", 40), ("canton", 40), ("memory", 40), ("vingt", 40),
          ("quadrille", 40), ("magic-triangle", 40), ("tower", 30), ("quinconce", 30)]


@pytest.mark.parametrize(("slug", "least"), FINGER, ids=[f[0] for f in FINGER])
def test_targets_are_big_enough_for_a_finger(tmp_path: Path, slug: str, least: int) -> None:
    """At 360 px (zoomed where the page offers it), every lit target is at least `least`
    CSS px each way (the stack's numbers: 30)."""
    async def body(env: Env, browser: Any) -> None:
        tid, user, tile = await choosing(env, slug)
        page = (await open_page(browser, env.links.url(tid, user.id))).page
        if await page.locator("#zoom").is_visible():
            await page.locator("#zoom").click()
        if tile is not None:
            await page.locator(f'#hand [data-tile="{q(tile)}"]').click()
        sides = await page.evaluate(
            "Array.from(document.querySelectorAll('#board .target.lit'))"
            ".map(t => { const r = t.getBoundingClientRect();"
            " return Math.min(r.width, r.height); })")
        assert len(sides) > 1 and min(sides) >= least, (slug, sides)
    in_browser(tmp_path, body)
