"""The "20" game's grid: tiles on named cells, the "20" markers, the last play highlighted.

Layout format (made by `core.grid.match.GridMatch.grid_layout`)::

    {"kind": "grid", "size": [25, 25],
     "tiles": [{"tile": "5-3", "cells": ["C4", "D4"], "seat": 0}, ...],  # first half first
     "markers": [{"cell": "B4", "seat": 0}, ...],     # seat -1: dealt with the position
     "last": ["C4", "D4", ...], "last_markers": ["B4", ...],
     "markers_left": [20, 22]}

Only the part of the grid in use is drawn (with a free row and column around
it, and at least `MIN_SPAN` cells each way around the centre), with the
column letters above and the row numbers on the left, so a player can name
a cell.  Each seat's markers have its colour; under the grid, each seat's
markers left.  `grid_geometry` is the geometry (tested on rectangles),
`grid_image` the drawer registered for the ``"grid"`` kind, and
`candidate_png` a small picture of a play the bot offers (its tiles ringed,
the markers it takes drawn pale), from a preview
(`core.grid.match.GridMatch.preview`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from . import canvas, png, theme, tile
from .board import register_layout
from .geometry import Board, Half, Marker, PlacedTile, Rect
from .words import Translator, seat_label, t, tn

HALF = 40
SMALL_HALF = 28
LABEL = 26  # the band of column letters and of row numbers
MARGIN = 10
MIN_SPAN = 3  # cells drawn each way around the centre at least
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY"
_CELL_RE = re.compile(r"^([A-Y])(\d{1,2})$")
GRID_LINE: theme.RGB = (40, 118, 80)
NEUTRAL: theme.RGB = (200, 200, 200)  # a marker dealt with the position
FOOT = 40  # a line of markers left under the grid
LEGEND, DISC = 16, 24  # px of its words, and of its markers
TABLE_WIDTH = 640  # the table picture is never narrower (render.position_png)


def cell_xy(name: str) -> tuple[int, int]:
    """(column, row), 0-based, of a cell name like "C4"."""
    m = _CELL_RE.match(str(name).upper())
    if not m:
        raise ValueError(f"not a cell: {name!r}")
    return LETTERS.index(m.group(1)), int(m.group(2)) - 1


def extent(layout: dict[str, Any], extra: list[str] = ()) -> tuple[int, int, int, int]:
    """(first column, first row, last column, last row) of the part drawn."""
    size = (layout.get("size") or [25, 25])[0]
    mid = size // 2
    cols, rows = [mid - MIN_SPAN, mid + MIN_SPAN], [mid - MIN_SPAN, mid + MIN_SPAN]
    names = [c for tl in layout.get("tiles") or [] for c in tl["cells"]]
    names += [m["cell"] for m in layout.get("markers") or []] + list(extra)
    for name in names:
        x, y = cell_xy(name)
        cols.append(x)
        rows.append(y)
    return (max(0, min(cols) - 1), max(0, min(rows) - 1),
            min(size - 1, max(cols) + 1), min(size - 1, max(rows) + 1))


def _cell_rect(name: str, c0: int, r0: int, half: int) -> Rect:
    x, y = cell_xy(name)
    px, py = MARGIN + LABEL + (x - c0) * half, MARGIN + LABEL + (y - r0) * half
    return Rect(px, py, px + half, py + half)


def cell_rect(layout: dict[str, Any], name: str, half: int = HALF, extra: list[str] = ()
              ) -> Rect:
    """The square of cell `name` in `grid_geometry`'s picture (same `half` and `extra`)."""
    c0, r0, _, _ = extent(layout, extra)
    return _cell_rect(name, c0, r0, half)


def grid_geometry(layout: dict[str, Any], half: int = HALF, extra: list[str] = ()) -> Board:
    """Tiles and markers in pixels (the labels' bands on the top and the left)."""
    c0, r0, c1, r1 = extent(layout, extra)
    width = LABEL + (c1 - c0 + 1) * half + 2 * MARGIN
    height = LABEL + (r1 - r0 + 1) * half + 2 * MARGIN
    last = set(layout.get("last") or [])

    def rect(name: str) -> Rect:
        return _cell_rect(name, c0, r0, half)

    tiles = []
    for i, entry in enumerate(layout.get("tiles") or []):
        a, b = (int(v) for v in entry["tile"].split("-"))
        ra, rb = rect(entry["cells"][0]), rect(entry["cells"][1])
        body = Rect(min(ra.x0, rb.x0), min(ra.y0, rb.y0), max(ra.x1, rb.x1), max(ra.y1, rb.y1))
        across = (1, 0) if ra.y0 == rb.y0 else (0, 1)
        tiles.append(PlacedTile(a, b, body, (Half(ra, a), Half(rb, b)), across, False, i,
                                entry["cells"][0] in last))
    markers = []
    for m in layout.get("markers") or []:
        r = rect(m["cell"])
        markers.append(Marker(20, Rect(r.x0 + 2, r.y0 + 2, r.x1 - 2, r.y1 - 2), (0, 0)))
    return Board(tiles, markers, width, height, half)


def _grid(im: Image.Image, layout: dict[str, Any], half: int, extra: list[str]) -> Board:
    """Paint the cells, their names, the tiles and the markers; the geometry used."""
    board = grid_geometry(layout, half, extra)
    c0, r0, c1, r1 = extent(layout, extra)
    draw = ImageDraw.Draw(im)
    top, left = MARGIN + LABEL, MARGIN + LABEL
    size = max(12, half // 2 - 2)
    for i, col in enumerate(range(c0, c1 + 1)):
        x = left + i * half
        draw.line((x, top, x, top + (r1 - r0 + 1) * half), fill=GRID_LINE)
        canvas.draw_text(im, (x + half / 2, MARGIN + LABEL / 2), LETTERS[col], size,
                         theme.TEXT_SOFT, "mm")
    for j, row in enumerate(range(r0, r1 + 1)):
        y = top + j * half
        draw.line((left, y, left + (c1 - c0 + 1) * half, y), fill=GRID_LINE)
        canvas.draw_text(im, (MARGIN + LABEL - 4, y + half / 2), str(row + 1), size,
                         theme.TEXT_SOFT, "rm")
    draw.rectangle((left, top, left + (c1 - c0 + 1) * half, top + (r1 - r0 + 1) * half),
                   outline=GRID_LINE)
    for pt in board.tiles:
        o = "h" if pt.direction == (1, 0) else "v"
        mask, (dx, dy) = tile.shadow_mask(o, half)
        im.paste(theme.SHADOW, (pt.rect.x0 + dx, pt.rect.y0 + dy), mask)
    for pt in board.tiles:
        o = "h" if pt.direction == (1, 0) else "v"
        if pt.last:
            mask, (dx, dy) = tile.glow_mask(o, half)
            im.paste(theme.LAST, (pt.rect.x0 + dx, pt.rect.y0 + dy), mask)
        sprite = tile.sprite(pt.a, pt.b, o, half, "last" if pt.last else "plain")
        im.paste(sprite, (pt.rect.x0, pt.rect.y0), sprite)
    last_markers = set(layout.get("last_markers") or [])
    for m, entry in zip(board.markers, layout.get("markers") or [], strict=True):
        seat = int(entry.get("seat", -1))
        colour = theme.TEAMS[seat % len(theme.TEAMS)] if seat >= 0 else NEUTRAL
        _marker(im, m.rect, colour, entry["cell"] in last_markers)
    return board


def _marker(im: Image.Image, r: Rect, colour: theme.RGB, glow: bool = False,
            pale: bool = False) -> None:
    """A "20" marker: a disc of the seat's colour with the number."""
    draw = ImageDraw.Draw(im)
    if glow:
        draw.ellipse((r.x0 - 3, r.y0 - 3, r.x1 + 3, r.y1 + 3), outline=theme.LAST, width=3)
    fill = colour if not pale else tuple((c + f) // 2 for c, f in zip(colour, theme.FELT,
                                                                        strict=True))
    draw.ellipse((r.x0, r.y0, r.x1, r.y1), fill=fill, outline=theme.MARKER_RING, width=2)
    canvas.draw_text(im, ((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2), "20", max(10, r.width // 2),
                     theme.TEXT_DARK, "mm", bold=True)


def _legend_labels(view: dict[str, Any], tr: Translator | None,
                   names: Sequence[str] | None) -> list[str]:
    layout = view.get("layout") or {}
    left = list(layout.get("markers_left") or view.get("markers") or [])
    return [seat_label(names or [], seat, tr) + ": " + tn(
        tr, "{n} marker left", "{n} markers left", int(count)) for seat, count in enumerate(left)]


def legend_width(view: dict[str, Any], tr: Translator | None = None,
                 names: Sequence[str] | None = None) -> int:
    """The width the legend takes on one row."""
    return 2 * MARGIN + sum(DISC + 6 + canvas.text_mask(text, LEGEND).width + 16
                            for text in _legend_labels(view, tr, names))


def legend_layout(view: dict[str, Any], width: int, top: int, tr: Translator | None = None,
                  names: Sequence[str] | None = None) -> list[tuple[Rect, Rect, str]]:
    """Each seat's markers left under the grid, by the seat's name: (its marker's box, its
    label's box, the label), as many to a row as fit whole in `width` px from `top` down."""
    layout = view.get("layout") or {}
    left = list(layout.get("markers_left") or view.get("markers") or [])
    if not left:
        return []
    labels = _legend_labels(view, tr, names)
    room = width - 2 * MARGIN
    need = [DISC + 6 + canvas.text_mask(text, LEGEND).width + 16 for text in labels]
    per_row = next((k for k in range(len(left), 0, -1) if max(need) <= room // k), 1)
    slot = room // per_row
    out = []
    for seat, text in enumerate(labels):
        row, col = divmod(seat, per_row)
        x, y = MARGIN + col * slot, top + row * FOOT + FOOT // 2
        text = canvas.fit_text(text, LEGEND, slot - DISC - 6 - 16)
        mask = canvas.text_mask(text, LEGEND)
        out.append((Rect(x, y - DISC // 2, x + DISC, y + DISC // 2),
                    Rect(x + DISC + 6, y - mask.height // 2, x + DISC + 6 + mask.width,
                         y - mask.height // 2 + mask.height), text))
    return out


def grid_image(view: dict[str, Any], tr: Translator | None = None,
               names: Sequence[str] | None = None) -> Image.Image:
    """The grid, then each seat's markers left, by the seats' `names`."""
    layout = view.get("layout") or {}
    board = grid_geometry(layout)
    width = max(board.width, min(TABLE_WIDTH, legend_width(view, tr, names)))
    legend = legend_layout(view, width, board.height, tr, names)
    bottom = max((r.y1 for _, r, _ in legend), default=board.height)
    im = canvas.felt(width, bottom + (FOOT // 2 - LEGEND // 2 if legend else 0))
    grid = canvas.felt(board.width, board.height)
    _grid(grid, layout, HALF, [])
    im.paste(grid, ((width - board.width) // 2, 0))
    if not layout.get("tiles"):
        canvas.draw_text(im, (width / 2, board.height / 2 + LABEL / 2),
                         t(tr, "The first line starts on M13"), 18, theme.TEXT, "mm")
    for seat, (disc, box, text) in enumerate(legend):
        _marker(im, disc, theme.TEAMS[seat % len(theme.TEAMS)])
        canvas.draw_text(im, (box.x0, box.y0), text, LEGEND, theme.TEXT, "lt")
    return im


def candidate_image(view: dict[str, Any], preview: dict[str, Any],
                    tr: Translator | None = None) -> Image.Image:
    """A small picture of a play on the grid: its tiles ringed, the markers it takes pale,
    and its text and markers under it (``preview`` from `GridMatch.preview`, with "move")."""
    layout = dict(view.get("layout") or {})
    cells = list(preview.get("cells") or [])
    values = [int(v) for tl in preview.get("tiles") or
              str(preview.get("move", "")).split()[:len(cells) // 2] for v in tl.split("-")]
    new_tiles = [{"tile": f"{values[i]}-{values[i + 1]}", "cells": [cells[i], cells[i + 1]],
                  "seat": view.get("seat")} for i in range(0, len(values) - 1, 2)]
    layout["tiles"] = list(layout.get("tiles") or [])
    layout["last"], layout["last_markers"] = [], []
    extra = cells + list(preview.get("markers") or [])
    extra += [c for tl in layout["tiles"] for c in tl["cells"]]  # one extent for both layers
    extra += [m["cell"] for m in layout.get("markers") or []]
    board = grid_geometry(layout, SMALL_HALF, extra)
    im = canvas.felt(board.width, board.height + 30)
    _grid(im, layout, SMALL_HALF, extra)
    geo = grid_geometry({**layout, "tiles": new_tiles, "markers": [
        {"cell": c, "seat": 0} for c in preview.get("markers") or []]}, SMALL_HALF, extra)
    for pt in geo.tiles:
        o = "h" if pt.direction == (1, 0) else "v"
        sprite = tile.sprite(pt.a, pt.b, o, SMALL_HALF, "legal")
        im.paste(sprite, (pt.rect.x0, pt.rect.y0), sprite)
    seat = view.get("seat")
    colour = theme.TEAMS[seat % len(theme.TEAMS)] if isinstance(seat, int) else NEUTRAL
    for m in geo.markers:
        _marker(im, m.rect, colour, pale=True)
    n = len(preview.get("markers") or [])
    text = str(preview.get("move", "")) + "  ·  " + tn(tr, "{n} marker", "{n} markers", n)
    canvas.draw_text(im, (board.width / 2, board.height + 14),
                     canvas.fit_text(text, 16, board.width - 8), 16, theme.TEXT, "mm")
    return im


def candidate_png(view: dict[str, Any], preview: dict[str, Any],
                  tr: Translator | None = None) -> bytes:
    """`candidate_image` as PNG bytes."""
    return png.encode_png(canvas.frame(candidate_image(view, preview, tr)))


register_layout("grid", draw=grid_image)
