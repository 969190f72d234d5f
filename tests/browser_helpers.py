"""Helpers for the web table's browser tests: Debian's chromium driven by Playwright's
Python package (pointed at the system browser: never `playwright install`) against the REAL
server (`tests/web_helpers.py`'s `serving`), pages that keep every WebSocket frame they
receive, and moves made by touches only (the `data-tile` / `data-move` contract of
docs/web.md).  A test module skips itself where chromium or Playwright is missing (fails on CI:
tests/prerequisites.py)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.service.service import User
from tests.service_helpers import ALICE, CHANNEL, SCOPE, run, table_id
from tests.web_helpers import Env, serving

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WIDTH, HEIGHT = 360, 640
READY = """() => { const s = window.dominoState;
    return !document.body.classList.contains('pending') &&
        (s.over || s.moves.length + s.buttons.length > 0); }"""

Body = Callable[[Env, Any], Awaitable[Any]]


def in_browser(tmp_path: Path, body: Body, **kw: Any) -> Any:
    """Run `body(env, browser)`: the real server (no computer delay) and a chromium."""
    from playwright import async_api

    async def outer(env: Env) -> Any:
        async with async_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                return await body(env, browser)
            finally:
                await browser.close()
    return run(serving(tmp_path, outer, **kw))


class Watched:
    """A page and every WebSocket frame it received, as JSON."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(json.loads(payload))

    @property
    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]


async def open_page(browser: Any, url: str, *, locale: str = "en-GB") -> Watched:
    page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT}, locale=locale)
    watched = Watched(page)
    answer = await page.goto(url)
    assert answer is not None and answer.status == 200, url
    await page.wait_for_function("() => window.dominoState !== undefined")
    return watched


async def open_table(env: Env, variant: str, options: str, user: User = ALICE) -> int:
    """A table of `variant` where `user` holds seat 0 and computers the others, started."""
    tid = table_id(await env.service.open_table(user, CHANNEL, SCOPE, variant,
                                                options=options))
    table = env.service.tables.get(tid)
    if table is not None and table.game is None:
        await env.service.begin(user, tid)
    return tid


def q(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


async def click_move(page: Any, entry: dict[str, Any]) -> None:
    """Make the move `entry` (a state's move or button) by touches only: its hand tile
    (`data-tile`), then each part of its target on the board, until an element carrying
    its `data-move` is there to touch."""
    done = f'[data-move="{q(entry["move"])}"]'
    steps = []
    if entry.get("tile"):
        steps.append(f'#hand [data-tile="{q(entry["tile"])}"]')
    steps += [f'#board .target.lit[data-target="{q(p)}"]'
              for p in (entry.get("target") or "").split()]
    for step in steps:
        if await page.locator(done).count():
            break
        await page.locator(step).first.click()
    await page.locator(done).first.click()


def placed(move: str) -> frozenset[tuple[str, str]] | None:
    """A puzzle placement as {(cell, value)}: the same whichever way it is written."""
    words = move.split()
    if len(words) != 3 or "-" not in words[0]:
        return None
    a, b = words[0].split("-")
    return frozenset({(words[1], a), (words[2], b)})


# -- issue 36's page: the result panel, keyboard and drag moves, what a page offers -------------

RESULT = "[data-result]:not([hidden])"


async def dismiss_result(page: Any) -> bool:
    """Touch Continue on the result panel when it shows one; whether it did."""
    panel = page.locator(RESULT)
    if not await panel.count():
        return False
    await panel.locator('[data-action="continue"]').click()
    await page.locator(RESULT).wait_for(state="detached")
    return True


async def press_move(page: Any, entry: dict[str, Any]) -> None:
    """Make the move `entry` with the keyboard alone: each element on its way (its hand
    tile, each part of its target) focused and pressed with Enter, until the element that
    completes it is there to press."""
    done = f'[data-move="{q(entry["move"])}"]'
    steps = []
    if entry.get("tile"):
        steps.append(f'#hand [data-tile="{q(entry["tile"])}"]')
    steps += [f'#board .target.lit[data-target="{q(p)}"]'
              for p in (entry.get("target") or "").split()]
    for step in steps:
        if await page.locator(done).count():
            break
        await page.locator(step).first.focus()
        await page.keyboard.press("Enter")
    await page.locator(done).first.focus()
    await page.keyboard.press("Enter")


async def drag_to(page: Any, source: str, target: str, steps: int = 6) -> None:
    """Drag the element `source` onto `target` with the mouse: down, a first move (the
    drag begins: the tile's targets light up), moves to the target, up."""
    a = await page.locator(source).first.bounding_box()
    assert a is not None, source
    x, y = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 12, y - 12, steps=2)
    b = await page.locator(target).first.bounding_box()
    assert b is not None, target
    await page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=steps)
    await page.mouse.up()


# after each state the page shows (a microtask after it is drawn): the version, whether the
# seat was the one to move, and what the page offered (lit targets, elements with a move)
RECORD_OFFERS = """() => {
    window.offers = [];
    const note = () => { const s = window.dominoState; if (!s) { return; }
        window.offers.push({v: window.dominoVersion, mine: s.to_move === s.seat && !s.over,
            lit: document.querySelectorAll('#board .target.lit').length,
            moves: document.querySelectorAll('[data-move]').length}); };
    new MutationObserver(note).observe(document.getElementById('board'), {childList: true});
    note();
}"""
