"""The long run of the tournaments' fuzz (issue 37; not a test): runs of
tests/tourney_fuzz_driver.py one after another, each on a fresh SQLite file with its own
seed, until the time is up; prints the counts and every failure found.

    python bench/tournament_fuzz.py [--seconds 300] [--steps 3000] [--seed 1]

Each run: three servers' players act at random (open, join, leave, start, drop, cancel,
standings, export, list; numbers of every server and forged ones; coming to tables and
playing moves; ticks of a driven clock; restarts of the service on the same file), then the
clock runs until every tournament has ended; checked: nothing escapes, no ERROR line,
nothing acts across servers, every tournament ends, places and recorded results agree with
the standings and the stored games.  Exit code 1 when anything was found.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.tourney_fuzz_driver import Fuzz


async def main(seconds: float, steps: int, seed: int) -> int:
    began = time.perf_counter()
    calls: Counter[str] = Counter()
    ended: Counter[str] = Counter()
    formats: Counter[str] = Counter()
    runs = restarts = ticks = games = 0
    failures: list[str] = []
    while time.perf_counter() - began < seconds:
        with tempfile.TemporaryDirectory() as folder:
            figures = await Fuzz(Path(folder) / "fuzz.sqlite", seed + runs).run(steps=steps)
        runs += 1
        calls += figures.calls
        ended += figures.tournaments
        formats += figures.formats
        restarts, ticks = restarts + figures.restarts, ticks + figures.ticks
        games += figures.games_checked
        failures += [f"seed {seed + runs - 1}: {f}" for f in figures.failures]
    wall = time.perf_counter() - began
    print(f"{runs} runs of {steps} steps in {wall:.0f} s (seeds {seed} to {seed + runs - 1})")
    each = ", ".join(f"{k} {v}" for k, v in calls.most_common())
    print(f"service calls: {sum(calls.values())} ({each})")
    print(f"tournaments: {sum(ended.values())} ({dict(formats)}); ended {dict(ended)}")
    print(f"restarts: {restarts}; ticks: {ticks}; games checked against the store: {games}")
    print(f"failures: {len(failures)}")
    for line in failures[:50]:
        print("  " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--steps", type=int, default=3000, help="steps of one run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.seconds, args.steps, args.seed)))
