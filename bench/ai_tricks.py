"""The levels of the trick games against each other: whole matches of forty-two, seats swapped.

    python bench/ai.py --only forty-two --games 40       # the three rows, through bench/ai.py
    python bench/ai_tricks.py --games 40 --slug texas-42  # on its own, any trick variant

`fortytwo_ladder(strong, weak, games, seed, clock)` plays `games` whole matches at the
variant's defaults (forty-two: to 200 points) with the `strong` level on seats 0+2 and the
`weak` one on seats 1+3, then the same matches (same seeds, so the same deals as long as
the play does not differ) with the sides swapped.  A match is decided when a team wins it
(always, in these games).  The clock times the searching levels' moves.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tally import Clock, gather, row
from core import variants
from core.ai import make_player

LADDER = (("expert", "hard"), ("hard", "normal"), ("normal", "easy"))
SEARCHING = ("hard", "expert")


def fortytwo_ladder(strong: str, weak: str, games: int, seed: int, clock: Any,
                    slug: str = "forty-two", jobs: int = 1) -> tuple[int, int]:
    """Matches won by `strong` against `weak` and matches decided, over `games` x 2 (in
    `jobs` processes: every match is seeded on its own, so the wins are a serial run's)."""
    tasks = [(strong, weak, i, seed, slug) for i in range(games)]
    return gather(ladder_match, tasks, clock, jobs)


def ladder_match(strong: str, weak: str, i: int, seed: int, slug: str
                 ) -> tuple[int, int, list[float], list[float]]:
    """Match `i` played twice, the `strong` team on seats 0+2 then 1+3: (won, decided,
    and the strong side's searching moves' wall and process times)."""
    clock = Clock()
    won = decided = 0
    for side in (0, 1):  # the strong team: seats 0+2, then 1+3
        kinds = [strong if s % 2 == side else weak for s in range(4)]
        bots = [make_player(kinds[s], seed * 7 + i * 4 + s) for s in range(4)]
        timed = {s for s in range(4) if kinds[s] in SEARCHING and kinds[s] == strong}
        result = team_match(slug, seed * 100_003 + i, bots, side,
                            lambda s, game, b=bots, t=timed: clock.choose(b[s], game)
                            if s in t else b[s].choose(game))
        if result is not None:
            decided += 1
            won += result
    return won, decided, clock.times, clock.cpu


def team_match(slug: str, game_seed: int, bots: list[Any], side: int,
               choose: Any = None) -> int | None:
    """A whole match of a four-seat trick game from `game_seed`, `bots[s]` on seat `s`
    (`choose(seat, game)` picks the move, by default the bot's own choice): 1 when team
    `side` (seats `side` and `side` + 2) won it, 0 when the other did, None undecided."""
    game = variants.get(slug).new(seed=game_seed)
    while not game.over:
        s = game.to_move
        game.play(choose(s, game) if choose is not None else bots[s].choose(game))
    winners = game.result["winners"]
    return int(winners[0] % 2 == side) if winners else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="matches per pair (x2 seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slug", default="forty-two")
    parser.add_argument("--pairs", default="", help="e.g. expert-hard,hard-normal")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args(argv)
    pairs = [tuple(p.split("-")) for p in args.pairs.split(",") if p] or list(LADDER)
    print("| match | won/decided | share | 95% interval | strong side's time per move, wall "
          "(cpu): median / worst | target |")
    print("|---|---:|---:|---:|---:|---|")
    for strong, weak in pairs:
        clock = Clock()
        won, decided = fortytwo_ladder(strong, weak, args.games, args.seed, clock, args.slug,
                                        args.jobs)
        print(row(f"{args.slug}: {strong} vs {weak}", won, decided, clock), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
