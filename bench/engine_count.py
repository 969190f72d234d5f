"""Instructions a game as a user plays each engine (issue 41), free of the machine's load.

    python bench/engine_count.py                 # ours (classic, partnership), OpenSpiel, dominoes
    python bench/engine_count.py --engines ours-classic --games 300

Each engine plays the deals of `bench/engine.py --as-user` (bench/engine_user.py) twice in
one process: a first pass fills the engines' memos, the second is the one counted.  The
instructions are counted by ``valgrind --tool=cachegrind`` (needs valgrind), with
PYTHONHASHSEED=0, and the same process with no counted pass is subtracted: what is left
is one warm pass, divided by the games.  The load of the machine does not change them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ("ours-classic", "ours-partnership", "OpenSpiel", "dominoes")


def play(engine: str, games: int, counted: bool) -> None:
    """The child's work: one warm-up pass, then one more when `counted`."""
    sys.path.insert(0, str(ROOT))
    from bench import engine_user
    from bench.engine import make_deals

    two = make_deals(1, games, players=2, hand=7)
    four = make_deals(2, games, players=4, hand=7)
    run = {"ours-classic": lambda: engine_user.ours("classic", two, 1, draw="block"),
           "ours-partnership": lambda: engine_user.ours("partnership", four, 1, hand=7),
           "OpenSpiel": lambda: engine_user.openspiel(two, 1),
           "dominoes": lambda: engine_user.pypi_dominoes(four, 1)}[engine]()
    if run is None:
        raise SystemExit(f"{engine} is not installed")
    run()
    if counted:
        run()


def count(engine: str, games: int, counted: bool) -> int:
    """Instructions of a child process playing `engine`, counted by cachegrind."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "--child", engine, "--games", str(games)]
    if counted:
        cmd.append("--counted")
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stderr
    found = re.search(r"I\s+refs:\s+([\d,]+)", out)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{out[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", nargs="*", default=list(ENGINES), choices=ENGINES)
    parser.add_argument("--games", type=int, default=300, help="deals a pass (default 300)")
    parser.add_argument("--child", choices=ENGINES, help=argparse.SUPPRESS)
    parser.add_argument("--counted", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        play(args.child, args.games, args.counted)
        return
    per_game = {}
    for engine in args.engines:
        games = args.games if engine.startswith("ours") else max(1, args.games // 3)
        per_game[engine] = (count(engine, games, True) - count(engine, games, False)) // games
        print(f"{engine}: {per_game[engine]:,} instructions a game ({games} games)", flush=True)
    for ours, peer in (("ours-classic", "OpenSpiel"), ("ours-partnership", "dominoes")):
        if ours in per_game and peer in per_game:
            print(f"{peer} / {ours}: {per_game[peer] / per_game[ours]:.2f}x")


if __name__ == "__main__":
    main()
