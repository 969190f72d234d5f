"""Service benchmark (not a test): 1,000 concurrent tables driven through the bot service
on a real SQLite file: moves committed per second, resident memory, and the time a new
process takes to reload every unfinished table after a restart.

    python bench/service.py [--tables 1000] [--presses 12] [--variant classic] [--players 2]
    python bench/service.py --scale --tables 200 --presses 20 --repeat 3   # SQLite, PostgreSQL,
                                                                           # 2 processes

Each table has one scripted player (seat 0, "the host") and computer seats (greedy,
ai_delay=0, so they answer inside the host's call, as with a zero delay in the bot). One
asyncio task per table, all at once: the host presses the first legal button of the hand
message the service sent (choosing the first end when asked), and presses Rematch when a game
ends; after `--presses` presses each table is left in the middle of a game. Moves committed is
the count of rows in the database's move log (committed before each reply), over the wall
time of that phase. Pictures are off (`NoPictures`): drawing is measured by
`bench/render.py`. Then the store is closed and a fresh process opens the file and calls
`Service.start()` (reload every unfinished table from its move log and prompt it again).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from bot.service.limits import Limits
from bot.service.messages import Message
from bot.service.pictures import NoPictures, Pictures
from bot.service.service import Service, User
from bot.storage import Store

TARGET_MOVES = 1000.0  # moves committed per second, at least
TARGET_MB = 300.0  # resident memory, at most
TARGET_RELOAD = 3.0  # seconds to reload every unfinished table, at most
TARGET_PRESS = 0.100  # p99 delay of a human press while the computer tables play, at most
NO_LIMITS = Limits(tables_per_user=0, tables_per_channel=0, solo_tables_per_user=0)


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


class Counts:
    def __init__(self) -> None:
        self.presses = 0
        self.games = 0
        self.errors: list[str] = []


def next_press(messages: list[Message], user: str) -> str | None:
    """The data of the button a quick player presses next: the first legal tile (or the
    first end, or draw/pass) of their latest hand message, else Rematch."""
    for m in reversed(messages):
        if m.kind == "hand" and m.to == user:
            enabled = [a for a in m.actions if a.enabled]
            if enabled:
                return enabled[0].data
    for m in reversed(messages):
        if m.kind == "result":
            rematch = [a for a in m.actions if a.data.endswith(":m")]
            if rematch:
                return rematch[0].data
    return None


async def drive(service: Service, i: int, args: argparse.Namespace, counts: Counts,
                latencies: list[float] | None = None) -> None:
    user = User(f"bench:{i}", f"player{i}")
    out = await service.open_table(user, f"bench:chan{i % 50}", "bench", args.variant,
                                   players=args.players, ai=args.players - 1, timer=0,
                                   options=args.options)
    presses = 0
    while presses < args.presses or any(m.kind == "result" for m in out):
        data = next_press(out, user.id)
        if data is None:
            counts.errors.append("no button to press: " + " | ".join(m.text for m in out))
            return
        if data.endswith(":m"):
            counts.games += 1
        pressed = time.perf_counter()
        out = await service.press(user, data)
        if latencies is not None:
            latencies.append(time.perf_counter() - pressed)
        counts.errors += [m.text for m in out if m.kind == "error"]
        if data.split(":")[2] in ("p", "d", "x"):
            presses += 1
    counts.presses += presses


def committed(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT count(*) FROM moves").fetchone()[0])


async def play_phase(db: Path, args: argparse.Namespace) -> dict[str, float]:
    store = await Store.open(db)
    service = Service(store, pictures=NoPictures(), ai_delay=0, default_timer=None, seed=1)
    counts = Counts()
    before = committed(db)
    start = time.perf_counter()
    await asyncio.gather(*(drive(service, i, args, counts) for i in range(args.tables)))
    elapsed = time.perf_counter() - start
    moves = committed(db) - before
    live = sum(1 for t in service.tables.values() if t.game is not None and not t.game.over)
    rss = rss_mb()
    await store.close()
    if counts.errors:
        print(f"{len(counts.errors)} errors, e.g.: {counts.errors[0]}", file=sys.stderr)
    return {"moves": moves, "seconds": elapsed, "rate": moves / elapsed, "rss": rss,
            "live": live, "presses": counts.presses, "games": counts.games,
            "errors": len(counts.errors)}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def tick_phase(db: Path, args: argparse.Namespace) -> dict[str, float]:
    """Tables of computer players only, driven by `Service.tick()` as the bot's tick loop
    does: the host's seat times out once (timer 1 s on a fake clock, one miss hands the seat
    to a computer), then each tick plays one move at every table (a 1 s computer delay on
    the fake clock, which moves 1 s per tick: no real waiting)."""
    store = await Store.open(db)
    clock = FakeClock()
    service = Service(store, pictures=NoPictures(), ai_delay=1, clock=clock, miss_limit=1,
                      warn_before=0, seed=2, limits=NO_LIMITS)
    user = User("bench:tick", "ticker")
    for i in range(args.tables):
        await service.open_table(user, f"bench:tick{i % 50}", "bench", args.variant,
                                 players=args.players, ai=args.players - 1, timer=1,
                                 options=args.options)
    clock.now += 2
    before = committed(db)
    start = time.perf_counter()
    ticks = 0
    while ticks < args.ticks:
        out = await service.tick()
        ticks += 1
        clock.now += 1  # the computers' delay: each tick plays one move per table
        if not out:
            break
    elapsed = time.perf_counter() - start
    moves = committed(db) - before
    await store.close()
    return {"moves": moves, "seconds": elapsed, "rate": moves / elapsed, "ticks": ticks}


async def reload_phase(db: Path) -> dict[str, float]:
    """Run in a fresh process: open the file and reload every unfinished table."""
    base = rss_mb()
    start = time.perf_counter()
    store = await Store.open(db)
    service = Service(store, pictures=NoPictures(), ai_delay=0, default_timer=None)
    messages = await service.start()
    elapsed = time.perf_counter() - start
    tables = sum(1 for t in service.tables.values() if t.game is not None)
    moves = sum(t.game.turn for t in service.tables.values() if t.game is not None)
    rss = rss_mb()
    await store.close()
    return {"seconds": elapsed, "tables": tables, "moves": moves, "messages": len(messages),
            "rss": rss, "base_rss": base}


async def press_phase(db: Path, args: argparse.Namespace) -> dict[str, float]:
    """A human plays against a computer while `--tables` computer-only tables play on the
    bot's tick loop (real clock, a computer move every `--ai-delay` seconds at each table),
    with pictures on (drawn with Pillow in the worker pool).  The delay of each of the human's
    presses is timed, from the call to the service until its messages (pictures drawn) are
    back.  With `--watched`, somebody keeps acting in the computer tables' channels, so their
    pictures are drawn too (else nobody will see them, and they are skipped)."""
    store = await Store.open(db)
    service = Service(store, pictures=Pictures(), ai_delay=args.ai_delay, seed=4,
                      default_timer=None, limits=Limits(
                          tables_per_user=0, tables_per_channel=0, solo_tables_per_user=0,
                          picture_workers=args.workers, picture_processes=args.processes))
    pool = service._pool
    real, pool.pictures = pool.pictures, NoPictures()  # no pictures while setting up
    bots = User("bench:bots", "bots")
    start = time.time()
    for i in range(args.tables):
        out = await service.open_table(bots, f"bench:cpu{i % 50}", "bench", args.variant,
                                       players=args.players, ai=args.players - 1, timer=0,
                                       options=args.cpu_options)
        table = service.tables[next(m.table for m in out if m.table is not None)]
        table.row.seats[0].ai = "greedy"  # as after a player's missed turns: computers only
        await store.update_seat(table.id, 0, ai="greedy")
        table.ai_due = start + args.ai_delay * i / args.tables  # spread over one delay
    pool.pictures = real
    if not args.watched:
        service._watched.clear()  # nobody watches the computer tables' channels
    sent = [0]

    async def deliver(messages: list[Message]) -> None:
        sent[0] += len(messages)

    delays: list[float] = []
    moves_before = committed(db)
    ticks = asyncio.create_task(service.run(deliver, interval=0.05))
    end = time.perf_counter() + args.seconds

    async def human(i: int) -> None:
        """A player at a table of their own against one computer, pressing the first legal
        tile of their hand whenever it is their turn (and Rematch when the game ends)."""
        user = User(f"bench:human{i}", f"human{i}")
        out = await service.open_table(user, f"bench:human{i}", "bench", args.variant,
                                       players=2, ai=1, timer=0)
        tid = next(m.table for m in out if m.table is not None)
        while time.perf_counter() < end:
            if args.watched:
                for c in range(50):
                    service._seen_in(f"bench:cpu{c}")
            table = service.tables.get(tid)
            if table is None:  # the game ended: play again
                t0 = time.perf_counter()
                out = await service.rematch(user, tid)
                delays.append(time.perf_counter() - t0)
                tid = next(m.table for m in out if m.table is not None)
                continue
            if table.game is None or table.game.to_move != 0:
                await asyncio.sleep(0.02)
                continue
            hand = [m for m in await service.hand(user, tid) if m.kind == "hand"]
            data = next(a.data for a in hand[-1].actions if a.enabled)
            t0 = time.perf_counter()
            out = await service.press(user, data)
            if ":e:" in data:
                out = await service.press(user, out[0].actions[0].data)
            delays.append(time.perf_counter() - t0)
            await asyncio.sleep(0.02)

    try:
        await asyncio.gather(*(human(i) for i in range(args.humans)))
    finally:
        ticks.cancel()
        await asyncio.gather(ticks, return_exceptions=True)
    moves = committed(db) - moves_before
    pool.close()
    await store.close()
    if os.environ.get("BENCH_DELAYS"):
        print(" ".join(f"{d * 1000:.0f}" for d in delays), file=sys.stderr)
    delays.sort()
    return {"presses": len(delays), "p50": delays[len(delays) // 2],
            "p99": delays[min(len(delays) - 1, int(len(delays) * 0.99))], "max": delays[-1],
            "moves": moves, "rate": moves / args.seconds, "seconds": args.seconds,
            "messages": sent[0]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--presses", type=int, default=12, help="moves of the scripted player per "
                   "table (the computers' moves come on top)")
    p.add_argument("--variant", default="classic")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--options", default="", help='variant options, e.g. "target=100"')
    p.add_argument("--ticks", type=int, default=30, help="ticks of the computer-only phase")
    p.add_argument("--db", type=Path, help="database file (default: a new temporary one)")
    p.add_argument("--reload", type=Path, help=argparse.SUPPRESS)  # the child process
    p.add_argument("--press-only", action="store_true", help="only the human press delay")
    p.add_argument("--seconds", type=float, default=20, help="length of the press phase")
    p.add_argument("--ai-delay", type=float, default=1.0, help="computer delay, press phase")
    p.add_argument("--workers", type=int, default=2, help="picture workers, press phase")
    p.add_argument("--humans", type=int, default=10, help="players pressing, press phase")
    p.add_argument("--processes", action="store_true", help="picture workers are processes")
    p.add_argument("--watched", action="store_true", help="the computer tables' channels are "
                   "watched: their pictures are drawn")
    p.add_argument("--cpu-options", default="target=1000", help="options of the computer "
                   "tables (long matches keep them playing)")
    p.add_argument("--scale", action="store_true", help="only the comparison of SQLite, "
                   "PostgreSQL and two processes on PostgreSQL (bench/scale.py)")
    p.add_argument("--pg", help="a PostgreSQL server's URL for --scale (default: a throwaway "
                   "cluster, as the tests start)")
    p.add_argument("--repeat", type=int, default=1, help="--scale: run each column this many "
                   "times, the PostgreSQL ones alternately (1, 2, 1, 2...), and show medians")
    p.add_argument("--max-processes", type=int, default=2, help="--scale: PostgreSQL columns "
                   "of 1 to this many processes on one database")
    p.add_argument("--platform", choices=("telegram", "none"), default="telegram",
                   help="--scale: deliver the answers to a fake Telegram (bench/scale_telegram.py)"
                   " or nowhere")
    p.add_argument("--limits-scale", type=float, default=1.0, help="--scale: the fake "
                   "platform's minute and second (1: Telegram's; 0: no limits)")
    p.add_argument("--groups", type=int, default=50, help="--scale: Telegram groups the tables "
                   "are spread over")
    p.add_argument("--telegram", help=argparse.SUPPRESS)  # a worker: the fake server's URL
    p.add_argument("--worker", nargs=3, metavar=("DB", "PART", "PARTS"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker or args.scale:
        from scale import scale_main  # bench/scale.py

        return scale_main(args, drive, Counts)
    if args.press_only:
        with tempfile.TemporaryDirectory() as tmp:
            pressed = asyncio.run(press_phase(Path(tmp) / "press.sqlite", args))
        report_press(args, pressed)
        return 0
    if args.reload:
        print(json.dumps(asyncio.run(reload_phase(args.reload))))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.sqlite"
        played = asyncio.run(play_phase(db, args))
        ticked = asyncio.run(tick_phase(Path(tmp) / "ticks.sqlite", args))
        child = subprocess.run([sys.executable, __file__, "--reload", str(db)],
                               capture_output=True, text=True, check=True)
        reloaded = json.loads(child.stdout)
        pressed = asyncio.run(press_phase(Path(tmp) / "press.sqlite", args))
    report(args, played, ticked, reloaded)
    report_press(args, pressed)
    return 0 if played["errors"] == 0 else 1


def report_press(args: argparse.Namespace, pressed: dict[str, float]) -> None:
    watched = "watched, pictures drawn" if args.watched else "nobody watching: no pictures"
    print(f"\nA human press ({args.humans} players, each at a table against a computer) "
          f"while {args.tables} computer-only tables play ({watched}; a move "
          f"every {args.ai_delay:g} s at each table; {args.workers} picture workers), "
          f"{args.seconds:g} s, load average {os.getloadavg()[0]:.1f}")
    print("| measure | result | target | |")
    print("|---|---:|---:|---|")
    ok = pressed["p99"] <= TARGET_PRESS
    print(f"| p99 delay of a human press | {pressed['p99'] * 1000:.0f} ms (p50 "
          f"{pressed['p50'] * 1000:.0f} ms, max {pressed['max'] * 1000:.0f} ms, "
          f"{pressed['presses']:.0f} presses) | < {TARGET_PRESS * 1000:.0f} ms | "
          f"{'met' if ok else 'MISSED'} |")
    print(f"| computer moves per second meanwhile | {pressed['rate']:,.0f} "
          f"({pressed['moves']:,.0f}) | | |")


def report(args: argparse.Namespace, played: dict[str, float], ticked: dict[str, float],
           reloaded: dict[str, float]) -> None:
    print(f"{args.tables} tables of {args.variant} {args.options}, {args.players} players "
          f"(1 scripted, {args.players - 1} computer), {args.presses} scripted moves per table; "
          f"{played['games']:.0f} games finished and rematched; "
          f"{played['live']:.0f} tables left unfinished; {played['errors']:.0f} errors")
    print(f"Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print()
    rows = [
        ("moves committed per second",
         f"{played['rate']:,.0f} ({played['moves']:,.0f} in {played['seconds']:.1f} s)",
         f">= {TARGET_MOVES:,.0f}", played["rate"] >= TARGET_MOVES),
        ("moves per second, computer tables on ticks",
         f"{ticked['rate']:,.0f} ({ticked['moves']:,.0f} in {ticked['seconds']:.1f} s, "
         f"{ticked['ticks']:.0f} ticks)", f">= {TARGET_MOVES:,.0f}",
         ticked["rate"] >= TARGET_MOVES),
        (f"resident memory, {played['live']:,.0f} live tables", f"{played['rss']:.0f} MB",
         f"< {TARGET_MB:.0f} MB", played["rss"] < TARGET_MB),
        ("reload after a restart", f"{reloaded['seconds']:.2f} s ({reloaded['tables']:.0f} "
         f"tables, {reloaded['moves']:,.0f} moves replayed)", f"< {TARGET_RELOAD:.0f} s",
         reloaded["seconds"] < TARGET_RELOAD),
        ("resident memory after the reload", f"{reloaded['rss']:.0f} MB",
         f"< {TARGET_MB:.0f} MB", reloaded["rss"] < TARGET_MB),
    ]
    print("| measure | result | target | |")
    print("|---|---:|---:|---|")
    for name, value, target, ok in rows:
        print(f"| {name} | {value} | {target} | {'met' if ok else 'MISSED'} |")


if __name__ == "__main__":
    sys.exit(main())
