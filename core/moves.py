"""Moves as small immutable values, and their notation.

A move is what a seat decides: lay a tile (``"6-4 left"``, ``"6-4 right"``, or
``"6-4"`` for the lead), ``"pass"`` or ``"draw"`` where a variant lets a player
choose them.  The engine keeps one interned `Move` per (kind, tile, end), so
listing legal moves allocates nothing but the list.
"""

from __future__ import annotations

import re
from functools import cache

from .errors import illegal
from .tiles import Tile, id_halves

PLAY = 0
PASS = 1
DRAW = 2
CLAIM = 3  # take the points of one's own play (all-fives with muggins_claim)
MUGGINS = 4  # take the points the previous player did not claim
BUY = 5  # buy a tile from the stock (rubicon)
GIVE = 6  # give a tile back to the stock (nombres): "give 6-4"

LEAD = -1
LEFT = 0
RIGHT = 1

END_NAMES = {LEAD: "", LEFT: "left", RIGHT: "right"}
_END_WORDS = {
    "left": LEFT, "l": LEFT, "gauche": LEFT, "g": LEFT,
    "right": RIGHT, "r": RIGHT, "droite": RIGHT, "d": RIGHT,
}
_WORD_MOVES = {"pass": PASS, "passe": PASS, "knock": PASS, "boude": PASS,
               "draw": DRAW, "pioche": DRAW, "piocher": DRAW,
               "claim": CLAIM, "muggins": MUGGINS, "buy": BUY, "achete": BUY}
KIND_NAMES = {PASS: "pass", DRAW: "draw", CLAIM: "claim", MUGGINS: "muggins", BUY: "buy"}
_GIVE_RE = re.compile(r"^(?:give|donne|rends)\s+\[?(\d{1,2})\s*[-:|/x]\s*(\d{1,2})\]?$")
_PLAY_RE = re.compile(
    r"^(?:play\s+|joue\s+)?\[?(\d{1,2})\s*[-:|/x]\s*(\d{1,2})\]?(?:\s+(?:on\s+|à\s+|a\s+)?(\w+))?$"
)
MAX_MOVE_TEXT = 60
MAX_SEATS = 10  # more than any variant seats (`Move.by_seat`)
MAX_VALUE = 15  # the highest end value of any set (`core.tiles.tile_set`: up to double-15)


class Move:
    """One decision. Compare moves with ``==``; ``str(move)`` is its notation.

    Derived attributes serve the line engine's hot path: ``side`` (the end, LEFT or RIGHT,
    of a tile laid on an end; -1 for a lead or a move that is not a tile), ``bit``
    (``1 << tid``, 0 without a tile), ``after`` (by end value, the tile's other half when
    one half matches that value, else -1: the plain join rule; -1 at index -1, an empty
    line's end) and ``by_seat[seat]``, the interned ``(seat, move)`` of a match's list of
    moves played.
    """

    __slots__ = ("after", "bit", "by_seat", "end", "kind", "side", "text", "tid", "tile")

    kind: int
    tid: int
    end: int
    tile: Tile | None
    text: str
    side: int
    bit: int
    after: tuple[int, ...]
    by_seat: tuple[tuple[int, Move], ...]

    def __init__(self, kind: int, tid: int = -1, end: int = LEAD) -> None:
        self.kind = kind
        self.tid = tid
        self.end = end
        self.side = end if kind == PLAY and end >= 0 else -1
        self.bit = 1 << tid if tid >= 0 else 0
        self.after = ()
        self.by_seat = tuple((seat, self) for seat in range(MAX_SEATS))
        if kind == PLAY:
            a, b = id_halves(tid)
            self.after = (*(b if v == a else a if v == b else -1 for v in range(MAX_VALUE + 1)),
                          -1)  # index -1, the end of an empty line: fits nothing
            self.tile = Tile(a, b)
            side = END_NAMES[end]
            self.text = f"{self.tile} {side}" if side else str(self.tile)
        elif kind == GIVE:
            self.tile = Tile(*id_halves(tid))
            self.text = f"give {self.tile}"
        else:
            self.tile = None
            self.text = KIND_NAMES[kind]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.kind == other.kind and self.tid == other.tid and self.end == other.end
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.kind, self.tid, self.end))

    def __reduce__(self) -> tuple[object, ...]:
        return (move_for, (self.kind, self.tid, self.end))


@cache
def move_for(kind: int, tid: int = -1, end: int = LEAD) -> Move:
    """The interned move for (kind, tile id, end)."""
    return Move(kind, tid, end)


PASS_MOVE = move_for(PASS)
DRAW_MOVE = move_for(DRAW)


def move_table(top_id: int) -> tuple[list[Move], list[Move], list[Move]]:
    """Interned lead, left and right moves indexed by tile id."""
    lead = [move_for(PLAY, t, LEAD) for t in range(top_id)]
    left = [move_for(PLAY, t, LEFT) for t in range(top_id)]
    right = [move_for(PLAY, t, RIGHT) for t in range(top_id)]
    return lead, left, right


def parse_notation(text: str) -> tuple[int, int, int | None]:
    """Parse move text into (kind, tile id, end or None when not given).

    Raises `IllegalMove` with a readable message when the text is not a move.
    """
    if not isinstance(text, str):
        raise illegal("a move is text, like '6-4 left', 'draw' or 'pass'")
    if len(text) > MAX_MOVE_TEXT:
        raise illegal("move text too long ({n} characters, at most {most})", n=len(text),
                      most=MAX_MOVE_TEXT)
    t = " ".join(text.strip().lower().split())
    if t in _WORD_MOVES:
        return _WORD_MOVES[t], -1, None
    give = _GIVE_RE.match(t)
    if give:
        return GIVE, Tile(int(give.group(1)), int(give.group(2))).id, None
    m = _PLAY_RE.match(t)
    if not m:
        raise illegal(
            "not a move: {text!r}; write a tile and an end like '6-4 left', or 'draw' / 'pass'",
            text=text.strip()[:30])
    a, b, word = int(m.group(1)), int(m.group(2)), m.group(3)
    tid = Tile(a, b).id
    if word is None:
        return PLAY, tid, None
    if word not in _END_WORDS:
        raise illegal("unknown end {word!r}: say 'left' or 'right'", word=word)
    return PLAY, tid, _END_WORDS[word]
