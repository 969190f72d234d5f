"""Helpers for the web table's browser tests: Debian's chromium driven by Playwright's
Python package (pointed at the system browser: never `playwright install`) against the REAL
server (`tests/web_helpers.py`'s `serving`), pages that keep every WebSocket frame they
receive, and moves made by touches only (the `data-tile` / `data-move` contract of
docs/web.md), by mouse clicks or by a touch screen's taps.  `shared_browser` keeps one server
and one chromium for a whole test module.  A test module skips itself where chromium or
Playwright is missing (fails on CI: tests/prerequisites.py)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.service.service import User
from tests.service_helpers import ALICE, CHANNEL, SCOPE, run, table_id
from tests.web_helpers import Env, serving

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WIDTH, HEIGHT = 360, 640
PHONE = {"width": WIDTH, "height": HEIGHT}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(os.environ.get("DOMINO_SHOTS", "/tmp/e2e-shots"))
READY = """() => { const s = window.dominoState;
    return !document.body.classList.contains('pending') &&
        (s.over || s.moves.length + s.buttons.length > 0); }"""

Body = Callable[[Env, Any], Awaitable[Any]]


async def _with_browser(tmp_path: Path, body: Body, **kw: Any) -> Any:
    from playwright import async_api

    async def outer(env: Env) -> Any:
        async with async_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                return await body(env, browser)
            finally:
                await browser.close()
    return await serving(tmp_path, outer, **kw)


def in_browser(tmp_path: Path, body: Body, **kw: Any) -> Any:
    """Run `body(env, browser)`: the real server (no computer delay) and a chromium."""
    return run(_with_browser(tmp_path, body, **kw))


class Shared:
    """One real server and one chromium kept for a whole test module (a module-scoped
    fixture): `shared.run(body)` runs `body(env, browser)` on them, in their event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, env: Env, browser: Any) -> None:
        self.loop, self.env, self.browser = loop, env, browser

    def run(self, body: Body) -> Any:
        return self.loop.run_until_complete(body(self.env, self.browser))


@contextmanager
def shared_browser(tmp_path: Path, **kw: Any) -> Iterator[Shared]:
    """The server and the browser of `in_browser`, started once and kept until the block
    ends (each test opens its own browser contexts and closes them)."""
    loop = asyncio.new_event_loop()
    ready: asyncio.Future[tuple[Env, Any]] = loop.create_future()
    done = asyncio.Event()

    async def hold(env: Env, browser: Any) -> None:
        ready.set_result((env, browser))
        await done.wait()

    task = loop.create_task(_with_browser(tmp_path, hold, **kw))
    loop.run_until_complete(asyncio.wait([ready, task], return_when=asyncio.FIRST_COMPLETED))
    if not ready.done():  # the server or the browser failed to start: say why
        loop.run_until_complete(task)
    try:
        yield Shared(loop, *ready.result())
    finally:
        done.set()
        loop.run_until_complete(task)
        loop.close()


async def new_context(browser: Any, size: dict[str, int] = PHONE, *, touch: bool = False,
                      dark: bool = False, locale: str = "en-GB", **kw: Any) -> Any:
    """A browser context (close it when done): `size`'s viewport, a touch screen or not
    (`touch`: taps work, `has_touch`), the light or dark colour scheme."""
    return await browser.new_context(viewport=size, has_touch=touch, is_mobile=False,
                                     color_scheme="dark" if dark else "light",
                                     locale=locale, **kw)


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
    """A page (of `browser`, or of a context made by `new_context`) watching `url`."""
    if hasattr(browser, "new_context"):
        page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT},
                                      locale=locale)
    else:
        page = await browser.new_page()
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


async def click_move(page: Any, entry: dict[str, Any], *, tap: bool = False) -> int:
    """Make the move `entry` (a state's move or button) by touches only: its hand tile
    (`data-tile`), then each part of its target on the board, until an element carrying
    its `data-move` is there to touch.  Mouse clicks, or a touch screen's taps (`tap`: the
    page's context must have `has_touch`).  The touches made."""
    done = f'[data-move="{q(entry["move"])}"]'
    steps = []
    if entry.get("tile"):
        steps.append(f'#hand [data-tile="{q(entry["tile"])}"]')
    steps += [f'#board .target.lit[data-target="{q(p)}"]'
              for p in (entry.get("target") or "").split()]
    made = 1
    for step in steps:
        if await page.locator(done).count():
            break
        await touch(page.locator(step).first, tap)
        made += 1
    await touch(page.locator(done).first, tap)
    return made


async def touch(locator: Any, tap: bool) -> None:
    await (locator.tap() if tap else locator.click())


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
    // the board changes in place (table-parts.js patch): its picture's children change
    new MutationObserver(note).observe(document.getElementById('board'),
        {childList: true, subtree: true});
    note();
}"""
