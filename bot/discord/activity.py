"""The Discord Activity's ways in from the bot (issue 39; the page is bot/web/activity.py):
a "Play in Discord" button under a table message, answered with the LAUNCH_ACTIVITY
interaction response (discord.py's `InteractionResponse.launch_activity`), and the
application's Entry Point command (type PRIMARY_ENTRY_POINT, handler DISCORD_LAUNCH_ACTIVITY:
Discord launches the Activity itself), registered with the other commands.

Both exist only when the Activity is set up (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET, with
the web table running: `activity_of`).  discord.py does not model the Entry Point command,
so the global sync is the same bulk overwrite its `CommandTree.sync` sends, with the Entry
Point command added: Discord refuses a bulk overwrite that leaves out an existing Entry
Point command, and one sync neither deletes nor duplicates it.  With a test guild the slash
commands go to the guild and the Entry Point command (global only) is created or updated on
its own (`POST`, which keeps the other global commands).
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from ..i18n import lang_for, t
from ..web.activity import activity_of


class DominoClient(Protocol):
    """What `sync` uses of the client (bot/discord/client.py), typed here rather than
    imported: the client imports this module (no circle, issue 38)."""

    tree: Any
    service: Any
    test_guild: int | None
    http: Any
    application_id: int | None

log = logging.getLogger("domino.discord")

ACTIVITY_PREFIX = "domact:"
PRIMARY_ENTRY_POINT = 4  # application command type
DISCORD_LAUNCH_ACTIVITY = 2  # entry point handler: Discord launches the Activity
ENTRY_POINT_NAME = "launch"


class ActivityButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"domact:(?P<table>[0-9]{1,19})"):
    """"Play in Discord": opens the Activity in the channel (its table is the channel's)."""

    def __init__(self, table: int, label: str = "Play in Discord") -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.primary,
                                           custom_id=f"{ACTIVITY_PREFIX}{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> ActivityButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await launch(interaction)


def label_for(service: Any, table: int) -> str | None:
    """The "Play in Discord" button's label for `table`'s message, in the table's language;
    None when the Activity is not set up (no button)."""
    if activity_of(service) is None:
        return None
    held = service.tables.get(table)
    return t(getattr(held, "lang", None) or service.default_lang, "Play in Discord")


async def launch(ix: discord.Interaction) -> None:
    """The button's answer: LAUNCH_ACTIVITY, Discord's first and only response (no defer).
    Where Discord refuses it (Activities not enabled), the user is told, only them."""
    try:
        await ix.response.launch_activity()
    except discord.HTTPException as exc:
        log.warning("the Activity could not be launched (HTTP %s)", exc.status)
        if not ix.response.is_done():
            lang = lang_for(str(ix.locale.value))
            await ix.response.send_message(t(lang, "The Discord Activity cannot be opened "
                                             "here; use the Web button."), ephemeral=True)


def entry_point() -> dict[str, Any]:
    """The Entry Point command, as Discord's API takes it."""
    return {"name": ENTRY_POINT_NAME, "type": PRIMARY_ENTRY_POINT,
            "handler": DISCORD_LAUNCH_ACTIVITY,
            "description": "Play dominoes with the people of this channel",
            "description_localizations": {"fr": "Jouer aux dominos avec ce salon"},
            "integration_types": [0, 1], "contexts": [0, 1, 2]}


async def sync(client: DominoClient) -> None:
    """Register the commands: the tree's, plus the Entry Point command when the Activity is
    set up (see the module's docstring)."""
    tree = client.tree
    entry = entry_point() if activity_of(client.service) is not None else None
    if client.test_guild:
        guild = discord.Object(client.test_guild)
        tree.copy_global_to(guild=guild)
        await tree.sync(guild=guild)
        if entry is not None:
            await client.http.upsert_global_command(client.application_id, entry)  # type: ignore[arg-type]
        return
    if entry is None:
        await tree.sync()
        return
    translator = tree.translator
    payload = [await c.get_translated_payload(tree, translator) if translator
               else c.to_dict(tree) for c in tree.get_commands()]
    await client.http.bulk_upsert_global_commands(client.application_id,  # type: ignore[arg-type]
                                                  payload=[*payload, entry])
