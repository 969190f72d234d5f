"""The web table in a real browser (Debian's chromium driven by Playwright, pointed at the
system browser: never `playwright install`): a signed link opens its page, whose strict
Content-Security-Policy still lets the page's own socket connect and receive its seat's
state; a link changed by one character shows the refusal page."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.prerequisites import require_browser
from tests.service_helpers import ALICE, BOB, CHANNEL, SCOPE, run, table_id
from tests.web_helpers import Env, serving

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright_api = require_browser(CHROMIUM)

OPEN_SOCKET = """async () => {
    const config = JSON.parse(document.getElementById("domino-config").textContent);
    const url = location.origin.replace(/^http/, "ws") + config.ws;
    return await new Promise((resolve) => {
        const ws = new WebSocket(url);
        ws.onmessage = (e) => { resolve(JSON.parse(e.data)); ws.close(); };
        ws.onerror = () => resolve({"type": "refused"});
        setTimeout(() => resolve({"type": "timeout"}), 5000);
    });
}"""


def test_a_signed_link_opens_its_page_and_its_socket_in_chromium(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = table_id(await env.service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                    options="players=2"))
        await env.service.join(BOB, tid)
        await env.service.begin(ALICE, tid)
        url = env.links.url(tid, BOB.id)
        violations: list[str] = []
        async with playwright_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM,
                                              args=["--no-sandbox", "--headless=new"])
            try:
                page = await browser.new_page(viewport={"width": 360, "height": 640},
                                              locale="fr-FR")
                page.on("console", lambda m: violations.append(m.text)
                        if "Content Security Policy" in m.text else None)
                answer = await page.goto(url)
                assert answer is not None and answer.status == 200
                got: dict[str, Any] = await page.evaluate(OPEN_SOCKET)
                assert got["type"] == "state", got
                assert got["state"]["seat"] == 1 and got["state"]["hand"]
                ran = await page.evaluate("""() => {
                    const s = document.createElement("script");
                    s.textContent = "window.injected = 1";
                    document.body.appendChild(s);
                    return window.injected === 1;
                }""")
                assert ran is False  # the policy allows no inline script
                assert any("Content Security Policy" in v for v in violations)
                violations.clear()
                token = url.rsplit("/", 1)[1]
                bad = token[:-1] + ("A" if token[-1] != "A" else "B")
                answer = await page.goto(f"{env.base}/t/{bad}")
                assert answer is not None and answer.status == 403
                assert "expiré" in await page.inner_text("body")
            finally:
                await browser.close()
        assert not violations, violations
    run(serving(tmp_path, body))
