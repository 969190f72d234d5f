"""The answer to the /web command of every chat (console, Discord, Telegram): the user's own
link to the table they sit at, privately (a spectator's link to a table they do not sit at;
a finished game's page, move by move).
The web table has no state of its own: the link is all."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import t
from ..service.messages import Message
from .links import links_of

if TYPE_CHECKING:
    from ..service.service import Service, User

FIND_AS = "leave"  # Service.find_table's command: a lobby or a game the user sits at


async def web_reply(service: Service, user: User, table: int | None, lang: str,
                    channel: str) -> list[Message]:
    """The private message holding the link (or why there is none).  A seated user gets
    their own link from anywhere; the spectators' link only from the table's own channel
    (the chat's scope rule: a table is not shown to another channel or server)."""
    links = links_of(service)
    if links is None:
        return [Message("", t(lang, "The web table is off (DOMINO_WEB=off)."), to=user.id,
                        kind="error")]
    if table is None:
        return [Message("", t(lang, "You sit at no table here; give its number, e.g. /web 1."),
                        to=user.id, kind="error")]
    live = service.tables.get(table)
    row = live.row if live is not None else await service.store.get_table(table)
    if row is None:
        return [Message("", t(lang, "There is no open table #{id}.", id=table), to=user.id,
                        kind="error")]
    seated = any(s.user_id == user.id and s.ai is None for s in row.seats)
    if row.status == "finished" and (seated or channel == row.channel):
        text = t(lang, "Game #{id}, move by move: {url}", id=table,
                 url=links.base_url + links.game_path(table))
    elif seated:
        text = t(lang, "Your link to table #{id}: {url}", id=table,
                 url=links.url(table, user.id))
    elif channel != row.channel:
        return [Message("", t(lang, "Table #{id} is not played here.", id=table), to=user.id,
                        kind="error")]
    else:
        text = t(lang, "The spectators' link to table #{id}: {url}", id=table,
                 url=links.url(table))
    return [Message(row.channel, text, to=user.id, kind="info", table=table)]


def miniapp_url(service: Service, table: int) -> str | None:
    """The Mini App's address for `table` (a `web_app` button), or None when the public base
    is not https (Telegram opens Mini Apps over https only) or the web table is off."""
    links = links_of(service)
    if links is None or not links.base_url.startswith("https://"):
        return None
    return f"{links.base_url}/tg?table={table}"


def table_url(service: Service, bot_username: str, table: int) -> str | None:
    """The address of a table message's "Web" button: in Telegram (`bot_username`), the Mini
    App's `startapp` link when its short name is set (each user opens their own seat), else
    the spectators' link; None when the web table is off or not served over https (Telegram
    wants https; a public table message on Discord too: a link to 127.0.0.1 helps nobody)."""
    links = links_of(service)
    if links is None or not links.base_url.startswith("https://"):
        return None
    if links.telegram_app and bot_username:
        startapp = links.compact(links.token(table))  # a spectator's grant, signed
        return f"https://t.me/{bot_username}/{links.telegram_app}?startapp={startapp}"
    return links.url(table)
