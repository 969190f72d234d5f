"""The searcher behind the `hard` and `expert` levels: playouts of imagined deals.

At each decision with more than one move, the searcher imagines the tiles it cannot see:
`game.determinized(seat, rng)` deals them again at random as its seat may know them (hand
sizes, stock size, the tiles a seat showed it lacks by passing), never from where they
really are.  In each imagined deal it plays every legal move, then plays the round out
with a fast policy for every seat (claims first, then the heaviest tile), and scores the
round for its seat or team under the variant's own scoring: the points its side gained
minus the best other side's, plus a bonus for winning the round.  The move with the best
total over all the deals is played.  Every move is tried on the same deals and the same
playout seeds, so the comparison is between moves, not between lucky draws.

It works through the core interface; a family whose matches have no `determinized` is
played by that family's greedy player instead.  The choice depends only on the seat's view
and the player's seed (tests/test_ai_search.py proves it on two games that differ only in
how the unseen tiles are split).
"""

from __future__ import annotations

import random
from typing import Any

from ..moves import CLAIM, MUGGINS, PLAY, Move
from .generic import GreedyPlayer, claim_of

WIN_BONUS = 10.0  # a round won is worth this many points of margin


class SearchPlayer:
    """Determinized playouts: `worlds` imagined deals, every legal move tried in each."""

    name = "search"
    worlds = 24

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
        for _ in range(self.worlds):
            world = game.determinized(seat, rng)
            seed = rng.getrandbits(32)
            for i, move in enumerate(moves):
                g = world.copy()
                g.play(move)
                totals[i] += playout(g, unit, list(game.totals), pips, random.Random(seed))
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return moves[best]


class HardPlayer(SearchPlayer):
    name = "hard"
    worlds = 24


class ExpertPlayer(SearchPlayer):
    name = "expert"
    worlds = 96


def playout(g: Any, unit: int, before: list[int], pips: Any, rng: random.Random) -> float:
    """Play the round of `g` out with `fast_move` for every seat; the side `unit`'s score."""
    round_no = g.round_no
    plain = not g.hooked
    while not g.over and g.round_no == round_no:
        moves = g.legal_moves()
        g.play(blocking_move(g, moves, pips, rng) if plain and len(moves) > 1
               else fast_move(moves, pips, rng))
    return round_value(g, unit, before)


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
