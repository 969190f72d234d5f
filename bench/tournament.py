"""Time to pair a tournament's round (bot/tournament), random results in between.

Plays whole tournaments of `--players` entrants with random game scores and times each
`Tournament.pair()` call (wall and CPU): the median over every round of `--repeats` runs,
and the slowest. The issue's figure is the first row (a Swiss of 6 rounds at 4 a table,
score groups); the second row is the same at 2 a table (the FIDE Dutch of `py4swiss`).
The pairing libraries are imported before the clock starts (the service imports them once).

    python bench/tournament.py [--players 64] [--rounds 6] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from bot.tournament import Config, Tournament


def run(players: int, seed: int, **config: object) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    t = Tournament(Config(**config))  # type: ignore[arg-type]
    for i in range(players):
        t.add(f"p{i + 1}")
    wall, cpu = [], []
    while not t.finished and len(t.rounds) < 12:
        w0, c0 = time.perf_counter(), time.process_time()
        rnd = t.pair()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
        for i, table in enumerate(rnd.tables):
            t.record(len(t.rounds), i + 1, [rng.randint(0, 3) for _ in table.sides])
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    n, r = args.players, args.rounds
    cases = [
        (f"swiss, {r} rounds, 4 a table", {"format": "swiss", "rounds": r, "seats": 4}),
        (f"swiss, {r} rounds, 2 a table (Dutch)", {"format": "swiss", "rounds": r}),
        (f"swiss, {r} rounds, random partners, 4 seats",
         {"format": "swiss", "rounds": r, "seats": 4, "teams": "random"}),
        ("round-robin (Berger), first 12 rounds", {"format": "round-robin"}),
        ("knockout", {"format": "knockout"}),
    ]
    run(8, 0, format="swiss", rounds=2)  # imports and first calls, off the clock
    print(f"{n} entrants, {args.repeats} runs each, load {os.getloadavg()[0]:.1f}")
    print("| case | rounds timed | median wall | median CPU | slowest wall |")
    print("|---|---|---|---|---|")
    for name, config in cases:
        wall: list[float] = []
        cpu: list[float] = []
        for seed in range(args.repeats):
            w, c = run(n, seed, **config)
            wall += w
            cpu += c
        print(f"| {name} | {len(wall)} | {statistics.median(wall) * 1000:.1f} ms | "
              f"{statistics.median(cpu) * 1000:.1f} ms | {max(wall) * 1000:.1f} ms |")
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
