"""The memory grid's cells and their names, and the move that turns one cell up.

The 28 tiles lie face down in 4 rows (A to D, top to bottom) of 7 columns
(1 to 7, left to right); a cell is named like a spreadsheet's, row letter
then column number: ``"A1"`` top left, ``"D7"`` bottom right.  A move turns
one cell up (``"B3"``); a turn is two moves.
"""

from __future__ import annotations

import re
from functools import cache

from ..errors import illegal

ROWS = 4
COLS = 7
CELLS = ROWS * COLS
ROW_NAMES = "ABCD"
MAX_TEXT = 60
_CELL_RE = re.compile(r"^(?:turn\s+|retourne\s+)?([a-z])\s*(\d{1,2})$")


def cell_name(cell: int) -> str:
    """``"A1"`` for cell 0, ``"A2"`` for cell 1 ... ``"D7"`` for cell 27."""
    row, col = divmod(cell, COLS)
    return f"{ROW_NAMES[row]}{col + 1}"


class CellMove:
    """Turn one cell up: ``str(move)`` is the cell's name, ``"B3"``."""

    __slots__ = ("cell", "text")

    kind = "turn"
    tile = None  # no tile is named: what lies under the cell is unknown to the mover
    tid = -1

    cell: int
    text: str

    def __init__(self, cell: int) -> None:
        self.cell = cell
        self.text = cell_name(cell)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"CellMove({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CellMove):
            return self.cell == other.cell
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("cell", self.cell))

    def __reduce__(self) -> tuple[object, ...]:
        return (cell_move, (self.cell,))


@cache
def cell_move(cell: int) -> CellMove:
    """The interned move that turns `cell` up."""
    return CellMove(cell)


def parse_cell(text: object) -> CellMove:
    """The move written ``"B3"`` (also ``"b3"``, ``"b 3"``, ``"turn B3"``)."""
    if not isinstance(text, str):
        raise illegal("a move is a cell's name, like 'B3'")
    if len(text) > MAX_TEXT:
        raise illegal("move text too long ({n} characters, at most {most})", n=len(text),
                      most=MAX_TEXT)
    t = " ".join(text.strip().lower().split())
    m = _CELL_RE.match(t)
    if m is None:
        raise illegal("not a cell: {text!r}; name one cell, a row A to D then a column 1 to 7, "
                      "like 'B3'", text=text.strip()[:30])
    row, col = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
    if not (0 <= row < ROWS and 0 <= col < COLS):
        raise illegal("no cell {cell}: rows are A to D, columns 1 to 7",
                      cell=text.strip().upper()[:10])
    return cell_move(row * COLS + col)
