"""The line of play as a snake: geometry only (`line_layout`), no pixels.

The chain is laid left to right; at the picture's right edge it turns down
(one tile standing under the outer half of the row's last tile, so the
touching halves stay adjacent) and comes back to the left, then down and
right again, and so on. Doubles lie crosswise. The row width is balanced so
the last row is not a lonely tile, and never makes the picture wider than
``max_width`` (1280 px). The half size starts at 48 px and shrinks (not below
28 px) only when a very long line would make the picture too tall.

Layout format (made by core): ``{"kind": "line", "chain": ["4-6", "6-6", ...],
"last": index or null}``; each tile oriented so its left half touches the
previous tile's right half. Optional keys: ``"crosswise": [indexes]``, tiles
that lie across the line although they are not doubles (Matador's matadors
laid on a blank: the neighbours touch their long sides, both halves), and
``"join"``, how touching halves match: ``"equal"`` (the default) or
``"sum7"`` (they total 7, or a blank meets a matador: Matador, K). Drawing
does not depend on the join; the geometry tests check it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .engine import Builder, Item, SnakePolicy, Task, finish, lay
from .geometry import EAST, SOUTH, WEST, Board, Marker, parse_tile

MAX_WIDTH = 1280
MAX_HEIGHT = 720
MARGIN = 14
SIZES = (48, 44, 40, 36, 32, 28)
MIN_WIDTH, MIN_HEIGHT = 360, 150


def line_layout(
    chain: Sequence[str],
    last: int | None = None,
    half: int | None = None,
    max_width: int = MAX_WIDTH,
    crosswise: Sequence[int] = (),
) -> Board:
    """Place ``chain`` as a snake; every tile carries its halves' rectangles and values.

    Doubles and the tiles at the indexes ``crosswise`` lie across the line."""
    tiles = [parse_tile(t) for t in chain]
    if not tiles:
        return Board([], [], MIN_WIDTH, MIN_HEIGHT, half or SIZES[0])
    across = set(crosswise)
    items = tuple(Item(a, b, i, i == last, None, a == b or i in across)
                  for i, (a, b) in enumerate(tiles))
    sizes = (half,) if half else SIZES
    board = None
    for h in sizes:
        board = _snake(items, h, max_width)
        if board.height <= MAX_HEIGHT:
            break
    assert board is not None
    return board


def layout_line(layout: dict[str, Any]) -> Board:
    """`line_layout` of a view's ``"line"`` layout dict."""
    crosswise = layout.get("crosswise") or []
    if not all(isinstance(i, int) for i in crosswise):
        raise ValueError(f"bad 'crosswise' in a line layout: {crosswise!r} (tile indexes)")
    return line_layout(layout.get("chain") or [], layout.get("last"), crosswise=crosswise)


def _snake(items: tuple[Item, ...], h: int, max_width: int) -> Board:
    probe = Builder(h, 0, 0, 0, 0)
    reserve = max(probe.gap + 2 * probe.radius, h // 2)
    usable = max_width - 2 * MARGIN - 2 * reserve
    length = sum(h if it.crosswise else 2 * h for it in items)
    rows = max(1, math.ceil(length / usable))
    row = length if rows == 1 else min(usable, math.ceil(length / rows) + 2 * h)
    row = max(row, min(usable, 6 * h))
    b = Builder(h, 0, -reserve, row + reserve, budget=200 * len(items) + 1000)
    start = b.marker_rect((0, 0), WEST)
    b.push(start, -1, Marker(items[0].a, start, WEST))
    policy = SnakePolicy(SOUTH, 0, row)
    lay(b, (Task(items, 0, (0, 0), EAST, True, False, False, None, 0, 0, policy,
                 ("row", None), True),))
    board = finish(b, MARGIN, MIN_WIDTH, MIN_HEIGHT)
    board.tiles.sort(key=lambda t: t.path)  # type: ignore[arg-type, return-value]
    return board
