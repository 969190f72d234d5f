"""The lobby: the seats of a table before and during its game.

Joining and leaving a lobby (the last human to leave closes it), the host's computer seats
(`add_ai`, `remove_ai`, each of a level), the start (`begin` by a player, `_start` the deal),
and, in a game under way, a player who leaves (a computer takes the seat) or comes back.
Holds the state, the play (a computer's answer) and the results (a table closed, a game's
end); a new table is opened by bot/service/opening.py, which holds it.  The facade
(bot/service/service.py) puts the public methods behind the door; a leaver is told to the
events' subscribers (`SeatLeft`: a tournament drops them).
"""

from __future__ import annotations

import contextlib

from core import DominoError, variants

from ..i18n import error_text, t
from ..storage import SeatRow
from . import levels
from . import seats as seating
from .events import SeatLeft
from .messages import Message
from .play import Play
from .results import Results
from .state import COMPUTER, State, User, missing_row
from .tables import Table, new_game


def name_computers(table: Table) -> None:
    """Number the computer seats of a lobby in seat order: "CPU 1", "CPU 2"... (short: a name
    must fit a seat's panel in the pictures)."""
    for n, s in enumerate(table.computers(), 1):
        s.name = t(table.lang, "CPU {n}", n=n)
    levels.mark_levels(table)


class Lobby:
    """Taking, leaving and filling the seats of a table, and its start."""

    def __init__(self, state: State, play: Play, results: Results) -> None:
        self.state = state
        self.play = play  # a computer seat's answer (`_computers`)
        self.results = results  # a table closed, a game's end

    async def join(self, user: User, table_id: int) -> list[Message]:
        """Take a seat in a lobby (the one a rematch keeps for the user, else the first
        open one), or take back one's seat in a game under way from the computer."""
        async with self.state._lock(table_id):
            table = self.state.tables.get(table_id)
            if table is not None and table.row.status == "playing":
                return await self._come_back(user, table)
            table, err = await self._lobby_table(user, table_id)
            if err:
                return err
            if table.seat_of(user.id) is not None:
                return self.state._error(user, self.state._t(user, table, "You are already at this "
                                                             "table."), table)
            invited = self.state._invited.get(table_id)
            if invited is not None and user.id not in invited:
                return self.state._error(user, self.state._t(user, table,
                                                             "This table is for invited "
                                                             "players only."), table)
            kept = seating.reserved_seat(table, user.id)
            free = [kept] if kept is not None else seating.free_seats(table)
            if not free:
                return self.state._error(user, self.state._t(user, table, "This table is full."),
                                         table)
            await self.state.store.upsert_user(user.id, user.name, user.locale)
            await self.state._know_pings(user.id)
            seat = table.row.seats[free[0]]
            seat.user_id, seat.name = user.id, user.name
            await self.state.store.set_seats(table_id, table.row.seats)
            await self.state._touch(table_id)
            if table.reserved and not table.open_seats():  # every player of the rematch is in
                return await self._start(table)
            return self.state._table_messages(table)

    async def _come_back(self, user: User, table: Table) -> list[Message]:
        """A player takes back their seat from the computer (they left, or missed turns).
        Caller holds the lock."""
        seat = seating.away_seat(table, user.id)
        if seat is None:
            text = ("You are already at this table." if table.seat_of(user.id) is not None
                    else "This table has already started.")
            return self.state._error(user, self.state._t(user, table, text), table)
        s = table.row.seats[seat]
        s.ai, s.misses = None, 0
        table.leavers.discard(user.id)
        table.bots.pop(seat, None)
        await self.state.store.update_seat(table.id, seat, ai=None, misses=0)
        await seating.save(self.state.store, table)
        if table.game.to_move == seat:
            table.ai_due = None
            table.row.deadline, table.row.warned = self.state._deadline(table), False
            await self.state.store.update_table(table.id, deadline=table.row.deadline, warned=False)
        await self.state._lang(user, table.row.scope)
        return [seating.back_message(table, s.name), *self.state._table_messages(table,
                                                                                 prompt=True),
                *self.state._hand_messages(table, seat)]

    async def _leave_game(self, user: User, table: Table) -> list[Message]:
        """A player leaves a game under way: a computer takes the seat, and the game counts
        as lost for them in the ratings unless they come back. Caller holds the lock."""
        seat = table.seat_of(user.id)
        if seat is None:
            return self.state._error(user, self.state._t(user, table, "You are not playing at this "
                                                         "table."), table)
        s = table.row.seats[seat]
        s.ai = COMPUTER
        table.leavers.add(user.id)
        await self.state.store.update_seat(table.id, seat, ai=s.ai)
        await seating.save(self.state.store, table)
        out = [seating.left_message(table, s.name)]
        if table.game.to_move == seat:
            table.row.deadline = None
            await self.state.store.update_table(table.id, deadline=None)
            out += await self.play._computers(table)
        return out

    async def leave(self, user: User, table_id: int) -> list[Message]:
        """Leave a table before it starts (the last human to leave closes it), or a game
        under way (a computer takes the seat; joining again takes it back)."""
        async with self.state._lock(table_id):
            table = self.state.tables.get(table_id)
            if table is not None and table.row.status == "playing":
                out = await self._leave_game(user, table)
                # its listeners (a tournament drops the leaver from its later rounds)
                return out + await self.state.events.publish(SeatLeft(user.id, user.name, table))
            table, err = await self._lobby_table(user, table_id)
            if err:
                return err
            seat = table.seat_of(user.id)
            if seat is None:
                return self.state._error(user, self.state._t(user, table,
                                                             "You are not at this table."),
                                         table)
            row = table.row
            s = row.seats[seat]
            s.user_id, s.name = None, t(row.lang, "Open seat")
            await self.state.store.set_seats(table_id, row.seats)
            if not table.humans():
                return await self.results._close(table, t(row.lang,
                                                          "Table #{id} is closed: everybody "
                                                          "left.", id=table_id))
            if row.host == user.id:
                row.host = table.humans()[0].user_id or ""
                await self.state.store.update_table(table_id, host=row.host)
            await self.state._touch(table_id)
            return self.state._table_messages(table)

    async def add_ai(self, user: User, table_id: int, level: str | None = None
                     ) -> list[Message]:
        """The host puts a computer player of `level` (easy, normal, hard, expert; normal
        by default) in the last open seat."""
        async with self.state._lock(table_id):
            table, err = await self._lobby_table(user, table_id, host=True)
            if err:
                return err
            try:
                kind = levels.parse_level(level, COMPUTER)
                levels.check_level(kind, variants.get(table.row.variant))
            except DominoError as exc:
                why = error_text(self.state._lang_at(user, table), exc)
                return self.state._error(user, self.state._t(user, table, "Cannot add a "
                                                             "computer: {why}", why=why), table)
            free = table.open_seats()
            if not free:
                return self.state._error(user, self.state._t(user, table, "This table is full."),
                                         table)
            free[0].ai = kind
            name_computers(table)
            await self.state.store.set_seats(table_id, table.row.seats)
            await self.state._touch(table_id)
            return self.state._table_messages(table)

    async def remove_ai(self, user: User, table_id: int) -> list[Message]:
        """The host turns the last computer seat back into an open seat."""
        async with self.state._lock(table_id):
            table, err = await self._lobby_table(user, table_id, host=True)
            if err:
                return err
            bots = table.computers()
            if not bots:
                return self.state._error(user, self.state._t(user, table,
                                                             "There is no computer seat to "
                                                             "remove."), table)
            bots[-1].ai, bots[-1].name = None, t(table.lang, "Open seat")
            name_computers(table)
            await self.state.store.set_seats(table_id, table.row.seats)
            await self.state._touch(table_id)
            return self.state._table_messages(table)

    async def begin(self, user: User, table_id: int) -> list[Message]:
        """Start the game: the host at any time (open seats get computer players), anyone at
        the table once every seat is taken."""
        async with self.state._lock(table_id):
            table, err = await self._lobby_table(user, table_id)
            if err:
                return err
            if table.seat_of(user.id) is None:
                return self.state._error(user, self.state._t(user, table,
                                                             "You are not at this table."),
                                         table)
            if user.id != table.row.host and table.open_seats():
                return self.state._error(user, self.state._t(user, table,
                                                             "Only the host can start before "
                                                             "every seat is taken."), table)
            return await self._start(table)

    async def _start(self, table: Table) -> list[Message]:
        """Deal and prompt the first player. Caller holds the lock."""
        row = table.row
        seats = [SeatRow(s.seat, s.user_id, s.name, s.ai, s.misses) for s in row.seats]
        for s in table.open_seats():
            s.ai = COMPUTER
        name_computers(table)
        table.game = new_game(row)
        table.active_at = self.state.clock()
        row.status = "playing"
        row.deadline, row.warned = self.state._deadline(table), False
        try:
            await self.state.store.set_seats(table.id, row.seats)
            await self.state.store.update_table(table.id, status="playing", deadline=row.deadline,
                                                warned=False)
        except BaseException:  # still a lobby, in memory as on disk
            row.seats, row.status, row.deadline, table.game = seats, "lobby", None, None
            with contextlib.suppress(Exception):
                await self.state.store.set_seats(table.id, seats)
                await self.state.store.update_table(table.id, status="lobby", deadline=None)
            raise
        self.state._changed.pop(table.id, None)
        self.state._invited.pop(table.id, None)
        if table.game.over:  # over at the deal (a patience with no pair to take): finished
            await self.results._finish(table)
            return self.state._table_messages(table)
        out = self.state._table_messages(table, prompt=True, hands=True)
        return out + await self.play._computers(table)

    async def _lobby_table(self, user: User, table_id: int, host: bool = False
                           ) -> tuple[Table, list[Message]]:
        table = self.state.tables.get(table_id)
        if table is None:
            return Table(missing_row(table_id)), await self.state._no_table(user, table_id)
        if table.row.status != "lobby":
            return table, self.state._error(user, self.state._t(user, table,
                                                                "This table has already "
                                                                "started."), table)
        if host and user.id != table.row.host:
            return table, self.state._error(user, self.state._t(user, table,
                                                                "Only the host can do that."),
                                            table)
        return table, []
