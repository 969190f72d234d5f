"""Pip layouts for half-face values 0 to 12, as on real tiles.

Positions are fractions of a square half, ``(x, y)`` with ``(0, 0)`` at the top
left, for a half of a *vertical* tile (halves one above the other); a
horizontal tile shows them turned a quarter turn (`rotated`), so a 6 is two
columns of three on a standing tile and two rows of three on a lying one.

0 blank; 1 to 6 the usual faces; 7 is the 6 plus a centre pip; 8 a ring of
eight (3x3 without the centre); 9 the full 3x3; 10 three columns 3-4-3;
11 three columns 4-3-4; 12 three columns of four. Every layout is symmetric
under a half turn, so a tile reads the same from either end.
"""

from __future__ import annotations

from functools import cache

Point = tuple[float, float]

_LO, _MID, _HI = 0.25, 0.5, 0.75  # 1 to 7
_L9, _H9 = 0.21, 0.79  # 8 and 9 (3x3 grid)
_COLS = (0.2, 0.5, 0.8)  # 10 to 12
_ROWS4 = (0.16, 0.387, 0.613, 0.84)
_ROWS3 = (0.2, 0.5, 0.8)
_ROWS3_INNER = (0.27, 0.5, 0.73)


def _grid(xs: tuple[float, ...], ys: tuple[float, ...]) -> list[Point]:
    return [(x, y) for y in ys for x in xs]


def _column(x: float, ys: tuple[float, ...]) -> list[Point]:
    return [(x, y) for y in ys]


PIPS: dict[int, tuple[Point, ...]] = {
    0: (),
    1: ((_MID, _MID),),
    2: ((_LO, _LO), (_HI, _HI)),
    3: ((_LO, _LO), (_MID, _MID), (_HI, _HI)),
    4: ((_LO, _LO), (_HI, _LO), (_LO, _HI), (_HI, _HI)),
    5: ((_LO, _LO), (_HI, _LO), (_MID, _MID), (_LO, _HI), (_HI, _HI)),
    6: tuple(_grid((_LO, _HI), (0.22, _MID, 0.78))),
    7: (*_grid((_LO, _HI), (0.22, _MID, 0.78)), (_MID, _MID)),
    8: tuple(p for p in _grid((_L9, _MID, _H9), (_L9, _MID, _H9)) if p != (_MID, _MID)),
    9: tuple(_grid((_L9, _MID, _H9), (_L9, _MID, _H9))),
    10: (*_column(_COLS[0], _ROWS3), *_column(_COLS[1], _ROWS4), *_column(_COLS[2], _ROWS3)),
    11: (
        *_column(_COLS[0], _ROWS4),
        *_column(_COLS[1], _ROWS3_INNER),
        *_column(_COLS[2], _ROWS4),
    ),
    12: tuple(_grid(_COLS, _ROWS4)),
}

MAX_VALUE = max(PIPS)


def radius(value: int) -> float:
    """Pip radius as a fraction of the half's side (smaller pips for crowded faces)."""
    if value <= 7:
        return 0.105
    if value <= 9:
        return 0.092
    return 0.076


@cache
def rotated(value: int) -> tuple[Point, ...]:
    """The layout of ``value`` for a half of a horizontal tile (a quarter turn clockwise)."""
    return tuple((1.0 - y, x) for x, y in PIPS[value])


def layout(value: int, horizontal: bool) -> tuple[Point, ...]:
    """Pip centres for ``value`` on a vertical (default) or horizontal tile."""
    if value not in PIPS:
        raise ValueError(f"no pip layout for {value}: half-faces go from 0 to {MAX_VALUE}")
    return rotated(value) if horizontal else PIPS[value]
