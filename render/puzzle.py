"""A puzzle's board: the grid with cell names, tiles, squares, lines and their totals.

Layout format (made by `core.solitaire.puzzles.rules`)::

    {"kind": "puzzle", "puzzle": "quadrille", "width": 8, "height": 8,
     "cells": ["A1", ...], "givens": {"A1": 6},
     "tiles": [{"tile": "6-4", "cells": ["B1", "C1"], "values": [6, 4],
                "fixed": false, "last": true}],
     "squares": [["A1", "B1", "A2", "B2"], ...],       # a quadrille's squares
     "lines": [{"cells": [...], "total": 13 | null, "current": 9, "broken": false}],
     "broken_cells": ["B1"], "tags": [{"text": "3", "at": [9, 1]}]}

Free cells are dark squares with their name (a given number in gold);
placed tiles are drawn as tiles (two cells that touch only by a corner, on a
star's slanted rays, as two half tiles joined by a bar); each line shows its
current total (and the total it needs) one step past its last cell, red when
broken, gold when met; a tile in error is ringed in red whole, a free cell in
error on its own. Column letters and row numbers run along the board, and what
the texts number ("square 3", "ray 3") carries its number. Under the board,
the tiles still to place, at least as large as the board's (none once all are
placed). `geometry` says where everything goes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from . import canvas, theme, tile
from .board import register_layout
from .words import Translator, t, tn

HALF = 40
MARGIN = 16
TITLE = 34
AXIS = 18  # the band of column letters above the board and row numbers left of it
BROKEN: theme.RGB = (236, 64, 64)
MET: theme.RGB = (250, 206, 60)
CELL: theme.RGB = (18, 74, 48)
CELL_EDGE: theme.RGB = (60, 130, 96)
SQUARE_EDGE: theme.RGB = (170, 220, 190)
TRAY_GAP = 8
TRAY_ROW = 7  # tiles a row of the tray holds at least (the picture is widened for them)
TRAY_SHARE = 0.055  # a tray tile's half is at least this share of the picture's width


def _pos(cell: str) -> tuple[int, int]:
    return ord(cell[0]) - 65, int(cell[1:]) - 1


def _label_spot(cells: list[str]) -> tuple[int, int]:
    """One step past a line's last cell, in the line's direction (below a one-cell line)."""
    if len(cells) == 1:
        c1, r1 = _pos(cells[0])
        return c1, r1 + 1
    (c0, r0), (c1, r1) = _pos(cells[-2]), _pos(cells[-1])
    return c1 + (c1 - c0), r1 + (r1 - r0)


@dataclass(frozen=True)
class Geometry:
    """Where things go: the grid's origin, the picture's size, the tray's tiles."""

    ox: int
    oy: int
    width: int
    height: int
    board_bottom: int
    region: tuple[int, int]  # the left and top of the board with its labels (in pixels)
    tray_half: int
    tray: tuple[tuple[str, int, int], ...]  # (tile, x, y) of each tile still to place

    def box(self, cell: str) -> tuple[int, int, int, int]:
        c, r = _pos(cell)
        return self.box_at(c, r)

    def box_at(self, c: int, r: int) -> tuple[int, int, int, int]:
        h = HALF
        return self.ox + c * h, self.oy + r * h, self.ox + (c + 1) * h, self.oy + (r + 1) * h


def geometry(view: dict[str, Any]) -> Geometry:
    """The puzzle picture's geometry for `view`: the board with its totals, numbers and axis
    labels, then the tiles still to place, each as large as a board tile or larger (a phone
    shows the picture about 360 px wide: the tiles to place must read there)."""
    lay = view["layout"]
    h = HALF
    spots = [_label_spot(line["cells"]) for line in lay["lines"]]
    spots += [tuple(tag["at"]) for tag in lay.get("tags") or []]
    cols = [0, lay["width"] - 1] + [c for c, _ in spots]
    rows = [0, lay["height"] - 1] + [r for _, r in spots]
    c_min, c_max, r_min, r_max = min(cols), max(cols), min(rows), max(rows)
    ox = MARGIN + AXIS + (-c_min) * h
    oy = TITLE + MARGIN + AXIS + (-r_min) * h
    board_w = ox + (c_max + 1) * h + MARGIN
    to_place = list(view.get("to_place") or []) if int(view.get("tiles_left", 1)) else []
    half = HALF
    width = max(board_w, 420)
    if to_place:
        width = max(width, 2 * MARGIN + TRAY_ROW * (2 * HALF + TRAY_GAP) - TRAY_GAP)
        half = max(HALF, math.ceil(width * TRAY_SHARE))
        width = max(width, 2 * MARGIN + TRAY_ROW * (2 * half + TRAY_GAP) - TRAY_GAP)
    board_bottom = oy + (r_max + 1) * h + MARGIN
    per_row = max(1, (width - 2 * MARGIN + TRAY_GAP) // (2 * half + TRAY_GAP))
    top = board_bottom + 24
    tray = []
    for i, text in enumerate(to_place):
        row, col = divmod(i, per_row)
        tray.append((text, MARGIN + col * (2 * half + TRAY_GAP), top + row * (half + TRAY_GAP)))
    rows_used = -(-len(to_place) // per_row)
    height = (top + rows_used * (half + TRAY_GAP) if to_place else board_bottom) + MARGIN
    region = (ox + c_min * h, oy + r_min * h)
    return Geometry(ox, oy, width, height, board_bottom, region, half, tuple(tray))


def cell_boxes(view: dict[str, Any]) -> dict[str, tuple[int, int, int, int]]:
    """Each cell's square in the picture (left, top, right, bottom)."""
    g = geometry(view)
    return {cell: g.box(cell) for cell in view["layout"]["cells"]}


def puzzle_image(view: dict[str, Any], tr: Translator | None = None) -> Image.Image:
    """The whole puzzle picture (registered as the drawer of the ``"puzzle"`` kind)."""
    lay = view["layout"]
    g = geometry(view)
    h = HALF
    im = canvas.felt(g.width, g.height)
    d = ImageDraw.Draw(im)
    box = g.box
    covered = {c for tl in lay["tiles"] for c in tl["cells"]}
    bad = set(lay.get("broken_cells") or [])
    givens = lay.get("givens") or {}
    _axes(im, g, lay["cells"])
    for cell in lay["cells"]:
        x0, y0, x1, y1 = box(cell)
        d.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), fill=CELL, outline=CELL_EDGE)
        if cell in covered:
            continue
        if cell in givens:
            canvas.draw_text(im, ((x0 + x1) / 2, (y0 + y1) / 2), str(givens[cell]), 20, MET,
                             "mm", bold=True)
            canvas.draw_text(im, (x0 + 3, y0 + 2), cell, 9, theme.TEXT_SOFT)
        else:
            canvas.draw_text(im, ((x0 + x1) / 2, (y0 + y1) / 2), cell, 12, theme.TEXT_SOFT, "mm")
    for square in lay.get("squares") or []:
        xs = [box(c) for c in square]
        d.rectangle((min(b[0] for b in xs) - 1, min(b[1] for b in xs) - 1,
                     max(b[2] for b in xs), max(b[3] for b in xs)), outline=SQUARE_EDGE, width=2)
    for tl in lay["tiles"]:
        _draw_tile(im, tl, box)
    for cell in bad - covered:  # a free cell in error: ringed
        x0, y0, x1, y1 = box(cell)
        d.rectangle((x0, y0, x1 - 1, y1 - 1), outline=BROKEN, width=3)
    for tl in lay["tiles"]:  # a tile in error: ringed whole, its two halves kept together
        if bad & set(tl["cells"]):
            _ring_tile(im, tl, box)
    tagged = {tuple(tag["at"]) for tag in lay.get("tags") or []}
    for line in lay["lines"]:
        c, r = _label_spot(line["cells"])
        x, y = g.ox + c * h + h / 2, g.oy + r * h + h / 2
        if (c, r) in tagged:  # the line's number above its total
            y += h / 4
        total = line["total"]
        full = all(cell in covered for cell in line["cells"])
        text = str(line["current"]) if total is None else f"{line['current']}/{total}"
        colour = BROKEN if line.get("broken") else MET if full else theme.TEXT
        canvas.draw_text(im, (x, y), text, 13, colour, "mm", bold=bool(line.get("broken")))
    spots = {_label_spot(line["cells"]) for line in lay["lines"]}
    for tag in lay.get("tags") or []:
        c, r = tag["at"]
        x, y = g.ox + c * h + h / 2, g.oy + r * h + h / 2
        if (c, r) in spots:
            y -= h / 5
        radius = 11
        d.ellipse((x - radius, y - radius, x + radius, y + radius), fill=CELL,
                  outline=SQUARE_EDGE, width=2)
        canvas.draw_text(im, (x, y), tag["text"], 13, SQUARE_EDGE, "mm", bold=True)
    _title(im, view, tr, g.width)
    _tray(im, view, g, tr)
    return im


def _axes(im: Image.Image, g: Geometry, cells: list[str]) -> None:
    """Column letters above the board and row numbers left of it (where a cell is), so
    that a cell under a tile can still be named."""
    used = [_pos(c) for c in cells]
    x_left, y_top = g.region
    for c in sorted({c for c, _ in used}):
        x0, _, x1, _ = g.box_at(c, 0)
        canvas.draw_text(im, ((x0 + x1) / 2, y_top - AXIS / 2), chr(65 + c), 11,
                         theme.TEXT_SOFT, "mm")
    for r in sorted({r for _, r in used}):
        _, y0, _, y1 = g.box_at(0, r)
        canvas.draw_text(im, (x_left - AXIS / 2, (y0 + y1) / 2), str(r + 1), 11,
                         theme.TEXT_SOFT, "mm")


def _ring_tile(im: Image.Image, tl: dict[str, Any], box: Any) -> None:
    """A red ring round a whole tile (round each half of a tile drawn as two halves)."""
    d = ImageDraw.Draw(im)
    boxes = [box(c) for c in tl["cells"]]
    (x0, y0, _, _), (u0, v0, _, _) = boxes
    if y0 == v0 or x0 == u0:
        boxes = [(min(b[0] for b in boxes), min(b[1] for b in boxes),
                  max(b[2] for b in boxes), max(b[3] for b in boxes))]
    for a0, b0, a1, b1 in boxes:
        d.rounded_rectangle((a0, b0, a1 - 1, b1 - 1), radius=6, outline=BROKEN, width=3)


def _draw_tile(im: Image.Image, tl: dict[str, Any], box: Any) -> None:
    (a, b), (c1, c2) = tl["values"], tl["cells"]
    style = "last" if tl.get("last") else "plain"
    (x0, y0, _, _), (u0, v0, _, _) = box(c1), box(c2)
    h = HALF
    if y0 == v0 or x0 == u0:  # side by side or one above the other
        horizontal = y0 == v0
        first, (p, q) = ((a, b), (x0, y0)) if (x0, y0) <= (u0, v0) else ((b, a), (u0, v0))
        sprite = tile.sprite(first[0], first[1], "h" if horizontal else "v", h, style)
        im.paste(sprite, (p, q), sprite)
        if tl.get("fixed"):
            ImageDraw.Draw(im).rectangle((p + 3, q + 3, p + 8, q + 8), fill=theme.PIN)
        return
    # touching by a corner: two half tiles and a bar between their centres
    d = ImageDraw.Draw(im)
    d.line((x0 + h / 2, y0 + h / 2, u0 + h / 2, v0 + h / 2), fill=theme.TILE_EDGE, width=h // 3)
    for value, (p, q) in ((a, (x0, y0)), (b, (u0, v0))):
        sprite = tile.sprite(value, value, "h", h, style).crop((0, 0, h, h))
        im.paste(sprite, (p, q), sprite)


def _title(im: Image.Image, view: dict[str, Any], tr: Translator | None, width: int) -> None:
    p = view.get("puzzle") or {}
    lang_name = (view.get("name") or {}).get("en", "")
    puzzle_name = (p.get("name") or {}).get("en", p.get("id", ""))
    if view.get("shows") == "solution":
        status = t(tr, "a solution")
    elif view.get("solved"):
        status = t(tr, "Solved")
    elif view.get("broken"):
        status = tn(tr, "{n} thing broken", "{n} things broken", len(view["broken"]))
    else:
        status = t(tr, "Nothing broken")
    hints = int(view.get("hints") or 0)
    text = f"{lang_name}: {puzzle_name} - {status}"
    if hints:
        text += " - " + tn(tr, "{n} hint", "{n} hints", hints)
    colour = MET if view.get("solved") else BROKEN if view.get("broken") else theme.TEXT
    canvas.draw_text(im, (MARGIN, MARGIN), canvas.fit_text(text, 16, width - 2 * MARGIN), 16,
                     colour, bold=True)


def _tray(im: Image.Image, view: dict[str, Any], g: Geometry, tr: Translator | None) -> None:
    """The tiles still to place (when fewer are needed than are left: "choose from"); nothing
    once every tile is placed."""
    if not g.tray:
        return
    left = int(view.get("tiles_left", len(g.tray)))
    label = tn(tr, "{n} tile to place", "{n} tiles to place", left)
    if left < len(g.tray):
        label += " " + tn(tr, "(any of these {n})", "(any of these {n})", len(g.tray))
    canvas.draw_text(im, (MARGIN, g.board_bottom), label, 15, theme.TEXT_SOFT)
    for text, x, y in g.tray:
        a, b = (int(v) for v in text.split("-"))
        sprite = tile.sprite(a, b, "h", g.tray_half)
        im.paste(sprite, (x, y), sprite)


register_layout("puzzle", draw=puzzle_image)
