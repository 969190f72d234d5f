"""The patience's solver against PUZZLES.md's facts, and the memory players' levels.

    python bench/patience.py                  # 20000 deals, 400 memory games
    python bench/patience.py --deals 2000 --games 100 --repeats 3

Patience: over seeded deals (`random.Random(seed).shuffle` of the 28 ids, 7
columns of 4, as the `patience` variant deals), how many the exhaustive
search wins (peeking at every tile), and how many the players win who see
only the face-up tiles: the pair lying on the most face-down tiles (the hint
and the greedy computer player), the first pair found, a random pair.  The
solver's time per deal is the median of the repetitions.  Memory: how often
the greedy player (`normal`) beats the random one (`easy`) at two players, each
seat order half the games; every level against every other: `bench/ai_memory.py`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core import variants
from core.ai import make_player
from core.solitaire.patience_search import good_pair, pairs, solve


def deal(seed: int) -> list[list[int]]:
    tiles = list(range(28))
    random.Random(seed).shuffle(tiles)
    return [tiles[i * 4:(i + 1) * 4] for i in range(7)]


def play(columns: list[list[int]], how: str, rng: random.Random) -> bool:
    stacks = [c[:] for c in columns]
    while True:
        tops = [s[-1] if s else None for s in stacks]
        found = pairs(tops)
        if not found:
            return not any(stacks)
        if how == "hidden":
            i, j = good_pair(tops, [max(0, len(s) - 1) for s in stacks])  # type: ignore[misc]
        elif how == "first":
            i, j = found[0]
        else:
            i, j = rng.choice(found)
        stacks[i].pop()
        stacks[j].pop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    deals = [deal(s) for s in range(a.deals)]
    times = []
    for _ in range(a.repeats):
        t0 = time.perf_counter()
        winnable = sum(solve(d) is not None for d in deals)
        times.append(time.perf_counter() - t0)
    rng = random.Random(1)
    won = {how: sum(play(d, how, rng) for d in deals) for how in ("hidden", "first", "random")}
    print(f"patience, {a.deals} deals (PUZZLES.md: 23% / 10.6% / 5.3% over 20,000)")
    print("| player | deals won | share |")
    print("|---|---:|---:|")
    print(f"| exhaustive search (peeks) | {winnable} | {100 * winnable / a.deals:.1f}% |")
    for how, label in (("hidden", "most face-down tiles (hint, greedy)"),
                       ("first", "first pair found"), ("random", "random pair")):
        print(f"| {label} | {won[how]} | {100 * won[how] / a.deals:.1f}% |")
    per_deal = statistics.median(times) / a.deals * 1e3
    print(f"\nsolver: {per_deal:.3f} ms per deal (median of {a.repeats} runs)")
    memory = variants.get("memory")
    greedy_wins = ties = 0
    for g in range(a.games):
        game = memory.new(players=2, seed=g)
        order = ["greedy", "random"] if g % 2 == 0 else ["random", "greedy"]
        bots = [make_player(k, g * 10 + s) for s, k in enumerate(order)]
        while not game.over:
            game.play(bots[game.to_move].choose(game))
        winners = game.result["winners"]  # type: ignore[index]
        seat = order.index("greedy")
        ties += len(winners) > 1
        greedy_wins += winners == [seat]
    print(f"\nmemory, {a.games} games at 2 players: greedy beats random in "
          f"{100 * greedy_wins / a.games:.1f}% ({ties} ties)")


if __name__ == "__main__":
    main()
