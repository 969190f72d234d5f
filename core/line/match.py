"""`LineMatch`: a match of a line game, the object `Variant.new` returns for them.

The round engine (`core.line.LineRound`) and the match (`core.match.MatchBase`)
share this one object, so that a move is a single method call.  When a round
ends the next one starts at once, so ``to_move`` is None only when the match
is over; if the rules name its leader without looking at the hands, its tiles
are dealt from the match's seeded generator at the first call that needs them
(moves, views, ``hands``), which is the same deal, only later.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from ..copying import copy_deal, names_copier
from ..errors import IllegalMove, bad_option, illegal
from ..match import MATCH_SLOTS, MatchBase, add_legal
from ..moves import LEAD, PLAY, Move, move_for, parse_notation
from ..scoring import MatchRules
from ..tiles import TileSet, deal_tile, iter_ids
from .engine import LineRound, LineRules, _seat_after, _tables, _team_of, deal_masks, lead_bytes

if TYPE_CHECKING:
    from ..variant import Variant

ROUND_SLOTS = (
    "_hands", "_sleeping", "_stock", "active", "chain_turns", "eliminated", "ended", "events",
    "general", "lead_bytes", "lead_tid", "leader", "left", "lmemo", "n", "notin", "one_round",
    "played",
    "reason", "right", "rmemo", "seat_after", "tables", "team_of", "to_move", "ts", "vmask",
    "winners",
)


class LineMatch(LineRound, MatchBase):
    """A match of a line-game variant (all its rounds)."""

    __slots__ = ROUND_SLOTS + MATCH_SLOTS

    _own_start: ClassVar[bool] = False  # a class that changes `_start_round` (set below)
    # What every match of one set-up shares and never changes (`_set_up`): a new match copies
    # it from a blank match of that set-up (`blank`, `fresh`) instead of working it out again.
    SETUP_SLOTS: ClassVar[tuple[str, ...]] = (
        "variant", "players", "rules", "mrules", "scorers",
        "ts", "chain_turns", "general", "one_round", "team_of", "seat_after", "tables", "vmask",
        "lmemo", "rmemo", "lead_bytes",
    )
    plain_setup: ClassVar[bool] = True  # the set-up is `_set_up`'s alone (set below)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._own_start = cls._start_round is not LineRound._start_round
        cls.plain_setup = (cls.__init__ is LineMatch.__init__ and cls._set_up is LineMatch._set_up
                           and cls._set_tables is LineMatch._set_tables)

    def __init__(
        self,
        variant: Variant,
        players: int,
        seed: int,
        options: dict[str, Any],
        rules: LineRules,
        mrules: MatchRules,
        deal: dict[str, Any] | None = None,
    ) -> None:
        self._set_up(variant, players, rules, mrules, options)
        self._begin(seed, options, deal)

    def _set_up(self, variant: Variant, players: int, rules: LineRules, mrules: MatchRules,
                options: dict[str, Any]) -> None:
        """The `SETUP_SLOTS`: the rules, the scorers and teams, the engine's tables."""
        self._match_setup(variant, players, rules, mrules)
        self.options = options  # (a join rule of its own reads them in `_set_tables`)
        self.ts = rules.tiles
        self.chain_turns = rules.chain_turns
        self.general = self.hooked or rules.chain_turns
        self.one_round = mrules.single_round and not self.hooked  # (`_round_ended`)
        self.team_of = _team_of(rules.teams, players)
        self.seat_after = _seat_after(players)  # (a round's `n` is the players')
        self._set_tables()
        self.lmemo, self.rmemo = self.tables[4], self.tables[5]
        self.lead_bytes = lead_bytes(self.tables[0])

    def _begin(self, seed: int, options: dict[str, Any], deal: dict[str, Any] | None) -> None:
        """A new match's own state and its first round, dealt or from `deal` (checked)."""
        rules = self.rules
        if deal is not None:
            # the deal checked, and the match's own copy: a caller changing theirs changes nothing
            hands, stock, sleeping, deal = read_deal(rules, self.players, deal, self.ts)
        self._match_state(seed, options, deal)
        if deal is None:
            hands, stock, sleeping = self._shuffle()
        self._start_round(hands, stock, sleeping, 0 if rules.lead == "any" else None)
        self._leader1 = self.leader

    @classmethod
    def blank(cls, variant: Variant, players: int, rules: LineRules, mrules: MatchRules,
              options: dict[str, Any]) -> LineMatch | None:
        """A match with its set-up only, no deal, whose `fresh` makes the matches of that
        set-up (`LineVariant.new` keeps one a set-up); None for a class whose set-up is
        not `_set_up`'s alone (its own `__init__` or `_set_tables`)."""
        if not cls.plain_setup:
            return None
        blank = cls.__new__(cls)
        blank._set_up(variant, players, rules, mrules, options)
        return blank

    def fresh(self, seed: int, options: dict[str, Any], deal: dict[str, Any] | None
              ) -> LineMatch:
        """A new match of this blank's set-up: `__init__`'s work but for the set-up, shared."""
        cls = self.__class__
        new = cls.__new__(cls)
        names_copier(self.SETUP_SLOTS)(self, new)
        new._begin(seed, options, deal)
        return new

    def _set_tables(self) -> None:
        """The engine's move tables and end masks (a join rule of its own sets its own)."""
        self.tables = _tables(self.ts)
        self.vmask = self.tables[3]

    def parse_move(self, text: str) -> Move:
        """The move written in `text` (``"6-4 left"``, ``"6-4"``, ``"pass"``...).

        A tile written without an end is resolved against the legal moves;
        `IllegalMove` says why text is not a move or is ambiguous.
        """
        kind, tid, end = parse_notation(text)
        if kind != PLAY:
            return move_for(kind, tid)
        self._check_tile(text, tid)
        if self.left < 0:
            return move_for(PLAY, tid, LEAD)
        if end is not None:
            return move_for(PLAY, tid, end)
        return self._move_of_tile(tid)

    def _check_tile(self, text: str, tid: int) -> None:
        """Refuse a tile outside the set, or any tile once the match is over."""
        ts = self.ts
        if tid >= len(ts.hi) or not (ts.all_mask >> tid) & 1:
            raise illegal("{tile} is not a tile of the double-{top} set", tile=text.strip()[:10],
                          top=ts.max_pip)
        if self.to_move is None:
            raise illegal("the game is over")

    def _move_of_tile(self, tid: int) -> Move:
        """The one legal move of a tile written without an end, or why there is none
        (not in hand, fits no end) or more than one (`_ambiguous`)."""
        options = [m for m in self.legal_moves() if m.tid == tid]
        if len(options) == 1:
            return options[0]
        name = self.ts.names[tid]
        if options:
            raise self._ambiguous(name, options)
        if not (self.hands[self.to_move] >> tid) & 1:
            raise illegal("{tile} is not in your hand", tile=name)
        raise self._fits_no_end(name)

    def _ambiguous(self, name: str, options: list[Move]) -> IllegalMove:
        return illegal("{tile} fits both ends: say '{tile} left' or '{tile} right'", tile=name)

    def _fits_no_end(self, name: str) -> IllegalMove:
        return illegal("{tile} does not match either end ({left}, {right})", tile=name,
                       left=self.left, right=self.right)

    def copy(self) -> LineMatch:
        """An independent copy (computer players search on copies)."""
        new = self._shallow_copy()
        if hasattr(self, "__dict__"):
            new.__dict__.update(self.__dict__)
        for name in ("played", "events", "active", "eliminated", "winners", "notin"):
            setattr(new, name, getattr(self, name)[:])
        if self._hands is not None:  # else the copy deals it as this match would
            new._hands = self._hands[:]
            new._stock = self._stock[:]
        self._copy_match(new)
        self._copied(new)
        return new

    def _copied(self, new: LineMatch) -> None:
        """Give the copy `new` its own mutable state (hook: lists a variant keeps)."""

    def determinized(self, seat: int, rng: random.Random) -> LineMatch:
        """A copy in which the tiles `seat` cannot see are dealt again at random, as its
        seat may imagine them: the other hands keep their sizes, the stock its size, and a
        seat that passed holds none of the tiles it showed it lacks (`notin`, public).
        Which unseen tile is where in this match is never used, only the set of them, in
        order: two matches that differ only in how the unseen tiles are split give the same
        copy for the same `rng` state.  The copy's own generator is drawn from `rng` too, so
        its later rounds say nothing of this match's."""
        new = self.copy()
        hands = new.hands
        others = [s for s in range(new.n) if s != seat and hands[s]]
        pool_mask = new._sleeping
        for t in new._stock:
            pool_mask |= 1 << t
        for s in others:
            pool_mask |= hands[s]
        pool = list(iter_ids(pool_mask))
        sizes = {s: hands[s].bit_count() for s in others}
        notin = new.notin
        order = sorted(others, key=lambda s: (-(notin[s] & pool_mask).bit_count(), s))
        dealt = _deal_unseen(pool, order, sizes, notin, rng)
        used = 0
        for s in others:
            hands[s] = dealt[s]
            used |= dealt[s]
        rest = [t for t in pool if not (used >> t) & 1]
        rng.shuffle(rest)
        n_stock = len(new._stock)
        new._stock = rest[:n_stock]
        sleeping = 0
        for t in rest[n_stock:]:
            sleeping |= 1 << t
        new._sleeping = sleeping
        new._rng = None  # made from this seed when first needed (`rng`)
        new._rng_state = rng.getrandbits(64)
        return new

    def _round_ended(self) -> None:
        """Score points due when a round ends (`_round_bonus`), then the round."""
        if self.one_round:  # plain, and over whatever it scores: scored when first read
            self._end_unscored()
            return
        if self.hooked and self.reason != "target":
            self._round_bonus()
            if self.over:  # the bonus reached the target: the round ended as "target"
                return
        MatchBase._round_ended(self)

    def _final_board(self) -> dict[str, Any]:
        """The board as the round ends; a plain line game builds it without a whole view
        (the engine's self-play ends rounds often)."""
        if self.hooked:
            return MatchBase._final_board(self)
        return ("moves", self.played, [] if self.left < 0 else [self.left, self.right])

    def _board_of(self, summary: dict[str, Any]) -> dict[str, Any]:
        board = summary["board"]
        if isinstance(board, tuple):  # the round's moves, kept by `_final_board`
            line, last = self.chain(board[1])
            return {"board": line, "ends": board[2],
                    "layout": {"kind": "line", "chain": line, "last": last}}
        return MatchBase._board_of(self, summary)

    def _round_bonus(self) -> None:
        """Hook: points scored with `add_points` when a round ends, before the
        match scores it (``reason`` and ``winners`` say how it ended)."""

    def _shuffle(self) -> tuple[list[int], list[int], int]:
        tiles = list(self.ts.ids)
        self.rng.shuffle(tiles)
        hands, rest = deal_masks(tiles, self.players - len(self.gone), self.rules.hand)
        for s in sorted(self.gone):  # seats out of the match get no tiles
            hands.insert(s, 0)
        if self.rules.stock:
            return hands, rest, 0
        sleeping = 0
        for t in rest:
            sleeping |= 1 << t
        return hands, [], sleeping

    def _next_round(self, last: dict[str, Any]) -> None:
        """Start the next round; when the rules name its leader without looking
        at the hands, its tiles are dealt later, by `_deal_pending`, at the
        first call that needs them (the same shuffle of the same generator).
        A class that changes `_start_round` (the tiles or the leader) gets
        every round dealt at once, through it."""
        how = self.rules.later_lead
        leader: int | None = None
        if how == "rotate":
            leader = (self._leader1 + self.round_no - 1) % self.players
            while leader in self.gone:
                leader = (leader + 1) % self.players
        elif how == "winner":
            leader = self._winner_leads(last)
        if leader is None or self._own_start:
            hands, stock, sleeping = self._shuffle()
            self._start_round(hands, stock, sleeping, leader, how if leader is None else None)
            return
        self._reset_round(self.players)
        self._hands = None
        self._stock = []
        self._sleeping = 0
        self.leader, self.lead_tid = leader, -1
        self.to_move = leader

    def _winner_leads(self, last: dict[str, Any]) -> int:
        """Who opens after `last` when its winner leads (opening=any).

        The seat that went out; after a blocked round, the winning seat with
        the fewest pips (with teams, of the winning pair), the lower seat on a
        tie; after a round every seat tied, the seat after the last leader.
        """
        winners = last["winners"]
        if len(winners) == self.players:
            return (self.leader + 1) % self.players
        if last["reason"] == "out" and self.played:
            return self.played[-1][0]
        return min(sorted(winners), key=last["counts"].__getitem__)  # a tie: the lower seat

    def _deal_pending(self) -> list[int]:
        hands, stock, sleeping = self._shuffle()
        self._stock = stock[::-1]  # draw with pop()
        self._sleeping = sleeping
        self._hands = hands
        self._check_leader()
        return hands

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may know (None: the public view of the channel), as JSON data."""
        self._check_seat(seat)
        ts = self.ts
        hands = self.hands
        v = self._match_view(seat, ts)
        line, last = self.chain()
        v.update({
            "hand_sizes": [h.bit_count() for h in hands],
            "board": line,
            "ends": [] if self.left < 0 else [self.left, self.right],
            "layout": {"kind": "line", "chain": line, "last": last},
            "stock": len(self._stock),
            "sleeping": self._sleeping.bit_count(),
            "eliminated": list(self.eliminated),
            "out": [s for s in range(self.players)
                    if not self.active[s] and s not in self.eliminated],
        })
        if seat is not None:
            v["hand"] = ts.mask_names(hands[seat])
            add_legal(self, v, seat)
        if self.hooked:
            v.update(self._view_extra(seat))
        return v



def parse_deal(rules: LineRules, players: int, deal: dict[str, Any], ts: TileSet | None = None
               ) -> tuple[list[int], list[int], int]:
    """Hands, stock and sleeping tiles of a hand-built deal, checked (`ts`: the rules'
    tiles, when the caller has them)."""
    hands, stock, sleeping, _ = read_deal(rules, players, deal, ts)
    return hands, stock, sleeping


def read_deal(rules: LineRules, players: int, deal: dict[str, Any], ts: TileSet | None = None
              ) -> tuple[list[int], list[int], int, dict[str, Any]]:
    """`parse_deal`, and a copy of the deal that shares no list with it (`copy_deal`): the
    match's own, read in the same loop when the deal is hands only, as lists."""
    given_hands = deal.get("hands") if isinstance(deal, dict) else None
    if not isinstance(given_hands, list):
        raise bad_option('deal must be {{"hands": [[tiles], ...], "stock": [tiles]}}')
    if len(given_hands) != players:
        raise bad_option("deal has {hands} hands for {players} players",
                         hands=len(given_hands), players=players)
    if ts is None:
        ts = rules.tiles
    try:  # the common case, tiles written as "6-4": a sum of bits, one per tile
        bit = ts.bits.__getitem__
        count = 0
        hands = []
        own = []  # the hands' copies, when they are lists
        for hand in given_hands:
            if hand.__class__ is list:
                hand = hand[:]
                own.append(hand)
            count += len(hand)  # before reading it: a one-pass iterator goes the slow way
            hands.append(sum(map(bit, hand)))
        seen = sum(hands)
        stock = []
        given = deal.get("stock")
        if given:
            count += len(given)
            stock = [ts.lookup[text] for text in given]
            seen += sum(map(bit, given))
        # a sum of n powers of two has n bits set exactly when they are all different
        if seen.bit_count() == count and any(hands) and (rules.stock or not stock):
            if len(deal) == 1 and len(own) == players:
                return hands, stock, ts.all_mask & ~seen, {"hands": own}
            return hands, stock, ts.all_mask & ~seen, copy_deal(deal)
    except (KeyError, TypeError):
        pass
    return (*_parse_deal_checked(rules, deal), copy_deal(deal))


def _parse_deal_checked(rules: LineRules, deal: dict[str, Any]
                        ) -> tuple[list[int], list[int], int]:
    """`parse_deal` tile by tile, saying what is wrong with the first bad tile."""
    ts = rules.tiles
    seen = 0
    hands = []
    for hand in deal["hands"]:
        mask = 0
        for text in hand:
            t = deal_tile(ts, text, seen)
            seen |= 1 << t
            mask |= 1 << t
        hands.append(mask)
    stock = []
    for text in deal.get("stock") or []:
        if not rules.stock:
            raise bad_option("deal: this game has no stock to draw from")
        t = deal_tile(ts, text, seen)
        seen |= 1 << t
        stock.append(t)
    if not any(hands):
        raise bad_option("deal: no tile in any hand")
    return hands, stock, ts.all_mask & ~seen



def _deal_unseen(pool: list[int], order: list[int], sizes: dict[int, int], notin: list[int],
                 rng: random.Random, tries: int = 30) -> dict[int, int]:
    """Hands (bitmasks) of `sizes` tiles each from `pool`, at random, each seat avoiding its
    `notin` tiles; the most constrained seat is served first.  After `tries` failed shuffles
    (the constraints may be too tight to meet by chance) the constraints are dropped."""
    for attempt in range(tries + 1):
        free = pool[:]
        rng.shuffle(free)
        hands: dict[int, int] = {}
        ok = True
        for s in order:
            avoid = notin[s] if attempt < tries else 0
            mask = 0
            need = sizes[s]
            keep = []
            for t in free:
                if need and not (avoid >> t) & 1:
                    mask |= 1 << t
                    need -= 1
                else:
                    keep.append(t)
            if need:
                ok = False
                break
            hands[s] = mask
            free = keep
        if ok:
            return hands
    raise AssertionError("unreachable: the last try ignores the constraints")
