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

from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from . import canvas, theme, tile
from .board import register_layout
from .canton import BACK, BACK_EDGE, PANEL_MIN, STRIP_MIN_WIDTH
from .geometry import Rect, parse_tile
from .strip import GAP, panels
from .words import Translator, t

HALF = 36  # a grid tile lies flat: 2 * HALF x HALF
CELL_GAP = 12
LABEL = 30  # room for the row letters and column numbers
MARGIN = 16
KEPT_HALF = 22  # the kept tiles, smaller than the turned ones
TURNED_HALF = 48  # the tiles turned up this turn: the largest thing in the picture
NAME = 26  # px of a turned tile's cell name beside it
LINE = TURNED_HALF + 24  # the band showing what was turned up
VERDICT = 20  # px of the line saying whether it was a pair


@dataclass
class MemoryPicture:
    """Where the memory picture's parts go (px, inside ``(0, 0, width, height)``)."""

    width: int
    height: int
    grid: tuple[int, int]  # the grid's top-left corner
    cells: list[Rect]  # each cell's tile, A1 to the last
    turned: list[tuple[str, Rect, Rect]]  # (cell, its name's box, the tile) turned up
    verdict: tuple[float, float] | None  # where "a pair: kept" is said
    kept: list[tuple[Rect, list[tuple[str, Rect]]]]  # per seat: its panel, its kept tiles

    def tiles(self) -> list[Rect]:
        """Every tile drawn: the grid's cells, the turned ones, the kept ones."""
        return [*self.cells, *(r for _, _, r in self.turned),
                *(r for _, tiles in self.kept for _, r in tiles)]


def memory_layout(view: dict[str, Any], tr: Translator | None = None) -> MemoryPicture:
    """The grid, the band of this turn's tiles (large) and each seat's kept tiles over its
    panel of the strip (nothing when nobody kept a tile yet)."""
    layout = view.get("layout") or {}
    rows, cols = int(layout.get("rows") or 4), int(layout.get("cols") or 7)
    kept = list(layout.get("kept") or [])
    n = max(1, len(kept))
    pitch_x, pitch_y = 2 * HALF + CELL_GAP, HALF + CELL_GAP
    grid_w = LABEL + cols * pitch_x
    width = max(2 * MARGIN + grid_w, STRIP_MIN_WIDTH, n * PANEL_MIN + (n + 1) * GAP)
    slots = panels(n, width)
    per_row = max(1, (min(w for _, w in slots) - 20) // (2 * KEPT_HALF + 4))
    kept_rows = max([1, *((len(k) - 1) // per_row + 1 for k in kept)])
    kept_h = kept_rows * (KEPT_HALF + 6) + 14
    anything_kept = any(kept)
    grid_h = LABEL + rows * pitch_y
    turned = layout.get("turned") or []
    pair = layout.get("pair")
    band = LINE + (VERDICT + 8 if turned and pair is not None else 0)
    height = MARGIN + grid_h + band + (kept_h + GAP if anything_kept else 0)
    x0 = (width - grid_w) // 2
    y0 = MARGIN
    cells = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        x, y = x0 + LABEL + c * pitch_x, y0 + LABEL + r * pitch_y
        cells.append(Rect(x, y, x + 2 * HALF, y + HALF))
    # this turn's tiles, each after its cell's name, centred in the band
    gap = 10
    widths = [canvas.text_mask(d["cell"], NAME, True).width for d in turned]
    total = sum(w + gap + 2 * TURNED_HALF + 3 * gap for w in widths) - 3 * gap
    x = round((width - total) / 2)
    mid = y0 + grid_h + LINE // 2
    shown = []
    for d, w in zip(turned, widths, strict=True):
        h = canvas.text_mask(d["cell"], NAME, True).height
        name = Rect(x, mid - h // 2, x + w, mid - h // 2 + h)
        x += w + gap
        shown.append((str(d["cell"]), name, Rect(x, mid - TURNED_HALF // 2, x + 2 * TURNED_HALF,
                                                 mid - TURNED_HALF // 2 + TURNED_HALF)))
        x += 2 * TURNED_HALF + 3 * gap
    verdict = (width / 2, y0 + grid_h + LINE + VERDICT / 2) if turned and pair is not None \
        else None
    top = y0 + grid_h + band
    panels_out = []
    if anything_kept:
        for seat, (px, w) in enumerate(slots[:len(kept)]):
            tiles = []
            for k, text in enumerate(kept[seat]):
                row, col = divmod(k, per_row)
                tx, ty = px + 10 + col * (2 * KEPT_HALF + 4), top + 8 + row * (KEPT_HALF + 6)
                tiles.append((str(text), Rect(tx, ty, tx + 2 * KEPT_HALF, ty + KEPT_HALF)))
            panels_out.append((Rect(px, top, px + w, top + kept_h), tiles))
    return MemoryPicture(width, height, (x0, y0), cells, shown, verdict, panels_out)


def memory_image(view: dict[str, Any], tr: Translator | None = None) -> Image.Image:
    """The grid, this turn's tiles large, then each seat's kept tiles (registered drawer)."""
    layout = view.get("layout") or {}
    rows, cols = int(layout.get("rows") or 4), int(layout.get("cols") or 7)
    cells = list(layout.get("cells") or ["down"] * rows * cols)
    pic = memory_layout(view, tr)
    im = canvas.felt(pic.width, pic.height)
    _grid(im, pic, rows, cols, cells, layout.get("turned") or [])
    _turned(im, pic, layout, tr)
    draw = ImageDraw.Draw(im)
    for panel, tiles in pic.kept:
        draw.rounded_rectangle((panel.x0, panel.y0, panel.x1, panel.y1), radius=10,
                               fill=theme.PANEL)
        for text, r in tiles:
            a, b = parse_tile(text)
            sprite = tile.sprite(a, b, "h", KEPT_HALF)
            im.paste(sprite, (r.x0, r.y0), sprite)
    return im


def cell_name(cell: int, cols: int) -> str:
    row, col = divmod(cell, cols)
    return f"{'ABCDEFGH'[row]}{col + 1}"


def _grid(im: Image.Image, pic: MemoryPicture, rows: int, cols: int, cells: list[str],
          turned: list[dict[str, str]]) -> None:
    x0, y0 = pic.grid
    pitch_x, pitch_y = 2 * HALF + CELL_GAP, HALF + CELL_GAP
    draw = ImageDraw.Draw(im)
    for c in range(cols):
        canvas.draw_text(im, (x0 + LABEL + c * pitch_x + HALF, y0 + LABEL / 2), str(c + 1), 20,
                         theme.TEXT_SOFT, "mm", bold=True)
    for r in range(rows):
        canvas.draw_text(im, (x0 + LABEL / 2, y0 + LABEL + r * pitch_y + HALF / 2),
                         "ABCDEFGH"[r], 20, theme.TEXT_SOFT, "mm", bold=True)
    shown = {d.get("cell") for d in turned}
    for i, (state, cell) in enumerate(zip(cells, pic.cells, strict=False)):
        x, y = cell.x0, cell.y0
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


def _turned(im: Image.Image, pic: MemoryPicture, layout: dict[str, Any],
            tr: Translator | None) -> None:
    """This turn's tiles (or the last turn's), large, each after its cell's name, and whether
    they made a pair; before anything is turned up, what to do."""
    turned = layout.get("turned") or []
    if not turned:
        y = (pic.cells[-1].y1 if pic.cells else pic.grid[1]) + LINE / 2
        canvas.draw_text(im, (pic.width / 2, y), t(tr, "Turn up two tiles that share a number"),
                         20, theme.TEXT, "mm")
        return
    for d, (cell, name, r) in zip(turned, pic.turned, strict=True):
        canvas.draw_text(im, (name.x0, name.y0), cell, NAME, theme.TEXT, "lt", bold=True)
        a, b = parse_tile(d["tile"])
        mask, (dx, dy) = tile.shadow_mask("h", TURNED_HALF)
        im.paste(theme.SHADOW, (r.x0 + dx, r.y0 + dy), mask)
        sprite = tile.sprite(a, b, "h", TURNED_HALF, "last")
        im.paste(sprite, (r.x0, r.y0), sprite)
    pair = layout.get("pair")
    if pic.verdict is not None:
        verdict = t(tr, "a pair: kept") if pair else t(tr, "no pair: turned back")
        canvas.draw_text(im, pic.verdict, verdict, VERDICT, theme.TEXT_SOFT, "mm")


register_layout("memory", draw=memory_image)
