"""A seat's private hand: its tiles standing in rows, the playable ones ringed in blue.

Built from ``g.view(seat)``. When the seat is to move (the view has
``"legal"``), tiles that appear in a legal move (``"6-4"``, ``"6-4 left"``...)
are drawn in the "legal" style and the others dimmed; otherwise every tile is
plain. Under each tile is its notation, the text a player types to play it. A
title line says how many tiles there are and what the seat may do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

from . import canvas, theme, tile
from .geometry import Rect, parse_tile
from .words import Translator, t, tn

HALF = 52
PER_ROW = 10
GAP = 14
MARGIN = 18
LABEL = 24
TITLE = 26
MIN_WIDTH = 480
MAX_WIDTH = 1280  # a wide title widens the picture up to this


@dataclass(frozen=True, slots=True)
class HandTile:
    """One tile of the hand as drawn: its notation, footprint and style."""

    text: str
    rect: Rect
    style: tile.Style


def legal_tiles(view: dict[str, Any]) -> set[tuple[int, int]]:
    """The tiles (smaller value first) named by the view's legal moves."""
    out = set()
    for move in view.get("legal") or []:
        word = str(move).split()[0] if str(move).split() else ""
        a, sep, b = word.partition("-")
        if sep and a.isdigit() and b.isdigit():
            out.add(tuple(sorted((int(a), int(b)))))
    return out  # type: ignore[return-value]


def hand_layout(view: dict[str, Any], title_width: int = 0) -> tuple[list[HandTile], int, int]:
    """Where each tile goes, and the picture's width and height (wide enough for a title
    ``title_width`` px wide, up to `MAX_WIDTH`)."""
    hand = [str(t) for t in view.get("hand") or []]
    moving = "legal" in view
    playable = legal_tiles(view)
    per_row = min(PER_ROW, max(1, len(hand)))
    rows = max(1, -(-len(hand) // per_row))
    cell_w, cell_h = HALF + GAP, 2 * HALF + LABEL + GAP
    width = max(MIN_WIDTH, 2 * MARGIN + per_row * cell_w - GAP,
                min(MAX_WIDTH, title_width + 2 * MARGIN))
    height = MARGIN + TITLE + 2 * GAP + rows * cell_h + MARGIN
    x_start = (width - (per_row * cell_w - GAP)) // 2
    tiles = []
    for i, text in enumerate(hand):
        row, col = divmod(i, per_row)
        x = x_start + col * cell_w
        y = MARGIN + TITLE + 2 * GAP + row * cell_h
        style: tile.Style = "plain"
        if moving:
            style = "legal" if tuple(sorted(parse_tile(text))) in playable else "dim"
        tiles.append(HandTile(text, Rect(x, y, x + HALF, y + 2 * HALF), style))
    return tiles, width, height


def title(view: dict[str, Any], tr: Translator | None = None) -> str:
    """The line above the tiles: size of the hand and what the seat may do."""
    count = len(view.get("hand") or [])
    parts = [tn(tr, "Your hand: {n} tile", "Your hand: {n} tiles", count)]
    if "legal" in view:
        legal = [str(m) for m in view["legal"]]
        playable = len(legal_tiles(view))
        if playable:
            parts.append(tn(tr, "{n} playable (ringed)", "{n} playable (ringed)", playable))
        if "draw" in legal:
            parts.append(t(tr, "you may draw") if playable else t(tr, "nothing fits: draw"))
        elif "pass" in legal and not playable:
            parts.append(t(tr, "nothing fits: pass"))
    return "  ·  ".join(parts)


def hand_image(view: dict[str, Any], tr: Translator | None = None) -> Image.Image:
    """The hand picture for the private ``view`` of one seat, its title translated by ``tr``."""
    heading = title(view, tr)
    tiles, width, height = hand_layout(view, canvas.text_mask(heading, 22).width)
    im = canvas.felt(width, height)
    heading = canvas.fit_text(heading, 22, width - 2 * MARGIN)
    canvas.draw_text(im, (MARGIN, MARGIN), heading, 22, theme.TEXT)
    for ht in tiles:
        a, b = parse_tile(ht.text)
        mask, (dx, dy) = tile.shadow_mask("v", HALF)
        im.paste(theme.SHADOW, (ht.rect.x0 + dx, ht.rect.y0 + dy), mask)
        sprite = tile.sprite(a, b, "v", HALF, ht.style)
        im.paste(sprite, (ht.rect.x0, ht.rect.y0), sprite)
        colour = theme.LEGAL if ht.style == "legal" else theme.TEXT_SOFT
        canvas.draw_text(im, (ht.rect.center[0], ht.rect.y1 + 6), ht.text, 21, colour, "mt")
    return im
