"""Markdown (the rules pages of docs/rules/) as Telegram HTML, cut into messages.

Telegram shows Markdown marks as they are typed, so a rules page is sent with
``parse_mode=HTML``: headings and ``**bold**`` in bold, ``*italic*``, ``code`` spans, list
dashes as bullets, tables as preformatted text, links as their text (the pages' links are
relative).  Every paragraph and line is converted on its own, so `html_messages` can cut the
page between them (bot.texts.split_text) and no tag ever spans two messages.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from ..service.texts import split_text

MAX_TEXT = 4096
MAX_MENTIONS = 50  # links that notify, at most, in one message
HEADING = re.compile(r"^#{1,6}\s+(.*)$")
BULLET = re.compile(r"^(\s*)[-*]\s+")
CODE = re.compile(r"(`[^`\n]+`)")
BOLD = re.compile(r"\*\*(.+?)\*\*")
ITALIC = re.compile(r"(?<![\w*])\*(?![\s*])([^*\n]+?)(?<!\s)\*(?![\w*])")
LINK = re.compile(r"\[([^\]\n]+)\]\([^)\s]+\)")
RULE_ROW = re.compile(r"^\|?[\s:|-]+\|?$")
SPAN = re.compile("\x00([0-9]+)\x00")


def mention_links(users: Sequence[str]) -> str:
    """Links that notify the Telegram users `users` ("telegram:<id>"; others are skipped)
    where they are shown, for a message sent as HTML: " 👤" each (at most MAX_MENTIONS)."""
    ids = [u.split(":", 1)[1] for u in users if u.startswith("telegram:")]
    unique = list(dict.fromkeys(i for i in ids if i.isdigit()))[:MAX_MENTIONS]
    return "".join(f' <a href="tg://user?id={i}">👤</a>' for i in unique)


def html_messages(markdown: str, size: int = MAX_TEXT) -> list[str]:
    """The page as HTML messages of at most `size` characters, cut at paragraphs."""
    return split_text(markdown, size, to_html)


def to_html(markdown: str) -> str:
    """One paragraph (or line) of Markdown as Telegram HTML."""
    lines = markdown.split("\n")
    if lines and all(line.lstrip().startswith("|") for line in lines):
        return _table(lines)
    return "\n".join(_line(line) for line in lines)


def _line(line: str) -> str:
    heading = HEADING.match(line)
    if heading:
        return f"<b>{_inline(heading[1])}</b>"
    bullet = BULLET.match(line)
    if bullet:
        return f"{bullet[1]}• {_inline(line[bullet.end():])}"
    return _inline(line)


def _inline(text: str) -> str:
    """Code spans are set aside first (their text is shown as it is), so that bold or italic
    may span them: ``**option `x`:**`` is bold with code inside."""
    spans: list[str] = []

    def keep(match: re.Match[str]) -> str:
        spans.append(f"<code>{html.escape(match[1][1:-1], quote=False)}</code>")
        return f"\x00{len(spans) - 1}\x00"

    part = html.escape(LINK.sub(r"\1", CODE.sub(keep, text)), quote=False)
    part = ITALIC.sub(r"<i>\1</i>", BOLD.sub(r"<b>\1</b>", part))
    return SPAN.sub(lambda m: spans[int(m[1])], part)


def _table(lines: list[str]) -> str:
    """A Markdown table as aligned preformatted text (its |---| line dropped)."""
    rows = [[cell.strip().replace("`", "") for cell in line.strip().strip("|").split("|")]
            for line in lines if not RULE_ROW.match(line.strip())]
    if not rows:
        return ""
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(max(map(len, rows)))]
    text = "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)).rstrip()
                     for r in rows)
    return f"<pre>{html.escape(text, quote=False)}</pre>"
