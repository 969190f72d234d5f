"""A whole tournament through the service (not a test): the issue's 64-player Swiss of 6
rounds at 4 a table, on a real SQLite file, every game played by computer players.

    python bench/tournament_service.py [--players 64] [--rounds 6] [--seats 4] [--variant classic]

Each player registers by the button; the organiser starts it; at each round every player
joins the table the round opened for them (the table starts when its last player is in),
then misses their turn (a fake clock, a 10-second timer and `miss_limit=1`: the computer
takes the seat), so the games are played to their end by the computers, tick after tick.
The tournament's tick records each table's end, prints the standings and opens the next
round.  Printed: the time to pair each round (`Tournament.pair`), the time the tick takes to
open a round's tables, the whole run's wall time, and checks on the final standings
(points add up to the tables' points, everyone played every round, ranks follow points then
Buchholz then Sonneborn-Berger, no two players met twice while it could be avoided).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service.guard import Where
from bot.service.pictures import NoPictures
from bot.service.service import Service, User
from bot.storage import Store
from bot.tournament import Tournament

HERE = Where("bench:chan", "bench:server")
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
_next = Service._next_round


async def timed_next(self: Service, *args: object) -> object:
    start = time.perf_counter()
    try:
        return await _next(self, *args)  # type: ignore[arg-type]
    finally:
        OPEN_TIMES.append(time.perf_counter() - start)


Service._next_round = timed_next  # type: ignore[method-assign]


class Clock:
    now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def main(args: argparse.Namespace) -> int:
    path = Path(tempfile.mkdtemp()) / "bench.sqlite"
    store = await Store.open(path)
    try:
        return await bench(store, args)
    finally:
        await store.close()


async def bench(store: Store, args: argparse.Namespace) -> int:
    clock = Clock()
    service = Service(store, pictures=NoPictures(), ai_delay=0, clock=clock, seed=7,
                      default_timer=10, miss_limit=1, warn_before=0)
    await service.start()
    players = [User(f"bench:{i}", f"p{i}") for i in range(1, args.players + 1)]
    by_id = {u.id: u for u in players}
    began = time.perf_counter()
    out = await service.open_tournament(
        players[0], HERE.channel, HERE.scope,
        f"swiss {args.variant} rounds={args.rounds} seats={args.seats} fill=on clock=3600",
        is_admin=True, where=HERE)
    tid = int(out[0].text.split("#", 1)[1].split(":", 1)[0])
    register = next(a.data for a in out[0].actions if a.label == "Register")
    for u in players:
        await service.press(u, register, where=HERE)
    opens: list[float] = []
    start = time.perf_counter()
    await service.start_tournament(players[0], tid, where=HERE)
    opens.append(time.perf_counter() - start)
    ticks = 0
    for round_no in range(1, args.rounds + 1):
        tables = await store.tournament_tables(tid, round_no)
        assert len(tables) == args.players // args.seats, tables
        for table_id in tables.values():
            for uid, _ in list(service.tables[table_id].reserved.values()):
                await service.join(by_id[uid], table_id, where=HERE)
        said = []
        while any(t in service.tables for t in tables.values()):
            clock.now += 11
            said += await service.tick()
            ticks += 1
        clock.now += 1
        said += await service.tick()
        assert any("standings" in m.text for m in said), [m.text for m in said]
    wall = time.perf_counter() - began
    row = await store.tournament(tid)
    assert row is not None
    tour = Tournament.from_dict(json.loads(row.state)["t"])
    rows = tour.standings()
    per_table = args.seats * (args.seats - 1) / 2
    total = sum(s.points for s in rows)
    keyed = [(-s.points, *(-v for v in s.tie_breaks.values())) for s in rows]
    met = Counter(frozenset((a, b)) for r in tour.rounds for t in r.tables
                  for a in t.entrants() for b in t.entrants() if a < b)
    print(f"status {row.status}; {len(tour.rounds)} rounds, {args.players} players, "
          f"{args.seats} a table, {args.variant}; wall {wall:.1f} s, {ticks} ticks")
    print(f"pairing a round: median {statistics.median(PAIR_TIMES) * 1000:.1f} ms, "
          f"slowest {max(PAIR_TIMES) * 1000:.1f} ms ({len(PAIR_TIMES)} rounds)")
    print(f"first round (pair + {len(tables)} tables + messages): {opens[0] * 1000:.0f} ms; "
          f"the next ones (standings, pair, tables), each: median "
          f"{statistics.median(OPEN_TIMES) * 1000:.0f} ms, slowest "
          f"{max(OPEN_TIMES) * 1000:.0f} ms")
    checks = {
        "finished": row.status == "finished",
        "points add up": total == per_table * len(tables) * args.rounds,
        "everyone played every round": all(s.games == args.rounds for s in rows),
        "ranked by points then tie-breaks": keyed == sorted(keyed),
        "repeat pairings": sum(n - 1 for n in met.values()),
    }
    print("checks:", checks)
    print("top 3:", [(s.entrant, s.points, s.tie_breaks) for s in rows[:3]])
    ok = all(v is True for k, v in checks.items() if k != "repeat pairings")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--variant", default="classic")
    sys.exit(asyncio.run(main(parser.parse_args())))
