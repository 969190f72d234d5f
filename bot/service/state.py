"""The service's shared state and the small helpers every part uses.

`State` holds what the parts of the service share: the store, the tables in memory and their
locks, the users' languages, the limits, the picture pool, the clock and the random numbers;
and the helpers every part calls: a table's lock, a lobby's idle time, a user's language and
a private error, the public table message and the private hands, a turn's deadline.  It
imports no part: the parts (results, play, clock, lobby, opening; see bot/service/
__init__.py) each hold it, and the facade is one.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.moves import Move

from ..i18n import lang_for, t
from ..storage import Store, TableRow
from . import assist, families, pings, texts
from .events import EventBus
from .limits import Limits, Recent, TableIndex
from .messages import Message
from .pictures import NoPictures, PicturePool, Pictures
from .shared import table_guard
from .tables import Table, rebuild

log = logging.getLogger("domino.service")

MAX_TEXT = 2000
COMPUTER = "greedy"
SERVICE = "service"  # the "platform" under which the service keeps per-table notes
LOBBY_CHANGED = "lobby_changed"  # the note of when a lobby last changed (its idle time)
PINGS_FRESH = 2.0  # seconds a pings choice read from a shared store is trusted (pings.py)


@dataclass(frozen=True, slots=True)
class User:
    """Who acts: a platform-prefixed id ("discord:123"), a display name, a locale."""

    id: str
    name: str
    locale: str | None = None


def missing_row(table_id: int) -> TableRow:
    return TableRow(id=table_id, channel="", scope="", host="", variant="classic", options={},
                    players=0, timer=None, status="missing", seed=0, lang="en", created_at=0.0)


class State:
    """What every part of the service shares, and the helpers they all use."""

    def __init__(
        self,
        store: Store,
        *,
        pictures: Pictures | None = None,
        ai_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        default_lang: str = "en",
        default_timer: int | None = 180,
        miss_limit: int = 3,
        warn_before: float = 30.0,
        seed: int | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.pictures = pictures or Pictures()
        self.ai_delay = ai_delay
        self.clock = clock
        self.default_lang = default_lang
        self.default_timer = default_timer
        self.miss_limit = miss_limit
        self.warn_before = warn_before
        self.limits = limits or Limits()
        self.tables: dict[int, Table] = TableIndex()
        # a lock lives while a call holds it or waits for it: no entry per number ever named
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self._changed: dict[int, float] = {}  # lobby id -> when it last changed (expiry)
        # table id -> its tick under way (a computer thinking), collected by a later tick
        self._ticking: dict[int, asyncio.Task[list[Message]]] = {}
        self._watched: dict[str, float] = {}  # channel -> when a human last acted there
        self._invited: dict[int, frozenset[str]] = {}  # lobby id -> who may join (if limited)
        self._pool = PicturePool(self.pictures, self.limits.picture_workers,
                                 self.limits.picture_processes)
        # user id -> language of their private messages (the latest users only: a user not
        # kept reads the table's language until they act again)
        self._langs: Recent[str, str] = Recent()
        self._quiet: set[str] = set()  # users who turned turn pings off (bot/service/pings.py)
        self._pings_read: dict[str, float] = {}  # user id -> when their choice was read
        self.rng = random.Random(seed)
        self.events = EventBus()  # what happened, to whoever listens (events.py)

    async def _lobby_changed(self, row: TableRow) -> float:
        """When a stored lobby last changed (its creation, if no change was noted)."""
        note = await self.store.adapter_get(row.id, SERVICE, LOBBY_CHANGED)
        try:
            return max(row.created_at, float(note)) if note else row.created_at
        except ValueError:
            return row.created_at

    async def _touch(self, table_id: int) -> None:
        """A lobby changed: its idle time starts again, here and after a restart (the time is
        kept with the table, so that a restart counts from the last change, not from the
        lobby's creation)."""
        now = self._changed[table_id] = self.clock()
        await self.store.adapter_set(table_id, SERVICE, LOBBY_CHANGED, repr(now))

    def _lock(self, table_id: int) -> Any:
        if self.store.shared:  # several processes: a database lock, and a fresh copy
            return table_guard(self, table_id)
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _drawn(self, messages: list[Message]) -> list[Message]:
        """The messages with their pictures drawn (in the worker pool)."""
        return await self._pool.draw(messages)

    def _seen_in(self, channel: str) -> None:
        """A human acted in `channel`: its tables' pictures are worth drawing for a while."""
        self._watched.pop(channel, None)
        self._watched[channel] = self.clock()
        while len(self._watched) > 10_000:  # the oldest first (insertion order)
            del self._watched[next(iter(self._watched))]

    def _unseen(self, table: Table) -> bool:
        """No human sits at the table and nobody acted in its channel lately."""
        if table.humans():
            return False
        seen = self._watched.get(table.row.channel)
        return seen is None or self.clock() - seen > self.limits.watch

    def _pictures_for(self, table: Table) -> Pictures:
        """Pictures for a table's messages: none when nobody will see them (`_unseen`),
        else drawn in the worker pool."""
        return NoPictures() if self._unseen(table) else self._pool.deferred()

    async def _reload(self, table_id: int) -> None:
        """After a failed write: the table in memory as the store has it (or as it was, if
        the store cannot be read either)."""
        async with self._lock(table_id):
            table = self.tables.get(table_id)
            try:
                row = await self.store.get_table(table_id)
                if row is None or row.status not in ("lobby", "playing"):
                    return
                fresh = Table(row)
                if row.status == "playing":
                    fresh.game = rebuild(row, await self.store.moves(table_id))
                    if not fresh.game.over and fresh.is_ai(fresh.game.to_move):
                        fresh.ai_due = self.clock() + self.ai_delay
                if table is not None:
                    fresh.stop_votes = table.stop_votes
                self.tables[table_id] = fresh
            except Exception:
                log.error("table %s: cannot be reloaded after a failed write", table_id)

    async def _lang(self, user: User, scope: str | None = None) -> str:
        """The language of `user`'s private messages (remembered for later messages)."""
        default = await self.store.get_setting(scope, "lang") if scope else None
        lang = lang_for(user.locale, default or self._langs.get(user.id) or self.default_lang)
        self._langs[user.id] = lang
        return lang

    def _user_lang(self, user_id: str | None, table: Table) -> str:
        return self._langs.get(user_id or "", table.lang)

    def _error(self, user: User, text: str, table: Table | None = None) -> list[Message]:
        """A private error message for `user`."""
        channel = table.row.channel if table else ""
        return [Message(channel, text, to=user.id, kind="error",
                        table=table.id if table else None)]

    def _too_long(self, user: User, *values: Any) -> list[Message]:
        """An error when a text is over MAX_TEXT characters, else nothing."""
        if any(isinstance(v, str) and len(v) > MAX_TEXT for v in values):
            lang = lang_for(user.locale, self._langs.get(user.id, self.default_lang))
            return self._error(user, t(lang, "That text is too long (at most {n} characters).",
                                       n=MAX_TEXT))
        return []

    async def _table_row(self, table_id: int) -> TableRow | None:
        """The table's row: as this process holds it (in play), else as stored (finished,
        stopped, or another process's), None when there is no such table."""
        live = self.tables.get(table_id)
        return live.row if live is not None else await self.store.get_table(table_id)

    async def _no_table(self, user: User, table_id: int) -> list[Message]:
        lang = await self._lang(user)
        row = await self.store.get_table(table_id)
        if row is not None and row.status == "finished":  # an old button of a finished game
            return self._error(user, t(lang, "Game #{id} is over.", id=table_id))
        return self._error(user, t(lang, "There is no open table #{id}.", id=table_id))

    def _t(self, user: User, table: Table, text: str, **values: Any) -> str:
        """`text` in the language of `user` (a player or a passer-by) at `table`."""
        return t(self._lang_at(user, table), text, **values)

    def _lang_at(self, user: User, table: Table) -> str:
        """The language of `user` (a player or a passer-by) at `table`."""
        return lang_for(user.locale, self._langs.get(user.id, table.lang))

    # -- what players see, and the turn's deadline ---------------------------------------------

    def _hand_messages(self, table: Table, seat: int) -> list[Message]:
        """The private hand message of a human seat (none for a computer or after the end)."""
        user = table.row.seats[seat].user_id
        lang = self._user_lang(user, table)
        message = texts.hand_message(table, seat, lang, self._pictures_for(table))
        if message:
            message = assist.with_hint_button(table, seat, message, lang)
        return pings.hush([message], self._quiet) if message else []

    async def _know_pings(self, user_id: str | None) -> None:
        """Load a user's turn pings choice (a user seated at a table, or after a restart)."""
        if not user_id:
            return
        on = await pings.enabled(self.store, user_id)
        (self._quiet.discard if on else self._quiet.add)(user_id)
        self._pings_read[user_id] = self.clock()

    async def _recheck_pings(self, table_id: int) -> None:
        """Several processes on one database (bot/service/shared.py): another may have
        changed the choice of a player of the table; read again those read more than
        PINGS_FRESH seconds ago."""
        table = self.tables.get(table_id)
        if table is None:
            return
        now = self.clock()
        for s in table.humans():
            if s.user_id and now - self._pings_read.get(s.user_id, float("-inf")) >= \
                    PINGS_FRESH:
                await self._know_pings(s.user_id)

    def _table_messages(self, table: Table, *, prompt: bool = False, hands: bool = False,
                        mover: int | None = None, move: Move | None = None) -> list[Message]:
        """The public table message (from the public view only); with `prompt`, the turn
        prompt of the player to move; with `hands`, every human seat's private hand."""
        game = table.game
        if mover is not None and game is not None and not game.over and self._unseen(table):
            return []  # a computer's move at a table nobody watches: shown when someone does
        out = texts.table_messages(table, self._pictures_for(table), prompt=prompt,
                                   mover=mover, move=move)
        if hands and table.game is not None:
            for s in table.humans():
                out += self._hand_messages(table, s.seat)
        return pings.hush(out, self._quiet)

    def _deadline(self, table: Table) -> float | None:
        game = table.game
        if (not table.row.timer or game is None or game.over or table.is_ai(game.to_move)
                or families.untimed(table)):
            return None
        return self.clock() + table.row.timer
