"""The boards of the six puzzles: cells, where tiles may lie, and the constraints.

A board is JSON data::

    {"width": 8, "height": 8,
     "cells": ["A1", "B1", ...],            # reading order
     "slots": null | [["A1", "B1"], ...],   # null: any two orthogonally adjacent cells
     "pool": 28,                            # tiles to place (any of the double-six)
     "givens": {"A1": 6},                   # halves printed on the board
     "fixed": ["3-0 A1 A2"],                # tiles on the board from the start
     "constraints": [{"kind": ..., "label": [template, values], ...}]}

Constraint kinds: ``equal`` (its cells show one number), ``sum`` (its cells
total ``total``), ``same`` (its ``lines`` have one total), ``match`` (each of
its ``pairs`` of touching cells of two tiles show one number), ``values``
(its cells show exactly the multiset ``values``) and ``totals`` (the totals
of the ``same`` constraints named in ``groups`` all differ, except exactly two
equal to ``twice``; ``likely`` is a known answer's totals, which the solver
tries first).
"""

from __future__ import annotations

from typing import Any

from ...errors import N_
from .cells import name

Board = dict[str, Any]


def _label(template: str, **values: Any) -> list[Any]:
    return [template, values]


def _board(width: int, height: int, cells: list[str], constraints: list[dict[str, Any]],
           pool: int = 28, slots: list[list[str]] | None = None,
           givens: dict[str, int] | None = None, fixed: list[str] | None = None) -> Board:
    from .cells import reading_key
    return {"width": width, "height": height, "cells": sorted(cells, key=reading_key),
            "slots": slots, "pool": pool, "givens": dict(givens or {}),
            "fixed": list(fixed or []), "constraints": constraints}


def grid_rows(rows: list[str]) -> dict[str, str]:
    """Cell name -> character for a picture written one row of cells a line ("6 6 . 2")."""
    out = {}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line.split()):
            if ch != ".":
                out[name(c, r)] = ch
    return out


def quadrille(rows: list[str]) -> Board:
    """Squares of 2x2 cells, each to show one number four times; the top-left one sixes."""
    marks = grid_rows(rows)
    width = max(len(r.split()) for r in rows)
    left = set(marks)
    squares = []
    for r in range(len(rows)):
        for c in range(width):
            cell = name(c, r)
            if cell in left:
                square = [name(c, r), name(c + 1, r), name(c, r + 1), name(c + 1, r + 1)]
                if not all(s in left for s in square):
                    raise ValueError(f"no 2x2 square at {cell}")
                left -= set(square)
                squares.append(square)
    constraints = [{"kind": "equal", "label": _label(N_("the square at {cell}"), cell=sq[0]),
                    "cells": sq} for sq in squares]
    givens = {c: 6 for c in squares[0]}
    return _board(width, len(rows), list(marks), constraints, givens=givens)


def magic_square(total: int, size: int = 6) -> Board:
    """18 tiles standing in a 6x6 square, in three bands of two rows (Dudeney's layout): rows,
    columns and both diagonals total `total`."""
    cells = [name(c, r) for r in range(size) for c in range(size)]
    cons = []
    for r in range(size):
        cons.append({"kind": "sum", "label": _label(N_("row {row}"), row=r + 1),
                     "cells": [name(c, r) for c in range(size)], "total": total})
    for c in range(size):
        cons.append({"kind": "sum", "label": _label(N_("column {col}"), col=name(c, 0)[0]),
                     "cells": [name(c, r) for r in range(size)], "total": total})
    cons.append({"kind": "sum", "label": _label(N_("the diagonal from {cell}"), cell="A1"),
                 "cells": [name(i, i) for i in range(size)], "total": total})
    cons.append({"kind": "sum",
                 "label": _label(N_("the diagonal from {cell}"), cell=name(size - 1, 0)),
                 "cells": [name(size - 1 - i, i) for i in range(size)], "total": total})
    slots = [[name(c, r), name(c, r + 1)] for r in range(0, size, 2) for c in range(size)]
    return _board(size, size, cells, cons, pool=size * size // 2, slots=slots)


BOOKLET_TOTALS = [3, 7, 8, 9, 9, 10, 16]  # the totals of the known answer (PUZZLES.md)
BOOKLET_TWICE = 9  # "chaque carré a un total différent ... à l'exception de 2 carrés qui
# totalisent 9"


def hollow_squares(totals: list[int] | None = None) -> Board:
    """Seven hollow squares of four tiles (a pinwheel round an empty centre), four in a row
    above three; each square's four sides have one total. With `totals` each square's total
    is printed; without, the booklet's condition: the seven totals all differ, except two
    squares that both total 9 (the known answer's 3, 7, 8, 9, 9, 10, 16 are one way)."""
    cells: list[str] = []
    slots: list[list[str]] = []
    cons: list[dict[str, Any]] = []
    groups = []
    for k in range(7):
        col0, row0 = (k * 4, 0) if k < 4 else ((k - 4) * 4 + 2, 4)
        g = [[name(col0 + c, row0 + r) for c in range(3)] for r in range(3)]
        ring = [g[0][0], g[0][1], g[0][2], g[1][2], g[2][2], g[2][1], g[2][0], g[1][0]]
        cells += ring
        slots += [[g[0][0], g[0][1]], [g[0][2], g[1][2]], [g[2][2], g[2][1]], [g[1][0], g[2][0]]]
        sides = [g[0], g[2], [g[0][0], g[1][0], g[2][0]], [g[0][2], g[1][2], g[2][2]]]
        label = _label(N_("square {n}"), n=k + 1)
        if totals:
            for side in sides:
                cons.append({"kind": "sum", "label": _label(N_("a side of square {n}"), n=k + 1),
                             "cells": side, "total": totals[k]})
        else:
            cons.append({"kind": "same", "label": label, "lines": sides})
            groups.append(k)
    if not totals:
        cons.append({"kind": "totals", "label": _label(N_("the totals of the squares")),
                     "groups": list(range(len(cons))), "twice": BOOKLET_TWICE,
                     "likely": BOOKLET_TOTALS})
    return _board(15, 7, cells, cons, slots=slots)


STAR_RAYS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def star(total: int = 21, givens: dict[str, int] | None = None) -> Board:
    """Eight rays from a centre, alternately four and three tiles (up first, then clockwise),
    tiles matching end to end; each ray totals `total`; the eight halves at the centre are
    1, 2, 3, 4, 5, 6, 0 and 0."""
    centre = 8
    cells: list[str] = []
    slots: list[list[str]] = []
    pairs: list[list[str]] = []
    cons: list[dict[str, Any]] = []
    inner = []
    for k, (dx, dy) in enumerate(STAR_RAYS):
        n = 8 if k % 2 == 0 else 6
        ray = [name(centre + dx * i, centre + dy * i) for i in range(1, n + 1)]
        cells += ray
        inner.append(ray[0])
        slots += [[ray[i], ray[i + 1]] for i in range(0, n, 2)]
        pairs += [[ray[i], ray[i + 1]] for i in range(1, n - 1, 2)]
        cons.append({"kind": "sum", "label": _label(N_("ray {n}"), n=k + 1), "cells": ray,
                     "total": total})
    cons.append({"kind": "match", "label": _label(N_("touching halves")), "pairs": pairs})
    cons.append({"kind": "values", "label": _label(N_("the centre")), "cells": inner,
                 "values": [1, 2, 3, 4, 5, 6, 0, 0]})
    return _board(17, 17, cells, cons, slots=slots, givens=givens)


def triangle(row_sums: list[int], col_sums: list[int], givens: dict[str, int]) -> Board:
    """A staircase of 5 rows, row r holding r + 1 horizontal tiles; every row and column has
    its total; the 10 halves of the last tile of each row are 1 to 6 and four blanks."""
    rows = len(row_sums)
    cells: list[str] = []
    slots: list[list[str]] = []
    edge: list[str] = []
    for r in range(rows):
        for k in range(r + 1):
            a, b = name(2 * k, r), name(2 * k + 1, r)
            cells += [a, b]
            slots.append([a, b])
        edge += [name(2 * r, r), name(2 * r + 1, r)]
    cons: list[dict[str, Any]] = []
    for r, total in enumerate(row_sums):
        cons.append({"kind": "sum", "label": _label(N_("row {row}"), row=r + 1),
                     "cells": [c for c in cells if int(c[1:]) == r + 1], "total": total})
    for c, total in enumerate(col_sums):
        col = name(c, 0)[0]
        cons.append({"kind": "sum", "label": _label(N_("column {col}"), col=col),
                     "cells": [x for x in cells if x[0] == col], "total": total})
    cons.append({"kind": "values", "label": _label(N_("the slanted edge")), "cells": edge,
                 "values": [1, 2, 3, 4, 5, 6, 0, 0, 0, 0]})
    return _board(2 * rows, rows, cells, cons, pool=len(slots), slots=slots, givens=givens)


def ring(width: int, height: int, bars: tuple[int, ...] = (), side_total: int | None = None,
         fixed: list[str] | None = None) -> Board:
    """A one-cell-wide frame (with bars across the rows of `bars`, from 0); touching halves of
    two tiles show one number; with `side_total`, each side of the frame totals it."""
    cells = {name(c, r) for r in range(height) for c in range(width)
             if r in (0, height - 1) or c in (0, width - 1) or r in bars}
    pairs = []
    for cell in sorted(cells):
        from .cells import position
        c, r = position(cell)
        for dc, dr in ((1, 0), (0, 1)):
            if 0 <= c + dc < width and 0 <= r + dr < height and name(c + dc, r + dr) in cells:
                pairs.append([cell, name(c + dc, r + dr)])
    cons: list[dict[str, Any]] = [
        {"kind": "match", "label": _label(N_("touching halves")), "pairs": pairs}]
    if side_total is not None:
        sides = {N_("the top side"): [name(c, 0) for c in range(width)],
                 N_("the bottom side"): [name(c, height - 1) for c in range(width)],
                 N_("the left side"): [name(0, r) for r in range(height)],
                 N_("the right side"): [name(width - 1, r) for r in range(height)]}
        for label, side in sides.items():
            cons.append({"kind": "sum", "label": _label(label), "cells": side,
                         "total": side_total})
    if len(cells) != 56:
        raise ValueError(f"a ring of {len(cells)} cells does not take the 28 tiles")
    return _board(width, height, list(cells), cons, fixed=fixed)
