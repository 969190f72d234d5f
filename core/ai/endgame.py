"""The expert's endgame: alpha-beta on one imagined deal once the position is small.

A plain line game (no hooks: no claims, no spinner, no scoring on the ends) is a game of
perfect information inside an imagined deal: every hand is known there, and so is the
order of the stock.  `solvable` says when the searcher may solve it exactly (few tiles in
hand and stock, and a stock only when a seat that cannot play draws until a tile fits),
`Endgame` does it on a compact state (the hands as bitmasks, the two open ends, the seat to
move, the passes in a row, the tiles left to draw) with the engine's rules of a plain round:
a seat that cannot play draws until a tile fits and lays it, or passes once the stock is
empty; the round ends when a seat goes out (its side wins) or when every seat has passed in
a row (the lowest count wins, by seat, or summed by team).  tests/test_ai_search.py checks
it against the engine, draws included.

The value is the share of the round the side wins: 1 won, -1 lost, 0 shared.
"""

from __future__ import annotations

from typing import Any

from ..line.engine import UNTIL

NODE_LIMIT = 20_000  # an imagined deal that needs more is played out instead


class TooBig(Exception):
    """The position needs more nodes than allowed (`NODE_LIMIT`, or what is left of the
    decision's budget)."""


def solvable(g: Any, max_tiles: int) -> bool:
    """True when `g` is a plain round with at most `max_tiles` in hand and in the stock,
    and no stock unless a seat that cannot play draws until a tile fits."""
    if g.hooked or g.over or g.left < 0:
        return False
    rules = g.rules
    if rules.eliminate or rules.strict or rules.chain_turns or not all(g.active):
        return False
    stock = g.stock
    if stock and rules.draw != UNTIL:
        return False
    return sum(h.bit_count() for h in g.hands) + len(stock) <= max_tiles


class Endgame:
    """A plain round's tree, searched with alpha-beta for the side of `unit`."""

    def __init__(self, g: Any, unit: int, limit: int = NODE_LIMIT) -> None:
        self.limit = limit
        self.n = g.n
        self.vmask = g.vmask
        self.hi, self.lo = g.ts.hi, g.ts.lo
        self.pips = g.ts.pips
        teams = g.rules.teams
        self.teams = teams
        self.side = [g.team_of[s] if teams else s for s in range(g.n)]
        self.mine = [self.side[s] == unit for s in range(g.n)] if teams else \
            [s == unit for s in range(g.n)]
        self.count_tiles = g.rules.count == "tiles"
        self.nodes = 0

    def value_after(self, g: Any) -> float:
        """The exact value of `g` (a position after the searcher's move) for its side."""
        self.stock = g.stock  # drawn from the end (the engine's order), never changed here
        return self._search(list(g.hands), g.left, g.right, g.to_move, 0, -2.0, 2.0,
                            len(self.stock))

    def _blocked(self, hands: list[int]) -> float:
        if self.count_tiles:
            counts = [h.bit_count() for h in hands]
        else:
            pips = self.pips
            counts = [sum(pips[t] for t in _ids(h)) for h in hands]
        if self.teams:
            totals = [sum(counts[s] for s in team) for team in self.teams]
            best = min(totals)
            winners = {i for i, x in enumerate(totals) if x == best}
            ours = self.side[self.mine.index(True)]
        else:
            best = min(counts)
            winners = {s for s, x in enumerate(counts) if x == best}
            ours = self.mine.index(True)
        if ours not in winners:
            return -1.0
        return 1.0 if len(winners) == 1 else 0.0

    def _search(self, hands: list[int], left: int, right: int, seat: int, passes: int,
                alpha: float, beta: float, drawn: int) -> float:
        """`drawn`: how many tiles are left in the stock (its first `drawn` entries)."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise TooBig
        n = self.n
        vmask = self.vmask
        hand = hands[seat]
        playable = vmask[left] | vmask[right]
        fits = hand & playable
        nxt = seat + 1 if seat + 1 < n else 0
        if not fits and drawn:  # draw until a tile fits (or the stock is empty)
            before = hand
            hand, drawn = draw_until(self.stock, drawn, hand, playable)
            fits = hand & playable
            hands[seat] = hand
            try:
                if fits:  # it lays the tile it drew
                    return self._lay(hands, left, right, seat, hand, fits, alpha, beta, drawn)
                return self._search(hands, left, right, nxt, 1, alpha, beta, drawn)
            finally:
                hands[seat] = before
        if not fits:
            if passes + 1 >= n:
                return self._blocked(hands)
            return self._search(hands, left, right, nxt, passes + 1, alpha, beta, drawn)
        return self._lay(hands, left, right, seat, hand, fits, alpha, beta, drawn)

    def _lay(self, hands: list[int], left: int, right: int, seat: int, hand: int, fits: int,
             alpha: float, beta: float, drawn: int) -> float:
        """The best of `seat`'s tiles that fit (`fits`), for its side."""
        n = self.n
        nxt = seat + 1 if seat + 1 < n else 0
        maximize = self.mine[seat]
        hi, lo, pips = self.hi, self.lo, self.pips
        children = []
        for t in _ids(fits):
            a, b = hi[t], lo[t]
            if a == left or b == left:
                children.append((pips[t], t, b if a == left else a, right))
            if (a == right or b == right) and left != right:
                children.append((pips[t], t, left, b if a == right else a))
        children.sort(reverse=True)
        best = -2.0 if maximize else 2.0
        for _, t, new_left, new_right in children:
            rest = hand & ~(1 << t)
            if not rest:
                return 1.0 if maximize else -1.0  # going out wins: nothing beats it
            hands[seat] = rest
            v = self._search(hands, new_left, new_right, nxt, 0, alpha, beta, drawn)
            hands[seat] = hand
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        return best


def draw_until(stock: list[int], drawn: int, hand: int, playable: int) -> tuple[int, int]:
    """A seat that holds nothing of `playable` draws from the end of the first `drawn`
    tiles of `stock` until one fits or none is left: its hand then, and the tiles left."""
    while drawn:
        drawn -= 1
        t = stock[drawn]
        hand |= 1 << t
        if (playable >> t) & 1:
            break
    return hand, drawn


def _ids(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
