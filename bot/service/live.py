"""Live changes of tables, for adapters that show a table as it changes (the web table).

`listen(service, callback)` registers `callback(table_ids)`; the service calls `changed`
after every move (`Service._apply`, whoever made it: a player, a timer, a computer) and
`heard` for the messages every public method returns (`guard.door`: lobbies, starts, stops).
A callback must only note the ids and return (it runs under the table's lock); it reads the
table later with `read`, which takes the table's lock as the service does, and loads a table
no longer in memory (finished, stopped) from the store.

Several processes (the PostgreSQL store): bot/service/notify.py hears the changes the others
tell (LISTEN/NOTIFY) and calls `changed` for them too; `linked(service, up)` records whether
that listening connection is up, and `link_changed` waits until it goes down or comes back
(the web table re-reads its tables every second only while it is down, and once when it is
back: bot/web/server.py `_poll`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from core import DominoError

from ..storage import TableRow
from .tables import rebuild

if TYPE_CHECKING:
    from .host import Host
    from .messages import Message

log = logging.getLogger("domino.service")
Listener = Callable[[set[int]], None]
T = TypeVar("T")
_listeners: weakref.WeakKeyDictionary[Any, list[Listener]] = weakref.WeakKeyDictionary()
_links: weakref.WeakKeyDictionary[Any, asyncio.Event] = weakref.WeakKeyDictionary()
_up: weakref.WeakSet[Any] = weakref.WeakSet()


def listen(service: Host, callback: Listener) -> None:
    """Call `callback(table_ids)` whenever tables of `service` change."""
    _listeners.setdefault(service, []).append(callback)


def forget(service: Host, callback: Listener) -> None:
    listeners = _listeners.get(service, [])
    if callback in listeners:
        listeners.remove(callback)


def changed(service: Host, table_ids: Iterable[int | None]) -> None:
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


def heard(service: Host, messages: Iterable[Message]) -> None:
    """The tables the messages of a public method are about changed (or were shown)."""
    if _listeners.get(service):
        changed(service, (m.table for m in messages))


def linked(service: Host, up: bool) -> None:
    """The connection that hears the other processes' changes is up, or lost."""
    if up == (service in _up):
        return
    (_up.add if up else _up.discard)(service)
    event = _links.pop(service, None)
    if event is not None:
        event.set()


def listening(service: Host) -> bool:
    """Whether the other processes' changes are heard now."""
    return service in _up


async def link_changed(service: Host, timeout: float | None = None) -> bool:
    """Wait until the listening connection goes down or comes back (True), or `timeout`
    seconds (False)."""
    event = _links.get(service)
    if event is None:
        event = _links[service] = asyncio.Event()
    try:
        await asyncio.wait_for(event.wait(), timeout)
    except TimeoutError:
        return False
    return True


async def read(service: Host, table_id: int,
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
