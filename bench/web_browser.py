"""Web table in a browser (not a test): what a player feels on the page (issue 36's figures).

    python bench/web_browser.py [--moves 60] [--runs 3] [--ai-delay 0.25] [--loads 5]
                                [--families classic,matador,texas-42,tower,vingt]

Debian's chromium (Playwright pointed at the system browser) at a phone's 360x640 with a
touch screen, against the real server (tests/web_helpers.py's `serving`: the aiohttp app on
the real Service and SQLite file, the Service's tick loop playing the computers
`--ai-delay` seconds after each move, so that the human's own move is on the board before
the computer answers).  The human takes the first legal move by the page's attributes
(tests/browser_helpers.py's `click_move`, by taps), passing a hand's result panel by its
Continue; a new table opens when a game ends.

* **Touch to new board**: from the touch that completes a move to the frame that shows the
  new board: the page's performance marks `domino:touch` -> `domino:shown`
  (docs/web-page.md) where the page sets them ("marks"), else ("rAF") from the completing
  touch's `click` event to the first animation frame in which `window.dominoVersion` has
  grown (measured in the page).  Median and p99 per family, at full speed and under
  Chromium's 4x CPU slowdown (CDP `Emulation.setCPUThrottlingRate`); and the page's own
  part of it, from the state's arrival (mark `domino:state`) to the frame that shows it.
* **Touches a move takes**, and the first touch of a move to its new board (full speed;
  it includes the bench's own time between touches, as a quick player's).
* **Page weight**: the table page's HTML, script and style as the browser loaded them.
* **First board**: from navigation start to the first frame showing the board
  (`domino:shown`'s first mark, else the first frame with a board drawn), in a fresh
  browser context under the 4x slowdown, median of `--loads` loads.

With `--runs N`, each run starts its own server and browser; the last table gives the
medians of the runs.  The server runs in a process of its own (`--serve`, driven by lines
on its standard input), as the bot does beside its players' browsers: in the bench's own
process it would share its event loop with Playwright's client, whose traffic with the
browser then delays the server's answers; `--in-process` measures it that way."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from itertools import count
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from bench.web_floor import floor, serve_child
from bot.service.service import User
from tests.browser_helpers import (
    ARGS,
    CHROMIUM,
    PHONE,
    READY,
    click_move,
    new_context,
    open_table,
    touch,
)
from tests.web_helpers import Env, serving

FAMILIES = {"classic": "players=2 ai=1", "matador": "players=2 ai=1", "texas-42": "ai=3",
            "tower": "players=2 ai=1", "vingt": "players=2 ai=1"}
TARGET = {"median": 30.0, "p99": 60.0, "p99_4x": 150.0, "weight_kb": 100.0,
          "first_board_4x": 1000.0}  # ms, KB (issue 36)
CONTINUE = '[data-result] [data-action="continue"]'
USERS = count(1)

# In the page from its first script on: each click's time, and (armed by the first click
# of a move) the first animation frame in which window.dominoVersion has grown; the first
# frame with a board drawn.
PROBE = """(() => {
  const B = window.__bench = {clicks: [], shown: null, gen: 0, armed: 0, firstBoard: null};
  document.addEventListener("click", (e) => {
    B.clicks.push(e.timeStamp);
    if (B.armed === B.gen || typeof window.dominoVersion !== "number") { return; }
    const gen = B.armed = B.gen, from = window.dominoVersion;
    const frame = () => {
      if (B.gen !== gen) { return; }
      if (window.dominoVersion > from) { B.shown = performance.now(); return; }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, true);
  const first = () => {
    if (window.dominoState !== undefined && document.querySelector("#board svg")) {
      B.firstBoard = performance.now(); return;
    }
    requestAnimationFrame(first);
  };
  requestAnimationFrame(first);
})();"""

RESET = """() => { const B = window.__bench; B.clicks = []; B.shown = null; B.gen += 1;
    return performance.now(); }"""

# The move's figures once its board is shown: (completing touch -> shown) by the page's
# marks (null without them), the page's own part of it (its state received -> shown, by the
# mark domino:state), by the probe, and (first touch -> shown).
READ = """(t0) => {
  const B = window.__bench;
  const touches = performance.getEntriesByName("domino:touch").filter(m => m.startTime >= t0);
  let marks = null, own = null, shownAt = B.shown;
  if (touches.length) {
    const last = touches[touches.length - 1].startTime;
    const shown = performance.getEntriesByName("domino:shown").find(m => m.startTime >= last);
    if (shown) {
      marks = shown.startTime - last; shownAt = shown.startTime;
      const got = performance.getEntriesByName("domino:state").filter(
        m => m.startTime >= last && m.startTime <= shown.startTime);
      if (got.length) { own = shown.startTime - got[got.length - 1].startTime; }
    }
  }
  const clicks = B.clicks;
  return {marks: marks, own: own, probe: B.shown - clicks[clicks.length - 1],
          first: shownAt - clicks[0], clicks: clicks.length};
}"""


def pct(values: list[float], q: float) -> float | None:
    """The q-quantile (nearest rank) of `values`."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Host:
    """The served table: `base` (its address) and `open(family, user_id)`, a new table of
    `family` against computers with `user_id` in seat 0, answered by the human's link."""

    def __init__(self, base: str, opener: Any) -> None:
        self.base = base
        self._open = opener

    async def open(self, family: str, user_id: str) -> str:
        return await self._open(family, user_id)  # type: ignore[no-any-return]


def in_process(env: Env) -> Host:
    """The server of this process (`--in-process`)."""
    async def opener(family: str, user_id: str) -> str:
        user = User(user_id, "Ann")
        tid = await open_table(env, family, FAMILIES[family], user=user)
        return env.links.url(tid, user.id)
    return Host(env.base, opener)


async def child_host(ai_delay: float) -> tuple[Host, Any]:
    """A server in a process of its own (`--serve`): one JSON line asked, one answered."""
    base, proc = await serve_child(Path(__file__), "--serve", "--ai-delay", str(ai_delay))
    lock = asyncio.Lock()

    async def opener(family: str, user_id: str) -> str:
        assert proc.stdin is not None and proc.stdout is not None
        async with lock:
            proc.stdin.write(json.dumps({"family": family, "user": user_id}).encode() + b"\n")
            await proc.stdin.drain()
            return json.loads(await proc.stdout.readline())["url"]  # type: ignore[no-any-return]
    return Host(base, opener), proc


async def serve(ai_delay: float) -> None:
    """The child's side of `child_host`: the server and its tick loop, tables opened on
    request until its standard input closes."""
    loop = asyncio.get_running_loop()

    async def body(env: Env) -> None:
        ticks = asyncio.create_task(env.service.run(lambda _: asyncio.sleep(0), interval=0.02))
        host = in_process(env)
        print(json.dumps({"base": env.base}), flush=True)
        try:
            while line := await loop.run_in_executor(None, sys.stdin.readline):
                ask = json.loads(line)
                print(json.dumps({"url": await host.open(ask["family"], ask["user"])}),
                      flush=True)
        finally:
            ticks.cancel()
            await asyncio.gather(ticks, return_exceptions=True)

    with tempfile.TemporaryDirectory(prefix="bench-web-browser-") as folder:
        await serving(Path(folder), body, ai_delay=ai_delay)


async def seat_page(host: Host, context: Any, family: str) -> Any:
    """A new table of `family` against computers, the human's page on it (probe set)."""
    url = await host.open(family, f"bench:web{next(USERS)}")  # the solo limit is per user
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_function("() => window.dominoState !== undefined")
    return page


async def play(env: Host, browser: Any, family: str, moves: int, slow: bool) -> dict[str, Any]:
    """`moves` moves of the human at `family`'s tables, by taps; the figures of each."""
    context = await new_context(browser, PHONE, touch=True)
    await context.add_init_script(PROBE)
    felt: list[float] = []
    own: list[float] = []
    first: list[float] = []
    touches: list[int] = []
    source = "rAF"
    try:
        page = await seat_page(env, context, family)
        cdp = await context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4 if slow else 1})
        while len(felt) < moves:
            await page.wait_for_function(READY, timeout=60_000)
            state = await page.evaluate("window.dominoState")
            if state["over"]:
                await page.close()
                page = await seat_page(env, context, family)
                cdp = await context.new_cdp_session(page)
                await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4 if slow else 1})
                continue
            if await page.locator(CONTINUE).first.is_visible():
                await touch(page.locator(CONTINUE).first, True)
                await page.locator(CONTINUE).first.wait_for(state="hidden")
            before = await page.evaluate("window.dominoVersion")
            t0 = await page.evaluate(RESET)
            made = await click_move(page, (state["moves"] + state["buttons"])[0], tap=True)
            await page.wait_for_function("v => window.dominoVersion > v && "
                                         "window.__bench.shown !== null", arg=before)
            # one frame more: the page's own mark of that frame is then set too
            await page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
            got = await page.evaluate(READ, t0)
            if got["marks"] is not None:
                source = "marks"
            felt.append(got["marks"] if got["marks"] is not None else got["probe"])
            if got["own"] is not None:
                own.append(got["own"])
            first.append(got["first"])
            touches.append(made)
    finally:
        await context.close()
    return {"felt": felt, "own": own, "first": first, "touches": touches, "source": source}


async def first_board(env: Host, browser: Any, loads: int) -> dict[str, Any]:
    """Page weight (first load) and the first board under the 4x slowdown (each load in a
    fresh context: nothing cached)."""
    times: list[float] = []
    weight: dict[str, int] = {}
    for n in range(loads):
        context = await new_context(browser, PHONE, touch=True)
        await context.add_init_script(PROBE)
        try:
            url = await env.open("classic", f"bench:load{next(USERS)}")
            page = await context.new_page()
            bodies: list[Any] = []
            page.on("response", lambda r, into=bodies: into.append(r)
                    if r.request.resource_type in ("document", "script", "stylesheet")
                    else None)
            cdp = await context.new_cdp_session(page)
            await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            await page.goto(url)
            await page.wait_for_function("() => window.__bench.firstBoard !== null || "
                                         "performance.getEntriesByName('domino:shown').length",
                                         timeout=60_000)
            marks = await page.evaluate(
                "performance.getEntriesByName('domino:shown').map(m => m.startTime)")
            probe = await page.evaluate("window.__bench.firstBoard")
            times.append(min(marks) if marks else probe)
            if n == 0:
                for r in bodies:
                    name = r.url.split("?")[0].removeprefix(env.base) or "/"
                    name = "html" if r.request.resource_type == "document" else name
                    weight[name] = weight.get(name, 0) + len(await r.body())
        finally:
            await context.close()
    return {"first_board": statistics.median(times), "weight": weight}


async def one_run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright import async_api

    async def body(host: Host) -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with async_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                out["load"] = await first_board(host, browser, args.loads)
                out["floor"] = await floor(browser, args.moves)
                for family in args.families:
                    for slow in (False, True):
                        out[family, slow] = await play(host, browser, family, args.moves, slow)
                        print(f"  {family}{' 4x' if slow else ''}: done", file=sys.stderr)
            finally:
                await browser.close()
        return out

    if not args.in_process:
        host, proc = await child_host(args.ai_delay)
        try:
            return await body(host)
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
            await proc.wait()

    async def here(env: Env) -> dict[str, Any]:
        ticks = asyncio.create_task(env.service.run(lambda _: asyncio.sleep(0), interval=0.02))
        try:
            return await body(in_process(env))
        finally:
            ticks.cancel()
            await asyncio.gather(ticks, return_exceptions=True)

    with tempfile.TemporaryDirectory(prefix="bench-web-browser-") as folder:
        return await serving(Path(folder), here, ai_delay=args.ai_delay)  # type: ignore[no-any-return]


def figures(run: dict[str, Any], families: list[str]) -> dict[str, float | None]:
    """The run's numbers by name (ms, KB)."""
    out: dict[str, float | None] = {}
    for family in families:
        fast, slow = run[family, False], run[family, True]
        out[f"{family}:median"] = pct(fast["felt"], 0.5)
        out[f"{family}:p99"] = pct(fast["felt"], 0.99)
        out[f"{family}:median_4x"] = pct(slow["felt"], 0.5)
        out[f"{family}:p99_4x"] = pct(slow["felt"], 0.99)
        out[f"{family}:touches"] = statistics.mean(fast["touches"])
        out[f"{family}:touches_max"] = max(fast["touches"])
        out[f"{family}:first"] = pct(fast["first"], 0.5)
        out[f"{family}:own"] = pct(fast["own"], 0.5)
        out[f"{family}:own_4x"] = pct(slow["own"], 0.5)
    out["weight_kb"] = sum(run["load"]["weight"].values()) / 1024
    out["first_board_4x"] = run["load"]["first_board"]
    out["floor"] = pct(run["floor"]["tap"], 0.5)
    out["floor_p99"] = pct(run["floor"]["tap"], 0.99)
    return out


def table(fig: dict[str, float | None], families: list[str], runs: list[dict[str, Any]],
          moves: int) -> str:
    """The markdown table of the figures (the project's benches print markdown rows)."""
    def ms(x: float | None) -> str:
        return "-" if x is None else f"{x:.1f}"

    def verdict(x: float | None, limit: float) -> str:
        return "-" if x is None else ("met" if x < limit else "**missed**")

    source = ",".join(sorted({r[f, s]["source"] for r in runs for f in families
                              for s in (False, True)}))
    lines = [f"touch to new board ({source}), {moves} moves a family and speed; ms:",
             "| family | median | p99 | median 4x | p99 4x | the page's own part, median "
             "(4x) | touches a move (max) | first touch to new board, median |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for f in families:
        lines.append(f"| {f} | {ms(fig[f'{f}:median'])} | {ms(fig[f'{f}:p99'])} | "
                     f"{ms(fig[f'{f}:median_4x'])} | {ms(fig[f'{f}:p99_4x'])} | "
                     f"{ms(fig[f'{f}:own'])} ({ms(fig[f'{f}:own_4x'])}) | "
                     f"{fig[f'{f}:touches'] or 0:.2f} ({fig[f'{f}:touches_max'] or 0:.0f}) | "
                     f"{ms(fig[f'{f}:first'])} |")
    worst = {k: max((fig[f"{f}:{k}"] or 0.0) for f in families)
             for k in ("median", "p99", "p99_4x")}
    weight = runs[-1]["load"]["weight"]
    parts = ", ".join(f"{k} {v / 1024:.1f} KB" for k, v in weight.items())
    lines += ["", "| figure | measured | target | |", "|---|---|---|---|",
              f"| touch to new board, worst family's median | {ms(worst['median'])} ms "
              f"| < {TARGET['median']:.0f} ms | {verdict(worst['median'], TARGET['median'])} |",
              f"| touch to new board, worst family's p99 | {ms(worst['p99'])} ms "
              f"| < {TARGET['p99']:.0f} ms | {verdict(worst['p99'], TARGET['p99'])} |",
              f"| the same at 4x CPU slowdown, p99 | {ms(worst['p99_4x'])} ms "
              f"| < {TARGET['p99_4x']:.0f} ms | {verdict(worst['p99_4x'], TARGET['p99_4x'])} |",
              f"| page weight | {fig['weight_kb']:.1f} KB ({parts}) "
              f"| < {TARGET['weight_kb']:.0f} KB "
              f"| {verdict(fig['weight_kb'], TARGET['weight_kb'])} |",
              f"| first board, 360x640, 4x slowdown | {ms(fig['first_board_4x'])} ms "
              f"| < {TARGET['first_board_4x']:.0f} ms "
              f"| {verdict(fig['first_board_4x'], TARGET['first_board_4x'])} |",
              f"| the floor: a bare page's touch to its answer shown (bench/web_floor.py) "
              f"| median {ms(fig['floor'])}, p99 {ms(fig['floor_p99'])} ms | | |"]
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=60, help="moves a family and speed")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--ai-delay", type=float, default=0.25)
    p.add_argument("--loads", type=int, default=5, help="page loads for the first board")
    p.add_argument("--families", default=",".join(FAMILIES),
                   type=lambda s: [f for f in s.split(",") if f])
    p.add_argument("--in-process", action="store_true",
                   help="serve the table in the bench's own process and event loop")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        asyncio.run(serve(args.ai_delay))
        return 0
    unknown = [f for f in args.families if f not in FAMILIES]
    if unknown:
        p.error(f"unknown families {unknown}: choose among {', '.join(FAMILIES)}")
    if not Path(CHROMIUM).exists():
        p.error(f"chromium is not installed ({CHROMIUM}): apt-get install chromium")
    runs, figs = [], []
    for n in range(args.runs):
        runs.append(asyncio.run(one_run(args)))
        figs.append(figures(runs[-1], args.families))
        shown = table(figs[-1], args.families, runs[-1:], args.moves)
        print(f"run {n + 1} of {args.runs}:\n{shown}\n", flush=True)
    if args.runs > 1:
        medians = {k: statistics.median([f[k] for f in figs if f[k] is not None] or [0.0])
                   for k in figs[0]}
        shown = table(medians, args.families, runs, args.moves)
        print(f"medians of the {args.runs} runs:\n{shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
