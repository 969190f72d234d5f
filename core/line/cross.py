"""The spinner and the cross: where tiles go once a double has four sides.

`CrossBoard` is the layout of the cross games (`all-fives`, `sebastopol`,
`cross`): the first tile, the arms growing out of the spinner, and, in the
double-nine cross, the branches every later double opens.  It knows which
ends are open, what a tile laid on an end leaves there, the count of the ends
(for `core.line.end_points`) and how to show itself (`layout()`, the format
`render/spinner.py` documents).  The round itself (hands, turns, drawing,
scoring) is `core.line.cross_match.CrossMatch`.

Until the first double is laid the board is a line (two arms, "left" and
"right", leaving the first tile); that double becomes the spinner and the
line two of its arms, left staying left and right staying right.

End names, the move notation (``"6-4 up"``): ``left``, ``right``, ``up`` and
``down`` are the spinner's arms (``gauche``, ``droite``, ``haut``, ``bas``);
a branch is named from its arm: ``up-3-left`` is the left branch (as seen
travelling outward) of the 3rd tile of the up arm, counted from the spinner,
and ``up-3-left-2-right`` the right branch of the 2nd tile of that branch.
A move's end is an int: `LEFT`, `RIGHT`, `UP`, `DOWN` for the arms and
`end_code(path)` for branches (see `end_path`), so moves stay small
interned values that compare by (tile, end).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..errors import illegal
from ..moves import LEAD, LEFT, PLAY, RIGHT, Move, move_for
from ..tiles import TileSet

UP = 2
DOWN = 3
ARMS = (LEFT, RIGHT, UP, DOWN)
ARM_NAMES = {LEFT: "left", RIGHT: "right", UP: "up", DOWN: "down"}
LAYOUT_ARMS = (RIGHT, LEFT, UP, DOWN)  # the order of a cross layout's "arms"
LAYOUT_INDEX = {arm: i for i, arm in enumerate(LAYOUT_ARMS)}
_ARM_WORDS = {
    "left": LEFT, "l": LEFT, "gauche": LEFT, "g": LEFT,
    "right": RIGHT, "r": RIGHT, "droite": RIGHT, "d": RIGHT,
    "up": UP, "u": UP, "haut": UP, "h": UP,
    "down": DOWN, "bas": DOWN, "b": DOWN,
}
_SIDE_WORDS = {"left": 0, "l": 0, "gauche": 0, "g": 0,
               "right": 1, "r": 1, "droite": 1, "d": 1}
_SIDE_NAMES = ("left", "right")
_WIDE = 64  # more tiles than any chain holds: the radix of a branch index in an end code

Path = tuple[int, ...]  # (arm, i, side, j, side, ...): a chain; i, j index tiles from 0
Node = list[Any]  # [tile id, inner half, outer half, [left, right] branches or None]


# -- end names and codes ------------------------------------------------------------------


def end_code(path: Path) -> int:
    """The int a move carries for the chain at `path` (an arm: the arm itself)."""
    code = path[0]
    for k in range(1, len(path), 2):
        code = 4 + (code * _WIDE + path[k]) * 2 + path[k + 1]
    return code


def end_path(code: int) -> Path:
    """The chain an end code names (the inverse of `end_code`)."""
    parts: list[int] = []
    while code >= 4:
        rest, side = divmod(code - 4, 2)
        code, i = divmod(rest, _WIDE)
        parts[:0] = [i, side]
    return (code, *parts)


def end_name(code: int) -> str:
    """The words of an end: ``"up"``, ``"up-3-left"``..."""
    path = end_path(code)
    if path[0] not in ARM_NAMES:
        return f"#{code}"
    words = [ARM_NAMES[path[0]]]
    for k in range(1, len(path), 2):
        words += [str(path[k] + 1), _SIDE_NAMES[path[k + 1]]]
    return "-".join(words)


def parse_end(word: str) -> int:
    """The end code of an end name, or `IllegalMove` saying what an end is."""
    parts = word.lower().split("-")
    bad = illegal(
        "unknown end {word!r}: say left, right, up or down "
        "(a branch: up-3-left, the left branch of the 3rd tile of the up arm)", word=word[:20]
    )
    if parts[0] not in _ARM_WORDS or len(parts) % 2 == 0:
        raise bad
    path = [_ARM_WORDS[parts[0]]]
    for k in range(1, len(parts), 2):
        index, side = parts[k], parts[k + 1]
        if not index.isdigit() or not 1 <= int(index) <= _WIDE or side not in _SIDE_WORDS:
            raise bad
        path += [int(parts[k]) - 1, _SIDE_WORDS[parts[k + 1]]]
    return end_code(tuple(path))


class CrossMove(Move):
    """A tile laid on an arm or a branch that the plain line notation has no word for."""

    __slots__ = ()

    def __init__(self, tid: int, end: int) -> None:
        super().__init__(PLAY, tid, LEAD)
        self.end = end
        self.text = f"{self.tile} {end_name(end)}"

    def __reduce__(self) -> tuple[object, ...]:
        return (cross_move, (self.tid, self.end))


@cache
def cross_move(tid: int, end: int) -> Move:
    """The interned move laying tile `tid` on end `end` (the lead: `LEAD`)."""
    if end in (LEAD, LEFT, RIGHT):
        return move_for(PLAY, tid, end)
    return CrossMove(tid, end)


# -- the board ----------------------------------------------------------------------------


class CrossBoard:
    """The tiles of one round of a cross game and the ends they leave open.

    `sides_first`: the spinner's up and down sides open once both its left and
    right sides hold a tile (all-fives).  `fill_first`: while a side of the
    spinner is empty, only the empty sides may be played (003's cross).
    `every_double`: every later double opens two branches (double-nine cross).
    """

    __slots__ = ("arms", "base", "every_double", "fill_first", "last", "root", "sides_first",
                 "spinner", "ts")

    def __init__(self, ts: TileSet, sides_first: bool = False, fill_first: bool = False,
                 every_double: bool = False) -> None:
        self.ts = ts
        self.sides_first = sides_first
        self.fill_first = fill_first
        self.every_double = every_double
        self.root = -1  # the first tile laid
        self.spinner = -1  # the first double laid
        self.base = [-1, -1, -1, -1]  # per arm: the value its first tile must match
        self.arms: list[list[Node]] = [[], [], [], []]
        self.last: Path | None = None  # the tile laid last: () the spinner (or first tile)

    def copy(self) -> CrossBoard:
        new = CrossBoard(self.ts, self.sides_first, self.fill_first, self.every_double)
        new.root, new.spinner, new.last = self.root, self.spinner, self.last
        new.base = self.base[:]
        new.arms = [_copy_chain(arm) for arm in self.arms]
        return new

    # -- open ends ------------------------------------------------------------------------

    def _arm_open(self, arm: int) -> bool:
        if self.spinner < 0:
            return arm in (LEFT, RIGHT)
        if arm in (UP, DOWN) and self.sides_first:
            return bool(self.arms[LEFT] and self.arms[RIGHT])
        return True

    def filling(self) -> bool:
        """True while the spinner's four sides must be filled before anything else."""
        return self.fill_first and self.spinner >= 0 and not all(self.arms)

    def ends(self) -> list[tuple[int, int]]:
        """Every open end: (end code, value showing), the arms first."""
        if self.root < 0:
            return []
        arms = [a for a in ARMS if self._arm_open(a)]
        if self.filling():
            return [(a, self.base[a]) for a in arms if not self.arms[a]]
        out = [(a, _tip(self.arms[a], self.base[a])) for a in arms]
        for a in arms:
            _branch_ends(self.arms[a], (a,), out)
        return out

    def listed_ends(self) -> list[tuple[int, int]]:
        """The ends a move list offers: every open end, but one of the two ends of
        a line that show the same value (as the line engine does)."""
        out = self.ends()
        if self.spinner < 0 and len(out) == 2 and out[0][1] == out[1][1]:
            del out[1]
        return out

    def playable(self, vmask: list[int]) -> int:
        """The tiles (bitmask) that fit an open end."""
        mask = 0
        for _, value in self.ends():
            mask |= vmask[value]
        return mask

    def count(self) -> tuple[list[int], list[bool]]:
        """The ends `core.line.end_points.end_count` adds: (values, which are doubles).

        The outer half of each arm's last tile (a double: both halves); the
        spinner itself, both halves, while its left or right side is empty
        (once, even when both are); an empty up or down side counts nothing.
        """
        ts = self.ts
        if self.root < 0:
            return [], []
        if self.spinner < 0:
            return [_tip(self.arms[a], self.base[a]) for a in (LEFT, RIGHT)], [False, False]
        values: list[int] = []
        doubles: list[bool] = []
        if not (self.arms[LEFT] and self.arms[RIGHT]):
            values.append(ts.hi[self.spinner])
            doubles.append(True)
        for arm in ARMS:
            if self.arms[arm]:
                node = self.arms[arm][-1]
                values.append(node[2])
                doubles.append(node[1] == node[2])
        return values, doubles

    # -- laying tiles ---------------------------------------------------------------------

    def lead(self, tid: int) -> None:
        """Lay the first tile; a double is the spinner."""
        a, b = self.ts.hi[tid], self.ts.lo[tid]
        self.root = tid
        self.last = ()
        if a == b:
            self.spinner = tid
            self.base = [a, a, a, a]
        else:
            self.base = [a, b, -1, -1]

    def fit(self, tid: int, code: int) -> int:
        """The outer half tile `tid` shows once laid on end `code`, or `IllegalMove`."""
        name = self.ts.names[tid]
        for c, value in self.ends():
            if c == code:
                a, b = self.ts.hi[tid], self.ts.lo[tid]
                if a == value:
                    return b
                if b == value:
                    return a
                raise illegal("{tile} does not match the {side} end ({value})", tile=name,
                              side=end_name(code), value=value)
        if self.filling():
            raise illegal("the spinner's four sides come first: {tile} cannot go {side} now",
                          tile=name, side=end_name(code))
        raise illegal("there is no open end {side} on the table now", side=end_name(code))

    def lay(self, tid: int, code: int) -> None:
        """Lay `tid` on end `code` (checked with `fit` first)."""
        outer = self.fit(tid, code)
        path = end_path(code)
        chain, base = self._chain(path)
        inner = _tip(chain, base)
        double = inner == outer
        if double and self.spinner < 0:
            self._spin(tid, path[0])
            return
        chain.append([tid, inner, outer, [[], []] if double and self.every_double else None])
        self.last = (*path, len(chain) - 1)

    def _chain(self, path: Path) -> tuple[list[Node], int]:
        """The chain at `path` and the value its first tile must match."""
        chain, base = self.arms[path[0]], self.base[path[0]]
        for k in range(1, len(path), 2):
            node = chain[path[k]]
            chain, base = node[3][path[k + 1]], node[2]
        return chain, base

    def _spin(self, tid: int, arm: int) -> None:
        """The first double, laid at the end of the line on `arm`, becomes the
        spinner: the whole line is now its other arm, read outward from it."""
        other = RIGHT if arm == LEFT else LEFT
        value = self.ts.hi[tid]
        back = [[t, outer, inner, None] for t, inner, outer, _ in reversed(self.arms[arm])]
        back.append([self.root, self.base[arm], self.base[other], None])
        forward = self.arms[other]
        self.arms = [[], [], [], []]
        self.arms[other] = back + forward
        self.spinner = tid
        self.base = [value, value, value, value]
        self.last = ()

    # -- what players see -----------------------------------------------------------------

    def tiles(self) -> list[str]:
        """Every tile on the table: the line in order, or the spinner then each arm
        outward (right, left, up, down), a double's branches after it."""
        if self.root < 0:
            return []
        if self.spinner < 0:
            return self.line()[0]
        out = [self.ts.names[self.spinner]]
        for arm in LAYOUT_ARMS:
            _flat(self.arms[arm], out)
        return out

    def line(self) -> tuple[list[str], int | None]:
        """Before the spinner: the line left to right, each tile written left half
        first, and the index of the tile laid last."""
        left, right = self.arms[LEFT], self.arms[RIGHT]
        a, b = self.base[LEFT], self.base[RIGHT]
        line = [f"{outer}-{inner}" for _, inner, outer, _ in reversed(left)]
        line.append(f"{a}-{b}")
        line += [f"{inner}-{outer}" for _, inner, outer, _ in right]
        last = self.last
        if not last:
            index = len(left)
        elif last[0] == LEFT:
            index = len(left) - 1 - last[1]
        else:
            index = len(left) + 1 + last[1]
        return line, index

    def layout(self) -> dict[str, Any]:
        """The view's "layout": a line before the spinner, then a cross (see render/spinner.py)."""
        if self.spinner < 0:
            line, last = self.line() if self.root >= 0 else ([], None)
            return {"kind": "line", "chain": line, "last": last}
        last: list[int] | None = None
        if self.last is not None:
            last = list(self.last)
            if last:
                last[0] = LAYOUT_INDEX[last[0]]
        return {
            "kind": "cross",
            "spinner": self.ts.names[self.spinner],
            "arms": [_chain_json(self.arms[a]) for a in LAYOUT_ARMS],
            "open": [self._arm_open(a) for a in LAYOUT_ARMS],
            "last": last,
        }


def _tip(chain: list[Node], base: int) -> int:
    return chain[-1][2] if chain else base


def _branch_ends(chain: list[Node], path: Path, out: list[tuple[int, int]]) -> None:
    for i, node in enumerate(chain):
        if node[3] is None:
            continue
        for side in (0, 1):
            sub = node[3][side]
            sub_path = (*path, i, side)
            out.append((end_code(sub_path), _tip(sub, node[2])))
            _branch_ends(sub, sub_path, out)


def _copy_chain(chain: list[Node]) -> list[Node]:
    return [[t, inner, outer, None if br is None else [_copy_chain(br[0]), _copy_chain(br[1])]]
            for t, inner, outer, br in chain]


def _flat(chain: list[Node], out: list[str]) -> None:
    for _, inner, outer, branches in chain:
        out.append(f"{inner}-{outer}")
        if branches is not None:
            _flat(branches[0], out)
            _flat(branches[1], out)


def _chain_json(chain: list[Node]) -> list[Any]:
    out: list[Any] = []
    for _, inner, outer, branches in chain:
        name = f"{inner}-{outer}"
        if branches is None:
            out.append(name)
        else:
            out.append({"tile": name, "branches": [_chain_json(branches[0]),
                                                   _chain_json(branches[1])]})
    return out


__all__ = ["DOWN", "UP", "CrossBoard", "cross_move", "end_code", "end_name", "end_path",
           "parse_end"]
