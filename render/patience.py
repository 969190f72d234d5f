"""The patience's table: seven columns of face-down tiles, each topped by its face-up tile.

Layout format (made by `core.solitaire.patience`)::

    {"kind": "patience",
     "columns": [{"up": "6-4" | null, "hidden": 3, "tiles": [...]}, ...],  # tiles: at the end
     "last": ["6-4", "2-0"],      # the pair just removed
     "removed": 12, "over": false, "won": false, "winnable": null | true | false}

Each column is numbered; its face-down tiles are backs stacked one under
the other, with how many there are, and its face-up tile stands at the
bottom of the stack.  Once the game is over the tiles left face down are
shown dimmed under their column's top tile, each whole.  On the right: the pair just removed, the
tiles removed so far, and at the end whether the deal could have been won.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from . import canvas, theme, tile
from .board import register_layout
from .canton import BACK, BACK_EDGE
from .geometry import parse_tile
from .words import Translator, t, tn

HALF = 40  # a face-up tile stands: HALF x 2 * HALF
PITCH = HALF + 44
STEP = 16  # each face-down tile shows this much of itself above the next
MARGIN = 18
LABEL = 30
SIDE = 380  # the panel on the right
OPEN = 2 * HALF + 6  # at the end each tile is shown whole


@dataclass(frozen=True)
class PatienceGeometry:
    """Where the columns go: each column's top-left corner (its number above its tiles),
    the columns' width and height, and the picture's size with the side panel."""

    origins: tuple[tuple[int, int], ...]
    over: bool
    columns_width: int
    columns_height: int
    width: int
    height: int


def patience_geometry(layout: dict[str, Any]) -> PatienceGeometry:
    """The columns' places (shared by the PNG and the web's SVG)."""
    columns = list(layout.get("columns") or [])
    over = bool(layout.get("over"))
    depth = max([1, *(_shown_count(c, over) for c in columns)])
    col_h = LABEL + (depth - 1) * (OPEN if over else STEP) + 2 * HALF + 30
    cols_w = max(1, len(columns)) * PITCH
    origins = tuple((MARGIN + i * PITCH + (PITCH - HALF) // 2, MARGIN)
                    for i in range(len(columns)))
    return PatienceGeometry(origins, over, 2 * MARGIN + cols_w, 2 * MARGIN + col_h,
                            2 * MARGIN + cols_w + SIDE, max(2 * MARGIN + col_h, 260))


def column_tiles(col: dict[str, Any], top: tuple[int, int], over: bool
                 ) -> list[tuple[tuple[int, int, int, int], str | None]]:
    """A column's tiles from `top` (under its number) down: (box, tile or None for a
    face-down tile); an empty column has none."""
    x, y = top
    if over and col.get("tiles"):
        return [((x, y + k * OPEN, x + HALF, y + k * OPEN + 2 * HALF), str(text))
                for k, text in enumerate(col["tiles"])]
    if col.get("up"):
        hidden = int(col.get("hidden") or 0)
        out: list[tuple[tuple[int, int, int, int], str | None]] = [
            ((x, y + k * STEP, x + HALF, y + k * STEP + 2 * HALF), None) for k in range(hidden)]
        return [*out, ((x, y + hidden * STEP, x + HALF, y + hidden * STEP + 2 * HALF),
                       str(col["up"]))]
    return []


def patience_image(view: dict[str, Any], tr: Translator | None = None) -> Image.Image:
    """The columns and the side panel (registered drawer of the "patience" kind)."""
    layout = view.get("layout") or {}
    columns = list(layout.get("columns") or [])
    geo = patience_geometry(layout)
    width, height = geo.width, geo.height
    cols_w = geo.columns_width - 2 * MARGIN
    im = canvas.felt(width, height)
    for i, (col, origin) in enumerate(zip(columns, geo.origins, strict=True)):
        _column(im, origin, i, col, geo.over, tr)
    _side(im, (MARGIN + cols_w + 10, MARGIN, width - MARGIN, height - MARGIN), layout, tr)
    return im


def _shown_count(col: dict[str, Any], over: bool) -> int:
    if over:
        return len(col.get("tiles") or [])
    return int(col.get("hidden") or 0) + (1 if col.get("up") else 0)


def _column(im: Image.Image, origin: tuple[int, int], i: int, col: dict[str, Any], over: bool,
            tr: Translator | None) -> None:
    x, y = origin
    canvas.draw_text(im, (x + HALF / 2, y + LABEL / 2), str(i + 1), 20, theme.TEXT_SOFT, "mm",
                     bold=True)
    y += LABEL
    draw = ImageDraw.Draw(im)
    if over and col.get("tiles"):
        tiles = list(col["tiles"])  # top first: the face-up tile, then those it covered
        for k, text in enumerate(tiles):
            a, b = parse_tile(text)
            sprite = tile.sprite(a, b, "v", HALF, "dim" if k else "plain")
            im.paste(sprite, (x, y + k * OPEN), sprite)
        bottom = y + (len(tiles) - 1) * OPEN + 2 * HALF
    elif col.get("up"):
        hidden = int(col.get("hidden") or 0)
        for k in range(hidden):
            draw.rounded_rectangle((x + 2, y + k * STEP + 2, x + HALF - 3,
                                    y + k * STEP + 2 * HALF - 3), radius=6, fill=BACK,
                                   outline=BACK_EDGE, width=2)
        a, b = parse_tile(col["up"])
        sprite = tile.sprite(a, b, "v", HALF, "plain")
        im.paste(sprite, (x, y + hidden * STEP), sprite)
        bottom = y + hidden * STEP + 2 * HALF
    else:
        draw.rounded_rectangle((x + 2, y + 2, x + HALF - 3, y + 2 * HALF - 3), radius=6,
                               outline=theme.FELT_EDGE, width=2)
        bottom = y + 2 * HALF
    hidden = int(col.get("hidden") or 0)
    if hidden and not over:
        canvas.draw_text(im, (x + HALF / 2, bottom + 6), tn(tr, "{n} hidden", "{n} hidden",
                                                              hidden), 15, theme.TEXT_SOFT, "mt")


def _side(im: Image.Image, box: tuple[int, int, int, int], layout: dict[str, Any],
          tr: Translator | None) -> None:
    x0, y0, x1, y1 = box
    ImageDraw.Draw(im).rounded_rectangle(box, radius=10, fill=theme.PANEL)
    x, y = x0 + 14, y0 + 12
    if not layout.get("over"):  # the rule, while it applies
        canvas.draw_text(im, (x, y), t(tr, "Remove two face-up tiles totalling 12"), 16,
                         theme.TEXT_SOFT)
        y += 30
    last = layout.get("last") or []
    if last:
        canvas.draw_text(im, (x, y), t(tr, "Just removed"), 18, theme.TEXT, bold=True)
        y += 28
        for k, text in enumerate(last):
            a, b = parse_tile(text)
            sprite = tile.sprite(a, b, "h", 24, "last")
            im.paste(sprite, (x + k * 60, y), sprite)
        y += 36
    removed = int(layout.get("removed") or 0)
    canvas.draw_text(im, (x, y), tn(tr, "{n} tile removed", "{n} tiles removed", removed), 18,
                     theme.TEXT)
    y += 34
    if layout.get("over"):
        if layout.get("won"):
            lines = [(t(tr, "Won: every tile is gone"), theme.WIN)]
        else:
            lines = [(t(tr, "Stuck: no pair totals 12"), theme.TEXT)]
            if layout.get("winnable"):
                lines.append((t(tr, "This deal could have been won"), theme.TEXT_SOFT))
            elif layout.get("winnable") is False:
                lines.append((t(tr, "This deal could not be won"), theme.TEXT_SOFT))
        for text, colour in lines:
            canvas.draw_text(im, (x, y), canvas.fit_text(text, 18, x1 - x - 10), 18, colour,
                             bold=colour == theme.WIN)
            y += 28
    del y1


register_layout("patience", draw=patience_image)
