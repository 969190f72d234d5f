"""What the strength benches share: matches run in several processes, wins added up, the
time per move of the searching seats, and the table row with its 95% Wilson interval."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Iterator
from typing import Any


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Clock:
    """Time per move of our searching seats."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.cpu: list[float] = []  # process time: the machine may be shared

    def choose(self, player: Any, game: Any) -> Any:
        t0, c0 = time.perf_counter(), time.process_time()
        move = player.choose(game)
        self.times.append(time.perf_counter() - t0)
        self.cpu.append(time.process_time() - c0)
        return move

    def text(self) -> str:
        if not self.times:
            return "-"
        return (f"{statistics.median(self.times) * 1000:.0f} ms / {max(self.times):.2f} s "
                f"(cpu {statistics.median(self.cpu) * 1000:.0f} ms / {max(self.cpu):.2f} s)")


def run_all(fn: Any, tasks: list[tuple[Any, ...]], jobs: int) -> list[Any]:
    """`fn(*task)` for every task, in `jobs` processes (each task is seeded on its own, so
    the results are those of a serial run)."""
    return list(stream_all(fn, tasks, jobs))


def stream_all(fn: Any, tasks: list[tuple[Any, ...]], jobs: int) -> Iterator[Any]:
    """`run_all`'s results one at a time, in the tasks' order, each as soon as it is done
    (a run of hours writes them as it goes)."""
    if jobs <= 1:
        for task in tasks:
            yield fn(*task)
        return
    import multiprocessing

    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(_call, [(fn, task) for task in tasks], chunksize=1)


def _call(job: tuple[Any, tuple[Any, ...]]) -> Any:
    fn, task = job
    return fn(*task)


def gather(fn: Any, tasks: list[tuple[Any, ...]], clock: Clock, jobs: int) -> tuple[int, int]:
    """Run `fn` on every task (`run_all`) and add up the wins and the times."""
    won = decided = 0
    for w, n, times, cpu in run_all(fn, tasks, jobs):
        won += w
        decided += n
        clock.times += times
        clock.cpu += cpu
    return won, decided


def row(name: str, won: int, decided: int, clock: Clock) -> str:
    lo, hi = wilson(won, decided)
    share = won / decided if decided else 0.0
    verdict = "met" if lo >= 0.5 and share >= 0.6 else ("met (share)" if share >= 0.6 else
                                                          "MISSED")
    return (f"| {name} | {won}/{decided} | {share:.1%} | {lo:.1%}-{hi:.1%} | {clock.text()} "
            f"| 60% {verdict} |")


def hand_winners(game: Any, before: list[int]) -> list[int]:
    """The seats that won a two-seat match's first round: the one that gained more points in
    it (as the match counts them: `round_value`'s sign), else the round's own winners."""
    first = game.round_results[0] if game.round_results else {}
    after = first.get("totals", game.totals)
    sign = -1 if game.mrules.countdown else 1
    if game.mrules.reach == "loses":
        sign = -sign
    gains = [sign * (a - b) for a, b in zip(after, before, strict=True)]
    if gains[0] != gains[1]:
        return [0 if gains[0] > gains[1] else 1]
    return list(first.get("winners", []))
