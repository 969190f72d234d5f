"""The rules that score the open ends of a layout, and the sum-to-7 join, written once.

End-total games score the *count* of the open ends after each play: the
outer values of the ends, a double lying crosswise at an end counting both
halves (003, "Tous les cinq": "un double quatre à une extrémité et un simple
deux à l'autre comptent pour dix").  What the count is worth depends on the
game:

* `fives` (000, "Cinq partout / Muggins"): a multiple of 5 scores count/5;
* `threes` (000, "3 partout"): a multiple of 3 scores count/3;
* `all_fives` (003, "Tous les cinq"): a multiple of 5 scores the count itself;
* `fives_and_threes` (003): one point per 5 and per 3 dividing it (15 scores 8).

`caps` are Bergen's "double cap" and "triple cap" (000), and `Sum7Join`
is the join rule of Matador and Dominos K (000): touching halves total 7,
and the matadors (K tiles) 0-0, 1-6, 2-5, 3-4 are the only tiles that close
a blank end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Scorer = Callable[[int], int]


def end_count(ends: Sequence[int], doubles: Sequence[bool]) -> int:
    """The count of the open ends: each end's value, twice when a double lies there."""
    return sum(v * 2 if d else v for v, d in zip(ends, doubles, strict=True))


def fives(count: int) -> int:
    """Muggins: a multiple of 5 scores count/5."""
    return count // 5 if count % 5 == 0 else 0


def threes(count: int) -> int:
    """Threes: a multiple of 3 scores count/3."""
    return count // 3 if count % 3 == 0 else 0


def all_fives(count: int) -> int:
    """All Fives: a multiple of 5 scores the count itself."""
    return count if count % 5 == 0 else 0


def fives_and_threes(count: int) -> int:
    """Fives and Threes: one point per 5 and per 3 dividing the count."""
    return fives(count) + threes(count)


SCORERS: dict[str, Scorer] = {
    "fives": fives,
    "threes": threes,
    "all-fives": all_fives,
    "fives-and-threes": fives_and_threes,
}


def caps(ends: Sequence[int], doubles: Sequence[bool]) -> int:
    """Bergen: the two ends show the same value: a "triple cap" (3 points) when
    a double lies at one of them, else a "double cap" (2 points); else 0."""
    if len(ends) != 2 or ends[0] != ends[1]:
        return 0
    return 3 if doubles[0] or doubles[1] else 2


# -- the sum-to-7 join (Matador, Dominos K) ------------------------------------------------

BLANK_ONLY = 7  # the end a crosswise matador leaves: only a blank may join it (7 - 0)
NEEDS_BASE = 8  # 8 + h: an in-line matador showing h: a blank or 7 - h may join it


def is_matador(a: int, b: int) -> bool:
    """0-0 and the tiles whose halves total 7."""
    return a + b == 7 or a == b == 0


@dataclass(frozen=True, slots=True)
class Sum7Join:
    """Where a tile may go and what end it leaves, when touching halves total 7.

    An end is a code: 0-6 an ordinary half showing (a tile joins it with the
    half 7 - v); `BLANK_ONLY` after a matador laid crosswise ("ne peuvent être
    suivis que d'un blanc"); `NEEDS_BASE` + h after a matador laid in line
    showing h (a blank or 7 - h joins it).  A blank end (0) takes a matador
    only.  `wild`: a matador goes on any end (ref 2); `inline`: a matador laid
    on a blank (or as a joker) lies in line, its higher half outwards (ref 3).
    """

    wild: bool = False
    inline: bool = False

    def joins(self, end: int) -> tuple[int, ...]:
        """The halves that may touch `end` in an ordinary join."""
        if end == BLANK_ONLY:
            return (0,)
        if end >= NEEDS_BASE:
            h = end - NEEDS_BASE
            return (0,) if h == 0 else (0, 7 - h)
        return () if end == 0 else (7 - end,)

    def lay(self, a: int, b: int, end: int) -> tuple[int, int, int] | None:
        """(touching half, outer half, new end code) of tile a-b laid on `end`,
        or None when it may not go there.  An ordinary join comes first; a
        matador that does not join ordinarily is laid as a matador."""
        for j in self.joins(end):
            if a == j:
                return a, b, b
            if b == j:
                return b, a, a
        if is_matador(a, b) and (end == 0 or self.wild):
            hi, lo = max(a, b), min(a, b)
            if self.inline:
                return lo, hi, NEEDS_BASE + hi
            return lo, hi, BLANK_ONLY
        return None
