"""The HTML the web table serves: the table page around the board helper's body
(templates/table.html), the Mini App launcher page, the refusal page, and a finished game's
page (its moves one by one, server-rendered: no script).  Texts in French and English."""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path
from typing import Any

from ..i18n import t
from .board import page_strings

HERE = Path(__file__).parent
TEMPLATE = HERE / "templates" / "table.html"
# the page without its opening comment (which names the placeholders)
TEMPLATE_TEXT = re.sub(r"<!--.*?-->\n?", "", TEMPLATE.read_text(encoding="utf-8"), count=1,
                       flags=re.S)
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"


def _config_json(config: dict[str, Any]) -> str:
    """The page's config as the text of a JSON script element (not run: CSP allows no inline
    script); "<" is escaped so that no text in it can close the element."""
    return json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")


def shell(lang: str, title: str, head: str, body: str) -> str:
    """A whole page around a body's content."""
    return (f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="referrer" content="no-referrer">'
            f"<title>{escape(title)}</title>{head}</head><body>{body}</body></html>")


TABLE_SCRIPT = '<script src="/static/table.js" defer></script>'


def table_page(lang: str, title: str, ws: str | None, *, miniapp: bool = False,
               table: int | None = None) -> str:
    """The table page: the board helper's document (templates/table.html) with its
    placeholders filled: the language, the title and the config (the socket's address and
    the page's words).  The Mini App's page has no socket yet: /launch.js gets a session
    first, then loads the table's script."""
    config: dict[str, Any] = {"ws": ws, "lang": lang, "strings": page_strings(lang)}
    page = (TEMPLATE_TEXT.replace("{{lang}}", escape(lang))
            .replace("{{title}}", escape(title))
            .replace("{{config}}", _config_json(config)))
    if miniapp:
        page = page.replace(TABLE_SCRIPT, f'<script src="{TELEGRAM_JS}"></script>'
                            f'<script src="/launch.js" defer data-table="{table or ""}">'
                            "</script>")
    return page


def refusal(lang: str, status: int) -> str:
    """The page of a refused link: expired or forged (403), or no such game (404)."""
    if status == 404:
        words = t(lang, "There is no such game here.")
    else:
        words = t(lang, "This link is not valid: it has expired or was changed. Ask the bot "
                  "for a new one (the /web command).")
    title = t(lang, "Link refused")
    return shell(lang, title, '<link rel="stylesheet" href="/static/table.css">',
                 f"<main><h1>{escape(title)}</h1><p>{escape(words)}</p></main>")


def game_page(lang: str, title: str, step: int, steps: int, move: str, board_svg: str,
              lines: list[str], sheet: list[str], path: str) -> str:
    """One step of a finished game: its board (public view), the move that led there, links
    to the other steps, and the score sheet."""
    def link(n: int, label: str) -> str:
        if n < 0 or n > steps or n == step:
            return f"<span>{escape(label)}</span>"
        return f'<a href="{escape(path)}?step={n}">{escape(label)}</a>'

    nav = " ".join([link(0, t(lang, "start")), link(step - 1, t(lang, "previous")),
                      escape(t(lang, "move {n} of {total}", n=step, total=steps)),
                      link(step + 1, t(lang, "next")), link(steps, t(lang, "end"))])
    said = f'<p class="said" data-said>{escape(move)}</p>' if move else ""
    status = "".join(f"<li>{escape(x)}</li>" for x in lines)
    score = "".join(f"<li>{escape(x)}</li>" for x in sheet)
    sheet_html = (f'<section class="sheet"><h2>{escape(t(lang, "Score sheet"))}</h2>'
                  f"<ul>{score}</ul></section>" if score else "")
    body = (f'<header class="bar"><h1>{escape(title)}</h1></header>'
            f'<main class="game"><nav class="steps">{nav}</nav>{said}'
            f'<div class="board">{board_svg}</div><ul class="lines">{status}</ul>{sheet_html}'
            "</main>")
    head = ('<meta name="color-scheme" content="light dark">'
            '<link rel="stylesheet" href="/static/table.css">'
            '<link rel="stylesheet" href="/static/game.css">')
    return shell(lang, title, head, body)
