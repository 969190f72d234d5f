"""A whole tournament through the service (not a test): the issue's 64-player Swiss of 6
rounds at 4 a table, on a real SQLite file, every game played by computer players.

    python bench/tournament_service.py [--players 64] [--rounds 6] [--seats 4] [--variant classic]

The tournament is played by tests/tournament_driver.py (which tests/test_tournament_64.py
runs too): each player registers by the button, the organiser starts it, every player joins
their table and misses their turn, so the computers play the games, tick after tick.
Printed: the time to pair each round (`Tournament.pair`), the time the tick takes to close a
round and open the next one's tables, the whole run's wall time, and the driver's checks on
the final standings (points add up, everyone played every round, points and tie-breaks as
recomputed from the stored games, ranks by points then Buchholz then Sonneborn-Berger, each
round's tables opened by one call with one announcement, no repeat pairing).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import Store
from bot.tournament import Tournament
from bot.tournament.commands import Tournaments
from tests.tournament_driver import checks, play_swiss

PAIR_TIMES: list[float] = []
_pair = Tournament.pair


def timed_pair(self: Tournament, *args: object, **kw: object) -> object:
    start = time.perf_counter()
    try:
        return _pair(self, *args, **kw)  # type: ignore[arg-type]
    finally:
        PAIR_TIMES.append(time.perf_counter() - start)


Tournament.pair = timed_pair  # type: ignore[method-assign]
OPEN_TIMES: list[float] = []
_next = Tournaments._next_round


async def timed_next(self: Tournaments, *args: object) -> object:
    start = time.perf_counter()
    try:
        return await _next(self, *args)  # type: ignore[arg-type]
    finally:
        OPEN_TIMES.append(time.perf_counter() - start)


Tournaments._next_round = timed_next  # type: ignore[method-assign]


async def main(args: argparse.Namespace) -> int:
    path = Path(tempfile.mkdtemp()) / "bench.sqlite"
    store = await Store.open(path)
    try:
        played = await play_swiss(store, args.players, args.rounds, args.seats, args.variant)
        found = await checks(store, played, args.players, args.rounds, args.seats)
    finally:
        await store.close()
    tour = played.tour
    print(f"status {played.row.status}; {len(tour.rounds)} rounds, {args.players} players, "
          f"{args.seats} a table, {args.variant}; wall {played.wall:.1f} s, "
          f"{played.ticks} ticks")
    print(f"pairing a round: median {statistics.median(PAIR_TIMES) * 1000:.1f} ms, "
          f"slowest {max(PAIR_TIMES) * 1000:.1f} ms ({len(PAIR_TIMES)} rounds)")
    print(f"first round (pair + {len(played.tables[1])} tables + messages): "
          f"{played.first_open * 1000:.0f} ms; the next ones (standings, pair, tables), each: "
          f"median {statistics.median(OPEN_TIMES) * 1000:.0f} ms, slowest "
          f"{max(OPEN_TIMES) * 1000:.0f} ms")
    print("checks:", found)
    rows = tour.standings()
    print("top 3:", [(s.entrant, s.points, s.tie_breaks) for s in rows[:3]])
    return 0 if all(v is True for k, v in found.items() if k != "repeat pairings") else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--variant", default="classic")
    sys.exit(asyncio.run(main(parser.parse_args())))
