"""Colours, proportions and the fonts: the look of every picture in one place.

The fonts ship in `render/fonts/` (SIL Open Font License, `render/fonts/OFL.txt`): Noto
Sans in a regular and a real bold weight (Latin with its accents, Greek, Cyrillic), Noto
Sans Arabic (regular and bold) and a subset of Noto Sans CJK SC (the Chinese, Japanese and
Korean characters of the common national character sets; regular weight only, it stands in
for bold too). They form a fallback chain: each character is drawn by the first font of the
chain that has it (`runs`). `safe_text` keeps every character some font can draw and puts a
neutral mark (`MISSING`) for each run of characters none can (emoji, rare ideographs), so a
name never comes out empty.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from pathlib import Path

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


FONTS = Path(__file__).parent / "fonts"
# the fallback chain of each weight, first choice first
CHAIN: dict[bool, tuple[str, ...]] = {
    False: ("NotoSans-Regular.ttf", "NotoSansArabic-Regular.ttf",
            "NotoSansCJKsc-Regular-subset.otf"),
    True: ("NotoSans-Bold.ttf", "NotoSansArabic-Bold.ttf", "NotoSansCJKsc-Regular-subset.otf"),
}
MISSING = "□"  # a white square: what a character no font can draw becomes
_PROBE = 40  # the size at which glyphs are compared with the missing glyph


@lru_cache(maxsize=96)
def chain_font(index: int, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Font number ``index`` of the ``bold`` (or regular) chain at ``size`` pixels."""
    return ImageFont.truetype(str(FONTS / CHAIN[bold][index]), size)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The first font of the chain (Latin, Greek, Cyrillic) at ``size`` pixels."""
    return chain_font(0, size, bold)


@cache
def _notdef(index: int, bold: bool) -> bytes:
    # a private-use code point: no font of the chain has a glyph for it
    return bytes(chain_font(index, _PROBE, bold).getmask("󰀁"))


@cache
def has_glyph(index: int, ch: str, bold: bool = False) -> bool:
    """Whether font ``index`` of the chain draws ``ch`` (not its missing-glyph box)."""
    if ch.isspace():
        return True
    return bytes(chain_font(index, _PROBE, bold).getmask(ch)) != _notdef(index, bold)


@cache
def narrow_space(index: int, bold: bool = False) -> bool:
    """Is the space of chain font `index` a word space?  The CJK font's is a full em wide:
    after a Chinese name, a space goes to the first font that has a narrow one."""
    font = chain_font(index, 100, bold)
    return font.getlength(" ") <= 40


@cache
def font_for(ch: str, bold: bool = False) -> int | None:
    """The first font of the chain that draws ``ch``, or None."""
    return next((i for i in range(len(CHAIN[bold])) if has_glyph(i, ch, bold)), None)


def drawable(ch: str) -> bool:
    """Whether some font of the chain draws ``ch``."""
    return ch.isprintable() and font_for(ch) is not None


def _silent(ch: str) -> bool:
    """Marks that only modify what precedes them (joiners, variation selectors, emoji
    skin tones): left out, not replaced, when no font draws them."""
    return unicodedata.category(ch) in ("Mn", "Me", "Cf") or 0x1F3FB <= ord(ch) <= 0x1F3FF


@lru_cache(maxsize=1024)
def safe_text(text: str) -> str:
    """``text`` (composed, NFC) with each run of characters no font draws replaced by one
    `MISSING` mark; control characters are left out."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", str(text)):
        if ch in "\n\t":
            ch = " "
        if drawable(ch):
            out.append(ch)
        elif not (_silent(ch) or unicodedata.category(ch) == "Cc") and (
                not out or out[-1] != MISSING):
            out.append(MISSING)
    return "".join(out)


@lru_cache(maxsize=1024)
def runs(text: str, bold: bool = False) -> tuple[tuple[int, str], ...]:
    """``text`` (already `safe_text`) cut into (chain font, text) runs; spaces and marks
    that the running font also has stay in its run, so a name in one script is one run
    (shaped as a whole: Arabic letters join)."""
    out: list[tuple[int, str]] = []
    for ch in text:
        if out and has_glyph(out[-1][0], ch, bold) and (
                not ch.isalpha() or font_for(ch, bold) == out[-1][0]) and (
                not ch.isspace() or narrow_space(out[-1][0], bold)):
            out[-1] = (out[-1][0], out[-1][1] + ch)
            continue
        index = font_for(ch, bold)
        if index is None:
            index, ch = font_for(MISSING, bold) or 0, MISSING
        if out and out[-1][0] == index:
            out[-1] = (index, out[-1][1] + ch)
        else:
            out.append((index, ch))
    return tuple(out)
