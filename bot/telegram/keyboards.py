"""The service's actions as Telegram inline keyboards: rows as the service lays them out
(cut to a phone's width in a group), "my hand" in a group as the deep link to the private
chat, and the tiles that can be played marked in a hand; the web table's "Web" buttons
(issue 30) where the adapter gives their addresses."""

from __future__ import annotations

from collections.abc import Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from ..service.messages import Action
from .ids import deep_link

LEGAL_MARK = "✅ "
GROUP_ROW = 3  # at most this many buttons in a row in a group (a phone's width)


Address = Callable[[int], str | None]  # table -> a web address, or None: no button


def no_address(table: int) -> str | None:
    return None


def keyboard(actions: tuple[Action, ...], table: int | None, username: str,
             private: bool = False, web_url: Address = no_address,
             web_app_url: Address = no_address) -> InlineKeyboardMarkup | None:
    """Inline buttons by row; "show my hand" in a group is a deep link to the private chat
    of the bot `username`, with the table's web page beside it (`web_url`); in a hand, the
    tiles that can be played are marked, and the Mini App (`web_app_url`) has a row of its
    own under them."""
    rows: dict[int, list[InlineKeyboardButton]] = {}
    for a in actions:
        verb = a.data.split(":")[2] if a.data.count(":") >= 2 else ""
        if verb == "h" and not private and table is not None:
            button = InlineKeyboardButton(a.label, url=deep_link(username, table))
            web = web_url(table)  # the web table, beside "my hand" (issue 30)
            if web:
                rows.setdefault(a.row, []).append(InlineKeyboardButton("Web", url=web))
        else:
            label = LEGAL_MARK + a.label if private and a.style == "primary" and a.enabled \
                and verb in ("p", "e") else a.label
            button = InlineKeyboardButton(label, callback_data=a.data)
        rows.setdefault(a.row, []).append(button)
    web_app = web_app_url(table) if private and rows and table is not None else None
    if web_app:  # the Mini App, on a row of its own under a hand (issue 30)
        rows[max(rows) + 1] = [InlineKeyboardButton("Web", web_app=WebAppInfo(web_app))]
    if not rows:
        return None
    size = len(actions) if private else GROUP_ROW  # a group's rows fit a phone
    return InlineKeyboardMarkup([row[i:i + size] for r in sorted(rows)
                                 for row in (rows[r],) for i in range(0, len(row), size)])
