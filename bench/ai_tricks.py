"""The levels of the trick games against each other: whole matches of forty-two, seats swapped.

    python bench/ai.py --only forty-two --games 40       # the three rows, through bench/ai.py
    python bench/ai_tricks.py --games 40 --slug texas-42  # on its own, any trick variant
    python bench/ai_tricks.py --slug texas-42 --pairs expert-hard --games 50 --specials
        # every Texas special on (preset=specials, nello_doubles=any, lay_down=true): the
        # wins, then how often each level bid each special and made it
    python bench/ai_tricks.py --slug texas-42 --pairs expert-hard --games 200 --jobs 2 \
        --out F [--first K]   # long runs: each match appended to F as it ends (resumable:
        # --first K starts at match index K); then --summary F... prints the figures

`fortytwo_ladder(strong, weak, games, seed, clock)` plays `games` whole matches at the
variant's defaults (forty-two: to 200 points) with the `strong` level on seats 0+2 and the
`weak` one on seats 1+3, then the same matches (same seeds, so the same deals as long as
the play does not differ) with the sides swapped.  A match is decided when a team wins it
(always, in these games).  The clock times the searching levels' moves.  `--specials` plays
texas-42 with every special on and counts, per level, the contracts it won in the bidding
that were a special (plunge, splash, nello, sevens, doubles, follow-me) and how many it made.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tally import Clock, gather, row, run_all, stream_all, wilson
from core import variants
from core.ai import make_player

LADDER = (("expert", "hard"), ("hard", "normal"), ("normal", "easy"))
SEARCHING = ("hard", "expert")
SPECIALS_ON = {"preset": "specials", "nello_doubles": "any", "lay_down": True}


def fortytwo_ladder(strong: str, weak: str, games: int, seed: int, clock: Any,
                    slug: str = "forty-two", jobs: int = 1) -> tuple[int, int]:
    """Matches won by `strong` against `weak` and matches decided, over `games` x 2 (in
    `jobs` processes: every match is seeded on its own, so the wins are a serial run's)."""
    tasks = [(strong, weak, i, seed, slug) for i in range(games)]
    return gather(ladder_match, tasks, clock, jobs)


def ladder_match(strong: str, weak: str, i: int, seed: int, slug: str,
                 options: dict[str, Any] | None = None
                 ) -> tuple[int, int, list[float], list[float]]:
    """Match `i` played twice, the `strong` team on seats 0+2 then 1+3: (won, decided,
    and the strong side's searching moves' wall and process times)."""
    return specials_match(strong, weak, i, seed, slug, options)[:4]  # type: ignore[return-value]


def specials_match(strong: str, weak: str, i: int, seed: int, slug: str,
                   options: dict[str, Any] | None = None
                   ) -> tuple[int, int, list[float], list[float], Counter[tuple[str, str, str]]]:
    """`ladder_match`, and the contracts counted by `team_match` (level, kind, "bid"/"made")."""
    clock = Clock()
    won = decided = 0
    stats: Counter[tuple[str, str, str]] = Counter()
    for side in (0, 1):  # the strong team: seats 0+2, then 1+3
        kinds = [strong if s % 2 == side else weak for s in range(4)]
        bots = [make_player(kinds[s], seed * 7 + i * 4 + s) for s in range(4)]
        timed = {s for s in range(4) if kinds[s] in SEARCHING and kinds[s] == strong}
        result = team_match(slug, seed * 100_003 + i, bots, side,
                            lambda s, game, b=bots, t=timed: clock.choose(b[s], game)
                            if s in t else b[s].choose(game), options, stats, kinds)
        if result is not None:
            decided += 1
            won += result
    return won, decided, clock.times, clock.cpu, stats


def contract_kind(game: Any) -> str:
    """The kind of the contract in play: "plunge", "splash", the special trumps' word, or
    "plain"."""
    if game.special:
        return "plunge" if game.special == 1 else "splash"
    word = game.trumps_word()
    return word if isinstance(word, str) else "plain"


def team_match(slug: str, game_seed: int, bots: list[Any], side: int,
               choose: Any = None, options: dict[str, Any] | None = None,
               stats: Counter[tuple[str, str, str]] | None = None,
               kinds: list[str] | None = None) -> int | None:
    """A whole match of a four-seat trick game from `game_seed` (with `options`), `bots[s]`
    on seat `s` (`choose(seat, game)` picks the move, by default the bot's own choice): 1
    when team `side` (seats `side` and `side` + 2) won it, 0 when the other did, None
    undecided.  `stats` counts each round's contract by the level (`kinds`) of its bidder:
    (level, kind, "bid") and, made, (level, kind, "made"); and hands laid down."""
    game = variants.get(slug).new(seed=game_seed, **(options or {}))
    while not game.over:
        s = game.to_move
        playing = game.phase == "playing"
        contract = (game.holder, contract_kind(game)) if playing else None
        rounds = len(game.round_results)
        move = choose(s, game) if choose is not None else bots[s].choose(game)
        game.play(move)
        if stats is not None and kinds is not None and contract is not None \
                and len(game.round_results) > rounds:
            level = kinds[contract[0]]
            made = game.round_results[-1]["made"]
            stats[level, contract[1], "bid"] += 1
            stats[level, contract[1], "made"] += int(made)
            if move.text == "lay down":
                stats[level, "lay down", "bid"] += 1
    winners = game.result["winners"]
    return int(winners[0] % 2 == side) if winners else None


def specials_table(strong: str, weak: str, games: int, seed: int, slug: str, jobs: int,
                   clock: Any) -> tuple[int, int, Counter[tuple[str, str, str]]]:
    """`games` x 2 matches with every special on: (won, decided, the contracts counted)."""
    tasks = [(strong, weak, i, seed, slug, SPECIALS_ON) for i in range(games)]
    won = decided = 0
    stats: Counter[tuple[str, str, str]] = Counter()
    for w, n, times, cpu, counted in run_all(specials_match, tasks, jobs):
        won += w
        decided += n
        clock.times += times
        clock.cpu += cpu
        stats.update(counted)
    return won, decided, stats


def stream(strong: str, weak: str, args: Any) -> int:
    """`--out`: matches `--first` to `--first` + `--games` - 1, each appended to the file as
    it ends (one JSON line: the pair, slug, seed, match index, wins and the contracts), so a
    run of hours may stop and go on; `--summary` adds them up."""
    slug = "texas-42" if args.specials else args.slug
    options = SPECIALS_ON if args.specials else None
    tasks = [(strong, weak, i, args.seed, slug, options)
             for i in range(args.first, args.first + args.games)]
    for task, (won, decided, wall, cpu, stats) in zip(
            tasks, stream_all(specials_match, tasks, args.jobs), strict=True):
        line = {"slug": slug, "specials": args.specials, "strong": strong, "weak": weak,
                "seed": args.seed, "match": task[2], "won": won, "decided": decided,
                "wall": wall, "cpu": cpu, "stats": [[*k, v] for k, v in sorted(stats.items())]}
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
    return 0


def summary(paths: list[str]) -> list[str]:
    """The figures of `--out` files: one row per pair, slug and seed (a match index counted
    once however often it was appended), then the contracts each level bid and made."""
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for text in f:
                if text.strip():
                    r = json.loads(text)
                    seen[r["slug"], r["specials"], r["strong"], r["weak"], r["seed"],
                         r["match"]] = r
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for key, r in sorted(seen.items()):
        groups.setdefault(key[:5], []).append(r)
    lines = ["| match | matches (indices) | won/decided | share | 95% interval | strong "
             "side's time per move, wall (cpu): median / worst |", "|---|---|---:|---:|---:|---:|"]
    tables: list[str] = []
    for (slug, specials, strong, weak, seed), results in groups.items():
        clock = Clock()
        won = sum(r["won"] for r in results)
        decided = sum(r["decided"] for r in results)
        for r in results:
            clock.times += r["wall"]
            clock.cpu += r["cpu"]
        lo, hi = wilson(won, decided)
        share = won / decided if decided else 0.0
        idx = sorted(r["match"] for r in results)
        name = f"{slug}{', every special' if specials else ''}: {strong} vs {weak}"
        lines.append(f"| {name} (seed {seed}) | {len(idx) * 2} ({idx[0]}-{idx[-1]}) | "
                     f"{won}/{decided} | {share:.1%} | {lo:.1%}-{hi:.1%} | {clock.text()} |")
        if specials:
            stats: Counter[tuple[str, str, str]] = Counter()
            for r in results:
                stats.update({(lv, k, what): v for lv, k, what, v in r["stats"]})
            tables += ["", f"{name}:", *contract_rows(strong, weak, stats)]
    return lines + tables


def contract_rows(strong: str, weak: str, stats: Counter[tuple[str, str, str]]) -> list[str]:
    """How often each level won the bidding with each contract, and made it."""
    out = ["| level | contract | won in the bidding | made |", "|---|---|---:|---:|"]
    for level in (strong, weak):
        rounds = sum(v for (lv, k, what), v in stats.items()
                     if lv == level and what == "bid" and k != "lay down")
        for kind in sorted({k for lv, k, _ in stats if lv == level}):
            bid, made = stats[level, kind, "bid"], stats[level, kind, "made"]
            share = f"{bid / rounds:.1%} of {rounds}" if rounds else "0"
            out.append(f"| {level} | {kind} | {bid} ({share}) | "
                       + ("-" if kind == "lay down" else f"{made}/{bid}") + " |")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="matches per pair (x2 seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slug", default="forty-two")
    parser.add_argument("--pairs", default="", help="e.g. expert-hard,hard-normal")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--specials", action="store_true",
                        help="texas-42 with every special on, and how often each is bid")
    parser.add_argument("--out", default="",
                        help="append each match to this file as it ends (JSON lines)")
    parser.add_argument("--first", type=int, default=0, help="with --out: the first match")
    parser.add_argument("--summary", nargs="+", default=None, metavar="FILE",
                        help="print the figures of --out files and stop")
    args = parser.parse_args(argv)
    if args.summary:
        print("\n".join(summary(args.summary)))
        return 0
    pairs = [tuple(p.split("-")) for p in args.pairs.split(",") if p] or list(LADDER)
    if args.out:
        for strong, weak in pairs:
            stream(strong, weak, args)
        return 0
    if args.specials:
        return specials_main(pairs, args)
    print("| match | won/decided | share | 95% interval | strong side's time per move, wall "
          "(cpu): median / worst | target |")
    print("|---|---:|---:|---:|---:|---|")
    for strong, weak in pairs:
        clock = Clock()
        won, decided = fortytwo_ladder(strong, weak, args.games, args.seed, clock, args.slug,
                                        args.jobs)
        print(row(f"{args.slug}: {strong} vs {weak}", won, decided, clock), flush=True)
    return 0


def specials_main(pairs: list[tuple[str, ...]], args: Any) -> int:
    """The rows of `--specials`: the wins, then the contracts per level and kind."""
    for strong, weak in pairs:
        clock = Clock()
        won, decided, stats = specials_table(strong, weak, args.games, args.seed, "texas-42",
                                             args.jobs, clock)
        print("| match | won/decided | share | 95% interval | strong side's time per move, "
              "wall (cpu): median / worst | target |")
        print("|---|---:|---:|---:|---:|---|")
        print(row(f"texas-42, every special: {strong} vs {weak}", won, decided, clock))
        print()
        print("\n".join(contract_rows(strong, weak, stats)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
