"""Live changes of tables, for adapters that show a table as it changes (the web table).

`listen(service, callback)` registers `callback(table_ids)`; the service calls `changed`
after every move (`Service._apply`, whoever made it: a player, a timer, a computer) and
`heard` for the messages every public method returns (`guard.door`: lobbies, starts, stops).
A callback must only note the ids and return (it runs under the table's lock); it reads the
table later with `read`, which takes the table's lock as the service does, and loads a table
no longer in memory (finished, stopped) from the store.  Same process only.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from core import DominoError

from ..storage import TableRow
from .tables import rebuild

if TYPE_CHECKING:
    from .messages import Message
    from .service import Service

log = logging.getLogger("domino.service")
Listener = Callable[[set[int]], None]
T = TypeVar("T")
_listeners: weakref.WeakKeyDictionary[Any, list[Listener]] = weakref.WeakKeyDictionary()


def listen(service: Service, callback: Listener) -> None:
    """Call `callback(table_ids)` whenever tables of `service` change."""
    _listeners.setdefault(service, []).append(callback)


def forget(service: Service, callback: Listener) -> None:
    listeners = _listeners.get(service, [])
    if callback in listeners:
        listeners.remove(callback)


def changed(service: Service, table_ids: Iterable[int | None]) -> None:
    """Tell the listeners that these tables changed (never raises into the service)."""
    listeners = _listeners.get(service)
    if not listeners:
        return
    ids = {i for i in table_ids if isinstance(i, int)}
    if not ids:
        return
    for callback in list(listeners):
        try:
            callback(ids)
        except Exception:
            log.exception("a table listener failed")


def heard(service: Service, messages: Iterable[Message]) -> None:
    """The tables the messages of a public method are about changed (or were shown)."""
    if _listeners.get(service):
        changed(service, (m.table for m in messages))


async def read(service: Service, table_id: int,
               look: Callable[[TableRow, Any], T]) -> T | None:
    """`look(row, game)` on the table as the service holds it, under its lock (`game` is None
    for a lobby); a table not in memory is loaded from the store (its game rebuilt from the
    stored moves).  None when there is no such table."""
    async with service._lock(table_id):
        table = service.tables.get(table_id)
        if table is not None:
            return look(table.row, table.game)
        row = await service.store.get_table(table_id)
        if row is None:
            return None
        game = None
        moves = await service.store.moves(table_id)
        if row.status in ("playing", "finished") or moves:
            try:
                game = rebuild(row, moves)
            except DominoError:
                log.error("table %s: cannot be rebuilt for the web", table_id)
        return look(row, game)
