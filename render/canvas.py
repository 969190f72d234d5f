"""Canvas helpers: the felt background and frame, cached text, end markers (the PNG
encoding is render/png.py, above the palette that is drawn with these helpers)."""

from __future__ import annotations

import re
from functools import lru_cache

from PIL import Image, ImageDraw

from . import theme


def felt(width: int, height: int) -> Image.Image:
    """A fresh felt-green picture."""
    return Image.new("RGB", (width, height), theme.FELT)


def frame(im: Image.Image) -> Image.Image:
    """Draw the table's darker edge around ``im`` (once the picture is composed)."""
    ImageDraw.Draw(im).rectangle((0, 0, im.width - 1, im.height - 1), outline=theme.FELT_EDGE,
                                 width=3)
    return im


@lru_cache(maxsize=2048)
def text_mask(text: str, size: int, bold: bool = False) -> Image.Image:
    """An ``L`` mask of ``text`` in the bundled fonts (each character from the first font of
    the chain that has it, `theme.runs`), tight around the ink's line box: the first font's
    ascent and descent, grown where a run's ink reaches past them."""
    pieces = theme.runs(theme.safe_text(text), bold)
    ascent, descent = theme.font(size, bold).getmetrics()
    placed = []
    x = 0.0
    left = right = 0
    for index, run in pieces:
        font = theme.chain_font(index, size, bold)
        x0, y0, x1, y1 = font.getbbox(run, anchor="ls")
        left, right = min(left, round(x + x0)), max(right, round(x + x1))
        ascent, descent = max(ascent, -y0), max(descent, y1)
        placed.append((x, font, run))
        x += font.getlength(run)
    w = max(1, right - left)
    mask = Image.new("L", (w, ascent + descent), 0)
    draw = ImageDraw.Draw(mask)
    for x, font, run in placed:
        draw.text((x - left, ascent), run, font=font, fill=255, anchor="ls")
    return mask


def draw_text(
    im: Image.Image, xy: tuple[float, float], text: str, size: int, colour: theme.RGB,
    anchor: str = "lt", bold: bool = False,
) -> tuple[int, int, int, int]:
    """Paste ``text`` at ``xy``; ``anchor`` is l/m/r then t/m/b. Returns the box used."""
    mask = text_mask(text, size, bold)
    w, h = mask.size
    x, y = xy
    x -= {"l": 0, "m": w / 2, "r": w}[anchor[0]]
    y -= {"t": 0, "m": h / 2, "b": h}[anchor[1]]
    box = (round(x), round(y), round(x) + w, round(y) + h)
    im.paste(colour, box, mask)
    return box


def fit_text(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so it fits ``width`` pixels: cut at the end, with
    no space or dash left before the ellipsis, and a trailing number kept ("Player 12" ->
    "Pla… 12") while anything is left before it."""
    text = theme.safe_text(text)
    if text_mask(text, size, bold).width <= width:
        return text
    number = re.fullmatch(r"(.*\S)(\s+\d{1,4})", text)
    for head, tail in ([(number[1], number[2])] if number else []) + [(text, "")]:
        while len(head) > 1:
            head = head[:-1]
            short = head.rstrip(" -_.,·") + "…" + tail
            if text_mask(short, size, bold).width <= width:
                return short
    return text[:1] + "…"


@lru_cache(maxsize=512)
def marker_sprite(value: int | str, radius: int) -> Image.Image:
    """An open-end marker: a dark disc with an ivory ring and the end's value, or a short
    label such as "0/2" (RGBA)."""
    k = 4
    size = 2 * radius
    big = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    ring = max(2, radius // 7) * k
    d.ellipse((0, 0, size * k - 1, size * k - 1), fill=theme.MARKER_RING)
    d.ellipse((ring, ring, size * k - 1 - ring, size * k - 1 - ring), fill=theme.MARKER_FILL)
    im = big.reduce(k)
    # regular weight: a stroked "5" closes up and reads as a "6"
    text = str(value)
    font_size = max(10, round(radius * {1: 1.3, 2: 1.05}.get(len(text), 0.75)))
    mask = text_mask(text, font_size)
    w = mask.size[0]
    _, top, _, bottom = theme.font(font_size).getbbox(text)
    # centre the digits' ink, not the line box
    ink_mid = (top + bottom) / 2 + 1
    im.paste((*theme.MARKER_TEXT, 255), (round(radius - w / 2), round(radius - ink_mid)), mask)
    return im
