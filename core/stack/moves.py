"""Placements in a construction and their notation.

A placement says which tile, how it goes against a tile already played (the
*target*, numbered from 1 in the order the construction was built), which
half of the target when the target is a double, and which way the new tile's
other half points::

    6-6                   the first tile of a construction (a double, lying east-west)
    6-4 on 3 east         6-4 on top of tile 3, its 6 on tile 3's 6, its 4 to the east
    6-4 under 2 north     slid under tile 2's 6 (on the table), its 4 to the north
    6-4 next 1e east      flat on the table after the east half of tile 1 (a double)
    6-4 on 1w south       on the west half of the double tile 1, pointing south

The half of the new tile that touches the target is the one showing the
target half's value.  East is to the right of the picture, north into it.
French words are read too: sur, sous, contre; est, ouest, nord, sud.
"""

from __future__ import annotations

import re
from functools import cache

from ..errors import illegal
from ..moves import MAX_MOVE_TEXT, PLAY
from ..tiles import Tile, id_halves
from .geometry import DIR_LETTERS, DIR_NAMES

LEAD, ON, UNDER, NEXT = "lead", "on", "under", "next"
HOWS = (ON, UNDER, NEXT)
_HOW_WORDS = {"on": ON, "sur": ON, "under": UNDER, "sous": UNDER, "next": NEXT,
              "contre": NEXT}
_DIR_WORDS = {
    "east": 0, "e": 0, "est": 0, "north": 1, "n": 1, "nord": 1,
    "west": 2, "w": 2, "ouest": 2, "o": 2, "south": 3, "s": 3, "sud": 3,
}
_MOVE_RE = re.compile(
    r"^\[?(\d{1,2})\s*[-:|/x]\s*(\d{1,2})\]?"
    r"(?:\s+(on|sur|under|sous|next|contre)\s+(\d{1,3})([enwso])?\s+([a-z]+))?$"
)


class StackMove:
    """One placement; compare with ``==``; ``str(move)`` is its notation."""

    __slots__ = ("direction", "half", "half_word", "how", "kind", "target", "text", "tid", "tile")

    kind: int
    tid: int
    how: str
    target: int  # the target tile's number (1 = the first tile); 0 for the lead
    half: int  # the target's half (0 or 1) the new tile touches; -1 for the lead
    direction: int  # where the new tile's other half points (`geometry.DIRS`); -1 for the lead
    tile: Tile
    text: str

    def __init__(self, tid: int, how: str = LEAD, target: int = 0, half: int = -1,
                 direction: int = -1, half_word: str = "") -> None:
        self.kind = PLAY
        self.tid = tid
        self.how = how
        self.target = target
        self.half = half
        self.direction = direction
        self.half_word = half_word
        self.tile = Tile(*id_halves(tid))
        if how == LEAD:
            self.text = str(self.tile)
        else:
            self.text = f"{self.tile} {how} {target}{half_word} {DIR_NAMES[direction]}"

    def key(self) -> tuple[int, str, int, int, int]:
        return (self.tid, self.how, self.target, self.half, self.direction)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"StackMove({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StackMove):
            return self.key() == other.key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key())

    def __reduce__(self) -> tuple[object, ...]:
        return (stack_move, (*self.key(), self.half_word))


@cache
def stack_move(tid: int, how: str = LEAD, target: int = 0, half: int = -1, direction: int = -1,
               half_word: str = "") -> StackMove:
    """The interned placement."""
    return StackMove(tid, how, target, half, direction, half_word)


def half_word(double: bool, side: int) -> str:
    """The letter naming a double's half by the compass side it lies on ("" otherwise)."""
    return DIR_LETTERS[side] if double else ""


Parsed = tuple[int, str | None, int, str, int]  # tile id, how, target, half letter, direction


def parse_placement(text: object) -> Parsed:
    """Read move text into (tile id, how or None for a bare tile, target, half letter,
    direction); `IllegalMove` says why text is not a move."""
    if not isinstance(text, str):
        raise illegal("a move is text, like '6-4 on 2 east'")
    if len(text) > MAX_MOVE_TEXT:
        raise illegal("move text too long ({n} characters, at most {most})", n=len(text),
                      most=MAX_MOVE_TEXT)
    t = " ".join(text.strip().lower().split())
    t = t.removeprefix("play ").removeprefix("joue ")
    m = _MOVE_RE.match(t)
    if not m:
        raise illegal("not a move: {text!r}; write a tile and where it goes, like "
                      "'6-4 on 2 east'", text=text.strip()[:30])
    tid = Tile(int(m.group(1)), int(m.group(2))).id
    if m.group(3) is None:
        return tid, None, 0, "", -1
    word = m.group(6)
    if word not in _DIR_WORDS:
        raise illegal("unknown direction {word!r}: say east, west, north or south",
                      word=word[:20])
    letter = (m.group(5) or "").replace("o", "w")
    return tid, _HOW_WORDS[m.group(3)], int(m.group(4)), letter, _DIR_WORDS[word]
