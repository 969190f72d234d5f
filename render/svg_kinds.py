"""The web board's SVG painters of the kinds that are not tile boards: the stack (tower,
quinconce), memory, patience, the puzzles and the trick games.  `render.svg` (its module
docstring says the KEYs of the targets) dispatches to them and lends them its shapes."""

from __future__ import annotations

import functools
import re
from html import escape
from typing import Any

from . import pips
from .board import view_layout
from .geometry import Rect, parse_tile
from .svg_parts import CELL_RE, _back, _num, _pips, _rect, _svg, _target, _text, _tile, target_keys
from .words import Translator, t, tn


@functools.lru_cache(maxsize=4096)
def _block(x: int, y: int, level: int, value: int, axis: str, last: bool, unit: float,
           ox: float, oy: float) -> str:
    """One half's block: its three faces seen, and its pips on the top face as the PNG draws
    them ((u, v) in the half's square); made once per place and scale (a tower's blocks stay
    where they are from state to state while the picture keeps its scale)."""
    from . import stack as st
    b = {"x": x, "y": y, "level": level}
    cls = "block last" if last else "block"
    out = []
    for which in ("front", "east", "top"):
        pts = " ".join(f"{_num(px)},{_num(py)}" for px, py in st._face(b, which, unit, ox, oy))
        out.append(f'<polygon class="{cls} {which}" points="{pts}"/>')
    (ax, ay), (bx, by), _, (dx, dy) = st._face(b, "top", unit, ox, oy)
    r = pips.radius(value) * unit
    for u, v in pips.layout(value, axis == "ew"):
        px, py = dx + u * (bx - ax) + v * (ax - dx), dy + u * (by - ay) + v * (ay - dy)
        out.append(f'<ellipse class="pip" cx="{_num(px)}" cy="{_num(py)}" '
                   f'rx="{_num(r)}" ry="{_num(r * 0.62)}"/>')
    return "".join(out)


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
        body.append(_block(b["x"], b["y"], b["level"], b["value"], b["axis"], bool(b["last"]),
                           pic.unit, ox, oy))
    if pic.plan is not None:
        body.append(_text(pic.plan.x0, pic.plan.y0 - 12, t(tr, "from above"), 15, "soft",
                          "start"))
        tiles = sorted(layout.get("tiles") or [], key=lambda tl: tl["level"])
        for tl in tiles:
            a, b = (st.plan_cell(layout, pic, c) for c in tl["cells"])
            x0, y0 = min(a.x0, b.x0), min(a.y0, b.y0)
            x1, y1 = max(a.x1, b.x1), max(a.y1, b.y1)
            cls = "plan last" if tl["n"] == layout.get("last") else "plan"
            body.append(f'<g data-tile="{escape(str(tl["tile"]))}" role="img" '
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
            body.append(_back(r.x0, r.y0, r.x1, r.y1, name,
                              spoken=t(tr, "{cell}: a tile face down", cell=name)))
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
                body.append(_back(bx0, by0, bx1, by1, spoken=t(tr, "A tile face down")))
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
