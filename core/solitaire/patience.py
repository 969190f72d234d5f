"""`PatienceMatch`: the domino patience of 000 ("DOMINO PATIENCE"), for one player.

The 28 tiles are dealt face down in 7 columns of 4 (three rows stacked face
down, covered by a row face up: only each column's top tile shows).  A move
removes two face-up tiles whose pips total 12, written with the two tiles
(``"6-4 2-0"``); the tile under each is turned up.  The player wins when every
tile is gone, and loses when no two face-up tiles total 12.

Once the game is over the result says whether the deal could have been won
(`core.solitaire.patience_search.solve` looks at every tile then) and gives
a winning line when there is one; the view shows the tiles left face down.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from ..errors import bad_option, illegal
from ..match import MATCH_SLOTS, MatchBase, add_legal
from ..scoring import MatchRules
from ..tiles import Tile, TileSet, deal_tile, tile_set
from .patience_search import PIPS, TOTAL, pairs, solve

if TYPE_CHECKING:
    from ..variant import Variant

COLUMNS = 7
DEPTH = 4
MAX_TEXT = 60
_SPLIT_RE = re.compile(r"\s*(?:\+|,|&|\s|\band\b|\bet\b)\s*")


@dataclass(frozen=True, slots=True)
class PatienceRules:
    """The patience's deal: how many columns of how many tiles."""

    columns: int = COLUMNS
    depth: int = DEPTH
    teams: tuple[tuple[int, ...], ...] | None = None  # never: the match base reads it


def _order(tid: int) -> tuple[int, int]:
    ts = tile_set(6)
    return ts.hi[tid], ts.lo[tid]


class PairMove:
    """Remove two face-up tiles: ``str(move)`` names them, the higher tile first (``"6-4 2-0"``)."""

    __slots__ = ("text", "tids", "tiles")

    kind = "remove"
    tile = None
    tid = -1

    tids: tuple[int, int]
    tiles: tuple[Tile, Tile]
    text: str

    def __init__(self, a: int, b: int) -> None:
        hi, lo = sorted((a, b), key=_order, reverse=True)
        self.tids = (hi, lo)
        ts = tile_set(6)
        self.tiles = (Tile(ts.hi[hi], ts.lo[hi]), Tile(ts.hi[lo], ts.lo[lo]))
        self.text = f"{self.tiles[0]} {self.tiles[1]}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"PairMove({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PairMove):
            return self.tids == other.tids
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("pair", self.tids))

    def __reduce__(self) -> tuple[object, ...]:
        return (pair_move, self.tids)


@cache
def pair_move(a: int, b: int) -> PairMove:
    """The interned move that removes tiles `a` and `b` (ids, in any order)."""
    return PairMove(a, b) if _order(a) >= _order(b) else pair_move(b, a)


def parse_pair(text: object) -> PairMove:
    """The move written ``"6-4 2-0"`` (also ``"6-4 + 2-0"``, ``"6-4, 0-2"``)."""
    if not isinstance(text, str):
        raise illegal("a move names two tiles totalling 12, like '6-4 2-0'")
    if len(text) > MAX_TEXT:
        raise illegal("move text too long ({n} characters, at most {most})", n=len(text),
                      most=MAX_TEXT)
    words = [w for w in _SPLIT_RE.split(text.strip().lower()) if w]
    ts = tile_set(6)
    if len(words) != 2:
        raise illegal("name two tiles totalling 12, like '6-4 2-0' (got {text!r})",
                      text=text.strip()[:30])
    try:
        a, b = (ts.parse(w) for w in words)
    except ValueError:
        raise illegal("name two tiles totalling 12, like '6-4 2-0' (got {text!r})",
                      text=text.strip()[:30]) from None
    if a == b:
        raise illegal("name two different tiles (got {tile} twice)", tile=ts.names[a])
    return pair_move(a, b)


class PatienceMatch(MatchBase):
    """A game of patience (one seat, one round)."""

    __slots__ = (*MATCH_SLOTS, "_solution", "events", "leader", "played", "reason", "removed",
                 "stacks", "start", "to_move", "ts", "winners")

    def __init__(self, variant: Variant, players: int, seed: int, options: dict[str, Any],
                 rules: PatienceRules, deal: dict[str, Any] | None = None) -> None:
        self.ts = tile_set(6)
        stacks = parse_columns(self.ts, deal) if deal is not None else None
        if stacks is not None:
            deal = {"columns": [[self.ts.names[t] for t in reversed(s)] for s in stacks]}
        self._init_match(variant, players, seed, options, rules, MatchRules(scoring="none"),
                         deal)
        if stacks is None:
            tiles = list(self.ts.ids)
            self.rng.shuffle(tiles)
            d = rules.depth
            stacks = [tiles[i * d:(i + 1) * d] for i in range(rules.columns)]
        self.stacks: list[list[int]] = stacks  # bottom first: the last tile is face up
        self.start = [s[:] for s in stacks]
        self.removed: list[tuple[int, int]] = []
        self.played: list[tuple[int, PairMove]] = []
        self.events: list[tuple[Any, ...]] = []
        self.leader = self._leader1 = 0
        self.to_move: int | None = 0
        self.reason = ""
        self.winners: list[int] = []
        self._solution: list[PairMove] | bool | None = False  # False: not searched yet
        self._check_end()

    # -- moves ---------------------------------------------------------------------------

    def tops(self) -> list[int | None]:
        """Each column's face-up tile (None: an empty column)."""
        return [s[-1] if s else None for s in self.stacks]

    def hidden(self) -> list[int]:
        """How many face-down tiles each column holds."""
        return [max(0, len(s) - 1) for s in self.stacks]

    def legal_moves(self) -> list[PairMove]:
        """Every two face-up tiles totalling 12."""
        if self.to_move is None:
            return []
        tops = self.tops()
        return [pair_move(tops[i], tops[j]) for i, j in pairs(tops)]  # type: ignore[arg-type]

    def parse_move(self, text: str) -> PairMove:
        return parse_pair(text)

    def play(self, move: PairMove | str) -> None:
        """Remove the two face-up tiles of `move` and turn up what lies under them."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if not isinstance(move, PairMove):
            raise illegal("a move names two tiles totalling 12, like '6-4 2-0'")
        if self.to_move is None:
            raise illegal("the game is over")
        tops = self.tops()
        names = self.ts.names
        for t in move.tids:
            if t not in tops:
                raise illegal("{tile} is not face up on top of a column", tile=names[t])
        a, b = move.tids
        if PIPS[a] + PIPS[b] != TOTAL:
            raise illegal("{a} and {b} total {total} pips, not 12", a=names[a], b=names[b],
                          total=PIPS[a] + PIPS[b])
        self.played.append((0, move))
        self.events = [("remove", 0, a, b)]
        for t in move.tids:
            stack = self.stacks[tops.index(t)]
            stack.pop()
            if stack:
                self.events.append(("up", 0, stack[-1]))
        self.removed.append(move.tids)
        self.totals[0] += 2
        self._check_end()

    def _check_end(self) -> None:
        if any(self.stacks) and pairs(self.tops()):
            return
        self.reason = "stuck" if any(self.stacks) else "cleared"
        self.winners = [] if self.reason == "stuck" else [0]
        self.to_move = None
        self.events.append(("end", self.reason, self.winners))
        self._round_ended()

    # -- the end ---------------------------------------------------------------------------

    def solution(self) -> list[PairMove] | None:
        """A winning line of the whole deal (looking at every tile), None when there is none.
        Only once the game is over: while it goes on, that would show the hidden tiles."""
        if not self.over:
            raise illegal("the game is not over: whether the deal can be won is said at the end")
        if self._solution is False:
            stacks = [s[:] for s in self.start]
            line = solve(stacks)
            moves = None
            if line is not None:
                moves = []
                for i, j in line:
                    moves.append(pair_move(stacks[i].pop(), stacks[j].pop()))
            self._solution = moves
        return self._solution  # type: ignore[return-value]

    def _make_result(self) -> dict[str, Any]:
        result = MatchBase._make_result(self)
        line = self.solution()
        result["winnable"] = line is not None
        result["solution"] = None if line is None else [m.text for m in line]
        return result

    def summary(self) -> dict[str, Any]:
        left = 0
        for s in self.stacks:
            for t in s:
                left |= 1 << t
        removed = 2 * len(self.removed)
        return {"reason": self.reason, "winners": self.winners[:], "counts": [removed],
                "hands": [left], "order": [0]}

    def _round_order(self, summary: dict[str, Any]) -> list[int]:
        return [0]

    def _next_round(self, last: dict[str, Any]) -> None:  # one round: never called
        raise AssertionError("the patience is played in one round")

    def copy(self) -> PatienceMatch:
        new = self._shallow_copy()
        new.stacks = [s[:] for s in self.stacks]
        for name in ("removed", "played", "events", "winners"):
            setattr(new, name, getattr(self, name)[:])
        self._copy_match(new)
        return new

    # -- views ---------------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What the player (and the channel) may see: the face-up tiles and hidden counts;
        once the game is over, the tiles left face down too. No hand (`hand_sizes` is [0]):
        the tiles still on the table are counted under `left`."""
        self._check_seat(seat)
        ts = self.ts
        names = ts.names
        v = self._match_view(seat, ts)
        columns = []
        for s in self.stacks:
            col: dict[str, Any] = {"up": names[s[-1]] if s else None,
                                   "hidden": max(0, len(s) - 1)}
            if self.over:
                col["tiles"] = [names[t] for t in reversed(s)]  # top first
            columns.append(col)
        last = [names[t] for t in self.removed[-1]] if self.removed and self.played else []
        removed = [[names[a], names[b]] for a, b in self.removed]
        v["events"] = [self._event(e) for e in self.events]
        result = v["result"] or {}
        v.update({
            "hand": [],
            "hand_sizes": [0],
            "left": sum(map(len, self.stacks)),
            "board": [c["up"] for c in columns if c["up"]],
            "ends": [],
            "stock": 0,
            "columns": columns,
            "removed": removed,
            "winnable": result.get("winnable"),
            "layout": {"kind": "patience", "columns": columns, "last": last,
                       "removed": len(removed) * 2, "over": self.over,
                       "won": self.reason == "cleared", "winnable": result.get("winnable")},
        })
        add_legal(self, v, seat)  # the player's view only, not the public one
        return v

    def _event(self, e: tuple[Any, ...]) -> dict[str, Any]:
        names = self.ts.names
        if e[0] == "remove":
            return {"type": "remove", "seat": 0, "tiles": [names[e[2]], names[e[3]]]}
        if e[0] == "up":
            return {"type": "turn_up", "seat": 0, "tile": names[e[2]]}
        return {"type": "end", "reason": e[1], "winners": list(e[2])}


def parse_columns(ts: TileSet, deal: Any) -> list[list[int]]:
    """The columns of a hand-built deal, ``{"columns": [[top tile, ..., bottom tile], ...]}``
    (1 to 14 columns; every tile once), as stacks bottom first."""
    cols = deal.get("columns") if isinstance(deal, dict) else None
    if not isinstance(cols, list) or not 1 <= len(cols) <= 14 or not all(
            isinstance(c, list) for c in cols):
        raise bad_option('deal must be {{"columns": [[tiles, the face-up one first], ...]}} '
                         "with 1 to 14 columns")
    seen = 0
    stacks = []
    for col in cols:
        stack = []
        for text in col:
            t = deal_tile(ts, text, seen)
            seen |= 1 << t
            stack.append(t)
        stacks.append(stack[::-1])
    if not seen:
        raise bad_option("deal: no tile in any column")
    return stacks
