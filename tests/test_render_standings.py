"""The tournament standings as a picture (render/standings.py, issue 31)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.i18n import translator
from render.standings import LIMIT, MAX_WIDTH, standings_png

BREAKS = ["buchholz", "sonneborn_berger"]


def row(rank: int, name: str, points: float, dropped: bool = False) -> dict[str, Any]:
    return {"rank": rank, "name": name, "points": points, "dropped": dropped,
            "tie_breaks": {"buchholz": 10 - rank, "sonneborn_berger": 5.5 - rank}}


ROWS = [row(1, "Alice", 3), row(2, "محمد عبد الرحمن", 2.5), row(3, "王小明", 2),
        row(4, "Bartholomew Fitzgerald-Montgomery the Third of Somewhere", 1, dropped=True)]


def size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as im:
        im.load()
        assert im.format == "PNG"
        return im.size


def test_the_picture_opens_within_its_bounds() -> None:
    for final in (False, True):
        w, h = size(standings_png(7, ROWS, BREAKS, 3, final))
        assert 360 <= w <= MAX_WIDTH and 150 <= h <= 600


def test_a_long_name_and_many_rows_keep_the_width_and_a_bounded_height() -> None:
    many = [row(i, f"Player with a very long name number {i}" * 3, 0) for i in range(1, 60)]
    w, h = size(standings_png(7, many, BREAKS, 3, False))
    assert w <= MAX_WIDTH
    _, h20 = size(standings_png(7, many[:LIMIT], BREAKS, 3, False))
    assert h > h20  # the "and n more" line
    assert h < h20 + 100  # no row past the limit drawn


def test_the_picture_differs_when_the_standings_differ() -> None:
    base = standings_png(7, ROWS, BREAKS, 3, False)
    other = [dict(r) for r in ROWS]
    other[0] = {**other[0], "points": 4}
    assert standings_png(7, other, BREAKS, 3, False) != base
    assert standings_png(7, ROWS, BREAKS, 3, True) != base  # the podium marked
    assert standings_png(7, ROWS, BREAKS[:1], 3, False) != base  # another format's columns
    assert standings_png(7, ROWS, BREAKS, 3, False, tr=translator("fr")) != base
    assert standings_png(7, ROWS, BREAKS, 3, False) == base  # a pure function


def test_no_rows_still_draws() -> None:
    w, h = size(standings_png(7, [], [], 0, False))
    assert w <= MAX_WIDTH and h > 0


def test_a_long_pair_name_keeps_both_partners() -> None:
    from render.standings import _fit_name

    shown = _fit_name("Anastasia Papadopoulos & Bob", 200, False)
    assert shown.endswith(" & Bob") and shown.startswith("Anast") and "…" in shown
    both = _fit_name("Maximiliano Fernández-Castillo & Jean-Christophe Delacroix", 260, True)
    first, second = both.split(" & ")
    assert first.startswith("Maxim") and second.startswith("Jean")
    assert _fit_name("Ann & Bob", 260, False) == "Ann & Bob"
