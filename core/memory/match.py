"""`MemoryMatch`: the memory game of 000, the object the `memory` variant's `new` returns.

All the tiles lie face down in the grid of `core.memory.grid`.  A turn is
two moves, each turning one cell up; when the two tiles share a half-face
value (two threes, two blanks...) the mover keeps them, else both are turned
face down again where they lay.  Most pips kept wins (every tied seat wins).

Choices (docs/rules/memory.md): a kept pair gives the mover another turn
(option ``again``, default on; off: the turn always passes); the game ends
when the grid is empty or when no two tiles left in it share a value (they
could never be kept: they are turned up and count for nobody).

What players see: a tile turned back is face down again in every view; the
view shows only the tiles of the turn in progress (or of the turn just
finished, until the next move), so players must remember the rest.  What was
seen is public and kept in order in `reveals()`: the public record that
computer players read, as a person at the table would have watched it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import bad_option, illegal
from ..match import MATCH_SLOTS, MatchBase, add_legal
from ..scoring import MatchRules
from ..tiles import TileSet, deal_tile, tile_set
from .grid import CELLS, COLS, ROWS, CellMove, cell_move, cell_name, parse_cell

if TYPE_CHECKING:
    from ..variant import Variant

EMPTY = -1
DOWN = "down"  # a face-down cell in a view
GONE = "empty"  # a cell whose tile was kept


@dataclass(frozen=True, slots=True)
class MemoryRules:
    """How the memory game is played."""

    again: bool = True  # a kept pair gives the mover another turn
    teams: tuple[tuple[int, ...], ...] | None = None  # never: the match base reads it


class MemoryMatch(MatchBase):
    """A game of memory (one round)."""

    __slots__ = (*MATCH_SLOTS, "_reveals", "events", "grid", "kept", "leader", "left_over",
                 "pair", "played", "reason", "to_move", "ts", "turned", "up", "winners")

    def __init__(self, variant: Variant, players: int, seed: int, options: dict[str, Any],
                 rules: MemoryRules, deal: dict[str, Any] | None = None) -> None:
        self.ts = tile_set(6)
        grid = parse_grid(self.ts, deal) if deal is not None else None
        if deal is not None:
            deal = {"grid": [None if t == EMPTY else self.ts.names[t] for t in grid or []]}
        self._init_match(variant, players, seed, options, rules, MatchRules(scoring="none"),
                         deal)
        if grid is None:
            grid = list(self.ts.ids)
            self.rng.shuffle(grid)
        self.grid = grid
        self.up: list[int] = []  # cells turned up in the turn in progress
        self.turned: list[tuple[int, int]] = []  # (cell, tile) shown this turn (or the last)
        self.pair: bool | None = None  # whether the last finished turn kept its tiles
        self.kept = [0] * players  # each seat's kept tiles (a bitmask)
        self.played: list[tuple[int, CellMove]] = []
        self.events: list[tuple[Any, ...]] = []
        self._reveals: list[tuple[int, int, int, int]] = []  # (turn, seat, cell, tile)
        self.leader = 0
        self.to_move: int | None = 0
        self.reason = ""
        self.winners: list[int] = []
        self.left_over = 0
        self._leader1 = 0
        self._check_end()

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self) -> list[CellMove]:
        """Every face-down cell (not the one already turned up this turn)."""
        if self.to_move is None:
            return []
        up = self.up
        return [cell_move(c) for c, t in enumerate(self.grid) if t != EMPTY and c not in up]

    def parse_move(self, text: str) -> CellMove:
        """The move written in `text` (a cell's name, ``"B3"``)."""
        return parse_cell(text)

    def play(self, move: CellMove | str) -> None:
        """Turn one cell up; the second of a turn keeps the pair or turns both back."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if not isinstance(move, CellMove):
            raise illegal("a move is a cell's name, like 'B3'")
        seat = self.to_move
        if seat is None:
            raise illegal("the game is over")
        cell = move.cell
        tid = self.grid[cell]
        if tid == EMPTY:
            raise illegal("{cell} is empty: its tiles were kept", cell=move.text)
        if cell in self.up:
            raise illegal("{cell} is already turned up: turn up another cell", cell=move.text)
        self.played.append((seat, move))
        self._reveals.append((self.turn - 1, seat, cell, tid))
        self.events = [("turn_up", seat, cell, tid)]
        if not self.up:
            self.up = [cell]
            self.turned = [(cell, tid)]
            self.pair = None
            return
        first = self.up[0]
        self.up = []
        self.turned.append((cell, tid))
        a = self.grid[first]
        ts = self.ts
        self.pair = bool({ts.hi[a], ts.lo[a]} & {ts.hi[tid], ts.lo[tid]})
        if self.pair:
            self.grid[first] = self.grid[cell] = EMPTY
            self.kept[seat] |= (1 << a) | (1 << tid)
            self.add_points(seat, ts.pips[a] + ts.pips[tid], "pair")
            self.events.append(("keep", seat))
            if self._check_end():
                return
            if self.rules.again:
                return
        else:
            self.events.append(("back", seat))
        self.to_move = (seat + 1) % self.players

    def _check_end(self) -> bool:
        """End the game when no two tiles left in the grid share a value."""
        left = [t for t in self.grid if t != EMPTY]
        ts = self.ts
        seen = 0
        for t in left:
            values = (1 << ts.hi[t]) | (1 << ts.lo[t])
            if seen & values:
                return False
            seen |= values
        for t in left:
            self.left_over |= 1 << t
        self.reason = "cleared" if not left else "no pair"
        pips = self.pips_kept()
        best = max(pips)
        self.winners = [s for s in range(self.players) if pips[s] == best]
        self.to_move = None
        self.up = []
        self.events.append(("end", self.reason, self.winners))
        self._round_ended()
        return True

    # -- state ---------------------------------------------------------------------------

    def pips_kept(self) -> list[int]:
        """Pips of the tiles each seat has kept."""
        return self.ts.masks_pips(self.kept)

    def reveals(self) -> list[dict[str, Any]]:
        """The public record of what was seen: every cell turned up, in order, with its tile
        (what everyone at the table watched; views do not repeat it)."""
        names = self.ts.names
        return [{"turn": n, "seat": s, "cell": cell_name(c), "tile": names[t]}
                for n, s, c, t in self._reveals]

    def summary(self) -> dict[str, Any]:
        return {"reason": self.reason, "winners": self.winners[:], "counts": self.pips_kept(),
                "hands": self.kept[:], "order": self._round_order({"counts": self.pips_kept(),
                                                                    "winners": self.winners})}

    def _round_order(self, summary: dict[str, Any]) -> list[int]:
        """Most pips kept first (then the lower seat)."""
        counts = summary["counts"]
        return sorted(range(self.players), key=lambda s: (-counts[s], s))

    def _next_round(self, last: dict[str, Any]) -> None:  # one round: never called
        raise AssertionError("memory is played in one round")

    def copy(self) -> MemoryMatch:
        """An independent copy."""
        new = self._shallow_copy()
        for name in ("grid", "up", "turned", "kept", "played", "events", "_reveals", "winners"):
            setattr(new, name, getattr(self, name)[:])
        self._copy_match(new)
        return new

    # -- views ---------------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What everyone may see (the same for every seat: memory has no hand, so its
        `hand_sizes` are zeros; each seat's tiles are under `kept`), and the legal moves
        in the view of the seat to move only (`add_legal`)."""
        self._check_seat(seat)
        ts = self.ts
        names = ts.names
        v = self._match_view(seat, ts)
        up = set(self.up)
        over = self.over
        cells = [GONE if t == EMPTY else names[t] if c in up or over else DOWN
                 for c, t in enumerate(self.grid)]
        turned = [{"cell": cell_name(c), "tile": names[t]} for c, t in self.turned]
        kept = [ts.mask_names(m) for m in self.kept]
        v["events"] = [self._event(e) for e in self.events]
        v.update({
            "hand": [],
            "hand_sizes": [0] * self.players,
            "board": [names[self.grid[c]] for c in self.up],
            "ends": [],
            "stock": 0,
            "rows": ROWS,
            "cols": COLS,
            "cells": cells,
            "face_down": sum(1 for c, t in enumerate(self.grid) if t != EMPTY and c not in up),
            "turned": turned,
            "pair": self.pair,
            "kept": kept,
            "left_over": ts.mask_names(self.left_over),
            "layout": {"kind": "memory", "rows": ROWS, "cols": COLS, "cells": cells,
                       "turned": turned, "pair": self.pair, "kept": kept,
                       "to_move": self.to_move},
        })
        add_legal(self, v, seat)  # the seat to move's only, though the rest is public
        return v

    def _event(self, e: tuple[Any, ...]) -> dict[str, Any]:
        if e[0] == "turn_up":
            return {"type": "turn_up", "seat": e[1], "cell": cell_name(e[2]),
                    "tile": self.ts.names[e[3]]}
        if e[0] == "end":
            return {"type": "end", "reason": e[1], "winners": list(e[2])}
        if e[0] == "score":
            return {"type": "score", "seat": e[1], "points": e[2], "why": e[3]}
        return {"type": e[0], "seat": e[1]}


def parse_grid(ts: TileSet, deal: Any) -> list[int]:
    """The grid of a hand-built deal: ``{"grid": [28 tiles or None, A1 to D7]}``, checked."""
    grid = deal.get("grid") if isinstance(deal, dict) else None
    if not isinstance(grid, list) or len(grid) != CELLS:
        raise bad_option('deal must be {{"grid": [{cells} tiles or null, cell A1 first]}}',
                         cells=CELLS)
    out = []
    seen = 0
    for text in grid:
        if text is None or text == "":
            out.append(EMPTY)
            continue
        t = deal_tile(ts, text, seen)
        seen |= 1 << t
        out.append(t)
    return out
