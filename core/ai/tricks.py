"""Computer players of the trick games (forty-two, texas-42).

* `TrickRandomPlayer`: any legal move.
* `TrickGreedyPlayer`: bids what its hand makes, estimated by playing the
  round out on sampled deals of the tiles it has not seen (from its own view:
  its hand, the tiles played, how many each seat holds), for each trump it
  could name; names the best trump; in play it wins count tiles, gives count
  to a partner who holds the trick, does not spend a trump on an empty trick,
  leads its masters (the tiles no unseen tile beats) and draws trumps when it
  holds the master trump.  It keeps count of the tiles played through the view.

Texas's specials, when the table offers them: the greedy player lays a decided hand
down, bids a plunge with four doubles and a splash with three, estimates doubles and
follow-me as trumps beside the numbers, bids a mark for sevens when its sampled deals all
take every trick, and a mark for nello with a very low hand (`nello_hand`); the tile
choice of a nello (`nello_choice`) ducks for the bidder and feeds the bidder for the
other side.

The search runs on copies of the game whose other hands are replaced by a
sample; no player reads another seat's hand.  The `hard` and `expert` levels
are `core.ai.tricks_search` (imagined deals that keep what play revealed,
valued under the contract).
"""

from __future__ import annotations

import random
from typing import Any

from ..moves import PASS, PLAY, Move, move_for
from ..tiles import Tile, iter_ids
from ..tricks.calls import (
    BID,
    DOUBLES,
    FOLLOW_ME,
    FOLLOW_ME_LOW,
    LAY_DOWN,
    MARK,
    NELLO_LOW,
    NELLOS,
    PLUNGE,
    SEVENS,
    SPECIAL,
    TRUMPS,
    call_for,
)
from ..tricks.match import NAMING, PLAYING, TrickMatch
from ..tricks.suits import ALL, HI, LO, TRUMP, count_of, doubles_in, sevens_distance
from .generic import legal_moves_of
from .registry import register

SAMPLES = 6  # sampled deals per trump when bidding
MARGIN = 2  # points kept in hand against a bad estimate
SPLASH_POINTS = 34  # the estimate a hand of three doubles needs to splash
NELLO_PIPS = 24  # a nello hand has at most this many pips (`nello_hand`)


def plain_trumps(game: TrickMatch) -> list[int]:
    """The trumps a bidder may name on any bid: the numbers, doubles and follow-me when the
    table offers them."""
    r = game.rules
    out = list(range(7))
    if r.doubles_trumps:
        out.append(DOUBLES)
    if r.follow_me:
        out += [FOLLOW_ME, FOLLOW_ME_LOW]
    return out


def nello_hand(hand: int) -> bool:
    """A hand for nello: few pips, no six, and no double above 2-2 (the tiles most likely to
    take a trick)."""
    tiles = list(iter_ids(hand))
    pips = sum(HI[t] + LO[t] for t in tiles)
    return pips <= NELLO_PIPS and all(HI[t] < 6 for t in tiles) and not any(
        HI[t] == LO[t] and HI[t] > 2 for t in tiles)


def nello_call(moves: list[Move], hand: int) -> Move | None:
    """The nello to name among `moves` (doubles low when the hand holds one and may)."""
    nellos = [m for m in moves if m.kind == TRUMPS and m.end in NELLOS]
    if not nellos:
        return None
    low = [m for m in nellos if m.end == NELLO_LOW]
    return low[0] if low and doubles_in(hand) else nellos[0]


class TrickRandomPlayer:
    """Any legal move, uniformly."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any) -> Move:
        moves = legal_moves_of(game)
        return self.rng.choice(moves)


class TrickGreedyPlayer:
    """Bids from sampled play-outs, plays to win count and keep its trumps."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: TrickMatch) -> Move:
        moves = legal_moves_of(game)
        if len(moves) == 1:
            return moves[0]
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        if view["phase"] == PLAYING:
            if moves[-1].kind == LAY_DOWN:
                return moves[-1]
            hand = mask_of(view["hand"])
            unseen = ALL & ~hand & ~mask_of(view["board"])
            return move_for(PLAY, tile_choice(game, seat, unseen))
        hand = mask_of(view["hand"])
        nello = nello_call(moves, hand) if nello_hand(hand) else None
        if nello is not None:
            return nello
        estimates = self.estimates(game, seat, view)
        special = special_bid(moves, hand, max(estimates.values()))
        return special or self.call(game, moves, estimates)

    def call(self, game: TrickMatch, moves: list[Move], estimates: dict[int, float]) -> Move:
        """In the bidding or the naming of trumps, the call made from `estimates` (the
        seat's, see `estimates`): the trump with the best estimate, or a bid within it
        (a mark when sevens, open to the table, takes every trick in every sample; a mark
        for nello with a nello hand)."""
        named = {m.end for m in moves if m.kind == TRUMPS}
        pick = {t: v for t, v in estimates.items() if not named or t in named}
        best = max(pick, key=lambda t: pick[t])
        if game.phase == NAMING:
            return call_for(TRUMPS, best)
        marks = [m for m in moves if m.kind == BID and m.end == MARK]
        hand = mask_of(game.view(game.to_move)["hand"])
        if marks and ((game.rules.sevens and estimates.get(SEVENS, 0) >= MARK) or (
                game.rules.nello and nello_hand(hand))):
            return marks[0]
        return self.bid(game, moves, max(v for t, v in estimates.items() if t != SEVENS))

    def bid(self, game: TrickMatch, moves: list[Move], estimate: float) -> Move:
        """The lowest bid within the estimate, or a pass (the lowest bid when forced)."""
        bids = [m for m in moves if m.kind == BID]
        if not any(m.kind == PASS for m in moves):
            return bids[0]
        reach = estimate - MARGIN
        for m in bids:
            needed = MARK if m.end >= MARK else m.end
            if m.end > MARK or needed > reach:
                break
            return m
        return move_for(PASS)

    def estimates(self, game: TrickMatch, seat: int, view: dict[str, Any]) -> dict[int, float]:
        """For each trump, the points this seat's team takes on average as the bidder."""
        hand = mask_of(view["hand"])
        unseen = [t for t in range(28) if not (hand >> t) & 1]
        out: dict[int, float] = {}
        deals = [self._sample(unseen, seat) for _ in range(SAMPLES)]
        trumps = plain_trumps(game)
        if game.rules.sevens and not game.special:
            trumps.append(SEVENS)
        for trump in trumps:
            total = 0
            least = MARK
            for others in deals:
                got = playout(game, seat, hand, others, trump)
                total += got
                least = min(least, got)
            out[trump] = total / SAMPLES if trump != SEVENS else least
        return out

    def _sample(self, unseen: list[int], seat: int) -> list[int]:
        tiles = unseen[:]
        self.rng.shuffle(tiles)
        hands = []
        for i in range(3):
            hands.append(sum(1 << t for t in tiles[i * 7:(i + 1) * 7]))
        return hands


def special_bid(moves: list[Move], hand: int, estimate: float) -> Move | None:
    """A plunge with four doubles or more; a splash with three and a hand that makes
    `SPLASH_POINTS` as the bidder (`estimate`), when open."""
    for m in moves:
        if m.kind == SPECIAL and (m.end == PLUNGE or estimate >= SPLASH_POINTS):
            return m
    return None


def mask_of(tiles: list[str]) -> int:
    return sum(1 << Tile.parse(t).id for t in tiles)


def playout(game: TrickMatch, seat: int, hand: int, others: list[int], trump: int) -> int:
    """The points `seat`'s team takes when it bids with `hand`, names `trump` and the
    round is played out with the other seats holding `others` (a sample)."""
    g = game.copy()
    hands = [0, 0, 0, 0]
    hands[seat] = hand
    for i, s in enumerate(x for x in range(4) if x != seat):
        hands[s] = others[i]
    g.hands = hands
    g.high = max(g.high, g.rules.min_bid, MARK if trump in (SEVENS, *NELLOS) else 0)
    if g.phase != NAMING:
        g.special = 0
    g.holder = seat if not g.special else g.holder
    g.phase = NAMING
    g.to_move = seat
    g.play(call_for(TRUMPS, trump))
    while len(g.tricks) < 6:
        s = g.to_move
        assert s is not None
        g._play_tile(s, tile_choice(g, s, ALL & ~g.hands[s]))
    s = g.to_move  # the last trick: one tile each, scored here (no round end on a copy)
    assert s is not None
    for _ in range(3 if g.out_seat is not None else 4):
        g.trick.append((s, g.hands[s].bit_length() - 1))
        s = g._next_seat(s)
    win = g.winning()
    assert win is not None
    if win[0] % 2 == seat % 2:
        return g.taken[seat % 2] + 1 + sum(count_of(t) for _, t in g.trick)
    return g.taken[seat % 2]


def _worth(g: TrickMatch, t: int) -> int:
    """How dear a tile is to give away: its count, then trump, then rank."""
    s = g.suits
    trump = 8 if s.is_trump(t) else 0
    return count_of(t) * 4 + trump + s.rank[s.led[t]][t]


def _master(g: TrickMatch, t: int, unseen: int) -> bool:
    """Whether no unseen tile of `t`'s suit ranks above it (and, off trumps, no trump is out)."""
    s = g.suits
    suit = s.led[t]
    r = s.rank[suit]
    return not any(r[u] > r[t] for u in iter_ids(unseen & s.members[suit]))


def tile_choice(g: TrickMatch, seat: int, unseen: int) -> int:
    """The tile `seat` plays: `unseen` are the tiles it has not seen (others' hands)."""
    legal = g.playable(seat)
    tiles = list(iter_ids(legal))
    if len(tiles) == 1:
        return tiles[0]
    if g.trump in NELLOS:
        return nello_choice(g, seat, tiles)
    s = g.suits
    if not g.trick:  # leading
        trumps = legal & s.trumps
        if trumps and unseen & s.trumps:
            top = max(iter_ids(trumps), key=lambda t: s.rank[TRUMP][t])
            if _master(g, top, unseen):
                return top
        masters = [t for t in tiles if not s.is_trump(t) and _master(g, t, unseen)]
        if masters:
            return max(masters, key=lambda t: (count_of(t), s.rank[s.led[t]][t]))
        return min(tiles, key=lambda t: _worth(g, t))
    win = g.winning()
    assert win is not None
    last = len(g.trick) == (3 if g.out_seat is not None else 4) - 1
    on_table = sum(count_of(t) for _, t in g.trick)
    if win[0] % 2 == seat % 2:  # the partner holds the trick
        safe = last or _master(g, win[1], unseen) or s.is_trump(win[1])
        if safe:
            return max(tiles, key=lambda t: (count_of(t), -_worth(g, t)))
        return min(tiles, key=lambda t: _worth(g, t))
    winners = [t for t in tiles if _beats(g, t, win[1])]
    if winners:
        cheap = min(winners, key=lambda t: _worth(g, t) - 4 * count_of(t))
        if not s.is_trump(cheap) or on_table or last or count_of(cheap):
            return cheap
    return min(tiles, key=lambda t: _worth(g, t))


def nello_choice(g: TrickMatch, seat: int, tiles: list[int]) -> int:
    """A nello's tile: the bidder ducks (the highest tile that does not take the trick, else
    the highest), the other side feeds the bidder (under a trick the bidder holds, else its
    lowest tile; leading, its lowest)."""
    s = g.suits

    def rank(t: int) -> int:
        return s.rank[s.led[t]][t]

    if not g.trick:
        return min(tiles, key=rank)
    win = g.winning()
    assert win is not None
    under = [t for t in tiles if not _beats(g, t, win[1])]
    if seat == g.holder:
        return max(under or tiles, key=rank)
    if win[0] == g.holder and under:
        return max(under, key=rank)
    return min(tiles, key=rank)


def _beats(g: TrickMatch, t: int, best: int) -> bool:
    """Whether tile `t` would win the trick against the winning tile `best`."""
    s = g.suits
    if g.trump == SEVENS:  # the nearest to 7 (the first on a tie)
        return sevens_distance(t) < sevens_distance(best)
    led = s.led[g.trick[0][1]]
    if s.is_trump(t):
        return not s.is_trump(best) or s.rank[TRUMP][t] > s.rank[TRUMP][best]
    if s.is_trump(best) or not (s.members[led] >> t) & 1:
        return False
    return s.rank[led][t] > s.rank[led][best]


register("tricks", "random", TrickRandomPlayer)
register("tricks", "greedy", TrickGreedyPlayer)
