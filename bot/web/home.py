"""The local home page (docs/web-page.md, "The local home page"): with no platform token and
the web table on a loopback address, `GET /` lists every game (its name in the user's
language, one line of what it is, the players and the computers' level, Start) and the
local user's tables under way; `POST /api/local/start` opens a table for the console's user
against computer players through the Service (the chat's own checks and limits) and answers
the table page's address.  Outside that mode both answer 404.  Also the site's icon
(`/favicon.ico`, a domino drawn once).
"""

from __future__ import annotations

import io
import ipaddress
import re
from collections.abc import Callable
from functools import cache
from html import escape
from typing import TYPE_CHECKING, Any

from aiohttp import web
from PIL import Image, ImageDraw

from core import variants
from core.ai import levels_for

from ..i18n import t
from ..service.levels import DEFAULT, level_word
from ..service.rules_pages import chat_page, rules_page
from ..service.service import User
from . import guards
from .pages import _config_json, shell
from .state import game_name

if TYPE_CHECKING:
    from .host import WebTable

LocalUser = Callable[[], User]
SENTENCE = re.compile(r"(?<=[.!?])\s+")


def loopback(host: str) -> bool:
    """Is `host` (the address listened on) a loopback address?"""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@cache
def describe(slug: str, lang: str) -> str:
    """One line of what the game is: the first sentence of its rules page's summary (two
    when the first is short), as the chat's /rules begins."""
    try:
        summary = chat_page(rules_page(slug), lang).summary
    except (OSError, ValueError, KeyError):
        return ""
    summary = re.sub(r"[*_`]", "", summary)
    sentences = SENTENCE.split(summary.strip())
    line = sentences[0] if sentences else ""
    if len(line) < 50 and len(sentences) > 1:
        line += " " + sentences[1]
    return line


def games(lang: str) -> list[dict[str, Any]]:
    """Every game, for the home page's choosers."""
    out = []
    for slug in variants.names():
        v = variants.get(slug)
        out.append({"slug": slug, "name": game_name(slug, lang), "line": describe(slug, lang),
                    "players": [v.min_players, v.max_players, v.default_players],
                    "levels": [[lv, level_word(lv, lang)] for lv in levels_for(v)]})
    return out


def home_page(lang: str, listed: list[dict[str, Any]], tables: list[tuple[str, str]]) -> str:
    """The page: the user's tables under way (links), then one section per game."""
    title = t(lang, "Domino: play in your browser")
    mine = "".join(f'<li><a href="{escape(url)}">{escape(label)}</a></li>'
                   for url, label in tables)
    under_way = (f'<section class="mine"><h2>{escape(t(lang, "Your tables"))}</h2>'
                 f"<ul>{mine}</ul></section>" if mine else "")
    cards = []
    for g in listed:
        lo, hi, default = g["players"]
        players = "".join(f'<option value="{n}"{" selected" if n == default else ""}>{n}'
                          f"</option>" for n in range(lo, hi + 1))
        levels = "".join(f'<option value="{escape(lv)}"{" selected" if lv == DEFAULT else ""}>'
                         f"{escape(word)}</option>" for lv, word in g["levels"])
        chooser = "" if hi == 1 else (
            f'<label>{escape(t(lang, "Players"))} <select name="players">{players}</select>'
            f'</label><label>{escape(t(lang, "Computers"))} <select name="level">{levels}'
            f"</select></label>")
        cards.append(
            f'<li class="game" data-variant="{escape(g["slug"])}">'
            f'<h3>{escape(g["name"])}</h3><p>{escape(g["line"])}</p>'
            f'<div class="choose">{chooser}<button type="button" class="start">'
            f'{escape(t(lang, "Start"))}</button></div></li>')
    config = {"lang": lang, "api": "/api/local/start",
              "strings": {"starting": t(lang, "Opening the table…"),
                          "failed": t(lang, "The table could not be opened.")}}
    body = (f'<main class="home"><h1>{escape(title)}</h1>'
            f'<p class="message" role="alert" aria-live="assertive" hidden></p>{under_way}'
            f'<h2>{escape(t(lang, "Games"))}</h2><ul class="games">{"".join(cards)}</ul>'
            f"</main>")
    head = ('<meta name="color-scheme" content="light dark">'
            '<link rel="stylesheet" href="/static/home.css">'
            f'<script type="application/json" id="domino-config">{_config_json(config)}'
            '</script><script src="/static/home.js" defer></script>')
    return shell(lang, title, head, body)


class Home:
    """The home page's routes, on a `WebTable` (which knows its mode, service and links)."""

    def __init__(self, table: WebTable, local_user: LocalUser | None) -> None:
        self.table = table
        self.local_user = local_user
        self.local = False  # set by `WebTable.start`: a local user and a loopback address

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/", self.page)
        app.router.add_post("/api/local/start", self.start)
        app.router.add_get("/favicon.ico", favicon)

    def _tables(self, user: User, lang: str) -> list[tuple[str, str]]:
        service, links = self.table.service, self.table.links
        out = []
        for tb in sorted(service.tables.values(), key=lambda x: -x.id):
            row = tb.row
            if row.status in ("lobby", "playing") and any(
                    s.user_id == user.id and s.ai is None for s in row.seats):
                out.append((f"/t/{links.token(row.id, user.id)}",
                            f"#{row.id} · {game_name(row.variant, lang)}"))
        return out

    async def page(self, request: web.Request) -> web.Response:
        if not self.local or self.local_user is None:
            raise web.HTTPNotFound()
        user = self.local_user()
        lang = self.table._lang(request, user.id)
        return web.Response(text=home_page(lang, games(lang), self._tables(user, lang)),
                            content_type="text/html")

    async def start(self, request: web.Request) -> web.Response:
        """`{"variant", "players", "level"}` -> 200 `{"url": "/t/TOKEN"}`, or 400 with
        `{"error": str}` saying what is wrong (nothing is opened then)."""
        if not self.local or self.local_user is None:
            raise web.HTTPNotFound()
        if not guards.origin_ok(request.headers.get("Origin"), self.table.public_host):
            return web.json_response({"error": "origin refused"}, status=403)
        user = self.local_user()
        lang = self.table._lang(request, user.id)

        def bad(text: str) -> web.Response:
            return web.json_response({"error": text}, status=400)

        try:
            body = await request.json()
        except (ValueError, web.HTTPException):
            return bad(t(lang, "The request is not understood."))
        if not isinstance(body, dict):
            return bad(t(lang, "The request is not understood."))
        slug = body.get("variant")
        if not isinstance(slug, str) or slug not in variants.names():
            return bad(t(lang, "There is no game named {name}.", name=str(slug)[:40]))
        v = variants.get(slug)
        players = body.get("players", v.default_players)
        if isinstance(players, str) and players.isdigit():
            players = int(players)
        if (isinstance(players, bool) or not isinstance(players, int)
                or not v.min_players <= players <= v.max_players):
            return bad(t(lang, "{game} is played by {lo} to {hi} players.",
                         game=game_name(slug, lang), lo=v.min_players, hi=v.max_players))
        level = body.get("level") or DEFAULT
        if not isinstance(level, str) or level not in levels_for(v):
            return bad(t(lang, "Choose the computers' level among: {levels}.", levels=", ".join(
                level_word(lv, lang) for lv in levels_for(v))))
        from ..console.chat import HERE  # the console's channel and scope

        service = self.table.service
        before = set(service.tables)
        out = await service.open_table(user, HERE.channel, HERE.scope, slug,
                                       options={"players": players, "ai": players - 1,
                                                "level": level}, where=HERE)
        opened = [m.table for m in out if m.table is not None and m.table not in before]
        errors = [m.text for m in out if m.kind == "error"]
        if errors or not opened:
            return bad(" ".join(errors) or t(lang, "The table could not be opened."))
        await self.table.deliver(out)  # the console shows the new table too
        return web.json_response({"url": f"/t/{self.table.links.token(opened[0], user.id)}"})


@cache
def _icon() -> bytes:
    """A domino, 32 by 32 pixels (PNG), drawn once."""
    im = Image.new("RGBA", (32, 32), (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    draw.rounded_rectangle((7, 1, 24, 30), radius=4, fill=(250, 250, 245), outline=(30, 30, 30),
                           width=2)
    draw.line((9, 16, 22, 16), fill=(30, 30, 30), width=2)
    for x, y in ((12, 6), (19, 11), (12, 21), (19, 21), (12, 26), (19, 26)):
        draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=(30, 30, 30))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


async def favicon(request: web.Request) -> web.Response:
    return web.Response(body=_icon(), content_type="image/png",
                        headers={"Cache-Control": "public, max-age=86400"})
