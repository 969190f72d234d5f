"""The `hard` and `expert` players of the trick games (forty-two, texas-42): imagined deals.

At each decision with more than one move the searcher deals the tiles it cannot see again,
as its seat may know them (`TrickMatch.redealt`: the hand sizes, the tiles played, and
the suits a seat showed it lacks by not following, under the trumps in force), and plays
the round out in each imagined deal with the greedy player's tile choice for every seat
(`core.ai.tricks.tile_choice`, each seat reading the imagined hands).  A round is valued
under its contract (`core.tricks.contract.outcome`): what the searcher's team scores minus
what the other scores, in points (forty-two: a contract made scores its value and double
each point over it, set gives the other team the bid) or in marks (texas-42, the points
taken breaking ties).

* Play: every legal tile is tried in the same imagined deals; the best total is played.
  `expert` imagines more deals and, once few tricks are left, solves each imagined deal
  exactly (`core.ai.tricks_endgame`: alpha-beta over the remaining tricks, every seat
  seeing every hand) instead of playing it out.
* Bidding: in each imagined deal the round is played out with the searcher as the bidder,
  for each trump it could name (0 to 6); a bid's value is the best trump's average
  outcome.  It bids only a contract it makes in most deals (`TRUST`; `expert`, bolder,
  `EXPERT_TRUST`) and gains on average
  (a searcher defends well, so passing is worth something): the highest such bid it makes
  almost surely (`PREEMPT`) while an opponent is still to speak, else the lowest; with
  the partner holding the bid, only a sure one; otherwise it passes (or, forced, makes
  the lowest bid).
* Naming trumps: the trump with the best average outcome of the contract as bid, among
  every trump the table offers (doubles, follow-me, nello, sevens: the playouts play nello
  with `core.ai.tricks.nello_choice`).
* Texas's specials: a bid of a mark or more is valued with nello and sevens among its
  trumps when the table offers them; a plunge or a splash (`special_rounds`) is played
  out with the partner naming doubles (or, not offered, its longest number) and leading,
  and is bid like any other bid when the deals make it often enough and it is worth more
  than the best plain bid.
  A decided hand is laid down at once.

What the bids say of a hand (a pass, a high bid) is not used: the imagined deals only
follow the tiles.  The choice depends only on the seat's view, the public record and the
player's seed (tests/test_ai_tricks_search.py).
"""

from __future__ import annotations

import random

from ..moves import PASS, Move
from ..tiles import iter_ids
from ..tricks.calls import BID, DOUBLES, LAY_DOWN, MARK, NELLOS, SEVENS, SPECIAL, TRUMPS, call_for
from ..tricks.match import BIDDING, NAMING, NELLO_CALLS, TrickMatch
from ..tricks.suits import HI, LO
from .generic import legal_moves_of
from .registry import register
from .tricks import plain_trumps, tile_choice
from .tricks_playout import outcome_of, place, scratch, value_of

PREEMPT = 0.9  # with an opponent still to speak: the highest bid made this often
TRUST = 0.75  # a bid is made only if the contract is made at least this often
EXPERT_TRUST = 0.55  # the same for `expert` (with "worth bidding", a floor near one half)
INFER_TRIES = 20  # imagined deals drawn to find one where the bidder's trumps are plausible


class TrickSearchPlayer:
    """Determinized playouts under the contract: `worlds` imagined deals in play,
    `bid_worlds` for bidding and naming trumps; `exact_tricks` > 0 solves the imagined
    deals exactly once at most that many tricks are left (counting the one on the table)."""

    name = "search"
    worlds = 32
    bid_worlds = 32
    exact_tricks = 0
    exact_worlds = 32
    preempt = PREEMPT
    trust = TRUST
    infer_trumps = False
    _deals: list[TrickMatch] = []

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: TrickMatch) -> Move:
        moves = legal_moves_of(game)
        if len(moves) == 1:
            return moves[0]
        seat = game.to_move
        assert seat is not None
        if moves[-1].kind == LAY_DOWN:  # the result is decided: end the hand
            return moves[-1]
        if game.phase == BIDDING:
            return self.bid(game, seat, moves)
        if game.phase == NAMING:
            return self.name_trumps(game, seat, moves)
        return self.play(game, seat, moves)

    # -- play ---------------------------------------------------------------------------

    def play(self, game: TrickMatch, seat: int, moves: list[Move]) -> Move:
        from .tricks_endgame import values_of_moves  # (it builds on this module's playouts)

        known = game.voids(seat)
        team = seat % 2
        left = 7 - len(game.tricks)
        exact = 0 < left <= self.exact_tricks
        worlds = self.exact_worlds if exact else self.worlds
        totals = [0.0] * len(moves)
        for _ in range(worlds):
            world = self.imagine(game, seat, known)
            if exact:
                for i, v in enumerate(values_of_moves(world, [m.tid for m in moves], team)):
                    totals[i] += v
                continue
            for i, m in enumerate(moves):
                g = scratch(world)
                place(g, seat, m.tid)
                play_out(g)
                totals[i] += value_of(g, team)
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return moves[best]

    def imagine(self, game: TrickMatch, seat: int, known: list[int]) -> TrickMatch:
        """One imagined deal of the unseen tiles (`TrickMatch.redealt`); with
        `infer_trumps`, one in which the bidder, when another seat, holds at least as many
        tiles of the trump it named as of any other number (counting the tiles it has
        played this round), if one such is drawn within `INFER_TRIES`."""
        world = game.redealt(seat, self.rng, known)
        holder = game.holder
        if not self.infer_trumps or holder is None or holder == seat or game.trump > 6:
            return world
        played = 0
        for _, trick, _ in game.tricks:
            played |= sum(1 << t for s, t in trick if s == holder)
        played |= sum(1 << t for s, t in game.trick if s == holder)
        for _ in range(INFER_TRIES):
            if names_its_longest(world.hands[holder] | played, game.trump):
                return world
            world = game.redealt(seat, self.rng, known)
        return world

    # -- bidding and trumps -----------------------------------------------------------------

    def outcomes(self, game: TrickMatch, seat: int, trumps: list[int], worlds: int
                 ) -> dict[int, list[TrickMatch]]:
        """For each trump, the rounds played out with `seat` bidding and naming it, one per
        imagined deal (the same deals for every trump)."""
        rng = self.rng
        deals = [game.redealt(seat, rng, [0, 0, 0, 0]) for _ in range(worlds)]
        self._deals = deals
        naming = game.phase == NAMING  # else bidding: the seat imagines itself the bidder
        out: dict[int, list[TrickMatch]] = {}
        for trump in trumps:
            rounds = []
            for world in deals:
                g = scratch(world)
                g.high = max(game.high, game.rules.min_bid)
                if not naming:
                    g.holder, g.special = seat, 0
                g.phase = NAMING
                g.to_move = seat
                g._name_trumps(trump)
                play_out(g)
                rounds.append(g)
            out[trump] = rounds
        return out

    def special_rounds(self, game: TrickMatch, seat: int, kind: int) -> list[TrickMatch]:
        """The rounds of a plunge or splash (`kind`) bid by `seat`, one per imagined deal of
        the last `outcomes`: the partner names the doubles when the table allows them (the
        plunger holds most), else the number it holds most of, and leads."""
        value = game.special_value(kind)
        rounds = []
        for world in self._deals:
            g = scratch(world)
            g.high, g.holder, g.special, g.phase = value, seat, kind, NAMING
            partner = (seat + 2) % 4
            g.to_move = partner
            g._name_trumps(DOUBLES if g.rules.doubles_trumps else max(range(7), key=lambda n: (
                names_its_longest(g.hands[partner], n), n)))
            play_out(g)
            rounds.append(g)
        return rounds

    def bid(self, game: TrickMatch, seat: int, moves: list[Move]) -> Move:
        bids = [m for m in moves if m.kind == BID]
        can_pass = any(m.kind == PASS for m in moves)
        r = game.rules
        trumps = plain_trumps(game)
        if any(m.end >= MARK for m in bids):
            trumps += list(NELLO_CALLS[r.nello_doubles]) if r.nello else []
            trumps += [SEVENS] if r.sevens else []
        rounds = self.outcomes(game, seat, trumps, self.bid_worlds)
        team = seat % 2
        value: dict[int, float] = {}
        made: dict[int, float] = {}
        for m in bids:
            best = None
            for trump, games in rounds.items():
                if m.end < MARK and (trump in NELLOS or trump == SEVENS):
                    continue
                key = _judge(games, m.end, team)
                if best is None or key > best:
                    best = key
            assert best is not None
            value[m.end], made[m.end] = best
        good = [m for m in bids if value[m.end] > 0 and made[m.end] >= self.trust]
        for m in moves:
            if m.kind == SPECIAL:
                games = self.special_rounds(game, seat, m.end)
                v, p = _judge(games, games[0].high, team)
                if v > 0 and p >= self.trust and all(v > value[b.end] for b in good):
                    return m
        if not good:
            return moves[0] if can_pass else bids[0]
        partner_holds = game.holder is not None and game.holder % 2 == team
        opponent_to_speak = len(game.bids) < 3
        sure = [m for m in good if made[m.end] >= self.preempt]
        if partner_holds:
            return sure[0] if sure else moves[0]
        if opponent_to_speak and sure:
            return sure[-1]
        return good[0]

    def name_trumps(self, game: TrickMatch, seat: int, moves: list[Move]) -> Move:
        numbers = [m.end for m in moves if m.kind == TRUMPS]
        rounds = self.outcomes(game, seat, numbers, self.bid_worlds * 2)
        team = seat % 2
        best = max(numbers, key=lambda t: (sum(value_of(g, team) for g in rounds[t]), -t))
        return call_for(TRUMPS, best)


class TrickHardPlayer(TrickSearchPlayer):
    name = "hard"


class TrickExpertPlayer(TrickSearchPlayer):
    """More imagined deals, the last tricks solved exactly in each, and bolder bidding: a
    contract made in more than `EXPERT_TRUST` of the deals (and worth bidding on average)
    is bid, where `hard` waits for `TRUST`.  Against a searching defence, leaving the
    contract to the other side costs more than the sets the bolder bids risk
    (docs/benchmarks-history.md, "Forty-two: where `expert` gains on `hard`")."""

    name = "expert"
    worlds = 64
    bid_worlds = 48
    exact_tricks = 4
    trust = EXPERT_TRUST
    infer_trumps = True
    exact_worlds = 24


# -- the playouts -----------------------------------------------------------------------------


def play_out(g: TrickMatch) -> None:
    """Play the round of `g` to its last trick with the greedy tile choice for every seat,
    each reading the (imagined) hands of the others as the tiles it has not seen."""
    hands = g.hands
    while True:
        s = g.to_move
        assert s is not None
        if not hands[s]:
            return
        others = 0
        for x in range(4):
            if x != s:
                others |= hands[x]
        place(g, s, tile_choice(g, s, others))


def names_its_longest(hand: int, trump: int) -> bool:
    """Whether `trump` is a number `hand` (a round's seven tiles) holds the most tiles of."""
    counts = [0] * 7
    for t in iter_ids(hand):
        hi, lo = HI[t], LO[t]
        counts[hi] += 1
        if lo != hi:
            counts[lo] += 1
    return counts[trump] >= max(counts)


def _judge(games: list[TrickMatch], bid: int, team: int) -> tuple[float, float]:
    """(average value to `team`, how often made) of played-out rounds under `bid`."""
    v = p = 0.0
    for g in games:
        g.high = bid
        v += value_of(g, team)
        p += contract_made(g)
    return v / len(games), p / len(games)


def contract_made(g: TrickMatch) -> bool:
    """Whether the bidders of a played-out round made their contract."""
    return outcome_of(g).made


__all__ = ["TrickExpertPlayer", "TrickHardPlayer", "TrickSearchPlayer"]

register("tricks", "hard", TrickHardPlayer)
register("tricks", "expert", TrickExpertPlayer)
