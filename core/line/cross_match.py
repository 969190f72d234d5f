"""`CrossMatch`: a match of a cross game (all-fives, sebastopol, cross).

It is a `LineMatch` whose table is a `core.line.cross.CrossBoard` instead of a
two-ended line: dealing, leading, drawing, passing, blocking, going out,
rounds, scores and the record are the line engine's and the match's own
(`core.line.engine`, `core.line.match`, `core.match`); this module adds what the
cross changes:

* moves go on any open end of the board (``"6-4 up"``, ``"3-1 up-3-left"``);
* `CrossRules.need_double`: the round opens with a double, the spinner; when
  nobody holds one the players draw in turn, from seat 0, until one is drawn
  (000, "SEBASTOPOL");
* `CrossRules.end_score`: after each play the count of the ends is scored
  with a rule of `core.line.end_points`; with `claim` the player must claim it
  ("claim", offered right after the play) or leave it to the next seat, who
  may take it ("muggins") before laying a tile, and is asked even when no tile
  of theirs fits (003, "Tous les cinq": "le joueur suivant immédiat").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import IllegalMove, illegal
from ..moves import CLAIM, LEAD, MUGGINS, PASS, PLAY, Move, move_for, parse_notation
from ..tiles import iter_ids
from .cross import CrossBoard, cross_move, end_name, parse_end
from .end_points import SCORERS, end_count
from .engine import UNTIL, LineRules
from .match import LineMatch

CLAIM_MOVE = move_for(CLAIM)
MUGGINS_MOVE = move_for(MUGGINS)
PASS_MOVE = move_for(PASS)
_SPACES = re.compile(r"\s+")
_WORDS = ("pass", "draw", "claim", "muggins", "passe", "pioche")


@dataclass(frozen=True, slots=True)
class CrossRules(LineRules):
    """A line game's round rules, plus what the cross changes (see the module doc)."""

    sides_first: bool = False  # the spinner's up/down open once left and right hold a tile
    fill_first: bool = False  # the spinner's four sides are filled (drawing) before the rest
    every_double: bool = False  # every later double opens two branches
    need_double: bool = False  # the round opens with a double, drawn for if nobody holds one
    end_score: str | None = None  # a `core.line.end_points.SCORERS` rule scored after each play
    claim: bool = False  # the points of a play must be claimed (else "muggins")


class CrossMatch(LineMatch):
    """A match of a cross-game variant (all its rounds)."""

    __slots__ = ("board", "claiming", "pending", "pending_by")
    hooked = True  # for `_view_extra`; moves are this class's own

    rules: CrossRules
    board: CrossBoard
    claiming: bool  # the seat to move just scored and is asked to claim
    pending: int  # points of the last play not claimed yet (0: none)
    pending_by: int  # who made them

    # -- rounds ---------------------------------------------------------------------------

    def _reset_round(self, n: int) -> None:
        super()._reset_round(n)
        r = self.rules
        self.board = CrossBoard(self.ts, r.sides_first, r.fill_first, r.every_double)
        self.claiming = False
        self.pending = 0
        self.pending_by = -1

    def _start_round(self, hands: list[int], stock: list[int], sleeping: int,
                     leader: int | None = None, lead: str | None = None) -> None:
        super()._start_round(hands, stock, sleeping, leader, lead)
        if self.rules.need_double and leader is None and not self._is_double(self.lead_tid):
            self._draw_for_double()

    def _is_double(self, tid: int) -> bool:
        return tid >= 0 and self.ts.hi[tid] == self.ts.lo[tid]

    def _draw_for_double(self) -> None:
        """Nobody holds a double: seats draw one tile in turn, from seat 0, until
        one draws a double and leads with it (an empty stock: the heaviest tile leads)."""
        stock = self._stock
        seat = 0
        while stock:
            if self.active[seat]:
                t = stock.pop()
                self._hands[seat] |= 1 << t
                self.events.append(("draw", seat, [t]))
                if self._is_double(t):
                    self.leader, self.lead_tid = seat, t
                    self.to_move = seat
                    return
            seat = (seat + 1) % self.n
        self.leader, self.lead_tid = self._find_leader("highest")
        self.to_move = self.leader

    # -- moves ----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The moves of the seat to move (none once the match is over)."""
        seat = self.to_move
        if seat is None:
            return []
        if self.claiming:
            return [CLAIM_MOVE, PASS_MOVE]
        hand = self.hands[seat]
        board = self.board
        if board.root < 0:
            if self.lead_tid >= 0:
                return [cross_move(self.lead_tid, LEAD)]
            return [cross_move(t, LEAD) for t in iter_ids(hand)]
        vmask = self.vmask
        out = [cross_move(t, code) for code, value in board.listed_ends()
               for t in iter_ids(hand & vmask[value])]
        if self.pending and seat != self.pending_by:
            if not out:  # asked only for the points: take them or let them go
                return [MUGGINS_MOVE, PASS_MOVE]
            out.append(MUGGINS_MOVE)
        return out

    def _wants_turn(self, seat: int) -> bool:
        """003: "le joueur suivant immédiat peut revendiquer les points": the next
        seat is asked about unclaimed points even when no tile of theirs fits."""
        return self.pending > 0 and seat != self.pending_by

    def play(self, move: Move | str) -> None:
        """Apply a move of the seat to move; `IllegalMove` (and no change) if illegal."""
        if not isinstance(move, Move):
            move = self.parse_move(move)
        seat = self.to_move
        if seat is None:
            raise illegal("the game is over")
        if self.claiming or move.kind != PLAY:
            self._play_word(seat, move)
            return
        tid = move.tid
        hands = self.hands
        if tid >= len(self.ts.hi) or not (hands[seat] >> tid) & 1:
            raise illegal("{tile} is not in your hand", tile=str(move.tile))
        board = self.board
        name = self.ts.names[tid]
        if board.root < 0:
            if move.end != LEAD:
                raise illegal("the first tile has no end: write '{tile}'", tile=name)
            if self.lead_tid >= 0 and tid != self.lead_tid:
                raise illegal("the round must be opened with {tile}",
                              tile=self.ts.names[self.lead_tid])
            board.lead(tid)
        else:
            if move.end == LEAD:
                raise illegal("say which end: '{tile} left', '{tile} up'...", tile=name)
            board.lay(tid, move.end)  # checks first: raises before any change
        hands[seat] &= ~(1 << tid)
        self.played.append((seat, move))
        self.events = []
        self.pending = 0
        self._after_lay(seat)

    def _after_lay(self, seat: int) -> None:
        """Score the ends, then go out, ask for the claim or pass the turn."""
        rule = self.rules.end_score
        points = SCORERS[rule](end_count(*self.board.count())) if rule else 0
        out = not self._hands[seat]
        if points:
            if self.rules.claim and not out:
                self.claiming = True
                self.pending, self.pending_by = points, seat
                return
            if self.add_points(seat, points, "ends"):
                return
        if out and self._went_out(seat):
            return
        self._pass_turn(seat)

    def _play_word(self, seat: int, move: Move) -> None:
        """Claim, decline the claim, or cry muggins."""
        if self.claiming:
            if move.kind not in (CLAIM, PASS):
                raise illegal("say 'claim' to score your {n} points, or 'pass'", n=self.pending)
            self.played.append((seat, move))
            self.events = []
            self.claiming = False
            if move.kind == CLAIM:
                points, self.pending = self.pending, 0
                if self.add_points(seat, points, "ends"):
                    return
            self._pass_turn(seat)
            return
        if move.kind in (MUGGINS, PASS) and self.pending and seat != self.pending_by:
            if move.kind == PASS and move not in self.legal_moves():
                raise illegal("you can play a tile: play it, or say 'muggins' first")
            self.played.append((seat, move))
            self.events = []
            points, self.pending = self.pending, 0
            if move.kind == MUGGINS and self.add_points(seat, points, "muggins"):
                return
            if not self.board.playable(self.vmask) & self._hands[seat]:
                self._pass_turn(seat - 1 if seat else self.n - 1)  # draw or pass as usual
            return
        if move.kind == MUGGINS:
            raise illegal("there are no unclaimed points to take")
        raise illegal("'{move}' is not allowed now: you can play a tile", move=str(move))

    def _pass_turn(self, seat: int) -> None:
        """The next seat with a decision moves (the line engine draws and passes)."""
        board = self.board
        draw = UNTIL if board.filling() else self.rules.draw
        self._advance(seat, board.playable(self.vmask), draw)

    def parse_move(self, text: str) -> Move:
        """The move written in `text`: ``"6-4 up"``, ``"6-4"``, ``"claim"``...

        A tile written without an end is resolved against the legal moves.
        """
        try:
            kind, tid, end = parse_notation(text)
        except IllegalMove:  # perhaps an end only the cross has: "6-4 up", "9-3 up-2-left"
            words = _SPACES.split(text.strip()) if isinstance(text, str) else []
            if len(words) < 2 or words[0].lower() in _WORDS:
                raise
            rest = words[:-1]
            if len(rest) > 1 and rest[-1].lower() in ("on", "à", "a"):
                rest = rest[:-1]
            end = parse_end(words[-1])
            kind, tid, line_end = parse_notation(" ".join(rest))
            if kind != PLAY or line_end is not None:
                raise
        if kind != PLAY:
            return move_for(kind, tid)
        self._check_tile(text, tid)
        if self.board.root < 0:
            if end is not None and end != LEAD:  # as `play` says: the lead has no end
                raise illegal("the first tile has no end: write '{tile}'",
                              tile=self.ts.names[tid])
            return cross_move(tid, LEAD)
        if end is not None:
            return cross_move(tid, end)
        return self._move_of_tile(tid)

    def _ambiguous(self, name: str, options: list[Move]) -> IllegalMove:
        return illegal("{tile} fits several ends: say {moves}", tile=name,
                       moves=tuple(f"'{m}'" for m in options))

    def _fits_no_end(self, name: str) -> IllegalMove:
        return illegal("{tile} matches no open end", tile=name)

    # -- copies and views -----------------------------------------------------------------

    def _copied(self, new: LineMatch) -> None:
        new.board = self.board.copy()  # type: ignore[attr-defined]

    def chain(self) -> tuple[list[str], int | None]:
        """Every tile on the table (see `CrossBoard.tiles`); no single last index."""
        return self.board.tiles(), None

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        """The view's ends and layout, the count of the ends, the unclaimed points
        and a line for the picture's strip (`strip_extra`)."""
        v: dict[str, Any] = {}
        board = self.board
        ends = board.ends()
        v["ends"] = [value for _, value in ends]
        v["end_names"] = [end_name(code) for code, _ in ends]
        v["layout"] = board.layout()
        rule = self.rules.end_score
        extra = []
        if rule:
            count = end_count(*board.count())
            v["end_count"] = count
            extra.append(f"Ends count {count}")
        if self.pending:
            v["unclaimed"] = {"seat": self.pending_by, "points": self.pending}
            extra.append(f"Unclaimed: {self.pending} (seat {self.pending_by + 1})")
        if board.filling():
            extra.append("Fill the four sides of the spinner first")
        mrules = self.mrules
        if mrules.reach == "loses" and mrules.target is not None:  # sebastopol
            gone = ", ".join(f"seat {s + 1}" for s in self.gone)
            extra.append(f"{mrules.target} or more is out" + (f" ({gone} out)" if gone else ""))
        if extra:
            v["strip_extra"] = " · ".join(extra)
        return v


__all__ = ["CrossMatch", "CrossRules"]
