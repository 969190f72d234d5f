"""Playing on the web table's page (issue 36), in Debian's chromium on the real server
(tests/browser_helpers.py): the waiting seat is never offered a move; a puzzle's tile goes
anywhere free, is taken back, a hint is asked and the puzzle given up through its question;
a 42 hand's result panel shows before the next bidding; whole short games by the keyboard
alone and by dragging tiles.  Skipped, with the reason, where chromium or Playwright is
missing (CI installs both)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bot.service.service import User
from tests.browser_helpers import (
    CHROMIUM,
    READY,
    RECORD_OFFERS,
    RESULT,
    dismiss_result,
    drag_to,
    in_browser,
    open_page,
    open_table,
    press_move,
    q,
)
from tests.prerequisites import require_browser
from tests.service_helpers import ALICE
from tests.web_helpers import Env

require_browser(CHROMIUM)

SHORT = "players=2 ai=1 hand=4"  # a short game of classic: four tiles each


# counts the animations the page starts (Element.animate)
COUNT_ANIMATIONS = """window.animations = 0;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function () { window.animations++;
        return animate.apply(this, arguments); };"""
# a Mini App's Telegram object whose haptic feedback records what the page asked of it
TELEGRAM_HAPTICS = """window.haptics = [];
    window.Telegram = {WebApp: {themeParams: {}, ready() {}, HapticFeedback: {
        impactOccurred(s) { window.haptics.push('impact'); },
        notificationOccurred(s) { window.haptics.push('note'); },
        selectionChanged() { window.haptics.push('select'); }}}};"""


async def next_state(page: Any, before: int) -> None:
    await page.wait_for_function("v => window.dominoVersion > v", arg=before)


# a state shown and not waiting for an answer: the human's turn, the computer's, or the end
SETTLED = """() => { const s = window.dominoState;
    return !!s && !document.body.classList.contains('pending') &&
        (s.over || s.to_move !== s.seat || s.moves.length + s.buttons.length > 0); }"""


def test_the_waiting_seat_is_never_offered_a_move_in_memory(tmp_path: Path) -> None:
    """Memory against a computer that takes its time: while the computer is to move, no
    cell of the human's page is lit and nothing there carries a move (the core lists no move
    for a waiting seat, and the page offers one only on its seat's turn); touching a cell
    sends nothing."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "memory", "players=2 ai=1")
        watched = await open_page(browser, env.links.url(tid, ALICE.id))
        page = watched.page
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", sent.append))
        await page.evaluate(RECORD_OFFERS)
        waited = 0
        for _ in range(12):  # the human's turns, each ended by the computer's
            await page.wait_for_function(SETTLED)
            state = await page.evaluate("window.dominoState")
            if state["over"]:
                break
            if state["to_move"] != state["seat"]:  # the computer thinks: touch a cell
                waited += 1
                await page.evaluate("""() => { const t = document.querySelector(
                    '#board .target'); if (t) { t.dispatchEvent(new MouseEvent('click',
                    {bubbles: true})); } }""")
                await asyncio.sleep(0.25)  # the computer's delay; its move is due then
                before = await page.evaluate("window.dominoVersion")
                await env.service.tick()
                await next_state(page, before)
                continue
            before = await page.evaluate("window.dominoVersion")
            await page.locator("#board .target.lit[data-move]").first.click()
            await next_state(page, before)
        offers = await page.evaluate("window.offers")
        theirs = [o for o in offers if not o["mine"]]
        assert theirs, "the computer never had the move"
        assert all(o["lit"] == 0 and o["moves"] == 0 for o in theirs), theirs
        assert any(o["lit"] > 0 for o in offers if o["mine"])
        assert waited > 0
        # every move the page sent was made on a state where the human was to move
        mine = {o["v"] for o in offers if o["mine"]}
        for frame in sent:
            message = json.loads(frame)
            if message.get("type") == "move":
                assert message["version"] in mine, message
    in_browser(tmp_path, body, ai_delay=0.2)


def test_a_puzzle_placed_anywhere_taken_back_hinted_and_given_up(tmp_path: Path) -> None:
    """Quadrille: a tile, turned round (Flip), put on a free cell that is not the first free
    cell, then on one of that cell's partners (the first cell picked takes the tile's first
    number, its second once flipped); a tile taken back; a hint asked by level; then Give up
    through its question (Cancel first): the game ends given up."""
    async def body(env: Env, browser: Any) -> None:
        user = User("test:puzzler", "puzzler")
        tid = await open_table(env, "quadrille", "", user=user)
        page = (await open_page(browser, env.links.url(tid, user.id))).page
        state = await page.evaluate("window.dominoState")
        place = state.get("place")
        assert place, "the state has no free placement (docs/web-page.md, `place`)"
        first = place["free"][0]
        tile = next(t for t in place["tiles"] if t.split("-")[0] != t.split("-")[1])
        cell = next(c for c in place["free"][1:] if len(place["pairs"].get(c, [])) >= 2
                    and first not in place["pairs"][c])  # two touches: a cell, a partner
        other = place["pairs"][cell][-1]
        assert first not in (cell, other)
        await page.locator(f'#hand [data-tile="{q(tile)}"]').click()
        lit = await page.locator("#board .target.lit").evaluate_all(
            "ns => ns.map(n => n.dataset.target)")
        assert set(lit) == set(place["free"]), lit  # every free cell
        await page.locator("#choices [data-flip]").click()
        assert await page.locator("#hand .hand-tile.flipped").count() == 1
        await page.locator(f'#board .target.lit[data-target="{cell}"]').click()
        lit = await page.locator("#board .target.lit").evaluate_all(
            "ns => ns.map(n => n.dataset.target)")
        assert set(lit) == set(place["pairs"][cell]), lit  # then its partners
        before = await page.evaluate("window.dominoVersion")
        await page.locator(f'#board .target.lit[data-target="{other}"]').click()
        await next_state(page, before)
        game = env.service.tables[tid].game
        a, b = tile.split("-")
        assert {(other, a), (cell, b)} <= {  # turned round: the first number on the partner
            (c, str(v)) for tl in game.view(0)["layout"]["tiles"]
            for c, v in zip(tl["cells"], tl.get("values") or tl["tile"].split("-"), strict=True)}
        # the tile placed does not look chosen, and it may be taken back
        assert await page.locator("#hand [aria-pressed=true]").count() == 0
        back = page.locator(f'#board .target.lit[data-target="remove-{cell}"], '
                            f'#board .target.lit[data-target="remove-{other}"]')
        assert await back.count() == 1
        before = await page.evaluate("window.dominoVersion")
        await back.click()
        await next_state(page, before)
        assert not env.service.tables[tid].game.view(0)["layout"]["tiles"]
        # a hint, by level where the game offers levels
        hint = page.locator('#actions [data-action="hint"]')
        await hint.click()
        level = page.locator("#ask [data-level]")
        if await level.count():
            await level.first.click()
        await page.wait_for_function("""() => !document.getElementById('hint').hidden ||
            (window.dominoState.lines || []).join(' ').match(/1 hint/)""")
        # give up: asked first; Cancel keeps the game, Yes ends it
        await page.locator('#actions [data-action="give-up"]').click()
        await page.locator('#ask [data-action="cancel"]').click()
        assert not env.service.tables[tid].game.over
        await page.locator('#actions [data-action="give-up"]').click()
        await page.locator('#ask [data-action="confirm"]').click()
        await page.wait_for_function("() => window.dominoState.over")
        assert (await env.service.store.moves(tid))[-1] == "give up"
        assert (await env.service.store.get_table(tid)).status == "finished"
    in_browser(tmp_path, body)


def test_a_texas_42_hand_ends_on_its_result_panel(tmp_path: Path) -> None:
    """A hand of Texas 42 played by clicks: its end shows the result panel (the bid made or
    set, the last trick) over the board before the next bidding is played; Continue
    closes it, and the same result is not shown again after a reload."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "texas-42", "ai=3 target=2")
        page = (await open_page(browser, env.links.url(tid, ALICE.id))).page
        for _ in range(40):
            await page.wait_for_function(f"""() => document.querySelector('{RESULT}') ||
                ({READY})()""")
            if await page.locator(RESULT).count():
                break
            state = await page.evaluate("window.dominoState")
            entry = (state["moves"] + state["buttons"])[0]
            before = await page.evaluate("window.dominoVersion")
            done = page.locator(f'[data-move="{q(entry["move"])}"]')
            if entry.get("tile") and not await done.count():
                await page.locator(f'#hand [data-tile="{q(entry["tile"])}"]').click()
            await done.first.click()
            await next_state(page, before)
        panel = page.locator(RESULT)
        assert await panel.count(), "no result panel at the end of the hand"
        text = await panel.inner_text()
        assert "made" in text or "set" in text, text
        assert await panel.locator("svg").count() == 1  # the last trick, complete
        box = await panel.bounding_box()
        board = await page.locator("#board").bounding_box()
        assert box["y"] <= board["y"] + 1 and box["height"] >= board["height"] - 1
        key = await page.evaluate("window.dominoState.result && window.dominoState.result.key")
        await dismiss_result(page)
        await page.reload()
        await page.wait_for_function("() => window.dominoState !== undefined")
        shown = await page.evaluate("window.dominoState.result && window.dominoState.result.key")
        if shown == key:
            assert not await page.locator(RESULT).count()  # once per table and result
    in_browser(tmp_path, body)


async def continue_by_keyboard(page: Any) -> bool:
    """The result panel's Continue has the focus when it shows: Enter closes it."""
    if not await page.locator(RESULT).count():
        return False
    assert await page.evaluate(
        "document.activeElement.matches('[data-result] [data-action=\"continue\"]')")
    await page.keyboard.press("Enter")
    await page.locator(RESULT).wait_for(state="detached")
    return True


async def play_short_game(env: Env, tid: int, page: Any, make: Any,
                          dismiss: Any = dismiss_result) -> int:
    """Play the human's moves with `make(page, entry)` until the game is over, closing
    each result panel with `dismiss`; the moves made."""
    made = 0
    for _ in range(200):
        await page.wait_for_function(f"() => document.querySelector('{RESULT}') || ({READY})()")
        if await dismiss(page):
            continue
        state = await page.evaluate("window.dominoState")
        if state["over"]:
            return made
        entry = (state["moves"] + state["buttons"])[0]
        before = await page.evaluate("window.dominoVersion")
        await make(page, entry)
        await next_state(page, before)
        made += 1
    raise AssertionError(f"table {tid}: not over")


def test_a_whole_game_by_keyboard_alone(tmp_path: Path) -> None:
    """Classic, two players: every move by Tab-free focus and Enter only (hand tiles are
    buttons; a lit end is a button too); a tile with two ends lights them and the
    keyboard's focus goes to the first."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "classic", SHORT)
        page = await browser.new_page(viewport={"width": 360, "height": 640},
                                      reduced_motion="reduce")
        await page.add_init_script(COUNT_ANIMATIONS)
        await page.goto(env.links.url(tid, ALICE.id))
        await page.wait_for_function("() => window.dominoState !== undefined")
        picked = 0

        async def make(page: Any, entry: dict[str, Any]) -> None:
            nonlocal picked
            tile = page.locator(f'#hand [data-tile="{q(entry.get("tile") or "")}"]')
            if entry.get("target") and await tile.get_attribute("data-move") is None:
                # a tile of two ends: Enter picks it and the focus goes to a lit end;
                # Escape lets it go (nothing lit), then the move is made
                await tile.focus()
                await page.keyboard.press("Enter")
                assert await page.evaluate("""() => document.activeElement.matches(
                    '#board .target.lit')""")
                await page.keyboard.press("Escape")
                assert await page.locator("#board .target.lit").count() == 0
                picked += 1
            await press_move(page, entry)
        made = await play_short_game(env, tid, page, make, continue_by_keyboard)
        assert made > 0
        assert await page.evaluate("window.animations") == 0  # reduced motion: none
        # the game's end was shown on its panel (and closed by the keyboard)
        assert await page.evaluate("Object.keys(sessionStorage).some(k => "
                                   "k.startsWith('domino:results:'))")
        row = await env.service.store.get_table(tid)
        assert row.status == "finished"
    in_browser(tmp_path, body)


def test_a_whole_game_by_drag(tmp_path: Path) -> None:
    """Classic, two players: every tile dragged with the mouse (down, move, up) onto its
    lit end, or onto the board for a lead; a word move (draw, pass) is a button."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "classic", SHORT)
        page = await browser.new_page(viewport={"width": 360, "height": 640})
        await page.add_init_script(COUNT_ANIMATIONS + TELEGRAM_HAPTICS)
        await page.goto(env.links.url(tid, ALICE.id))
        await page.wait_for_function("() => window.dominoState !== undefined")
        # sounds: off until asked, and the choice kept by the browser
        sound = page.locator("#sound")
        assert await sound.get_attribute("aria-pressed") == "false"
        await sound.click()
        await page.reload()
        await page.wait_for_function("() => window.dominoState !== undefined")
        assert await page.locator("#sound").get_attribute("aria-pressed") == "true"
        dragged = 0

        async def make(page: Any, entry: dict[str, Any]) -> None:
            nonlocal dragged
            if not entry.get("tile"):
                await page.locator(f'#buttons [data-move="{q(entry["move"])}"]').click()
                return
            source = f'#hand [data-tile="{q(entry["tile"])}"]'
            target = (f'#board .target[data-target="{q(entry["target"])}"]'
                      if entry.get("target") else "#board svg")
            if entry.get("target"):  # the end is drawn (hidden until the tile is picked)
                assert await page.locator(target).count() == 1
            await drag_to(page, source, target)
            dragged += 1
        made = await play_short_game(env, tid, page, make)
        assert made > 0 and dragged > 0
        assert await page.evaluate("window.animations") > 0  # tiles slid to their places
        # the move log holds the whole game, the latest first, and the live region read
        # the last moves aloud
        shown = await page.locator("[data-log] [data-log-entry]").evaluate_all(
            "ns => ns.map(n => Number(n.dataset.logEntry))")
        log = await page.evaluate("window.dominoState.log")
        assert shown == [e["n"] for e in log] and shown == sorted(shown, reverse=True)
        assert len(shown) >= made
        said = await page.locator("[data-live]").inner_text()
        assert said and said in " ".join(e["text"] for e in reversed(log))
        felt = await page.evaluate("window.haptics")
        assert "impact" in felt and "select" in felt, felt  # Telegram's haptic feedback
        # the game over: Rematch opens the new table's page
        here = page.url
        await page.locator('#actions [data-action="rematch"]').click()
        await page.wait_for_url(lambda url: url != here and "/t/" in url)
        await page.wait_for_function("() => window.dominoState && !window.dominoState.over")
        row = await env.service.store.get_table(tid)
        assert row.status == "finished"
    in_browser(tmp_path, body)


def test_a_refused_move_leaves_the_page_usable(tmp_path: Path) -> None:
    """The page's states are held back on their way (the real server's frames, kept in the
    browser's socket) while the move is made through the Service: the page's touch is then
    a stale move, the server refuses it, and the page says why, is not left faded, and
    takes the next state once it comes."""
    async def body(env: Env, browser: Any) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1")
        page = await browser.new_page(viewport={"width": 360, "height": 640})
        held: list[str | bytes] = []
        sockets: list[Any] = []
        holding = False

        async def route(ws: Any) -> None:
            sockets.append(ws)
            server = ws.connect_to_server()

            def down(message: str | bytes) -> None:
                if holding and json.loads(message).get("type") == "state":
                    held.append(message)
                else:
                    ws.send(message)
            server.on_message(down)
        await page.route_web_socket("**/ws*", route)
        await page.goto(env.links.url(tid, ALICE.id))
        await page.wait_for_function("() => window.dominoState !== undefined")
        await page.wait_for_function(READY)
        state = await page.evaluate("window.dominoState")
        entry = (state["moves"] + state["buttons"])[0]
        holding = True
        game = env.service.tables[tid].game
        await env.service.play(ALICE, tid, entry["move"], turn=game.turn)
        for _ in range(100):  # the new state reaches the browser, and is held there
            if held:
                break
            await asyncio.sleep(0.02)
        assert held
        before = await page.evaluate("window.dominoVersion")
        done = page.locator(f'[data-move="{q(entry["move"])}"]')
        if entry.get("tile") and not await done.count():
            await page.locator(f'#hand [data-tile="{q(entry["tile"])}"]').click()
        await done.first.click()
        await page.locator("#message").wait_for()  # the server's refusal, said
        assert not await page.evaluate("document.body.classList.contains('pending')")
        holding = False
        for message in held:  # the states held back arrive: the page takes them
            sockets[-1].send(message)
        await page.wait_for_function("v => window.dominoVersion > v", arg=before)
        assert not await page.evaluate("document.body.classList.contains('pending')")
    in_browser(tmp_path, body)
