"""`TrickMatch`: a match of a trick game (bidding, trumps, seven tricks a round, to the target).

A round goes through three phases: ``bidding`` (each seat speaks once, in
turn: a bid higher than the last one, or "pass"), ``trumps`` (the highest
bidder names trumps; after a plunge or a splash, the bidder's partner) and
``playing`` (seven tricks; the seat that named trumps leads the first, each
trick's winner the next).  When the seventh trick is taken, or the bidding
team lays down a hand whose result is decided (Texas's `lay_down`), the
contract is scored (`core.tricks.contract`), through `MatchBase.add_points`,
and `MatchBase` deals the next round or ends the match.
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, Any

from ..copying import copy_deal
from ..errors import IllegalMove, bad_option, illegal
from ..match import MATCH_SLOTS, MatchBase, add_legal
from ..moves import PASS, PLAY, Move, move_for
from ..score_sheet import score_sheet
from ..scoring import MatchRules
from ..tiles import deal_tile, iter_ids, tile_id, tile_set
from . import knowledge
from .calls import (
    BID,
    DOUBLES,
    FOLLOW_ME,
    FOLLOW_ME_LOW,
    LAY_DOWN,
    MARK,
    NELLO,
    NELLO_DOUBLES,
    NELLO_LOW,
    NELLOS,
    PLUNGE,
    SEVENS,
    SPECIAL,
    SPECIAL_WORDS,
    SPLASH,
    TRUMP_WORDS,
    TRUMPS,
    bid_words,
    call_for,
    parse_call,
)
from .contract import Outcome, outcome
from .rules import TrickRules
from .suits import (
    ALL,
    DOUBLE_TRUMPS,
    NO_TRUMP,
    TRUMP,
    Suits,
    count_of,
    doubles_in,
    sevens_distance,
    suits,
)

if TYPE_CHECKING:
    from ..variant import Variant

BIDDING, NAMING, PLAYING = "bidding", "trumps", "playing"
HAND = 7
ZERO_ONE = tile_id(1, 0)
PLAYS = [move_for(PLAY, t) for t in range(28)]
# a named trump past the numbers -> (the trumps of its suit tables, where the doubles stand)
TRUMP_SUITS = {NELLO: (NO_TRUMP, "high"), NELLO_LOW: (NO_TRUMP, "low"),
               NELLO_DOUBLES: (NO_TRUMP, "suit"), SEVENS: (NO_TRUMP, "high"),
               DOUBLES: (DOUBLE_TRUMPS, "high"), FOLLOW_ME: (NO_TRUMP, "high"),
               FOLLOW_ME_LOW: (NO_TRUMP, "low")}
NELLO_CALLS = {"high": (NELLO,), "low": (NELLO_LOW,), "suit": (NELLO_DOUBLES,), "any": NELLOS}
SPECIAL_NEEDS = {PLUNGE: (4, "plunge"), SPLASH: (3, "splash")}  # doubles held, rules flag

ROUND_SLOTS = (
    "_outcome", "bids", "dealer", "dealt", "events", "hands", "high", "holder", "laid_down",
    "leader", "out_seat", "phase", "played", "redeals", "special", "suits", "taken", "trick",
    "tricks", "trump", "ts", "to_move", "won",
)


class TrickMatch(MatchBase):
    """A match of a trick-taking variant (all its rounds)."""

    __slots__ = ROUND_SLOTS + MATCH_SLOTS

    rules: TrickRules

    def __init__(self, variant: Variant, players: int, seed: int, options: dict[str, Any],
                 rules: TrickRules, mrules: MatchRules, deal: dict[str, Any] | None = None
                 ) -> None:
        self.ts = rules.tiles
        hands = None
        if deal is not None:
            hands = parse_deal(deal)
            deal = copy_deal(deal)
        self._init_match(variant, players, seed, options, rules, mrules, deal)
        self.redeals = 0
        self.dealer = 3  # the seat before 0: seat 0 speaks first in Texas's first round
        self._start_round(hands if hands is not None else self._shuffle())
        self._leader1 = self.leader

    # -- dealing and bidding ----------------------------------------------------------

    def _shuffle(self) -> list[int]:
        tiles = list(range(28))
        self.rng.shuffle(tiles)
        return [sum(1 << t for t in tiles[i * HAND:(i + 1) * HAND]) for i in range(4)]

    def _start_round(self, hands: list[int]) -> None:
        self.hands = hands
        self.dealt = hands[:]
        self.phase = BIDDING
        self.bids: list[tuple[int, int, int]] = []  # (seat, points or 0: a pass, special)
        self.high = 0
        self.holder: int | None = None
        self.special = 0  # PLUNGE or SPLASH when the high bid is one
        self.laid_down: int | None = None  # the seat that laid the hand down
        self.trump = NO_TRUMP
        self.suits: Suits = suits(NO_TRUMP, self.rules.either_half, self.rules.doubles)
        self.trick: list[tuple[int, int]] = []  # (seat, tile id) on the table
        # (leader, plays, winner) of each trick taken this round
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        self.taken = [0, 0]  # points per team: a point a trick and the count
        self.won = [0, 0, 0, 0]  # tricks per seat
        self.out_seat: int | None = None
        self.played: list[tuple[int, Move]] = []
        self.events: list[tuple[Any, ...]] = []
        if self.rules.first_bidder == "0-1":
            self.leader = next(s for s in range(4) if (hands[s] >> ZERO_ONE) & 1)
        else:
            self.leader = (self.dealer + 1) % 4
        self.to_move: int | None = self.leader

    def _next_round(self, last: dict[str, Any]) -> None:
        self.dealer = (self.dealer + 1) % 4
        self._start_round(self._shuffle())

    def _bid(self, seat: int, value: int, special: int = 0) -> None:
        self.bids.append((seat, value, special))
        if value:
            self.high, self.holder, self.special = value, seat, special
        if len(self.bids) < 4:
            self.to_move = (seat + 1) % 4
            return
        if self.holder is None:  # all four passed: a new deal, the same round
            self.redeals += 1
            if self.rules.all_pass == "reshake":  # Texas's other custom: the next seat deals
                self.dealer = (self.dealer + 1) % 4
            played = self.played
            self._start_round(self._shuffle())
            self.played = played
            self.events = [("redeal", self.leader)]
            return
        self.phase = NAMING
        self.to_move = self.namer()

    def namer(self) -> int | None:
        """The seat that names trumps: the high bidder, or its partner after a plunge or a
        splash."""
        if self.holder is None:
            return None
        return (self.holder + 2) % 4 if self.special else self.holder

    def special_value(self, kind: int) -> int:
        """The points a plunge or a splash bids now: 4 (plunge) or 3 (splash) marks, or two
        marks more than the last bid in marks."""
        need = SPECIAL_NEEDS[kind][0] * MARK
        return max(need, self.high + 2 * MARK) if self.high >= MARK else need

    def special_choices(self) -> list[int]:
        """The specials (PLUNGE, SPLASH) the seat to move may bid: the table allows it and
        the hand holds enough doubles."""
        seat = self.to_move
        if seat is None or self.phase != BIDDING:
            return []
        held = doubles_in(self.hands[seat])
        return [k for k, (need, flag) in SPECIAL_NEEDS.items()
                if getattr(self.rules, flag) and held >= need]

    def _name_trumps(self, value: int) -> None:
        assert self.holder is not None
        self.trump = value
        number, doubles = TRUMP_SUITS.get(value, (value, self.rules.doubles))
        self.suits = suits(number, self.rules.either_half, doubles)
        if value in NELLOS:
            self.out_seat = (self.holder + 2) % 4
        self.phase = PLAYING
        self.leader = self.to_move = self.namer()

    # -- playing ------------------------------------------------------------------------

    def _seats_in_play(self) -> int:
        return 3 if self.out_seat is not None else 4

    def _next_seat(self, seat: int) -> int:
        seat = (seat + 1) % 4
        return (seat + 1) % 4 if seat == self.out_seat else seat

    def winning(self) -> tuple[int, int] | None:
        """(seat, tile id) of the play winning the trick on the table, None if it is empty."""
        trick = self.trick
        if not trick:
            return None
        if self.trump == SEVENS:  # the nearest to 7; a tie goes to the bidders, else the first
            side = (self.holder or 0) % 2
            return min(trick, key=lambda p: (sevens_distance(p[1]), p[0] % 2 != side))
        s = self.suits
        trumps = s.trumps
        led = s.led[trick[0][1]]
        best = trick[0]
        best_key = (2 if led == TRUMP else 1, s.rank[led][best[1]])
        for seat, t in trick[1:]:
            if (trumps >> t) & 1:
                key = (2, s.rank[TRUMP][t])
            elif (s.members[led] >> t) & 1:
                key = (1, s.rank[led][t])
            else:
                continue
            if key > best_key:
                best, best_key = (seat, t), key
        return best

    def playable(self, seat: int) -> int:
        """The mask of the tiles `seat` may play on the trick now on the table."""
        hand = self.hands[seat]
        trick = self.trick
        if self.trump == SEVENS:
            near = min(sevens_distance(t) for t in iter_ids(hand))
            return sum(1 << t for t in iter_ids(hand) if sevens_distance(t) == near)
        if not trick:
            return hand
        s = self.suits
        led = s.led[trick[0][1]]
        follow = hand & s.members[led]
        if self.rules.follow == "suit":
            return follow or hand
        trumps = hand & s.trumps
        if led == TRUMP:
            return (self._over(trumps) or trumps) if trumps else hand
        if follow:
            return follow
        if not trumps:
            return hand
        win = self.winning()
        assert win is not None
        if self.rules.partner_master and win[0] == (seat + 2) % 4:
            return hand
        return self._over(trumps) or trumps

    def _over(self, trumps: int) -> int:
        """Those of `trumps` that beat every trump already in the trick."""
        rank = self.suits.rank[TRUMP]
        top = max((rank[t] for _, t in self.trick if (self.suits.trumps >> t) & 1), default=-1)
        return sum(1 << t for t in iter_ids(trumps) if rank[t] > top)

    def _play_tile(self, seat: int, tid: int) -> None:
        self.hands[seat] &= ~(1 << tid)
        self.trick.append((seat, tid))
        if len(self.trick) < self._seats_in_play():
            self.to_move = self._next_seat(seat)
            return
        win = self.winning()
        assert win is not None
        winner = win[0]
        points = 1 + sum(count_of(t) for _, t in self.trick)
        self.tricks.append((self.trick[0][0], tuple(self.trick), winner))
        self.taken[winner % 2] += points
        self.won[winner] += 1
        self.trick = []
        self.events.append(("trick", winner, points))
        if len(self.tricks) == HAND:
            self._end_round()
            return
        self.leader = self.to_move = winner

    def _end_round(self) -> None:
        holder = self.holder
        assert holder is not None
        team = holder % 2
        tricks = [self.won[0] + self.won[2], self.won[1] + self.won[3]]
        out = outcome(self.high, team, self.trump, self.taken, tricks, self.won[holder],
                      self.rules.marks)
        self._outcome = out
        for t, points, why in score_reasons(out, self.high, team, self.rules.marks):
            self.add_points(t, points, why)
        MatchBase._round_ended(self)
        self.round_results[-1]["points"] = list(out.points)  # "none" scoring wrote zeros

    def summary(self) -> dict[str, Any]:
        holder = self.holder
        assert holder is not None
        out = self._outcome
        team = holder % 2
        win_team = team if out.made else 1 - team
        return {
            "reason": "made" if out.made else "set",
            "winners": [win_team, win_team + 2],
            "counts": [self.taken[s % 2] for s in range(4)],
            "hands": self.dealt[:],
            "teams": self.rules.teams,
            "eliminated": [],
            "contract": self._contract(),
            "taken": self.taken[:],
            "tricks_won": [self.won[0] + self.won[2], self.won[1] + self.won[3]],
            "made": out.made,
        }

    def sheet(self, summary: dict[str, Any]) -> list[list[dict[str, Any]]]:
        """The score sheet of a finished hand: what `_end_round` scored, one line a reason
        (the round's end adds nothing: its points are those lines)."""
        if "lines" not in summary:
            lines = score_sheet(summary["in_play"], [0, 0], summary, self.mrules, self.scorers)
            summary["scored"] = [sum(x["points"] for x in unit) for unit in lines]
            summary["lines"] = lines
        lines: list[list[dict[str, Any]]] = summary["lines"]
        return lines

    def _final_board(self) -> dict[str, Any]:
        """The hand as it ended, as the table picture reads it: the bids, the contract and
        trumps, every trick with the last one on the table, each team's tricks and points."""
        v = self.view(None)
        out = {k: v[k] for k in ("board", "ends", "layout", "bids", "contract", "trumps",
                                 "tricks", "team_tricks", "team_points", "sits_out")}
        last = v["tricks"][-1]
        out.update({"phase": "over", "to_move": None, "trick": last["tiles"],
                    "trick_winner": last["winner"], "events": []})
        return out

    def _public_summary(self, summary: dict[str, Any], ts: Any) -> dict[str, Any]:
        out = MatchBase._public_summary(self, summary, ts)
        for key in ("contract", "taken", "tricks_won", "made"):
            out[key] = summary[key]
        return out

    # -- the interface ------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make (empty once the match is over)."""
        seat = self.to_move
        if seat is None:
            return []
        if self.phase == PLAYING:  # in the hand's order: trumps first, then by suit
            tiles = [PLAYS[t] for t in self.hand_order(self.playable(seat))]
            return [*tiles, call_for(LAY_DOWN, 0)] if self.may_lay_down() else tiles
        if self.phase == NAMING:
            return [call_for(TRUMPS, v) for v in self.trump_choices()]
        return (list(_bid_moves(tuple(self.bid_choices()), self.must_bid(), self.rules.marks))
                + [call_for(SPECIAL, k) for k in self.special_choices()])

    def _is_legal(self, seat: int, move: Move) -> bool:
        kind = move.kind
        if self.phase == PLAYING:
            if kind == LAY_DOWN:
                return self.may_lay_down()
            return kind == PLAY and bool((self.playable(seat) >> move.tid) & 1)
        if self.phase == NAMING:
            return kind == TRUMPS and move.end in self.trump_choices()
        if kind == PASS:
            return not self.must_bid()
        if kind == SPECIAL:
            return move.end in self.special_choices()
        return kind == BID and move.end in self.bid_choices()

    def must_bid(self) -> bool:
        """Whether the seat to move may not pass (the dealer after three passes, Texas)."""
        return (self.rules.all_pass == "forced" and self.phase == BIDDING
                and len(self.bids) == 3 and self.holder is None)

    def bid_choices(self) -> list[int]:
        """The bids (in points; a mark is 42) the seat to move may make."""
        low = max(self.rules.min_bid, self.high + 1)
        if not self.rules.marks:
            return list(range(low, MARK + 1))
        out = list(range(low, MARK))
        if self.high < MARK:
            out += [MARK, 2 * MARK]  # one or two marks may open
        else:
            out.append(self.high + MARK if self.high >= 2 * MARK else 2 * MARK)
        return out

    def trump_choices(self) -> list[int]:
        """The trumps the namer may name: the numbers, then the Texas specials the table
        allows (nello and sevens after a bid of a mark or more, not after a plunge or a
        splash)."""
        r = self.rules
        out = list(range(7))
        if r.doubles_trumps:
            out.append(DOUBLES)
        if r.follow_me:
            out += [FOLLOW_ME, FOLLOW_ME_LOW]
        if self.high >= MARK and not self.special:
            if r.nello:
                out += NELLO_CALLS[r.nello_doubles]
            if r.sevens:
                out.append(SEVENS)
        return out

    def decided(self) -> bool | None:
        """Whether the contract in play is already made (True) or set (False) whatever the
        tricks left do; None while it is open."""
        holder = self.holder
        if self.phase != PLAYING or holder is None:
            return None
        team = holder % 2
        if self.trump in NELLOS:
            if self.won[holder]:
                return False
            return None
        tricks_other = self.won[1 - team] + self.won[3 - team]
        if self.trump == SEVENS or self.high >= MARK:
            return False if tricks_other else None
        if self.taken[team] >= self.high:
            return True
        left = (HAND - len(self.tricks)) + sum(count_of(t) for h in self.hands for t in
                                                 iter_ids(h)) + sum(count_of(t) for _, t in
                                                                     self.trick)
        return False if self.taken[team] + left < self.high else None

    def may_lay_down(self) -> bool:
        """Whether the seat to move may end the hand now (`lay_down`: a seat of the bidding
        team, the result decided)."""
        holder = self.holder
        return (self.rules.lay_down and holder is not None and self.to_move is not None
                and self.to_move % 2 == holder % 2 and self.decided() is not None)

    def _lay_down(self, seat: int) -> None:
        """End the hand: the tricks left are not played (the marks are already decided)."""
        self.laid_down = seat
        self.trick = []
        self.events.append(("lay down", seat))
        self._end_round()

    def parse_move(self, text: str) -> Move:
        """The move written in `text` ("pass", "bid 30", "bid 1 mark", "trumps 5", "6-4")."""
        return parse_call(text, self.rules.marks)

    def play(self, move: Move | str) -> None:
        """Apply `move` (or its text); `IllegalMove` says why it is refused, changing nothing."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if not isinstance(move, Move):
            raise illegal("a move is text, like 'bid 30', 'pass', 'trumps 5' or '6-4'")
        seat = self.to_move
        if seat is None:
            raise illegal("the game is over")
        if move.kind == PLAY and 0 <= move.tid < 28:
            move = PLAYS[move.tid]  # a tile has no end here: "6-4 left" is played as "6-4"
        if not self._is_legal(seat, move):
            raise self._refusal(seat, move)
        self.events = []
        self.played.append((seat, move))
        if move.kind == PLAY:
            self._play_tile(seat, move.tid)
        elif move.kind == TRUMPS:
            self._name_trumps(move.end)
        elif move.kind == SPECIAL:
            self._bid(seat, self.special_value(move.end), move.end)
        elif move.kind == LAY_DOWN:
            self._lay_down(seat)
        else:
            self._bid(seat, move.end if move.kind == BID else 0)

    def _refusal(self, seat: int, move: Move) -> IllegalMove:
        """Why `move` is not legal now, in words a player can act on."""
        phase = self.phase
        if phase == BIDDING:
            if move.kind == PASS:
                return illegal("you must bid: the three others passed")
            if move.kind == SPECIAL:
                return illegal("{call} needs the table's option and {n} doubles in your hand",
                               call=move.text, n=SPECIAL_NEEDS[move.end][0])
            choices = self.bid_choices()
            if not choices:
                return illegal("no bid can go higher: pass")
            if move.kind == BID:
                return illegal("{bid} is not a bid you may make now; you may bid {bids}",
                               bid=move.text, bids=_span(choices, self.rules.marks))
            return illegal("this is the bidding: bid (like 'bid {low}') or pass",
                           low=bid_words(choices[0], self.rules.marks))
        if phase == NAMING:
            if move.kind == TRUMPS:
                return illegal("{call} is not open to you: name {calls}", call=move.text,
                               calls=tuple(m.text for m in self.legal_moves()))
            return illegal("name trumps first, like 'trumps 5'")
        if move.kind == LAY_DOWN:
            return illegal("you may lay down only on your team's turn when the hand is decided"
                           " (the table's option lay_down)")
        if move.kind != PLAY:
            return illegal("the bidding is over: play a tile")
        if not 0 <= move.tid < 28:
            return illegal("{tile} is not a tile of the double-{top} set", tile=move.text, top=6)
        name = self.ts.names[move.tid]
        if not (self.hands[seat] >> move.tid) & 1:
            return illegal("{tile} is not in your hand", tile=name)
        tiles = tuple(self.ts.names[t] for t in iter_ids(self.playable(seat)))
        if self.trump == SEVENS:
            return illegal("sevens: play your tile nearest 7 pips ({tiles})", tiles=tiles)
        s = self.suits
        led = s.led[self.trick[0][1]]
        hand = self.hands[seat]
        if led == TRUMP:
            if hand & s.trumps & ~(1 << move.tid) and not s.is_trump(move.tid):
                return illegal("trumps were led: play a trump ({tiles})", tiles=tiles)
            return illegal("you must play a higher trump ({tiles})", tiles=tiles)
        if hand & s.members[led]:
            return illegal("{tile} does not follow suit: {suit} was led, play {tiles}",
                           tile=name, suit=led, tiles=tiles)
        if s.is_trump(move.tid):
            return illegal("you must play a higher trump ({tiles})", tiles=tiles)
        return illegal("you must trump: play {tiles}", tiles=tiles)

    def copy(self) -> TrickMatch:
        """An independent copy (computer players search on copies)."""
        new = self._shallow_copy()
        for name in ("bids", "dealt", "events", "hands", "played", "taken", "trick", "tricks",
                     "won"):
            setattr(new, name, getattr(self, name)[:])
        self._copy_match(new)
        return new

    def voids(self, seat: int) -> list[int]:
        """Per seat, the tiles `seat` cannot see (in the other hands) that the public record
        of this round's tricks shows that seat cannot hold (`core.tricks.knowledge`)."""
        unseen = 0
        for s in range(4):
            if s != seat:
                unseen |= self.hands[s]
        return knowledge.voids(self, unseen)

    def redealt(self, seat: int, rng: random.Random,
                known: list[int] | None = None) -> TrickMatch:
        """A copy in which the tiles `seat` cannot see are dealt again at random, as its
        seat may imagine them: each other hand keeps its size and gets no tile the public
        record shows it lacks (`known`: `voids(seat)`, given when already worked out).  Only
        the set of the unseen tiles is used, in order, never where they are: two matches
        that differ only in how the unseen tiles are split give the same copy for the same
        `rng` state.  The copy's shuffler is drawn from `rng`, so its later rounds say
        nothing of this match's.  (Not named `determinized`: the generic searcher, win
        chances and review take that name for a line game's, whose playouts these rounds
        do not fit; the trick games have their own searcher, core.ai.tricks_search.)"""
        new = self.copy()
        hands = new.hands
        others = [s for s in range(4) if s != seat]
        pool_mask = 0
        for s in others:
            pool_mask |= hands[s]
        notin = known if known is not None else self.voids(seat)
        dealt = knowledge.deal_unseen(list(iter_ids(pool_mask)),
                            {s: hands[s].bit_count() for s in others}, notin, rng)
        for s in others:
            hands[s] = dealt[s]
        new._rng = random.Random(rng.getrandbits(64))
        return new

    # -- views ------------------------------------------------------------------------

    def _contract(self) -> dict[str, Any] | None:
        if self.holder is None:
            return None
        text = self._bid_text(self.high, self.special)
        return {"seat": self.holder, "team": self.holder % 2, "bid": self.high, "text": text,
                "special": SPECIAL_WORDS.get(self.special), "namer": self.namer()}

    def trumps_word(self) -> int | str | None:
        """Trumps as the view says them: a number, a word of `TRUMP_WORDS`, or None."""
        if self.trump == NO_TRUMP:
            return None
        return TRUMP_WORDS.get(self.trump, self.trump)

    def _bid_text(self, value: int, special: int) -> str:
        """A bid as the view says it: "pass", "30", "2 marks", "plunge 4 marks"."""
        if not value:
            return "pass"
        text = bid_words(value, self.rules.marks)
        return f"{SPECIAL_WORDS[special]} {text}" if special else text

    def hand_order(self, mask: int) -> list[int]:
        """A hand's tiles grouped by suit, trumps first, each suit highest first."""
        return sorted(iter_ids(mask), key=self.suits.order.__getitem__)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may know (None: the public view of the channel), as JSON data."""
        self._check_seat(seat)
        ts = self.ts
        names = ts.names
        v = self._match_view(seat, ts)
        marks = self.rules.marks

        def plays(trick: tuple[tuple[int, int], ...] | list[tuple[int, int]]
                  ) -> list[dict[str, Any]]:
            return [{"seat": p, "tile": names[t]} for p, t in trick]

        past = [{"leader": lead, "tiles": plays(trick), "winner": w,
                 "points": 1 + sum(count_of(t) for _, t in trick)}
                for lead, trick, w in self.tricks]
        trick = plays(self.trick)
        board = [p["tile"] for t in past for p in t["tiles"]] + [p["tile"] for p in trick]
        win = self.winning()
        v.update({
            "hand_sizes": [h.bit_count() for h in self.hands],
            "board": board,
            "ends": [],
            "stock": 0,
            "phase": self.phase if not self.over else "over",
            "dealer": self.dealer,
            "bids": [{"seat": s, "bid": self._bid_text(b, k)} for s, b, k in self.bids],
            "contract": self._contract(),
            "trumps": self.trumps_word(),
            "leader": self.leader,
            "trick": trick,
            "trick_winner": None if win is None else win[0],
            "tricks": past,
            "team_tricks": [self.won[0] + self.won[2], self.won[1] + self.won[3]],
            "team_points": self.taken[:],
            "sits_out": self.out_seat,
            "marks": marks,
            "target_unit": "marks" if marks else "points",
            "redeals": self.redeals,
            "must_bid": self.must_bid(),  # the dealer after three passes (Texas): no pass
            "doubles": self.suits.doubles,
            "laid_down": self.laid_down,
        })
        if marks:
            v["strip_extra"] = "Scores in marks: a contract made scores 1 mark, or the marks bid"
        v["layout"] = {"kind": "tricks"}  # render reads the trick keys above
        if seat is not None:
            v["hand"] = [names[t] for t in self.hand_order(self.hands[seat])]
            add_legal(self, v, seat)
        return v


@cache
def _bid_moves(choices: tuple[int, ...], forced: bool, marks: bool) -> tuple[Move, ...]:
    """The moves of the bidding: "pass" (unless forced) then the bids, lowest first."""
    calls = tuple(call_for(BID, v, marks) for v in choices)
    return calls if forced else (move_for(PASS), *calls)


def score_reasons(out: Outcome, bid: int, team: int, marks: bool
                  ) -> list[tuple[int, int, str]]:
    """What each team scores for a finished hand, one entry a reason: (team, points, why).

    The contract's part is its value (a mark or the marks bid in marks); in points what a
    team scores beyond it is the bidders' points over the contract (counted double) or the
    defenders' own points taken: `outcome` decided the totals, this only names their parts."""
    other = 1 - team
    winner = team if out.made else other
    total = out.points[winner]
    worth = total if marks else bid
    parts = [(winner, worth, "contract made" if out.made else "contract set")]
    if total > worth:
        parts.append((winner, total - worth, "over the contract" if out.made else "taken"))
    if out.made and out.points[other]:
        parts.append((other, out.points[other], "taken"))
    return [p for p in parts if p[1]]


def _span(values: list[int], marks: bool) -> str:
    """Bids as a short phrase: "31 to 42", with the marks after the points."""
    points = [v for v in values if v < MARK or not marks]
    parts = []
    if points:
        parts.append(str(points[0]) if len(points) == 1 else f"{points[0]} to {points[-1]}")
    parts += [bid_words(v, marks) for v in values if marks and v >= MARK]
    return ", ".join(parts)



def parse_deal(deal: Any) -> list[int]:
    """The four hands of a hand-built deal: seven tiles each, the 28 of the set, checked."""
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise bad_option('deal must be {{"hands": [[tiles], ...], "stock": [tiles]}}')
    if len(deal["hands"]) != 4:
        raise bad_option("deal has {hands} hands for {players} players",
                         hands=len(deal["hands"]), players=4)
    if deal.get("stock"):
        raise bad_option("deal: this game has no stock to draw from")
    ts = tile_set(6)
    seen = 0
    hands = []
    for hand in deal["hands"]:
        if not isinstance(hand, list) or len(hand) != HAND:
            raise bad_option("deal: each hand holds {n} tiles", n=HAND)
        mask = 0
        for text in hand:
            t = deal_tile(ts, text, seen)
            seen |= 1 << t
            mask |= 1 << t
        hands.append(mask)
    assert seen == ALL
    return hands


__all__ = ["BIDDING", "NAMING", "PLAYING", "TrickMatch"]
