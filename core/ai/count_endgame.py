"""The expert's endgame in a game that scores the count of its ends (Muggins, Threes, Fives
and Threes): alpha-beta on one imagined deal, in points.

Inside an imagined deal the position is of perfect information (every hand is known there,
and so is the order of the stock), so once few tiles are left it can be searched to the end
of the round.  `count_solvable` says when (two seats, a two-ended line scored after every
tile by the variant's `worth` of the count of its ends, a seat that cannot play drawing
until a tile fits); `CountEndgame` does it on a compact state: the two hands as bitmasks,
the two open ends and whether a double lies across each, the seat to move, the passes in a
row, the tiles left to draw, and the margin of points so far.  It applies the engine's rules
of such a round: each tile laid scores the count of the ends it leaves, a side that reaches
the target ends the match there, a seat that goes out or has the lower count of pips when
every seat has passed wins the round and scores the other's pips (to the nearest `unit`,
per `unit`).

The value is what the searcher's playouts give the finished round
(`core.ai.generic.round_value`): the margin of points gained since the decision, plus
`WIN_BONUS` for the round won (half of it for a round shared).  Two seats make the game
zero-sum (what one gains in margin and bonus the other loses), so it is searched as
negamax: each seat maximizes its own value, the other's negation.  tests/test_ai_count_endgame.py
checks it against a search through the engine itself.
"""

from __future__ import annotations

from typing import Any

from ..line.engine import UNTIL
from ..scoring import nearest
from .endgame import TooBig, _ids, draw_until
from .generic import WIN_BONUS


def count_solvable(g: Any, max_tiles: int) -> bool:
    """True when `g` is a two-seat round of a count-of-the-ends game after its lead, with
    at most `max_tiles` in hand and in the stock."""
    if not g.hooked or g.over or g.left < 0 or g.n != 2:
        return False
    worth = getattr(g.variant, "worth", None)
    if worth is None or not callable(getattr(g, "count", None)) or hasattr(g, "board"):
        return False
    rules, mrules = g.rules, g.mrules
    if rules.eliminate or rules.strict or rules.chain_turns or rules.teams \
            or not all(g.active) or rules.count != "pips" or g._extra_moves():
        return False
    if mrules.countdown or mrules.reach != "wins":
        return False
    stock = g.stock
    if stock and rules.draw != UNTIL:
        return False
    lt, rt = g.end_tiles()
    if lt == rt:  # the lead alone: its count is its pips
        return False
    return sum(h.bit_count() for h in g.hands) + len(stock) <= max_tiles


class CountEndgame:
    """A two-seat count-of-the-ends round's tree, searched with alpha-beta in points for
    the seat `unit`, from the match totals `before` (those of the decision)."""

    def __init__(self, g: Any, unit: int, before: list[int], limit: int) -> None:
        self.limit = limit
        self.unit = unit
        self.vmask = g.vmask
        self.hi, self.lo = g.ts.hi, g.ts.lo
        self.pips = g.ts.pips
        self.worth = g.variant.worth
        self.step = g.variant.unit
        self.mrules = g.mrules
        self.before = before
        self.nodes = 0

    def value_after(self, g: Any) -> float:
        """The exact value of `g` (a position after the searcher's move) for `unit`."""
        self.stock = g.stock  # drawn from the end (the engine's order), never changed here
        hi, lo = self.hi, self.lo
        lt, rt = g.end_tiles()
        totals = list(g.totals)
        value = self._search(list(g.hands), g.left, hi[lt] == lo[lt], g.right,
                             hi[rt] == lo[rt], g.to_move, 0, -1e9, 1e9, len(self.stock),
                             totals)
        return value if g.to_move == self.unit else -value

    def _end(self, totals: list[int], winners: tuple[int, ...]) -> float:
        u = self.unit
        before = self.before
        value = float((totals[u] - before[u]) - (totals[1 - u] - before[1 - u]))
        if u in winners:
            value += WIN_BONUS / len(winners)
        return value

    def _won(self, hands: list[int], totals: list[int], seat: int) -> float:
        """`seat` won the round alone: it scores the other's pips, then the round ends."""
        pips = sum(self.pips[t] for t in _ids(hands[1 - seat]))
        points = nearest(pips, self.step) // self.step
        if points:
            totals = totals[:]
            totals[seat] += points
        return self._end(totals, (seat,))

    def _blocked(self, hands: list[int], totals: list[int]) -> float:
        pips = self.pips
        a, b = (sum(pips[t] for t in _ids(h)) for h in hands)
        if a == b:
            return self._end(totals, (0, 1))
        return self._won(hands, totals, 0 if a < b else 1)

    def _search(self, hands: list[int], left: int, ld: bool, right: int, rd: bool,
                seat: int, passes: int, alpha: float, beta: float, drawn: int,
                totals: list[int]) -> float:
        """The value for `seat`, the seat to move (negamax: the other's is its negation).
        `drawn`: how many tiles are left in the stock (its first `drawn` entries)."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise TooBig
        hand = hands[seat]
        playable = self.vmask[left] | self.vmask[right]
        if drawn and not hand & playable:  # draw until a tile fits (or the stock is empty)
            hands[seat], drawn = draw_until(self.stock, drawn, hand, playable)
            try:
                return self._search(hands, left, ld, right, rd, seat, 0, alpha, beta, drawn,
                                    totals)
            finally:
                hands[seat] = hand
        fits = hand & playable
        if not fits:  # it passes
            if passes:
                value = self._blocked(hands, totals)
                return value if seat == self.unit else -value
            return -self._search(hands, left, ld, right, rd, 1 - seat, 1, -beta, -alpha,
                                 drawn, totals)
        hi, lo, worth = self.hi, self.lo, self.worth
        children = []
        for t in _ids(fits):
            a, b = hi[t], lo[t]
            dbl = a == b
            if a == left or b == left:
                nl = b if a == left else a
                count = (nl * 2 if dbl else nl) + (right * 2 if rd else right)
                children.append((worth(count), self.pips[t], t, nl, dbl, right, rd))
            if (a == right or b == right) and left != right:
                nr = b if a == right else a
                count = (left * 2 if ld else left) + (nr * 2 if dbl else nr)
                children.append((worth(count), self.pips[t], t, left, ld, nr, dbl))
        children.sort(reverse=True)
        sign = 1.0 if seat == self.unit else -1.0
        best = -1e9
        for points, _, t, nl, nld, nr, nrd in children:
            after = totals
            if points:
                after = totals[:]
                after[seat] += points
            hands[seat] = hand & ~(1 << t)
            try:
                if points and self.mrules.reached(after[seat]):
                    v = sign * self._end(after, (seat,))
                elif not hands[seat]:
                    v = sign * self._won(hands, after, seat)
                else:
                    v = -self._search(hands, nl, nld, nr, nrd, 1 - seat, 0, -beta, -alpha,
                                      drawn, after)
            finally:
                hands[seat] = hand
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

