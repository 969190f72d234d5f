"""Hints at a casual table: the `hints` table option, the Hint button, the expert's answer.

`hints=on` (off by default) is a table option the service keeps (the core never sees it).
A table with hints is casual: its result is stored but changes no rating, so hints never
help in a rated game.  The player to move gets a "Hint" button in their private hand; it
answers, privately, with the move the `expert` computer would play in their place, worked
out from their own seat's view in a worker thread (bot/service/thinking.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from core.ai import make_player

from ..i18n import N_, t
from . import thinking, words
from .messages import Action, Message, action_data
from .naming import move_data
from .tables import pop_switch

if TYPE_CHECKING:
    from ..storage import TableRow
    from .tables import Table

HINT = "i"  # the button verb ("indice")
HINT_LEVEL = "expert"


def pop_table_options(opts: dict[str, Any]) -> dict[str, Any]:
    """Take `hints` out of `opts` (as the service keeps it); an `OptionError` when it is
    not on or off."""
    return {"hints": True} if pop_switch(opts, "hints") else {}



def hints_on(row: TableRow) -> bool:
    return bool(row.options.get("hints"))


def rated(row: TableRow) -> bool:
    """Does this table's result change ratings?  Not with hints on (a casual game)."""
    return not hints_on(row)


def lobby_lines(row: TableRow, lang: str) -> list[str]:
    """What the lobby says of the table's hints."""
    if not hints_on(row):
        return []
    return [t(lang, "Hints on: the player to move may ask the expert; this game is not "
              "rated.")]


def with_hint_button(table: Table, seat: int, message: Message, lang: str) -> Message:
    """The hand message of `seat` with a "Hint" button when hints are on and it is to move."""
    game = table.game
    if not hints_on(table.row) or game is None or game.over or game.to_move != seat:
        return message
    rows = [a.row for a in message.actions]
    row = max(rows, default=-1)
    if not rows or rows.count(row) >= 4 or _tile_row(message, row):
        row += 1
    button = Action(t(lang, "Hint"), action_data(table.id, game.turn, HINT), row=row)
    return replace(message, actions=(*message.actions, button))


def _tile_row(message: Message, row: int) -> bool:
    """Does the row `row` of a hand message hold tiles (a new row is then needed)?"""
    return any(a.row == row and a.data.split(":")[2] in ("p", "e") and
               a.data.split(":", 3)[-1].split(" ")[0] == a.label for a in message.actions)


async def hint(table: Table, seat: int, turn: int | None, lang: str, asker: str | None = None
               ) -> list[Message]:
    """The expert's move for `seat`, privately to who asked (`asker`: a helper of a one-seat
    game with helpers on, else the seated player); an error when hints are off, when it is not
    the seat's turn, or when the game moved on while it thought."""
    game = table.game
    user = asker or table.row.seats[seat].user_id
    channel = table.row.channel

    def error(text: str, **values: Any) -> list[Message]:
        return [Message(channel, t(lang, text, **values), to=user, kind="error",
                        table=table.id)]

    if not hints_on(table.row):
        return error(N_("Hints are off at this table (they are for casual games: open one with "
                     "hints=on)."))
    if (turn is not None and turn != game.turn) or game.over:
        return error(N_("This button is from an earlier turn; the game has moved on."))
    if game.to_move != seat:
        return error(N_("A hint is for your turn."))
    asked = game.turn
    player = make_player(HINT_LEVEL, table.row.seed * 31 + asked)
    move = str(await thinking.off_loop(player.choose, game.copy()))
    if table.game is not game or game.turn != asked:
        return error(N_("This button is from an earlier turn; the game has moved on."))
    said = words.move_words(lang, move)
    play = Action(t(lang, "Play {move}", move=said), move_data(table.id, asked, move),
                  style="success")
    return [Message(channel, t(lang, "Hint: the expert would play {move}.", move=said),
                    to=user, kind="info", table=table.id, actions=(play,))]
