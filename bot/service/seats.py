"""Seats during a game: leaving it (a computer takes the seat), coming back, and the seats a
rematch keeps for the players of the last game until each confirms.

A player who leaves keeps their user id on the seat with a computer playing it (as after
too many missed turns); joining the table again gives the seat back at once, so they play
from their next turn.  Who left is a per-table note (it survives a restart): in a rated game
they count as the last, whatever the seat's result.  A rematch's lobby reserves each human
seat of the last game for its player (``reserved``: seat -> [user id, name]), who takes it
back by joining; the host may start before, the reserved seats then get computer players.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from core import DominoError

from ..i18n import t
from .messages import Message

if TYPE_CHECKING:
    from ..storage import Store
    from .tables import Table

NOTES = "service"  # the per-table notes' "platform" (Service.SERVICE)
LEFT = "left"  # the note: user ids that left the game under way, space-separated
RESERVED = "reserved"  # the note: the seats a rematch keeps, as JSON


async def load(store: Store, table: Table) -> None:
    """The table's notes on who left and which seats are kept (after a restart)."""
    left = await store.adapter_get(table.id, NOTES, LEFT)
    table.leavers = set((left or "").split())
    kept = await store.adapter_get(table.id, NOTES, RESERVED)
    table.reserved = {int(k): v for k, v in json.loads(kept).items()} if kept else {}


async def save(store: Store, table: Table) -> None:
    await store.adapter_set(table.id, NOTES, LEFT, " ".join(sorted(table.leavers)))
    await store.adapter_set(table.id, NOTES, RESERVED, json.dumps(table.reserved))


def away_seat(table: Table, user_id: str) -> int | None:
    """The seat of `user_id` that a computer is playing (they left, or missed turns)."""
    for s in table.row.seats:
        if s.user_id == user_id and s.ai is not None:
            return s.seat
    return None


def left_message(table: Table, name: str) -> Message:
    return Message(table.row.channel, t(table.lang, "{who} left the game: a computer player "
                                        "takes the seat until they join again.", who=name),
                   kind="info", table=table.id)


def back_message(table: Table, name: str) -> Message:
    return Message(table.row.channel, t(table.lang, "{who} is back and plays their seat "
                                        "again.", who=name), kind="info", table=table.id)


def reserved_seat(table: Table, user_id: str) -> int | None:
    """The seat a rematch keeps for `user_id`, if it is still open."""
    for seat, (uid, _) in table.reserved.items():
        s = table.row.seats[seat]
        if uid == user_id and s.user_id is None and s.ai is None:
            return seat
    return None


def free_seats(table: Table) -> list[int]:
    """Open seats anyone may take (not kept for a player of the last game)."""
    return [s.seat for s in table.open_seats() if s.seat not in table.reserved]


def to_move_first(tables: dict[int, Table], found: list[int], user_id: str,
                  move: str | None = None) -> list[int]:
    """Of the tables `found`, those where `user_id` is to move (and, given a typed `move`,
    those where it is a legal move), when there are any; else `found` unchanged."""
    mine = []
    for tid in found:
        table = tables.get(tid)
        game = table.game if table is not None else None
        if game is not None and not game.over and game.to_move == table.seat_of(user_id):
            mine.append(tid)
    if move:
        fits = [tid for tid in mine if _legal(tables[tid].game, move)]
        mine = fits or mine
    return mine or found


def _legal(game: object, text: str) -> bool:
    try:
        move = game.parse_move(text.strip())  # type: ignore[attr-defined]
    except DominoError:
        return False
    return move in game.legal_moves()  # type: ignore[attr-defined]
