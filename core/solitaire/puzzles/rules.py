"""Playing one puzzle: placements and removals, what is broken, when it is solved.

`Puzzle` is a shipped puzzle's board made ready to check (cells, the slots a
tile may take, constraints); `PuzzleGame` is the one-seat match of the core
interface. A placement that breaks a constraint is allowed (the player tries
things); the view says what is broken, and the puzzle is solved, whatever
the solution, when every cell is covered and nothing is broken.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ...errors import N_, IllegalMove, illegal
from ...match import RECORD_FORMAT, add_legal
from ...tiles import Tile
from . import cells as cellnames
from . import moves as mv
from .moves import GIVE_UP, HINT, PLACE, REMOVE, PuzzleMove

if TYPE_CHECKING:
    from ...variant import Variant

ALL_TILES = tuple(Tile(a, b) for a in range(6, -1, -1) for b in range(a, -1, -1))


class Puzzle:
    """A puzzle's definition (JSON data, see `shapes`) with its lookup tables."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.id: str = data["id"]
        self.kind: str = data["kind"]
        self.level: str = data["level"]
        self.cells: list[str] = list(data["cells"])
        self.cell_set = set(self.cells)
        self.order = {c: i for i, c in enumerate(self.cells)}
        self.pool: int = data["pool"]
        self.givens: dict[str, int] = dict(data["givens"])
        self.constraints: list[dict[str, Any]] = data["constraints"]
        self.slots: set[frozenset[str]] = set()
        if data["slots"] is None:
            for c in self.cells:
                col, row = cellnames.position(c)
                for dc, dr in ((1, 0), (0, 1)):
                    if col + dc < 26:
                        other = cellnames.name(col + dc, row + dr)
                        if other in self.cell_set:
                            self.slots.add(frozenset((c, other)))
        else:
            self.slots = {frozenset(s) for s in data["slots"]}
        self.neighbours: dict[str, list[str]] = {c: [] for c in self.cells}
        for s in self.slots:
            a, b = sorted(s, key=self.order.__getitem__)
            self.neighbours[a].append(b)
            self.neighbours[b].append(a)
        for c in self.cells:
            self.neighbours[c].sort(key=self.order.__getitem__)
        self.fixed: list[PuzzleMove] = []
        for text in data["fixed"]:
            _kind, parts = mv.parse(text)
            a, b, c1, c2 = parts
            self.fixed.append(mv.place(int(a), int(b), str(c1), str(c2)))  # type: ignore[arg-type]

    def label(self, index: int) -> str:
        template, values = self.constraints[index]["label"]
        return str(template).format(**values)

    def describe(self) -> dict[str, Any]:
        d = self.data
        return {"id": self.id, "kind": self.kind, "level": self.level, "name": d["name"]}


def _label(c: dict[str, Any]) -> str:
    template, values = c["label"]
    return str(template).format(**values)


class Broken:
    """One broken constraint: which, and why (an English template with its values)."""

    __slots__ = ("index", "template", "values")

    def __init__(self, index: int, template: str, **values: Any) -> None:
        self.index = index
        self.template = template
        self.values = values

    def as_dict(self, puzzle: Puzzle) -> dict[str, Any]:
        c = puzzle.constraints[self.index]
        return {"constraint": self.index, "kind": c["kind"], "label": list(c["label"]),
                "template": self.template, "values": dict(self.values),
                "text": self.template.format(**self.values)}


def broken(puzzle: Puzzle, value: dict[str, int], tile_at: dict[str, int],
           complete: bool) -> list[Broken]:
    """The constraints the filled cells break (`value`: cell -> number, `tile_at`: cell ->
    tile id); with `complete`, every cell is filled and totals must be met exactly."""
    out: list[Broken] = []
    totals_of: dict[int, int] = {}
    for i, c in enumerate(puzzle.constraints):
        kind = c["kind"]
        name = _label(c)
        if kind == "equal":
            seen = sorted({value[x] for x in c["cells"] if x in value}, reverse=True)
            if len(seen) > 1:
                out.append(Broken(i, N_("{name} shows {values}: one number four times"),
                                  name=name, values=", ".join(map(str, seen))))
        elif kind == "sum":
            got = sum(value.get(x, 0) for x in c["cells"])
            free = sum(1 for x in c["cells"] if x not in value)
            total = c["total"]
            if got > total:
                out.append(Broken(i, N_("{name} totals {got}, more than {total}"),
                                  name=name, got=got, total=total))
            elif got + 6 * free < total:
                out.append(Broken(i, N_("{name} totals {got} and cannot reach {total}"),
                                  name=name, got=got, total=total))
        elif kind == "same":
            sums = [sum(value[x] for x in line) for line in c["lines"]
                    if all(x in value for x in line)]
            if len(set(sums)) > 1:
                out.append(Broken(i, N_("the sides of {name} total {values}: they must be equal"),
                                  name=name, values=", ".join(map(str, sums))))
            elif len(sums) == len(c["lines"]):
                totals_of[i] = sums[0]
        elif kind == "match":
            for a, b in c["pairs"]:
                if a in value and b in value and tile_at[a] != tile_at[b] and value[a] != value[b]:
                    out.append(Broken(i, N_("{a} ({x}) touches {b} ({y}): touching halves must "
                                      "be equal"), a=a, x=value[a], b=b, y=value[b]))
        elif kind == "values":
            want = Counter(c["values"])
            have = Counter(value[x] for x in c["cells"] if x in value)
            for v in sorted(have):
                if have[v] > want[v]:
                    out.append(Broken(i, N_("{name} shows {value} {count} times, at most {most}"),
                                      name=name, value=v, count=have[v], most=want[v]))
    for i, c in enumerate(puzzle.constraints):
        if c["kind"] != "totals":
            continue
        got = Counter(totals_of[g] for g in c["groups"] if g in totals_of)
        twice = c["twice"]
        for v in sorted(got):
            if got[v] > (2 if v == twice else 1):
                out.append(Broken(i, N_("{count} squares total {value}: the totals all differ, "
                                  "except two squares at {twice}"), count=got[v], value=v,
                                  twice=twice))
        undecided = sum(1 for g in c["groups"] if g not in totals_of)
        if got[twice] + undecided < 2:
            out.append(Broken(i, N_("two squares must total {twice}: too few squares are "
                                    "left for it"), twice=twice))
    return out


class PuzzleGame:
    """One seat solving one puzzle: the core interface (to_move, legal_moves, play, view...)."""

    def __init__(self, variant: Variant, puzzle: Puzzle, seed: int,
                 options: dict[str, Any]) -> None:
        self.variant = variant
        self.puzzle = puzzle
        self.players = 1
        self.seed = seed
        self.options = dict(options)
        self.deal: dict[str, Any] | None = None
        self.value: dict[str, int] = {}
        self.tile_at: dict[str, int] = {}
        self.placed: dict[int, PuzzleMove] = {}  # tile id -> its placement
        self.played: list[tuple[int, PuzzleMove]] = []
        self.hints: list[int] = []
        self.seconds: float | None = None  # the caller may set the time the solve took
        self.over = False
        self.gave_up = False
        self.to_move: int | None = 0
        for m in puzzle.fixed:
            self._put(m)
        self._fixed = frozenset(self.placed)

    # -- the interface ------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The moves that changed the board (placements, removals, giving up): a button carries
        it to be refused when stale, and a hint, which changes nothing, leaves it."""
        return sum(1 for _, m in self.played if m.kind != HINT)

    @property
    def moves(self) -> list[PuzzleMove]:
        return [m for _, m in self.played]

    @property
    def round_no(self) -> int:
        return 1

    def copy(self) -> PuzzleGame:
        new = PuzzleGame.__new__(PuzzleGame)
        new.variant, new.puzzle, new.players = self.variant, self.puzzle, 1
        new.seed, new.options, new.deal = self.seed, dict(self.options), None
        new.value, new.tile_at, new.placed = dict(self.value), dict(self.tile_at), dict(self.placed)
        new.played, new.hints = self.played[:], self.hints[:]
        new.seconds, new.over, new.gave_up, new.to_move = (self.seconds, self.over, self.gave_up,
                                                           self.to_move)
        new._fixed = self._fixed
        return new

    def parse_move(self, text: object) -> PuzzleMove:
        """The move `text` names here (a `PuzzleMove` is returned as it is)."""
        if isinstance(text, PuzzleMove):
            return text
        kind, parts = mv.parse(text)
        if kind == PLACE:
            a, b, c1, c2 = parts
            for c in (c1, c2):
                if c not in self.puzzle.cell_set:
                    raise illegal("{cell} is not a cell of this puzzle", cell=str(c)[:6].upper())
            if int(a) > 6 or int(b) > 6:  # type: ignore[call-overload]
                raise illegal("{tile} is not a tile of the double-6 set", tile=f"{a}-{b}")
            return mv.place(int(a), int(b), str(c1), str(c2))  # type: ignore[call-overload]
        if kind == REMOVE:
            return PuzzleMove(REMOVE, cells=(self._removal_cell(str(parts[0])),))
        if kind == HINT:
            return PuzzleMove(HINT, level=int(parts[0]))  # type: ignore[call-overload]
        return PuzzleMove(GIVE_UP)

    def _removal_cell(self, what: str) -> str:
        """The first cell (reading order) of the tile that `what` (a cell or a tile) names."""
        cell = cellnames.canonical(what)
        if cell is not None:
            if cell not in self.puzzle.cell_set:
                raise illegal("{cell} is not a cell of this puzzle", cell=cell)
            if cell not in self.tile_at:
                raise illegal("no tile lies on {cell}", cell=cell)
            tid = self.tile_at[cell]
        else:
            try:
                tid = Tile.parse(what).id
            except ValueError:
                raise illegal("remove what? write a cell like 'remove B1' or a tile like "
                              "'remove 6-4'") from None
            if tid not in self.placed:
                raise illegal("{tile} is not on the board", tile=str(Tile.parse(what)))
        return min(self.placed[tid].cells, key=self.puzzle.order.__getitem__)

    def legal_moves(self) -> list[PuzzleMove]:
        """The placements on the first free cell (reading order; every solution can be laid
        that way) and every removal; giving up too when no placement is left there. Any
        other placement may be played, and "give up" and "hint N" at any time."""
        if self.over:
            return []
        out = self.placements_at(self.first_free())
        stuck = not out
        out += [PuzzleMove(REMOVE, cells=(min(m.cells, key=self.puzzle.order.__getitem__),))
                for tid, m in sorted(self.placed.items()) if tid not in self._fixed]
        if stuck:
            out.append(PuzzleMove(GIVE_UP))
        return out

    def first_free(self) -> str | None:
        return next((c for c in self.puzzle.cells if c not in self.value), None)

    def to_place(self) -> list[Tile]:
        """The tiles still to place (every unplaced tile when the pool is all 28)."""
        if len(self.placed) >= self.puzzle.pool:
            return []
        return [t for t in ALL_TILES if t.id not in self.placed]

    def placements_at(self, cell: str | None) -> list[PuzzleMove]:
        """Every placement allowed now that covers `cell`."""
        if cell is None or cell in self.value or len(self.placed) >= self.puzzle.pool:
            return []
        out: list[PuzzleMove] = []
        seen: set[str] = set()
        for other in self.puzzle.neighbours[cell]:
            if other in self.value:
                continue
            for t in self.to_place():
                for a, b in ((t[0], t[1]), (t[1], t[0])):
                    m = mv.place(a, b, cell, other)
                    if m.text not in seen and self._allowed(m) is None:
                        seen.add(m.text)
                        out.append(m)
        return out

    def placements(self, tile: str | Tile | None = None, cell: str | None = None
                   ) -> list[PuzzleMove]:
        """Every placement allowed now, of `tile` and/or covering `cell` (for a chat that
        builds a placement with buttons: a tile, then a cell, then the second cell)."""
        want = None if tile is None else (Tile.parse(tile) if isinstance(tile, str) else tile)
        cells = [cell] if cell is not None else [c for c in self.puzzle.cells
                                                 if c not in self.value]
        out: dict[str, PuzzleMove] = {}
        for c in cells:
            for m in self.placements_at(c):
                if want is None or m.tile == want:
                    out.setdefault(m.text, m)
        return list(out.values())

    def _allowed(self, m: PuzzleMove) -> IllegalMove | None:
        """Why placement `m` is not allowed now (None when it is)."""
        assert m.tile is not None
        p = self.puzzle
        c1, c2 = sorted(m.cells, key=p.order.__getitem__)
        if c1 == c2:
            return illegal("a tile covers two cells, not {cell} twice", cell=c1)
        if frozenset(m.cells) not in p.slots:
            (x1, y1), (x2, y2) = cellnames.position(c1), cellnames.position(c2)
            if abs(x1 - x2) + abs(y1 - y2) != 1:
                return illegal("{a} and {b} are not next to each other", a=c1, b=c2)
            return illegal("{a} and {b} cannot hold one tile: {a} pairs only with {cells}",
                           a=c1, b=c2, cells=tuple(p.neighbours[c1]))
        for c in (c1, c2):
            if c in self.value:
                return illegal("{cell} is taken: remove its tile first", cell=c)
        if m.tile.id in self.placed:
            return illegal("{tile} is already on the board", tile=str(m.tile))
        if len(self.placed) >= p.pool:
            return illegal("all {n} tiles are placed: remove one first", n=p.pool)
        for c, v in zip(m.cells, m.values, strict=True):
            if c in p.givens and p.givens[c] != v:
                return illegal("{cell} shows {given}: the tile's half there must be {given}",
                               cell=c, given=p.givens[c])
        return None

    def play(self, move: PuzzleMove | str) -> None:
        """Apply `move`; an illegal move raises `IllegalMove` and changes nothing."""
        m = self.parse_move(move)
        if self.over:
            raise illegal("the puzzle is over")
        if m.kind == PLACE:
            why = self._allowed(m)
            if why is not None:
                raise why
            self._put(m)
        elif m.kind == REMOVE:
            tid = self.tile_at.get(m.cells[0])
            if tid is None:
                raise illegal("no tile lies on {cell}", cell=m.cells[0])
            if tid in self._fixed:
                raise illegal("{tile} is part of the puzzle and stays",
                              tile=str(self.placed[tid].tile))
            for c in self.placed.pop(tid).cells:
                del self.value[c]
                del self.tile_at[c]
        elif m.kind == HINT:
            self.hints.append(m.level)
        else:
            self.gave_up = True
        self.played.append((0, m))
        if self.gave_up or self.solved():
            self.over = True
            self.to_move = None

    def _put(self, m: PuzzleMove) -> None:
        assert m.tile is not None
        self.placed[m.tile.id] = m
        for c, v in zip(m.cells, m.values, strict=True):
            self.value[c] = v
            self.tile_at[c] = m.tile.id

    def complete(self) -> bool:
        return len(self.value) == len(self.puzzle.cells)

    def broken(self) -> list[Broken]:
        """What the tiles on the board break now."""
        return broken(self.puzzle, self.value, self.tile_at, self.complete())

    def solved(self) -> bool:
        return self.complete() and not self.broken()

    @property
    def result(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        won = not self.gave_up
        return {"winners": [0] if won else [], "scores": [1 if won else 0], "ranking": [0],
                "rounds": 1, "reason": "solved" if won else "gave up",
                "puzzle": self.puzzle.id, "moves": self.turn,
                "placements": sum(1 for m in self.moves if m.kind == PLACE),
                "hints": len(self.hints), "hint_levels": self.hints[:],
                "seconds": self.seconds}

    def record(self) -> dict[str, Any]:
        rec: dict[str, Any] = {"format": RECORD_FORMAT, "variant": self.variant.slug,
                               "players": 1, "seed": self.seed, "options": dict(self.options),
                               "deal": None, "moves": [m.text for m in self.moves]}
        if self.over:
            rec["result"] = self.result
        return rec

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything is public in a puzzle; the seat's view also has its `hand` (the tiles to
        place) and the `legal` moves."""
        if seat is not None and (isinstance(seat, bool) or seat != 0):
            from ...errors import OptionError
            raise OptionError(f"seat must be None or 0 (got {seat!r})")
        p = self.puzzle
        to_place = [str(t) for t in self.to_place()]
        broken = [b.as_dict(p) for b in self.broken()]
        bad_cells = sorted({x for b in self.broken() for x in self._cells_of(b)},
                           key=p.order.__getitem__)
        last = self.played[-1][1].text if self.played else None
        v: dict[str, Any] = {
            "variant": self.variant.slug, "name": dict(self.variant.names), "players": 1,
            "seat": seat, "to_move": self.to_move, "turn": self.turn, "round": 1,
            "hand_sizes": [len(to_place)], "board": [m.text for m in self._placements()],
            "ends": [], "stock": 0, "scores": [1 if self.over and not self.gave_up else 0],
            "over": self.over, "result": self.result,
            "last_move": None if last is None else {"seat": 0, "move": last},
            "options": dict(self.options),
            "puzzle": p.describe(), "to_place": to_place, "pool": p.pool,
            "tiles_left": p.pool - len(self.placed),
            "broken": broken, "hints": len(self.hints), "solved": self.over and not self.gave_up,
            "layout": self._layout(bad_cells),
        }
        if seat is not None:
            v["hand"] = to_place
            add_legal(self, v, seat)
        return v

    def solution_view(self) -> dict[str, Any] | None:
        """Once the puzzle is given up, the public view of its board solved by the shipped
        solution (``"shows": "solution"``), to show the player; None before, or when solved."""
        if not self.gave_up:
            return None
        solved = PuzzleGame(self.variant, self.puzzle, self.seed, self.options)
        for text in self.puzzle.data.get("solution", []):
            solved._put(solved.parse_move(text))
        view = solved.view(None)
        view.update({"shows": "solution", "hints": len(self.hints), "over": True,
                     "to_move": None})
        return view

    def _placements(self) -> list[PuzzleMove]:
        order = self.puzzle.order
        return sorted(self.placed.values(), key=lambda m: min(order[c] for c in m.cells))

    def _cells_of(self, b: Broken) -> list[str]:
        c = self.puzzle.constraints[b.index]
        if c["kind"] == "match":
            return [b.values["a"], b.values["b"]]
        if c["kind"] == "same":
            return [x for line in c["lines"] for x in line]
        if c["kind"] == "totals":
            return []
        return list(c["cells"])

    def _layout(self, bad_cells: list[str]) -> dict[str, Any]:
        p = self.puzzle
        bad = {b.index for b in self.broken()}
        lines = []
        for i, c in enumerate(p.constraints):
            if c["kind"] == "sum":
                lines.append({"constraint": i, "cells": c["cells"],
                              "total": c["total"], "broken": i in bad,
                              "current": sum(self.value.get(x, 0) for x in c["cells"])})
            elif c["kind"] == "same":
                for line in c["lines"]:
                    lines.append({"constraint": i, "cells": line,
                                  "total": None, "broken": i in bad,
                                  "current": sum(self.value.get(x, 0) for x in line)})
        last = self.played[-1][1] if self.played else None
        return {
            "kind": "puzzle", "puzzle": p.kind, "width": p.data["width"],
            "height": p.data["height"], "cells": p.cells, "givens": dict(p.givens),
            "tiles": [{"tile": str(m.tile), "cells": list(m.cells), "values": list(m.values),
                       "fixed": m.tile is not None and m.tile.id in self._fixed,
                       "last": last is not None and last.text == m.text}
                      for m in self._placements()],
            "squares": [c["cells"] for c in p.constraints if c["kind"] == "equal"],
            "lines": lines, "broken_cells": bad_cells, "tags": self._tags(),
        }

    def _tags(self) -> list[dict[str, Any]]:
        """The numbers of what the texts call "square 3" or "ray 3", where the picture shows
        them (``{"text": "3", "at": [column, row]}``): in the middle of a square drawn as a
        ring, one step past the end of a ray (beside its total)."""
        groups: dict[tuple[str, Any], list[str]] = {}
        for c in self.puzzle.constraints:
            template, values = c["label"]
            if "n" in values:
                cells = c.get("cells") or [x for line in c.get("lines", []) for x in line]
                groups.setdefault((template.replace("a side of ", ""), values["n"]),
                                  []).extend(cells)
        out = []
        for (_, n), cells in groups.items():
            pos = [cellnames.position(x) for x in cells]
            (c0, r0), (c1, r1) = pos[0], pos[-1]
            if len(pos) > 1 and all((c - c0) * (r1 - r0) == (r - r0) * (c1 - c0)
                                    for c, r in pos):  # a straight ray: past its end
                (cp, rp) = pos[-2]
                at = [c1 + (c1 - cp), r1 + (r1 - rp)]
            else:
                cols, rows = [c for c, _ in pos], [r for _, r in pos]
                at = [(min(cols) + max(cols)) // 2, (min(rows) + max(rows)) // 2]
            out.append({"text": str(n), "at": at})
        return out
