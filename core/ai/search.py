"""The searcher behind the `hard` and `expert` levels: playouts of imagined deals.

At each decision with more than one move, the searcher imagines the tiles it cannot see:
`game.determinized(seat, rng)` deals them again at random as its seat may know them (hand
sizes, stock size, the tiles a seat showed it lacks by passing), never from where they
really are.  In each imagined deal it plays every legal move, then plays the round out
with a fast policy for every seat (claims first; in a plain game the tile that blocks the
next opponent, in a game that scores the count of the ends the tile that scores most; then
the heaviest tile), and scores the round for its seat or team under the variant's own
scoring: the points its side gained minus the best other side's, plus a bonus for winning
the round.  `expert` also solves small plain positions exactly in each imagined deal
(`core.ai.endgame`) and, in a plain round, aims at winning it rather than at points.  The
move with the best total over all the deals is played.  Every move is tried on the same
deals and the same playout seeds, so the comparison is between moves, not between lucky
draws.

It works through the core interface; a family whose matches have no `determinized` is
played by that family's greedy player instead.  The choice depends only on the seat's view
and the player's seed (tests/test_ai_search.py proves it on two games that differ only in
how the unseen tiles are split).
"""

from __future__ import annotations

import random
from typing import Any

from ..moves import CLAIM, MUGGINS, PLAY, Move
from .endgame import NODE_LIMIT, Endgame, TooBig, solvable
from .generic import GreedyPlayer, claim_of

WIN_BONUS = 10.0  # a round won is worth this many points of margin
NODE_BUDGET = 300_000  # exact endgames: nodes one decision may search in all


class SearchPlayer:
    """Determinized playouts: `worlds` imagined deals, every legal move tried in each.

    `endgame_tiles` > 0 solves an imagined deal exactly (`core.ai.endgame`) once a plain
    round has no stock and at most that many tiles in hand; `win_utility` scores a plain
    round (no points on the ends) by the share of the round won, the margin of points
    breaking ties, rather than by the margin with a bonus for the win."""

    name = "search"
    worlds = 24
    exact_worlds = 24
    endgame_tiles = 0
    win_utility = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._fallback = GreedyPlayer(seed)

    def choose(self, game: Any) -> Move:
        moves = game.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        claim = claim_of(moves)
        if claim is not None:
            return claim
        if len(moves) == 1:
            return moves[0]
        if not hasattr(game, "determinized"):
            return self._fallback.choose(game)
        seat = game.to_move
        unit = game.scorer_of(seat)
        totals = [0.0] * len(moves)
        rng = self.rng
        pips = game.ts.pips
        before = list(game.totals)
        plain = not game.hooked
        score = win_value if self.win_utility and plain else round_value
        exact = self.endgame_tiles if plain else 0
        worlds = self.worlds
        budget = NODE_BUDGET
        if exact and solvable(game, self.endgame_tiles + 1):
            worlds = min(worlds, self.exact_worlds)
        for _ in range(worlds):
            world = game.determinized(seat, rng)
            seed = rng.getrandbits(32)
            for i, move in enumerate(moves):
                g = world.copy()
                g.play(move)
                value = None
                if exact and g.round_no == game.round_no and not g.over \
                        and solvable(g, exact):
                    solver = Endgame(g, unit, min(NODE_LIMIT, budget))
                    try:
                        value = solver.value_after(g)
                    except TooBig:
                        exact = 0  # too big for this decision: playouts from now on
                    budget -= solver.nodes
                if value is None:
                    value = playout(g, unit, before, pips, random.Random(seed), score)
                totals[i] += value
        best = max(range(len(moves)), key=lambda i: (totals[i], _weight(moves[i], pips), -i))
        return moves[best]


class HardPlayer(SearchPlayer):
    name = "hard"
    worlds = 32


class ExpertPlayer(SearchPlayer):
    """More imagined deals, exact endgames, and the round's win as the aim of a plain
    round."""

    name = "expert"
    worlds = 128
    exact_worlds = 32  # when the position is small enough to solve every deal exactly
    endgame_tiles = 20
    win_utility = True


def _weight(move: Move, pips: Any) -> int:
    return pips[move.tid] if move.kind == PLAY else -1


def playout(g: Any, unit: int, before: list[int], pips: Any, rng: random.Random,
            score: Any = None) -> float:
    """Play the round of `g` out with `fast_move` for every seat; the side `unit`'s value
    (`score`, by default `round_value`)."""
    round_no = g.round_no
    plain = not g.hooked
    worth = ends_worth(g)
    while not g.over and g.round_no == round_no:
        moves = g.legal_moves()
        if len(moves) == 1:
            g.play(moves[0])
        elif plain:
            g.play(blocking_move(g, moves, pips, rng))
        elif worth is not None:
            g.play(points_move(g, moves, pips, rng, worth))
        else:
            g.play(fast_move(moves, pips, rng))
    return (score or round_value)(g, unit, before)


def blocking_move(g: Any, moves: list[Move], pips: Any, rng: random.Random) -> Move:
    """In a plain line game (every hand known in an imagined deal): the tile that leaves
    the next seat unable to play if it can (when that seat is not a partner), then the
    heaviest, doubles first on a tie."""
    n = g.n
    seat = g.to_move
    nxt = seat + 1 if seat + 1 < n else 0
    foe = g.team_of[nxt] != g.team_of[seat] or not g.rules.teams
    hand_next = g.hands[nxt]
    vmask = g.vmask
    hi, lo = g.ts.hi, g.ts.lo
    left, right = g.left, g.right
    best: Move | None = None
    weight = -1.0
    for m in moves:
        tid = m.tid
        a, b = hi[tid], lo[tid]
        if m.end < 0:
            ends = (a, b)
        elif m.end == 0:
            ends = (b if a == left else a, right)
        else:
            ends = (left, b if a == right else a)
        blocked = not hand_next & (vmask[ends[0]] | vmask[ends[1]])
        w = pips[tid] + (a == b) * 0.5 + rng.random() * 0.1
        if blocked:
            w += 20 if foe else -20
        if w > weight:
            best, weight = m, w
    return best if best is not None else moves[0]


def ends_worth(g: Any) -> Any:
    """A two-ended line game that scores the count of its ends after every tile (Muggins,
    Threes...): the variant's rule from a count to points; else None."""
    worth = getattr(g.variant, "worth", None)
    if worth is None or not callable(getattr(g, "count", None)) or hasattr(g, "board"):
        return None
    return worth


def points_move(g: Any, moves: list[Move], pips: Any, rng: random.Random, worth: Any) -> Move:
    """In a game that scores the count of its two ends: points on offer first, then the tile
    that scores the most, then the heaviest."""
    counts = counts_after(g, moves)
    best: Move | None = None
    weight = -1.0
    for m, count in zip(moves, counts, strict=True):
        if m.kind != PLAY:
            if m.kind in (CLAIM, MUGGINS):
                return m
            continue
        tid = m.tid
        w = worth(count) * 20 + pips[tid] + rng.random()
        if w > weight:
            best, weight = m, w
    return best if best is not None else moves[rng.randrange(len(moves))]


def counts_after(g: Any, moves: list[Move]) -> list[int]:
    """For each move of a two-ended line game, the count of its ends once the tile is laid
    (a double at an end counts twice, a lone opening tile its pips); -1 for other moves."""
    hi, lo = g.ts.hi, g.ts.lo
    left, right = g.left, g.right
    ld = rd = False
    if left >= 0:
        lt, rt = g.end_tiles()
        ld, rd = hi[lt] == lo[lt], hi[rt] == lo[rt]
    out = []
    for m in moves:
        if m.kind != PLAY:
            out.append(-1)
            continue
        a, b = hi[m.tid], lo[m.tid]
        if m.end < 0 or left < 0:
            out.append(a + b)
        elif m.end == 0:
            new = b if a == left else a
            out.append((new * 2 if a == b else new) + (right * 2 if rd else right))
        else:
            new = b if a == right else a
            out.append((left * 2 if ld else left) + (new * 2 if a == b else new))
    return out


def fast_move(moves: list[Move], pips: Any, rng: random.Random) -> Move:
    """Points on offer first, then the heaviest tile (a random one of the heaviest), else
    any other move (draw, pass, buy...)."""
    best: Move | None = None
    weight = -1
    for m in moves:
        kind = m.kind
        if kind == PLAY:
            w = pips[m.tid] * 2 + (rng.random() < 0.5)
            if w > weight:
                best, weight = m, w
        elif kind in (CLAIM, MUGGINS):
            return m
    return best if best is not None else moves[rng.randrange(len(moves))]


def round_value(g: Any, unit: int, before: list[int]) -> float:
    """What the finished round (or the round so far) is worth to the side `unit`: its points
    gained minus the best other side's, with the sign of the match (points count down, or
    reaching the target loses), plus `WIN_BONUS` when it won the round."""
    mrules = g.mrules
    sign = -1 if mrules.countdown else 1
    if mrules.reach == "loses":
        sign = -sign
    gains = [sign * (a - b) for a, b in zip(g.totals, before, strict=True)]
    mine = gains[unit]
    others = max((x for i, x in enumerate(gains) if i != unit), default=0)
    value = float(mine - others)
    if g.round_results:
        winners = g.round_results[-1]["winners"]
        if any(g.scorer_of(s) == unit for s in winners):
            value += WIN_BONUS / max(1, len(winners))
    return value


def win_value(g: Any, unit: int, before: list[int]) -> float:
    """The share of the finished round the side `unit` won (1 alone, -1 not at all, 0
    shared), the margin of points (`round_value`) breaking ties."""
    margin = round_value(g, unit, before)
    if not g.round_results:
        return margin / 1000
    winners = g.round_results[-1]["winners"]
    ours = sum(1 for s in winners if g.scorer_of(s) == unit)
    share = 1.0 if ours == len(winners) else (-1.0 if not ours else 0.0)
    return share + margin / 1000
