"""Where the partnership expert loses: its lost hands replayed, judged by a seer.

    python bench/ai_losses.py --results F [--seed 1] [--samples 2]

`F` is a `bench/ai.py --out` file of the expert's partnership deals.  Each deal is played
again exactly as it was (the same seeds: the same moves), and at each of our decisions once
at most `--tiles` tiles are in hand, a seer (`core.ai.endgame`'s exact search on the true
deal, every seat playing perfectly with every hand seen) values each legal move.  For each
hand our side lost, it says where: already lost for the seer at our first such decision
(the early game, our playouts' phase, or the deal), or lost later, and then whether one of
our moves turned a hand the seer wins (or shares) into a worse one.  A measuring tool: no
table can seat a seer.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai import DOUBLE_SIX, partnership_deal
from core.ai.endgame import Endgame, solvable


def seer_value(game: Any, move: Any, unit: int) -> float:
    """The exact value of `move` for the side `unit`, every hand seen, all playing perfectly."""
    g = game.copy()
    g.play(move)
    if g.round_no != game.round_no or g.over:
        winners = {g.scorer_of(s) for s in g.round_results[-1]["winners"]}
        return 1.0 if winners == {unit} else (-1.0 if unit not in winners else 0.0)
    return Endgame(g, unit, 10**8).value_after(g)


class Watcher:
    """Records each of our decisions of a hand the seer can value, then judges the hand."""

    def __init__(self, tiles: int) -> None:
        self.tiles = tiles
        self.decisions: list[tuple[int, float, float]] = []  # (tiles, ours, best)
        self.hands: list[dict[str, Any]] = []

    def __call__(self, game: Any, move: Any) -> None:
        if move is None:
            self.hands.append({"decisions": self.decisions,
                               "winners": game.round_results[0]["winners"]})
            self.decisions = []
            return
        moves = game.legal_moves()
        if len(moves) < 2 or not solvable(game, self.tiles):
            return
        unit = game.scorer_of(game.to_move)
        values = {str(m): seer_value(game, m, unit) for m in moves}
        n = sum(h.bit_count() for h in game.hands)
        self.decisions.append((n, values[str(move)], max(values.values())))


def judge(decisions: list[tuple[int, float, float]]) -> str:
    if not decisions:
        return "no decision of ours to value"
    if decisions[0][2] < 0:
        return "lost for the seer at our first valued decision"
    if any(ours < best for _, ours, best in decisions):
        return "a move of ours the seer beats"
    return "lost later by the others' moves (partner or opponents)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True, help="a bench/ai.py --out file")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed")
    parser.add_argument("--samples", type=int, default=None, help="the players' seed")
    parser.add_argument("--tiles", type=int, default=21, help="value decisions from here")
    args = parser.parse_args(argv)
    with open(args.results, encoding="utf-8") as f:
        recorded = {r["deal"]: r for r in map(json.loads, f)}
    rng = random.Random(args.seed)
    counts: dict[str, int] = {}
    replayed = same = valued = beaten = 0
    first_beaten: dict[int, int] = {}  # tiles in hand at a lost hand's first beaten move
    for d in range(max(recorded) + 1):
        tiles = DOUBLE_SIX[:]
        rng.shuffle(tiles)
        if d not in recorded:
            continue
        watcher = Watcher(args.tiles)
        hands = [tiles[i * 7:(i + 1) * 7] for i in range(4)]
        won, decided, _, _ = partnership_deal("expert", d, args.seed, hands, args.samples,
                                              watch=watcher)
        replayed += 1
        same += (won, decided) == (recorded[d]["won"], recorded[d]["decided"])
        for ours, hand in zip(({0, 2}, {1, 3}), watcher.hands, strict=True):
            decisions = hand["decisions"]
            valued += len(decisions)
            beaten += sum(1 for _, v, best in decisions if v < best)
            winners = set(hand["winners"])
            if len(winners) == 2 and winners != ours:
                verdict = judge(decisions)
                counts[verdict] = counts.get(verdict, 0) + 1
                n = next((n for n, v, best in decisions if v < best), None)
                if n is not None and decisions[0][2] >= 0:
                    first_beaten[n] = first_beaten.get(n, 0) + 1
    print(f"deals replayed: {replayed}, the recorded result again: {same}")
    for verdict, n in sorted(counts.items(), key=lambda x: -x[1]):
        print(f"| {verdict} | {n} |")
    print(f"our valued decisions (every hand): {valued}, the seer beats {beaten}")
    print("lost hands, tiles in hand at our first move the seer beats: "
          + ", ".join(f"{n}: {k}" for n, k in sorted(first_beaten.items(), reverse=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
