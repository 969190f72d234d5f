"""The memory game's table: the grid with its cell names, and the tiles each seat kept.

Layout format (made by `core.memory.match`)::

    {"kind": "memory", "rows": 4, "cols": 7,
     "cells": ["down", "empty", "6-4", ...],   # A1, A2 ... D7: face down, kept, face up
     "turned": [{"cell": "B3", "tile": "6-4"}, ...],   # this turn's (or the last turn's)
     "pair": true | false | null,              # whether the last turn kept its two tiles
     "kept": [["6-4", "4-1"], ...]}            # per seat, face up in front of them

Face-down tiles are backs with their cell's name on them (what a player
presses or types); a tile turned up in the turn in progress lies face up in
its cell.  A line under the grid says what the last turn turned up and
whether it was a pair; under it, each seat's kept tiles stand over that
seat's panel of the table strip (`render.position_png` draws the strip).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from . import canvas, theme, tile
from .board import register_layout
from .canton import BACK, BACK_EDGE, PANEL_MIN, STRIP_MIN_WIDTH
from .geometry import parse_tile
from .strip import GAP, panels
from .words import Translator, t, tn

HALF = 36  # a grid tile lies flat: 2 * HALF x HALF
CELL_GAP = 12
LABEL = 30  # room for the row letters and column numbers
MARGIN = 16
KEPT_HALF = 16  # the kept tiles, smaller
LINE = 34  # the line saying what was turned up


def memory_image(view: dict[str, Any], tr: Translator | None = None) -> Image.Image:
    """The grid, the last turn's line, then each seat's kept tiles (registered drawer)."""
    layout = view.get("layout") or {}
    rows, cols = int(layout.get("rows") or 4), int(layout.get("cols") or 7)
    cells = list(layout.get("cells") or ["down"] * rows * cols)
    kept = list(layout.get("kept") or [])
    n = max(1, len(kept))
    pitch_x, pitch_y = 2 * HALF + CELL_GAP, HALF + CELL_GAP
    grid_w = LABEL + cols * pitch_x
    width = max(2 * MARGIN + grid_w, STRIP_MIN_WIDTH, n * PANEL_MIN + (n + 1) * GAP)
    slots = panels(n, width)
    per_row = max(1, (min(w for _, w in slots) - 20) // (2 * KEPT_HALF + 4))
    kept_rows = max([1, *((len(k) - 1) // per_row + 1 for k in kept)])
    kept_h = 34 + kept_rows * (KEPT_HALF + 6) + 10
    grid_h = LABEL + rows * pitch_y
    height = MARGIN + grid_h + LINE + (kept_h + GAP if kept else 0)
    im = canvas.felt(width, height)
    x0 = (width - grid_w) // 2
    y0 = MARGIN
    _grid(im, (x0, y0), rows, cols, cells, layout.get("turned") or [])
    _turn_line(im, (width / 2, y0 + grid_h + LINE / 2), layout, tr)
    top = y0 + grid_h + LINE
    for seat, (x, w) in enumerate(slots[:len(kept)]):
        _kept(im, (x, top, x + w, top + kept_h), kept[seat], per_row, tr)
    return im


def cell_name(cell: int, cols: int) -> str:
    row, col = divmod(cell, cols)
    return f"{'ABCDEFGH'[row]}{col + 1}"


def _grid(im: Image.Image, origin: tuple[int, int], rows: int, cols: int, cells: list[str],
          turned: list[dict[str, str]]) -> None:
    x0, y0 = origin
    pitch_x, pitch_y = 2 * HALF + CELL_GAP, HALF + CELL_GAP
    draw = ImageDraw.Draw(im)
    for c in range(cols):
        canvas.draw_text(im, (x0 + LABEL + c * pitch_x + HALF, y0 + LABEL / 2), str(c + 1), 20,
                         theme.TEXT_SOFT, "mm", bold=True)
    for r in range(rows):
        canvas.draw_text(im, (x0 + LABEL / 2, y0 + LABEL + r * pitch_y + HALF / 2),
                         "ABCDEFGH"[r], 20, theme.TEXT_SOFT, "mm", bold=True)
    shown = {d.get("cell") for d in turned}
    for i, state in enumerate(cells):
        r, c = divmod(i, cols)
        x = x0 + LABEL + c * pitch_x
        y = y0 + LABEL + r * pitch_y
        box = (x + 2, y + 2, x + 2 * HALF - 3, y + HALF - 3)
        if state == "empty":
            draw.rounded_rectangle(box, radius=6, outline=theme.FELT_EDGE, width=2)
        elif state == "down":
            draw.rounded_rectangle(box, radius=6, fill=BACK, outline=BACK_EDGE, width=2)
            canvas.draw_text(im, (x + HALF, y + HALF / 2), cell_name(i, cols), 18,
                             theme.TEXT_SOFT, "mm")
        else:
            a, b = parse_tile(state)
            style = "last" if cell_name(i, cols) in shown else "plain"
            sprite = tile.sprite(a, b, "h", HALF, style)
            im.paste(sprite, (x, y), sprite)


def _turn_line(im: Image.Image, centre: tuple[float, float], layout: dict[str, Any],
               tr: Translator | None) -> None:
    """What the turn in progress (or the last one) turned up, each tile drawn after its cell's
    name, and whether it was a pair."""
    turned = layout.get("turned") or []
    cx, cy = centre
    if not turned:
        canvas.draw_text(im, centre, t(tr, "Turn up two tiles that share a number"), 20,
                         theme.TEXT, "mm")
        return
    pair = layout.get("pair")
    verdict = "" if pair is None else t(tr, "a pair: kept") if pair else t(
        tr, "no pair: turned back")
    head = t(tr, "Turned up:")
    size, half, gap = 20, 16, 8
    names = [canvas.text_mask(d["cell"], size, True).width for d in turned]
    total = (canvas.text_mask(head, size).width + sum(w + gap + 4 * half + 2 * gap for w in names)
             + (canvas.text_mask(verdict, size).width if verdict else 0))
    x = cx - total / 2
    x = canvas.draw_text(im, (x, cy), head, size, theme.TEXT, "lm")[2] + 2 * gap
    for d in turned:
        x = canvas.draw_text(im, (x, cy), d["cell"], size, theme.TEXT, "lm", bold=True)[2] + gap
        a, b = parse_tile(d["tile"])
        sprite = tile.sprite(a, b, "h", half, "last")
        im.paste(sprite, (round(x), round(cy - half / 2)), sprite)
        x += 4 * half + 2 * gap - 2 * half
    if verdict:
        canvas.draw_text(im, (x, cy), verdict, size, theme.TEXT_SOFT, "lm")


def _kept(im: Image.Image, box: tuple[int, int, int, int], tiles: list[str], per_row: int,
          tr: Translator | None) -> None:
    """One seat's kept tiles, small and face up, with how many and their pips."""
    x0, y0, _, y1 = box
    ImageDraw.Draw(im).rounded_rectangle(box, radius=10, fill=theme.PANEL)
    pips = sum(sum(parse_tile(s)) for s in tiles)
    label = t(tr, "nothing kept yet") if not tiles else tn(
        tr, "kept {n} tile, {points} pts", "kept {n} tiles, {points} pts", len(tiles),
        points=pips)
    canvas.draw_text(im, (x0 + 10, y0 + 8), label, 18, theme.TEXT_SOFT)
    for k, text in enumerate(tiles):
        row, col = divmod(k, per_row)
        a, b = parse_tile(text)
        sprite = tile.sprite(a, b, "h", KEPT_HALF)
        im.paste(sprite, (x0 + 10 + col * (2 * KEPT_HALF + 4), y0 + 34 + row * (KEPT_HALF + 6)),
                 sprite)
    del y1


register_layout("memory", draw=memory_image)
