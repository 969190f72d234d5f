"""One domino as a sprite: ivory body, thickness, dividing line with its pin, pips.

`sprite(a, b, orientation, half, style)` is an RGBA image exactly the size of
the tile's footprint (``2*half x half`` lying, ``half x 2*half`` standing)
with ``a`` on the left/top half. It is drawn four times larger and reduced, for
smooth edges, and cached (`functools.lru_cache`), so a board is a few pastes.
Styles: ``"plain"``, ``"last"`` (the tile just played: warm face, amber ring),
``"legal"`` (a playable tile in a hand: blue ring), ``"dim"`` (not playable).

`shadow_mask` and `glow_mask` are the matching soft masks, drawn under tiles.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFilter

from . import pips, theme

Orientation = Literal["h", "v"]
Style = Literal["plain", "last", "legal", "dim"]
STYLES: tuple[Style, ...] = ("plain", "last", "legal", "dim")

SCALE = 4  # supersampling factor


def footprint(orientation: Orientation, half: int) -> tuple[int, int]:
    return (2 * half, half) if orientation == "h" else (half, 2 * half)


@lru_cache(maxsize=4096)
def sprite(
    a: int, b: int, orientation: Orientation, half: int, style: Style = "plain"
) -> Image.Image:
    """The tile ``a-b`` (``a`` left or top) as an RGBA image of its footprint."""
    if style not in STYLES:
        raise ValueError(f"unknown tile style {style!r}; styles: {', '.join(STYLES)}")
    k = SCALE
    w, h = footprint(orientation, half)
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    p = theme.pad(half) * k
    radius = round(half * 0.15) * k
    thick = max(1, round(half * 0.06)) * k
    face, side, pip = theme.IVORY, theme.IVORY_SIDE, theme.PIP
    if style == "dim":
        face, side, pip = theme.DIM_FACE, theme.DIM_SIDE, theme.DIM_PIP
    elif style == "last":
        face = theme.LAST_FACE
    outline = max(1, k * half // 40)
    body = (p, p, w * k - p - 1, h * k - p - 1)
    # the edge and the tile's thickness (seen at the bottom), then the top face
    d.rounded_rectangle(body, radius, fill=theme.TILE_EDGE)
    inner = (body[0] + outline, body[1] + outline, body[2] - outline, body[3] - outline)
    d.rounded_rectangle(inner, max(1, radius - outline), fill=side)
    top = (inner[0], inner[1], inner[2], inner[3] - thick)
    d.rounded_rectangle(top, max(1, radius - outline), fill=face)
    if style in ("last", "legal"):
        ring = theme.LAST if style == "last" else theme.LEGAL
        width = max(2, half // 12) * k
        d.rounded_rectangle(body, radius, outline=ring, width=width)
        top = (top[0] + width - outline, top[1] + width - outline,
               top[2] - width + outline, top[3] - width + outline)
    # halves of the top face
    x0, y0, x1, y1 = top
    if orientation == "h":
        mid = (x0 + x1) / 2
        halves = [(x0, y0, mid, y1), (mid, y0, x1, y1)]
        line = [(mid, y0 + 0.16 * (y1 - y0)), (mid, y1 - 0.16 * (y1 - y0))]
    else:
        mid = (y0 + y1) / 2
        halves = [(x0, y0, x1, mid), (x0, mid, x1, y1)]
        line = [(x0 + 0.16 * (x1 - x0), mid), (x1 - 0.16 * (x1 - x0), mid)]
    d.line(line, fill=theme.DIVIDER if style != "dim" else theme.DIM_PIP,
           width=max(k, round(half * k / 22)))
    pin = half * k * 0.055
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    d.ellipse((cx - pin, cy - pin, cx + pin, cy + pin),
              fill=theme.PIN if style != "dim" else theme.DIM_SIDE)
    for value, (hx0, hy0, hx1, hy1) in zip((a, b), halves, strict=True):
        size = min(hx1 - hx0, hy1 - hy0)
        ox = hx0 + (hx1 - hx0 - size) / 2
        oy = hy0 + (hy1 - hy0 - size) / 2
        # pips sit in the inner part of the half, away from the rim and the divider
        inset = size * 0.06
        span_ = size - 2 * inset
        r = pips.radius(value) * span_
        for px, py in pips.layout(value, orientation == "h"):
            x = ox + inset + px * span_
            y = oy + inset + py * span_
            d.ellipse((x - r, y - r, x + r, y + r), fill=pip)
    return big.reduce(k)


@lru_cache(maxsize=64)
def shadow_mask(orientation: Orientation, half: int) -> tuple[Image.Image, tuple[int, int]]:
    """A soft ``L`` mask of the tile's shadow and its offset from the footprint's corner."""
    w, h = footprint(orientation, half)
    blur = max(1, half // 16)
    m = 2 * blur + 2
    mask = Image.new("L", (w + 2 * m, h + 2 * m), 0)
    p = theme.pad(half)
    ImageDraw.Draw(mask).rounded_rectangle(
        (m + p, m + p, m + w - p - 1, m + h - p - 1), round(half * 0.15), fill=120
    )
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    dx, dy = theme.shadow_offset(half)
    return mask, (dx - m, dy - m)


@lru_cache(maxsize=64)
def glow_mask(orientation: Orientation, half: int) -> tuple[Image.Image, tuple[int, int]]:
    """A soft ``L`` halo around the footprint (under a highlighted tile), and its offset."""
    w, h = footprint(orientation, half)
    spread = max(4, half // 5)
    m = 2 * spread
    mask = Image.new("L", (w + 2 * m, h + 2 * m), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (m - spread // 2, m - spread // 2, m + w + spread // 2, m + h + spread // 2),
        round(half * 0.3), fill=235,
    )
    mask = mask.filter(ImageFilter.GaussianBlur(spread / 2))
    return mask, (-m, -m)
