"""The table service as its clients see it (issue 38): the door tournaments go through.

Tournaments (bot/tournament/) are a client of the table service: they open their tables as
lobbies with kept seats, hear of finished games, leavers and ticks by events
(bot/service/events.py), and keep their own state and storage.  `Desk` is all they use of
the service: the store, the clock, the random numbers, the limits, the tables in memory and
their locks, a table's stored row, closing a table, a table's messages and pictures, a
user's language, a private error, and the outbox's rows.  It holds the service's state and
its results part (a table closed) and calls nothing above them; the facade (service.py)
makes one and hands it to the tournaments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..storage import Store, TableRow
from . import outbox
from .events import EventBus
from .limits import Limits
from .messages import Message
from .pictures import Pictures
from .results import Results
from .state import State, User
from .tables import Table


class Desk:
    """What a client of the table service may use (every name public)."""

    def __init__(self, service: State, results: Results) -> None:
        self._service = service
        self._results = results

    # -- what the service holds ----------------------------------------------------------------

    @property
    def store(self) -> Store:
        return self._service.store

    @property
    def clock(self) -> Callable[[], float]:
        return self._service.clock

    @property
    def rng(self) -> Any:
        return self._service.rng

    @property
    def limits(self) -> Limits:
        return self._service.limits

    @property
    def default_timer(self) -> int | None:
        return self._service.default_timer

    @property
    def tables(self) -> dict[int, Table]:
        """The tables in memory (lobbies and games under way), by id: read only."""
        return self._service.tables

    @property
    def events(self) -> EventBus:
        return self._service.events

    # -- what it does for a client -------------------------------------------------------------

    def lock(self, table_id: int) -> Any:
        """The table's lock (`async with`)."""
        return self._service._lock(table_id)

    async def table_row(self, table_id: int) -> TableRow | None:
        return await self._service._table_row(table_id)

    def lobby_opened(self, table: Table) -> None:
        """A lobby the client stored (`store.create_table`) is served from now on."""
        self._service.tables[table.id] = table
        self._service._changed[table.id] = self._service.clock()

    async def close(self, table: Table, text: str) -> list[Message]:
        """Stop a table with a public message (the caller holds its lock)."""
        return await self._results._close(table, text)

    def table_messages(self, table: Table) -> list[Message]:
        return self._service._table_messages(table)

    async def drawn(self, messages: list[Message]) -> list[Message]:
        """The messages with their pictures drawn."""
        return await self._service._drawn(messages)

    def pictures_for(self, lang: str) -> Pictures:
        """Pictures drawn later, with the other messages' (`drawn`), in `lang`."""
        return self._service._pool.deferred().for_lang(lang)

    async def lang(self, user: User, scope: str | None = None) -> str:
        """The language of `user`'s private messages (learnt from them)."""
        return await self._service._lang(user, scope)

    def error(self, user: User, text: str) -> list[Message]:
        """A private error for `user`."""
        return self._service._error(user, text)

    def too_long(self, user: User, *values: Any) -> list[Message]:
        """A refusal when a value is over the limit of a text ([] when none is)."""
        return self._service._too_long(user, *values)

    def outbox_rows(self, messages: Sequence[Message]) -> list[tuple[str, str, float, str]]:
        """The store's outbox rows of keyed messages (outbox.py)."""
        return outbox.rows(self._service, messages)
