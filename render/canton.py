"""Canton's table: the line of tiles standing side by side, and each seat's captured pile.

Layout format (made by `core.line.canton`)::

    {"kind": "canton",
     "chain": ["6-1", "1-2", "2-5"],   # the line, each tile's left half first
     "last": 2 | null,                 # the tile laid last, if still there
     "first_top": true,                # the first tile's left half is drawn on top
     "piles": [{"tiles": 2, "points": 12}, ...]}   # per seat, captured this round

In Canton tiles touch long side to long side: every tile stands upright next
to the previous one, and the two halves that match share a row (so the rows
of the left halves alternate along the line).  A line longer than a row goes
on in a new row under it.  The open ends are marked beside the free half of
each end tile.  Under the line, each seat's pile of captured tiles lies face
down, with how many tiles and how many points it holds.

`canton_layout` is the geometry (tested on rectangles); `canton_image` draws
the whole board and is registered as the drawer of the ``"canton"`` kind.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from . import canvas, theme
from .board import draw_board, register_layout
from .geometry import EAST, WEST, Board, Half, Marker, PlacedTile, Rect, parse_tile
from .strip import GAP, panels
from .words import Translator, t, tn

HALF = 44
MARGIN = 14
ROW_GAP = 28  # between two rows of the line
PER_ROW = 22  # tiles in one row of the line (22 * 44 px + markers < 1280 px)
MIN_WIDTH, MIN_HEIGHT = 360, 150
PILE_HEIGHT = 64
STRIP_MIN_WIDTH, PANEL_MIN = 640, 220  # as `render.position_png`: the picture's width
BACK: theme.RGB = (36, 40, 48)  # a tile seen face down
BACK_EDGE: theme.RGB = (120, 124, 132)


def canton_layout(layout: dict[str, Any], half: int = HALF, per_row: int = PER_ROW) -> Board:
    """The upright tiles of the line and the two end markers (no piles); `per_row` tiles a
    row (the web's narrower board takes fewer)."""
    chain = [parse_tile(t) for t in layout.get("chain") or []]
    if not chain:
        return Board([], [], MIN_WIDTH, MIN_HEIGHT, half)
    h = half
    radius = max(9, round(0.42 * h))
    gap = max(3, h // 8)
    side = 2 * radius + gap  # room for a marker beside an end
    last = layout.get("last")
    top_first = bool(layout.get("first_top", True))
    tiles: list[PlacedTile] = []
    for i, (a, b) in enumerate(chain):
        row, col = divmod(i, per_row)
        x = MARGIN + side + col * h
        y = MARGIN + row * (2 * h + ROW_GAP)
        upper, lower = Rect(x, y, x + h, y + h), Rect(x, y + h, x + h, y + 2 * h)
        a_on_top = top_first == (i % 2 == 0)
        inner, outer = (upper, lower) if a_on_top else (lower, upper)
        tiles.append(PlacedTile(a, b, Rect(x, y, x + h, y + 2 * h),
                                (Half(inner, a), Half(outer, b)), EAST, False, i, i == last))
    first, end = tiles[0], tiles[-1]
    markers = [
        _marker(first.halves[0], WEST, radius, gap),
        _marker(end.halves[1], EAST, radius, gap),
    ]
    rows = (len(chain) - 1) // per_row + 1
    cols = min(len(chain), per_row)
    width = max(MIN_WIDTH, 2 * MARGIN + 2 * side + cols * h)
    height = max(MIN_HEIGHT, 2 * MARGIN + rows * 2 * h + (rows - 1) * ROW_GAP)
    dx = (width - (2 * MARGIN + 2 * side + cols * h)) // 2
    dy = (height - (2 * MARGIN + rows * 2 * h + (rows - 1) * ROW_GAP)) // 2
    return Board([t.moved(dx, dy) for t in tiles], [m.moved(dx, dy) for m in markers],
                 width, height, h)


def _marker(free: Half, d: tuple[int, int], radius: int, gap: int) -> Marker:
    """The open-end marker beside the free half ``free``, on side ``d``."""
    r = free.rect
    cy = (r.y0 + r.y1) // 2
    cx = r.x0 - gap - radius if d == WEST else r.x1 + gap + radius
    return Marker(free.value, Rect(cx - radius, cy - radius, cx + radius, cy + radius), d)


def canton_image(view: dict[str, Any], tr: Translator | None = None) -> Image.Image:
    """The line, then each seat's face-down pile, standing over that seat's panel of
    the table strip (`render.position_png` draws the strip under this picture)."""
    layout = view.get("layout") or {}
    piles = layout.get("piles") or []
    if not layout.get("chain") and any(p.get("tiles") for p in piles):
        line = canvas.felt(MIN_WIDTH + 120, MIN_HEIGHT)  # a capture took every tile
        cleared = t(tr, "Table cleared: the capturer leads again")
        canvas.draw_text(line, (line.width / 2, line.height / 2), cleared, 18, theme.TEXT_SOFT,
                         "mm")
    else:
        line = draw_board(canton_layout(layout), tr=tr)
    if not piles:
        return line
    n = len(piles)
    width = max(line.width, STRIP_MIN_WIDTH, n * PANEL_MIN + (n + 1) * GAP)
    im = canvas.felt(width, line.height + PILE_HEIGHT + GAP)
    im.paste(line, ((width - line.width) // 2, 0))
    for pile, (x, w) in zip(piles, panels(n, width), strict=True):
        _pile(im, (x, line.height, x + w, line.height + PILE_HEIGHT), pile, tr)
    return im


def _pile(im: Image.Image, box: tuple[int, int, int, int], pile: dict[str, Any],
          tr: Translator | None) -> None:
    """One seat's captured tiles: a fanned stack of backs, the count and the points."""
    x0, y0, _, y1 = box
    draw = ImageDraw.Draw(im)
    draw.rounded_rectangle(box, radius=10, fill=theme.PANEL)
    count = int(pile.get("tiles") or 0)
    points = int(pile.get("points") or 0)
    tw, th = 18, 36
    for k in range(min(count, 6)):
        bx, by = x0 + 12 + 6 * k, y0 + (y1 - y0 - th) // 2
        draw.rounded_rectangle((bx, by, bx + tw, by + th), radius=4, fill=BACK,
                               outline=BACK_EDGE, width=2)
    text_x = x0 + 12 + 6 * 5 + tw + 10
    canvas.draw_text(im, (text_x, y0 + 10), t(tr, "Captured"), 18, theme.TEXT, bold=True)
    label = t(tr, "nothing yet") if not count else tn(
        tr, "{n} tile, {points} pts", "{n} tiles, {points} pts", count, points=points)
    canvas.draw_text(im, (text_x, y1 - 10), label, 18, theme.TEXT_SOFT, "lb")


register_layout("canton", draw=canton_image)
