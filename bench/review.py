"""What a game review costs: `/domino review`'s analysis of a finished match, in CPU seconds.

    python bench/review.py                    # the default games below
    python bench/review.py --games forty-two:200,texas-42:7 --repeats 3

Each game (``slug:target``) is a whole match played by four (two for the line games)
`normal` computers from seed 7, then reviewed for seat 0 as the bot does it
(`bot.service.review.analyse` with the review's own number of imagined deals): the expert's
choice and the chances of winning at every one of the seat's decisions.  It prints the
hands, the seat's decisions, and the median CPU time (`time.process_time`, this process
only: the machine may be shared) of the whole analysis and per decision.  The review runs
off the bot's event loop, in a worker thread (bot/service/thinking.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.service import review
from core import replay, variants
from core.ai import make_player

DEFAULT = "classic:0,partnership:0,muggins:0,forty-two:200,texas-42:7"


def finished(slug: str, target: int) -> dict:
    """The record of a whole match of `normal` computers (target 0: the variant's own)."""
    variant = variants.get(slug)
    options = {"target": target} if target else {}
    players = 4 if variant.family == "tricks" or slug == "partnership" else 2
    game = variant.new(players=players, seed=7, **options)
    bots = [make_player("normal", s) for s in range(players)]
    while not game.over:
        game.play(bots[game.to_move].choose(game))
    return game.record()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=DEFAULT, help=f"slug:target,... (default {DEFAULT})")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print("| game | rounds | seat 0's decisions | review, CPU s (median) | per decision, ms |")
    print("|---|---:|---:|---:|---:|")
    for item in args.games.split(","):
        slug, _, target = item.partition(":")
        record = finished(slug, int(target or 0))
        rounds = len(replay(record).round_results)
        times = []
        decisions = 0
        for _ in range(args.repeats):
            t0 = time.process_time()
            decisions = len(review.analyse(record, 0, review.WORLDS, 5))
            times.append(time.process_time() - t0)
        cpu = statistics.median(times)
        per = cpu / decisions * 1000 if decisions else 0.0
        label = f"{slug} (to {target})" if target and target != "0" else slug
        print(f"| {label} | {rounds} | {decisions} | {cpu:.1f} "
              f"| {per:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
