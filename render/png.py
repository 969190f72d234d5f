"""PNG encoding: the picture is mapped onto one fixed 256-colour palette
(`render.palette`) and written as an 8-bit PNG: for these pictures (flat felt,
a few tile colours) that is both smaller and faster than a 24-bit PNG, and the
colours are chosen from the pictures themselves so edges stay smooth.
``encode_png(image, palette=False)`` writes plain RGB instead.
"""

from __future__ import annotations

import io

from PIL import Image

from .palette import palette_image

COMPRESS_LEVEL = 2


def encode_png(im: Image.Image, palette: bool = True) -> bytes:
    """PNG bytes of ``im``: 8-bit with the fixed palette (default) or 24-bit RGB."""
    if palette:
        im = im.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()
