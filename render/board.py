"""Drawing a board: dispatch on the view's layout kind, then paint the geometry.

`LAYOUTS` maps a layout kind to a function ``layout dict -> Board`` (geometry);
`draw_board` paints any `Board` (shadows, the last tile's glow, tile sprites,
open-end markers) on felt. A future kind whose picture is not made of flat
tiles (a tower seen from the side, a puzzle grid) registers a whole drawing
function in `DRAWERS` instead (``view -> Image``); see `register_layout`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from . import canvas, theme, tile
from .geometry import Board
from .line import layout_line
from .spinner import spinner_layout

LayoutFn = Callable[[dict[str, Any]], Board]
DrawFn = Callable[[dict[str, Any]], Image.Image]

LAYOUTS: dict[str, LayoutFn] = {
    "line": layout_line,
    "cross": spinner_layout,
}
DRAWERS: dict[str, DrawFn] = {}


def register_layout(
    kind: str, *, layout: LayoutFn | None = None, draw: DrawFn | None = None
) -> None:
    """Teach `board_image` a new layout kind (geometry function or a whole drawer)."""
    if (layout is None) == (draw is None):
        raise ValueError("give exactly one of layout= or draw=")
    if layout is not None:
        LAYOUTS[kind] = layout
    else:
        assert draw is not None
        DRAWERS[kind] = draw


def view_layout(view: dict[str, Any]) -> dict[str, Any]:
    """The view's layout, or a line made of ``board`` for views that have none."""
    layout = view.get("layout")
    if layout:
        return layout
    return {"kind": "line", "chain": list(view.get("board") or []), "last": None}


def board_geometry(view: dict[str, Any]) -> Board:
    """The placed tiles and markers for the view (tile-based kinds only)."""
    layout = view_layout(view)
    kind = layout.get("kind", "line")
    if kind not in LAYOUTS:
        raise ValueError(f"no board geometry for layout kind {kind!r}; known: {_known()}")
    return LAYOUTS[kind](layout)


def board_image(view: dict[str, Any]) -> Image.Image:
    """The table seen from above, as an RGB image."""
    layout = view_layout(view)
    kind = layout.get("kind", "line")
    if kind in DRAWERS:
        return DRAWERS[kind](view)
    if kind not in LAYOUTS:
        raise ValueError(f"cannot draw layout kind {kind!r}; known: {_known()}")
    return draw_board(LAYOUTS[kind](layout))


def _known() -> str:
    return ", ".join(sorted({*LAYOUTS, *DRAWERS}))


def draw_board(board: Board, im: Image.Image | None = None, origin: tuple[int, int] = (0, 0),
               ) -> Image.Image:
    """Paint ``board`` on felt (or onto ``im`` at ``origin``)."""
    if im is None:
        im = canvas.felt(board.width, board.height)
    ox, oy = origin
    h = board.half
    if not board.tiles:
        canvas.draw_text(im, (ox + board.width / 2, oy + board.height / 2),
                         "No tiles on the table yet", 18, theme.TEXT_SOFT, "mm")
        return im
    for t in board.tiles:
        o = "h" if t.horizontal else "v"
        mask, (dx, dy) = tile.shadow_mask(o, h)
        im.paste(theme.SHADOW, (ox + t.rect.x0 + dx, oy + t.rect.y0 + dy), mask)
    for t in board.tiles:
        if t.last:
            mask, (dx, dy) = tile.glow_mask("h" if t.horizontal else "v", h)
            im.paste(theme.LAST, (ox + t.rect.x0 + dx, oy + t.rect.y0 + dy), mask)
    for t in board.tiles:
        a, b = t.faces
        sprite = tile.sprite(a, b, "h" if t.horizontal else "v", h, "last" if t.last else "plain")
        im.paste(sprite, (ox + t.rect.x0, oy + t.rect.y0), sprite)
    for m in board.markers:
        sprite = canvas.marker_sprite(m.value, m.rect.width // 2)
        im.paste(sprite, (ox + m.rect.x0, oy + m.rect.y0), sprite)
    return im
