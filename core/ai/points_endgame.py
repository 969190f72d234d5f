"""The expert's endgame in a two-seat line game scored in points: alpha-beta on one imagined
deal.

Inside an imagined deal the position is of perfect information (every hand is known there,
and so is the order of the stock), so once few tiles are left it can be searched to the end
of the round.  Two kinds of game are solved, told apart by `layout_of`:

* the games that score the count of their ends after every tile (Muggins, Threes, Fives and
  Threes): each tile scores the variant's `worth` of the count it leaves (a double lying
  across an end counts twice), a side that reaches the target ends the match there, and
  the round's lone winner scores the other hand's pips to the nearest `unit`, per `unit`;
* Matador: touching halves total 7 (`core.line.end_points.Sum7Join`, whatever its options),
  a seat whose only plays are matadors may draw instead, and the round's lone winner scores
  the pips left in the other hand.

Both are read as tables of end codes (`Layout`): what an end shows, as the engine keeps it
(Matador's codes; in a count game the pips plus whether a double lies across), which tiles
go on it, and the code it shows once a tile is laid.  `points_solvable` says when a
position may be solved (its lead laid, a seat that cannot play drawing until a tile fits,
few tiles in hand and stock); `PointsEndgame` searches it on a compact state (the two hands
as bitmasks, the two end codes, the seat to move, the passes in a row, the tiles left to
draw, the match totals) with the engine's rules of the round.

The value is what the searcher's playouts give the finished round
(`core.ai.generic.round_value`): the margin of points gained since the decision, plus
`WIN_BONUS` for the round won (half of it for a round shared).  Two seats make the game
zero-sum (what one gains in margin and bonus the other loses), so it is searched as
negamax: each seat maximizes its own value, the other's negation.
tests/test_ai_points_endgame.py checks it against a search through the engine itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..line.engine import UNTIL, LineRound
from ..scoring import nearest
from .endgame import TooBig, _ids, draw_until
from .generic import WIN_BONUS


@dataclass(frozen=True, slots=True)
class Layout:
    """A two-ended line's rules as tables of end codes."""

    after: tuple[tuple[int, ...], ...]  # [code][tile]: the code left once laid there, or -1
    fit: tuple[int, ...]  # [code]: the tiles that go on that end
    side: tuple[int, ...]  # [code]: two ends showing the same side take a tile on the left only
    points: tuple[tuple[int, ...], ...] | None  # [left][right]: what a tile leaving them scores
    plain: tuple[int, ...] | None  # Matador: [code] the tiles that join it ordinarily
    step: int  # the lone winner scores the other's pips to the nearest step, per step


_LAYOUTS: dict[Any, Layout] = {}


def layout_of(g: Any) -> Layout | None:
    """The tables of `g`'s game when it is one `PointsEndgame` knows, else None."""
    join = getattr(g, "join", None)
    worth = getattr(g.variant, "worth", None)
    mrules = g.mrules
    if join is not None and hasattr(g, "plain"):
        if mrules.scoring != "pips" or mrules.round_to != 1 or mrules.mid_round:
            return None
        key: Any = (join, g.ts.max_pip)
    elif worth is not None and callable(getattr(g, "count", None)) \
            and not hasattr(g, "board") and mrules.scoring == "none":
        key = (worth, g.variant.unit, g.ts.max_pip)
    else:
        return None
    if _hook(g._went_out) is not LineRound._went_out \
            or _hook(g._blocked) is not LineRound._blocked:
        return None  # Dominos K: its rounds go on after a seat goes out
    layout = _LAYOUTS.get(key)
    if layout is None:
        layout = _LAYOUTS[key] = (_sum7_layout(g, join) if join is not None
                                  else _count_layout(g, worth, g.variant.unit))
    return layout


def _hook(method: Any) -> Any:
    return getattr(method, "__func__", None)


def _count_layout(g: Any, worth: Any, unit: int) -> Layout:
    """Codes `v + base * double`: the pips an end shows, and a double lying across it."""
    ts = g.ts
    base = ts.max_pip + 1
    codes = range(2 * base)
    after = tuple(tuple(_count_after(ts.hi[t], ts.lo[t], c % base, base) for t in ts.ids)
                  for c in codes)
    shown = [(c % base) * (2 if c >= base else 1) for c in codes]
    points = tuple(tuple(worth(shown[x] + shown[y]) for y in codes) for x in codes)
    fit = tuple(g.vmask[c % base] for c in codes)  # the engine's: the tiles showing v
    return Layout(after, fit, tuple(c % base for c in codes), points, None, unit)


def _count_after(a: int, b: int, v: int, base: int) -> int:
    if a != v and b != v:
        return -1
    return (b if a == v else a) + (base if a == b else 0)


def _sum7_layout(g: Any, join: Any) -> Layout:
    """Matador's own end codes (`Sum7Join`), and the tiles that join each ordinarily."""
    ts = g.ts
    codes = range(len(g.vmask))
    after = tuple(tuple(_lay_code(join, ts.hi[t], ts.lo[t], c) for t in ts.ids)
                  for c in codes)
    return Layout(after, tuple(g.vmask), tuple(codes), None, tuple(g.plain), 1)


def _lay_code(join: Any, a: int, b: int, code: int) -> int:
    laid = join.lay(a, b, code)
    return -1 if laid is None else laid[2]


def points_solvable(g: Any, max_tiles: int) -> bool:
    """True when `g` is a two-seat round of a game `layout_of` knows, after its lead, with
    at most `max_tiles` in hand and in the stock."""
    if not g.hooked or g.over or g.left < 0 or g.n != 2:
        return False
    rules, mrules = g.rules, g.mrules
    if rules.eliminate or rules.strict or rules.chain_turns or rules.teams \
            or not all(g.active) or rules.count != "pips":
        return False
    if mrules.countdown or mrules.reach != "wins":
        return False
    stock = g.stock
    if stock and rules.draw != UNTIL:
        return False
    layout = layout_of(g)
    if layout is None:
        return False
    if layout.points is not None:
        lt, rt = g.end_tiles()
        if lt == rt:  # the lead alone: its count is its pips
            return False
    return sum(h.bit_count() for h in g.hands) + len(stock) <= max_tiles


def end_codes(g: Any, layout: Layout) -> tuple[int, int]:
    """The codes of `g`'s two ends in `layout`."""
    if layout.points is None:
        return g.left, g.right
    base = g.ts.max_pip + 1
    hi, lo = g.ts.hi, g.ts.lo
    lt, rt = g.end_tiles()
    return (g.left + (base if hi[lt] == lo[lt] else 0),
            g.right + (base if hi[rt] == lo[rt] else 0))


class PointsEndgame:
    """A two-seat round's tree, searched with alpha-beta in points for the seat `unit`,
    from the match totals `before` (those of the decision)."""

    def __init__(self, g: Any, unit: int, before: list[int], limit: int) -> None:
        layout = layout_of(g)
        assert layout is not None
        self.layout = layout
        self.limit = limit
        self.unit = unit
        self.pips = g.ts.pips
        self.reached = g.mrules.reached
        self.before = before
        self.nodes = 0

    def value_after(self, g: Any) -> float:
        """The exact value of `g` (a position after the searcher's move) for `unit`."""
        self.stock = g.stock  # drawn from the end (the engine's order), never changed here
        left, right = end_codes(g, self.layout)
        value = self._search(list(g.hands), left, right, g.to_move, 0, -1e9, 1e9,
                             len(self.stock), list(g.totals))
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
        step = self.layout.step
        points = nearest(sum(self.pips[t] for t in _ids(hands[1 - seat])), step) // step
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

    def _search(self, hands: list[int], left: int, right: int, seat: int, passes: int,
                alpha: float, beta: float, drawn: int, totals: list[int]) -> float:
        """The value for `seat`, the seat to move (negamax: the other's is its negation).
        `drawn`: how many tiles are left in the stock (its first `drawn` entries)."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise TooBig
        layout = self.layout
        hand = hands[seat]
        playable = layout.fit[left] | layout.fit[right]
        if drawn and not hand & playable:  # draw until a tile fits (or the stock is empty)
            hands[seat], drawn = draw_until(self.stock, drawn, hand, playable)
            try:
                return self._search(hands, left, right, seat, 0, alpha, beta, drawn, totals)
            finally:
                hands[seat] = hand
        fits = hand & playable
        if not fits:  # it passes
            if passes:
                value = self._blocked(hands, totals)
                return value if seat == self.unit else -value
            return -self._search(hands, left, right, 1 - seat, 1, -beta, -alpha, drawn,
                                 totals)
        children = self._children(fits, left, right)
        plain = layout.plain
        if plain is not None and drawn and not hand & (plain[left] | plain[right]):
            children.append((-1, 0, -1, left, right))  # Matador: draw instead, last
        sign = 1.0 if seat == self.unit else -1.0
        best = -1e9
        for points, _, t, nl, nr in children:
            if t < 0:  # it draws until a tile joins ordinarily, and plays on
                hands[seat], rest = draw_until(self.stock, drawn, hand,
                                               plain[left] | plain[right])  # type: ignore[index]
                try:
                    v = self._search(hands, left, right, seat, 0, alpha, beta, rest, totals)
                finally:
                    hands[seat] = hand
            else:
                v = self._after(hands, hand, t, nl, nr, seat, points, sign, alpha, beta,
                                drawn, totals)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def _children(self, fits: int, left: int, right: int) -> list[tuple[int, int, int, int, int]]:
        """(points, pips, tile, left, right) for each place a tile of `fits` may go, the
        best scoring and heaviest first."""
        layout = self.layout
        after_l, after_r = layout.after[left], layout.after[right]
        both = layout.side[left] != layout.side[right]
        points = layout.points
        pips = self.pips
        children = []
        for t in _ids(fits):
            nl = after_l[t]
            if nl >= 0:
                children.append((points[nl][right] if points else 0, pips[t], t, nl, right))
            if both:
                nr = after_r[t]
                if nr >= 0:
                    children.append((points[left][nr] if points else 0, pips[t], t, left, nr))
        children.sort(reverse=True)
        return children

    def _after(self, hands: list[int], hand: int, t: int, nl: int, nr: int, seat: int,
               points: int, sign: float, alpha: float, beta: float, drawn: int,
               totals: list[int]) -> float:
        """The value for `seat` of laying tile `t` so that the ends show `nl` and `nr`."""
        after = totals
        if points:
            after = totals[:]
            after[seat] += points
        hands[seat] = hand & ~(1 << t)
        try:
            if points and self.reached(after[seat]):
                return sign * self._end(after, (seat,))
            if not hands[seat]:
                return sign * self._won(hands, after, seat)
            return -self._search(hands, nl, nr, 1 - seat, 0, -beta, -alpha, drawn, after)
        finally:
            hands[seat] = hand
