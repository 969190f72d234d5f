"""The tower and quinconce seen from the side: tiles as blocks in an oblique projection.

Layout format (made by `core.stack.match`)::

    {"kind": "stack",
     "tiles": [{"n": 1, "tile": "6-6", "cells": [[0, 0], [1, 0]], "level": 0,
                "axis": "ew", "on": []}, ...],   # values in the order of the cells
     "last": 3 | null,          # the number of the tile laid last, if still standing
     "fell": {"seat": 1, "tiles": 7, "risk": 0.31} | null,   # the last move's fall
     "mode": "flat" | "top" | null}   # quinconce: how the next play must be made

The picture looks at the construction from the south, a little from above and
from the east: east is to the right, north goes up and to the right, each
level a tile's thickness higher.  Every half is a block with its pips on top;
the tile laid last is warm-coloured, a half that hangs over nothing has a
shadow line under it, so a player sees what may fall.  Beside it (or under it,
whichever leaves the picture narrower for a phone) the plan seen from above
numbers every tile that shows from above, in the cell where it shows: the
numbers the buttons name.  The side view numbers a tile only where its front
or side is seen whole.  Quinconce's two open ends are ringed in both views.
Under the construction a line says its height and, in quinconce, how the next
play must be made and the open ends; after a fall, who took the tiles.

`stack_layout` says where everything goes (the label boxes, the compass, the
caption) without drawing, for the tests; `stack_image` paints it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from . import canvas, pips, theme
from .board import register_layout
from .geometry import Rect
from .words import Translator, seat_label, t, tn

UNIT = 52  # px per half-width
DEPTH = 0.5  # how far north shifts up and to the right, per unit
THICK = 0.75  # a level's height in half-widths (drawn thicker than a tile, to read the levels)
PLAN = 48  # px per cell of the plan seen from above
PLAN_TITLE = 28  # the "from above" line over the plan
LABEL = 22  # px of a tile's number in the plan: what a phone must read
TAG = 16  # px of the number of a tile hidden under others, tagged in its cell's corner
MARGIN = 24
CAPTION = 20  # px of the caption's words
LINE = 28  # px per caption line
COMPASS_W, COMPASS_H = 80, 60  # the compass with its letters
MIN_WIDTH, MIN_HEIGHT = 420, 200
MAX_WIDTH, MAX_HEIGHT = 1280, 720  # the side view's largest box
MAX_TALL = 900  # the tallest picture with the plan under the side view
TABLE_WIDTH = 640  # the table picture is never narrower (render.position_png)
SEEN = 0.97  # share of a label's box that must show its own tile in the side view

FRONT: theme.RGB = (214, 204, 178)
SIDE: theme.RGB = (190, 178, 150)
EDGE: theme.RGB = (120, 110, 88)
LAST_FRONT: theme.RGB = (240, 214, 150)
LAST_SIDE: theme.RGB = (222, 190, 120)
OPEN: theme.RGB = theme.LEGAL  # the ring of an open end (quinconce)

Point = tuple[float, float]


def _project(x: float, y: float, z: float, unit: float) -> Point:
    """Screen position (before the offset) of the world point (x, y, z)."""
    return (unit * (x + DEPTH * y), -unit * (z + DEPTH * y))


def _half_boxes(layout: dict[str, Any]) -> list[dict[str, Any]]:
    """One block per half: its cell, level, value, tile number, axis and flags."""
    out = []
    last = layout.get("last")
    tiles = layout.get("tiles") or []
    ends = {(int(n), int(h)) for n, h in layout.get("ends") or []}
    filled = {(c[0], c[1], tl["level"]) for tl in tiles for c in tl["cells"]}
    for tl in tiles:
        values = [int(v) for v in str(tl["tile"]).split("-")]
        for i, (cx, cy) in enumerate(tl["cells"]):
            level = int(tl["level"])
            out.append({
                "x": cx, "y": cy, "level": level, "value": values[i], "n": tl["n"],
                "axis": tl.get("axis", "ew"), "last": tl["n"] == last, "first": i == 0,
                "hangs": level > 0 and (cx, cy, level - 1) not in filled,
                "open": (tl["n"], i) in ends,
            })
    return out


def _painted(boxes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The blocks in the order they are painted: back to front, low to high."""
    return sorted(boxes, key=lambda b: (b["level"], -b["y"], b["x"]))


def stack_extent(layout: dict[str, Any], unit: float = UNIT) -> tuple[float, float, float, float]:
    """The screen box (x0, y0, x1, y1) of the construction at `unit` px per half-width."""
    xs, ys = [], []
    for b in _half_boxes(layout):
        for dx in (-0.5, 0.5):
            for dy in (-0.5, 0.5):
                for dz in (0, 1):
                    px, py = _project(b["x"] + dx, b["y"] + dy, (b["level"] + dz) * THICK, unit)
                    xs.append(px)
                    ys.append(py)
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


@dataclass
class StackPicture:
    """Where everything of a stack picture goes (px, inside ``(0, 0, width, height)``)."""

    width: int
    height: int
    unit: float  # px per half-width in the side view
    origin: Point  # the side view's offset
    plan: Rect | None  # the plan's cells (without its title), None without tiles
    caption: Rect
    compass: Rect
    lines: list[str]  # the caption's lines
    labels: list[tuple[int, Rect, str]] = field(default_factory=list)  # (tile, box, "side"|"plan")
    side_label: int = LABEL  # px of the numbers in the side view

    def numbered(self) -> set[int]:
        """The tiles whose number is drawn somewhere."""
        return {n for n, _, _ in self.labels}


def _arrange(layout: dict[str, Any], beside: bool, foot: int
             ) -> tuple[float, int, int, Rect, tuple[int, int]]:
    """The side view's unit, the picture's body size, the side view's box and the plan's
    top-left corner, with the plan `beside` the side view or under it."""
    pw, ph = plan_size(layout)
    plan_w, plan_h = (pw, ph + PLAN_TITLE) if pw else (0, 0)
    x0, y0, x1, y1 = stack_extent(layout, UNIT)
    room_w = MAX_WIDTH - 2 * MARGIN - (plan_w + MARGIN if beside and plan_w else 0)
    room_h = MAX_HEIGHT - 2 * MARGIN - foot
    if plan_w and not beside:
        room_h = min(room_h, MAX_TALL - 2 * MARGIN - foot - plan_h - MARGIN)
    scale = min(1.0, room_w / max(1.0, x1 - x0), max(0.3, room_h / max(1.0, y1 - y0)))
    unit = UNIT * scale
    side_w = round((x1 - x0) * scale) + 2 * MARGIN
    side_h = round((y1 - y0) * scale) + 2 * MARGIN
    if beside or not plan_w:
        width = side_w + (plan_w + MARGIN if plan_w else 0)
        height = max(side_h, plan_h + 2 * MARGIN)
        side = Rect(0, 0, side_w, height)
        plan_at = (side_w, MARGIN + PLAN_TITLE)
    else:
        width = max(side_w, plan_w + 2 * MARGIN)
        height = side_h + plan_h + MARGIN
        side = Rect((width - side_w) // 2, 0, (width - side_w) // 2 + side_w, side_h)
        plan_at = ((width - plan_w) // 2, side_h + PLAN_TITLE)
    return unit, width, height, side, plan_at


def stack_layout(view: dict[str, Any], tr: Translator | None = None,
                 names: Sequence[str] | None = None) -> StackPicture:
    """Where the side view, the plan, every tile's number, the caption and the compass go."""
    layout = view.get("layout") or {}
    lines = caption_lines(view, tr, names)
    text_w = max((canvas.text_mask(x, CAPTION).width for x in lines), default=0)
    foot = max(COMPASS_H, LINE * len(lines)) + 8
    # the plan under the side view when that makes the picture narrower (a phone shrinks
    # the whole picture to its width) without shrinking the side view or growing too tall
    beside = _arrange(layout, True, foot)
    below = _arrange(layout, False, foot)
    best = beside
    if (max(below[1], TABLE_WIDTH) < max(beside[1], TABLE_WIDTH) and below[0] >= 0.75 * beside[0]
            and below[2] + foot <= MAX_TALL):
        best = below
    unit, width, body_h, side, plan_at = best
    width = max(width, MIN_WIDTH, MARGIN + text_w + MARGIN + COMPASS_W + MARGIN)
    height = max(MIN_HEIGHT, body_h + foot)
    x0, y0, x1, y1 = stack_extent(layout, unit)
    shift = (width - best[1]) / 2  # the body centred in a picture widened for the caption
    ox = shift + side.x0 + (side.width - (x1 - x0)) / 2 - x0
    oy = side.y0 + (side.height - (y1 - y0)) / 2 - y0
    caption = Rect(MARGIN, body_h + 4, MARGIN + text_w, body_h + 4 + LINE * len(lines))
    compass = Rect(width - MARGIN - COMPASS_W, height - COMPASS_H - 4, width - MARGIN,
                   height - 4)
    pw, ph = plan_size(layout)
    plan = None
    if pw:
        left, top = round(shift + plan_at[0]), plan_at[1]
        plan = Rect(left, top, left + pw, top + ph)
    pic = StackPicture(width, height, unit, (ox, oy), plan, caption, compass, lines)
    pic.side_label = max(14, min(LABEL, round(unit * 0.4)))
    pic.labels = _side_labels(layout, pic) + _plan_labels(layout, pic)
    pic.labels += _tags(layout, pic)
    return pic


def _label_size(n: int, size: int) -> tuple[int, int]:
    w, h = canvas.text_mask(str(n), size, True).size
    return w + 4, h + 2


def _side_labels(layout: dict[str, Any], pic: StackPicture) -> list[tuple[int, Rect, str]]:
    """A number on the front or the east side of a tile, where a whole box of it shows."""
    boxes = _half_boxes(layout)
    if not boxes:
        return []
    ox, oy = pic.origin
    ids = Image.new("I", (pic.width, pic.height), 0)
    draw = ImageDraw.Draw(ids)
    for b in _painted(boxes):
        for which in ("front", "east", "top"):
            draw.polygon(_face(b, which, pic.unit, ox, oy), fill=int(b["n"]), outline=int(b["n"]))
    out = []
    for n in sorted({int(b["n"]) for b in boxes}):
        w, h = _label_size(n, pic.side_label)
        mine = sorted((b for b in boxes if b["n"] == n), key=lambda b: not b["first"])
        for which in ("front", "east"):
            box = next((r for b in mine if _seen(ids, r := _centred(
                _face(b, which, pic.unit, ox, oy), w, h), n)), None)
            if box is not None:
                out.append((n, box, "side"))
                break
    return out


def _centred(face: list[Point], w: int, h: int) -> Rect:
    cx = sum(p[0] for p in face) / len(face)
    cy = sum(p[1] for p in face) / len(face)
    x0, y0 = round(cx - w / 2), round(cy - h / 2)
    return Rect(x0, y0, x0 + w, y0 + h)


def _seen(ids: Image.Image, box: Rect, n: int) -> bool:
    """Whether tile `n` shows on (nearly) all of `box` in the side view."""
    if box.x0 < 0 or box.y0 < 0 or box.x1 > ids.width or box.y1 > ids.height:
        return False
    colours = ids.crop((box.x0, box.y0, box.x1, box.y1)).getcolors(box.width * box.height)
    mine = sum(c for c, v in colours or [] if v == n)
    return mine >= SEEN * box.width * box.height


def _plan_labels(layout: dict[str, Any], pic: StackPicture) -> list[tuple[int, Rect, str]]:
    """Each tile's number in the plan, in the cell where it shows from above (both cells:
    the middle of the tile); one number a cell, so none covers another."""
    tiles = layout.get("tiles") or []
    if not tiles or pic.plan is None:
        return []
    top: dict[tuple[int, int], dict[str, Any]] = {}
    for tl in tiles:
        for c in tl["cells"]:
            key = (int(c[0]), int(c[1]))
            if key not in top or int(top[key]["level"]) < int(tl["level"]):
                top[key] = tl
    ends = {(int(n), int(h)) for n, h in layout.get("ends") or []}
    out = []
    for tl in tiles:
        seen = [h for h, c in enumerate(tl["cells"]) if top[(c[0], c[1])] is tl]
        if not seen:
            continue
        ringed = [h for h in seen if (int(tl["n"]), h) in ends]
        if ringed:  # inside one cell, clear of the ring of an open end: the other cell's
            seen = [next((h for h in seen if h not in ringed), seen[0])]
        shows = [plan_cell(layout, pic, tl["cells"][h]) for h in seen]
        x0 = min(r.x0 for r in shows)
        y0 = min(r.y0 for r in shows)
        x1 = max(r.x1 for r in shows)
        y1 = max(r.y1 for r in shows)
        w, h = _label_size(int(tl["n"]), LABEL)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        out.append((int(tl["n"]), Rect(cx - w // 2, cy - h // 2, cx - w // 2 + w,
                                       cy - h // 2 + h), "plan"))
    return out


def _tags(layout: dict[str, Any], pic: StackPicture) -> list[tuple[int, Rect, str]]:
    """A tile numbered nowhere else that a tile may still go on or under (a half with
    nothing right above it, or hanging over the table) gets a tag in a corner of that half's
    cell in the plan, where no other number is."""
    tiles = layout.get("tiles") or []
    if pic.plan is None:
        return []
    done = pic.numbered()
    if layout.get("ends"):  # only the open ends take a tile (quinconce, `ends_only`)
        done |= {int(tl["n"]) for tl in tiles} - {int(n) for n, _ in layout["ends"]}
    taken = [box for _, box, _ in pic.labels]
    filled = {(c[0], c[1], int(tl["level"])) for tl in tiles for c in tl["cells"]}
    out = []
    for tl in tiles:
        n, z = int(tl["n"]), int(tl["level"])
        if n in done:
            continue
        open_cells = [c for c in tl["cells"] if (c[0], c[1], z + 1) not in filled
                      or (z == 1 and (c[0], c[1], 0) not in filled)]
        w, h = _label_size(n, TAG)
        for c in open_cells:
            r = plan_cell(layout, pic, c)
            corners = [(r.x0 + 3, r.y0 + 3), (r.x1 - 3 - w, r.y0 + 3), (r.x0 + 3, r.y1 - 3 - h),
                       (r.x1 - 3 - w, r.y1 - 3 - h)]
            box = next((b for x, y in corners if not any(
                (b := Rect(x, y, x + w, y + h)).overlaps(o) for o in taken)), None)
            if box is not None:
                out.append((n, box, "tag"))
                taken.append(box)
                break
    return out


def plan_cell(layout: dict[str, Any], pic: StackPicture, cell: Sequence[int]) -> Rect:
    """The plan's square of `cell`, north up."""
    assert pic.plan is not None
    x0, _, _, y1 = _plan_bounds(layout)
    left = pic.plan.x0 + (int(cell[0]) - x0) * PLAN
    top = pic.plan.y0 + (y1 - int(cell[1])) * PLAN
    return Rect(left, top, left + PLAN, top + PLAN)


def stack_image(view: dict[str, Any], tr: Translator | None = None,
                names: Sequence[str] | None = None) -> Image.Image:
    """The construction from the side and from above, with its caption (height, mode, open
    ends, the last fall by the faller's name)."""
    layout = view.get("layout") or {}
    pic = stack_layout(view, tr, names)
    im = canvas.felt(pic.width, pic.height)
    boxes = _half_boxes(layout)
    if not boxes:
        canvas.draw_text(im, (pic.width / 2, pic.caption.y0 / 2),
                         t(tr, "No tiles on the table yet"), 18, theme.TEXT_SOFT, "mm")
    ox, oy = pic.origin
    draw = ImageDraw.Draw(im)
    # the table's shadow under each block standing on it, then the blocks back to front
    for b in boxes:
        if b["level"] == 0:
            quad = _face(b, "bottom", pic.unit, ox, oy, 0.08)
            draw.polygon(quad, fill=theme.SHADOW)
    for b in _painted(boxes):
        _draw_block(draw, b, pic.unit, ox, oy)
    if pic.plan is not None:
        draw_plan(im, layout, pic, tr)
    for n, box, where in pic.labels:
        if where == "tag":  # a tile under the one seen from above: a dark tag
            draw.rounded_rectangle((box.x0, box.y0, box.x1 - 1, box.y1 - 1), 4,
                                   fill=theme.MARKER_FILL)
            canvas.draw_text(im, box.center, str(n), TAG, theme.MARKER_TEXT, "mm", bold=True)
            continue
        size = LABEL if where == "plan" else pic.side_label
        canvas.draw_text(im, box.center, str(n), size, theme.TEXT_DARK, "mm", bold=True)
    _compass(im, pic.compass, tr)
    for i, line in enumerate(pic.lines):
        canvas.draw_text(im, (pic.caption.x0, pic.caption.y0 + LINE * i + LINE / 2), line,
                         CAPTION, theme.TEXT, "lm")
    return im


def _face(b: dict[str, Any], which: str, unit: float, ox: float, oy: float,
          grow: float = 0.0) -> list[Point]:
    x, y, z0 = b["x"], b["y"], b["level"] * THICK
    z1 = z0 + THICK
    lo, hi = -0.5 - grow, 0.5 + grow
    if which == "top":
        pts = [(x + lo, y + lo, z1), (x + hi, y + lo, z1), (x + hi, y + hi, z1),
               (x + lo, y + hi, z1)]
    elif which == "bottom":
        pts = [(x + lo, y + lo, z0), (x + hi, y + lo, z0), (x + hi, y + hi, z0),
               (x + lo, y + hi, z0)]
    elif which == "front":
        pts = [(x + lo, y + lo, z0), (x + hi, y + lo, z0), (x + hi, y + lo, z1),
               (x + lo, y + lo, z1)]
    else:  # the east side
        pts = [(x + hi, y + lo, z0), (x + hi, y + hi, z0), (x + hi, y + hi, z1),
               (x + hi, y + lo, z1)]
    return [(ox + px, oy + py) for px, py in (_project(*p, unit) for p in pts)]


def _draw_block(draw: ImageDraw.ImageDraw, b: dict[str, Any], unit: float, ox: float,
                oy: float) -> None:
    face = theme.LAST_FACE if b["last"] else theme.IVORY
    front = LAST_FRONT if b["last"] else FRONT
    side = LAST_SIDE if b["last"] else SIDE
    draw.polygon(_face(b, "front", unit, ox, oy), fill=front, outline=EDGE)
    draw.polygon(_face(b, "east", unit, ox, oy), fill=side, outline=EDGE)
    top = _face(b, "top", unit, ox, oy)
    draw.polygon(top, fill=face, outline=EDGE)
    if b["hangs"]:  # nothing under this half: a dark line under its front edge
        (fx0, fy0), (fx1, _) = _face(b, "front", unit, ox, oy)[:2]
        draw.line((fx0 + 2, fy0 + 2, fx1 - 2, fy0 + 2), fill=theme.CHIP,
                  width=max(2, int(unit) // 14))
    if b["open"]:  # an open end (quinconce): its top ringed
        draw.line([*top, top[0]], fill=OPEN, width=max(3, int(unit) // 12), joint="curve")
    # pips on the top face: (u, v) in the half's square, v = 0 at its north edge
    (ax, ay), (bx, by), _, (dx, dy) = top  # south-west, south-east, north-east, north-west
    horizontal = b["axis"] == "ew"
    r = pips.radius(b["value"]) * unit
    for u, v in pips.layout(b["value"], horizontal):
        px = dx + u * (bx - ax) + v * (ax - dx)
        py = dy + u * (by - ay) + v * (ay - dy)
        draw.ellipse((px - r, py - r * 0.62, px + r, py + r * 0.62), fill=theme.PIP)


def _plan_bounds(layout: dict[str, Any]) -> tuple[int, int, int, int]:
    cells = [c for tl in layout.get("tiles") or [] for c in tl["cells"]]
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return min(xs), min(ys), max(xs), max(ys)


def plan_size(layout: dict[str, Any]) -> tuple[int, int]:
    """The plan's width and height in px (0, 0 without tiles)."""
    if not layout.get("tiles"):
        return 0, 0
    x0, y0, x1, y1 = _plan_bounds(layout)
    return (x1 - x0 + 1) * PLAN, (y1 - y0 + 1) * PLAN


def draw_plan(im: Image.Image, layout: dict[str, Any], pic: StackPicture,
              tr: Translator | None = None) -> None:
    """The construction seen from above: each tile's outline, higher tiles over lower ones
    and lighter, north up, open ends ringed (the numbers are `StackPicture.labels`)."""
    assert pic.plan is not None
    draw = ImageDraw.Draw(im)
    canvas.draw_text(im, (pic.plan.x0, pic.plan.y0 - 6), t(tr, "from above"), 16,
                     theme.TEXT_SOFT, "lb")
    tiles = sorted(layout.get("tiles") or [], key=lambda tl: tl["level"])
    high = max(int(tl["level"]) for tl in tiles)
    for tl in tiles:
        a, b = (plan_cell(layout, pic, c) for c in tl["cells"])
        shade = 0.55 + 0.45 * int(tl["level"]) / high if high else 1.0  # lower: darker
        fill = tuple(round(c * shade) for c in
                     (theme.LAST_FACE if tl["n"] == layout.get("last") else theme.IVORY))
        draw.rounded_rectangle((min(a.x0, b.x0) + 2, min(a.y0, b.y0) + 2,
                                max(a.x1, b.x1) - 2, max(a.y1, b.y1) - 2), 5, fill=fill,
                               outline=EDGE, width=2)
    by_n = {int(tl["n"]): tl for tl in tiles}
    for n, h in layout.get("ends") or []:
        if int(n) in by_n:
            r = plan_cell(layout, pic, by_n[int(n)]["cells"][int(h)])
            draw.rounded_rectangle((r.x0 + 3, r.y0 + 3, r.x1 - 3, r.y1 - 3), 6, outline=OPEN,
                                   width=4)


def _compass(im: Image.Image, box: Rect, tr: Translator | None) -> None:
    """East and north as the side view shows them, in `box`."""
    draw = ImageDraw.Draw(im)
    cx, cy = box.x0 + 8, box.y1 - 10
    ex, ey = cx + 34, cy
    nx, ny = cx + 34 * DEPTH * 1.4, cy - 34 * DEPTH * 1.4
    draw.line((cx, cy, ex, ey), fill=theme.TEXT_SOFT, width=2)
    draw.line((cx, cy, nx, ny), fill=theme.TEXT_SOFT, width=2)
    canvas.draw_text(im, (ex + 4, ey), t(tr, "E"), 16, theme.TEXT_SOFT, "lm")
    canvas.draw_text(im, (nx + 2, ny - 2), t(tr, "N"), 16, theme.TEXT_SOFT, "lb")


def caption_lines(view: dict[str, Any], tr: Translator | None = None,
                  names: Sequence[str] | None = None) -> list[str]:
    """The lines under the construction: tiles and levels and the next play's way; the
    open ends; the last fall, by the faller's name."""
    layout = view.get("layout") or {}
    tiles = layout.get("tiles") or []
    levels = 1 + max((int(tl["level"]) for tl in tiles), default=-1)
    parts = [tn(tr, "{n} tile", "{n} tiles", len(tiles))
             + ", " + tn(tr, "{n} level", "{n} levels", levels)]
    mode = layout.get("mode")
    if mode == "flat":
        parts.append(t(tr, "next play: flat"))
    elif mode == "top":
        parts.append(t(tr, "next play: on top"))
    lines = ["  ·  ".join(parts)]
    ends = view.get("end_names") or [str(n) for n, _ in layout.get("ends") or []]
    if ends and tiles:
        lines.append(t(tr, "open ends (ringed): {ends}", ends=", ".join(map(str, ends))))
    fell = layout.get("fell")
    if fell:
        lines.append(tn(tr, "it fell: {who} took {n} tile", "it fell: {who} took {n} tiles",
                        int(fell["tiles"]), who=seat_label(names or [], int(fell["seat"]), tr)))
    return lines


def footer(view: dict[str, Any], tr: Translator | None = None,
           names: Sequence[str] | None = None) -> str:
    """The caption as one line."""
    return "  ·  ".join(caption_lines(view, tr, names))


register_layout("stack", draw=stack_image)
