"""The board as inline SVG for the web table: the same layout geometry as the PNGs, painted
as vector shapes (one layout, two painters).

`board_svg(view)` paints any view (public or a seat's); `tile_svg(a, b)` one tile (hands).
Colours are CSS classes (``felt``, ``tile``, ``pip``, ``back``, ``target``...) so the page
styles them, light and dark. Every placed tile is a ``<g data-tile="6-4" aria-label="6-4">``;
every place a tile (or a move without a tile) may go is a ``<g class="target"
data-target="KEY">``. Targets are drawn only for the keys of the view's legal moves
(``view["legal"]`` of a seat's view), so a public view has none. The KEYs, by kind:

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
page; it lives here beside the KEYs it must match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from . import pips
from .board import view_layout
from .geometry import Board, PlacedTile, Rect, parse_tile
from .words import Translator, t, tn

WEB_WIDTH = 640  # line and cross snakes: a narrower picture than the PNG's, for phones
CANTON_ROW = 10  # Canton's tiles a row on the web (the PNG has 22)
PILES_A_ROW = 2  # Canton's seats' piles a row under its board on the web
TARGET_MIN = 40  # a target's smallest side in px of the picture
MIN_VIEW = 420  # the narrowest picture (px of the geometry)
ARMS = ("right", "left", "up", "down")
STACK_RE = re.compile(r"^(?:on|under|next) (\d+)([enws]?) [a-z]+$")
CELL_RE = re.compile(r"^[A-Y]\d{1,2}$")
TILE_RE = re.compile(r"^\d{1,2}-\d{1,2}$")

Attrs = dict[str, str]


# -- reading moves ------------------------------------------------------------------------------

def move_parts(view: dict[str, Any], move: str) -> tuple[str | None, str | None]:
    """``(tile, target KEY)`` of a legal move string; None where it has none. The tile is
    spelt as the hand spells it (vingt writes a tile the way it is laid: ``3-4``)."""
    tile, key = _move_parts(view, move)
    hand = {str(x) for x in view.get("hand") or []}
    if tile and tile not in hand:
        a, _, b = tile.partition("-")
        if f"{b}-{a}" in hand:
            tile = f"{b}-{a}"
    return tile, key


def _move_parts(view: dict[str, Any], move: str) -> tuple[str | None, str | None]:
    kind = view_layout(view).get("kind", "line")
    words = move.split()
    first = words[0] if words else ""
    if kind == "memory" and CELL_RE.match(move):
        return None, move
    if kind == "patience" and len(words) == 2 and all(TILE_RE.match(w) for w in words):
        return None, move
    if kind == "puzzle":
        if len(words) == 3 and TILE_RE.match(first):
            return first, f"{words[1]} {words[2]}"
        if len(words) == 2 and first == "remove":
            return None, f"remove-{words[1]}"
        return None, None
    if kind == "stack" and TILE_RE.match(first):
        m = STACK_RE.match(" ".join(words[1:]))
        return first, (m.group(1) + m.group(2)) if m else None
    if kind == "grid" and TILE_RE.match(first):
        cell = next((w for w in words if CELL_RE.match(w)), None)
        return first, cell
    if TILE_RE.match(first):
        return first, (words[1] if len(words) == 2 and words[1] in ARMS else None)
    if first in ("give",) and len(words) == 2 and TILE_RE.match(words[1]):
        return words[1], None
    return None, None


def target_keys(view: dict[str, Any]) -> set[str]:
    """Every target KEY of the view's legal moves (each part of a pair); none in a public
    view (``seat`` None), whose page makes no move."""
    out: set[str] = set()
    if view.get("seat") is None:
        return out
    for move in view.get("legal") or []:
        _, key = move_parts(view, str(move))
        if key:
            out.update(key.split())
    return out


# -- shapes -------------------------------------------------------------------------------------

def _attrs(attrs: Attrs) -> str:
    return "".join(f' {k}="{escape(str(v))}"' for k, v in attrs.items())


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _rect(x0: float, y0: float, x1: float, y1: float, cls: str, r: float = 0,
          extra: str = "") -> str:
    rr = f' rx="{_num(r)}"' if r else ""
    return (f'<rect class="{cls}" x="{_num(x0)}" y="{_num(y0)}" width="{_num(x1 - x0)}" '
            f'height="{_num(y1 - y0)}"{rr}{extra}/>')


def _text(x: float, y: float, text: str, size: float, cls: str = "label",
          anchor: str = "middle") -> str:
    return (f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
            f'text-anchor="{anchor}" dominant-baseline="central">{escape(text)}</text>')


def _pips(rect: tuple[float, float, float, float], value: int, horizontal: bool) -> str:
    x0, y0, x1, y1 = rect
    side = min(x1 - x0, y1 - y0)
    r = pips.radius(value) * side
    return "".join(f'<circle class="pip" cx="{_num(x0 + u * (x1 - x0))}" '
                   f'cy="{_num(y0 + v * (y1 - y0))}" r="{_num(r)}"/>'
                   for u, v in pips.layout(value, horizontal))


def _tile(x0: float, y0: float, x1: float, y1: float, a: int, b: int, *,
          style: str = "", attrs: Attrs | None = None, tagged: bool = True) -> str:
    """Tile ``a-b`` filling the box, ``a`` left (lying) or top (standing); `tagged`: with
    its ``data-tile`` and label (not inside a hand's button, which carries them)."""
    horizontal = (x1 - x0) >= (y1 - y0)
    side = min(x1 - x0, y1 - y0)
    pad = max(1.0, side * 0.04)
    body = _rect(x0 + pad, y0 + pad, x1 - pad, y1 - pad, f"tile {style}".strip(), side * 0.15)
    if horizontal:
        mx = (x0 + x1) / 2
        one, two = (x0, y0, mx, y1), (mx, y0, x1, y1)
        divider = f'<line class="divider" x1="{_num(mx)}" y1="{_num(y0 + side * .15)}" ' \
                  f'x2="{_num(mx)}" y2="{_num(y1 - side * .15)}"/>'
    else:
        my = (y0 + y1) / 2
        one, two = (x0, y0, x1, my), (x0, my, x1, y1)
        divider = f'<line class="divider" x1="{_num(x0 + side * .15)}" y1="{_num(my)}" ' \
                  f'x2="{_num(x1 - side * .15)}" y2="{_num(my)}"/>'
    label = f"{a}-{b}"
    head = _attrs({"data-tile": label, "aria-label": label, "role": "img", **(attrs or {})}
                  if tagged else {"aria-hidden": "true"})
    return (f"<g{head}>{body}{divider}{_pips(one, a, horizontal)}"
            f"{_pips(two, b, horizontal)}</g>")


def _back(x0: float, y0: float, x1: float, y1: float, label: str = "",
          attrs: Attrs | None = None) -> str:
    side = min(x1 - x0, y1 - y0)
    text = _text((x0 + x1) / 2, (y0 + y1) / 2, label, side * 0.45, "back-label") if label else ""
    head = _attrs({"aria-label": label or "?", **(attrs or {})})
    return f"<g{head}>{_rect(x0 + 1, y0 + 1, x1 - 1, y1 - 1, 'back', side * .15)}{text}</g>"


def _target(key: str, box: tuple[float, float, float, float], label: str,
            round_: bool = False, minimum: float = TARGET_MIN) -> str:
    """A target: its visible ring (the box) inside a hit area at least `minimum` wide."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = max(x1 - x0, minimum), max(y1 - y0, minimum)
    hit = _rect(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, "hit")
    if round_:
        ring = (f'<circle class="ring" cx="{_num(cx)}" cy="{_num(cy)}" '
                f'r="{_num(min(x1 - x0, y1 - y0) / 2)}"/>')
    else:
        ring = _rect(x0 + 2, y0 + 2, x1 - 2, y1 - 2, "ring", 6)
    head = _attrs({"class": "target", "data-target": key, "aria-label": label})
    return f"<g{head}>{hit}{ring}</g>"


def _svg(width: float, height: float, kind: str, body: Iterable[str], label: str,
         least: float = MIN_VIEW) -> str:
    """The whole picture; one narrower than `least` is centred in that width (a lone
    spinner would otherwise fill a phone's screen; a line keeps one scale as it grows)."""
    x0 = min(0.0, (width - least) / 2)
    width = max(width, least)
    box = f"{_num(x0)} 0 {_num(width)} {_num(height)}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-{kind}" '
            f'viewBox="{box}" role="group" aria-label="{escape(label)}">'
            f'<rect class="felt" x="{_num(x0)}" y="0" width="{_num(width)}" '
            f'height="{_num(height)}" rx="12"/>{"".join(body)}</svg>')


def tile_svg(a: int, b: int, *, face_down: bool = False) -> str:
    """One tile standing, for a hand: ``<svg>`` 40 x 80 (a back when ``face_down``)."""
    inner = _back(0, 0, 40, 80) if face_down else _tile(0, 0, 40, 80, a, b, tagged=False)
    label = "?" if face_down else f"{a}-{b}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-svg" viewBox="0 0 40 80" '
            f'role="img" aria-label="{label}">{inner}</svg>')


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


def _line_svg(view: dict[str, Any], tr: Translator | None) -> str:
    from .board import label_ends
    from .line import line_layout
    layout = view_layout(view)
    board = label_ends(view, line_layout(layout.get("chain") or [], layout.get("last"),
                                         max_width=WEB_WIDTH,
                                         crosswise=layout.get("crosswise") or []))
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


def _grid_svg(view: dict[str, Any], tr: Translator | None) -> str:
    from .grid import LETTERS, cell_rect, extent, grid_geometry
    layout = view_layout(view)
    wanted = sorted(k for k in target_keys(view) if CELL_RE.match(k))
    board = grid_geometry(layout, extra=wanted)
    c0, r0, c1, r1 = extent(layout, wanted)
    body = []
    for c in range(c0, c1 + 1):
        for r in range(r0, r1 + 1):
            rect = cell_rect(layout, f"{LETTERS[c]}{r + 1}", board.half, wanted)
            body.append(_rect(rect.x0, rect.y0, rect.x1, rect.y1, "cell"))
    first = cell_rect(layout, f"{LETTERS[c0]}{r0 + 1}", board.half, wanted)
    # the labels stay readable (11 px or more) where a phone shows the picture 340 px wide
    size = max(13.0, min(24.0, board.width * 11 / 340))
    for c in range(c0, c1 + 1):
        body.append(_text(first.x0 + (c - c0 + .5) * board.half, first.y0 - 12, LETTERS[c],
                          size, "soft"))
    for r in range(r0, r1 + 1):
        body.append(_text(first.x0 - 14, first.y0 + (r - r0 + .5) * board.half, str(r + 1),
                          size * (0.8 if r >= 9 else 1), "soft"))
    body += _board_tiles(board)
    for m, spec in zip(board.markers, layout.get("markers") or [], strict=False):
        seat = int(spec.get("seat", -1))
        body.append(f'<circle class="marker seat{seat}" cx="{_num(m.rect.center[0])}" '
                    f'cy="{_num(m.rect.center[1])}" r="{_num(m.rect.width / 2 - 2)}"/>')
    for key in wanted:
        r = cell_rect(layout, key, board.half, wanted)
        body.append(_target(key, (r.x0, r.y0, r.x1, r.y1), key))
    return _svg(board.width, board.height, "grid", body, t(tr, "The table"))


# -- the other kinds --------------------------------------------------------------------------

def _stack_svg(view: dict[str, Any], tr: Translator | None,
               names: list[str] | None) -> str:
    from . import stack as st
    layout = view_layout(view)
    pic = st.stack_layout(view, tr, names)
    ox, oy = pic.origin
    body = []
    boxes = st._half_boxes(layout)
    if not boxes:
        body.append(_text(pic.width / 2, pic.caption.y0 / 2,
                          t(tr, "No tiles on the table yet"), 18, "soft"))
    for b in st._painted(boxes):
        cls = "block last" if b["last"] else "block"
        for which in ("front", "east", "top"):
            pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in
                           st._face(b, which, pic.unit, ox, oy))
            body.append(f'<polygon class="{cls} {which}" points="{pts}"/>')
        # the pips on the top face, as the PNG draws them: (u, v) in the half's square
        (ax, ay), (bx, by), _, (dx, dy) = st._face(b, "top", pic.unit, ox, oy)
        r = pips.radius(b["value"]) * pic.unit
        for u, v in pips.layout(b["value"], b["axis"] == "ew"):
            px, py = dx + u * (bx - ax) + v * (ax - dx), dy + u * (by - ay) + v * (ay - dy)
            body.append(f'<ellipse class="pip" cx="{_num(px)}" cy="{_num(py)}" '
                        f'rx="{_num(r)}" ry="{_num(r * 0.62)}"/>')
    if pic.plan is not None:
        body.append(_text(pic.plan.x0, pic.plan.y0 - 12, t(tr, "from above"), 15, "soft",
                          "start"))
        tiles = sorted(layout.get("tiles") or [], key=lambda tl: tl["level"])
        for tl in tiles:
            a, b = (st.plan_cell(layout, pic, c) for c in tl["cells"])
            x0, y0 = min(a.x0, b.x0), min(a.y0, b.y0)
            x1, y1 = max(a.x1, b.x1), max(a.y1, b.y1)
            cls = "plan last" if tl["n"] == layout.get("last") else "plan"
            body.append(f'<g data-tile="{escape(str(tl["tile"]))}" '
                        f'aria-label="{escape(str(tl["n"]))}: {escape(str(tl["tile"]))}">'
                        f'{_rect(x0 + 2, y0 + 2, x1 - 2, y1 - 2, cls, 5)}</g>')
    for n, box, where in pic.labels:
        size = st.LABEL if where == "plan" else st.TAG if where == "tag" else pic.side_label
        body.append(_text(*box.center, str(n), size, "num " + where))
    for i, line in enumerate(pic.lines):
        body.append(_text(pic.caption.x0, pic.caption.y0 + st.LINE * (i + .5), line, 18,
                          "soft", "start"))
    if pic.plan is not None:
        body += _stack_targets(view, layout, pic, tr)
    return _svg(pic.width, pic.height, "stack", body, t(tr, "The table"))


def _stack_targets(view: dict[str, Any], layout: dict[str, Any], pic: Any,
                   tr: Translator | None) -> list[str]:
    """A target per tile a move touches, on its number (in the plan, else its tag, else the
    side view: those boxes never overlap, where the tiles do), else over its cells."""
    from . import stack as st
    by_n = {int(tl["n"]): tl for tl in layout.get("tiles") or []}
    rank = {"plan": 1, "tag": 2, "side": 0}
    spots: dict[int, tuple[int, Rect]] = {}
    for n, box, where in pic.labels:
        if n not in spots or rank[where] > spots[n][0]:
            spots[n] = (rank[where], box)
    cells_first, on_labels = [], []
    for key in sorted(target_keys(view)):
        m = re.match(r"^(\d+)([enws]?)$", key)
        if not m or int(m.group(1)) not in by_n:
            continue
        n = int(m.group(1))
        cells = by_n[n]["cells"]
        if m.group(2):  # a double's half: the cell on that side
            pick = {"e": max, "w": min, "n": max, "s": min}[m.group(2)]
            axis = 0 if m.group(2) in "ew" else 1
            cells = [pick(cells, key=lambda c, axis=axis: c[axis])]
        label = t(tr, "tile {n}", n=key)
        if n in spots and not m.group(2):
            r = spots[n][1]
            on_labels.append((spots[n][0], _target(key, (r.x0 - 3, r.y0 - 3, r.x1 + 3, r.y1 + 3),
                                                   label, minimum=0)))
            continue
        rects = [st.plan_cell(layout, pic, c) for c in cells]
        box = (min(r.x0 for r in rects), min(r.y0 for r in rects),
               max(r.x1 for r in rects), max(r.y1 for r in rects))
        cells_first.append(_target(key, box, label))
    return cells_first + [x for _, x in sorted(on_labels, key=lambda p: p[0])]


def _memory_svg(view: dict[str, Any], tr: Translator | None) -> str:
    from . import memory as mm
    layout = view_layout(view)
    rows, cols = int(layout.get("rows") or 4), int(layout.get("cols") or 7)
    cells = list(layout.get("cells") or ["down"] * rows * cols)
    pic = mm.memory_layout(view, tr)
    wanted = target_keys(view)
    x0, y0 = pic.grid
    px, py = 2 * mm.HALF + mm.CELL_GAP, mm.HALF + mm.CELL_GAP
    body = [_text(x0 + mm.LABEL + c * px + mm.HALF, y0 + mm.LABEL / 2, str(c + 1), 18, "soft")
            for c in range(cols)]
    body += [_text(x0 + mm.LABEL / 2, y0 + mm.LABEL + r * py + mm.HALF / 2, "ABCDEFGH"[r], 18,
                   "soft") for r in range(rows)]
    for i, (state, r) in enumerate(zip(cells, pic.cells, strict=False)):
        name = mm.cell_name(i, cols)
        if state == "empty":
            body.append(_rect(r.x0 + 2, r.y0 + 2, r.x1 - 3, r.y1 - 3, "hole", 6))
        elif state == "down":
            body.append(_back(r.x0, r.y0, r.x1, r.y1, name))
            if name in wanted:
                g = mm.CELL_GAP // 2  # the whole pitch: a larger hit area
                body.append(_target(name, (r.x0 - g, r.y0 - g, r.x1 + g, r.y1 + g), name))
        else:
            a, b = parse_tile(state)
            body.append(_tile(r.x0, r.y0, r.x1, r.y1, a, b))
    for cell, name_box, r in pic.turned:
        body.append(_text(*name_box.center, cell, 22, "label"))
        tile = next((d["tile"] for d in layout.get("turned") or [] if d["cell"] == cell), None)
        if tile:
            a, b = parse_tile(tile)
            body.append(_tile(r.x0, r.y0, r.x1, r.y1, a, b, style="last"))
    if pic.verdict is not None:
        word = t(tr, "a pair: kept") if layout.get("pair") else t(tr, "no pair: turned back")
        body.append(_text(*pic.verdict, word, 18, "soft"))
    for panel, tiles in pic.kept:
        body.append(_rect(panel.x0, panel.y0, panel.x1, panel.y1, "panel", 10))
        for text, r in tiles:
            a, b = parse_tile(text)
            body.append(_tile(r.x0, r.y0, r.x1, r.y1, a, b))
    return _svg(pic.width, pic.height, "memory", body, t(tr, "The table"))


def _patience_svg(view: dict[str, Any], tr: Translator | None) -> str:
    from . import patience as pt
    layout = view_layout(view)
    geo = pt.patience_geometry(layout)
    wanted = target_keys(view)
    body = []
    for i, (col, (x, y)) in enumerate(zip(layout.get("columns") or [], geo.origins,
                                          strict=False)):
        body.append(_text(x + pt.HALF / 2, y + pt.LABEL / 2, str(i + 1), 18, "soft"))
        top = y + pt.LABEL
        for box, text in pt.column_tiles(col, (x, top), geo.over):
            bx0, by0, bx1, by1 = box
            if text is None:
                body.append(_back(bx0, by0, bx1, by1))
                continue
            a, b = parse_tile(text)
            body.append(_tile(bx0, by0, bx1, by1, a, b))
            if text in wanted and text == col.get("up"):  # hit area: the column's pitch
                body.append(_target(text, box, text, minimum=pt.PITCH - 4))
        hidden = int(col.get("hidden") or 0)
        if hidden and not geo.over:
            words = tn(tr, "{n} hidden", "{n} hidden", hidden)
            body.append(_text(x + pt.HALF / 2, geo.height - 16, words, 13, "soft"))
    removed = int(layout.get("removed") or 0)
    side = [t(tr, "Remove two face-up tiles totalling 12")] if not layout.get("over") else []
    side.append(tn(tr, "{n} tile removed", "{n} tiles removed", removed))
    if layout.get("over"):
        side.append(t(tr, "Won: every tile is gone") if layout.get("won")
                    else t(tr, "Stuck: no pair totals 12"))
    height = geo.height + 26 * len(side) + 10
    for k, line in enumerate(side):
        body.append(_text(pt.MARGIN, geo.height + 14 + 26 * k, line, 17, "soft", "start"))
    return _svg(geo.columns_width, height, "patience", body, t(tr, "The table"))


def _puzzle_svg(view: dict[str, Any], tr: Translator | None) -> str:
    from . import puzzle as pz
    layout = view_layout(view)
    g = pz.geometry(view)
    wanted = target_keys(view)
    givens = layout.get("givens") or {}
    broken = set(layout.get("broken_cells") or [])
    # the picture is the board only (the page shows the tiles to place in its hand)
    spots = [pz._label_spot(line["cells"]) for line in layout.get("lines") or []]
    right = max([g.box(c)[2] for c in layout.get("cells") or []] +
                [g.box_at(c, r)[2] for c, r in spots] + [0.0])
    width = right + pz.MARGIN
    totals = {line.get("total") for line in layout.get("lines") or []}
    common = totals.pop() if len(totals) == 1 else None
    body = [_text(pz.MARGIN, pz.MARGIN + 6, _puzzle_title(view, tr), 17, "label", "start")]
    if common is not None:
        body.append(_text(pz.MARGIN, pz.MARGIN + 26, t(tr, "Each line must total {n}", n=common),
                          15, "total", "start"))
    for cell in layout.get("cells") or []:
        x0, y0, x1, y1 = g.box(cell)
        cls = "cell broken" if cell in broken else "cell"
        body.append(_rect(x0 + 1, y0 + 1, x1 - 1, y1 - 1, cls, 4))
        body.append(_text((x0 + x1) / 2, (y0 + y1) / 2, str(givens.get(cell, cell)),
                          16 if cell in givens else 11, "given" if cell in givens else "soft"))
    for square in layout.get("squares") or []:
        boxes = [g.box(c) for c in square]
        body.append(_rect(min(b[0] for b in boxes), min(b[1] for b in boxes),
                          max(b[2] for b in boxes), max(b[3] for b in boxes), "square"))
    removable = {k[len("remove-"):] for k in wanted if k.startswith("remove-")}
    for tl in layout.get("tiles") or []:
        boxes = [g.box(c) for c in tl["cells"]]
        a, b = (int(v) for v in tl.get("values") or parse_tile(tl["tile"]))
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes
        x0, y0, x1, y1 = min(ax0, bx0), min(ay0, by0), max(ax1, bx1), max(ay1, by1)
        if ax0 != bx0 and ay0 != by0:  # touching by a corner: two halves and a bar
            style = "tile last" if tl.get("last") else "tile"
            side = ax1 - ax0
            parts = [f'<line class="bar" x1="{_num((ax0 + ax1) / 2)}" y1="{_num((ay0 + ay1) / 2)}"'
                     f' x2="{_num((bx0 + bx1) / 2)}" y2="{_num((by0 + by1) / 2)}" '
                     f'stroke-width="{_num(side / 3)}"/>']
            for value, (h0, h1, h2, h3) in ((a, boxes[0]), (b, boxes[1])):
                parts.append(_rect(h0 + 1, h1 + 1, h2 - 1, h3 - 1, style, side * .15))
                parts.append(_pips((h0, h1, h2, h3), value, False))
            label = escape(str(tl["tile"]))
            body.append(f'<g data-tile="{label}" aria-label="{label}" role="img">'
                        f'{"".join(parts)}</g>')
        else:
            first_is_top_left = (ax0, ay0) <= (bx0, by0)
            va, vb = (a, b) if first_is_top_left else (b, a)
            style = "last" if tl.get("last") else "fixed" if tl.get("fixed") else ""
            body.append(_tile(x0, y0, x1, y1, va, vb, style=style))
        cell = next((c for c in tl["cells"] if c in removable), None)
        if cell:
            body.append(_target(f"remove-{cell}", (x0, y0, x1, y1),
                                t(tr, "take back {tile}", tile=tl["tile"])))
    for line in layout.get("lines") or []:
        c, r = pz._label_spot(line["cells"])
        x0, y0, x1, y1 = g.box_at(c, r)
        total = line.get("total")
        shown = total is not None and common is None  # a common total is stated once
        text = f"{line.get('current', '')}" + (f"/{total}" if shown else "")
        cls = "total broken" if line.get("broken") else "total"
        body.append(_text((x0 + x1) / 2, (y0 + y1) / 2, text, 13, cls))
    # a seat's puzzle under way: every empty cell is a target (the page's free placement,
    # docs/web-page.md `place`), not only those of the listed moves
    cells = set(k for k in wanted if CELL_RE.match(k))
    if view.get("seat") is not None and not view.get("over") and view.get("legal"):
        used = {c for tl in layout.get("tiles") or [] for c in tl["cells"]}
        cells |= {c for c in layout.get("cells") or [] if c not in used}
    for key in sorted(cells):
        body.append(_target(key, g.box(key), key))
    return _svg(width, g.board_bottom, "puzzle", body, t(tr, "The table"))


def _lang(tr: Translator | None) -> str:
    """The language of a catalogue (Babel's ``info()["language"]``); English without one."""
    info = getattr(tr, "info", None)
    meta = info() if callable(info) else {}
    return str(meta.get("language") or "en") if isinstance(meta, dict) else "en"


def _puzzle_title(view: dict[str, Any], tr: Translator | None) -> str:
    """The game's name and the puzzle's, in the catalogue's language ("Magic square: Total
    15"), never the slug."""
    lang = _lang(tr)

    def named(names: Any, fallback: str) -> str:
        if isinstance(names, dict):
            return str(names.get(lang) or names.get("en") or fallback)
        return str(names or fallback)
    game = named(view.get("name"), str(view_layout(view).get("puzzle", "")))
    puzzle = view.get("puzzle") if isinstance(view.get("puzzle"), dict) else {}
    own = named(puzzle.get("name"), str(puzzle.get("id", ""))) if puzzle else ""
    return f"{game}: {own}" if own and own != game else game


def _tricks_svg(view: dict[str, Any], tr: Translator | None,
                names: list[str] | None) -> str:
    from . import tricks as tk
    plays, winner, _ = tk.shown_trick(view)
    rects = tk.trick_rects(plays)
    # a long line (French, a bidding's rule) is set smaller, never clipped at the edges
    body = [_text(tk.WIDTH / 2, 24 + 30 * i, line, min(21.0, (tk.WIDTH - 28) / (0.56 * len(line)
                                                                                 or 1)), "label")
            for i, line in enumerate(tk.band_lines(view, tr, names))]
    bidding = view.get("phase") == "bidding" or view.get("contract") is None
    bids = {int(b["seat"]): str(b["bid"]) for b in view.get("bids") or []} if bidding else {}
    for p in plays:
        x0, y0, x1, y1 = rects[int(p["seat"])]
        a, b = parse_tile(p["tile"])
        style = "last" if winner is not None and int(p["seat"]) == winner else ""
        body.append(_tile(x0, y0, x1, y1, a, b, style=style))
    top = 24 + 30 * len(tk.band_lines(view, tr, names))
    for seat in range(int(view.get("players") or 4)):
        x, y, _ = tk._label_at(seat)
        if not plays:  # no tile on the table (the bidding): the seats close together
            y = top + {0: 118, 1: 54, 2: -6, 3: 54}.get(seat, 0)
        name = tk.who(seat, names, tr)
        cls = "label turn" if seat == view.get("to_move") else "label"
        body.append(_text(x, y + 12, name, tk.NAME, cls))
        if seat in bids:
            body.append(_text(x, y + 12 + tk.NAME + 6, bids[seat], tk.DETAIL, "soft"))
    bottom = max([tk.MIDDLE[1] + tk.GAP + 2 * tk.HALF + 60, *(r[3] + 40 for r in rects.values())])
    if not plays:
        bottom = top + 118 + 12 + tk.NAME + 6 + tk.DETAIL + 14
    return _svg(tk.WIDTH, bottom, "tricks", body, t(tr, "The table"))


def board_svg(view: dict[str, Any], tr: Translator | None = None,
              names: list[str] | None = None) -> str:
    """The board of any view as an inline ``<svg>`` (see the module docstring)."""
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
        return _stack_svg(view, tr, names)
    if kind == "memory":
        return _memory_svg(view, tr)
    if kind == "patience":
        return _patience_svg(view, tr)
    if kind == "puzzle":
        return _puzzle_svg(view, tr)
    if kind == "tricks":
        return _tricks_svg(view, tr, names)
    raise ValueError(f"cannot draw layout kind {kind!r} as SVG")
