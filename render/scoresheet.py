"""The picture of a finished round: its final board, every hand revealed, the score sheet.

`scoresheet_image(view, names, lines, tr)` reads the public view's ``last_round`` (the final
board, the hands and their pips: a finished round shows them to everyone) and draws the
caller's score-sheet lines, already in words, under them.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from . import canvas, theme, tile
from .board import board_image
from .words import Translator, tn

HALF = 18  # a revealed hand's tiles, small
GAP = 6
MARGIN = 18
NAME = 21
TEXT = 19
ROW = 2 * HALF + 14
MIN_WIDTH = 640


def parse_tile(text: str) -> tuple[int, int]:
    a, _, b = text.partition("-")
    return int(a), int(b)


def scoresheet_image(view: dict[str, Any], names: list[str], lines: list[str],
                     tr: Translator | None = None) -> Image.Image:
    """The final board of ``view["last_round"]``, each hand with its pips, then `lines`."""
    last = view["last_round"]
    board_view = {**view, **(last.get("board") or {}), "last_move": None}
    board = board_image(board_view, tr, names=names)
    hands = [(s, hand, pips) for s, (hand, pips) in enumerate(zip(last["hands"], last["pips"],
                                                                   strict=False))
             if hand or s not in view.get("gone", [])]
    name_w = max([canvas.text_mask(_name(names, s), NAME, True).width for s, _, _ in hands]
                 or [0])
    name_w = min(name_w, 220)
    tile_w = tile.footprint("v", HALF)[0]
    widest = max([len(h) for _, h, _ in hands] or [0])
    width = max(board.width, MIN_WIDTH,
                MARGIN * 3 + name_w + widest * (tile_w + GAP) + 120)
    text_h = canvas.text_mask("Ag", TEXT).height + 6
    height = board.height + MARGIN + len(hands) * ROW + MARGIN + len(lines) * text_h + MARGIN
    im = canvas.felt(width, height)
    im.paste(board, ((width - board.width) // 2, 0))
    draw = ImageDraw.Draw(im)
    draw.line((12, board.height, width - 12, board.height), fill=theme.FELT_EDGE, width=2)
    y = board.height + MARGIN
    for seat, hand, pips in hands:
        name = canvas.fit_text(_name(names, seat), NAME, name_w, True)
        canvas.draw_text(im, (MARGIN, y + ROW // 2 - 4), name, NAME, theme.TEXT, "lm", True)
        x = MARGIN * 2 + name_w
        for text in hand:
            a, b = parse_tile(text)
            sprite = tile.sprite(a, b, "v", HALF)
            im.paste(sprite, (x, y), sprite)
            x += tile_w + GAP
        label = tn(tr, "{n} pip", "{n} pips", pips)
        canvas.draw_text(im, (x + GAP, y + ROW // 2 - 4), label, TEXT, theme.TEXT_SOFT, "lm")
        y += ROW
    y += MARGIN // 2
    for i, line in enumerate(lines):
        shown = canvas.fit_text(line, TEXT, width - 2 * MARGIN, bold=i == 0)
        canvas.draw_text(im, (MARGIN, y), shown, TEXT, theme.WIN if i == 0 else theme.TEXT,
                         bold=i == 0)
        y += text_h
    return im


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"
