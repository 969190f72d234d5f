"""What other bot processes on the same database change, heard at once (the PostgreSQL store's
LISTEN/NOTIFY: bot/storage/pg_notify.py).

`start(service)` (once per service; a store without `listen`, SQLite's one process, needs
none) subscribes to the store's notices:

* a table's change (its id, version and status): the web pages of that table in this process
  are sent its new state (`live.changed`, read under the table's lock, so the other process's
  commit is seen); a lobby this process holds (a player joined from another shard), a table
  that has left play, or a game just started elsewhere is re-read at once (under
  `shared.table_guard`), not at the next action or the next `adopt` (5 s);
* a tournament's saved state (a round opened or over, a player in): the next tick looks at
  the tournaments rather than within a second (a round's tables are lobbies until their
  players come: a process loads one when one of its players acts there).

The listening connection's state goes to `live.linked`: while it is down the web table
re-reads its watched tables every second, and once more when it is back.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import TYPE_CHECKING, Any

from ..storage import ACTIVE
from . import live
from .events import TournamentNoticed

if TYPE_CHECKING:
    from .host import Host

log = logging.getLogger("domino.service")
_started: weakref.WeakKeyDictionary[Any, set[asyncio.Task[None]]] = \
    weakref.WeakKeyDictionary()


def start(service: Host) -> None:
    """Hear the other processes' changes (idempotent; needs a running event loop)."""
    store = service.store
    if service in _started or not getattr(store, "shared", False) \
            or not hasattr(store, "listen"):
        return
    tasks: set[asyncio.Task[None]] = set()
    _started[service] = tasks
    ref = weakref.ref(service)

    def on_notice(notice: dict[str, Any]) -> None:
        svc = ref()
        if svc is not None:
            heard(svc, notice, tasks)

    def on_link(up: bool) -> None:
        svc = ref()
        if svc is not None:
            live.linked(svc, up)

    store.listen(on_notice, on_link)


def heard(service: Host, notice: dict[str, Any], tasks: set[asyncio.Task[None]]) -> None:
    """One notice from another process (see the module docstring)."""
    table_id, tournament = notice.get("table"), notice.get("tournament")
    if isinstance(tournament, int) and not isinstance(tournament, bool):
        told = asyncio.get_running_loop().create_task(  # the tournaments look again
            _told(service, TournamentNoticed(tournament)))
        tasks.add(told)
        told.add_done_callback(tasks.discard)
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        return
    live.changed(service, (table_id,))
    held = service.tables.get(table_id)
    status = notice.get("status")
    if held is not None:
        again = held.row.status == "lobby" or status not in ACTIVE
    else:
        again = status == "playing"
    if again:
        task = asyncio.get_running_loop().create_task(_reread(service, table_id))
        tasks.add(task)
        task.add_done_callback(tasks.discard)


async def _told(service: Host, event: TournamentNoticed) -> None:
    await service.events.publish(event)  # its subscribers' failures are logged there


async def _reread(service: Host, table_id: int) -> None:
    try:
        async with service._lock(table_id):  # shared.table_guard: the lock, then a re-read
            pass
    except Exception:
        log.exception("table %s: cannot be read again after another process's change",
                      table_id)
