"""How much room there is above a level: a player that sees every hand (it cheats) against it.

    python bench/ai_ceiling.py --slug classic --against hard --games 400 --jobs 2
    python bench/ai_ceiling.py --slug classic --against hard --games 200 --jobs 2 --hands-only
    python bench/ai_ceiling.py --slug muggins --games 200 --hands-only --first-round  # hands
    python bench/ai_ceiling.py --slug forty-two --against hard --games 50 --jobs 2
    python bench/ai_ceiling.py --slug forty-two --hands 160 --sees play --jobs 2

Not a computer player anyone can meet: it exists to measure.  The *seer* is our `expert`
given the true deal instead of imagined ones: its "imagined" deals are copies of the real
match (every hand, the stock in its real order), so its playouts and exact endgames play
the position as it really is.  In a plain line game it also solves the whole rest of the
round exactly, draws included (they are known to it), whenever that takes at most
`SOLVE_NODES` positions.  With ``--hands-only`` (line games) it sees every hand but not
the stock's order: its deals are the real hands with the stock shuffled, solved as
`expert` solves its own, which is what perfect reading of the opponents' hands would give
an honest player.  What the seer of the hands wins against a level is about what any player
who does not see the hands could win against that level by reading them perfectly: if it
wins 62% against `hard`, an honest `expert` winning 60% would have to read the hands from
the play almost as well as if it saw them (docs/benchmarks.md, "Computer players:
line games"; every run in docs/benchmarks-history.md, "How much room there is above `hard`").

The matches are those of `bench/ai.py` (line games: 2 players, whole matches at the
variant's defaults, classic with ``draw=draw``, each played twice with the seats swapped;
trick games: 4 players, the seer's team on seats 0+2 then 1+3).  With ``--hands N`` (trick
games) it plays N single rounds instead, twice each, and prints the seer's margin in points
a round; ``--sees bidding`` or ``--sees play`` lets it see the hands in that phase only, which
tells where seeing them pays (``--sees nothing`` is plain `expert`, for comparison).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tally import hand_winners
from core import variants
from core.ai import make_player
from core.ai.search import ExpertPlayer, win_value
from core.ai.tricks_search import TrickExpertPlayer

SOLVE_NODES = 60_000  # positions the seer's whole-round solver may visit per decision


class _Seen:
    """The match as the seer reads it: every attribute is the real match's, and the
    "imagined" deals are copies of it (`hands_only`: with the stock in a random order)."""

    def __init__(self, game: Any, hands_only: bool = False) -> None:
        self._game = game
        self._hands_only = hands_only

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def determinized(self, seat: int, rng: Any) -> Any:
        new = self._game.copy()
        if self._hands_only:
            new.hands  # noqa: B018  (deals a round not dealt yet)
            rng.shuffle(new._stock)
            new._rng = None
            new._rng_state = rng.getrandbits(64)
        return new

    def redealt(self, seat: int, rng: Any, known: Any = None) -> Any:
        return self._game.copy()


class _TooBig(Exception):
    pass


class LineSeer(ExpertPlayer):
    """`expert` on the true deal; a plain round solved to its end when small enough.
    `hands_only`: it sees the hands but not the stock's order (its deals shuffle the
    stock, and it solves them as `expert` does)."""

    hands_only = False

    def choose(self, game: Any) -> Any:
        moves = game.legal_moves()
        if len(moves) > 1 and not game.hooked and not self.hands_only:
            solved = self._solve(game, moves)
            if solved is not None:
                return solved
        return super().choose(_Seen(game, self.hands_only))

    def _solve(self, game: Any, moves: list[Any]) -> Any:
        unit = game.scorer_of(game.to_move)
        before = list(game.totals)
        budget = [SOLVE_NODES]
        try:
            values = []
            for m in moves:
                g = game.copy()
                g.play(m)
                values.append(self._value(g, unit, before, game.round_no, -2.0, 2.0, budget))
        except _TooBig:
            return None
        return moves[max(range(len(moves)), key=lambda i: (values[i], -i))]

    def _value(self, g: Any, unit: int, before: list[int], round_no: int, alpha: float,
               beta: float, budget: list[int]) -> float:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig
        if g.over or g.round_no != round_no:
            return win_value(g, unit, before)
        mine = g.scorer_of(g.to_move) == unit
        best = -2.0 if mine else 2.0
        for m in g.legal_moves():
            c = g.copy()
            c.play(m)
            v = self._value(c, unit, before, round_no, alpha, beta, budget)
            if mine:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


class TrickSeer(TrickExpertPlayer):
    """The trick games' `expert` on the true deal: in the bidding and trump naming, in the
    play, or both (`sees`: "all", "bidding", "play"; "nothing" is plain `expert`)."""

    sees = "all"

    def bid(self, game: Any, seat: int, moves: list[Any]) -> Any:
        return super().bid(self._seen(game, "bidding"), seat, moves)

    def name_trumps(self, game: Any, seat: int, moves: list[Any]) -> Any:
        return super().name_trumps(self._seen(game, "bidding"), seat, moves)

    def play(self, game: Any, seat: int, moves: list[Any]) -> Any:
        return super().play(self._seen(game, "play"), seat, moves)

    def _seen(self, game: Any, phase: str) -> Any:
        return _Seen(game) if self.sees in ("all", phase) else game


def line_match(slug: str, against: str, i: int, seed: int, hands_only: bool = False,
               first_round: bool = False) -> tuple[int, int]:
    """Match `i` twice, the seer on seat 0 then 1: (won, decided).  `first_round`: the
    match's first round alone, won as `bench/ai.py --hands` wins a hand (`hand_winners`)."""
    options = {"draw": "draw"} if slug == "classic" else {}
    won = decided = 0
    for seer_seat in (0, 1):
        game = variants.get(slug).new(players=2, seed=seed * 100_003 + i, **options)
        seer = LineSeer(seed * 7 + i * 2 + seer_seat)
        seer.hands_only = hands_only
        bots = {seer_seat: seer,
                1 - seer_seat: make_player(against, seed * 7 + i * 2 + 1 - seer_seat)}
        before = list(game.totals)
        while not game.over and not (first_round and game.round_no > 1):
            game.play(bots[game.to_move].choose(game))
        winners = hand_winners(game, before) if first_round else game.result["winners"]
        if len(winners) == 1:
            decided += 1
            won += winners[0] == seer_seat
    return won, decided


def trick_match(slug: str, against: str, i: int, seed: int, hands_only: bool = False
                ) -> tuple[int, int]:
    """Match `i` twice, the seer's team on seats 0+2 then 1+3: (won, decided)."""
    from bench.ai_tricks import team_match

    won = decided = 0
    for side in (0, 1):
        bots = [TrickSeer(seed * 7 + i * 4 + s) if s % 2 == side
                else make_player(against, seed * 7 + i * 4 + s) for s in range(4)]
        result = team_match(slug, seed * 100_003 + i, bots, side)
        if result is not None:
            decided += 1
            won += result
    return won, decided


def trick_hand(slug: str, against: str, i: int, seed: int, sees: str,
               trust: float | None = None) -> float:
    """Deal `i` played as one round twice, the seer's team on seats 0+2 then 1+3: the
    seer's team's points (marks in texas-42) less the other team's, a round on average.
    `trust`: the seer's own (`TrickSearchPlayer.trust`) instead of `expert`'s."""
    total = 0
    for side in (0, 1):
        bots = []
        for s in range(4):
            if s % 2 == side:
                seer = TrickSeer(seed * 7 + i * 4 + s)
                seer.sees = sees
                if trust is not None:
                    seer.trust = trust
                bots.append(seer)
            else:
                bots.append(make_player(against, seed * 7 + i * 4 + s))
        game = variants.get(slug).new(seed=seed * 100_003 + i)
        while not game.round_results:
            game.play(bots[game.to_move].choose(game))
        points = game.round_results[-1]["points"]
        total += points[side] - points[1 - side]
    return total / 2


def hands_main(args: Any) -> int:
    """`--hands N`: the trick games' seer, one round a deal, in points a round."""
    import statistics

    from bench.tally import run_all

    tasks = [(args.slug, args.against, i, args.seed, args.sees, args.trust)
             for i in range(args.hands)]
    t0 = time.perf_counter()
    margins = run_all(trick_hand, tasks, args.jobs)
    mean = statistics.mean(margins)
    error = statistics.stdev(margins) / len(margins) ** 0.5
    trust = "expert's" if args.trust is None else args.trust
    print("| rounds | seer sees | its trust | against | margin a round | standard error "
          "| minutes |")
    print("|---:|---|---|---|---:|---:|---:|")
    print(f"| {len(margins)} x2 | {args.sees} | {trust} | {args.against} | {mean:+.2f} "
          f"| {error:.2f} | {(time.perf_counter() - t0) / 60:.1f} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    from bench.tally import run_all, wilson

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slug", default="classic")
    parser.add_argument("--against", default="hard")
    parser.add_argument("--games", type=int, default=100, help="matches (x2 seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--hands-only", action="store_true",
                        help="line games: the seer sees the hands, not the stock's order")
    parser.add_argument("--first-round", action="store_true",
                        help="line games: each match's first round alone (a hand), as "
                        "bench/ai.py --hands plays it")
    parser.add_argument("--hands", type=int, default=0,
                        help="trick games: single rounds (x2 seats), in points a round")
    parser.add_argument("--sees", default="all", choices=("all", "bidding", "play", "nothing"),
                        help="with --hands: where the seer sees every hand")
    parser.add_argument("--trust", type=float, default=None,
                        help="with --hands: the seer's bidding trust (default: expert's)")
    args = parser.parse_args(argv)
    if args.hands:
        return hands_main(args)
    family = variants.get(args.slug).family
    fn = trick_match if family == "tricks" else line_match
    tasks = [(args.slug, args.against, i, args.seed, args.hands_only)
             + ((args.first_round,) if fn is line_match else ()) for i in range(args.games)]
    t0 = time.perf_counter()
    results = run_all(fn, tasks, args.jobs)
    won = sum(w for w, _ in results)
    decided = sum(n for _, n in results)
    lo, hi = wilson(won, decided)
    print("| match | won/decided | share | 95% interval | minutes |")
    print("|---|---:|---:|---:|---:|")
    who = "seer of the hands" if args.hands_only else "seer"
    if args.first_round:
        who += ", first hands"
    print(f"| {args.slug}: {who} vs {args.against} | {won}/{decided} | {won / decided:.1%} "
          f"| {lo:.1%}-{hi:.1%} | {(time.perf_counter() - t0) / 60:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
