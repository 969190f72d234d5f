"""The searcher behind the `hard` and `expert` levels: playouts of imagined deals.

At each decision with more than one move, the searcher imagines the tiles it cannot see:
`game.determinized(seat, rng)` deals them again at random as its seat may know them (hand
sizes, stock size, the tiles a seat showed it lacks by passing or drawing), never from
where they really are.  In each imagined deal it plays every move still in the race, then
plays the round out with the policy of the game (`core.ai.policy`: every seat plays from
what it could know there, reading the ends it leaves to the next opponent and, in a game
that scores the count of the ends, the points it makes and those it offers), and scores
the round for its seat or team under the variant's own scoring.  Every move is tried on
the same deals and the same playout seeds, so the comparison is between moves, not
between lucky draws; a move that trails the leader clearly is dropped, and the search
stops when one move is left or its budget of playout moves is spent (a count of moves, not
a clock: the same seed makes the same choice on any machine).  `expert` has three times
`hard`'s budget and also solves small positions exactly in each imagined deal: a plain
round's (`core.ai.endgame`) and a two-seat round's scored in points, the count of its
ends or Matador's (`core.ai.points_endgame`).

It works through the core interface; a family whose matches have no `determinized` is
played by that family's greedy player instead.  The choice depends only on the seat's view
and the player's seed (tests/test_ai_search.py proves it on two games that differ only in
how the unseen tiles are split).
"""

from __future__ import annotations

import random
from typing import Any

from ..line.end_points import SCORERS
from ..moves import CLAIM, MUGGINS, PLAY, Move
from .endgame import NODE_LIMIT, Endgame, TooBig, solvable
from .generic import GreedyPlayer, claim_of, legal_moves_of, round_value
from .points_endgame import PointsEndgame, layout_of, points_solvable
from .policy import count_move, cross_move_of, look_move

NODE_BUDGET = 300_000  # exact endgames: nodes one decision may search in all
POINTS_NODE_BUDGET = 100_000  # the same in points (`core.ai.points_endgame`: 3-4 µs a node)
DROP_Z = 2.5  # a move is dropped once the leader beats it by this many standard errors


class SearchPlayer:
    """Determinized playouts: up to `worlds` imagined deals, every move still in the race
    tried in each, within `budget` playout moves a decision.

    Every `check` deals (from `check` on), a move that the leading move beats, deal by
    deal, by more than `DROP_Z` standard errors leaves the race; the search stops when one
    move is left or the budget is spent.  `endgame_tiles` > 0 solves an imagined deal
    exactly (`core.ai.endgame`) once a plain round has at most that many tiles in hand
    and in the stock (whose order an imagined deal fixes), and `points_tiles` > 0 a
    two-seat round scored in points, the count of its ends or Matador's
    (`core.ai.points_endgame`; `matador_tiles` for Matador, whose trees are wider).
    A plain round (no points on the ends) is scored by the share of the round won, the
    margin of points breaking ties (`win_value`); a round that scores as it goes by the
    margin of points with a bonus for the round and the match (`round_value`)."""

    name = "search"
    worlds = 24
    budget = 0  # playout moves a decision may play (0: no limit)
    check = 16
    exact_worlds = 24
    endgame_tiles = 0
    points_tiles = 0
    matador_tiles = 0

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._fallback = GreedyPlayer(seed)

    def choose(self, game: Any) -> Move:
        moves = legal_moves_of(game)
        claim = claim_of(moves)
        if claim is not None:
            return claim
        if len(moves) == 1:
            return moves[0]
        if not hasattr(game, "determinized"):
            return self._fallback.choose(game)
        seat = game.to_move
        unit = game.scorer_of(seat)
        rng = self.rng
        pips = game.ts.pips
        before = list(game.totals)
        plain = not game.hooked
        score = win_value if plain else round_value
        exact, fits, solver_of, nodes = self._exact(game, unit, before)
        worlds = self.worlds
        budget = self.budget or 1 << 62
        if exact and fits(game, exact + 1):
            worlds = min(worlds, self.exact_worlds)
        values: list[list[float]] = [[] for _ in moves]
        alive = list(range(len(moves)))
        for w in range(1, worlds + 1):
            world = game.determinized(seat, rng)
            seed = rng.getrandbits(32)
            for i in alive:
                g = world.copy()
                g.play(moves[i])
                value = None
                if exact and g.round_no == game.round_no and not g.over and fits(g, exact):
                    solver = solver_of(g, min(NODE_LIMIT, nodes))
                    try:
                        value = solver.value_after(g)
                    except TooBig:
                        exact = 0  # too big for this decision: playouts from now on
                    nodes -= solver.nodes
                    budget -= solver.nodes // 20
                if value is None:
                    value, plies = run_playout(g, unit, before, pips, random.Random(seed),
                                               score)
                    budget -= plies + 1
                values[i].append(value)
            if budget <= 0:
                break
            if w % self.check == 0 and w < worlds:
                alive = _race(values, alive)
                if len(alive) == 1:
                    break
        best = max(alive, key=lambda i: (sum(values[i]), _weight(moves[i], pips), -i))
        return moves[best]

    def _exact(self, game: Any, unit: int, before: list[int]
               ) -> tuple[int, Any, Any, int]:
        """How the imagined deals of `game` are solved exactly once small: the most tiles
        in hand and stock, the test of a position, the solver of one (given the nodes it
        may search), and the nodes the decision may search in all; 0 tiles when they are
        not solved."""
        if not game.hooked:
            if not self.endgame_tiles:
                return 0, None, None, 0
            return (self.endgame_tiles, solvable,
                    lambda g, limit: Endgame(g, unit, limit), NODE_BUDGET)
        if not self.points_tiles or not points_solvable(game, len(game.ts.ids)):
            return 0, None, None, 0
        matador = layout_of(game).plain is not None  # type: ignore[union-attr]
        return (self.matador_tiles if matador else self.points_tiles, points_solvable,
                lambda g, limit: PointsEndgame(g, unit, before, limit), POINTS_NODE_BUDGET)


def _race(values: list[list[float]], alive: list[int]) -> list[int]:
    """The moves still in the race: those the leader does not beat, deal by deal (the same
    deals for every move), by more than `DROP_Z` standard errors."""
    lead = max(alive, key=lambda i: sum(values[i]))
    top = values[lead]
    n = len(top)
    keep = []
    for i in alive:
        if i == lead:
            keep.append(i)
            continue
        diffs = [x - y for x, y in zip(top, values[i], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= 0 or mean * mean * n <= DROP_Z * DROP_Z * var:
            keep.append(i)
    return keep


class HardPlayer(SearchPlayer):
    """Up to 400 imagined deals within 40,000 playout moves."""

    name = "hard"
    worlds = 400
    budget = 40_000


class ExpertPlayer(SearchPlayer):
    """Three times the deals and the work, and exact endgames in a plain round."""

    name = "expert"
    worlds = 1200
    budget = 120_000
    exact_worlds = 64  # when the position is small enough to solve every deal exactly
    endgame_tiles = 20
    points_tiles = 18  # two seats scored in points (`core.ai.points_endgame`)
    matador_tiles = 12  # its choice to draw widens the tree: 14 tiles can take 400,000 nodes


def _weight(move: Move, pips: Any) -> int:
    return pips[move.tid] if move.kind == PLAY else -1


def playout(g: Any, unit: int, before: list[int], pips: Any, rng: random.Random,
            score: Any = None) -> float:
    """Play the round of `g` out with the policy of its kind of game (`policy_of`) for
    every seat; the side `unit`'s value (`score`, by default `round_value`)."""
    return run_playout(g, unit, before, pips, rng, score)[0]


def run_playout(g: Any, unit: int, before: list[int], pips: Any, rng: random.Random,
                score: Any = None) -> tuple[float, int]:
    """`playout`, and the number of moves it played (the searcher's measure of work)."""
    round_no = g.round_no
    policy, extra = policy_of(g)
    plies = 0
    while not g.over and g.round_no == round_no:
        moves = g.legal_moves()
        plies += 1
        if len(moves) == 1:
            g.play(moves[0])
        elif extra is None:
            g.play(policy(g, moves, pips, rng))
        else:
            g.play(policy(g, moves, pips, rng, extra))
    return (score or round_value)(g, unit, before), plies


def policy_of(g: Any) -> tuple[Any, Any]:
    """The playout policy for the kind of game `g` is (`core.ai.policy`), and the scoring
    rule it needs (None: none)."""
    if not g.hooked:
        return look_move, None
    worth = ends_worth(g)
    if worth is not None:
        return count_move, worth
    rule = getattr(g.rules, "end_score", None)
    if rule and getattr(g, "board", None) is not None and not g.rules.claim:
        return cross_move_of, SCORERS[rule]
    return _fast, None


def ends_worth(g: Any) -> Any:
    """A two-ended line game that scores the count of its ends after every tile (Muggins,
    Threes...): the variant's rule from a count to points; else None."""
    worth = getattr(g.variant, "worth", None)
    if worth is None or not callable(getattr(g, "count", None)) or hasattr(g, "board"):
        return None
    return worth


def _fast(g: Any, moves: list[Move], pips: Any, rng: random.Random) -> Move:
    return fast_move(moves, pips, rng)


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
