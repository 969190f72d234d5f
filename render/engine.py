"""The layout engine: lays chains of tiles edge to edge without overlaps.

A *chain* is a list of `Item` (a tile oriented outward, possibly a double that
opens two side branches). Each chain is laid tile by tile like a turtle: the
first tile against a fixed exit (the end of the previous tile, a side of a
spinner), each next tile either straight on or turning a corner around the
outer half of the previous tile, so touching halves always carry equal values.

Which way to go is asked of a `Policy` (an ordered list of preferences); the
engine keeps the choice only if the tile stays inside the width limit and
clear of everything already placed, and backtracks (depth first) when a chain
gets stuck. Chains are grown together, shallowest first (the order the game
grew them), so no arm walls off the space of a branch. `render.line` and
`render.spinner` are thin users of this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .geometry import (
    EAST,
    WEST,
    Board,
    Half,
    Marker,
    PlacedTile,
    Rect,
    Vec,
    add,
    bounding,
    left_of,
    place,
    right_of,
    straight_exit,
    turn_exit,
)

Move = str  # "S" straight on, "L" turn left, "R" turn right
MARKER_CLEARANCE = 2


class LayoutFailed(Exception):
    """No placement found within the search budget."""


@dataclass(frozen=True, slots=True)
class Item:
    """A tile to lay: ``a`` touches the inner neighbour; ``branches`` only for spinning doubles;
    ``across``: it lies across the line (doubles, Matador's crosswise matadors)."""

    a: int
    b: int
    path: object
    last: bool = False
    branches: tuple[tuple[Item, ...], tuple[Item, ...]] | None = None
    across: bool | None = None

    @property
    def crosswise(self) -> bool:
        return self.a == self.b if self.across is None else self.across


@dataclass(frozen=True, slots=True)
class Candidate:
    """Where the next tile would go for one move."""

    move: Move
    at: Vec
    d: Vec
    rect: Rect
    halves: tuple[Half, Half]
    crosswise: bool


class Policy(Protocol):
    def options(
        self, task: Task, item: Item, geo: Geo, builder: Builder
    ) -> list[tuple[Move, object]]:
        """Moves to try, best first, each with the policy state after it."""
        ...


class Geo(Protocol):
    def __call__(self, move: Move) -> Candidate: ...


@dataclass(frozen=True, slots=True)
class Task:
    """One chain being laid: ``items[i]`` is next.

    When ``forced`` the next tile goes against ``at`` in direction ``d``;
    otherwise ``at``/``d``/``cross`` describe the previous tile (index ``prev``).
    """

    items: tuple[Item, ...]
    i: int
    at: Vec
    d: Vec
    forced: bool
    cross: bool
    spins: bool
    prev: int | None
    depth: int
    chain: int
    policy: Policy
    state: object
    marker: bool


def move_to(d: Vec, target: Vec) -> Move | None:
    """The turn that heads ``target`` from ``d`` (None if not perpendicular)."""
    if left_of(d) == target:
        return "L"
    if right_of(d) == target:
        return "R"
    return None


class Builder:
    """Everything placed so far, with a grid index for collision checks and undo."""

    def __init__(self, h: int, clearance: int, xmin: int, xmax: int, budget: int,
                 straight_branching: bool = False) -> None:
        self.h = h
        # no corner at a double that opens branches: its chain goes straight through it
        # and its branches leave its ends, a clear "+" (when the tree leaves room for it)
        self.straight_branching = straight_branching
        self.clearance = clearance
        self.xmin = xmin
        self.xmax = xmax
        self.budget = budget
        self.radius = max(9, round(0.42 * h))
        self.gap = max(3, h // 8)
        self.objs: list[tuple[Rect, int, PlacedTile | Marker]] = []
        self.cells: list[list[tuple[int, int]]] = []
        self.grid: dict[tuple[int, int], list[int]] = {}
        self.size = 4 * h
        self.chains = 0

    def new_chain(self) -> int:
        """A fresh chain id (tiles of one chain may touch; other chains keep ``clearance``)."""
        self.chains += 1
        return self.chains

    # -- index -------------------------------------------------------------------

    def _cells(self, r: Rect, pad: int) -> list[tuple[int, int]]:
        s = self.size
        return [
            (cx, cy)
            for cx in range((r.x0 - pad) // s, (r.x1 + pad) // s + 1)
            for cy in range((r.y0 - pad) // s, (r.y1 + pad) // s + 1)
        ]

    def push(self, rect: Rect, chain: int, obj: PlacedTile | Marker) -> int:
        idx = len(self.objs)
        self.objs.append((rect, chain, obj))
        cells = self._cells(rect, 0)
        self.cells.append(cells)
        for c in cells:
            self.grid.setdefault(c, []).append(idx)
        return idx

    def pop(self) -> None:
        """Undo the last `push` (the search is depth first, so undo is last in, first out)."""
        for c in self.cells.pop():
            self.grid[c].pop()
        self.objs.pop()

    def free(
        self, rect: Rect, chain: int, touching: int | None = None, clearance: int | None = None
    ) -> bool:
        """Inside the width limit and clear of everything but ``touching`` (which may touch).

        Tiles of one chain may touch each other (a snake's rows); other things keep
        ``clearance`` (the builder's, unless given) between them.
        """
        far = self.clearance if clearance is None else clearance
        if rect.x0 < self.xmin or rect.x1 > self.xmax:
            return False
        self.budget -= 1
        if self.budget < 0:
            raise LayoutFailed("search budget exhausted")
        seen: set[int] = set()
        for c in self._cells(rect, far):
            for idx in self.grid.get(c, ()):
                if idx in seen:
                    continue
                seen.add(idx)
                other, other_chain, obj = self.objs[idx]
                if idx == touching or (other_chain == chain and isinstance(obj, PlacedTile)):
                    gap = 0
                else:
                    gap = far
                if rect.overlaps(other, gap):
                    return False
        return True

    def marker_rect(self, tip: Vec, d: Vec) -> Rect:
        r, g = self.radius, self.gap
        cx, cy = add(tip, d, g + r)
        return Rect(cx - r, cy - r, cx + r, cy + r)

    # -- results -----------------------------------------------------------------

    def tiles(self) -> list[PlacedTile]:
        return [o for _, _, o in self.objs if isinstance(o, PlacedTile)]

    def markers(self) -> list[Marker]:
        return [o for _, _, o in self.objs if isinstance(o, Marker)]


def geometry(task: Task, item: Item, h: int) -> Geo:
    """The candidate placement of ``item`` for each move after ``task``'s previous tile."""

    def geo(move: Move) -> Candidate:
        if task.forced:
            at, d = task.at, task.d
        elif move == "S":
            at, d = straight_exit(task.at, task.d, task.cross, h), task.d
        else:
            d = left_of(task.d) if move == "L" else right_of(task.d)
            at = turn_exit(task.at, task.d, d, task.cross, h)
            if item.crosswise and not task.cross:
                # a crosswise tile centred on the outer half would also touch the inner
                # half: slide it outward so it meets the outer half only
                at = add(at, task.d, h // 2)
        rect, halves, cross = place(at, d, item.a, item.b, h, item.crosswise)
        return Candidate(move, at, d, rect, halves, cross)

    return geo


def tip(task: Task, h: int) -> tuple[Vec, Vec]:
    """The open end of a chain: the point beyond its last tile and the outward direction."""
    if task.forced:
        return task.at, task.d
    return straight_exit(task.at, task.d, task.cross, h), task.d


def lay(builder: Builder, tasks: tuple[Task, ...]) -> None:
    """Lay every task (depth-first search); raises `LayoutFailed` when impossible."""
    if not _solve(builder, tasks):
        raise LayoutFailed("no placement without overlap")


def _solve(b: Builder, tasks: tuple[Task, ...]) -> bool:
    if not tasks:
        return True
    k = min(range(len(tasks)), key=lambda j: tasks[j].depth)
    t = tasks[k]
    rest = tasks[:k] + tasks[k + 1 :]
    h = b.h
    if t.i == len(t.items):
        if not t.marker:
            return _solve(b, rest)
        end, d = tip(t, h)
        last = t.items[-1] if t.items else None
        value = last.b if last is not None else _exit_value(t)
        rect = b.marker_rect(end, d)
        if not b.free(rect, -1, None, MARKER_CLEARANCE):
            return False
        b.push(rect, -1, Marker(value, rect, d))
        if _solve(b, rest):
            return True
        b.pop()
        return False
    item = t.items[t.i]
    geo = geometry(t, item, h)
    options: list[tuple[Move, object]] = (
        [("S", t.state)] if t.forced else t.policy.options(t, item, geo, b)
    )
    if ((item.branches is not None and b.straight_branching)
            or _across(item) or (t.i and _across(t.items[t.i - 1]))):
        # no corner at a tile across the line that is not a double either: it meets both
        # neighbours with both halves, where a corner would touch one half only
        options = [(m, s) for m, s in options if m == "S"]
    elif item.branches is not None:  # else straight through it when there is room
        options = sorted(options, key=lambda option: option[0] != "S")
    tried: set[Move] = set()
    for move, state in options:
        if move in tried:
            continue
        tried.add(move)
        c = geo(move)
        if not b.free(c.rect, t.chain, t.prev):
            continue
        tile = PlacedTile(
            item.a, item.b, c.rect, c.halves, c.d, c.crosswise, item.path, item.last
        )
        idx = b.push(c.rect, t.chain, tile)
        pushed = 1
        new: list[Task] = []
        ok = True
        if item.branches is not None:
            ok, extra, new = _open_branches(b, t, item, c, idx)
            pushed += extra
        if ok:
            nxt = Task(
                t.items, t.i + 1, c.at, c.d, False, c.crosswise, item.branches is not None,
                idx, t.depth + 1, t.chain, t.policy, state, t.marker,
            )
            if _solve(b, (*rest, nxt, *new)):
                return True
        for _ in range(pushed):
            b.pop()
    return False


def _across(item: Item) -> bool:
    """A tile laid across the line that is not a double (Matador's crosswise matadors)."""
    return item.crosswise and item.a != item.b


def _exit_value(t: Task) -> int:
    state = t.state
    if isinstance(state, ExitValue):
        return state.value
    raise ValueError("an empty chain needs its exit value")


@dataclass(frozen=True, slots=True)
class ExitValue:
    """Policy state carrying the value of an empty chain's exit (for its marker)."""

    value: int
    inner: object = None


def _open_branches(
    b: Builder, t: Task, item: Item, c: Candidate, idx: int
) -> tuple[bool, int, list[Task]]:
    """Place the forced first tile of both side branches of a spinning double."""
    assert item.branches is not None
    h = b.h
    pushed = 0
    tasks: list[Task] = []
    for side, branch in zip((left_of(c.d), right_of(c.d)), item.branches, strict=True):
        at = add(add(c.at, c.d, h // 2), side, h)
        chain = b.new_chain()
        policy = BranchPolicy()
        if not branch:
            tasks.append(Task((), 0, at, side, True, False, False, idx, t.depth + 1, chain,
                              policy, ExitValue(item.a), True))
            continue
        first = branch[0]
        rect, halves, cross = place(at, side, first.a, first.b, h)
        if not b.free(rect, chain, idx):
            for _ in range(pushed):
                b.pop()
            return False, 0, []
        tile = PlacedTile(first.a, first.b, rect, halves, side, cross, first.path, first.last)
        fidx = b.push(rect, chain, tile)
        pushed += 1
        if first.branches is not None:
            ok, extra, sub = _open_branches(
                b, t, first, Candidate("S", at, side, rect, halves, cross), fidx
            )
            if not ok:
                for _ in range(pushed):
                    b.pop()
                return False, 0, []
            pushed += extra
            tasks.extend(sub)
        tasks.append(Task(branch, 1, at, side, False, cross, first.branches is not None, fidx,
                          t.depth + 2, chain, policy, None, True))
    return True, pushed, tasks


class SnakePolicy:
    """Rows that turn at the picture's edge and come back, growing towards ``grow``.

    ``xl``/``xr`` bound the rows; a chain starting vertically (a spinner's up or
    down arm) first runs straight as a *stem* while it stays within ``ylim`` of
    the centre, then turns into rows heading ``first_row``.
    States: ``("row", None)``, ``("turn", next_row_dir)``, ``("stem", first_row)``.
    """

    def __init__(self, grow: Vec, xl: int, xr: int, ylim: int | None = None) -> None:
        self.grow = grow
        self.xl = xl
        self.xr = xr
        self.ylim = ylim

    def options(
        self, task: Task, item: Item, geo: Geo, builder: Builder
    ) -> list[tuple[Move, object]]:
        d = task.d
        if task.spins:
            return [("S", task.state)]
        phase, rowdir = task.state  # type: ignore[misc]
        out: list[tuple[Move | None, object]]
        if phase == "row":
            back = (-d[0], -d[1])
            r = geo("S").rect
            fits = (d == EAST and r.x1 <= self.xr) or (d == WEST and r.x0 >= self.xl)
            g = move_to(d, self.grow)
            anti = "L" if g == "R" else "R"
            if fits:
                out = [("S", ("row", None)), (g, ("turn", back)), (anti, ("turn", back))]
            else:
                out = [(g, ("turn", back)), ("S", ("row", None)), (anti, ("turn", back))]
        elif phase == "turn":
            out = [
                (move_to(d, rowdir), ("row", None)),
                ("S", ("turn", rowdir)),
                (move_to(d, (-rowdir[0], -rowdir[1])), ("row", None)),
            ]
            if task.cross:
                # a row leaving a crosswise double's end would run against the last row
                out[0], out[1] = out[1], out[0]
        else:  # stem
            r = geo("S").rect
            within = self.ylim is None or (-self.ylim <= r.y0 and r.y1 <= self.ylim)
            other = (-rowdir[0], -rowdir[1])
            turn = [(move_to(d, rowdir), ("row", None)), (move_to(d, other), ("row", None))]
            stay = [("S", ("stem", rowdir))]
            out = stay + turn if within else turn[:1] + stay + turn[1:]
        return [(m, s) for m, s in out if m is not None]


class BranchPolicy:
    """Side branches: straight on while there is room ahead, else the roomier turn."""

    LOOK = 3

    def options(
        self, task: Task, item: Item, geo: Geo, builder: Builder
    ) -> list[tuple[Move, object]]:
        if task.spins:
            return [("S", None)]
        remaining = len(task.items) - task.i
        need = min(self.LOOK, remaining)
        scored = []
        for pref, move in enumerate(("S", "L", "R")):
            c = geo(move)
            run = free_run(builder, c, task.chain, task.prev, self.LOOK)
            cx, cy = c.rect.center
            away = 0 if (cx * c.d[0] + cy * c.d[1]) >= 0 else 1
            scored.append((0 if run >= need else 1, -run, away if pref else -1, pref, move))
        scored.sort()
        return [(s[-1], None) for s in scored]


def free_run(b: Builder, c: Candidate, chain: int, prev: int | None, n: int) -> int:
    """How many tiles in line fit straight ahead, starting with candidate ``c`` (at most n)."""
    saved = b.budget
    try:
        if not b.free(c.rect, chain, prev):
            return 0
        count = 1
        at = straight_exit(c.at, c.d, c.crosswise, b.h)
        for _ in range(n - 1):
            rect, _, _ = place(at, c.d, 0, 1, b.h)
            if not b.free(rect, chain, None):
                break
            count += 1
            at = add(at, c.d, 2 * b.h)
        return count
    finally:
        b.budget = saved


def finish(b: Builder, margin: int, min_width: int = 0, min_height: int = 0) -> Board:
    """Move everything placed so its bounding box sits ``margin`` inside a canvas; centre it
    in ``min_width x min_height`` when smaller."""
    rects = [r for r, _, _ in b.objs]
    box = bounding(rects)
    width = max(box.width + 2 * margin, min_width)
    height = max(box.height + 2 * margin, min_height)
    dx = (width - box.width) // 2 - box.x0
    dy = (height - box.height) // 2 - box.y0
    tiles = [t.moved(dx, dy) for t in b.tiles()]
    markers = [m.moved(dx, dy) for m in b.markers()]
    return Board(tiles, markers, width, height, b.h)
