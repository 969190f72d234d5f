"""A finished game's page (`GET /g/TABLE.SIGNATURE[?step=N]`): the board of the public view
after move N, who made that move and what it was in the chat's words ("move 5 of 40: Bob
plays 6-4"), links to the other moves, and the score sheet at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from ..i18n import t
from ..service import words
from ..service.numbers import number
from ..service.tables import rebuild
from . import pages
from .board import state_payload
from .state import title_of

if TYPE_CHECKING:
    from .host import WebTable


async def game_page(table: WebTable, request: web.Request) -> web.Response:
    """A finished game, one move at a time (`?step=n`), with the public view."""
    lang = table._lang(request)
    table_id = table.links.check_game(request.match_info["table"])
    if table_id is None:  # not a link this server gave: forged, or a number guessed
        return table._refuse(request, 403)
    row = await table.service.store.get_table(table_id)
    if row is None or row.status != "finished":
        return table._refuse(request, 404)
    moves = await table.service.store.moves(row.id)
    step = number(request.query.get("step", ""))  # 0: the start (no move yet)
    step = len(moves) if step is None else min(step, len(moves))
    game = rebuild(row, moves[:max(0, step - 1)])
    names = [s.name for s in row.seats]
    said = ""
    if step:  # who made the move that led here, and what it was
        mover = game.to_move
        game.play(game.parse_move(moves[step - 1]))
        view = game.view(None)
        line = words.move_line(view, names, lang, mover, moves[step - 1])
        if not line:  # a draw, a pass: the move as written, and what its events say
            line = t(lang, "{who}: {move}", who=words.seat_label(names, mover, lang),
                     move=moves[step - 1])
            told = words.events_lines(view, names, lang)
            line += f" ({told[0]})" if told else ""
        said = t(lang, "Move {n} of {total}: {move}", n=step, total=len(moves), move=line)
    view = game.view(None)
    state = state_payload(view, names=names, lang=lang)
    sheet: list[str] = []
    if game.over:
        # the chat's score sheet, from the public view
        sheet = (words.sheet_lines(view, names, lang) if view.get("last_round")
                 else []) + words.match_lines(view, names, lang)
    html = pages.game_page(lang, title_of(row, lang), step, len(moves), said,
                           state["board_svg"], state["lines"], sheet,
                           table.links.game_path(row.id))
    return web.Response(text=html, content_type="text/html")
