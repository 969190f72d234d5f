"""`StackMatch`: a match of a stacking game (tower, quinconce), all its rounds.

A round: the hands are dealt (7 tiles at 2 players, 6 at 3-4), the holder of
the highest double lays it (east-west, at the table's level) and the turn goes
on to the next seat.  A tile goes on top of a half showing its value, or is
slid under one (on the table, under a half that hangs over it), or, in
quinconce, is laid flat after an end; the placements are listed by
`StackMatch.legal_moves` with their notation (`core.stack.moves`).  A seat
that cannot play draws one tile and passes, even if it fits; with the stock
empty it passes, and when every seat in turn has passed the round is blocked:
the fewest pips (or tiles) wins.  The first seat out wins the round.

Every placement may make the construction fall: the chance comes from the
geometry (`core.stack.geometry.fall_risk`) and the outcome is drawn from the
match's seeded generator, so a record replays exactly.  A fall gives the
mover every tile of the construction; the holder of the highest double then
starts a new one.

Quinconce (``rules.alternate``): plays alternate "flat" (after an end, or slid
under it) and "on top"; the first tile of a construction is flat.  At 3-4
players the next play is the opposite of the last tile laid, whoever lays it;
at 2 players each seat alternates its own plays, and a seat that draws keeps
the way it had to play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..copying import copy_deal
from ..errors import IllegalMove, illegal
from ..line.match import parse_deal
from ..match import MATCH_SLOTS, MatchBase, add_legal, event_dict
from ..scoring import MatchRules
from ..tiles import TileSet, iter_ids
from .geometry import DIR_LETTERS, Construction, Placed, direction, fall_risk, step
from .moves import LEAD, NEXT, ON, UNDER, StackMove, half_word, parse_placement, stack_move

if TYPE_CHECKING:
    from ..variant import Variant

FLAT, TOP = "flat", "top"


@dataclass(frozen=True, slots=True)
class StackRules:
    """How a round of a stacking game is played."""

    tiles: TileSet
    hand: int
    count: str = "pips"  # what a blocked round compares: pips or tiles
    ends_only: bool = False  # only the two ends of the construction take a tile
    parallel_start: bool = False  # the second tile lies in line with the first
    alternate: bool = False  # quinconce: flat and on-top plays alternate
    stock: bool = True
    teams: None = None


ROUND_SLOTS = (
    "_hands", "_legal", "_risks", "_stock", "con", "ended", "ends", "events", "falls", "leader",
    "modes", "n", "played", "reason", "stuck", "to_move", "ts", "winners",
)


class StackMatch(MatchBase):
    """A match of a stacking game (all its rounds)."""

    __slots__ = ROUND_SLOTS + MATCH_SLOTS

    rules: StackRules

    def __init__(self, variant: Variant, players: int, seed: int, options: dict[str, Any],
                 rules: StackRules, mrules: MatchRules, deal: dict[str, Any] | None = None
                 ) -> None:
        self.ts = rules.tiles
        if deal is not None:
            hands, stock, _ = parse_deal(rules, players, deal)  # type: ignore[arg-type]
            deal = copy_deal(deal)
        self._init_match(variant, players, seed, options, rules, mrules, deal)
        if deal is None:
            hands, stock = self._shuffle()
        self._start_round(hands, stock)
        self._leader1 = self.leader

    # -- dealing -----------------------------------------------------------------------

    def _shuffle(self) -> tuple[list[int], list[int]]:
        tiles = list(self.ts.ids)
        self.rng.shuffle(tiles)
        size = self.rules.hand
        hands = []
        for s in range(self.players):
            mask = 0
            for t in tiles[s * size:(s + 1) * size]:
                mask |= 1 << t
            hands.append(mask)
        return hands, tiles[self.players * size:]

    def _start_round(self, hands: list[int], stock: list[int]) -> None:
        self.n = self.players
        self._hands = hands
        self._stock = stock[::-1]  # drawn with pop(): the first tile of the deal's stock first
        self.played = []
        self.events = []
        self.ended = False
        self.reason = ""
        self.winners = []
        self.falls = 0
        self.stuck = 0
        self._legal = None
        self._new_construction()
        self.leader = self.to_move if self.to_move is not None else 0

    def _next_round(self, last: dict[str, Any]) -> None:
        hands, stock = self._shuffle()
        self._start_round(hands, stock)

    def _new_construction(self) -> None:
        """An empty construction: the holder of the highest double (else of the
        heaviest tile) is to lay it; quinconce's first play is flat."""
        self.con = Construction()
        self.ends = []
        self.modes = [FLAT] * self.n
        ts = self.ts
        best: tuple[int, ...] | None = None
        for s, h in enumerate(self._hands):
            for t in iter_ids(h):
                key = (int(ts.hi[t] == ts.lo[t]), ts.hi[t] if ts.hi[t] == ts.lo[t] else ts.pips[t],
                       ts.hi[t])
                if best is None or key > best:
                    best, self.to_move = key, s
        self._legal = None

    def _lead_tile(self) -> int:
        """The tile that opens the construction (in the hand of the seat to move)."""
        ts = self.ts
        hand = self._hands[self.to_move or 0]
        return max(iter_ids(hand), key=lambda t: (int(ts.hi[t] == ts.lo[t]),
                                                   ts.hi[t] if ts.hi[t] == ts.lo[t]
                                                   else ts.pips[t], ts.hi[t]))

    # -- the interface -------------------------------------------------------------------

    @property
    def hands(self) -> list[int]:
        """Each seat's tiles, as bitmasks of tile ids."""
        return self._hands

    @property
    def stock(self) -> list[int]:
        """The tiles left to draw, the next one first."""
        return self._stock[::-1]

    @property
    def sleeping(self) -> int:
        """Tiles out of play (a hand-built deal may leave some out), as a bitmask."""
        used = 0
        for h in self._hands:
            used |= h
        for t in self._stock:
            used |= 1 << t
        for p in self.con.tiles:
            used |= 1 << p.tid
        return self.ts.all_mask & ~used

    def mode(self, seat: int | None = None) -> str | None:
        """Quinconce: how `seat` (default: the seat to move) must play, "flat" or "top"."""
        if not self.rules.alternate:
            return None
        seat = self.to_move if seat is None else seat
        return None if seat is None else self.modes[seat]

    def legal_moves(self) -> list[StackMove]:
        if self.to_move is None:
            return []
        if self._legal is None:
            self._legal = self._placements(self.to_move)
        return list(self._legal)

    def _placements(self, seat: int) -> list[StackMove]:
        """Every placement of a tile of `seat`'s hand, each physical placement once."""
        hand = self._hands[seat]
        con = self.con
        if not con.tiles:
            return [stack_move(self._lead_tile())] if hand else []
        ts = self.ts
        rules = self.rules
        mode = self.mode(seat)
        sites: list[tuple[int, int]]
        if rules.ends_only or rules.alternate:
            sites = self.ends
        else:
            sites = [(k, h) for k in range(len(con.tiles)) for h in (0, 1)]
        parallel = rules.parallel_start and len(con.tiles) == 1
        out: list[StackMove] = []
        seen: set[tuple[Any, ...]] = set()
        for k, h in sites:
            p = con.tiles[k]
            cell, v, z = p.cells[h], p.values[h], p.level
            back = direction(cell, p.cells[1 - h])
            outward = (back + 2) % 4
            hows = []
            if mode != FLAT and con.at(cell, z + 1) is None:
                hows.append(ON)
            if mode != TOP and z == 1 and con.at(cell, 0) is None:
                hows.append(UNDER)
            if rules.alternate and mode == FLAT and z == 0:
                hows.append(NEXT)
            if not hows:
                continue
            word = self._half_word(k, h)
            for t in iter_ids(hand & ts.value_mask[v]):
                w = ts.lo[t] if ts.hi[t] == v else ts.hi[t]
                for how in hows:
                    if how == NEXT or (how == ON and parallel):
                        dirs: tuple[int, ...] = (outward,)
                    else:
                        dirs = tuple(d for d in range(4) if d != back)
                    for d in dirs:
                        placed = self._place(t, v, w, how, cell, z, d)
                        if placed is None:
                            continue
                        key = (t, placed.level, frozenset(zip(placed.cells, placed.values,
                                                              strict=True)))
                        if key in seen:
                            continue
                        seen.add(key)
                        out.append(stack_move(t, how, k + 1, h, d, word))
        return out

    def _place(self, t: int, v: int, w: int, how: str, cell: tuple[int, int], z: int,
               d: int) -> Placed | None:
        """Where tile `t` goes (its `v` half against `cell` at level `z`, its `w` half
        toward `d`), or None when the cells are taken or a superposed half differs."""
        if how == NEXT:
            cells = (step(cell, d), step(cell, d, 2))
            level = 0
        else:
            cells = (cell, step(cell, d))
            level = z + 1 if how == ON else 0
        if not self.con.fits(cells, (v, w), level):
            return None
        return Placed(t, (v, w), cells, level)

    def placement(self, move: StackMove) -> Placed:
        """The tile in place that a legal `move` makes."""
        if move.how == LEAD:
            v = self.ts.hi[move.tid]
            return Placed(move.tid, (v, self.ts.lo[move.tid]), ((0, 0), (1, 0)), 0)
        p = self.con.tiles[move.target - 1]
        v = p.values[move.half]
        ts = self.ts
        w = ts.lo[move.tid] if ts.hi[move.tid] == v else ts.hi[move.tid]
        placed = self._place(move.tid, v, w, move.how, p.cells[move.half], p.level,
                             move.direction)
        assert placed is not None
        return placed

    def _half_word(self, k: int, h: int) -> str:
        p = self.con.tiles[k]
        return half_word(p.values[0] == p.values[1], p.half_dir(h))

    def risk(self, move: StackMove) -> float:
        """The chance that a legal `move` makes the construction fall."""
        if move.how == LEAD:
            return 0.0
        con = self.con
        i = con.add(self.placement(move))
        try:
            return fall_risk(con, i)
        finally:
            con.pop()

    def risks(self) -> dict[str, float]:
        """Each legal move's chance of a fall (what the seat to move sees before choosing)."""
        moves = self.legal_moves()
        cached = getattr(self, "_risks", None)
        if cached is None or cached[0] != self.turn or len(cached[1]) != len(moves):
            cached = self._risks = (self.turn, {m.text: round(self.risk(m), 4) for m in moves})
        return dict(cached[1])

    def parse_move(self, text: str) -> StackMove:
        """The placement written in `text` (see `core.stack.moves`)."""
        tid, how, target, letter, d = parse_placement(text)
        ts = self.ts
        if tid >= len(ts.hi) or not (ts.all_mask >> tid) & 1:
            raise illegal("{tile} is not a tile of the double-{top} set",
                          tile=str(text).strip()[:10], top=ts.max_pip)
        if self.to_move is None:
            raise illegal("the game is over")
        name = ts.names[tid]
        if not (self._hands[self.to_move] >> tid) & 1:
            raise illegal("{tile} is not in your hand", tile=name)
        if how is None:
            return self._move_of_tile(tid)
        tiles = self.con.tiles
        if not 1 <= target <= len(tiles):
            raise illegal("there is no tile {k} in the construction (it has {n})", k=target,
                          n=len(tiles))
        p = tiles[target - 1]
        double = p.values[0] == p.values[1]
        common = [h for h in (0, 1) if p.values[h] in (ts.hi[tid], ts.lo[tid])]
        if not common:
            raise illegal("{tile} shows no half of tile {k} ({target})", tile=name, k=target,
                          target=ts.names[p.tid])
        if double and letter:
            common = [h for h in common if DIR_LETTERS[p.half_dir(h)] == letter]
            if not common:
                raise illegal("tile {k} has no {side} half", k=target, side=letter)
        elif double:
            fits = [m for m in self.legal_moves()
                    if (m.tid, m.how, m.target, m.direction) == (tid, how, target, d)]
            if len(fits) == 1:
                return fits[0]
            sides = " or ".join(f"'{target}{DIR_LETTERS[p.half_dir(h)]}'" for h in (0, 1))
            raise illegal("tile {k} is a double: say which half, {sides}", k=target,
                          sides=sides)
        h = common[0]
        return stack_move(tid, how, target, h, d, self._half_word(target - 1, h))

    def _move_of_tile(self, tid: int) -> StackMove:
        """The one legal move of a tile written alone (the lead), or why not."""
        options = [m for m in self.legal_moves() if m.tid == tid]
        name = self.ts.names[tid]
        if len(options) == 1:
            return options[0]
        if not (self._hands[self.to_move or 0] >> tid) & 1:
            raise illegal("{tile} is not in your hand", tile=name)
        if options:
            raise illegal("say where {tile} goes, like '{example}'", tile=name,
                          example=options[0].text)
        raise illegal("{tile} has no place now", tile=name)

    def play(self, move: StackMove | str) -> None:
        """Lay a tile; then the construction may fall (drawn from the match's generator)."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if not isinstance(move, StackMove):
            raise illegal("a move is text, like '6-4 on 2 east'")
        seat = self.to_move
        if seat is None:
            raise illegal("the game is over")
        if move not in self.legal_moves():
            raise self._why_not(move)
        placed = self.placement(move)
        self._hands[seat] &= ~(1 << move.tid)
        self.events = []
        self.played.append((seat, move))
        self._legal = None
        con = self.con
        i = con.add(placed)
        chance = 0.0 if move.how == LEAD else fall_risk(con, i)
        if chance > 0 and self.rng.random() < chance:
            self._fall(seat, chance)
            return
        self.stuck = 0
        if move.how == LEAD:
            self.ends = [(0, 0), (0, 1)] if self.rules.ends_only or self.rules.alternate else []
        elif self.ends:
            self.ends = [(i, 1) if e == (move.target - 1, move.half) else e for e in self.ends]
        self._alternate(seat, FLAT if move.how in (LEAD, NEXT, UNDER) else TOP)
        if not self._hands[seat]:
            self._finish("out", [seat])
            return
        self._advance(seat)

    def _why_not(self, move: StackMove) -> IllegalMove:
        name = self.ts.names[move.tid]
        seat = self.to_move or 0
        if not (self._hands[seat] >> move.tid) & 1:
            return illegal("{tile} is not in your hand", tile=name)
        if move.how == LEAD or not self.con.tiles:
            return illegal("the construction is empty: lay {tile} first",
                           tile=self.ts.names[self._lead_tile()])
        mode = self.mode(seat)
        if mode == FLAT and move.how == ON:
            return illegal("this play must be flat: after an end, or slid under it")
        if mode == TOP and move.how != ON:
            return illegal("this play must be on top of an end tile")
        if move.how == NEXT and not self.rules.alternate:
            return illegal("in this game a tile goes on top of a tile or under it")
        if (self.rules.ends_only or self.rules.alternate) and \
                (move.target - 1, move.half) not in self.ends:
            return illegal("only the ends of the construction take a tile")
        if self.rules.parallel_start and len(self.con.tiles) == 1:
            return illegal("the second tile lies in line with the first")
        return illegal("{move} does not fit: a cell is taken, or a superposed half differs",
                       move=move.text)

    def _alternate(self, seat: int, laid: str) -> None:
        """Quinconce: after a `laid` play, the next play (of everyone, or of `seat` at
        two players) is the other way."""
        if not self.rules.alternate:
            return
        other = TOP if laid == FLAT else FLAT
        if self.n == 2:
            self.modes[seat] = other
        else:
            self.modes = [other] * self.n

    def _fall(self, seat: int, chance: float) -> None:
        """The construction falls: the mover takes every tile of it; a new one starts."""
        taken = 0
        for p in self.con.tiles:
            self._hands[seat] |= 1 << p.tid
            taken += 1
        self.falls += 1
        self.stuck = 0
        self.events.append(("fall", seat, taken, round(chance, 4)))
        self._new_construction()

    def _advance(self, seat: int) -> None:
        """The next seat that can play; the others draw one tile and pass (or pass)."""
        n = self.n
        while True:
            seat = seat + 1 if seat + 1 < n else 0
            self._legal = None
            self.to_move = seat
            if self._hands[seat] and self.legal_moves():
                return
            if self._stock:
                t = self._stock.pop()
                self._hands[seat] |= 1 << t
                self.events.append(("draw", seat, [t]))
                self.stuck = 0
            else:
                self.stuck += 1
            self.events.append(("pass", seat))
            if self.stuck >= n:
                self._legal = None
                self._blocked()
                return

    def counts(self) -> list[int]:
        if self.rules.count == "tiles":
            return [h.bit_count() for h in self._hands]
        return self.ts.masks_pips(self._hands)

    def _blocked(self) -> None:
        counts = self.counts()
        best = min(counts)
        self._finish("blocked", [s for s in range(self.n) if counts[s] == best])

    def _finish(self, reason: str, winners: list[int]) -> None:
        self.ended = True
        self.reason = reason
        self.winners = winners
        self.to_move = None
        self._legal = None
        self.events.append(("end", reason, winners))
        self._round_ended()

    def summary(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winners": self.winners,
            "counts": self.counts(),
            "eliminated": [],
            "hands": self._hands[:],
            "set": self.ts.max_pip,
            "teams": None,
            "falls": self.falls,
        }

    def copy(self) -> StackMatch:
        """An independent copy."""
        new = self._shallow_copy()
        new._hands = self._hands[:]
        new._stock = self._stock[:]
        new.con = self.con.copy()
        new.ends = self.ends[:]
        new.modes = self.modes[:]
        new.played = self.played[:]
        new.events = self.events[:]
        new.winners = self.winners[:]
        new._legal = None
        self._copy_match(new)
        return new

    # -- what players see -------------------------------------------------------------------

    def construction(self) -> list[dict[str, Any]]:
        """Every tile in place: its number, halves, cells, level, and the tiles under it."""
        con = self.con
        out = []
        for i, p in enumerate(con.tiles):
            out.append({
                "n": i + 1,
                "tile": f"{p.values[0]}-{p.values[1]}",
                "cells": [list(c) for c in p.cells],
                "level": p.level,
                "axis": "ns" if p.axis else "ew",
                "on": sorted({j + 1 for j, _ in con.contacts(i)}),
            })
        return out

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may know (None: the public view), as JSON data."""
        self._check_seat(seat)
        ts = self.ts
        v = self._match_view(seat, ts)
        v["events"] = [stack_event(e, seat) for e in self.events]
        tiles = self.construction()
        last = None
        if self.played and self.con.tiles and self.con.tiles[-1].tid == self.played[-1][1].tid:
            last = len(self.con.tiles)
        fell = next((e for e in v["events"] if e["type"] == "fall"), None)
        v.update({
            "hand_sizes": [h.bit_count() for h in self._hands],
            "board": [t["tile"] for t in tiles],
            "ends": [self.con.tiles[k].values[h] for k, h in self.ends],
            "end_names": [f"{k + 1}{self._half_word(k, h)}" for k, h in self.ends],
            "stock": len(self._stock),
            "sleeping": self.sleeping.bit_count(),
            "construction": tiles,
            "height": self.con.height() + 1,
            "falls": self.falls,
            "mode": self.mode(),
            "modes": self.modes[:] if self.rules.alternate else [],
            "layout": {"kind": "stack", "tiles": tiles, "last": last, "fell": fell,
                       "mode": self.mode(), "ends": [[k + 1, h] for k, h in self.ends]},
            "risks": {},
        })
        if seat is not None:
            v["hand"] = ts.mask_names(self._hands[seat])
            if add_legal(self, v, seat):
                v["risks"] = self.risks()
        return v


def stack_event(event: tuple[Any, ...], viewer: int | None) -> dict[str, Any]:
    """An event as view data: a fall says who took how many tiles, at what risk."""
    if event[0] == "fall":
        return {"type": "fall", "seat": event[1], "tiles": event[2], "risk": event[3]}
    return event_dict(event, viewer)
