"""The board as inline SVG for the web table: the same layout geometry as the PNGs, painted
as vector shapes (one layout, two painters).

`board_svg(view)` paints any view (public or a seat's); `tile_svg(a, b)` one tile (hands).
Colours are CSS classes (``felt``, ``tile``, ``pip``, ``back``, ``target``...) so the page
styles them, light and dark. Every placed tile is a ``<g data-tile="6-4" aria-label="6-4">``;
every place a tile (or a move without a tile) may go is a ``<g class="target"
data-target="KEY">``. Targets are drawn only for the keys of the view's legal moves
(``view["legal"]`` of a seat's view; in a seat's puzzle under way, every empty cell), so a
public view has none. The KEYs, by kind:

* line, Canton: ``left``, ``right`` (the ends of the line; a lead has no target);
* cross: ``right``, ``left``, ``up``, ``down`` (the arms, as the core's moves name them);
* grid (vingt): the cell where a play starts, ``M13`` (the rest of the play, its other
  tiles and its direction, is chosen after: see `bot.web.board`);
* stack (tower, quinconce): the tile touched, by its number and half: ``3``, ``1w``;
* memory: a face-down cell, ``A1``;
* patience: a face-up tile, ``6-4`` (a move is a pair of them: ``6-5 1-0``);
* puzzle: a free cell, ``A1`` (a placement is a pair of cells, ``A1 A2``), and a tile that may
  be taken back, ``remove-A1``;
* tricks: none (a tile is played from the hand).

`move_parts(view, move)` is the one reading of a move string into (tile, target) for the web
page (in `render.svg_parts`, with the shapes; the kinds that are not tile boards are painted
in `render.svg_kinds`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from .board import view_layout
from .geometry import Board, PlacedTile, Rect
from .svg_parts import (
    ARMS,
    CELL_RE,
    TARGET_MIN,
    Attrs,
    _num,
    _rect,
    _svg,
    _target,
    _text,
    _tile,
    move_parts,
    target_keys,
    tile_svg,
)
from .words import Translator, t, tn

__all__ = ["board_svg", "move_parts", "target_keys", "tile_svg"]
WEB_WIDTH = 640  # line and cross snakes: a narrower picture than the PNG's, for phones
CANTON_ROW = 10  # Canton's tiles a row on the web (the PNG has 22)
PILES_A_ROW = 2  # Canton's seats' piles a row under its board on the web


# -- tile boards (line, cross, Canton, grid) ---------------------------------------------------

def _placed(pt: PlacedTile, extra: Attrs | None = None) -> str:
    r = pt.rect
    a, b = pt.faces
    return _tile(r.x0, r.y0, r.x1, r.y1, a, b, style="last" if pt.last else "",
                 attrs=extra)


def _board_tiles(board: Board) -> list[str]:
    return [_placed(pt) for pt in board.tiles]


def _end_targets(board: Board, keys: Sequence[str], wanted: set[str], tr: Translator | None
                 ) -> list[str]:
    out = []
    for m, key in zip(board.markers, keys, strict=False):
        text = m.text()
        out.append(f'<g class="end" aria-hidden="true">'
                   f'<circle class="marker" cx="{_num(m.rect.center[0])}" '
                   f'cy="{_num(m.rect.center[1])}" r="{_num(m.rect.width / 2)}"/>'
                   f'{_text(*m.rect.center, text, m.rect.width * 0.6, "marker-label")}</g>')
        if key in wanted:
            box = (m.rect.x0, m.rect.y0, m.rect.x1, m.rect.y1)
            out.append(_target(key, box, t(tr, "end {end}", end=text), round_=True,
                               minimum=max(TARGET_MIN, 2 * board.half)))
    return out


def _empty(width: int, height: int, tr: Translator | None) -> str:
    return _text(width / 2, height / 2, t(tr, "No tiles on the table yet"), 18, "soft")


@functools.lru_cache(maxsize=256)
def _snake(chain: tuple[str, ...], last: int | None, crosswise: tuple[int, ...]) -> Board:
    """The web's snake of a line (made once per line: a state of the same board lays it out
    again otherwise; callers copy it before changing it)."""
    from .line import line_layout
    return line_layout(chain, last, max_width=WEB_WIDTH, crosswise=crosswise)


def _line_svg(view: dict[str, Any], tr: Translator | None) -> str:
    from .board import label_ends
    layout = view_layout(view)
    made = _snake(tuple(layout.get("chain") or ()), layout.get("last"),
                  tuple(layout.get("crosswise") or ()))
    board = label_ends(view, Board(list(made.tiles), list(made.markers), made.width,
                                   made.height, made.half))
    body = _board_tiles(board) or [_empty(board.width, board.height, tr)]
    body += _end_targets(board, ("left", "right"), target_keys(view), tr)
    # as wide as a wrapped line from the start: the tiles keep their size when it wraps
    return _svg(board.width, board.height, "line", body, t(tr, "The table"), least=WEB_WIDTH)


def _arm_keys(board: Board) -> list[str]:
    """Which arm each end marker closes: the arm whose outermost tile it lies against (an
    empty arm's marker leaves the spinner in that arm's direction)."""
    dirs = {(1, 0): "right", (-1, 0): "left", (0, -1): "up", (0, 1): "down"}
    tips: dict[str, PlacedTile] = {}
    spinner = None
    for pt in board.tiles:
        path = pt.path if isinstance(pt.path, tuple) else ()
        if not path:
            spinner = pt
        elif len(path) == 2 and (ARMS[path[0]] not in tips
                                 or tips[ARMS[path[0]]].path[1] < path[1]):  # type: ignore
            tips[ARMS[path[0]]] = pt

    def gap(a: Rect, b: Rect) -> int:
        return max(a.x0 - b.x1, b.x0 - a.x1, 0) + max(a.y0 - b.y1, b.y0 - a.y1, 0)

    out = []
    for m in board.markers:
        options = [(m.direction != pt.direction, gap(m.rect, pt.rect), arm)
                   for arm, pt in tips.items()]
        arm = dirs.get(m.direction)
        if spinner is not None and arm and arm not in tips:
            options.append((False, gap(m.rect, spinner.rect), arm))
        out.append(min(options)[2] if options else "")
    return out


def _cross_svg(view: dict[str, Any], tr: Translator | None) -> str:
    from .spinner import spinner_layout
    board = spinner_layout(view_layout(view), max_width=WEB_WIDTH)
    keys = _arm_keys(board)
    body = _board_tiles(board) + _end_targets(board, keys, target_keys(view), tr)
    return _svg(board.width, board.height, "cross", body, t(tr, "The table"), least=WEB_WIDTH)


def _canton_svg(view: dict[str, Any], tr: Translator | None,
                names: list[str] | None) -> str:
    from .canton import PILE_HEIGHT, canton_layout
    layout = view_layout(view)
    board = canton_layout(layout, per_row=CANTON_ROW)
    body = _board_tiles(board) or [_empty(board.width, board.height, tr)]
    body += _end_targets(board, ("left", "right"), target_keys(view), tr)
    piles = layout.get("piles") or []
    # each seat's pile: its name over its count, two seats a row (a phone is narrow)
    rows = (len(piles) + PILES_A_ROW - 1) // PILES_A_ROW
    height = board.height + PILE_HEIGHT * rows
    for i, pile in enumerate(piles):
        row, col = divmod(i, PILES_A_ROW)
        across = min(PILES_A_ROW, len(piles) - row * PILES_A_ROW)
        x = board.width * (col + 0.5) / across
        y = board.height + PILE_HEIGHT * row
        who = names[i] if names and i < len(names) else f"#{i + 1}"
        words = tn(tr, "{n} tile", "{n} tiles", int(pile.get("tiles", 0))) + ", " + tn(
            tr, "{n} point", "{n} points", int(pile.get("points", 0)))
        body.append(_text(x, y + PILE_HEIGHT * 0.3, who, 16, "label"))
        body.append(_text(x, y + PILE_HEIGHT * 0.65, words, 15, "soft"))
    return _svg(board.width, height, "canton", body, t(tr, "The table"))


@functools.lru_cache(maxsize=64)
def _grid_cells(c0: int, r0: int, c1: int, r1: int, half: int, width: int) -> str:
    """The grid's squares and its letters and numbers (made once per extent: they change
    only when the grid grows)."""
    from .grid import LETTERS, _cell_rect
    body = []
    for c in range(c0, c1 + 1):
        for r in range(r0, r1 + 1):
            rect = _cell_rect(f"{LETTERS[c]}{r + 1}", c0, r0, half)
            body.append(_rect(rect.x0, rect.y0, rect.x1, rect.y1, "cell"))
    first = _cell_rect(f"{LETTERS[c0]}{r0 + 1}", c0, r0, half)
    # the labels stay readable (11 px or more) where a phone shows the picture 340 px wide
    size = max(13.0, min(24.0, width * 11 / 340))
    for c in range(c0, c1 + 1):
        body.append(_text(first.x0 + (c - c0 + .5) * half, first.y0 - 12, LETTERS[c],
                          size, "soft"))
    for r in range(r0, r1 + 1):
        body.append(_text(first.x0 - 14, first.y0 + (r - r0 + .5) * half, str(r + 1),
                          size * (0.8 if r >= 9 else 1), "soft"))
    return "".join(body)


def _grid_svg(view: dict[str, Any], tr: Translator | None) -> str:
    from .grid import _cell_rect, extent, grid_geometry
    layout = view_layout(view)
    wanted = sorted(k for k in target_keys(view) if CELL_RE.match(k))
    board = grid_geometry(layout, extra=wanted)
    c0, r0, c1, r1 = extent(layout, wanted)  # once: every cell's square is placed from it

    def cell(name: str) -> Rect:
        return _cell_rect(name, c0, r0, board.half)

    body = [_grid_cells(c0, r0, c1, r1, board.half, board.width)]
    body += _board_tiles(board)
    for m, spec in zip(board.markers, layout.get("markers") or [], strict=False):
        seat = int(spec.get("seat", -1))
        body.append(f'<circle class="marker seat{seat}" cx="{_num(m.rect.center[0])}" '
                    f'cy="{_num(m.rect.center[1])}" r="{_num(m.rect.width / 2 - 2)}"/>')
    for key in wanted:
        r = cell(key)
        body.append(_target(key, (r.x0, r.y0, r.x1, r.y1), key))
    return _svg(board.width, board.height, "grid", body, t(tr, "The table"))


def board_svg(view: dict[str, Any], tr: Translator | None = None,
              names: list[str] | None = None) -> str:
    """The board of any view as an inline ``<svg>`` (see the module docstring)."""
    from . import svg_kinds as other
    kind = view_layout(view).get("kind", "line")
    if kind == "line":
        return _line_svg(view, tr)
    if kind == "cross":
        return _cross_svg(view, tr)
    if kind == "canton":
        return _canton_svg(view, tr, names)
    if kind == "grid":
        return _grid_svg(view, tr)
    if kind == "stack":
        return other._stack_svg(view, tr, names)
    if kind == "memory":
        return other._memory_svg(view, tr)
    if kind == "patience":
        return other._patience_svg(view, tr)
    if kind == "puzzle":
        return other._puzzle_svg(view, tr)
    if kind == "tricks":
        return other._tricks_svg(view, tr, names)
    raise ValueError(f"cannot draw layout kind {kind!r} as SVG")
