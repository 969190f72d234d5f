"""Colours, proportions and the font: the look of every picture in one place.

The only font is the one Pillow ships (`ImageFont.load_default`); it covers
Latin letters (plus a few marks), so `safe_text` folds accents ("Élodie" ->
"Elodie", "Søren" -> "Soren") and leaves out what it cannot draw (emoji, CJK):
drawing any Unicode text never fails, and callers choose a fallback when
nothing drawable is left (the strip shows "Seat 2").
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from PIL import ImageFont

RGB = tuple[int, int, int]

FELT: RGB = (28, 104, 68)
FELT_EDGE: RGB = (18, 78, 50)
SHADOW: RGB = (4, 30, 18)

IVORY: RGB = (246, 240, 224)
IVORY_SIDE: RGB = (214, 204, 178)
TILE_EDGE: RGB = (150, 138, 110)
DIVIDER: RGB = (128, 118, 96)
PIN: RGB = (196, 160, 78)
PIP: RGB = (30, 26, 22)

LAST_FACE: RGB = (255, 240, 190)
LAST: RGB = (245, 166, 20)  # the last tile played (ring and glow)
LEGAL: RGB = (64, 200, 250)  # a playable tile in a hand
DIM_FACE: RGB = (178, 172, 158)
DIM_SIDE: RGB = (146, 140, 126)
DIM_PIP: RGB = (92, 88, 80)

MARKER_FILL: RGB = (12, 56, 36)
MARKER_RING: RGB = (246, 240, 224)
MARKER_TEXT: RGB = (255, 255, 255)

TEXT: RGB = (246, 244, 236)
TEXT_SOFT: RGB = (190, 214, 198)
TEXT_DARK: RGB = (30, 26, 22)
PANEL: RGB = (20, 80, 52)
PANEL_TURN: RGB = (36, 122, 80)
PANEL_OUT: RGB = (62, 74, 68)
TEXT_OUT: RGB = (150, 160, 154)
TEAMS: tuple[RGB, ...] = ((90, 150, 240), (236, 104, 96), (180, 120, 230), (240, 200, 80))
WIN: RGB = (250, 206, 60)
CHIP: RGB = (200, 48, 56)  # a Rubicon chip


def pad(half: int) -> int:
    """Felt left around a tile body inside its footprint (half of the seam between tiles)."""
    return max(1, round(half * 0.045))


def shadow_offset(half: int) -> tuple[int, int]:
    return (max(1, half // 14), max(2, half // 9))


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels."""
    return ImageFont.load_default(size=size)


@cache
def _notdef() -> bytes:
    return bytes(font(20).getmask("\uffff"))


@cache
def drawable(ch: str) -> bool:
    """Whether the bundled font has a glyph for ``ch``."""
    if ch.isascii():
        return ch.isprintable()
    return bytes(font(20).getmask(ch)) != _notdef()


# letters NFKD does not split into a base and an accent
_FOLD = {"ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
         "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i"}


@lru_cache(maxsize=1024)
def safe_text(text: str) -> str:
    """``text`` with accents folded and the characters the font lacks left out."""
    out = []
    for ch in str(text):
        if drawable(ch):
            out.append(ch)
            continue
        base = _FOLD.get(ch) or "".join(
            c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
        )
        if base and all(drawable(c) for c in base):
            out.append(base)
    return "".join(out)
