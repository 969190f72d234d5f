"""The puzzles' solver (OR-Tools CP-SAT): solutions, dead ends, and the four hints.

The one module of `core` that needs more than the standard library; the
rules never import it. Without OR-Tools the first hint (what is broken)
still works and the others say that the solver is missing.

    from core.solitaire.puzzles import solver
    solver.hint(game, 2)    # {"level": 2, "text": "This position can still be solved", ...}
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from typing import Any

from ...errors import N_
from .moves import PuzzleMove, place
from .rules import ALL_TILES, Puzzle, PuzzleGame

try:
    from ortools.sat.python import cp_model
except ImportError:  # pragma: no cover - depends on the machine
    cp_model = None

_FOUND: dict[str, list[list[PuzzleMove]]] = {}  # puzzle id -> solutions found lately
KEEP_FOUND = 16
TIME_LIMIT = 1.6  # seconds a hint may take, all its solves together (2 s with the rest)
WORKERS = 2


def available() -> bool:
    """True when OR-Tools is installed."""
    return cp_model is not None


class Model:
    """A puzzle as a CP-SAT model: one boolean per (slot, tile, way round); the placements
    `keep` are made, those of `soft` may be (`kept`: their booleans, in order). With
    `likely`, the squares' totals are narrowed to a known answer's (a ``totals``
    constraint's ``likely``): faster, but a position it cannot solve may still be
    solvable."""

    def __init__(self, puzzle: Puzzle, keep: Iterable[PuzzleMove] = (),
                 soft: Iterable[PuzzleMove] = (), likely: bool = False) -> None:
        assert cp_model is not None
        self.puzzle = p = puzzle
        self.likely = likely
        self.m = m = cp_model.CpModel()
        self.x: dict[str, Any] = {}  # placement text -> its boolean
        self.moves: dict[str, PuzzleMove] = {}
        cover: dict[str, list[Any]] = {c: [] for c in p.cells}
        at: dict[tuple[str, int], list[Any]] = {}
        by_tile: dict[int, list[Any]] = {}
        by_slot: dict[frozenset[str], list[Any]] = {}
        for slot in sorted(p.slots, key=lambda s: sorted(s)):
            a, b = sorted(slot)
            for t in ALL_TILES:
                for u, v in {(t[0], t[1]), (t[1], t[0])}:
                    if p.givens.get(a, u) != u or p.givens.get(b, v) != v:
                        continue
                    mv = place(u, v, a, b)
                    var = m.NewBoolVar(mv.text)
                    self.x[mv.text] = var
                    self.moves[mv.text] = mv
                    cover[a].append(var)
                    cover[b].append(var)
                    at.setdefault((a, u), []).append(var)
                    at.setdefault((b, v), []).append(var)
                    by_tile.setdefault(t.id, []).append(var)
                    by_slot.setdefault(slot, []).append(var)
        for c in p.cells:
            m.AddExactlyOne(cover[c])
        for t in ALL_TILES:
            m.AddAtMostOne(by_tile.get(t.id, []))
        self.value = {c: sum(v * var for v in range(7) for var in at.get((c, v), []))
                      for c in p.cells}
        self.at = at
        if p.pool == len(ALL_TILES):  # every tile laid: each number shows eight times
            for v in range(7):
                m.Add(sum(var for c in p.cells for var in at.get((c, v), [])) == 8)
        self.by_slot = by_slot
        self.totals: dict[int, Any] = {}
        keep, soft = list(keep), list(soft)
        self.placed_cells = {c for mv in [*keep, *soft] for c in mv.cells}
        for i, con in enumerate(p.constraints):
            self._constrain(i, con)
        self.proved = False  # the last solve proved its answer (optimal, or impossible)
        for mv in keep:
            m.Add(self._var(mv) == 1)
        self.kept: list[Any] = [self._var(mv) for mv in soft]

    def _var(self, mv: PuzzleMove) -> Any:
        """The boolean of placement `mv` (a constant 0 for one the model never allows, against
        a given)."""
        var = self.x.get(mv.text)
        return self.m.NewConstant(0) if var is None else var

    def has(self, cell: str, v: int) -> Any:
        """1 when `cell` shows `v` (a sum of booleans, at most one of them true)."""
        return sum(self.at.get((cell, v), []))

    def _constrain(self, i: int, con: dict[str, Any]) -> None:
        m, val = self.m, self.value
        kind = con["kind"]
        if kind == "equal":  # one-hot equalities propagate far better than the values'
            first = con["cells"][0]
            for c in con["cells"][1:]:
                for v in range(7):
                    m.Add(self.has(c, v) == self.has(first, v))
        elif kind == "sum":
            m.Add(sum(val[c] for c in con["cells"]) == con["total"])
        elif kind == "same":
            total = m.NewIntVar(0, 6 * max(len(line) for line in con["lines"]), f"total{i}")
            for line in con["lines"]:
                m.Add(sum(val[c] for c in line) == total)
            self.totals[i] = total
        elif kind == "match":
            for a, b in con["pairs"]:
                same = self.by_slot.get(frozenset((a, b)))
                if same:
                    together = m.NewBoolVar(f"together{a}{b}")
                    m.Add(sum(same) == together)
                    m.Add(val[a] == val[b]).OnlyEnforceIf(together.Not())
                else:
                    m.Add(val[a] == val[b])
        elif kind == "values":
            for v in range(7):
                m.Add(sum(var for c in con["cells"] for var in self.at.get((c, v), []))
                      == con["values"].count(v))
        elif kind == "totals":
            self._distinct_totals(con)

    def _distinct_totals(self, con: dict[str, Any]) -> None:
        m = self.m
        hits: dict[int, list[Any]] = {}
        for g in con["groups"]:
            total = self.totals[g]
            choose = []
            for v in range(19):
                b = m.NewBoolVar(f"t{g}={v}")
                choose.append(b)
                hits.setdefault(v, []).append(b)
            m.AddExactlyOne(choose)
            m.Add(total == sum(v * b for v, b in enumerate(choose)))
        for v, bs in hits.items():
            if self.likely and con.get("likely"):
                m.Add(sum(bs) == con["likely"].count(v))
            elif v == con["twice"]:
                m.Add(sum(bs) == 2)
            else:
                m.AddAtMostOne(bs)
        # untouched squares are interchangeable: their totals may be taken in order
        untouched = [g for g in con["groups"]
                     if not any(c in self.placed_cells for line in self.puzzle.constraints[g]
                                ["lines"] for c in line)]
        for g, h in itertools.pairwise(untouched):
            m.Add(self.totals[g] <= self.totals[h])

    def solve(self, seconds: float) -> tuple[str, list[PuzzleMove] | None]:
        """("solved" | "impossible" | "unknown", the placements of a solution)."""
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.05, seconds)
        solver.parameters.num_workers = WORKERS
        status = solver.Solve(self.m)
        self.proved = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            chosen = [self.moves[k] for k, var in self.x.items() if solver.Value(var)]
            return "solved", chosen
        if status == cp_model.INFEASIBLE:
            return "impossible", None
        return "unknown", None


def solve(puzzle: Puzzle, keep: Iterable[PuzzleMove] = (), seconds: float = 10.0
          ) -> tuple[str, list[PuzzleMove] | None]:
    """A solution keeping the placements `keep`: ("solved", placements), or "impossible",
    or "unknown" (out of time)."""
    return Model(puzzle, keep).solve(seconds)


def count_solutions(puzzle: Puzzle, most: int = 2, seconds: float = 60.0) -> int:
    """How many solutions the puzzle has, counting up to `most` (different cell values;
    two ways of laying the same numbers count once)."""
    model = Model(puzzle)
    found = 0
    deadline = time.monotonic() + seconds
    while found < most:
        status, sol = model.solve(deadline - time.monotonic())
        if status != "solved" or sol is None:
            if status == "unknown":
                raise TimeoutError("counting solutions took too long")
            break
        found += 1
        values = {c: v for m in sol for c, v in zip(m.cells, m.values, strict=True)}
        # exclude these numbers: some cell must differ
        diff = []
        for c, v in values.items():
            diff += [var for u in range(7) if u != v for var in model.at.get((c, u), [])]
        model.m.AddBoolOr(diff)
    return found


def other_solution(puzzle: Puzzle, value: dict[str, int], seconds: float = 60.0
                   ) -> dict[str, int] | None:
    """The numbers of a solution that differs from `value` (cell -> number) somewhere, or None
    when there is none (the puzzle's numbers are unique)."""
    model = Model(puzzle)
    model.m.AddBoolOr([var for c, v in value.items() for u in range(7) if u != v
                       for var in model.at.get((c, u), [])])
    status, sol = model.solve(seconds)
    if status == "unknown":
        raise TimeoutError("the solver took too long")
    if sol is None:
        return None
    return {c: v for m in sol for c, v in zip(m.cells, m.values, strict=True)}


def _answer(level: int, template: str, **values: Any) -> dict[str, Any]:
    return {"level": level, "template": template, "values": values,
            "text": template.format(**values)}


NO_SOLVER = N_("hints need the puzzle solver (the Python package ortools), "
               "which is not installed")


def hint(game: PuzzleGame, level: int, seconds: float = TIME_LIMIT) -> dict[str, Any]:
    """Hint `level` for the position of `game` (1: what is broken; 2: can it still be solved;
    3: a placement of a solution; 4: a value revealed). A dict with the English `template`,
    its `values` and the `text`; a placement hint has its `move`."""
    if level == 1:
        broken = game.broken()
        if not broken:
            return _answer(1, N_("Nothing is broken so far"))
        first = broken[0].as_dict(game.puzzle)
        return {**_answer(1, N_("Broken: {what}"), what=first["text"]),
                "broken": [b.as_dict(game.puzzle) for b in broken]}
    if cp_model is None:
        return {**_answer(level, NO_SOLVER), "error": "no solver"}
    start = time.monotonic()
    keep = list(game.placed.values())
    broken = game.broken()
    if broken:  # said at once, then the removals that would mend it, if found in time
        what = broken[0].as_dict(game.puzzle)["text"]
        out = _dead_end(game, level, seconds)
        if "remove" not in out:
            out = {**_answer(level, N_("Dead end: {what}"), what=what), "solvable": False}
        return out
    status, sol = position_solution(game, seconds - 0.1)
    if status == "unknown":
        return _answer(level, N_("The solver ran out of time; try again after another move"))
    if status == "impossible" or sol is None:
        return _dead_end(game, level, seconds - (time.monotonic() - start))
    if level == 2:
        return {**_answer(2, N_("This position can still be solved")), "solvable": True}
    new = [m for m in sol if m.tile is not None and m.tile.id not in game.placed]
    order = game.puzzle.order
    new.sort(key=lambda m: min(order[c] for c in m.cells))
    if not new:
        return _answer(level, N_("Nothing left to place"))
    if level == 3:
        return _forced(game, new, keep, seconds - (time.monotonic() - start))
    return _reveal(game, sol)


def stored_solution(puzzle: Puzzle) -> list[PuzzleMove]:
    """The puzzle's shipped solution with its fixed tiles, as placements."""
    from .moves import parse
    out = list(puzzle.fixed)
    for text in puzzle.data.get("solution", []):
        _, (a, b, c1, c2) = parse(text)
        out.append(place(int(a), int(b), str(c1), str(c2)))  # type: ignore[call-overload]
    return out


def position_solution(game: PuzzleGame, seconds: float = TIME_LIMIT
                      ) -> tuple[str, list[PuzzleMove] | None]:
    """A solution that keeps every tile on the board: the shipped one when the board agrees
    with it (at once), else CP-SAT's (guided by the shipped one). Where the puzzle knows
    likely totals, they are tried first with half the time; "impossible" is only said by
    the full model."""
    stored = stored_solution(game.puzzle)
    keep = list(game.placed.values())
    known = _FOUND.setdefault(game.puzzle.id, [])
    for sol in [stored, *known]:
        texts = {m.text for m in sol}
        if all(m.text in texts for m in keep):
            return "solved", sol
    texts = {m.text for m in stored}
    deadline = time.monotonic() + seconds
    narrowed = any(c.get("likely") for c in game.puzzle.constraints)
    status, sol = "unknown", None
    for likely in (True, False) if narrowed else (False,):
        model = Model(game.puzzle, keep, likely=likely)
        for text, var in model.x.items():
            model.m.AddHint(var, text in texts)
        left = deadline - time.monotonic()
        status, sol = model.solve(left / 2 if likely else left)
        if sol is not None:
            break
    if sol is not None:
        _remember(game.puzzle, sol)
    return status, sol


def _dead_end(game: PuzzleGame, level: int, seconds: float) -> dict[str, Any]:
    """A dead end, with a smallest set of placed tiles whose removal makes the position
    solvable again, when the solver proves one in time (never a tile that could stay)."""
    out = {**_answer(level, N_("Dead end: this position cannot be solved")), "solvable": False}
    status, remove, _ = fewest_removals(game, seconds)
    if status == "found" and remove:
        order = game.puzzle.order
        cells = sorted((min(m.cells, key=order.__getitem__) for m in remove),
                       key=order.__getitem__)
        template = (N_("Dead end: remove the tile on {cells} and it can be solved")
                    if len(cells) == 1 else
                    N_("Dead end: remove the tiles on {cells} and it can be solved"))
        out = {**_answer(level, template, cells=", ".join(cells)),
               "solvable": False, "remove": [f"remove {c}" for c in cells]}
    return out


def fewest_removals(game: PuzzleGame, seconds: float = TIME_LIMIT
                    ) -> tuple[str, list[PuzzleMove] | None, list[PuzzleMove] | None]:
    """A smallest set of the placed tiles (the puzzle's own stay) whose removal leaves a
    solvable position, for a position that cannot be solved as it is: ("found", the
    placements to remove, a solution keeping the others), or ("unknown", None, None) when
    no smallest set is proved in time.  A CP-SAT minimisation of the tiles not kept, started
    from the known solutions; a known solution that keeps all but one is smallest at once."""
    fixed = [m for m in game.placed.values() if m.tile is not None and m.tile.id in game._fixed]
    movable = [m for m in game.placed.values()
               if m.tile is not None and m.tile.id not in game._fixed]
    known = [stored_solution(game.puzzle), *_FOUND.get(game.puzzle.id, [])]
    best: tuple[list[PuzzleMove], list[PuzzleMove]] | None = None
    for sol in known:
        texts = {m.text for m in sol}
        remove = [m for m in movable if m.text not in texts]
        if best is None or len(remove) < len(best[0]):
            best = (remove, sol)
    if best is not None and len(best[0]) <= 1:  # none would mean it is not a dead end
        return "found", best[0], best[1]
    model = Model(game.puzzle, fixed, soft=movable)
    kept = model.kept
    model.m.Add(sum(kept) <= len(movable) - 1)  # all of them cannot stay
    if best is not None:
        model.m.Add(sum(kept) >= len(movable) - len(best[0]))
        texts = {m.text for m in best[1]}
        for text, var in model.x.items():
            model.m.AddHint(var, text in texts)
    model.m.Maximize(sum(kept))
    _, sol = model.solve(seconds)
    if sol is None or not model.proved:
        return "unknown", None, None
    texts = {m.text for m in sol}
    _remember(game.puzzle, sol)
    return "found", [m for m in movable if m.text not in texts], sol


def _remember(puzzle: Puzzle, sol: list[PuzzleMove]) -> None:
    known = _FOUND.setdefault(puzzle.id, [])
    known.insert(0, sol)
    del known[KEEP_FOUND:]


def _forced(game: PuzzleGame, new: list[PuzzleMove], keep: list[PuzzleMove], seconds: float
            ) -> dict[str, Any]:
    """A placement every solution makes, when one is proved in time; else one of a solution.
    One model serves every candidate: each is tried by assuming it is not made."""
    deadline = time.monotonic() + seconds
    model: Model | None = None
    for m in new[:6]:
        if deadline - time.monotonic() < 0.3:
            break
        if model is None:
            model = Model(game.puzzle, keep)
        model.m.ClearAssumptions()
        model.m.AddAssumptions([model.x[m.text].Not()])
        status, _ = model.solve(deadline - time.monotonic() - 0.05)
        if status == "impossible":
            return {**_answer(3, N_("Forced: {move}"), move=m.text), "move": m.text,
                    "forced": True}
        if status == "unknown":
            break
    m = new[0]
    return {**_answer(3, N_("A solution has {move}"), move=m.text), "move": m.text,
            "forced": False}


def _reveal(game: PuzzleGame, sol: list[PuzzleMove]) -> dict[str, Any]:
    """A number of a solution: a square's number, a square's total, else a free cell's."""
    p = game.puzzle
    value = {c: v for m in sol for c, v in zip(m.cells, m.values, strict=True)}
    for con in p.constraints:
        if con["kind"] == "equal" and any(c not in game.value for c in con["cells"]):
            cell = con["cells"][0]
            return {**_answer(4, N_("The square at {cell} shows {value}"), cell=cell,
                              value=value[cell]), "cells": con["cells"], "value": value[cell]}
    for i, con in enumerate(p.constraints):
        if con["kind"] == "same" and any(c not in game.value for line in con["lines"]
                                         for c in line):
            total = sum(value[c] for c in con["lines"][0])
            return {**_answer(4, N_("Each side of {name} totals {total}"),
                              name=p.label(i), total=total), "constraint": i, "value": total}
    cell = game.first_free()
    assert cell is not None
    return {**_answer(4, N_("{cell} shows {value}"), cell=cell, value=value[cell]),
            "cells": [cell], "value": value[cell]}


def next_move(game: PuzzleGame, seconds: float = 10.0) -> PuzzleMove | None:
    """A placement towards a solution (or the removal that leaves a solvable position)."""
    status, sol = position_solution(game, seconds)
    if status == "solved" and sol is not None:
        new = [m for m in sol if m.tile is not None and m.tile.id not in game.placed]
        order = game.puzzle.order
        new.sort(key=lambda m: min(order[c] for c in m.cells))
        return new[0] if new else None
    return None
