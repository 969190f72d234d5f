"""How fast `top` reads a season's board against the endless one (SQLite).

    python bench/seasons.py [--users 2000]

One server with USERS players rated in 3 variants, in the endless ratings and in each of
12 monthly seasons (season_ratings, migration 4); the mean time of 20 leaderboards each.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time

from bot.storage import Store

VARIANTS = ("classic", "matador", "fives")


async def main(users: int) -> None:
    path = tempfile.mkdtemp() + "/bench.sqlite"
    store = await Store.open(path)
    await store.close()
    rnd = random.Random(1)
    ids = [f"u:{i}" for i in range(users)]
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [(u, v, "srv", rnd.gauss(25, 5), rnd.uniform(1, 8), 10, 5)
                        for u in ids for v in VARIANTS])
        db.executemany("INSERT INTO season_ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       [("srv", f"2026-{m:02d}", v, u, rnd.gauss(25, 5), rnd.uniform(1, 8),
                         3, 1) for m in range(1, 13) for u in ids for v in VARIANTS])
    db.close()
    store = await Store.open(path)
    try:
        for label, season in (("endless", ""), ("season 2026-06", "2026-06")):
            for variant in ("classic", None):
                await store.leaderboard(variant, "srv", 10, season)
                start = time.perf_counter()
                for _ in range(20):
                    await store.leaderboard(variant, "srv", 10, season)
                ms = (time.perf_counter() - start) / 20 * 1000
                print(f"{label}, {variant or 'all games'}: {ms:.2f} ms")
    finally:
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=2000)
    asyncio.run(main(parser.parse_args().users))
