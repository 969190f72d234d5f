"""Cell names like a spreadsheet's: columns A, B, C... and rows 1, 2, 3... ("B1")."""

from __future__ import annotations

import re

_CELL_RE = re.compile(r"^([A-Za-z])(\d{1,2})$")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def name(col: int, row: int) -> str:
    """The name of the cell at column `col`, row `row` (both from 0): ``name(1, 0) == "B1"``."""
    return f"{LETTERS[col]}{row + 1}"


def position(cell: str) -> tuple[int, int]:
    """(column, row) from 0 of a cell name; ValueError when it is not one."""
    m = _CELL_RE.match(cell.strip())
    if not m:
        raise ValueError(cell)
    return LETTERS.index(m.group(1).upper()), int(m.group(2)) - 1


def canonical(cell: str) -> str | None:
    """The cell name in capitals ("b1" -> "B1"), None when the text is not a cell name."""
    try:
        col, row = position(cell)
    except ValueError:
        return None
    return name(col, row) if row >= 0 else None


def reading_key(cell: str) -> tuple[int, int]:
    """Sort key: rows top to bottom, then columns left to right."""
    col, row = position(cell)
    return row, col
