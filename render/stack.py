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
level a tile's thickness higher.  Every half is a block with its pips on top
and the tile's number on its front; the tile laid last is warm-coloured, a
half that hangs over nothing has a shadow line under it, so a player sees
what may fall.  Under the construction a line says its height and, in
quinconce, how the next play must be made; after a fall, who took the tiles.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from . import canvas, pips, theme
from .board import register_layout
from .words import Translator, seat_label, t, tn

UNIT = 52  # px per half-width
DEPTH = 0.5  # how far north shifts up and to the right, per unit
THICK = 0.75  # a level's height in half-widths (drawn thicker than a tile, to read the levels)
PLAN = 40  # px per cell of the plan seen from above
MARGIN = 24
FOOTER = 40
MIN_WIDTH, MIN_HEIGHT = 420, 200
MAX_WIDTH, MAX_HEIGHT = 1280, 720

FRONT: theme.RGB = (214, 204, 178)
SIDE: theme.RGB = (190, 178, 150)
EDGE: theme.RGB = (120, 110, 88)
LAST_FRONT: theme.RGB = (240, 214, 150)
LAST_SIDE: theme.RGB = (222, 190, 120)

Point = tuple[float, float]


def _project(x: float, y: float, z: float, unit: float) -> Point:
    """Screen position (before the offset) of the world point (x, y, z)."""
    return (unit * (x + DEPTH * y), -unit * (z + DEPTH * y))


def _half_boxes(layout: dict[str, Any]) -> list[dict[str, Any]]:
    """One block per half: its cell, level, value, tile number, axis and flags."""
    out = []
    last = layout.get("last")
    tiles = layout.get("tiles") or []
    filled = {(c[0], c[1], tl["level"]) for tl in tiles for c in tl["cells"]}
    for tl in tiles:
        values = [int(v) for v in str(tl["tile"]).split("-")]
        for i, (cx, cy) in enumerate(tl["cells"]):
            level = int(tl["level"])
            out.append({
                "x": cx, "y": cy, "level": level, "value": values[i], "n": tl["n"],
                "axis": tl.get("axis", "ew"), "last": tl["n"] == last, "first": i == 0,
                "hangs": level > 0 and (cx, cy, level - 1) not in filled,
            })
    return out


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


def stack_image(view: dict[str, Any], tr: Translator | None = None,
                names: list[str] | None = None) -> Image.Image:
    """The construction from the side, with a line about its height, mode and last fall
    (who took the tiles, by `names`)."""
    layout = view.get("layout") or {}
    unit = float(UNIT)
    x0, y0, x1, y1 = stack_extent(layout, unit)
    scale = min(1.0, (MAX_WIDTH - 2 * MARGIN) / max(1.0, x1 - x0),
                (MAX_HEIGHT - 2 * MARGIN - FOOTER) / max(1.0, y1 - y0))
    if scale < 1.0:
        unit *= scale
        x0, y0, x1, y1 = stack_extent(layout, unit)
    plan_w, plan_h = plan_size(layout)
    side_w = round(x1 - x0) + 2 * MARGIN
    width = max(MIN_WIDTH, side_w + plan_w + (MARGIN if plan_w else 0))
    height = max(MIN_HEIGHT, round(max(y1 - y0, plan_h + 28)) + 2 * MARGIN + FOOTER)
    im = canvas.felt(width, height)
    boxes = _half_boxes(layout)
    if not boxes:
        canvas.draw_text(im, (width / 2, (height - FOOTER) / 2),
                         t(tr, "No tiles on the table yet"), 18, theme.TEXT_SOFT, "mm")
    ox = (width - plan_w - (x1 - x0)) / 2 - x0
    oy = (height - FOOTER - (y1 - y0)) / 2 - y0
    draw = ImageDraw.Draw(im)
    # the table's shadow under each block standing on it, then the blocks back to front
    for b in boxes:
        if b["level"] == 0:
            quad = _face(b, "bottom", unit, ox, oy, 0.08)
            draw.polygon(quad, fill=theme.SHADOW)
    for b in sorted(boxes, key=lambda b: (b["level"], -b["y"], b["x"])):
        _draw_block(im, draw, b, unit, ox, oy)
    if plan_w:
        draw_plan(im, layout, (width - MARGIN - plan_w, MARGIN + 28), tr)
    _compass(im, side_w, height, tr)
    canvas.draw_text(im, (MARGIN, height - FOOTER / 2), footer(view, tr, names), 20, theme.TEXT,
                     "lm")
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


def _draw_block(im: Image.Image, draw: ImageDraw.ImageDraw, b: dict[str, Any], unit: float,
                ox: float, oy: float) -> None:
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
    # pips on the top face: (u, v) in the half's square, v = 0 at its north edge
    (ax, ay), (bx, by), _, (dx, dy) = top  # south-west, south-east, north-east, north-west
    horizontal = b["axis"] == "ew"
    r = pips.radius(b["value"]) * unit
    for u, v in pips.layout(b["value"], horizontal):
        px = dx + u * (bx - ax) + v * (ax - dx)
        py = dy + u * (by - ay) + v * (ay - dy)
        draw.ellipse((px - r, py - r * 0.62, px + r, py + r * 0.62), fill=theme.PIP)
    # the seam between a tile's halves, and the tile's number on the front of its first half
    if b["first"]:
        fx0, fy0 = _face(b, "front", unit, ox, oy)[0]
        fx1, fy1 = _face(b, "front", unit, ox, oy)[2]
        size = max(12, int(unit * 0.36))
        canvas.draw_text(im, ((fx0 + fx1) / 2, (fy0 + fy1) / 2), str(b["n"]), size,
                         theme.TEXT_DARK, "mm", bold=True)


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


def draw_plan(im: Image.Image, layout: dict[str, Any], at: tuple[int, int],
              tr: Translator | None = None) -> None:
    """The construction seen from above: each tile's outline and number, higher tiles over
    lower ones and lighter, north up."""
    draw = ImageDraw.Draw(im)
    x0, _, _, y1 = _plan_bounds(layout)
    left, top = at
    canvas.draw_text(im, (left, top - 6), t(tr, "from above"), 16, theme.TEXT_SOFT, "lb")
    tiles = sorted(layout.get("tiles") or [], key=lambda tl: tl["level"])
    high = max(int(tl["level"]) for tl in tiles) or 1
    for tl in tiles:
        (ax, ay), (bx, by) = tl["cells"]
        px0 = left + (min(ax, bx) - x0) * PLAN + 2
        px1 = left + (max(ax, bx) - x0 + 1) * PLAN - 2
        py0 = top + (y1 - max(ay, by)) * PLAN + 2
        py1 = top + (y1 - min(ay, by) + 1) * PLAN - 2
        shade = 0.55 + 0.45 * int(tl["level"]) / high
        fill = tuple(round(c * shade) for c in
                     (theme.LAST_FACE if tl["n"] == layout.get("last") else theme.IVORY))
        draw.rounded_rectangle((px0, py0, px1, py1), 5, fill=fill, outline=EDGE, width=2)
        canvas.draw_text(im, ((px0 + px1) / 2, (py0 + py1) / 2), str(tl["n"]), 15,
                         theme.TEXT_DARK, "mm", bold=True)


def _compass(im: Image.Image, width: int, height: int, tr: Translator | None) -> None:
    """East and north, in the bottom right corner of the side view."""
    draw = ImageDraw.Draw(im)
    cx, cy = width - 70, height - 14
    ex, ey = cx + 34, cy
    nx, ny = cx + 34 * DEPTH * 1.4, cy - 34 * DEPTH * 1.4
    draw.line((cx, cy, ex, ey), fill=theme.TEXT_SOFT, width=2)
    draw.line((cx, cy, nx, ny), fill=theme.TEXT_SOFT, width=2)
    canvas.draw_text(im, (ex + 4, ey), t(tr, "E"), 16, theme.TEXT_SOFT, "lm")
    canvas.draw_text(im, (nx + 2, ny - 2), t(tr, "N"), 16, theme.TEXT_SOFT, "lb")


def footer(view: dict[str, Any], tr: Translator | None = None,
           names: list[str] | None = None) -> str:
    """The line under the construction: tiles and levels, the next play's mode, a fall."""
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
    fell = layout.get("fell")
    if fell:
        parts.append(tn(tr, "it fell: {who} took {n} tile", "it fell: {who} took {n} tiles",
                        int(fell["tiles"]), who=seat_label(names or [], int(fell["seat"]), tr)))
    return "  ·  ".join(parts)


register_layout("stack", draw=stack_image)
