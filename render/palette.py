"""The fixed 256-colour palette every picture is encoded with (see `png.encode_png`).

It is taken once per process (about 0.1 s, then cached) from a sample sheet
that holds every element the pictures are made of: tiles in each style and
orientation with their shadows and glows on the felt, end markers, and text in
each text colour on each background. Mapping a picture to a fixed palette is
much faster than choosing colours per picture, and an 8-bit PNG is smaller.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

from . import canvas, theme, tile

_BACKGROUNDS = (theme.FELT, theme.PANEL, theme.PANEL_TURN, theme.PANEL_OUT, theme.FELT_EDGE)
_TEXTS = (theme.TEXT, theme.TEXT_SOFT, theme.TEXT_DARK, theme.TEXT_OUT, theme.WIN, theme.LAST,
          theme.LEGAL, *theme.TEAMS)


@cache
def palette_image() -> Image.Image:
    """A ``P`` image whose palette suits every picture `render` draws."""
    sheet = Image.new("RGB", (1040, 600), theme.FELT)
    x, y = 10, 10
    for half in (44, 32):
        for style in tile.STYLES:
            for orientation in ("h", "v"):
                sprite = tile.sprite(6, 5, orientation, half, style)
                mask, (dx, dy) = tile.shadow_mask(orientation, half)
                sheet.paste(theme.SHADOW, (x + dx, y + dy), mask)
                if style == "last":
                    glow, (gx, gy) = tile.glow_mask(orientation, half)
                    sheet.paste(theme.LAST, (x + gx, y + gy), glow)
                sheet.paste(sprite, (x, y), sprite)
                x += sprite.width + 30
        x, y = 10, y + 2 * half + 30
    for value in (3, 12):
        marker = canvas.marker_sprite(value, 18)
        sheet.paste(marker, (x, y), marker)
        x += 50
    y += 50
    for background in _BACKGROUNDS:
        x = 10
        sheet.paste(background, (0, y, sheet.width, y + 40))
        for colour in _TEXTS:
            box = canvas.draw_text(sheet, (x, y + 8), "Ag8", 20, colour, bold=colour == theme.WIN)
            x = box[2] + 8
        y += 40
    return sheet.quantize(256, method=Image.Quantize.MEDIANCUT)
