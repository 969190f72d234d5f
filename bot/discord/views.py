"""Discord components for the service's actions: buttons whose custom ids carry the action
data, laid out in rows, with pages for hands too big for one message.

Every button is a `discord.ui.DynamicItem`: its custom id is `dom:<action data>` (or
`domhp:<table>:<turn>:<page>` for hand pages) and a click is recognised by the regex
alone, so buttons keep working after a restart.  Views are never stored by the
client (`Buttons.is_finished` is always true): every click goes through the dynamic
items, the same way before and after a restart.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

import discord

from ..service.messages import Action, Message
from ..service.texts import split_text
from ..service.words import clip

PRESS_PREFIX = "dom:"
PAGE_PREFIX = "domhp:"
ROWS = 5  # Discord: at most 5 rows of 5 buttons
PER_ROW = 5
PER_PAGE = (ROWS - 1) * PER_ROW  # 20 tiles a page; the last row keeps draw/pass and the arrows
MAX_CONTENT = 2000
MAX_DESCRIPTION = 1024  # characters of an attachment's description (its text alternative)

STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}


def _handler(interaction: discord.Interaction, name: str) -> Any:
    """What a click does is decided by the client (DominoClient.on_press / on_page)."""
    return getattr(interaction.client, name)


class PressButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"dom:(?P<data>[0-9]+:[0-9]+:[a-z]+(?::.{1,64})?)"):
    """A button that sends its action data to the service."""

    def __init__(self, data: str, label: str = "·", style: str = "secondary",
                 enabled: bool = True, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=STYLES.get(style,
                         discord.ButtonStyle.secondary), custom_id=PRESS_PREFIX + data,
                         disabled=not enabled, row=row))
        self.data = data

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> PressButton:
        return cls(match["data"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction, "on_press")(interaction, self.data)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"domhp:(?P<table>[0-9]+):(?P<turn>[0-9]+):(?P<page>[0-9]+)"):
    """Shows another page of a hand of more than 20 tiles."""

    def __init__(self, table: int, turn: int, page: int, label: str = "·",
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"{PAGE_PREFIX}{table}:{turn}:"
                                           f"{page}", row=row))
        self.table, self.page = table, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> PageButton:
        return cls(int(match["table"]), int(match["turn"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction, "on_page")(interaction, self.table, self.page)


class Buttons(discord.ui.View):
    """A view that is sent but never stored: clicks go through the dynamic items."""

    def is_finished(self) -> bool:
        return True


def layout(actions: Sequence[Action], page: int = 0) -> tuple[list[list[Action]], int, int]:
    """Discord rows for `actions` (each action's `row` kept as a group, 5 buttons a row),
    the page shown and the number of pages.  A hand of more than 20 tiles is shown 20
    tiles at a time, its other buttons (draw, pass) on the last row with the arrows."""
    groups: dict[int, list[Action]] = {}
    for a in actions:
        groups.setdefault(a.row, []).append(a)
    rows = [g[i:i + PER_ROW] for k in sorted(groups) for g in (groups[k],)
            for i in range(0, len(g), PER_ROW)]
    tiles = [a for a in actions if _is_tile(a)]
    if len(rows) <= ROWS and len(tiles) <= PER_PAGE:
        return rows, 0, 1
    others = [a for a in actions if not _is_tile(a)][:PER_ROW - 2]
    pages = max(1, -(-len(tiles) // PER_PAGE))
    page = min(max(page, 0), pages - 1)
    shown = tiles[page * PER_PAGE:(page + 1) * PER_PAGE]
    return [shown[i:i + PER_ROW] for i in range(0, len(shown), PER_ROW)] + [others], page, pages


def _is_tile(action: Action) -> bool:
    """A tile button of a hand: it plays (or asks the end of) the tile it is labelled with."""
    parts = action.data.split(":", 3)
    return len(parts) == 4 and parts[2] in ("p", "e") and parts[3].split(" ")[0] == action.label


# table -> the address of its table message's "Web" link button (set by the client from
# bot/web/reply.py), or None: no button
WEB_URL: list[Callable[[int], str | None]] = []


def view_for(message: Message, page: int = 0) -> Buttons | None:
    """The buttons of a message (None when it has none)."""
    if not message.actions:
        return None
    rows, page, pages = layout(message.actions, page)
    view = Buttons(timeout=None)
    for r, row in enumerate(rows):
        for a in row:
            view.add_item(PressButton(a.data, a.label, a.style, a.enabled, row=r))
    web = (WEB_URL[-1](message.table) if WEB_URL and message.kind == "table"
           and message.to is None and message.table is not None else None)
    if web and len(rows) < ROWS:  # the web table (issue 30), on a row of its own
        view.add_item(discord.ui.Button(label="Web", url=web, row=len(rows)))
    if pages > 1 and message.table is not None:
        turn = _turn_of(message.actions)
        last = len(rows) - 1
        if page > 0:
            view.add_item(PageButton(message.table, turn, page - 1, f"◀ {page}/{pages}", last))
        if page < pages - 1:
            view.add_item(PageButton(message.table, turn, page + 1, f"{page + 2}/{pages} ▶",
                                     last))
    return view


def _turn_of(actions: Sequence[Action]) -> int:
    parts = actions[0].data.split(":")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def files_for(message: Message) -> list[discord.File]:
    """The picture and the attached file of a message, as uploads; the picture carries its
    text alternative (the board and the last move in words, else the message's text) within
    Discord's limit for an attachment's description."""
    out = []
    if message.image:
        name = f"{message.kind}-{message.table}.png" if message.table else f"{message.kind}.png"
        alt = clip(message.alt or message.text, MAX_DESCRIPTION) or None
        out.append(discord.File(io.BytesIO(message.image), filename=name, description=alt))
    if message.file:
        out.append(discord.File(io.BytesIO(message.file[1]), filename=message.file[0]))
    return out


def chunks(text: str, size: int = MAX_CONTENT) -> list[str]:
    """Text cut into messages Discord accepts, at paragraph boundaries when possible."""
    return split_text(text, size)


def content_for(message: Message, limit: int | None = MAX_CONTENT) -> str:
    """The text of a message with its mentions, within Discord's 2000 characters (`limit`
    None: whole, for a text sent in several messages).  A mention shows the player's name:
    it takes the place of the name the text begins with (`Message.named`), so "<@55>, your
    turn." names them once."""
    mentions = " ".join(f"<@{u.split(':', 1)[1]}>" for u in message.mention
                        if u.startswith("discord:"))
    text = message.text
    if mentions and message.named and text.startswith(message.named):
        text = mentions + text[len(message.named):]
    elif mentions:
        text = f"{mentions} {text}"
    return text if limit is None or len(text) <= limit else text[:limit - 1] + "…"


def mentions_for(message: Message) -> discord.AllowedMentions:
    """Only the users the message names may be pinged (not those who turned pings off);
    never everyone or roles."""
    users = [discord.Object(int(u.split(":", 1)[1])) for u in message.mention
             if u.startswith("discord:") and u.split(":", 1)[1].isdigit()
             and u not in message.quiet]  # turned pings off: named, not pinged
    return discord.AllowedMentions(everyone=False, roles=False, users=users)
