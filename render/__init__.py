"""Pictures of what a player may see, drawn with Pillow from core's views.

Pure functions ``view -> PNG bytes``; they read views (``g.view(seat)``), never
a game object:

* `position_png(view, names)`: the public picture of the table, the board
  above the table strip (seats, tiles left, scores, turn, stock, target); a puzzle's and a
  patience's board alone (their one seat has no stock, rounds or points to show);
* `hand_png(view)`: one seat's private hand, the playable tiles ringed;
* `board_png(view)`: the board alone;
* `scoresheet_png(view, names, lines)`: a finished round (``view["last_round"]``): its
  final board, every hand revealed, and the score sheet's lines (`scoresheet`).

Each takes ``tr=``, a `Translator` for the words drawn (``gettext``/``ngettext``, a
Babel catalogue fits; None: English), see `words`.

Modules: `tile` (one domino sprite) and `pips`; `geometry`, `engine`, `line`
and `spinner` (where tiles go, no pixels); `board` (paints a layout, and is
where a new layout kind registers); `hand`, `strip`; `canvas`, `theme`, `palette` and
`png` (text, colours, PNG encoding); `words` (the labels and their translation);
`standings` (a tournament's standings table, `render.standings.standings_png`);
`svg` (the second painter of the same geometry: the web table's board as SVG, with the
places a tile may go).
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from . import canton as _canton  # noqa: F401  (registers the "canton" layout)
from . import canvas, png, theme
from . import grid as _grid  # noqa: F401  (registers the "grid" layout)
from . import memory as _memory  # noqa: F401  (registers the "memory" layout)
from . import patience as _patience  # noqa: F401  (registers the "patience" layout)
from . import puzzle as _puzzle  # noqa: F401  (registers the "puzzle" layout)
from . import stack as _stack  # noqa: F401  (registers the "stack" layout)
from . import tricks as _tricks  # registers the "tricks" layout; its hands go by suit
from .board import board_image, view_layout
from .hand import hand_image
from .scoresheet import scoresheet_image
from .strip import GAP, strip_image
from .words import Translator

__all__ = ["Translator", "board_png", "hand_png", "position_png", "scoresheet_png"]

MIN_PANEL = 220  # narrowest seat panel of the strip
ALONE = ("puzzle", "patience")  # layouts whose picture says it all: no table strip


def position_png(view: dict[str, Any], names: list[str] | None = None,
                 tr: Translator | None = None) -> bytes:
    """The public picture of the table: the board, then the table strip under it."""
    if _tricks.is_tricks(view):  # the table, the teams and the turn: no strip of seats
        return png.encode_png(canvas.frame(_tricks.tricks_image(view, tr, names)))
    board = board_image(view, tr, names)
    if view_layout(view).get("kind") in ALONE:  # a one-seat game: no seats, stock, rounds
        return png.encode_png(canvas.frame(board))
    players = int(view.get("players") or len(view.get("hand_sizes") or []) or 1)
    width = max(board.width, 640, players * MIN_PANEL + (players + 1) * GAP)
    strip = strip_image(view, names, width, tr)
    im = canvas.felt(width, board.height + strip.height)
    im.paste(board, ((width - board.width) // 2, 0))
    im.paste(strip, (0, board.height))
    ImageDraw.Draw(im).line((12, board.height, width - 12, board.height), fill=theme.FELT_EDGE,
                            width=2)
    return png.encode_png(canvas.frame(im))


def hand_png(view: dict[str, Any], tr: Translator | None = None) -> bytes:
    """A seat's private hand (``view`` from ``g.view(seat)``), legal tiles marked."""
    if _tricks.is_tricks(view):
        return png.encode_png(canvas.frame(_tricks.tricks_hand_image(view, tr)))
    return png.encode_png(canvas.frame(hand_image(view, tr)))


def board_png(view: dict[str, Any], tr: Translator | None = None) -> bytes:
    """The board alone."""
    return png.encode_png(canvas.frame(board_image(view, tr)))


def scoresheet_png(view: dict[str, Any], names: list[str], lines: list[str],
                   tr: Translator | None = None) -> bytes:
    """The round that just ended (public ``view["last_round"]``): final board, hands, sheet
    (a trick game's: the hand's last trick, its contract and the teams' points, the sheet)."""
    if _tricks.is_tricks(view):
        return png.encode_png(canvas.frame(_tricks.sheet_image(view, names, lines, tr)))
    return png.encode_png(canvas.frame(scoresheet_image(view, names, lines, tr)))
