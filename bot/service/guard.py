"""The service's door: where a command comes from, who may act on a table from there, strict
numbers, and the guard that turns any unexpected error into a logged line and a polite reply.

Where a command comes from
    Adapters pass ``where=Where(channel, scope, private)`` to every service command and press:
    the channel the command was typed in or the button pressed under, its server or group,
    and whether it is the user's own private chat with the bot.  A table belongs to its
    channel: a command on it is refused, with nothing changed, unless it comes from that
    channel or, for a user seated at the table, from that user's private chat (where hands
    go).  Without `where` (internal calls, scripts and tests that drive the service
    directly) nothing is checked: every adapter passes it.

The door
    `door` wraps each public service method.  It cuts the user's name to the limit, refuses
    table numbers that are not numbers the store can hold, checks `where`, and catches what
    the method lets escape: a storage error (disk full, read-only file) becomes "the bot
    cannot save right now" (the table is reloaded from the store, so memory and disk agree);
    anything else becomes "something went wrong".  Both are logged with the exception's type
    and the place only: no message text, which may hold a player's tiles.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from .. import health
from ..i18n import lang_for, t
from ..storage import TableRow
from . import live, outbox
from .limits import clip
from .messages import Message, parse_action
from .numbers import number as number  # re-exported: the door's reading of numbers
from .numbers import table_number
from .origin import ORIGIN as ORIGIN  # re-exported: adapters and tests read them here
from .origin import Where as Where

if TYPE_CHECKING:
    from .host import Host
    from .state import User

log = logging.getLogger("domino.service")

STORAGE_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
SEATED_VERBS = frozenset("lsrhqpedxam")  # what a seated user may press from a private chat

F = TypeVar("F", bound=Callable[..., Awaitable[list[Message]]])

def seated(row: TableRow, user_id: str) -> bool:
    return any(s.user_id == user_id and s.ai is None for s in row.seats)


def may_act(row: TableRow, user_id: str, where: Where | None) -> bool:
    """May `user_id`, from `where`, act on the table `row`?  From the table's channel, yes;
    from the user's own private chat, only when seated there; from anywhere else, no."""
    if where is None:
        return True
    if where.channel == row.channel:
        return True
    return where.private and seated(row, user_id)


def lang_of(service: Host, user: User) -> str:
    return lang_for(user.locale, service._langs.get(user.id, service.default_lang))


def quiet_trace(exc: BaseException) -> str:
    """Where an exception was raised, without its message (which may hold private text)."""
    frames = traceback.extract_tb(exc.__traceback__)[-6:]
    places = " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} {f.name}"
                         for f in reversed(frames))
    return f"{type(exc).__name__} at {places}"


def door(kind: str = "other", *, table: bool = False) -> Callable[[F], F]:
    """Guard a public service method.  `kind`: "move" (a move may be lost: say so), "open"
    or "other".  `table`: the method's second argument is a table number."""

    def wrap(method: F) -> F:
        @functools.wraps(method)
        async def guarded(self: Host, user: User, *args: Any, where: Where | None = None,
                          **kwargs: Any) -> list[Message]:
            if (entry := health.enter(self)) is None:  # the bot stops (bot/health.py)
                return health.refusal(lang_of(self, user), user.id)
            user = replace(user, name=clip(user.name, self.limits.name) or user.id[-12:])
            if where is None:  # a call made by another door's method: checked as it was
                where = ORIGIN.get()
            elif ORIGIN.get() is None:
                self._seen_in(where.channel)
            token = ORIGIN.set(where)
            table_id = args[0] if table and args else None
            try:
                if table:
                    checked = await _check_table(self, user, table_id, where)
                    if isinstance(checked, list):
                        return checked
                    args = (checked, *args[1:])
                    table_id = checked
                elif method.__name__ == "press":
                    table_id = pressed_table(args[0] if args else "")
                    refused = await _check_press(self, user, table_id, where)
                    if refused:
                        return refused
                out = await method(self, user, *args, **kwargs)
            except STORAGE_ERRORS as exc:
                log.error("%s: cannot write to the database: %s", method.__name__,
                          quiet_trace(exc))
                if isinstance(table_id, int):
                    await self._reload(table_id)
                lang = lang_of(self, user)
                text = (t(lang, "The bot cannot save right now; your move was not played.")
                        if kind == "move" else
                        t(lang, "The bot cannot save right now; nothing was changed. Please "
                          "try again later."))
                return [Message("", text, to=user.id, kind="error")]
            except Exception as exc:
                log.error("%s failed: %s", method.__name__, quiet_trace(exc))
                lang = lang_of(self, user)
                return [Message("", t(lang, "Something went wrong; nothing was changed. "
                                      "Please try again."), to=user.id, kind="error")]
            finally:
                ORIGIN.reset(token)
                health.leave(self, user.id, entry)  # counted and timed (bot/health.py)
            for m in out:  # a human made something appear there: the channel is watched
                if m.to is None and m.channel:
                    self._seen_in(m.channel)
            live.heard(self, out)  # the web table learns what changed (live.py)
            drawn = await self._drawn(out)
            await outbox.handed(self, drawn)  # handed to the adapter that asked (outbox.py)
            return drawn

        return guarded  # type: ignore[return-value]

    return wrap


async def _check_table(service: Host, user: User, table_id: Any, where: Where | None
                       ) -> int | list[Message]:
    """The table number, or the refusal: not a number, or not to be touched from here."""
    n = table_number(table_id)
    if n is None:
        lang = lang_of(service, user)
        return [Message("", t(lang, "There is no open table #{id}.", id=clip(str(table_id), 20)),
                        to=user.id, kind="error")]
    if where is not None:
        row = await service._table_row(n)
        if row is not None and not may_act(row, user.id, where):
            lang = lang_of(service, user)
            return [Message("", t(lang, "Table #{id} is not played here.", id=n), to=user.id,
                            kind="error", table=None)]
    return n


def pressed_table(data: Any) -> int | None:
    """The table a button's data names (None for malformed data, or for a button of no table
    such as a rules page's "0:0:u:..."): read by `parse_action`, the one reading of a press."""
    try:
        return parse_action(data)[0] or None
    except ValueError:
        return None


async def _check_press(service: Host, user: User, table_id: int | None, where: Where | None
                       ) -> list[Message]:
    """A refusal for a button of a table of another channel (a forged or a stale one)."""
    if where is None or table_id is None:
        return []  # malformed or no table: `press` says so, or needs no table
    refused = await _check_table(service, user, table_id, where)
    return refused if isinstance(refused, list) else []
