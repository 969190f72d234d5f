"""How likely a seat of a trick game is to win the hand after each of its moves: playouts counted.

The trick games' side of `core.ai.chances.win_chances` (forty-two, texas-42).  From the
seat's own view only: the unseen tiles are dealt again with `TrickMatch.redealt(seat, rng,
voids)` (what play revealed kept), each legal move is made in every imagined deal and the
hand is played out, and a move's chance is the share of the imagined deals whose hand the
seat's team won: the bidders' team when the contract is made, the other team when it is
set (as `TrickMatch.summary` records a round's winners).

* In play: the rest of the hand is played with the searcher's fast playout
  (`core.ai.tricks_search.play_out`: the greedy tile choice for every seat).
* A bid, a pass or the naming of trumps: the bidding and the naming are finished on the
  imagined deal with the `normal` (greedy) players' calls (`TrickGreedyPlayer.call`), each
  seat's estimate of its hand worked out once per imagined deal (it depends on the hand
  only) and shared by every move; then the hand is played out as above.  When everyone
  passes (forty-two), the hand dealt again is settled the same way; a deal that never finds
  a bidder within `MAX_CALLS` calls counts as half won.

Every move is tried on the same deals and playout seeds, so the figures compare moves, not
draws.  Nello is played out with the greedy tile choice's nello policy, sevens with its
usual choice, so their chances are rough; laying a decided hand down wins or loses it as it
stands.
"""

from __future__ import annotations

import random

from ..moves import Move
from ..tricks.calls import LAY_DOWN
from ..tricks.match import PLAYING, TrickMatch
from .tricks import TrickGreedyPlayer
from .tricks_search import outcome_of, place, play_out, scratch

MAX_CALLS = 40  # calls tried to settle a contract (about ten deals in which all pass)


def trick_win_chances(game: TrickMatch, worlds: int, seed: int) -> dict[str, float]:
    """For each legal move of the seat to move (as written), the share of `worlds` imagined
    deals in which its team wins the hand after that move."""
    seat = game.to_move
    assert seat is not None
    team = seat % 2
    moves = game.legal_moves()
    wins = [0.0] * len(moves)
    rng = random.Random(seed)
    known = game.voids(seat)
    for _ in range(worlds):
        world = game.redealt(seat, rng, known)
        callers = Callers(rng.getrandbits(32))
        for i, move in enumerate(moves):
            wins[i] += hand_won(world, seat, move, team, callers)
    return {str(m): w / worlds for m, w in zip(moves, wins, strict=True)}


def hand_won(world: TrickMatch, seat: int, move: Move, team: int, callers: Callers) -> float:
    """1 if `team` wins the hand of `world` after `seat` makes `move` and the hand is played
    out (0 if it loses, 0.5 if no contract is ever settled)."""
    if move.kind == LAY_DOWN:  # the hand is decided: as it stands
        holder = world.holder
        assert holder is not None
        winners = holder % 2 if world.decided() else 1 - holder % 2
        return 1.0 if winners == team else 0.0
    if world.phase == PLAYING:
        g = scratch(world)
        place(g, seat, move.tid)
    else:
        g = world.copy()
        g.play(move)
        if not callers.settle(g):
            return 0.5
    play_out(g)
    holder = g.holder
    assert holder is not None
    winners = holder % 2 if outcome_of(g).made else 1 - holder % 2
    return 1.0 if winners == team else 0.0


class Callers:
    """The normal players' calls in one imagined deal: each seat's estimate of a hand is
    worked out once (from a seed of the deal, the seat and the hand) and reused."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.caller = TrickGreedyPlayer(seed)  # its calls read the estimates, not its rng
        self.estimates: dict[tuple[int, int], dict[int, float]] = {}

    def settle(self, g: TrickMatch) -> bool:
        """Make the calls of `g` up to the first trick; False if no contract is settled
        within `MAX_CALLS` calls."""
        for _ in range(MAX_CALLS):
            if g.phase == PLAYING:
                return True
            seat = g.to_move
            assert seat is not None
            moves = g.legal_moves()
            if len(moves) == 1:
                g.play(moves[0])
                continue
            g.play(self.caller.call(g, moves, self.estimate(g, seat)))
        return g.phase == PLAYING

    def estimate(self, g: TrickMatch, seat: int) -> dict[int, float]:
        hand = g.hands[seat]
        key = (seat, hand)
        found = self.estimates.get(key)
        if found is None:
            player = TrickGreedyPlayer((self.seed << 32) | (hand << 2) | seat)
            found = self.estimates[key] = player.estimates(g, seat, g.view(seat))
        return found


__all__ = ["trick_win_chances"]
