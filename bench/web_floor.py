"""The floor under bench/web_browser.py's "touch to new board" (not a test).

    python bench/web_floor.py [--taps 30]

A bare page, in the same chromium at 360x640 with a touch screen: one button; its click
marks `domino:touch` and sends a word on a WebSocket to a server in a process of its own
that answers at once with 11 KB (a state's size); the page marks `domino:state` when the
answer comes, writes its length into the page and marks `domino:shown` in the next
animation frame, as the table's page does.  Nothing else runs, so what it measures is the
browser's own cost of a touch answered through a socket: the least any page can reach
here.  With no touch before it (a timer sends instead), the same round trip is measured
too: in Chromium a touch makes the page's next tasks wait for the frame that follows the
input, which a timer does not."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>floor</title></head>
<body><button id="b" style="width:200px;height:120px">go</button><p id="out"></p>
<script>
var ws = new WebSocket("ws://" + location.host + "/ws");
ws.onmessage = function (ev) {
  performance.mark("domino:state");
  document.getElementById("out").textContent = String(ev.data.length);
  requestAnimationFrame(function () { performance.mark("domino:shown"); });
};
function go() { performance.mark("domino:touch"); ws.send("move"); }
document.getElementById("b").addEventListener("click", go);
if (location.search === "?timer") { setInterval(go, 150); }
</script></body></html>"""


def serve() -> None:
    """The child: the bare page and its socket on a free loopback port (printed)."""
    from aiohttp import web

    async def page(_: web.Request) -> web.Response:
        return web.Response(text=PAGE, content_type="text/html")

    async def socket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for _ in ws:
            await ws.send_str("s" * 11_000)
        return ws

    async def main() -> None:
        app = web.Application()
        app.router.add_get("/", page)
        app.router.add_get("/ws", socket)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        print(json.dumps({"base": f"http://127.0.0.1:{port}"}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        await runner.cleanup()

    asyncio.run(main())


async def serve_child(script: Path, *args: str) -> tuple[str, Any]:
    """`script` run with `args` as a server in a process of its own, its standard input and
    output piped: the address it prints first (a JSON line's "base"), and the process."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(script.resolve()), *args,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    return json.loads(await proc.stdout.readline())["base"], proc


READ = """() => {
  const get = n => performance.getEntriesByName(n).map(m => m.startTime);
  const touch = get("domino:touch"), state = get("domino:state"), shown = get("domino:shown");
  return touch.map(t => {
    const s = state.find(x => x >= t), f = shown.find(x => x >= t);
    return s === undefined || f === undefined ? null : [s - t, f - t];
  }).filter(x => x !== null);
}"""


async def floor(browser: Any, taps: int) -> dict[str, list[float]]:
    """Touch to shown, and touch to the answer's arrival, by taps and by a timer (ms)."""
    from tests.browser_helpers import PHONE, new_context

    base, proc = await serve_child(Path(__file__), "--serve")
    assert proc.stdin is not None
    out: dict[str, list[float]] = {}
    try:
        for how in ("tap", "timer"):
            context = await new_context(browser, PHONE, touch=True)
            try:
                page = await context.new_page()
                await page.goto(base + ("/?timer" if how == "timer" else "/"))
                await page.wait_for_function("() => true")
                await asyncio.sleep(0.3)
                if how == "tap":
                    for _ in range(taps):
                        await page.locator("#b").tap()
                        await asyncio.sleep(0.1)
                else:
                    await asyncio.sleep(0.15 * taps)
                pairs = await page.evaluate(READ)
                out[how] = [p[1] for p in pairs]
                out[how + ":answer"] = [p[0] for p in pairs]
            finally:
                await context.close()
    finally:
        proc.stdin.close()
        await proc.wait()
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--taps", type=int, default=30)
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        serve()
        return 0
    from playwright import async_api

    from tests.browser_helpers import ARGS, CHROMIUM

    async def run() -> dict[str, list[float]]:
        async with async_api.async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                return await floor(browser, args.taps)
            finally:
                await browser.close()

    got = asyncio.run(run())
    print("| started by | answer arrived, median | shown, median | shown, p99 |")
    print("|---|---:|---:|---:|")
    for how in ("tap", "timer"):
        vals, ans = sorted(got[how]), got[how + ":answer"]
        p99 = vals[min(len(vals) - 1, int(0.99 * len(vals)))]
        print(f"| {how} | {statistics.median(ans):.1f} | {statistics.median(vals):.1f} | "
              f"{p99:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
