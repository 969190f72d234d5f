"""The service's actions as Telegram inline keyboards: rows as the service lays them out
(cut to a phone's width in a group), "my hand" in a group as the deep link to the private
chat, and the tiles that can be played marked in a hand."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ..service.messages import Action
from .ids import deep_link

LEGAL_MARK = "✅ "
GROUP_ROW = 3  # at most this many buttons in a row in a group (a phone's width)


def keyboard(actions: tuple[Action, ...], table: int | None, username: str,
             private: bool = False) -> InlineKeyboardMarkup | None:
    """Inline buttons by row; "show my hand" in a group is a deep link to the private chat
    of the bot `username`; in a hand, the tiles that can be played are marked."""
    rows: dict[int, list[InlineKeyboardButton]] = {}
    for a in actions:
        verb = a.data.split(":")[2] if a.data.count(":") >= 2 else ""
        if verb == "h" and not private and table is not None:
            button = InlineKeyboardButton(a.label, url=deep_link(username, table))
        else:
            label = LEGAL_MARK + a.label if private and a.style == "primary" and a.enabled \
                and verb in ("p", "e") else a.label
            button = InlineKeyboardButton(label, callback_data=a.data)
        rows.setdefault(a.row, []).append(button)
    if not rows:
        return None
    size = len(actions) if private else GROUP_ROW  # a group's rows fit a phone
    return InlineKeyboardMarkup([row[i:i + size] for r in sorted(rows)
                                 for row in (rows[r],) for i in range(0, len(row), size)])
