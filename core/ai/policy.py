"""The searcher's playout policies: how every seat plays on in an imagined deal.

Each policy picks a move for the seat to move of a line game from what that seat could
know there: its own hand, the ends, and the tiles it cannot see (the other hands, the stock
and the sleeping tiles, together), less those the next seat showed it lacks (`notin`).  It
does not read the next hand, so the playouts play as a real player would, and a move that
only wins because a playout peeked is not preferred.

* `look_move` (a plain two-ended game: classic, block, partnership...): the normal level's
  one-ply reading, cheaply: the ends left to the next seat when it is an opponent (none of
  the tiles it may hold fits: best; else fewer is better), the seat's own tiles that still
  fit, then the heaviest tile, doubles first.  Going out is taken at once.
* `count_move` (a two-ended game that scores the count of its ends: Muggins, Threes...):
  the points a tile makes, less part of the most the next seat, an opponent, could score
  next with a tile it may hold, then `look_move`'s reading.
* `cross_move_of` (a game scored on the count of a spinner's ends: All Fives): the points
  a tile makes, then the heaviest tile.
"""

from __future__ import annotations

import random
from typing import Any

from ..moves import CLAIM, MUGGINS, PLAY, Move

BLOCK = 3.0  # the next seat, an opponent, may hold nothing that fits the ends left
EACH = 0.25  # less for each tile it may hold that fits
KEEP = 0.5  # more for each of the seat's own tiles that still fits (up to 3)
THREAT = 0.5  # points games: the share of the opponent's best reply counted against a move


def unseen_by(g: Any, seat: int) -> int:
    """The tiles `seat` cannot see (other hands, stock, sleeping), as a bitmask."""
    hands = g._hands
    mask = g._sleeping
    for s in range(g.n):
        if s != seat:
            mask |= hands[s]
    for t in g._stock:
        mask |= 1 << t
    return mask


def _next_foe(g: Any, seat: int) -> tuple[int, bool]:
    n = g.n
    nxt = seat + 1 if seat + 1 < n else 0
    return nxt, not g.rules.teams or g.team_of[nxt] != g.team_of[seat]


def look_move(g: Any, moves: list[Move], pips: Any, rng: random.Random) -> Move:
    """A plain two-ended game: block the next opponent, keep tiles that fit, lay heavy."""
    seat = g.to_move
    hand = g._hands[seat]
    nxt, foe = _next_foe(g, seat)
    foe_may = unseen_by(g, seat) & ~g.notin[nxt]
    vmask = g.vmask
    hi, lo = g.ts.hi, g.ts.lo
    left, right = g.left, g.right
    best = moves[0]
    weight = -1e9
    for m in moves:
        tid = m.tid
        if tid < 0:
            continue
        rest = hand & ~(1 << tid)
        if not rest:
            return m
        a, b = hi[tid], lo[tid]
        end = m.end
        if end < 0:
            new_l, new_r = a, b
        elif end == 0:
            new_l, new_r = (b if a == left else a), right
        else:
            new_l, new_r = left, (b if a == right else a)
        ends = vmask[new_l] | vmask[new_r]
        value = KEEP * min((rest & ends).bit_count(), 3)
        if foe:
            fits = (foe_may & ends).bit_count()
            value += BLOCK if not fits else -EACH * fits
        w = value * 100 + pips[tid] + (a == b) * 0.5 + rng.random() * 0.1
        if w > weight:
            best, weight = m, w
    return best


def count_move(g: Any, moves: list[Move], pips: Any, rng: random.Random, worth: Any) -> Move:
    """A two-ended game scoring the count of its ends: points now, less part of the next
    opponent's best reply, then `look_move`'s reading of the ends."""
    for m in moves:
        if m.kind in (CLAIM, MUGGINS):
            return m
    seat = g.to_move
    hand = g._hands[seat]
    nxt, foe = _next_foe(g, seat)
    foe_may = unseen_by(g, seat) & ~g.notin[nxt] if foe else 0
    vmask = g.vmask
    hi, lo = g.ts.hi, g.ts.lo
    left, right = g.left, g.right
    ld, rd = doubles_at_ends(g)
    best = None
    weight = -1e9
    for m in moves:
        if m.kind != PLAY:
            continue
        tid = m.tid
        new_l, nld, new_r, nrd = ends_after(tid, m.end, left, ld, right, rd, hi, lo)
        count = _count_after(m, left, ld, right, rd, hi, lo)
        rest = hand & ~(1 << tid)
        ends = vmask[new_l] | vmask[new_r]
        value = worth(count) * 4.0
        if foe:
            threat = 0
            fits = foe_may & ends
            k = fits.bit_count()
            while fits:
                low = fits & -fits
                fits ^= low
                t = low.bit_length() - 1
                ta, tb = hi[t], lo[t]
                td = ta == tb
                if ta == new_l or tb == new_l:
                    o = tb if ta == new_l else ta
                    c = (o * 2 if td else o) + (new_r * 2 if nrd else new_r)
                    threat = max(threat, worth(c))
                if ta == new_r or tb == new_r:
                    o = tb if ta == new_r else ta
                    c = (new_l * 2 if nld else new_l) + (o * 2 if td else o)
                    threat = max(threat, worth(c))
            value -= THREAT * 4.0 * threat
            value += BLOCK if not k else -EACH * k
        if not rest:
            value += 100.0
        value += KEEP * min((rest & ends).bit_count(), 3)
        w = value * 100 + pips[tid] + (hi[tid] == lo[tid]) * 0.5 + rng.random() * 0.1
        if w > weight:
            best, weight = m, w
    return best if best is not None else moves[rng.randrange(len(moves))]


def ends_after(tid: int, end: int, left: int, ld: bool, right: int, rd: bool, hi: Any,
               lo: Any) -> tuple[int, bool, int, bool]:
    """The two ends of a line (value, a double lies there) once tile `tid` is laid on
    `end` (a lead shows its two halves)."""
    a, b = hi[tid], lo[tid]
    if end < 0 or left < 0:
        return a, a == b, b, a == b
    if end == 0:
        return (b if a == left else a), a == b, right, rd
    return left, ld, (b if a == right else a), a == b


def _count(left: int, ld: bool, right: int, rd: bool) -> int:
    return (left * 2 if ld else left) + (right * 2 if rd else right)


def doubles_at_ends(g: Any) -> tuple[bool, bool]:
    """Whether the tile at the left end, and the one at the right end, is a double (both
    False on an empty line)."""
    if g.left < 0:
        return False, False
    hi, lo = g.ts.hi, g.ts.lo
    lt, rt = g.end_tiles()
    return hi[lt] == lo[lt], hi[rt] == lo[rt]


def counts_after(g: Any, moves: list[Move]) -> list[int]:
    """For each move of a two-ended line game, the count of its ends once the tile is laid
    (a double at an end counts twice, a lone opening tile its pips); -1 for other moves."""
    hi, lo = g.ts.hi, g.ts.lo
    left, right = g.left, g.right
    ld, rd = doubles_at_ends(g)
    return [_count_after(m, left, ld, right, rd, hi, lo) if m.kind == PLAY else -1
            for m in moves]


def _count_after(m: Move, left: int, ld: bool, right: int, rd: bool, hi: Any, lo: Any
                 ) -> int:
    tid = m.tid
    if m.end < 0 or left < 0:
        return hi[tid] + lo[tid]  # a lone tile: its pips, a double once
    return _count(*ends_after(tid, m.end, left, ld, right, rd, hi, lo))


def cross_move_of(g: Any, moves: list[Move], pips: Any, rng: random.Random,
                  scorer: Any) -> Move:
    """A spinner game scored on the count of its ends: the tile that scores most now
    (`cross_points`), then the heaviest; claims taken, other words only when alone."""
    best = None
    weight = -1e9
    board = g.board
    base = cross_base(board) if board.root >= 0 else None
    for m in moves:
        kind = m.kind
        if kind in (CLAIM, MUGGINS):
            return m
        if kind != PLAY:
            continue
        tid = m.tid
        points = scorer(cross_count(board, base, tid, m.end, g.ts)) if base is not None else 0
        w = points * 100 + pips[tid] * 2 + rng.random()
        if w > weight:
            best, weight = m, w
    return best if best is not None else moves[rng.randrange(len(moves))]


def cross_base(board: Any) -> tuple[list[int], list[bool], bool]:
    """Per arm of a spinner board: the value its tip shows (-1: no tile yet), whether a
    double lies there, and whether the spinner has been laid."""
    tips = [-1, -1, -1, -1]
    doubles = [False, False, False, False]
    for arm in range(4):
        chain = board.arms[arm]
        if chain:
            node = chain[-1]
            tips[arm] = node[2]
            doubles[arm] = node[1] == node[2]
    return tips, doubles, board.spinner >= 0


def cross_count(board: Any, base: tuple[list[int], list[bool], bool], tid: int, end: int,
                ts: Any) -> int:
    """The count of a spinner board's ends once tile `tid` is laid on arm `end` (the count
    `CrossBoard.count` gives after `lay`; a board with branches on doubles is not
    handled: it reads as no points)."""
    tips, doubles, spun = base
    a, b = ts.hi[tid], ts.lo[tid]
    if end < 0:  # the lead: its pips, a double once
        return a + b
    if end > 3:
        return -1
    inner = board.base[end] if tips[end] < 0 else tips[end]
    outer = b if a == inner else a
    if not spun:
        if a == b:  # the first double: it becomes the spinner, lying on this end
            other = 1 - end
            ov = board.base[other] if tips[other] < 0 else tips[other]
            return ov + a * 2
        other = 1 - end
        ov = board.base[other] if tips[other] < 0 else tips[other]
        return ov + outer
    tips = tips[:]
    doubles = doubles[:]
    tips[end] = outer
    doubles[end] = a == b
    total = 0
    if tips[0] < 0 or tips[1] < 0:
        total += ts.hi[board.spinner] * 2
    for arm in range(4):
        if tips[arm] >= 0:
            total += tips[arm] * 2 if doubles[arm] else tips[arm]
    return total
