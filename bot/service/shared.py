"""Tables shared by several bot processes on one database (the PostgreSQL store).

The service acts on a table only under `table_guard`: the store's lock on the table (a
database lock that every process honours), then `refresh`. When nobody wrote the table since
this process last let it go (`store.current`, known from the lock itself), the copy in memory
is used as it is; else `refresh` re-reads the table and, when another process has moved it
on (its move log is longer than the game in memory, or its row changed), rebuilds it from the
log. An action that fails under the lock has the store forget the table's version, so that
the next one re-reads it. A press stamped with an older turn is then
refused by the service's usual turn check, so each move is applied once, whichever process
receives it.

Ticks take a table with `tick_guard` instead: when another process holds the table, this one
skips it (the other fires the computer move or the timer, and this one sees the result at its
next refresh). `adopt` lets a process take up the tables other processes opened, so that
their computer moves and timers keep firing when the process that opened them is gone; it
also starts hearing the other processes' changes at once (notify.py: a lobby joined, a game
or a tournament's round opened elsewhere is re-read when told, not at the next look).

Computer players are made afresh at every action (their random tie-breaks restart from the
table's seed), so that an action gives the same moves in whichever process runs it.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from ..storage import ACTIVE, TableRow
from . import notify
from . import seats as seating
from .tables import Table, rebuild

if TYPE_CHECKING:
    from .host import Host

SERVICE = seating.NOTES  # the "platform" of the service's notes on a table (adapter_state)

ADOPT_EVERY = 5.0  # seconds between two looks for tables opened by other processes
STOP_VOTES = "stop_votes"  # the service's note of the players who asked to stop a table


@asynccontextmanager
async def table_guard(service: Host, table_id: int) -> AsyncIterator[None]:
    """Hold the table (waiting for other processes) with an up-to-date copy in memory."""
    async with service.store.table_lock(table_id):
        await refresh(service, table_id)
        await service._recheck_pings(table_id)  # a choice another process took
        try:
            yield
        except BaseException:
            service.store.forget(table_id)
            raise


@asynccontextmanager
async def tick_guard(service: Host, table_id: int) -> AsyncIterator[bool]:
    """Hold the table if no other process does (True, with an up-to-date copy), else False."""
    async with service.store.try_table_lock(table_id) as held:
        if held:
            await refresh(service, table_id)
            await service._recheck_pings(table_id)
        try:
            yield held
        except BaseException:
            service.store.forget(table_id)
            raise


async def refreshed(service: Host, table_id: int) -> None:
    """Bring the table up to date under its lock, for a reader (a hand, the ends to choose)."""
    async with table_guard(service, table_id):
        pass


async def refresh(service: Host, table_id: int) -> None:
    """Bring `service.tables[table_id]` to what the database holds (caller holds the lock)."""
    store = service.store
    held = service.tables.get(table_id)
    if held is not None and store.current(table_id):
        held.bots.clear()
        return
    row, logged = await store.table_state(table_id)
    if row is None or row.status not in ACTIVE:
        service.tables.pop(table_id, None)
        return
    if held is not None and _same(held.row, row) and (row.status == "lobby" or (
            held.game is not None and logged == len(held.game.moves))):
        held.row.deadline, held.row.warned = row.deadline, row.warned
        held.bots.clear()
        return
    table = load(row, await store.moves(table_id) if row.status == "playing" else [])
    await seating.load(store, table)  # who left, the seats a rematch keeps
    if row.status == "lobby" and table_id not in service._invited:
        invited = await store.adapter_get(table_id, SERVICE, "invited")
        if invited:  # a lobby another process opened for invited players only
            service._invited[table_id] = frozenset(json.loads(invited))
    if held is not None:
        table.stop_votes = held.stop_votes
        if table.game is not None and table.ai_due is not None and held.ai_due is not None:
            table.ai_due = held.ai_due
    if table.ai_due is not None:
        table.ai_due = max(table.ai_due, service.clock() + service.ai_delay)
    service.tables[table_id] = table


def load(row: TableRow, moves: list[str]) -> Table:
    """A table from its row and move log; a computer to move is due."""
    table = Table(row)
    if row.status == "playing":
        table.game = rebuild(row, moves)
        if not table.game.over and table.is_ai(table.game.to_move):
            table.ai_due = 0.0
    return table


def _same(held: TableRow, row: TableRow) -> bool:
    """The table in memory is the stored one but for its deadline and warning."""
    return (held.status, held.host, held.seats) == (row.status, row.host, row.seats)


async def adopt(service: Host) -> None:
    """Take up the games under way that other processes opened (at most every ADOPT_EVERY;
    those opened while this process listens are taken up when told: notify.py)."""
    notify.start(service)
    now = service.clock()
    if now < getattr(service, "_adopted_at", float("-inf")) + ADOPT_EVERY:
        return
    service._adopted_at = now  # type: ignore[attr-defined]
    for row in await service.store.tables(("playing",)):
        if row.id not in service.tables:
            async with table_guard(service, row.id):
                pass  # refresh loads it


async def vote_stop(service: Host, table: Table, user_id: str) -> None:
    """Count `user_id`'s wish to stop the table with the wishes stored by every process
    (caller holds the table's lock), and store them all: a vote taken by one process counts
    when the next one reaches another."""
    store = service.store
    stored = await store.adapter_get(table.id, SERVICE, STOP_VOTES)
    if stored:
        table.stop_votes |= set(json.loads(stored))
    table.stop_votes.add(user_id)
    await store.adapter_set(table.id, SERVICE, STOP_VOTES, json.dumps(sorted(table.stop_votes)))
