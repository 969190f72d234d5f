"""The scale comparison of bench/service.py (`--scale`): the same tables driven by one process
on SQLite, one process on PostgreSQL, and two (`--max-processes 3`: and three) processes on
one PostgreSQL database (each process drives its share of the tables, as Discord shards or
webhook workers would). By default (`--platform telegram`) every process delivers its answers
through the Telegram adapter's outbox to one fake Bot API server at scaled-down flood limits
(`--limits-scale`, bench/scale_telegram.py), and a table's player presses again only once their
hand is shown in their private chat; `--platform none` measures the service alone.

Per column: moves committed per second (rows of the move log over the wall time, all the
processes started together) and the p50/p99 latency of a press (`Service.press`, from the
call to its reply, the move committed; with the fake Telegram, to the player's hand shown).
Every column plays the same games: table i is dealt from seeds drawn from its own generator
(seeded with i), whichever process drives it, and the move logs of the runs are compared
(the "same games" row). With `--repeat n`, each column runs n times, the two PostgreSQL ones
taking turns (so that a change of the machine's load weighs on both alike), each on a fresh
database; the table shows the medians and the ratio of each
pair of runs. The database's own counts per committed move (transactions, rows written, WAL
bytes and growth: pg_stat_database, the WAL position, pg_database_size) and the capacity
model of docs/deploy.md's prediction for N processes (N times one process's rate, at most
the machine's CPUs over the CPU a move costs the bot, the database and the fake platform
together, and at most the platform's limits over its writes per move) are printed beside the
measures.
PostgreSQL is a throwaway cluster
(tests/pg_cluster.py, fsync on) unless `--pg URL` names a server. Target: two processes on
PostgreSQL commit at least 1.5 times what one process commits on PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.service.pictures import NoPictures  # noqa: E402
from bot.service.service import Service  # noqa: E402
from bot.storage import open_store  # noqa: E402

TARGET_SPEEDUP = 1.5
_table_seeds: ContextVar[random.Random] = ContextVar("bench_table_seeds")


class TableSeeds(random.Random):
    """The service's generator of table seeds, per table driven: each driving task sets its
    own (seeded with the table's number), so that table i gets the same deals in every run."""

    def getrandbits(self, k: int) -> int:
        return _table_seeds.get().getrandbits(k)


async def _logs(db: str) -> Counter[tuple[str, ...]]:
    """Every table's move log (as a multiset: table ids differ between runs)."""
    store = await open_store(db)
    try:
        tables = await store.tables(("lobby", "playing", "finished", "stopped"))
        return Counter([tuple(await store.moves(t.id)) for t in tables])
    finally:
        await store.close()


def _moves(logs: Counter[tuple[str, ...]]) -> int:
    return sum(len(log) * n for log, n in logs.items())


async def _worker(db: str, part: int, parts: int, args: argparse.Namespace,
                  drive: Callable[..., Any], counts_type: type) -> dict[str, Any]:
    store = await open_store(db)
    service = Service(store, pictures=NoPictures(), ai_delay=0, default_timer=None)
    service.rng = TableSeeds()
    counts = counts_type()
    latencies: list[float] = []
    players = None
    if args.telegram:  # the answers delivered to the fake Telegram (bench/scale_telegram.py)
        from scale_telegram import TelegramPlayers

        players = TelegramPlayers(store, args.telegram, args.limits_scale)
        await players.start()
        drive = players.drive

    async def table(i: int) -> None:
        _table_seeds.set(random.Random(i))  # this task's own (gather runs each in a task)
        await drive(service, i, args, counts, latencies)

    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(table(i) for i in range(part, args.tables, parts)))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    if players is not None:
        await players.close()
    await store.close()
    return {"seconds": elapsed, "cpu": cpu, "latencies": latencies,
            "errors": len(counts.errors),
            "waited_out": players.waited_out if players is not None else 0}


def server_cpu(data: Path | None) -> float | None:
    """CPU seconds the PostgreSQL cluster of folder `data` has used so far: the postmaster's
    own and its reaped children's, plus its live children's (the backends); None when
    unknown (a server named by --pg, or no /proc)."""
    try:
        assert data is not None
        master = int((data / "postmaster.pid").read_text().split()[0])
        tick = os.sysconf("SC_CLK_TCK")
        total = 0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            pid, ppid = int(entry.name), int(fields[1])
            if pid == master:
                total += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
            elif ppid == master:
                total += int(fields[11]) + int(fields[12])
        return total / tick
    except (AssertionError, OSError, ValueError, IndexError):
        return None


async def _pg_counts(db: str) -> tuple[float, float, float, float] | None:
    """This database's committed transactions and rows written so far, the server's WAL
    position and the database's size in bytes (None on SQLite)."""
    if not db.startswith("postgres"):
        return None
    import asyncpg

    conn = await asyncpg.connect(db)
    try:
        await conn.execute("SELECT pg_stat_clear_snapshot()")
        row = await conn.fetchrow(
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted AS rows, "
            "pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS wal, "
            "pg_database_size(current_database()) AS size "
            "FROM pg_stat_database WHERE datname = current_database()")
        return (float(row["xact_commit"]), float(row["rows"]), float(row["wal"]),
                float(row["size"]))
    finally:
        await conn.close()


def _run(db: str, parts: int, args: argparse.Namespace, data: Path | None = None
         ) -> dict[str, Any]:
    asyncio.run(_logs(db))  # migrates before the workers start
    time.sleep(0.6 if db.startswith("postgres") else 0)  # the backends' statistics flushed
    counts_before = asyncio.run(_pg_counts(db))
    fake = None
    platform_args: list[str] = []
    if args.platform == "telegram":  # one fake server for every process (one bot token)
        from scale_telegram import FakeTelegram

        fake = FakeTelegram(args.limits_scale, args.tables)
        platform_args = ["--telegram", fake.url, "--limits-scale", str(args.limits_scale),
                         "--groups", str(args.groups)]
    procs = [subprocess.Popen([sys.executable, str(ROOT / "bench" / "service.py"), "--worker",
                               db, str(k), str(parts), "--tables", str(args.tables),
                               "--presses", str(args.presses), "--variant", args.variant,
                               "--players", str(args.players), "--options", args.options,
                               *platform_args],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for k in range(parts)]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    if fake is not None:
        fake.mark()
    start, db_cpu = time.perf_counter(), server_cpu(data)
    fake_cpu = time.process_time()  # the parent's: the fake server's thread, mostly
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    results = [json.loads(p.communicate()[0]) for p in procs]
    wall = time.perf_counter() - start
    fake_cpu = time.process_time() - fake_cpu
    sent = fake.counts() if fake is not None else {}
    if fake is not None:
        fake.close()
    db_after = server_cpu(data)
    db_cpu = db_after - db_cpu if db_cpu is not None and db_after is not None else None
    time.sleep(0.6 if db.startswith("postgres") else 0)
    counts_after = asyncio.run(_pg_counts(db))
    logs = asyncio.run(_logs(db))
    moves = _moves(logs)
    nan = float("nan")
    per_move = ([(a - b) / moves for a, b in zip(counts_after, counts_before, strict=True)]
                if counts_before is not None and counts_after is not None else [nan] * 4)
    latencies = sorted(x for r in results for x in r["latencies"])
    q = statistics.quantiles(latencies, n=100)
    bot_cpu = sum(r["cpu"] for r in results)
    busy = (bot_cpu + (db_cpu or 0.0) + (fake_cpu if fake is not None else 0.0)
            ) / wall / (os.cpu_count() or 1) * 100
    return {"rate": moves / wall, "moves": moves, "seconds": wall, "p50": q[49] * 1000,
            "p99": q[98] * 1000, "errors": sum(r["errors"] for r in results),
            "presses": len(latencies), "logs": logs, "bot_us": bot_cpu / moves * 1e6,
            "db_us": db_cpu / moves * 1e6 if db_cpu is not None else float("nan"),
            "busy": busy, "commits": per_move[0], "rows": per_move[1], "wal": per_move[2],
            "size": per_move[3], "waited_out": sum(r["waited_out"] for r in results),
            "writes": sent.get("writes", 0), "private": sent.get("private", 0),
            "refused": sent.get("refused", 0),
            "refused_private": sent.get("refused_private", 0),
            **{f"refused_{k}": sent.get(f"refused_{k}", 0) for k in ("chat", "group", "overall")},
            "fake_us": fake_cpu / moves * 1e6}


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
            counts = range(1, max(2, args.max_processes) + 1)
            runs: dict[str, list[dict[str, Any]]] = {"SQLite, 1 process": []}
            runs.update({_pg(n): [] for n in counts})
            for k in range(max(1, args.repeat)):
                runs["SQLite, 1 process"].append(
                    _run(str(Path(tmp) / f"scale{k}.sqlite"), 1, args))
                data = cluster.folder / "data" if cluster is not None else None
                for n in counts:
                    runs[_pg(n)].append(_run(fresh_database(base), n, args, data))
            columns = {name: _median(column) for name, column in runs.items()}
            ratios = [two["rate"] / one["rate"] for one, two in zip(
                runs["PostgreSQL, 1 process"], runs["PostgreSQL, 2 processes"], strict=True)]
    finally:
        if cluster is not None:
            cluster.stop()
    _report(args, columns)
    if len(ratios) > 1:
        print("each pair of runs: " + ", ".join(f"{r:.2f}x" for r in ratios)
              + f" (median {statistics.median(ratios):.2f}x)")
    same = all(c["same"] != "NO" for c in columns.values())
    return 0 if same and not any(c["errors"] for c in columns.values()) else 1


def _pg(n: int) -> str:
    return f"PostgreSQL, {n} process{'es' if n > 1 else ''}"


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each measure over the runs of a column (the logs: all alike, or "NO")."""
    out = {key: statistics.median(r[key] for r in runs)
           for key in ("rate", "moves", "seconds", "p50", "p99", "errors", "presses",
                       "bot_us", "db_us", "busy", "commits", "rows", "wal", "size",
                       "waited_out", "writes", "private", "refused", "refused_private",
                       "refused_chat", "refused_group", "refused_overall", "fake_us")}
    out["errors"] = sum(r["errors"] for r in runs)
    out["logs"] = runs[0]["logs"] if all(r["logs"] == runs[0]["logs"] for r in runs) else None
    return out


def _model(one: dict[str, Any], n: int, cpus: int, args: argparse.Namespace) -> float:
    """docs/deploy.md's capacity model: n processes commit n times what one does, until the
    CPUs are spent on the bot's and the database's CPU per move (measured with one process;
    here also the fake platform's, which shares this machine's CPUs), or the platform's
    limits are (bench/scale_telegram.py); NaN when the database's CPU is unknown."""
    fake = one["fake_us"] if args.platform != "none" else 0.0
    per_move = (one["bot_us"] + one["db_us"] + fake) / 1e6
    bound = float("inf")
    if args.platform == "telegram":
        from scale_telegram import platform_bound

        bound = platform_bound(one, args.limits_scale, args.tables)
    return min(n * one["rate"], cpus / per_move, bound)


def _report(args: argparse.Namespace, columns: dict[str, dict[str, Any]]) -> None:
    print(f"{args.tables} tables of {args.variant} {args.options}, {args.players} players "
          f"(1 scripted, {args.players - 1} computer), {args.presses} scripted moves per table")
    if args.platform == "telegram":
        from scale_telegram import platform_bound

        one = columns["PostgreSQL, 1 process"]
        s = args.limits_scale
        limits = (f"at limits x{s:g} ({30 / s:,.0f} writes a second in all, one a chat every "
                  f"{s:g} s, 20 a group every {60 * s:g} s)" if s > 0 else "with no limits")
        print(f"through one fake Telegram (tests/fake_telegram.py) {limits}, {args.groups} "
              f"groups; the platform's bound from the 1-process column: "
              f"{platform_bound(one, s, args.tables):,.0f} moves/s")
    print(f"Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print()
    print("| measure | " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * len(columns))
    reference = columns["PostgreSQL, 1 process"]["logs"]
    for name, c in columns.items():  # SQLite's computers keep their state between actions
        c["same"] = "n/a" if name.startswith("SQLite") else (
            "yes" if reference is not None and c["logs"] == reference else "NO")
    rows = (("moves committed per second", "{rate:,.0f}"), ("press latency p50 (ms)", "{p50:.1f}"),
            ("press latency p99 (ms)", "{p99:.1f}"),
            ("moves (presses)", "{moves:,.0f} ({presses:,.0f})"),
            ("same games as PostgreSQL, 1 process", "{same}"), ("errors", "{errors:.0f}"),
            ("bot processes' CPU per move (µs)", "{bot_us:.0f}"),
            ("database's CPU per move (µs)", "{db_us:.0f}"),
            ("machine's CPUs busy (%)", "{busy:.0f}"),
            ("database transactions per move", "{commits:.2f}"),
            ("database rows written per move", "{rows:.1f}"),
            ("WAL bytes per move", "{wal:,.0f}"),
            ("database's growth per move (bytes)", "{size:,.0f}"),
            ("model's prediction (moves/s)", "{model}"))
    if args.platform == "telegram":
        rows = (*rows[:3],
                ("Telegram writes per move (private chats')",
                 "{per_write:.2f} ({per_private:.2f})"),
                ("writes refused by Telegram (429): all (private chats')",
                 "{refused:.0f} ({refused_private:.0f})"),
                ("429s' limits: a chat's second / a group's minute / overall",
                 "{refused_chat:.0f} / {refused_group:.0f} / {refused_overall:.0f}"),
                ("hands not shown within 10 s", "{waited_out:.0f}"),
                ("fake Telegram's CPU per move (µs)", "{fake_us:.0f}"), *rows[3:])
        for c in columns.values():
            c["per_write"] = c["writes"] / max(c["moves"], 1)
            c["per_private"] = c["private"] / max(c["moves"], 1)
    one = columns["PostgreSQL, 1 process"]
    cpus = os.cpu_count() or 1
    for name, c in columns.items():
        n = int(name.split(", ")[1].split()[0])
        c["model"] = ("-" if name.startswith("SQLite")
                      else f"{_model(one, n, cpus, args):,.0f}")
    for name, fmt in rows:
        print(f"| {name} | " + " | ".join(fmt.format(**c) for c in columns.values()) + " |")
    two = columns["PostgreSQL, 2 processes"]
    speedup = two["rate"] / one["rate"]
    print()
    print(f"two processes / one on PostgreSQL: {speedup:.2f}x (target >= {TARGET_SPEEDUP}x: "
          f"{'met' if speedup >= TARGET_SPEEDUP else 'MISSED'})")
    bot, db = one["bot_us"], one["db_us"]
    if db == db and "PostgreSQL, 3 processes" in columns:
        three = columns["PostgreSQL, 3 processes"]
        print(f"three processes / one on PostgreSQL: {three['rate'] / one['rate']:.2f}x")
    if db == db:  # known (not NaN): what this machine's CPUs allow two processes at most
        cpus = os.cpu_count() or 1
        bound = min(2.0, cpus * 1e6 / (bot + db) / max(one["rate"], 1e-9))
        print(f"CPU bound of two processes over this one, with the database on the same "
              f"{cpus} CPUs: {bound:.2f}x ({cpus} CPUs / ({bot:.0f} + {db:.0f}) µs a move, "
              f"over the {one['rate']:,.0f} moves/s of one process)")
