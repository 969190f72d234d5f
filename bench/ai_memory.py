"""Memory's computer levels against each other: how much each recalls and how often it wins.

    python bench/ai_memory.py                      # 200 deals a pair, both seat orders
    python bench/ai_memory.py --games 100 --jobs 2

Each pair of levels plays the same 2-player deals twice, each level on seat 0 then on
seat 1 (`core.ai.memory`: the levels differ only in how fast they forget). The table gives
the row level's share of the decided games against the column level (ties, equal pips
kept, are left out), with the number decided; then, per level, the share of the face-down
tiles it had seen that it still recalled when it chose (over every choice of those games).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tally import run_all, wilson
from core import variants
from core.ai import LEVELS, make_player


def deal(a: str, b: str, i: int, seed: int) -> tuple[int, int, dict[str, list[int]]]:
    """Deal `i` played twice (`a` on seat 0, then on seat 1): `a`'s wins, the games
    decided, and per level [tiles recalled, tiles seen and still face down] at its choices."""
    won = decided = 0
    recall: dict[str, list[int]] = {a: [0, 0], b: [0, 0]}
    for a_seat in (0, 1):
        game = variants.get("memory").new(players=2, seed=seed * 100_003 + i)
        kinds = {a_seat: a, 1 - a_seat: b}
        bots = {s: make_player(kinds[s], seed * 7 + i * 2 + s) for s in (0, 1)}
        while not game.over:
            s = game.to_move
            move = bots[s].choose(game)
            player = bots[s]._by_family["memory"]
            down = {m.text for m in game.legal_moves()}
            seen = {r["cell"] for r in game.reveals() if r["cell"] in down}
            recall[kinds[s]][0] += len(player.remembered(game, down))
            recall[kinds[s]][1] += len(seen)
            game.play(move)
        winners = game.result["winners"]
        if len(winners) == 1:
            decided += 1
            won += winners[0] == a_seat
    return won, decided, recall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals a pair (x2 seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    pairs = list(itertools.combinations(LEVELS, 2))
    tasks = [(a, b, i, args.seed) for a, b in pairs for i in range(args.games)]
    results = run_all(deal, tasks, args.jobs)
    share: dict[tuple[str, str], tuple[int, int]] = {}
    recall: dict[str, list[int]] = {level: [0, 0] for level in LEVELS}
    for (a, b, _, _), (won, decided, seen) in zip(tasks, results, strict=True):
        w, n = share.get((a, b), (0, 0))
        share[(a, b)] = (w + won, n + decided)
        for level, (r, s) in seen.items():
            recall[level][0] += r
            recall[level][1] += s
    print(f"memory, 2 players, {args.games} deals a pair x2 seats, seed {args.seed}: "
          "the row level's share of decided games against the column level\n")
    print("| level | " + " | ".join(LEVELS) + " |")
    print("|---|" + "---:|" * len(LEVELS))
    for row in LEVELS:
        cells = []
        for col in LEVELS:
            if row == col:
                cells.append("")
                continue
            w, n = share[(row, col)] if (row, col) in share else (
                share[(col, row)][1] - share[(col, row)][0], share[(col, row)][1])
            lo, hi = wilson(w, n)
            cells.append(f"{w / n:.1%} ({lo:.0%}-{hi:.0%}, {n})" if n else "-")
        print(f"| {row} | " + " | ".join(cells) + " |")
    print("\nrecalled at its choices (of the face-down tiles it had seen): " + ", ".join(
        f"{level} {r / s:.0%}" if s else f"{level} -" for level, (r, s) in recall.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
