"""The service's limits: how long a name is shown, how many tables a user or a channel may
have open, when an idle lobby closes, how many workers draw pictures.

Every limit is a setting (bot/config.py: DOMINO_MAX_NAME, DOMINO_TABLES_PER_USER,
DOMINO_TABLES_PER_CHANNEL, DOMINO_SOLO_TABLES, DOMINO_LOBBY_TTL, DOMINO_SOLO_TTL,
DOMINO_PICTURE_WORKERS, DOMINO_WATCH, DOMINO_TOURNAMENTS, DOMINO_TOURNAMENT_ENTRANTS,
DOMINO_TOURNAMENT_REGISTRATION_TTL); `Limits()` holds the defaults.  The checks themselves
are small functions over the service's tables in memory (every lobby and game under way is
there).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TypeVar

from .tables import Table

ELLIPSIS = "…"
RECENT_USERS = 100_000  # users whose language the service keeps in memory (the latest ones)

K = TypeVar("K")
V = TypeVar("V")


class Recent(OrderedDict[K, V]):
    """A mapping that keeps its `size` most recently written keys (the oldest go first)."""

    def __init__(self, size: int = RECENT_USERS) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)

    def setdefault(self, key: K, default: V) -> V:  # type: ignore[override]
        if key not in self:
            self[key] = default
        return self[key]


@dataclass(frozen=True)
class Limits:
    """The service's bounds (0 for a count means "no limit")."""

    name: int = 32  # characters of a user's name, wherever it is shown
    tables_per_user: int = 10  # lobbies and games a user hosts at once
    tables_per_channel: int = 25  # lobbies and games of one channel at once
    solo_tables_per_user: int = 3  # games a user hosts with no other human
    lobby_ttl: float = 3600.0  # seconds a lobby waits without any change before it closes
    solo_ttl: float = 7 * 86400.0  # seconds a game with one human and no turn timer waits
    # for a move before it closes (a puzzle or a patience left for good)
    picture_workers: int = 2  # threads drawing pictures (0: drawn in the event loop)
    picture_processes: bool = False  # draw in worker processes instead of threads
    watch: float = 600.0  # seconds a channel counts as watched after a human acted there
    tournaments_per_scope: int = 3  # tournaments registering or running in a server at once
    tournament_entrants: int = 256  # players registered in one tournament
    # seconds a tournament with no start time takes registrations before it closes, unless
    # its organiser starts it (0: it waits for good)
    tournament_registration_ttl: float = 86400.0


class KeyLocks:
    """Locks of this process by key (a user, a channel), each dropped once nobody holds or
    waits for it: a limit's check and the write it guards are one step for the tasks of
    one process (the store makes them one step across processes: storage/queries.py `Cap`)."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


def clip(text: str, size: int) -> str:
    """`text` on one line, at most `size` characters (an ellipsis marks the cut)."""
    text = " ".join(str(text).split())
    if size <= 0 or len(text) <= size:
        return text
    return text[:max(size - 1, 0)] + ELLIPSIS


def active(tables: Iterable[Table]) -> list[Table]:
    return [tb for tb in tables if tb.row.status in ("lobby", "playing")]


def hosted(tables: Iterable[Table], user_id: str) -> list[Table]:
    """The lobbies and games under way that `user_id` hosts."""
    return [tb for tb in active(tables) if tb.row.host == user_id]


def solo(tables: Iterable[Table], user_id: str) -> list[Table]:
    """The tables `user_id` hosts with no other human seated (a game against computers)."""
    return [tb for tb in hosted(tables, user_id)
            if all(s.user_id in (None, user_id) for s in tb.humans())
            and not tb.open_seats()]


def idle_lobbies(tables: Iterable[Table], since: dict[int, float], now: float,
                 ttl: float) -> list[Table]:
    """Lobbies unchanged for `ttl` seconds (`since`: table id -> its last change)."""
    if ttl <= 0:
        return []
    return [tb for tb in tables if tb.row.status == "lobby"
            and now - since.get(tb.id, tb.row.created_at) >= ttl]


def idle_solo_games(tables: Iterable[Table], now: float, ttl: float) -> list[Table]:
    """Games with no human but their host, waiting with no turn timer, and no move for `ttl`
    seconds (`Table.active_at`; a table not seen yet starts its idle time now)."""
    if ttl <= 0:
        return []
    out = []
    for tb in tables:
        if tb.row.status != "playing" or tb.row.deadline is not None or tb.game is None:
            continue
        if not tb.humans() or any(s.user_id != tb.row.host for s in tb.humans()):
            continue
        if tb.active_at is None:
            tb.active_at = now
        elif now - tb.active_at >= ttl:
            out.append(tb)
    return out


class TableIndex(dict[int, Table]):
    """The service's tables by id, with the ids of each channel's tables kept alongside, so
    that a command without a table number looks at its channel's tables only."""

    def __init__(self) -> None:
        super().__init__()
        self.by_channel: dict[str, set[int]] = {}

    def __setitem__(self, key: int, table: Table) -> None:
        old = self.get(key)
        if old is not None:
            self._forget(key, old)
        super().__setitem__(key, table)
        self.by_channel.setdefault(table.row.channel, set()).add(key)

    def __delitem__(self, key: int) -> None:
        self._forget(key, self[key])
        super().__delitem__(key)

    def pop(self, key: int, *default: Table | None) -> Table | None:  # type: ignore[override]
        if key in self:
            self._forget(key, self[key])
        return super().pop(key, *default)

    def in_channel(self, channel: str) -> list[Table]:
        return [self[i] for i in self.by_channel.get(channel, ())]

    def _forget(self, key: int, table: Table) -> None:
        ids = self.by_channel.get(table.row.channel)
        if ids is not None:
            ids.discard(key)
            if not ids:
                del self.by_channel[table.row.channel]
