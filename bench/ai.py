"""How strong the computer players are: win shares on the same deals, seats swapped.

    python bench/ai.py                       # every line, default sizes (long: minutes)
    python bench/ai.py --only partnership --deals 100
    python bench/ai.py --only classic,muggins --games 200
    python bench/ai.py --only all-fives --pairs expert-hard --games 40 --jobs 2

Lines:

* partnership 4p (all 28 dealt, the first player leads any tile, one hand a deal): our
  `expert` and `hard` against PyPI `dominoes`' `probabilistic_alphabeta` (10 sampled deals,
  from the 8th move).  Each deal is played twice, our side on seats 0+2 then on 1+3; a hand
  is decided when a side goes out or wins the block on pips.
* each level against the one below (expert-hard, hard-normal, normal-easy) in `classic`
  (2 players, draw), `muggins` and `all-fives` (whole matches at the variant's defaults),
  each match played twice with the seats swapped.
* the same ladder in `forty-two` (4 players, whole matches to 200 points, the stronger level
  on seats 0+2 then 1+3: `bench/ai_tricks.py`).

It prints win shares of the decided games with a 95% Wilson interval, and the median and
worst time per move of our searching levels, wall clock and process (CPU) time.  Targets
(issue 18): expert >= 60% against probabilistic_alphabeta; each level >= 60% against the
one below.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tally import Clock, gather, row
from core import variants
from core.ai import make_player
from core.moves import LEAD, LEFT

DOUBLE_SIX = [(hi, lo) for hi in range(7) for lo in range(hi + 1)]
LADDER = (("expert", "hard"), ("hard", "normal"), ("normal", "easy"))


# -- partnership against dominoes' probabilistic_alphabeta ---------------------------------


def partnership(level: str, deals: int, seed: int, clock: Clock, jobs: int = 1
                ) -> tuple[int, int]:
    rng = random.Random(seed)
    tasks = []
    for d in range(deals):
        tiles = DOUBLE_SIX[:]
        rng.shuffle(tiles)
        tasks.append((level, d, seed, [tiles[i * 7:(i + 1) * 7] for i in range(4)]))
    return gather(partnership_deal, tasks, clock, jobs)


def partnership_deal(level: str, d: int, seed: int, hands: list[list[tuple[int, int]]]
                     ) -> tuple[int, int, list[float], list[float]]:
    """One deal played twice, our side on seats 0+2 then 1+3."""
    import dominoes

    clock = Clock()
    won = decided = 0
    for ours_first in (True, False):
        ours = {0, 2} if ours_first else {1, 3}
        game = variants.get("partnership").new(
            players=4, seed=seed * 1000 + d, hand=7, opening="any",
            deal={"hands": [[f"{a}-{b}" for a, b in h] for h in hands], "stock": []})
        peer_hands = [dominoes.Hand([dominoes.Domino(a, b) for a, b in h]) for h in hands]
        peer = dominoes.Game(dominoes.Board(), peer_hands, [], 0,
                             tuple((x, True) for x in peer_hands[0]), 0, None)
        bots = {s: make_player(level, seed * 7919 + d * 4 + s) for s in ours}
        them = dominoes.players.probabilistic_alphabeta(start_move=8, sample_size=10)
        while game.round_no == 1 and not game.over:
            seat = game.to_move
            sync_turn(peer, seat)
            if seat in ours:
                move = clock.choose(bots[seat], game)
                apply_to_peer(peer, game, move)
                game.play(move)
            else:
                random.seed(seed * 31 + d)
                them(peer)
                domino, left = peer.valid_moves[0]
                game.play(our_move(game, domino, left, peer))
                peer.make_move(domino, left)
        result = game.round_results[0]
        winners = set(result["winners"])
        if len(winners) == 2:
            decided += 1
            won += winners == ours
    return won, decided, clock.times, clock.cpu


def sync_turn(peer: Any, seat: int) -> None:
    """The peer passes on its own: its turn must be ours."""
    if peer.turn != seat:
        raise AssertionError(f"the engines disagree on whose turn it is ({peer.turn}, {seat})")


def end_value(game: Any, left: bool) -> int:
    return game.left if left else game.right


def apply_to_peer(peer: Any, game: Any, move: Any) -> None:
    a, b = move.tile
    if move.end == LEAD:
        for domino, left in peer.valid_moves:
            if {domino.first, domino.second} == {a, b}:
                peer.make_move(domino, left)
                return
    value = game.left if move.end == LEFT else game.right
    for domino, left in peer.valid_moves:
        if {domino.first, domino.second} != {a, b}:
            continue
        end = peer.board.left_end() if left else peer.board.right_end()
        if end == value:
            peer.make_move(domino, left)
            return
    raise AssertionError(f"the peer has no move for {move}")


def our_move(game: Any, domino: Any, left: bool, peer: Any) -> Any:
    pair = {domino.first, domino.second}
    if not len(peer.board):
        return next(m for m in game.legal_moves() if set(m.tile) == pair)
    value = peer.board.left_end() if left else peer.board.right_end()
    for m in game.legal_moves():
        if m.tile is not None and set(m.tile) == pair and m.end != LEAD \
                and (game.left if m.end == LEFT else game.right) == value:
            return m
    raise AssertionError(f"no move of ours for {domino} on {value}")


# -- level against level ------------------------------------------------------------------------


def ladder(slug: str, strong: str, weak: str, games: int, seed: int, clock: Clock,
           options: dict[str, Any], jobs: int = 1) -> tuple[int, int]:
    tasks = [(slug, strong, weak, i, seed, options) for i in range(games)]
    return gather(ladder_match, tasks, clock, jobs)


def ladder_match(slug: str, strong: str, weak: str, i: int, seed: int, options: dict[str, Any]
                 ) -> tuple[int, int, list[float], list[float]]:
    """Match `i` played twice, the stronger level on seat 0 then on seat 1."""
    clock = Clock()
    won = decided = 0
    for strong_seat in (0, 1):
        game = variants.get(slug).new(players=2, seed=seed * 100_003 + i, **options)
        kinds = {strong_seat: strong, 1 - strong_seat: weak}
        bots = {s: make_player(kinds[s], seed * 7 + i * 2 + s) for s in (0, 1)}
        while not game.over:
            s = game.to_move
            bot = bots[s]
            move = clock.choose(bot, game) if kinds[s] in ("hard", "expert") else \
                bot.choose(game)
            game.play(move)
        winners = game.result["winners"]
        if len(winners) == 1:
            decided += 1
            won += winners[0] == strong_seat
    return won, decided, clock.times, clock.cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="partnership deals (x2 seats)")
    parser.add_argument("--games", type=int, default=100, help="matches per ladder pair (x2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes (the same results as one: every match is seeded alone)")
    parser.add_argument("--only", default="", help="comma-separated: partnership, classic, "
                        "muggins, all-fives, forty-two")
    parser.add_argument("--pairs", default="", help="comma-separated ladder pairs, e.g. "
                        "expert-hard (default: the three)")
    args = parser.parse_args(argv)
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    pairs = [tuple(p.split("-")) for p in args.pairs.split(",") if p] or list(LADDER)
    print("| match | won/decided | share | 95% interval | our time per move, wall (cpu): "
          "median / worst | target |")
    print("|---|---:|---:|---:|---:|---|")
    if not only or "partnership" in only:
        for level in ("expert", "hard"):
            clock = Clock()
            won, decided = partnership(level, args.deals, args.seed, clock, args.jobs)
            print(row(f"partnership: {level} vs probabilistic_alphabeta", won, decided, clock),
                  flush=True)
    settings = {"classic": {"draw": "draw"}, "muggins": {}, "all-fives": {}}
    for slug, options in settings.items():
        if only and slug not in only:
            continue
        for strong, weak in pairs:
            clock = Clock()
            won, decided = ladder(slug, strong, weak, args.games, args.seed, clock, options,
                                 args.jobs)
            print(row(f"{slug}: {strong} vs {weak}", won, decided, clock), flush=True)
    if not only or "forty-two" in only:  # whole matches, 4 players (bench/ai_tricks.py)
        from bench.ai_tricks import fortytwo_ladder

        for strong, weak in pairs:
            clock = Clock()
            won, decided = fortytwo_ladder(strong, weak, args.games, args.seed, clock,
                                           jobs=args.jobs)
            print(row(f"forty-two: {strong} vs {weak}", won, decided, clock), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
