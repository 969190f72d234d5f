"""Puzzle benchmark (not a test): the time to check a placement, the time of each hint on
every shipped puzzle, and the time to generate a magic triangle.

    python bench/puzzles.py [--repeats 3] [--triangles 5]

* check: one placement played and judged (`play` then `broken()`), on a board half
  laid by the shipped solution; median of many.
* hints: levels 1-4 (`core.solitaire.puzzles.solver.hint`) on two positions per puzzle,
  cold (the solver's memory of solutions cleared before each call): "on path", a third
  of the shipped solution laid (answered from the shipped solution), and "detour", the
  same with one placement that is not the shipped solution's (CP-SAT must search).
  Median and worst over the repeats and the positions; CP-SAT has 1.6 s a hint. "clash",
  the detour with a placement that breaks a constraint: a dead end whose hint names the
  fewest tiles to take back (a CP-SAT minimisation when no known solution shows one).
  `--only frame,q1` limits the puzzles.
* triangle: `generate.triangle(seed)` for seeds 1..N, median and worst.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from core import variants
from core.solitaire.puzzles import catalogue, generate, solver
from core.solitaire.puzzles.rules import PuzzleGame


def positions(kind: str, puzzle: str) -> list[tuple[str, PuzzleGame]]:
    game = variants.get(kind).new(seed=1, puzzle=puzzle)
    assert isinstance(game, PuzzleGame)
    sol = game.puzzle.data["solution"]
    for m in sol[: len(sol) // 3]:
        game.play(m)
    detour = game.copy()
    texts = {str(detour.parse_move(m)) for m in sol}
    for m in detour.legal_moves():
        if m.kind == "place" and m.text not in texts:
            trial = detour.copy()
            trial.play(m)
            if not trial.broken():
                detour = trial
                break
    clash = None
    for m in detour.placements_at(detour.first_free()):
        trial = detour.copy()
        trial.play(m)
        if trial.broken():
            clash = trial
            break
    return [("on path", game), ("detour", detour)] + ([("clash", clash)] if clash else [])


def time_check(repeats: int) -> tuple[float, float]:
    times = []
    for kind in catalogue.KINDS:
        for p in catalogue.ids(kind):
            game = variants.get(kind).new(seed=1, puzzle=p)
            sol = game.puzzle.data["solution"]
            half = len(sol) // 2
            for m in sol[:half]:
                game.play(m)
            for _ in range(repeats * 20):
                g = game.copy()
                t = time.perf_counter()
                g.play(sol[half])
                g.broken()
                times.append(time.perf_counter() - t)
    return statistics.median(times), max(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--triangles", type=int, default=5)
    ap.add_argument("--only", default="", help="puzzle ids, comma-separated (default: all)")
    args = ap.parse_args()
    if not solver.available():
        print("OR-Tools is not installed: pip install ortools")
        return 1
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")
    only = {x for x in args.only.split(",") if x}
    med, worst = time_check(args.repeats)
    print(f"\ncheck a placement: median {med * 1e6:.0f} us, worst {worst * 1e6:.0f} us\n")
    print("| puzzle | level 1 | level 2 | level 3 | level 4 | detour, level 2 says "
          "| clash, level 2 says | clash, level 2 s |")
    print("|---|---:|---:|---:|---:|---|---|---:|")
    overall: dict[int, list[float]] = {1: [], 2: [], 3: [], 4: []}
    for kind in catalogue.KINDS:
        for p in catalogue.ids(kind):
            if only and p not in only:
                continue
            cells = []
            answer = {"detour": "", "clash": ""}
            clash: list[float] = []
            for level in (1, 2, 3, 4):
                times = []
                for _ in range(args.repeats):
                    for where, game in positions(kind, p):
                        solver._FOUND.clear()
                        t = time.perf_counter()
                        out = solver.hint(game, level)
                        times.append(time.perf_counter() - t)
                        if level == 2 and where != "on path":
                            answer[where] = out["text"][:50]
                        if level == 2 and where == "clash":
                            clash.append(times[-1])
                overall[level] += times
                cells.append(f"{statistics.median(times):.2f} / {max(times):.2f}")
            worst_clash = f"{max(clash):.2f}" if clash else "-"
            print(f"| {kind} {p} | " + " | ".join(cells) + f" | {answer['detour']} | "
                  f"{answer['clash']} | {worst_clash} |", flush=True)
    print("\nall puzzles, seconds (median / worst): " + ", ".join(
        f"level {lv} {statistics.median(ts):.2f} / {max(ts):.2f}" for lv, ts in overall.items()))
    gen = []
    for seed in range(1, args.triangles + 1):
        t = time.perf_counter()
        generate.triangle(seed)
        gen.append(time.perf_counter() - t)
    if gen:
        print(f"generate a triangle: median {statistics.median(gen):.2f} s, worst {max(gen):.2f} s "
              f"({args.triangles} seeds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
