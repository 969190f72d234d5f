"""Every legal play of a rack, fast: the lines of several tiles and the single tiles.

`plays` returns each play as ``(tiles, start, step, markers)``: the tiles in
the order they are laid (each as its halves in that order), the cell of the
first new half, the direction (`board.RIGHT` or `board.DOWN`) and how many
markers it takes.  The rules' home is `board.check_placement`; this module
enumerates the same plays without trying each one: a line of several tiles
is a window of a row or a column (maximal, its empty cells in pairs, with a
half already there) whose halves leave 20 minus a subset sum of the rack;
each empty cell knows, once, which pips the line across it accepts
(`board.close`), and the tiles are fitted to the window's cells by a search
that drops a tile as soon as one of its halves is refused.  The tests check
that both agree on random positions.
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import (
    CENTRE,
    DOWN,
    EMPTY,
    GOAL,
    RIGHT,
    SIZE,
    WIDTH,
    Side,
    close,
    cross,
    side,
)

Tile = tuple[int, int]
Play = tuple[tuple[Tile, ...], int, int, int]
MAX_TILES = 5


class _Codes(dict[tuple[int, int], list[int]]):
    """The codes of `board.close` for each pips value laid alone on a cell, across a step."""

    def __init__(self, cells: list[int]) -> None:
        super().__init__()
        self.cells = cells

    def __missing__(self, key: tuple[int, int]) -> list[int]:
        cell, step = key
        cells = self.cells
        before, after = side(cells, cell, -step), side(cells, cell, step)
        if not before.count and not after.count:
            codes = _ALONE  # a half alone across: no line
        elif (before.near == 0 and before.count > 1) or (after.near == 0 and after.count > 1):
            codes = _REFUSED  # a blank half there would be inside the line
        else:  # what `close` says, calling it only for the one value that makes 20
            base = before.total + after.total
            both = before.count and after.count
            codes = [-1 if base + v > GOAL or (v == 0 and both) else 0 if base + v < GOAL
                     else close(cells, before, after, (1, v, v, v)) for v in range(10)]
        self[key] = codes
        return codes


_ALONE = [0] * 10
_REFUSED = [-1] * 10


def subsets(rack: list[Tile]) -> dict[tuple[int, int], list[tuple[Tile, ...]]]:
    """The rack's subsets of 2 to 5 tiles by (size, pips)."""
    out: dict[tuple[int, int], list[tuple[Tile, ...]]] = {}
    for mask in range(1, 1 << len(rack)):
        chosen = tuple(t for i, t in enumerate(rack) if (mask >> i) & 1)
        if 2 <= len(chosen) <= MAX_TILES:
            out.setdefault((len(chosen), sum(a + b for a, b in chosen)), []).append(chosen)
    return out


def plays(cells: list[int], rack: list[Tile], halves: Iterable[int], opening: bool,
          singles_only: bool = False) -> list[Play]:
    """Every legal play of `rack` (tiles as (high, low)) on `cells`; `halves` are the
    cells holding a half; `opening`: the grid is empty (the first line starts on
    the centre cell, going right or down)."""
    out: list[Play] = []
    codes = _Codes(cells)
    halves = list(halves)
    if not singles_only:
        table = subsets(rack)
        if opening:
            for step in (RIGHT, DOWN):
                for k in range(2, MAX_TILES + 1):
                    window = [CENTRE + i * step for i in range(2 * k)]
                    _fit(cells, codes, table, out, window, window, step, 0)
        else:
            for line, step in _lines(halves):
                _windows(cells, codes, table, out, line, step)
    if not opening:
        _singles(cells, codes, rack, halves, out)
    return out


def _lines(halves: list[int]) -> list[tuple[list[int], int]]:
    """The rows and columns holding a half, each as its cells (border included)."""
    rows = sorted({c // WIDTH for c in halves})
    cols = sorted({c % WIDTH for c in halves})
    out = [([r * WIDTH + i for i in range(SIZE + 2)], RIGHT) for r in rows]
    out += [([c + i * WIDTH for i in range(SIZE + 2)], DOWN) for c in cols]
    return out


def _windows(cells: list[int], codes: _Codes, table: dict[tuple[int, int], list[tuple[Tile, ...]]],
             out: list[Play], line: list[int], step: int) -> None:
    """Every window of `line` a line of 2 to 5 new tiles could fill (see the module)."""
    vals = [cells[c] for c in line]
    n = len(vals)
    for s in range(1, n - 1):
        if vals[s - 1] >= 0 or vals[s] < EMPTY:
            continue
        empties: list[int] = []
        pips = 0
        used = 0
        gap = 0
        blank_end = False  # a blank half already there ends the window here
        for e in range(s, n - 1):
            v = vals[e]
            if blank_end or v < EMPTY:
                break
            if v == EMPTY:
                gap += 1
                empties.append(line[e])
                if len(empties) > 2 * MAX_TILES:
                    break
            else:
                if gap & 1:
                    break
                gap = 0
                pips += v
                used += 1
                if pips > GOAL:
                    break
                blank_end = v == 0 and e > s
            if vals[e + 1] >= 0 or gap & 1 or len(empties) < 4 or not used:
                continue
            _fit(cells, codes, table, out, line[s:e + 1], empties, step, pips)


def _fit(cells: list[int], codes: _Codes, table: dict[tuple[int, int], list[tuple[Tile, ...]]],
         out: list[Play], window: list[int], empties: list[int], step: int, pips: int) -> None:
    """Every way to lay a subset of the rack on the `empties` of `window` (a maximal
    line once filled, holding `pips` already) so that it totals 20."""
    k = len(empties) // 2
    found = table.get((k, GOAL - pips))
    if not found:
        return
    first, last = window[0], window[-1]
    across = cross(step)
    slots = [(empties[2 * i], empties[2 * i + 1]) for i in range(k)]
    slot_codes = [(codes[p, across], codes[q, across]) for p, q in slots]
    head = cells[first]  # -1 when the window starts with a new half
    tail = cells[last]
    before = Side(0, 0, -1, -1, first - step)
    after = Side(0, 0, -1, -1, last + step)
    start = empties[0]
    n = len(window)
    for tiles in found:
        laid: list[Tile] = []

        def search(j: int, left: tuple[Tile, ...], markers: int, laid: list[Tile] = laid
                   ) -> None:
            if j == k:
                h = head if head >= 0 else laid[0][0]
                t = tail if tail >= 0 else laid[-1][1]
                main = close(cells, before, after, (n, GOAL, h, t))
                if main > 0:
                    out.append((tuple(laid), start, step, markers + main - 1))
                return
            p, q = slots[j]
            cp, cq = slot_codes[j]
            for i, (a, b) in enumerate(left):
                rest = left[:i] + left[i + 1:]
                for x, y in ((a, b), (b, a)) if a != b else ((a, b),):
                    if (x == 0 and p != first) or (y == 0 and q != last):
                        continue  # a blank half inside the line
                    m, o = cp[x], cq[y]
                    if m < 0 or o < 0:
                        continue
                    laid.append((x, y))
                    search(j + 1, rest, markers + max(m - 1, 0) + max(o - 1, 0))
                    laid.pop()

        search(0, tiles, 0)


def _singles(cells: list[int], codes: _Codes, rack: list[Tile], halves: list[int],
             out: list[Play]) -> None:
    """Every single tile that makes a line of 20 (its own line or one across it)."""
    pairs: set[tuple[int, int]] = set()
    for h in halves:
        for d in (1, -1, WIDTH, -WIDTH):
            c = h + d
            if cells[c] != EMPTY:
                continue
            for step in (RIGHT, DOWN):
                if cells[c + step] == EMPTY:
                    pairs.add((c, step))
                if cells[c - step] == EMPTY:
                    pairs.add((c - step, step))
    oriented = sorted({(x, y) for a, b in rack for x, y in ((a, b), (b, a))}, reverse=True)
    for lo, step in sorted(pairs):
        hi = lo + step
        before, after = side(cells, lo, -step), side(cells, hi, step)
        across = cross(step)
        c1, c2 = codes[lo, across], codes[hi, across]
        alone = not before.count and not after.count  # its own line is just the tile
        for x, y in oriented:
            main = 0 if alone else close(cells, before, after, (2, x + y, x, y))
            m, o = c1[x], c2[y]
            if main < 0 or m < 0 or o < 0 or (main <= 0 and m <= 0 and o <= 0):
                continue
            markers = max(main - 1, 0) + max(m - 1, 0) + max(o - 1, 0)
            out.append((((x, y),), lo, step, markers))
