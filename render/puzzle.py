"""A puzzle's board: the grid with cell names, tiles, squares, lines and their totals.

Layout format (made by `core.solitaire.puzzles.rules`)::

    {"kind": "puzzle", "puzzle": "quadrille", "width": 8, "height": 8,
     "cells": ["A1", ...], "givens": {"A1": 6},
     "tiles": [{"tile": "6-4", "cells": ["B1", "C1"], "values": [6, 4],
                "fixed": false, "last": true}],
     "squares": [["A1", "B1", "A2", "B2"], ...],       # a quadrille's squares
     "lines": [{"cells": [...], "total": 13 | null, "current": 9, "broken": false}],
     "broken_cells": ["B1"]}

Free cells are dark squares with their name (a given number in gold);
placed tiles are drawn as tiles (two cells that touch only by a corner, on a
star's slanted rays, as two half tiles joined by a bar); each line shows its
current total (and the total it needs) one step past its last cell, red when
broken, gold when met; broken cells are ringed in red. Under the board, the
tiles still to place.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from . import canvas, theme, tile
from .board import register_layout
from .words import Translator, t, tn

HALF = 40
MARGIN = 16
TITLE = 34
BROKEN: theme.RGB = (236, 64, 64)
MET: theme.RGB = (250, 206, 60)
CELL: theme.RGB = (18, 74, 48)
CELL_EDGE: theme.RGB = (60, 130, 96)
SQUARE_EDGE: theme.RGB = (170, 220, 190)
SMALL = 16  # half of a tile still to place
PER_ROW = 14


def _pos(cell: str) -> tuple[int, int]:
    return ord(cell[0]) - 65, int(cell[1:]) - 1


def _label_spot(cells: list[str]) -> tuple[int, int]:
    """One step past a line's last cell, in the line's direction (below a one-cell line)."""
    if len(cells) == 1:
        c1, r1 = _pos(cells[0])
        return c1, r1 + 1
    (c0, r0), (c1, r1) = _pos(cells[-2]), _pos(cells[-1])
    return c1 + (c1 - c0), r1 + (r1 - r0)


def puzzle_image(view: dict[str, Any], tr: Translator | None = None) -> Image.Image:
    """The whole puzzle picture (registered as the drawer of the ``"puzzle"`` kind)."""
    lay = view["layout"]
    h = HALF
    spots = [_label_spot(line["cells"]) for line in lay["lines"]]
    cols = [0, lay["width"] - 1] + [c for c, _ in spots]
    rows = [0, lay["height"] - 1] + [r for _, r in spots]
    c_min, c_max, r_min, r_max = min(cols), max(cols), min(rows), max(rows)
    ox = MARGIN + (1 - c_min) * h if c_min < 0 else MARGIN + h // 2
    oy = TITLE + MARGIN + (-r_min) * h + h // 2
    to_place = list(view.get("to_place") or [])
    tray_rows = (len(to_place) + PER_ROW - 1) // PER_ROW
    width = max(ox + (c_max + 1) * h + MARGIN + h // 2, PER_ROW * (2 * SMALL + 8) + 2 * MARGIN,
                420)
    board_bottom = oy + (r_max + 1) * h + MARGIN
    height = board_bottom + 30 + tray_rows * (SMALL + 10) + MARGIN
    im = canvas.felt(width, height)
    d = ImageDraw.Draw(im)

    def box(cell: str) -> tuple[int, int, int, int]:
        c, r = _pos(cell)
        return ox + c * h, oy + r * h, ox + (c + 1) * h, oy + (r + 1) * h

    covered = {c for tl in lay["tiles"] for c in tl["cells"]}
    bad = set(lay.get("broken_cells") or [])
    givens = lay.get("givens") or {}
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
    for cell in bad:
        x0, y0, x1, y1 = box(cell)
        d.rectangle((x0, y0, x1 - 1, y1 - 1), outline=BROKEN, width=3)
    for line, (c, r) in zip(lay["lines"], spots, strict=True):
        x, y = ox + c * h + h / 2, oy + r * h + h / 2
        total = line["total"]
        full = all(cell in covered for cell in line["cells"])
        text = str(line["current"]) if total is None else f"{line['current']}/{total}"
        colour = BROKEN if line.get("broken") else MET if full else theme.TEXT
        canvas.draw_text(im, (x, y), text, 13, colour, "mm", bold=bool(line.get("broken")))
    _title(im, view, tr, width)
    _tray(im, to_place, int(view.get("tiles_left", len(to_place))), board_bottom, tr)
    return im


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


def _tray(im: Image.Image, to_place: list[str], left: int, top: int,
          tr: Translator | None) -> None:
    """The tiles still to place (when fewer are needed than are left: "choose from")."""
    label = tn(tr, "{n} tile to place", "{n} tiles to place", left)
    if to_place and left < len(to_place):
        label += " " + tn(tr, "(any of these {n})", "(any of these {n})", len(to_place))
    canvas.draw_text(im, (MARGIN, top), label, 13, theme.TEXT_SOFT)
    for i, text in enumerate(to_place):
        a, b = (int(x) for x in text.split("-"))
        row, col = divmod(i, PER_ROW)
        sprite = tile.sprite(a, b, "h", SMALL)
        im.paste(sprite, (MARGIN + col * (2 * SMALL + 8), top + 22 + row * (SMALL + 10)), sprite)


register_layout("puzzle", draw=puzzle_image)
