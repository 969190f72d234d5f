"""The play: a move typed or pressed, the computer seats' moves that follow it, the move
builder's next word, the hand and the hint.

`_apply` plays a move, commits it (`Store.append_move`, or with the result through
`_finish` when it ends the game) and says what happened; `_computers` plays the computer
seats to move at once when they have no delay, else sets when the clock plays them.  Holds
the state and the results (bot/service/results.py); the facade (bot/service/service.py)
puts its public methods behind the door and routes a button's press here.
"""

from __future__ import annotations

import asyncio
import logging

from core import IllegalMove
from core.moves import Move

from .. import metrics
from ..i18n import end_words, error_text, t
from . import assist, families, texts, thinking, words
from .events import MovePlayed
from .messages import Message
from .results import Results
from .shared import refreshed
from .state import State, User, missing_row
from .tables import Table, rebuild

log = logging.getLogger("domino.service")


class Play:
    """Moves, the computer seats' answers, and what a player sees of their own seat."""

    def __init__(self, state: State, results: Results) -> None:
        self.state = state
        self.results = results  # a game's end (`_finish`)

    async def play(self, user: User, table_id: int, text: str,
                   turn: int | None = None) -> list[Message]:
        """A move by `user`, written as text ("6-4 left") or from a button (with its turn)."""
        if err := self.state._too_long(user, text):
            return err
        async with self.state._lock(table_id):
            table, seat, err = await self._player_seat(user, table_id)
            if err:
                return err
            game = table.game
            if game.to_move != seat:  # a waiting player's press, old or new: whose turn it is
                who = words.seat_label(table.names(), game.to_move)
                return self.state._error(user, self.state._t(user, table,
                                                             "It is {who}'s turn, not yours.",
                                                             who=who), table)
            if turn is not None and turn != game.turn:
                return self.state._error(user, self.state._t(user, table,
                                                             "This button is from an earlier "
                                                             "turn; the game has moved on."), table
                                         ) + self.state._hand_messages(table, seat)
            try:
                move = game.parse_move(str(text).strip())
                out = await self._apply(table, seat, move)
            except IllegalMove as exc:
                lang = self.state._lang_at(user, table)
                why = error_text(lang, exc)
                if families.family(game) == "puzzle":  # the reason only: its moves are many
                    return self.state._error(user, t(lang, "Not allowed: {why}.", why=why), table)
                legal = ", ".join(end_words(str(m), lang) for m in game.legal_moves())
                text = self.state._t(user, table, "Not allowed: {why}. You can play: {legal}",
                                     why=why, legal=legal)
                return self.state._error(user, text, table)
            seat_row = table.row.seats[seat]
            if seat_row.misses:
                seat_row.misses = 0
                await self.state.store.update_seat(table_id, seat, misses=0)
            return out + await self._computers(table)

    async def _player_seat(self, user: User, table_id: int
                           ) -> tuple[Table, int, list[Message]]:
        """The table and the user's seat in a game under way, or an error."""
        table = self.state.tables.get(table_id)
        if table is None:
            return Table(missing_row(table_id)), -1, await self.state._no_table(user, table_id)
        if table.game is None:
            return table, -1, self.state._error(user, self.state._t(user, table, "The game has not "
                                                                    "started yet."), table)
        seat = table.seat_of(user.id)
        if seat is None and families.helps(table, user.id):
            seat = 0  # anyone in the channel plays this one-seat game
        if seat is None:
            return table, -1, self.state._error(user, self.state._t(user, table,
                                                                    "You are not playing at "
                                                                    "this table."), table)
        await self.state._lang(user, table.row.scope)
        return table, seat, []

    async def _choose_end(self, user: User, table_id: int, turn: int, tile: str
                          ) -> list[Message]:
        """The second step for a tile that fits both ends: one button per end."""
        if self.state.store.shared:  # read a copy as fresh as the database's
            await refreshed(self.state, table_id)
        table, seat, err = await self._player_seat(user, table_id)
        if err:
            return err
        game = table.game
        if families.uses_builder(game):  # the next word of a move (bot/service/families.py)
            return await families.press_step(table, seat, user.id, turn, tile,
                                             self.state._user_lang(user.id, table),
                                             self.state._pictures_for(table))
        if game.to_move != seat:
            who = words.seat_label(table.names(), game.to_move)
            return self.state._error(user, self.state._t(user, table,
                                                         "It is {who}'s turn, not yours.",
                                                         who=who), table)
        if turn != game.turn:
            return self.state._error(user, self.state._t(user, table,
                                                         "This button is from an earlier "
                                                         "turn; the game has moved on."), table)
        lang = self.state._user_lang(user.id, table)
        message = texts.ends_message(table, seat, tile, lang, self.state._pictures_for(table))
        if message is None:
            return self.state._error(user, t(lang, "You cannot play {tile} now.", tile=tile), table)
        return [message]

    async def _apply(self, table: Table, seat: int, move: Move) -> list[Message]:
        """Play `move` for `seat`, commit it, and say what happened. Caller holds the lock.

        IllegalMove leaves everything unchanged; if the commit fails, the game is rebuilt from
        the stored moves (or, when they cannot be read either, from the moves in memory but
        the last one, which are the stored ones) and the error raised: the table stays.
        """
        game = table.game
        turn = len(game.moves)  # the stored move's number (a puzzle's hint has one, no turn)
        game.play(move)
        families.stamp(table, self.state.clock())  # a puzzle's solving time
        deadline = self.state._deadline(table)
        try:
            if game.over:  # the last move and the result, in one transaction
                await self.results._finish(table, last=(turn, seat, str(move)))
            else:
                await self.state.store.append_move(table.id, turn, seat, str(move),
                                                   deadline=deadline, warned=False)
        except BaseException:
            try:
                table.game = rebuild(table.row, await self.state.store.moves(table.id))
            except BaseException:
                log.error("table %s: the moves cannot be read again; kept from memory",
                          table.id)
                table.game = rebuild(table.row, [m.text for m in game.moves[:turn]])
            raise
        table.row.deadline, table.row.warned = deadline, False
        metrics.moved(table.row.variant)  # domino_moves_total (bot/metrics.py)
        table.active_at = self.state.clock()
        heard = await self.state.events.publish(MovePlayed(table))  # the web table hears (live.py)
        await asyncio.sleep(0)  # the mover's web page gets its state before the chat's words
        out = self.state._table_messages(table, prompt=True, hands=True, mover=seat, move=move)
        return out + await families.after_move(table, seat, move, families.hint_lang(
            table, seat, self.state._langs)) + heard

    async def _computers(self, table: Table) -> list[Message]:
        """Play the computer seats now (no delay) or schedule the next one."""
        out: list[Message] = []
        game = table.game
        while game is not None and not game.over and table.is_ai(game.to_move):
            if self.state.ai_delay > 0:
                table.ai_due = self.state.clock() + self.state.ai_delay
                return out
            seat = game.to_move
            out += await self._apply(table, seat, await thinking.choose(table, seat))
        table.ai_due = None
        return out

    # -- seeing --------------------------------------------------------------------------------

    async def hand(self, user: User, table_id: int) -> list[Message]:
        """The user's hand, privately, with their legal moves as buttons."""
        if self.state.store.shared:  # read a copy as fresh as the database's
            await refreshed(self.state, table_id)
        table, seat, err = await self._player_seat(user, table_id)
        helper = None if err else families.helper_hand(
            table, seat, user.id, self.state._user_lang(user.id,
                                                        table), self.state._pictures_for(table))
        return err or helper or self.state._hand_messages(table, seat)

    async def hint(self, user: User, table_id: int, turn: int | None = None
                   ) -> list[Message]:
        """The move the expert would play for the user, privately (tables with hints=on)."""
        table, seat, err = await self._player_seat(user, table_id)
        return err or await assist.hint(table, seat, turn, self.state._lang_at(user, table),
                                        user.id)
