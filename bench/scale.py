"""The scale comparison of bench/service.py (`--scale`): the same tables driven by one process
on SQLite, one process on PostgreSQL, and two processes on one PostgreSQL database (each
process drives half of the tables, as two Discord shards or two webhook workers would).

Per column: moves committed per second (rows of the move log over the wall time, all the
processes started together) and the p50/p99 latency of a press (`Service.press`, from the
call to its reply, the move committed). PostgreSQL is a throwaway cluster (tests/pg_cluster.py,
fsync on) unless `--pg URL` names a server. Target: two processes on PostgreSQL commit at
least 1.5 times what one process commits on PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.service.pictures import NoPictures  # noqa: E402
from bot.service.service import Service  # noqa: E402
from bot.storage import open_store  # noqa: E402

TARGET_SPEEDUP = 1.5


async def _count_moves(db: str) -> int:
    store = await open_store(db)
    try:
        tables = await store.tables(("lobby", "playing", "finished", "stopped"))
        return sum([len(await store.moves(t.id)) for t in tables])
    finally:
        await store.close()


async def _worker(db: str, part: int, parts: int, args: argparse.Namespace,
                  drive: Callable[..., Any], counts_type: type) -> dict[str, Any]:
    store = await open_store(db)
    service = Service(store, pictures=NoPictures(), ai_delay=0, default_timer=None,
                      seed=part + 1)
    counts = counts_type()
    latencies: list[float] = []
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    start = time.perf_counter()
    await asyncio.gather(*(drive(service, i, args, counts, latencies)
                           for i in range(part, args.tables, parts)))
    elapsed = time.perf_counter() - start
    await store.close()
    return {"seconds": elapsed, "latencies": latencies, "errors": len(counts.errors)}


def _run(db: str, parts: int, args: argparse.Namespace) -> dict[str, float]:
    before = asyncio.run(_count_moves(db))  # also migrates before the workers start
    procs = [subprocess.Popen([sys.executable, str(ROOT / "bench" / "service.py"), "--worker",
                               db, str(k), str(parts), "--tables", str(args.tables),
                               "--presses", str(args.presses), "--variant", args.variant,
                               "--players", str(args.players), "--options", args.options],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for k in range(parts)]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    start = time.perf_counter()
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    results = [json.loads(p.communicate()[0]) for p in procs]
    wall = time.perf_counter() - start
    moves = asyncio.run(_count_moves(db)) - before
    latencies = sorted(x for r in results for x in r["latencies"])
    q = statistics.quantiles(latencies, n=100)
    return {"rate": moves / wall, "moves": moves, "seconds": wall, "p50": q[49] * 1000,
            "p99": q[98] * 1000, "errors": sum(r["errors"] for r in results)}


def scale_main(args: argparse.Namespace, drive: Callable[..., Any], counts_type: type) -> int:
    if args.worker:
        db, part, parts = args.worker
        print(json.dumps(asyncio.run(_worker(db, int(part), int(parts), args, drive,
                                             counts_type))))
        return 0
    sys.path.insert(0, str(ROOT / "tests"))
    from pg_cluster import fresh_database, start_cluster

    cluster = None
    if args.pg:
        base = args.pg
    else:
        cluster = start_cluster(durable=True)
        base = cluster.url()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            columns = {"SQLite, 1 process": _run(str(Path(tmp) / "scale.sqlite"), 1, args),
                       "PostgreSQL, 1 process": _run(fresh_database(base), 1, args),
                       "PostgreSQL, 2 processes": _run(fresh_database(base), 2, args)}
    finally:
        if cluster is not None:
            cluster.stop()
    _report(args, columns)
    return 0 if not any(c["errors"] for c in columns.values()) else 1


def _report(args: argparse.Namespace, columns: dict[str, dict[str, float]]) -> None:
    print(f"{args.tables} tables of {args.variant} {args.options}, {args.players} players "
          f"(1 scripted, {args.players - 1} computer), {args.presses} scripted moves per table")
    print(f"Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print()
    print("| measure | " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * len(columns))
    rows = (("moves committed per second", "{rate:,.0f}"), ("press latency p50 (ms)", "{p50:.1f}"),
            ("press latency p99 (ms)", "{p99:.1f}"), ("errors", "{errors:.0f}"))
    for name, fmt in rows:
        print(f"| {name} | " + " | ".join(fmt.format(**c) for c in columns.values()) + " |")
    one, two = columns["PostgreSQL, 1 process"], columns["PostgreSQL, 2 processes"]
    speedup = two["rate"] / one["rate"]
    print()
    print(f"two processes / one on PostgreSQL: {speedup:.2f}x (target >= {TARGET_SPEEDUP}x: "
          f"{'met' if speedup >= TARGET_SPEEDUP else 'MISSED'})")
