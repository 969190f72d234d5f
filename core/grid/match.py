"""`GridMatch`: a match of the "20" game (004), the object `Variant.new` returns for it.

One object holds the round (the grid, the racks, the stock, the markers left)
and the match (`core.match.MatchBase`: rounds, totals, result, record).  A
turn is one line of several tiles, or a run of single tiles each making 20
(the seat stays to move, and ``pass`` ends the run; the run ends by itself
when no single tile of the rack makes 20), or a pass when nothing makes 20.
The rack is refilled to 5 when the turn ends.  The round ends when a seat
has placed all its markers (it wins), or when every seat in a row laid
nothing (the stock empty, or nobody able to make 20): the fewest markers
left win.  When every seat passes before the first line (nobody can open),
the tiles are dealt again from the match's shuffler (so a record replays),
and the same seat starts (a "redeal" event).  A seat whose only move is
``pass`` is told why in its view (``pass_reason``: ``"cannot_make_20"``).
With a target, the round's winners score the markers the others have left,
minus their own (004, "Compétition").
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import DominoError, bad_option, illegal
from ..match import MATCH_SLOTS, MatchBase, add_legal
from ..moves import PASS, PLAY
from ..scoring import MatchRules
from ..tiles import TileSet, deal_tile, iter_ids, tile_id, twenty_set
from .board import (
    CENTRE,
    DOWN,
    EMPTY,
    MARKER,
    RIGHT,
    SIZE,
    Placement,
    cell_name,
    check_placement,
    empty_cells,
    lay_cells,
    parse_cell,
    run,
)
from .generate import plays
from .moves import PASS_MOVE, STEP_NAMES, GridMove, parse_words

if TYPE_CHECKING:
    from ..variant import Variant

RACK = 5
PASS_REASON = "cannot_make_20"  # a view's ``pass_reason`` when pass is the only move


@dataclass(frozen=True, slots=True)
class GridRules:
    """How a round of the "20" game is dealt and played."""

    markers: int  # each seat's markers (22, 15 or 11 by player count)
    rack: int = RACK
    teams: None = None  # no partnerships (what `MatchBase` reads)

    @property
    def tiles(self) -> TileSet:
        return twenty_set()


ROUND_SLOTS = (
    "_legal", "cells", "ended", "events", "halves", "idle", "laid", "laid_turn", "last_play",
    "leader", "left", "marks", "played", "racks", "reason", "running", "stock", "to_move", "ts",
    "winners",
)


class GridMatch(MatchBase):
    """A match of the "20" game (all its rounds)."""

    __slots__ = ROUND_SLOTS + MATCH_SLOTS

    def __init__(self, variant: Variant, players: int, seed: int, options: dict[str, Any],
                 rules: GridRules, mrules: MatchRules, deal: dict[str, Any] | None = None
                 ) -> None:
        self.ts = rules.tiles
        setup = None
        if deal is not None:
            setup = parse_deal(self.ts, players, rules, deal)
            deal = copy.deepcopy(deal)
        self._init_match(variant, players, seed, options, rules, mrules, deal)
        self._leader1 = 0
        if setup is None:
            self._start_round(*self._shuffle(), leader=0)
        else:
            racks, stock, board, marks, left = setup
            self._start_round(racks, stock, leader=0)
            for tiles, start, step in board:
                new = lay_cells(self.cells, tiles, start, step)
                for c, v in zip(new, (v for t in tiles for v in t), strict=True):
                    self.cells[c] = v
                    self.halves.append(c)
                for (a, b), i in zip(tiles, range(0, len(new), 2), strict=True):
                    self.laid.append((a, b, new[i], new[i + 1], -1))
            for c in marks:
                self.cells[c] = MARKER
                self.marks[c] = -1
            if left is not None:
                self.left = list(left)

    # -- a round -----------------------------------------------------------------------

    def _shuffle(self) -> tuple[list[int], list[int]]:
        tiles = list(self.ts.ids)
        self.rng.shuffle(tiles)
        n, size = self.players, self.rules.rack
        racks = [sum(1 << t for t in tiles[s * size:(s + 1) * size]) for s in range(n)]
        return racks, tiles[n * size:]

    def _start_round(self, racks: list[int], stock: list[int], leader: int) -> None:
        self.cells = empty_cells()
        self.halves: list[int] = []
        self.laid: list[tuple[int, int, int, int, int]] = []  # a, b, cell of a, of b, seat
        self.marks: dict[int, int] = {}  # cell -> seat that placed the marker (-1: dealt)
        self.racks = list(racks)
        self.stock = list(stock)[::-1]  # draw with pop()
        self.left = [self.rules.markers] * self.players
        self.leader = leader
        self.to_move = leader
        self.running = False
        self.laid_turn = 0
        self.idle = 0
        self.played: list[tuple[int, GridMove]] = []
        self.events: list[tuple[Any, ...]] = []
        self.last_play: dict[str, Any] | None = None
        self.ended = False
        self.reason = ""
        self.winners: list[int] = []
        self._legal: list[GridMove] | None = None

    def _next_round(self, last: dict[str, Any]) -> None:
        leader = (self._leader1 + self.round_no - 1) % self.players
        self._start_round(*self._shuffle(), leader=leader)

    # -- moves -------------------------------------------------------------------------

    def rack_tiles(self, seat: int) -> list[tuple[int, int]]:
        """A seat's rack as (high, low) halves, highest first."""
        ts = self.ts
        return sorted(((ts.hi[t], ts.lo[t]) for t in iter_ids(self.racks[seat])), reverse=True)

    def legal_moves(self) -> list[GridMove]:
        """Every legal play of the seat to move (lines of 2 to 5 tiles, single tiles), or
        ``pass`` when none makes 20; during a run of single tiles, the single tiles and
        ``pass`` (stop)."""
        if self.to_move is None:
            return []
        if self._legal is None:
            found = plays(self.cells, self.rack_tiles(self.to_move), self.halves,
                          not self.laid, singles_only=self.running)
            moves = [GridMove(PLAY, tiles, start, step, markers)
                     for tiles, start, step, markers in found]
            if self.running or not moves:
                moves.append(PASS_MOVE)
            self._legal = moves
        return list(self._legal)

    def parse_move(self, text: str) -> GridMove:
        """The move written in `text`; ``left`` and ``up`` are turned into ``right`` and
        ``down`` (the same cells, written from the other end)."""
        if isinstance(text, GridMove):
            return text
        kind, tiles, cell, step = parse_words(text)
        if kind == PASS:
            return PASS_MOVE
        start = parse_cell(cell)
        if step < 0:
            if self.cells[start] != EMPTY:
                raise illegal("{cell} is not empty: start the line on the cell of its first "
                              "new half", cell=cell_name(start))
            cells = lay_cells(self.cells, tiles, start, step)
            tiles = tuple((b, a) for a, b in reversed(tiles))
            start, step = cells[-1], -step
        return GridMove(PLAY, tiles, start, step)

    def _placement(self, move: GridMove) -> Placement:
        """Check `move` for the seat to move; what it lays and closes."""
        seat = self.to_move
        assert seat is not None
        rack = self.racks[seat]
        seen = 0
        for a, b in move.tiles:
            tid = tile_id(a, b)
            if a > 9 or b > 9 or not (self.ts.all_mask >> tid) & 1:
                raise illegal("{a}-{b} is not a tile of the game", a=a, b=b)
            if not (rack >> tid) & 1:
                raise illegal("{a}-{b} is not on your rack", a=a, b=b)
            if (seen >> tid) & 1:
                raise illegal("{a}-{b} is named twice", a=a, b=b)
            seen |= 1 << tid
        if self.running and len(move.tiles) > 1:
            raise illegal("after a single tile, only single tiles making 20 (or 'pass')")
        opening = not self.laid
        if opening:
            if len(move.tiles) < 2:
                raise illegal("the first line has 2 to 5 tiles")
            if move.start != CENTRE:
                raise illegal("the first line starts on the centre cell, {cell}",
                              cell=cell_name(CENTRE))
        return check_placement(self.cells, move.tiles, move.start, move.step, opening)

    def play(self, move: GridMove | str) -> None:
        """Apply `move` for the seat to move; `IllegalMove` leaves the match unchanged."""
        if self.to_move is None:
            raise illegal("the game is over")
        if not isinstance(move, GridMove):
            move = self.parse_move(move)
        seat = self.to_move
        if move.kind == PASS:
            if not self.running and any(m.kind == PLAY for m in self.legal_moves()):
                raise illegal("you can make 20: pass only when no play does")
            self.played.append((seat, PASS_MOVE))
            self.events = [("pass", seat)] if not self.running else []
            self._end_turn(seat)
            return
        placed = self._placement(move)
        self.played.append((seat, move))
        self.events = []
        self._lay(seat, move, placed)
        if self.left[seat] == 0:
            self._finish("markers", [seat])
            return
        if len(move.tiles) == 1:
            self.running = True
            self._legal = None
            if not any(m.kind == PLAY for m in self.legal_moves()):
                self._end_turn(seat)
            return
        self._end_turn(seat)

    def _lay(self, seat: int, move: GridMove, placed: Placement) -> None:
        cells = self.cells
        for c, v in zip(placed.cells, placed.values, strict=True):
            cells[c] = v
            self.halves.append(c)
        for (a, b), i in zip(move.tiles, range(0, len(placed.cells), 2), strict=True):
            self.laid.append((a, b, placed.cells[i], placed.cells[i + 1], seat))
            self.racks[seat] &= ~(1 << tile_id(a, b))
        markers = placed.markers[: self.left[seat]]
        for c in markers:
            cells[c] = MARKER
            self.marks[c] = seat
        self.left[seat] -= len(markers)
        self.laid_turn += len(move.tiles)
        self.last_play = {
            "seat": seat, "move": move.text,
            "cells": [cell_name(c) for c in placed.cells],
            "markers": [cell_name(c) for c in markers],
            "lines": [{"from": cell_name(line.first), "to": cell_name(line.last),
                       "total": line.total} for line in placed.twenties],
        }
        self.events.append(("markers", seat, len(markers)))

    def _end_turn(self, seat: int) -> None:
        """Refill the rack, then the next seat, or the end of the round."""
        self._legal = None
        self.running = False
        drawn = []
        while self.stock and self.racks[seat].bit_count() < self.rules.rack:
            t = self.stock.pop()
            self.racks[seat] |= 1 << t
            drawn.append(t)
        if drawn:
            self.events.append(("draw", seat, drawn))
        self.idle = 0 if self.laid_turn else self.idle + 1
        self.laid_turn = 0
        if not self.stock and not any(self.racks):
            self._finish("tiles", self._fewest())
        elif self.idle >= self.players and not self.laid:
            self._redeal()
        elif self.idle >= self.players:
            self._finish("tiles" if not self.stock else "blocked", self._fewest())
        else:
            self.to_move = (seat + 1) % self.players

    def _redeal(self) -> None:
        """Nobody could open (every seat passed on an empty grid): every tile goes back and
        is dealt again by the match's shuffler, and the same seat starts (the book is silent;
        a new deal is what players expect: docs/rules/vingt.md, "Choices we made")."""
        racks, stock = self._shuffle()
        self.racks = racks
        self.stock = stock[::-1]  # draw with pop()
        self.idle = 0
        self.to_move = self.leader
        self._legal = None
        self.events.append(("redeal", self.leader))

    def _fewest(self) -> list[int]:
        best = min(self.left)
        return [s for s in range(self.players) if self.left[s] == best]

    def _finish(self, reason: str, winners: list[int]) -> None:
        self.reason = reason
        self.winners = winners
        self.ended = True
        self.to_move = None
        self._legal = None
        self.events.append(("end", reason, list(winners)))
        self._round_ended()

    def _round_ended(self) -> None:
        """The round's winners score the markers the others have left, minus their own."""
        losers = [s for s in range(self.players) if s not in self.winners]
        if losers:
            others = sum(self.left[s] for s in losers)
            for s in self.winners:
                self.add_points(s, others - self.left[s], "markers")
        MatchBase._round_ended(self)

    def summary(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winners": list(self.winners),
            "counts": self.left[:],
            "eliminated": [],
            "hands": self.racks[:],
            "set": self.ts.max_pip,
            "teams": None,
        }

    # -- what the chat needs -------------------------------------------------------------

    def preview(self, move: GridMove | str) -> dict[str, Any]:
        """What a play would do, legal or not, for a builder: where its halves go, the
        total of its line (so far), the markers it takes, or why it is refused ("why",
        and "why_template" / "why_values" for a translation)."""
        out: dict[str, Any] = {"legal": False, "why": None, "why_template": None,
                               "why_values": {}, "cells": [], "total": None, "markers": [],
                               "lines": []}
        try:
            if not isinstance(move, GridMove):
                move = self.parse_move(move)
            if move.kind == PASS:
                out["legal"] = move in self.legal_moves()
                return out
            new = lay_cells(self.cells, move.tiles, move.start, move.step)
            out["cells"] = [cell_name(c) for c in new]
            values = [v for t in move.tiles for v in t]
            for c, v in zip(new, values, strict=True):
                self.cells[c] = v
            try:
                out["total"] = run(self.cells, new[0], move.step)[3]
            finally:
                for c in new:
                    self.cells[c] = EMPTY
            if self.to_move is None:
                raise illegal("the game is over")
            placed = self._placement(move)
        except DominoError as exc:  # shown to the player
            out.update(why=str(exc), why_template=exc.template, why_values=dict(exc.values))
            return out
        out["legal"] = True
        seat = self.to_move
        out["markers"] = [cell_name(c) for c in placed.markers[: self.left[seat]]]
        out["lines"] = [{"from": cell_name(line.first), "to": cell_name(line.last),
                         "total": line.total} for line in placed.twenties]
        return out

    def legal_with(self, tiles: list[str]) -> list[GridMove]:
        """The legal plays laying exactly `tiles` ("5-3", "4-4"...: any order, either way
        round), for a builder that has picked the tiles and asks where they can go."""
        want = []
        for text in tiles:
            try:
                want.append(self.ts.parse(str(text)))
            except ValueError:
                raise illegal("{word!r} is not a tile of the game (halves 0 to 9, like 6-4)",
                              word=str(text)[:10]) from None
        want.sort()
        return [m for m in self.legal_moves() if m.kind == PLAY
                and sorted(tile_id(a, b) for a, b in m.tiles) == want]

    # -- views, copies -------------------------------------------------------------------

    def board_texts(self) -> list[str]:
        return [f"{a}-{b}" for a, b, *_ in self.laid]

    def grid_layout(self) -> dict[str, Any]:
        """The grid as view data (render/grid.py draws it)."""
        last = self.last_play
        return {
            "kind": "grid",
            "size": [SIZE, SIZE],
            "tiles": [{"tile": f"{a}-{b}", "cells": [cell_name(ca), cell_name(cb)], "seat": s}
                      for a, b, ca, cb, s in self.laid],
            "markers": [{"cell": cell_name(c), "seat": s} for c, s in self.marks.items()],
            "last": list(last["cells"]) if last else [],
            "last_markers": list(last["markers"]) if last else [],
            "markers_left": self.left[:],
        }

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may know (None: the public view), as JSON data."""
        self._check_seat(seat)
        v = self._match_view(seat, self.ts)
        last = self.last_play if self.played else None
        v.update({
            "hand_sizes": [r.bit_count() for r in self.racks],
            "board": self.board_texts(),
            "ends": [],
            "stock": len(self.stock),
            "layout": self.grid_layout(),
            "markers": self.left[:],
            "markers_start": self.rules.markers,
            "running": self.running,
            "last_play": dict(last) if last else None,
        })
        if seat is not None:
            v["hand"] = self.ts.mask_names(self.racks[seat])
            if add_legal(self, v, seat) and v["legal"] == [PASS_MOVE.text]:
                v["pass_reason"] = PASS_REASON  # pass is the only move: say why
        return v

    def copy(self) -> GridMatch:
        """An independent copy (computer players search on copies)."""
        new = self._shallow_copy()
        new.cells = self.cells[:]
        new.halves = self.halves[:]
        new.laid = self.laid[:]
        new.marks = dict(self.marks)
        new.racks = self.racks[:]
        new.stock = self.stock[:]
        new.left = self.left[:]
        new.played = self.played[:]
        new.events = self.events[:]
        new.winners = self.winners[:]
        self._copy_match(new)
        return new


def parse_deal(ts: TileSet, players: int, rules: GridRules, deal: dict[str, Any]
               ) -> tuple[list[int], list[int], list[tuple[Any, int, int]], list[int],
                          list[int] | None]:
    """Racks, stock, board lines, markers and markers left of a hand-built deal:
    ``{"hands": [[tiles]...], "stock": [tiles], "board": ["5-3 4-4 C4 right", ...],
    "markers": ["B4", ...], "left": [markers left per seat]}`` (the last three
    optional; tiles in none of them are out of play)."""
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise bad_option('deal must be {{"hands": [[tiles], ...], "stock": [tiles]}}')
    if len(deal["hands"]) != players:
        raise bad_option("deal has {hands} hands for {players} players",
                         hands=len(deal["hands"]), players=players)
    seen = 0

    def take(text: object) -> int:
        nonlocal seen
        t = deal_tile(ts, text, seen)
        seen |= 1 << t
        return t

    racks = []
    for hand in deal["hands"]:
        if not isinstance(hand, list) or len(hand) > rules.rack:
            raise bad_option("deal: a rack holds at most {n} tiles", n=rules.rack)
        racks.append(sum(1 << take(t) for t in hand))
    stock = [take(t) for t in deal.get("stock") or []]
    board = []
    cells = empty_cells()
    for text in deal.get("board") or []:
        try:
            kind, tiles, cell, step = parse_words(text)
            if kind != PLAY or step < 0:
                raise illegal("write board lines as 'tiles cell right|down'")
            start = parse_cell(cell)
            for a, b in tiles:
                take(f"{a}-{b}")
            laid = lay_cells(cells, tiles, start, step)
        except (ValueError, TypeError) as exc:
            raise bad_option("deal: board {text!r}: {why}", text=str(text)[:30],
                             why=str(exc)) from None
        for c, v in zip(laid, (v for t in tiles for v in t), strict=True):
            cells[c] = v
        board.append((tiles, start, step))
    marks = []
    for text in deal.get("markers") or []:
        try:
            c = parse_cell(str(text))
        except ValueError as exc:
            raise bad_option("deal: {why}", why=str(exc)) from None
        if cells[c] != EMPTY:
            raise bad_option("deal: marker on {cell}, which is taken", cell=cell_name(c))
        cells[c] = MARKER
        marks.append(c)
    left = deal.get("left")
    if left is not None and (not isinstance(left, list) or len(left) != players or not all(
            isinstance(x, int) and 0 < x <= rules.markers for x in left)):
        raise bad_option("deal: left gives each seat's markers left, 1 to {n}", n=rules.markers)
    if not any(racks):
        raise bad_option("deal: no tile in any hand")
    return racks, stock, board, marks, left


__all__ = ["DOWN", "RIGHT", "STEP_NAMES", "GridMatch", "GridRules"]
