"""The table page's own behaviour in a real browser (Debian's chromium driven by Playwright),
against the test harness (`tests/web_harness.py`: a bare core game, the other seats random),
where a test needs what the real server does not offer: positions searched over many seeds
without a database (targets big enough for a finger), a socket dropped at will (catching
up). Whole games, the spectator, privacy, replays, the Mini App and screenshots run on the
real server: tests/test_web_e2e.py. Skipped, with the reason, where chromium or Playwright is
missing (CI installs both)."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

from render.svg import move_parts
from tests.web_harness import Harness, serving

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright's Python package is not installed")
if not os.path.exists(CHROMIUM):
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Any:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def open_page(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 360, "height": 640})
    page.goto(url)
    page.wait_for_function("window.dominoState !== undefined")
    return page


def q(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def click_move(page: Any, entry: dict[str, Any]) -> None:
    """Make the move `entry` (a payload's move or button) by touches: the hand tile, then
    each part of its target, then whatever carries its data-move."""
    move = entry["move"]
    done = f'[data-move="{q(move)}"]'
    steps = []
    if entry.get("tile"):
        steps.append(f'#hand [data-tile="{q(entry["tile"])}"]')
    steps += [f'#board .target.lit[data-target="{q(p)}"]'
              for p in (entry.get("target") or "").split()]
    for step in steps:
        if page.locator(done).count():
            break
        page.locator(step).first.click()
    page.locator(done).first.click()


def test_a_tile_with_several_places_waits_for_its_target(browser: Any) -> None:
    harness = Harness("tower", seed=3)
    for _ in range(10):  # on until a tile may go to several places
        legal = [str(m) for m in harness.game.legal_moves()]
        if harness.game.to_move == harness.seat and len({m.split()[0] for m in legal}) < len(
                legal):
            break
        harness.play(legal[0]) if harness.game.to_move == harness.seat else harness.computers()
    with serving(harness) as url:
        page = open_page(browser, url)
        state = page.evaluate("window.dominoState")
        by_tile: dict[str, list[str]] = {}
        for m in state["moves"]:
            by_tile.setdefault(m["tile"], []).append(m["move"])
        for tile, moves in by_tile.items():
            hand = page.locator(f'#hand [data-tile="{q(tile)}"]')
            if len(moves) == 1:
                assert hand.get_attribute("data-move") == moves[0]
            else:
                assert hand.get_attribute("data-move") is None
        several = next(t for t, ms in by_tile.items() if len(ms) > 1)
        page.locator(f'#hand [data-tile="{q(several)}"]').click()
        assert page.locator("#board .target.lit").count() >= 1
        offered = page.locator("#board .target.lit[data-move], #choices [data-move]")
        assert set(offered.evaluate_all("ns => ns.map(n => n.dataset.move)")) <= set(
            by_tile[several])
        page.locator("#board .target.lit").first.click()  # then its direction, by a button
        chosen = page.locator("#choices [data-move]")
        assert set(chosen.evaluate_all("ns => ns.map(n => n.dataset.move)")) <= set(
            by_tile[several])
        page.close()


def test_the_keyboard_plays_too(browser: Any) -> None:
    """Memory: a face-down cell is a focusable button; Enter turns it up."""
    harness = Harness("memory", seed=3)
    with serving(harness) as url:
        page = open_page(browser, url)
        move = page.evaluate("window.dominoState.moves[0].move")
        cell = page.locator(f'#board [data-move="{q(move)}"]')
        assert cell.get_attribute("tabindex") == "0" and cell.get_attribute("role") == "button"
        before = page.evaluate("window.dominoVersion")
        cell.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("v => window.dominoVersion > v", arg=before)
        assert harness.moves == [move]
        page.close()


def test_a_page_that_lost_its_connection_catches_up(browser: Any) -> None:
    harness = Harness("classic", seat=None, seed=5)  # a spectator: the table moves alone
    with serving(harness) as url:
        page = open_page(browser, url)
        seen = page.evaluate("window.dominoVersion")
        harness.drop()
        harness.step()
        page.wait_for_function("v => window.dominoVersion > v", arg=seen)
        assert harness.hellos == [-1, seen]
        board = page.evaluate("window.dominoState.board_svg")
        assert board.count("data-tile=") == 1  # the move made while it was away
        page.close()


def test_inside_telegram_the_page_takes_its_theme(browser: Any) -> None:
    harness = Harness("classic", seed=5)
    with serving(harness) as url:
        page = browser.new_page(viewport={"width": 360, "height": 640})
        page.add_init_script("window.Telegram = {WebApp: {themeParams: "
                             "{bg_color: '#102030', text_color: '#fafafa'}, ready() {}}};")
        page.goto(url)
        page.wait_for_function("window.dominoState !== undefined")
        colour = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert colour == "rgb(16, 32, 48)"
        page.close()


FINGER = [("classic", 40), ("cross", 40), ("canton", 40), ("memory", 40), ("vingt", 40),
          ("quadrille", 40), ("magic-triangle", 40), ("tower", 30), ("quinconce", 30)]


def choosing(slug: str) -> tuple[Harness, str | None]:
    """A table where the human may put one tile (or a move without one) in two places or
    more: the first such position of the first seed that has one."""
    for seed in range(1, 40):
        harness = Harness(slug, seed=seed)
        for _ in range(40):
            g = harness.game
            if g.over or g.to_move != harness.seat:
                break
            view = g.view(harness.seat)
            legal = [str(m) for m in g.legal_moves()]
            parts: dict[str | None, set[str]] = {}
            for m in legal:
                tile, target = move_parts(view, m)
                if target:
                    parts.setdefault(tile, set()).add(target.split()[0])
            tile = next((t for t, v in parts.items() if len(v) > 1), "")
            if tile != "":
                return harness, tile
            harness.play(legal[-1] if legal[0] == "pass" else legal[0])
    raise AssertionError(f"{slug}: no position with a choice of targets")


@pytest.mark.parametrize(("slug", "least"), FINGER, ids=[f[0] for f in FINGER])
def test_targets_are_big_enough_for_a_finger(browser: Any, slug: str, least: int) -> None:
    """At 360 px (zoomed where the page offers it), every lit target is at least `least`
    CSS px each way (the stack's numbers: 30)."""
    harness, tile = choosing(slug)
    with serving(harness) as url:
        page = open_page(browser, url)
        if page.locator("#zoom").is_visible():
            page.locator("#zoom").click()
        if tile is not None:
            page.locator(f'#hand [data-tile="{q(tile)}"]').click()
        sides = page.evaluate("Array.from(document.querySelectorAll('#board .target.lit'))"
                              ".map(t => { const r = t.getBoundingClientRect();"
                              " return Math.min(r.width, r.height); })")
        assert len(sides) > 1 and min(sides) >= least, (slug, sides)
        page.close()
