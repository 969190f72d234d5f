"""The construction in 3D and the fall model: where tiles are, and how likely a placement falls.

Units: a tile is a 2x1 block lying flat, each half a unit square; a tile is
`THICK` units thick.  Cells are integer (x, y, level); a tile fills two
neighbouring cells of one level.  Directions are compass words: east is +x,
north is +y (the picture looks from the south, so east is to the right and
north is into the picture).

The fall model (`fall_risk`) looks at the construction once the new tile is
in place.  For every level z from 1 up to the new tile's level, the tiles at
level z and above that are joined to the new tile by superposed halves form
a block that rests on the halves it touches at level z - 1 (its *contacts*):

* the block's centre of mass (each tile weighs 1, at its centre) is compared
  with the convex hull of its contact squares; inside (or on the edge), it
  stands; outside by a distance d, it tips with the torque
  ``mass * d * (1 + SWAY * height)``, the height being its centre of mass's
  height above the cut (a tall block sways more);
* the magnets hold against the tipping edge: each contact holds with its arm
  (the distance from its centre to the edge) times `MAGNET`, times
  `CROSS_HOLD` when the two superposed tiles lie crosswise (the magnets of the
  two halves meet at right angles) instead of in line;
* the ratio r of torque to hold gives the chance that the magnets give way:
  ``r**4 / (1 + r**4)`` (a half when the torque equals the hold).

On top of that every placement shakes the structure it touches: a tower
whose top is at level H shakes down with ``JOLT * (H - JOLT_FREE)`` (at most
`JOLT_MAX`).  The chance that the construction falls is one minus the chance
that every cut holds and the shake does not bring it down.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Cell = tuple[int, int]

EAST, NORTH, WEST, SOUTH = 0, 1, 2, 3
DIRS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
DIR_NAMES = ("east", "north", "west", "south")
DIR_LETTERS = "enws"

THICK = 0.5  # a tile's thickness, in half-widths
MAGNET = 3.0  # a contact's hold per unit of arm, in tile-weights
CROSS_HOLD = 0.6  # a crosswise contact holds this share of an in-line one
SWAY = 0.25  # extra torque per unit of height of the block above a cut
STEEP = 4  # how sharply the chance rises around torque = hold
JOLT = 0.015  # chance of a shake-down per level above JOLT_FREE
JOLT_FREE = 2
JOLT_MAX = 0.25
EPS = 1e-9


def step(cell: Cell, d: int, n: int = 1) -> Cell:
    dx, dy = DIRS[d]
    return (cell[0] + n * dx, cell[1] + n * dy)


def direction(a: Cell, b: Cell) -> int:
    """The direction from cell `a` to its neighbour `b`."""
    return DIRS.index((b[0] - a[0], b[1] - a[1]))


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile in the construction: its halves' values and cells, and its level."""

    tid: int
    values: tuple[int, int]  # the value on cells[0], on cells[1]
    cells: tuple[Cell, Cell]
    level: int

    @property
    def axis(self) -> int:
        """0 when the tile lies east-west, 1 when north-south."""
        return 0 if self.cells[0][1] == self.cells[1][1] else 1

    @property
    def centre(self) -> tuple[float, float]:
        (x0, y0), (x1, y1) = self.cells
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def half_dir(self, h: int) -> int:
        """The compass side half `h` is on (from the other half)."""
        return direction(self.cells[1 - h], self.cells[h])


class Construction:
    """The tiles in place and which cell each half fills."""

    __slots__ = ("adj", "occ", "tiles")

    def __init__(self, tiles: Iterable[Placed] = ()) -> None:
        self.tiles: list[Placed] = []
        self.occ: dict[tuple[int, int, int], tuple[int, int]] = {}  # (x, y, z) -> (tile, half)
        self.adj: list[set[int]] = []  # the tiles superposed on each tile, above or below
        for p in tiles:
            self.add(p)

    def add(self, p: Placed) -> int:
        i = len(self.tiles)
        self.tiles.append(p)
        near = set()
        for h, (x, y) in enumerate(p.cells):
            self.occ[(x, y, p.level)] = (i, h)
            for z in (p.level - 1, p.level + 1):
                found = self.occ.get((x, y, z))
                if found is not None:
                    near.add(found[0])
        self.adj.append(near)
        for j in near:
            self.adj[j].add(i)
        return i

    def pop(self) -> Placed:
        """Take the last tile added away again."""
        i = len(self.tiles) - 1
        p = self.tiles.pop()
        for x, y in p.cells:
            del self.occ[(x, y, p.level)]
        for j in self.adj.pop():
            self.adj[j].discard(i)
        return p

    def copy(self) -> Construction:
        new = Construction.__new__(Construction)
        new.tiles = self.tiles[:]
        new.occ = dict(self.occ)
        new.adj = [set(a) for a in self.adj]
        return new

    def at(self, cell: Cell, level: int) -> tuple[int, int] | None:
        return self.occ.get((cell[0], cell[1], level))

    def value_at(self, cell: Cell, level: int) -> int | None:
        found = self.occ.get((cell[0], cell[1], level))
        return None if found is None else self.tiles[found[0]].values[found[1]]

    def fits(self, cells: tuple[Cell, Cell], values: tuple[int, int], level: int) -> bool:
        """Whether a tile may fill `cells` at `level`: both free, and every half
        above or below one of them shows the same value."""
        for cell, v in zip(cells, values, strict=True):
            if self.at(cell, level) is not None:
                return False
            for z in (level - 1, level + 1):
                if z < 0:
                    continue
                other = self.value_at(cell, z)
                if other is not None and other != v:
                    return False
        return True

    def contacts(self, i: int) -> list[tuple[int, int]]:
        """(tile, cell index of `i`) of the tiles under tile `i`, half by half."""
        p = self.tiles[i]
        out = []
        if p.level == 0:
            return out
        for h, cell in enumerate(p.cells):
            below = self.at(cell, p.level - 1)
            if below is not None:
                out.append((below[0], h))
        return out

    def neighbours(self, i: int) -> set[int]:
        """The tiles superposed on tile `i`, above or below."""
        return self.adj[i]

    def height(self) -> int:
        return max((p.level for p in self.tiles), default=-1)


# -- the fall model --------------------------------------------------------------------------


def fall_risk(con: Construction, new: int) -> float:
    """The chance that the construction falls once tile `new` (already added) is in place."""
    hold = 1.0
    top = con.tiles[new].level
    for z in range(1, top + 1):
        hold *= 1.0 - cut_risk(con, new, z)
    structure = _component(con, new, 0)
    high = max(con.tiles[i].level for i in structure)
    jolt = min(JOLT_MAX, JOLT * max(0, high - JOLT_FREE))
    return max(0.0, min(1.0, 1.0 - hold * (1.0 - jolt)))


def _component(con: Construction, start: int, z: int) -> set[int]:
    """The tiles at level `z` or above joined to `start` through superposed halves."""
    seen = {start}
    todo = [start]
    tiles = con.tiles
    while todo:
        i = todo.pop()
        for j in con.neighbours(i):
            if j not in seen and tiles[j].level >= z:
                seen.add(j)
                todo.append(j)
    return seen


def cut_risk(con: Construction, new: int, z: int) -> float:
    """The chance that the block of level `z` and above holding tile `new` tips
    off the halves it rests on at level z - 1."""
    tiles = con.tiles
    block = _component(con, new, z)
    contacts: list[tuple[Cell, float]] = []  # (cell, hold weight)
    for i in block:
        p = tiles[i]
        if p.level != z:
            continue
        for j, h in con.contacts(i):
            weight = 1.0 if tiles[j].axis == p.axis else CROSS_HOLD
            contacts.append((p.cells[h], weight))
    if not contacts:
        return 0.0
    mass = len(block)
    cx = sum(tiles[i].centre[0] for i in block) / mass
    cy = sum(tiles[i].centre[1] for i in block) / mass
    if any(abs(cx - x) <= 0.5 + EPS and abs(cy - y) <= 0.5 + EPS for (x, y), _ in contacts):
        return 0.0  # right above a contact square: inside the hull
    height = sum((tiles[i].level - z + 0.5) * THICK for i in block) / mass
    corners = [(x + dx, y + dy) for (x, y), _ in contacts for dx in (-0.5, 0.5)
               for dy in (-0.5, 0.5)]
    hull = convex_hull(corners)
    d, edge = outside(hull, (cx, cy))
    if d <= EPS:
        return 0.0
    ux, uy = (cx - edge[0]) / d, (cy - edge[1]) / d
    arms = sum(w * max(0.0, (edge[0] - x) * ux + (edge[1] - y) * uy) for (x, y), w in contacts)
    torque = mass * d * (1 + SWAY * height)
    if arms <= EPS:
        return 1.0
    r = torque / (MAGNET * arms)
    return r**STEEP / (1 + r**STEEP)


def convex_hull(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The hull of `points`, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def outside(hull: list[tuple[float, float]], c: tuple[float, float]
            ) -> tuple[float, tuple[float, float]]:
    """How far `c` lies outside the convex polygon `hull` (0 inside or on it), and the
    nearest point of the polygon."""
    n = len(hull)
    inside = all(
        (hull[(i + 1) % n][0] - hull[i][0]) * (c[1] - hull[i][1])
        - (hull[(i + 1) % n][1] - hull[i][1]) * (c[0] - hull[i][0]) >= -EPS
        for i in range(n)
    )
    if inside:
        return 0.0, c
    best = (math.inf, c)
    for i in range(n):
        (ax, ay), (bx, by) = hull[i], hull[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        length = ex * ex + ey * ey
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((c[0] - ax) * ex + (c[1] - ay) * ey)
                                              / length))
        px, py = ax + t * ex, ay + t * ey
        dist = math.hypot(c[0] - px, c[1] - py)
        if dist < best[0]:
            best = (dist, (px, py))
    return best
