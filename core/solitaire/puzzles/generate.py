"""Making magic triangles: a random filling, its sums, then given halves until it is unique.

Uses the solver (OR-Tools CP-SAT) to count solutions; the shipped triangles
were made with `triangle(seed)` (see tools/make_puzzles.py).
"""

from __future__ import annotations

import random
from typing import Any

from . import shapes, solver
from .cells import name
from .rules import ALL_TILES, Puzzle

ROWS = 5
EDGE = [1, 2, 3, 4, 5, 6, 0, 0, 0, 0]


def _filling(rng: random.Random) -> list[list[tuple[int, int]]]:
    """Rows of (left, right) halves: 15 distinct tiles, the last tile of each row made of
    the edge numbers."""
    while True:
        edge = EDGE[:]
        rng.shuffle(edge)
        last = [(edge[2 * r], edge[2 * r + 1]) for r in range(ROWS)]
        ids = {frozenset(t) for t in last}
        if len(ids) < ROWS:
            continue
        rest = [t for t in ALL_TILES if frozenset(t) not in ids]
        rng.shuffle(rest)
        rows = []
        k = 0
        for r in range(ROWS):
            row = []
            for _ in range(r):
                a, b = rest[k]
                k += 1
                row.append((a, b) if rng.random() < 0.5 else (b, a))
            row.append(last[r])
            rows.append(row)
        return rows


def triangle(seed: int, seconds: float = 120.0) -> dict[str, Any]:
    """A triangle with a unique solution: the `shapes.triangle` arguments and the solution."""
    rng = random.Random(seed)
    rows = _filling(rng)
    value = {}
    for r, row in enumerate(rows):
        for k, (a, b) in enumerate(row):
            value[name(2 * k, r)] = a
            value[name(2 * k + 1, r)] = b
    row_sums = [sum(a + b for a, b in row) for row in rows]
    col_sums = [sum(v for c, v in value.items() if c[0] == name(col, 0)[0])
                for col in range(2 * ROWS)]
    givens: dict[str, int] = {}
    while True:
        args = {"row_sums": row_sums, "col_sums": col_sums, "givens": dict(givens)}
        puzzle = Puzzle({**shapes.triangle(**args), "id": "x", "kind": "magic-triangle",
                         "level": "x", "name": {}})
        other = solver.other_solution(puzzle, value, seconds)
        if other is None:
            break
        differ = sorted(c for c in value if other[c] != value[c])
        cell = rng.choice(differ)
        givens[cell] = value[cell]
    solution = [f"{a}-{b} {name(2 * k, r)} {name(2 * k + 1, r)}"
                for r, row in enumerate(rows) for k, (a, b) in enumerate(row)]
    return {"args": {"row_sums": row_sums, "col_sums": col_sums,
                     "givens": dict(sorted(givens.items()))}, "solution": solution}
