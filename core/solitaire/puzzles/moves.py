"""A puzzle's moves and their notation: ``6-4 B1 C1``, ``remove B1``, ``hint 2``, ``give up``.

A placement names the tile and its two cells, the first number on the first
cell (``6-4 B1 C1`` puts the 6 on B1); it is written with the tile's high half
first (``4-6 C1 B1`` is the same placement, written ``6-4 B1 C1``). French
words work too: ``pose 6-4 B1 C1``, ``retire B1``, ``indice 2``, ``abandon``.
"""

from __future__ import annotations

import re

from ...errors import illegal
from ...tiles import Tile
from . import cells

PLACE, REMOVE, HINT, GIVE_UP = "place", "remove", "hint", "give up"
HINT_LEVELS = (1, 2, 3, 4)
MAX_TEXT = 60

_PLACE_RE = re.compile(
    r"^(?:place\s+|pose\s+|play\s+|joue\s+)?\[?(\d)\s*[-:|/x]\s*(\d)\]?\s+"
    r"([a-z]\d{1,2})\s*[-\s,]\s*([a-z]\d{1,2})$")
_REMOVE_RE = re.compile(r"^(?:remove|retire|enleve|enlève|take|undo)\s+(.+)$")
_HINT_RE = re.compile(r"^(?:hint|indice)\s*(\d)?$")
_GIVE_UP = {"give up", "giveup", "abandon", "abandonne", "resign"}


class PuzzleMove:
    """One move of a puzzle; compare with ``==``, ``str(move)`` is its notation."""

    __slots__ = ("cells", "kind", "level", "text", "tile", "values")

    def __init__(self, kind: str, tile: Tile | None = None, cells: tuple[str, ...] = (),
                 values: tuple[int, ...] = (), level: int = 0) -> None:
        self.kind = kind
        self.tile = tile
        self.cells = cells
        self.values = values
        self.level = level
        if kind == PLACE:
            assert tile is not None and len(cells) == 2 and len(values) == 2
            if values[0] < values[1] or (values[0] == values[1]
                                         and cells_key(cells[1]) < cells_key(cells[0])):
                self.cells, self.values = (cells[1], cells[0]), (values[1], values[0])
            self.text = f"{tile} {self.cells[0]} {self.cells[1]}"
        elif kind == REMOVE:
            self.text = f"remove {cells[0]}"
        elif kind == HINT:
            self.text = f"hint {level}"
        else:
            self.text = GIVE_UP

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"PuzzleMove({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PuzzleMove):
            return self.text == other.text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)


def cells_key(cell: str) -> tuple[int, int]:
    return cells.reading_key(cell)


def place(a: int, b: int, first: str, second: str) -> PuzzleMove:
    """The placement of tile a-b with `a` on cell `first` and `b` on `second`."""
    return PuzzleMove(PLACE, Tile(a, b), (first, second), (a, b))


def parse(text: object) -> tuple[str, tuple[object, ...]]:
    """The kind of move and its raw parts: (PLACE, (a, b, cell1, cell2)), (REMOVE, (what,)),
    (HINT, (level,)), (GIVE_UP, ()). Raises `IllegalMove` when the text is not a move."""
    if not isinstance(text, str):
        raise illegal("a move is text, like '6-4 B1 C1', 'remove B1' or 'hint 1'")
    if len(text) > MAX_TEXT:
        raise illegal("move text too long ({n} characters, at most {most})", n=len(text),
                      most=MAX_TEXT)
    t = " ".join(text.strip().lower().split())
    if t in _GIVE_UP:
        return GIVE_UP, ()
    m = _HINT_RE.match(t)
    if m:
        level = int(m.group(1) or 1)
        if level not in HINT_LEVELS:
            raise illegal("hints go from 1 to 4 (got {level})", level=level)
        return HINT, (level,)
    m = _REMOVE_RE.match(t)
    if m:
        return REMOVE, (m.group(1),)
    m = _PLACE_RE.match(t)
    if not m:
        raise illegal("not a move: {text!r}; write a tile and its two cells like '6-4 B1 C1', "
                      "or 'remove B1'", text=text.strip()[:30])
    first, second = cells.canonical(m.group(3)), cells.canonical(m.group(4))
    return PLACE, (int(m.group(1)), int(m.group(2)), first or m.group(3), second or m.group(4))
