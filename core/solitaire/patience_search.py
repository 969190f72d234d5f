"""Searching the patience: the exhaustive solver of a known deal, and the good move.

A patience position is a list of columns, each a stack of tile ids (bottom
first, the top tile face up); a move removes two top tiles whose pips total
12.  `solve` looks at every tile (it is used once the game is over, to say
whether the deal could have been won, and on sampled deals): a depth-first
search over the columns' heights that remembers the positions already lost.
`good_pair` is the move a good player makes seeing only the top tiles and
how many tiles lie under each: the pair lying on the most hidden tiles
(PUZZLES.md measured it near the best a player can do without peeking).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tiles import tile_set

TOTAL = 12  # the two tiles of a move total this many pips
PIPS = tile_set(6).pips

Pair = tuple[int, int]  # (column, column), the lower column first


def pairs(tops: Sequence[int | None]) -> list[Pair]:
    """The columns whose top tiles can be removed together (tile ids, None: empty column)."""
    out = []
    pips = PIPS
    for i, a in enumerate(tops):
        if a is None:
            continue
        for j in range(i + 1, len(tops)):
            b = tops[j]
            if b is not None and pips[a] + pips[b] == TOTAL:
                out.append((i, j))
    return out


def solve(columns: Sequence[Sequence[int]]) -> list[Pair] | None:
    """A winning line of moves (pairs of columns) for a deal whose every tile is known,
    or None when none exists.  `columns` are stacks, bottom first."""
    stacks = [list(c) for c in columns]
    lost: set[tuple[int, ...]] = set()
    line: list[Pair] = []
    pips = PIPS

    def search(heights: list[int]) -> bool:
        if not any(heights):
            return True
        key = tuple(heights)
        if key in lost:
            return False
        tops = [stacks[i][h - 1] if h else -1 for i, h in enumerate(heights)]
        n = len(tops)
        for i in range(n):
            a = tops[i]
            if a < 0:
                continue
            want = TOTAL - pips[a]
            for j in range(i + 1, n):
                b = tops[j]
                if b >= 0 and pips[b] == want:
                    heights[i] -= 1
                    heights[j] -= 1
                    line.append((i, j))
                    won = search(heights)
                    heights[i] += 1
                    heights[j] += 1
                    if won:
                        return True
                    line.pop()
        lost.add(key)
        return False

    return line if search([len(s) for s in stacks]) else None


def good_pair(tops: Sequence[int | None], hidden: Sequence[int]) -> Pair | None:
    """The pair a good player removes: the one lying on the most face-down tiles (the
    first such pair in column order on a tie); None when no pair totals 12."""
    best: Pair | None = None
    most = -1
    for i, j in pairs(tops):
        under = hidden[i] + hidden[j]
        if under > most:
            best, most = (i, j), under
    return best
