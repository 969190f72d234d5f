"""Drawing a board: dispatch on the view's layout kind, then paint the geometry.

`LAYOUTS` maps a layout kind to a function ``layout dict -> Board`` (geometry);
`draw_board` paints any `Board` (shadows, the last tile's glow, tile sprites,
open-end markers) on felt. A future kind whose picture is not made of flat
tiles (a tower seen from the side, a puzzle grid) registers a whole drawing
function in `DRAWERS` instead (``(view, tr) -> Image``, ``tr`` the translator of its
words, see `render.words`); see `register_layout`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from . import canvas, theme, tile
from .geometry import Board, Marker
from .line import layout_line
from .spinner import spinner_layout
from .words import Translator, t

LayoutFn = Callable[[dict[str, Any]], Board]
DrawFn = Callable[[dict[str, Any], Translator | None], Image.Image]

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


def board_image(view: dict[str, Any], tr: Translator | None = None) -> Image.Image:
    """The table seen from above, as an RGB image (its words translated by ``tr``)."""
    layout = view_layout(view)
    kind = layout.get("kind", "line")
    if kind in DRAWERS:
        return DRAWERS[kind](view, tr)
    if kind not in LAYOUTS:
        raise ValueError(f"cannot draw layout kind {kind!r}; known: {_known()}")
    return draw_board(label_ends(view, LAYOUTS[kind](layout)), tr=tr)


JOKER = "*"  # on the marker of an end only a joker joins (Matador's matadors, K's K tiles)


def label_ends(view: dict[str, Any], board: Board) -> Board:
    """Where the view says what each end takes (``needs``, Matador's and K's "touching halves
    total 7"), the line's two markers show that ("4", "0/2", `JOKER`) instead of the outer
    halves: what a player needs to lay."""
    needs = view.get("needs")
    markers = board.markers
    if not needs or len(needs) != 2 or len(markers) != 2:
        return board
    board.markers = [
        Marker(m.value, m.rect, m.direction, "/".join(map(str, takes)) or JOKER)
        for m, takes in zip(markers, needs, strict=True)]
    return board


def _known() -> str:
    return ", ".join(sorted({*LAYOUTS, *DRAWERS}))


def draw_board(board: Board, im: Image.Image | None = None, origin: tuple[int, int] = (0, 0),
               tr: Translator | None = None) -> Image.Image:
    """Paint ``board`` on felt (or onto ``im`` at ``origin``)."""
    if im is None:
        im = canvas.felt(board.width, board.height)
    ox, oy = origin
    h = board.half
    if not board.tiles:
        canvas.draw_text(im, (ox + board.width / 2, oy + board.height / 2),
                         t(tr, "No tiles on the table yet"), 18, theme.TEXT_SOFT, "mm")
        return im
    for pt in board.tiles:
        o = "h" if pt.horizontal else "v"
        mask, (dx, dy) = tile.shadow_mask(o, h)
        im.paste(theme.SHADOW, (ox + pt.rect.x0 + dx, oy + pt.rect.y0 + dy), mask)
    for pt in board.tiles:
        if pt.last:
            mask, (dx, dy) = tile.glow_mask("h" if pt.horizontal else "v", h)
            im.paste(theme.LAST, (ox + pt.rect.x0 + dx, oy + pt.rect.y0 + dy), mask)
    for pt in board.tiles:
        a, b = pt.faces
        sprite = tile.sprite(a, b, "h" if pt.horizontal else "v", h, "last" if pt.last else "plain")
        im.paste(sprite, (ox + pt.rect.x0, oy + pt.rect.y0), sprite)
    for m in board.markers:
        sprite = canvas.marker_sprite(m.text(), m.rect.width // 2)
        im.paste(sprite, (ox + m.rect.x0, oy + m.rect.y0), sprite)
    return im
