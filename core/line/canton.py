"""Canton (000): the line game whose tiles touch long side to long side, with captures.

A round is the shared line engine (`core.line.engine`): the same dealing, leading,
matching of equal half-faces and drawing.  Canton adds what happens after a
tile is laid (the engine's `_laid` hook): if the tile and its neighbour total
12, or the tile, its neighbour and the next one (or its neighbour and the tile
at the far end of the line) total 10, 20 or 30, the player "peut ramasser":
the same seat then chooses between ``claim`` (take them: they leave the line
face down, their pips are scored at once with `add_points`, and the player
plays again) and ``pass`` (leave them; the turn goes on as after any tile).
Going out scores the pips left in the other hands (the match's ``pips`` scoring).

The line is kept here as a list of oriented tiles, because captures take
tiles off both ends; the tiles stand side by side, so the view's layout is
``{"kind": "canton", "chain": [...], "last": i, "first_top": bool, "piles": [...]}``
(drawn by `render.canton`): ``first_top`` says whether the first tile's left
half is drawn on top (the touching halves of neighbours share a row, so the
rows alternate along the line); ``piles`` gives each seat's captured tiles
this round (how many, and their points: they lie face down).
"""

from __future__ import annotations

from typing import Any

from ..errors import illegal
from ..moves import CLAIM, LEAD, LEFT, PASS, Move, move_for
from ..tiles import tile_id
from .match import LineMatch

PAIR_TOTAL = 12  # the tile laid and its neighbour
TRIPLE_TOTALS = (10, 20, 30)  # the tile laid and two others

Oriented = tuple[int, int]  # a tile in the line, its left half first
CLAIM_MOVE = move_for(CLAIM)  # take the capture on offer
PASS_MOVE = move_for(PASS)  # leave it


def best_capture(line: list[Oriented], end: int) -> tuple[int, list[int]] | None:
    """The capture the tile just laid at `end` of `line` makes: (points, indexes
    of the tiles taken in `line`), or None.

    The candidates, with the tile laid: its neighbour, if the two total 12; its
    neighbour and the next tile inward; its neighbour and the tile at the far
    end; the three totalling 10, 20 or 30.  The richest one is taken (on equal
    points, the first in that order).
    """
    n = len(line)
    if n < 2 or end == LEAD:
        return None
    if end == LEFT:
        laid, near, next_in, far = 0, 1, 2, n - 1
    else:
        laid, near, next_in, far = n - 1, n - 2, n - 3, 0
    pips = [a + b for a, b in line]
    base = pips[laid] + pips[near]
    found: tuple[int, list[int]] | None = None
    if base == PAIR_TOTAL:
        found = (base, [laid, near])
    if n >= 3:
        for third in (next_in, far) if n >= 4 else (next_in,):
            total = base + pips[third]
            if total in TRIPLE_TOTALS and (found is None or total > found[0]):
                found = (total, [laid, near, third])
    return found


class CantonMatch(LineMatch):
    """A match of Canton: the line engine plus the line of oriented tiles and captures."""

    __slots__ = ("_first_top", "_line", "_offer", "_piles")

    hooked = True  # the engine calls `_laid` after each tile
    equal_ends_differ = True  # both ends show one value: both placements are listed

    _line: list[Oriented]
    _first_top: bool
    _piles: list[list[int]]
    _offer: tuple[int, tuple[int, ...]] | None  # a capture on offer: (points, line indexes)

    def _reset_round(self, n: int) -> None:
        super()._reset_round(n)
        self._offer = None
        self._line = []
        self._first_top = True
        self._piles = [[] for _ in range(n)]

    def _copied(self, new: LineMatch) -> None:
        assert isinstance(new, CantonMatch)
        new._line = self._line[:]
        new._piles = [p[:] for p in self._piles]

    def board_ids(self) -> list[int]:
        """The ids of the tiles on the table (captured ones are not)."""
        return [tile_id(a, b) for a, b in self._line]

    # -- moves -----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """As the line engine, but with both ends showing one value each end is
        listed: what is taken depends on the neighbours.  While a capture is on
        offer: ``claim`` or ``pass`` only."""
        if self._offer is not None and self.to_move is not None:
            return [CLAIM_MOVE, PASS_MOVE]
        moves = super().legal_moves()
        if self.left == self.right >= 0 and len(self._line) > 1:
            rights = self.tables[2]
            moves += [rights[m.tid] for m in moves]
        return moves

    def check(self, move: Move) -> tuple[int, int]:
        """As the engine's, but no tile while a capture is on offer."""
        if self._offer is not None and self.to_move is not None:
            raise illegal("take the capture ({points} points) with 'claim', or leave it with "
                          "'pass'", points=self._offer[0])
        return super().check(move)

    def _extra_moves(self) -> list[Move]:
        return [CLAIM_MOVE, PASS_MOVE] if self._offer is not None else []

    def _laid(self, seat: int, move: Move) -> bool:
        """Put the tile in the line; when it allows a capture, offer it to the same
        seat (True: this decided who moves next)."""
        line = self._line
        end = move.end
        if end == LEAD or not line:
            line.append((self.left, self.right))
            self.lead_tid = -1  # a line emptied by a capture is opened with any tile
        elif end == LEFT:
            line.insert(0, (self.left, line[0][0]))
            self._first_top = not self._first_top
        else:
            line.append((line[-1][1], self.right))
        found = best_capture(line, end)
        if found is None:
            return False
        self._offer = (found[0], tuple(found[1]))
        self.to_move = seat
        return True

    def _play_extra(self, move: Move) -> None:
        """``claim`` takes the capture on offer, ``pass`` leaves it; then the round
        goes on (or ends, when the seat laid its last tile)."""
        assert self._offer is not None and self.to_move is not None
        seat = self.to_move
        offer, self._offer = self._offer, None
        if move.kind == CLAIM:
            if self._capture(seat, *offer):
                return
        else:
            self.events.append(("decline", seat))
        if not self._hands[seat]:  # type: ignore[index]
            self._went_out(seat)
        elif move.kind == CLAIM:
            self._again(seat)
        else:
            self._advance(seat)

    def _capture(self, seat: int, points: int, taken: tuple[int, ...]) -> bool:
        """Take the tiles at `taken` off the line and score them; True when that
        ended the match (the target reached)."""
        line = self._line
        ts = self.ts
        tids = [tile_id(*line[i]) for i in taken]
        front = 0  # tiles taken from the left end: the first tile changes row parity
        while front in taken:
            front += 1
        if front % 2:
            self._first_top = not self._first_top
        for i in sorted(taken, reverse=True):
            del line[i]
        if line:
            self.left, self.right = line[0][0], line[-1][1]
        else:
            self.left = self.right = -1
            self._first_top = True
        for t in tids:
            self._sleeping |= 1 << t
        self._piles[seat].extend(tids)
        names = "+".join(ts.names[t] for t in tids)
        return self.add_points(seat, points, f"capture {names}")

    def _again(self, seat: int) -> None:
        """The capturer plays again: lead on an empty line, else play, or draw
        until able (pass when the stock is empty) as at any turn."""
        if self.left < 0 or self._hands[seat] & (self.vmask[self.left] | self.vmask[self.right]):
            self.to_move = seat
        else:
            self._advance(seat - 1 if seat else self.n - 1)

    # -- what players see --------------------------------------------------------

    def chain(self) -> tuple[list[str], int | None]:
        """The line, left half first, and the index of the last tile laid if
        it is still there (a capture takes it)."""
        line = self._line
        last = None
        laid = [m for _, m in self.played[-2:] if m.kind not in (CLAIM, PASS)]
        if laid and line:
            tid = laid[-1].tid
            i = 0 if laid[-1].end == LEFT else len(line) - 1
            if tile_id(*line[i]) == tid:
                last = i
        return [f"{a}-{b}" for a, b in line], last

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        """The captured piles (how many tiles, how many points: they lie face
        down) and the long-side layout."""
        pips = self.ts.pips
        piles = [{"tiles": len(p), "points": sum(pips[t] for t in p)} for p in self._piles]
        line, last = self.chain()
        offer = None
        if self._offer is not None:
            offer = {"seat": self.to_move, "points": self._offer[0],
                     "tiles": [f"{a}-{b}" for a, b in (self._line[i] for i in self._offer[1])]}
        return {
            "capture": offer,
            "captured": piles,
            "layout": {"kind": "canton", "chain": line, "last": last,
                       "first_top": self._first_top, "piles": piles},
        }
