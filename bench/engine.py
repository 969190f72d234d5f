"""Engine benchmark (not a test): random games per second of our rules core against
OpenSpiel's `python_block_dominoes` (2-player block game) and the PyPI `dominoes`
package (4-player partnership), on the same pre-generated deals.

    python bench/engine.py [--deals 2000] [--repeats 5] [--seed 1]
    python bench/engine.py --as-user    # issue 41's way: bench/engine_user.py

Every engine plays each deal once per repetition, choosing uniformly among its
legal moves with ``random.Random(seed).choice``; building the game from the
dealt hands is part of the timed work, done as cheaply as each API allows:
ours ``variants.get(...).new(players=, seed=, deal=, ...)`` played until the
first round ends; OpenSpiel ``new_initial_state()`` and its 14 chance actions;
`dominoes` its ``Game`` constructor on the hands (no reshuffle).  Forty-two
(a first round of bids, trumps and seven tricks, random moves) has no peer.  Repetitions
are interleaved across engines and the best one is reported (the median too); the ratio
is ours over the peer's, of the best times (of the medians, in brackets: the target is
judged on it).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from core import variants

Deal = list[list[tuple[int, int]]]  # per seat, tiles as (high, low)
Runner = Callable[[], int]  # plays every deal once, returns the number of moves

TARGETS = {"OpenSpiel": 5.0, "dominoes": 3.0}  # the speed-up targets (dominoes: issue 18)


def make_deals(seed: int, count: int, players: int, hand: int) -> list[Deal]:
    """Seeded deals of `hand` tiles to each seat from a shuffled double-six set."""
    rng = random.Random(seed)
    tiles = [(hi, lo) for hi in range(7) for lo in range(hi + 1)]
    deals = []
    for _ in range(count):
        rng.shuffle(tiles)
        deals.append([tiles[i * hand : (i + 1) * hand] for i in range(players)])
    return deals


# -- the runners: each prepares its inputs outside the timed call ---------------------------


def ours(slug: str, deals: list[Deal], seed: int, **options: Any) -> Runner:
    variant = variants.get(slug)
    specs = [{"hands": [[f"{a}-{b}" for a, b in hand] for hand in deal], "stock": []}
             for deal in deals]
    players = len(deals[0])

    def run() -> int:
        choice = random.Random(seed).choice
        moves = 0
        for i, spec in enumerate(specs):
            g = variant.new(players=players, seed=i, deal=spec, **options)
            while not (g.over or g.round_no > 1):
                g.play(choice(g.legal_moves()))
                moves += 1
        return moves

    return run


def openspiel(deals: list[Deal], seed: int) -> Runner | None:
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes
    except ImportError:
        return None
    game = pyspiel.load_game("python_block_dominoes")
    index = {(int(hi), int(lo)): i for i, (lo, hi) in enumerate(block_dominoes._DECK)}
    chances = [[index[t] for hand in deal for t in hand] for deal in deals]

    def run() -> int:
        choice = random.Random(seed).choice
        moves = 0
        for actions in chances:
            state = game.new_initial_state()
            for a in actions:
                state.apply_action(a)
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                moves += 1
        return moves

    return run


def pypi_dominoes(deals: list[Deal], seed: int) -> Runner | None:
    try:
        import dominoes
    except ImportError:
        return None
    Game, Board, Hand = dominoes.Game, dominoes.Board, dominoes.Hand
    tiles = [[[dominoes.Domino(a, b) for a, b in hand] for hand in deal] for deal in deals]

    def run() -> int:
        choice = random.Random(seed).choice
        moves = 0
        for deal in tiles:
            hands = [Hand(h) for h in deal]
            game = Game(Board(), hands, [], 0, tuple((d, True) for d in hands[0]), 0, None)
            while game.result is None:
                game.make_move(*choice(game.valid_moves))
                moves += 1
        return moves

    return run


# -- timing and report -----------------------------------------------------------------------


def machine() -> str:
    name = platform.processor()
    if not name:
        try:
            with open("/proc/cpuinfo", encoding="utf-8") as f:
                name = next((line.split(":", 1)[1].strip() for line in f
                             if line.startswith("model name")), "")
        except OSError:
            name = ""
    return f"{name or platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per engine (default 2000)")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repetitions")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the moves")
    parser.add_argument("--as-user", action="store_true",
                        help="only the two peers, each game built from the deal as a user "
                        "does (bench/engine_user.py, issue 41)")
    parser.add_argument("--grid-only", action="store_true",
                        help="only the grid table (vingt: listing every play, mid-game)")
    parser.add_argument("--grid-games", type=int, default=0,
                        help="also the slowest listing over this many random vingt games")
    args = parser.parse_args(argv)
    if args.grid_only:
        grid_table(args.repeats, args.grid_games)
        return 0

    two = make_deals(args.seed, args.deals, players=2, hand=7)
    four = make_deals(args.seed + 1, args.deals, players=4, hand=7)
    if args.as_user:
        from bench.engine_user import table

        print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
              f"{machine()}")
        print(f"{args.deals} deals per engine, best of {args.repeats} interleaved repetitions "
              f"(median in brackets), seed {args.seed}, load average "
              f"{os.getloadavg()[0]:.1f}\n")
        table(two, four, args.seed, args.repeats)
        return 0
    rows: list[tuple[str, str, Runner, Runner | None]] = [
        ("classic 2p block", "OpenSpiel",
         ours("classic", two, args.seed, draw="block", opening="any"),
         openspiel(two, args.seed)),
        ("partnership 4p", "dominoes",
         ours("partnership", four, args.seed, hand=7, opening="any"),
         pypi_dominoes(four, args.seed)),
        ("forty-two 4p", "none", ours("forty-two", four, args.seed), None),  # no peer engine
    ]
    runners: dict[str, Runner] = {}
    for engine, peer, mine, theirs in rows:
        runners[f"ours {engine}"] = mine
        if theirs is not None:
            runners[peer] = theirs
    times: dict[str, list[float]] = {name: [] for name in runners}
    moves: dict[str, int] = {}
    for _ in range(args.repeats):
        for name, run in runners.items():  # interleaved: one pass of each, then again
            t0 = time.perf_counter()
            moves[name] = run()
            times[name].append(time.perf_counter() - t0)

    def rate(name: str) -> str:
        best = args.deals / min(times[name])
        median = args.deals / statistics.median(times[name])
        return f"{best:,.0f} ({median:,.0f})"

    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{machine()}")
    print(f"{args.deals} deals per engine, best of {args.repeats} interleaved repetitions "
          f"(median in brackets), seed {args.seed}, load average {os.getloadavg()[0]:.1f}\n")
    print("| engine | peer | games/s ours | games/s peer | ratio | target |")
    print("|---|---|---:|---:|---:|---:|")
    for engine, peer, _, theirs in rows:
        mine = f"ours {engine}"
        if peer not in TARGETS:
            print(f"| {engine} | - | {rate(mine)} | - | - | - |")
            continue
        target = TARGETS[peer]
        if theirs is None:
            print(f"| {engine} | {peer} (not installed) | {rate(mine)} | - | - | {target}x |")
            continue
        ratio = min(times[peer]) / min(times[mine])
        median = statistics.median(times[peer]) / statistics.median(times[mine])
        verdict = "met" if median >= target else "MISSED"  # judged on the medians
        print(f"| {engine} | {peer} | {rate(mine)} | {rate(peer)} | {ratio:.1f}x ({median:.1f}x) "
              f"| {target}x {verdict} |")
    print("\nmoves per game: " + ", ".join(
        f"{name} {count / args.deals:.1f}" for name, count in moves.items()))
    grid_table(args.repeats, args.grid_games)
    return 0


# -- the grid family: listing every play of a crowded mid-game position -------------------


def crowded_positions(count: int = 5, min_tiles: int = 30) -> list[Any]:
    """Seeded 2-player vingt games played at random until the grid holds `min_tiles`
    tiles; of each game, the position then with the most legal plays."""
    out = []
    seed = 0
    while len(out) < count and seed < 200:
        game = variants.get("vingt").new(players=2, seed=seed)
        rng = random.Random(seed)
        best: tuple[int, Any] | None = None
        while not game.over:
            moves = game.legal_moves()
            laid = len(game.view(None)["board"])
            if laid >= min_tiles and (best is None or len(moves) > best[0]):
                best = (len(moves), game.copy())
            game.play(rng.choice(moves))
        if best is not None:
            out.append(best[1])
        seed += 1
    return out


def grid_table(repeats: int, games: int = 0) -> None:
    """Time `legal_moves()` (from scratch) and the greedy player's whole choice: medians of
    the wall-clock time and of the CPU time (this process only: a shared machine's other
    jobs inflate the first, not the second)."""
    from core.ai import make_player

    print("\n| vingt position | tiles on the grid | legal plays | list every play, ms "
          "(CPU ms) | greedy choice, ms (CPU ms) |")
    print("|---|---:|---:|---:|---:|")
    for i, game in enumerate(crowded_positions()):
        listing: list[tuple[float, float]] = []
        choosing: list[tuple[float, float]] = []
        for _ in range(max(repeats, 5)):
            fresh = game.copy()
            fresh._legal = None  # the listing is cached per position: time it from scratch
            t0, c0 = time.perf_counter(), time.process_time()
            plays = fresh.legal_moves()
            listing.append((time.perf_counter() - t0, time.process_time() - c0))
            fresh = game.copy()
            fresh._legal = None
            t0, c0 = time.perf_counter(), time.process_time()
            make_player("greedy", 1).choose(fresh)
            choosing.append((time.perf_counter() - t0, time.process_time() - c0))

        def ms(times: list[tuple[float, float]]) -> str:
            wall = statistics.median(t for t, _ in times) * 1000
            cpu = statistics.median(c for _, c in times) * 1000
            return f"{wall:.1f} ({cpu:.1f})"

        print(f"| {i + 1} | {len(game.view(None)['board'])} | {len(plays)} "
              f"| {ms(listing)} | {ms(choosing)} |")
    if games:
        slowest_listing(games)


def slowest_listing(games: int) -> None:
    """The slowest `legal_moves()` (CPU time) over every position of seeded random games."""
    worst = (0.0, 0, "")
    for seed in range(games):
        game = variants.get("vingt").new(players=2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game._legal = None
            c0 = time.process_time()
            moves = game.legal_moves()
            spent = time.process_time() - c0
            if spent > worst[0]:
                worst = (spent, len(moves), f"seed {seed}, move {game.turn + 1}")
            game.play(rng.choice(moves))
    print(f"\nslowest listing over {games} random games (2 to 4 players): "
          f"{worst[0] * 1000:.1f} CPU ms, {worst[1]} plays ({worst[2]})")


if __name__ == "__main__":
    sys.exit(main())
