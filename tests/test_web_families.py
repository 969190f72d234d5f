"""Every family of games played to its end on the web table's page (issue 36), in Debian's
chromium driven by Playwright on the REAL server: by a touch screen's taps at a phone's
360x640 and by mouse clicks at a desktop's 1280x800, the human taking the first legal move
by the page's own attributes (`data-tile`, the board's lit targets, `data-move`;
tests/browser_helpers.py's `click_move`), a puzzle by its shipped solution.

On each game, at mid-game and at its end, the elements of docs/web-page.md that outside
checks use: a player panel `[data-seat=N]` for every seat, the move log `[data-log]` with
its `[data-log-entry]` entries, the result panel `[data-result]` at the end (a hand's end
on the way is passed by its `[data-action=continue]`); no frame names another seat's tile
(test_web_e2e's `assert_private`); no frame offers a move to a seat that is not to move;
nothing wider than the screen; on the phone, a spectator's page watches the game to its
end (every move, no hand, no move, its frames private, panels and log).  Screenshots of
each family at both sizes, mid-game and end, in $DOMINO_SHOTS (default /tmp/e2e-shots).
One server and one chromium for the module."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count
from typing import Any

import pytest

from bot.service.service import User
from bot.service.tables import rebuild
from tests.browser_helpers import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    READY,
    SHOTS,
    Shared,
    click_move,
    new_context,
    open_page,
    open_table,
    shared_browser,
    touch,
)
from tests.prerequisites import require_browser
from tests.test_web_e2e import assert_private, first_entry
from tests.web_helpers import Env

require_browser(CHROMIUM)

TWO = "players=2 ai=1"
FAMILIES = [("classic", TWO), ("matador", TWO), ("texas-42", "ai=3 target=1"),
            ("tower", TWO), ("vingt", TWO), ("memory", TWO), ("patience", ""),
            ("magic-squares", "")]
WAYS = {"touch": (PHONE, True), "mouse": (DESKTOP, False)}
MID = 3  # the human's moves made before the mid-game checks and screenshot
SHORT = {"patience": 1}  # a patience played by its first legal moves is lost in 2 or 3
CONTINUE = '[data-result] [data-action="continue"]'
USERS = count(1)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shared]:
    with shared_browser(tmp_path_factory.mktemp("families")) as s:
        yield s


async def panels_and_log(page: Any, seats: int, where: str) -> int:
    """A player panel for every seat and none more, a log with entries, the page no
    wider than its screen; the log's entries."""
    for seat in range(seats):
        assert await page.locator(f'[data-seat="{seat}"]').count() >= 1, (where, seat)
    assert await page.locator(f'[data-seat="{seats}"]').count() == 0, where
    assert await page.locator("[data-log]").count() >= 1, where
    entries = await page.locator("[data-log] [data-log-entry]").count()
    assert entries > 0, where
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (where, width)
    return entries


async def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


async def play_to_end(env: Env, tid: int, page: Any, seats: int, name: str, *,
                      tap: bool, mid: int = MID, limit: int = 400) -> tuple[int, int]:
    """Touch the first legal move until the page shows the game over, passing each
    hand's result panel by its Continue; the moves made and the result panels passed."""
    passed = 0
    await page.wait_for_function(READY)
    for made in range(limit):
        if made == mid:
            await panels_and_log(page, seats, f"{name} mid-game")
            await shot(page, f"{name}-mid")
        state = await page.evaluate("window.dominoState")
        if state["over"]:
            return made, passed
        if await page.locator(CONTINUE).is_visible():  # a hand's end, shown until touched
            await touch(page.locator(CONTINUE).first, tap)
            await page.locator(CONTINUE).first.wait_for(state="hidden")
            passed += 1
        before = await page.evaluate("window.dominoVersion")
        await click_move(page, first_entry(env, tid, state), tap=tap)
        await page.wait_for_function("v => window.dominoVersion > v", arg=before)
        await page.wait_for_function(READY)
    raise AssertionError(f"{name}: not over after {limit} moves")


def only_the_seat_to_move_is_offered_moves(frames: list[dict[str, Any]]) -> None:
    """The contract of issue 36: a view of a seat that is not to move offers no move."""
    for frame in frames:
        st = frame["state"]
        if not st["over"] and st["to_move"] != st["seat"]:
            assert st["moves"] == [] and st["buttons"] == [], (frame["version"], st["to_move"])


async def watched_to_the_end(env: Env, tid: int, spectator: Any, last: int, seats: int) -> None:
    """The spectator's page saw every move to the end, says it is a spectator's, has the
    panels and the log, never held a hand nor a move, and none of its frames names a tile
    the public view did not."""
    page = spectator.page
    await page.wait_for_function("v => window.dominoVersion >= v", arg=last)
    shown = await page.evaluate("window.dominoState")
    assert shown["over"] and shown["spectator"] is True
    assert shown["hand"] == [] and shown["moves"] == [] and shown["buttons"] == []
    assert await page.locator("#hand [data-tile], [data-move]").count() == 0
    await panels_and_log(page, seats, "spectator")
    await assert_private(env, tid, spectator, None)
    assert len(spectator.states) > 1


@pytest.mark.parametrize("way", list(WAYS))
@pytest.mark.parametrize(("variant", "options"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_every_family_is_played_to_its_end_on_the_page(shared: Shared, variant: str,
                                                       options: str, way: str) -> None:
    size, tap = WAYS[way]
    name = f"family-{variant}-{size['width']}x{size['height']}"

    async def body(env: Env, browser: Any) -> None:
        user = User(f"test:family{next(USERS)}", "Ann")  # the solo tables' limit is per user
        tid = await open_table(env, variant, options, user=user)
        seats = len(env.service.tables[tid].row.seats)
        context = await new_context(browser, size, touch=tap)
        others: list[Any] = []

        async def watching() -> Any:
            others.append(await new_context(browser))
            return others[-1]
        try:
            watched = await open_page(context, env.links.url(tid, user.id))
            page = watched.page
            # on the phone, a spectator's page (the public link) watches the game too, in a
            # context of its own (a second page of the same context is throttled as hidden)
            spectator = (await open_page(await watching(), env.links.url(tid))
                         if tap and seats > 1 else None)
            assert await page.evaluate("window.dominoState.seat") == 0
            made, _ = await play_to_end(env, tid, page, seats, name, tap=tap,
                                        mid=SHORT.get(variant, MID))
            assert made > SHORT.get(variant, MID), made  # the mid-game checks were made
            row = await env.service.store.get_table(tid)
            moves = await env.service.store.moves(tid)
            game = rebuild(row, moves)
            assert row.status == "finished" and game.over
            if variant == "magic-squares":
                assert game.solved
            assert await page.evaluate("window.dominoVersion") == game.turn
            # the game's end: its result panel shows, and stays
            result = page.locator("[data-result]").first
            await result.wait_for(state="visible")
            assert (await result.inner_text()).strip()
            entries = await panels_and_log(page, seats, f"{name} end")
            assert entries >= made, (entries, made)  # the whole game's log, the human's too
            await shot(page, f"{name}-end")
            assert await page.locator("#hand [data-move], #buttons [data-move]").count() == 0
            await assert_private(env, tid, watched, 0)
            only_the_seat_to_move_is_offered_moves(watched.states)
            if spectator is not None:
                await watched_to_the_end(env, tid, spectator, game.turn, seats)
        finally:
            for other in [context, *others]:
                await other.close()
    shared.run(body)
