"""The calls of a trick game as moves: "pass", "bid 30", "bid 2 marks", "trumps 5".

A tile is played as the core's plain `Move` ("6-4"); a bid or the naming of
trumps is a `Call`, a `Move` whose ``end`` holds the value: the bid in points
(a mark is 42, so "bid 2 marks" is 84), or the trump number (`NELLO` and
`SEVENS` and the other words of `TRUMP_WORDS` for those contracts).  The Texas specials add
"bid plunge" and "bid splash" (kind `SPECIAL`, ``end`` `PLUNGE` or `SPLASH`: their value in
marks depends on the bidding, the match works it out) and "lay down" (kind `LAY_DOWN`).
`parse_call` reads the notation back.
"""

from __future__ import annotations

import re
from functools import cache

from ..errors import illegal
from ..moves import MAX_MOVE_TEXT, PASS, PLAY, Move, move_for
from ..tiles import Tile

BID = 10
TRUMPS = 11
SPECIAL = 12  # "bid plunge", "bid splash"
LAY_DOWN = 13  # "lay down": the bidding team ends a decided hand
PLUNGE, SPLASH = 1, 2
SPECIAL_WORDS = {PLUNGE: "plunge", SPLASH: "splash"}
MARK = 42  # points of one mark
NELLO = 7  # trump values past the numbers: the special contracts
SEVENS = 8
DOUBLES = 9  # the doubles are trumps
FOLLOW_ME = 10  # no trumps, doubles high
FOLLOW_ME_LOW = 11  # no trumps, doubles low
NELLO_LOW = 12  # nello, doubles low in their suits
NELLO_DOUBLES = 13  # nello, doubles a suit of their own
NELLOS = (NELLO, NELLO_LOW, NELLO_DOUBLES)
TRUMP_WORDS = {NELLO: "nello", SEVENS: "sevens", DOUBLES: "doubles", FOLLOW_ME: "follow-me",
               FOLLOW_ME_LOW: "follow-me-low", NELLO_LOW: "nello-low",
               NELLO_DOUBLES: "nello-doubles"}
_TRUMP_VALUES = {word: value for value, word in TRUMP_WORDS.items()}

_BID_RE = re.compile(r"^(?:bid|enchere|enchère|annonce)\s+(\d{1,3})(?:\s+(marks?|marques?))?$")
_SPECIAL_RE = re.compile(r"^(?:(?:bid|enchere|enchère|annonce)\s+)?(plunge|splash)$")
_TRUMP_RE = re.compile(r"^(?:trumps?|atouts?)\s+(\d|[a-z-]+)$")
_TILE_RE = re.compile(r"^(?:play\s+|joue\s+)?\[?(\d{1,2})\s*[-:|/x]\s*(\d{1,2})\]?$")


class Call(Move):
    """A bid (kind `BID`, ``end`` the points) or trumps named (kind `TRUMPS`, ``end`` the suit)."""

    __slots__ = ()

    def __init__(self, kind: int, value: int, marks: bool = False) -> None:
        self.kind = kind
        self.tid = -1
        self.end = value
        self.tile = None
        if kind == BID:
            self.text = f"bid {bid_words(value, marks)}"
        elif kind == SPECIAL:
            self.text = f"bid {SPECIAL_WORDS[value]}"
        elif kind == LAY_DOWN:
            self.text = "lay down"
        else:
            self.text = f"trumps {TRUMP_WORDS.get(value, value)}"

    def __reduce__(self) -> tuple[object, ...]:
        return (call_for, (self.kind, self.end, self.text.endswith(("mark", "marks"))))


@cache
def call_for(kind: int, value: int, marks: bool = False) -> Call:
    """The interned call of `kind` and `value` (`marks`: bids of 42 and more said in marks)."""
    return Call(kind, value, marks)


def bid_words(value: int, marks: bool) -> str:
    """A bid as said: "30", or "1 mark" / "2 marks" when bids go on in marks."""
    if marks and value >= MARK:
        m = value // MARK
        return f"{m} mark" if m == 1 else f"{m} marks"
    return str(value)


def parse_call(text: object, marks: bool) -> Move:
    """The move written in `text`: a tile, "pass", a bid or trumps; `IllegalMove` if none."""
    if not isinstance(text, str):
        raise illegal("a move is text, like 'bid 30', 'pass', 'trumps 5' or '6-4'")
    if len(text) > MAX_MOVE_TEXT:
        raise illegal("move text too long ({n} characters, at most {most})", n=len(text),
                      most=MAX_MOVE_TEXT)
    t = " ".join(text.strip().lower().split())
    if t in ("pass", "passe"):
        return move_for(PASS)
    if t in ("lay down", "laydown", "abattre"):
        return call_for(LAY_DOWN, 0)
    m = _TILE_RE.match(t)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if a > 6 or b > 6:
            raise illegal("{tile} is not a tile of the double-{top} set", tile=f"{a}-{b}", top=6)
        return move_for(PLAY, Tile(a, b).id)
    m = _BID_RE.match(t)
    if m:
        value = int(m.group(1))
        if m.group(2):
            value *= MARK
        elif marks and value >= MARK and value % MARK:
            raise illegal("bids past 41 are in marks: say 'bid 1 mark' or 'bid 2 marks'")
        return call_for(BID, value, marks)
    m = _SPECIAL_RE.match(t)
    if m:
        return call_for(SPECIAL, PLUNGE if m.group(1) == "plunge" else SPLASH)
    m = _TRUMP_RE.match(t)
    if m:
        word = m.group(1)
        value = _TRUMP_VALUES.get(word)
        if value is None:
            if not word.isdigit() or int(word) > 6:
                raise illegal("trumps are a number from 0 to 6, or {words}",
                              words=", ".join(TRUMP_WORDS.values()))
            value = int(word)
        return call_for(TRUMPS, value)
    raise illegal("not a move: {text!r}; write 'bid 30', 'pass', 'trumps 5' or a tile like '6-4'",
                  text=text.strip()[:30])
