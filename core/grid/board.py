"""The grid: cells and their names, what lies on them, and the lines a play makes.

Cells live in one flat list with a border of off-grid cells around the
`SIZE` x `SIZE` playing area, so walking along a row or a column never
needs a bounds check: cell ``(row, col)`` (0-based) is ``(row + 1) * WIDTH +
col + 1``; one step right is ``+1``, one step down is ``+WIDTH``.  A cell
holds a half's pips (0 to 9), `EMPTY`, `MARKER` (a "20" marker) or `OFF`.

Columns are named by letters (A to Y) and rows by numbers (1 to 25, from
the top): ``"C4"`` is the third column of the fourth row.

A *line* is a maximal straight run of two or more halves in a row or a
column, whichever tiles they belong to.  `check_placement` is the home of the
rules of a play (see `place`); `core.grid.generate` lists the plays faster
and is checked against it by the tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import illegal

SIZE = 25  # columns A..Y, rows 1..25
WIDTH = SIZE + 2  # with the border
CELLS = WIDTH * WIDTH
RIGHT = 1
DOWN = WIDTH
EMPTY = -1
MARKER = -2
OFF = -3
GOAL = 20
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY"
CENTRE = (SIZE // 2 + 1) * WIDTH + SIZE // 2 + 1  # M13
_CELL_RE = re.compile(r"^([a-y])(\d{1,2})$")


def empty_cells() -> list[int]:
    """A fresh grid: every playing cell empty, the border off the grid."""
    cells = [OFF] * CELLS
    for r in range(1, SIZE + 1):
        cells[r * WIDTH + 1: r * WIDTH + SIZE + 1] = [EMPTY] * SIZE
    return cells


def cell_name(cell: int) -> str:
    """``"C4"`` for the cell in the third column of the fourth row."""
    r, c = divmod(cell, WIDTH)
    return f"{LETTERS[c - 1]}{r}"


def parse_cell(text: str) -> int:
    """The cell named `text` (``"c4"`` or ``"C4"``); `IllegalMove` when there is none."""
    m = _CELL_RE.match(text.strip().lower())
    if m:
        c = LETTERS.index(m.group(1).upper()) + 1
        r = int(m.group(2))
        if 1 <= r <= SIZE:
            return r * WIDTH + c
    raise illegal("{cell!r} is not a cell of the grid (columns A to Y, rows 1 to 25, like C4)",
                  cell=text.strip()[:10])


def cross(step: int) -> int:
    """The other direction: down for right, right for down."""
    return DOWN if step == RIGHT else RIGHT


@dataclass(frozen=True, slots=True)
class Side:
    """The halves beyond a cell in one direction, up to the first cell that is not a half."""

    count: int  # how many halves
    total: int  # their pips
    near: int  # the pips of the half next to the cell (-1 when none)
    far: int  # the pips of the outermost half (-1 when none)
    end: int  # the first cell past them (empty, a marker or off the grid)


def side(cells: list[int], cell: int, step: int) -> Side:
    """The run of halves after `cell` going `step` (a negative step goes back)."""
    j = cell + step
    v = cells[j]
    if v < 0:
        return Side(0, 0, -1, -1, j)
    near = v
    count = total = 0
    while v >= 0:
        count += 1
        total += v
        far = v
        j += step
        v = cells[j]
    return Side(count, total, near, far, j)


def close(cells: list[int], before: Side, after: Side, inner: tuple[int, int, int, int],
          ) -> int:
    """The code of the line made of `before`, a stretch of halves, and `after`.

    `inner` is the stretch's (number of halves, pips, first half, last half);
    the stretch itself has no blank inside.  The code is -1 when the line
    breaks a rule (over 20, a blank half inside, an open end off the grid),
    0 when it is not a line of 20, and 1 + the markers it takes when it is
    one (an end closed by a marker or a blank half takes none).
    """
    count, total, first, last = inner
    if before.count + count + after.count < 2:
        return 0
    total += before.total + after.total
    if total > GOAL:
        return -1
    if before.count and ((first == 0 and (count > 1 or after.count))
                         or (before.near == 0 and before.count > 1)):
        return -1  # a blank half would be inside the line
    if after.count and ((last == 0 and (count > 1 or before.count))
                        or (after.near == 0 and after.count > 1)):
        return -1
    if total < GOAL:
        return 0
    markers = 1
    for extreme, end in ((before.far if before.count else first, before.end),
                         (after.far if after.count else last, after.end)):
        if extreme == 0 or cells[end] == MARKER:
            continue
        if cells[end] == OFF:
            return -1
        markers += 1
    return markers


@dataclass(frozen=True, slots=True)
class Line:
    """A line of halves after a play: its first and last cells, direction and pips."""

    first: int
    last: int
    step: int
    total: int
    ends: tuple[int, ...]  # the cells that take a marker (a line of 20)


@dataclass(frozen=True, slots=True)
class Placement:
    """What a play does: the cells of its halves, its line, and the lines of 20 it makes."""

    cells: tuple[int, ...]  # the new halves' cells, in the order of the move's tiles
    values: tuple[int, ...]
    main: Line  # the line the tiles are laid along
    twenties: tuple[Line, ...]  # every line of 20 through a new half (the main line first)

    @property
    def markers(self) -> tuple[int, ...]:
        """The cells that take a marker."""
        return tuple(c for line in self.twenties for c in line.ends)


def lay_cells(cells: list[int], tiles: tuple[tuple[int, int], ...], start: int, step: int
              ) -> tuple[int, ...]:
    """The cells the halves of `tiles` go on, laid from `start` along `step`: each tile
    takes the next two empty cells, passing over halves already on the grid (the
    line may use them), never over an empty cell, a marker or the grid's edge."""
    out: list[int] = []
    at = start
    if cells[at] != EMPTY:
        raise illegal("{cell} is not empty: start the line on the cell of its first new half",
                      cell=cell_name(at))
    for a, b in tiles:
        while cells[at] >= 0:
            at += step
        if cells[at] != EMPTY or cells[at + step] != EMPTY:
            raise illegal("{a}-{b} has no room there: a tile needs two empty cells in line",
                          a=a, b=b)
        out += (at, at + step)
        at += 2 * step
    return tuple(out)


def run(cells: list[int], cell: int, step: int) -> tuple[int, int, int, int]:
    """The maximal run of halves through `cell` along `step`: (first, last, count, pips)."""
    first = cell
    while cells[first - step] >= 0:
        first -= step
    last = cell
    while cells[last + step] >= 0:
        last += step
    count = (last - first) // step + 1
    total = sum(cells[first:last + 1:step])
    return first, last, count, total


def check_placement(cells: list[int], tiles: tuple[tuple[int, int], ...], start: int,
                    step: int, opening: bool) -> Placement:
    """Check a play of `tiles` from `start` along `step` and say what it makes.

    The rules (004): the tiles lie end to end along one line; a line of
    several tiles totals exactly 20 and, except for the opening play, uses a
    half already on the grid; a single tile makes a line of 20 somewhere (its
    own line or a line across it); after the play no line through a new half
    totals more than 20 or has a blank half inside, and every open end of a
    line of 20 (not closed by a marker or a blank half) is on the grid.
    `cells` is left as it was.  Raises `IllegalMove` saying which rule fails.
    """
    new = lay_cells(cells, tiles, start, step)
    values = tuple(v for tile in tiles for v in tile)
    for c, v in zip(new, values, strict=True):
        cells[c] = v
    try:
        return _lines_made(cells, tiles, new, values, step, opening)
    finally:
        for c in new:
            cells[c] = EMPTY


def _lines_made(cells: list[int], tiles: tuple[tuple[int, int], ...], new: tuple[int, ...],
                values: tuple[int, ...], step: int, opening: bool) -> Placement:
    main: Line | None = None
    twenties: list[Line] = []
    seen: set[tuple[int, int]] = set()
    for c in new:
        for d in (step, cross(step)):
            first, last, count, total = run(cells, c, d)
            if (first, d) in seen:
                continue
            seen.add((first, d))
            line = _line(cells, first, last, d, count, total)
            if d == step and main is None:
                main = line
            if line.total == GOAL:
                twenties.append(line)
    assert main is not None
    if len(tiles) > 1:
        if main.total != GOAL:
            raise illegal("the line totals {total}, not 20", total=main.total)
        used = (main.last - main.first) // step + 1 - len(new)
        if opening and used:
            raise illegal("the first line is laid on the empty grid")
        if not opening and not used:
            raise illegal("a new line must use part of a tile already on the table")
        twenties.remove(main)
        twenties.insert(0, main)
    elif not twenties:
        raise illegal("{a}-{b} there makes no line of 20", a=tiles[0][0], b=tiles[0][1])
    return Placement(new, values, main, tuple(twenties))


def _line(cells: list[int], first: int, last: int, step: int, count: int, total: int) -> Line:
    """The line from `first` to `last`, refused when it breaks a rule."""
    if count < 2:
        return Line(first, last, step, total, ())
    if total > GOAL:
        raise illegal("a line from {a} to {b} would total {total}, over 20",
                      a=cell_name(first), b=cell_name(last), total=total)
    if 0 in cells[first + step:last:step]:
        raise illegal("a blank half would be inside the line from {a} to {b}",
                      a=cell_name(first), b=cell_name(last))
    ends: list[int] = []
    if total == GOAL:
        for extreme, end in ((first, first - step), (last, last + step)):
            if cells[extreme] == 0 or cells[end] == MARKER:
                continue
            if cells[end] == OFF:
                raise illegal("the line from {a} to {b} needs a marker off the grid",
                              a=cell_name(first), b=cell_name(last))
            ends.append(end)
    return Line(first, last, step, total, tuple(ends))


def exposure(cells: list[int], halves: list[int]) -> int:
    """How much a grid offers the next player: every open end of a line (or of a
    lone tile) under 20, weighted 2 when one half laid across it can make 20
    (11 to 19) and 1 when a tile in line can (2 to 10).  `halves` are the cells
    holding halves.  A computer player's tie-break: lower is safer."""
    score = 0
    seen: set[tuple[int, int]] = set()
    for c in halves:
        for d in (RIGHT, DOWN):
            first, last, _, total = run(cells, c, d)
            if (first, d) in seen or total >= GOAL:
                continue
            seen.add((first, d))
            weight = 2 if total >= 11 else 1 if total >= 2 else 0
            for extreme, end in ((first, first - d), (last, last + d)):
                if cells[extreme] != 0 and cells[end] == EMPTY:
                    score += weight
    return score
