"""The grid's moves and their notation: ``5-3 4-4 2-2 C4 right``, ``6-4 H7 down``, ``pass``.

A play names its tiles in the order they are laid, each with the half laid
first written first, then the cell of the first new half and the direction:
``right`` (along the row) or ``down`` (along the column).  Halves already on
the grid are passed over: ``5-3 2-2 C4 right`` with a half already on E4 lays
5-3 on C4-D4 and 2-2 on F4-G4.  ``left`` and ``up`` are read too (the tiles
then go the other way from the cell named) and written back as ``right`` and
``down``.  A single tile uses the same form.  ``pass`` ends a turn: when no
play makes 20, or after single tiles when the player stops.
"""

from __future__ import annotations

import re

from ..errors import illegal
from ..moves import PASS, PLAY
from .board import DOWN, RIGHT, cell_name

MAX_TEXT = 80
DIRECTIONS = {"right": RIGHT, "r": RIGHT, "droite": RIGHT, "h": RIGHT, "horizontal": RIGHT,
              "down": DOWN, "bas": DOWN, "b": DOWN, "v": DOWN, "vertical": DOWN,
              "left": -RIGHT, "l": -RIGHT, "gauche": -RIGHT, "g": -RIGHT,
              "up": -DOWN, "u": -DOWN, "haut": -DOWN}
STEP_NAMES = {RIGHT: "right", DOWN: "down"}
PASS_WORDS = {"pass", "passe", "stop", "boude"}
_TILE_RE = re.compile(r"^\[?(\d)[-:|/x](\d)\]?$")

Tile = tuple[int, int]


class GridMove:
    """A play (tiles, the first new half's cell, a direction) or a pass.

    ``markers`` is how many markers the play takes, when the move comes from
    `legal_moves` (-1 otherwise).  Moves compare by their notation."""

    __slots__ = ("kind", "markers", "start", "step", "text", "tiles")

    tile = None  # not a one-tile move of the line games
    tid = -1
    end = -1

    def __init__(self, kind: int, tiles: tuple[Tile, ...] = (), start: int = -1, step: int = 0,
                 markers: int = -1) -> None:
        self.kind = kind
        self.tiles = tiles
        self.start = start
        self.step = step
        self.markers = markers
        if kind == PASS:
            self.text = "pass"
        else:
            laid = " ".join(f"{a}-{b}" for a, b in tiles)
            self.text = f"{laid} {cell_name(start)} {STEP_NAMES[step]}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"GridMove({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GridMove):
            return self.text == other.text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[object, ...]:
        return (GridMove, (self.kind, self.tiles, self.start, self.step, self.markers))


PASS_MOVE = GridMove(PASS)


def parse_words(text: object) -> tuple[int, tuple[Tile, ...], str, int]:
    """(kind, tiles, cell name, step) of move text; the step is negative for left and up.
    Raises `IllegalMove` saying how to write a move."""
    if not isinstance(text, str):
        raise illegal("a move is text, like '5-3 4-4 2-2 C4 right' or 'pass'")
    if len(text) > MAX_TEXT:
        raise illegal("move text too long ({n} characters, at most {most})", n=len(text),
                      most=MAX_TEXT)
    words = text.strip().lower().replace(",", " ").split()
    if len(words) == 1 and words[0] in PASS_WORDS:
        return PASS, (), "", 0
    if len(words) < 3 or words[-1] not in DIRECTIONS:
        raise illegal("not a move: {text!r}; write the tiles, the cell of the first one and "
                      "a direction, like '5-3 4-4 2-2 C4 right', or 'pass'",
                      text=text.strip()[:30])
    tiles = []
    for word in words[:-2]:
        m = _TILE_RE.match(word)
        if not m:
            raise illegal("{word!r} is not a tile of the game (halves 0 to 9, like 6-4)",
                          word=word[:10])
        tiles.append((int(m.group(1)), int(m.group(2))))
    if len(tiles) > 5:
        raise illegal("a line has 2 to 5 tiles of your rack (got {n})", n=len(tiles))
    return PLAY, tuple(tiles), words[-2], DIRECTIONS[words[-1]]
