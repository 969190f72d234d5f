"""How strong the computer players are: win shares on the same deals, seats swapped.

    python bench/ai.py                       # every line, default sizes (long: minutes)
    python bench/ai.py --only partnership --deals 100
    python bench/ai.py --only classic,muggins --games 200
    python bench/ai.py --only all-fives --pairs expert-hard --games 40 --jobs 2
    python bench/ai.py --only partnership --levels expert --deals 100 --samples 2 --out F
    python bench/ai.py --only partnership --levels seer --deals 100 --out F   # the ceiling
    python bench/ai.py --only matador --pairs expert-hard --games 200 --hands --out F

Lines:

* partnership 4p (all 28 dealt, the first player leads any tile, one hand a deal): our
  `expert` and `hard` against PyPI `dominoes`' `probabilistic_alphabeta` (10 sampled deals,
  from the 8th move).  Each deal is played twice, our side on seats 0+2 then on 1+3; a hand
  is decided when a side goes out or wins the block on pips.
* each level against the one below (expert-hard, hard-normal, normal-easy) in `classic`
  (2 players, draw), `muggins` and `all-fives` (whole matches at the variant's defaults),
  each match played twice with the seats swapped; `fives-and-threes` and `matador` only
  when `--only` names them.  `--hands` plays each match's first round alone (issue 41's
  400 hands: the seat that gained more points in it wins it).
* `--samples N` seeds the players alone: the same deals (`--seed`) with other imagined
  deals drawn (issue 41's second run); `--out F` appends each result as it ends, and
  `python bench/ai.py --summary F` reads such files (shares, intervals, time per move).
* the same ladder in `forty-two` (4 players, whole matches to 200 points, the stronger level
  on seats 0+2 then 1+3: `bench/ai_tricks.py`).

It prints win shares of the decided games with a 95% Wilson interval, and the median and
worst time per move of our searching levels, wall clock and process (CPU) time.  Targets
(issue 18): expert >= 60% against probabilistic_alphabeta; each level >= 60% against the
one below.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tally import Clock, gather, hand_winners, row, wilson
from core import variants
from core.ai import make_player
from core.moves import LEAD, LEFT

DOUBLE_SIX = [(hi, lo) for hi in range(7) for lo in range(hi + 1)]
LADDER = (("expert", "hard"), ("hard", "normal"), ("normal", "easy"))
NAMED_ONLY = ("fives-and-threes", "matador")  # ladders run only when `--only` names them


# -- partnership against dominoes' probabilistic_alphabeta ---------------------------------


def partnership(level: str, deals: int, seed: int, clock: Clock, jobs: int = 1,
                samples: int | None = None, out: str = "", first: int = 0) -> tuple[int, int]:
    """Deals `first` to `deals - 1` of `seed`'s deals.  `samples` (default: `seed`) seeds
    the players alone: the same deals with other samples drawn (issue 41's second run).
    `out`: a file each deal's result is appended to as it ends (a JSON line)."""
    rng = random.Random(seed)
    tasks = []
    for d in range(deals):
        tiles = DOUBLE_SIX[:]
        rng.shuffle(tiles)
        if d >= first:
            tasks.append((level, d, seed, [tiles[i * 7:(i + 1) * 7] for i in range(4)],
                          samples, out))
    return gather(partnership_deal, tasks, clock, jobs)


def partnership_deal(level: str, d: int, seed: int, hands: list[list[tuple[int, int]]],
                     samples: int | None = None, out: str = "", watch: Any = None
                     ) -> tuple[int, int, list[float], list[float]]:
    """One deal played twice, our side on seats 0+2 then 1+3; the players are seeded by
    `samples` (default: `seed`, the deals' seed).  `watch(game, move)` is told each of our
    moves before it is played, and `watch(game, None)` each hand's end
    (`bench/ai_losses.py`)."""
    import dominoes

    clock = Clock()
    won = decided = 0
    pseed = seed if samples is None else samples
    for ours_first in (True, False):
        ours = {0, 2} if ours_first else {1, 3}
        game = variants.get("partnership").new(
            players=4, seed=seed * 1000 + d, hand=7, opening="any",
            deal={"hands": [[f"{a}-{b}" for a, b in h] for h in hands], "stock": []})
        peer_hands = [dominoes.Hand([dominoes.Domino(a, b) for a, b in h]) for h in hands]
        peer = dominoes.Game(dominoes.Board(), peer_hands, [], 0,
                             tuple((x, True) for x in peer_hands[0]), 0, None)
        bots = {s: seat_player(level, pseed * 7919 + d * 4 + s) for s in ours}
        them = dominoes.players.probabilistic_alphabeta(start_move=8, sample_size=10)
        while game.round_no == 1 and not game.over:
            seat = game.to_move
            sync_turn(peer, seat)
            if seat in ours:
                move = clock.choose(bots[seat], game)
                if watch is not None:
                    watch(game, move)
                apply_to_peer(peer, game, move)
                game.play(move)
            else:
                random.seed(pseed * 31 + d)
                them(peer)
                domino, left = peer.valid_moves[0]
                game.play(our_move(game, domino, left, peer))
                peer.make_move(domino, left)
        if watch is not None:
            watch(game, None)
        result = game.round_results[0]
        winners = set(result["winners"])
        if len(winners) == 2:
            decided += 1
            won += winners == ours
    if out:
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps({"level": level, "seed": seed, "samples": pseed, "deal": d,
                                "won": won, "decided": decided, "wall": clock.times,
                                "cpu": clock.cpu}) + "\n")
    return won, decided, clock.times, clock.cpu


def seat_player(level: str, seed: int) -> Any:
    """Our player of `level`; "seer" is `bench/ai_ceiling.py`'s, which sees every hand (a
    measuring tool: what perfect reading of the hands would win against the peer)."""
    if level == "seer":
        from bench.ai_ceiling import LineSeer

        return LineSeer(seed)
    return make_player(level, seed)


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
           options: dict[str, Any], jobs: int = 1, hands: bool = False, out: str = ""
           ) -> tuple[int, int]:
    tasks = [(slug, strong, weak, i, seed, options, hands, out) for i in range(games)]
    return gather(ladder_match, tasks, clock, jobs)


def ladder_match(slug: str, strong: str, weak: str, i: int, seed: int, options: dict[str, Any],
                 hands: bool = False, out: str = ""
                 ) -> tuple[int, int, list[float], list[float]]:
    """Match `i` played twice, the stronger level on seat 0 then on seat 1; with `hands`, its
    first round only (a hand), won by the seat that gained more points in it (the round's
    winner when the points are even).  `out`: a file the result is appended to (JSON)."""
    clock = Clock()
    won = decided = 0
    for strong_seat in (0, 1):
        game = variants.get(slug).new(players=2, seed=seed * 100_003 + i, **options)
        kinds = {strong_seat: strong, 1 - strong_seat: weak}
        bots = {s: make_player(kinds[s], seed * 7 + i * 2 + s) for s in (0, 1)}
        before = list(game.totals)
        while not game.over and not (hands and game.round_no > 1):
            s = game.to_move
            bot = bots[s]
            move = clock.choose(bot, game) if kinds[s] in ("hard", "expert") else \
                bot.choose(game)
            game.play(move)
        winners = hand_winners(game, before) if hands else game.result["winners"]
        if len(winners) == 1:
            decided += 1
            won += winners[0] == strong_seat
    if out:
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps({"slug": slug, "strong": strong, "weak": weak, "seed": seed,
                                "match": i, "hands": hands, "won": won, "decided": decided,
                                "wall": clock.times, "cpu": clock.cpu}) + "\n")
    return won, decided, clock.times, clock.cpu


def summary(paths: list[str]) -> list[str]:
    """One table row for each `--out` file and one for them all: won/decided, share, 95%
    interval, our time per move (forced moves included), mean / worst, wall and CPU."""
    lines = ["| file | won/decided | share | 95% interval | wall per move, mean / worst "
             "(over 1 s) | CPU per move, mean / worst (over 1 s) |",
             "|---|---:|---:|---:|---:|---:|"]
    every: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            results = [json.loads(line) for line in f if line.strip()]
        every += results
        lines.append(summary_row(f"{path} ({len(results)} deals or matches)", results))
    if len(paths) > 1:
        lines.append(summary_row("all", every))
    return lines


def summary_row(name: str, results: list[dict[str, Any]]) -> str:
    won = sum(r["won"] for r in results)
    decided = sum(r["decided"] for r in results)
    lo, hi = wilson(won, decided)
    wall = [t for r in results for t in r["wall"]]
    cpu = [t for r in results for t in r["cpu"]]

    def times(xs: list[float]) -> str:
        if not xs:
            return "-"
        over = sum(1 for x in xs if x > 1.0)
        return f"{sum(xs) / len(xs) * 1000:.0f} ms / {max(xs):.2f} s ({over} of {len(xs)})"

    share = won / decided if decided else 0.0
    return (f"| {name} | {won}/{decided} | {share:.1%} | {lo:.1%}-{hi:.1%} | {times(wall)} "
            f"| {times(cpu)} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="partnership deals (x2 seats)")
    parser.add_argument("--games", type=int, default=100, help="matches per ladder pair (x2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=None,
                        help="partnership: seeds the players alone (default: --seed), the "
                        "same deals with other samples drawn")
    parser.add_argument("--first", type=int, default=0, help="partnership: the first deal")
    parser.add_argument("--hands", action="store_true",
                        help="ladder: play each match's first round only (a hand)")
    parser.add_argument("--levels", default="expert,hard",
                        help="partnership: our levels (seer: it sees every hand, a ceiling)")
    parser.add_argument("--out", default="", help="append each deal's (partnership) or "
                        "match's (ladder) result to this file (JSON lines) as it ends")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes (the same results as one: every match is seeded alone)")
    parser.add_argument("--only", default="", help="comma-separated: partnership, classic, "
                        "muggins, all-fives, fives-and-threes, matador, forty-two")
    parser.add_argument("--pairs", default="", help="comma-separated ladder pairs, e.g. "
                        "expert-hard (default: the three)")
    parser.add_argument("--summary", nargs="+", default=None, metavar="FILE",
                        help="print the figures of `--out` files and stop")
    args = parser.parse_args(argv)
    if args.summary:
        print("\n".join(summary(args.summary)))
        return 0
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    pairs = [tuple(p.split("-")) for p in args.pairs.split(",") if p] or list(LADDER)
    print("| match | won/decided | share | 95% interval | our time per move, wall (cpu): "
          "median / worst | target |")
    print("|---|---:|---:|---:|---:|---|")
    if not only or "partnership" in only:
        for level in args.levels.split(","):
            clock = Clock()
            won, decided = partnership(level, args.deals, args.seed, clock, args.jobs,
                                       args.samples, args.out, args.first)
            print(row(f"partnership: {level} vs probabilistic_alphabeta", won, decided, clock),
                  flush=True)
    settings = {"classic": {"draw": "draw"}, "muggins": {}, "all-fives": {},
                "fives-and-threes": {}, "matador": {}}
    for slug, options in settings.items():
        if slug not in only and (only or slug in NAMED_ONLY):
            continue
        for strong, weak in pairs:
            clock = Clock()
            won, decided = ladder(slug, strong, weak, args.games, args.seed, clock, options,
                                  args.jobs, args.hands, args.out)
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
