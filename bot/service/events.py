"""What happened at the tables, announced to whoever listens (issue 38): the event bus.

The table service says what happened; the parts that care subscribe instead of overriding
the service's methods (tournaments hear of a finished game, a player who left, a tick; see
bot/tournament/rounds.py).  Each event is a small frozen dataclass:

* `Started`: the service starts (before its tables are reloaded);
* `TableOpened`: a lobby is open (a new table or a rematch);
* `MovePlayed`: a move is committed at a table;
* `GameFinished`: a game's result is stored (the result: `table.row.result`);
* `SeatLeft`: a player left a game under way (a computer took the seat);
* `LobbyClosed`: a table was stopped (a lobby closed idle, a game stopped);
* `TickRan`: the tables' tick ran (its computer moves and timers are done);
* `TournamentNoticed`: another process changed a tournament (bot/service/notify.py).

A subscriber is an async callable of the event; what it returns (messages, or None) is
added to what the service says where the event is published from a call that says
something (a start, a tick, a table opened or closed, a move, a leaver); a game's end is
published inside the move that ends it, and another process's news from no call: their
subscribers record (a tournament's result) and say nothing.  A subscriber that raises is
logged (its type and place only: no message text) and the others still run: the messages
already made are not lost.
The bus stands on nothing of the service but its messages.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from .messages import Message

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("domino.service")


@dataclass(frozen=True, slots=True)
class Started:
    """The service starts: `alone` when no other process serves the same database."""

    alone: bool


@dataclass(frozen=True, slots=True)
class TableOpened:
    table: Table


@dataclass(frozen=True, slots=True)
class MovePlayed:
    table: Table


@dataclass(frozen=True, slots=True)
class GameFinished:
    """A game's result is stored (`table.row.result`); `table.leavers` left it."""

    table: Table


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """`user_id` (named `name`) left the game under way at `table`; the caller holds its
    lock."""

    user_id: str
    name: str
    table: Table


@dataclass(frozen=True, slots=True)
class LobbyClosed:
    table: Table


@dataclass(frozen=True, slots=True)
class TournamentNoticed:
    """Another process changed tournament `tournament_id` (bot/service/notify.py)."""

    tournament_id: int


@dataclass(frozen=True, slots=True)
class TickRan:
    """The tables' tick ran at `now` (the service's clock)."""

    now: float


Event = (Started | TableOpened | MovePlayed | GameFinished | SeatLeft | LobbyClosed | TickRan
         | TournamentNoticed)
E = TypeVar("E")
Subscriber = Callable[[Any], Awaitable[list[Message] | None]]


def _where(exc: BaseException) -> str:
    """Where an exception was raised, without its message (which may hold private text)."""
    frames = traceback.extract_tb(exc.__traceback__)[-4:]
    return " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} {f.name}"
                       for f in reversed(frames))


class EventBus:
    """Subscribers by event type, called in the order they subscribed."""

    def __init__(self) -> None:
        self._subscribers: dict[type, list[Subscriber]] = {}

    def subscribe(self, kind: type[E], subscriber: Callable[[E], Awaitable[Any]],
                  first: bool = False) -> None:
        """Call `subscriber(event)` on every event of type `kind` (after those subscribed
        before it; `first`: before them)."""
        subscribers = self._subscribers.setdefault(kind, [])
        subscribers.insert(0, subscriber) if first else subscribers.append(subscriber)

    def unsubscribe(self, kind: type, subscriber: Callable[..., Awaitable[Any]]) -> None:
        subscribers = self._subscribers.get(kind, [])
        if subscriber in subscribers:
            subscribers.remove(subscriber)

    def listens(self, kind: type) -> bool:
        """Whether anybody subscribed to `kind` (an event nobody hears is not made)."""
        return bool(self._subscribers.get(kind))

    async def publish(self, event: Event) -> list[Message]:
        """Tell every subscriber of the event's type; the messages they return, in their
        order.  One that raises is logged and skipped: the others still run."""
        out: list[Message] = []
        for subscriber in tuple(self._subscribers.get(type(event), ())):
            try:
                said = await subscriber(event)
            except Exception as exc:
                log.error("event %s: subscriber %s failed: %s at %s", type(event).__name__,
                          getattr(subscriber, "__qualname__", subscriber),
                          type(exc).__name__, _where(exc))
                continue
            if said:
                out += said
        return out
