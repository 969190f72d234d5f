"""Render benchmark (not a test): time to draw a board picture, PNG encoding included,
next to the time to encode a blank picture of the same size (the floor).

    python bench/render.py [--repeats 50]

Boards: a full 28-tile double-six line, a 55-tile double-nine line and a full
double-six cross (all 28 tiles), each drawn with ``render.board_png`` from a
view (layout, drawing and encoding are all timed; tile sprites are cached, as
in a running bot, by one untimed warm-up call). The floor is Pillow's PNG
encoder, default settings, on a blank RGB picture of the board's size; the
blank picture through our own 8-bit encoder (`render.png.encode_png`) is
shown too, since pictures are encoded that way. The
position picture (``render.position_png``: the board and the table strip) is
timed too. Medians of ``--repeats`` runs, interleaved.
"""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

import render
from render import png, theme

LINE_28 = [  # every double-six tile, one line
    "0-6", "6-5", "5-1", "1-6", "6-6", "6-3", "3-3", "3-2", "2-2", "2-4", "4-4", "4-0", "0-0",
    "0-1", "1-1", "1-2", "2-5", "5-5", "5-0", "0-3", "3-1", "1-4", "4-5", "5-3", "3-4", "4-6",
    "6-2", "2-0",
]
CROSS_28 = {  # every double-six tile around the 6-6 spinner
    "kind": "cross", "spinner": "6-6", "last": [3, 3],
    "arms": [
        ["6-1", "1-1", "1-2", "2-2", "2-3", "3-3", "3-0", "0-6", "6-5"],
        ["6-2", "2-0", "0-0", "0-1", "1-3", "3-4", "4-4"],
        ["6-3", "3-5", "5-5", "5-0", "0-4", "4-1", "1-5"],
        ["6-4", "4-2", "2-5", "5-4"],
    ],
}
TARGET_MS, TARGET_RATIO, TARGET_KB = 25.0, 2.0, 200


def line_55() -> list[str]:
    """A 55-tile line of double-nine tiles (a walk of matching tiles, a few used twice)."""
    chain, seen, v = [], set(), 9
    while len(chain) < 55:
        options = [w for w in range(10) if (min(v, w), max(v, w)) not in seen] or [(v + 1) % 10]
        w = max(options, key=lambda x: (x * 7 + v * 3) % 10)
        seen.add((min(v, w), max(v, w)))
        chain.append(f"{v}-{w}")
        v = w
    return chain


def view_of(layout: dict[str, Any]) -> dict[str, Any]:
    return {"players": 4, "hand_sizes": [3, 2, 4, 0], "scores": [12, 30, 5, 41], "to_move": 1,
            "stock": 0, "round": 3, "target": 100, "layout": layout}


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def blank_png(size: tuple[int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, theme.FELT).save(buf, "PNG")
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    cases = {
        "line, 28 tiles (double-6)": {"kind": "line", "chain": LINE_28, "last": 27},
        "line, 55 tiles (double-9)": {"kind": "line", "chain": line_55(), "last": 54},
        "cross, 28 tiles (double-6)": CROSS_28,
    }
    print(f"Python {platform.python_version()}, Pillow {Image.__version__}, "
          f"{platform.machine()}, median of {args.repeats} runs")
    print("| board | size px | board_png ms | floor ms | ratio | blank 8-bit ms | KB "
          "| position_png ms | KB | targets |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, layout in cases.items():
        view = view_of(layout)
        data = render.board_png(view)  # warm-up: sprites, palette, fonts
        size = Image.open(io.BytesIO(data)).size
        position = render.position_png(view)
        board_ms = floor_ms = ours_ms = position_ms = 0.0
        blank = Image.new("RGB", size, theme.FELT)
        for _ in range(3):  # interleave the timings
            board_ms += median_ms(lambda v=view: render.board_png(v), args.repeats) / 3
            floor_ms += median_ms(lambda s=size: blank_png(s), args.repeats) / 3
            ours_ms += median_ms(lambda b=blank: png.encode_png(b), args.repeats) / 3
            position_ms += median_ms(lambda v=view: render.position_png(v), args.repeats) / 3
        ratio = board_ms / floor_ms
        ok = (board_ms <= TARGET_MS and ratio <= TARGET_RATIO and len(data) < TARGET_KB * 1000)
        print(f"| {name} | {size[0]}x{size[1]} | {board_ms:.1f} | {floor_ms:.1f} | "
              f"{ratio:.2f}x | {ours_ms:.1f} | {len(data) / 1000:.0f} | {position_ms:.1f} | "
              f"{len(position) / 1000:.0f} | {'met' if ok else 'MISSED'} |")


if __name__ == "__main__":
    main()
