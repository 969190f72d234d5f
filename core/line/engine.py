"""The two-ended line game: one round of dealing, leading, laying, drawing.

This is the shared engine of the line family.  A variant describes its round
with a `LineRules` value (set, hand size, what happens when a seat cannot
play, who leads, teams, elimination) and the engine does the rest.

Hot-path choices: tiles are int ids, hands and value classes are int bitmasks,
moves are interned (`moves.move_table`), and a seat whose only option is to
pass or to draw does so inside the engine (recorded as an event), so
`to_move` is always a seat with a real decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from ..errors import bad_option, illegal
from ..moves import LEAD, LEFT, PLAY, Move, move_table
from ..tiles import TileSet, iter_ids, tile_set

# What a seat does when it cannot play.
BLOCK = "block"  # pass ("en boudant")
UNTIL = "until"  # draw until a tile fits, then play it; stock empty: pass
ONE_PASS = "one-pass"  # draw one tile and pass, even if it fits
ONE_TRY = "one-try"  # draw one tile and play it if it fits, else pass


Tables = tuple[list[Move], list[Move], list[Move], list[int],
               dict[int, tuple[Move, ...]], dict[int, tuple[Move, ...]]]

@dataclass(frozen=True, slots=True)
class LineRules:
    """How one round of a line game is dealt and played."""

    set_max: int = 6
    hand: int = 7
    stock: bool = True  # undealt tiles form a stock; otherwise they sleep
    draw: str = UNTIL
    lead: str = "highest"  # highest | lowest | heaviest | any: first round's leader
    later_lead: str = "rotate"  # rotate | highest | lowest | heaviest | winner
    chain_turns: bool = False  # a seat lays tiles as long as it can
    eliminate: bool = False  # a seat that cannot play leaves the round
    teams: tuple[tuple[int, ...], ...] | None = None
    strict: bool = False  # teams: the round ends when a whole team is out
    count: str = "pips"  # pips | tiles: what a blocked round compares

    @property
    def tiles(self) -> TileSet:
        return tile_set(self.set_max)


class LineRound:
    """One round of a line game: hands, stock, the chain and whose turn it is.

    The state lives on the match object itself (`core.match.LineMatch`): a
    new round resets it with `_start_round`, so a move costs one method call.
    When a round ends the engine calls `_round_ended()`, which the match
    implements (scoring, next deal or end of match).

    Hooks (issue 7): a variant that needs more than `LineRules` subclasses
    the match, sets the class attribute ``hooked = True`` and overrides what
    it needs; the plain variants never pay for them (one class-level boolean
    is read in the hot path):

    * `_laid(seat, move)`: after a tile is laid and the ends updated, before
      the turn passes; True when the hook has set ``to_move`` itself (play
      again, match over...).
    * `_extra_moves()` / `_play_extra(move)`: moves that are not tiles
      (``claim``, ``muggins``, ``buy``, ``give 6-4``, ``draw``); the engine
      lists them after the tile moves, checks a played one is listed,
      records it in ``played`` and clears the events before calling
      `_play_extra`, which applies it and sets ``to_move``.
    * `_wants_turn(seat)`: a seat with no tile to lay still gets the turn
      (e.g. to claim), instead of being passed over.
    * `_view_extra(seat)`: extra view keys (JSON data; never another seat's
      secret).
    * `_lay(a, b, end)`: the join rule (touching half, outer half, new end);
      with it ``tables[3]`` (the masks of tiles that go on each end value)
      is the match's own (`LineMatch._set_tables`).
    * `_copied(new)`: give a copy its own mutable state (`LineMatch.copy`).
    * `_round_bonus()`: points (`add_points`) due when a round ends, before
      the match scores it (`LineMatch._round_ended`).
    """

    __slots__ = ()

    hooked: ClassVar[bool] = False  # a subclass with hooks sets it
    plain_check: ClassVar[bool] = True  # `check` is the engine's (set for each subclass)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.plain_check = cls.check is LineRound.check
        if cls.hooked and cls.legal_moves is LineRound.legal_moves:
            cls.legal_moves = LineRound._legal_with_extras  # type: ignore[method-assign]

    # Round state, declared as slots by the concrete match class.
    rules: LineRules
    ts: TileSet
    tables: Tables
    vmask: list[int]
    lmemo: dict[int, tuple[Move, ...]]  # tables[4] and tables[5], read at every listing
    rmemo: dict[int, tuple[Move, ...]]
    seat_after: list[int]  # the seat after each seat
    chain_turns: bool  # rules.chain_turns, read at every move
    general: bool  # hooks or chained turns: every move goes `_play`'s general way
    one_round: bool  # plain, and the match ends with its round: scored when first read
    lead_bytes: list[list[tuple[Move, ...]]]  # `lead_bytes(tables[0])`
    n: int
    _hands: list[int] | None  # None: the round's tiles are not dealt yet
    _stock: list[int]
    _sleeping: int
    left: int
    right: int
    played: list[tuple[int, Move]]
    events: list[tuple[Any, ...]]
    active: list[bool]
    eliminated: list[int]
    notin: list[int]  # per seat, tiles it showed it does not hold (a pass); public knowledge
    ended: bool
    reason: str
    winners: list[int]
    team_of: list[int]
    leader: int
    lead_tid: int
    to_move: int | None
    gone: list[int]  # the match's seats out of the match (core.match.MatchBase)

    def _start_round(
        self,
        hands: list[int],
        stock: list[int],
        sleeping: int,
        leader: int | None = None,
        lead: str | None = None,
    ) -> None:
        """Start a round from dealt hands (bitmasks) and a stock (drawn from index 0).

        `leader` is given when the rules let a seat open with any tile; else
        the leader is found from the hands by `lead` (default `rules.lead`).
        """
        self._reset_round(len(hands))
        self._hands = list(hands)
        self._stock = stock[::-1]  # draw with pop()
        self._sleeping = sleeping
        if leader is not None:
            self.leader, self.lead_tid = leader, -1
        else:
            self.leader, self.lead_tid = self._find_leader(lead or self.rules.lead)
        self._check_leader()
        self.to_move = self.leader

    def _reset_round(self, n: int) -> None:
        """Everything of a new round but the tiles: an empty line, nobody out."""
        self.n = n
        self.left = -1
        self.right = -1
        self.played = []
        self.events = []
        gone = self.gone  # seats out of the match (MatchRules reach="loses")
        self.active = [s not in gone for s in range(n)] if gone else [True] * n
        self.eliminated = []
        self.notin = [0] * n
        self.ended = False
        self.reason = ""
        self.winners = []

    def _check_leader(self) -> None:
        if not self._hands[self.leader]:
            raise bad_option("the leader has no tile to lead")

    def _deal_pending(self) -> list[int]:
        """Deal a round whose leader is already known (see `LineMatch`); the hands."""
        raise NotImplementedError

    # The tiles, for readers outside the engine: a round whose leader is known
    # from the rules is dealt at the first call that needs its tiles.

    @property
    def hands(self) -> list[int]:
        """Each seat's hand as a bitmask of tile ids."""
        hands = self._hands
        return self._deal_pending() if hands is None else hands

    @property
    def stock(self) -> list[int]:
        """The tiles left to draw, the next one drawn last."""
        if self._hands is None:
            self._deal_pending()
        return self._stock

    @property
    def sleeping(self) -> int:
        """The tiles out of the round (bitmask)."""
        if self._hands is None:
            self._deal_pending()
        return self._sleeping

    # -- set-up ------------------------------------------------------------

    def _find_leader(self, how: str) -> tuple[int, int]:
        """(seat, tile) of the opening: highest or lowest double, else heaviest
        or lightest tile (ties between equal pip counts go to the higher half);
        ``heaviest``: the tile with the most pips, double or not ("le double-six
        ou le domino totalisant le plus de points", 000), a double first on a tie."""
        ts = self.ts
        best: tuple[int, ...] | None = None
        found = (0, -1)
        for seat, hand in enumerate(self._hands):
            for t in iter_ids(hand):
                double = ts.hi[t] == ts.lo[t]
                if how == "lowest":
                    key = (double, -ts.pips[t], -ts.hi[t])
                elif how == "heaviest":
                    key = (ts.pips[t], double, ts.hi[t])
                else:
                    key = (double, ts.pips[t], ts.hi[t])
                if best is None or key > best:
                    best, found = key, (seat, t)
        return found

    # -- moves ---------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The moves of the seat to move (none once the match is over)."""
        try:
            h = self._hands[self.to_move]
        except TypeError:  # the match is over, or the round's tiles are not dealt yet
            if self.to_move is None:
                return []
            h = self._deal_pending()[self.to_move]
        left = self.left
        if left < 0:
            if self.lead_tid >= 0:
                return [self.tables[0][self.lead_tid]]
            out: list[Move] = []
            for moves in self.lead_bytes:  # a byte of the hand at a time, lowest tile first
                out += moves[h & 255]
                h >>= 8
                if not h:
                    break
            return out
        vmask = self.vmask
        right = self.right
        m = h & vmask[left]
        try:  # a dict's subscript costs less than its get
            out_left = self.lmemo[m]
        except KeyError:
            out_left = _moves_of(self.lmemo, m, self.tables[1])
        if right == left:
            return [*out_left]
        m = h & vmask[right]
        try:
            out_right = self.rmemo[m]
        except KeyError:
            out_right = _moves_of(self.rmemo, m, self.tables[2])
        return [*out_left, *out_right]

    def check(self, move: Move) -> tuple[int, int]:
        """The (left, right) ends after `move`, or `IllegalMove` saying why not."""
        if self.to_move is None:
            raise illegal("the game is over")
        if move.kind != PLAY:
            raise illegal("'{move}' is not allowed now: you can play a tile", move=str(move))
        tid = move.tid
        ts = self.ts
        if tid >= len(ts.hi) or not (self.hands[self.to_move] >> tid) & 1:
            raise illegal("{tile} is not in your hand", tile=str(move.tile))
        a, b = ts.hi[tid], ts.lo[tid]
        left, right = self.left, self.right
        if left < 0:
            if move.end != LEAD:
                raise illegal("the first tile has no end: write '{tile}'", tile=ts.names[tid])
            if self.lead_tid >= 0 and tid != self.lead_tid:
                raise illegal("the round must be opened with {tile}",
                              tile=ts.names[self.lead_tid])
            return a, b
        end = move.end
        if end == LEAD:
            raise illegal("say which end: '{tile} left' or '{tile} right'", tile=str(move.tile))
        value = left if end == LEFT else right
        laid = self._lay(a, b, value)
        if laid is None:
            side = "left" if end == LEFT else "right"
            raise illegal("{tile} does not match the {side} end ({value})", tile=str(move.tile),
                          side=side, value=value)
        new = laid[2]
        return (new, right) if end == LEFT else (left, new)

    def play(self, move: Move | str) -> None:
        """Lay a tile for the seat to move; raise `IllegalMove` and change nothing if illegal.

        This is the loop computer players run millions of times: a plain round's common
        case (a tile laid on an end it fits, then the next seat has a tile that fits, or
        the round ends) is written out here; everything else, and every error, goes the
        general way (`_play`), which handles the common case the same way.
        """
        try:
            side = move.side  # type: ignore[union-attr]
        except AttributeError:  # text: the general way (outside this handler)
            side = -1
        seat = self.to_move
        if side < 0 or self.general:  # a lead or a move that is not a tile; hooks
            return self._play(move)
        try:
            hands = self._hands
            hand = hands[seat]  # type: ignore[index]
        except TypeError:  # the match is over, or the round's tiles are not dealt yet
            return self._play(move)
        bit = move.bit  # type: ignore[union-attr]
        if not hand & bit:
            return self._play(move)
        if side:
            right = move.after[self.right]  # type: ignore[union-attr]
            if right < 0:
                return self._play(move)
            left = self.left
            self.right = right
        else:
            left = move.after[self.left]  # type: ignore[union-attr]
            if left < 0:
                return self._play(move)
            right = self.right
            self.left = left
        hand ^= bit
        hands[seat] = hand
        self.played.append(move.by_seat[seat])  # type: ignore[union-attr]
        if self.events:
            self.events = []
        vmask = self.vmask
        if not hand:
            if not self._went_out(seat):
                self._advance(seat)
            return
        nxt = self.seat_after[seat]
        if hands[nxt] & (vmask[left] | vmask[right]) and self.active[nxt]:
            self.to_move = nxt
            return
        self._advance(seat)

    def _play(self, move: Move | str) -> None:
        """`play` in general: text, leads, hooks, chained turns, and the errors."""
        if move.__class__ is not Move:
            move = self.parse_move(move)  # type: ignore[arg-type]
        seat = self.to_move
        try:
            hands = self._hands
            hand = hands[seat]  # type: ignore[index]
        except TypeError:  # the match is over, or the round's tiles are not dealt yet
            if seat is None:
                raise illegal("the game is over") from None
            hands = self._deal_pending()
            hand = hands[seat]
        side = move.side
        hooked = self.hooked
        if side < 0 or hooked or not hand & move.bit:
            if move.kind and hooked:  # (a PLAY has a tile)
                self._extra(seat, move)
                return
            tid = move.tid
            if (move.end == LEAD and hand & move.bit and self.left < 0 and self.plain_check
                    and not hooked and (self.lead_tid < 0 or tid == self.lead_tid)):
                left, right = self.ts.hi[tid], self.ts.lo[tid]  # a lead `check` allows
                self.left, self.right = left, right
            else:
                self.left, self.right = left, right = self.check(move)  # with the messages
        elif side:  # LEFT is 0: a tile on the right end (an empty line's is -1: no fit)
            left = self.left
            right = move.after[self.right]
            if right < 0:
                left, right = self.check(move)
                self.left = left
            self.right = right
        else:
            left = move.after[self.left]
            right = self.right
            if left < 0:
                left, right = self.check(move)
                self.right = right
            self.left = left
        hand ^= move.bit
        hands[seat] = hand
        self.played.append(move.by_seat[seat])  # the interned (seat, move)
        if self.events:
            self.events = []
        if hooked:
            if self._laid(seat, move):
                return
            left, right, hand = self.left, self.right, hands[seat]
        vmask = self.vmask
        playable = vmask[left] | vmask[right]
        if not hand:
            if self._went_out(seat):
                return
        elif self.chain_turns and hand & playable:
            return
        nxt = self.seat_after[seat]
        if hands[nxt] & playable and self.active[nxt]:
            self.to_move = nxt
            return
        self._advance(seat)

    def _legal_with_extras(self) -> list[Move]:
        """`legal_moves` of a hooked match: the tile moves, then `_extra_moves()`."""
        moves = LineRound.legal_moves(self)
        if self.to_move is None:
            return moves
        extra = self._extra_moves()
        return [*moves, *extra] if extra else moves

    def _extra(self, seat: int, move: Move) -> None:
        """Play a move that is not a tile, if the variant offers it now."""
        if move not in self._extra_moves():
            raise illegal("'{move}' is not allowed now", move=str(move))
        self.played.append((seat, move))
        self.events = []
        self._play_extra(move)

    # -- hooks (see the class docstring); the defaults are the plain game -----

    def _lay(self, a: int, b: int, end: int) -> tuple[int, int, int] | None:
        """(touching half, outer half, new end) of tile a-b laid on `end`, or
        None: equal halves touch."""
        if a == end:
            return a, b, b
        if b == end:
            return b, a, a
        return None

    def _laid(self, seat: int, move: Move) -> bool:
        return False

    def _extra_moves(self) -> list[Move]:
        return []

    def _play_extra(self, move: Move) -> None:
        raise illegal("'{move}' is not allowed now", move=str(move))

    def _wants_turn(self, seat: int) -> bool:
        return False

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        return {}

    def end_tiles(self) -> tuple[int, int]:
        """The ids of the tiles lying at the left and right ends (-1: none yet)."""
        left = right = -1
        for _, m in reversed(self.played):
            if m.kind != PLAY:
                continue
            if m.end == LEAD:
                return (m.tid if left < 0 else left), (m.tid if right < 0 else right)
            if m.end == LEFT:
                if left < 0:
                    left = m.tid
            elif right < 0:
                right = m.tid
            if left >= 0 and right >= 0:
                break
        return left, right

    # -- turn order ----------------------------------------------------------

    def _went_out(self, seat: int) -> bool:
        """A seat laid its last tile; True when that ends the round."""
        self.events.append(("out", seat))
        rules = self.rules
        if rules.teams and rules.strict:
            self.active[seat] = False
            team = rules.teams[self.team_of[seat]]
            if any(self._hands[s] for s in team):
                return False
            self._finish("out", list(team))
            return True
        self._finish("out", list(rules.teams[self.team_of[seat]]) if rules.teams else [seat])
        return True

    def _advance(self, seat: int, playable: int = -1, draw: str = "") -> None:
        """Give the turn to the next seat that has a decision, resolving the
        passes and draws of seats that have none; end the round when blocked.
        A layout with more ends gives the tiles that fit them (`playable`) and,
        if it differs for now, what a seat that cannot play does (`draw`)."""
        seat_after = self.seat_after
        hands = self._hands
        active = self.active
        if playable < 0:
            vmask = self.vmask
            playable = vmask[self.left] | vmask[self.right]
        rules = self.rules
        draw = draw or rules.draw
        eliminate = rules.eliminate
        hooked = self.hooked
        stock = self._stock
        events = self.events
        stuck = 0
        live = -1  # how many seats are in the round, counted at the first pass
        while True:
            seat = seat_after[seat]
            if not active[seat]:
                continue
            if hands[seat] & playable or (hooked and self._wants_turn(seat)):
                self.to_move = seat
                return
            if eliminate:
                if self._eliminate(seat):
                    return
                live -= 1
                continue
            if stock and draw != BLOCK:
                drawn = []
                if draw == UNTIL:
                    while stock:
                        t = stock.pop()
                        drawn.append(t)
                        if (playable >> t) & 1:
                            break
                else:
                    drawn.append(stock.pop())
                for t in drawn:
                    hands[seat] |= 1 << t
                events.append(("draw", seat, drawn))
                stuck = 0
                if draw != ONE_PASS and hands[seat] & playable:
                    # It held nothing that fits, and drew until one tile fit (or drew the
                    # one that fits): it must lay that tile now, after which it holds
                    # nothing of `playable`, as everyone saw.
                    self.notin[seat] = playable
                    self.to_move = seat
                    return
                events.append(("pass", seat))
                # it holds none of what fits now, unless it passes holding a drawn tile
                self.notin[seat] = 0 if draw == ONE_PASS else playable
                if stock:
                    continue
            else:
                events.append(("pass", seat))
                self.notin[seat] |= playable
            stuck += 1
            if live < 0:
                live = sum(active)
            if stuck >= live:
                self._blocked()
                return

    def _eliminate(self, seat: int) -> bool:
        """Take a seat out of the round; True when that ends the round."""
        self.active[seat] = False
        self.eliminated.append(seat)
        self._sleeping |= self._hands[seat]
        self._hands[seat] = 0
        self.events.append(("eliminated", seat))
        left = [s for s in range(self.n) if self.active[s]]
        if len(left) == 1:
            self._finish("last", left)
            return True
        return False

    def counts(self) -> list[int]:
        """Per seat, what a blocked round compares: pips or tiles in hand."""
        if self.rules.count == "tiles":
            return [h.bit_count() for h in self._hands]
        return self.ts.masks_pips(self._hands)

    def _blocked(self) -> None:
        counts = self.counts()
        teams = self.rules.teams
        if teams:
            totals = [sum(counts[s] for s in team) for team in teams]
            best = min(totals)
            winners = [s for i, team in enumerate(teams) if totals[i] == best for s in team]
        else:
            live = [s for s in range(self.n) if self.active[s]]
            best = min(counts[s] for s in live)
            winners = [s for s in live if counts[s] == best]
        self._finish("blocked", sorted(winners))

    def _finish(self, reason: str, winners: list[int]) -> None:
        self.ended = True
        self.reason = reason
        self.winners = winners
        self.events.append(("end", reason, winners))
        self._round_ended()

    # -- what players see ----------------------------------------------------

    def chain(self, played: list[tuple[int, Move]] | None = None
              ) -> tuple[list[str], int | None]:
        """The tiles in line order, each written left half first, and the
        index of the last one laid (of this round, or of the moves `played`)."""
        ts = self.ts
        line: list[str] = []
        left_count = 0
        ends = [-1, -1]
        last = None
        for _, move in self.played if played is None else played:
            if move.kind != PLAY:
                continue
            a, b = ts.hi[move.tid], ts.lo[move.tid]
            if move.end == LEAD or not line:
                line.append(f"{a}-{b}")
                ends = [a, b]
                last = 0
                continue
            side = 0 if move.end == LEFT else 1
            laid = self._lay(a, b, ends[side])
            inner, outer, ends[side] = laid if laid is not None else (a, b, b)
            if side == 0:
                line.insert(0, f"{outer}-{inner}")
                left_count += 1
                last = 0
            else:
                line.append(f"{inner}-{outer}")
                last = len(line) - 1
        return line, last

    def summary(self) -> dict[str, Any]:
        """The round's outcome: reason, winners, per-seat counts, hands (bitmasks)."""
        return {
            "reason": self.reason,
            "winners": self.winners,
            "counts": self.counts(),
            "eliminated": self.eliminated,
            "hands": self._hands[:],
            "set": self.ts.max_pip,
            "teams": self.rules.teams,
        }


_TABLE_CACHE: dict[int, Tables] = {}
_MEMO_LIMIT = 100_000


def _tables(ts: TileSet) -> Tables:
    """Interned moves by tile id, value masks extended with -1 -> 0, and the
    memo of left and right moves by the mask of tiles that fit an end."""
    found = _TABLE_CACHE.get(ts.max_pip)
    if found is None:
        lead, left, right = move_table(len(ts.hi))
        vmask = [*ts.value_mask, 0]  # index -1 (empty board) reads 0
        found = _TABLE_CACHE[ts.max_pip] = (lead, left, right, vmask, {0: ()}, {0: ()})
    return found


@cache
def _seat_after(n: int) -> list[int]:
    """The seat after each of `n` seats; shared, never changed."""
    return [*range(1, n), 0]


@cache
def _team_of(teams: tuple[tuple[int, ...], ...] | None, n: int) -> list[int]:
    """Each seat's team index (0 without teams); shared, never changed."""
    out = [0] * n
    for i, team in enumerate(teams or ()):
        for s in team:
            out[s] = i
    return out


def _moves_of(memo: dict[int, tuple[Move, ...]], mask: int, by_id: list[Move]
              ) -> tuple[Move, ...]:
    """The moves of the tiles in `mask`, on a miss of `memo` (a value class has few
    subsets: they are kept)."""
    found = tuple(by_id[t] for t in iter_ids(mask))
    if len(memo) < _MEMO_LIMIT:
        memo[mask] = found
    return found


LeadBytes = list[list[tuple[Move, ...]]]
_LEAD_CACHE: dict[int, tuple[list[Move], LeadBytes]] = {}


def lead_bytes(lead: list[Move]) -> LeadBytes:
    """The lead moves (`lead`: by tile id) of each byte of a hand: ``[i][b]`` are those of
    the tiles ``8 * i`` to ``8 * i + 7`` whose bits are set in ``b``, lowest first."""
    found = _LEAD_CACHE.get(id(lead))
    if found is None or found[0] is not lead:
        table = [[tuple(lead[t] for t in iter_ids(byte << start) if t < len(lead))
                  for byte in range(256)] for start in range(0, len(lead), 8)]
        found = _LEAD_CACHE[id(lead)] = (lead, table)
    return found[1]


def deal_masks(tiles: list[int], players: int, hand: int) -> tuple[list[int], list[int]]:
    """Split a shuffled list of tile ids into hand bitmasks and the rest."""
    hands = []
    for i in range(players):
        mask = 0
        for t in tiles[i * hand : (i + 1) * hand]:
            mask |= 1 << t
        hands.append(mask)
    return hands, tiles[players * hand :]


__all__ = ["BLOCK", "ONE_PASS", "ONE_TRY", "UNTIL", "LineRound", "LineRules", "deal_masks"]
